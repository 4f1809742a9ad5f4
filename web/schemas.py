"""Request bodies of the HTTP API, as msgspec Structs (validated by Litestar, and the
source of the OpenAPI document's request schemas)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from service.results import PenaltyLevel

__all__ = [
    "AdjustIn",
    "AppealIn",
    "BackupIn",
    "DeckIn",
    "DeckOpenIn",
    "DeckRegisterIn",
    "DisputeIn",
    "EndIn",
    "EntryIn",
    "NewGame",
    "PenaltyIn",
    "RetractIn",
    "RulingIn",
    "WhoAmI",
]


class DeckIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A decklist for a seat: an open list (``4 Fire Imp`` a line) or a sealed one
    (``COMMITMENT:SIZE`` as ``referee deck seal`` printed it)."""

    decklist: str | None = None
    sealed: str | None = None


class NewGame(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A game to start: its type, a name for every seat, the ruleset and variant switches,
    the game's own setup options (``GET /api/game-types/{name}`` lists them), decklists,
    and the tournament's labels (``event``, ``site``, ``round``, ``table``)."""

    game: str
    players: dict[str, str]
    ruleset: str | None = None
    variants: dict[str, str] = {}
    options: dict[str, Any] = {}
    decks: dict[str, DeckIn] = {}
    meta: dict[str, str] = {}


class EntryIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One entry in the game's notation; ``seat`` names who makes it when several seats may act."""

    text: str
    seat: str | None = None


class RetractIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    reason: str


class BackupIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    to: int
    reason: str


class EndIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``resignation`` (``who`` resigns), ``agreement`` (a draw), or ``adjudication``
    (``who`` wins, or ``draw``; or a ``ranking`` such as ``p2>p1=p3``)."""

    how: Literal["resignation", "agreement", "adjudication"]
    who: str | None = None
    ranking: str | None = None
    reason: str = ""


class DisputeIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A player disputes event ``event``; ``by`` is the player (a player's own token implies it)."""

    event: int
    claim: str
    by: str | None = None


class RulingIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    decision: Literal["uphold", "overturn"]
    clause: str
    reason: str
    final: bool = False


class AppealIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    grounds: str
    by: str | None = None


class PenaltyIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    seat: str
    level: PenaltyLevel
    infraction: str
    reason: str = ""


class AdjustIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A ruling on card text carried out as primitive changes
    (empty: the ruling changes nothing)."""

    card: str
    reason: str
    changes: str = ""
    resolves: int | None = None


class DeckRegisterIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    seat: str
    decklist: str | None = None
    sealed: str | None = None


class DeckOpenIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    decklist: str
    salt: str


class WhoAmI(msgspec.Struct, kw_only=True):
    """The caller as the service sees them."""

    role: str
    name: str
    tables: list[str]
    token_id: str

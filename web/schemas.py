"""Request bodies of the HTTP API, as msgspec Structs (validated by Litestar, and the
source of the OpenAPI document's request schemas)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from referee.kit.decks import Deck, SealedDeck, parse_decklist
from service.bounds import LINE, LIST, PAGE
from service.errors import RefusedError
from service.results import PenaltyLevel

__all__ = [
    "LINE",  # re-exported from service.bounds: the forms and pages read the bounds here
    "LIST",
    "PAGE",
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
    "WithdrawIn",
    "deck_of",
    "one_deck",
]


# Bounds on free text (issue 22): an entry, a name or a clause is a line; a reason, a
# claim or grounds a page; a decklist a long list. Longer is refused (422), never stored.
# (the numbers are service.bounds': one set for every door, issue 31)
Line = Annotated[str, msgspec.Meta(max_length=LINE)]
Page = Annotated[str, msgspec.Meta(max_length=PAGE)]
ListText = Annotated[str, msgspec.Meta(max_length=LIST)]


def deck_of(decklist: str | None, sealed: str | None, source: str = "the decklist") -> Deck | None:
    """The deck a body or a form gives: sealed (``COMMITMENT:SIZE``), else the open list
    (``source`` names it in a refusal), else none."""
    if sealed is not None:
        return SealedDeck.parse(sealed)
    return parse_decklist(decklist, source) if decklist is not None else None


def one_deck(
    decklist: str | None, sealed: str | None, refusal: str, source: str = "the decklist"
) -> Deck:
    """The one deck a body or a form gives: the list or sealed, not none, not both
    (``refusal``: the route's own words)."""
    if (decklist is None) == (sealed is None):
        raise RefusedError(refusal)
    deck = deck_of(decklist, sealed, source)
    assert deck is not None
    return deck


class DeckIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A decklist for a seat: an open list (``4 Fire Imp`` a line) or a sealed one
    (``COMMITMENT:SIZE`` as ``referee deck seal`` printed it)."""

    decklist: ListText | None = None
    sealed: Line | None = None


class NewGame(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A game to start: its type, a name for every seat, the ruleset and variant switches,
    the game's own setup options (``GET /api/game-types/{name}`` lists them), decklists,
    and the tournament's labels (``event``, ``site``, ``round``, ``table``).
    ``player_ids`` binds seats to player ids (seat -> id, as ``referee token create
    --role player`` printed it): a player's token then reads that seat, and only it."""

    game: Line
    players: dict[Line, Line]
    player_ids: dict[Line, Line] = {}
    ruleset: Line | None = None
    variants: dict[Line, Line] = {}
    options: dict[str, Any] = {}
    decks: dict[str, DeckIn] = {}
    meta: dict[Line, Line] = {}


class EntryIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One entry in the game's notation; ``seat`` names who makes it when several seats may act."""

    text: Line
    seat: Line | None = None


class RetractIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    reason: Page


class BackupIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    to: int
    reason: Page


class EndIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``resignation`` (``who`` resigns), ``agreement`` (a draw), or ``adjudication``
    (``who`` wins, or ``draw``; or a ``ranking`` such as ``p2>p1=p3``)."""

    how: Literal["resignation", "agreement", "adjudication"]
    who: Line | None = None
    ranking: Line | None = None
    reason: Page = ""


class DisputeIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A player disputes event ``event``; ``by`` is the player (a player's own token implies it)."""

    event: int
    claim: Page
    by: Line | None = None


class RulingIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    decision: Literal["uphold", "overturn"]
    clause: Line
    reason: Page
    final: bool = False


class AppealIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    grounds: Page
    by: Line | None = None


class PenaltyIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    seat: Line
    level: PenaltyLevel
    infraction: Line
    reason: Page = ""


class WithdrawIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Why a penalty is withdrawn (REF-7.3)."""

    reason: Page


class AdjustIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A ruling on card text carried out as primitive changes
    (empty: the ruling changes nothing); ``card`` names a card of the game's catalog, or
    is empty for a correction of the position no card caused (REF-6.5); ``revealed``:
    a named card moved between hidden zones was shown to the table (REF-6.6; otherwise
    only its seat and the referee read its name)."""

    reason: Page
    card: Line = ""
    changes: Line = ""
    resolves: int | None = None
    revealed: bool = False


class DeckRegisterIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    seat: Line
    decklist: ListText | None = None
    sealed: Line | None = None


class DeckOpenIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    decklist: ListText
    salt: Line


class WhoAmI(msgspec.Struct, kw_only=True):
    """The caller as the service sees them."""

    role: Line
    name: Line
    tables: list[str]
    token_id: Line

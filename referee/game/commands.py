"""What a referee asks of a game: the commands the decisions take.

Plain frozen msgspec Structs, one per command (a new game, a deck registered, a
retraction, a result, a penalty, a ruling, ...), and the entry (``EntryCommand``),
which the decisions of ``referee.game.decisions`` and ``referee.game.entries`` turn
into a game's facts or a refusal. The version the writer saw (HTTP ``If-Match``) is
not a command's field: the write pipeline checks it once, whichever door wrote
(``service.pipeline.with_terms``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from referee.contract import Player
from referee.game.entry import EntryCommand, Given, Versioned
from referee.game.facts import PenaltyLevel, RulingDecision
from referee.kit.adjustments import Change
from referee.kit.decks import Deck, Decklist
from referee.verdicts import Violation

__all__ = [
    "Adjust",
    "AnswerCall",
    "Appeal",
    "Backup",
    "CallJudge",
    "Command",
    "CreateGame",
    "End",
    "EndKind",
    "EntryCommand",
    "KeepRejection",
    "OpenDeck",
    "OpenDispute",
    "Penalize",
    "RegisterDeck",
    "Retract",
    "Rule",
    "SetTimeLimit",
    "Versioned",
    "WithdrawPenalty",
    "Write",
]

EndKind = Literal["resignation", "agreement", "adjudication"]


class CreateGame(Given, frozen=True, kw_only=True):
    """A new game. ``options`` are a face's raw values (converted by the game's setup
    fields, missing seeds drawn), or, with ``raw_options=False``, a recorded setup's
    options taken as they are. ``meta`` holds the tournament's labels."""

    game: str
    players: tuple[Player, ...]
    ruleset: str | None = None
    variants: Mapping[str, str] = msgspec.field(default_factory=dict)
    options: Mapping[str, Any] = msgspec.field(default_factory=dict)
    decks: Mapping[str, Deck] = msgspec.field(default_factory=dict)
    meta: Mapping[str, str] = msgspec.field(default_factory=dict)
    raw_options: bool = True
    imported_from: str | None = None


class RegisterDeck(Versioned, frozen=True, kw_only=True):
    who: str
    deck: Deck


class OpenDeck(Versioned, frozen=True, kw_only=True):
    who: str
    decklist: Decklist
    salt: str


class KeepRejection(Given, frozen=True, kw_only=True):
    """A rejection as a record states it (REF-8.1), not judged again."""

    text: str
    seq: int
    actor: str | None
    violations: tuple[Violation, ...]


class Retract(Versioned, frozen=True, kw_only=True):
    reason: str


class Backup(Versioned, frozen=True, kw_only=True):
    to_action: int
    reason: str


class End(Versioned, frozen=True, kw_only=True):
    how: EndKind
    who: str | None = None
    ranking: str | None = None
    reason: str = ""


class Penalize(Versioned, frozen=True, kw_only=True):
    who: str
    level: PenaltyLevel
    infraction: str
    reason: str = ""


class SetTimeLimit(Versioned, frozen=True, kw_only=True):
    """A game's time limit in minutes from its start (REF-10.1). The limit the game has is
    refused (nothing changed), unless ``recorded``: a stored record's line an import
    replays, which stores what the record holds."""

    minutes: int
    reason: str = ""
    recorded: bool = False


class CallJudge(Versioned, frozen=True, kw_only=True):
    """A judge called to a game outside an event, from the game (REF-11.1);
    ``idempotency_key`` (HTTP ``Idempotency-Key``) is stored with the call."""

    reason: str = ""
    idempotency_key: str = ""


class AnswerCall(Versioned, frozen=True, kw_only=True):
    """A referee's step on the game's call ``call``: ``claim``, ``escalate`` (``note``:
    why) or ``resolve`` (``note``: what was done); ``head``: by the head referee (REF-11.2)."""

    call: int
    step: str
    note: str = ""
    head: bool = False
    idempotency_key: str = ""  # stored with the step, as a call's


class WithdrawPenalty(Versioned, frozen=True, kw_only=True):
    """The penalty of stream event ``penalty`` withdrawn (REF-7.3)."""

    penalty: int
    reason: str


class Adjust(Versioned, frozen=True, kw_only=True):
    """``revealed`` (REF-6.6): whether a named card moved between hidden zones of its seat
    was shown to the table (``False``, the default: only its seat and the referee saw it);
    ``None`` for a line of a record made before the clause, which recorded no such word
    and took the card as seen."""

    changes: str | tuple[Change, ...]
    card: str
    reason: str
    resolves: int | None = None
    revealed: bool | None = False


class OpenDispute(Versioned, frozen=True, kw_only=True):
    event: int
    claim: str


class Appeal(Versioned, frozen=True, kw_only=True):
    dispute: int
    grounds: str


class Rule(Versioned, frozen=True, kw_only=True):
    dispute: int
    decision: RulingDecision
    clause: str
    reason: str
    final: bool = False


Command = (
    RegisterDeck
    | OpenDeck
    | KeepRejection
    | Retract
    | Backup
    | End
    | Penalize
    | SetTimeLimit
    | CallJudge
    | AnswerCall
    | WithdrawPenalty
    | Adjust
    | OpenDispute
    | Appeal
    | Rule
)


Write = Command | EntryCommand
"""Anything written to an existing game: a referee's command or an entry."""

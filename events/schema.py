"""Domain events of a game's stream: msgspec Structs with explicit, versioned topics.

Every event carries its game id, its 1-based number in the game's stream, a UTC
time, the hash of the previous event of the same game and its own hash, so that
an edited, deleted or reordered event is detectable (see ``events.integrity``).
Topics are explicit strings, never derived from module paths, so moving a class
never orphans stored events. A new shape of an event gets a new topic (``.v2``)
and an upcaster in ``events.codec``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

import msgspec

from events.base import GameEvent as GameEvent  # re-exported: every layer names it from here
from events.tournament import TOURNAMENT_KINDS, TOURNAMENT_TOPICS
from referee.contract import Player
from referee.kit.adjustments import Change
from referee.kit.decks import Deck, Decklist
from referee.outcomes import Placing, ranking_text
from referee.verdicts import RulingNeeded, Violation

GENESIS_HASH = "0" * 64

EndHow = Literal["rule", "resignation", "agreement", "adjudication", "penalty", "void"]
"""How a game ended; ``void``: closed by its event, counting for nothing (EV-3.9)."""
PenaltyLevel = Literal["warning", "game_loss", "match_loss", "disqualification"]
WithdrawHow = Literal["resignation", "penalty"]
RulingDecision = Literal["uphold", "overturn"]
RulingLevel = Literal["referee", "appeal", "final"]


class GameCreated(GameEvent, frozen=True, kw_only=True):
    """A game was set up: game type, pinned ruleset, resolved variants, players.

    ``meta`` holds the tournament's labels for the game (event, site, round,
    table, ...), as a scoresheet would carry them."""

    game: str
    ruleset: str
    variants: dict[str, str]
    players: tuple[Player, ...]
    options: dict[str, Any] = {}
    created_by: str = ""
    imported_from: str | None = None
    meta: dict[str, str] = {}


class GameCreatedV1(GameEvent, frozen=True, kw_only=True):
    """``referee.GameCreated.v1``: a creation without tournament labels (read, never written)."""

    game: str
    ruleset: str
    variants: dict[str, str]
    players: tuple[Player, ...]
    options: dict[str, Any] = {}
    created_by: str = ""
    imported_from: str | None = None


class ActionRecorded(GameEvent, frozen=True, kw_only=True):
    """A checked, legal action became part of the game.

    ``seq`` is the action's number in the standing line of play (a retracted
    action's number is reused by the next action); ``action`` is the game's
    action Struct as JSON, decoded at replay with the game's own type.
    """

    seq: int
    actor: str
    action: msgspec.Raw
    notation: str
    recorded_by: str = ""


class ActionRejected(GameEvent, frozen=True, kw_only=True):
    """An attempted action that broke a clause; evidence only, the position is unchanged.

    ``seq`` is the number the action would have had.
    """

    seq: int
    actor: str | None
    text: str
    violations: tuple[Violation, ...]
    recorded_by: str = ""


class ActionRetracted(GameEvent, frozen=True, kw_only=True):
    """A correction: the standing action ``seq`` (stream event ``event``) is taken back."""

    seq: int
    event: int
    reason: str
    by: str = ""


class GameEnded(GameEvent, frozen=True, kw_only=True):
    """The game has a result: a ``winner`` seat, a draw (``None``), or a ``ranking``.

    ``ranking`` holds every seat's place in games of three or more seats (ties
    share a rank) and may be empty for a two-seat result, where ``winner`` says
    it all; ``tiebreak`` names the rule that separated tied scores."""

    winner: str | None
    how: EndHow
    clause: str
    reason: str = ""
    by: str = ""
    ranking: tuple[Placing, ...] = ()
    tiebreak: str = ""

    @property
    def result(self) -> str:
        if self.how == "void":
            return "void"
        if self.ranking and len(self.ranking) > 2:
            return ranking_text(self.ranking)
        return self.winner if self.winner is not None else "draw"

    def placings(self, seats: tuple[str, ...]) -> tuple[Placing, ...]:
        """Every seat's place; two-seat results without a ranking are derived."""
        if self.ranking:
            return self.ranking
        if self.winner is None:
            return tuple(Placing(s, 1) for s in seats)
        return tuple(Placing(s, 1 if s == self.winner else 2) for s in seats)


class GameEndedV1(GameEvent, frozen=True, kw_only=True):
    """``referee.GameEnded.v1``: the two-seat result before rankings (read, never written)."""

    winner: str | None
    how: Literal["rule", "resignation", "agreement", "adjudication"]
    clause: str
    reason: str = ""
    by: str = ""


class ResultVoided(GameEvent, frozen=True, kw_only=True):
    """A declared result (stream event ``event``) set aside by a ruling; the game is open again."""

    event: int
    reason: str
    by: str = ""


class DisputeOpened(GameEvent, frozen=True, kw_only=True):
    """A player disputes the referee's handling of stream event ``event``."""

    dispute: int
    event: int
    by: str
    claim: str


class DisputeRuled(GameEvent, frozen=True, kw_only=True):
    """A ruling on a dispute: by the table referee, on appeal, or final (head referee)."""

    dispute: int
    decision: RulingDecision
    level: RulingLevel
    clause: str
    reason: str
    by: str


class DisputeAppealed(GameEvent, frozen=True, kw_only=True):
    """A party appeals the latest ruling on a dispute to a higher referee."""

    dispute: int
    by: str
    grounds: str


class DeckRegistered(GameEvent, frozen=True, kw_only=True):
    """A seat's decklist registered before play: open (the list) or sealed (a commitment)."""

    seat: str
    deck: Deck
    by: str = ""


class DeckOpened(GameEvent, frozen=True, kw_only=True):
    """A sealed list shown at a deck check or at the end, with the salt that opens it.

    ``violations`` is empty when the list opens the commitment and covers every card
    seen in play; otherwise the list is kept as evidence and the registration stays
    sealed."""

    seat: str
    decklist: Decklist
    salt: str
    violations: tuple[Violation, ...] = ()
    by: str = ""


class RulingRequested(GameEvent, frozen=True, kw_only=True):
    """The action of stream event ``event`` carries effects only a referee can rule on."""

    event: int
    seat: str
    rulings: tuple[RulingNeeded, ...]


class AdjustmentRecorded(GameEvent, frozen=True, kw_only=True):
    """A referee's ruling carried out as primitive changes (none, when it has no effect).

    ``resolves`` is the ``RulingRequested`` event it answers, if any; ``card`` the
    card whose effect it carries out; ``notation`` the changes as text."""

    resolves: int | None
    card: str
    changes: tuple[Change, ...]
    notation: str
    reason: str
    by: str = ""


class PenaltyIssued(GameEvent, frozen=True, kw_only=True):
    """A judge's penalty: a warning, or a game loss, match loss or disqualification
    (which end the seat's game in the same append)."""

    seat: str
    penalty: PenaltyLevel
    infraction: str
    reason: str = ""
    by: str = ""


class PenaltyWithdrawn(GameEvent, frozen=True, kw_only=True):
    """The penalty of stream event ``penalty`` withdrawn by the head referee (REF-7.3): it
    stops counting (for upgrades too); what it did to the game is reversed by the events
    written beside this one (a result it declared voided), never by editing it."""

    penalty: int
    reason: str
    by: str = ""


class SeatWithdrawn(GameEvent, frozen=True, kw_only=True):
    """A seat leaves a game of three or more that the others play on (REF-3.5)."""

    seat: str
    how: WithdrawHow
    clause: str
    reason: str = ""
    by: str = ""


class TimeLimitSet(GameEvent, frozen=True, kw_only=True):
    """A game's time limit in minutes from its start, set or changed by a referee (a game
    outside an event; an event's tables run on its round clock, EV-9.1)."""

    minutes: int
    reason: str = ""
    by: str = ""


class OfflineEntry(msgspec.Struct, frozen=True, kw_only=True):
    """An entry a table recorded while the server could not be reached (REF-9.4): its
    text, its seat if named apart, its idempotency key, when the table recorded it, and
    what the table's own copy of the game made of it (``judged``), on which version of it
    (``judged_on``)."""

    text: str
    seat: str | None = None
    key: str
    recorded_at: datetime
    judged: str = ""
    judged_on: int = 0


class EntriesMerged(GameEvent, frozen=True, kw_only=True):
    """Entries a table recorded offline on ``base_version``, stored as if they had arrived
    live because the game did not move meanwhile (REF-9.4): ``events`` are the events
    they became, in the order of ``entries``, which keep the times the table recorded
    them beside the server's own (this event's time)."""

    device: str
    base_version: int
    entries: tuple[OfflineEntry, ...]
    events: tuple[int, ...]
    by: str = ""


class BranchRecorded(GameEvent, frozen=True, kw_only=True):
    """Entries a table recorded offline on ``base_version`` of a game that moved on the
    server meanwhile (REF-9.5): kept whole as evidence, not folded into the game.
    ``theirs`` is what the table made of each entry, ``ours`` one line per server event
    since ``base_version``: the two branches side by side for the head referee."""

    device: str
    base_version: int
    entries: tuple[OfflineEntry, ...]
    theirs: tuple[str, ...]
    ours: tuple[str, ...]
    reason: str = ""
    by: str = ""


BranchKept = Literal["server", "table"]


class BranchResolved(GameEvent, frozen=True, kw_only=True):
    """The head referee's choice between the branches of ``BranchRecorded`` event
    ``branch`` (REF-9.5): ``server`` keeps the game as it is; ``table`` retracted the
    server's entries after the branch's base and recorded the table's before this."""

    branch: int
    kept: BranchKept
    reason: str = ""
    by: str = ""


TOPICS: dict[str, type[GameEvent]] = {
    "referee.GameCreated.v2": GameCreated,
    "referee.ActionRecorded.v1": ActionRecorded,
    "referee.ActionRejected.v1": ActionRejected,
    "referee.ActionRetracted.v1": ActionRetracted,
    "referee.GameEnded.v2": GameEnded,
    "referee.ResultVoided.v1": ResultVoided,
    "referee.DisputeOpened.v1": DisputeOpened,
    "referee.DisputeRuled.v1": DisputeRuled,
    "referee.DisputeAppealed.v1": DisputeAppealed,
    "referee.DeckRegistered.v1": DeckRegistered,
    "referee.DeckOpened.v1": DeckOpened,
    "referee.RulingRequested.v1": RulingRequested,
    "referee.AdjustmentRecorded.v1": AdjustmentRecorded,
    "referee.PenaltyIssued.v1": PenaltyIssued,
    "referee.PenaltyWithdrawn.v1": PenaltyWithdrawn,
    "referee.SeatWithdrawn.v1": SeatWithdrawn,
    "referee.EntriesMerged.v1": EntriesMerged,
    "referee.BranchRecorded.v1": BranchRecorded,
    "referee.BranchResolved.v1": BranchResolved,
    "referee.TimeLimitSet.v1": TimeLimitSet,
    **TOURNAMENT_TOPICS,  # each event (tournament) is a stream of its own in the same store
}
"""Every topic written today, with the class that writes it."""

LEGACY_TOPICS: dict[str, type[GameEvent]] = {
    "referee.GameCreated.v1": GameCreatedV1,
    "referee.GameEnded.v1": GameEndedV1,
}
"""Topics of earlier versions: read exactly with their own class (for hashing and
canonical checks), then upcast to today's class (``events.codec``)."""

SUPERSEDED_BY: dict[str, type[GameEvent]] = {
    "referee.GameCreated.v1": GameCreated,
    "referee.GameEnded.v1": GameEnded,
}
"""Each legacy topic and the class it is read as today."""

TOPIC_OF: dict[type[GameEvent], str] = {cls: topic for topic, cls in TOPICS.items()}


def topics_for(cls: type[GameEvent]) -> list[str]:
    """Every topic stored events of ``cls`` may carry: today's and older ones."""
    return [TOPIC_OF[cls]] + [topic for topic, new in SUPERSEDED_BY.items() if new is cls]


AnyEvent = (
    GameCreated
    | ActionRecorded
    | ActionRejected
    | ActionRetracted
    | GameEnded
    | ResultVoided
    | DisputeOpened
    | DisputeRuled
    | DisputeAppealed
    | DeckRegistered
    | DeckOpened
    | RulingRequested
    | AdjustmentRecorded
    | PenaltyIssued
    | PenaltyWithdrawn
    | SeatWithdrawn
    | EntriesMerged
    | BranchRecorded
    | BranchResolved
    | TimeLimitSet
)

KINDS: dict[type[GameEvent], str] = {
    GameCreated: "created",
    ActionRecorded: "action",
    ActionRejected: "rejected",
    ActionRetracted: "retracted",
    GameEnded: "ended",
    ResultVoided: "voided",
    DisputeOpened: "dispute",
    DisputeRuled: "ruling",
    DisputeAppealed: "appeal",
    DeckRegistered: "deck",
    DeckOpened: "deck-opened",
    RulingRequested: "ruling-needed",
    AdjustmentRecorded: "adjustment",
    PenaltyIssued: "penalty",
    PenaltyWithdrawn: "penalty-withdrawal",  # "penalty-withdrawn" is the event stream's fact
    SeatWithdrawn: "withdrawn",
    EntriesMerged: "offline-merged",
    BranchRecorded: "branch",
    BranchResolved: "branch-resolved",
    TimeLimitSet: "time-limit",
    **TOURNAMENT_KINDS,
}


KIND_OF_TOPIC: dict[str, str] = {
    **{topic: KINDS[cls] for topic, cls in TOPICS.items()},
    **{topic: KINDS[cls] for topic, cls in SUPERSEDED_BY.items()},
}


def topic_of(event: GameEvent) -> str:
    return TOPIC_OF[type(event)]


def kind_of(event: GameEvent) -> str:
    """Short lower-case name of an event's kind, for logs and exports."""
    return KINDS[type(event)]

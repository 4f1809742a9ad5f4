"""A game's facts: what a game's stream records, defined beside its rules.

As a tournament's facts are (``referee.tournament.facts``), these are plain frozen
msgspec Structs that say what happened at a table: a game set up, an action
recorded or rejected, a correction, a result, a dispute and its rulings, a penalty.
The referee's decisions (``referee.game.decisions``, ``referee.game.entries``)
return them; nothing here stores, numbers or seals anything.

Each fact carries the fields of a numbered fact of a stream (``GameEvent``: the
stream's id, the fact's number in it, its time, and the chain's previous and own
hash, filled in by the event layer when it seals them), because the procedure
itself refers to earlier facts by their numbers (a retraction names the event it
takes back, a dispute the decision it disputes). The event layer (``events``) maps
each type to its stored topic (``events.schema.TOPICS``), seals and stores them:
the classes moved here from ``events.schema`` unchanged, field for field, so their
stored bytes and hashes are the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

import msgspec

from referee.contract import Player, Setup
from referee.kit.adjustments import Change
from referee.kit.decks import Deck, Decklist
from referee.outcomes import Placing, ranking_text
from referee.verdicts import RulingNeeded, Violation

__all__ = [
    "ActionRecorded",
    "ActionRejected",
    "ActionRetracted",
    "AdjustmentRecorded",
    "BranchKept",
    "BranchRecorded",
    "BranchResolved",
    "DeckOpened",
    "DeckRegistered",
    "Dispute",
    "DisputeAppealed",
    "DisputeOpened",
    "DisputeRuled",
    "EndHow",
    "EntriesMerged",
    "GameCallAnswered",
    "GameCreated",
    "GameEnded",
    "GameEvent",
    "JudgeCalledToGame",
    "OfflineEntry",
    "PenaltyIssued",
    "PenaltyLevel",
    "PenaltyWithdrawn",
    "ResultVoided",
    "RulingDecision",
    "RulingLevel",
    "RulingRequested",
    "SeatWithdrawn",
    "TimeLimitSet",
    "WithdrawHow",
    "game_opened",
]


class GameEvent(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Fields common to every stored event: the stream's id, the event's 1-based number
    in it, a UTC time, the previous event's hash and its own (``events.integrity``).

    ``token_id`` names the access token that wrote the event (``referee serve``: which
    device, where ``by``/``recorded_by`` names its holder). It is ``UNSET`` for events
    written without a token (the command line, and every event stored before it
    existed) and then left out of the encoding, so those keep their bytes and hashes;
    when set it is hashed with the rest. A token id is no secret (tokens store only
    a hash of their secret half).

    ``write_key`` is the idempotency key (HTTP ``Idempotency-Key``) a game's write was
    sent with, on the first event of that write (``service.pipeline.stage``): a retry
    with it is known from the game's own log, in any process, and answered as the first
    time without a second event. ``UNSET`` (left out of the encoding, so every event
    stored before it existed keeps its bytes and hash) for a write sent without one. An
    event's (tournament's) stream keeps its writes' keys in ``idempotency_key``
    (``events.tournament.TournamentEvent``), as a judge call did before this field."""

    originator_id: str
    originator_version: int
    timestamp: datetime
    prev_hash: str
    hash: str = ""
    token_id: str | msgspec.UnsetType = msgspec.UNSET
    write_key: str | msgspec.UnsetType = msgspec.UNSET

    @property
    def token(self) -> str:
        """The writing token's id, or ``""`` when none was recorded."""
        return self.token_id if isinstance(self.token_id, str) else ""


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


def game_opened(
    header: Mapping[str, Any],
    game: str,
    setup: Setup,
    *,
    by: str,
    meta: dict[str, str],
    decks: Mapping[str, Deck],
    imported_from: str | None = None,
) -> list[GameEvent]:
    """A new game's first facts, each stamped with ``header``: its creation from the
    resolved ``setup``, then the decklist registered for each seat in ``decks``."""
    created = GameCreated(
        **header,
        game=game,
        ruleset=str(setup.ruleset),
        variants=setup.variants,
        players=setup.players,
        options=setup.options,
        created_by=by,
        meta=meta,
        imported_from=imported_from,
    )
    return [created, *(DeckRegistered(**header, seat=s, deck=d, by=by) for s, d in decks.items())]


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
    card whose effect it carries out; ``notation`` the changes as text. ``revealed``
    (REF-6.6): ``False`` when it names a card moved between hidden zones of its seat that
    only that seat and the referee saw, ``True`` when the referee recorded such a card as
    shown to the table; ``UNSET`` when it moves no such card, and for every adjustment
    recorded before the clause (left out of the encoding, so those keep their bytes and
    their hashes; their named moves between hidden zones are read as kept hidden, since
    nothing in the record says the table saw the card)."""

    resolves: int | None
    card: str
    changes: tuple[Change, ...]
    notation: str
    reason: str
    by: str = ""
    revealed: bool | msgspec.UnsetType = msgspec.UNSET

    @property
    def kept_hidden(self) -> bool:
        """Whether the referee recorded its named moves between hidden zones as kept from
        the other viewers (``revealed`` False): how the record says it, for its readers."""
        return self.revealed is False

    @property
    def shown_to_all(self) -> bool:
        """Whether its named moves between hidden zones are everyone's to read: only when
        the referee recorded them revealed. A record made before REF-6.6 said no word, and
        a card moved between hidden zones is then kept hidden as well (the zones say it,
        not the record: what the table could not see, no view shows)."""
        return self.revealed is True


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


class JudgeCalledToGame(GameEvent, frozen=True, kw_only=True):
    """A judge called to a game outside an event, from the game (REF-11.1): by a seated
    player (their name) or a referee; the referees' queue lists it until it is resolved."""

    by: str
    reason: str = ""
    idempotency_key: str | msgspec.UnsetType = msgspec.UNSET
    """The key its writer sent (HTTP ``Idempotency-Key``): a retry with it is refused,
    nothing stored twice (``service.pipeline.check_terms``); unset when none was sent."""


class GameCallAnswered(GameEvent, frozen=True, kw_only=True):
    """A step on the call of stream event ``call`` (REF-11.2): ``claim``, ``escalate``
    (``note``: why) or ``resolve`` (``note``: what was done)."""

    call: int
    step: Literal["claim", "escalate", "resolve"]
    by: str
    note: str = ""
    idempotency_key: str | msgspec.UnsetType = msgspec.UNSET  # as ``JudgeCalledToGame``'s


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


def rejected_offline(entries: tuple[OfflineEntry, ...]) -> bool:
    """Whether the table's own copy rejected every one of ``entries`` (REF-9.6): such a
    branch moved nothing at the table, so it is no line of play to choose against the
    server's."""
    return bool(entries) and all(e.judged.startswith("rejected ") for e in entries)


BranchHeld = tuple[int, tuple[str, ...]]
"""What a table's branch holds, as far as telling branches apart goes: the version it was
judged on and its entries' keys, in order (``held_by``)."""


def held_by(event: BranchRecorded) -> BranchHeld:
    """(base version, entry keys) of a branch kept as evidence (REF-9.7)."""
    return event.base_version, tuple(e.key for e in event.entries)


def holds_whole(later: BranchHeld, earlier: BranchHeld) -> bool:
    """Whether the branch ``later`` holds the branch ``earlier`` whole (REF-9.7): judged on
    the same version, its entries begin with every one of ``earlier``'s, in their order (the
    table went on recording on that branch after the answer to it was lost). Keeping the
    later one keeps all the earlier one would have, and more: the earlier one is superseded."""
    (base, keys), (their_base, their_keys) = later, earlier
    return base == their_base and bool(their_keys) and keys[: len(their_keys)] == their_keys


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


class Dispute(msgspec.Struct, kw_only=True):
    """A dispute as the stream tells it: the claim and its rulings and appeals in order."""

    number: int
    event: int
    opened: DisputeOpened
    steps: list[DisputeRuled | DisputeAppealed] = []

    @property
    def status(self) -> str:
        if not self.steps:
            return "open"
        last = self.steps[-1]
        if isinstance(last, DisputeAppealed):
            return "appealed"
        return "closed" if last.level == "final" else f"ruled ({last.decision})"

    @property
    def final(self) -> bool:
        last = self.steps[-1] if self.steps else None
        return isinstance(last, DisputeRuled) and last.level == "final"

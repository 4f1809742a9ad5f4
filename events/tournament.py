"""Stored events of a tournament's stream: one msgspec Struct per tournament fact.

An event (tournament) is its own stream in the same store as the games, with the
same common fields (id, number, time, previous hash, own hash), so the integrity
chain, ``verify``, checkpoints, export and import cover it unchanged. Each stored
type carries exactly the fields of its pure fact (``referee.tournament.facts``),
plus, for a registration, the player's event decklist. The types are made here,
in one place, from the facts themselves: encoding (topic, kind), the text form
(``summary``) and the fold (``to_fact`` then ``referee.tournament.apply``).

Topics are explicit and versioned (``referee.event.RoundPaired.v1``): a new
shape of a fact gets a new topic and an upcaster, as game events do.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from events.base import GameEvent
from events.deferred import Deferred
from referee.kit.decks import Deck, SealedDeck

if TYPE_CHECKING:
    from referee.tournament import facts as f
    from referee.tournament.model import Placement, Score
    from referee.tournament.state import Tournament

__all__ = [
    "EVENT_PREFIX",
    "TOURNAMENT_KINDS",
    "TOURNAMENT_TOPICS",
    "TournamentEvent",
    "fold_stored",
    "is_tournament_event",
    "stored_type",
    "summary",
    "to_fact",
    "to_stored",
    "to_stored_all",
]

EVENT_PREFIX = "ev-"
"""Every event (tournament) id starts with this, then eight characters like a game id's."""


class TournamentEvent(GameEvent, frozen=True, kw_only=True):
    """Fields common to every stored event of a tournament stream.

    ``idempotency_key`` is the key a writer sent with the write that stored this event
    (the first of its write's events; HTTP ``Idempotency-Key``), so a retry of a write
    that was stored is known from the stream itself, in the same transaction as the
    write. It is ``UNSET`` otherwise, and then left out of the encoding, so every event
    written without one (all before it existed) keeps its bytes and hash."""

    idempotency_key: str | msgspec.UnsetType = msgspec.UNSET

    @property
    def key(self) -> str:
        """The write's idempotency key, or ``""`` when none was recorded."""
        return self.idempotency_key if isinstance(self.idempotency_key, str) else ""


_FACT_NAMES: tuple[str, ...] = (
    "EventCreated",
    "PlayerRegistered",
    "PlayerDropped",
    "ByeAwarded",
    "RoundPaired",
    "PairingChanged",
    "GameLinked",
    "GameResultRecorded",
    "MatchReported",
    "ResultCorrected",
    "PenaltyRecorded",
    "RoundStarted",
    "RoundEnded",
    "CutMade",
    "EventEnded",
    "RoundUndone",
    "PlayerUndropped",
    "SettingsChanged",
    "GamesVoided",
    "PenaltyWithdrawn",
    "DecklistAttached",
    "PenaltyApplied",
    "JudgeCalled",
    "CallClaimed",
    "CallEscalated",
    "CallResolved",
    "ReportFiled",
    "ReportConfirmed",
    "ReportDisputed",
    "EventHandedOver",
    "RoundLengthSet",
    "ClockMarked",
    "TimeExtended",
    "RatingCorrected",
)
"""The facts of ``referee.tournament.facts`` stored as events, by name (the tests hold it
to the union ``Fact``): their topics are known without importing the tournament package."""

_EXTRA: dict[str, list[tuple[str, Any, Any]]] = {
    "EventCreated": [("name", str, "")],  # the event's display name
    # The event decklist: open, or sealed until the event publishes lists.
    "PlayerRegistered": [("deck", Deck | None, None)],
    "DecklistAttached": [("deck", Deck | None, None)],  # the list attached or replacing
}


def _topic(name: str) -> str:
    return f"referee.event.{name}.v1"


def _field_spec(info: msgspec.structs.FieldInfo) -> tuple[str, Any] | tuple[str, Any, Any]:
    if info.default is not msgspec.NODEFAULT:
        return (info.name, info.type, info.default)
    if info.default_factory is not msgspec.NODEFAULT:
        return (info.name, info.type, msgspec.field(default_factory=info.default_factory))
    return (info.name, info.type)


def _stored_class(fact: type[Any]) -> type[TournamentEvent]:
    fields = [_field_spec(i) for i in msgspec.structs.fields(fact)] + _EXTRA.get(fact.__name__, [])
    made: type[TournamentEvent] = msgspec.defstruct(  # type: ignore[assignment]
        f"Event{fact.__name__}" if not fact.__name__.startswith("Event") else fact.__name__,
        fields,
        bases=(TournamentEvent,),
        module=__name__,
        frozen=True,
        kw_only=True,
    )
    return made


class _Stored(NamedTuple):
    """The stored types, made from the facts: each fact's, each's fact, topic and kind."""

    of_fact: dict[type[Any], type[TournamentEvent]]
    fact_of: dict[type[TournamentEvent], type[Any]]
    topics: dict[str, type[GameEvent]]
    kinds: dict[type[GameEvent], str]


_made: list[_Stored] = []
_making = threading.Lock()


def _stored() -> _Stored:
    """Made when first needed, not at import: making the 33 types reads every fact's
    annotations and imports the tournament package, which a one-game command (``referee
    act``) never needs (about a tenth of its instructions). Made once, under a lock: a
    server's threads must all see the same types."""
    if _made:
        return _made[0]
    with _making:
        if not _made:
            _made.append(_make_stored())
    return _made[0]


def _make_stored() -> _Stored:
    from referee.tournament import facts

    of_fact = {fact: _stored_class(fact) for fact in (getattr(facts, n) for n in _FACT_NAMES)}
    return _Stored(
        of_fact=of_fact,
        fact_of={stored: fact for fact, stored in of_fact.items()},
        topics={_topic(fact.__name__): stored for fact, stored in of_fact.items()},
        kinds={stored: fact.__struct_config__.tag for fact, stored in of_fact.items()},
    )


TOURNAMENT_TOPICS: Mapping[str, type[GameEvent]] = Deferred(
    {}, lambda: _stored().topics, keys=tuple(_topic(n) for n in _FACT_NAMES)
)
"""Topic of each stored tournament event type (merged into ``events.schema.TOPICS``); its
keys are known at once, its types made when one is first read."""

TOURNAMENT_KINDS: Mapping[type[GameEvent], str] = Deferred({}, lambda: _stored().kinds)
"""Short kind of each (the fact's tag: ``round-paired``, ``match-reported``, ...)."""


def stored_type(fact: type[Any]) -> type[TournamentEvent]:
    """The stored event type that carries ``fact``."""
    return _stored().of_fact[fact]


def is_tournament_event(event: object) -> bool:
    return isinstance(event, TournamentEvent)


def to_stored(fact: f.Fact, header: dict[str, Any], **extra: Any) -> TournamentEvent:
    """The stored event for ``fact`` with the stream's ``header`` fields (id, number, time)."""
    cls = _stored().of_fact[type(fact)]
    return cls(**header, **msgspec.structs.asdict(fact), **extra)


def to_stored_all(facts: Iterable[f.Fact], header: dict[str, Any]) -> list[TournamentEvent]:
    """``to_stored(fact, header)`` of each of ``facts`` (a pairing's 5,000 games linked),
    with the stored types looked up once."""
    of_fact, asdict = _stored().of_fact, msgspec.structs.asdict
    return [of_fact[type(fact)](**header, **asdict(fact)) for fact in facts]


def to_fact(event: GameEvent) -> f.Fact:
    """The pure fact a stored tournament event carries (for folding)."""
    cls = _stored().fact_of[type(event)]  # type: ignore[index]
    fact: f.Fact = cls(**{name: getattr(event, name) for name in cls.__struct_fields__})
    return fact


def _stored_steps() -> dict[type, Any]:
    from referee.tournament.state import RUN_STEPS

    return {
        stored: RUN_STEPS[fact] for stored, fact in _stored().fact_of.items() if fact in RUN_STEPS
    }


def fold_stored(events: Iterable[GameEvent], state: Tournament | None = None) -> Tournament:
    """``fold(to_fact(e) for e in events)``: a stored event carries its fact's fields by the
    same names and values, so the facts folded in runs (registrations, games linked and
    voided, results: 125,000 of a 10,000-player event's 135,000 by round 9) are folded from
    the stored events themselves, without making each fact first."""
    from referee.tournament.state import fold_carried

    return fold_carried(events, _STORED_STEPS(), to_fact, state)


_STORED_STEPS = functools.cache(_stored_steps)


def _result_text(score: Score | None, placement: Placement | None) -> str:
    if score is not None:
        return score.text
    return placement.text if placement is not None else "?"


def summary(event: GameEvent) -> str:
    """One line saying what a stored tournament event records (ids, not display names)."""
    from referee.tournament import facts as f

    fact = to_fact(event)
    match fact:
        case f.EventCreated(settings=s):
            shape = s.format + (" pods" if s.pods else "")
            rounds = f", {s.rounds} rounds" if s.rounds else ""
            cut = f", top {s.cut} cut" if s.cut else ""
            return f"event created: {s.game} {shape}, {s.match}{rounds}{cut}"
        case f.PlayerRegistered(player=p):
            deck = getattr(event, "deck", None)
            what = "late entry" if p.entry_round > 1 else "registered"
            extra = f", rating {p.rating}" if p.rating is not None else ""
            extra += f", {p.byes} awarded bye(s)" if p.byes else ""
            if deck is not None:
                sealed = isinstance(deck, SealedDeck) and deck.commitment
                extra += f", {'sealed' if sealed else 'open'} list of {deck.size} cards"
            return f"{what}: {p.name} ({p.id}){extra}"
        case f.PlayerDropped(player=p, after_round=n, reason=why):
            return f"dropped: {p} after round {n}" + (f" ({why})" if why else "")
        case f.ByeAwarded(player=p, round=n):
            return f"bye awarded: {p} in round {n}"
        case f.RoundPaired(round=r, override=why, by=by, plan=plan):
            tables = sum(1 for p in r.pairings if not p.bye)
            byes = len(r.pairings) - tables
            who = f" by {by}" if isinstance(by, str) and by else ""
            manual = f" by hand{who} ({why})" if why else ""
            said = f"round {r.number} ({r.kind}) paired{manual}: {tables} tables, {byes} byes"
            if not isinstance(plan, msgspec.UnsetType):  # the default rounds it fixed (EV-I.14)
                said += f"; {plan.rounds} Swiss rounds from its {plan.players} players"
            return said
        case f.PairingChanged(round=r, reason=why, by=by):
            return f"round {r.number} re-paired by {by or 'the head judge'}: {why}"
        case f.GameLinked(round=n, table=t, game=g):
            return f"round {n} table {t}: game {g}"
        case f.GameResultRecorded(game=g, placings=placings):
            return f"game {g} ended: " + ", ".join(f"{p}={place}" for p, place in placings)
        case f.MatchReported(round=n, table=t, score=score, placement=placement):
            return f"round {n} table {t} reported {_result_text(score, placement)}"
        case f.ResultCorrected(round=n, table=t, score=score, placement=placement, reason=why):
            return f"round {n} table {t} corrected to {_result_text(score, placement)}: {why}"
        case f.PenaltyRecorded(player=p, infraction=what, penalty=pen, suggested=sug):
            return f"penalty: {pen} for {p} ({what}; the IPG suggests {sug})"
        case f.RoundStarted(round=n, by=by):
            return f"round {n} started" + (f" by {by}" if by else "")  # unset: marked unnamed
        case f.RoundEnded(round=n, by=by):
            return f"round {n} ended" + (f" by {by}" if by else "")
        case f.CutMade(seeds=seeds):
            return f"top {len(seeds)} cut: " + ", ".join(seeds)
        case f.EventEnded(reason=why):
            return "event ended" + (f": {why}" if why else "")
        case f.RoundUndone(round=n, reason=why, by=by):
            return f"round {n} undone by {by or 'the head judge'}: {why}"
        case f.PlayerUndropped(player=p, reason=why):
            return f"undropped: {p} ({why})"
        case f.RatingCorrected(player=p, rating=rating, reason=why):
            now = "no rating" if rating is None else f"{rating}"
            return f"rating corrected: {p} now {now} ({why})"
        case f.SettingsChanged(rounds=rounds, cut=cut, reason=why):
            changed = [f"{rounds} Swiss rounds"] if rounds is not None else []
            changed += [f"top {cut} cut" if cut else "no cut"] if cut is not None else []
            return f"settings changed: {', '.join(changed)} ({why})"
        case f.GamesVoided(games=games, reason=why):
            return f"{len(games)} game(s) closed as void ({why}): " + ", ".join(games)
        case f.PenaltyWithdrawn(penalty=n, reason=why):
            return f"penalty {n} withdrawn: {why}"
        case f.PenaltyApplied(penalty=n, round=r, table=t, game=g):
            where = f"game {g}" if g else f"the match at round {r} table {t}"
            return f"penalty {n} applied to {where}"
        case f.DecklistAttached(player=p):
            deck = getattr(event, "deck", None)
            size = f" of {deck.size} cards" if deck is not None else ""
            return f"decklist{size} attached for {p}"
        case f.JudgeCalled(call=n, round=r, table=t, by=by, reason=why):
            return f"judge call {n}: round {r} table {t} by {by}" + (f": {why}" if why else "")
        case f.CallClaimed(call=n, by=by):
            return f"judge call {n} claimed by {by}"
        case f.CallEscalated(call=n, by=by, reason=why):
            return f"judge call {n} escalated by {by}" + (f": {why}" if why else "")
        case f.CallResolved(call=n, by=by, note=note):
            return f"judge call {n} resolved by {by}: {note}"
        case f.ReportFiled(report=n, round=r, table=t, player=p, score=score):
            return f"report {n}: round {r} table {t} {score.text} by {p}"
        case f.ReportConfirmed(report=n, player=p):
            return f"report {n} confirmed by {p}"
        case f.ReportDisputed(report=n, player=p, reason=why):
            return f"report {n} disputed by {p}" + (f": {why}" if why else "")
        case f.EventHandedOver(to=to, by=by, streams=streams):
            return f"handed over: run from store {to!r} (was {by!r}), {len(streams)} streams"
        case f.RoundLengthSet(minutes=n, reason=why):
            return f"round length set to {n} minutes" + (f" ({why})" if why else "")
        case f.ClockMarked(round=n, action=action, at=at):
            done = {"start": "started", "pause": "paused", "resume": "resumed", "end": "ended"}
            return f"round {n} clock {done[action]} at {at.isoformat(timespec='seconds')}"
        case f.TimeExtended(round=n, table=t, minutes=m, reason=why):
            return f"round {n} table {t}: {m} extra minute{'s' if m != 1 else ''} ({why})"
    return type(event).__name__

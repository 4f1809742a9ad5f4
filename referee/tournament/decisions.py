"""Decisions: a command checked against the state gives new facts, or a refusal.

Pure functions, like a reducer's counterpart: ``decide(state, command)`` returns
the facts to store (``fold`` them to get the new state) or raises ``Refusal``
naming the ``EV-`` clause broken and why, in plain words. Nothing is stored on a
refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

import msgspec

from referee.tournament import fixing
from referee.tournament.brackets import (
    bracket_seeds,
    next_bracket_round,
    round_robin_round,
    seed_bracket,
)
from referee.tournament.clock import MARK_NEEDS
from referee.tournament.errors import Refusal, unpaired
from referee.tournament.facts import (
    ByeAwarded,
    ClockAction,
    ClockMarked,
    CutMade,
    EventCreated,
    EventEnded,
    Fact,
    GameLinked,
    GameResultRecorded,
    GamesVoided,
    MatchReported,
    PairingChanged,
    PenaltyApplied,
    PenaltyLevel,
    PenaltyRecorded,
    PlayerDropped,
    PlayerRegistered,
    ResultCorrected,
    RoundEnded,
    RoundLengthSet,
    RoundPaired,
    RoundStarted,
    TimeExtended,
)
from referee.tournament.manual import check_manual
from referee.tournament.model import (
    Entrant,
    Placement,
    Round,
    RoundKind,
    Score,
    Settings,
    SwissPlan,
    games_to_win,
)
from referee.tournament.pairing import pair_swiss
from referee.tournament.penalties import INFRACTIONS, suggested_penalty
from referee.tournament.pods import pair_pods
from referee.tournament.slips import is_match_slip, parse_placement, parse_slip
from referee.tournament.state import Tournament, apply

__all__ = [
    "AwardBye",
    "ChangePairing",
    "Command",
    "CorrectResult",
    "CreateEvent",
    "Drop",
    "EndEvent",
    "EndRound",
    "ExtendTime",
    "LinkGame",
    "MarkClock",
    "PairManual",
    "PairNext",
    "RecordGameResult",
    "RecordPenalty",
    "Register",
    "RegisterMany",
    "ReportResult",
    "SetRoundLength",
    "StartRound",
    "check_game_reopened",
    "decide",
    "entries_closed",
    "pairing_over",
]


class _Command(msgspec.Struct, frozen=True, kw_only=True):
    pass


class CreateEvent(_Command, frozen=True, kw_only=True):
    settings: Settings


class Register(_Command, frozen=True, kw_only=True):
    """Register a player; after round 1 is paired this is a late entry (EV-2.3)."""

    name: str
    id: str | None = None
    rating: int | None = None
    table: int | None = None
    byes: int = 0
    player_id: str | None = None  # the person's id across the house (checked by the service)
    allow_similar: bool = False  # a name differing from another only in case (issue 31)
    late_as_losses: bool = False  # a late entry takes match losses for rounds missed (EV-2.9)


class RegisterMany(_Command, frozen=True, kw_only=True):
    """Register several players in order, all or none: each ``Register`` decided as if the
    ones before it were registered (checking a name against those before it once each,
    not against every player again: 10,000 names took 10 s one by one)."""

    players: tuple[Register, ...]


class Drop(_Command, frozen=True, kw_only=True):
    player: str
    reason: str = ""


class AwardBye(_Command, frozen=True, kw_only=True):
    player: str
    round: int
    reason: str = ""


class PairNext(_Command, frozen=True, kw_only=True):
    """Pair the next round the format calls for (Swiss, pods, cut, bracket, round robin)."""

    ranking: tuple[tuple[str, int], ...] | None = None
    """The standings as the caller keeps them (every player best first with their match
    points: ``Tournament.standings()``'s order), so a Swiss or pod round is paired without
    every result summed again; ``None``: worked out from the state."""


class PairManual(_Command, frozen=True, kw_only=True):
    """Pair the next round by hand (EV-5.11): ``spec`` is the parsed --manual file; ``by``
    who pairs it (kept with the pairing for the audit; none: unset)."""

    spec: dict[str, Any]
    reason: str
    by: str = ""


class ChangePairing(_Command, frozen=True, kw_only=True):
    """The head judge re-pairs the latest round before any result (EV-5.12)."""

    spec: dict[str, Any]
    reason: str
    by: str = ""


class LinkGame(_Command, frozen=True, kw_only=True):
    round: int
    table: int
    game: str


class RecordGameResult(_Command, frozen=True, kw_only=True):
    """A linked game ended: ``placings`` as ``{player name or id: place}``."""

    game: str
    placings: dict[str, int]


class _Slip(_Command, frozen=True, kw_only=True):
    """A result slip for round ``round`` table ``table``: ``W-L-D`` for two players,
    ``Ann>Ben=Cal`` for a pod; ``by``: who entered it."""

    round: int
    table: int
    slip: str
    by: str = ""
    # a stored slip re-decided (an import's judge, ``service.event_judge``): one stored
    # before a pod's game loss was counted (EV-3.10) or a pod event's playoff was read as
    # matches (EV-6.4) is judged as it was then, so an earlier record still imports
    replayed: bool = False


class ReportResult(_Slip, frozen=True, kw_only=True):
    """A table's result (EV-3.5 to EV-3.8)."""


class CorrectResult(_Slip, frozen=True, kw_only=True):
    """A reported result corrected by the head judge, with a reason (EV-3.6, EV-8.1)."""

    reason: str


class RecordPenalty(_Command, frozen=True, kw_only=True):
    player: str
    infraction: str
    penalty: PenaltyLevel | None = None
    reason: str = ""
    by: str = ""
    table: int | None = None


class StartRound(_Command, frozen=True, kw_only=True):
    round: int
    by: str = ""  # who marks it (stored only when named: ``RoundStarted.by``)
    # a stored mark re-decided (an import's judge, ``service.event_judge``): a start after
    # the round's end, refused live since, is one an earlier record may hold (EV-5.10)
    replayed: bool = False


class EndRound(_Command, frozen=True, kw_only=True):
    round: int
    by: str = ""


class EndEvent(_Command, frozen=True, kw_only=True):
    reason: str = ""
    void_open: bool = False  # close the event's open games as void (EV-1.4, EV-3.9)
    by: str = ""


class SetRoundLength(_Command, frozen=True, kw_only=True):
    minutes: int
    reason: str = ""
    by: str = ""


class MarkClock(_Command, frozen=True, kw_only=True):
    """Start, pause, resume or end the current round's clock ``at`` (EV-9.2)."""

    action: ClockAction
    at: datetime
    by: str = ""


class ExtendTime(_Command, frozen=True, kw_only=True):
    """Extra minutes for a table of the current round (EV-9.4)."""

    table: int
    minutes: int
    reason: str
    at: datetime
    by: str = ""


MAX_ROUND_MINUTES = 600
MAX_EXTENSION_MINUTES = 60
MAX_CLOCK_TEXT = 200


Command = (
    CreateEvent
    | Register
    | RegisterMany
    | Drop
    | AwardBye
    | PairNext
    | PairManual
    | ChangePairing
    | LinkGame
    | RecordGameResult
    | ReportResult
    | CorrectResult
    | RecordPenalty
    | StartRound
    | EndRound
    | EndEvent
    | SetRoundLength
    | MarkClock
    | ExtendTime
    | fixing.Fix
)


# -- helpers ----------------------------------------------------------------------


def entries_closed(state: Tournament) -> Refusal | None:
    """Why the event takes no more entries (EV-2.3: once round 1 of an event that is not
    Swiss is paired, or once the cut is made), ``None`` while a player may still enter: the
    registration's refusal, and what the desk shows instead of a form that can only be
    refused."""
    settings = state.created()
    if state.current_round < 1:
        return None
    if settings.format != "swiss":
        return Refusal(
            "EV-2.3", f"a {settings.format} event takes no entries once round 1 is paired"
        )
    if state.cut:
        return Refusal("EV-2.3", "the Swiss rounds are over: the cut has been made")
    return None


def _playoff(kind: RoundKind) -> bool:
    return kind in ("cut", "elimination")


def _winners(state: Tournament, rnd: Round) -> dict[int, str]:
    winners: dict[int, str] = {}
    for pairing in rnd.pairings:
        if pairing.table is None:
            continue
        result = state.result(rnd.number, pairing.table)
        if not isinstance(result, Score) or result.winner is None:
            # a pod event's playoff slip stored in places, before the playoff's tables were
            # read as matches (EV-6.4): the head corrects it to the match's W-L-D
            raise Refusal(
                "EV-6.4",
                f"round {rnd.number} table {pairing.table} has no match winner: correct it "
                f"with the match's W-L-D ('event correct --round {rnd.number} "
                f"{pairing.table}=W-L-D --reason TEXT')",
            )
        winners[pairing.table] = pairing.players[result.winner]
    return winners


def _shown(state: Tournament, players: Sequence[str]) -> list[str]:
    """The players of a table by name, for a refusal."""
    return [state.players[p].name if p in state.players else p for p in players]


def reported_in_places(settings: Settings, kind: RoundKind, players: int) -> bool:
    """Whether a table's slip gives each player's place (a pod, EV-7.3, EV-7.5) rather than
    W-L-D: a table of three or more, and every Swiss or round-robin table of a pod event, a
    table of two as well (EV-7.1); a playoff table is a match, in a pod event's cut too
    (EV-6.4: the bracket reads its winner). What ``_slip`` reads, and what the slips page
    asks for."""
    return players > 2 or (settings.pods and not _playoff(kind))


def _slip(
    state: Tournament, number: int, table: int, text: str, *, replayed: bool = False
) -> Score | Placement:
    settings = state.created()
    rnd = state.rounds.get(number)
    if rnd is None:
        raise Refusal("EV-3.5", unpaired(number))
    pairing = rnd.table(table)
    if pairing is None:
        raise Refusal("EV-3.5", f"round {number} has no table {table}")
    in_places = reported_in_places(settings, rnd.kind, len(pairing.players))
    if replayed and settings.pods and (":" in text or ">" in text):
        in_places = True  # a pod event's playoff slip stored in places (see ``_Slip``)
    if not in_places:
        if ":" in text or ">" in text:  # a pod's placing: "'1:Ann,2:Ben' is not W-L-D" alone
            shown = _shown(state, pairing.players)
            raise Refusal(
                "EV-3.1",
                f"table {table} is a match ({shown[0]} v {shown[1]}): report W-L-D, the games "
                f"won by {shown[0]}, by {shown[1]}, and drawn, such as {table}=2-1-0",
            )
        return parse_slip(text, settings.match, playoff=_playoff(rnd.kind))
    if is_match_slip(text):  # "'2-0-0' is not in this pod" said nothing of what to write
        shown = _shown(state, pairing.players)
        example = ",".join(f"{place}:{name}" for place, name in enumerate(shown, start=1))
        raise Refusal(
            "EV-7.3",
            f"table {table} is a pod ({', '.join(shown)}): report each player's place and "
            f"name, such as {table}={example}",
        )
    return parse_placement(text, pairing.players, state.names())


def _as_fields(result: Score | Placement) -> dict[str, Any]:
    if isinstance(result, Score):
        return {"score": result}
    return {"placement": result}


# -- the decisions --------------------------------------------------------------------


def check_game_reopened(state: Tournament, game: str, event_id: str) -> None:
    """Refuse (EV-8.5) undoing the end of a linked game whose result its match counted:
    a retraction after the end or a voided result would leave the match (and the games
    it created) standing on a result that is gone. The head corrects the table instead."""
    key = state.games.get(game)
    if key is None:
        return
    table = state.tables.get(key)
    if table is None or not any(g == game for g, _ in table.game_results):
        return  # the match never counted it (a slip decided first): nothing to undo
    number, at = key
    raise Refusal(
        "EV-8.5",
        f"game {game} counts in its match (round {number}, table {at}); its end cannot be "
        f"undone in the game: the head corrects the table with 'referee event correct "
        f"{event_id} --round {number} {at}=W-L-D --reason TEXT'",
    )


def decide(state: Tournament, command: Command) -> tuple[Fact, ...]:
    """The facts ``command`` produces in ``state``, or a ``Refusal``."""
    decision = _DECISIONS.get(type(command))
    if decision is not None:
        return decision(state, command)
    if isinstance(command, fixing.Fix):
        return fixing.decide_fix(state, command)
    raise TypeError(f"not a tournament command: {command!r}")


def _award_bye(state: Tournament, command: AwardBye) -> tuple[Fact, ...]:
    state.running()
    player = state.registered(command.player)
    if command.round <= state.current_round:
        raise Refusal("EV-2.4", f"round {command.round} has already been paired")
    return (ByeAwarded(player=player, round=command.round, reason=command.reason),)


def _start_round(state: Tournament, command: StartRound) -> tuple[Fact, ...]:
    state.running()
    number = command.round
    if number not in state.rounds:
        raise Refusal("EV-5.10", unpaired(number))
    if number in state.ended_rounds and not command.replayed:  # said first: the later mark
        raise Refusal("EV-5.10", f"round {number} has already ended")
    if number in state.started:
        raise Refusal("EV-5.10", f"round {number} has already started")
    return (RoundStarted(round=number, by=command.by or msgspec.UNSET),)


def _end_round(state: Tournament, command: EndRound) -> tuple[Fact, ...]:
    state.running()
    number = command.round
    if number not in state.rounds:
        raise Refusal("EV-5.10", unpaired(number))
    if state.open_round() == number:
        raise Refusal("EV-5.10", f"round {number} still has tables without a result")
    if number in state.ended_rounds:
        raise Refusal("EV-5.10", f"round {number} has already ended")
    return (RoundEnded(round=number, by=command.by or msgspec.UNSET),)


def _end_event(state: Tournament, command: EndEvent) -> tuple[Fact, ...]:
    state.running()
    reason = command.reason
    if state.open_round() is not None:
        raise Refusal("EV-1.4", "a round is still open: finish or correct it first")
    left = fixing.open_games(state)
    if left and not command.void_open:
        raise Refusal(
            "EV-1.4",
            f"{len(left)} game(s) of the event are still open ({', '.join(left)}): "
            "finish them, or close them as void with --void-open",
        )
    voided: tuple[Fact, ...] = ()
    if left:
        why = "the event ended with them open" + (f" ({reason})" if reason else "")
        voided = (GamesVoided(games=tuple(left), reason=why, by=command.by),)
    return (*voided, EventEnded(reason=reason))


def _set_round_length(state: Tournament, command: SetRoundLength) -> tuple[Fact, ...]:
    state.running()
    if not 1 <= command.minutes <= MAX_ROUND_MINUTES:
        raise Refusal("EV-9.1", f"a round lasts 1 to {MAX_ROUND_MINUTES} minutes")
    _short(command.reason, "EV-9.1")
    if command.minutes == state.round_minutes:
        raise Refusal(
            "EV-9.1",
            f"a round already lasts {command.minutes} minutes: nothing changed, "
            "nothing is recorded",
        )
    return (RoundLengthSet(minutes=command.minutes, reason=command.reason.strip(), by=command.by),)


def _short(text: str, clause: str) -> None:
    if len(text) > MAX_CLOCK_TEXT:
        raise Refusal(clause, f"a reason is at most {MAX_CLOCK_TEXT} characters")


_CLOCK_WORDS = {
    "waiting": "has not started",
    "running": "is running",
    "paused": "is paused",
    "ended": "has ended",
}


def _mark_clock(state: Tournament, command: MarkClock) -> tuple[Fact, ...]:
    """A mark on the current round's clock, in the order EV-9.2 allows."""
    state.running()
    number = state.current_round
    if not number:
        raise Refusal("EV-9.2", "no round has been paired: the clock runs a paired round")
    clock = state.clock(number)
    needs = MARK_NEEDS.get(command.action)
    if needs is None:
        raise Refusal("EV-9.2", f"no clock action {command.action!r}: start, pause, resume, end")
    if clock.state not in needs:
        raise Refusal(
            "EV-9.2",
            f"round {number}'s clock {_CLOCK_WORDS[clock.state]}: it cannot {command.action}",
        )
    if clock.started is not None and command.at < (clock.running_since or clock.started):
        raise Refusal("EV-9.3", "a clock mark cannot be earlier than the one before it")
    return (ClockMarked(round=number, action=command.action, at=command.at, by=command.by),)


def _extend_time(state: Tournament, command: ExtendTime) -> tuple[Fact, ...]:
    """Extra minutes for one table of the current round, with a reason (EV-9.4)."""
    state.running()
    number = state.current_round
    if not number:
        raise Refusal("EV-9.4", "no round has been paired: there is no table to extend")
    if (number, command.table) not in state.tables:
        raise Refusal("EV-9.4", f"round {number} has no table {command.table}")
    if not 1 <= command.minutes <= MAX_EXTENSION_MINUTES:
        raise Refusal("EV-9.4", f"an extension is 1 to {MAX_EXTENSION_MINUTES} minutes")
    if not command.reason.strip():
        raise Refusal("EV-9.4", "give the reason (deck check, judge call, ruling, ...)")
    _short(command.reason, "EV-9.4")
    if state.clock(number).state == "ended":
        raise Refusal("EV-9.4", f"round {number}'s clock has ended: time can no longer be added")
    if state.result(number, command.table) is not None:
        raise Refusal("EV-9.4", f"table {command.table} has its result: it needs no more time")
    return (
        TimeExtended(
            round=number,
            table=command.table,
            minutes=command.minutes,
            reason=" ".join(command.reason.split()),
            at=command.at,
            by=command.by,
        ),
    )


def _create(state: Tournament, settings: Settings) -> tuple[Fact, ...]:
    if state.settings is not None:
        raise Refusal("EV-1.1", "this event already exists")
    if settings.cut and (settings.cut < 2 or settings.format != "swiss"):
        raise Refusal("EV-6.1", "a cut needs at least two players and a Swiss event")
    if settings.rounds is not None and settings.rounds < 1:
        raise Refusal("EV-1.3", "an event plays at least one round")
    if settings.pods and settings.format == "elimination":
        raise Refusal("EV-7.1", "pods are paired Swiss or round robin, not in a bracket")
    return (EventCreated(settings=settings),)


class _Known:
    """The registered players by their name in any case and by their house id (the first
    registered of each), kept while several are registered at once."""

    def __init__(self, entrants: Iterable[Entrant]) -> None:
        self.names: dict[str, Entrant] = {}
        self.house: dict[str, Entrant] = {}
        for entrant in entrants:
            self.add(entrant)

    def add(self, entrant: Entrant) -> None:
        self.names.setdefault(entrant.name.casefold(), entrant)
        if entrant.player_id:
            self.house.setdefault(entrant.player_id, entrant)


def _register_many(state: Tournament, command: RegisterMany) -> tuple[Fact, ...]:
    known = _Known(state.players.values())
    facts: list[Fact] = []
    for one in command.players:
        new = _register(state, one, known)
        for fact in new:
            state = apply(state, fact)
            if isinstance(fact, PlayerRegistered):
                known.add(fact.player)
        facts.extend(new)
    return tuple(facts)


def _register(
    state: Tournament, command: Register, known: _Known | None = None
) -> tuple[Fact, ...]:
    state.running()  # refused once the event has ended (EV-1.4)
    name = command.name.strip()
    if not name:
        raise Refusal("EV-2.2", "a player needs a name")
    known = known if known is not None else _Known(state.players.values())
    entrant = known.names.get(name.casefold())
    if not command.allow_similar and entrant is not None:
        raise Refusal(
            "EV-2.2",
            f"{name!r} is already registered (as {entrant.id}), or a name differing from "
            "it only in case: give another name (or allow similar names)",
        )
    order = len(state.players)
    player_id = command.id or f"p{order + 1}"
    # Ids are their own namespace (issue 31): a player named "P2" or "p100" takes no id.
    if player_id in state.players:
        raise Refusal("EV-2.2", f"the id {player_id!r} is already taken")
    holder = known.house.get(command.player_id) if command.player_id else None
    if holder is not None:
        raise Refusal(
            "EV-2.2",
            f"player id {command.player_id!r} is already registered, as {holder.name!r}",
        )
    entry = state.current_round + 1
    closed = entries_closed(state)
    if closed is not None:
        raise closed
    if command.byes < 0:
        raise Refusal("EV-2.4", "awarded byes cannot be negative")
    rating_refused = fixing.check_rating(command.rating, name)
    if rating_refused is not None:
        raise rating_refused
    if command.late_as_losses and entry == 1:
        raise Refusal(
            "EV-2.9", "match losses for missed rounds are for late entries: round 1 is not paired"
        )
    entrant = Entrant(
        id=player_id,
        name=name,
        order=order,
        rating=command.rating,
        table=command.table,
        byes=command.byes,
        entry_round=entry,
        player_id=command.player_id or msgspec.UNSET,
        late_as_losses=True if command.late_as_losses else msgspec.UNSET,
    )
    return (PlayerRegistered(player=entrant),)


def _drop(state: Tournament, who: str, reason: str) -> tuple[Fact, ...]:
    state.running()
    player = state.registered(who)
    entrant = state.players[player]
    if entrant.dropped_after is not None:
        raise Refusal(
            "EV-2.6", f"{entrant.name} already dropped after round {entrant.dropped_after}"
        )
    dropped = PlayerDropped(player=player, after_round=state.current_round, reason=reason)
    return (dropped, *_playoff_concession(state, player))


def _playoff_concession(state: Tournament, player: str) -> tuple[Fact, ...]:
    """A drop in a playoff (EV-2.10): the player's match still being played is conceded,
    won by the opponent by the games the match needs (the dropping player keeps the games
    they won, and the match's open games are closed as void); a player who has won their
    match and waits for the next bracket round is dropped as decided: nobody takes their
    place, and their next opponent has a bye (EV-6.9). Nothing for a player out of the
    bracket or outside a playoff."""
    number = state.current_round
    rnd = state.rounds.get(number)
    if rnd is None or not _playoff(rnd.kind):
        return ()
    pairing = next((p for p in rnd.pairings if player in p.players), None)
    if pairing is None:
        return ()  # not in this bracket round: out of the playoff already
    if pairing.table is None or state.result(number, pairing.table) is not None:
        return ()  # decided: a winner who drops is not replaced (EV-6.9)
    name = state.players[player].name
    table = state.tables[(number, pairing.table)]
    settings = state.created()
    need = games_to_win(settings.match)
    played = table.games_score()  # for the first-listed player
    first = table.players[0] == player
    score = (
        Score(played.wins, need, played.draws)
        if first
        else Score(need, played.losses, played.draws)
    )
    by = f"{name} conceded by dropping (EV-2.10)"
    facts: list[Fact] = [MatchReported(round=number, table=pairing.table, score=score, by=by)]
    games = fixing.open_games(state, table)
    if games:
        facts.append(GamesVoided(games=tuple(games), reason=by, by=by))
    return tuple(facts)


def _next_kind(state: Tournament) -> RoundKind:
    settings = state.created()
    if settings.format == "elimination":
        return "elimination"
    if settings.format == "round-robin":
        return "round-robin"
    swiss = sum(kind in ("swiss", "pods") for kind in state.round_kinds().values())
    if swiss < state.planned_swiss_rounds():
        return "pods" if settings.pods else "swiss"
    if settings.cut:
        return "cut"
    if swiss == 0:  # nothing paired yet: "all 0 Swiss rounds have been played" was nonsense
        active = sum(p.dropped_after is None for p in state.players.values())
        raise Refusal(
            "EV-1.3",
            f"{active} player{'' if active == 1 else 's'} registered give no Swiss round: "
            "register at least two players",
        )
    raise Refusal(
        "EV-1.3",
        f"all {swiss} Swiss rounds have been played and there is no cut: end the event",
    )


def pairing_over(state: Tournament) -> Refusal | None:
    """Why no round follows the last one, now that it has all its results (EV-1.3: the
    Swiss rounds played without a cut; EV-5.9: the round robin's every round; EV-6.3: the
    bracket finished), as the next pairing's refusal says it; ``None`` before round 1,
    while a round is open or once the event has ended. Read from where the event stands,
    never by pairing (at 10,000 players a pairing takes seconds): what the desk offers
    instead of a pairing that can only be refused (the end of the event)."""
    if state.settings is None or state.ended or not state.current_round:
        return None
    if state.open_round() is not None:
        return None
    number = state.current_round + 1
    try:
        kind = _next_kind(state)
        if kind == "round-robin":
            _round_robin_players(state, number)
        elif kind in ("cut", "elimination") and state.kind_rounds(kind):
            _following_bracket(state, number, kind)
    except Refusal as over:
        return over
    return None


def _round_robin_players(state: Tournament, number: int) -> list[str]:
    """The round robin's players in registration order, refused once every round of its
    schedule has been paired (EV-5.9)."""
    players = [e.id for e in sorted(state.players.values(), key=lambda e: e.order)]
    schedule_rounds = len(players) - 1 + len(players) % 2
    total = state.created().rounds or schedule_rounds
    if number > min(total, schedule_rounds):
        raise Refusal("EV-5.9", "every round of the round robin has been paired")
    return players


def _pair_next(
    state: Tournament, ranking: Sequence[tuple[str, int]] | None = None
) -> tuple[Fact, ...]:
    state.running()
    open_round = state.open_round()
    if open_round is not None:
        raise Refusal(
            "EV-5.10",
            f"round {open_round} is still open: every table needs a final result first",
        )
    number = state.current_round + 1
    kind = _next_kind(state)
    if kind in ("cut", "elimination"):
        return _pair_bracket(state, number, kind)
    active = state.active(number)
    if len(active) < 2:
        raise Refusal("EV-5.1", f"round {number} needs at least two active players")
    if kind == "round-robin":
        return (RoundPaired(round=round_robin_round(number, _round_robin_players(state, number))),)
    seats = state.seats(number, ranking, taking_part=active)  # the players sorted once
    awarded = state.awarded_in(number, active)
    if kind == "pods":
        return (RoundPaired(round=pair_pods(number, seats, awarded=awarded)),)
    return (RoundPaired(round=pair_swiss(number, seats, awarded=awarded), plan=_plan(state)),)


def _plan(state: Tournament) -> SwissPlan | msgspec.UnsetType:
    """What round 1's pairing fixes of a Swiss event whose organiser set no number of rounds
    (EV-I.14): the default from the players taking part in it, kept unchanged afterwards;
    unset on any other round, in a pod event, and when the organiser set the rounds."""
    settings = state.created()
    if state.current_round or settings.rounds is not None:
        return msgspec.UNSET
    plan = state.default_plan()
    return plan if plan is not None else msgspec.UNSET


def _pair_bracket(state: Tournament, number: int, kind: RoundKind) -> tuple[Fact, ...]:
    settings = state.created()
    previous = [r for r in state.kind_rounds(kind)]
    if not previous:
        if kind == "cut":
            standing = [s.player for s in state.standings() if s.dropped_after is None]
            seeds = tuple(standing[: settings.cut])
            if len(seeds) < 2:
                raise Refusal("EV-6.1", "fewer than two players are left for the cut")
            return (CutMade(seeds=seeds), RoundPaired(round=seed_bracket(number, seeds, kind)))
        seats = state.seats(number)
        return (RoundPaired(round=seed_bracket(number, [s.id for s in seats], kind)),)
    return (RoundPaired(round=_following_bracket(state, number, kind)),)


def _following_bracket(state: Tournament, number: int, kind: RoundKind) -> Round:
    """The bracket's next round after its rounds so far (at least one), refused once the
    bracket is finished (EV-6.3)."""
    previous = state.kind_rounds(kind)
    # the better seed is listed (so seated) first: they choose to play first (EV-6.8); a
    # player who dropped is not paired again, nor replaced (EV-2.5, EV-6.9)
    seeded = state.cut if kind == "cut" else bracket_seeds(previous[0])
    gone = {p for p, e in state.players.items() if e.dropped_after is not None}
    winners = {rnd.number: _winners(state, rnd) for rnd in previous}
    following = next_bracket_round(number, previous, winners, kind, seeded, gone)
    if following is None:
        raise Refusal("EV-6.3", "the bracket is finished: the event can end")
    return following


MANUAL_NAMED = 4
"""A refused manual pairing names its first problem and this many more; past them, a count."""


def _manual_round(state: Tournament, number: int, spec: dict[str, Any]) -> Any:
    settings = state.created()
    kind: RoundKind
    if settings.format == "swiss":
        swiss = len(state.kind_rounds("swiss", "pods"))
        kind = "pods" if settings.pods else "swiss"
        if state.cut or swiss >= state.planned_swiss_rounds():
            kind = "cut" if settings.cut else kind
    else:
        kind = "elimination" if settings.format == "elimination" else "round-robin"
    met, byes = state.history()
    check = check_manual(number, kind, spec, state.active(number), state.players, met, byes)
    if check.round is None:
        # every problem named, a few at most: a pairing typed on a phone is put right at once
        # rather than one refusal after another ("and 1 more" hid which)
        first, *rest = check.violations
        more = "".join(f"; also {v.clause}: {v.reason}" for v in rest[:MANUAL_NAMED])
        if len(rest) > MANUAL_NAMED:
            more += f" (and {len(rest) - MANUAL_NAMED} more)"
        raise Refusal(first.clause, first.reason + more)
    return check


def _pair_manual(
    state: Tournament, spec: dict[str, Any], reason: str, by: str = ""
) -> tuple[Fact, ...]:
    state.running()
    if not reason.strip():
        raise Refusal("EV-5.11", "a manual pairing needs a reason")
    open_round = state.open_round()
    if open_round is not None:
        raise Refusal("EV-5.10", f"round {open_round} is still open")
    check = _manual_round(state, state.current_round + 1, spec)
    return (
        RoundPaired(
            round=check.round,
            override=reason,
            warnings=check.warnings,
            by=by or msgspec.UNSET,
            plan=_plan(state) if check.round.kind == "swiss" else msgspec.UNSET,
        ),
    )


def _change_pairing(
    state: Tournament, spec: dict[str, Any], reason: str, by: str
) -> tuple[Fact, ...]:
    state.running()
    number = fixing.latest_round(state, reason, "EV-5.12", "a change of pairings")
    for (rnd, _), table in state.tables.items():
        if rnd == number and (table.reported is not None or table.game_results):
            raise Refusal(
                "EV-5.12",
                f"round {number} already has results: correct them instead of re-pairing",
            )
    # the pairings being replaced are not "met" (EV-5.4): check against the round unpaired
    check = _manual_round(fixing.without_round(state, number), number, spec)
    fixing.refuse_same_pairings(state.rounds[number], check.round)
    return (PairingChanged(round=check.round, reason=reason, by=by, warnings=check.warnings),)


def _table(state: Tournament, number: int, table: int) -> Any:
    current = state.tables.get((number, table))
    if current is None:
        if number not in state.rounds:
            raise Refusal("EV-3.5", unpaired(number))
        raise Refusal("EV-3.5", f"round {number} has no table {table}")
    return current


def _link(state: Tournament, number: int, table: int, game: str) -> tuple[Fact, ...]:
    state.running()
    current = _table(state, number, table)
    if game in state.games:
        where = state.games[game]
        raise Refusal(
            "EV-3.8", f"game {game} is already played at round {where[0]} table {where[1]}"
        )
    if state.result(number, table) is not None:
        raise Refusal("EV-3.8", f"round {number} table {table} already has its result")
    linked = GameLinked(round=number, table=table, game=game)
    waiting = fixing.next_game_losses(state, current)
    if not waiting:
        return (linked,)
    # the match's next game is the one a waiting game loss ends (EV-8.6, IPG 1.2)
    return (linked, PenaltyApplied(penalty=waiting[0], round=number, table=table, game=game))


def _game_result(state: Tournament, game: str, placings: dict[str, int]) -> tuple[Fact, ...]:
    state.running()
    key = state.games.get(game)
    if key is None:
        raise Refusal("EV-3.8", f"game {game} is not linked to any table")
    if game in state.voided:
        raise Refusal(
            "EV-3.9", f"game {game} was closed as void (its pairing was replaced or undone)"
        )
    current = state.tables[key]
    if any(g == game for g, _ in current.game_results):
        raise Refusal("EV-3.8", f"game {game} already has its result")
    if state.result(*key) is not None:
        raise Refusal("EV-3.7", f"round {key[0]} table {key[1]} is already decided")
    resolved: list[tuple[str, int]] = []
    for who, place in placings.items():
        player = state.registered(who)
        if player not in current.players:
            raise Refusal("EV-3.8", f"{who} does not play at round {key[0]} table {key[1]}")
        resolved.append((player, place))
    if sorted(p for p, _ in resolved) != sorted(current.players):
        raise Refusal("EV-3.8", "a game result places every player of the table once")
    return (GameResultRecorded(game=game, placings=tuple(resolved)),)


def _report(
    state: Tournament, number: int, table: int, text: str, by: str, *, replayed: bool = False
) -> tuple[Fact, ...]:
    settings = state.running()
    current = _table(state, number, table)
    if current.reported is not None:
        raise Refusal(
            "EV-3.6",
            f"round {number} table {table} is already reported ({_text(state, current.reported)}): "
            "a change is a correction, with a reason",
        )
    by_games = state.decided_by_games(current)
    if by_games is not None:
        raise Refusal(
            "EV-3.7",
            f"the games at round {number} table {table} already decided the match "
            f"({_text(state, by_games)}): correct it instead",
        )
    result = _slip(state, number, table, text, replayed=replayed)
    if isinstance(result, Score):
        played = len(current.game_results)
        if result.wins + result.losses + result.draws < played:
            raise Refusal("EV-3.8", f"{played} linked games have ended here; the slip counts fewer")
        fixing.slip_against_games(state, current, result)
    elif not replayed:  # a pod slip stored before it had to count a game loss (``_Slip``)
        fixing.placement_against_game_losses(state, current, result)
    # a game loss that was waiting for this match is counted by the slip: it took
    # effect here (EV-8.6), and waits for no later match
    waiting = [
        PenaltyApplied(penalty=n, round=number, table=table)
        for n, _ in fixing.game_losses_to_come(state, current)
        if n not in state.applied_penalties
    ]
    del settings
    reported = MatchReported(round=number, table=table, by=by, **_as_fields(result))
    left = fixing.open_games(state, current)
    if not left:
        return (reported, *waiting)
    # the slip decides the match: its games still open are closed as void (EV-3.9)
    why = f"round {number} table {table} was decided by its slip"
    return (reported, GamesVoided(games=tuple(left), reason=why, by=by), *waiting)


def _text(state: Tournament, result: Score | Placement) -> str:
    """A result as a refusal names it: a pod's order by the players' names."""
    if isinstance(result, Placement):
        return result.named({p: state.players[p].name for p, _ in result.places})
    return result.text


def _correct(
    state: Tournament,
    number: int,
    table: int,
    text: str,
    reason: str,
    by: str,
    *,
    replayed: bool = False,
) -> tuple[Fact, ...]:
    state.created()
    current = _table(state, number, table)
    if state.result(number, table) is None:
        raise Refusal(
            "EV-8.2", f"round {number} table {table} has no result yet: report it instead"
        )
    if not reason.strip():
        raise Refusal("EV-8.1", "a correction needs a reason")
    result = _slip(state, number, table, text, replayed=replayed)
    if result == state.result(number, table):
        raise Refusal(
            "EV-8.1",
            f"round {number} table {table} already has the result {_text(state, result)}: nothing "
            "changed, nothing is recorded",
        )
    rnd = state.rounds[number]
    if _playoff(rnd.kind) and isinstance(result, Score):
        old = state.result(number, table)
        later = [r for r in state.rounds.values() if r.number > number]
        if later and isinstance(old, Score) and old.winner != result.winner:
            raise Refusal(
                "EV-8.3",
                "the next bracket round is already paired from this winner: the head judge "
                "must change that pairing first",
            )
    del current
    return (ResultCorrected(round=number, table=table, reason=reason, by=by, **_as_fields(result)),)


def _penalty(state: Tournament, command: RecordPenalty) -> tuple[Fact, ...]:
    state.running()
    player = state.registered(command.player)
    if command.infraction not in INFRACTIONS:
        raise Refusal(
            "EV-8.4",
            f"unknown infraction {command.infraction!r}; known: {', '.join(INFRACTIONS)}",
        )
    standing = [
        (number, p)
        for number, p in enumerate(state.penalties, start=1)
        if p.player == player and number not in state.withdrawn_penalties
    ]
    disqualified = [number for number, p in standing if p.penalty == "disqualification"]
    if disqualified:
        raise Refusal(
            "EV-8.4",
            f"{state.players[player].name} is disqualified (penalty {disqualified[0]}) and takes "
            "no further penalty; the head referee may withdraw the disqualification (EV-8.7)",
        )
    suggested = suggested_penalty(command.infraction, [p.infraction for _, p in standing])
    given = command.penalty or suggested  # "none": recorded, with no penalty (a missed trigger)
    # the penalty reaches the match (EV-8.6, IPG 1.2): a game loss names the player's
    # open game, which the service ends as a loss; a match loss decides the match
    table = fixing.current_table(state, player)
    game: Any = msgspec.UNSET
    if given == "game-loss" and table is not None:
        left = fixing.open_games(state, table)
        game = left[-1] if left else msgspec.UNSET
    fact = PenaltyRecorded(
        player=player,
        round=state.current_round,
        infraction=command.infraction,
        penalty=given,  # type: ignore[arg-type]
        suggested=suggested,
        reason=command.reason,
        by=command.by,
        table=command.table if command.table is not None else (table.table if table else None),
        game=game,
    )
    return (fact, *fixing.penalty_effects(state, fact))


_DECISIONS: dict[type, Callable[[Tournament, Any], tuple[Fact, ...]]] = {
    CreateEvent: lambda state, c: _create(state, c.settings),
    Register: _register,
    RegisterMany: _register_many,
    Drop: lambda state, c: _drop(state, c.player, c.reason),
    AwardBye: _award_bye,
    PairNext: lambda state, c: _pair_next(state, c.ranking),
    PairManual: lambda state, c: _pair_manual(state, c.spec, c.reason, c.by),
    ChangePairing: lambda state, c: _change_pairing(state, c.spec, c.reason, c.by),
    LinkGame: lambda state, c: _link(state, c.round, c.table, c.game),
    RecordGameResult: lambda state, c: _game_result(state, c.game, c.placings),
    ReportResult: lambda state, c: _report(
        state, c.round, c.table, c.slip, c.by, replayed=c.replayed
    ),
    CorrectResult: lambda state, c: _correct(
        state, c.round, c.table, c.slip, c.reason, c.by, replayed=c.replayed
    ),
    RecordPenalty: _penalty,
    StartRound: _start_round,
    EndRound: _end_round,
    EndEvent: _end_event,
    SetRoundLength: _set_round_length,
    MarkClock: _mark_clock,
    ExtendTime: _extend_time,
}
"""The decision of each command (the fixes are ``fixing.decide_fix``'s)."""

"""The plain facts a tournament is folded from (the event layer stores each as an event).

Each fact is a frozen, tagged Struct, so a list of them encodes and decodes as
one union (``Fact``). Facts say what happened; the decisions in ``decisions``
check a command against the state before producing them, so folding facts never
refuses anything.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

import msgspec

from referee.tournament.model import Entrant, Placement, Round, Score, Settings, SwissPlan
from referee.verdicts import Violation

__all__ = [
    "PENALTY_LEVELS",
    "ByeAwarded",
    "CallClaimed",
    "CallEscalated",
    "CallResolved",
    "ClockMarked",
    "CutMade",
    "DecklistAttached",
    "EventCreated",
    "EventEnded",
    "EventHandedOver",
    "Fact",
    "GameLinked",
    "GameResultRecorded",
    "GamesVoided",
    "JudgeCalled",
    "MatchReported",
    "PairingChanged",
    "PenaltyApplied",
    "PenaltyLevel",
    "PenaltyRecorded",
    "PenaltyWithdrawn",
    "PlayerDropped",
    "PlayerRegistered",
    "PlayerUndropped",
    "RatingCorrected",
    "ReportConfirmed",
    "ReportDisputed",
    "ReportFiled",
    "ResultCorrected",
    "RoundEnded",
    "RoundLengthSet",
    "RoundPaired",
    "RoundStarted",
    "RoundUndone",
    "SettingsChanged",
    "TimeExtended",
]


class _Fact(msgspec.Struct, frozen=True, kw_only=True, tag_field="fact"):
    pass


class EventCreated(_Fact, frozen=True, kw_only=True, tag="event-created"):
    settings: Settings


class PlayerRegistered(_Fact, frozen=True, kw_only=True, tag="player-registered"):
    """A registration; ``player.entry_round`` above 1 is a late entry (EV-2.3)."""

    player: Entrant


class PlayerDropped(_Fact, frozen=True, kw_only=True, tag="player-dropped"):
    """The player leaves after ``after_round`` (0: before round 1, EV-2.6)."""

    player: str
    after_round: int
    reason: str = ""


class ByeAwarded(_Fact, frozen=True, kw_only=True, tag="bye-awarded"):
    """A bye awarded in advance for one round (EV-2.4)."""

    player: str
    round: int
    reason: str = ""


class RoundPaired(_Fact, frozen=True, kw_only=True, tag="round-paired"):
    """A round's pairings; ``override`` is the reason for a manual pairing (EV-5.11),
    ``warnings`` what the audit should show about it (rematches, second byes), ``by`` who
    paired it by hand (the staff member's name: the audit names them, as a re-pairing's),
    unset on an engine's pairing and on pairings stored before it was recorded, so those
    keep their bytes and hash. ``plan`` is the default number of Swiss rounds fixed by round
    1's pairing of a Swiss event whose organiser set none (EV-1.3, EV-I.14); unset on every
    other pairing and on round 1 paired before it was recorded (the event keeps the count
    it had: ``Tournament.planned_swiss_rounds``), so those keep their bytes and hash."""

    round: Round
    override: str | None = None
    warnings: tuple[Violation, ...] = ()
    by: str | msgspec.UnsetType = msgspec.UNSET
    plan: SwissPlan | msgspec.UnsetType = msgspec.UNSET


class PairingChanged(_Fact, frozen=True, kw_only=True, tag="pairing-changed"):
    """The head judge replaced a round's pairings before any result (EV-5.12)."""

    round: Round
    reason: str
    by: str = ""
    warnings: tuple[Violation, ...] = ()


class GameLinked(_Fact, frozen=True, kw_only=True, tag="game-linked"):
    """A recorded game is played at a table (EV-3.8)."""

    round: int
    table: int
    game: str


class GameResultRecorded(_Fact, frozen=True, kw_only=True, tag="game-result-recorded"):
    """A linked game ended: each player id with its place (1 best, ties share)."""

    game: str
    placings: tuple[tuple[str, int], ...]


class MatchReported(_Fact, frozen=True, kw_only=True, tag="match-reported"):
    """A result slip for a table: a ``score`` for two players, a ``placement`` for a pod."""

    round: int
    table: int
    score: Score | None = None
    placement: Placement | None = None
    by: str = ""


class ResultCorrected(_Fact, frozen=True, kw_only=True, tag="result-corrected"):
    """A later result replacing the table's earlier one (EV-8.1)."""

    round: int
    table: int
    score: Score | None = None
    placement: Placement | None = None
    reason: str
    by: str = ""


PenaltyLevel = Literal["none", "warning", "game-loss", "match-loss", "disqualification"]
"""``none``: an infraction the IPG records without a penalty (a missed trigger)."""
"""The penalties an event records (IPG), mildest first."""
PENALTY_LEVELS: tuple[str, ...] = get_args(PenaltyLevel)


class PenaltyRecorded(_Fact, frozen=True, kw_only=True, tag="penalty-recorded"):
    """An IPG penalty; ``suggested`` is what the repeat rules suggest (EV-8.4)."""

    player: str
    round: int
    infraction: str
    penalty: PenaltyLevel
    suggested: str
    reason: str = ""
    by: str = ""
    table: int | None = None
    # the game a game loss ended, or the match a match loss decided (EV-8.6); unset on
    # penalties recorded before the penalty reached the match, so they hash as before
    game: str | msgspec.UnsetType = msgspec.UNSET


class RoundStarted(_Fact, frozen=True, kw_only=True, tag="round-started"):
    """The round marked started (EV-5.10); ``by`` is who marked it (the staff member's
    name), unset on marks stored before it was recorded, so those keep their bytes and
    hash (and on a mark made with no name)."""

    round: int
    by: str | msgspec.UnsetType = msgspec.UNSET


class RoundEnded(_Fact, frozen=True, kw_only=True, tag="round-ended"):
    """The round marked ended (EV-5.10); ``by`` as ``RoundStarted``'s."""

    round: int
    by: str | msgspec.UnsetType = msgspec.UNSET


class CutMade(_Fact, frozen=True, kw_only=True, tag="cut-made"):
    """The top ``len(seeds)`` after the Swiss rounds, best first (EV-6.1)."""

    seeds: tuple[str, ...]


ClockAction = Literal["start", "pause", "resume", "end"]


class RoundLengthSet(_Fact, frozen=True, kw_only=True, tag="round-length-set"):
    """The event's round length in minutes, from now on and for the round in progress
    (EV-9.1)."""

    minutes: int
    reason: str = ""
    by: str = ""


class ClockMarked(_Fact, frozen=True, kw_only=True, tag="clock-marked"):
    """The round clock of ``round`` started, paused, resumed or ended ``at`` (EV-9.2): the
    remaining time is computed from these recorded times, never from a running timer."""

    round: int
    action: ClockAction
    at: datetime
    by: str = ""


class TimeExtended(_Fact, frozen=True, kw_only=True, tag="time-extended"):
    """Extra minutes for one table of ``round`` (a deck check, a judge call, a ruling),
    given ``at`` by a table or head referee (EV-9.4)."""

    round: int
    table: int
    minutes: int
    reason: str
    at: datetime
    by: str = ""


class EventEnded(_Fact, frozen=True, kw_only=True, tag="event-ended"):
    reason: str = ""


class RoundUndone(_Fact, frozen=True, kw_only=True, tag="round-undone"):
    """The latest round, with no result yet, is taken back (EV-5.13): its pairings no
    longer count as met, and its games are closed as void."""

    round: int
    reason: str
    by: str = ""


class PlayerUndropped(_Fact, frozen=True, kw_only=True, tag="player-undropped"):
    """A drop taken back (EV-2.7): the player is paired again from the next round."""

    player: str
    reason: str
    by: str = ""


class RatingCorrected(_Fact, frozen=True, kw_only=True, tag="rating-corrected"):
    """A player's rating corrected before round 1 is paired (EV-2.11); ``None``: the player
    has no rating now."""

    player: str
    rating: int | None
    reason: str
    by: str = ""


class SettingsChanged(_Fact, frozen=True, kw_only=True, tag="settings-changed"):
    """The number of Swiss rounds or the cut changed while still possible (EV-1.5);
    ``None`` leaves that setting as it was."""

    rounds: int | None = None
    cut: int | None = None
    reason: str
    by: str = ""


class GamesVoided(_Fact, frozen=True, kw_only=True, tag="games-voided"):
    """Games of the event closed as void (EV-3.9): they count for nothing and refuse
    entries (a slip decided their match, or the event ended with them open)."""

    games: tuple[str, ...]
    reason: str
    by: str = ""


class PenaltyWithdrawn(_Fact, frozen=True, kw_only=True, tag="penalty-withdrawn"):
    """The head referee withdraws the event's penalty number ``penalty`` (1 first,
    EV-8.7); its effects are reversed by the facts stored with this one."""

    penalty: int
    reason: str
    by: str = ""


class PenaltyApplied(_Fact, frozen=True, kw_only=True, tag="penalty-applied"):
    """The event's penalty number ``penalty`` (1 first) took effect at round ``round``
    table ``table``: a game loss in ``game``, a match loss deciding the match (EV-8.6). A
    penalty given between matches takes effect in the player's next one."""

    penalty: int
    round: int
    table: int
    game: str = ""


class DecklistAttached(_Fact, frozen=True, kw_only=True, tag="decklist-attached"):
    """A registered player's event decklist attached or replaced before their first
    round is paired (EV-2.8); the list itself rides on the stored event."""

    player: str
    by: str = ""


# -- the hall: judge calls and players' own reports (``referee.tournament.hall``) ----------
# ``at`` is the moment the service saw the command (an input, as a seed is): the pure core
# ages a call or a disagreement with it and never reads a clock.


class JudgeCalled(_Fact, frozen=True, kw_only=True, tag="judge-called"):
    """A judge is called to a table of the current round (EV-10.1): by a player of that
    table (their id) or by staff (their name); ``game`` is the game it was called from."""

    call: int
    round: int
    table: int
    by: str
    at: datetime
    reason: str = ""
    game: str = ""


class CallClaimed(_Fact, frozen=True, kw_only=True, tag="call-claimed"):
    """A referee takes a call (EV-10.4)."""

    call: int
    by: str
    at: datetime


class CallEscalated(_Fact, frozen=True, kw_only=True, tag="call-escalated"):
    """A call handed to the head referee (EV-10.5)."""

    call: int
    by: str
    at: datetime
    reason: str = ""


class CallResolved(_Fact, frozen=True, kw_only=True, tag="call-resolved"):
    """A call answered, with the note of what was done (EV-10.6)."""

    call: int
    by: str
    at: datetime
    note: str


class ReportFiled(_Fact, frozen=True, kw_only=True, tag="report-filed"):
    """A player's own report of their match (EV-11.1): ``score`` is written for the
    table's first-listed player, as a slip is (EV-3.1), whoever reported it."""

    report: int
    round: int
    table: int
    player: str
    score: Score
    at: datetime


class ReportConfirmed(_Fact, frozen=True, kw_only=True, tag="report-confirmed"):
    """The opponent agrees with a report (EV-11.4); the table's ``MatchReported`` is
    stored with it."""

    report: int
    player: str
    at: datetime


class ReportDisputed(_Fact, frozen=True, kw_only=True, tag="report-disputed"):
    """The opponent disagrees with a report (EV-11.5): the scorekeeper or the head
    referee settles the table with a slip."""

    report: int
    player: str
    at: datetime
    reason: str = ""


class EventHandedOver(_Fact, frozen=True, kw_only=True, tag="event-handed-over"):
    """From now on the store named ``to`` writes this event and ``streams`` (the event's
    own stream and its games); every other store holds a replica and refuses writes to
    them (REF-9.2). ``by`` is the store that handed it over."""

    to: str
    by: str
    streams: tuple[str, ...] = ()
    at: datetime | None = None
    """When (the stored event's own time, kept in the fact so the state can say "since")."""


Fact = (
    EventCreated
    | PlayerRegistered
    | PlayerDropped
    | ByeAwarded
    | RoundPaired
    | PairingChanged
    | GameLinked
    | GameResultRecorded
    | MatchReported
    | ResultCorrected
    | PenaltyRecorded
    | RoundStarted
    | RoundEnded
    | CutMade
    | EventEnded
    | RoundLengthSet
    | ClockMarked
    | TimeExtended
    | RoundUndone
    | PlayerUndropped
    | RatingCorrected
    | SettingsChanged
    | GamesVoided
    | PenaltyWithdrawn
    | DecklistAttached
    | PenaltyApplied
    | JudgeCalled
    | CallClaimed
    | CallEscalated
    | CallResolved
    | ReportFiled
    | ReportConfirmed
    | ReportDisputed
    | EventHandedOver
)

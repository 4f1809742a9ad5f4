"""The hall's decisions: judge calls (EV-10) and players' own results (EV-11).

Pure, like ``decisions``: ``decide_hall(state, command)`` gives the facts to store or
raises a ``Refusal`` naming its clause. ``at`` in each command is the moment the service
saw it (an input, as a seed is: the core reads no clock); ``by`` and ``player`` say who.

A confirmed report becomes the table's result through the very decision a staff slip goes
through (``decisions.decide`` with ``ReportResult``): the same checks (EV-3.5 to EV-3.8)
and the same ``MatchReported`` fact, stored with the confirmation.
"""

from __future__ import annotations

from datetime import datetime

import msgspec

from referee import calls
from referee.calls import NOTE_LIMIT, REASON_LIMIT
from referee.tournament.decisions import ReportResult, decide
from referee.tournament.errors import Refusal
from referee.tournament.facts import (
    CallClaimed,
    CallEscalated,
    CallResolved,
    Fact,
    JudgeCalled,
    ReportConfirmed,
    ReportDisputed,
    ReportFiled,
)
from referee.tournament.model import Score
from referee.tournament.playoff import round_words
from referee.tournament.slips import parse_slip
from referee.tournament.state import CallState, ReportState, Tournament

__all__ = [
    "NOTE_LIMIT",
    "REASON_LIMIT",
    "CallJudge",
    "ClaimCall",
    "ConfirmReport",
    "DisputeReport",
    "EscalateCall",
    "FileReport",
    "HallCommand",
    "ResolveCall",
    "decide_hall",
    "one_line",
    "player_table",
    "sees_hall",
]


class _HallCommand(msgspec.Struct, frozen=True, kw_only=True):
    at: datetime


class CallJudge(_HallCommand, frozen=True, kw_only=True):
    """Call a judge to ``table`` (of the current round); ``player``: the calling player
    (name or id; ``None`` when staff call), whose table it must be (EV-10.2)."""

    table: int | None = None
    player: str | None = None
    by: str = ""
    reason: str = ""
    game: str = ""


class _CallStep(_HallCommand, frozen=True, kw_only=True):
    """A step on call ``call`` by the judge ``by`` (EV-10.4 to EV-10.6)."""

    call: int
    by: str


class ClaimCall(_CallStep, frozen=True, kw_only=True):
    head: bool = False
    """Whether the claimant is the head referee (an escalated call is theirs, EV-10.4)."""


class EscalateCall(_CallStep, frozen=True, kw_only=True):
    reason: str = ""


class ResolveCall(_CallStep, frozen=True, kw_only=True):
    note: str
    head: bool = False


class FileReport(_HallCommand, frozen=True, kw_only=True):
    """A player's report ``W-L-D`` from their own side (EV-11.1); ``table``, when given,
    must be theirs (EV-11.2)."""

    player: str
    result: str
    table: int | None = None


class _ReportAnswer(_HallCommand, frozen=True, kw_only=True):
    """The opponent ``player`` answers report ``report`` (EV-11.4, EV-11.5)."""

    report: int
    player: str


class ConfirmReport(_ReportAnswer, frozen=True, kw_only=True):
    """The report is the result (EV-11.4)."""


class DisputeReport(_ReportAnswer, frozen=True, kw_only=True):
    reason: str = ""


HallCommand = (
    CallJudge | ClaimCall | EscalateCall | ResolveCall | FileReport | ConfirmReport | DisputeReport
)


def one_line(text: str, limit: int, clause: str, what: str) -> str:
    """``text`` stripped, refused (``clause``) when it breaks lines or is over ``limit``."""
    return calls.one_line(text, limit, clause, what, Refusal)


def _round(state: Tournament, number: int) -> str:
    """Round ``number`` as a refusal names it: ``round 3``, ``the final (round 5)`` (EV-6.6)."""
    words = round_words(state, number)
    return words if words.startswith("round ") else f"the {words}"


def _open_round(state: Tournament, clause: str) -> int:
    """The round open for calls and reports: the latest, paired and not ended."""
    number = state.current_round
    if not number:
        raise Refusal(clause, "no round has been paired yet")
    if number in state.ended_rounds:
        raise Refusal(clause, f"{_round(state, number)} has ended: no round is open")
    return number


def player_table(state: Tournament, who: str, clause: str) -> tuple[str, int]:
    """The player ``who`` names and their table in the current round, or a refusal."""
    player = state.registered(who)
    number = state.current_round
    rnd = state.rounds.get(number)
    pairing = next((p for p in rnd.pairings if player in p.players), None) if rnd else None
    if pairing is None or pairing.table is None:
        name = state.players[player].name
        what = "has a bye" if pairing is not None else "is not paired"
        raise Refusal(
            clause, f"{name} {what} in {_round(state, number)}: there is no table of theirs"
        )
    return player, pairing.table


def sees_hall(reader: str | None, player: str | None) -> bool:
    """EV-10.7: whether player ``player``'s page (their id) shows its table's judge call and
    result reports, with their reasons, to ``reader`` (the id of the player reading it;
    ``None``: a reader who is no player of the event): to that player only. The staff read
    them in their own lists; other players, the table's opponent on this page included, and
    spectators read the pairings and results."""
    return reader is not None and reader == player


def _call(state: Tournament, number: int) -> CallState:
    call = state.calls.get(number)
    if call is None:
        raise Refusal("EV-10.4", f"there is no call {number} in this event")
    if call.status == "resolved":
        raise Refusal("EV-10.6", f"call {number} is already resolved ({call.note})")
    return call


def _report(state: Tournament, number: int, player: str) -> tuple[ReportState, str]:
    report = state.reports.get(number)
    if report is None:
        raise Refusal("EV-11.2", f"there is no report {number} in this event")
    if report.status == "void":
        raise Refusal(
            "EV-11.7",
            f"report {number} was about {_round(state, report.round)} table {report.table} "
            "as it was paired before the pairings were taken back or replaced: it is void; "
            "report again",
        )
    who = state.find(player)
    table = state.tables.get((report.round, report.table))
    if who is None or table is None or who not in table.players:
        name = state.players[who].name if who is not None else player  # a name, not an id
        raise Refusal(
            "EV-11.2", f"{name} does not play at {_round(state, report.round)} table {report.table}"
        )
    if who == report.player:
        raise Refusal("EV-11.2", "the player who reported cannot answer their own report")
    status = state.report_status(report)
    if status == "superseded":
        raise Refusal(
            "EV-11.6",
            f"{_round(state, report.round)} table {report.table} already has its result: "
            "the report can no longer be answered",
        )
    if status != "pending":
        raise Refusal("EV-11.4", f"report {number} is {status}, not waiting for an answer")
    return report, who


def _confirmed(
    state: Tournament, report: ReportState, player: str, at: datetime
) -> tuple[Fact, ...]:
    """The confirmation and the table's result: the staff slip's own decision (EV-11.4)."""
    names = " and ".join(state.players[p].name for p in (report.player, player))
    slip = decide(
        state,
        ReportResult(
            round=report.round,
            table=report.table,
            slip=report.score.text,
            by=f"{names} (report {report.number})",
        ),
    )
    return (ReportConfirmed(report=report.number, player=player, at=at), *slip)


def _played(state: Tournament, number: int, table: int) -> Score:
    """The games recorded at the table so far, for its first-listed player."""
    return state.tables[(number, table)].games_score()


def _file(state: Tournament, command: FileReport) -> tuple[Fact, ...]:
    state.running()
    settings = state.settings
    assert settings is not None
    number = _open_round(state, "EV-11.6")
    player, table = player_table(state, command.player, "EV-11.2")
    if command.table is not None and command.table != table:
        name = state.players[player].name
        raise Refusal("EV-11.2", f"{name} plays at table {table}, not table {command.table}")
    current = state.tables[(number, table)]
    if settings.pods or len(current.players) != 2:
        raise Refusal("EV-11.1", "players report two-player matches; the staff enter pods")
    known = state.result(number, table)
    if known is not None:
        where = f"{_round(state, number)} table {table}"
        raise Refusal("EV-3.6", f"{where} already has its result ({known.text})")
    playoff = state.rounds[number].kind in ("cut", "elimination")
    own = parse_slip(command.result.strip(), settings.match, playoff=playoff)
    first = current.players[0] == player
    score = own if first else own.flipped()
    played = _played(state, number, table)
    if score.wins < played.wins or score.losses < played.losses or score.draws < played.draws:
        mine = played if first else played.flipped()
        raise Refusal(
            "EV-11.3",
            f"the games recorded at table {table} already count {mine.text} for "
            f"{state.players[player].name}; the report {own.text} gives fewer",
        )
    numbered = len(state.reports) + 1  # numbered 1, 2, ... and never removed
    filed = ReportFiled(
        report=numbered, round=number, table=table, player=player, score=score, at=command.at
    )
    at_table = (state.reports[n] for n in state.table_reports.get((number, table), ()))
    waiting = [r for r in at_table if r.player != player and r.status == "pending"]
    if not waiting:
        return (filed,)
    other = waiting[-1]
    if other.score == score:  # the opponent's own report says the same: it confirms
        return (filed, *_confirmed(state, other, player, command.at))
    return (
        filed,
        ReportDisputed(
            report=other.number,
            player=player,
            at=command.at,
            reason=f"reports {own.text} (report {numbered})",
        ),
    )


def _call_judge(state: Tournament, command: CallJudge) -> tuple[Fact, ...]:
    """EV-10.1-10.3: a judge called to a table of the open round, by a player at it or by
    staff naming it, while no call to that table is still open."""
    state.running()
    number = _open_round(state, "EV-10.1")
    reason = one_line(command.reason, REASON_LIMIT, "EV-10.1", "a call's reason")
    by = command.by
    if command.player is not None:
        player, table = player_table(state, command.player, "EV-10.2")
        if command.table is not None and command.table != table:
            name = state.players[player].name
            raise Refusal("EV-10.2", f"{name} plays at table {table}, not table {command.table}")
        by = player
    elif command.table is None or (number, command.table) not in state.tables:
        raise Refusal("EV-10.1", f"{_round(state, number)} has no table {command.table}")
    else:
        table = command.table
    for called in state.table_calls.get((number, table), ()):
        call = state.calls[called]
        if call.status != "resolved":
            raise Refusal(
                "EV-10.3",
                f"a judge is already called to table {table} (call {call.number}, {call.status})",
            )
    numbered = len(state.calls) + 1  # numbered 1, 2, ... and never removed
    return (
        JudgeCalled(
            call=numbered,
            round=number,
            table=table,
            by=by,
            at=command.at,
            reason=reason,
            game=command.game,
        ),
    )


def decide_hall(state: Tournament, command: HallCommand) -> tuple[Fact, ...]:
    """The facts ``command`` produces in ``state``, or a ``Refusal``."""
    match command:
        case CallJudge():
            return _call_judge(state, command)
        case ClaimCall(call=number, by=by, head=head, at=at):
            state.running()
            call = _call(state, number)
            if call.escalated and not head:
                raise Refusal("EV-10.4", f"call {number} is escalated: the head referee takes it")
            if call.holder == by and call.status != "open":
                raise Refusal("EV-10.4", f"{by} already holds call {number}")
            return (CallClaimed(call=number, by=by, at=at),)
        case EscalateCall(call=number, by=by, reason=reason, at=at):
            state.running()
            call = _call(state, number)
            why = one_line(reason, REASON_LIMIT, "EV-10.5", "an escalation's reason")
            if call.escalated:
                raise Refusal("EV-10.5", f"call {number} is already with the head referee")
            return (CallEscalated(call=number, by=by, at=at, reason=why),)
        case ResolveCall(call=number, by=by, note=note, head=head, at=at):
            state.running()
            call = _call(state, number)
            text = one_line(note, NOTE_LIMIT, "EV-10.6", "a resolution's note")
            if not text:
                raise Refusal("EV-10.6", "a call is resolved with a note of what was done")
            if call.escalated and not head:
                raise Refusal(
                    "EV-10.4", f"call {number} is escalated: the head referee resolves it"
                )
            return (CallResolved(call=number, by=by, at=at, note=text),)
        case FileReport():
            return _file(state, command)
        case ConfirmReport(report=number, player=who, at=at):
            state.running()
            report, player = _report(state, number, who)
            return _confirmed(state, report, player, at)
        case DisputeReport(report=number, player=who, reason=reason, at=at):
            state.running()
            why = one_line(reason, REASON_LIMIT, "EV-11.5", "a dispute's reason")
            _, player = _report(state, number, who)
            if not why:
                raise Refusal(
                    "EV-11.5",
                    "a dispute gives one short line of reason: what is wrong with the report",
                )
            return (ReportDisputed(report=number, player=player, at=at, reason=why),)
    raise TypeError(f"not a hall command: {command!r}")

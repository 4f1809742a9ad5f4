"""The hall: judge calls (EV-10) and players' own results (EV-11), for every face.

Where they are stored. A call or a report is about a *table of an event's round*, not
about one game: a match's table plays up to five games one after another, a slip-only
table may have no game refereed move by move, and a call made between two games (or
about the match's result) belongs to neither. So each is a fact of the event's own
stream (``JudgeCalled``, ``CallClaimed``, ``CallEscalated``, ``CallResolved``,
``ReportFiled``, ``ReportConfirmed``, ``ReportDisputed``): the event's audit, export,
checkpoints and live pages carry them, the queue folds them with the rest of the event
(``service.room``), and a confirmed report is stored in the same append as the table's
``MatchReported``. A call from a game's page (``referee call --game GAME``) goes to the
table of the event that game is played at. A game outside any event has no round, no
scorekeeper and no players' reports: its call goes to the game's own table and is a fact of
the game's stream (``JudgeCalledToGame``, ``GameCallAnswered``, decided by
``referee.game.calls``, REF-11); the queue lists it from the games' fold
(``projections.queue``), and its steps are addressed by the game's id where an event's
are by the event's. Each stored event records when (its time and ``at``), who
(``by``/``player``: the player's id or the staff member's name) and with which token
(``token_id``, as every event written through the HTTP face).

``Hall`` is a part of the event service (``service.event_service``); ``hall_items`` gives
the queue its items.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import msgspec

from referee.contract import PUBLIC
from referee.game.calls import GameCall, game_calls
from referee.game.commands import AnswerCall, CallJudge
from referee.tournament import facts as tf
from referee.tournament import hall as h
from referee.tournament.decisions import reported_in_places
from referee.tournament.errors import Refusal
from referee.tournament.model import Pairing
from referee.tournament.playoff import round_words
from referee.tournament.state import CallState, ReportState, Tournament
from service.access import AccessDeniedError, Principal, viewer_for
from service.pipeline import terms
from service.tournaments import EventRefusedError, Tournaments, event_write

if TYPE_CHECKING:
    from events.view import GameView

NOTE_LIMIT = h.NOTE_LIMIT
REASON_LIMIT = h.REASON_LIMIT

__all__ = [
    "CALL_SECONDS",
    "NOTE_LIMIT",
    "REASON_LIMIT",
    "CallRow",
    "Hall",
    "HallFaces",
    "PlayerHall",
    "ReportRow",
    "call_line",
    "call_order",
    "game_in_play",
    "hall_items",
    "overdue",
    "player_hall",
]

CALL_SECONDS = 60
"""An unclaimed call older than this is highlighted in the queue (``?call_after=N``)."""


class CallRow(msgspec.Struct, kw_only=True):
    """A judge call as every face shows it (names, not ids)."""

    event_id: str
    call: int
    round: int
    table: int
    players: list[str]
    by: str
    reason: str
    status: str
    """``open``, ``claimed``, ``escalated`` or ``resolved``."""
    holder: str
    escalated: bool
    at: datetime
    changed: datetime | None
    note: str
    game: str
    age_seconds: float
    overdue: bool
    """Nobody holds it (open, or escalated and not yet taken by the head referee) and it
    has waited longer than the queue's ``call_after`` seconds."""
    stage: str = ""
    """The round in words: ``round 3``, or ``semifinal (round 7)`` in a playoff (EV-6.6);
    empty for a game outside any event."""
    taken_back: bool = False
    """Its round was taken back or its table re-paired while it was open (EV-10.8):
    ``players`` are those it was made at, no longer that table's."""


class ReportRow(msgspec.Struct, kw_only=True):
    """A player's own report: ``result`` as the reporter wrote it (their side first),
    ``slip`` as the table's slip reads it (the first-listed player first)."""

    event_id: str
    report: int
    round: int
    table: int
    players: list[str]
    player: str
    result: str
    slip: str
    status: str
    """``pending``, ``confirmed``, ``disputed``, ``replaced``, ``superseded`` or ``void``."""
    answered_by: str
    reason: str
    at: datetime
    stage: str = ""
    """The round in words: ``round 3``, or ``semifinal (round 7)`` in a playoff (EV-6.6)."""


def _name(state: Tournament, who: str) -> str:
    entrant = state.players.get(who)
    return entrant.name if entrant is not None else who


def _players(state: Tournament, round_number: int, table: int) -> list[str]:
    found = state.tables.get((round_number, table))
    return [_name(state, p) for p in found.players] if found is not None else []


def overdue(call: CallState | GameCall, now: datetime, call_seconds: int) -> bool:
    """Nobody holds the call and it has waited more than ``call_seconds``: since it was
    called, or since it went to the head referee."""
    waiting = call.changed if call.status == "escalated" and call.changed else call.at
    unheld = call.status in ("open", "escalated") and not call.holder
    return unheld and (now - waiting).total_seconds() > call_seconds


def _call_fields(call: CallState | GameCall, now: datetime, call_seconds: int) -> dict[str, Any]:
    """The fields of a call's row every call has, at an event's table or a game's."""
    age = max(0.0, (now - call.at).total_seconds())
    return {
        "call": call.number,
        "reason": call.reason,
        "status": call.status,
        "holder": call.holder,
        "escalated": call.escalated,
        "at": call.at,
        "changed": call.changed,
        "note": call.note,
        "age_seconds": round(age, 1),
        "overdue": overdue(call, now, call_seconds),
    }


def call_row(
    event_id: str, state: Tournament, call: CallState, now: datetime, call_seconds: int
) -> CallRow:
    return CallRow(
        event_id=event_id,
        round=call.round,
        table=call.table,
        # a call taken back is about the players it was made at (EV-10.8), never the table's
        players=[_name(state, p) for p in call.players]
        or ([] if call.taken_back else _players(state, call.round, call.table)),
        by=_name(state, call.by),
        game=call.game or ("" if call.taken_back else _game_at(state, call.round, call.table)),
        stage=round_words(state, call.round),
        taken_back=call.taken_back,
        **_call_fields(call, now, call_seconds),
    )


def game_call_row(view: GameView, call: GameCall, now: datetime, call_seconds: int) -> CallRow:
    """A call to a game outside an event (REF-11) as every face shows it: no event and no
    round; its table is the game's table label (0 for none)."""
    label = str((view.created.meta or {}).get("table", "")).strip()
    return CallRow(
        event_id="",
        round=0,
        table=int(label) if label.isdigit() else 0,
        players=[p.name for p in view.created.players],
        by=call.by,
        game=view.game_id,
        **_call_fields(call, now, call_seconds),
    )


def _call_key() -> str:
    """The running write's idempotency key, as a call in a game keeps it with its fact
    (REF-11.1; "": none). The write's terms are checked by the pipeline's stage."""
    running = terms()
    return (running.idempotency_key or "") if running is not None else ""


def report_row(event_id: str, state: Tournament, report: ReportState) -> ReportRow:
    current = state.tables.get((report.round, report.table))
    first = current is not None and current.players[0] == report.player
    return ReportRow(
        event_id=event_id,
        report=report.number,
        round=report.round,
        table=report.table,
        players=_players(state, report.round, report.table),
        player=_name(state, report.player),
        result=(report.score if first else report.score.flipped()).text,
        slip=report.score.text,
        status=state.report_status(report),
        answered_by=_name(state, report.answered_by) if report.answered_by else "",
        reason=report.reason,
        at=report.at,
        stage=round_words(state, report.round),
    )


class HallReport(msgspec.Struct, kw_only=True):
    """A report of the player's table as their page shows it."""

    report: int
    by: str
    result: str
    """As its reporter wrote it (their own games first)."""
    status: str
    mine: bool
    reason: str = ""


class PlayerHall(msgspec.Struct, kw_only=True):
    """What a player's page offers in the hall: calling a judge to their table, the call
    already made (its number, status and holder), reporting their result and answering
    the opponent's report (EV-10, EV-11)."""

    round: int
    table: int
    can_call: bool
    call: int | None = None
    call_status: str = ""
    call_holder: str = ""
    can_report: bool = False
    reports: list[HallReport] = []


def player_hall(
    state: Tournament, who: str, paired: Iterable[tuple[int, Pairing]] | None = None
) -> PlayerHall | None:
    """The hall part of player ``who``'s page (an id), or ``None`` when they have no table
    in the round open for calls (not paired, a bye, the round ended, the event over).
    ``paired``: the player's own pairings with their rounds, where the caller has them
    indexed (``PlayerIndex``), else the round's are searched: at 5,000 tables that search
    was most of a player page's first rendering (4 ms)."""
    number = state.current_round
    if state.ended or not number or number in state.ended_rounds:
        return None
    rnd = state.rounds.get(number)
    if paired is not None:
        pairing = next((p for n, p in paired if n == number), None) if rnd else None
    else:
        pairing = next((p for p in rnd.pairings if who in p.players), None) if rnd else None
    if pairing is None or pairing.table is None:
        return None
    table = pairing.table
    # the table's own calls and reports (``Tournament.table_calls``, ``table_reports``): every
    # call and report of the event, looked through for each page, was most of a player's page
    # once a round's players had reported (2,500 reports a round at 10,000 players)
    at_table = (number, table)
    call = next(
        (
            c
            for c in (state.calls[n] for n in reversed(state.table_calls.get(at_table, ())))
            if c.status != "resolved"
        ),
        None,
    )
    # a two-player match, a pod event's playoff table too (EV-6.4), not a pod (EV-11.1)
    two = (
        len(pairing.players) == 2
        and state.settings is not None
        and rnd is not None
        and not reported_in_places(state.settings, rnd.kind, 2)
    )
    decided = state.result(number, table) is not None
    reports: list[HallReport] = []
    for r in (state.reports[n] for n in state.table_reports.get(at_table, ())):
        status = state.report_status(r)
        if status not in ("pending", "disputed"):
            continue
        first = pairing.players[0] == r.player
        reports.append(
            HallReport(
                report=r.number,
                by=_name(state, r.player),
                result=(r.score if first else r.score.flipped()).text,
                status=status,
                mine=r.player == who,
                reason=r.reason,
            )
        )
    return PlayerHall(
        round=number,
        table=table,
        can_call=call is None,
        call=call.number if call else None,
        call_status=call.status if call else "",
        call_holder=call.holder if call else "",
        can_report=two and not decided,
        reports=reports,
    )


def game_in_play(state: Tournament, round_number: int, table: int) -> str | None:
    """The game being played at ``table`` of round ``round_number``: its latest game not
    ended and not closed as void, while the match has no result; ``None`` between two
    games, or once the match is decided."""
    found = state.tables.get((round_number, table))
    if found is None or state.result(round_number, table) is not None:
        return None
    ended = {game for game, _ in found.game_results}
    return next(
        (g for g in reversed(found.games) if g not in ended and g not in state.voided), None
    )


def _game_at(state: Tournament, round_number: int, table: int) -> str:
    found = state.tables.get((round_number, table))
    return found.games[-1] if found is not None and found.games else ""


def hall_items(
    running: Iterable[tuple[str, str, Tournament]],
    wanted: set[str] | None,
    now: datetime,
    call_seconds: int = CALL_SECONDS,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The queue's judge calls not resolved and result disagreements not settled, of each
    running event ``(id, name, state)``, at the tables ``wanted`` (``None``: all), as the
    fields of ``service.room.QueueItem``: the calls first the escalated, then oldest first;
    the disagreements oldest first."""
    calls: list[dict[str, Any]] = []
    disagreements: list[dict[str, Any]] = []
    for event_id, name, state in running:
        game = state.settings.game if state.settings is not None else ""
        for call in state.calls.values():
            if call.status == "resolved":
                continue
            if wanted is not None and str(call.table).casefold() not in wanted:
                continue
            row = call_row(event_id, state, call, now, call_seconds)
            calls.append(
                _item(
                    "call",
                    event_id,
                    name,
                    game,
                    row.game,
                    (call.round, row.stage),
                    call.table,
                    row.players,
                    call.at,
                    now,
                    call_line(call, row.by),
                    call=call.number,
                    holder=call.holder,
                    status=call.status,
                    overdue=row.overdue,
                )
            )
        for report in state.reports.values():
            if state.report_status(report) != "disputed":
                continue
            if wanted is not None and str(report.table).casefold() not in wanted:
                continue
            row_r = report_row(event_id, state, report)
            since = report.answered_at or report.at
            why = f": {report.reason}" if report.reason else ""
            answer = _answering(state, report)
            if answer is not None:
                # two reports each of their own games first read alike ("2-1-0" and
                # "2-1-0") while they disagree: the line says so and gives both as the
                # slip the staff enter (the slips page's words)
                row_a = report_row(event_id, state, answer)
                words = f": {report.reason};" if _in_words(event_id, state, report) else ":"
                why = (
                    f"{words} reported {row_a.result} (each their own games first: the slip "
                    f"reads {row_r.slip} by {row_r.player}, {row_a.slip} by {row_a.player})"
                )
            disagreements.append(
                _item(
                    "disagreement",
                    event_id,
                    name,
                    game,
                    _game_at(state, report.round, report.table),
                    (report.round, row_r.stage),
                    report.table,
                    row_r.players,
                    since,
                    now,
                    f"{row_r.player} reported {row_r.result}, {row_r.answered_by} disagrees{why}"
                    " (EV-11.5: enter the slip)",
                    report=report.number,
                    status="disputed",
                    link=f"/events/{event_id}/slips#slip-{report.table}",  # where it is entered
                )
            )
    calls.sort(key=call_order)
    disagreements.sort(key=lambda i: i["since"])
    return calls, disagreements


def _answering(state: Tournament, report: ReportState) -> ReportState | None:
    """The report the opponent filed against ``report`` (EV-11.5: a different result of
    their own, which disputes it) while it is still open: theirs at the same table, filed
    after it, the latest; ``None`` when they disputed it in words alone."""
    at_table = state.table_reports.get((report.round, report.table), ())
    for number in reversed(at_table):
        other = state.reports[number]
        if number <= report.number:
            break
        if other.player == report.answered_by and other.status in ("pending", "disputed"):
            return other
    return None


def _in_words(event_id: str, state: Tournament, report: ReportState) -> bool:
    """Whether ``report`` was disputed in the opponent's words, not by a report of their
    own, whose dispute the domain words ``reports 2-1-0 (report 6)`` (``hall._file``)."""
    if not report.reason:
        return False
    for number in state.table_reports.get((report.round, report.table), ()):
        other = state.reports[number]
        if number > report.number and other.player == report.answered_by:
            own = report_row(event_id, state, other).result
            if report.reason == f"reports {own} (report {number})":
                return False
    return True


def call_line(call: CallState | GameCall, by: str) -> str:
    """A call's line in the queue: who called, why, and who holds it."""
    # who escalated it and why: what the head reads before walking to the table (EV-10.5)
    raised = (f" by {call.escalated_by}" if call.escalated_by else "") + (
        f" ({call.escalation})" if call.escalation else ""
    )
    held = {
        "open": "nobody has claimed it yet",
        "claimed": f"claimed by {call.holder}",
        "escalated": f"escalated to the head referee{raised}"
        + (f", held by {call.holder}" if call.holder else ""),
    }[call.status]
    why = f": {call.reason}" if call.reason else ""
    gone = (
        "; its pairing was taken back: it is about the players it was made at (EV-10.8)"
        if isinstance(call, CallState) and call.taken_back
        else ""
    )
    return f"judge call {call.number} by {by}{why} ({held}{gone})"


def call_order(item: Mapping[str, Any]) -> tuple[bool, datetime]:
    """The queue's order of calls: the escalated first, then the oldest first."""
    return item["status"] != "escalated", item["since"]


def _item(  # noqa: PLR0913, PLR0917 - one argument per column of the row it builds
    kind: str,
    event_id: str,
    name: str,
    game: str,
    game_id: str,
    round_at: tuple[int, str],
    table: int,
    players: Sequence[str],
    since: datetime,
    now: datetime,
    line: str,
    **more: Any,
) -> dict[str, Any]:
    round_number, stage = round_at  # the number, and the round in words (EV-6.6)
    where = f"{name or event_id} {stage}"
    return {
        "kind": kind,
        "game_id": game_id,
        "game": game,
        "table": str(table),
        "players": {str(n): p for n, p in enumerate(players, start=1)},
        "since": since,
        "age_minutes": round(max(0.0, (now - since).total_seconds() / 60), 1),
        "event": None,
        "line": f"{where}: {line}",
        "link": f"/games/{game_id}" if game_id else f"/events/{event_id}/pairings",
        "tournament": event_id,
        "round": round_number,
        "stage": stage,
        **more,
    }


class Hall(Tournaments):
    """Judge calls and players' reports (a part of the event service)."""

    def _hall(self, event_id: str, command: h.HallCommand) -> tuple[Tournament, list[tf.Fact]]:
        """Decide ``command`` on the event and store its facts; the state after them and
        the facts stored (decided again if another writer stored first: ``_raced``)."""

        def once() -> tuple[Tournament, list[Any]]:
            loaded = self._event(event_id)
            try:
                facts = h.decide_hall(loaded.state, command)
            except Refusal as exc:
                raise EventRefusedError(exc.clause, exc.reason) from None
            self._append(loaded, facts)
            return loaded.state, list(facts)

        done: tuple[Tournament, list[Any]] = self._raced(event_id, once)
        return done

    def event_player_of(
        self, event_id: str, player_id: str, name: str, clause: str = "EV-11.2"
    ) -> str:
        """The registered player a player's token is (their id across the house, else
        their name, EV-2.2), or a refusal for someone not in this event: ``clause`` is
        the rule of what they tried (EV-11.2 a report, EV-10.2 a call)."""
        found = self._event(event_id, check=False).holder(player_id, name)  # who, not what
        if found is None:
            raise EventRefusedError(clause, f"{name} is not a player of this event")
        return found

    # -- judge calls -------------------------------------------------------------------
    @event_write("run")
    def event_call(
        self,
        event_id: str,
        table: int | None = None,
        *,
        player: str | None = None,
        by: str = "",
        reason: str = "",
        game: str = "",
    ) -> CallRow:
        """Call a judge to ``table`` of the current round: by ``player`` (their own table,
        EV-10.2) or by staff ``by``."""
        now = self.clock()
        command = h.CallJudge(table=table, player=player, by=by, reason=reason, game=game, at=now)
        return self._call_step(event_id, command, now=now)

    def _call_step(
        self,
        event_id: str,
        command: h.HallCommand,
        number: int | None = None,
        now: datetime | None = None,
    ) -> CallRow:
        """Store ``command``'s facts; the row of the call ``number`` after them (``None``:
        the call it made), as at ``now`` (by default once stored)."""
        state, facts = self._hall(event_id, command)
        if number is None:
            called = facts[0]
            assert isinstance(called, tf.JudgeCalled)
            number = called.call
        return call_row(event_id, state, state.calls[number], now or self.clock(), CALL_SECONDS)

    @event_write("run")
    def event_call_claim(self, event_id: str, call: int, *, by: str, head: bool) -> CallRow:
        """A referee takes the call (EV-10.4)."""
        return self._call_step(
            event_id, h.ClaimCall(call=call, by=by, head=head, at=self.clock()), call
        )

    @event_write("run")
    def event_call_escalate(
        self, event_id: str, call: int, *, by: str, reason: str = ""
    ) -> CallRow:
        """Hand the call to the head referee (EV-10.5)."""
        return self._call_step(
            event_id, h.EscalateCall(call=call, by=by, reason=reason, at=self.clock()), call
        )

    @event_write("run")
    def event_call_resolve(
        self, event_id: str, call: int, *, by: str, note: str, head: bool
    ) -> CallRow:
        """Close the call with what was done (EV-10.6)."""
        command = h.ResolveCall(call=call, by=by, note=note, head=head, at=self.clock())
        return self._call_step(event_id, command, call)

    def event_calls(
        self,
        event_id: str,
        *,
        resolved: bool = False,
        tables: Sequence[str] | None = None,
        call_seconds: int = CALL_SECONDS,
    ) -> list[CallRow]:
        """The event's calls not resolved (``resolved``: every call), oldest first."""
        state = self._event(event_id).state
        now = self.clock()
        wanted = {t.strip().casefold() for t in tables} if tables is not None else None
        return [
            call_row(event_id, state, c, now, call_seconds)
            for c in sorted(state.calls.values(), key=lambda c: c.number)
            if (resolved or c.status != "resolved") and (wanted is None or str(c.table) in wanted)
        ]

    def _game_table(self, game_id: str) -> tuple[str, int]:
        """The event and the table of its current round a game is played at, or a
        refusal (EV-10.1): a game outside any event, or of an earlier round."""
        return self._table_of_game_now(
            game_id,
            "EV-10.1",
            "a judge call goes to an event's round (call the table's referee directly)",
        )

    @event_write("run")
    def game_call(self, game_id: str, *, by: str, reason: str = "") -> CallRow:
        """A call from a game (staff): to the event table the game is played at, or, for a
        game outside any event, to the game's own table, kept in the game (REF-11.1)."""
        if not self._at_event(game_id):
            return self._call_in_game(game_id, by, reason)
        event_id, table = self._game_table(game_id)
        return self.event_call(event_id, table, by=by, reason=reason, game=game_id)

    # -- calls from a game outside any event (REF-11) ------------------------------------
    def _at_event(self, game_id: str) -> bool:
        created = self.game_service.load(game_id).created
        return bool(created.meta.get("event", "").strip())

    def _call_in_game(self, game_id: str, by: str, reason: str) -> CallRow:
        """A call to the table of a game outside any event, kept in the game with the
        write's terms (REF-11.1)."""
        command = CallJudge(by=by, reason=reason, idempotency_key=_call_key())
        return self.table_call(game_id, command)

    def table_call(self, game_id: str, command: CallJudge | AnswerCall) -> CallRow:
        """Store a call from a game outside an event, or a referee's step on one, in the
        game (decided there: ``referee.game.calls``); the call's row after it."""
        written = self.game_service.table_call(game_id, command)
        number = command.call if isinstance(command, AnswerCall) else written.events[0]
        view = self.game_service.load(game_id)
        calls = game_calls(view.event(n) for n in range(1, view.version + 1))
        return game_call_row(view, calls[number], self.clock(), CALL_SECONDS)

    # -- players' own results ------------------------------------------------------------
    @event_write("run")
    def event_report(
        self, event_id: str, player: str, result: str, *, table: int | None = None
    ) -> ReportRow:
        """``player``'s report of their match, ``W-L-D`` from their side (EV-11.1); it
        confirms or disputes the opponent's pending report when there is one."""
        command = h.FileReport(player=player, result=result, table=table, at=self.clock())
        state, facts = self._hall(event_id, command)
        filed = facts[0]
        assert isinstance(filed, tf.ReportFiled)
        return report_row(event_id, state, state.reports[filed.report])

    @event_write("run")
    def event_report_confirm(self, event_id: str, report: int, player: str) -> ReportRow:
        """The opponent confirms: the table's result is stored with it (EV-11.4)."""
        command = h.ConfirmReport(report=report, player=player, at=self.clock())
        state, _ = self._hall(event_id, command)
        return report_row(event_id, state, state.reports[report])

    @event_write("run")
    def event_report_dispute(
        self, event_id: str, report: int, player: str, *, reason: str = ""
    ) -> ReportRow:
        """The opponent disagrees: the table waits for the staff (EV-11.5)."""
        command = h.DisputeReport(report=report, player=player, reason=reason, at=self.clock())
        state, _ = self._hall(event_id, command)
        return report_row(event_id, state, state.reports[report])

    def event_reports(
        self, event_id: str, *, every: bool = False, tables: Sequence[str] | None = None
    ) -> list[ReportRow]:
        """The reports waiting (pending or disputed, not superseded), or ``every`` one."""
        state = self._event(event_id).state
        wanted = {t.strip().casefold() for t in tables} if tables is not None else None
        rows = [report_row(event_id, state, r) for r in state.reports.values()]
        return [
            r
            for r in sorted(rows, key=lambda r: r.report)
            if (every or r.status in ("pending", "disputed"))
            and (wanted is None or str(r.table) in wanted)
        ]


# -- who may: the faces hand over the request's principal ------------------------------------


def _staff(who: Principal, what: str, event_id: str) -> list[str] | None:
    """The tables of ``event_id`` ``who`` handles calls at (``None``: every one), or a
    refusal; a table referee's tables are those of their own event (issue 31)."""
    if who.role == "head":
        return None
    if who.role == "table":
        return _of_event(who, event_id)
    raise AccessDeniedError(f"only the head referee and table referees {what}")


def _reader(who: Principal, event_id: str) -> list[str] | None:
    if who.role in ("head", "scorekeeper"):
        return None
    if who.role == "table":
        return _of_event(who, event_id)
    raise AccessDeniedError(f"the hall's calls and reports are the staff's; a {who.role} may not")


def _of_event(who: Principal, event_id: str) -> list[str]:
    """A table referee's tables, when ``event_id`` is their event (two events in one hall
    both have a table 1); else a refusal."""
    if who.event != event_id.strip():
        raise AccessDeniedError(
            f"{who.name} referees tables of "
            f"{'event ' + who.event if who.event else 'no event'}, not of event {event_id}"
        )
    return list(who.tables)


def _own(tables: list[str] | None, table: int, who: Principal) -> None:
    if tables is not None and str(table) not in tables:
        raise AccessDeniedError(
            f"{who.name} referees tables {', '.join(tables) or 'none'}, not table {table}"
        )


class HallFaces(Hall):
    """The hall's commands and reads as a face asks them: with the request's principal,
    whose role decides (``service.access`` roles): players call to their own table and
    report their own results; referees call, claim, escalate and resolve at their tables
    (the head everywhere); the scorekeeper reads; staff enter results as slips."""

    @event_write(None, as_who=True)
    def call_as(
        self, who: Principal, event_id: str, table: int | None, *, reason: str = ""
    ) -> CallRow:
        if who.role == "player":
            player = self.event_player_of(event_id, who.player_id, who.name, "EV-10.2")
            return self.event_call(event_id, table, player=player, reason=reason)
        if who.role == "scorekeeper":
            return self.event_call(event_id, table, by=who.label, reason=reason)
        tables = _staff(who, "and the players call a judge", event_id)
        if table is not None:
            _own(tables, table, who)
        return self.event_call(event_id, table, by=who.label, reason=reason)

    @event_write(None, as_who=True)
    def call_step_as(
        self, who: Principal, event_id: str, call: int, step: str, text: str = ""
    ) -> CallRow:
        """``claim``, ``escalate`` (``text``: why) or ``resolve`` (``text``: the note);
        ``event_id`` may name a game outside any event, whose call it is (REF-11.2)."""
        if not event_id.strip().startswith("ev-"):
            command = AnswerCall(
                by=who.label,
                call=call,
                step=step,
                note=text,
                head=who.role == "head",
                idempotency_key=_call_key(),
            )
            return self._game_call_step(who, event_id.strip(), command)
        tables = _staff(who, "answer judge calls", event_id)
        found = self._event(event_id, check=False).state.calls.get(call)
        if found is not None:
            _own(tables, found.table, who)
        head = who.role == "head"
        if step == "claim":
            return self.event_call_claim(event_id, call, by=who.label, head=head)
        if step == "escalate":
            return self.event_call_escalate(event_id, call, by=who.label, reason=text)
        if step == "resolve":
            return self.event_call_resolve(event_id, call, by=who.label, note=text, head=head)
        raise EventRefusedError("EV-10.4", f"{step!r}: a call is claimed, escalated or resolved")

    @event_write(None, as_who=True)
    def game_call_as(self, who: Principal, game_id: str, *, reason: str = "") -> CallRow:
        """A call from a game's page, to the event table it is played at: a player of
        that table, a referee of it, the head referee or the scorekeeper. A game outside
        any event calls to its own table (REF-11.1): a player seated at it, a referee of
        its table, the head referee or the scorekeeper."""
        if not self._at_event(game_id):
            view = self.game_service.load(game_id)
            if viewer_for(who, view) == PUBLIC:
                raise AccessDeniedError(
                    f"{who.name} neither plays in game {game_id} nor referees its table"
                )
            return self._call_in_game(game_id, who.label, reason)
        event_id, table = self._game_table(game_id)
        if who.role == "player":
            player = self.event_player_of(event_id, who.player_id, who.name, "EV-10.2")
            return self.event_call(event_id, table, player=player, reason=reason, game=game_id)
        if who.role != "scorekeeper":
            _own(_staff(who, "and the players call a judge", event_id), table, who)
        return self.event_call(event_id, table, by=who.label, reason=reason, game=game_id)

    def _game_call_step(self, who: Principal, game_id: str, command: AnswerCall) -> CallRow:
        """A referee's step on a call from a game outside any event (REF-11.2): the head
        referee, or a table referee at the game's table."""
        if (
            who.role not in ("head", "table")
            or viewer_for(who, self.game_service.load(game_id)) == PUBLIC
        ):
            raise AccessDeniedError(
                "only the head referee and the game's table referee answer its calls"
            )
        return self.table_call(game_id, command)

    def calls_as(
        self,
        who: Principal,
        event_id: str,
        *,
        resolved: bool = False,
        call_seconds: int = CALL_SECONDS,
    ) -> list[CallRow]:
        return self.event_calls(
            event_id, resolved=resolved, tables=_reader(who, event_id), call_seconds=call_seconds
        )

    def _reporter(self, who: Principal, event_id: str) -> str:
        if who.role != "player":
            raise AccessDeniedError(
                "players report their own results; the staff enter a slip "
                "('referee event result', POST /api/events/ID/results)"
            )
        return self.event_player_of(event_id, who.player_id, who.name)

    @event_write(None, as_who=True)
    def report_as(
        self, who: Principal, event_id: str, result: str, *, table: int | None = None
    ) -> ReportRow:
        return self.event_report(event_id, self._reporter(who, event_id), result, table=table)

    @event_write(None, as_who=True)
    def answer_as(
        self, who: Principal, event_id: str, report: int, *, confirm: bool, reason: str = ""
    ) -> ReportRow:
        player = self._reporter(who, event_id)
        if confirm:
            return self.event_report_confirm(event_id, report, player)
        return self.event_report_dispute(event_id, report, player, reason=reason)

    def reports_as(self, who: Principal, event_id: str, *, every: bool = False) -> list[ReportRow]:
        return self.event_reports(event_id, every=every, tables=_reader(who, event_id))

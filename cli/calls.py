"""``referee call``, ``referee calls`` and ``referee event reports``: the hall's judge calls
(EV-10) and the players' reports waiting (EV-11), over ``service.calls``.

The command line is the staff's (as every ``referee`` write, it acts with the store's
full authority: ``--referee NAME`` is recorded as who called, claimed, escalated or
resolved, and it may take an escalated call as the head referee). Players call and
report from their phones (the event player page, ``POST /api/events/ID/calls``,
``/reports``). Without ``--event`` a command uses the one running event of the store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from cli.event import event_app
from cli.face import (
    CallAfterOpt,
    EventArg,
    JsonOpt,
    dotted,
    emit_json,
    emit_rows,
    fail,
    handled,
    settings,
)

if TYPE_CHECKING:
    from service.api import CallRow, EventService, ReportRow

app = typer.Typer()

EventOpt = Annotated[
    str | None,
    typer.Option("--event", help="The event (ev-...); default: the store's one running event."),
]
STEPS = ("claim", "escalate", "resolve")


def _event(svc: EventService, event: str | None) -> str:
    if event:
        return event.strip()
    running = [e for e in svc.event_ids() if not svc.event_info(e).ended]
    if len(running) != 1:
        fail(
            "name the event with --event ev-... ("
            + (f"{len(running)} events are running" if running else "no event is running")
            + ")"
        )
    found: str = running[0]
    return found


def _line(row: CallRow) -> str:
    gone = " as paired before it was taken back (EV-10.8)" if row.taken_back else ""
    return dotted(
        f"call {row.call}",
        f"{row.stage or f'round {row.round}'} table {row.table} ({' v '.join(row.players)}){gone}",
        f"by {row.by}",
        row.status,
        f"held by {row.holder}" if row.holder else None,
        f"{row.age_seconds:g} s",
        "OVERDUE" if row.overdue else None,
        row.reason or None,
        row.note or None,
    )


@app.command("call")
def call(
    what: Annotated[
        str | None,
        typer.Argument(
            help="The table to call a judge to; or claim, escalate or resolve (then the call's "
            "number)."
        ),
    ] = None,
    number: Annotated[
        int | None, typer.Argument(help="The call to claim, escalate or resolve.")
    ] = None,
    event: EventOpt = None,
    game: Annotated[
        str | None,
        typer.Option("--game", help="Call to the event table this game is played at."),
    ] = None,
    reason: Annotated[
        str, typer.Option("--reason", help="One line (at most 200 characters), optional.")
    ] = "",
    note: Annotated[
        str, typer.Option("--note", help="What was done (resolve; at most 500 characters).")
    ] = "",
    as_json: JsonOpt = False,
) -> None:
    """Call a judge to a table of the current round (`referee call 5`, `referee call --game
    GAME`), or claim, escalate or resolve a call (`referee call claim 3`, `referee call
    resolve 3 --note TEXT`). Refusals name their EV-10 clause (exit 2, nothing stored).

    \b
    Examples:
      referee call 4 --event $ev --reason 'rules question'
      referee call resolve 3 --note 'explained PZ-6.2'
    """

    with handled():
        svc = settings.events()
        by = settings.referee
        if what in STEPS:
            if number is None:
                fail(f"say which call to {what}: 'referee call {what} N'")
            ev = _event(svc, event)
            if what == "claim":
                row = svc.event_call_claim(ev, number, by=by, head=True)
            elif what == "escalate":
                row = svc.event_call_escalate(ev, number, by=by, reason=reason)
            else:
                row = svc.event_call_resolve(ev, number, by=by, note=note, head=True)
        elif game is not None:
            if what is not None:
                fail("give a table or --game, not both")
            row = svc.game_call(game.strip(), by=by, reason=reason)
        else:
            if what is None:
                fail("say which table: 'referee call TABLE' (or --game GAME)")
            try:
                table = int(what)
            except ValueError:
                fail(f"{what!r} is not a table number (nor claim, escalate or resolve)")
            row = svc.event_call(_event(svc, event), table, by=by, reason=reason)
        if as_json:
            emit_json(row)
        else:
            typer.echo(_line(row))


@app.command("calls")
def calls(
    event: EventOpt = None,
    every: Annotated[bool, typer.Option("--all", help="Resolved calls too.")] = False,
    call_after: CallAfterOpt = 60,
    as_json: JsonOpt = False,
) -> None:
    """The judge calls not resolved (oldest first) of one event, or of every running
    event: where, who called and why, who holds each, its age; OVERDUE when nobody
    claimed it within --call-after seconds.

    \b
    Example:
      referee calls --event $ev --all
    """

    with handled():
        svc = settings.events()
        events = (
            [event.strip()]
            if event
            else [e for e in svc.event_ids() if not svc.event_info(e).ended]
        )
        rows = [
            row
            for ev in events
            for row in svc.event_calls(ev, resolved=every, call_seconds=call_after)
        ]
        emit_rows(
            rows, as_json, "no judge call waits", lambda row: f"{row.event_id} · {_line(row)}"
        )


@event_app.command("reports")
def reports(
    event: EventArg,
    every: Annotated[
        bool,
        typer.Option("--all", help="Every report (confirmed, replaced, superseded, void too)."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Players' own reports waiting for the opponent or for the staff (EV-11): pending and
    disputed ones; a disputed table needs a slip ('referee event result').

    \b
    Example:
      referee event reports $ev
    """

    with handled():
        rows = settings.service().event_reports(event, every=every)
        emit_rows(rows, as_json, "no report waits", _report_line)


def _report_line(r: ReportRow) -> str:
    answer = f" by {r.answered_by}" if r.answered_by else ""
    why = f": {r.reason}" if r.reason else ""
    return (
        f"report {r.report} · {r.stage} table {r.table} ({' v '.join(r.players)}) · "
        f"{r.player} reports {r.result} (slip {r.slip}) · {r.status}{answer}{why}"
    )

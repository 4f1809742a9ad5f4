"""``referee event clock|extend|length`` and ``referee time-limit``: the clock, from the command
line.

A thin face over ``service.hall``: each command stores a clock fact in the event's stream
(or refuses with one line naming the ``EV-9`` clause, exit 2, nothing stored) and prints
the clock as it then stands; ``show`` reads it (``--json`` for scripts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from cli.event import event_app
from cli.face import EventArg, GameArg, JsonOpt, emit, fail, handled, settings

if TYPE_CHECKING:
    from service.api import ClockView

app = typer.Typer()  # the commands below join 'referee event'

_ACTIONS = ("start", "pause", "resume", "end", "show")

ChangeReasonOpt = Annotated[str, typer.Option("--reason", help="Why it changes.")]


def print_clock(view: ClockView) -> None:
    """The round clock, then each table's with its extensions (people's form)."""
    label = view.name or view.event_id
    typer.echo(
        f"{label} {view.stage or f'round {view.round}'}: {view.remaining} left of "
        f"{view.minutes} min ({view.state})"
    )
    for table in view.tables:
        extra = f" (+{table.extension_minutes} min)" if table.extension_minutes else ""
        status = "done" if table.finished else "OVER TIME" if table.over_time else table.remaining
        typer.echo(f"  table {table.table}: {' vs '.join(table.players)} · {status}{extra}")
    for ext in view.extensions:
        typer.echo(f"  extension: table {ext.table} +{ext.minutes} min ({ext.reason})")


@event_app.command("clock")
def clock(
    event: EventArg,
    action: Annotated[str, typer.Argument(help="start, pause, resume, end or show.")] = "show",
    as_json: JsonOpt = False,
) -> None:
    """The current round's clock: start, pause, resume or end it (EV-9.2), or show it. The
    time left is worked out from the recorded marks whenever it is asked (EV-9.3).

    \b
    Example:
      referee event clock $ev start
    """
    with handled():
        if action not in _ACTIONS:
            fail(f"no clock action {action!r}: {', '.join(_ACTIONS)}")
        svc = settings.service()
        if action == "show":
            view = svc.event_clock_view(event)
        else:
            view = svc.event_clock(event, action, by=settings.referee)
        emit(view, as_json, print_clock)


@event_app.command("extend")
def extend(
    event: EventArg,
    table: Annotated[int, typer.Argument(min=1, help="The table of the current round.")],
    minutes: Annotated[int, typer.Argument(help="Extra minutes (1 to 60).")],
    reason: Annotated[
        str, typer.Option("--reason", help="Why: deck check, judge call, ruling, ...")
    ],
    as_json: JsonOpt = False,
) -> None:
    """Give one table of the current round extra time, with the reason (EV-9.4).

    \b
    Example:
      referee event extend $ev 4 5 --reason 'deck check'
    """
    with handled():
        view = settings.service().event_extend(
            event, table, minutes, reason=reason, by=settings.referee
        )
        emit(view, as_json, print_clock)


@event_app.command("length")
def length(
    event: EventArg,
    minutes: Annotated[int, typer.Argument(help="The round length in minutes (1 to 600).")],
    reason: ChangeReasonOpt = "",
) -> None:
    """Set the event's round length; the round in progress follows it too (EV-9.1).

    \b
    Example:
      referee event length $ev 55 --reason 'the hall closes at six'
    """
    with handled():
        view = settings.service().event_round_length(
            event, minutes, reason=reason, by=settings.referee
        )
        print_clock(view)


@app.command("time-limit")
def time_limit(
    game: GameArg,
    minutes: Annotated[int, typer.Argument(help="Minutes from the game's start (1 to 1440).")],
    reason: ChangeReasonOpt = "",
) -> None:
    """Set or change a game's time limit (a game outside an event; REF-10.1). The queue
    lists the table once it has passed while the game is open.

    \b
    Example:
      referee time-limit $id 50 --reason 'a longer round'
    """
    with handled():
        written = settings.service().time_limit(game, minutes, reason=reason, by=settings.referee)
        typer.echo(f"time limit {minutes} min (event {written.events[-1]})")

"""Commands for disputes, rulings, appeals, the audit dossier and the scoreboard."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from cli.face import (
    CallAfterOpt,
    GameArg,
    GameTypeOpt,
    JsonOpt,
    ReasonOpt,
    dotted,
    emit_json,
    fail,
    handled,
    progress_bar,
    settings,
)

if TYPE_CHECKING:
    from service.api import QueueItem

app = typer.Typer()

DisputeArg = Annotated[int, typer.Argument(metavar="DISPUTE", help="Dispute number.")]


def _echo(written: object) -> None:
    for number, summary in zip(written.events, written.summaries, strict=True):  # type: ignore[attr-defined]
        typer.echo(f"event {number}: {summary}")


@app.command()
def dispute(
    game: GameArg,
    event: Annotated[
        int, typer.Option("--event", help="Event number disputed ('referee log' shows them).")
    ],
    by: Annotated[str, typer.Option("--by", help="The player who disputes (name or seat).")],
    claim: Annotated[str, typer.Option("--claim", help="What they claim.")],
) -> None:
    """Record that a player disputes a decision (an entry, a rejection, a correction, a result).

    \b
    Example:
      referee dispute $id --event 7 --by Bob --claim 'the ship could move'
    """
    with handled():
        written = settings.service().dispute(game, event, by=by, claim=claim)
        typer.echo(f"{written.summaries[0]} (event {written.events[0]})")


@app.command()
def rule(
    game: GameArg,
    dispute_no: DisputeArg,
    uphold: Annotated[bool, typer.Option("--uphold", help="The decision stands.")] = False,
    overturn: Annotated[
        bool, typer.Option("--overturn", help="The decision is reversed (carried out as events).")
    ] = False,
    clause: Annotated[
        str, typer.Option("--clause", help="Clause relied on, e.g. PZ-6.2 or REF-3.3.")
    ] = "",
    reason: ReasonOpt = "",
    by: Annotated[
        str | None, typer.Option("--by", help="Referee ruling (default: --referee).")
    ] = None,
    final: Annotated[bool, typer.Option("--final", help="A head referee's final ruling.")] = False,
) -> None:
    """Rule on a dispute: uphold or overturn, citing a clause of the game's rulebook or the
    procedure. After an appeal this is the appeal ruling.

    \b
    Example:
      referee rule $id 1 --uphold --clause PZ-6.2 --reason 'the move was legal'
    """
    with handled():
        if uphold == overturn:
            fail("give exactly one of --uphold or --overturn")
        if not clause.strip():
            fail("cite the clause relied on with --clause")
        written = settings.service().rule(
            game,
            dispute_no,
            decision="uphold" if uphold else "overturn",
            clause=clause,
            reason=reason,
            by=by or settings.referee,
            final=final,
        )
        _echo(written)


@app.command()
def appeal(
    game: GameArg,
    dispute_no: DisputeArg,
    by: Annotated[str, typer.Option("--by", help="The player who appeals.")],
    grounds: Annotated[str, typer.Option("--grounds", help="Why the ruling is wrong.")],
) -> None:
    """Appeal the latest ruling on a dispute to a higher referee
    ('referee rule ... --final' closes it).

    \b
    Example:
      referee appeal $id 1 --by Bob --grounds 'PZ-6.2 lets the ship move'
    """
    with handled():
        written = settings.service().appeal(game, dispute_no, by=by, grounds=grounds)
        typer.echo(f"dispute {dispute_no} appealed (event {written.events[0]})")


@app.command()
def audit(
    game: GameArg,
    dispute_no: Annotated[int | None, typer.Option("--dispute", help="Only this dispute.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text, json or md.")] = "text",
    as_json: JsonOpt = False,
) -> None:
    """The dossier a head referee reads: each dispute (position, decision, what the rules
    say, claim, rulings) and every adjustment, penalty and deck check.

    \b
    Example:
      referee audit $id
    """
    with handled():
        from projections.audit import render_dossier, render_referee_entries

        if fmt not in {"text", "json", "md"}:
            fail("--format is text, json or md")
        report = settings.service().audit(game, dispute_no)
        if as_json or fmt == "json":
            emit_json(report)
            return
        if not report["disputes"]:
            typer.echo("no disputes in this game" if dispute_no is None else "")
        typer.echo("\n".join(render_dossier(i, fmt) for i in report["disputes"]), nl=False)
        if dispute_no is None:
            typer.echo(render_referee_entries(report, fmt), nl=False)


@app.command()
def scoreboard(
    game_type: GameTypeOpt = None,
    rebuild: Annotated[
        bool, typer.Option("--rebuild", help="Build the projection again from the whole log.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Standings per game type and player: played, won, drawn, lost, points, rating
    (Elo for two-player games, openskill for multiplayer ones).

    \b
    Example:
      referee scoreboard --game-type prizmik
    """
    with handled():
        svc = settings.service()
        total = svc.event_count()
        with progress_bar(total, "projecting", as_json or total < 100_000) as bar:
            rows = svc.scoreboard(game_type, rebuild=rebuild, progress=bar.update)
        if as_json:
            emit_json(rows)
            return
        if not rows:
            typer.echo("no finished games yet")
            return
        header = (
            f"{'game':<12} {'player':<20} {'P':>4} {'W':>4} {'D':>4} {'L':>4} {'pts':>6} "
            f"{'rating':>8}"
        )
        typer.echo(header)
        typer.echo("-" * len(header))
        from service.wording import safe_text

        for r in rows:
            rating = "" if r["rating"] is None else f"{r['rating']:.1f}"
            typer.echo(
                f"{r['game']:<12} {safe_text(r['player'])[:20]:<20} {r['played']:>4} {r['won']:>4} "
                f"{r['drawn']:>4} {r['lost']:>4} {r['points']:>6.1f} {rating:>8}"
            )


@app.command()
def queue(
    table: Annotated[
        list[str] | None,
        typer.Option("--table", help="Only these tables (once per table); default every table."),
    ] = None,
    idle: Annotated[
        int,
        typer.Option("--idle", help="A table is idle after this many minutes without an event."),
    ] = 10,
    time_limit: Annotated[
        int,
        typer.Option(
            "--time-limit",
            help="Minutes a game may run unless its time_limit label says otherwise.",
        ),
    ] = 50,
    call_after: CallAfterOpt = 60,
    as_json: JsonOpt = False,
) -> None:
    """What needs a referee now, across every table, by urgency then age: judge calls,
    disputes and appeals awaiting a ruling, rulings awaited, result disagreements, tables
    over time (by the round clock in a running event's round, else by the game's time
    limit); then, for information,
    penalties issued (an IPG upgrade or a DQ marked to investigate), idle tables and tables
    still playing. Each names the table, the players, the table referee and the last
    action. 'referee serve' shows the same at /queue.

    \b
    Example:
      referee queue
    """
    with handled():
        room = settings.service().queue(
            tables=table, idle_minutes=idle, time_limit=time_limit, call_seconds=call_after
        )
        if as_json:
            emit_json(room)
            return
        if not room.needs and not room.info:
            typer.echo("nothing waits for a referee")
            return
        for title, items in (
            (f"Needs me now ({room.count})", room.needs),
            (f"For information ({len(room.info)})", room.info),
        ):
            if not items:
                continue
            typer.echo(f"{title}:")
            for item in items:
                typer.echo("  " + _queue_line(item))


def _queue_line(item: QueueItem) -> str:
    """One item: where, who, how long, what; the table referee and the last action."""
    where = f"table {item.table}" if item.table else "no table"
    flag = "INVESTIGATE " if item.investigate else ""
    what = (
        f"{item.tournament} {item.stage or f'round {item.round}'}"
        if item.tournament
        else item.game_id
    )
    return dotted(
        f"{flag}{where}",
        " vs ".join(item.players.values()),
        what,
        f"{item.age_minutes:g} min",
        item.line,
        f"table referee {item.referee}" if item.referee else None,
        f"last: {item.last}" if item.last else None,
    )

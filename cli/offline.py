"""``referee sync`` and ``referee branch``: a table's entries recorded through an outage.

A thin face over ``service.outbox`` (the laptop's copies and outbox, for ``--server``)
and ``service.offline`` (the server's second judgement and the head referee's choice
between two branches). docs/offline.md says what a head referee does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from cli.face import JsonOpt, ReasonOpt, emit_json, emit_rows, fail, handled, settings

if TYPE_CHECKING:
    from service.api import Branch
    from service.outbox import Outbox, Pending, Synced
    from service.results import EntryResult

app = typer.Typer()

GameIdArg = Annotated[str, typer.Argument(help="The game's id.")]

branch_app = typer.Typer(
    name="branch",
    help=(
        "Branches that disagree (REF-9.5): entries a table recorded offline on a game that "
        "moved on the server meanwhile, kept as evidence; the head referee keeps one.\n\n"
        "\b\nAfter 'referee queue' lists 'Branches disagree':\n"
        "  referee branch list GAME\n"
        "  referee branch keep GAME EVENT --server     # the game stays as it is\n"
        "  referee branch keep GAME EVENT --table      # the table's entries replace the server's"
    ),
    no_args_is_help=True,
)
app.add_typer(branch_app)


def echo_synced(sent: list[Synced]) -> None:
    """Say what the outbox sent before a command (on standard error: the answer follows)."""
    for done in sent:
        typer.echo(synced_line(done), err=True)


def synced_line(done: Synced) -> str:
    if done.outcome == "held":
        return (
            f"{done.entries} pending entries of {done.game} not sent: {done.reason}; they stay "
            "in this laptop's outbox ('referee sync' with a token that may write the game "
            "sends them)"
        )
    if done.outcome == "merged":
        where = ", ".join(map(str, done.events)) or "-"
        return f"sent {done.entries} pending entries of {done.game}: stored as events {where}"
    return (
        f"sent {done.entries} pending entries of {done.game}: branches disagree ({done.reason}); "
        f"kept as evidence in event {done.event} for the head referee's queue (REF-9.5)"
    )


def offline_lines(
    result: EntryResult, out: list[str], err: list[str]
) -> tuple[list[str], list[str]]:
    """An answer judged on this laptop: every line says it is pending (REF-9.4)."""
    if result.status == "recorded":
        first = out[0].removeprefix("recorded ").replace("(event ", "(local event ") if out else ""
        out = [f"recorded offline (pending): {first}", *out[1:]]
        out.append("the server cannot be reached: 'referee sync' sends it when it answers")
    elif result.status == "rejected":
        err = [f"offline (pending): {err[0]}", *err[1:]] if err else err
    else:
        out = [f"{out[0]} (judged offline)", *out[1:]] if out else out
    return out, err


def pending_lines(box: Outbox, game: str, pending: list[Pending]) -> list[str]:
    if not pending:
        return [f"(shown from this laptop's copy: {box.remote.url} cannot be reached)"]
    lines = [f"pending, not yet judged by {box.remote.url} ({len(pending)}):"]
    for p in pending:
        lines.append(
            f"  {p.judged} at {p.recorded_at.strftime('%H:%M:%S')} (on event {p.judged_on})"
        )
    return lines


@app.command(
    "sync",
    help=(
        "Send the entries recorded on this laptop while the server could not be reached "
        "(REF-9.4): in order, each game's as one batch with their keys and the version they "
        "were judged on. The server judges them again: stored as if live where the game did "
        "not move, else kept as evidence for the head referee (REF-9.5). The next act, show "
        "or legal that reaches the server does the same first.\n\n"
        "\b\nExample:\n"
        "  referee --server http://hall:8000 act GAME 'e1>e2'   # recorded offline (pending)\n"
        "  referee --server http://hall:8000 sync               # once the server answers\n\n"
        "Exit codes: 0 sent (or nothing pending), 2 the server still cannot be reached "
        "(the outbox is kept), or refused a game's batch (held in the outbox; the others "
        "are sent)."
    ),
)
def sync(as_json: JsonOpt = False) -> None:
    with handled():
        box = settings.outbox()
        if box is None:
            fail("sync sends this laptop's outbox to a server: give --server (REFEREE_SERVER)")
        waiting = len(box.pending())
        sent = box.flush()
        if as_json:
            emit_json({"sent": sent, "pending": len(box.pending())})
        elif not waiting:
            typer.echo("nothing pending")
        for done in sent if not as_json else []:
            typer.echo(synced_line(done))
        if any(done.outcome == "held" for done in sent):
            raise typer.Exit(2)


@branch_app.command("list")
def list_branches(game: GameIdArg, as_json: JsonOpt = False) -> None:
    """A game's branches kept as evidence, side by side, and which were resolved.

    \b
    Example:
      referee branch list $id
    """
    with handled():
        from service.api import branches

        found = branches(settings.service(), game)
        emit_rows(found, as_json, "no branches", _branch_text)


def _branch_text(b: Branch) -> str:
    state = f"kept the {b.kept}'s" if b.kept else "waiting for the head referee"
    if b.rejected:  # REF-9.6: nothing to choose
        state = "reviewed" if b.kept else "rejected entries to review (keep the server's)"
    if b.kept is None and b.superseded_by is not None:  # REF-9.7: the later one is chosen
        state = (
            f"superseded by the branch of event {b.superseded_by}, which holds all of its "
            "entries (REF-9.7): choose there"
        )
    if b.resolved_at:  # a replica: chosen where the game is written (REF-9.1)
        from service.wording import resolved_at_hall

        state += f"; {resolved_at_hall(b.resolved_at)}"
    now = ""
    if b.kept is None and not b.rejected and b.superseded_by is None:
        now = f"\n  keeping the table's retracts now: {'; '.join(b.retracts) or 'nothing'}"
    return (
        f"event {b.event}: after event {b.base_version}, {state} ({b.reason})\n"
        f"  the table ({b.device}): {', '.join(b.theirs)}\n"
        f"  the server: {'; '.join(b.ours) or 'nothing since'}{now}"
    )


@branch_app.command("keep")
def keep(
    game: GameIdArg,
    event: Annotated[int, typer.Argument(help="The branch's event, as the queue names it.")],
    server: Annotated[bool, typer.Option("--server", help="Keep the game as it is.")] = False,
    table: Annotated[
        bool,
        typer.Option(
            "--table",
            help="Keep the table's entries: the server's since the branch are retracted "
            "(one backup, REF-2.3) and the table's recorded in their order.",
        ),
    ] = False,
    reason: ReasonOpt = "",
) -> None:
    """Keep one branch (REF-9.5): recorded in the game; the queue item goes.

    \b
    Example:
      referee branch keep $id 14 --server --reason 'the server was right'
    """
    with handled():
        if server == table:
            fail("give one of --server or --table")
        from service.api import resolve_branch

        results = resolve_branch(
            settings.service(),
            game,
            event,
            "server" if server else "table",
            reason=reason,
            by=settings.referee,
        )
        for r in results:
            typer.echo(f"{r.status} {r.notation or r.text} (event {r.event})")
        typer.echo(f"kept the {'server' if server else 'table'}'s branch of event {event}")

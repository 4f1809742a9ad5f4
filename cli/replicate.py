"""``referee replicate`` and ``referee store name``: a store that follows another's log.

A thin face over ``service.replication``: the copy, its position and the replica's
refusals live there (and in ``events.replica``); this module reads the options, stops
cleanly on Ctrl-C or SIGTERM, and prints.
"""

from __future__ import annotations

import signal
import threading
from typing import TYPE_CHECKING, Annotated

import typer

from cli.face import JsonOpt, emit_json, fail, handled, settings
from cli.records import store_app

if TYPE_CHECKING:
    from types import FrameType

    from service.api import Replication

app = typer.Typer()

# ``referee store name`` and ``store status`` join ``store backup`` and ``store restore``.


@app.command(
    "replicate",
    help=(
        "Copy one store's events into another, stream by stream, byte for byte: a "
        "replica (docs/offline.md).\n\n"
        "The copy resumes where it stopped (its position is kept in the target, written "
        "with the events it copied), stores nothing twice, and the target refuses every "
        "other write to what it copied (REF-9.1) until an event is handed over to it "
        "('referee event handover').\n\n"
        "\b\nThe hall's laptop runs the event; a cloud replica serves the public pages:\n"
        "  referee --db hall.db store name hall\n"
        "  referee replicate --from hall.db --to 'postgresql://ref@cloud:5432/referee' "
        "--follow\n\n"
        "Exit codes: 0 caught up (--once) or stopped (Ctrl-C, SIGTERM), 2 refused (the "
        "stores disagree, REF-9.3: nothing of that batch was copied)."
    ),
)
def replicate(
    source: Annotated[
        str,
        typer.Option("--from", help="The store to copy from: a SQLite file or postgresql:// URL."),
    ],
    target: Annotated[
        str,
        typer.Option(
            "--to", help="The replica: a SQLite file (made if missing) or postgresql:// URL."
        ),
    ],
    once: Annotated[
        bool,
        typer.Option(
            "--once/--follow",
            help="--once: return when the copy has caught up (the default); --follow: keep "
            "copying until Ctrl-C or SIGTERM, waiting out a store that cannot be reached.",
        ),
    ] = True,
    interval: Annotated[
        float, typer.Option("--interval", min=0.05, help="Seconds between looks (--follow).")
    ] = 0.5,
    as_json: JsonOpt = False,
) -> None:
    from service.api import environment_label, follow, refuse_no_store_file, replicate_once

    with handled():
        if once:
            report = replicate_once(source, target)
            _print(report, as_json)
            return
        refuse_no_store_file(source, target)  # before the "following" line: one line, exit 2
        stop = threading.Event()

        def _stop(signum: int, frame: FrameType | None) -> None:
            stop.set()

        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _stop)
        typer.echo(
            f"following {environment_label(source)} into "
            f"{environment_label(target)} (Ctrl-C stops)",
            err=True,
        )
        report = follow(
            source,
            target,
            stop=stop,
            interval=interval,
            say=lambda text: typer.echo(text, err=True),
            on_copy=lambda r: typer.echo(
                f"copied {r.copied} events from {r.source} (position {r.position})", err=True
            ),
        )
        _print(report, as_json)


def _print(report: Replication, as_json: bool) -> None:
    if as_json:
        emit_json(report)
        return
    if not report.reached:
        typer.echo(
            f"stopped before reaching both stores: nothing copied from {report.source} into "
            f"{report.target} this run ('store status' on the replica says how far it is)"
        )
        return
    typer.echo(
        f"{report.target} follows {report.source} up to position {report.position}: "
        f"{report.copied} events copied, {report.present} already there"
        + (f", {report.handovers} hand-overs" if report.handovers else "")
    )


@store_app.command("name")
def name(
    new_name: Annotated[
        str | None,
        typer.Argument(help="The name to give (once); without it, the store's name is printed."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Name this store (hall, cloud, ...), or print its name: hand-overs name the store
    that writes an event from then on.

    \b
    Example:
      referee store name hall
      referee store name --json
    """
    from service.api import name_store

    with handled():
        if settings.server is not None:
            fail("a store is named on its own machine, without --server")
        svc = settings.service()
        named = name_store(svc.store, new_name)
        if as_json:
            emit_json({"name": named})
            return
        typer.echo(named)


@store_app.command("status")
def status(as_json: JsonOpt = False) -> None:
    """This store's name, the stores it copies from (with the position reached), and how
    many streams it holds as a replica, by the store that writes them.

    \b
    Example:
      referee store status --json
    """
    from service.api import store_status

    with handled():
        info = store_status(settings.service().store)
        if as_json:
            emit_json(info)
            return
        typer.echo(f"store: {info.name} (its log at position {info.position})")
        for source in info.sources:
            typer.echo(
                f"copies {source.source}: up to position {source.position}, "
                f"{source.copied} events copied, last at {source.updated}"
            )
        for writer, count in sorted(info.replica_of.items()):
            typer.echo(f"holds {count} streams as a replica of {writer} (writes refused)")
        if not info.sources and not info.replica_of:
            typer.echo("no replica: this store writes everything it holds")

"""Commands for records: export, import (our formats and other tools' formats), verify."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cli.face import (
    EXIT_REJECTED,
    EXIT_USAGE,
    AsOpt,
    JsonOpt,
    PublicKeyOpt,
    VariantOpt,
    emit_json,
    fail,
    handled,
    parse_pairs,
    progress_bar,
    public_key_arg,
    read_option_file,
    refuse_replacing_a_database,
    settings,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from service.app import RefereeService
    from service.results import GameReport

app = typer.Typer()


def _write_atomically(path: Path, lines: object) -> None:
    """Write every line to ``path`` through a temporary file beside it, so a failure never
    leaves half a record."""
    if path.is_dir():
        fail(f"{path}: is a folder; name a file (or use --all -o FILE for every game in one file)")
    if not path.parent.exists():
        fail(f"{path}: the folder {path.parent} does not exist")
    refuse_replacing_a_database(path)
    try:
        handle, temp = tempfile.mkstemp(prefix=".referee-", dir=path.parent)
    except OSError as exc:  # named the temporary file: ".referee-blkm678t: Permission denied"
        fail(f"{path}: cannot be written ({exc.strerror or exc})")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            for line in lines:  # type: ignore[attr-defined]
                out.write(line)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)  # mkstemp makes it private; an export is an ordinary file
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _replay_html(svc: RefereeService, game_id: str, viewer: str) -> str:
    try:
        from service.api import replay_html
    except ImportError:
        fail("the HTML replay needs the web extra: pip install 'referee[web]'")
    html: str = replay_html(svc, game_id, viewer)
    return html


@app.command()
def export(
    game: Annotated[str | None, typer.Argument(help="Game id (or use --all).")] = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="jsonl (exact interchange), text (PGN-like) or html "
            "(the replay viewer as one file that needs no server).",
        ),
    ] = "jsonl",
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="File to write (default: standard output)."),
    ] = None,
    all_games: Annotated[
        bool, typer.Option("--all", help="Every game of the store, one after another.")
    ] = False,
    as_: AsOpt = None,
    sqlite: Annotated[
        Path | None,
        typer.Option(
            "--sqlite",
            help="Every game as plain tables in a new SQLite file (games, entries, "
            "rejections, disputes, rulings, penalties, standings, the log with full-text "
            "search), for Datasette or any SQLite tool. An earlier export is written again; "
            "any other file, the store included, is refused. Example: referee export "
            "--sqlite analysis.db",
        ),
    ] = None,
) -> None:
    """Write a game's record (or every game's, in one file) as JSON Lines, text or HTML.

    JSONL holds every event exactly as stored (hidden cards included: the referee's
    view only); --as public or --as SEAT gives the text record, or the HTML replay
    of one game, as that viewer may see it.

    \b
    Examples:
      referee export $id -o game.jsonl
      referee export $id --format html --as public -o replay.html
    """
    with handled():
        if sqlite is not None:
            if game is not None or output is not None or fmt != "jsonl":
                fail("--sqlite FILE writes every game; give no game, --output or --format")
            viewer = (as_ or "referee").strip().lower()
            if viewer not in ("public", "referee"):
                fail("--sqlite takes --as public or --as referee")
            try:
                done = settings.service().export_sqlite(sqlite, viewer)
            except ValueError as exc:
                fail(str(exc))
            counts = ", ".join(f"{n} {k}" for k, n in done.rows.items())
            typer.echo(f"wrote {done.path}: {counts}", err=True)
            return
        if fmt not in {"jsonl", "text", "html"}:
            fail("--format is jsonl, text or html")
        if all_games == (game is not None):
            fail("name one game, or use --all")
        svc = settings.service()
        viewer = "referee"
        if as_ is not None:
            if game is None:
                if as_.strip().lower() not in ("public", "referee"):
                    fail("--all takes --as public or --as referee")
                viewer = as_.strip().lower()
            else:
                viewer = svc.viewer_of(svc.load(game), as_)
        if viewer != "referee" and fmt == "jsonl":
            fail(
                "a JSONL record is the referee's (it holds every event exactly, hidden cards "
                "included); use --format text with --as"
            )
        if fmt == "html":
            if game is None:
                fail("an HTML replay is of one game; name it")
            lines = iter([_replay_html(svc, svc.resolve(game), viewer)])
        else:
            lines = svc.export(None if all_games else [game or ""], fmt, viewer)  # type: ignore[arg-type]
        if output is None:
            for line in lines:
                sys.stdout.write(line)
            return
        _write_atomically(output, lines)
        typer.echo(f"wrote {output}", err=True)


def _many(count: int, word: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{count} {word}{'s' if count != 1 else ''}"


@app.command(name="import")
def import_(
    files: Annotated[
        list[Path], typer.Argument(help="Record files: jsonl or text, one game or many each.")
    ],
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="auto (jsonl or text), or another tool's format a game reads "
            "(prismata-reference).",
        ),
    ] = "auto",
    as_new: Annotated[
        bool, typer.Option("--as-new", help="Copy games already in the store under new ids.")
    ] = False,
    compare: Annotated[
        bool,
        typer.Option(
            "--compare", help="Other tools' formats: compare every position with the file's own."
        ),
    ] = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", help="KEY=VALUE for another tool's format (prismata-reference: quirks=no)."
        ),
    ] = None,
    reference_quirks: Annotated[
        bool,
        typer.Option(
            "--reference-quirks/--no-reference-quirks",
            help="prismata-reference: follow the engine where it differs from the live game.",
        ),
    ] = True,
    as_json: JsonOpt = False,
) -> None:
    """Import game records. Every entry is checked again; each game is imported, skipped
    (already in the store) or refused (naming the file, line and reason) on its own.
    Exit 2 if any was refused (as every refusal), the others imported; with --compare,
    exit 1 if a game differs from the other tool's record (a check failed).

    \b
    Example:
      referee import game.jsonl
    """
    with handled():
        import msgspec

        foreign = fmt not in ("auto", "jsonl", "text")
        if not foreign and (compare or option or not reference_quirks):  # were ignored
            fail(
                "--compare, --option and --no-reference-quirks read another tool's format: "
                "give its --format (prismata-reference)"
            )
        svc = settings.service(create=True)
        if foreign:
            options: dict[str, object] = {"quirks": reference_quirks}
            options.update(
                {
                    k: v.lower() not in ("no", "false", "0", "off")
                    for k, v in parse_pairs(option, "--option").items()
                }
            )
            with progress_bar(len(files), "importing", as_json or len(files) < 20) as bar:
                results = svc.import_foreign(
                    fmt,
                    [str(f) for f in files],
                    compare=compare,
                    options=options,
                    by=settings.referee,
                    progress=bar.update,
                )
            failed = [r for r in results if r.error or not r.agree]
            if as_json:
                emit_json(results)
            else:
                for r in results:
                    if r.error:
                        typer.echo(f"error: {r.source}: {r.error}", err=True)
                    elif not r.agree:
                        typer.echo(f"{r.source}: differs: {r.first_difference}", err=True)
                    elif r.game_id:
                        typer.echo(r.game_id)
                agreeing = sum(1 for r in results if r.agree and not r.error)
                if compare or len(failed) < len(results):  # else the refusals' lines say all
                    typer.echo(
                        f"{agreeing}/{_many(len(results), 'game')} agree with the other "
                        "tool's record"
                        if compare
                        else f"imported {sum(1 for r in results if r.game_id)}/"
                        f"{_many(len(results), 'game')}",
                        err=True,
                    )
            if any(r.error for r in results):
                raise typer.Exit(EXIT_USAGE)  # a file refused, as every refusal
            if failed:
                raise typer.Exit(EXIT_REJECTED)  # a game differs: a check failed
            return
        with progress_bar(len(files), "importing", as_json or len(files) < 20) as bar:
            report = svc.import_files(
                files, as_new=as_new, by=settings.referee, progress=bar.update
            )
        if as_json:
            emit_json(
                {
                    "imported": len(report.imported),
                    "skipped": len(report.skipped),
                    "refused": len(report.refused),
                    "events": report.events,
                    "files": msgspec.to_builtins(report.files),
                }
            )
        else:
            for outcome in report.files:
                if outcome.status == "imported":
                    typer.echo(outcome.game_id)
                elif outcome.status == "skipped":
                    typer.echo(f"{outcome.source}: skipped: {outcome.detail}", err=True)
                else:
                    typer.echo(f"error: {outcome.detail}", err=True)
            if report.imported or report.skipped:  # else each refusal's line says it all
                typer.echo(
                    f"imported {_many(len(report.imported), 'game')} "
                    f"({_many(report.events, 'event')}), skipped "
                    f"{len(report.skipped)}, refused {len(report.refused)}",
                    err=True,
                )
        if report.refused:
            raise typer.Exit(EXIT_USAGE)  # a file refused, as every refusal


@app.command()
def seal(
    key: Annotated[
        Path | None, typer.Option("--key", help="The private key file that signs checkpoints.")
    ] = None,
    new_key: Annotated[
        Path | None,
        typer.Option(
            "--new-key",
            help="Create a key in this file (kept off the store's machine, readable by you only).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Sign the store-wide chain: prints a checkpoint a head referee can publish or print on
    the result sheet; 'referee verify --checkpoint' later proves the store still extends it.

    \b
    Examples:
      referee seal --new-key /media/usb/seal.pem
      referee seal --key /media/usb/seal.pem
    """
    with handled():
        if (key is None) == (new_key is None):
            fail("give --key FILE to seal, or --new-key FILE to create a key")
        if new_key is not None:
            from service.app import RefereeService

            public = RefereeService.create_seal_key(new_key)
            if as_json:
                emit_json({"key": str(new_key), "public_key": public})
                return
            typer.echo(f"wrote {new_key} (keep it away from the store); public key:")
            typer.echo(public)
            return
        assert key is not None
        _check_seal_key_file(key)
        svc = settings.service()
        for warning in svc.seal_key_warnings(key):
            typer.echo(f"warning: {warning}", err=True)
        passphrase = os.environ.get("REFEREE_KEY_PASSPHRASE")
        if passphrase is None and svc.seal_key_is_encrypted(key):
            if not sys.stdin.isatty():
                fail("the key is encrypted: set REFEREE_KEY_PASSPHRASE (no terminal to ask on)")
            passphrase = typer.prompt("passphrase for the seal key", hide_input=True)
        checkpoint = svc.seal(key, passphrase.encode() if passphrase else None)
        if as_json:
            emit_json(
                {
                    "checkpoint": checkpoint.text(),
                    "size": checkpoint.size,
                    "position": checkpoint.position,
                    "head": checkpoint.head,
                }
            )
            return
        typer.echo(checkpoint.text())


def _check_seal_key_file(key: Path) -> None:
    """Refuse a --key that is no key file in one line, before any warning about where the
    key is kept (a mistyped path printed a warning about the file's folder, then the
    error)."""
    if not key.is_file():
        what = "a folder" if key.is_dir() else "no such file"
        fail(f"--key {key}: {what}; give the key file 'referee seal --new-key FILE' wrote")
    try:
        with key.open("rb") as handle:
            head = handle.read(4096)
    except OSError as exc:
        fail(f"--key {key}: cannot be read ({exc.strerror or exc})")
    if b"-----BEGIN" not in head or b"PRIVATE KEY-----" not in head:
        fail(f"--key {key}: not a seal key (the PEM file 'referee seal --new-key FILE' wrote)")


def verified_streams(games: int, tournaments: int) -> str:
    """``3 games and 1 event``: game streams and event (tournament) streams are told
    apart, so a store of one event and its 64 games does not read as 65 games."""
    text = f"{games} game{'s' if games != 1 else ''}"
    if tournaments:
        text += f" and {tournaments} event{'s' if tournaments != 1 else ''}"
    return text


def _print_problems(reports: Iterable[GameReport]) -> None:
    """Each damaged stream: how many problems, then each on its own line."""
    for r in reports:
        problems = len(r.findings)
        typer.echo(f"{r.game_id}: {problems} problem{'s' if problems != 1 else ''}")
        for finding in r.findings:
            typer.echo(f"  {finding}")


def _what_plain_verify_cannot_see(recorded: int, broken: bool) -> str:
    """The limit of a keyless verify, said plainly so "all intact" is not over-read."""
    if recorded == 0:
        return (
            "note: this store was never sealed, so a plain verify cannot see a deleted game or "
            "a cut tail; 'referee seal' and publish the checkpoint, then 'verify --checkpoint'"
        )
    if broken:
        return "note: a recorded checkpoint no longer holds (see above)"
    return (
        f"note: the store agrees with its {recorded} recorded checkpoint"
        f"{'s' if recorded != 1 else ''}, checked without a key: anyone who can write the store "
        "can re-seal it; prove it with 'verify --checkpoint LINE --public-key KEY'"
    )


@app.command()
def verify(
    game: Annotated[str | None, typer.Argument(help="Game id; every game when omitted.")] = None,
    variant: VariantOpt = None,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", help="Replay under another ruleset version.")
    ] = None,
    checkpoint: Annotated[
        str | None,
        typer.Option(
            "--checkpoint",
            help="A checkpoint 'referee seal' printed (the line, or a file holding it).",
        ),
    ] = None,
    public_key: PublicKeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check hash chains and replay every decision; prove the store extends a signed
    checkpoint; or, with --variant, show what a ruling changes.

    \b
    Examples:
      referee verify
      referee verify --checkpoint checkpoint.txt --public-key KEY_HEX_OR_FILE
    """
    with handled():
        import msgspec

        svc = settings.service()
        if checkpoint is not None:
            if public_key is None:
                fail("--checkpoint needs --public-key (the key that signed it)")
            path = Path(checkpoint)
            text = read_option_file(path) if path.is_file() else checkpoint
            key = public_key_arg(public_key)
            held = svc.verify_checkpoint(text.strip(), key)
            # ... and every chain under it (issue 31): the checkpoint proves the store extends
            # the sealed head, not that each stored row still matches its own hash
            chains = svc.verify(game, witness=svc.witness())
            damaged = [r for r in chains.reports if not r.ok]
            if as_json:
                emit_json(
                    {
                        **msgspec.to_builtins(held),
                        "chains": {
                            "games": chains.games,
                            "tournaments": chains.tournaments,
                            "events": chains.events,
                            "bad": chains.bad,
                            "reports": msgspec.to_builtins(damaged),
                        },
                    }
                )
            else:
                typer.echo(
                    ("checkpoint holds: " if held.ok else "checkpoint broken: ") + held.detail
                )
                _print_problems(damaged)
                typer.echo(
                    f"chains: {verified_streams(chains.games, chains.tournaments)} "
                    f"({chains.events} stored entries): "
                    + ("all intact" if not damaged else f"{len(damaged)} with problems")
                )
            if not held.ok or damaged:
                raise typer.Exit(EXIT_REJECTED)
            return
        if variant or ruleset:
            if game is None:
                fail("--variant/--ruleset needs a game")
            report = svc.what_if(game, variants=parse_pairs(variant, "--variant"), ruleset=ruleset)
            if as_json:
                emit_json(report)
                return
            changes = (
                ", ".join(f"{k}: {a} -> {b}" for k, (a, b) in report.changed.items()) or "nothing"
            )
            typer.echo(f"{report.game_id} replayed with {changes}")
            if not report.illegal:
                typer.echo("every standing action is legal under this ruling")
            for item in report.illegal:
                why = "; ".join(f"{v['clause']}: {v['reason']}" for v in item.violations)
                typer.echo(
                    f"  action {item.seq} {item.notation} (event {item.event}) would be illegal: "
                    f"{why}"
                )
            typer.echo(
                f"result as recorded: {report.recorded_result}"
                + (f" ({report.recorded_how})" if report.recorded_how else "")
            )
            tail = (
                f" after action {report.ends_at_action} ({report.clause})"
                if report.ends_at_action
                else ""
            )
            typer.echo(f"result under this ruling: {report.result_under_ruling}{tail}")
            if report.note:
                typer.echo(report.note)
            return
        count = 1 if game else svc.game_count()
        with progress_bar(count, "verifying", as_json or count < 50) as bar:
            result = svc.verify(game, progress=bar.update, witness=svc.witness())
        bad = [r for r in result.reports if not r.ok]
        sealed = svc.verify_recorded_checkpoints() if game is None else []
        broken = [c for c in sealed if not c.ok]
        if as_json:
            emit_json(
                {
                    "games": result.games,
                    "tournaments": result.tournaments,
                    "events": result.events,
                    "bad": result.bad,
                    "reports": msgspec.to_builtins(bad if not game else result.reports),
                    "checkpoints": msgspec.to_builtins(sealed),
                }
            )
        else:
            _print_problems(bad)
            for c in broken:
                typer.echo(f"recorded checkpoint broken: {c.detail}")
            typer.echo(
                f"verified {verified_streams(result.games, result.tournaments)} "
                f"({result.events} stored entries): "
                + ("all intact" if not bad else f"{len(bad)} with problems")
            )
            if game is None:
                typer.echo(_what_plain_verify_cannot_see(len(sealed), bool(broken)))
        if bad or broken:
            raise typer.Exit(EXIT_REJECTED)


store_app = typer.Typer(
    help="Back up and restore the whole store (not 'referee backup', which backs a game up "
    "to an earlier action under the IPG).",
    no_args_is_help=True,
)
app.add_typer(store_app, name="store")


@store_app.command("backup")
def store_backup(
    dest: Annotated[Path, typer.Argument(help="The backup file to write (never overwritten).")],
) -> None:
    """Copy the whole live store to DEST (SQLite's online backup API: safe while serving;
    a PostgreSQL store is dumped in one snapshot into such a file), keeping store order and
    recorded checkpoints. Cron: '0 * * * * referee --db /srv/referee.db
    store backup /backups/referee-$(date +\\%H).db'.

    \b
    Example:
      referee store backup /backups/referee.db
    """
    with handled():
        from service.api import backup_store

        events = backup_store(settings.db, dest)
        typer.echo(f"backed up {events} events to {dest}")


@store_app.command("restore")
def store_restore(
    source: Annotated[Path, typer.Argument(help="A backup 'referee store backup' wrote.")],
) -> None:
    """Make the store (--db: a SQLite file that must not exist yet, or an empty PostgreSQL
    schema) from the backup SOURCE; it then verifies against the last checkpoint published
    before the backup.

    \b
    Example:
      referee --db restored.db store restore backup.db
    """
    with handled():
        from service.api import restore_store

        events = restore_store(settings.db, source)
        typer.echo(f"restored {events} events from {source}")

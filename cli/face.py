"""What every command of the ``referee`` face shares: the global options, the service,
turning errors into one line and an exit code, and printing.

Exit codes: 0 done; 1 an entry was rejected or a check failed; 2 the command was
refused (bad input, unknown game, no store, a command the game's state does not
allow: nothing was stored); 3 another referee wrote to the same game first, or the store
stayed locked longer than REFEREE_LOCK_TIMEOUT seconds (nothing of yours was stored).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

if TYPE_CHECKING:
    from referee.kit.decks import Deck, Decklist
    from service.api import EventService
    from service.app import RefereeService
    from service.outbox import Outbox
    from service.remote import Remote

EXIT_REJECTED = 1
EXIT_USAGE = 2
EXIT_CONFLICT = 3


REMOTE_COMMANDS = "act (and act --dry-run), show, legal and sync"


class Settings:
    """The global options, and the service opened on first use: the store's, or a
    running server's (``--server``) for the commands that can ask one."""

    def __init__(self) -> None:
        self._db: str | None = None
        self._referee = "referee"
        self.server: str | None = None
        self.token: str | None = None
        self._service: RefereeService | None = None
        self._remote: Remote | None = None
        self._created = False
        self._made: Path | None = None  # a store file this command made, until it holds an event
        self._made_from_empty = False  # ... in an empty file that was there (`touch referee.db`)
        self.offline_store: str | None = None  # --offline-store: a laptop's copies and outbox

    def reset(
        self, db: str | None, referee: str, server: str | None = None, token: str | None = None
    ) -> None:
        self.close()
        self._made = None
        self._db, self._referee = db, referee
        self.server = server.strip() if server and server.strip() else None
        self.token = token

    @property
    def db(self) -> str | None:
        """``--db`` (``REFEREE_DB``): ``None`` for the default store. An empty one (``export
        REFEREE_DB=``) named the current folder: "'.': is a folder, not a store file"."""
        if self._db is not None and not self._db.strip():
            fail(
                "--db (REFEREE_DB) is empty: name a store file, or unset REFEREE_DB for "
                "the default ./referee.db"
            )
        return self._db

    @property
    def referee(self) -> str:
        """``--referee`` (``REFEREE_NAME``), checked as every door checks a name
        (``service.bounds``) when a command first records it: a newline or an escape sequence
        in it was stored with each entry, and an empty one recorded entries by nobody."""
        name = self._referee
        plain = 0 < len(name) <= 100 and name.isascii() and name.isprintable()
        if plain and " ".join(name.split()) == name:  # as check_name keeps it: no import
            return name
        from service.bounds import BoundsError, check_name

        try:
            return check_name(name, "--referee (REFEREE_NAME)")
        except BoundsError as exc:
            fail(str(exc))

    def remote(self) -> Remote | None:
        """The server named by ``--server`` (``REFEREE_SERVER``), or ``None`` to use the store.

        Only the commands of ``REMOTE_COMMANDS`` ask for it; they then open no store and
        import no driver."""
        if self.server is None:
            return None
        if self._remote is None:
            from service.remote import Remote

            self._remote = Remote(self.server, self.token)
        return self._remote

    def outbox(self) -> Outbox | None:
        """The laptop's outbox for ``--server`` (``service.outbox``), or ``None`` without one:
        act, show and legal go through it, so a table records through an outage."""
        remote = self.remote()
        if remote is None:
            return None
        from service.outbox import Outbox, offline_root

        return Outbox(remote, offline_root(self.offline_store), referee=self.referee)

    def service(
        self, *, create: bool = False, one_shot: bool = False, keep_games: bool = False
    ) -> RefereeService:
        """The service over the store; only commands that create games may create a store.
        ``one_shot``: a command on one game (``act``, ``show``), which on PostgreSQL needs
        no database driver. ``keep_games``: a session on one game (``table``), which keeps
        it folded between entries (``open_service``).

        With ``--server`` a command that would open the store is refused: the games are
        the server's, and writing them to a file on this machine would lose them."""
        if self.server is not None:
            fail(
                f"--server (REFEREE_SERVER) runs {REMOTE_COMMANDS} on the server; run this "
                "command on the server's machine, or without --server for a store here"
            )
        if self._service is None or (create and not self._created):
            from service.app import open_service, store_file_to_make

            self.close()
            if create and self._made is None:
                self._made = store_file_to_make(self.db)
                self._made_from_empty = self._made is not None and self._made.exists()
            if keep_games:
                from service.cached import CachedService

                self._service = open_service(self.db, create=create, kind=CachedService)
            else:
                self._service = open_service(self.db, create=create, one_shot=one_shot)
            self._service.on_resolved = say_which
            self._created = create
        return self._service

    def events(self) -> EventService:
        """The event service of the store (``--db``): every ``referee event`` command's door."""
        return self.service().parts.events

    def discard_unused_store(self) -> None:
        """After a refused command: delete the store file it made if it holds no event, so
        bad input leaves the folder exactly as it was (no empty ``referee.db`` appears; an
        empty file that was there is left empty, not holding the store's tables)."""
        made, self._made = self._made, None
        if made is not None:
            from service.app import remove_unused_store

            self.close()
            remove_unused_store(made, was_empty=self._made_from_empty)

    def close(self) -> None:
        if self._service is not None:
            self._service.close()
            self._service = None
        if self._remote is not None:
            self._remote.close()
            self._remote = None


settings = Settings()


def say_which(ref: str, game_id: str) -> None:
    """A game named by the ending of its id: say which game that was."""
    typer.echo(f"({ref} is {game_id})", err=True)


def fail(
    message: str,
    code: int = EXIT_USAGE,
    *,
    clause: str | None = None,
    reason: str | None = None,
) -> NoReturn:
    """Refuse the command: one line on standard error and exit ``code``. Under ``--json``
    the line is one JSON object (``error_object``), so a script reads a refusal as it
    reads an answer; the text and the exit code are the same either way."""
    if json_wanted():
        emit_json_error(message, code, clause=clause, reason=reason)
    else:
        from service.wording import safe_text

        typer.echo(f"error: {safe_text(message)}", err=True)
    raise typer.Exit(code)


def json_wanted() -> bool:
    """Whether the command running was given ``--json`` (every ``JsonOpt`` is ``as_json``)."""
    from importlib import import_module

    # click's, or the copy newer typer releases carry: found from typer's own Context
    click = typer.Context.__mro__[1].__module__.rpartition(".")[0]
    ctx = import_module(f"{click}.globals").get_current_context(silent=True)
    while ctx is not None:
        if ctx.params.get("as_json") is True:
            return True
        ctx = ctx.parent
    return False


CLAUSE_FIRST = r"([A-Z][A-Z0-9]*-[A-Z0-9]+(?:\.[A-Z0-9]+)*): (.+)"
"""A message that begins with the clause it applies (``REF-1.3: the game is over``)."""


def error_object(
    message: str, code: int, *, clause: str | None = None, reason: str | None = None
) -> dict[str, Any]:
    """A refusal as ``--json`` prints it: ``error`` (the line text mode prints, without
    ``error:``), ``clause`` (the clause it names, or ``null``), ``reason`` (why, in plain
    words) and ``exit`` (the exit code)."""
    if clause is None:
        import re

        first = re.fullmatch(CLAUSE_FIRST, message, re.S)
        if first is not None:
            clause, reason = first.group(1), reason or first.group(2)
    return {"error": message, "clause": clause, "reason": reason or message, "exit": code}


def emit_json_error(
    message: str, code: int, *, clause: str | None = None, reason: str | None = None
) -> None:
    """``error_object`` as one line of JSON on standard error."""
    import msgspec

    line = msgspec.json.encode(error_object(message, code, clause=clause, reason=reason))
    typer.echo(line.decode(), err=True)


def read_option_file(path: Path) -> str:
    """A game option given as a FILE (a table's own catalog), read as UTF-8 text, or one
    line naming what is wrong with it."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        fail(f"{path}: not UTF-8 text")
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")


@contextmanager
def handled() -> Iterator[None]:
    """Turn the project's errors, and file errors, into one clear line and an exit code;
    a refused command leaves no store file of its own making behind."""
    try:
        with _one_line():
            yield
    except BaseException as exc:
        if not (isinstance(exc, typer.Exit) and exc.exit_code == 0):
            settings.discard_unused_store()
        raise


@contextmanager
def _one_line() -> Iterator[None]:
    from referee.errors import RefereeError

    try:
        yield
    except typer.Exit:
        raise
    except RefereeError as exc:
        fail(
            str(exc),
            EXIT_CONFLICT if _conflict(exc) else EXIT_USAGE,
            clause=_text_of(exc, "clause"),
            reason=_text_of(exc, "reason"),
        )
    except BrokenPipeError:
        # The reader stopped reading (`referee log GAME --json | head`): stop quietly, as
        # Unix tools do; point stdout at nothing so the interpreter's last flush is silent.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(0) from None
    except PermissionError as exc:
        fail(_os_error(exc))
    except store_errors() as exc:
        fail(f"the store cannot be used: {exc}")
    except OSError as exc:
        fail(_os_error(exc))
    except _decode_errors() as exc:
        if _read_from_the_store(exc):  # said "JSON is malformed: invalid character (byte 0)"
            fail(
                f"a stored event cannot be read ({' '.join(str(exc).split())}): the store is "
                "damaged; 'referee verify' names the damaged games and events"
            )
        if isinstance(exc, UnicodeDecodeError):  # not "'utf-8' codec can't decode byte 0x80 ..."
            fail(f"a file given is not UTF-8 text (byte {exc.start})")
        fail(str(exc))
    except (ValueError, LookupError) as exc:
        fail(str(exc))
    except RecursionError:
        fail("the input is nested too deeply to read")
    except KeyboardInterrupt:
        fail("interrupted", 130)


def _text_of(exc: BaseException, name: str) -> str | None:
    """An error's ``clause`` or ``reason`` (``CitedError`` and the like), if it has one."""
    value = getattr(exc, name, None)
    return value if isinstance(value, str) and value else None


def _conflict(exc: BaseException) -> bool:
    """Another write came first (or the store stayed locked): exit 3, not 2."""
    from service.remote import RemoteError  # light: the store's errors load the store

    if isinstance(exc, RemoteError):
        return exc.conflict
    from service.errors import ConcurrentWriteError, StaleVersionError, StoreBusyError

    return isinstance(exc, ConcurrentWriteError | StaleVersionError | StoreBusyError)


def store_errors() -> tuple[type[BaseException], ...]:
    """The database library's errors (a store, or a file of tables beside it, that cannot be
    used), imported when a command meets one: the faces import no driver themselves."""
    import sqlite3

    from eventsourcing.persistence import PersistenceError

    return (PersistenceError, sqlite3.Error)


def _decode_errors() -> tuple[type[BaseException], ...]:
    import msgspec

    return (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError)


def _read_from_the_store(exc: BaseException) -> bool:
    """Whether a decoding error was raised decoding stored events (the ledger's codec, or
    an export writing them out), not reading a file the user gave."""
    import os
    import traceback

    codec = f"{os.sep}events{os.sep}codec.py"
    records = f"{os.sep}events{os.sep}interchange{os.sep}"
    return any(
        frame.filename.endswith(codec)
        or (records in frame.filename and frame.name.startswith("export"))
        for frame in traceback.extract_tb(exc.__traceback__)
    )


def _os_error(exc: OSError) -> str:
    name = exc.filename if exc.filename is not None else ""
    text = exc.strerror or str(exc)
    if "database is locked" in str(exc):
        return (
            "the store is locked by another writer; try again (REFEREE_LOCK_TIMEOUT sets the wait)"
        )
    return f"{name}: {text}" if name else text


@contextmanager
def long_lived() -> Iterator[None]:
    """No cyclic collection meanwhile, and what is left tracked after it made old at once.

    A command that makes a million objects which live until it ends (``event pair`` at
    10,000 players: the loaded event, the new round, its games) collects nothing by
    scanning them; the service keeps collection off while it works
    (``pipeline.uncollected``), but the first allocations after it (the printing, the
    teardown) set off young collections that scanned those objects again (17 M of 2,848 M
    instructions at 10,000 players, 3 M at 64). ``gc.freeze()`` then ``gc.unfreeze()`` moves every
    tracked object into the oldest generation by splicing lists (no scan), where only a full
    collection looks at them again, as the interpreter's last one does anyway. (The
    server freezes and unfreezes its own heap, ``web.collector``: not for a command run
    there.)"""
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if was:
            gc.enable()


def emit_json(data: Any) -> None:
    import msgspec

    typer.echo(msgspec.json.encode(data, enc_hook=str).decode())


Row = TypeVar("Row")


def emit_rows(rows: Sequence[Row], as_json: bool, none: str, text: Callable[[Row], str]) -> None:
    """A listing: the rows as JSON (``--json``, for scripts), else each row's ``text`` (a line
    or more), or the line ``none`` when there is no row."""
    if as_json:
        emit_json(rows)
        return
    if not rows:
        typer.echo(none)
    for row in rows:
        typer.echo(text(row))


Data = TypeVar("Data")


def emit(data: Data, as_json: bool, text: Callable[[Data], None]) -> None:
    """One answer: ``data`` as JSON (``--json``, for scripts), else as ``text`` prints it for
    people."""
    if as_json:
        emit_json(data)
    else:
        text(data)


def emit_json_array(items: Iterable[Any]) -> None:
    """A JSON array written an item at a time: the same bytes as ``emit_json(list(items))``."""
    import msgspec

    encoder = msgspec.json.Encoder(enc_hook=str)
    out = sys.stdout
    out.write("[")
    for number, item in enumerate(items):
        if number:
            out.write(",")
        out.write(encoder.encode(item).decode())
    out.write("]\n")
    out.flush()


def parse_pairs(values: list[str] | None, what: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for value in values or []:
        key, sep, rest = value.partition("=")
        if not sep or not key.strip():
            fail(f"{what} must look like KEY=VALUE, not {value!r}")
        name = key.strip().lower()
        if name in pairs:  # the later one silently replaced the earlier: refuse both
            fail(f"{what} gives {key.strip()} twice ({pairs[name]!r} and {rest.strip()!r})")
        pairs[name] = rest.strip()
    return pairs


def read_decklist(path: Path) -> Decklist:
    """A decklist file (an open list); one that is not UTF-8 text is refused in one line."""
    from referee.kit.decks import parse_decklist

    try:
        return parse_decklist(path.read_text(encoding="utf-8"), str(path))
    except UnicodeDecodeError:
        fail(f"{path}: not UTF-8 text")


def deck_from(file: Path | None, sealed: str | None, refusal: str) -> Deck | None:
    """The deck a command was given: sealed (``COMMIT:SIZE``), else the list in ``file``, else
    none; both are refused (``refusal``, the command's own words)."""
    if file is not None and sealed is not None:
        fail(refusal)
    if sealed is not None:
        from referee.kit.decks import SealedDeck

        return SealedDeck.parse(sealed)  # DeckError names the form
    return read_decklist(file) if file is not None else None


def one_deck(file: Path | None, sealed: str | None, refusal: str) -> Deck:
    """The one deck a command takes: the list in ``file`` or sealed, not none, not both."""
    deck = deck_from(file, sealed, refusal)
    if deck is None:
        fail(refusal)
    return deck


def refuse_replacing_a_database(path: Path) -> None:
    """An export's ``-o FILE`` that is a SQLite database, the store itself most of all, is
    refused: ``referee export --all -o referee.db`` replaced the whole store with its JSONL
    record. An earlier export (text) may be written again."""
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except OSError:  # no file there (or a folder: the writer says so)
        return
    if head == b"SQLite format 3\x00":
        fail(
            f"{path}: is a SQLite database (a store?), left as it was; an export never "
            "replaces one: name another file, such as record.jsonl"
        )


def public_key_arg(value: str) -> str:
    """``--public-key``: the key in hex, or a file holding it. Anything else (a typo, a
    shortened key, the private key's file) is bad input, refused with exit 2, not a check
    that failed: a posting or checkpoint reported "broken" over a mistyped key would send a
    head referee looking for tampering that never happened."""
    text = value
    where = f"--public-key {value!r}"
    path = Path(value)
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"--public-key {value}: cannot be read ({exc})")
        where = f"--public-key {value}"
        if "PRIVATE KEY" in text:
            fail(
                f"{where} holds a private key; give the public key (64 hex digits) that "
                "'referee seal --new-key' printed, or a file holding it"
            )
    key = text.strip()
    if len(key) != 64 or any(c not in "0123456789abcdefABCDEF" for c in key):
        fail(
            f"{where} is not a public key: give the 64 hex digits 'referee seal --new-key' "
            "printed, or a file holding them"
        )
    return key


def dotted(*parts: str | None) -> str:
    """A listing's line: its parts joined by `` · ``, those given as ``None`` left out (an
    empty part stays, as a column with nothing in it)."""
    return " · ".join(part for part in parts if part is not None)


def echo_err(text: str) -> None:
    typer.echo(text, err=True)


def progress_bar(length: int, label: str, hidden: bool) -> Any:
    """A progress bar on standard error, drawn only on a terminal (never a stray line in a log)."""
    return typer.progressbar(
        length=max(1, length),
        label=label,
        file=sys.stderr,
        hidden=hidden or not sys.stderr.isatty(),
    )


JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
ReasonOpt = Annotated[str, typer.Option("--reason", help="Why.")]
GameTypeOpt = Annotated[str | None, typer.Option("--game-type", "-g", help="Only this game type.")]
EventArg = Annotated[str, typer.Argument(help="The event's id (ev-...), as 'event new' printed.")]
EntrantArg = Annotated[str, typer.Argument(help="The player's name, as registered in the event.")]
GameArg = Annotated[
    str, typer.Argument(help="Game id, or a unique ending of it (at least 4 characters).")
]
VariantOpt = Annotated[
    list[str] | None,
    typer.Option("--variant", help="KEY=VALUE ruling switch ('referee rules GAME' lists them)."),
]
SealedOpt = Annotated[
    str | None,
    typer.Option("--sealed", help="COMMIT:SIZE from 'referee deck seal' (stays sealed)."),
]
PublicKeyOpt = Annotated[
    str | None,
    typer.Option(
        "--public-key",
        help="The public key (hex, or a file holding it) that signed the checkpoint.",
    ),
]
CallAfterOpt = Annotated[
    int,
    typer.Option(
        "--call-after",
        min=1,
        max=3600,
        help="A judge call nobody has claimed is overdue after N seconds.",
    ),
]
AsOpt = Annotated[
    str | None,
    typer.Option(
        "--as",
        help="Whose view: referee (default), public, or a seat "
        "or player (their own hidden cards only).",
    ),
]

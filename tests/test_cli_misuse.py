"""The command line misused as a newcomer misuses it (a sweep of every command): each of
these was a refusal without the one line, a wrong exit code, or a store or a file beside it
that was not left exactly as it was. Toy game Nim, in-process (``CliRunner``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from tests.test_cli import call, done, new_game

runner = CliRunner()


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` and its bytes (the store, and anything made beside it)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def tables(db: Path) -> list[str]:
    with closing(sqlite3.connect(db)) as con:
        return [r[0] for r in con.execute("SELECT name FROM sqlite_master ORDER BY name")]


def stored(folder: Path) -> dict[str, object]:
    """What ``folder`` holds: each SQLite file's tables and rows (a store in WAL mode moves
    its pages between the file and its log as it is opened and closed), each other file's
    bytes; the log and its index are the database's own."""
    held: dict[str, object] = {}
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.name.endswith(("-wal", "-shm")):
            continue
        data = path.read_bytes()
        if not data.startswith(b"SQLite format 3\x00"):
            held[path.name] = data
            continue
        with closing(sqlite3.connect(path)) as con:
            held[path.name] = [
                (name, con.execute(f'SELECT * FROM "{name}"').fetchall())
                for name in tables(path)
                if not name.startswith("sqlite_")
            ]
    return held


def one_line_refusal(code: int, out: str, err: str) -> str:
    """The refusal's line: exit 2, nothing on standard output, one line on standard error."""
    assert (code, out) == (2, ""), err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("error: ")
    return err


NOT_A_STORE: dict[str, tuple[Callable[[Path], object], str]] = {
    "a folder": (lambda p: p.mkdir(), "is a folder, not a store file"),
    "a text file": (lambda p: p.write_text("hello\n"), "cannot be opened (file is not a database)"),
    "an empty file": (lambda p: p.write_bytes(b""), "an empty file, not a store"),
}
TOKEN_COMMANDS = [
    ["token", "list"],
    ["token", "list", "--json"],
    ["token", "create", "--role", "head", "--name", "Hal"],
    ["token", "rotate", "tk-nosuch"],
    ["token", "revoke", "tk-nosuch"],
]


@pytest.mark.parametrize("args", TOKEN_COMMANDS, ids=" ".join)
@pytest.mark.parametrize("kind", list(NOT_A_STORE))
def test_token_commands_refuse_what_is_no_store_and_make_no_file_beside_it(
    tmp_path: Path, kind: str, args: list[str]
) -> None:
    """``token list`` on ``--db`` naming a folder answered "no tokens" (exit 0) and made
    ``x.access.db`` beside it."""
    make, reason = NOT_A_STORE[kind]
    target = tmp_path / "x.db"
    make(target)
    before = files_in(tmp_path)
    code, out, err = call(target, *args)
    if "--json" in args:
        assert (code, out) == (2, "")
        assert reason in json.loads(err)["error"]
    else:
        assert reason in one_line_refusal(code, out, err)
    assert files_in(tmp_path) == before


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        (["--role", "head", "--name", " "], "needs the holder's name"),
        (["--role", "head", "--name", "Hal", "--expires", "2000-01-01"], "already past"),
        (["--role", "head", "--name", "Hal", "--table", "4"], "only a table referee's"),
        (["--role", "table", "--name", "Tom", "--table", "4", "--event", "ev-typo"], "no event"),
    ],
)
def test_a_refused_token_leaves_no_token_tables_beside_the_store(
    db_path: Path, extra: list[str], reason: str
) -> None:
    """A refused token made ``store.access.db`` all the same; a table referee's token for an
    event the store does not hold (a typo) was made, and turned them away at their table."""
    new_game(db_path)
    before = stored(db_path.parent)
    code, out, err = call(db_path, "token", "create", *extra)
    assert reason in one_line_refusal(code, out, err)
    assert stored(db_path.parent) == before  # no store.access.db
    for command in ("rotate", "revoke"):
        assert "no" in one_line_refusal(*call(db_path, "token", command, "tk-nosuch"))
    assert stored(db_path.parent) == before


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("", "--referee (REFEREE_NAME) is empty"),
        ("Rita\nRef", "U+000A is not allowed"),
        ("Rita\x1b[31m", "U+001B is not allowed"),  # a terminal's colour, stored
    ],
)
def test_the_referee_name_is_checked_as_every_door_checks_a_name(
    db_path: Path, name: str, reason: str
) -> None:
    """``--referee`` (``REFEREE_NAME``) was stored with each entry as given: a newline, an
    escape sequence, or nothing at all."""
    game = new_game(db_path)
    before = done(db_path, "log", game, "--json")
    line = ["--db", str(db_path), "--referee", name, "act", game, "t1"]
    result = runner.invoke(app, line)
    assert reason in one_line_refusal(result.exit_code, result.stdout, result.stderr)
    as_json = runner.invoke(app, [*line, "--json"])
    assert as_json.exit_code == 2
    assert reason in json.loads(as_json.stderr)["error"]
    assert done(db_path, "log", game, "--json") == before
    spaced = runner.invoke(
        app, ["--db", str(db_path), "--referee", " Rita  Ref ", "act", game, "t1"]
    )
    assert spaced.exit_code == 0, spaced.stderr
    assert json.loads(done(db_path, "log", game, "--json"))[-1]["recorded_by"] == "Rita Ref"


def test_a_file_given_that_is_not_utf8_is_named_in_the_refusal(db_path: Path) -> None:
    """ "'utf-8' codec can't decode byte 0x80 in position 128", naming no file."""
    new_game(db_path)
    binary = db_path.parent / "cards.bin"
    binary.write_bytes(bytes(range(256)))
    key = "ab" * 32
    for args in (
        ["catalog", "check", str(binary)],
        ["new", "gammasphere", "-p", "p1=A", "-p", "p2=B", "--deck", f"p1={binary}"],
        ["verify", "--checkpoint", str(binary), "--public-key", key],
    ):
        err = one_line_refusal(*call(db_path, *args))
        assert f"{binary}: not UTF-8 text" in err, args
        assert "codec" not in err


def test_reading_a_stores_name_or_status_writes_nothing_to_it(db_path: Path) -> None:
    """``store status`` wrote the default name into the store: refused on an archived,
    read-only store ("the store cannot be written"), and a read that changes the file."""
    new_game(db_path)
    before = tables(db_path)
    assert json.loads(done(db_path, "store", "status", "--json"))["name"] == "store"
    assert done(db_path, "store", "name") == "store\n"
    assert tables(db_path) == before
    # refusals name nothing either: an unknown event, a replica of the store itself
    one_line_refusal(*call(db_path, "event", "handover", "ev-nosuch", "--to", "cloud"))
    code, _, err = call(db_path, "replicate", "--from", str(db_path), "--to", str(db_path))
    assert (code, "REF-9.1" in err) == (2, True), err
    assert tables(db_path) == before
    assert done(db_path, "store", "name", "hall") == "hall\n"  # naming still names it
    assert done(db_path, "store", "name") == "hall\n"


def test_a_refused_command_leaves_an_empty_store_file_empty(tmp_path: Path) -> None:
    """``touch referee.db`` then a refused ``import`` or ``new``: the file held the store's
    tables afterwards (and a -wal and -shm beside it)."""
    store = tmp_path / "referee.db"
    store.write_bytes(b"")
    garbage = tmp_path / "notes.txt"
    garbage.write_text("not a record\n")
    before = files_in(tmp_path)
    one_line_refusal(*call(store, "import", str(garbage)))
    one_line_refusal(*call(store, "new", "nim", "-p", "first=Ann", "-p", "second="))
    assert files_in(tmp_path) == before
    new_game(store)  # made there as before
    assert store.stat().st_size > 0


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["games", "--offset", "-5"], "--offset is a count of games to skip"),
        (["catalog", "show", "gammasphere", "--kind", "boards"], "no catalog kind 'boards'"),
        (["store", "backup", "FOLDER"], "is a folder; name the backup file"),
        (["store", "restore", "FOLDER"], "is a folder, not a backup file"),
        (["import", "FOLDER", "--compare"], "--compare, --option and --no-reference-quirks"),
        (["import", "FOLDER", "--option", "quirks=no"], "read another tool's format"),
    ],
)
def test_a_value_out_of_range_is_refused_not_ignored(
    db_path: Path, args: list[str], reason: str
) -> None:
    """``--offset -5`` listed the first page; ``--kind boards`` listed the cards; a folder
    was "a file already there" to a backup, "no backup here" to a restore; ``import
    --compare`` of this tool's own record compared nothing and said nothing of it."""
    new_game(db_path)
    folder = db_path.parent / "backups"
    folder.mkdir()
    line = [str(folder) if a == "FOLDER" else a for a in args]
    if line[:2] == ["store", "restore"]:
        db_path = db_path.parent / "restored.db"
    before = stored(db_path.parent)
    assert reason in one_line_refusal(*call(db_path, *line))
    assert stored(db_path.parent) == before


def test_new_json_prints_the_game_id_as_event_new_json_does(db_path: Path) -> None:
    """``new ... --json`` was read as a game option: "--json needs a value"."""
    out = done(db_path, "new", "nim", "-p", "first=Ann", "-p", "second=Ben", "--json")
    game = json.loads(out)["game_id"]
    assert game.startswith("nim-")
    assert json.loads(done(db_path, "show", game, "--json"))["at"] == 0


def test_a_game_with_no_catalog_is_refused_under_json_too(db_path: Path) -> None:
    """``catalog show prizmik --json`` answered ``[]`` and exit 0 where text mode refused."""
    code, out, err = call(db_path, "catalog", "show", "prizmik", "--json")
    assert (code, out) == (2, "")
    assert json.loads(err)["error"] == "prizmik has no catalog to list"
    assert "no catalog to list" in one_line_refusal(*call(db_path, "catalog", "show", "prizmik"))


def test_ev_5_1_an_event_with_no_round_paired_says_so_not_round_0(db_path: Path) -> None:
    """An organizer's first ``event pairings`` (or ``start-round``) said "round 0 has not
    been paired": no round is numbered 0."""
    event = json.loads(done(db_path, "event", "new", "Cup", "--game", "nim", "--json"))
    for args, clause in (
        (["event", "pairings"], "EV-5.1"),
        (["event", "start-round"], "EV-5.10"),
        (["event", "end-round"], "EV-5.10"),
    ):
        code, out, err = call(db_path, *args[:2], event["event_id"], *args[2:])
        assert (code, out) == (2, ""), err
        assert f"{clause}: no round has been paired" in err, args
    err = one_line_refusal(*call(db_path, "event", "pairings", event["event_id"], "--round", "2"))
    assert "EV-5.1: round 2 has not been paired" in err


def test_an_empty_store_name_is_said_so_and_an_empty_referee_db_is_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``export REFEREE_DB=`` (or ``--db ''``) named the current folder: "'.': is a folder,
    not a store file", whatever the command."""
    monkeypatch.chdir(tmp_path)
    for args in (["games"], ["token", "list"], ["store", "backup", "copy.db"]):
        unset = runner.invoke(app, args, env={"REFEREE_DB": ""})
        err = one_line_refusal(unset.exit_code, unset.stdout, unset.stderr)
        assert "referee.db: no store here" in err, args
        empty = runner.invoke(app, ["--db", " ", *args])
        err = one_line_refusal(empty.exit_code, empty.stdout, empty.stderr)
        assert "--db (REFEREE_DB) is empty" in err, args
    assert list(tmp_path.iterdir()) == []
    made = runner.invoke(
        app, ["new", "nim", "-p", "first=A", "-p", "second=B"], env={"REFEREE_DB": ""}
    )
    assert made.exit_code == 0, made.stderr
    assert (tmp_path / "referee.db").is_file()


@pytest.mark.parametrize("args", [["GAME", "-o"], ["--all", "-o"], ["--all", "--sqlite"]])
def test_an_export_that_cannot_be_written_names_the_file_asked_for(
    db_path: Path, args: list[str]
) -> None:
    """An export into a folder that cannot be written (read-only, or a file where the folder
    should be) named its temporary file: "/hall/.referee-blkm678t: Permission denied"."""
    game = new_game(db_path)
    notes = db_path.parent / "notes.txt"
    notes.write_text("not a folder\n")
    target = notes / "record.out"
    line = [game if a == "GAME" else a for a in args]
    err = one_line_refusal(*call(db_path, "export", *line, str(target)))
    assert err.startswith(f"error: {target}: cannot be written (")
    assert ".referee-" not in err


@pytest.mark.parametrize("side", ["--from", "--to"])
@pytest.mark.parametrize("kind", ["a folder", "a text file"])
def test_replicate_follow_refuses_what_is_no_store_at_once(
    db_path: Path, side: str, kind: str
) -> None:
    """``replicate --follow`` named a folder or a text file (a typo, not a link that is
    down): it printed "following ...", then "waiting: cannot reach" until stopped, and
    exited 0, where ``--once`` refuses it. Now it refuses it the same way, in one line, and
    makes nothing beside it."""
    new_game(db_path)
    wrong = db_path.parent / "wrong"
    NOT_A_STORE[kind][0](wrong)
    before = stored(db_path.parent)
    ends = {"--from": str(db_path), "--to": str(db_path.parent / "replica.db"), side: str(wrong)}
    line = ["replicate", "--from", ends["--from"], "--to", ends["--to"], "--follow"]
    got = runner.invoke(app, line)
    err = one_line_refusal(got.exit_code, got.stdout, got.stderr)
    assert err == f"error: {wrong}: {NOT_A_STORE[kind][1]}\n"
    assert stored(db_path.parent) == before


@pytest.mark.parametrize(
    ("text", "line"),
    [('Ann,1500\n"Ben,1600\nCal,1700\n', 2), ('"Ann" Lee,1500\n', 1)],
    ids=["an unclosed quote", "text after a closing quote"],
)
def test_a_roster_that_is_no_csv_is_refused_naming_its_line(
    tmp_path: Path, text: str, line: int
) -> None:
    """``event register --players`` of a roster whose quote is never closed registered one
    player named 'Ben,1600\\nCal,1700' (refused only for its line break) or, on the last
    row, 'Ben,1600' with no rating: a broken row is one line naming it, nothing stored."""
    from tests.events.test_event_cli import new_event, refused

    db = tmp_path / "s.db"
    event = new_event(db, "Roster", "gammasphere")
    roster = tmp_path / "r.csv"
    roster.write_text(text, encoding="utf-8")
    err = refused(db, "EV-2.2", "event", "register", event, "--players", str(roster))
    assert f"line {line} cannot be read as CSV (" in err


def test_sync_with_an_outbox_that_cannot_be_read_names_it_as_the_outbox(tmp_path: Path) -> None:
    """``sync`` with the laptop's outbox a folder (or a file it may not read) said only
    "outbox.json: Is a directory", where an outbox edited into something else says whose
    file it is, that nothing was sent, and what to do: now both say so, in one line."""
    laptop = tmp_path / "laptop"
    (laptop / "outbox.json").mkdir(parents=True)
    line = ["--server", "http://127.0.0.1:9", "--token", "tk", "--offline-store", str(laptop)]
    got = runner.invoke(app, [*line, "sync"])
    err = one_line_refusal(got.exit_code, got.stdout, got.stderr)
    assert f"this laptop's outbox {laptop / 'outbox.json'} cannot be read (Is a directory)" in err
    assert "nothing was sent" in err
    assert [p.name for p in laptop.iterdir()] == ["outbox.json"]

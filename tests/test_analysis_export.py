"""``referee export --sqlite FILE`` (issue 34, item 5): the store as plain tables, written
with sqlite-utils, with full-text search over the log; refusals are one line, exit 2."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app
from service.analysis import TABLES


def call(db: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["--db", str(db), "--referee", "Rita", *args])
    return result.exit_code, result.stdout, result.stderr


def a_store(tmp_path: Path) -> tuple[Path, str]:
    db = tmp_path / "store.db"
    code, game, _ = call(db, "new", "prizmik", "-p", "red=Ann", "-p", "blue=Ben")
    game = game.strip()
    assert code == 0
    assert call(db, "act", game, "e1>e2")[0] == 0
    assert call(db, "act", game, "e2>e8")[0] == 1  # rejected, kept as evidence (PZ-)
    assert call(db, "dispute", game, "--event", "2", "--by", "Ben", "--claim", "it was e3")[0] == 0
    assert call(db, "penalty", game, "red", "warning", "--infraction", "slow")[0] == 0
    assert call(db, "end", game, "--resign", "blue")[0] == 0
    return db, game


def test_every_table_is_written_and_the_log_is_searchable(tmp_path: Path) -> None:
    db, game = a_store(tmp_path)
    out = tmp_path / "analysis.db"
    code, _, err = call(db, "export", "--sqlite", str(out))
    assert code == 0
    assert f"wrote {out}" in err
    with sqlite3.connect(out) as con:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert set(TABLES) <= names
        assert "log_fts" in names
        assert con.execute("SELECT game, status, winner, how FROM games").fetchall() == [
            ("prizmik", "ended", "red", "resignation")
        ]
        assert con.execute("SELECT seat, entry FROM entries").fetchall() == [("red", "e1>e2")]
        ((clauses, text),) = con.execute("SELECT clauses, text FROM rejections").fetchall()
        assert text == "e2>e8"
        assert clauses.startswith("PZ-")
        assert con.execute("SELECT on_event, claim FROM disputes").fetchall() == [(2, "it was e3")]
        assert con.execute("SELECT seat, penalty FROM penalties").fetchall() == [("red", "warning")]
        assert con.execute("SELECT count(*) FROM standings").fetchone()[0] == 2
        found = con.execute(
            "SELECT log.game_id, log.kind FROM log JOIN log_fts ON log.rowid = log_fts.rowid "
            "WHERE log_fts MATCH 'e3'"
        ).fetchall()
        assert found == [(game, "DisputeOpened")]


def test_a_bad_target_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    db, game = a_store(tmp_path)
    for args, said in (
        (["--sqlite", str(tmp_path)], "is a folder"),
        (["--sqlite", str(tmp_path / "no" / "a.db")], "does not exist"),
        ([game, "--sqlite", str(tmp_path / "a.db")], "writes every game"),
        (["--sqlite", str(tmp_path / "a.db"), "--as", "red"], "--as public or --as referee"),
    ):
        code, _, err = call(db, "export", *args)
        assert code == 2
        assert said in err
        assert "Traceback" not in err
        assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "a.db").exists()
    assert not list(tmp_path.glob(".referee-*"))


def test_an_existing_file_other_than_an_earlier_export_is_never_replaced(tmp_path: Path) -> None:
    # `export --sqlite referee.db` replaced the store itself with the analysis file (every
    # stored event gone), and `--sqlite notes.txt` overwrote the notes: both are refused now
    db, game = a_store(tmp_path)
    with sqlite3.connect(db) as con:
        stored = list(con.iterdump())
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    for target, said in ((db, "is an event store"), (notes, "not an earlier --sqlite export")):
        code, _, err = call(db, "export", "--sqlite", str(target))
        assert code == 2
        assert said in err
        assert len(err.strip().splitlines()) == 1
    with sqlite3.connect(db) as con:
        assert list(con.iterdump()) == stored
    assert notes.read_text() == "my notes\n"
    assert call(db, "show", game)[0] == 0
    assert not list(tmp_path.glob(".referee-*"))


def test_an_earlier_export_is_written_again(tmp_path: Path) -> None:
    db, _ = a_store(tmp_path)
    out = tmp_path / "analysis.db"
    assert call(db, "export", "--sqlite", str(out))[0] == 0
    code, _, err = call(db, "export", "--sqlite", str(out))
    assert code == 0, err
    with sqlite3.connect(out) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (1,)

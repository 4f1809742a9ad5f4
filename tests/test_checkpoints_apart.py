"""A SQLite file's checkpoint run apart (``events.backends.checkpoints``): SQLite's own
checkpoint on a connection and a thread of its own, which the writer never waits for and the
file's close does."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest

from events.backends.checkpoints import Checkpoints
from tests.held import held_checkpoints


def _logged(db: Path) -> sqlite3.Connection:
    """A connection to a WAL file whose commits are never copied by themselves."""
    conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE IF NOT EXISTS t (x BLOB)")
    return conn


def test_a_checkpoint_apart_copies_the_log_and_the_writer_never_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "f.db"
    held, copied = held_checkpoints(monkeypatch)
    checkpoints = Checkpoints(lambda: sqlite3.connect(db))
    with closing(_logged(db)) as conn:
        conn.execute("INSERT INTO t VALUES (zeroblob(100000))")
        checkpoints.start()
        checkpoints.start()  # one is running: no second, and no wait
        conn.execute("INSERT INTO t VALUES (zeroblob(100000))")  # the writer goes on
        assert copied == []
        held.set()
        checkpoints.settle()
        assert copied == [checkpoints]
        # every frame copied, the second write's too (it came before the held copy ran)
        busy, frames, done = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert (busy, frames == done) == (0, True)
    checkpoints.settle()  # none running: returns at once


def test_a_checkpoint_that_cannot_run_is_left_to_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that cannot be opened (gone, unreadable) is no error, in the thread or after:
    SQLite leaves a busy checkpoint to the next one as well."""
    ran = threading.Event()
    raised: list[object] = []
    monkeypatch.setattr(threading, "excepthook", raised.append)

    def broken() -> sqlite3.Connection:
        ran.set()
        return sqlite3.connect(tmp_path / "missing" / "f.db")  # no such folder

    checkpoints = Checkpoints(broken)
    checkpoints.start()
    checkpoints.settle()
    assert ran.is_set()
    assert raised == []

"""A SQLite file's checkpoint run apart (``events.backends.checkpoints``): SQLite's own
checkpoint on a connection and a thread of its own, which the writer never waits for and the
file's close does."""

from __future__ import annotations

import sqlite3
import threading
import time
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


def _with_log(db: Path) -> sqlite3.Connection:
    """``_logged`` with 300 rows committed to its log, none copied (the connection left open:
    the log stays)."""
    conn = _logged(db)
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO t VALUES (?)", [(bytes(1000),) for _ in range(300)])
    conn.execute("COMMIT")
    return conn


def test_a_checkpoint_apart_empties_a_log_it_copied_whole(tmp_path: Path) -> None:
    """Where no reader or writer uses the log, the thread empties it once copied (SQLite's
    own TRUNCATE): the last close then removes an empty file, not the log's blocks
    (BENCHMARKS.md, "Round 9, seventeenth pass"). The rows read back."""
    db = tmp_path / "f.db"
    wal = Path(f"{db}-wal")
    conn = _with_log(db)
    assert wal.stat().st_size > 300_000
    checkpoints = Checkpoints(lambda: sqlite3.connect(db, timeout=5))
    checkpoints.start()
    checkpoints.settle()
    assert wal.stat().st_size == 0
    assert conn.execute("SELECT count(*) FROM t").fetchone() == (300,)
    conn.close()
    assert not wal.exists()
    with closing(sqlite3.connect(db)) as again:
        assert again.execute("SELECT count(*) FROM t").fetchone() == (300,)


def test_a_checkpoint_apart_leaves_a_log_in_use_without_waiting(tmp_path: Path) -> None:
    """A reader in the log's snapshot: the thread copies the log but does not wait for the
    reader to empty it (no busy wait, though its connection's timeout is 5 s); the reader
    and the writer go on, and the last close still removes the log."""
    db = tmp_path / "f.db"
    wal = Path(f"{db}-wal")
    conn = _with_log(db)
    size = wal.stat().st_size
    reader = sqlite3.connect(db, isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM t").fetchone() == (300,)
    checkpoints = Checkpoints(lambda: sqlite3.connect(db, timeout=5))
    began = time.monotonic()
    checkpoints.start()
    checkpoints.settle()
    assert time.monotonic() - began < 2.5
    assert wal.stat().st_size == size  # in use: left as it is
    conn.execute("INSERT INTO t VALUES (x'00')")
    assert reader.execute("SELECT count(*) FROM t").fetchone() == (300,)
    reader.execute("COMMIT")
    reader.close()
    conn.close()
    assert not wal.exists()
    with closing(sqlite3.connect(db)) as again:
        assert again.execute("SELECT count(*) FROM t").fetchone() == (301,)

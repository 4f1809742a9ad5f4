"""A SQLite file's checkpoint run apart from the write that made it due.

In WAL mode SQLite copies the log into the database file (a checkpoint) from the connection
whose commit made the log long enough, or from the last connection to close, and waits for
the file's sync there. A command whose write is large (a pairing of 10,000 players: some
3,000 pages of the store, 1,200 of its read models) then waits for that upkeep before going
on; ``Checkpoints`` runs it on a connection and a thread of its own meanwhile. The copy is
SQLite's own (``PRAGMA wal_checkpoint(PASSIVE)``: it waits for no reader or writer, and
copies what no reader still needs); ``settle`` waits for it before the file is closed, so the
last close finds the log copied and removes it, as it always did.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing

__all__ = ["Checkpoints"]


class Checkpoints:
    """The checkpoints of one SQLite file, each on a connection from ``connect`` in a thread
    of its own, one at a time."""

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self.connect = connect
        self._running: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Begin a checkpoint, unless one is running: the writer never waits for upkeep,
        and what the running one does not copy waits for the next (SQLite's after a later
        commit, or the last close's)."""
        with self._lock:
            if self._running is not None and self._running.is_alive():
                return
            self._running = threading.Thread(
                target=self._checkpoint, name="sqlite-checkpoint", daemon=True
            )
            self._running.start()

    def _checkpoint(self) -> None:
        """The checkpoint, as SQLite's own after a commit. One that cannot run (the file
        busy, gone) is left to the next commit's or to the last close's, as SQLite leaves a
        busy one."""
        try:
            with closing(self.connect()) as conn:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            pass

    def settle(self) -> None:
        """Wait for the running checkpoint, if any."""
        with self._lock:
            if self._running is not None:
                self._running.join()
                self._running = None

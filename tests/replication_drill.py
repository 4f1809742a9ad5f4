"""The replication drill of issue 33 section 3, shared by the suite (scaled down) and
``benchmarks/bench_replicate.py`` (the full measurement).

A hall store (SQLite, named ``hall``) holds ``initial`` events of finished PRIZMIK games;
``referee replicate --follow`` copies it into a PostgreSQL replica through ``Link``, a
TCP link on loopback that can be cut (its port closed, its connections dropped) and
restored. The hall then keeps writing at ``rate`` events a second (whole games, sealed
beforehand and appended in bulk, as an import does) while the replicator is killed with
SIGKILL at random moments and started again; once the replica has made up that lag, the
link is cut for ``cut`` seconds. Measured: how long the first copy took, how long the
replica took to make up the kills' lag, how long after the link's return the replica
had copied everything the hall held at that moment (``converged``), and at the end:
each stream byte-identical on both sides, and the replica's count of copied events
(kept in the transaction of the events it copied) equal to the hall's count: nothing
lost, nothing stored twice.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from events.store import GameStore
from service.replication import name_store
from tests.sealed_games import Line, pool_of_lines, random_game_id, sealed_game

ROOT = Path(__file__).resolve().parents[1]
START = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


class Link:
    """A TCP link on loopback to a server that can be cut (its port closed, its
    connections dropped) and restored on the same port."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.restore()

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        for attempt in range(100):  # bounded: the old port may be held a moment longer
            try:
                listener.bind(("127.0.0.1", self.port))
                break
            except OSError:
                if attempt == 99:
                    raise
                time.sleep(0.1)
        listener.listen(16)
        self.port = listener.getsockname()[1]
        with self._lock:
            self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._listener is not listener:  # cut meanwhile: this one is cut too
                    for s in (client, upstream):
                        s.close()
                    continue
                self._conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            # shut down, then close: a close alone leaves the other direction's thread,
            # blocked reading, holding the socket open, and the far end never hears that
            # its peer is gone (a killed replicator's session stayed open on the server)
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    s.close()

    def cut(self) -> None:
        with self._lock:
            listener, self._listener = self._listener, None
            conns, self._conns = self._conns, []
        if listener is not None:
            # shut down first: a close alone leaves the accepting thread's call holding
            # the port open, and it goes on taking connections
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                conn.close()


def prizmik_line(plies: int, seed: int) -> Line:
    """A random legal PRIZMIK line of ``plies`` actions: (seat, notation, action JSON)."""
    return pool_of_lines(1, plies, random.Random(seed))[0]


def game_rows(
    index: int, line: Line, rng: random.Random
) -> tuple[str, list[tuple[int, str, bytes]]]:
    """A finished game of ``line`` under a new id, sealed as the store seals it."""
    game_id = random_game_id(rng)
    when = START + timedelta(seconds=index)
    return game_id, sealed_game(
        game_id, when, (f"Red{index}", f"Blue{index}"), line, "drill", "red"
    )


class Games:
    """Finished games made on demand, each ``len(line) + 2`` events."""

    def __init__(self, seed: int, plies: int = 20) -> None:
        self.line = prizmik_line(plies, seed)
        self.rng = random.Random(seed)
        self.index = 0

    @property
    def size(self) -> int:
        return len(self.line) + 2

    def next(self) -> tuple[str, list[tuple[int, str, bytes]]]:
        self.index += 1
        return game_rows(self.index, self.line, self.rng)


def build_hall(db: Path, events: int, made: Games) -> int:
    """A hall store named ``hall`` with at least ``events`` events; how many it holds."""
    store = GameStore(db)
    try:
        name_store(store, "hall")
        total = 0
        while total < events:
            batch: list[tuple[str, list[tuple[int, str, bytes]]]] = []
            while total < events and len(batch) < 500:
                game = made.next()
                batch.append(game)
                total += len(game[1])
            store.insert_rows(batch)
    finally:
        store.close()
    return total


def source_last(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT coalesce(max(rowid), 0) FROM stored_events").fetchone()[0])


def source_count(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT count(*) FROM stored_events").fetchone()[0])


def replica_position(env: dict[str, str]) -> tuple[int, int]:
    """(position reached, events copied) the replica keeps, read directly (not through
    the link)."""
    import psycopg

    dsn = (
        f"host={env['POSTGRES_HOST']} port={env['POSTGRES_PORT']} "
        f"dbname={env['POSTGRES_DBNAME']} user={env['POSTGRES_USER']} "
        f"password={env.get('POSTGRES_PASSWORD', '')}"
    )
    table = f"{env['POSTGRES_SCHEMA']}.referee_replication"
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            row = conn.execute(f"SELECT position, copied FROM {table}").fetchone()
    except psycopg.errors.UndefinedTable:
        return 0, 0
    return (int(row[0]), int(row[1])) if row else (0, 0)


def follow_command(source: Path, target: Path | str) -> list[str]:
    """``referee replicate --follow`` from ``source`` to ``target`` (a file or a URL),
    polling every 50 ms."""
    command = [sys.executable, "-m", "cli.main", "replicate", "--from", str(source)]
    return [*command, "--to", str(target), "--follow", "--interval", "0.05"]


def follower(source: Path, target_url: str, log: Path) -> subprocess.Popen[bytes]:
    """``referee replicate --follow`` as its own process (killed with SIGKILL by the drill)."""
    with log.open("ab") as out:
        return subprocess.Popen(
            follow_command(source, target_url),
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=dict(os.environ),
        )


class Writer(threading.Thread):
    """The hall writing ``rate`` events a second: a whole game appended in bulk each
    ``size / rate`` seconds, on its own connection, until stopped."""

    def __init__(self, db: Path, made: Games, rate: float) -> None:
        super().__init__(daemon=True)
        self.db, self.made, self.rate = db, made, rate
        self.stop = threading.Event()
        self.written = 0
        self.seconds = 0.0
        self.error: BaseException | None = None
        self.ready = [made.next() for _ in range(64)]

    def run(self) -> None:
        store = GameStore(self.db)
        started = time.monotonic()
        try:
            while not self.stop.is_set():
                game = self.ready.pop() if self.ready else self.made.next()
                store.insert_rows([game])
                self.written += len(game[1])
                due = started + self.written / self.rate
                self.stop.wait(max(0.0, due - time.monotonic()))
        except BaseException as exc:
            self.error = exc
        finally:
            self.seconds = time.monotonic() - started
            store.close()


@dataclass
class Figures:
    initial: int = 0
    first_copy: float = 0.0
    written: int = 0
    write_rate: float = 0.0
    cut: float = 0.0
    settled: float = 0.0
    backlog: int = 0
    converged: float = 0.0
    kills: int = 0
    source_events: int = 0
    copied: int = 0
    identical: bool = False
    notes: list[str] = field(default_factory=list)


def wait_for(what: Any, limit: float) -> float:
    """Seconds until ``what()`` is true (bounded by ``limit``; raises past it)."""
    started = time.monotonic()
    while not what():
        if time.monotonic() - started > limit:
            raise TimeoutError(f"not within {limit} s")
        time.sleep(0.02)
    return time.monotonic() - started


def drill(
    tmp: Path,
    env: dict[str, str],
    *,
    initial: int,
    rate: float,
    steady: float,
    cut: float,
    after: float,
    kills: int,
    seed: int = 33,
    limit: float = 120.0,
) -> Figures:
    """Run the drill (see the module's text) on a fresh PostgreSQL schema ``env``."""
    from tests.postgres import pg_url

    figures = Figures(cut=cut)
    made = Games(seed)
    hall = tmp / "hall.db"
    figures.initial = build_hall(hall, initial, made)
    link = Link((env["POSTGRES_HOST"], int(env["POSTGRES_PORT"])))
    url = pg_url({**env, "POSTGRES_PORT": str(link.port)})
    log = tmp / "replicate.log"
    draw = random.Random(seed)
    proc = follower(hall, url, log)
    writer = Writer(hall, made, rate)
    try:
        last = source_last(hall)
        figures.first_copy = wait_for(lambda: replica_position(env)[0] >= last, limit)
        writer.start()
        moments = sorted(draw.uniform(0, steady) for _ in range(kills))
        begun = time.monotonic()
        for moment in moments:
            time.sleep(max(0.0, begun + moment - time.monotonic()))
            proc.kill()  # SIGKILL at a random moment: no clean-up runs
            proc.wait()
            figures.kills += 1
            proc = follower(hall, url, log)
        time.sleep(max(0.0, begun + steady - time.monotonic()))
        now = source_last(hall)  # the kills' lag made up before the cut
        figures.settled = wait_for(lambda: replica_position(env)[0] >= now, limit)
        link.cut()
        time.sleep(cut)
        link.restore()
        returned = time.monotonic()
        figures.backlog = source_last(hall) - replica_position(env)[0]
        target = source_last(hall)
        wait_for(lambda: replica_position(env)[0] >= target, limit)
        figures.converged = time.monotonic() - returned
        time.sleep(max(0.0, returned + after - time.monotonic()))
        writer.stop.set()
        writer.join(60)
        if writer.error is not None:
            raise writer.error
        figures.written = writer.written
        figures.write_rate = writer.written / writer.seconds if writer.seconds else 0.0
        end = source_last(hall)
        wait_for(lambda: replica_position(env)[0] >= end, limit)
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    finally:
        writer.stop.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        link.cut()
    figures.source_events = source_count(hall)
    figures.copied = replica_position(env)[1]
    figures.identical = _streams(GameStore(hall)) == _streams(GameStore(None, env=env))
    figures.notes = log.read_text(errors="replace").splitlines()[-12:]
    return figures


def _streams(store: GameStore) -> dict[str, list[tuple[int, str, bytes]]]:
    try:
        return {
            g: [(int(v), str(t), bytes(b)) for v, t, b in store.rows(g)] for g in store.game_ids()
        }
    finally:
        store.close()

"""Event writes held on PostgreSQL: two server processes' writers on one event.

Each process's writer (``service.writer.GroupWriter``) holds the commits of the event writes
queued together, and keeps each event's lock until the batch is stored (``_Group.lock``):
the other process waits for the batch, then decides on it. Two writers over two stores (two
connection pools, as two ``serve --workers 2`` processes have) stand for the two processes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest

from events.backends.locks import STREAM_LOCK_KEY
from events.store import GameStore
from service.cached import CachedService
from service.tournaments import EventRefusedError
from service.writer import GroupWriter
from tests.test_group_commit import hold

Side = tuple[CachedService, GroupWriter]


@pytest.fixture
def two(pg_env: dict[str, str]) -> Iterator[tuple[Side, Side]]:
    """Two server processes' services and writers on one store."""
    sides = []
    for _ in range(2):
        svc = CachedService(GameStore(env=pg_env))
        sides.append((svc, GroupWriter(svc)))
    yield sides[0], sides[1]
    for svc, writer in sides:
        writer.close()
        svc.close()


def paired(svc: CachedService, players: int) -> tuple[str, list[int]]:
    """A nim event, round 1 paired: its tables."""
    event = svc.event_new("Nim cup", "nim", rounds=3).event_id
    svc.event_register(event, [f"Player {n}" for n in range(players)])
    return event, [t.table or 0 for t in svc.event_pair(event) if not t.bye]


def slip(svc: CachedService, event: str, table: int, *, then: Callable[[], None] = bool) -> Any:
    def write() -> int:
        count = svc.event_result(event, [f"{table}=2-0-0"])
        then()
        return count

    return write


def test_two_processes_batching_one_event_lose_no_write_and_no_race(
    two: tuple[Side, Side],
) -> None:
    """EV-3.1: the slips of 16 tables, half queued in each process, released at once: every
    slip is stored once, in one gap-free stream, each process committing its half in a batch
    (not a commit per slip), and neither loses a race (the other waits for its batch's lock).
    A refused slip (a table given that is not in the round, EV-3.6's kin) is its caller's
    alone: the writes held with it are stored."""
    (svc_a, writer_a), (svc_b, writer_b) = two
    event, tables = paired(svc_a, 32)
    svc_b.event_version(event)  # both have the event cached, as serving processes do
    releases = [hold(writer_a), hold(writer_b)]
    before = writer_a.commits + writer_b.commits
    futures = [
        (writer_a if n % 2 else writer_b).event(slip(svc_a if n % 2 else svc_b, event, table))
        for n, table in enumerate(tables)
    ]
    refused = writer_b.event(slip(svc_b, event, 999))
    for release in releases:
        release.set()
    assert all(f.result(20) >= 1 for f in futures)
    assert isinstance(refused.exception(20), EventRefusedError)
    assert writer_a.races == writer_b.races == 0
    commits = writer_a.commits + writer_b.commits - before
    assert 2 <= commits <= 6  # a batch per process (and a turn or two), never 16
    for svc in (svc_a, svc_b):
        state = svc.event_state(event)
        assert all(state.result(1, table) is not None for table in tables)
    stored = [row[0] for row in svc_a.store.rows(event)]
    assert stored == list(range(1, stored[-1] + 1))
    assert not svc_a.verify().bad


def test_two_processes_holding_two_events_in_opposite_orders_do_not_deadlock(
    two: tuple[Side, Side],
) -> None:
    """One process's batch writes event X then Y, the other's Y then X, each holding its
    first event's lock when it meets the second: neither waits while holding a lock (the
    second write waits for its event once its batch is stored), so both batches land well
    within the lock wait, every slip stored."""
    (svc_a, writer_a), (svc_b, writer_b) = two
    x, x_tables = paired(svc_a, 4)
    y, y_tables = paired(svc_a, 4)
    a_holds, b_holds = threading.Event(), threading.Event()

    def meet(mine: threading.Event, theirs: threading.Event) -> Callable[[], None]:
        def then() -> None:  # each holds its first event's lock until the other holds its
            mine.set()
            assert theirs.wait(10)

        return then

    releases = [hold(writer_a), hold(writer_b)]
    futures = [
        writer_a.event(slip(svc_a, x, x_tables[0], then=meet(a_holds, b_holds))),
        writer_a.event(slip(svc_a, y, y_tables[0])),
        writer_b.event(slip(svc_b, y, y_tables[1], then=meet(b_holds, a_holds))),
        writer_b.event(slip(svc_b, x, x_tables[1])),
    ]
    for release in releases:
        release.set()
    assert all(f.result(8) >= 1 for f in futures)  # the lock wait is 10 s: none waited it
    for event, tables in ((x, x_tables), (y, y_tables)):
        state = svc_a.event_state(event)
        assert all(state.result(1, t) is not None for t in tables[:2])
    assert not svc_a.verify().bad


def test_a_batch_keeps_its_events_lock_until_it_is_stored(pg_env: dict[str, str]) -> None:
    """While a held slip's batch is not yet stored, another connection cannot take the
    event's lock; once the batch's commit has returned, it can (the lock let go)."""
    svc = CachedService(GameStore(env=pg_env))
    writer = GroupWriter(svc)
    event, tables = paired(svc, 4)
    name = f"{pg_env['POSTGRES_SCHEMA']}.{event}"
    take = "SELECT pg_try_advisory_xact_lock(%s, hashtext(%s))"
    dsn = " ".join(
        f"{k}={pg_env['POSTGRES_' + k.upper()]}" for k in ("host", "port", "dbname", "user")
    )
    seen: list[Any] = []
    with psycopg.connect(dsn) as other:

        def look() -> None:  # the write decided and held, its batch not yet stored
            seen.append(other.execute(take, (STREAM_LOCK_KEY, name)).fetchone())
            other.rollback()

        release = hold(writer)
        first = writer.event(slip(svc, event, tables[0], then=look))
        second = writer.event(slip(svc, event, tables[1], then=look))
        release.set()
        assert first.result(10) >= 1
        assert second.result(10) >= 1
        assert seen == [(False,), (False,)]
        assert other.execute(take, (STREAM_LOCK_KEY, name)).fetchone() == (True,)
        other.rollback()
    writer.close()
    svc.close()

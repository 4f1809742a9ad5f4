"""Two processes writing one event at once (``serve --workers 2`` at a round's end): a slip
(EV-3.1) or a player's own report (EV-11.1) judged on the event just before another process
stored its result is judged again on the event as stored, not refused as a race; a slip
for the table the other process decided is then refused as a slip on the new state."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from referee.tournament.model import Score
from service.app import RefereeService, open_service
from service.tournaments import EventRefusedError


def paired(db: Path) -> tuple[str, list[tuple[int, tuple[str, ...]]]]:
    with open_service(db, create=True) as svc:
        event = svc.event_new("Race", "gammasphere", rounds=3).event_id
        svc.event_register(event, [f"Player {n:02}" for n in range(8)])
        rows = svc.event_pair(event)
        state = svc.event_state(event)
        pairs = state.rounds[1].pairings
    del rows
    return event, [(p.table or 0, p.players) for p in pairs if not p.bye]


@contextmanager
def overtaken(svc: RefereeService, meanwhile: Callable[[], Any]) -> Iterator[list[int]]:
    """``svc``'s next append finds ``meanwhile`` (another process's write) stored between
    its decision and its commit; yields the number of appends tried."""
    real = svc.store.append_sealed
    tries: list[int] = [0]

    def append(streams: Any) -> list[int]:
        tries[0] += 1
        if tries[0] == 1:
            meanwhile()
        return real(streams)

    svc.store.append_sealed = append  # type: ignore[method-assign]
    try:
        yield tries
    finally:
        svc.store.append_sealed = real  # type: ignore[method-assign]


def test_a_slip_judged_before_another_process_stored_is_judged_again(tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    event, tables = paired(db)
    with open_service(db) as first, open_service(db) as second:
        first.event_info(event)
        with overtaken(
            second, lambda: first.event_result(event, [f"{tables[0][0]}=2-0-0"])
        ) as tries:
            second.event_result(event, [f"{tables[1][0]}=2-1-0"])
        assert tries[0] == 2  # refused once for the race, then judged again and stored
        meanwhile = lambda: first.event_result(event, [f"{tables[2][0]}=2-0-0"])  # noqa: E731
        with overtaken(second, meanwhile), pytest.raises(EventRefusedError) as refused:
            second.event_result(event, [f"{tables[2][0]}=0-2-0"])  # decided meanwhile
        assert refused.value.clause.startswith("EV-3")
    with open_service(db) as svc:
        state = svc.event_state(event)
        assert state.result(1, tables[1][0]) is not None
        assert str(state.result(1, tables[2][0])) == str(state.result(1, tables[0][0]))


def test_a_players_report_judged_before_another_write_is_judged_again(tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    event, tables = paired(db)
    with open_service(db) as first, open_service(db) as second:
        first.event_info(event)
        table, players = tables[1]
        with overtaken(
            second, lambda: first.event_result(event, [f"{tables[0][0]}=2-0-0"])
        ) as tries:
            row = second.event_report(event, players[0], "2-1-0", table=table)
        assert tries[0] == 2
        assert row.status == "pending"


def test_a_keyed_write_decided_again_keeps_its_key_and_a_versioned_one_is_stale(
    tmp_path: Path,
) -> None:
    """A write with an idempotency key that lost the race is stored, when decided again,
    with its key (its retry is then refused as repeated, nothing stored twice); a write
    naming the version it saw (If-Match) is not decided again: the event moved past it."""
    from service.errors import ConcurrentWriteError, RepeatedWriteError, StaleVersionError
    from service.pipeline import with_terms

    db = tmp_path / "e.db"
    event, tables = paired(db)
    with open_service(db) as first, open_service(db) as second:
        first.event_info(event)
        slip = f"{tables[1][0]}=2-1-0"
        with overtaken(second, lambda: first.event_result(event, [f"{tables[0][0]}=2-0-0"])):
            with_terms(second.event_result, idempotency_key="slip-1")(event, [slip])
        with pytest.raises(RepeatedWriteError):
            with_terms(second.event_result, idempotency_key="slip-1")(event, [slip])
        seen = first.event_info(event).version
        with (
            overtaken(second, lambda: first.event_result(event, [f"{tables[2][0]}=2-0-0"])),
            pytest.raises((StaleVersionError, ConcurrentWriteError)),
        ):
            with_terms(second.event_result, seen)(event, [f"{tables[3][0]}=2-0-0"])
    with open_service(db) as svc:
        state = svc.event_state(event)
        assert state.result(1, tables[1][0]) is not None
        assert state.result(1, tables[3][0]) is None  # the stale write stored nothing


def test_two_processes_on_postgresql_take_turns_on_an_event(pg_env: dict[str, str]) -> None:
    """On PostgreSQL a result is read, decided and appended under the event's write lock
    (``serve --workers 2``): a write of the other process arriving meanwhile waits for it,
    then reads what was stored and is judged on it (here a slip for the table just decided:
    refused by the rules, EV-3), with no lost race and no write judged twice."""
    import threading
    import time

    import psycopg

    from events.backends.locks import STREAM_LOCK_KEY
    from events.store import GameStore
    from tests.postgres import _dsn

    with RefereeService(GameStore(env=pg_env)) as svc:
        event = svc.event_new("Race", "gammasphere", rounds=3).event_id
        svc.event_register(event, [f"Player {n:02}" for n in range(8)])
        svc.event_pair(event)
        tables = [p.table or 0 for p in svc.event_state(event).rounds[1].pairings if not p.bye]
    outcome: list[BaseException | int] = []

    def other_process(first: RefereeService) -> None:
        try:
            outcome.append(first.event_result(event, [f"{tables[0]}=0-2-0"]))
        except BaseException as exc:  # the thread's answer, read by the test
            outcome.append(exc)

    def waiting(probe: psycopg.Connection[Any]) -> bool:
        """Whether a writer waits for this event's write lock."""
        row = probe.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
            "AND classid = %s AND objid::bigint = (hashtext(%s)::bigint & 4294967295)",
            (STREAM_LOCK_KEY, f"{pg_env['POSTGRES_SCHEMA']}.{event}"),
        ).fetchone()
        return bool(row and row[0])

    with (
        RefereeService(GameStore(env=pg_env)) as first,
        RefereeService(GameStore(env=pg_env)) as second,
        psycopg.connect(_dsn(), autocommit=True) as probe,
    ):
        first.event_info(event)
        other = threading.Thread(target=other_process, args=(first,))

        def meanwhile() -> None:
            other.start()  # until it waits for the lock (or, without one, has stored)
            while other.is_alive() and not waiting(probe):
                time.sleep(0.01)

        with overtaken(second, meanwhile) as tries:
            second.event_result(event, [f"{tables[0]}=2-0-0"])
        other.join()
        assert tries[0] == 1  # the other waited for the lock: no race was lost
        assert len(outcome) == 1
        assert isinstance(outcome[0], EventRefusedError)
        assert outcome[0].clause.startswith("EV-3")  # judged on the stored slip
        assert second.event_state(event).result(1, tables[0]) == Score(wins=2, losses=0, draws=0)

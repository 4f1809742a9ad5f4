"""Referees racing to record in one game: the store's test of it (``tests/test_storage.py``)
and the reliability probe at larger counts (``benchmarks/probe_reliability.py``)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from events.store import ConcurrentWriteError
from service import RefereeService


def race(
    service: Callable[[], RefereeService], game: str, entries: int, referees: int = 4
) -> tuple[int, int]:
    """``referees`` threads, each through the service ``service()`` gives it, try ``entries``
    times to record ``t1`` in ``game``: how many entries were stored, and how many lost
    their race (``ConcurrentWriteError``, nothing stored)."""
    wins: list[int] = []
    losses: list[int] = []

    def referee() -> None:
        svc = service()
        for _ in range(entries):
            try:
                svc.record(game, "t1")
                wins.append(1)
            except ConcurrentWriteError:
                losses.append(1)

    threads = [threading.Thread(target=referee) for _ in range(referees)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(wins), len(losses)

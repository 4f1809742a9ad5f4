"""A service over a fresh store whose clock never moves, for the tests of the write pipeline
(what is stored must not depend on when the test runs)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from events.store import GameStore
from service.app import RefereeService

NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def _noon() -> datetime:
    return NOON


@contextmanager
def fixed_clock_service(path: Path) -> Iterator[RefereeService]:
    """A service over a new store at ``path`` whose clock always reads ``NOON``; closed after."""
    service = RefereeService(GameStore(path), clock=_noon)
    try:
        yield service
    finally:
        service.close()

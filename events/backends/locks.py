"""The stream locks of the backends: PostgreSQL's advisory lock keys, shared by the store and
the side tables, and the type of the locks a backend hands a batch of writes
(``Backend.stream_locks``) with the backend that needs none. A leaf: the backends import it
without importing the package that chooses among them."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

__all__ = ["SCHEMA_LOCK_KEY", "STREAM_LOCK_KEY", "UNLOCKED", "TakeLock", "unlocked"]

SCHEMA_LOCK_KEY = 0x5245_4645  # "REFE": creating any table of the store, once
"""Held while the store's tables (``postgres.ensure_tables``) or the side tables
(``events.backends.tables.PostgresTables.script``) are created: any number of first starts
at once take turns."""

STREAM_LOCK_KEY = 0x5245_5357  # "RESW": one stream's writes, with the stream's hash as second key
"""Held by a write to an event around its decision and its append
(``PostgresBackend.stream_lock``): the server's processes take turns on one event instead of
racing for its next version."""

TakeLock = Callable[[str, bool], bool]
"""``take(stream, wait)`` of ``Backend.stream_locks``: whether ``stream``'s lock is now held."""


def _free(stream: str, wait: bool) -> bool:
    return True


class _Unlocked:
    def __enter__(self) -> TakeLock:
        return _free

    def __exit__(self, *exc: object) -> None:
        return None


UNLOCKED: AbstractContextManager[TakeLock] = _Unlocked()


def unlocked() -> AbstractContextManager[TakeLock]:
    """``Backend.stream_locks`` where no lock is needed (``UNLOCKED``): every stream's is
    free, at the cost of two calls (a SQLite server's writer asks it for every batch)."""
    return UNLOCKED

"""PostgreSQL advisory lock keys shared by the store and the side tables (no imports: a leaf)."""

from __future__ import annotations

__all__ = ["SCHEMA_LOCK_KEY", "STREAM_LOCK_KEY"]

SCHEMA_LOCK_KEY = 0x5245_4645  # "REFE": creating any table of the store, once
"""Held while the store's tables (``postgres.ensure_tables``) or the side tables
(``events.backends.tables.PostgresTables.script``) are created: any number of first starts
at once take turns."""

STREAM_LOCK_KEY = 0x5245_5357  # "RESW": one stream's writes, with the stream's hash as second key
"""Held by a write to an event around its decision and its append
(``PostgresBackend.stream_lock``): the server's processes take turns on one event instead of
racing for its next version."""

"""Naming a store with one string: a SQLite file, or a PostgreSQL URL.

``referee serve --store postgresql://user@host:5432/test?schema=tables`` and
``referee token create --store ...`` take one string; this module turns it
into the settings ``GameStore(db, env=...)`` and ``open_service(db, env=...)``
already understand (eventsourcing's ``PERSISTENCE_MODULE`` and ``POSTGRES_*``),
so the faces never spell the library's settings themselves.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, unquote, urlsplit

import msgspec

if TYPE_CHECKING:
    from events.store import GameStore

__all__ = ["StoreSpec", "open_store", "parse_store"]

_POSTGRES_QUERY = {
    "schema": "POSTGRES_SCHEMA",
    "pool_size": "POSTGRES_POOL_SIZE",
    "max_overflow": "POSTGRES_MAX_OVERFLOW",
    "connect_timeout": "POSTGRES_CONNECT_TIMEOUT",
    "lock_timeout": "POSTGRES_LOCK_TIMEOUT",
    "max_waiting": "POSTGRES_MAX_WAITING",
    "conn_max_age": "POSTGRES_CONN_MAX_AGE",
    "pre_ping": "POSTGRES_PRE_PING",
    "enable_db_functions": "POSTGRES_ENABLE_DB_FUNCTIONS",
}


class StoreSpec(msgspec.Struct, frozen=True, kw_only=True):
    """Where the games are: ``db`` (a SQLite path, or ``None`` for PostgreSQL) and the
    eventsourcing settings ``env`` that go with it."""

    kind: str  # "sqlite" | "postgres"
    db: str | None
    env: dict[str, str]
    label: str  # for logs and messages: never a password

    @property
    def is_postgres(self) -> bool:
        return self.kind == "postgres"


def parse_store(store: str | None) -> StoreSpec:
    """The store named by ``store``: ``postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME``
    (query: ``schema``, ``pool_size``, ... as the library's ``POSTGRES_*`` settings), or a
    SQLite file (``None``: ``REFEREE_DB`` or ``./referee.db``).

    With no ``store`` and ``PERSISTENCE_MODULE=eventsourcing.postgres`` in the
    environment, the library's own environment settings are used as they are."""
    if store is None and "postgres" in os.environ.get("PERSISTENCE_MODULE", ""):
        env = {
            k: v
            for k, v in os.environ.items()
            if k.startswith("POSTGRES_") or k == "PERSISTENCE_MODULE"
        }
        label = f"postgresql://{env.get('POSTGRES_HOST', '?')}/{env.get('POSTGRES_DBNAME', '?')}"
        return StoreSpec(kind="postgres", db=None, env=env, label=label)
    if store is not None and store.startswith(("postgresql://", "postgres://")):
        parts = urlsplit(store)
        dbname = unquote(parts.path.lstrip("/"))
        if not dbname:
            raise ValueError(
                f"{_safe(store)}: name the database (postgresql://USER@HOST:PORT/DBNAME)"
            )
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": dbname,
            "POSTGRES_HOST": parts.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": unquote(parts.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parts.password or ""),
        }
        for key, value in parse_qsl(parts.query):
            setting = _POSTGRES_QUERY.get(key.lower())
            if setting is None:
                offered = ", ".join(sorted(_POSTGRES_QUERY))
                raise ValueError(f"{_safe(store)}: unknown setting {key!r} (known: {offered})")
            env[setting] = value
        return StoreSpec(kind="postgres", db=None, env=env, label=_safe(store))
    path = store if store is not None else os.environ.get("REFEREE_DB") or "referee.db"
    return StoreSpec(kind="sqlite", db=path, env={}, label=path)


def open_store(spec: StoreSpec) -> GameStore:
    """The event store ``spec`` names, opened by its database's one factory
    (``events.database``): the faces ask for a store by its spec and never build one
    themselves."""
    from events.database import open_database  # on use: reading a spec needs no driver

    return open_database(spec.db, spec.env).store()


def _safe(url: str) -> str:
    """The URL without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return parts._replace(netloc=netloc).geturl()

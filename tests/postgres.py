"""The machine's PostgreSQL server for tests: one fresh schema per test, dropped after.

The server is the one every machine of this project runs (127.0.0.1:5432, trust
authentication, database ``test``); ``REFEREE_TEST_POSTGRES_*`` variables point
elsewhere. Tests that need it skip, saying why, only when no server answers.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest

SETTINGS = {
    "PERSISTENCE_MODULE": "eventsourcing.postgres",
    "POSTGRES_DBNAME": os.environ.get("REFEREE_TEST_POSTGRES_DBNAME", "test"),
    "POSTGRES_HOST": os.environ.get("REFEREE_TEST_POSTGRES_HOST", "127.0.0.1"),
    "POSTGRES_PORT": os.environ.get("REFEREE_TEST_POSTGRES_PORT", "5432"),
    "POSTGRES_USER": os.environ.get("REFEREE_TEST_POSTGRES_USER", "postgres"),
    "POSTGRES_PASSWORD": os.environ.get("REFEREE_TEST_POSTGRES_PASSWORD", ""),
    "POSTGRES_CONNECT_TIMEOUT": "5",
}


def _dsn() -> str:
    s = SETTINGS
    return (
        f"host={s['POSTGRES_HOST']} port={s['POSTGRES_PORT']} dbname={s['POSTGRES_DBNAME']} "
        f"user={s['POSTGRES_USER']} password={s['POSTGRES_PASSWORD']} connect_timeout=5"
    )


def server_problem() -> str | None:
    """Why the PostgreSQL tests cannot run here, or ``None``."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    try:
        with psycopg.connect(_dsn()) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return (
            "no PostgreSQL server answers at "
            f"{SETTINGS['POSTGRES_HOST']}:{SETTINGS['POSTGRES_PORT']}: {exc}"
        )
    return None


@pytest.fixture
def pg_env() -> Iterator[dict[str, str]]:
    """Store settings for a fresh schema on the test server (dropped afterwards)."""
    problem = server_problem()
    if problem is not None:
        pytest.skip(problem)
    with fresh_schema() as schema:
        yield {**SETTINGS, "POSTGRES_SCHEMA": schema}


@contextlib.contextmanager
def fresh_schema() -> Iterator[str]:
    """The name of a new schema on the test server, dropped on leaving."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield schema
    finally:
        with psycopg.connect(_dsn(), autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def pg_url(env: dict[str, str]) -> str:
    """The ``postgresql://`` URL of a ``pg_env`` schema (the command line's ``--db``)."""
    password = f":{env['POSTGRES_PASSWORD']}" if env.get("POSTGRES_PASSWORD") else ""
    return (
        f"postgresql://{env['POSTGRES_USER']}{password}@{env['POSTGRES_HOST']}:"
        f"{env['POSTGRES_PORT']}/{env['POSTGRES_DBNAME']}?schema={env['POSTGRES_SCHEMA']}"
    )

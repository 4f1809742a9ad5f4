"""What several benchmarks share: a free port, a served ``referee serve`` waited for, a
``referee`` command's output, and a fresh PostgreSQL schema.

A benchmark runs as ``python benchmarks/bench_x.py``, so this folder is on its path and
``from _common import ...`` finds this module."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["ROOT", "free_port", "new_schema", "referee_out", "started"]


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def started(command: list[str], port: int, log: IO[Any]) -> subprocess.Popen[bytes]:
    """``command`` (a server) started in the project's folder, its output to ``log``, once
    it accepts connections on ``port`` (30 s at most, else it is killed)."""
    process = subprocess.Popen(command, cwd=str(ROOT), stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"the server did not start; see {log.name}")


def referee_out(*args: str, cwd: Path | str = ROOT, env: dict[str, str] | None = None) -> str:
    """What ``referee ARGS`` prints (run in ``cwd``, with ``env`` added), stripped; a
    failing command raises."""
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
    )
    return done.stdout.strip()


def new_schema(dsn: str, prefix: str) -> str:
    """A fresh schema ``prefix_<random>`` in the database of ``dsn``; its name."""
    import psycopg

    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return schema

"""What several benchmarks share: a free port, a served ``referee serve`` waited for, a
``referee`` command's output, and a fresh PostgreSQL schema.

A benchmark runs as ``python benchmarks/bench_x.py``, so this folder is on its path and
``from _common import ...`` finds this module."""

from __future__ import annotations

import asyncio
import os
import resource
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import IO, Any
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parent.parent

__all__ = [
    "ROOT",
    "byte_compiled",
    "free_port",
    "http_scope",
    "new_schema",
    "one_request",
    "referee_out",
    "referee_timed",
    "started",
]


def byte_compiled(trees: list[Path]) -> None:
    """Byte-compile each checkout's packages first, as an installed command is."""
    for tree in trees:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q"]
            + [str(tree / p) for p in ("referee", "events", "projections", "service", "cli")],
            check=True,
            stdout=subprocess.DEVNULL,
        )


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def started(
    command: list[str], port: int, log: IO[Any], wait: float = 30
) -> subprocess.Popen[bytes]:
    """``command`` (a server) started in the project's folder, its output to ``log``, once
    it accepts connections on ``port`` (``wait`` seconds at most, else it is killed)."""
    process = subprocess.Popen(command, cwd=str(ROOT), stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"the server did not start; see {log.name}")


def _referee(args: list[str], cwd: Path | str, env: dict[str, str]) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def referee_out(*args: str, cwd: Path | str = ROOT, env: dict[str, str] | None = None) -> str:
    """What ``referee ARGS`` prints (run in ``cwd``, with ``env`` added), stripped; a
    failing command raises."""
    done = _referee(list(args), cwd, {**os.environ, **(env or {})})
    done.check_returncode()
    return str(done.stdout).strip()


def referee_timed(args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system) of the whole command ``referee ARGS`` in the
    environment ``env``, and what it printed; a failing command ends the benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = _referee(args, ROOT, env)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{args}: {done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, str(done.stdout)


def new_schema(dsn: str, prefix: str) -> str:
    """A fresh schema ``prefix_<random>`` in the database of ``dsn``; its name."""
    import psycopg

    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return schema


def http_scope(
    method: str, path: str, headers: list[tuple[bytes, bytes]], query: bytes = b""
) -> dict[str, Any]:
    """The ASGI scope of one HTTP request to ``path`` (raw, as on the wire) from a local
    client, for calling a server's app in-process."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": unquote(path),
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }


def bearer_scope(
    method: str,
    path: str,
    token: str,
    body: bytes = b"",
    extra: dict[str, str] | None = None,
) -> dict[str, Any]:
    """``http_scope`` of a request carrying ``token`` as its bearer, ``extra`` headers and,
    when there is one, a JSON ``body``; ``path`` may carry its query after ``?``."""
    headers = [(b"host", b"bench"), (b"authorization", f"Bearer {token}".encode())]
    headers += [(k.lower().encode(), v.encode()) for k, v in (extra or {}).items()]
    if body:
        headers += [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
    path_part, _, query = path.partition("?")
    return http_scope(method, path_part, headers, query.encode())


def one_request(body: bytes) -> Callable[[], Awaitable[dict[str, Any]]]:
    """An ASGI ``receive`` that gives ``body`` once, then waits (as a client that sent its
    request and keeps the connection)."""
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.sleep(3600)
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive

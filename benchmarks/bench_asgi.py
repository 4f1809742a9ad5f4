"""CPU per request of the HTTP face, in process: the application's ASGI callable driven
directly (no sockets, no client), so the figure is the server's own work and holds on a
loaded machine, where wall-clock benchmarks (``bench_http.py``, ``bench_peak.py``) swing
with the neighbours. Run it from two trees side by side to compare them:

    python benchmarks/bench_asgi.py [--requests 2000]

Each kind of request is sent ``--requests`` times after a warm-up, and the process's CPU
time (every thread: the writer's too) is divided by the count:

- ``health``: the bare endpoint (Litestar's routing and response, no token);
- ``whoami``: a token checked by the API's guard, the caller injected;
- ``position``: a game read (guard, the game's seating, the position encoded);
- ``check``: an entry judged without storing (a body decoded and validated);
- ``entry (fast path)``: an entry that breaks a rule, recorded as evidence (422) by
  ``web.fastpath`` (authentication, the group commit, the problem document);
- ``penalty``: a referee's write through Litestar (role guard, body, writer thread).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import bearer_scope, one_request  # noqa: E402


async def _call(app: Any, method: str, path: str, token: str, body: bytes = b"") -> int:
    scope = bearer_scope(method, path, token, body)
    receive = one_request(body)
    status = 0

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(scope, receive, send)
    return status


async def _measure(app: Any, label: str, n: int, request: tuple[Any, ...], want: int) -> float:
    for _ in range(max(20, n // 10)):  # warm-up
        status = await _call(app, *request)
    assert status == want, f"{label}: {status}, not {want}"
    started = time.process_time()
    for _ in range(n):
        await _call(app, *request)
    return (time.process_time() - started) / n * 1e6


async def main(requests: int) -> dict[str, float]:
    from service.access import TokenStore
    from service.app import open_service
    from service.sidedb import open_side_db
    from service.stores import parse_store
    from web.app import ServeConfig, create_app

    folder = tempfile.mkdtemp(prefix="bench-asgi-")
    store = os.path.join(folder, "games.db")
    open_service(store, create=True).close()
    tokens = TokenStore(open_side_db(parse_store(store)))
    head = tokens.create("head", "Hera", ())[1]
    tokens.db.close()
    app = create_app(ServeConfig(store=store))
    out: dict[str, float] = {}
    async with app.lifespan():
        game_body = json.dumps({"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}})
        status = await _call(app, "POST", "/api/games", head, game_body.encode())
        assert status == 201, status
        web = app.state["web"]
        game = web.listing.rows()[0].game_id
        cases: list[tuple[str, tuple[Any, ...], int]] = [
            ("health", ("GET", "/api/health", head), 200),
            ("whoami", ("GET", "/api/whoami", head), 200),
            ("position", ("GET", f"/api/games/{game}", head), 200),
            ("check", ("POST", f"/api/games/{game}/check", head, b'{"text": "e1>e2"}'), 200),
            (
                "entry (fast path)",
                ("POST", f"/api/games/{game}/entries", head, b'{"text": "e1>e7"}'),
                422,
            ),
            (
                "penalty",
                (
                    "POST",
                    f"/api/games/{game}/penalties",
                    head,
                    b'{"seat": "blue", "level": "warning", "infraction": "slow play"}',
                ),
                201,
            ),
        ]
        for label, request, want in cases:
            count = requests if label != "penalty" else max(50, requests // 10)
            out[label] = await _measure(app, label, count, request, want)
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    figures = asyncio.run(main(args.requests))
    for label, micros in figures.items():
        print(f"{label:>18}: {micros:7.0f} us CPU per request")

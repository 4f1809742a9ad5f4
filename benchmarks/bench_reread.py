"""What a change costs the player pages that follow it (issue 23 section 2's "re-read"): the
server's CPU per player page read again after one result, in-process. A script, never a
timed test.

    python benchmarks/bench_reread.py                    # SQLite, 2,048 players, 2,000 pages
    python benchmarks/bench_reread.py --store postgres

The same 2,048-player event as ``bench_phones.py`` (round 1 paired and reported). The
application is called directly as an ASGI app in this one process (no socket, no uvicorn,
no client on the same cores), one request after another, so the figure is the
application's own CPU per request, which the shared machine's neighbours move far less
than a latency. Steps: the head referee pairs round 2; ``--pages`` players each load their
own page once (the first read of a new round); then ``--results`` times one table's result
is reported and every one of those players reads their page again with the ``ETag`` they
hold (as the pages' script does when the live stream says the event moved). Reported: CPU
per first read and per re-read (``time.process_time``, every thread of the process), and how
many pages' live regions changed with each result (every page's bytes change: each carries
the event's version).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _common import http_scope, one_request  # noqa: E402
from bench_phones import build, drop_store, make_store, make_tokens  # noqa: E402


async def call(
    app: Any, method: str, path: str, token: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    """One request to the ASGI ``app``: status, headers, body."""
    raw = [(b"host", b"x"), (b"authorization", f"Bearer {token}".encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    if body:
        raw += [(b"content-type", b"application/json")]
    scope = http_scope(method, path, raw)
    receive = one_request(body)

    status, out, chunks = 0, {}, []

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, out
        if message["type"] == "http.response.start":
            status = message["status"]
            out = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, out, b"".join(chunks)


async def run(store: str, args: argparse.Namespace) -> dict[str, Any]:
    from web.app import create_app
    from web.context import ServeConfig

    names = [f"Player {n:05}" for n in range(args.players)]
    head, tokens, ids = make_tokens(store, names)
    event = build(store, names, ids)
    threads = 4 if store.startswith("postgresql") else 0
    app: Any = create_app(ServeConfig(store=store, threads=threads))
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    await inbox.put({"type": "lifespan.startup"})
    life = asyncio.create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, inbox.get, outbox.put)
    )
    assert (await outbox.get())["type"] == "lifespan.startup.complete"
    e = quote(event)
    rng = random.Random(args.seed)
    chosen = rng.sample(names, args.pages)
    gz = {"Accept-Encoding": "gzip"}

    async def post(path: str, body: Any) -> Any:
        status, _, data = await call(app, "POST", path, head, {}, json.dumps(body).encode())
        assert status == 201, data[:300]
        return json.loads(data)

    rows = await post(f"/api/events/{e}/rounds", {})
    tags: dict[str, str] = {}
    bodies: dict[str, bytes] = {}

    async def read_all() -> tuple[float, int]:
        changed = 0
        started = time.process_time()
        for name in chosen:
            held = {"If-None-Match": tags[name]} if name in tags else {}
            status, found, body = await call(
                app, "GET", f"/events/{e}/players/{quote(name)}", tokens[name], {**gz, **held}
            )
            assert status in (200, 304), (status, body[:200])
            if status == 200:
                page = gzip.decompress(body) if found.get("content-encoding") == "gzip" else body
                region = page[page.find(b'<div id="live-region">') :]
                changed += bodies.get(name) != region
                tags[name], bodies[name] = found["etag"], region
        return (time.process_time() - started) / len(chosen), changed

    await asyncio.sleep(0.3)  # the hub has read the pairing: the version is vouched for
    first, _ = await read_all()
    played = [r for r in rows if not r["bye"]]
    rereads = []
    for i in range(args.results):
        await post(f"/api/events/{e}/results", {"slips": [f"{played[i]['table']}=2-0-0"]})
        await asyncio.sleep(0.3)
        rereads.append(await read_all())
    await inbox.put({"type": "lifespan.shutdown"})
    await life
    return {
        "first_read_ms": first * 1000,
        "reread_ms": [round(cpu * 1000, 3) for cpu, _ in rereads],
        "reread_median_ms": statistics.median(cpu for cpu, _ in rereads) * 1000,
        "pages_changed": [n for _, n in rereads],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--results", type=int, default=5)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load {os.getloadavg()[0]:.1f}, {ROOT}"
    )
    with tempfile.TemporaryDirectory() as folder:
        store, extra = make_store(args.store, Path(folder))
        try:
            result = asyncio.run(run(store, args))
        finally:
            drop_store(args.store, extra)
    print(json.dumps({"store": args.store, **result}))


if __name__ == "__main__":
    main()

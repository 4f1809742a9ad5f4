"""The event loop's CPU per recorded entry, in-process: the ASGI application driven
directly (no sockets, no uvicorn, no other client), so a shared machine's noise moves the
figure far less than it moves latencies.

    python benchmarks/bench_entry_cpu.py [--against PATH] [--tables 100] [--rounds 30]

``--tables`` PRIZMIK games each get one legal entry per round, all of a round's entries
sent at once (as 100 referees' requests arrive together at 1,000 entries/s), ``--rounds``
times; the requests carry ``If-Match`` and a table referee's Bearer token, as
``bench_peak.py``'s do. Reported: the event loop thread's CPU per entry (``thread_time``:
the handlers, the token check, the answer; the writer's insert and commit run on their
own thread and are counted apart), the process's CPU per entry, and the same with the
fast path for entries switched off (``web.fastpath``, where the checkout has one).
``--against`` names another checkout of the project (for example ``git archive main``
unpacked) to measure the same in it; the best of ``--repeat`` runs of each, interleaved.
A script, never a timed test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN = r"""
import asyncio, json, sys, threading, time
from pathlib import Path
root = Path(sys.argv[1]); sys.path[:0] = [str(root), str(root / "benchmarks")]
tables, rounds, fast = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
workdir = sys.argv[5]
from bench_http import make_tokens, random_games
from service.app import open_service
from web.app import ServeConfig, create_app

store = str(Path(workdir) / "cpu.db")
open_service(store, create=True).close()
tokens, _ = make_tokens(store, tables)
games = random_games(tables * 3, 23, 200)
app = create_app(ServeConfig(store=store, projections=str(Path(workdir) / "cpu.projections.db")))
door = app.asgi_handler
if hasattr(door, "enabled") and not fast:
    door.enabled = False


async def call(method, path, body, headers):
    raw = [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    raw += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "headers": raw,
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000), "state": {}}
    sent = [False]
    out = {}

    async def receive():
        if not sent[0]:
            sent[0] = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()

    async def send(message):
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
        else:
            out["body"] = out.get("body", b"") + message.get("body", b"")

    await app(scope, receive, send)
    return out


async def main():
    started, stopped = asyncio.Event(), asyncio.Event()
    queue = [{"type": "lifespan.startup"}]

    async def lreceive():
        if queue:
            return queue.pop()
        await stopped.wait()
        return {"type": "lifespan.shutdown"}

    async def lsend(message):
        if message["type"] == "lifespan.startup.complete":
            started.set()

    lifespan = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
    life = asyncio.create_task(app(lifespan, lreceive, lsend))
    await started.wait()
    ids, versions = [], []
    for n in range(tables):
        new = {"game": "prizmik", "players": {"red": "A", "blue": "B"},
               "meta": {"table": str(n + 1)}}
        made = await call("POST", "/api/games", json.dumps(new).encode(),
                          {"Authorization": f"Bearer {tokens[n]}"})
        assert made["status"] == 201, made
        ids.append(json.loads(made["body"])["game_id"])
        versions.append(1)
    moves = [next(g for g in games[n::tables] if len(g) > rounds + 1) for n in range(tables)]

    async def one(n, r):
        answer = await call("POST", f"/api/games/{ids[n]}/entries",
                            json.dumps({"text": moves[n][r]}).encode(),
                            {"Authorization": f"Bearer {tokens[n]}",
                             "If-Match": f'"{versions[n]}"'})
        assert answer["status"] == 201, answer
        versions[n] = int(answer["headers"]["etag"].strip('"'))

    for r in range(2):  # warm up
        await asyncio.gather(*(one(n, r) for n in range(tables)))
    loop_cpu, cpu = time.thread_time(), time.process_time()
    for r in range(2, rounds + 2):
        await asyncio.gather(*(one(n, r) for n in range(tables)))
    loop_cpu, cpu = time.thread_time() - loop_cpu, time.process_time() - cpu
    stopped.set()
    await life
    entries = tables * rounds
    served = getattr(door, "entries", 0)
    print(json.dumps({"loop_ms": 1000 * loop_cpu / entries, "process_ms": 1000 * cpu / entries,
                      "fast_path_entries": served}))

asyncio.run(main())
"""


def measure(root: Path, tables: int, rounds: int, fast: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="referee-entry-cpu-") as workdir:
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                RUN,
                str(root),
                str(tables),
                str(rounds),
                "1" if fast else "0",
                workdir,
            ],
            cwd=str(root),
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(done.stderr[-3000:])
        result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="Another checkout to measure as well.")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sides = [("this", ROOT, True), ("this, entries' fast path off", ROOT, False)]
    if args.against is not None:
        sides.insert(0, (f"against {args.against}", args.against.resolve(), True))
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.repeat):
        for name, root, fast in sides:
            found = measure(root, args.tables, args.rounds, fast)
            held = best.get(name)
            if held is None or found["loop_ms"] < held["loop_ms"]:
                best[name] = found
    for name, found in best.items():
        print(
            f"{name:40} event loop {found['loop_ms']:.3f} ms/entry, process "
            f"{found['process_ms']:.3f} ms/entry, fast path took {int(found['fast_path_entries'])}"
        )


if __name__ == "__main__":
    main()

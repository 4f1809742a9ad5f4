"""Does one client's large import stall other tables? Small writes' latency on a SQLite
``referee serve`` (service calls on the event loop) while a head referee posts a large
JSONL record to ``/api/imports`` back to back (issue 22, section 6).

    python benchmarks/bench_large_import.py [--tree /work/main] [--games 300] [--seconds 10]

``--tree`` runs the server from another checkout (the code before a change) with the same
client, so the two can be measured side by side in the same minute. Ten tables record
entries of real PRIZMIK games one after another (closed loop, one connection each);
reported: the entries' p50 and p99 latency without the import, then with it, and the
import's size. A script, never a timed test; figures go to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import httpx  # noqa: E402
from _common import free_port, referee_out  # noqa: E402
from bench_http import random_games  # noqa: E402
from bench_scale import build  # noqa: E402

from events.store import GameStore  # noqa: E402
from service.app import open_service  # noqa: E402
from tests.sealed_games import pool_of_lines  # noqa: E402


def record_of(games: int) -> bytes:
    """A JSONL record of ``games`` finished 40-ply games."""
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "source.db")
        store = GameStore(db)
        lines = pool_of_lines(20, 40, random.Random(1))
        build(store, games, lines, seed=2)
        svc = open_service(db)
        try:
            return "".join(svc.export(None, "jsonl")).encode()
        finally:
            svc.close()


def cli(tree: str, *args: str) -> str:
    return referee_out(*args, cwd=tree)


async def tables(
    base: str, tokens: list[str], entries: list[list[str]], seconds: float
) -> list[float]:
    """Each table records its game's entries (a new game when one runs out); latencies."""
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    async def table(index: int, token: str) -> None:
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=60) as client:
            while time.monotonic() < stop:
                made = await client.post(
                    "/api/games",
                    json={
                        "game": "prizmik",
                        "players": {"red": "Ann", "blue": "Ben"},
                        "meta": {"table": str(index + 1)},
                    },
                )
                game = made.json()["game_id"]
                for text in entries[index % len(entries)]:
                    if time.monotonic() >= stop:
                        return
                    started = time.perf_counter()
                    answer = await client.post(f"/api/games/{game}/entries", json={"text": text})
                    latencies.append(time.perf_counter() - started)
                    if answer.status_code != 201:
                        break

    await asyncio.gather(*(table(i, t) for i, t in enumerate(tokens)))
    return latencies


async def importer(base: str, token: str, body: bytes, seconds: float) -> int:
    stop = time.monotonic() + seconds
    sent = 0
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=300) as client:
        while time.monotonic() < stop:
            answer = await client.post("/api/imports", content=body)
            assert answer.status_code == 200, answer.text[:200]
            sent += 1
    return sent


def pcts(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered) * 1e3:.1f} ms, p99 {p99 * 1e3:.1f} ms ({len(values)})"


def run(tree: str, body: bytes, seconds: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = str(Path(folder) / "bench.db")
        open_service(store, create=True).close()
        made = ["token", "create", "--store", store, "--json", "--role"]
        head = json.loads(cli(tree, *made, "head", "--name", "H"))["token"]
        tokens = [
            json.loads(cli(tree, *made, "table", "--name", f"T{i}", "--table", str(i + 1)))["token"]
            for i in range(10)
        ]
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--store", store, "--port", str(port)],
            cwd=tree,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    if httpx.get(f"{base}/api/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            entries = random_games(10, seed=3, max_plies=40)
            alone = asyncio.run(tables(base, tokens, entries, seconds))

            async def both() -> tuple[list[float], int]:
                found = await asyncio.gather(
                    tables(base, tokens, entries, seconds), importer(base, head, body, seconds)
                )
                return found[0], found[1]

            loaded, imports = asyncio.run(both())
        finally:
            server.terminate()
            server.wait(10)
    print(f"{tree}: entries alone {pcts(alone)}")
    print(f"{tree}: entries during {imports} imports of {len(body) / 1e6:.1f} MB {pcts(loaded)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", action="append", help="a checkout to serve from (repeatable)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    body = record_of(args.games)
    for tree in args.tree or [str(ROOT)]:
        run(tree, body, args.seconds)


if __name__ == "__main__":
    main()

"""The referees' queue at scale: does ``referee queue`` cost the same in a store of 100,000
games as in one of 1,000, and what does a live server pay per change?

    python benchmarks/bench_queue.py [--small 1000] [--large 100000] [--runs 5]

Each store holds 40-ply PRIZMIK games (``bench_scale``'s builder; a third left open,
unlabelled) plus 30 open games at tables 1-30 with a dispute, a penalty and a ruling
asked in some. Timed: ``referee queue --json`` as a whole process (median after a
warm-up), the in-process first fold of a store that has no snapshot yet (reading the
whole log, then saving the snapshot), the first read of a new process from the
persisted snapshot (in-process), and a warm call after one new dispute (what a live
server pays per change). Figures go to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_scale import build, timed  # noqa: E402

from events.store import GameStore  # noqa: E402
from service import RefereeService  # noqa: E402
from service.room import RoomQueue  # noqa: E402
from tests.sealed_games import pool_of_lines  # noqa: E402


def room(svc: RefereeService) -> list[str]:
    """30 open games at tables, each with a dispute; every third with a penalty."""
    ids = []
    for table in range(1, 31):
        view = svc.create_game(
            "prizmik", {"red": f"R{table}", "blue": f"B{table}"}, meta={"table": str(table)}
        )
        svc.record(view.game_id, "c1>c2")
        svc.dispute(view.game_id, 2, by=f"B{table}", claim="bench")
        if table % 3 == 0:
            svc.penalty(view.game_id, "red", "warning", "slow play")
        ids.append(view.game_id)
    return ids


def measure(count: int, lines: list[list[tuple[str, str, bytes]]], runs: int) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="bench-queue-"))
    db = str(folder / "games.db")
    store = GameStore(db)
    build(store, count, lines, seed=count)
    svc = RefereeService(store)
    ids = room(svc)
    t0 = time.perf_counter()
    queue = RoomQueue(store)
    cold = queue.items()
    cold_ms = (time.perf_counter() - t0) * 1e3
    assert len(cold.disputes) == 30, len(cold.disputes)
    warm = []
    for n in range(runs):
        svc.dispute(ids[n], 2, by=f"B{n + 1}", claim="again")
        t0 = time.perf_counter()
        queue.items()
        warm.append((time.perf_counter() - t0) * 1e3)
    expected = len(queue.items().disputes)
    restored = []
    for _ in range(runs):
        fresh_store = GameStore(db)
        t0 = time.perf_counter()
        fresh = RoomQueue(fresh_store)
        assert len(fresh.items().disputes) == expected
        restored.append((time.perf_counter() - t0) * 1e3)
        fresh.close()
        fresh_store.close()
    process = timed(db, ["queue", "--json"], runs)
    store.close()
    return {
        "cold": cold_ms,
        "restored": statistics.median(restored),
        "warm": statistics.median(warm),
        "process": process,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    lines = pool_of_lines(50, 40, random.Random(1))
    small = measure(args.small, lines, args.runs)
    large = measure(args.large, lines, args.runs)
    print(f"{'':32} {args.small:>10,} {args.large:>10,}  ratio")
    for key, what in (
        ("process", "referee queue --json (ms)"),
        ("cold", "first fold, no snapshot (ms)"),
        ("restored", "new process's first read (ms)"),
        ("warm", "after one new dispute (ms)"),
    ):
        print(f"{what:32} {small[key]:>10.1f} {large[key]:>10.1f}  {large[key] / small[key]:.2f}")


if __name__ == "__main__":
    main()

"""What a keyed game write costs on the server as its game's log grows (the lookup of its
``Idempotency-Key``).

    python benchmarks/bench_keys.py [--events 1000,10000,50000] [--writes 200]

Each size is one long PRIZMIK game (``bench_long_game.build``: an action and its
retraction over and over), kept folded by the server's cache (``CachedService``); then
``--writes`` writes go through the group commit (``GroupWriter``) one at a time, each
under a fresh key (``with_terms``, as the HTTP face hands an ``Idempotency-Key`` over):
an entry, then its retraction. Reported: the process's CPU time per write (median of
``--runs`` blocks of writes), and the pipeline's key lookup alone (``key_stored`` on the
writer's view, a key no event holds: every new write's case), per call. A script, never a
timed test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from bench_long_game import GAME_ID, build  # noqa: E402

from tests.sealed_games import pool_of_lines  # noqa: E402


def measure(db: Path, writes: int, runs: int) -> tuple[float, float]:
    """(CPU ms a keyed write, µs a lookup of a key no event holds) on the game in ``db``."""
    import random

    from events.store import GameStore
    from referee.game.commands import Retract
    from referee.game.write import key_stored
    from service.cached import CachedService
    from service.pipeline import with_terms
    from service.writer import GroupWriter

    seat, move, _ = pool_of_lines(1, 40, random.Random(1))[0][39]  # as ``build`` plays
    svc = CachedService(GameStore(db))
    svc.load(GAME_ID)
    writer = GroupWriter(svc)
    blocks: list[float] = []
    number = 0
    try:
        for _ in range(runs + 1):  # the first block warms the writer's view up
            started = time.process_time()
            for _ in range(writes // 2):
                number += 1
                with_terms(writer.entry, None, f"entry-{number}")(
                    GAME_ID, move, actor=seat
                ).result()
                retract = Retract(reason="wrong piece")
                with_terms(writer.command, None, f"retract-{number}")(GAME_ID, retract).result()
            blocks.append((time.process_time() - started) / (writes // 2 * 2))
        view = svc.load(GAME_ID)
        key_stored(view, "warm", token="")  # a kept view's index, if it keeps one
        calls = 200
        started = time.perf_counter()
        for i in range(calls):
            key_stored(view, f"absent-{i}", token="")
        lookup = (time.perf_counter() - started) / calls
    finally:
        writer.close()
    return statistics.median(blocks[1:]) * 1e3, lookup * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", default="1000,10000,50000")
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{'events':>8} {'CPU ms/write':>13} {'lookup µs':>10}")
    for size in (int(s) for s in args.events.split(",")):
        with tempfile.TemporaryDirectory(prefix="referee-keys-") as folder:
            db = Path(folder) / "keys.db"
            stored = build(db, size)
            ms, us = measure(db, args.writes, args.runs)
            print(f"{stored:>8,} {ms:>13.2f} {us:>10.1f}", flush=True)


if __name__ == "__main__":
    main()

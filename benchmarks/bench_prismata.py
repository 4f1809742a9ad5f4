"""Prismata speed: apply-only replay and checking a whole game from its log.

Plain script: ``python benchmarks/bench_prismata.py [GAME.json.gz]``.

The game (default: the 50-turn fixture ``pp8_002_seed11002``) is converted
once from the reference format into our actions and their notation. Then:

1. apply-only replay: ``apply`` every action from the initial position,
   repeated; reports actions per second (target: at least 50,000/s);
2. checked replay from the log: ``parse`` each line, ``check`` it, ``apply`` it,
   for the whole game; reports milliseconds per game (target: 100 ms or less
   for a 50-turn game).
"""

from __future__ import annotations

import gzip
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# E402 on purpose: the project imports only once the lines above put it on sys.path
from referee.games.prismata import PrismataRules  # noqa: E402
from referee.games.prismata.reference import ReferenceImport  # noqa: E402

DEFAULT = ROOT / "fixtures/prismata/reference/live-2026-03/pp8_002_seed11002.json.gz"


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT
    with gzip.open(path, "rt") as fh:
        game = json.load(fh)
    imp = ReferenceImport(game)
    actions = []
    for turn in game["turns"]:
        actions.extend(imp.convert_turn(turn))
    rules = PrismataRules()
    start = rules.initial_state(imp.setup)
    log = [rules.notation(a) for a in actions]
    turns = len(game["turns"])

    # 1. apply only
    rounds = max(1, 200_000 // len(actions))
    t0 = time.perf_counter()
    for _ in range(rounds):
        state = start
        for a in actions:
            state = rules.apply(state, a)
    elapsed = time.perf_counter() - t0
    rate = rounds * len(actions) / elapsed

    # 2. parse + check + apply the whole game from its log
    times = []
    for _ in range(20):
        t0 = time.perf_counter()
        state = start
        for line in log:
            a = rules.parse(line)
            verdict = rules.check(state, a)
            if not verdict.legal:
                raise SystemExit(f"illegal: {line}: {verdict}")
            state = rules.apply(state, a)
        times.append(time.perf_counter() - t0)
    per_game = statistics.median(times) * 1000

    print(f"game: {path.name}: {turns} turns, {len(actions)} actions")
    print(f"apply-only replay: {rate:,.0f} actions/s (target >= 50,000)")
    print(
        f"parse+check+apply whole game: {per_game:.1f} ms median of 20 (target <= 100 ms "
        f"for 50 turns); {len(actions) / (per_game / 1000):,.0f} actions/s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

"""Smoke test of benchmarks/bench_prizmik_rules.py: it runs; speed is not judged here."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from tests.prizmik.helpers import ROOT, RULES

SCRIPT = ROOT / "benchmarks" / "bench_prizmik_rules.py"


def load_script(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_prizmik_rules", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pz_9_3_benchmark_games_are_canonical_and_replayable() -> None:
    bench = load_script(SCRIPT)
    start, games = bench.prizmik_games(RULES, 3, seed=7)
    assert len(games) == 3
    for moves in games:
        assert 0 < len(moves) <= bench.MAX_PLIES
        assert all(RULES.notation(RULES.parse(m)) == m for m in moves)
    assert bench.time_prizmik(RULES, start, games) > 0
    again = bench.prizmik_games(RULES, 3, seed=7)[1]
    assert again == games  # fixed seed, same games

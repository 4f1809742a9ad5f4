"""Replay reference games against our rules and print agreement (development tool).

Usage: python tools/prismata/compare_reference.py [--per-action] [FILES or folders...]
Default: every game under ../shared/data/prismata/reference.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

# E402 on purpose: the project imports only once the lines above put it on sys.path
from referee.games.prismata.reference import replay  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--per-action", action="store_true")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    paths = args.paths or [ROOT.parent / "shared/data/prismata/reference"]
    files: list[Path] = []
    for p in paths:
        files.extend(sorted(p.rglob("*.json.gz")) if p.is_dir() else [p])
    totals: dict[str, list[int]] = {}
    t0 = time.perf_counter()
    for f in files:
        with gzip.open(f, "rt") as fh:
            game = json.load(fh)
        rep = replay(game, per_action=args.per_action)
        tot = totals.setdefault(game["balance"], [0, 0])
        tot[1] += 1
        tot[0] += rep.agree
        if not rep.agree or not args.quiet:
            print(
                f"{'OK ' if rep.agree else 'BAD'} {f.parent.name}/{f.name}: {rep.turns} turns "
                f"{rep.actions} actions {rep.first_difference}"
            )
    for balance, (ok, n) in totals.items():
        print(f"{balance}: {ok}/{n} games agree")
    print(f"{time.perf_counter() - t0:.1f}s")
    return 0 if all(ok == n for ok, n in totals.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())

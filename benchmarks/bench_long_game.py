"""One very long game: what each one-game command costs, in time and memory, as its stream grows.

    python benchmarks/bench_long_game.py [--events 100000] [--runs 3]

The game is 39 PRIZMIK actions, then an action and its retraction over and over
(a referee correcting the same entry), so its position stays small while its
stream grows: what is measured is the cost of the stream itself. Each command
runs as a whole process (median of ``--runs`` after a warm-up) under
``/usr/bin/time`` for its peak memory. Recording still folds the whole stream
(no snapshots); ``log --json`` and ``export`` read it a page at a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

# E402 on purpose: the project imports only once the lines above put it on sys.path
from bench_scale import START  # noqa: E402

from events.schema import (  # noqa: E402
    ActionRetracted,
)
from events.store import GameStore  # noqa: E402
from tests.sealed_games import pool_of_lines, prizmik_game, recorded, sealed_rows, stream_base  # noqa: E402

GAME_ID = "prizmik-longgame01"


def build(db: Path, count: int) -> int:
    """Store one game of about ``count`` events; how many were stored."""
    line = pool_of_lines(1, 40, random.Random(1))[0]
    base = stream_base(GAME_ID, START)
    events = prizmik_game(base, ("Ann", "Ben"), line[:39], "bench")
    seq = len(events) - 1
    while len(events) < count:
        seq += 1
        events.append(recorded(base, seq, line[39], "bench"))
        seq += 1
        events.append(
            ActionRetracted(**base, seq=seq, event=len(events), reason="wrong piece", by="bench")
        )
    rows = sealed_rows(events)
    GameStore(db).insert_rows([(GAME_ID, rows)])
    return len(rows)


def measure(db: Path, args: list[str], runs: int) -> tuple[float, float]:
    """(median ms, peak MB) of ``referee --db DB ARGS`` as a whole process."""
    times = []
    peak = 0
    for attempt in range(runs + 1):
        done = subprocess.run(
            [
                "/usr/bin/time",
                "-f",
                "%e %M",
                sys.executable,
                "-m",
                "cli.main",
                "--db",
                str(db),
                *args,
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if done.returncode not in (0, 1):
            raise RuntimeError(f"{' '.join(args)}: {done.stderr[-300:]}")
        seconds, kilobytes = done.stderr.strip().splitlines()[-1].split()
        peak = max(peak, int(kilobytes))
        if attempt:
            times.append(float(seconds))
    return statistics.median(times) * 1e3, peak / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not Path("/usr/bin/time").exists():
        sys.exit("needs /usr/bin/time (Debian's 'time' package) for peak memory")
    with tempfile.TemporaryDirectory(prefix="referee-long-") as folder:
        db = Path(folder) / "long.db"
        print(f"one game of {build(db, args.events):,} events")
        for command in (
            ["show", GAME_ID],
            ["act", GAME_ID, "a1-b1"],
            ["log", GAME_ID, "--json"],
            ["export", GAME_ID],
            ["verify", GAME_ID],
        ):
            ms, mb = measure(db, command, args.runs)
            label = " ".join(command[:1] + command[2:])
            print(f"  {label:<14} {ms:8.0f} ms   peak {mb:6.0f} MB", flush=True)


if __name__ == "__main__":
    main()

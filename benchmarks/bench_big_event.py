"""Issue 32, goal 1: what a whole event command costs at 10,000 players against 64, in the
same round (not a timed test: prints a table).

For each size an event is built through the service in a fresh SQLite store (rounds 1 to
``--round`` - 1 paired and every result reported, then round ``--round`` paired), and then,
side by side, each command runs as a whole process (start-up included), ``--repeat`` times,
the best kept (wall and CPU, user + system; on a shared machine CPU is the steadier figure):

* ``referee event show EVENT``
* ``referee event standings EVENT --json``
* ``referee event result EVENT T=2-0-0``: one slip of the open round
* ``referee event result EVENT ...``: every other slip of the round in one call
* ``referee event pair EVENT --json``: the next round

The first command after building pays for keeping the event's snapshot
(``projections.event_state``); the figures are the commands after it, as at an event where
each command follows the last.

    python benchmarks/bench_big_event.py [--sizes 64,10000] [--round 4] [--repeat 3]
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from service.app import open_service

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_event_command import ROOT, SLIPS, command


def build(db: Path, players: int, rounds: int) -> tuple[str, list[str]]:
    """An event in round ``rounds`` with that round paired and unreported; its slips."""
    with open_service(db, create=True) as svc:
        event = svc.event_new("Bench", "gammasphere", rounds=rounds + 1).event_id
        svc.event_register(event, [f"Player {n:05}" for n in range(players)])
        for number in range(1, rounds + 1):
            rows = svc.event_pair(event)
            slips = [f"{r.table}={SLIPS[(r.table or 0) % 5]}" for r in rows if not r.bye]
            if number < rounds:
                svc.event_result(event, slips)
        svc.event_standings(event)  # the snapshot keeps the standings, as a prior read would
    return event, slips


def best(db: Path, repeat: int, *args: str) -> tuple[float, float]:
    runs = [command(db, *args) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="64,10000")
    parser.add_argument("--round", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    for package in ("cli", "service", "events", "referee", "web", "projections"):
        compileall.compile_dir(ROOT / package, quiet=1)
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {date.today()}, round {args.round}"
    )
    print(
        f"{'players':>8} {'show':>13} {'standings':>13} {'one result':>13} "
        f"{'all slips':>13} {'pair next':>13}   (wall/CPU seconds)"
    )
    for players in sizes:
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "store.db"
            start = time.perf_counter()
            event, slips = build(db, players, args.round)
            built = time.perf_counter() - start
            show = best(db, args.repeat, "event", "show", event)
            standings = best(db, args.repeat, "event", "standings", event, "--json")
            one = command(db, "event", "result", event, slips[0])
            every = command(db, "event", "result", event, *slips[1:])
            pair = command(db, "event", "pair", event, "--json")
        cells = [show, standings, one, every, pair]
        print(
            f"{players:>8} "
            + " ".join(f"{w:>6.2f}/{c:<6.2f}" for w, c in cells)
            + f"   (built in {built:.0f} s)"
        )


if __name__ == "__main__":
    main()

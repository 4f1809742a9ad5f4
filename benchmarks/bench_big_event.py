"""Issue 32, goal 1: what a whole event command costs at 10,000 players against 64, in the
same round, side by side (not a timed test: prints a table).

For each size an event is built through the service in a fresh SQLite store (rounds 1 to
``--round`` - 1 paired and every result reported, then round ``--round`` paired, the
standings read once), or taken from ``--keep DIR`` where an earlier run left it. Then, for
each of ``--repeat`` runs, a fresh copy of each store (store and read models) meets the
same commands, each as a whole process (start-up included), the sizes interleaved command
by command so a loaded machine weighs on both alike:

* ``referee event show EVENT``
* ``referee event standings EVENT --json``
* ``referee event result EVENT T=2-0-0``: one slip of the open round
* ``referee event result EVENT ...``: every other slip of the round in one call
* ``referee event pair EVENT --json``: the next round

The best of the runs is kept, wall and CPU (user + system; on a shared machine CPU is the
steadier figure), and the ratio of the largest size to the smallest, command by command.

    python benchmarks/bench_big_event.py [--sizes 64,10000] [--round 9] [--repeat 3]
        [--keep DIR]
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from service.app import open_service

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_event_command import ROOT, SLIPS, command

COMMANDS = ["show", "standings", "one result", "all slips", "pair next"]


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


def built(folder: Path, players: int, rounds: int) -> tuple[Path, str, list[str], float]:
    """The store of ``players`` in round ``rounds`` in ``folder``, built unless kept there."""
    db = folder / f"event-{players}-r{rounds}.db"
    named = db.with_suffix(".event")
    if db.exists() and named.exists():
        event, *slips = named.read_text().split("\n")
        return db, event, slips, 0.0
    start = time.perf_counter()
    event, slips = build(db, players, rounds)
    with open_service(db) as svc:  # checkpointed: the files alone are the store
        svc.event_info(event)
    named.write_text("\n".join([event, *slips]))
    return db, event, slips, time.perf_counter() - start


def fresh_copy(db: Path, folder: Path) -> Path:
    """A copy of the store and its read models (the kept snapshot) to spend, on disk: each
    file is flushed once copied, else the first command to write (one result, checkpointing
    the log as it closes) would wait for the whole copy to reach the disk (128 MB at 10,000
    players: ~40 ms of its wall time that no store in use costs)."""
    copy = folder / db.name
    for suffix in ("", "-wal", "-shm"):
        Path(str(copy) + suffix).unlink(missing_ok=True)
    copies = [copy]
    shutil.copyfile(db, copy)
    projections = db.with_name(db.stem + ".projections.db")
    if projections.exists():
        copies.append(copy.with_name(copy.stem + ".projections.db"))
        shutil.copyfile(projections, copies[-1])
    for path in copies:
        with open(path, "rb+") as file:
            os.fsync(file.fileno())
    return copy


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="64,10000")
    parser.add_argument("--round", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", default=None, help="Keep (and reuse) the built stores here.")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    for package in ("cli", "service", "events", "referee", "web", "projections"):
        compileall.compile_dir(ROOT / package, quiet=1)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {date.today()}, commit {commit}, "
        f"round {args.round}, load {os.getloadavg()[0]:.1f}"
    )
    with tempfile.TemporaryDirectory() as scratch:
        keep = Path(args.keep) if args.keep else Path(scratch) / "built"
        keep.mkdir(parents=True, exist_ok=True)
        stores = {}
        for players in sizes:
            db, event, slips, seconds = built(keep, players, args.round)
            # a kept store's snapshot may be another code's: the first read keeps a new one
            command(db, "event", "standings", event, "--json")
            stores[players] = (db, event, slips)
            print(f"{players} players: " + (f"built in {seconds:.0f} s" if seconds else "kept"))
        best: dict[tuple[int, str], tuple[float, float]] = {}
        for _ in range(args.repeat):
            copies = {}
            for players in sizes:
                run_dir = Path(scratch) / f"run-{players}"
                run_dir.mkdir(exist_ok=True)
                copies[players] = fresh_copy(stores[players][0], run_dir)
            for what in COMMANDS:
                for players in sizes:
                    db, (_, event, slips) = copies[players], stores[players]
                    argv = {
                        "show": ["event", "show", event],
                        "standings": ["event", "standings", event, "--json"],
                        "one result": ["event", "result", event, slips[0]],
                        "all slips": ["event", "result", event, *slips[1:]],
                        "pair next": ["event", "pair", event, "--json"],
                    }[what]
                    wall, cpu = command(db, *argv)
                    kept = best.get((players, what))
                    best[(players, what)] = (
                        (min(kept[0], wall), min(kept[1], cpu)) if kept else (wall, cpu)
                    )
    print(
        f"{'players':>8} "
        + " ".join(f"{what:>13}" for what in COMMANDS)
        + f"   (best of {args.repeat}, wall/CPU seconds)"
    )
    for players in sizes:
        cells = [best[(players, what)] for what in COMMANDS]
        print(f"{players:>8} " + " ".join(f"{w:>6.2f}/{c:<6.2f}" for w, c in cells))
    low, high = sizes[0], sizes[-1]
    print(
        f"{f'{high}/{low}':>8} "
        + " ".join(
            f"{best[(high, w)][0] / best[(low, w)][0]:>5.1f}x/"
            + f"{best[(high, w)][1] / best[(low, w)][1]:.1f}x".ljust(7)
            for w in COMMANDS
        )
        + f"   (load {os.getloadavg()[0]:.1f} at the end)"
    )


if __name__ == "__main__":
    main()

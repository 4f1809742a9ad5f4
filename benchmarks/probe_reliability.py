"""Reliability probes at larger counts than CI runs (figures in RELIABILITY.md).

    python benchmarks/probe_reliability.py [--kills 20] [--races 50] [--fuzz 5000]

1. kill -9 in the middle of imports, then the import run again: every game must be
   whole and byte for byte equal to its source, and ``verify`` clean;
2. kill -9 in the middle of a stream of entries: ``verify`` clean afterwards;
3. racing referees (threads of separate services) on one game: exactly one winner
   per entry, no entry stored twice, ``verify`` clean;
4. the fuzz suite (``tests/test_fuzz.py``) with many more examples.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# E402 on purpose: the project imports only once the lines above put it on sys.path
from events.store import GameStore  # noqa: E402
from service import RefereeService  # noqa: E402
from tests.races import race  # noqa: E402


def kills_during_import(count: int, work: Path) -> tuple[int, int]:
    source = RefereeService(GameStore(work / "source.db"))
    files = []
    for index in range(300):
        game = source.create_game("prizmik", {"red": "A", "blue": "B"}).game_id
        for move in ("e1>e2", "e8>e7", "c1>c2", "c8>c7")[: 1 + index % 4]:
            source.record(game, move)
        path = work / f"g{index:03d}.jsonl"
        path.write_text("".join(source.export([game], "jsonl")))
        files.append(str(path))
    bad = 0
    rng = random.Random(9)
    for attempt in range(count):
        target = work / f"target{attempt}.db"
        run = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "--db", str(target), "import", *files],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
        )
        time.sleep(rng.uniform(0.3, 1.6))
        run.send_signal(signal.SIGKILL)
        run.wait()
        done = subprocess.run(
            [sys.executable, "-m", "cli.main", "--db", str(target), "import", *files],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        stored = RefereeService(GameStore(target))
        whole = all(stored.store.rows(g) == source.store.rows(g) for g in source.store.game_ids())
        if done.returncode != 0 or not whole or stored.verify().bad:
            bad += 1
        stored.close()
    return count, bad


def kills_during_entries(count: int, work: Path) -> tuple[int, int]:
    script = (
        "import sys\nfrom service import open_service\nsvc = open_service(sys.argv[1])\n"
        "while True:\n    view = svc.load(sys.argv[2])\n    if view.ended is not None: break\n"
        "    svc.record(sys.argv[2], svc.legal(sys.argv[2]).actions[-1], view=view)\n"
    )
    bad = 0
    rng = random.Random(3)
    for attempt in range(count):
        db = work / f"entries{attempt}.db"
        svc = RefereeService(GameStore(db))
        game = svc.create_game("prizmik", {"red": "A", "blue": "B"}).game_id
        svc.close()
        run = subprocess.Popen(
            [sys.executable, "-c", script, str(db), game],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.3, 1.2))
        run.send_signal(signal.SIGKILL)
        run.wait()
        if RefereeService(GameStore(db)).verify().bad:
            bad += 1
    return count, bad


def races(rounds: int, work: Path) -> tuple[int, int, int]:
    db = work / "races.db"
    base = RefereeService(GameStore(db))
    game = base.create_game(
        "nim", {"first": "A", "second": "B"}, options={"heap": 10 * rounds}
    ).game_id
    wins, losses = race(lambda: RefereeService(GameStore(db)), game, rounds)
    view = base.load(game)
    bad = int(view.ply != wins or base.verify().bad != 0)
    return wins + losses, wins, bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--races", type=int, default=50)
    parser.add_argument("--fuzz", type=int, default=5000)
    args = parser.parse_args()
    from referee import games

    games.register("nim", "tests.games.nim:NimRules")
    work = Path(tempfile.mkdtemp(prefix="referee-probe-"))
    print(
        "kill -9 during import, then resume:",
        kills_during_import(args.kills, work),
        "(runs, bad)",
        flush=True,
    )
    print(
        "kill -9 during entries:", kills_during_entries(args.kills, work), "(runs, bad)", flush=True
    )
    print("racing referees:", races(args.races, work), "(attempts, stored, bad)", flush=True)
    env = {**os.environ, "REFEREE_FUZZ_EXAMPLES": str(args.fuzz)}
    fuzz = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "tests/test_fuzz.py", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    print(
        "fuzzing:",
        fuzz.stdout.strip().splitlines()[-1] if fuzz.stdout.strip() else fuzz.stderr[-300:],
    )


if __name__ == "__main__":
    main()

"""Instruction counts of the record path and of a whole ``referee act``: an A/B no noise can move.

    python benchmarks/bench_instructions.py [--against PATH] [--games 100]

``valgrind --tool=callgrind`` counts instructions, not seconds, so with a fixed
``PYTHONHASHSEED`` the same code gives the same count on every run, however
busy or slow the host. A store of PRIZMIK games of 200 standing actions is
built; one process records an entry in each of ``--games`` games, and a process
that records none is subtracted (imports, opening the store). ``--against``
names another checkout of the project (for example a ``git worktree`` of an
older commit) to count the same in it. Needs Debian's ``valgrind``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BUILD = """
import json, random, sys
from pathlib import Path
root = Path(sys.argv[1]); sys.path[:0] = [str(root), str(root / "benchmarks")]
from bench_store import synthesize
from events.schema import ActionRecorded
from events.store import GameStore
count, db, out = int(sys.argv[2]), sys.argv[3], sys.argv[4]
rng = random.Random(7)
streams = []
while len(streams) < count:
    stream = synthesize("prizmik", len(streams), rng, 200, avoid_end=True)
    if sum(isinstance(e, ActionRecorded) for e in stream) == 200:
        streams.append(stream)
store = GameStore(db)
store.insert_streams(streams)
entries = []
for stream in streams:
    view = store.load(stream[0].originator_id)
    action = rng.choice(list(view.rules.legal_actions(view.state)))
    entries.append([stream[0].originator_id, view.rules.notation(action)])
Path(out).write_text(json.dumps(entries))
"""

RECORD = """
import json, sys
from pathlib import Path
root = Path(sys.argv[1]); sys.path.insert(0, str(root))
from events.store import GameStore
count, db, entries = int(sys.argv[2]), sys.argv[3], json.loads(Path(sys.argv[4]).read_text())
store = GameStore(db)
try:
    from service import RefereeService
    target = RefereeService(store)
except ImportError:  # code from before the application layer
    target = store
target.load(entries[0][0])
for game_id, text in entries[1:count + 1]:
    assert target.record(game_id, text).accepted
"""


def instructions(command: list[str], cwd: Path) -> int:
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind gave no count: {done.stderr[-500:]}")
    return int(found.group(1))


def count_tree(tree: Path, games: int, work: Path) -> dict[str, float]:
    # Byte-compiled first: a module whose .pyc is missing or stale is compiled again in the
    # counted process (a working tree counted 736M for 'referee act' where a compiled one
    # counts 548M).
    subprocess.run(
        [
            sys.executable,
            "-m",
            "compileall",
            "-q",
            str(tree / "referee"),
            str(tree / "events"),
            str(tree / "projections"),
            str(tree / "cli"),
        ]
        + ([str(tree / "service")] if (tree / "service").is_dir() else []),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    db, entries = work / "store.db", work / "entries.json"
    subprocess.run(
        [sys.executable, "-c", BUILD, str(tree), str(games + 2), str(db), str(entries)], check=True
    )

    def fresh() -> str:
        copy = work / "run.db"
        for suffix in ("-wal", "-shm"):
            Path(str(copy) + suffix).unlink(missing_ok=True)
        shutil.copy(db, copy)
        return str(copy)

    script = [sys.executable, "-c", RECORD, str(tree)]
    none = instructions([*script, "0", fresh(), str(entries)], tree)
    some = instructions([*script, str(games), fresh(), str(entries)], tree)
    game = json.loads(entries.read_text())[-1][0]
    act = instructions(
        [sys.executable, "-m", "cli.main", "--db", fresh(), "act", game, "a1-b1"], tree
    )
    return {"record_M": (some - none) / games / 1e6, "act_M": act / 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--against", type=Path, default=None, help="Another checkout to count too.")
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("needs valgrind (apt-get install valgrind)")
    trees = [("this code", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    for label, tree in trees:
        with tempfile.TemporaryDirectory(prefix="referee-count-") as folder:
            counts = count_tree(tree, args.games, Path(folder))
        print(
            f"{label:<10} record one action on a 200-action game: {counts['record_M']:.2f}M "
            f"instructions; a whole 'referee act': {counts['act_M']:.0f}M",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""``referee act`` on PostgreSQL against the same on SQLite, side by side, for this tree
and (``--against DIR``) another checkout: issue 23 section 3's goal is PostgreSQL <= 1.3x.

    python benchmarks/bench_pg_act.py [--runs 15] [--instructions] [--against DIR] [--actions N]

Each run is one whole process recording the same rejected PRIZMIK entry (``e1>e8``: the
game is loaded, the attempt appended as evidence) in its own game; the commands take
turns (A B C D, fifteen times) so a busy host slows them alike. With ``--actions N`` each game
is instead a random PRIZMIK game of N standing actions (built with ``bench_store``) and
the entry is a legal move entered by the seat not to act (rejected, REF-1.2, kept as
evidence): a long game's load. Printed: median wall
and CPU time (user + sys) of each command's process, and with ``--instructions`` each
command's instruction count under ``valgrind --tool=callgrind`` (``PYTHONHASHSEED=0``).
Every tree is byte-compiled first, as an installed command is.

Needs a PostgreSQL server (``REFEREE_BENCH_PG``, default
``postgresql://postgres@127.0.0.1:5432/test``); a fresh schema is made and dropped.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import byte_compiled, new_schema, referee_out

ROOT = Path(__file__).resolve().parent.parent
ENTRY = "e1>e8"  # red's full fleet may not fly that far: rejected, kept as evidence
PG = os.environ.get("REFEREE_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")


def referee(tree: Path, *args: str) -> str:
    return referee_out(*args, cwd=tree)


def new_game(tree: Path, store: str) -> str:
    return referee(tree, "--db", store, "new", "prizmik", "--player", "red=A", "--player", "blue=B")


LONG = """
import json, random, sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/benchmarks"]
from bench_store import synthesize
from events.schema import ActionRecorded
from events.store import GameStore
from _common import new_schema, referee_out  # noqa: E402
store, actions, index = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(index)
while True:
    stream = synthesize("prizmik", 900000 + index, rng, actions, avoid_end=True)
    if sum(isinstance(e, ActionRecorded) for e in stream) == actions:
        break
games = GameStore(store)
games.insert_streams([stream])
view = games.load(stream[0].originator_id)
mover = view.rules.to_move(view.state)
other = next(s for s in view.rules.seats if s != mover)
entry = view.rules.notation(sorted(view.rules.legal_actions(view.state), key=str)[0])
print(json.dumps([stream[0].originator_id, entry, other]))
games.close()
"""


def long_game(store: str, actions: int, index: int) -> tuple[str, str, str]:
    """A stored random PRIZMIK game of ``actions`` actions: its id, a legal entry, and the
    seat not to act (who enters it)."""
    done = subprocess.run(
        [sys.executable, "-c", LONG, str(ROOT), store, str(actions), str(index)],
        capture_output=True,
        text=True,
        check=True,
    )
    game, entry, seat = json.loads(done.stdout)
    return str(game), str(entry), str(seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--instructions", action="store_true", help="Count with callgrind too.")
    parser.add_argument("--against", type=Path, help="Another checkout (main, say).")
    parser.add_argument("--actions", type=int, default=0, help="Games of N actions.")
    args = parser.parse_args()

    import psycopg

    trees = {"this": ROOT}
    if args.against is not None:
        trees["against"] = args.against.resolve()
    byte_compiled(list(trees.values()))
    dsn = PG.split("?")[0]
    schema = new_schema(dsn, "bench_pgact")
    pg = f"{dsn}?schema={schema}"
    work = Path(tempfile.mkdtemp(prefix="bench-pgact-"))
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "PG"))}
    try:
        commands: dict[str, tuple[list[str], dict[str, str], Path]] = {}
        for label, tree in trees.items():
            sqlite = str(work / f"{label}.db")
            for kind, store in (("sqlite", sqlite), ("postgres", pg)):
                if args.actions:
                    game, entry, seat = long_game(store, args.actions, len(commands))
                    act = ["act", game, entry, "--by", seat]
                else:
                    act = ["act", new_game(tree, store), ENTRY]
                command = [sys.executable, "-m", "cli.main", "--db", store, *act]
                commands[f"{label} {kind}"] = (command, clean, tree)
        for command, env, tree in commands.values():  # warm the caches
            timed_in(tree, command, env)
        walls: dict[str, list[float]] = {k: [] for k in commands}
        cpus: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(args.runs):
            for name, (command, env, tree) in commands.items():
                wall, cpu = timed_in(tree, command, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
        print(f"{args.runs} runs each, interleaved; load average {os.getloadavg()[0]:.1f}")
        for name in commands:
            label = name.split()[0]
            base = statistics.median(walls[f"{label} sqlite"])
            base_cpu = statistics.median(cpus[f"{label} sqlite"])
            wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
            print(
                f"{name:16} wall {wall * 1000:6.0f} ms ({wall / base:.2f}x sqlite)  "
                f"cpu {cpu * 1000:6.0f} ms ({cpu / base_cpu:.2f}x)"
            )
        if args.instructions:
            counts = {name: instructions_in(t, c, e) for name, (c, e, t) in commands.items()}
            for name, count in counts.items():
                base_count = counts[f"{name.split()[0]} sqlite"]
                print(
                    f"{name:16} {count / 1e6:8.1f}M instructions ({count / base_count:.3f}x sqlite)"
                )
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def timed_in(tree: Path, command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run in ``tree`` (``python -m`` runs the tree's modules);
    the entry must be rejected with its clause, as ``bench_remote_act`` checks."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 1 or not ("PZ-" in done.stderr or "REF-1.2" in done.stderr):
        raise RuntimeError(f"{command}: {done.returncode} {done.stdout} {done.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions_in(tree: Path, command: list[str], env: dict[str, str]) -> int:
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=tree,
        capture_output=True,
        text=True,
        env={**env, "PYTHONHASHSEED": "0"},
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind gave no count: {done.stderr[-500:]}")
    return int(found.group(1))


if __name__ == "__main__":
    main()

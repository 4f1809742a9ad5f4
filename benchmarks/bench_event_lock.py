"""Two server processes writing one event on PostgreSQL: CPU per write, with the event's
write lock (``GameStore.stream_lock``) and without it (``--no-lock``: the writes race and
a lost race is judged again, ``Tournaments._raced``).

    python benchmarks/bench_event_lock.py [--players 400] [--no-lock] [--against DIR]

An event of ``--players`` players is made on a fresh schema and round 1 paired; two
processes, each a long-running service (``CachedService``, as ``serve --workers 2`` runs
one per process), then report every table's slip at once, each its half, interleaved
in time. Printed: the CPU (``time.process_time``) both processes spent in their writes
per write, the writes refused, and whether every table's result is stored once.
Each process folds the other's facts into its copy of the event before deciding: that
part is the same with and without the lock; the lock's own cost is its round trips.

Needs a PostgreSQL server (``REFEREE_BENCH_PG``, default
``postgresql://postgres@127.0.0.1:5432/test``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from _common import new_schema

ROOT = Path(__file__).resolve().parent.parent
PG = os.environ.get("REFEREE_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")

BUILD = """
import json, sys
sys.path[:0] = [sys.argv[1]]
from events.store import GameStore
from service.app import RefereeService
with RefereeService(GameStore(sys.argv[2])) as svc:
    event = svc.event_new("Lock", "gammasphere", rounds=3).event_id
    svc.event_register(event, [f"Player {n:04}" for n in range(int(sys.argv[3]))])
    svc.event_pair(event)
    tables = [p.table for p in svc.event_state(event).rounds[1].pairings if not p.bye]
print(json.dumps([event, tables]))
"""

WRITE = """
import json, sys, time, contextlib
sys.path[:0] = [sys.argv[1]]
from events.store import GameStore
from service.cached import CachedService
store, event, lock = sys.argv[2], sys.argv[3], sys.argv[6]
tables, go = json.loads(sys.argv[4]), float(sys.argv[5])
if lock == "off":
    from events.backends import postgres
    postgres.PostgresBackend.stream_lock = lambda self, stream: contextlib.nullcontext()
svc = CachedService(GameStore(store))
svc.event_info(event)  # loaded and cached before the clock starts
while time.time() < go:
    time.sleep(0.001)
refused, cpu = 0, 0.0
for table in tables:
    start = time.process_time()
    try:
        svc.event_result(event, [f"{table}=2-0-0"])
    except Exception as exc:
        refused += 1
        print(type(exc).__name__, exc, file=sys.stderr)
    cpu += time.process_time() - start
svc.close()
print(json.dumps([cpu, refused]))
"""

CHECK = """
import json, sys
sys.path[:0] = [sys.argv[1]]
from events.store import GameStore
from service.app import RefereeService
with RefereeService(GameStore(sys.argv[2])) as svc:
    state = svc.event_state(sys.argv[3])
    tables = json.loads(sys.argv[4])
    print(sum(state.result(1, t) is not None for t in tables), svc.event_version(sys.argv[3]))
"""


def run(tree: Path, players: int, lock: str) -> str:
    import time

    import psycopg

    dsn = PG.split("?")[0]
    schema = new_schema(dsn, "bench_evlock")
    store = f"{dsn}?schema={schema}"
    py = [sys.executable, "-c"]
    try:
        built = subprocess.run(
            [*py, BUILD, str(tree), store, str(players)],
            capture_output=True,
            text=True,
            check=True,
            cwd=tree,
        )
        event, tables = json.loads(built.stdout)
        go = time.time() + 8  # both started and loaded by then
        halves = [tables[0::2], tables[1::2]]
        workers = [
            subprocess.Popen(
                [*py, WRITE, str(tree), store, event, json.dumps(h), str(go), lock],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=tree,
            )
            for h in halves
        ]
        outs = [w.communicate() for w in workers]
        cpu = refused = 0.0
        for out, err in outs:
            if not out.strip():
                raise RuntimeError(err[-2000:])
            one_cpu, one_refused = json.loads(out.strip().splitlines()[-1])
            cpu += one_cpu
            refused += one_refused
        checked = subprocess.run(
            [*py, CHECK, str(tree), store, event, json.dumps(tables)],
            capture_output=True,
            text=True,
            check=True,
            cwd=tree,
        )
        stored, version = checked.stdout.split()
        return (
            f"lock {lock:3}: {len(tables)} writes, {cpu / len(tables) * 1000:.2f} ms CPU per write "
            f"(both processes), {int(refused)} refused, {stored} of {len(tables)} results "
            f"stored, event version {version}"
        )
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--no-lock", action="store_true", help="Also without the lock.")
    parser.add_argument("--against", type=Path, help="Another checkout to measure as well.")
    args = parser.parse_args()
    trees = {"this": ROOT}
    if args.against is not None:
        trees["against"] = args.against.resolve()
    for _ in range(args.runs):
        for label, tree in trees.items():
            for lock in ("on", "off") if args.no_lock else ("on",):
                print(f"{label:8} {run(tree, args.players, lock)}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

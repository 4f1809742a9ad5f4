"""The single writer of a PostgreSQL store: how many appends a second its table lock lets
through, and what a follower's poll of the log costs (docs/scaling.md).

    python benchmarks/bench_pg_writer.py [--url postgresql://postgres@127.0.0.1:5432/test]
        [--writers 1,2,4,8] [--seconds 5]

Every append takes the events table's EXCLUSIVE lock (so notification ids follow commit
order), so all appends of a store are serialized, whichever process or host makes them.
Each writer here is a process of its own with one connection, appending ``--batch``
events at a time (1: an entry; more: a group commit of many tables' entries) to a stream
of its own through the store's append function (``referee_append_rows``,
one statement and its commit), as a server's threads do after the rules judged an
entry: what is measured is the database's side alone, the ceiling no number of
``serve`` processes can pass. A fresh schema is made and dropped.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
import uuid
from typing import Any

from events.store import GameStore

STATE = b'{"note": "' + b"x" * 400 + b'"}'  # about an entry's size (docs/scaling.md: ~480 B)


def _writer(
    env: dict[str, str], name: str, seconds: float, batch: int, start: Any, out: Any
) -> None:
    import psycopg

    schema = env["POSTGRES_SCHEMA"]
    dsn = (
        f"host={env['POSTGRES_HOST']} port={env['POSTGRES_PORT']} "
        f"dbname={env['POSTGRES_DBNAME']} user={env['POSTGRES_USER']}"
    )
    call = (
        f'SELECT * FROM "{schema}".referee_append_rows(%s::text[], %s::bigint[], %s::text[], '
        "%s::bytea[], '10s')"
    )
    latencies: list[float] = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        start.wait()
        deadline = time.perf_counter() + seconds
        version = 0
        while time.perf_counter() < deadline:
            numbers = list(range(version + 1, version + batch + 1))
            version += batch
            rows = ([name] * batch, numbers, ["bench.Note.v1"] * batch, [STATE] * batch)
            t0 = time.perf_counter()
            conn.execute(call, rows, prepare=True)
            latencies.append(time.perf_counter() - t0)
    out.put(latencies)


def measure(env: dict[str, str], writers: int, seconds: float, batch: int) -> dict[str, float]:
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Barrier(writers)
    out = ctx.Queue()
    procs = [
        ctx.Process(
            target=_writer, args=(env, f"w{writers}-{batch}-{i}", seconds, batch, start, out)
        )
        for i in range(writers)
    ]
    for p in procs:
        p.start()
    latencies: list[float] = []
    for _ in procs:
        latencies.extend(out.get())
    for p in procs:
        p.join()
    latencies.sort()
    return {
        "writers": writers,
        "events_per_append": batch,
        "appends_per_s": round(len(latencies) / seconds),
        "events_per_s": round(len(latencies) * batch / seconds),
        "p50_ms": round(statistics.median(latencies) * 1e3, 2),
        "p99_ms": round(latencies[int(len(latencies) * 0.99)] * 1e3, 2),
    }


def poll_cost(store: GameStore, runs: int = 2000) -> float:
    """Milliseconds of one follower's poll that finds nothing new (a server's hub asks
    this every 0.25 s of each process)."""
    last = store.last_position()
    t0 = time.perf_counter()
    for _ in range(runs):
        store.notifications(last, 1000)
    return (time.perf_counter() - t0) / runs * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--writers", default="1,2,4,8")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument(
        "--batch", default="1,20", help="events per append (group commit: many tables' entries)"
    )
    args = parser.parse_args()
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        store = GameStore(f"{args.url}?schema={schema}")
        store.ensure_tables()
        env = {k: v for k, v in store.app.env.items() if k.startswith("POSTGRES_")}
        results: list[dict[str, float]] = [
            measure(env, int(n), args.seconds, int(b))
            for b in args.batch.split(",")
            for n in args.writers.split(",")
        ]
        results.append({"poll_nothing_new_ms": round(poll_cost(store), 3)})
        store.close()
    finally:
        with psycopg.connect(args.url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()

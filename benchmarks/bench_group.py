"""The server's write path in one process, without HTTP: entries one commit each (the
path before issue 23) against the group commit (``service.writer.GroupWriter``).

    python benchmarks/bench_group.py                    # SQLite
    python benchmarks/bench_group.py --store postgres   # the machine's PostgreSQL

``--tables`` PRIZMIK games each take ``--rounds`` legal entries, a round at a time (every
table's next entry arrives together, as under load). ``single`` records each entry as
the HTTP handler used to (a cached load, ``record``, one transaction); ``group`` queues
a round's entries on the writer and waits for their answers. Reported: wall time and
the process's CPU time per entry, and entries per commit. CPU time moves less than wall
time on a shared machine; the commit's wait on the disk shows in wall time only.
A script, never a timed test.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from bench_http import PG, random_games  # noqa: E402


def run(mode: str, store: dict[str, Any], tables: int, rounds: int) -> dict[str, float]:
    from events.store import GameStore
    from service.cached import CachedService
    from service.writer import GroupWriter

    played = random_games(tables, 5, rounds + 1)
    svc = CachedService(GameStore(**store))
    games = [svc.create_game("prizmik", {"red": "a", "blue": "b"}).game_id for _ in played]
    for game in games:
        svc.load(game)
    writer = GroupWriter(svc) if mode == "group" else None
    count = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for k in range(rounds):
        due = [(g, moves[k]) for g, moves in zip(games, played, strict=True) if k < len(moves)]
        if writer is None:
            for game, move in due:
                svc.record(game, move, view=svc.load(game))
        else:
            for future in [writer.entry(game, move) for game, move in due]:
                future.result()
        count += len(due)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    commits = writer.commits if writer is not None else count
    if writer is not None:
        writer.close()
    svc.close()
    return {
        "wall_us": 1e6 * wall / count,
        "cpu_us": 1e6 * cpu / count,
        "per_commit": count / max(1, commits),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    for mode in ("single", "group"):
        with tempfile.TemporaryDirectory(prefix="bench-group-") as folder:
            if args.store == "sqlite":
                store: dict[str, Any] = {"db": os.path.join(folder, "s.db")}
                schema = None
            else:
                import psycopg

                schema = f"group_{uuid.uuid4().hex[:10]}"
                dsn = " ".join(f"{k}={v}" for k, v in PG.items())
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f"CREATE SCHEMA {schema}")
                store = {
                    "env": {
                        "PERSISTENCE_MODULE": "eventsourcing.postgres",
                        "POSTGRES_DBNAME": PG["dbname"],
                        "POSTGRES_HOST": PG["host"],
                        "POSTGRES_PORT": PG["port"],
                        "POSTGRES_USER": PG["user"],
                        "POSTGRES_PASSWORD": "",
                        "POSTGRES_SCHEMA": schema,
                        "CREATE_TABLE": "yes",
                    }
                }
            try:
                r = run(mode, store, args.tables, args.rounds)
            finally:
                if schema is not None:
                    with psycopg.connect(dsn, autocommit=True) as conn:
                        conn.execute(f"DROP SCHEMA {schema} CASCADE")
        print(
            f"{args.store:>8} {mode:>6}: {r['wall_us']:7.0f} us wall, {r['cpu_us']:5.0f} us CPU "
            f"per entry, {r['per_commit']:.1f} entries per commit",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""Scale: does a one-game command cost the same in a store of 100,000 games as in one of 1,000?

    python benchmarks/bench_scale.py [--small 1000] [--large 100000] [--pg-large 20000] [--runs 7]

Stores are built from 40-ply PRIZMIK games (a pool of random legal games, each
sealed again under many ids and players), inserted in bulk. In each store every
one-game command is timed as a whole process (median of ``--runs`` after a
warm-up), and ``games --limit 20`` and ``scoreboard`` after one new result; the
figures for the large store are divided by those for the small one. Also: the
scoreboard's own work for one new result (in-process), a full catch-up of the
large store, and on PostgreSQL (the machine's server) the same commands, ``act``
against SQLite, an import's rate against SQLite's, concurrent first starts on a
fresh schema and repeated imports of 2,000 games (any hang is counted). Figures
go to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# E402 on purpose: the project imports only once the lines above put it on sys.path
from events.interchange import export_jsonl  # noqa: E402
from events.store import GameStore  # noqa: E402
from service import RefereeService  # noqa: E402
from tests.sealed_games import Line, pool_of_lines, random_game_id, sealed_game  # noqa: E402

NAMES = [f"Player{i:03d}" for i in range(400)]
START = datetime(2026, 1, 1, tzinfo=UTC)


def game_rows(
    index: int, line: Line, rng: random.Random, finished: bool
) -> tuple[str, list[tuple[int, str, bytes]]]:
    game_id = random_game_id(rng)
    names = rng.sample(NAMES, 2)
    winner = rng.choice(["red", "blue"]) if finished else None
    when = START + timedelta(minutes=index)
    return game_id, sealed_game(game_id, when, names, line, "bench", winner)


def build(
    store: GameStore, count: int, lines: list[list[tuple[str, str, bytes]]], seed: int
) -> list[str]:
    rng = random.Random(seed)
    ids: list[str] = []
    batch: list[tuple[str, list[tuple[int, str, bytes]]]] = []
    for index in range(count):
        game_id, rows = game_rows(index, lines[index % len(lines)], rng, finished=index % 3 != 0)
        ids.append(game_id)
        batch.append((game_id, rows))
        if len(batch) >= 2000:
            store.insert_rows(batch)
            batch = []
    if batch:
        store.insert_rows(batch)
    store.refresh_statistics()  # as an import of this size does
    return ids


def timed(db: str, args: list[str], runs: int, env: dict[str, str] | None = None) -> float:
    """Median wall time (ms) of ``referee --db DB ARGS`` as a whole process."""
    command = [sys.executable, "-m", "cli.main", "--db", db, *args]
    times = []
    for attempt in range(runs + 1):
        t0 = time.perf_counter()
        done = subprocess.run(
            command, capture_output=True, text=True, cwd=ROOT, env={**os.environ, **(env or {})}
        )
        elapsed = time.perf_counter() - t0
        if done.returncode not in (0, 1):
            raise RuntimeError(f"{' '.join(args)}: {done.stderr[-300:]}")
        if attempt:
            times.append(elapsed)
    return statistics.median(times) * 1e3


def commands(db: str, ids: list[str], runs: int) -> dict[str, float]:
    game = ids[len(ids) // 2]
    open_game = ids[(len(ids) // 2) // 3 * 3]  # every third game is still open
    out = {
        "show FULLID": timed(db, ["show", game], runs),
        "show SUFFIX": timed(db, ["show", game[-6:]], runs),
        "act (rejected entry)": timed(db, ["act", game, "a1-b1"], runs),
        "legal": timed(db, ["legal", open_game], runs),
        "log": timed(db, ["log", game], runs),
        "verify GAME": timed(db, ["verify", game], runs),
        "export GAME": timed(db, ["export", game], runs),
        "games --limit 20": timed(db, ["games", "--limit", "20"], runs),
    }
    svc = RefereeService(GameStore(db))
    svc.scoreboard()  # caught up before the one new result
    times = []
    work = []
    for attempt in range(runs + 1):
        fresh = svc.create_game(
            "prizmik", {"red": "Newcomer", "blue": f"Player{attempt:03d}"}
        ).game_id
        svc.end(fresh, "resignation", who="blue")
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "cli.main", "--db", db, "scoreboard", "-g", "prizmik", "--json"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if attempt:
            times.append(time.perf_counter() - t0)
        assert done.returncode == 0, done.stderr
        fresh = svc.create_game(
            "prizmik", {"red": "Newcomer", "blue": f"Player{attempt:03d}"}
        ).game_id
        svc.end(fresh, "resignation", who="red")
        t0 = time.perf_counter()
        svc.projector.catch_up()
        if attempt:
            work.append(time.perf_counter() - t0)
    svc.close()
    out["scoreboard after one new result"] = statistics.median(times) * 1e3
    out["scoreboard's own work for one new result"] = statistics.median(work) * 1e3
    return out


def report(
    label: str, small: dict[str, float], large: dict[str, float], sizes: tuple[int, int]
) -> None:
    print(
        f"\n{label}: {sizes[0]:,} games vs {sizes[1]:,} games (median ms, whole process unless "
        "noted)"
    )
    for key, before in small.items():
        print(f"  {key:<44} {before:>8.1f} {large[key]:>9.1f}   x{large[key] / before:.2f}")


SCHEMAS: list[str] = []


def pg_url() -> str:
    """A fresh schema on the machine's server (dropped when the benchmark ends)."""
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    import psycopg

    with psycopg.connect("host=127.0.0.1 dbname=test user=postgres", autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    SCHEMAS.append(schema)
    return f"postgresql://postgres@127.0.0.1:5432/test?schema={schema}"


def drop_schemas() -> None:
    if not SCHEMAS:
        return
    import psycopg

    with psycopg.connect("host=127.0.0.1 dbname=test user=postgres", autocommit=True) as conn:
        for schema in SCHEMAS:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def first_starts(count: int) -> int:
    """Start ``count`` processes at once on a fresh PostgreSQL schema; how many failed."""
    url = pg_url()
    command = [sys.executable, "-m", "cli.main", "--db", url, "games", "--json"]
    running = [
        subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(count)
    ]
    failed = 0
    for process in running:
        try:
            _, err = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            failed += 1
            continue
        if process.returncode != 0:
            failed += 1
            print(f"  a first start failed: {err.decode()[-300:]}", flush=True)
    return failed


def repeated_imports(files: list[str], times: int, limit: float) -> tuple[int, list[float]]:
    """Import the same files ``times`` times, each into a fresh PostgreSQL schema;
    (hangs, seconds)."""
    hangs = 0
    seconds = []
    for _ in range(times):
        t0 = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, "-m", "cli.main", "--db", pg_url(), "import", *files],
                capture_output=True,
                text=True,
                cwd=ROOT,
                timeout=limit,
            )
        except subprocess.TimeoutExpired:
            hangs += 1
            continue
        assert done.returncode == 0, done.stderr[-500:]
        seconds.append(time.perf_counter() - t0)
    return hangs, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--pg-small", type=int, default=1000)
    parser.add_argument("--pg-large", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument(
        "--first-starts", type=int, default=24, help="Concurrent first starts on PostgreSQL."
    )
    parser.add_argument(
        "--imports", type=int, default=10, help="Repeated PostgreSQL imports of 2,000 games."
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="referee-scale-"))
    rng = random.Random(40)
    lines = pool_of_lines(200, 40, rng)
    try:
        results: dict[str, dict[str, float]] = {}
        for size in (args.small, args.large):
            db = str(work / f"store{size}.db")
            t0 = time.perf_counter()
            ids = build(GameStore(db), size, lines, seed=size)
            print(f"built {size:,} games in {time.perf_counter() - t0:.0f} s", flush=True)
            results[f"sqlite{size}"] = commands(db, ids, args.runs)
            if size == args.large:
                store = GameStore(db)
                events = store.recorder.max_notification_id() or 0
                projection = work / "full.projections.db"
                from projections.projector import Projector

                t0 = time.perf_counter()
                Projector(store, projection).catch_up()
                print(
                    f"full catch-up: {events:,} events at "
                    f"{events / (time.perf_counter() - t0):,.0f} events/s",
                    flush=True,
                )
        report(
            "SQLite",
            results[f"sqlite{args.small}"],
            results[f"sqlite{args.large}"],
            (args.small, args.large),
        )
        if args.skip_postgres:
            return
        for size in (args.pg_small, args.pg_large):
            url = pg_url()
            t0 = time.perf_counter()
            ids = build(GameStore(url), size, lines, seed=size)
            print(
                f"built {size:,} games on PostgreSQL in {time.perf_counter() - t0:.0f} s",
                flush=True,
            )
            results[f"pg{size}"] = commands(url, ids, args.runs)
        report(
            "PostgreSQL",
            results[f"pg{args.pg_small}"],
            results[f"pg{args.pg_large}"],
            (args.pg_small, args.pg_large),
        )
        sqlite_act = results[f"sqlite{args.small}"]["act (rejected entry)"]
        pg_act = results[f"pg{args.pg_small}"]["act (rejected entry)"]
        print(
            f"\nact on PostgreSQL vs SQLite (small stores): {pg_act:.1f} / {sqlite_act:.1f} ms = "
            f"x{pg_act / sqlite_act:.2f}"
        )
        folder = work / "import"
        folder.mkdir()
        source = GameStore(str(work / f"store{args.large}.db"))
        for game_id in source.game_ids()[:2000]:
            rows = source.rows(game_id)
            (folder / f"{game_id}.jsonl").write_text(
                "".join(export_jsonl(game_id, "prizmik", rows))
            )
        files = sorted(str(p) for p in folder.glob("*.jsonl"))
        events = sum(len(source.rows(Path(f).stem)) for f in files)
        rates = {}
        for label, target in (("sqlite", str(work / "import.db")), ("postgres", pg_url())):
            t0 = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "cli.main", "--db", target, "import", *files],
                capture_output=True,
                text=True,
                cwd=ROOT,
                timeout=600,
            )
            assert done.returncode == 0, done.stderr[-500:]
            rates[label] = events / (time.perf_counter() - t0)
        print(
            f"import of {len(files):,} games ({events:,} events), whole process: SQLite "
            f"{rates['sqlite']:,.0f}/s, PostgreSQL {rates['postgres']:,.0f}/s = "
            f"x{rates['postgres'] / rates['sqlite']:.2f}"
        )
        failed = first_starts(args.first_starts)
        print(
            f"{args.first_starts} concurrent first starts on a fresh PostgreSQL schema: {failed} "
            "failed",
            flush=True,
        )
        hangs, seconds = repeated_imports(files, args.imports, limit=120.0)
        print(
            f"{args.imports} imports of {len(files):,} games into fresh PostgreSQL schemas: "
            f"{hangs} hung (over 120 s); each took "
            f"{min(seconds, default=0):.1f}-{max(seconds, default=0):.1f} s",
            flush=True,
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
        drop_schemas()


if __name__ == "__main__":
    main()

"""The peak of a big event's writes (issue 23 section 1): an open-loop load of legal PRIZMIK
entries across many tables, live followers, and bursts of games ending within one second.

    python benchmarks/bench_peak.py                       # SQLite, one server process
    python benchmarks/bench_peak.py --store postgres      # PostgreSQL, --processes servers
    python benchmarks/bench_peak.py --store both --rate 1000 --tables 100 --seconds 20

Each of ``--tables`` referees records the entries of random PRIZMIK games (played in
advance by the rules, so every entry is legal) on a fixed schedule, ``--rate`` entries a
second across all tables, whatever the server answers (an open loop: latency counts from
when the entry was due). A game that runs out of entries is ended by agreement and the
next started. Twice in the measured window (``--bursts``), ``--burst-size`` tables resign
their game within one second and start a new one: every write of the burst (the end and
the new game) counts from when it was due. Followers: ``--followers`` game streams
(``/api/games/ID/events``) and as many on ``/api/live``.

Reported, per store: entries per second (those due in the measured window, and those
answered in it: a server that falls behind answers old entries late); p50 and p99 of
every write (entries, ends, new games) and of entries alone, from when due; the burst
writes' p99; errors; events a game follower missed (the store's events of its game it
never received); live followers that did not catch up with the log; the bare
``GET /api/health`` rate driven by the same client in the same run (the client's own
ceiling); and how late the client's own event loop ran. Afterwards every game is read
back (nothing lost, nothing twice) and ``verify`` runs.
A script, never a timed test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_http import (  # noqa: E402 - the sibling's client, servers and checks
    Connection,
    Seated,
    bare,
    bench_store,
    drop_schema,
    intact,
    make_tokens,
    pct,
    random_games,
    run_stores,
    seated,
    start_server,
    stop,
    stores_parser,
    stream_lines,
    verify_store,
)


@dataclass
class Table(Seated):
    resign_at: list[float] = field(default_factory=list)
    entries: list[float] = field(default_factory=list)  # latency from when due
    answered: list[float] = field(default_factory=list)  # when each entry's answer came
    writes: list[float] = field(default_factory=list)  # ends and new games
    burst: list[float] = field(default_factory=list)  # the bursts' ends and new games


async def referee(
    table: Table, start: float, stop_at: float, measure_from: float, interval: float
) -> None:
    conn = Connection("127.0.0.1", table.port)
    auth = {"Authorization": f"Bearer {table.token}"}
    due = start + random.random() * interval
    index = 0

    async def timed(
        method: str,
        path: str,
        body: dict[str, Any],
        since: float,
        extra: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes, float]:
        status, found, data = await conn.request(
            method, path, json.dumps(body).encode(), {**auth, **(extra or {})}
        )
        return status, found, data, time.monotonic() - since

    burst_since: float | None = None  # a resignation's due time: its new game is the burst's
    try:
        while time.monotonic() < stop_at:
            moves = table.games[index % len(table.games)]
            index += 1
            sent = time.monotonic() if burst_since is None else burst_since
            status, _, data, took = await timed(
                "POST",
                "/api/games",
                {
                    "game": "prizmik",
                    "players": {"red": f"Red{table.number}", "blue": f"Blue{table.number}"},
                    "meta": {"table": str(table.number)},
                },
                sent,
            )
            if status != 201:
                table.errors.append(f"create: {status} {data[:200]!r}")
                return
            if sent >= measure_from:
                table.writes.append(took)
            if burst_since is not None:
                table.burst.append(took)
                burst_since = None
            game = json.loads(data)["game_id"]
            table.recorded[game] = []
            version, ended, resigned = 1, False, False
            for move in moves:
                if table.resign_at and table.resign_at[0] <= due:
                    when = table.resign_at.pop(0)
                    wait = when - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    status, _, data, took = await timed(
                        "POST", f"/api/games/{game}/end", {"how": "resignation", "who": "red"}, when
                    )
                    if status != 201:
                        table.errors.append(f"resign {game}: {status} {data[:200]!r}")
                    table.writes.append(took)
                    table.burst.append(took)
                    resigned, burst_since = True, when
                    break
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                if time.monotonic() >= stop_at:
                    return
                started = due
                due += interval
                status, found, data, took = await timed(
                    "POST",
                    f"/api/games/{game}/entries",
                    {"text": move},
                    started,
                    {"If-Match": f'"{version}"'},
                )
                if status != 201:
                    table.errors.append(f"{game} {move}: {status} {data[:200]!r}")
                    return
                table.recorded[game].append(move)
                table.answered.append(time.monotonic())
                if started >= measure_from:
                    table.entries.append(took)
                version = int(found["etag"].strip('"'))
                ended = b'"ended":null' not in data
            if resigned:
                continue  # the new game, measured from the resignation's due time
            if not ended:
                sent = time.monotonic()
                status, _, data, took = await timed(
                    "POST",
                    f"/api/games/{game}/end",
                    {"how": "agreement", "reason": "benchmark"},
                    sent,
                )
                if status != 201:
                    table.errors.append(f"end {game}: {status} {data[:200]!r}")
                if sent >= measure_from:
                    table.writes.append(took)
    finally:
        conn.close()


async def follow(port: int, token: str, path: str, stop_at: float, seen: list[int]) -> None:
    """Read an event stream until ``stop_at``, keeping each event's id."""
    async for line in stream_lines(port, token, path, stop_at):
        if line.startswith(b"id:"):
            with contextlib.suppress(ValueError):
                seen.append(int(line[3:].strip()))


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user + system) the processes ``pids`` have used so far (Linux)."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def drive(
    tables: list[Table], args: argparse.Namespace, public: str, ports: list[int], pids: list[int]
) -> dict[str, Any]:
    begin = time.monotonic()
    measure_from = begin + args.warmup
    stop_at = measure_from + args.seconds
    interval = len(tables) / args.rate
    for b in range(args.bursts):  # bursts spread over the measured window
        at = measure_from + args.seconds * (b + 1) / (args.bursts + 1)
        for table in random.Random(b).sample(tables, min(args.burst_size, len(tables))):
            table.resign_at.append(at + random.random())
    for table in tables:
        table.resign_at.sort()
    lags: list[float] = []

    async def watch() -> None:
        while time.monotonic() < stop_at:
            before = time.monotonic()
            await asyncio.sleep(0.005)
            lags.append(time.monotonic() - before - 0.005)

    cpu: list[float] = []

    async def server_cpu() -> None:  # the servers' CPU over the measured window
        await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
        cpu.append(cpu_seconds(pids))
        await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
        cpu.append(cpu_seconds(pids))

    watcher = asyncio.create_task(watch())
    metered = asyncio.create_task(server_cpu())
    tasks = [
        asyncio.create_task(referee(t, begin, stop_at, measure_from, interval)) for t in tables
    ]
    await asyncio.sleep(min(1.0, args.warmup))
    followed = [g for t in tables[: args.followers] for g in list(t.recorded)[:1]]
    grace = stop_at + 3.0  # followers stay a little after the load, to receive the last events
    game_seen: dict[str, list[int]] = {g: [] for g in followed}
    live_seen: list[list[int]] = [[] for _ in range(args.followers)]
    streams = [
        asyncio.create_task(
            follow(
                ports[i % len(ports)], public, f"/api/games/{g}/events?after=0", grace, game_seen[g]
            )
        )
        for i, g in enumerate(followed)
    ] + [
        asyncio.create_task(
            follow(ports[i % len(ports)], public, "/api/live?after=0", grace, live_seen[i])
        )
        for i in range(args.followers)
    ]
    await asyncio.gather(*tasks)
    await asyncio.gather(*streams)
    await watcher
    await metered
    return {
        "server_cpu_s": cpu[1] - cpu[0],
        "game_seen": game_seen,
        "live_seen": live_seen,
        "lags": lags,
        "window": (measure_from, stop_at),
    }


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def run_one(kind: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    store, env, schema = bench_store(kind, workdir, "peak")
    processes = 1 if kind == "sqlite" else args.processes
    servers = [start_server(store, workdir) for _ in range(processes)]
    ports = [port for _, port in servers]
    try:
        tokens, public = make_tokens(store, args.tables)
        per_table = max(4, int(args.seconds + args.warmup) // 2 + 4)
        played = random_games(args.tables * per_table, args.seed, args.max_plies, True)
        tables = seated(Table, tokens, ports, played, per_table)

        async def everything() -> tuple[tuple[float, list[float]], dict[str, Any]]:
            ceiling = await bare(ports, args.tables, args.bare_seconds)  # the client's own ceiling
            pids = [process.pid for process, _ in servers]
            return ceiling, await drive(tables, args, public, ports, pids)

        (bare_rps, _), driven = asyncio.run(everything())
    finally:
        for process, _ in servers:
            stop(process)
    checked = verify_store(kind, store, env, tables)
    # what each followed game holds, against what its follower received
    from events.schema import ActionRetracted, GameCreated, GameEnded, ResultVoided, topics_for
    from events.store import GameStore

    with GameStore(store if kind == "sqlite" else None, env=env) as gs:
        missed = 0
        for game, seen in driven["game_seen"].items():
            stored = {row[0] for row in gs.rows(game)}
            missed += len(stored - set(seen))
        # the games list moves with games created, ended, reopened: its last such change
        listed = [
            topic
            for kind in (GameCreated, GameEnded, ActionRetracted, ResultVoided)
            for topic in topics_for(kind)
        ]
        last_id = max((n.id for n in gs.iter_notifications(listed)), default=0)
    live_behind = sum(1 for seen in driven["live_seen"] if not seen or max(seen) < last_id)
    drop_schema(schema)
    entries = [x for t in tables for x in t.entries]
    begin, end = driven["window"]
    writes = entries + [x for t in tables for x in t.writes]
    burst = [x for t in tables for x in t.burst]
    errors = [e for t in tables for e in t.errors]
    return {
        "store": kind,
        "processes": processes,
        "tables": args.tables,
        "rate": args.rate,
        "entries_per_s": round(len(entries) / args.seconds, 1),
        "answered_per_s": round(
            sum(1 for t in tables for a in t.answered if begin <= a <= end) / args.seconds, 1
        ),
        "writes_p50_ms": ms(pct(writes, 0.5)),
        "writes_p99_ms": ms(pct(writes, 0.99)),
        "entries_p50_ms": ms(pct(entries, 0.5)),
        "entries_p99_ms": ms(pct(entries, 0.99)),
        "burst_writes": len(burst),
        "burst_p99_ms": ms(pct(burst, 0.99)),
        "max_ms": ms(max(writes, default=0)),
        "errors": len(errors),
        "first_errors": errors[:3],
        "followed_games": len(driven["game_seen"]),
        "missed_follower_events": missed,
        "live_followers_behind": live_behind,
        "client_ceiling_rps": round(bare_rps),
        # the servers' CPU per entry answered in the window (its ends and new games included)
        "server_cpu_s": round(driven["server_cpu_s"], 2),
        "server_cpu_ms_per_entry": round(
            1000
            * driven["server_cpu_s"]
            / max(1, sum(1 for t in tables for a in t.answered if begin <= a <= end)),
            3,
        ),
        "client_lag_p99_ms": ms(pct(driven["lags"], 0.99)),
        **{f"check_{k}": v for k, v in checked.items()},
        "goal_met": len(entries) / args.seconds >= 990
        and pct(writes, 0.99) <= 0.050
        and not errors
        and missed == 0
        and live_behind == 0
        and intact(checked),
    }


def main() -> None:
    parser = stores_parser(__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rate", type=float, default=1000.0, help="Entries per second offered.")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--bare-seconds", type=float, default=4.0)
    parser.add_argument(
        "--followers", type=int, default=10, help="Game streams, and as many on /api/live."
    )
    parser.add_argument("--bursts", type=int, default=2)
    parser.add_argument(
        "--burst-size", type=int, default=30, help="Tables resigning within one second."
    )
    parser.add_argument("--processes", type=int, default=2, help="Server processes on PostgreSQL.")
    parser.add_argument("--max-plies", type=int, default=60)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    run_stores(args, "bench-peak-", run_one, _summary)


def _summary(r: dict[str, Any]) -> str:
    return (
        f"{r['store']:>8} x{r['processes']}: {r['entries_per_s']} entries/s of "
        f"{r['rate']:.0f} offered ({r['answered_per_s']}/s answered in the window) "
        f"| all writes p50 {r['writes_p50_ms']} ms, p99 "
        f"{r['writes_p99_ms']} ms (max {r['max_ms']}) | entries p50 "
        f"{r['entries_p50_ms']} ms, p99 {r['entries_p99_ms']} ms | bursts: "
        f"{r['burst_writes']} writes, p99 {r['burst_p99_ms']} ms | errors "
        f"{r['errors']} | followers: {r['missed_follower_events']} events missed "
        f"on {r['followed_games']} games, {r['live_followers_behind']} live behind | "
        f"client ceiling {r['client_ceiling_rps']} req/s, client lag p99 "
        f"{r['client_lag_p99_ms']} ms | verify: {r['check_games']} games, "
        f"{r['check_bad']} bad, {r['check_lost']} lost, {r['check_duplicated']} "
        f"duplicated | goal {'met' if r['goal_met'] else 'NOT met'}"
    )


if __name__ == "__main__":
    main()

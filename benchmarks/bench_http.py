"""Load benchmark of ``referee serve``: N referees on loopback, each at their own table,
recording the actions of real PRIZMIK games, while readers follow live streams.

    python benchmarks/bench_http.py                      # SQLite, one server process
    python benchmarks/bench_http.py --store postgres     # PostgreSQL, two server processes
    python benchmarks/bench_http.py --store both --tables 100 --seconds 20

Each referee has a table referee's token for their table, starts a game there, and
records its actions one after another, each with ``If-Match`` (and, with
``--idempotency``, an ``Idempotency-Key``); when a game ends (by rule, or agreed
after ``--max-plies``), the referee starts the next. The games are random PRIZMIK
games played in advance by the rules themselves, so every entry is legal.
``--readers`` public readers follow the games' event streams and one follows the
games list and scoreboard stream.

Reported: recorded actions per second over the measured window, p50 and p99 of
an entry's latency (request written to answer read), and the same stack's bare
endpoint (``GET /api/health``: routing, no token, no store) driven by the same
clients in the same run, as requests per second; the ratio of the two. Afterwards
every game is read back: each recorded answer must be in the store exactly once,
in order (nothing lost, duplicated or torn), and ``verify`` must find every hash
chain and decision intact.

A script, never a timed test. Clients use a minimal HTTP/1.1 client on asyncio
(keep-alive, one connection per referee) so that the load generator, which shares
the machine's cores with the servers, costs as little as it can.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from _common import free_port, started  # noqa: E402

PG = {
    "host": "127.0.0.1",
    "port": "5432",
    "dbname": os.environ.get("REFEREE_BENCH_PGDB", "test"),  # a database of one's own
    "user": "postgres",
}
PG_DSN = " ".join(f"{k}={v}" for k, v in PG.items())
_T = TypeVar("_T", bound="Seated")


def pg_schema(prefix: str) -> tuple[str, dict[str, str]]:
    """A fresh PostgreSQL schema ``prefix_<random>`` and the eventsourcing environment that
    stores in it (the servers and ``open_service`` read it); ``drop_schema`` removes it."""
    import psycopg

    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return schema, {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": PG["dbname"],
        "POSTGRES_HOST": PG["host"],
        "POSTGRES_PORT": PG["port"],
        "POSTGRES_USER": PG["user"],
        "POSTGRES_PASSWORD": "",
        "POSTGRES_SCHEMA": schema,
    }


def drop_schema(schema: str | None) -> None:
    """Remove a schema ``pg_schema`` made (nothing for ``None``, the SQLite runs)."""
    if schema is None:
        return
    import psycopg

    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


def bench_store(
    kind: str, workdir: Path, prefix: str, settings: str = ""
) -> tuple[str, dict[str, str], str | None]:
    """The store a run serves, made and empty: a SQLite file in ``workdir`` or a fresh
    PostgreSQL schema (URL, environment, schema to drop), its tables made before servers race
    to make them."""
    from service.app import open_service

    if kind == "sqlite":
        store = str(workdir / f"{prefix}.db")
        open_service(store, create=True).close()
        return store, {}, None
    schema, env = pg_schema(prefix)
    store = f"postgresql://{PG['user']}@{PG['host']}:{PG['port']}/{PG['dbname']}?schema={schema}"
    if settings:
        store += "&" + settings
    open_service(env=env).close()
    return store, env, schema


# -- games played in advance ---------------------------------------------------------------


def random_games(count: int, seed: int, max_plies: int, stagger: bool = False) -> list[list[str]]:
    """``count`` random PRIZMIK games (each a list of entries), played by the rules.

    Random play rarely ends a game before ``max_plies``, so every table would agree a
    draw at the same moment and start its next game at once (a burst of 2 x tables
    requests every max_plies / rate-per-table seconds). With ``stagger`` each game
    stops at its own length, drawn from 10 to 2 x max_plies - 10, as real games do."""
    from referee import games
    from referee.contract import Player, Setup

    rules = games.load("prizmik")
    setup = rules.resolve_setup(Setup(players=(Player("red", "Ann"), Player("blue", "Ben"))))
    rng = random.Random(seed)
    out: list[list[str]] = []
    for _ in range(count):
        state = rules.initial_state(setup)
        moves: list[str] = []
        limit = rng.randint(10, max(10, 2 * max_plies - 10)) if stagger else max_plies
        while len(moves) < limit and not rules.outcome(state).over:
            legal = rules.legal_actions(state)
            if not legal:
                break
            action = rng.choice(list(legal))
            moves.append(rules.notation(action))
            state = rules.apply(state, action)
        out.append(moves)
    return out


# -- a minimal HTTP/1.1 client -------------------------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        sock = self.writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    async def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            await self.open()
        assert self.reader is not None
        assert self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        for key, value in (headers or {}).items():
            lines.append(f"{key}: {value}")
        if body is not None:
            lines.append("Content-Type: application/json")
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        found: dict[str, str] = {}
        for line in header_lines:
            if line:
                key, _, value = line.partition(":")
                found[key.strip().lower()] = value.strip()
        length = int(found.get("content-length", "0"))
        data = await self.reader.readexactly(length) if length else b""
        return status, found, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


# -- servers ---------------------------------------------------------------------------------------


def start_server(
    store: str, workdir: Path, extra: Sequence[str] = ()
) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    log = (workdir / f"serve-{port}.log").open("wb")
    command = [
        sys.executable,
        "-m",
        "cli.main",
        "serve",
        "--store",
        store,
        "--port",
        str(port),
        "--projections",
        str(workdir / "bench.projections.db"),
        *extra,
    ]
    return started(command, port, log), port


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()


# -- the run ---------------------------------------------------------------------------------------


@dataclass
class Seated:
    """A referee's table: its number, token, server port and games to play; what it was
    answered (``verify_store`` checks ``recorded`` against the store) and its errors."""

    number: int
    token: str
    port: int
    games: list[list[str]]
    recorded: dict[str, list[str]] = field(default_factory=dict)  # game -> entries answered 201
    errors: list[str] = field(default_factory=list)


@dataclass
class Table(Seated):
    latencies: list[float] = field(default_factory=list)
    service: list[float] = field(
        default_factory=list
    )  # from the request written, not from when it was due
    other: int = 0


def seated(
    table: type[_T],
    tokens: list[str],
    ports: list[int],
    played: list[list[str]],
    per_table: int,
) -> list[_T]:
    """A ``table`` for each token (numbered from 1), the servers' ports dealt round in
    turn and ``per_table`` of the ``played`` games to each."""
    return [
        table(
            number=n + 1,
            token=token,
            port=ports[n % len(ports)],
            games=played[n * per_table : (n + 1) * per_table],
        )
        for n, token in enumerate(tokens)
    ]


async def referee(
    table: Table, stop_at: float, measure_from: float, idempotency: bool, interval: float
) -> None:
    """One referee: start games at the table and record their entries, as fast as the
    answers come (``interval`` 0) or one every ``interval`` seconds (an open loop; an
    entry's latency then counts from when it was due, so a slow answer also delays
    the entries queued behind it)."""
    conn = Connection("127.0.0.1", table.port)
    auth = {"Authorization": f"Bearer {table.token}"}
    game_index = 0
    due = time.monotonic() + (random.random() * interval if interval else 0.0)
    try:
        while time.monotonic() < stop_at:
            moves = table.games[game_index % len(table.games)]
            game_index += 1
            body = json.dumps(
                {
                    "game": "prizmik",
                    "players": {"red": f"Red{table.number}", "blue": f"Blue{table.number}"},
                    "meta": {"table": str(table.number)},
                }
            ).encode()
            status, _, data = await conn.request("POST", "/api/games", body, auth)
            table.other += 1
            if status != 201:
                table.errors.append(f"create: {status} {data[:200]!r}")
                return
            game = json.loads(data)["game_id"]
            table.recorded[game] = []
            version = 1
            ended = False
            for move in moves:
                if time.monotonic() >= stop_at:
                    return
                headers = {**auth, "If-Match": f'"{version}"'}
                if idempotency:
                    headers["Idempotency-Key"] = uuid.uuid4().hex
                payload = json.dumps({"text": move}).encode()
                if interval:
                    wait = due - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    started = due
                    due += interval
                else:
                    started = time.monotonic()
                sent = time.monotonic()
                status, found, data = await conn.request(
                    "POST", f"/api/games/{game}/entries", payload, headers
                )
                took = time.monotonic() - started
                if status != 201:
                    table.errors.append(f"{game} {move}: {status} {data[:200]!r}")
                    return
                table.recorded[game].append(move)
                if started >= measure_from:
                    table.latencies.append(took)
                    table.service.append(time.monotonic() - sent)
                version = int(found["etag"].strip('"'))
                ended = b'"ended":null' not in data
            if not ended:
                end = json.dumps({"how": "agreement", "reason": "benchmark"}).encode()
                await conn.request("POST", f"/api/games/{game}/end", end, auth)
                table.other += 1
    finally:
        conn.close()


async def stream_lines(port: int, token: str, path: str, stop_at: float) -> AsyncIterator[bytes]:
    """The lines of an event stream (server-sent events) as they come, until ``stop_at`` or
    the stream's end; nothing if the server cannot be reached."""
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return
    w.write(
        f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nAccept: "
        "text/event-stream\r\n\r\n".encode()
    )
    try:
        while time.monotonic() < stop_at:
            try:
                line = await asyncio.wait_for(r.readline(), max(0.05, stop_at - time.monotonic()))
            except TimeoutError:
                break
            if not line:
                break
            yield line
    finally:
        w.close()


async def reader(port: int, token: str, path: str, stop_at: float, counts: list[int]) -> None:
    """Follow an event stream until ``stop_at``, counting events."""
    async for line in stream_lines(port, token, path, stop_at):
        if line.startswith(b"data:"):
            counts[0] += 1


async def bare(ports: list[int], clients: int, seconds: float) -> tuple[float, list[float]]:
    """Requests per second of ``GET /api/health`` by ``clients`` connections."""
    done = [0]
    latencies: list[float] = []
    stop_at = time.monotonic() + seconds

    async def one(port: int) -> None:
        conn = Connection("127.0.0.1", port)
        try:
            while time.monotonic() < stop_at:
                started = time.monotonic()
                status, _, _ = await conn.request("GET", "/api/health")
                latencies.append(time.monotonic() - started)
                if status == 200:
                    done[0] += 1
        finally:
            conn.close()

    started = time.monotonic()
    await asyncio.gather(*(one(ports[i % len(ports)]) for i in range(clients)))
    return done[0] / (time.monotonic() - started), latencies


CLIENT_LAG: list[float] = []


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def drive(
    tables: list[Table],
    readers_n: int,
    public: str,
    ports: list[int],
    seconds: float,
    warmup: float,
    idempotency: bool,
    rate: float,
) -> tuple[float, int, int]:
    begin = time.monotonic()
    measure_from = begin + warmup
    stop_at = measure_from + seconds
    counts = [0]
    interval = len(tables) / rate if rate else 0.0
    lags: list[float] = []

    async def watch() -> (
        None
    ):  # how late this client's own event loop runs (its lateness is not the server's)
        while time.monotonic() < stop_at:
            before = time.monotonic()
            await asyncio.sleep(0.005)
            lags.append(time.monotonic() - before - 0.005)

    watcher = asyncio.create_task(watch())
    tasks = [
        asyncio.create_task(referee(t, stop_at, measure_from, idempotency, interval))
        for t in tables
    ]
    await asyncio.sleep(min(1.0, warmup))  # the first games exist: follow some of them
    followed = [g for t in tables[:readers_n] for g in list(t.recorded)[:1]]
    readers = [
        asyncio.create_task(
            reader(ports[i % len(ports)], public, f"/api/games/{g}/events?after=0", stop_at, counts)
        )
        for i, g in enumerate(followed)
    ]
    live = [0]
    if readers_n:
        readers.append(asyncio.create_task(reader(ports[0], public, "/api/live", stop_at, live)))
    await asyncio.gather(*tasks)
    await asyncio.gather(*readers)
    await watcher
    CLIENT_LAG.extend(lags)
    return seconds, counts[0], live[0]


def verify_store(
    store_kind: str, store: str, env: dict[str, str], tables: Sequence[Seated]
) -> dict[str, Any]:
    from events.store import GameStore
    from service.app import RefereeService

    svc = RefereeService(GameStore(store if store_kind == "sqlite" else None, env=env))
    try:
        lost = duplicated = 0
        for table in tables:
            for game, answered in table.recorded.items():
                stored = [e.notation for e in svc.load(game).standing]
                if stored != answered:
                    lost += sum(1 for m in answered if m not in stored)
                    duplicated += max(0, len(stored) - len(answered))
        report = svc.verify()
        return {
            "games": report.games,
            "events": report.events,
            "bad": report.bad,
            "lost": lost,
            "duplicated": duplicated,
        }
    finally:
        svc.close()


def intact(checked: dict[str, Any]) -> bool:
    """Whether ``verify_store`` found every acknowledged entry stored once, and no bad one."""
    return all(checked[k] == 0 for k in ("bad", "lost", "duplicated"))


def make_tokens(store: str, tables: int) -> tuple[list[str], str]:
    from service.access import TokenStore
    from service.sidedb import open_side_db
    from service.stores import parse_store

    tokens = TokenStore(open_side_db(parse_store(store)))
    made = [tokens.create("table", f"Referee {n}", [str(n)])[1] for n in range(1, tables + 1)]
    public = tokens.create("public", "Screen")[1]
    tokens.db.close()
    return made, public


def run_one(kind: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    store, env, schema = bench_store(kind, workdir, "bench", args.pg_settings)
    processes = 1 if kind == "sqlite" else args.processes
    extra = ["--threads", str(args.threads)] if args.threads is not None else []
    servers = [start_server(store, workdir, extra) for _ in range(processes)]
    ports = [port for _, port in servers]
    try:
        tokens, public = make_tokens(store, args.tables)
        per_table = max(2, int(args.seconds + args.warmup) // 3 + 2)
        played = random_games(
            args.tables * per_table * (2 if args.stagger else 1),
            args.seed,
            args.max_plies,
            args.stagger,
        )
        per_table *= 2 if args.stagger else 1
        tables = seated(Table, tokens, ports, played, per_table)

        async def everything() -> tuple[tuple[float, int, int], tuple[float, list[float]]]:
            base_rps, base_lat = await bare(
                ports, args.tables, args.bare_seconds
            )  # same stack, same clients
            driven = await drive(
                tables,
                args.readers,
                public,
                ports,
                args.seconds,
                args.warmup,
                args.idempotency,
                args.rate,
            )
            return driven, (base_rps, base_lat)

        spies = []
        if args.profile:
            # py-spy samples each server for the measured window
            # (collapsed stacks, one file per process)
            for process, port in servers:
                out = Path(args.profile) / f"{kind}-{port}.txt"
                spies.append(
                    subprocess.Popen(
                        [
                            "py-spy",
                            "record",
                            "--format",
                            "raw",
                            "--rate",
                            "200",
                            "--nonblocking",
                            "-o",
                            str(out),
                            "-d",
                            str(int(args.bare_seconds + args.warmup + args.seconds + 2)),
                            "-p",
                            str(process.pid),
                        ],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )
        (seconds, streamed, live_events), (base_rps, base_lat) = asyncio.run(everything())
        for spy in spies:
            spy.wait(60)
    finally:
        for process, _ in servers:
            stop(process)
    latencies = [x for t in tables for x in t.latencies]
    service = [x for t in tables for x in t.service]
    errors = [e for t in tables for e in t.errors]
    actions_per_s = len(latencies) / seconds
    checked = verify_store(kind, store, env, tables)
    drop_schema(schema)
    return {
        "store": kind,
        "processes": processes,
        "tables": args.tables,
        "readers": args.readers,
        "rate": args.rate,
        "stagger": args.stagger,
        "idempotency": args.idempotency,
        "seconds": seconds,
        "actions": len(latencies),
        "actions_per_s": round(actions_per_s, 1),
        "p50_ms": round(pct(latencies, 0.50) * 1000, 2),
        "p99_ms": round(pct(latencies, 0.99) * 1000, 2),
        "max_ms": round(max(latencies, default=0) * 1000, 2),
        "sent_p50_ms": round(pct(service, 0.50) * 1000, 2),
        "sent_p99_ms": round(pct(service, 0.99) * 1000, 2),
        "bare_rps": round(base_rps, 1),
        "bare_p50_ms": round(pct(base_lat, 0.5) * 1000, 2),
        "bare_p99_ms": round(pct(base_lat, 0.99) * 1000, 2),
        "ratio": round(actions_per_s / base_rps, 3) if base_rps else None,
        "client_lag_p99_ms": round(pct(CLIENT_LAG, 0.99) * 1000, 2),
        "client_lag_max_ms": round(max(CLIENT_LAG, default=0) * 1000, 2),
        "streamed_events": streamed,
        "live_events": live_events,
        "errors": len(errors),
        "first_errors": errors[:3],
        **{f"check_{k}": v for k, v in checked.items()},
        "goal_met": actions_per_s >= 990
        and pct(latencies, 0.99) <= 0.050
        and not errors
        and intact(checked),
    }


def main() -> None:
    parser = stores_parser(__doc__)
    parser.add_argument(
        "--tables", type=int, default=100, help="Referees, each at their own table."
    )
    parser.add_argument(
        "--readers", type=int, default=10, help="Public readers of game event streams."
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="Measured time.")
    parser.add_argument("--warmup", type=float, default=3.0, help="Load before measuring.")
    parser.add_argument(
        "--bare-seconds", type=float, default=5.0, help="Time on the bare endpoint."
    )
    parser.add_argument("--processes", type=int, default=2, help="Server processes on PostgreSQL.")
    parser.add_argument(
        "--threads", type=int, default=None, help="--threads for each server (default: its own)."
    )
    parser.add_argument(
        "--max-plies", type=int, default=60, help="Longest game before a draw is agreed."
    )
    parser.add_argument(
        "--stagger",
        action="store_true",
        help="Games end at lengths of their own (10 to twice --max-plies), not all at once.",
    )
    parser.add_argument(
        "--idempotency", action="store_true", help="Send an Idempotency-Key with every entry."
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="Entries per second offered by all tables together (0: each referee enters the next "
        "as soon as the last is answered, the most the server can take).",
    )
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--pg-settings",
        default="",
        help="More store URL settings for PostgreSQL (enable_db_functions=yes, pool_size=N, ...).",
    )
    parser.add_argument(
        "--profile", default=None, help="A folder: sample each server with py-spy into it."
    )
    args = parser.parse_args()
    run_stores(args, "bench-http-", run_one, _summary)


def _summary(r: dict[str, Any]) -> str:
    offered = (f"offered {r['rate']:.0f}/s" if r["rate"] else "closed loop") + (
        ", staggered ends" if r["stagger"] else ", ends together"
    )
    return (
        f"{r['store']:>8} x{r['processes']} {r['tables']} tables, {offered}: "
        f"{r['actions_per_s']:>7.1f} actions/s (p50 {r['p50_ms']} ms, p99 "
        f"{r['p99_ms']} ms, max {r['max_ms']} ms; from sending: p50 "
        f"{r['sent_p50_ms']} ms, p99 {r['sent_p99_ms']} ms; client loop late p99 "
        f"{r['client_lag_p99_ms']} ms, max {r['client_lag_max_ms']} ms) | bare "
        f"{r['bare_rps']:.0f} req/s (p50 {r['bare_p50_ms']} ms, p99 "
        f"{r['bare_p99_ms']} ms) | ratio {r['ratio']} | {r['streamed_events']} "
        f"events streamed, {r['live_events']} live list events | errors "
        f"{r['errors']} | verify: {r['check_games']} games, {r['check_events']} "
        f"events, {r['check_bad']} bad, {r['check_lost']} lost, "
        f"{r['check_duplicated']} duplicated | goal "
        f"{'met' if r['goal_met'] else 'NOT met'}"
    )


def stores_parser(doc: str | None) -> argparse.ArgumentParser:
    """A benchmark's arguments, described by its docstring's first paragraph, with the two
    ``run_stores`` reads: ``--store`` (sqlite, postgres or both) and ``--json``."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--store", choices=("sqlite", "postgres", "both"), default="sqlite")
    parser.add_argument("--json", action="store_true", help="Print the results as JSON only.")
    return parser


def run_stores(
    args: argparse.Namespace,
    prefix: str,
    run_one: Callable[[str, argparse.Namespace, Path], dict[str, Any]],
    summary: Callable[[dict[str, Any]], str],
) -> None:
    """Run ``run_one`` on each store ``--store`` names (under uvloop when it is installed),
    in one temporary folder, printing each result's ``summary`` and first errors as it
    comes, or all results as JSON at the end with ``--json``."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    kinds = ["sqlite", "postgres"] if args.store == "both" else [args.store]
    results = []
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        for kind in kinds:
            r = run_one(kind, args, Path(folder))
            results.append(r)
            if not args.json:
                print(summary(r), flush=True)
                for e in r["first_errors"]:
                    print("   error:", e)
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

"""When a round's pairings go up: N phones at once against a 2,048-player event (issue 23
section 2). A script, never a timed test.

    python benchmarks/bench_phones.py                               # SQLite
    python benchmarks/bench_phones.py --store postgres
    python benchmarks/bench_phones.py --store both --phones 250,500,1000,2000

An event of ``--players`` (Gammasphere, Swiss, 8 rounds) is built through the service with
round 1 paired and reported; one ``referee serve`` process is started on it and the head
referee reads the event once (a server that has been up during the event holds it folded).
Then, for each N of ``--phones`` (one round each, so every N meets a round just paired):

1. the head referee pairs the next round over HTTP (the moment the pairings go up: a new
   event version, so nothing of the last one is reused);
2. N phones, each a player with their own token, arrive spread evenly at random over
   ``--window`` seconds; each loads the pairings page (by table), then its own player page,
   then subscribes to the event's live stream (``/api/events/E/live``, what the standings and
   pairings pages follow), and, at a random moment of the window, loads the pairings page
   again with the ``ETag`` it got (a phone coming back to the page: 304 expected);
3. the head referee reports one table's result; every subscriber must receive the change
   (its delay from the report's answer is measured), and re-reads its own player page as the
   pages' script does (``If-None-Match``: the version changed, so a new page); then the
   round's other results are reported, ready for the next N.

With ``--end-of-round SECONDS`` (issue 32 goal 5: ``--players 10000 --phones 4000
--end-of-round 60``) the round's other results then arrive table by table over that many
seconds through the HTTP API (``--own-share`` of them as the players' own reports, each
confirmed by the opponent, the rest as the staff's slips), and the standings page is read
until it shows the last one (``end_of_round``). Each phone also reads the round clock page
unless ``--no-clock``.

Reported per N: p50/p99/max of every page request of step 2 (written to answer read), the
live subscription's answer time, errors (any status other than 200/304, a refused or dropped
connection, a subscriber that missed the change), the share of 304s, bytes per page (all
requests ask for gzip), and step 3's fan-out delay, re-read latencies and the server's CPU
from the result's report to the last re-read (per phone: the change's whole cost). The same client
measures its own ceiling in the same run: ``GET /api/health`` as fast as 50 connections go,
and how late its own event loop ran (a late client inflates every latency it measures).

The client is a minimal HTTP/1.1 client on asyncio (``bench_http.Connection``, keep-alive,
one connection per phone plus its stream), run in this one process on the same 2 cores as
the server.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import platform
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _common import free_port, started  # noqa: E402
from bench_http import PG, Connection, pct, stop  # noqa: E402

SLIPS = ["2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1"]
REST_AT_ONCE = 1000
"""Slips per call when the rest of a round is reported at once (4,999 slips of a
10,000-player round are past the server's body limit)."""
CLOCK = [True]
AT_ONCE = [False]
"""Whether each phone re-reads its page as soon as its stream announces the change, as the
pages' script does (``--reread-at-once``), rather than once every phone has heard of it."""
"""Whether each phone reads the round clock page too (``--no-clock``: not)."""


# -- the event ------------------------------------------------------------------------------


def make_store(kind: str, workdir: Path) -> tuple[str, dict[str, str]]:
    """A fresh store of ``kind``: its address for ``serve`` and the environment for the
    service (PostgreSQL: a schema of its own)."""
    if kind == "sqlite":
        DATABASE.clear()
        return str(workdir / "phones.db"), {}
    import psycopg

    DATABASE[:] = [PG["dbname"]]
    SCHEMA[:] = []

    schema = f"phones_{uuid.uuid4().hex[:10]}"
    dsn = " ".join(f"{k}={v}" for k, v in PG.items())
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    SCHEMA[:] = [schema]
    store = f"postgresql://{PG['user']}@{PG['host']}:{PG['port']}/{PG['dbname']}?schema={schema}"
    return store, {"schema": schema}


SCHEMA: list[str] = []  # the PostgreSQL store's schema, when the run is on PostgreSQL


def event_commits(event: str, after: int) -> tuple[int, int] | None:
    """PostgreSQL: the event's facts stored past version ``after`` and the transactions
    that stored them (their rows' ``xmin``): every event write appends to the event, so
    the second is the commits of the writes (one per write alone; fewer, held)."""
    if not SCHEMA:
        return None
    import psycopg

    dsn = " ".join(f"{k}={v}" for k, v in PG.items())
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            (table,) = conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s "
                "AND table_name LIKE '%%events' ORDER BY length(table_name) LIMIT 1",
                (SCHEMA[0],),
            ).fetchone() or ("referee_events",)
            row = conn.execute(
                f"SELECT count(*), count(DISTINCT xmin::text) FROM {SCHEMA[0]}.{table} "
                "WHERE originator_id = %s AND originator_version > %s",
                (event, after),
            ).fetchone()
    except psycopg.Error as exc:
        print(f"the commits were not counted: {exc}")
        return None
    return (int(row[0]), int(row[1])) if row else None


def drop_store(kind: str, extra: dict[str, str]) -> None:
    if kind != "postgres":
        return
    import psycopg

    dsn = " ".join(f"{k}={v}" for k, v in PG.items())
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {extra['schema']} CASCADE")


def build(store: str, names: list[str], ids: list[str]) -> str:
    """The event, round 1 paired and reported, each player bound to their token's id (so
    their own token files their own report, EV-11.2)."""
    from service.app import open_service

    svc = open_service(store, create=True)
    event = svc.event_new("Phones", "gammasphere", rounds=8).event_id
    svc.event_register(event, names, player_ids=ids)
    rows = svc.event_pair(event)
    svc.event_result(event, [f"{r.table}={SLIPS[(r.table or 0) % 5]}" for r in rows if not r.bye])
    svc.close()
    return event


def make_tokens(store: str, names: list[str]) -> tuple[str, dict[str, str], list[str]]:
    """The head referee's token, one player token per name, and the players' ids."""
    from service.access import TokenStore
    from service.sidedb import open_side_db
    from service.stores import parse_store

    tokens = TokenStore(open_side_db(parse_store(store)))
    head = tokens.create("head", "Hera")[1]
    players: dict[str, str] = {}
    ids: list[str] = []
    for name in names:
        principal, token = tokens.create("player", name)
        players[name] = token
        ids.append(principal.player_id)
    tokens.db.close()
    return head, players, ids


def serve(
    store: str, workdir: Path, flags: list[str], profile: str | None
) -> tuple[subprocess.Popen[bytes], int]:
    """``referee serve`` on a free port (under cProfile, writing ``profile``, if given)."""
    port = free_port()
    log = (workdir / f"serve-{port}.log").open("wb")
    prefix = ["-m", "cProfile", "-o", profile] if profile else []
    command = [sys.executable, *prefix, "-m", "cli.main", "serve", "--store", store]
    command += ["--port", str(port), "--projections", str(workdir / "phones.projections.db")]
    # a loaded machine starts it slowly
    return started([*command, *flags], port, log, wait=180), port


# -- the phones -----------------------------------------------------------------------------


@dataclass
class Phone:
    name: str
    token: str
    arrive: float
    come_back: float
    latencies: list[tuple[str, float]] = field(default_factory=list)
    sizes: dict[str, int] = field(default_factory=dict)
    statuses: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    subscribed: float | None = None
    seen_version: int = 0
    changed_at: float | None = None
    reread: float | None = None
    player_tag: str = ""
    connects: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)
    tags: list[tuple[str, int]] = field(default_factory=list)
    reread_floor: int = 0
    on_change: Any = None
    rereading: Any = None

    def saw(self, version: int) -> None:
        """The stream announced ``version``: a change after the first message (re-read at
        once with ``on_change``)."""
        if version <= self.seen_version:
            return
        if self.seen_version:
            self.changed_at = time.monotonic()
            if self.on_change is not None and self.rereading is None:
                self.rereading = asyncio.create_task(self.on_change())
        self.seen_version = version


def tag_version(tag: str) -> int:
    """The event version an ``ETag`` of the event pages names (``"v12-..."``), or 0."""
    tag = tag.removeprefix("W/").strip('"')
    head = tag.split("-", 1)[0]
    return int(head[1:]) if head.startswith("v") and head[1:].isdigit() else 0


async def timed(
    phone: Phone, conn: Connection, what: str, path: str, extra: dict[str, str] | None = None
) -> tuple[int, dict[str, str]]:
    headers = {
        "Authorization": f"Bearer {phone.token}",
        "Accept-Encoding": "gzip",
        **(extra or {}),
    }
    started = time.monotonic()
    try:
        if conn.writer is None:
            await conn.open()
            phone.connects.append(time.monotonic() - started)
        try:
            status, found, body = await conn.request("GET", path, headers=headers)
        except (asyncio.IncompleteReadError, ConnectionResetError) as exc:
            if isinstance(exc, asyncio.IncompleteReadError) and exc.partial:
                raise
            # the server closed the idle keep-alive connection: a browser opens another
            # and sends the request again (only a request on a reused connection)
            conn.close()
            await conn.open()
            status, found, body = await conn.request("GET", path, headers=headers)
    except (OSError, asyncio.IncompleteReadError) as exc:
        phone.errors.append(f"{what}: {exc!r}")
        conn.close()
        conn.writer = None
        return 0, {}
    phone.latencies.append((what, time.monotonic() - started))
    phone.sent.append(started)
    phone.statuses.append(status)
    if status not in (200, 304):
        phone.errors.append(f"{what}: {status} {body[:200]!r}")
    else:
        phone.sizes[what] = len(body)
        phone.tags.append((what, tag_version(found.get("etag", ""))))
    return status, found


async def subscribe(phone: Phone, port: int, path: str, stop: asyncio.Event) -> None:
    """Follow the live stream until ``stop``; note when it answered and each version seen."""
    started = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as exc:
        phone.errors.append(f"live: {exc!r}")
        return
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {phone.token}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    buffer = b""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            phone.errors.append(f"live: {head[:80]!r}")
            return
        phone.subscribed = time.monotonic() - started
        chunked = b"chunked" in head.lower()
        stopping = asyncio.create_task(stop.wait())
        while not stop.is_set():
            if chunked:
                size_line = asyncio.create_task(reader.readline())
                done, _ = await asyncio.wait(
                    {size_line, stopping}, return_when=asyncio.FIRST_COMPLETED
                )
                if size_line not in done:
                    size_line.cancel()
                    break
                size = int(size_line.result().strip() or b"0", 16)
                if size == 0:
                    break
                buffer += (await reader.readexactly(size + 2))[:-2]
            else:
                line = await reader.readline()
                if not line:
                    break
                buffer += line
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                for line in message.split(b"\n"):
                    if line.startswith(b"data:"):
                        phone.saw(int(json.loads(line[5:])["version"]))
        stopping.cancel()
    except (OSError, asyncio.IncompleteReadError) as exc:
        if not stop.is_set():
            phone.errors.append(f"live: {exc!r}")
    finally:
        writer.close()


async def one_phone(
    phone: Phone, port: int, event: str, t0: float, stop: asyncio.Event, streams: list[Any]
) -> Connection:
    await asyncio.sleep(max(0.0, t0 + phone.arrive - time.monotonic()))
    conn = Connection("127.0.0.1", port)
    e = quote(event)
    _status, found = await timed(phone, conn, "pairings", f"/events/{e}/pairings")
    tag = found.get("etag", "")
    _, found = await timed(phone, conn, "player", f"/events/{e}/players/{quote(phone.name)}")
    phone.player_tag = found.get("etag", "")
    if CLOCK[0]:
        await timed(phone, conn, "clock", f"/events/{e}/clock")
    streams.append(asyncio.create_task(subscribe(phone, port, f"/api/events/{e}/live", stop)))
    await asyncio.sleep(max(0.0, t0 + phone.come_back - time.monotonic()))
    extra = {"If-None-Match": tag} if tag else {}
    await timed(phone, conn, "pairings again", f"/events/{e}/pairings", extra)
    return conn


async def health_ceiling(port: int, clients: int, seconds: float) -> float:
    done = [0]
    stop_at = time.monotonic() + seconds

    async def one() -> None:
        conn = Connection("127.0.0.1", port)
        try:
            while time.monotonic() < stop_at:
                status, _, _ = await conn.request("GET", "/api/health")
                done[0] += status == 200
        finally:
            conn.close()

    started = time.monotonic()
    await asyncio.gather(*(one() for _ in range(clients)))
    return done[0] / (time.monotonic() - started)


async def monitor(
    port: int, stop: asyncio.Event, t0: float, out: list[tuple[float, float]]
) -> None:
    """``GET /api/health`` every 100 ms on a connection of its own: when the server stalls."""
    conn = Connection("127.0.0.1", port)
    while not stop.is_set():
        started = time.monotonic()
        try:
            await conn.request("GET", "/api/health")
        except (OSError, asyncio.IncompleteReadError):
            conn.close()
            conn.writer = None
        out.append((started - t0, time.monotonic() - started))
        await asyncio.sleep(0.1)
    conn.close()


async def lateness(stop: asyncio.Event, out: list[float]) -> None:
    """How late this client's own loop wakes (its lateness is not the server's)."""
    while not stop.is_set():
        before = time.monotonic()
        await asyncio.sleep(0.01)
        out.append(time.monotonic() - before - 0.01)


async def head_post(port: int, token: str, path: str, body: Any) -> tuple[int, bytes, float]:
    conn = Connection("127.0.0.1", port)
    started = time.monotonic()
    status, _, data = await conn.request(
        "POST",
        path,
        body=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}"},
    )
    conn.close()
    return status, data, time.monotonic() - started


def listen_overflows() -> int:
    """Connections this machine's listen queues dropped since boot (Linux ``TcpExt:
    ListenOverflows``: a phone so refused retries after 1, 3, 7 s); -1 elsewhere. Counts every
    process's sockets: read it where nothing else serves."""
    try:
        lines = Path("/proc/net/netstat").read_text().splitlines()
    except OSError:
        return -1
    for names, values in zip(lines[::2], lines[1::2], strict=False):
        if names.startswith("TcpExt:"):
            found = dict(zip(names.split()[1:], values.split()[1:], strict=False))
            return int(found.get("ListenOverflows", -1))
    return -1


DATABASE: list[str] = []
"""PostgreSQL: the database whose server processes' CPU is counted (``database_cpu``)."""


def database_cpu() -> float:
    """CPU seconds so far of the PostgreSQL server processes connected to the benchmark's
    database (the work SQLite does inside the server process; 0 on SQLite). Give the
    benchmark a database of its own (``REFEREE_BENCH_PGDB``) or others' work is counted."""
    if not DATABASE:
        return 0.0
    import psycopg

    dsn = " ".join(f"{k}={v}" for k, v in PG.items())
    with psycopg.connect(dsn, autocommit=True) as conn:
        pids = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (DATABASE[0],),
        ).fetchall()
    return sum(cpu_seconds(int(row[0])) for row in pids)


async def event_version(port: int, event: str, head: str) -> int:
    """The event's newest version as the store has it (``GET /api/events/E``)."""
    conn = Connection("127.0.0.1", port)
    try:
        _, _, info = await conn.request(
            "GET", f"/api/events/{quote(event)}", headers={"Authorization": f"Bearer {head}"}
        )
    finally:
        conn.close()
    return int(json.loads(info)["version"])


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` and its live children so far (Linux
    ``/proc``; ``--workers`` runs the server in children)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(int(child)) for child in children)


@dataclass(frozen=True)
class Hall:
    """The server under test: its port, the event, the head referee's and the players'
    tokens, and the server's process (whose CPU time is read)."""

    port: int
    event: str
    head: str
    tokens: dict[str, str]
    pid: int


async def trial(
    hall: Hall, n: int, window: float, seed: int, end_seconds: float = 0.0, own_share: float = 0.5
) -> dict[str, Any]:
    e = quote(hall.event)
    # the pairings go up (the last round was reported)
    status, data, paired = await head_post(hall.port, hall.head, f"/api/events/{e}/rounds", {})
    assert status == 201, data[:300]
    new_rows = json.loads(data)
    print(f"[phones] round paired in {paired:.1f} s; {n} phones arrive", flush=True)
    # the version the pairing made (the answer is the store's, whichever process asked):
    # a page of an older version from then on is a stale answer (a process that has not
    # heard of the other's write)
    paired_version = await event_version(hall.port, hall.event, hall.head)

    rng = random.Random(seed)
    names = rng.sample(sorted(hall.tokens), n)
    phones = []
    for name in names:
        arrive = rng.uniform(0, window)
        phones.append(Phone(name, hall.tokens[name], arrive, rng.uniform(arrive, window + 1)))
    stop = asyncio.Event()
    lag: list[float] = []
    # The client's own full collections scanned its 4,000 phones' objects: 0.4-1.6 s pauses
    # of every phone in the window, each ending in a burst of the arrivals it held (this made
    # the 4.1 and 7.0 s p99 of "Round start, third pass": BENCHMARKS.md, "Round start, the
    # stall"). What lives now is frozen and nothing is collected until the phones are done
    # (``client_lag_max_ms``: the client's longest stall).
    gc.collect()
    gc.freeze()
    gc.disable()
    watcher = asyncio.create_task(lateness(stop, lag))
    streams: list[Any] = []
    t0 = time.monotonic()
    overflows = listen_overflows()
    server_cpu = cpu_seconds(hall.pid)
    db_cpu = database_cpu()
    client_cpu = time.process_time()
    health: list[tuple[float, float]] = []
    monitoring = asyncio.create_task(monitor(hall.port, stop, t0, health))
    conns = await asyncio.gather(
        *(one_phone(p, hall.port, hall.event, t0, stop, streams) for p in phones)
    )
    await asyncio.sleep(1.0)  # the last subscriptions settle
    server_cpu = cpu_seconds(hall.pid) - server_cpu
    overflows = listen_overflows() - overflows
    db_cpu = database_cpu() - db_cpu
    client_cpu = time.process_time() - client_cpu
    window_s = time.monotonic() - t0
    seen_before = sum(1 for p in phones if p.seen_version)

    async def reread(phone: Phone, conn: Connection) -> None:
        phone.reread_floor = phone.seen_version  # what its stream had announced by then
        started = time.monotonic()
        await timed(
            phone,
            conn,
            "player re-read",
            f"/events/{e}/players/{quote(phone.name)}",
            {"If-None-Match": phone.player_tag},
        )
        phone.reread = time.monotonic() - started

    if AT_ONCE[0]:
        for p, c in zip(phones, conns, strict=True):
            p.on_change = lambda p=p, c=c: reread(p, c)

    # one result: every subscriber must hear of it, then re-reads its own page
    first = next(r for r in new_rows if not r["bye"])
    # the change, its fan-out, any pages made ahead, the re-reads
    reread_cpu = cpu_seconds(hall.pid)
    status, data, _ = await head_post(
        hall.port, hall.head, f"/api/events/{e}/results", {"slips": [f"{first['table']}=2-0-0"]}
    )
    assert status == 201, data[:300]
    reported = time.monotonic()
    deadline = reported + 15
    while time.monotonic() < deadline and any(p.changed_at is None for p in phones):
        await asyncio.sleep(0.05)
    delays = [p.changed_at - reported for p in phones if p.changed_at is not None]
    missed = sum(1 for p in phones if p.changed_at is None)
    reported_version = await event_version(hall.port, hall.event, hall.head)

    reread_started = time.monotonic()
    if AT_ONCE[0]:
        await asyncio.gather(*(p.rereading for p in phones if p.rereading is not None))
    else:
        await asyncio.gather(*(reread(p, c) for p, c in zip(phones, conns, strict=True)))
    reread_s = time.monotonic() - reread_started
    reread_cpu = cpu_seconds(hall.pid) - reread_cpu
    stop.set()
    await asyncio.gather(*streams, return_exceptions=True)
    watcher.cancel()
    gc.enable()
    gc.unfreeze()
    await monitoring
    for c in conns:
        c.close()

    # the rest of the round's results, so the next trial pairs a new round: all at once,
    # or as the end of a round brings them (``end_of_round``)
    rest_rows = [r for r in new_rows if not r["bye"] and r["table"] != first["table"]]
    ending: dict[str, Any] = {}
    if end_seconds > 0:
        ending = await end_of_round(hall, rest_rows, end_seconds, own_share, seed)
    else:
        rest = [f"{r['table']}={SLIPS[r['table'] % 5]}" for r in rest_rows]
        for at in range(0, len(rest), REST_AT_ONCE):  # a body within the server's limit
            slips = rest[at : at + REST_AT_ONCE]
            status, data, _ = await head_post(
                hall.port, hall.head, f"/api/events/{e}/results", {"slips": slips}
            )
            assert status == 201, data[:300]

    # stale answers: a page of step 2 older than the pairing; a re-read older than the
    # change its stream announced (or than the report, when the stream missed it)
    for p in phones:
        for what, version in p.tags:
            floor = (
                (p.reread_floor or reported_version) if what == "player re-read" else paired_version
            )
            if version and version < floor:
                p.errors.append(f"{what}: stale v{version} < v{floor}")
    stale = sum(1 for p in phones for err in p.errors if "stale" in err)
    step2 = [lat for p in phones for what, lat in p.latencies if what != "player re-read"]
    statuses = [s for p in phones for s in p.statuses]
    errors = [err for p in phones for err in p.errors]
    sizes: dict[str, list[int]] = {}
    for p in phones:
        for what, size in p.sizes.items():
            sizes.setdefault(what, []).append(size)
    return {
        "phones": n,
        "pair_s": paired,
        "requests": len(step2),
        "p50_ms": pct(step2, 0.5) * 1000,
        "p99_ms": pct(step2, 0.99) * 1000,
        "max_ms": max(step2, default=float("nan")) * 1000,
        "by_page_p99_ms": {
            what: pct([lat for p in phones for w, lat in p.latencies if w == what], 0.99) * 1000
            for what in ("pairings", "player", "clock", "pairings again", "player re-read")
        },
        "server_cpu_s": server_cpu,
        "listen_overflows": overflows,
        "server_cpu_per_phone_ms": server_cpu / max(1, n) * 1000,
        "db_cpu_per_phone_ms": db_cpu / max(1, n) * 1000,
        "client_cpu_s": client_cpu,
        "window_s": window_s,
        "connect_p99_ms": pct([c for p in phones for c in p.connects], 0.99) * 1000,
        "slowest": sorted(
            (
                (round(lat * 1000), what, round(at - t0, 2))
                for p in phones
                for (what, lat), at in zip(p.latencies, p.sent, strict=True)
                if what != "player re-read"
            ),
            reverse=True,
        )[:8],
        "health_worst": sorted(((round(b * 1000), round(a, 1)) for a, b in health), reverse=True)[
            :5
        ],
        "live_p99_ms": pct([p.subscribed for p in phones if p.subscribed], 0.99) * 1000,
        "subscribed": seen_before,
        "errors": len(errors) + missed,
        "error_samples": errors[:5],
        "error_kinds": dict(Counter(err.split(":", 1)[0] for err in errors)),
        "missed_change": missed,
        "stale": stale,
        "share_304": statuses.count(304) / max(1, len(statuses)),
        "bytes": {k: int(sum(v) / len(v)) for k, v in sizes.items()},
        "fanout_p50_ms": pct(delays, 0.5) * 1000,
        "fanout_p99_ms": pct(delays, 0.99) * 1000,
        "reread_p50_ms": pct([p.reread for p in phones if p.reread], 0.5) * 1000,
        "reread_p99_ms": pct([p.reread for p in phones if p.reread], 0.99) * 1000,
        "reread_s": reread_s,
        "reread_cpu_per_phone_ms": reread_cpu / max(1, n) * 1000,
        "client_lag_p99_ms": pct(lag, 0.99) * 1000,
        "client_lag_max_ms": max(lag, default=0.0) * 1000,
        **ending,
    }


async def end_of_round(
    hall: Hall, rows: list[dict[str, Any]], seconds: float, own_share: float, seed: int
) -> dict[str, Any]:
    """The end of a round: every table's result arrives at a random moment of ``seconds``
    through the HTTP API, ``own_share`` of them as the players' own reports (the first
    listed reports, the opponent confirms: two writes), the others as the staff's slip of
    that table (one write). Then the standings page is read every 20 ms until it shows the
    version the last report made: how long after the last answer it was current."""
    e = quote(hall.event)
    rng = random.Random(seed * 7 + 1)
    writes: list[tuple[str, float]] = []
    errors: list[str] = []
    done_at: list[float] = []

    async def post(token: str, path: str, body: Any, what: str) -> tuple[int, bytes]:
        conn = Connection("127.0.0.1", hall.port)
        started = time.monotonic()
        try:
            status, _, data = await conn.request(
                "POST",
                path,
                body=json.dumps(body).encode(),
                headers={"Authorization": f"Bearer {token}"},
            )
        except (OSError, asyncio.IncompleteReadError) as exc:
            errors.append(f"{what}: {exc!r}")
            return 0, b""
        finally:
            conn.close()
        writes.append((what, time.monotonic() - started))
        if status != 201:
            errors.append(f"{what}: {status} {data[:200]!r}")
        return status, data

    async def one(row: dict[str, Any], at: float, own: bool) -> None:
        await asyncio.sleep(max(0.0, t0 + at - time.monotonic()))
        table = row["table"]
        slip = SLIPS[table % 5]
        first, second = row["players"]
        if own:
            status, data = await post(
                hall.tokens[first],
                f"/api/events/{e}/reports",
                {"result": slip, "table": table},
                "report",
            )
            if status == 201:
                number = json.loads(data)["report"]
                await post(
                    hall.tokens[second], f"/api/events/{e}/reports/{number}/confirm", {}, "confirm"
                )
        else:
            await post(
                hall.head, f"/api/events/{e}/results", {"slips": [f"{table}={slip}"]}, "slip"
            )
        done_at.append(time.monotonic())

    before = await event_version(hall.port, hall.event, hall.head)
    cpu = cpu_seconds(hall.pid)
    t0 = time.monotonic()
    await asyncio.gather(
        *(one(row, rng.uniform(0, seconds), rng.random() < own_share) for row in rows)
    )
    last = max(done_at, default=time.monotonic())
    spent = time.monotonic() - t0
    cpu = cpu_seconds(hall.pid) - cpu
    conn = Connection("127.0.0.1", hall.port)
    auth = {"Authorization": f"Bearer {hall.head}"}
    _, _, info = await conn.request("GET", f"/api/events/{e}", headers=auth)
    version = int(json.loads(info)["version"])
    current_after = float("nan")
    while time.monotonic() < last + 30:
        _, found, _ = await conn.request(
            "GET", f"/events/{e}/standings", headers={**auth, "Accept-Encoding": "gzip"}
        )
        tag = found.get("etag", "").strip('W/"')
        shown = int(tag[1:].split("-", 1)[0]) if tag.startswith("v") else 0
        if shown >= version:
            current_after = time.monotonic() - last
            break
        await asyncio.sleep(0.02)
    conn.close()
    latencies = [lat for _, lat in writes]
    return {
        "end_tables": len(rows),
        "end_writes": len(writes),
        "end_seconds": spent,
        "end_p50_ms": pct(latencies, 0.5) * 1000,
        "end_p99_ms": pct(latencies, 0.99) * 1000,
        "end_max_ms": max(latencies, default=float("nan")) * 1000,
        "end_by_kind_p99_ms": {
            kind: pct([lat for k, lat in writes if k == kind], 0.99) * 1000
            for kind in ("report", "confirm", "slip")
        },
        "end_errors": len(errors),
        "end_error_samples": errors[:5],
        "end_server_cpu_per_write_ms": cpu / max(1, len(writes)) * 1000,
        "standings_current_after_s": current_after,
        "end_facts_and_commits": event_commits(hall.event, before),  # PostgreSQL: writes per commit
    }


def run(kind: str, args: argparse.Namespace, workdir: Path) -> list[dict[str, Any]]:
    store, extra = make_store(kind, workdir)
    try:
        started = time.monotonic()
        names = [f"Player {n:05}" for n in range(args.players)]
        kept = workdir / "phones.json"
        if kind == "sqlite" and kept.exists():  # --keep: the event of an earlier run
            head, tokens, event = json.loads(kept.read_text())
            print(f"[{kind}] the event of {len(tokens)} players kept in {workdir}")
        else:
            head, tokens, ids = make_tokens(store, names)
            event = build(store, names, ids)
            kept.write_text(json.dumps([head, tokens, event]))
            print(f"[{kind}] built {args.players} players in {time.monotonic() - started:.1f} s")
        flags = ["--threads", str(args.threads)] if args.threads is not None else []
        if kind == "postgres" and args.workers > 1:
            flags += ["--workers", str(args.workers)]
        process, port = serve(store, workdir, flags, args.profile)
        hall = Hall(port, event, head, tokens, process.pid)
        try:
            results = []

            async def warm() -> float:
                # the server has been up during the event: the event folded, standings read
                conn = Connection("127.0.0.1", port)
                for path in (f"/api/events/{quote(event)}/standings",):
                    await conn.request("GET", path, headers={"Authorization": f"Bearer {head}"})
                conn.close()
                return await health_ceiling(port, 50, 3.0)

            ceiling = asyncio.run(warm())
            print(f"[{kind}] client ceiling: GET /api/health {ceiling:.0f}/s (50 connections)")
            for i, n in enumerate(args.phones):
                result = asyncio.run(
                    trial(hall, n, args.window, args.seed + i, args.end_of_round, args.own_share)
                )
                result["store"] = kind
                result["health_per_s"] = ceiling
                results.append(result)
                print(json.dumps(result), flush=True)
            return results
        finally:
            if args.profile:  # cProfile writes its file as the server ends: give it time
                # (SIGINT: uvicorn raises a SIGTERM again once shut down, which ends the
                # process before cProfile writes; a SIGINT raised again is an exception)
                process.send_signal(signal.SIGINT)
                process.wait(300)
            stop(process)
            log = (workdir / f"serve-{port}.log").read_text(errors="replace").strip()
            if log:
                print(f"[{kind}] the server's log ends:\n{log[-3000:]}")
    finally:
        drop_store(kind, extra)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=["sqlite", "postgres", "both"], default="sqlite")
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--phones", default="250,500,1000,2000")
    parser.add_argument("--window", type=float, default=10.0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument(
        "--workers", type=int, default=1, help="Server processes for PostgreSQL (--workers)."
    )
    parser.add_argument(
        "--profile", default=None, help="cProfile the server into this file (slows it down)."
    )
    parser.add_argument(
        "--end-of-round",
        type=float,
        default=0.0,
        help="Report the rest of each round over this many seconds, table by table "
        "(issue 32 goal 5: 60); 0: in one call.",
    )
    parser.add_argument(
        "--no-clock",
        action="store_true",
        help="Phones skip the round clock page (it lists every table: at 10,000 players it "
        "costs a whole round's tables per request).",
    )
    parser.add_argument(
        "--reread-at-once",
        action="store_true",
        help="Each phone re-reads its page as soon as its stream announces the change (as the "
        "pages' script does; with --workers, maybe from another process than its stream's).",
    )
    parser.add_argument(
        "--own-share",
        type=float,
        default=0.5,
        help="The share of tables whose players report their own result (the rest: slips).",
    )
    parser.add_argument(
        "--keep",
        default=None,
        help="SQLite: build the event in this folder and keep it; a later run with the same "
        "folder starts from it (each trial pairs one more round: up to 6 runs of one N).",
    )
    args = parser.parse_args()
    args.phones = [int(n) for n in args.phones.split(",")]
    CLOCK[0] = not args.no_clock
    AT_ONCE[0] = args.reread_at_once
    if max(args.phones) > args.players:
        parser.error("more phones than players")
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{date.today()}, load {os.getloadavg()[0]:.1f}, {socket.gethostname()}"
    )
    kinds = ["sqlite", "postgres"] if args.store == "both" else [args.store]
    rows: list[dict[str, Any]] = []
    for kind in kinds:
        if args.keep and kind == "sqlite":
            Path(args.keep).mkdir(parents=True, exist_ok=True)
            rows += run(kind, args, Path(args.keep))
            continue
        with tempfile.TemporaryDirectory() as folder:
            rows += run(kind, args, Path(folder))
    print()
    print(
        f"{'store':8} {'phones':>6} {'reqs':>6} {'p50':>7} {'p99':>7} {'max':>7} {'errors':>6} "
        f"{'304':>5} {'live p99':>8} {'fan-out p99':>11} {'re-read p99':>11} {'client lag':>10} "
        f"{'server CPU/phone':>16} {'database CPU/phone':>18} {'change CPU/phone':>17}"
    )
    for r in rows:
        print(
            f"{r['store']:8} {r['phones']:>6} {r['requests']:>6} {r['p50_ms']:>5.1f}ms "
            f"{r['p99_ms']:>5.0f}ms {r['max_ms']:>5.0f}ms {r['errors']:>6} "
            f"{r['share_304']:>5.0%} {r['live_p99_ms']:>6.0f}ms {r['fanout_p99_ms']:>9.0f}ms "
            f"{r['reread_p99_ms']:>9.0f}ms {r['client_lag_p99_ms']:>8.0f}ms "
            f"{r['server_cpu_per_phone_ms']:>14.2f}ms {r['db_cpu_per_phone_ms']:>16.2f}ms "
            f"{r['reread_cpu_per_phone_ms']:>15.2f}ms"
        )
    ends = [r for r in rows if "end_writes" in r]
    if ends:
        print()
        print(
            f"{'store':8} {'tables':>6} {'writes':>6} {'seconds':>7} {'p50':>7} {'p99':>7} "
            f"{'max':>7} {'errors':>6} {'CPU/write':>9} {'standings current after':>23}"
        )
        for r in ends:
            print(
                f"{r['store']:8} {r['end_tables']:>6} {r['end_writes']:>6} "
                f"{r['end_seconds']:>6.1f}s {r['end_p50_ms']:>5.1f}ms {r['end_p99_ms']:>5.0f}ms "
                f"{r['end_max_ms']:>5.0f}ms {r['end_errors']:>6} "
                f"{r['end_server_cpu_per_write_ms']:>7.2f}ms "
                f"{r['standings_current_after_s']:>21.2f}s"
            )


if __name__ == "__main__":
    main()

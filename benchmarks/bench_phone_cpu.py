"""A phone's round start and a round's end, as the server's CPU, in process (issue 32 goal 5):
the application's ASGI callable driven directly (no sockets, no uvicorn, no client sharing
the process), so the figures are the server's own work and hold on a loaded machine, where
``bench_phones.py``'s latencies are queues. Run it from two trees side by side to compare.

    python benchmarks/bench_phone_cpu.py --event FOLDER [--phones 1000] [--no-clock]

``FOLDER`` holds an event built by ``bench_phones.py --keep FOLDER`` (its ``phones.json``,
the store and the tokens beside it); when it holds none, the event is built there first
(``--players``). Each run works on a copy of it, so every run starts from the same event.

The round start: ``gc`` set as ``referee serve`` sets it; the head referee reads the
standings (a server up during the event holds it folded), pairs the next round, starts its
clock and gives table 7 three minutes (unless ``--no-clock``); ``--warm`` phones warm the
round's first renders; then ``--phones`` phones in turn, each a different player's token:
the pairings page, their own page, the clock page, the live stream until its first message
(left open, as a phone leaves it), the pairings page again with its ``ETag`` (a 304). CPU is
``time.process_time`` of the whole process (every thread), per phone and per step.

The round's end (``--end``): every other table of the round reports, one slip per write
through the API (``POST /api/events/E/results``), then the head reads the event and the
standings page: the CPU of that first read after the last write is what a reader pays for
the standings to be current (the ``standings current after`` of ``bench_phones.py``, without
the queue); and the CPU per write.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _common import bearer_scope, one_request  # noqa: E402

SLIPS = ["2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1"]


class Answer:
    def __init__(self) -> None:
        self.status = 0
        self.headers: dict[str, str] = {}
        self.body = b""
        self.first = asyncio.Event()

    async def send(self, message: dict[str, Any]) -> None:
        """The app's ``send``: the status, headers and body kept; ``first`` set once the
        body holds a live stream's first message."""
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            chunk = message.get("body", b"")
            self.body += chunk
            if b"data:" in chunk:
                self.first.set()


async def call(
    app: Any,
    method: str,
    path: str,
    token: str,
    body: bytes = b"",
    extra: dict[str, str] | None = None,
) -> Answer:
    out = Answer()
    await app(bearer_scope(method, path, token, body, extra), one_request(body), out.send)
    return out


def stream(app: Any, path: str, token: str) -> tuple[asyncio.Task[None], Answer, asyncio.Event]:
    """A live subscription left open: ``first`` set at its first ``moved`` message; set the
    returned event to leave."""
    scope = bearer_scope("GET", path, token, extra={"accept": "text/event-stream"})
    out = Answer()
    gone = asyncio.Event()
    sent = [False]

    async def receive() -> dict[str, Any]:
        if not sent[0]:
            sent[0] = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    return asyncio.create_task(app(scope, receive, out.send)), out, gone


async def lifespan(app: Any) -> tuple[asyncio.Task[None], asyncio.Queue[Any]]:
    inbox: asyncio.Queue[Any] = asyncio.Queue()
    ready = asyncio.Event()
    await inbox.put({"type": "lifespan.startup"})

    async def send(message: dict[str, Any]) -> None:
        if message["type"].startswith("lifespan.startup"):
            ready.set()

    task = asyncio.create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, send)
    )
    await ready.wait()
    return task, inbox


def build_event(folder: Path, players: int) -> None:
    from bench_phones import build, make_tokens

    store = str(folder / "phones.db")
    names = [f"Player {n:05}" for n in range(players)]
    head, tokens, ids = make_tokens(store, names)
    event = build(store, names, ids)
    (folder / "phones.json").write_text(json.dumps([head, tokens, event]))


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    from web.app import ServeConfig, create_app

    head, tokens, event = json.loads((folder / "phones.json").read_text())
    store = str(folder / "phones.db")
    app = create_app(ServeConfig(store=store, projections=str(folder / "phones.projections.db")))
    task, inbox = await lifespan(app)
    from web import collector

    collector.install()  # the collector's policy as ``referee serve`` sets it
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    started_gc = [0.0]

    def timed_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started_gc[0] = time.perf_counter()
        else:
            pauses[info["generation"]].append(time.perf_counter() - started_gc[0])

    gc.callbacks.append(timed_gc)
    e = quote(event)
    out: dict[str, Any] = {}
    try:
        r = await call(app, "GET", f"/api/events/{e}/standings", head)
        assert r.status == 200, r.body[:300]
        started = time.process_time()
        r = await call(app, "POST", f"/api/events/{e}/rounds", head, b"{}")
        assert r.status == 201, r.body[:300]
        out["pair_cpu_s"] = time.process_time() - started
        rows = json.loads(r.body)
        if args.clock:
            r = await call(app, "POST", f"/api/events/{e}/clock", head, b'{"action": "start"}')
            assert r.status in (200, 201), r.body[:300]
            body = b'{"minutes": 3, "reason": "deck check"}'
            r = await call(app, "POST", f"/api/events/{e}/tables/7/extensions", head, body)
            assert r.status in (200, 201), r.body[:300]
        names = sorted(tokens)
        steps = ["pairings", "player", "clock", "live", "pairings again"]
        if not args.clock:
            steps.remove("clock")
        spent = dict.fromkeys(steps, 0.0)
        streams: list[tuple[asyncio.Task[None], Answer, asyncio.Event]] = []

        async def phone(name: str, measure: bool) -> None:
            token = tokens[name]
            clock = time.process_time
            t = clock()
            r = await call(
                app, "GET", f"/events/{e}/pairings", token, extra={"Accept-Encoding": "gzip"}
            )
            assert r.status == 200, (r.status, r.body[:200])
            tag = r.headers.get("etag", "")
            t2 = clock()
            got = await call(
                app,
                "GET",
                f"/events/{e}/players/{quote(name)}",
                token,
                extra={"Accept-Encoding": "gzip"},
            )
            assert got.status == 200, (got.status, got.body[:200])
            t3 = clock()
            if args.clock:
                got = await call(
                    app, "GET", f"/events/{e}/clock", token, extra={"Accept-Encoding": "gzip"}
                )
                assert got.status == 200, (got.status, got.body[:200])
            t4 = clock()
            live = stream(app, f"/api/events/{e}/live", token)
            await asyncio.wait_for(live[1].first.wait(), 30)
            streams.append(live)
            t5 = clock()
            again = await call(
                app,
                "GET",
                f"/events/{e}/pairings",
                token,
                extra={"Accept-Encoding": "gzip", "If-None-Match": tag},
            )
            assert again.status == 304, again.status
            t6 = clock()
            if measure:
                spent["pairings"] += t2 - t
                spent["player"] += t3 - t2
                if args.clock:
                    spent["clock"] += t4 - t3
                spent["live"] += t5 - t4
                spent["pairings again"] += t6 - t5

        for name in names[: args.warm]:
            await phone(name, False)
        measured = names[args.warm : args.warm + args.phones]
        started = time.process_time()
        for name in measured:
            await phone(name, True)
        total = time.process_time() - started
        n = len(measured)
        out["phones"] = n
        out["per_phone_ms"] = {k: v / n * 1000 for k, v in spent.items()}
        out["per_phone_ms"]["all told"] = total / n * 1000
        for _, _, gone in streams:
            gone.set()
        await asyncio.gather(*(s[0] for s in streams), return_exceptions=True)
        if args.end:
            first = [row for row in rows if not row["bye"]]
            writes = first[: args.end] if args.end > 0 else first
            started = time.process_time()
            for row in writes:
                slip = f"{row['table']}={SLIPS[row['table'] % 5]}"
                body = json.dumps({"slips": [slip]}).encode()
                r = await call(app, "POST", f"/api/events/{e}/results", head, body)
                assert r.status == 201, r.body[:300]
            out["writes"] = len(writes)
            out["cpu_per_write_ms"] = (time.process_time() - started) / len(writes) * 1000
            started = time.process_time()
            r = await call(app, "GET", f"/api/events/{e}", head)
            version = int(json.loads(r.body)["version"])
            info = time.process_time()
            r = await call(
                app, "GET", f"/events/{e}/standings", head, extra={"Accept-Encoding": "gzip"}
            )
            assert r.status == 200
            shown = r.headers.get("etag", "").strip('W/"')
            assert shown.startswith(f"v{version}"), (shown, version)
            done = time.process_time()
            out["standings_current_cpu_ms"] = {
                "event info": (info - started) * 1000,
                "standings page": (done - info) * 1000,
            }
            started = time.process_time()
            r = await call(
                app, "GET", f"/events/{e}/standings", head, extra={"Accept-Encoding": "gzip"}
            )
            out["standings_again_cpu_ms"] = (time.process_time() - started) * 1000
        out["gc_pauses"] = {
            f"generation {g}": f"{len(p)}, longest {max(p, default=0) * 1000:.0f} ms"
            for g, p in pauses.items()
        }
    finally:
        gc.callbacks.remove(timed_gc)
        await inbox.put({"type": "lifespan.shutdown"})
        await asyncio.wait_for(task, 30)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--event", required=True, help="a folder of bench_phones.py --keep")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--warm", type=int, default=50)
    parser.add_argument("--no-clock", dest="clock", action="store_false")
    parser.add_argument(
        "--end",
        type=int,
        default=0,
        help="then report this many of the round's tables one slip at a time (-1: all) and "
        "read the standings page",
    )
    args = parser.parse_args()
    source = Path(args.event)
    source.mkdir(parents=True, exist_ok=True)
    if not (source / "phones.json").exists():
        build_event(source, args.players)
    with tempfile.TemporaryDirectory(prefix="bench-phone-cpu-") as work:
        folder = Path(work)
        for item in source.iterdir():
            if item.is_file():
                shutil.copy(item, folder / item.name)
        import web

        print(f"load {os.getloadavg()[0]:.1f}, the code of {Path(web.__file__).parent.parent}")
        result = asyncio.run(run(args, folder))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()

"""Verifiable postings and the event pages at size (issue 32 goals 3 and 4; not a timed test:
prints tables).

For each size an event of that many players is built through the service in a fresh SQLite
store (``--rounds`` Swiss rounds paired with their games created and every result reported,
then the next round paired and left open) and sealed, then:

* ``referee event standings EVENT --posting`` as a subprocess: the whole command (start-up,
  the event as the service keeps it, the standings from scratch);
* ``referee event verify EVENT --posting FILE --public-key KEY`` as a subprocess: signature,
  the store's chain up to the checkpoint (read once, keeping the event's facts), the event's
  facts, the rows recomputed;
* the pages in one running server (Litestar's test client, in this process: the service
  keeps the event folded), each answer whole (a page of rows is small, so this is near its
  first byte), wall and CPU milliseconds:

  - ``cold``: the first view after the server started (folds the event, makes the
    posting footer once per checkpoint);
  - ``warm``: the same page again (the version's cached answer);
  - ``new version``: the first view after one result was reported through the API (the
    event moved: the page is made again from the kept event; for the standings, the
    standings table of the new version);
  - ``page N``: another page of rows of the same version (rendered, not computed);
  - ``search``: ``?find=`` (made for its reader, never kept);
  - ``all rows``: ``?page=all``, what the head judge prints;
  - a player's own page the same way.

    python benchmarks/bench_postings.py [--sizes 64,512,2048,10000] [--rounds 2] [--keep DIR]
        [--no-pages]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from _common import referee_timed
from litestar.testing import TestClient

from service.access import TokenStore
from service.app import open_service
from service.seal import create_key, seal
from service.sidedb import open_side_db
from service.stores import parse_store
from web.app import ServeConfig, create_app

ROOT = Path(__file__).resolve().parent.parent
SLIPS = ["2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1"]


def build(db: Path, players: int, key: Path, rounds: int = 2) -> str:
    """An event with ``rounds`` rounds reported and the next one paired and open, sealed."""
    with open_service(db, create=True) as svc:
        event = svc.event_new("Bench", "gammasphere", rounds=rounds + 4).event_id
        svc.event_register(event, [f"Player {n:05}" for n in range(players)])
        for _ in range(rounds):
            rows = svc.event_pair(event)
            svc.event_result(
                event, [f"{r.table}={SLIPS[(r.table or 0) % 5]}" for r in rows if not r.bye]
            )
        svc.event_pair(event)
        svc.event_standings(event)  # the event's snapshot kept, as after any command
        seal(svc.store, key)
    return event


def command(db: Path, *args: str) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system) of the whole command, and what it printed."""
    return referee_timed(["--db", str(db), *args], {**os.environ, "PYTHONPATH": str(ROOT)})


Timed = tuple[float, float]  # wall ms, CPU ms


def timed(get: Callable[[], Any]) -> Timed:
    start, cpu = time.perf_counter(), time.process_time()
    response = get()
    assert response.status_code == 200, response.text[:500]
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000


def page_times(db: Path, event: str, players: int) -> dict[str, dict[str, Timed]]:
    """Each page's figures (see the module's docstring), by page and then by case."""
    tokens = TokenStore(open_side_db(parse_store(str(db))))
    token = tokens.create("head", "Hera", ())[1]
    tokens.db.close()
    headers = {"Authorization": f"Bearer {token}"}
    middle = max(1, players // 400)  # a page in the middle (200 rows a page)
    pages = {
        "by table": f"/events/{event}/pairings",
        "by name": f"/events/{event}/pairings?by=name",
        "standings": f"/events/{event}/standings",
        "own page": f"/events/{event}/players/Player {players // 2:05}",
    }
    out: dict[str, dict[str, Timed]] = {}
    with TestClient(create_app(ServeConfig(store=str(db)))) as client:

        def get(path: str) -> Callable[[], Any]:
            return lambda: client.get(path, headers=headers)

        open_tables = [
            r["table"]
            for r in client.get(f"/api/events/{event}/pairings", headers=headers).json()
            if not r["bye"]
        ]
        for name, path in pages.items():
            joiner = "&" if "?" in path else "?"
            figures: dict[str, Timed] = {"cold": timed(get(path)), "warm": timed(get(path))}
            table = open_tables.pop()
            reported = client.post(
                f"/api/events/{event}/results", json={"slips": [f"{table}=2-0-0"]}, headers=headers
            )
            assert reported.status_code == 201, reported.text
            time.sleep(0.6)  # the hub notices the new version (it polls every 0.25 s)
            figures["new version"] = timed(get(path))
            figures["warm again"] = timed(get(path))
            if name != "own page":
                figures[f"page {middle}"] = timed(get(f"{path}{joiner}page={middle}"))
                figures["search"] = timed(get(f"{path}{joiner}find=Player 0012"))
                figures["all rows"] = timed(get(f"{path}{joiner}page=all"))
            out[name] = figures
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="64,512,2048")
    parser.add_argument("--rounds", type=int, default=2, help="rounds reported before")
    parser.add_argument("--keep", help="build (or reuse) the stores in this folder")
    parser.add_argument(
        "--no-pages", action="store_true", help="the two commands only (goal 3), not the pages"
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {date.today()}, {args.rounds} rounds reported, "
        f"the next paired; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'players':>8} {'facts':>6} {'post wall/CPU':>14} {'verify wall/CPU':>16}")
    pages: dict[int, dict[str, dict[str, Timed]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for players in sizes:
            folder = Path(args.keep or scratch) / f"{players}-{args.rounds}"
            folder.mkdir(parents=True, exist_ok=True)
            db, key = folder / "store.db", folder / "seal.pem"
            if not (folder / "event.txt").exists():
                (folder / "public.txt").write_text(create_key(key))
                (folder / "event.txt").write_text(build(db, players, key, args.rounds))
            event, public = (folder / "event.txt").read_text(), (folder / "public.txt").read_text()
            post_wall, post_cpu, text = command(db, "event", "standings", event, "--posting")
            posting = folder / "posting.json"
            posting.write_text(text)
            check_wall, check_cpu, _ = command(
                db, "event", "verify", event, "--posting", str(posting), "--public-key", public
            )
            with open_service(db) as svc:
                facts = svc.event_info(event).version
            print(
                f"{players:>8} {facts:>6} {post_wall:>6.2f}/{post_cpu:<5.2f}s "
                f"{check_wall:>7.2f}/{check_cpu:<5.2f}s"
            )
            if args.no_pages:
                continue
            copy = Path(scratch) / f"pages-{players}"  # the pages report results: a copy
            shutil.copytree(folder, copy)
            pages[players] = page_times(copy / "store.db", event, players)
            shutil.rmtree(copy)
    if pages:
        print("\npages: wall/CPU ms, the whole answer")
    for players, figures in pages.items():
        for name, cases in figures.items():
            cells = "  ".join(f"{case} {w:.0f}/{c:.0f}" for case, (w, c) in cases.items())
            print(f"{players:>8} {name:<10} {cells}")


if __name__ == "__main__":
    main()

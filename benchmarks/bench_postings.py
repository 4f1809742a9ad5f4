"""Verifiable postings and the event pages at size (not a timed test: prints a table).

For each size an event of that many players is built through the service in a fresh SQLite
store (two rounds paired with their games created, every result reported) and sealed, then:

* ``referee event standings EVENT --posting`` as a subprocess: the whole command (start-up,
  reading the event's facts up to the checkpoint, folding, the standings from scratch);
* ``referee event verify EVENT --posting FILE --public-key KEY`` as a subprocess: signature,
  the store's chain up to the checkpoint, the event's facts, the rows recomputed;
* the pages in one running server (Litestar's test client; the service keeps the event
  folded): the pairings posting by table and by name, and the standings, each once cold
  (the posting footer folds the event at the checkpoint once) and then warm.

    python benchmarks/bench_postings.py [--sizes 64,512,2048]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from litestar.testing import TestClient

from service.access import TokenStore
from service.app import open_service
from service.seal import create_key, seal
from service.sidedb import open_side_db
from service.stores import parse_store
from web.app import ServeConfig, create_app

SLIPS = ["2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1"]


def build(db: Path, players: int, key: Path) -> str:
    svc = open_service(db, create=True)
    event = svc.event_new("Bench", "gammasphere", rounds=8).event_id
    svc.event_register(event, [f"Player {n:04}" for n in range(players)])
    for _ in range(2):
        rows = svc.event_pair(event)
        svc.event_result(
            event, [f"{r.table}={SLIPS[(r.table or 0) % 5]}" for r in rows if not r.bye]
        )
    seal(svc.store, key)
    svc.close()
    return event


def command(db: Path, *args: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "--db", str(db), *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    elapsed = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{args}: {done.stderr}")
    return elapsed, done.stdout


def page_times(db: Path, event: str) -> list[tuple[float, float]]:
    """(cold, warm) seconds for the by-table, by-name and standings pages."""
    tokens = TokenStore(open_side_db(parse_store(str(db))))
    token = tokens.create("head", "Hera", ())[1]
    tokens.db.close()
    headers = {"Authorization": f"Bearer {token}"}
    out: list[tuple[float, float]] = []
    with TestClient(create_app(ServeConfig(store=str(db)))) as client:
        for path in ("pairings", "pairings?by=name", "standings"):
            times = []
            for _ in range(2):
                start = time.perf_counter()
                response = client.get(f"/events/{event}/{path}", headers=headers)
                times.append(time.perf_counter() - start)
                assert response.status_code == 200, response.text
            out.append((times[0], times[1]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="64,512,2048")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {date.today()}"
    )
    print(
        f"{'players':>8} {'facts':>6} {'post (cmd)':>11} {'verify (cmd)':>13} "
        f"{'by table cold/warm':>19} {'by name cold/warm':>18} {'standings cold/warm':>20}"
    )
    for players in sizes:
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "store.db"
            key = Path(folder) / "seal.pem"
            public = create_key(key)
            event = build(db, players, key)
            post, text = command(db, "event", "standings", event, "--posting")
            posting = Path(folder) / "posting.json"
            posting.write_text(text)
            check, _ = command(
                db, "event", "verify", event, "--posting", str(posting), "--public-key", public
            )
            pages = page_times(db, event)
            with open_service(db) as svc:
                facts = svc.event_info(event).version
        cells = "".join(
            f" {f'{cold * 1000:.0f}/{warm * 1000:.0f} ms':>{width}}"
            for (cold, warm), width in zip(pages, (19, 18, 20), strict=True)
        )
        print(f"{players:>8} {facts:>6} {post:>10.2f}s {check:>12.2f}s{cells}")


if __name__ == "__main__":
    main()

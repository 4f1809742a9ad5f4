"""Whole-command timings of events on the ledger (not a timed test: prints a table).

For each size an event of that many players is built through the service in a
fresh SQLite store (round 1 paired, its games created, every result reported), then:

* ``referee event pair EVENT`` for round 2, as a subprocess: the whole command,
  start-up, loading the event, pairing, and creating and linking every game in one
  transaction;
* ``referee event result EVENT T=2-0-0`` for one table of round 2, as a subprocess;
* in one service (a server's case): one result reported and the standings read after
  it, using the incremental projection.

The commands run with the project's bytecode compiled first (``compileall``), as an
installed package has it: with ``PYTHONDONTWRITEBYTECODE`` set (as on the shared
machine) every command would otherwise recompile some 180 modules, 0.35 s of CPU.

    python benchmarks/bench_event_command.py [--sizes 64,512,2048]
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import tempfile
import time
from datetime import date
from pathlib import Path

from _common import referee_timed

from service.app import open_service

ROOT = Path(__file__).resolve().parent.parent
SLIPS = ["2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1"]


def build(db: Path, players: int) -> str:
    svc = open_service(db, create=True)
    event = svc.event_new("Bench", "gammasphere", rounds=8).event_id
    svc.event_register(event, [f"Player {n:04}" for n in range(players)])
    rows = svc.event_pair(event)
    svc.event_result(event, [f"{r.table}={SLIPS[(r.table or 0) % 5]}" for r in rows if not r.bye])
    svc.close()
    return event


def command(db: Path, *args: str) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of the whole command: on a shared
    machine the CPU time is the steadier figure."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    elapsed, cpu, _ = referee_timed(["--db", str(db), *args], {**env, "PYTHONPATH": str(ROOT)})
    return elapsed, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="64,512,2048")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    for package in ("cli", "service", "events", "referee", "web", "projections"):
        compileall.compile_dir(ROOT / package, quiet=1)
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {date.today()}"
    )
    print(
        f"{'players':>8} {'pair r2 wall/cpu':>18} {'result wall/cpu':>16} "
        f"{'result+standings (svc)':>23} {'stream events':>14}"
    )
    for players in sizes:
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "store.db"
            event = build(db, players)
            pair = command(db, "event", "pair", event, "--json")
            one = command(db, "event", "result", event, "1=2-0-0")
            svc = open_service(db)
            svc.event_standings(event)  # folded once, as a running server holds it
            start = time.perf_counter()
            svc.event_result(event, ["2=2-1-0"])
            svc.event_standings(event)
            update = time.perf_counter() - start
            length = svc.event_info(event).version
            svc.close()
        print(
            f"{players:>8} {pair[0]:>8.2f}s/{pair[1]:.2f}s {one[0]:>7.2f}s/{one[1]:.2f}s "
            f"{update * 1000:>21.1f}ms {length:>14}"
        )


if __name__ == "__main__":
    main()

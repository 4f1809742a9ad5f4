"""CPU per event write, in one process (a server's case, without HTTP): an event of
``--players`` players in a fresh SQLite store, round 1 paired; then every table's slip
reported one write at a time (``event_result``), half of them with ``If-Match`` and an
``Idempotency-Key``, and (round 2) every match reported by both players
(``event_report`` + ``event_report_confirm``), through a ``CachedService`` writer thread
(``GroupWriter.event``, as ``Writer.event`` runs them; ``GroupWriter.call`` where the writer
has no ``event``) or the service directly (``--direct``). Then (round 3) the slips queued
``--burst`` at a time before any is awaited, as a round's end brings them: the writer's
commits per write (``GroupWriter.commits``: several event writes in one commit, or one each).
CPU is ``time.process_time`` (every thread) per write; the best of ``--repeat`` runs.

    python benchmarks/bench_event_write.py [--players 400] [--repeat 3] [--direct] [--calls]
        [--burst 16]

``--calls`` counts the Python function calls per write in every thread (deterministic on a
loaded machine; the CPU figures are then the profiler's, not the write's).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import pstats
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar, cast

from service.app import open_service
from service.cached import CachedService
from service.pipeline import with_terms
from service.writer import GroupWriter

T = TypeVar("T")
SLIPS = ["2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1"]


def run(
    players: int, direct: bool, profile: bool, calls: bool, burst: int = 16
) -> tuple[float, float, float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        svc = open_service(db, create=True)
        event = svc.event_new("Bench", "gammasphere", rounds=8).event_id
        svc.event_register(event, [f"Player {n:04}" for n in range(players)])
        svc.close()
        cached = CachedService(open_service(db).store)
        if calls:  # Python function calls in every thread: a count that load does not move

            def count(frame: FrameType, event: str, arg: object) -> None:
                if event == "call":
                    COUNT[0] += 1
                elif event == "c_call":
                    COUNT[1] += 1

            threading.setprofile(count)
        writer = GroupWriter(cached)
        queue_write: Any = getattr(writer, "event", writer.call)  # batched where it can be

        def write(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
            if direct:
                return fn(*args, **kwargs)
            return cast(T, queue_write(lambda: fn(*args, **kwargs)).result())

        rows = write(cached.event_pair, event)
        tables = [r.table or 0 for r in rows if not r.bye]
        prof = cProfile.Profile() if profile else None
        if calls:
            sys.setprofile(threading.getprofile())
        COUNT[:] = [0, 0]
        start = time.process_time()
        if prof:
            prof.enable()
        for n, table in enumerate(tables):
            slip = f"{table}={SLIPS[table % 5]}"
            if n % 2:
                version = cached.event_version(event)
                write(with_terms(cached.event_result, version, f"k{n}"), event, [slip])
            else:
                write(cached.event_result, event, [slip])
        slips = (time.process_time() - start) / len(tables)
        slip_calls = (COUNT[0] / len(tables), COUNT[1] / len(tables))
        write(cached.event_round, event, "end")
        rows = write(cached.event_pair, event)
        COUNT[:] = [0, 0]
        start = time.process_time()
        reports = 0
        for row in rows:
            if row.bye:
                continue
            state = cached.event_state(event)
            pairing = state.rounds[state.current_round].table(row.table or 0)
            assert pairing is not None
            a, b = pairing.players[:2]
            report = with_terms(cached.event_report, idempotency_key=f"r{row.table}")
            filed = write(report, event, a, "2-1-0")
            write(cached.event_report_confirm, event, filed.report, b)
            reports += 2
        per_report = (time.process_time() - start) / reports
        report_calls = (COUNT[0] / reports, COUNT[1] / reports)
        write(cached.event_round, event, "end")
        rows = write(cached.event_pair, event)
        tables = [r.table or 0 for r in rows if not r.bye]
        per_burst, per_commit = _bursts(cached, writer, event, tables, burst, direct)
        sys.setprofile(None)
        threading.setprofile(None)
        if prof:
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        writer.close()
        cached.close()
        if calls:
            print(
                f"Python / C calls per write: slip {slip_calls[0]:.0f} / {slip_calls[1]:.0f}, "
                f"report {report_calls[0]:.0f} / {report_calls[1]:.0f}, "
                f"slip {burst} at a time {BURST_CALLS[0]:.0f} / {BURST_CALLS[1]:.0f}"
            )
        return slips, per_report, per_burst, per_commit


def _bursts(
    cached: CachedService,
    writer: GroupWriter,
    event: str,
    tables: list[int],
    burst: int,
    direct: bool,
) -> tuple[float, float]:
    """Every table's slip, ``burst`` queued before any is awaited: CPU per write and the
    writes per commit of the writer."""
    queue_write: Any = getattr(writer, "event", writer.call)
    COUNT[:] = [0, 0]
    commits, start = writer.commits, time.process_time()
    for first in range(0, len(tables), burst):
        if direct:
            for table in tables[first : first + burst]:
                cached.event_result(event, [f"{table}={SLIPS[table % 5]}"])
            continue
        futures = [
            queue_write(functools.partial(cached.event_result, event, [f"{t}={SLIPS[t % 5]}"]))
            for t in tables[first : first + burst]
        ]
        for future in futures:
            future.result()
    per_write = (time.process_time() - start) / len(tables)
    BURST_CALLS[:] = [COUNT[0] / len(tables), COUNT[1] / len(tables)]
    return per_write, len(tables) / max(1, writer.commits - commits)


COUNT = [0, 0]
BURST_CALLS = [0.0, 0.0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--direct", action="store_true")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--calls", action="store_true", help="count Python calls per write")
    parser.add_argument("--burst", type=int, default=16, help="slips queued at once (round 3)")
    args = parser.parse_args()
    runs = [
        run(args.players, args.direct, args.profile, args.calls, args.burst)
        for _ in range(args.repeat)
    ]
    best = [min(x) for x in zip(*runs, strict=True)]
    print(
        f"{args.players} players, {'direct' if args.direct else 'writer thread'}: "
        f"slip {best[0] * 1000:.2f} ms CPU/write, report {best[1] * 1000:.2f} ms CPU/write; "
        f"slips {args.burst} at a time: {best[2] * 1000:.2f} ms CPU/write, "
        f"{runs[0][3]:.1f} writes per commit"
    )


if __name__ == "__main__":
    main()

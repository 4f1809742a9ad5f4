"""Replication measured (issue 33 section 3): a hall on SQLite, its replica on PostgreSQL.

    python benchmarks/bench_replicate.py [--initial 100000] [--rate 1000] [--steady 10]
                                         [--cut 10] [--after 5] [--kills 5]

``referee replicate --follow`` copies a hall store of ``--initial`` events into a fresh
schema of the machine's PostgreSQL server through a loopback link that can be cut; the
hall then writes ``--rate`` events a second (whole games appended in bulk) while the
replicator is killed with SIGKILL ``--kills`` times at random moments of ``--steady``
seconds, then the link is cut for ``--cut`` seconds and restored. Reported: the first
copy's time and rate, the backlog at the link's return and how long until the replica
held everything the hall held at that moment, the hall's achieved write rate, and the
checks (byte-identical streams; copied count = the hall's count). The drill itself is
``tests/replication_drill.py``, which the suite runs scaled down. Figures go to
BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.postgres import SETTINGS, _dsn  # noqa: E402
from tests.replication_drill import drill  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--initial", type=int, default=100_000)
    parser.add_argument("--rate", type=float, default=1000)
    parser.add_argument("--steady", type=float, default=10)
    parser.add_argument("--cut", type=float, default=10)
    parser.add_argument("--after", type=float, default=5)
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--seed", type=int, default=33)
    args = parser.parse_args()
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(_dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    started = time.process_time()
    try:
        with tempfile.TemporaryDirectory() as folder:
            # the options are the drill's own keywords (initial, rate, ..., seed)
            f = drill(Path(folder), {**SETTINGS, "POSTGRES_SCHEMA": schema}, **vars(args))
    finally:
        with psycopg.connect(_dsn(), autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    print(f"first copy: {f.initial:,} events in {f.first_copy:.1f} s "
          f"({f.initial / f.first_copy:,.0f} events/s)")  # fmt: skip
    print(f"hall writes: {f.written:,} events at {f.write_rate:,.0f} events/s; "
          f"{f.kills} SIGKILLs of the replicator; link cut {f.cut:.0f} s")  # fmt: skip
    print(f"lag of the kills made up {f.settled:.2f} s after the last restart's period")
    print(f"at the link's return: {f.backlog:,} events behind; caught up in {f.converged:.2f} s")
    print(f"hall {f.source_events:,} events, replica copied {f.copied:,}; "
          f"streams byte-identical: {f.identical}")  # fmt: skip
    for line in f.notes:
        print(f"  replicator said: {line[:200]}")
    print(f"drill process CPU (writer, link, checks): {time.process_time() - started:.1f} s")


if __name__ == "__main__":
    main()

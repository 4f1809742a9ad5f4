"""The CPU of a whole ``referee act`` process (user + system seconds), A/B against another tree.

    python benchmarks/bench_act_cpu.py [--against PATH] [--runs 15]

A store holding a PRIZMIK game of 200 standing actions is built once (the same bytes
serve both trees); each run copies it and has ``referee act`` record one legal entry
in it, in this checkout and, with ``--against`` (another checkout of the project, for
example ``git archive main`` unpacked), in that one, the two interleaved run by run so
a busy host's drift falls on both alike. The figure is the child process's CPU
(``os.wait4``), not its wall time: on a shared, loaded machine the CPU a process spends
moves far less than how long it waits for a core. Both trees are byte-compiled first.
A script, never a timed test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import byte_compiled
from bench_instructions import BUILD

ROOT = Path(__file__).resolve().parent.parent


def _cpu_ms(command: list[str], cwd: Path) -> float:
    """The user + system CPU of one run of ``command``, in milliseconds."""
    process = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ
    )
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{command} failed in {cwd}")
    return (usage.ru_utime + usage.ru_stime) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--against", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    trees = {"this": ROOT, **({"against": args.against.resolve()} if args.against else {})}
    byte_compiled(list(trees.values()))
    with tempfile.TemporaryDirectory(prefix="referee-act-cpu-") as folder:
        work = Path(folder)
        db, entries = work / "store.db", work / "entries.json"
        subprocess.run(
            [sys.executable, "-c", BUILD, str(ROOT), "1", str(db), str(entries)], check=True
        )
        game, text = json.loads(entries.read_text())[0]
        figures: dict[str, list[float]] = {name: [] for name in trees}
        for attempt in range(args.runs + 1):
            for name, tree in trees.items():
                copy = work / f"run-{name}.db"
                for suffix in ("-wal", "-shm"):
                    Path(str(copy) + suffix).unlink(missing_ok=True)
                shutil.copy(db, copy)
                ms = _cpu_ms(
                    [sys.executable, "-m", "cli.main", "--db", str(copy), "act", game, text], tree
                )
                if attempt:  # the first run of each only warms the caches
                    figures[name].append(ms)
        print(
            json.dumps(
                {
                    name: {
                        "median_cpu_ms": round(statistics.median(v), 1),
                        "min_cpu_ms": round(min(v), 1),
                    }
                    for name, v in figures.items()
                }
            )
        )


if __name__ == "__main__":
    main()

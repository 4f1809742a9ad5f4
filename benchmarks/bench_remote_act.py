"""``referee act`` three ways, side by side: on a SQLite file, on PostgreSQL, and through a
running server on PostgreSQL (``referee --server URL act``).

    python benchmarks/bench_remote_act.py [--runs 15] [--instructions]

Each run is one whole process recording the same rejected PRIZMIK entry (``e1>e8``:
the game is loaded, the attempt appended as evidence) in its own game; the three
commands take turns (A B C, A B C, ...) so a busy host slows all three alike. Printed:
the median wall time and CPU time (user + sys) of the command's process, the server's
own CPU per remote entry (read from ``/proc``), and with ``--instructions`` each
command's instruction count under ``valgrind --tool=callgrind`` (``PYTHONHASHSEED=0``:
the same count on every run, however busy the host).

Needs a PostgreSQL server (``REFEREE_BENCH_PG``, default
``postgresql://postgres@127.0.0.1:5432/test``); a fresh schema is made and dropped.
The project's modules are byte-compiled first, as an installed command's are.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _common import free_port, new_schema, referee_out  # noqa: E402
from bench_pg_act import instructions_in  # noqa: E402 - the sibling's count

PG = os.environ.get("REFEREE_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")
ENTRY = "e1>e8"  # red's full fleet may not fly that far: rejected, kept as evidence


def referee(*args: str, env: dict[str, str] | None = None) -> str:
    return referee_out(*args, env=env)


def new_game(store: str) -> str:
    return referee("--db", store, "new", "prizmik", "--player", "red=A", "--player", "blue=B")


def server_cpu(pid: int) -> float:
    """User + system seconds of a process so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 1 or "PZ-" not in done.stderr:
        raise RuntimeError(f"{command}: {done.returncode} {done.stdout} {done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def instructions(command: list[str], env: dict[str, str]) -> int:
    """The command's instruction count under callgrind, as ``bench_pg_act`` counts it."""
    return instructions_in(ROOT, command, env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--instructions", action="store_true", help="Count with callgrind too.")
    args = parser.parse_args()

    import psycopg

    subprocess.run(
        [
            sys.executable,
            "-m",
            "compileall",
            "-q",
            *(str(ROOT / p) for p in ("referee", "events", "projections", "service", "cli", "web")),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    dsn = PG.split("?")[0]
    schema = new_schema(dsn, "bench_remote")
    pg = f"{dsn}?schema={schema}"
    server = None
    work = Path(tempfile.mkdtemp(prefix="bench-remote-"))
    try:
        sqlite = str(work / "games.db")
        games = {"sqlite": new_game(sqlite), "postgres": new_game(pg), "server": new_game(pg)}
        token = json.loads(
            referee("token", "create", "--store", pg, "--role", "head", "--name", "B", "--json")
        )["token"]
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        log = (work / "serve.log").open("w")
        server = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--store", pg, "--port", str(port)],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/health", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.2)
        clean = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
        py = [sys.executable, "-m", "cli.main"]
        commands = {
            "sqlite": ([*py, "--db", sqlite, "act", games["sqlite"], ENTRY], clean),
            "postgres": ([*py, "--db", pg, "act", games["postgres"], ENTRY], clean),
            "server": (
                [*py, "--server", base, "act", games["server"], ENTRY],
                {**clean, "REFEREE_TOKEN": token},
            ),
        }
        for command, env in commands.values():  # warm: caches, the server's first request
            timed(command, env)
        walls: dict[str, list[float]] = {k: [] for k in commands}
        cpus: dict[str, list[float]] = {k: [] for k in commands}
        served = 0.0
        for _ in range(args.runs):
            for name, (command, env) in commands.items():
                mark = server_cpu(server.pid) if name == "server" else 0.0
                wall, cpu = timed(command, env)
                if name == "server":
                    served += server_cpu(server.pid) - mark
                walls[name].append(wall)
                cpus[name].append(cpu)
        print(f"{args.runs} runs each, interleaved; load average {os.getloadavg()[0]:.1f}")
        base_wall = statistics.median(walls["sqlite"])
        for name in commands:
            wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
            print(
                f"{name:9} wall {wall * 1000:6.0f} ms ({wall / base_wall:.2f}x sqlite)  "
                f"cpu {cpu * 1000:6.0f} ms"
            )
        print(f"server cpu per remote entry: {served / args.runs * 1000:.1f} ms")
        if args.instructions:
            counts = {name: instructions(c, e) for name, (c, e) in commands.items()}
            for name, count in counts.items():
                print(
                    f"{name:9} {count / 1e6:8.1f}M instructions "
                    f"({count / counts['sqlite']:.3f}x sqlite)"
                )
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


if __name__ == "__main__":
    main()

"""The server's write path in one process, without HTTP: entries one commit each (the
path before issue 23) against the group commit (``service.writer.GroupWriter``).

    python benchmarks/bench_group.py                    # SQLite
    python benchmarks/bench_group.py --store postgres   # the machine's PostgreSQL

``--tables`` PRIZMIK games each take ``--rounds`` legal entries, a round at a time (every
table's next entry arrives together, as under load). ``single`` records each entry as
the HTTP handler used to (a cached load, ``record``, one transaction); ``group`` queues
a round's entries on the writer and waits for their answers. ``burst`` is ``group`` with,
in every round, ``--burst`` other games ended by resignation and as many new games
started, all queued with the round's entries (issue 23's bursts of game ends): through
the writer's ``command`` and ``create`` where it has them (one commit with the entries),
else each alone through ``call`` as before. Reported: wall time and the process's CPU
time per write, and writes per transaction. CPU time moves less than wall
time on a shared machine; the commit's wait on the disk shows in wall time only.
A script, never a timed test.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from bench_http import drop_schema, pg_schema, random_games  # noqa: E402


def run(
    mode: str, store: dict[str, Any], tables: int, rounds: int, burst: int = 0
) -> dict[str, float]:
    from events.store import GameStore
    from service.cached import CachedService
    from service.writer import GroupWriter

    grouped = hasattr(GroupWriter, "command")  # ends and new games join the commit

    played = random_games(tables, 5, rounds + 1)
    svc = CachedService(GameStore(**store))
    games = [svc.create_game("prizmik", {"red": "a", "blue": "b"}).game_id for _ in played]
    for game in games:
        svc.load(game)
    ending = [
        svc.create_game("prizmik", {"red": "a", "blue": "b"}).game_id
        for _ in range(burst * rounds if mode == "burst" else 0)
    ]
    for game in ending:
        svc.load(game)
    writer = GroupWriter(svc) if mode != "single" else None
    count = alone = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for k in range(rounds):
        due = [(g, moves[k]) for g, moves in zip(games, played, strict=True) if k < len(moves)]
        if writer is None:
            for game, move in due:
                svc.record(game, move, view=svc.load(game))
        else:
            futures: list[Any] = [writer.entry(game, move) for game, move in due]
            for game in ending[k * burst : (k + 1) * burst] if mode == "burst" else ():
                futures += _burst(svc, writer, game, grouped)
                alone += 0 if grouped else 2
            for future in futures:
                future.result()
            count += len(futures) - len(due)
        count += len(due)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    commits = (writer.commits if writer is not None else count) + alone
    if writer is not None:
        writer.close()
    svc.close()
    return {
        "wall_us": 1e6 * wall / count,
        "cpu_us": 1e6 * cpu / count,
        "per_commit": count / max(1, commits),
    }


def _burst(svc: Any, writer: Any, game: str, grouped: bool) -> list[Any]:
    """A table's resignation and its next game, queued on the writer."""
    if grouped:
        from referee.contract import Player
        from service.decide import CreateGame, End

        players = (Player("red", "a"), Player("blue", "b"))
        return [
            writer.command(game, End(how="resignation", who="red")),
            writer.create(CreateGame(game="prizmik", players=players)),
        ]
    return [
        writer.call(lambda: svc.end(game, "resignation", who="red")),
        writer.call(lambda: svc.create_game("prizmik", {"red": "a", "blue": "b"})),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--burst", type=int, default=30, help="Games ended and started a round.")
    args = parser.parse_args()
    for mode in ("single", "group", "burst"):
        with tempfile.TemporaryDirectory(prefix="bench-group-") as folder:
            if args.store == "sqlite":
                store: dict[str, Any] = {"db": os.path.join(folder, "s.db")}
                schema = None
            else:
                schema, env = pg_schema("group")
                store = {"env": {**env, "CREATE_TABLE": "yes"}}
            try:
                r = run(mode, store, args.tables, args.rounds, args.burst)
            finally:
                drop_schema(schema)
        print(
            f"{args.store:>8} {mode:>6}: {r['wall_us']:7.0f} us wall, {r['cpu_us']:5.0f} us CPU "
            f"per write, {r['per_commit']:.1f} writes per transaction",
            flush=True,
        )


if __name__ == "__main__":
    main()

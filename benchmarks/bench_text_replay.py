"""Importing text records: each entry entered again through the referee's own commands.

    python benchmarks/bench_text_replay.py [--games 10] [--actions 200] [--against PATH]

A text record (``referee-text/1``) carries no stored events, so an import replays
it entry by entry through the same decisions a live game uses
(``service.interchange.replay_text``). Random PRIZMIK games of ``--actions``
standing actions are exported as text records; each tree then replays them in
one process (parsing excluded), best and median of 5 rounds. ``--against`` names
another checkout (a ``git worktree`` of an older commit) to time the same
records in, one after the other, so both see the same host.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

# E402 on purpose: the project imports only once the lines above put it on sys.path
from bench_store import synthesize  # noqa: E402

from events.store import GameStore  # noqa: E402
from service.interchange import export_records  # noqa: E402

REPLAY = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from events.interchange.text import parse_text
from service.interchange import replay_text
records = [parse_text(p.read_text(), p.name) for p in sorted(Path(sys.argv[2]).glob("*.txt"))]
rounds = []
for _ in range(5):
    start = time.perf_counter()
    events = sum(len(replay_text(r, r.game_id)) for r in records)
    rounds.append(time.perf_counter() - start)
rounds.sort()
print(f"{events} {rounds[0]} {rounds[2]}")
"""


def write_records(folder: Path, games: int, actions: int) -> None:
    rng = random.Random(7)
    streams = [synthesize("prizmik", i, rng, actions, avoid_end=True) for i in range(games)]
    store = GameStore(str(folder / "source.db"))
    store.insert_streams(streams)
    for stream in streams:
        game_id = stream[0].originator_id
        text = "".join(export_records(store, [game_id], "text"))
        (folder / f"{game_id}.txt").write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--against", type=Path, default=None, help="Another checkout to time too.")
    args = parser.parse_args()
    trees = [("this code", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    with tempfile.TemporaryDirectory(prefix="referee-text-") as folder:
        write_records(Path(folder), args.games, args.actions)
        for label, tree in trees:
            done = subprocess.run(
                [sys.executable, "-c", REPLAY, str(tree), folder],
                cwd=tree,
                capture_output=True,
                text=True,
                check=True,
            )
            events, best, median = done.stdout.split()
            rate = int(events) / float(best)
            print(
                f"{label:<10} {args.games} text records, {events} events: best "
                f"{float(best) * 1000:.0f} ms ({rate:,.0f} events/s), median "
                f"{float(median) * 1000:.0f} ms",
                flush=True,
            )


if __name__ == "__main__":
    main()

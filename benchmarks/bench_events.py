"""Tournament core timings: Swiss pairing and one standings update, by event size.

Not a timed test: prints a table. For each size the event is played in the pure
core from a fixed seed (random results: 45% first-listed wins, 45% second, 10%
drawn matches) up to the round measured, then:

* pair: ``swiss_pairs`` for the next round (round 2, and a late round);
* update: one ``Standings.correct`` of a result in the last round, against
  ``compute_standings`` from scratch;
* swisspair: the same round paired by swisspair (when installed), for comparison,
  with the rematches and total squared score gap each produces, and our time over
  its time (both best of 3, run one after the other in this process).

    python benchmarks/bench_events.py [--sizes 64,128,...] [--late 8]
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from datetime import date

from referee.tournament import (
    Entrant,
    MatchResult,
    Score,
    Seat,
    Settings,
    Standings,
    compute_standings,
    swiss_pairs,
)

SETTINGS = Settings(game="bench")


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def play(
    n: int, rounds: int, seed: int
) -> tuple[list[Entrant], Standings, dict[tuple[int, int], MatchResult], list[Seat]]:
    """Play ``rounds`` rounds; return the entrants, live standings, results and next seats."""
    rnd = random.Random(seed)
    entrants = [Entrant(id=f"p{i:04d}", name=f"P{i}", order=i) for i in range(n)]
    live = Standings(SETTINGS, entrants)
    met: dict[str, set[str]] = {e.id: set() for e in entrants}
    byes = {e.id: 0 for e in entrants}
    results: dict[tuple[int, int], MatchResult] = {}
    for number in range(1, rounds + 1):
        seats = seats_now(live, met, byes)
        pairs, bye = swiss_pairs(seats)
        for table, (a, b) in enumerate(pairs, start=1):
            met[a].add(b)
            met[b].add(a)
            x = rnd.random()
            score = Score(2, 1) if x < 0.45 else Score(0, 2) if x < 0.9 else Score(1, 1, 1)
            result = MatchResult(round=number, players=(a, b), score=score)
            results[(number, table)] = result
            live.record((number, table), result)
        if bye is not None:
            byes[bye] += 1
            result = MatchResult(round=number, players=(bye,), bye=True)
            results[(number, 0)] = result
            live.record((number, 0), result)
    return entrants, live, results, seats_now(live, met, byes)


def seats_now(live: Standings, met: dict[str, set[str]], byes: dict[str, int]) -> list[Seat]:
    rows = live.table()
    return [
        Seat(id=r.player, points=r.points, opponents=frozenset(met[r.player]), byes=byes[r.player])
        for r in rows
    ]


def quality(seats: list[Seat], pairs: list[tuple[str, str]]) -> tuple[int, int]:
    points = {s.id: s.points for s in seats}
    met = {s.id: s.opponents for s in seats}
    rematches = sum(1 for a, b in pairs if b in met[a])
    gaps = sum((points[a] - points[b]) ** 2 for a, b in pairs)
    return rematches, gaps


def swisspair_round(seats: list[Seat]) -> tuple[float, list[tuple[str, str]]] | None:
    try:
        import swisspair
    except ImportError:
        return None
    players = [
        swisspair.Player(
            id=s.id,
            points=s.points,
            rank=i + 1,
            can_get_bye=s.byes == 0,
            cannot_be_paired_against_ids=set(s.opponents),
        )
        for i, s in enumerate(seats)
    ]
    matches: list[object] = []

    def run() -> None:
        matches[:] = swisspair.create_matches(players)

    took = best_of(run)
    return took, [(m.p1.id, m.p2.id) for m in matches if m.p2 is not None]  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="64,128,256,512,1024,2048")
    parser.add_argument("--late", type=int, default=8, help="the late round to pair")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        f"# {date.today()} {platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}"
    )
    header = (
        "| players | round | pair (ms) | rematches | score gap | swisspair (ms) | its rematches "
        "| its gap | ours / theirs | update (ms) | from scratch (ms) |"
    )
    print(header)
    print("|" + "---|" * 11)
    for n in sizes:
        for target in (2, args.late):
            entrants, live, results, seats = play(n, target - 1, seed=n + target)

            def pair(seats: list[Seat] = seats) -> None:
                swiss_pairs(seats)

            pair_time = best_of(pair)
            pairs, _ = swiss_pairs(seats)
            rematches, gaps = quality(seats, pairs)
            theirs = swisspair_round(seats)
            if theirs is None:
                their_cells = "n/a | n/a | n/a | n/a"
            else:
                their_time, their_pairs = theirs
                their_rematches, their_gaps = quality(seats, their_pairs)
                their_cells = (
                    f"{their_time * 1000:.1f} | {their_rematches} | {their_gaps} | "
                    f"{pair_time / their_time:.2f}"
                )
            key = max(k for k in results if k[1] > 0)
            old = results[key]
            flipped = MatchResult(round=old.round, players=old.players, score=Score(0, 2))

            def update(
                key: tuple[int, int] = key,
                old: MatchResult = old,
                new: MatchResult = flipped,
                live: Standings = live,
            ) -> None:
                live.correct(key, new)
                live.correct(key, old)

            update_time = best_of(update, repeat=5) / 2

            def scratch_run(
                entrants: list[Entrant] = entrants,
                results: dict[tuple[int, int], MatchResult] = results,
            ) -> None:
                compute_standings(entrants, results.values(), SETTINGS)

            scratch = best_of(scratch_run, repeat=1)
            print(
                f"| {n} | {target} | {pair_time * 1000:.1f} | {rematches} | {gaps} | "
                f"{their_cells} | {update_time * 1000:.2f} | {scratch * 1000:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()

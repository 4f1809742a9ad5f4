"""Throughput of the PRIZMIK rules: parse + check + apply over realistic games.

Run from the repository root::

    python benchmarks/bench_prizmik_rules.py [--games N] [--seed S] [--repeat R]

It plays N random legal games with a fixed seed (each stops at its end or at
200 plies), keeps their actions as canonical text, then times replaying every
text through ``parse``, ``check`` and ``apply`` from the initial position, the
way a referee replays a stored game. For scale it does the same with
python-chess: random legal games replayed through ``Board.push_san`` (which
parses, checks legality and applies). The chess part is skipped with a message
if the ``chess`` package is not installed. Figures are the best of R rounds,
on one core.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.contract import Player, Setup
from referee.games.prizmik import PrizmikRules, PrizmikState

MAX_PLIES = 200


def prizmik_games(
    rules: PrizmikRules, count: int, seed: int
) -> tuple[PrizmikState, list[list[str]]]:
    """Random legal games as lists of canonical action texts, plus the start position."""
    rng = random.Random(seed)
    setup = Setup(players=(Player(seat="red", name="r"), Player(seat="blue", name="b")))
    start = rules.initial_state(setup)
    games = []
    for _ in range(count):
        state = start
        moves: list[str] = []
        while len(moves) < MAX_PLIES and not rules.outcome(state).over:
            action = rng.choice(rules.legal_actions(state))
            moves.append(rules.notation(action))
            state = rules.apply(state, action)
        games.append(moves)
    return start, games


def time_prizmik(rules: PrizmikRules, start: PrizmikState, games: list[list[str]]) -> float:
    """Seconds to parse, check and apply every action of every game."""
    parse, check, apply = rules.parse, rules.check, rules.apply
    t0 = time.perf_counter()
    for moves in games:
        state = start
        for text in moves:
            action = parse(text)
            if not check(state, action):
                raise AssertionError(f"illegal action {text} in a generated game")
            state = apply(state, action)
    return time.perf_counter() - t0


def chess_games(count: int, seed: int) -> list[list[str]] | None:
    """Random legal chess games as SAN lists, or None if python-chess is missing."""
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = chess.Board()
        sans: list[str] = []
        while len(sans) < MAX_PLIES and not board.is_game_over(claim_draw=False):
            move = rng.choice(list(board.legal_moves))
            sans.append(board.san(move))
            board.push(move)
        games.append(sans)
    return games


def time_chess(games: list[list[str]]) -> float:
    """Seconds to replay every game through ``Board.push_san``."""
    import chess

    t0 = time.perf_counter()
    for sans in games:
        board = chess.Board()
        push_san = board.push_san
        for san in sans:
            push_san(san)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="PRIZMIK games to generate")
    parser.add_argument("--chess-games", type=int, default=60, help="chess games to generate")
    parser.add_argument("--seed", type=int, default=20240611)
    parser.add_argument("--repeat", type=int, default=5, help="timing rounds; best is kept")
    args = parser.parse_args()

    rules = PrizmikRules()
    start, games = prizmik_games(rules, args.games, args.seed)
    n = sum(len(g) for g in games)
    best = min(time_prizmik(rules, start, games) for _ in range(args.repeat))
    prizmik_rate = n / best
    print(
        f"PRIZMIK  parse+check+apply: {n} actions in {args.games} games, "
        f"best {best * 1000:.1f} ms -> {prizmik_rate:,.0f} actions/s "
        f"({best / n * 1e6:.2f} us/action)"
    )

    if args.chess_games <= 0:
        print("chess    skipped: --chess-games 0")
        return
    cgames = chess_games(args.chess_games, args.seed)
    if cgames is None:
        print("chess    skipped: python-chess is not installed (pip install chess)")
        return
    cn = sum(len(g) for g in cgames)
    cbest = min(time_chess(cgames) for _ in range(args.repeat))
    chess_rate = cn / cbest
    print(
        f"chess    push_san:          {cn} moves in {args.chess_games} games, "
        f"best {cbest * 1000:.1f} ms -> {chess_rate:,.0f} moves/s "
        f"({cbest / cn * 1e6:.2f} us/move)"
    )
    print(f"ratio    PRIZMIK / chess = {prizmik_rate / chess_rate:.2f}x")


if __name__ == "__main__":
    main()

"""Regenerate the PRIZMIK fixtures: perft table and complete example games.

Run from the repository root::

    python -m tests.prizmik.build_fixtures

Games are found by search with the engine itself: a seeded, mildly greedy
random player (it prefers captures and promotions) plays many games, and for
each wanted ending the shortest game that shows it is kept. Everything is
deterministic, so rerunning reproduces the same files unless the rules change,
which is exactly when the fixtures must be looked at again by hand.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from referee.games.prizmik import PrizmikAction, PrizmikState
from tests.prizmik.helpers import FIXTURES, PLAYERS, RULES, start

MAX_PLIES = 200

# A hand-built position with every kind of piece in contact, for perft beyond
# the quiet opening. Rank 8 first; red upper case, blue lower case.
TACTICAL = """
. . f . b . . .
. X . . s . . .
. . X . . h . .
. S . x . . . .
. . h . X . . .
. . . H . . x .
. . . . . H . .
. . B . F . . .
"""


def perft(state: PrizmikState, depth: int) -> int:
    """Number of action sequences of length ``depth`` (leaf positions)."""
    actions = RULES.legal_actions(state)
    if depth == 1:
        return len(actions)
    return sum(perft(RULES.apply(state, a), depth - 1) for a in actions)


def build_perft() -> dict[str, Any]:
    entries: list[dict[str, Any]] = []
    for name, variants, depth in (
        ("initial", {}, 5),
        ("initial setup_files=bdf", {"setup_files": "bdf"}, 4),
        ("initial setup_files=abc", {"setup_files": "abc"}, 4),
        ("initial fleet_capturable=no", {"fleet_capturable": "no"}, 4),
    ):
        state = start(**variants)
        entries.append(
            {
                "name": name,
                "variants": variants,
                "perft": {str(d): perft(state, d) for d in range(1, depth + 1)},
            }
        )
    for turn in ("red", "blue"):
        state = RULES.position(TACTICAL, turn=turn, reserves=(1, 1))
        entries.append(
            {
                "name": f"tactical, {turn} to move",
                "diagram": TACTICAL.strip().splitlines(),
                "turn": turn,
                "reserves": [1, 1],
                "variants": {},
                "perft": {str(d): perft(state, d) for d in range(1, 4)},
            }
        )
    return {
        "description": "Counts of legal action sequences (perft) computed by the PRIZMIK "
        "engine; depths 1 and 2 of the initial positions are also reasoned out by hand in "
        "tests/prizmik/test_prizmik_perft.py.",
        "positions": entries,
    }


Policy = Callable[[random.Random, PrizmikState, Sequence[PrizmikAction]], PrizmikAction]


def greedy(
    rng: random.Random, state: PrizmikState, actions: Sequence[PrizmikAction]
) -> PrizmikAction:
    """Prefer captures and promotions most of the time, otherwise play at random."""
    keen = [
        a
        for a in actions
        if a.kind == "capture" or RULES.apply(state, a).reserves != state.reserves
    ]
    if keen and rng.random() < 0.8:
        return rng.choice(keen)
    return rng.choice(actions)


def uniform(
    rng: random.Random, state: PrizmikState, actions: Sequence[PrizmikAction]
) -> PrizmikAction:
    return rng.choice(actions)


def play_out(
    seed: int, variants: dict[str, str], policy: Policy
) -> tuple[list[str], PrizmikState, int]:
    """One game: its moves, the final state and the number of promotions."""
    rng = random.Random(seed)
    state = start(**variants)
    moves: list[str] = []
    promotions = 0
    while len(moves) < MAX_PLIES and not RULES.outcome(state).over:
        action = policy(rng, state, RULES.legal_actions(state))
        after = RULES.apply(state, action)
        promotions += after.reserves != state.reserves
        moves.append(RULES.notation(action))
        state = after
    return moves, state, promotions


def search(
    variants: dict[str, str],
    policy: Policy,
    wanted: Callable[[PrizmikState, int], bool],
    seeds: range,
) -> tuple[int, list[str], PrizmikState, int]:
    """The shortest game over ``seeds`` whose end satisfies ``wanted``."""
    best: tuple[int, list[str], PrizmikState, int] | None = None
    for seed in seeds:
        moves, state, promotions = play_out(seed, variants, policy)
        if wanted(state, promotions) and (best is None or len(moves) < len(best[1])):
            best = (seed, moves, state, promotions)
    if best is None:
        raise SystemExit(f"no game found for {variants}")
    return best


def ended_by(clause: str, status: str = "win") -> Callable[[PrizmikState, int], bool]:
    def check(state: PrizmikState, promotions: int) -> bool:
        out = RULES.outcome(state)
        return out.status == status and out.clause == clause

    return check


def game_record(
    title: str,
    notes: str,
    variants: dict[str, str],
    moves: list[str],
    seed: int | None,
    promotions: int,
) -> dict[str, Any]:
    state = start(**variants)
    for text in moves:
        state = RULES.apply(state, RULES.parse(text))
    out = RULES.outcome(state)
    return {
        "title": title,
        "notes": notes,
        "generated_by": "tests/prizmik/build_fixtures.py, "
        + (f"search seed {seed}" if seed is not None else "constructed by hand (smothered_blue)"),
        "players": {p.seat: p.name for p in PLAYERS},
        "ruleset": "prizmik/1",
        "variants": variants,
        "promotions": promotions,
        "expected": {
            "result": out.result,
            "status": out.status,
            "winner": out.winner,
            "clause": out.clause,
            "reason": out.reason,
        },
        "final_board": RULES.render(state).splitlines()[:10],
        "moves": moves,
    }


def smothered_blue() -> list[str]:
    """A 29-ply line after which blue, to move, has no legal action."""
    red = [
        *("c1>c2", "c2-c4", "c4-c6", "c6>c7", "c6-d7"),
        *("e1>e2", "e2-e4", "e4-e6", "e6>e7", "e6-f7"),
        *("g1>g2", "g2-g4", "g4-g6", "g6>g7", "g6-h7"),
    ]
    blue = ["g8>h8", "h8-h7", "h7-g7", "g7-h8", *(["h8-h7", "h7-h8"] * 4), "c8>d8", "e8>f8"]
    moves = [m for pair in zip(red, blue, strict=False) for m in pair]
    return [*moves, red[-1]]


def with_promotion(clause: str) -> Callable[[PrizmikState, int], bool]:
    """Ended by ``clause`` after at least one promotion."""
    base = ended_by(clause)
    return lambda s, p: p >= 1 and base(s, p)


SEARCHED: tuple[
    tuple[str, str, str, dict[str, str], Policy, Callable[[PrizmikState, int], bool], int], ...
] = (
    (
        "01_promotion_then_all_bases",
        "A promotion, then every base captured",
        "Default variants. A fighter reaches the far rank with its home square empty and "
        "becomes a new full fleet (PZ-7.1, PZ-7.2); the game ends when one side captures "
        "the other's last base (PZ-8.1).",
        {},
        greedy,
        with_promotion("PZ-8.1"),
        400,
    ),
    (
        "02_base_captures_impossible",
        "Win because the loser can never capture a base again",
        "Default variants. The loser still has a base on the board but no ship anywhere and "
        "no lone fighter with a reserve to promote it into (PZ-8.2 as judged by PZ-10.7).",
        {},
        greedy,
        ended_by("PZ-8.2"),
        400,
    ),
    (
        "05_setup_bdf",
        "Starting fleets on files b, d and f",
        "Variant setup_files=bdf (PZ-10.1); won by capturing every base (PZ-8.1).",
        {"setup_files": "bdf"},
        greedy,
        ended_by("PZ-8.1"),
        300,
    ),
    (
        "06_fleets_not_capturable",
        "Full fleets cannot be captured",
        "Variant fleet_capturable=no (PZ-10.3): every base taken was a lone base left behind "
        "by a deploy; the loser's last base falls (PZ-8.1).",
        {"fleet_capturable": "no"},
        greedy,
        ended_by("PZ-8.1"),
        300,
    ),
    (
        "07_quiet_limit_draw",
        "Drawn by the optional quiet-play limit",
        "Variant quiet_limit=30 (PZ-10.11): thirty actions in a row without a capture or "
        "promotion end the game in a draw.",
        {"quiet_limit": "30"},
        uniform,
        ended_by("PZ-10.11", "draw"),
        200,
    ),
)
"""The games found by search: name, title, notes, variants, the player's policy, the
ending wanted and how many seeds to try."""


def build_games() -> dict[str, dict[str, Any]]:
    games: dict[str, dict[str, Any]] = {}
    for name, title, notes, variants, policy, wanted, seeds in SEARCHED:
        seed, moves, _, promos = search(variants, policy, wanted, range(seeds))
        games[name] = game_record(title, notes, variants, moves, seed, promos)

    moves = smothered_blue()
    games["03_no_legal_action_loss"] = game_record(
        "A player with no legal action loses",
        "Default variants (no_legal_action=loss). Constructed by hand, not searched: blue "
        "deploys to h8, d8 and f8 and marks time with the h8 stack while red walls off rank 7 "
        "(fighters on c7, e7, g7, ships on d7, f7, h7). Blue's bases cannot act and each blue "
        "stack has every neighbour occupied, its two-step moves blocked and no red base to "
        "take, so blue, to move, has no legal action and loses (PZ-10.6). Blue still has "
        "ships, so PZ-10.7 does not apply first.",
        {},
        moves,
        None,
        0,
    )
    games["04_no_legal_action_draw"] = game_record(
        "The same game under no_legal_action=draw",
        "The moves of 03_no_legal_action_loss replayed with the variant no_legal_action=draw: "
        "the stuck position is now a draw (PZ-10.6).",
        {"no_legal_action": "draw"},
        moves,
        None,
        0,
    )
    return dict(sorted(games.items()))


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    (FIXTURES / "perft.json").write_text(json.dumps(build_perft(), indent=2) + "\n")
    games_dir = FIXTURES / "games"
    games_dir.mkdir(exist_ok=True)
    for name, record in build_games().items():
        path = games_dir / f"{name}.json"
        path.write_text(json.dumps(record, indent=2) + "\n")
        exp = record["expected"]
        print(f"{path.name}: {len(record['moves'])} plies, {exp['result']} by {exp['clause']}")


if __name__ == "__main__":
    main()

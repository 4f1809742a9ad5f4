"""Regenerate the PRIZMIK fixtures: perft table and complete example games.

Run from the repository root::

    python -m tests.prizmik.build_fixtures

The perft table is counted by the independent reference model (``reference.py``) alone, so
that the engine is judged by it; the positions it starts from are listed below. Games are
found by search with the engine itself: a seeded, mildly greedy
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
from tests.prizmik import reference as ref
from tests.prizmik.helpers import FIXTURES, PLAYERS, RULES, start
from tests.prizmik.oracle import TABLES, reference_perft, start_name, table_of

MAX_PLIES = 200

# Where perft starts, besides the start under every table of ``oracle.TABLES``: (name, what
# it exercises, position line of PZ-9.5, variants, deepest depth stored). Deeper depths
# take the reference model up to half a minute each; the tests run the cheap ones always.
PERFT_POSITIONS: list[tuple[str, str, str, dict[str, str], int]] = [
    (
        "tactical, red to act",
        "every kind of piece in contact: all three kinds of capture, blocked two-step moves",
        "2f1b3/1X2s3/2X2h2/1S1x4/2h1X3/3H2x1/5H2/2B1F3 r 1/1 0 0",
        {},
        3,
    ),
    (
        "tactical, blue to act",
        "the same with blue to act",
        "2f1b3/1X2s3/2X2h2/1S1x4/2h1X3/3H2x1/5H2/2B1F3 b 1/1 1 0",
        {},
        3,
    ),
    (
        "mid-game",
        "36 plies into a game: a blue ship on red's home rank, fighters of both near their "
        "far ranks",
        "2b1b1b1/H7/8/2s5/2HX4/4x3/7X/F1B1h1BH r 2/3 36 4",
        {},
        3,
    ),
    (
        "mid-game, quiet limit two actions away",
        "PZ-10.11: the game is drawn after two more actions without a capture or promotion",
        "2b1b1b1/H7/8/2s5/2HX4/4x3/7X/F1B1h1BH r 2/3 60 38",
        {"quiet_limit": "40"},
        4,
    ),
    (
        "promotions, red to act",
        "PZ-7: red promotes by a move (d7-d8), a capture (d7xe8) or a deploy (a7>a8), blue by "
        "a move or a deploy onto rank 1",
        "2f1x1f1/S2X4/8/8/8/8/4x2s/2F3F1 r 2/1 30 5",
        {},
        4,
    ),
    (
        "promotions, blue to act",
        "the same with blue to act",
        "2f1x1f1/S2X4/8/8/8/8/4x2s/2F3F1 b 2/1 30 5",
        {},
        4,
    ),
    (
        "far-rank step",
        "PZ-10.5: red's fighter on a8 (a1 taken) promotes by stepping to b8 (b1 empty)",
        "X1f2f2/8/8/8/8/8/8/B1F3F1 r 1/1 40 2",
        {},
        4,
    ),
    (
        "far-rank step, far_rank_step=no",
        "PZ-10.5: the same fighter stepping along rank 8 does not promote",
        "X1f2f2/8/8/8/8/8/8/B1F3F1 r 1/1 40 2",
        {"far_rank_step": "no"},
        4,
    ),
    (
        "waiting fighters",
        "PZ-10.15 by default: red fighters wait on d8 and e8 above a red and a blue ship on "
        "d1 and e1; nothing promotes when those ships leave",
        "2fXX1f1/8/8/8/8/8/8/2FHh1F1 r 2/2 20 3",
        {},
        4,
    ),
    (
        "waiting fighters, waiting_promotion=yes",
        "PZ-10.15: a red fighter promotes when the ship below it leaves, whoever moves it",
        "2fXX1f1/8/8/8/8/8/8/2FHh1F1 r 2/2 20 3",
        {"waiting_promotion": "yes"},
        4,
    ),
    (
        "last base",
        "PZ-8.1: red's ship takes blue's last base at once (d7xd8)",
        "3b4/3H4/8/8/8/8/2x5/2F5 r 0/1 50 10",
        {},
        4,
    ),
    (
        "last ship",
        "PZ-8.2: blue's fighter takes red's last ship (f4xe4), and red, with no fighter, "
        "can never take a base again",
        "6f1/8/8/8/4Hx2/8/8/BB6 b 0/1 20 3",
        {},
        4,
    ),
    (
        "no legal action",
        "PZ-10.6: blue's c7-b7 leaves red with nothing to do: red loses",
        "Xb6/x1h5/8/8/8/8/8/B7 b 1/1 0 0",
        {},
        5,
    ),
    (
        "no legal action, no_legal_action=draw",
        "PZ-10.6: the same, drawn",
        "Xb6/x1h5/8/8/8/8/8/B7 b 1/1 0 0",
        {"no_legal_action": "draw"},
        5,
    ),
    (
        "closed files",
        "PZ-10.13 by default: blue's f4xe4 takes the last ship with a base at an end of every "
        "file; play goes on",
        "4bbbb/8/8/X7/4Hx2/8/8/BBBB4 b 1/1 0 0",
        {},
        4,
    ),
    (
        "closed files, impossible_test=files",
        "PZ-10.13: the same capture draws",
        "4bbbb/8/8/X7/4Hx2/8/8/BBBB4 b 1/1 0 0",
        {"impossible_test": "files"},
        4,
    ),
    (
        "fleets in contact",
        "PZ-10.3: ships and stacks next to enemy full fleets, which they may take",
        "2f2f2/1S2H3/8/8/8/8/4h1s1/3F1F2 r 2/2 10 0",
        {},
        3,
    ),
    (
        "fleets in contact, fleet_capturable=no",
        "PZ-10.3: the same fleets cannot be taken",
        "2f2f2/1S2H3/8/8/8/8/4h1s1/3F1F2 r 2/2 10 0",
        {"fleet_capturable": "no"},
        3,
    ),
    (
        "set up by hand",
        "PZ-10.16: bases off their home ranks (a red one on e8, blue ones on c6 and e1), "
        "fighters on rank 1 and 8 from the start",
        "x3B3/8/2b5/3S4/4x3/8/8/1X2b1F1 r 3/2 0 0",
        {},
        4,
    ),
    (
        "over when read: no base",
        "PZ-10.16: blue has no base, so red has won whoever is to act; nothing is legal",
        "8/8/8/3x4/8/8/8/B7 r 3/3 0 0",
        {},
        1,
    ),
    (
        "over when read: neither can take a base",
        "PZ-10.8: red has no ship or fighter, blue a fighter but no reserve: drawn",
        "4b3/8/8/8/8/8/8/B3x3 r 0/0 0 0",
        {},
        1,
    ),
]


def build_perft() -> dict[str, Any]:
    """Perft counts by the reference model alone (``reference.py`` and the variant names
    of ``oracle.table_of``), never by the engine, so that the engine can be judged by them."""
    entries: list[dict[str, Any]] = []
    for variants in [*TABLES, {"setup_files": "abc"}]:
        model = ref.start(table_of(variants))
        # five actions never bring the sides into contact, so the variants other than the
        # files change nothing there: the default and other files go one deeper
        depth = 5 if set(variants) <= {"setup_files"} else 4
        entries.append(
            {
                "name": start_name(variants),
                "about": "the start (PZ-3, PZ-10.1)",
                "line": ref.position_line(model),
                "variants": variants,
                "perft": {str(d): reference_perft(model, d) for d in range(1, depth + 1)},
            }
        )
    for name, about, line, variants, depth in PERFT_POSITIONS:
        model = ref.read_line(line, table_of(variants))
        entries.append(
            {
                "name": name,
                "about": about,
                "line": line,
                "variants": variants,
                "perft": {str(d): reference_perft(model, d) for d in range(1, depth + 1)},
            }
        )
    return {
        "description": "Counts of legal action sequences (perft: the leaves of the game tree "
        "so many actions deep; a finished game has none below it) from PZ-9.5 position lines "
        "under the table's variants, computed by the independent reference model "
        "tests/prizmik/reference.py, never by the engine; depths 1 to 4 of the default start "
        "are also reasoned out by hand in tests/prizmik/test_prizmik_perft.py.",
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

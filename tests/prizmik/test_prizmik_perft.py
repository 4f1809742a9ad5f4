"""Perft: counts of legal action sequences, against fixtures/prizmik/perft.json.

Hand check of the opening (default files c, e, g; PZ-3.3, PZ-4.1, PZ-10.1):

* Depth 1 = 9. Red's only pieces are the full fleets on c1, e1 and g1. A full
  fleet cannot move (PZ-5.1) or capture (PZ-10.9); it deploys one step left,
  right or forward (PZ-4.1, PZ-10.12), and all of b1, d1, c2, d1, f1, e2, f1,
  h1, g2 are empty: 3 fleets x 3 squares = 9 (d1 and f1 appear twice, once
  from each neighbouring fleet, as different actions).
* Depth 2 = 81. Whatever red did, only rank 2 or less changed, so each of
  blue's three fleets on rank 8 still has its three empty targets: 9 x 9.
* Depth 3 = 1071 = 9 x 119. Blue's first action never touches red's pieces, so
  depth 3 is 9 times the sum, over red's nine openings, of red's action count
  afterwards. After c1>c2: the stack on c2 has 7 empty neighbours (all but c1),
  3 two-step moves (a2, e2, c4; the way back is off the board), 3 fighter
  deploys (b2, d2, c3; c1 is taken), plus 3 + 3 deploys from e1 and g1 = 19.
  Likewise e1>e2 gives 19; g1>g2 gives 18 (only e2 and g4 as two-step moves,
  since the board ends at the h-file). c1>b1 gives 13 (b1 stack: 4 steps, 1
  jump to b3, 2 deploys a1/b2; fleets 3 + 3). c1>d1, e1>d1, e1>f1, g1>f1 and
  g1>h1 give 10 each (the stack is hemmed in on rank 1 and one fleet loses a
  target). 19 + 19 + 18 + 13 + 5 x 10 = 119.
* Depth 4 = 14161 = 119 x 119, since after two actions each neither side can
  reach the other (red stays on ranks 1-4, blue on ranks 5-8).

With setup_files=abc the fleets crowd each other: a1 can only go forward (b1
is occupied), b1 only forward (a1 and c1 are occupied), c1 to d1 or c2: depth 1
is 1 + 1 + 2 = 4, and depth 2 is 4 x 4 = 16. With setup_files=bdf every fleet
again has three free targets: 9 and 81.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.games.prizmik import PrizmikState
from tests.prizmik.helpers import FIXTURES, RULES, ref_actions, ref_apply, start

TABLE: dict[str, Any] = json.loads((FIXTURES / "perft.json").read_text())
POSITIONS = {p["name"]: p for p in TABLE["positions"]}


def perft(state: PrizmikState, depth: int) -> int:
    actions = RULES.legal_actions(state)
    if depth == 1:
        return len(actions)
    return sum(perft(RULES.apply(state, a), depth - 1) for a in actions)


def test_pz_4_1_perft_hand_counts_match_the_table() -> None:
    assert POSITIONS["initial"]["perft"]["1"] == 9
    assert POSITIONS["initial"]["perft"]["2"] == 81
    assert POSITIONS["initial"]["perft"]["3"] == 9 * 119
    assert POSITIONS["initial"]["perft"]["4"] == 119 * 119
    assert POSITIONS["initial setup_files=abc"]["perft"]["1"] == 4
    assert POSITIONS["initial setup_files=abc"]["perft"]["2"] == 16
    assert POSITIONS["initial setup_files=bdf"]["perft"]["1"] == 9
    assert POSITIONS["initial setup_files=bdf"]["perft"]["2"] == 81


def test_pz_4_1_red_action_counts_after_each_opening() -> None:
    """The per-opening counts used in the hand check above."""
    counts = {}
    for opening in RULES.legal_actions(start()):
        after = RULES.apply(start(), opening)
        reply = RULES.legal_actions(after)[0]
        counts[RULES.notation(opening)] = len(RULES.legal_actions(RULES.apply(after, reply)))
    assert counts == {
        "c1>b1": 13,
        "c1>d1": 10,
        "c1>c2": 19,
        "e1>d1": 10,
        "e1>f1": 10,
        "e1>e2": 19,
        "g1>f1": 10,
        "g1>h1": 10,
        "g1>g2": 18,
    }


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_pz_10_1_perft_from_the_initial_position(depth: int) -> None:
    assert perft(start(), depth) == POSITIONS["initial"]["perft"][str(depth)]


@pytest.mark.parametrize("files", ["bdf", "abc"])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_pz_10_1_perft_with_other_setup_files(files: str, depth: int) -> None:
    expected = POSITIONS[f"initial setup_files={files}"]["perft"][str(depth)]
    assert perft(start(setup_files=files), depth) == expected


@pytest.mark.parametrize("turn", ["red", "blue"])
def test_pz_6_1_perft_of_the_tactical_position(turn: str) -> None:
    """Captures of every kind, promotions and blocked moves at depth 1-3."""
    entry = POSITIONS[f"tactical, {turn} to move"]
    state = RULES.position(
        "\n".join(entry["diagram"]), turn=turn, reserves=tuple(entry["reserves"])
    )
    for depth in (1, 2, 3):
        assert perft(state, depth) == entry["perft"][str(depth)]
    kinds = {a.kind for a in RULES.legal_actions(state)}
    assert kinds == {"deploy", "move", "capture"}


def test_pz_10_3_perft_with_uncapturable_fleets_matches_in_the_quiet_opening() -> None:
    entry = POSITIONS["initial fleet_capturable=no"]["perft"]
    assert entry == {k: POSITIONS["initial"]["perft"][k] for k in entry}
    assert perft(start(fleet_capturable="no"), 3) == entry["3"]


def ref_perft(board: str, turn: str, reserves: tuple[int, int], depth: int) -> int:
    """Perft by the naive reference model (no game-end detection: none occurs here)."""
    texts = ref_actions(board, turn)
    if depth == 1:
        return len(texts)
    other = "blue" if turn == "red" else "red"
    total = 0
    for text in texts:
        after, res = ref_apply(board, turn, reserves, text)
        total += ref_perft(after, other, res, depth - 1)
    return total


@pytest.mark.parametrize("turn", ["red", "blue"])
def test_pz_6_1_tactical_perft_agrees_with_the_reference_model(turn: str) -> None:
    entry = POSITIONS[f"tactical, {turn} to move"]
    state = RULES.position(
        "\n".join(entry["diagram"]), turn=turn, reserves=tuple(entry["reserves"])
    )
    for depth in (1, 2):
        assert ref_perft(state.board, turn, state.reserves, depth) == entry["perft"][str(depth)]

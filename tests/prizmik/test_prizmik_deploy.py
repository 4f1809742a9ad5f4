"""Deployment and nests (PZ-2.2 to PZ-2.4, PZ-4, PZ-10.12)."""

from __future__ import annotations

import pytest

from tests.prizmik.helpers import (
    RULES,
    act,
    assert_illegal,
    assert_legal,
    board,
    play,
    pos,
    square,
    start,
)


def test_pz_4_1_full_fleet_deploys_left_right_or_forward() -> None:
    state = pos(board(d1="F"))
    for text in ("d1>c1", "d1>e1", "d1>d2"):
        assert_legal(state, text)
    after = play(state, ["d1>d2"])
    # PZ-2.4: what a base releases is always a ship stack; the base stays.
    assert square(after, "d1") == "B"
    assert square(after, "d2") == "S"
    assert after.bases == state.bases
    assert after.ships == state.ships
    assert after.fighters == state.fighters


@pytest.mark.parametrize(
    ("nest", "clause", "worded", "also", "fragments"),
    [
        # PZ-4.1: a full fleet deploys left, right or forward: not back, not diagonally
        ("F", "PZ-4.1", "d4>d3", "d4>e5", ("left, right or forward", "c4, d5 or e4")),
        # PZ-4.2: a stack deploys one step orthogonally: not diagonally, not two away
        ("S", "PZ-4.2", "d4>e5", "d4>d6", ("left, right, forward or back", "c4, d3, d5 or e4")),
    ],
)
def test_pz_4_nests_deploy_only_in_their_directions(
    nest: str, clause: str, worded: str, also: str, fragments: tuple[str, ...]
) -> None:
    """The clause of the nest names the squares it may deploy to; a square outside them is
    refused under that clause."""
    state = pos(board(d4=nest))
    assert_illegal(state, worded, clause, *fragments)
    assert_illegal(state, also, clause)


def test_pz_4_1_blue_fleet_deploys_toward_rank_1() -> None:
    state = pos(board(d8="f"), turn="blue")
    assert_legal(state, "d8>d7")
    assert_illegal(state, "d5>d6", "PZ-1.4")
    state = pos(board(d5="f"), turn="blue")
    assert_legal(state, "d5>d4")
    assert_illegal(state, "d5>d6", "PZ-4.1", "toward rank 1")


def test_pz_4_1_deploy_needs_an_empty_square() -> None:
    state = pos(board(d1="F", d2="X", c1="b"))
    assert_illegal(state, "d1>d2", "PZ-4.1", "occupied by a red fighter", "empty square")
    # an enemy lone base on the target: still a deploy clause, fleets never capture
    assert_illegal(state, "d1>c1", "PZ-4.1", "blue base")
    assert_legal(state, "d1>e1")


def test_pz_10_12_fleet_deploys_go_one_step_only() -> None:
    state = pos(board(d1="F"))
    assert_illegal(state, "d1>d3", "PZ-4.1")
    assert_illegal(state, "d1>f1", "PZ-4.1")


def test_pz_4_2_stack_deploys_its_fighter_orthogonally() -> None:
    state = pos(board(d4="S"))
    for text in ("d4>d5", "d4>d3", "d4>c4", "d4>e4"):
        assert_legal(state, text)
    after = play(state, ["d4>d3"])  # back is allowed for a stack deploy
    assert square(after, "d4") == "H"
    assert square(after, "d3") == "X"
    assert after.fighters == (state.fighters[0] + 1, state.fighters[1])
    assert after.ships == state.ships


def test_pz_4_2_stack_deploy_needs_an_empty_square() -> None:
    state = pos(board(d4="S", d5="h"))
    assert_illegal(state, "d4>d5", "PZ-4.2", "occupied by a blue ship")


def test_pz_4_3_lone_base_ship_and_fighter_cannot_deploy() -> None:
    state = pos(board(c3="B", e3="H", g3="X"))
    assert_illegal(state, "c3>c4", "PZ-4.3", "no ship left")
    assert_illegal(state, "e3>e4", "PZ-4.3", "no fighter nested")
    assert_illegal(state, "g3>g4", "PZ-4.3", "holds nothing")


def test_pz_2_2_one_piece_or_nest_per_square_and_one_owner() -> None:
    state = start()
    assert len(state.board) == 64
    # every square holds one character: a single piece or nest of one owner
    assert all(ch in ".FBSHXfbshx" for ch in state.board)
    after = play(state, ["c1>c2", "c8>c7", "c2>c3"])
    assert square(after, "c2") == "H"
    assert square(after, "c3") == "X"


def test_pz_2_3_nests_move_whole() -> None:
    state = play(pos(board(d4="S")), ["d4-d6"])
    assert square(state, "d6") == "S"
    assert square(state, "d4") == "."
    assert state.fighters == (0, 0)


def test_pz_2_4_a_base_never_holds_a_bare_ship() -> None:
    # deploying from a fleet gives a stack, never a lone ship; and no action puts
    # a ship back into a base
    state = play(pos(board(d1="F")), ["d1>d2"])
    assert square(state, "d2") == "S"
    state = play(state, ["h7-g7", "d2>d3", "g7-h7"])
    assert_illegal(state, "d2-d1", "PZ-10.4")


def test_deploy_actions_are_the_interned_objects() -> None:
    assert act("d4>d5") is act(" D4 > d5 ")
    assert act("d4>d5") in RULES.legal_actions(pos(board(d4="S")))

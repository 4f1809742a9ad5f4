"""Turns and movement (PZ-1.3, PZ-1.4, PZ-5, PZ-10.4)."""

from __future__ import annotations

import pytest

from referee.games.prizmik import PrizmikAction
from tests.prizmik.helpers import (
    RULES,
    assert_illegal,
    assert_legal,
    board,
    play,
    pos,
    square,
    start,
)


def names(state: object) -> set[str]:
    return {RULES.notation(a) for a in RULES.legal_actions(state)}  # type: ignore[arg-type]


def test_pz_1_3_every_action_is_a_deploy_move_or_capture_and_there_is_no_pass() -> None:
    for action in RULES.legal_actions(start()):
        assert action.kind in ("deploy", "move", "capture")
    v = RULES.check(start(), PrizmikAction("pass", 0, 0))  # type: ignore[arg-type]
    assert not v.legal
    assert v.violations[0].clause == "PZ-9.2"


def test_pz_1_3_an_unproductive_move_is_allowed() -> None:
    state = play(pos(board(d4="H")), ["d4-d5", "h7-g7", "d5-d4"])
    assert square(state, "d4") == "H"
    assert state.ply == 3


def test_pz_1_4_no_piece_on_the_origin() -> None:
    assert_illegal(start(), "d4-d5", "PZ-1.4", "no piece on d4")


def test_pz_1_4_cannot_act_with_an_opponents_piece() -> None:
    state = pos(board(d4="s"))
    assert_illegal(state, "d4-d5", "PZ-1.4", "d4 holds a blue ship stack", "red may act only")


def test_pz_5_1_bases_and_full_fleets_never_move() -> None:
    state = pos(board(c3="B", e3="F"))
    assert_illegal(state, "c3-c4", "PZ-5.1", "a base never moves")
    assert_illegal(state, "e3-e4", "PZ-5.1", "full fleet never moves")
    assert not any(a.startswith(("c3", "e3")) and "-" in a for a in names(state))


@pytest.mark.parametrize("piece", ["H", "S"])
def test_pz_5_2_ship_steps_once_in_any_direction(piece: str) -> None:
    state = pos(board(d4=piece))
    steps = {f"d4-{sq}" for sq in ("c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5")}
    jumps = {f"d4-{sq}" for sq in ("b4", "f4", "d2", "d6")}
    moves = {a for a in names(state) if a.startswith("d4-")}
    assert moves == steps | jumps


def test_pz_5_2_two_square_move_needs_empty_middle() -> None:
    state = pos(board(c2="S", c3="x"))
    reason = assert_illegal(state, "c2-c4", "PZ-5.2", "middle square c3", "blue fighter")
    assert reason == (
        "the red ship stack on c2 cannot move to c4: the middle square c3 is occupied by a "
        "blue fighter"
    )
    assert_legal(pos(board(c2="S")), "c2-c4")


def test_pz_5_2_no_diagonal_or_knight_jumps_and_no_three_squares() -> None:
    state = pos(board(d4="H"))
    for text in ("d4-f6", "d4-b2", "d4-e6", "d4-d7"):
        assert_illegal(state, text, "PZ-5.2", "two steps straight")


def test_pz_5_2_move_needs_an_empty_destination() -> None:
    state = pos(board(d4="H", d6="h"))
    assert_illegal(state, "d4-d6", "PZ-5.2", "occupied by a blue ship")


def test_pz_5_3_fighter_steps_once_in_any_direction() -> None:
    state = pos(board(d4="X"))
    moves = {a for a in names(state) if a.startswith("d4")}
    assert moves == {f"d4-{sq}" for sq in ("c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5")}
    assert_illegal(state, "d4-d6", "PZ-5.3", "exactly one step")
    after = play(state, ["d4-e5"])
    assert square(after, "e5") == "X"
    assert square(after, "d4") == "."


def test_pz_5_3_fighter_move_needs_an_empty_square() -> None:
    state = pos(board(d4="X", d5="b"))
    assert_illegal(state, "d4-d5", "PZ-5.3", "occupied by a blue base")


def test_pz_10_4_pieces_only_move_onto_empty_squares() -> None:
    state = pos(board(d4="H", d5="X", e4="B"))
    assert_illegal(state, "d4-d5", "PZ-10.4", "own fighter", "never takes a fighter back in")
    assert_illegal(state, "d4-e4", "PZ-10.4", "own base")
    assert_illegal(state, "d5-d4", "PZ-10.4", "own ship")


def test_moves_do_not_change_counters_and_flip_the_turn() -> None:
    state = pos(board(d4="S"))
    after = play(state, ["d4-d6"])
    assert (after.bases, after.ships, after.fighters, after.reserves) == (
        state.bases,
        state.ships,
        state.fighters,
        state.reserves,
    )
    assert after.turn == "blue"
    assert after.ply == state.ply + 1
    assert after.quiet == 1

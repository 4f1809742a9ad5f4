"""Captures (PZ-6, PZ-9.4, PZ-10.2, PZ-10.3, PZ-10.9)."""

from __future__ import annotations

import pytest

from tests.prizmik.helpers import (
    RULES,
    assert_illegal,
    assert_legal,
    board,
    play,
    pos,
    square,
)


@pytest.mark.parametrize("where", ["c5", "d5", "e5", "c4", "e4", "c3", "d3", "e3"])
@pytest.mark.parametrize("piece", ["H", "S"])
def test_pz_6_2_and_pz_10_2_ship_takes_a_base_from_all_eight_neighbours(
    piece: str, where: str
) -> None:
    state = pos(board(d4=piece, **{where: "b"}))
    assert_legal(state, f"d4x{where}")
    after = play(state, [f"d4x{where}"])
    assert square(after, where) == piece
    assert square(after, "d4") == "."
    assert after.bases == (state.bases[0], state.bases[1] - 1)
    assert after.ships == state.ships
    assert after.quiet == 0


def test_pz_6_1_capturer_moves_in_with_its_nest_intact() -> None:
    after = play(pos(board(d4="S", e5="b")), ["d4xe5"])
    assert square(after, "e5") == "S"
    assert after.fighters == (0, 0)


def test_pz_6_1_nothing_to_capture_or_own_piece() -> None:
    state = pos(board(d4="S", d5="X", c5="B"))
    assert_illegal(state, "d4xd5", "PZ-6.1", "own fighter", "only enemy pieces")
    assert_illegal(state, "d4xc5", "PZ-6.1", "own base")
    # an empty square two away that no action could reach
    assert_illegal(state, "d4xf6", "PZ-6.1", "nothing on f6 to capture")


def test_pz_6_2_ship_cannot_take_a_base_two_squares_away() -> None:
    state = pos(board(d4="H", d6="b"))
    assert_illegal(state, "d4xd6", "PZ-6.2", "not next to d4")


@pytest.mark.parametrize("victim", ["h", "s", "x"])
def test_pz_6_3_ships_capture_only_bases(victim: str) -> None:
    state = pos(board(d4="H", d5=victim))
    assert_illegal(state, "d4xd5", "PZ-6.3", "ships capture only bases")


def test_pz_6_3_ship_stack_never_captures_a_fighter() -> None:
    state = pos(board(d4="S", e5="x", d5="x"))
    assert_illegal(state, "d4xe5", "PZ-6.3", "ship stack never captures a fighter")
    assert_illegal(state, "d4xd5", "PZ-6.3")


@pytest.mark.parametrize("victim", ["h", "s"])
@pytest.mark.parametrize("where", ["d5", "d3", "c4", "e4"])
def test_pz_6_4_fighter_takes_a_ship_orthogonally(victim: str, where: str) -> None:
    state = pos(board(d4="X", **{where: victim}))
    assert_legal(state, f"d4x{where}")
    after = play(state, [f"d4x{where}"])
    assert square(after, where) == "X"
    assert square(after, "d4") == "."
    assert after.ships == (state.ships[0], state.ships[1] - 1)


def test_pz_6_4_fighter_cannot_take_a_ship_diagonally_or_from_afar() -> None:
    state = pos(board(d4="X", e5="s", d6="h"))
    assert_illegal(state, "d4xe5", "PZ-6.4", "diagonal from d4")
    assert_illegal(state, "d4xd6", "PZ-6.4", "not next to d4")


@pytest.mark.parametrize("where", ["c5", "e5", "c3", "e3"])
def test_pz_6_5_fighter_takes_a_fighter_diagonally(where: str) -> None:
    state = pos(board(d4="X", **{where: "x"}))
    assert_legal(state, f"d4x{where}")
    after = play(state, [f"d4x{where}"])
    assert square(after, where) == "X"
    assert after.fighters == (1, 0)


def test_pz_6_5_fighter_cannot_take_a_fighter_orthogonally() -> None:
    state = pos(board(d4="X", d5="x", f6="x"))
    assert_illegal(state, "d4xd5", "PZ-6.5", "straight beside d4")
    assert_illegal(state, "d4xf6", "PZ-6.5", "not next to d4")


@pytest.mark.parametrize("victim", ["b", "f"])
def test_pz_6_6_fighters_never_take_bases(victim: str) -> None:
    state = pos(board(d4="X", d5=victim, e5=victim))
    assert_illegal(state, "d4xd5", "PZ-6.6", "never capture bases")
    assert_illegal(state, "d4xe5", "PZ-6.6")


def test_pz_10_3_ship_captures_a_full_fleet_whole_by_default() -> None:
    state = pos(board(d4="S", d5="f"))
    assert_legal(state, "d4xd5")
    after = play(state, ["d4xd5"])
    assert square(after, "d5") == "S"
    # the whole nest goes: one base and one ship holder fewer for blue
    assert after.bases == (state.bases[0], state.bases[1] - 1)
    assert after.ships == (state.ships[0], state.ships[1] - 1)


def test_pz_10_3_variant_no_makes_fleets_uncapturable() -> None:
    state = pos(board(d4="S", d5="f", c5="b"), fleet_capturable="no")
    assert_illegal(state, "d4xd5", "PZ-10.3", "fleet_capturable=no")
    assert_legal(state, "d4xc5")  # lone bases are still fair game


def test_pz_10_9_bases_and_fleets_never_capture() -> None:
    state = pos(board(d4="F", d5="b", c3="B", c4="h"))
    assert_illegal(state, "d4xd5", "PZ-10.9", "never capture")
    assert_illegal(state, "c3xc4", "PZ-10.9", "never capture")


def test_pz_10_9_a_stack_captures_only_as_a_ship() -> None:
    # the fighter inside the stack may not take the blue ship beside it
    state = pos(board(d4="S", d5="h"))
    assert_illegal(state, "d4xd5", "PZ-6.3")
    # once deployed, the fighter can
    state = play(state, ["d4>c4", "d5-c5"])
    assert_legal(state, "c4xc5")


def test_pz_9_4_move_written_onto_an_enemy_base_must_be_a_capture() -> None:
    state = pos(board(c2="H", d3="b"))
    assert_illegal(state, "c2-d3", "PZ-9.4", "write c2xd3 to capture")
    # the same hint comes first for a deploy sign, since the capture is legal
    assert_illegal(state, "c2>d3", "PZ-9.4", "write c2xd3")
    # where the capture would not be legal either, the deploy clause explains
    assert_illegal(pos(board(c2="H", e3="b")), "c2>d3", "PZ-4.3", "no fighter nested")


def test_pz_9_4_capture_written_onto_an_empty_square_must_be_a_move_or_deploy() -> None:
    state = pos(board(c2="S"))
    reason = assert_illegal(state, "c2xc3", "PZ-9.4")
    assert "c2-c3 to move" in reason
    assert "c2>c3 to deploy" in reason
    assert_illegal(pos(board(c1="F")), "c1xc2", "PZ-9.4", "write c1>c2 to deploy")


def test_pz_9_4_fighter_move_onto_a_takeable_ship() -> None:
    state = pos(board(d4="X", d5="h"))
    assert_illegal(state, "d4-d5", "PZ-9.4", "write d4xd5")
    # not takeable (diagonal ship): the movement clause explains instead
    state = pos(board(d4="X", e5="h"))
    assert_illegal(state, "d4-e5", "PZ-5.3", "occupied by a blue ship")


def test_capture_counts_every_victim_kind() -> None:
    state = pos(board(d4="X", d5="h", e5="x", c4="s"))
    assert state.ships == (1, 3)
    assert state.fighters == (1, 1)
    assert play(state, ["d4xd5"]).ships == (1, 2)
    assert play(state, ["d4xe5"]).fighters == (1, 0)
    assert play(state, ["d4xc4"]).ships == (1, 2)
    assert RULES.apply(state, RULES.parse("d4xd5")).board != state.board

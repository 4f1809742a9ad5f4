"""Promotion into a reserve fleet (PZ-7, PZ-10.5, PZ-10.15)."""

from __future__ import annotations

from tests.prizmik.helpers import RULES, assert_legal, board, play, pos, square


def test_pz_7_1_and_pz_7_2_fighter_moving_to_the_far_rank_promotes() -> None:
    state = pos(board(b7="X"))
    assert_legal(state, "b7-b8")
    after = play(state, ["b7-b8"])
    assert square(after, "b8") == "."
    assert square(after, "b1") == "F"
    assert after.reserves == (2, 3)
    assert after.fighters == (0, 0)
    assert after.ships == (state.ships[0] + 1, state.ships[1])
    assert after.bases == (state.bases[0] + 1, state.bases[1])
    assert after.quiet == 0


def test_pz_7_1_promotion_on_a_diagonal_step_uses_the_arrival_file() -> None:
    after = play(pos(board(b7="X")), ["b7-c8"])
    assert square(after, "c1") == "F"
    assert square(after, "b1") == "."


def test_pz_7_1_promotion_by_deploy() -> None:
    state = pos(board(d7="S"))
    after = play(state, ["d7>d8"])
    assert square(after, "d7") == "H"
    assert square(after, "d8") == "."
    assert square(after, "d1") == "F"
    assert after.reserves == (2, 3)
    assert after.fighters == (0, 0)


def test_pz_7_1_promotion_by_capture() -> None:
    state = pos(board(c7="X", d8="x", c8="s"))
    diagonal = play(state, ["c7xd8"])
    assert square(diagonal, "d1") == "F"
    assert square(diagonal, "d8") == "."
    assert diagonal.fighters == (0, 0)
    assert diagonal.reserves == (2, 3)
    orthogonal = play(state, ["c7xc8"])
    assert square(orthogonal, "c1") == "F"
    assert square(orthogonal, "c8") == "."
    assert orthogonal.ships == (2, 1)  # blue lost the stack, red gained a fleet


def test_pz_7_1_blue_promotes_on_rank_1_into_rank_8() -> None:
    state = pos(board(e2="x"), turn="blue")
    after = play(state, ["e2-e1"])
    assert square(after, "e8") == "f"
    assert square(after, "e1") == "."
    assert after.reserves == (3, 2)


def test_pz_7_3_no_promotion_when_the_home_square_is_occupied() -> None:
    after = play(pos(board(b7="X")), ["b7-a8"])  # a1 holds a red base
    assert square(after, "a8") == "X"
    assert after.reserves == (3, 3)
    blue = play(pos(board(g2="x"), turn="blue"), ["g2-h1"])  # h8 holds a blue base
    assert square(blue, "h1") == "x"
    assert blue.reserves == (3, 3)


def test_pz_7_3_no_promotion_without_a_reserve_fleet() -> None:
    state = pos(board(b7="X"), reserves=(0, 3))
    after = play(state, ["b7-b8"])
    assert square(after, "b8") == "X"
    assert square(after, "b1") == "."
    assert after.reserves == (0, 3)
    assert after.fighters == (1, 0)


def test_pz_10_5_ship_stack_on_the_far_rank_does_not_promote() -> None:
    after = play(pos(board(d6="S")), ["d6-d8"])
    assert square(after, "d8") == "S"
    assert after.reserves == (3, 3)


def test_pz_10_15_waiting_fighter_does_not_promote_when_home_empties_by_default() -> None:
    # red fighter already on d8; red's base on d1 is taken by blue; the fighter stays
    state = pos(board(d8="X", d1="B", e2="s", g5="H"), turn="blue")
    state = play(state, ["e2xd1"])
    assert square(state, "d1") == "s"
    state = play(state, ["g5-g6", "d1-c2"])  # d1 is now empty
    assert square(state, "d1") == "."
    assert square(state, "d8") == "X"
    state = play(state, ["g6-g7"])
    assert square(state, "d8") == "X"
    assert state.reserves == (3, 3)
    # a new arrival, even a sideways step along the far rank, does promote (the default)
    state = play(state, ["h7-h6", "d8-e8"])
    assert square(state, "e8") == "."
    assert square(state, "e1") == "F"


def test_pz_10_5_promotion_along_the_far_rank_by_default() -> None:
    """By default a step or a capture along the far rank is an arrival (PZ-10.5)."""
    step = play(pos(board(d8="X")), ["d8-e8"])
    assert (square(step, "e8"), square(step, "e1"), step.reserves) == (".", "F", (2, 3))
    capture = play(pos(board(d8="X", e8="h")), ["d8xe8"])
    assert (square(capture, "e8"), square(capture, "e1")) == (".", "F")
    blue = play(pos(board(e1="x"), turn="blue"), ["e1-d1"])
    assert (square(blue, "d1"), square(blue, "d8"), blue.reserves) == (".", "f", (3, 2))


def test_pz_10_5_variant_far_rank_step_no_only_an_arrival_from_another_rank() -> None:
    """far_rank_step=no: a lone fighter already on its far rank does not reach it again by
    stepping or capturing along it; stepping off and back, or a deploy, does arrive."""
    step = play(pos(board(d8="X"), far_rank_step="no"), ["d8-e8"])
    assert (square(step, "e8"), square(step, "e1"), step.reserves) == ("X", ".", (3, 3))
    capture = play(pos(board(d8="X", e8="h"), far_rank_step="no"), ["d8xe8"])
    assert (square(capture, "e8"), square(capture, "e1")) == ("X", ".")
    assert capture.reserves == (3, 3)
    back = play(pos(board(d8="X", h2="h"), far_rank_step="no"), ["d8-e7", "h2-h3", "e7-e8"])
    assert (square(back, "e8"), square(back, "e1")) == (".", "F")
    deploy = play(pos(board(d8="S"), far_rank_step="no"), ["d8>e8"])
    assert (square(deploy, "d8"), square(deploy, "e8"), square(deploy, "e1")) == ("H", ".", "F")
    assert deploy.reserves == (2, 3)
    # a fighter coming from the rank before promotes under either ruling
    forward = play(pos(board(d7="X"), far_rank_step="no"), ["d7-d8"])
    assert square(forward, "d1") == "F"


def test_promotion_is_offered_by_legal_actions_as_an_ordinary_move() -> None:
    state = pos(board(b7="X"))
    texts = {RULES.notation(a) for a in RULES.legal_actions(state)}
    assert {"b7-a8", "b7-b8", "b7-c8"} <= texts


def test_pz_10_15_variant_waiting_promotion_yes_promotes_when_home_empties() -> None:
    """waiting_promotion=yes: the blue ship leaving d1 empties red's home square, so red's
    fighter waiting on d8 promotes at once, in blue's action (PZ-10.15, PZ-7.2); under the
    default (no) the same action leaves it waiting."""
    state = pos(board(d8="X", d1="s"), turn="blue", waiting_promotion="yes")
    after = play(state, ["d1-c2"])
    assert (square(after, "d8"), square(after, "d1"), after.reserves) == (".", "F", (2, 3))
    assert after.fighters == (0, 0)
    assert after.bases == (state.bases[0] + 1, state.bases[1])
    assert after.quiet == 0
    default = play(pos(board(d8="X", d1="s"), turn="blue"), ["d1-c2"])
    assert (square(default, "d8"), square(default, "d1"), default.reserves) == (
        "X",
        ".",
        (3, 3),
    )


def test_pz_10_15_variant_waiting_promotion_by_own_capture_and_for_blue() -> None:
    """The origin of a capture is emptied too; blue waits on rank 1 for its rank-8 square."""
    red = play(pos(board(d8="X", d1="S", e2="b"), waiting_promotion="yes"), ["d1xe2"])
    assert (square(red, "e2"), square(red, "d1"), square(red, "d8")) == ("S", "F", ".")
    assert red.reserves == (2, 3)
    blue = play(pos(board(b1="x", b8="H"), waiting_promotion="yes"), ["b8-b6"])
    assert (square(blue, "b1"), square(blue, "b8"), blue.reserves) == (".", "f", (3, 2))


def test_pz_10_15_variant_waiting_promotion_needs_a_reserve_and_yields_to_pz_8_1() -> None:
    """No reserve, no promotion (PZ-7.3); and a ship that takes the owner's last base from
    the owner's home square wins at once by PZ-8.1, with nothing promoted."""
    none_left = play(
        pos(board(d8="X", d1="s"), turn="blue", reserves=(0, 3), waiting_promotion="yes"),
        ["d1-c2"],
    )
    assert (square(none_left, "d8"), square(none_left, "d1")) == ("X", ".")
    lone = {"d8": "X", "h8": "b", "h7": "h", "c1": "B", "d1": "s"}
    won = play(pos(lone, turn="blue", waiting_promotion="yes"), ["d1xc1"])
    assert (square(won, "d8"), square(won, "d1"), won.reserves) == ("X", ".", (3, 3))
    out = RULES.outcome(won)
    assert (out.winner, out.clause) == ("blue", "PZ-8.1")

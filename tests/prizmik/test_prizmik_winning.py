"""Ending the game (PZ-8, PZ-10.6 to PZ-10.8, PZ-10.10, PZ-10.11, REF-1.3)."""

from __future__ import annotations

import random

import pytest

from referee.contract import Outcome
from tests.prizmik.helpers import RULES, act, assert_legal, play, pos, random_states, square, start

# Blue to move, and stuck: the h8 stack is walled in by its own base on g8 and
# red ships on g7 and h7 (no step, no two-step through an occupied square, no
# empty square to deploy to, no red base next to it); the base never acts.
STUCK_BLUE = {"g8": "b", "h8": "s", "g7": "H", "h7": "H", "a1": "B"}


def test_pz_8_1_capturing_the_last_base_wins() -> None:
    state = pos({"a1": "B", "d4": "H", "d5": "b", "h7": "h"})
    after = play(state, ["d4xd5"])
    out = RULES.outcome(after)
    assert out == Outcome("win", "red", "PZ-8.1", "blue has no base left on the board")
    assert out.result == "red"
    assert RULES.to_move(after) is None


def test_pz_8_1_fleets_count_as_bases() -> None:
    # blue still has a full fleet, so taking the lone base does not win
    state = pos({"a1": "B", "d4": "H", "d5": "b", "h8": "f"})
    after = play(state, ["d4xd5"])
    assert not RULES.outcome(after).over
    assert after.bases == (1, 1)


def test_pz_10_10_reserve_fleets_do_not_save_a_player_without_bases() -> None:
    state = pos({"a1": "B", "d4": "S", "d5": "b", "h7": "h", "g6": "x"}, reserves=(3, 3))
    after = play(state, ["d4xd5"])
    out = RULES.outcome(after)
    assert out.winner == "red"
    assert out.clause == "PZ-8.1"
    assert after.reserves == (3, 3)


def test_pz_8_2_and_pz_10_7_no_ship_and_no_fighter_loses() -> None:
    # blue keeps two bases but its last ship is taken and it has no fighter
    state = pos({"a1": "B", "b2": "H", "d4": "X", "d5": "h", "h8": "b", "f8": "b"})
    after = play(state, ["d4xd5"])
    out = RULES.outcome(after)
    assert (out.status, out.winner, out.clause) == ("win", "red", "PZ-8.2")
    assert "blue can never capture a base again" in out.reason
    assert "PZ-10.7" in out.reason


def test_pz_10_7_no_ship_but_fighter_and_reserve_plays_on() -> None:
    state = pos({"a1": "B", "b2": "H", "d4": "X", "d5": "h", "h8": "b", "a7": "x"})
    after = play(state, ["d4xd5"])
    assert not RULES.outcome(after).over  # the a7 fighter may still promote


def test_pz_10_7_no_ship_and_fighter_but_no_reserve_loses() -> None:
    state = pos({"a1": "B", "b2": "H", "d4": "X", "d5": "h", "h8": "b", "a7": "x"}, reserves=(3, 0))
    after = play(state, ["d4xd5"])
    out = RULES.outcome(after)
    assert (out.winner, out.clause) == ("red", "PZ-8.2")
    assert "no reserve fleet" in out.reason


def test_pz_10_7_a_ship_inside_a_full_fleet_counts() -> None:
    state = pos({"a1": "B", "b2": "H", "d4": "X", "d5": "h", "h8": "f"})
    after = play(state, ["d4xd5"])
    assert not RULES.outcome(after).over
    assert after.ships == (1, 1)


def test_pz_10_7_is_checked_for_the_mover_too() -> None:
    # a hand-built position where red already cannot take a base: after any red
    # action the test runs for both players and blue wins
    pieces = {"a1": "B", "d4": "X", "h8": "b", "h7": "h"}
    state = pos(pieces, reserves=(0, 3), judge=False)
    after = play(state, ["d4-d5"])
    out = RULES.outcome(after)
    assert (out.winner, out.clause) == ("blue", "PZ-8.2")
    # judged as built, the same position is already over
    judged = RULES.outcome(pos(pieces, reserves=(0, 3)))
    assert (judged.winner, judged.clause) == ("blue", "PZ-8.2")


def test_pz_10_8_taking_the_last_base_is_judged_before_impossibility() -> None:
    # the captured fleet held blue's last ship: both PZ-8.1 and PZ-8.2 would
    # give red the game; PZ-8.1 is named
    state = pos({"a1": "B", "d4": "H", "d5": "f"})
    out = RULES.outcome(play(state, ["d4xd5"]))
    assert (out.winner, out.clause) == ("red", "PZ-8.1")


def test_pz_10_8_both_unable_at_once_is_a_draw() -> None:
    # red has no ship and no reserve; its fighter takes blue's last ship
    state = pos({"a1": "B", "d4": "X", "d5": "h", "h8": "b"}, reserves=(0, 3), judge=False)
    out = RULES.outcome(play(state, ["d4xd5"]))
    assert (out.status, out.winner, out.clause) == ("draw", None, "PZ-10.8")


def test_hand_built_positions_are_judged() -> None:
    out = RULES.outcome(pos({"a1": "B", "a2": "H", "h7": "h"}, turn="red"))
    assert (out.winner, out.clause) == ("red", "PZ-8.1")
    out = RULES.outcome(pos({"a1": "B", "h8": "b", "h7": "h"}, turn="blue"))
    assert (out.winner, out.clause) == ("blue", "PZ-8.2")
    out = RULES.outcome(pos({"a1": "B", "a2": "H", "h8": "b", "h7": "h"}))
    assert not out.over


def test_pz_10_6_player_with_no_legal_action_loses() -> None:
    state = pos(STUCK_BLUE, turn="blue")
    assert RULES.legal_actions(state) == []
    out = RULES.outcome(state)
    assert (out.status, out.winner, out.clause) == ("win", "red", "PZ-10.6")
    assert RULES.to_move(state) is None
    v = RULES.check(state, act("h8-h6"))
    assert v.violations[0].clause == "REF-1.3"
    assert "PZ-10.6" in v.violations[0].reason


def test_pz_10_6_variant_draw() -> None:
    state = pos(STUCK_BLUE, turn="blue", no_legal_action="draw")
    out = RULES.outcome(state)
    assert (out.status, out.winner, out.clause) == ("draw", None, "PZ-10.6")
    assert RULES.observe(state)["result"] == "draw"


def test_pz_10_6_reached_by_an_action() -> None:
    pieces = {k: v for k, v in STUCK_BLUE.items() if k != "h7"} | {"h5": "H"}
    state = pos(pieces, turn="red")
    assert not RULES.outcome(state).over
    assert_legal(state, "h5-h7")
    after = play(state, ["h5-h7"])
    out = RULES.outcome(after)
    assert (out.winner, out.clause) == ("red", "PZ-10.6")
    assert after.result is None  # found lazily, not stored by apply


def test_pz_10_6_not_stuck_while_a_capture_is_available() -> None:
    # same wall, but a red base stands next to the stack: capturing is legal
    state = pos({**STUCK_BLUE, "h7": "B"}, turn="blue")
    assert [RULES.notation(a) for a in RULES.legal_actions(state)] == ["h8xh7"]
    assert not RULES.outcome(state).over


def test_pz_10_11_quiet_limit_draws_after_n_quiet_actions() -> None:
    state = start(quiet_limit="4")
    state = play(state, ["c1>c2", "c8>c7", "c2-c4"])
    assert not RULES.outcome(state).over
    assert state.quiet == 3
    state = play(state, ["c7-c5"])
    out = RULES.outcome(state)
    assert (out.status, out.clause) == ("draw", "PZ-10.11")


def test_pz_10_11_captures_and_promotions_reset_the_count() -> None:
    base = {"a1": "B", "a2": "H", "h8": "b", "h7": "h", "d4": "H", "d5": "b", "b7": "X"}
    state = pos(base, quiet_limit="3")
    assert play(state, ["d4xd5"]).quiet == 0
    assert play(state, ["b7-b8"]).quiet == 0
    assert play(state, ["d4-d3"]).quiet == 1


def test_pz_10_11_off_by_default() -> None:
    state = start()
    assert state.variants.quiet_limit == 0
    moves = ["c1>c2", "c8>c7"] + ["c2-c3", "c7-c6", "c3-c2", "c6-c7"] * 30
    state = play(state, moves)
    assert state.quiet == len(moves)
    assert not RULES.outcome(state).over


def test_pz_10_11_a_repeated_position_ends_nothing_but_the_quiet_limit_counts_it() -> None:
    """PZ-10.11: no repetition draw. The same position (board, side, reserves) comes back ten
    times and the game goes on; under a quiet limit the same shuffle is drawn, since a
    position can only come back through moves."""
    cycle = ["c2-c3", "c7-c6", "c3-c2", "c6-c7"]
    state = play(start(), ["c1>c2", "c8>c7"])
    seen = (state.board, state.turn, state.reserves)
    for _ in range(10):
        state = play(state, cycle)
        assert (state.board, state.turn, state.reserves) == seen
        assert not RULES.outcome(state).over
    limited = play(start(quiet_limit="30"), ["c1>c2", "c8>c7"])
    for _ in range(7):
        limited = play(limited, cycle)
    assert (RULES.outcome(limited).status, RULES.outcome(limited).clause) == ("draw", "PZ-10.11")


@pytest.mark.parametrize("text", ["a2-a3", "d5-d6", "h7-h6"])
def test_ref_1_3_a_finished_game_takes_no_action(text: str) -> None:
    state = play(pos({"a1": "B", "a2": "H", "d4": "H", "d5": "b", "h7": "h"}), ["d4xd5"])
    assert RULES.legal_actions(state) == []
    v = RULES.check(state, act(text))
    assert not v.legal
    assert v.violations[0].clause == "REF-1.3"
    assert "red won by PZ-8.1" in v.violations[0].reason


# No ship anywhere; a base at one end of every file: red's on a1-d1, blue's on e8-h8. Each
# side keeps a lone fighter and two reserve fleets (six bases each at most, PZ-2.1).
CLOSED = {"a1": "B", "b1": "B", "c1": "B", "d1": "B", "e8": "b", "f8": "b", "g8": "b", "h8": "b"}
CLOSED_FIGHTERS = {**CLOSED, "d4": "X", "e5": "x"}


def test_pz_10_13_closed_files_draw_only_under_the_files_test() -> None:
    """PZ-10.13 (impossible_test=files): with no ship on the board and a base at an end of
    every file no fighter can promote, so nobody can take a base: a draw. The default
    (pieces, PZ-10.7) sees fighters and reserves on both sides and plays on."""
    state = pos(CLOSED_FIGHTERS, reserves=(2, 2), judge=False)
    assert not RULES.outcome(play(state, ["d4-d5"])).over
    assert not RULES.outcome(pos(CLOSED_FIGHTERS, reserves=(2, 2))).over
    files = pos(CLOSED_FIGHTERS, reserves=(2, 2), judge=False, impossible_test="files")
    out = RULES.outcome(play(files, ["d4-d5"]))
    assert (out.status, out.winner, out.clause) == ("draw", None, "PZ-10.13")
    judged = RULES.outcome(pos(CLOSED_FIGHTERS, reserves=(2, 2), impossible_test="files"))
    assert (judged.status, judged.clause) == ("draw", "PZ-10.13")


def test_pz_10_13_the_files_test_turns_a_one_sided_win_into_the_draw_it_is() -> None:
    """PZ-10.13: blue has no fighter (PZ-10.7 unable) while red, with a fighter and reserves
    but no ship, is shut out by the closed files too: the default gives red the win by
    PZ-8.2, the files test the draw."""
    pieces = {**CLOSED, "d4": "X"}
    out = RULES.outcome(pos(pieces, reserves=(2, 2)))
    assert (out.winner, out.clause) == ("red", "PZ-8.2")
    out = RULES.outcome(pos(pieces, reserves=(2, 2), impossible_test="files"))
    assert (out.status, out.winner, out.clause) == ("draw", None, "PZ-10.13")


@pytest.mark.parametrize(
    "pieces",
    [
        {k: v for k, v in CLOSED_FIGHTERS.items() if k != "h8"},  # file h open at both ends
        {**CLOSED_FIGHTERS, "b6": "S"},  # a ship on the board
    ],
)
def test_pz_10_13_an_open_file_or_a_ship_plays_on(pieces: dict[str, str]) -> None:
    """PZ-10.13 needs every file closed and no ship at all; otherwise the game goes on."""
    state = pos(pieces, reserves=(1, 2), judge=False, impossible_test="files")
    assert not RULES.outcome(play(state, ["d4-d3"])).over


def test_pz_10_13_in_closed_files_no_play_ever_promotes() -> None:
    """PZ-10.13 is sure: from the closed position, random play (default rules, so the game
    goes on) never promotes, never brings a ship and never takes a base."""
    import random

    rnd = random.Random(1013)
    for _ in range(20):
        state = pos(CLOSED_FIGHTERS, reserves=(2, 2))
        for _ in range(60):
            actions = RULES.legal_actions(state)
            if not actions:
                break
            state = RULES.apply(state, rnd.choice(actions))
            assert state.ships == (0, 0)
            assert state.bases == (4, 4)
            assert state.reserves == (2, 2)


# -- PZ-10.14: where the impossibility tests are exact, and what they leave to the referee --


@pytest.mark.parametrize(
    "variants",
    [{}, {"fleet_capturable": "no"}, {"setup_files": "abh"}, {"far_rank_step": "no"}],
)
def test_pz_10_14_in_play_every_base_stays_on_its_owners_home_rank(
    variants: dict[str, str],
) -> None:
    """PZ-10.14 rests on this: bases never move (PZ-5.1), start on the home rank (PZ-3.3) and
    new ones come only there (PZ-7.2), so in any position reached by play red's lone bases and
    fleets stand on rank 1 and blue's on rank 8."""
    for seed in range(12):
        for state in random_states(seed, 300, **variants):
            for sq, ch in enumerate(state.board):
                if ch in "BF":
                    assert sq // 8 == 0, (seed, state.ply, sq, state.board)
                elif ch in "bf":
                    assert sq // 8 == 7, (seed, state.ply, sq, state.board)


@pytest.fixture(
    params=[c for o in RULES.variant_options if o.key == "impossible_test" for c in o.choices]
)
def impossible_test(request: pytest.FixtureRequest) -> str:
    """Each test PZ-10.13 offers for a game no one can win any more (the ``impossible_test``
    variant's choices: ``pieces`` by default, ``files``), so a choice added later is tried too."""
    return str(request.param)


# Blue keeps six bases, all on rank 8 (a8 a full fleet, so blue has a ship), and a lone ship on
# g2; red has no ship, a fighter on g7 and one reserve fleet, and bases on g1 and h1. A base
# stands at one end of every file, yet red is not shut out: blue may take g1.
SHUT_BY_FILES = {
    "a8": "f",
    "b8": "b",
    "c8": "b",
    "d8": "b",
    "e8": "b",
    "f8": "b",
    "g2": "h",
    "g1": "B",
    "h1": "B",
    "g7": "X",
}


def test_pz_10_14_files_never_shut_out_a_player_while_the_opponent_keeps_a_ship(
    impossible_test: str,
) -> None:
    """PZ-10.14: every file is closed against red, but blue still holds a ship, so both tests
    play on; and rightly, for once blue takes g1 and moves off, red's fighter promotes on g8."""
    state = pos(SHUT_BY_FILES, turn="blue", reserves=(1, 0), impossible_test=impossible_test)
    assert not RULES.outcome(state).over
    state = play(state, ["g2xg1", "g7-f7", "g1-g3"])
    assert not RULES.outcome(state).over
    state = play(state, ["f7-g8"])  # arrives on the far rank with g1 empty: a promotion
    assert square(state, "g1") == "F"
    assert state.ships == (1, 2)
    assert state.reserves == (0, 0)
    assert not RULES.outcome(state).over


# Walls only a position set up by hand can hold: red's ship on a1 is ringed by red's own bases
# (a2, b1, b2), which only a blue ship could take; blue's ship on h8 is ringed by blue's own
# bases (g7, g8, h7). No reserve fleet is left, so no new ship can come: nobody can ever take a
# base again, though each side keeps a ship.
WALLED = {
    "a1": "H",
    "a2": "B",
    "b1": "B",
    "b2": "B",
    "h8": "h",
    "g7": "b",
    "g8": "b",
    "h7": "b",
}


def test_pz_10_14_walls_set_up_by_hand_are_left_to_the_referee(impossible_test: str) -> None:
    """PZ-10.14: walls of bases are not searched. With a free fighter each, both sides keep a
    ship, so the game plays on although no base can ever be taken: random play never takes
    one, and the end is the referee's (agreement, adjudication or the quiet limit)."""
    pieces = {**WALLED, "d4": "X", "e5": "x"}
    state = pos(pieces, reserves=(0, 0), impossible_test=impossible_test)
    assert not RULES.outcome(state).over
    rnd = random.Random(1014)
    for _ in range(80):
        out = RULES.outcome(state)
        if out.over:  # a side whose fighter was taken is left with no action at all
            assert out.clause == "PZ-10.6"
            break
        state = RULES.apply(state, rnd.choice(RULES.legal_actions(state)))
        assert state.bases == (3, 3)
    assert state.ply >= 10


def test_pz_10_14_a_walled_in_player_can_still_win_by_the_pieces_test() -> None:
    """PZ-10.14: blue has nothing but a base, so PZ-10.7 gives red the game, although red's
    only ship is walled in by red's own bases and red has no reserve: red could never take a
    base either. The walls are not searched; a referee who finds this may rule otherwise."""
    pieces = {k: v for k, v in WALLED.items() if k in ("a1", "a2", "b1", "b2")}
    state = pos({**pieces, "h8": "b", "d4": "X"}, reserves=(0, 0), judge=False)
    out = RULES.outcome(play(state, ["d4-d5"]))
    assert (out.status, out.winner, out.clause) == ("win", "red", "PZ-8.2")

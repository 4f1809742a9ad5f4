"""Referee adjustments (CR-11.2, CR-11.3)."""

from __future__ import annotations

import pytest

from referee.games.crystale import CrystaleState
from referee.kit.adjustments import parse_change
from tests.crystale.helpers import RULES, main_phase, play, unit_at


def ok(state: CrystaleState, text: str) -> CrystaleState:
    change = parse_change(text)
    verdict = RULES.check_change(state, change)
    assert verdict.legal, verdict.explain()
    return RULES.apply_change(state, change)


def refused(state: CrystaleState, text: str, clause: str) -> str:
    verdict = RULES.check_change(state, parse_change(text))
    assert not verdict.legal, text
    assert verdict.violations[0].clause == clause, verdict.explain()
    return verdict.violations[0].reason


@pytest.fixture
def board() -> CrystaleState:
    return play(main_phase(), "summon Cinderpup @c2")


def test_cr_11_2_crystal_moves_between_zones(board: CrystaleState) -> None:
    state = ok(board, "move p1 hand>plane Flame Lance")
    assert state.sides[0].plane.as_dict() == {"Flame Lance": 1}
    assert state.sides[0].hand.count == 5
    state = ok(state, "move p1 plane>hand Flame Lance")
    assert state.sides[0].hand.known.count("Flame Lance") == 1
    state = ok(state, "move p1 pool>hand")
    assert state.sides[0].pool.count == board.sides[0].pool.count - 1
    state = ok(state, "move p1 hand>pool Flame Lance")
    assert state.sides[0].knowledge is not None
    assert state.sides[0].knowledge.seen.count("Flame Lance") == 0


def test_cr_11_2_units_leave_or_move_and_effects_summon(board: CrystaleState) -> None:
    state = ok(board, "move p1 u3>c4")
    assert unit_at(state, "c4").id == 3
    state = ok(state, "move p1 u3>hand")
    assert 3 not in state.units
    assert state.sides[0].hand.known.count("Cinderpup") == 2
    state = ok(state, "move p1 hand>b1 Cinderpup")
    assert unit_at(state, "b1").id == 4  # a new id, never reused (CR-N.3)


def test_cr_11_2_stats_tiles_resources_fatigue_and_draws(board: CrystaleState) -> None:
    state = ok(board, "stat u3 hp -15")
    assert state.units[3].hp == 25
    state = ok(state, "stat u3 atk +5")
    assert RULES.observe(state)["units"][2]["atk"] == 25
    state = ok(state, "stat u3 rank +1")
    assert (state.units[3].rank, state.units[3].hp) == (2, 60)
    state = ok(state, "stat c2 fire =1")
    assert state.tiles[12] == "F"
    assert RULES.observe(state)["units"][2]["atk"] == 45
    state = ok(state, "resource p2 hits -1")
    assert state.sides[1].hits == 2
    state = ok(state, "resource p1 mp -50")
    assert state.sides[0].mp == 50
    state = ok(state, "tap u3")
    assert state.units[3].attacked
    state = ok(state, "untap u3")
    assert not state.units[3].attacked
    state = ok(state, "draw p1 2")
    assert state.sides[0].hand.count == 8
    state = ok(state, "destroy u3")
    assert 3 not in state.units
    assert state.sides[0].plane.count("Cinderpup") == 1
    state = ok(state, "resource p2 hits -2")
    assert RULES.outcome(state).clause == "CR-13.1"


def test_cr_11_3_changes_that_cannot_happen_are_refused(board: CrystaleState) -> None:
    assert "holds no Flame Lance" in refused(board, "move p1 plane>hand Flame Lance", "CR-11.3")
    refused(board, "move p1 hand>plane Tidal Lash", "CR-12.3")
    refused(board, "move p1 hand>plane", "CR-11.3")
    refused(board, "move p1 u3>c1", "CR-4.4")
    refused(board, "move p1 u2>hand", "CR-11.3")
    refused(board, "move p1 u1>plane", "CR-11.3")
    refused(board, "resource p1 mp -500", "CR-11.3")
    refused(board, "resource p1 mp +50", "CR-6.4")
    refused(board, "resource p1 hits +1", "CR-11.3")
    refused(board, "stat u3 rank +5", "CR-11.3")
    refused(board, "stat u1 hp -5", "CR-11.3")
    refused(board, "destroy u1", "CR-11.3")
    refused(board, "draw p1 99", "CR-11.3")
    refused(board, "tap u99", "CR-11.3")
    refused(board, "stat c3 purple =1", "CR-11.2")
    refused(board, "resource p1 gold +1", "CR-11.2")
    refused(board, "move p1 deck>hand", "CR-11.2")
    refused(board, "move p1 hand>c2 Flame Lance", "CR-11.3")

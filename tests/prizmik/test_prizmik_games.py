"""Replay the complete example games in fixtures/prizmik/games.

Each game is checked action by action and must end exactly as recorded. The
list of files must cover promotion (PZ-7.2), a win by taking every base
(PZ-8.1), a win because base captures became impossible (PZ-8.2), the
no-legal-action rule in both settings (PZ-10.6), another set of starting files
(PZ-10.1), uncapturable fleets (PZ-10.3) and the quiet-play draw (PZ-10.11).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.contract import Player, Setup
from tests.prizmik.helpers import FIXTURES, RULES

GAME_FILES = sorted((FIXTURES / "games").glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def replay(game: dict[str, Any]) -> tuple[Any, int]:
    setup = Setup(
        players=tuple(Player(seat=s, name=n) for s, n in game["players"].items()),
        ruleset=game["ruleset"],
        variants=game["variants"],
    )
    state = RULES.initial_state(RULES.resolve_setup(setup))
    promotions = 0
    for ply, text in enumerate(game["moves"], 1):
        assert not RULES.outcome(state).over, f"game over before ply {ply}"
        assert RULES.to_move(state) == ("red" if ply % 2 else "blue")
        action = RULES.parse(text)
        assert RULES.notation(action) == text, "fixtures are in canonical notation"
        verdict = RULES.check(state, action)
        assert verdict.legal, f"ply {ply} {text}: {verdict.violations}"
        after = RULES.apply(state, action)
        promotions += after.reserves != state.reserves
        state = after
    return state, promotions


def test_at_least_five_fixture_games() -> None:
    assert len(GAME_FILES) >= 5


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_fixture_game_replays_to_its_recorded_result(path: Path) -> None:
    game = load(path)
    state, promotions = replay(game)
    out = RULES.outcome(state)
    expected = game["expected"]
    assert out.status == expected["status"]
    assert out.winner == expected["winner"]
    assert out.clause == expected["clause"]
    assert out.result == expected["result"]
    assert promotions == game["promotions"]
    assert RULES.render(state).splitlines()[:10] == game["final_board"]
    assert RULES.legal_actions(state) == []


def test_fixture_games_cover_every_ending() -> None:
    games = [load(p) for p in GAME_FILES]
    endings = {(g["expected"]["status"], g["expected"]["clause"]) for g in games}
    assert {
        ("win", "PZ-8.1"),
        ("win", "PZ-8.2"),
        ("win", "PZ-10.6"),
        ("draw", "PZ-10.6"),
        ("draw", "PZ-10.11"),
    } <= endings
    assert any(g["promotions"] > 0 and g["expected"]["clause"] == "PZ-8.1" for g in games)
    assert any(g["variants"].get("setup_files") == "bdf" for g in games)
    assert any(g["variants"].get("fleet_capturable") == "no" for g in games)


def test_pz_7_2_promotion_in_the_fixture_game_by_hand() -> None:
    """Hand-read: at ply 20 blue's stack on g1 deploys its fighter to h1, blue's
    far rank; h8 is empty and blue has 3 reserves, so a blue fleet appears on h8."""
    game = load(FIXTURES / "games" / "01_promotion_then_all_bases.json")
    assert game["moves"][19] == "g1>h1"
    before, _ = replay({**game, "moves": game["moves"][:19]})
    after = RULES.apply(before, RULES.parse("g1>h1"))
    assert before.board[63] == "."
    assert before.reserves == (3, 3)
    assert after.board[63] == "f"
    assert after.board[7] == "."
    assert after.board[6] == "h"
    assert after.reserves == (3, 2)


def test_pz_10_6_constructed_stalemate_by_hand() -> None:
    """Hand-read: after 29 plies blue's stacks on d8, f8 and h8 are walled in."""
    game = load(FIXTURES / "games" / "03_no_legal_action_loss.json")
    state, _ = replay(game)
    assert state.board[56:] == "..bsbsbs"
    assert state.board[48:56] == "..XHXHXH"
    assert state.turn == "blue"
    assert state.result is None
    assert state.ships == (3, 3)  # blue still has ships, so PZ-10.7 does not apply

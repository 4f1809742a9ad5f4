"""Replay the whole example games in fixtures/crystale: every entry must be legal and
each game must end exactly as worked out by hand in its notes.

They cover the two endings the issue asks for: a Summoner's third hit (CR-13.1)
and a forfeit on an empty pool (CR-6.3).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.contract import Setup
from referee.games.crystale import CrystaleState
from referee.kit.decks import Decklist
from referee.kit.multiset import Multiset
from tests.crystale.helpers import FIXTURES, PLAYERS, RULES
from tests.replays import (
    applied,
    assert_ended_as_worked_out,
    game_options,
    load_game,
    worked_game,
)

GAME_FILES = sorted(FIXTURES.glob("*.json"))


def setup_of(game: dict[str, Any]) -> Setup:
    options = game_options(game, FIXTURES)
    decks = {seat: Decklist(Multiset.of(cards)) for seat, cards in game["decks"].items()}
    for seat, deck in decks.items():
        assert RULES.check_deck(
            RULES.resolve_setup(Setup(players=PLAYERS, options=options)), seat, deck
        ).legal
    return RULES.resolve_setup(
        Setup(
            players=PLAYERS,
            ruleset=game["ruleset"],
            variants=game["variants"],
            options=options,
            decks=dict(decks),
        )
    )


def replay(game: dict[str, Any]) -> CrystaleState:
    state = RULES.initial_state(setup_of(game))
    for number, (seat, text) in enumerate(game["entries"], 1):
        assert not RULES.outcome(state).over, f"over before entry {number}"
        assert seat in RULES.to_act(state), f"entry {number} {text!r}: {seat} may not act"
        state = applied(RULES, state, seat, text, f"entry {number} {text!r}")
    return state


def test_fixtures_cover_both_endings() -> None:
    clauses = {load_game(p)["expected"]["clause"] for p in GAME_FILES}
    assert {"CR-13.1", "CR-6.3"} <= clauses


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_fixture_game_ends_as_worked_out_by_hand(path: Path) -> None:
    game = worked_game(path)
    state = replay(game)
    expected = game["expected"]
    assert_ended_as_worked_out(RULES, state, expected)
    assert set(expected) >= {"status", "winner", "clause", "result"}
    assert state.turn == expected["turn"]
    view = RULES.observe(state)
    for seat, numbers in expected["seats"].items():
        mine = view["seats"][seat]
        assert {key: mine[key] for key in numbers} == numbers, seat
    where = {u["id"]: u["tile"] for u in view["units"]}
    assert where == expected["units"]

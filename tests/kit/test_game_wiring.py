"""The game kit's wiring (``referee.games.base``): a rules class names neither its parts
nor its types; they come from its package and its ``ModularRules[State, Action]``."""

from __future__ import annotations

from importlib import import_module

import msgspec
import pytest

from referee.games import BUILT_IN, load
from referee.kit.decks import DeckKnowledge, with_seat_knowledge


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_game_is_wired_from_its_own_package(name: str) -> None:
    """Each built-in game's contract methods are its own modules' functions (the layout in
    ``referee.games``), and its state and action types those of its model."""
    rules = load(name)
    package = f"referee.games.{name}"
    checks, engine, view = (import_module(f"{package}.{m}") for m in ("checks", "engine", "view"))
    assert rules.check is checks.check
    assert rules.apply is engine.apply
    assert rules.render is view.render
    model = import_module(f"{package}.model")
    assert rules.state_type.__module__ == model.__name__
    assert rules.state_type in vars(model).values()
    assert rules.action_type in vars(model).values()


class _Side(msgspec.Struct, frozen=True):
    knowledge: DeckKnowledge
    other: int = 0


class _State(msgspec.Struct, frozen=True):
    sides: tuple[_Side, _Side]
    turn: int = 0


def test_with_seat_knowledge_replaces_that_side_knowledge_only() -> None:
    """REF-5.4, REF-5.3: a seat's deck knowledge changes (a card seen, a list opened) without
    touching the other seat's side or the rest of the position."""
    before = _State(
        sides=(_Side(DeckKnowledge("p1", 40), 1), _Side(DeckKnowledge("p2", 40), 2)), turn=3
    )
    known = DeckKnowledge("p2", 41)
    after = with_seat_knowledge(before, 1, known)
    assert after.sides[1] == _Side(known, 2)
    assert after.sides[0] is before.sides[0]
    assert after.turn == 3
    assert before.sides[1].knowledge.size == 40

"""A sealed list's size is public, so a size the construction rules forbid is refused when
the list is registered (CR-3.1, GS-I.1, REF-5.1), not found out at the deck check."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.store import GameStore
from referee import games
from referee.capabilities import decks_of
from referee.contract import Player, Setup
from referee.kit.decks import SealedDeck
from service import RefereeService
from service.errors import InvalidCommandError

COMMIT = "v2-" + "ab" * 32


def service(tmp_path: Path) -> RefereeService:
    return RefereeService(GameStore(tmp_path / "store.db"), draw_seed=lambda: 1234)


@pytest.mark.parametrize("size", [5, 30, 35])
def test_cr_3_1_a_sealed_pool_of_the_wrong_size_is_refused_at_registration(
    tmp_path: Path, size: int
) -> None:
    """CR-3.1: a pool holds 31 crystals; `--sealed p1=COMMIT:35` cannot start a game."""
    with pytest.raises(InvalidCommandError) as raised:
        service(tmp_path).create_game(
            "crystale", {"p1": "Ann", "p2": "Ben"}, decks={"p1": SealedDeck(COMMIT, size)}
        )
    assert raised.value.clause == "CR-3.1"
    assert f"{size} crystals" in str(raised.value)


def test_cr_3_1_a_sealed_pool_of_31_is_taken(tmp_path: Path) -> None:
    view = service(tmp_path).create_game(
        "crystale", {"p1": "Ann", "p2": "Ben"}, decks={"p1": SealedDeck(COMMIT, 31)}
    )
    assert view.game_id


def test_gs_i_1_a_sealed_list_outside_the_deck_limits_is_refused(tmp_path: Path) -> None:
    """GS-I.1: under deck_limits=40-60 a sealed list of 35 or 61 cards is refused."""
    svc = service(tmp_path)
    for size in (35, 61):
        with pytest.raises(InvalidCommandError) as raised:
            svc.create_game(
                "gammasphere",
                {"p1": "Ann", "p2": "Ben"},
                variants={"deck_limits": "40-60"},
                decks={"p2": SealedDeck(COMMIT, size)},
            )
        assert raised.value.clause == "GS-I.1"
    assert svc.create_game(
        "gammasphere",
        {"p1": "Ann", "p2": "Ben"},
        variants={"deck_limits": "40-60"},
        decks={"p2": SealedDeck(COMMIT, 40)},
    ).game_id


def test_gs_i_1_open_limits_refuse_a_sealed_list_under_seven(tmp_path: Path) -> None:
    rules = games.load("gammasphere")
    setup = rules.resolve_setup(Setup(players=(Player("p1", "A"), Player("p2", "B"))))
    decks = decks_of(rules)
    assert decks is not None
    assert decks.check_sealed_size(setup, "p1", 6).violations[0].clause == "GS-I.1"
    assert decks.check_sealed_size(setup, "p1", 7).legal


def test_a_game_without_decklists_refuses_a_sealed_size(tmp_path: Path) -> None:
    """REF-5.1: a game that takes no decklists has no deck capability; a sealed list for
    it is refused with that clause whatever its size."""
    assert decks_of(games.load("prizmik")) is None
    with pytest.raises(InvalidCommandError) as raised:
        service(tmp_path).create_game(
            "prizmik", {"red": "Ann", "blue": "Ben"}, decks={"red": SealedDeck(COMMIT, 10)}
        )
    assert "decklists" in str(raised.value)

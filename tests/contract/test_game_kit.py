"""The game kit (issue 34, item 7): what a shipped game brings besides its rules, each
found from the registry (``referee.games.BUILT_IN``), so a sixth game registered without
one of them fails here instead of slipping past the lists that name games."""

from __future__ import annotations

import typing
from importlib import import_module

import msgspec
import pytest
from typer.testing import CliRunner

from cli.main import app
from referee import games
from referee.capabilities import adjustments_of
from referee.drawings import BUILT_IN as DRAWINGS
from referee.drawings import has_drawing
from referee.kit.adjustments import Change
from referee.kit.dispatch import Dispatch
from tests.rulebooks import ROOT


def test_the_built_in_games_are_the_registry_s_shipped_ones() -> None:
    assert set(games.BUILT_IN) <= set(games.names())
    assert all(games.registered()[n].startswith(f"referee.games.{n}:") for n in games.BUILT_IN)
    assert tuple(DRAWINGS) == games.BUILT_IN


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_a_shipped_game_brings_its_package_tests_cases_and_drawing(game: str) -> None:
    package = ROOT / "referee" / "games" / game
    for module in ("model", "notation", "checks", "engine", "legal", "view", "rules", "drawing"):
        assert (package / f"{module}.py").is_file(), f"referee/games/{game}/{module}.py"
    assert (package / "rulebook.toml").is_file()
    assert has_drawing(game)
    assert import_module(f"tests.{game}.contract").CASES, f"tests/{game}/contract.py: CASES"
    golden = ROOT / "tests" / "drawings" / "golden"
    assert sorted(golden.glob(f"{game}-*.svg")), f"golden drawings of {game}"


def test_referee_new_help_names_every_game() -> None:
    result = CliRunner().invoke(app, ["new", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for game in games.BUILT_IN:
        assert f"  {game} (" in result.stdout, game


def _entry_keys(game: str) -> list[type | str]:
    """What a game's handlers are keyed by: each type of its action union, or, for a game
    whose actions are one struct (PRIZMIK), each value of its ``kind`` field."""
    action_type = games.load(game).action_type
    members = typing.get_args(action_type)
    if members:
        return list(members)
    kind = {f.name: f.type for f in msgspec.structs.fields(action_type)}["kind"]
    return list(typing.get_args(kind))


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_a_shipped_game_declares_one_check_and_one_effect_per_kind_of_entry(game: str) -> None:
    """The one dispatch idiom (``referee.kit.dispatch``): a game's ``checks`` module holds
    ``ENTRY_CHECKS`` and its ``engine`` ``ENTRY_EFFECTS``, each with a handler for every
    kind of entry the game has and for nothing else."""
    _holds_tables(game, _entry_keys(game), ("checks", "ENTRY_CHECKS"), ("engine", "ENTRY_EFFECTS"))


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_a_game_taking_adjustments_declares_one_check_and_one_effect_per_change(game: str) -> None:
    """REF-6.3 in the same idiom: a game whose rules take the referee's adjustments carries
    them out in its ``adjust`` module, whose ``CHANGE_CHECKS`` and ``CHANGE_EFFECTS`` hold a
    handler for every primitive change of the kit (``referee.kit.adjustments.Change``; a kind
    the game does not take is refused there, with its clause) and for nothing else."""
    rules = games.load(game)
    adjusting = adjustments_of(rules)
    if adjusting is None:
        assert not (ROOT / "referee" / "games" / game / "adjust.py").is_file(), game
        return
    adjust = import_module(f"referee.games.{game}.adjust")
    assert adjusting.check_change is adjust.check_change, game
    assert adjusting.apply_change is adjust.apply_change, game
    changes: list[type | str] = list(typing.get_args(Change))
    _holds_tables(game, changes, ("adjust", "CHANGE_CHECKS"), ("adjust", "CHANGE_EFFECTS"))


def _holds_tables(game: str, keys: list[type | str], *tables: tuple[str, str]) -> None:
    """Each of ``tables`` (module, name) is a ``Dispatch`` with a handler for every one of
    ``keys`` and for nothing else."""
    assert keys, game
    for module, table in tables:
        where = f"referee/games/{game}/{module}.py: {table}"
        dispatch = getattr(import_module(f"referee.games.{game}.{module}"), table, None)
        assert isinstance(dispatch, Dispatch), where
        assert dispatch.missing(keys) == [], where
        assert set(dispatch.handlers) == set(keys), f"{where} handles more"

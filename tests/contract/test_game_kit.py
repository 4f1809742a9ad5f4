"""The game kit (issue 34, item 7): what a shipped game brings besides its rules, each
found from the registry (``referee.games.BUILT_IN``), so a sixth game registered without
one of them fails here instead of slipping past the lists that name games."""

from __future__ import annotations

from importlib import import_module

import pytest
from typer.testing import CliRunner

from cli.main import app
from referee import games
from referee.drawings import BUILT_IN as DRAWINGS
from referee.drawings import has_drawing
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

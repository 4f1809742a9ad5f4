"""What the games' replays of their fixture games share (tests/<game>/test_<game>_games.py):
reading a game file, its options with the catalog file's text, one entry checked and
applied as the referee would, and the end worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def load_game(path: Path) -> dict[str, Any]:
    """A fixture game file: its setup, entries and expected end."""
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def worked_game(path: Path) -> dict[str, Any]:
    """A fixture game that says what it shows: a title and the notes of how its end was
    worked out by hand."""
    game = load_game(path)
    assert game["title"]
    assert game["notes"]
    return game


def game_options(game: dict[str, Any], fixtures: Path) -> dict[str, Any]:
    """The game's options, with its ``catalog_file`` read as a face passes a file: its text."""
    options = dict(game["options"])
    if "catalog_file" in game:
        options["catalog"] = (fixtures / game["catalog_file"]).read_text()
    return options


def applied(rules: Any, state: Any, seat: str, text: str, where: str) -> Any:
    """``state`` after the entry ``text`` by ``seat``, which must be written canonically and
    be legal (``where`` names the entry in a failure)."""
    action = rules.parse(text)
    assert rules.notation(action) == text, "fixtures are in canonical notation"
    verdict = rules.check(state, action, seat)
    assert verdict.legal, f"{where}: {verdict.explain()}"
    return rules.apply(state, action, seat)


OUTCOME_FIELDS = ("status", "winner", "clause", "result", "reason")


def assert_ended_as_worked_out(rules: Any, state: Any, expected: dict[str, Any]) -> None:
    """The game stands over as its ``expected`` end says (each outcome field it names) and
    nothing is left to enter."""
    out = rules.outcome(state)
    named = [key for key in OUTCOME_FIELDS if key in expected]
    assert {key: getattr(out, key) for key in named} == {key: expected[key] for key in named}
    assert rules.legal_actions(state) == []
    assert rules.to_act(state) == frozenset()

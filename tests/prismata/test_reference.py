"""Agreement with the independent reference engine, turn by turn (and action by action for
``pa_*`` files): the copied fixtures always, the whole shared corpus when it is present."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from referee.games.prismata.reference import (
    ReferenceImport,
    compare,
    reference_setup,
    replay,
    units_table,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures/prismata/reference"
SHARED = ROOT.parent / "shared/data/prismata/reference"


def _load(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rt") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


FIXTURE_FILES = sorted(FIXTURES.rglob("*.json.gz"))


def test_fixtures_cover_both_balances() -> None:
    balances = {p.parent.name for p in FIXTURE_FILES}
    assert balances == {"live-2026-03", "churchill-2020"}


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_game_agrees(path: Path) -> None:
    """PM-9.3 and the reference rulings: every action checks legal and every position agrees."""
    report = replay(_load(path), per_action=True)
    assert report.agree, report.first_difference
    assert report.winner_ours == report.winner_reference


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared reference corpus not present")
def test_every_shared_reference_game_agrees() -> None:
    files = sorted(SHARED.rglob("*.json.gz"))
    assert len(files) >= 100
    failures = []
    per_balance: dict[str, list[int]] = {}
    for path in files:
        game = _load(path)
        report = replay(game, per_action=True)
        tally = per_balance.setdefault(game["balance"], [0, 0])
        tally[0] += report.agree
        tally[1] += 1
        if not report.agree:
            failures.append(f"{path.parent.name}/{path.name}: {report.first_difference}")
    assert not failures, "\n".join(failures)
    assert set(per_balance) == {"live-2026-03", "churchill-2020"}


def test_caller_loop_pattern_and_a_detected_difference() -> None:
    game = _load(FIXTURE_FILES[0])
    imp = ReferenceImport(game)
    for turn in game["turns"][:4]:
        imp.convert_turn(turn)
        assert imp.compare(turn["stateAfter"]) == []
    # comparing against an older snapshot reports differences in plain words
    diffs = compare(imp.state, game["turns"][1]["stateAfter"], imp.ids)
    assert diffs
    assert any("ours" in d and "reference" in d for d in diffs)


def test_reference_setup_uses_the_engine_rulings() -> None:
    game = _load(FIXTURE_FILES[0])
    s = reference_setup(game)
    assert s.variants["wipeout"] == "second_player"
    assert s.variants["supply"] == "rarity"
    assert len(s.options["units"]) == len(game["randomSet"])


def test_units_table_lists_display_names() -> None:
    rows = units_table("prismata/2026-03")
    assert len(rows) == 116
    tarsier = next(r for r in rows if r["name"] == "Tarsier")
    assert tarsier["internal"] == "Tesla Tower"
    assert tarsier["cost"] == "4C"
    assert tarsier["build_time"] == 2
    assert len(units_table("prismata/2020")) > 90

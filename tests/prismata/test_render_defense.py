"""The position drawn in a defense phase says how much damage is still to be blocked (PM-4.1)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from referee.games.prismata import PrismataRules
from referee.games.prismata.reference import ReferenceImport

GAME = (
    Path(__file__).resolve().parents[2]
    / "fixtures/prismata/reference/live-2026-03/pp8_002_seed11002.json.gz"
)


def test_pm_4_1_render_shows_incoming_damage_in_defense() -> None:
    rules = PrismataRules()
    with gzip.open(GAME, "rt") as fh:
        imp = ReferenceImport(json.load(fh))
    for turn in imp.game["turns"]:
        for action in turn["actions"]:
            imp.convert_action(action)
            state = imp.state
            if state.phase == "defense" and state.res[1 - state.active].attack > 0:
                incoming = state.res[1 - state.active].attack
                assert f"defense phase: {incoming} incoming damage to block" in rules.render(state)
                return
    raise AssertionError("no defense phase with incoming damage in the fixture game")

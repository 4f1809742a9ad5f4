"""verify --variant on a real PRIZMIK game: a ruling switch shows which actions it makes illegal."""

from __future__ import annotations

import random
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app
from events.integrity import what_if
from events.store import GameStore
from referee import games
from referee.contract import Player
from service import RefereeService

RULES = games.load("prizmik")


def play_until_fleet_capture(store: RefereeService) -> tuple[str, int]:
    """A seeded game that prefers captures;
    returns the id and the ply of the first fleet capture."""
    rng = random.Random(3)
    for _attempt in range(50):
        view = store.create_game("prizmik", [Player("red", "Ann"), Player("blue", "Ben")])
        while view.ended is None and view.ply < 200:
            options = list(RULES.legal_actions(view.state))
            board = view.state.board
            fleet_captures = [a for a in options if a.kind == "capture" and board[a.target] in "Ff"]
            pick = (
                fleet_captures[0]
                if fleet_captures
                else rng.choice([a for a in options if a.kind == "capture"] or options)
            )
            store.record(view.game_id, RULES.notation(pick), view=view)
            if fleet_captures:
                return view.game_id, view.ply
    raise AssertionError("no fleet capture found")


def test_pz_10_3_variant_lists_fleet_capture_as_illegal(tmp_path: Path) -> None:
    """PZ-10.3: with fleet_capturable=no, the recorded capture of a full fleet would be illegal."""
    store = RefereeService(GameStore(tmp_path / "w.db"))
    game_id, ply = play_until_fleet_capture(store)
    view = store.load(game_id)
    assert what_if(view).illegal == []  # the same ruling changes nothing
    report = what_if(view, variants={"fleet_capturable": "no"})
    assert report.changed == {"fleet_capturable": ["yes", "no"]}
    assert report.illegal
    assert report.illegal[0].seq == ply
    assert report.illegal[0].violations[0]["clause"].startswith("PZ-")
    result = CliRunner().invoke(
        app, ["--db", str(tmp_path / "w.db"), "verify", game_id, "--variant", "fleet_capturable=no"]
    )
    assert result.exit_code == 0
    assert f"action {ply} " in result.stdout
    assert "would be illegal" in result.stdout

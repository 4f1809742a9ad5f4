"""``referee show GAME --svg`` for every shipped game: the service's drawing on standard
output, honouring --as and --at, and refused with --json."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from referee import games
from tests.drawings.conftest import first_case, parse, played, shown_text

GAMES = games.BUILT_IN  # every shipped game, from the registry


@pytest.mark.parametrize("game", GAMES)
def test_show_svg_writes_the_drawing(game: str, play_folder: Path) -> None:
    done = played(first_case(game), play_folder)
    runner = CliRunner()

    def show(*more: str) -> str:
        result = runner.invoke(app, ["--db", str(done.path), "show", done.game_id, *more])
        assert result.exit_code == 0, result.output
        return result.stdout

    out = show("--svg")
    root = parse(out)
    assert root.get("data-game") == game
    assert root.get("data-viewer") == "referee"
    assert out.strip() == done.svc.position_svg(done.game_id)
    public = show("--svg", "--as", "public", "--at", "1")
    assert parse(public).get("data-viewer") == "public"
    assert public.strip() == done.svc.position_svg(done.game_id, at=1, viewer="public")
    # the last entry of position 1 is named in the drawing as the viewer may see it
    last = done.svc.position(done.game_id, at=1, viewer="public").last_action
    assert last is not None
    assert html.unescape(last.split(" ", 1)[1]) in shown_text(public)


def test_show_svg_is_not_json(play_folder: Path) -> None:
    done = played(first_case("prizmik"), play_folder)
    result = CliRunner().invoke(
        app, ["--db", str(done.path), "show", done.game_id, "--svg", "--json"]
    )
    assert result.exit_code == 2
    assert "--svg" in result.output
    assert "--json" in result.output
    assert len(result.output.strip().splitlines()) == 1

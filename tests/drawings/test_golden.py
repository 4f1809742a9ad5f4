"""Golden drawings: each game's board at the start, in mid-game and at the end of its
first contract case, drawn through the service (``RefereeService.position_svg``) and
compared byte for byte with the files in ``tests/drawings/golden/``.

A change to a drawing shows here first: look at the new files (open them in a
browser), then write them with ``REFEREE_REGOLD=1 python -m pytest tests/drawings``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee import games
from tests.drawings.conftest import first_case, parse, played

GOLDEN = Path(__file__).parent / "golden"
GAMES = games.BUILT_IN  # every shipped game, from the registry
MOMENTS = (("start", "public"), ("middle", "referee"), ("end", "public"))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("moment", "viewer"), MOMENTS)
def test_the_drawing_is_the_golden_one(
    game: str, moment: str, viewer: str, play_folder: Path
) -> None:
    done = played(first_case(game), play_folder)
    ply = done.svc.load(done.game_id).ply
    at = {"start": 0, "middle": ply // 2, "end": ply}[moment]
    svg = done.svc.position_svg(done.game_id, at=at, viewer=viewer)
    root = parse(svg)
    assert root.get("data-game") == game
    assert root.get("data-viewer") == viewer
    path = GOLDEN / f"{game}-{moment}-{viewer}.svg"
    if os.environ.get("REFEREE_REGOLD"):
        path.write_text(svg + "\n", encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: write it with REFEREE_REGOLD=1"
    assert svg + "\n" == path.read_text(encoding="utf-8"), (
        f"{path.name} differs: look at the new drawing, then REFEREE_REGOLD=1 to accept it"
    )


def test_the_same_position_draws_the_same(play_folder: Path) -> None:
    done = played(first_case("crystale"), play_folder)
    first = done.svc.position_svg(done.game_id, viewer="p1")
    assert first == done.svc.position_svg(done.game_id, viewer="p1")

"""Each game's board on its table page, in a real headless Chromium (Debian's
``/usr/bin/chromium``, as in ``test_pages``): the game's own drawing inline with
``data-game`` on it, the shapes of that game present, hidden cards drawn as backs
for the public, a click on the drawing filling the entry line, and no board wider
than a 375 px phone.

The README's pictures of a Crystale and a Gammasphere board are made here:
``REFEREE_README_IMAGES=1 python -m pytest tests/web/test_board_pages.py`` writes
them to ``docs/images/`` (otherwise they go with the other screenshots).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.games import BUILT_IN
from tests.contract.test_contract import CASES, play
from tests.web import test_pages
from tests.web.conftest import ROOT, ThreadServer, Tokens, served
from tests.web.test_pages import CHROMIUM, box, signed_in

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM} is not installed"
)

browser = test_pages.browser  # the same Chromium fixtures as the other page tests
shots = test_pages.shots

STEPS = {"crystale": 60, "gammasphere": 20, "prismata": 45, "prismatic": 30, "prizmik": 12}
"""How far into each game's first contract case the page's game is played (still open)."""
SHAPES = {
    "crystale": ("polygon.hex", 29),
    "gammasphere": ("g.seat", 2),
    "prismata": ("g.unit", 10),
    "prismatic": ("g.method", 10),
    "prizmik": ("rect.square", 64),
}
"""A selector of the game's own shapes, and how many of them at least (exactly, for hexes
and squares)."""
IMAGES = ROOT / "docs" / "images"


def first_case(game: str) -> Any:
    return next(p.values[0] for p in CASES if p.values[0] is not None and p.values[0].game == game)


def part_played(store: str) -> dict[str, str]:
    """Every game part-played into ``store``: game name -> its game id."""
    made: dict[str, str] = {}
    for game in BUILT_IN:  # a game missing from STEPS fails here, not silently
        case = first_case(game)
        case = dataclasses.replace(case, steps=case.steps[: STEPS[game]])
        done = play(case, Path(store))
        made[game] = done.game_id
        done.svc.close()
    return made


# The tests here only look at the pages (a click fills the entry line, a check stores
# nothing): one store, its games and one server serve them all.
@pytest.fixture(scope="module")
def games(module_store: str) -> dict[str, str]:
    """Every game part-played into the module's store (before the server starts)."""
    return part_played(module_store)


@pytest.fixture(scope="module")
def tokens(module_tokens: Tokens) -> Tokens:
    return module_tokens


@pytest.fixture(scope="module")
def server(games: dict[str, str], module_store: str) -> Iterator[ThreadServer]:
    yield from served(module_store)


def on_page(browser: Any, server: ThreadServer, token: str, game: str, **context: Any) -> Any:
    page = signed_in(browser, server.base, token, **context)
    page.goto(f"{server.base}/games/{game}")
    page.wait_for_selector("#board svg.drawing")
    return page


@pytest.mark.parametrize("game", BUILT_IN)
def test_each_board_is_the_games_own_drawing_on_its_page(
    game: str,
    browser: Any,
    server: ThreadServer,
    games: dict[str, str],
    tokens: Tokens,
    shots: Path,
) -> None:
    for role in ("head", "public"):
        page = on_page(browser, server, tokens[role], games[game])
        drawing = page.locator(f'#board svg.drawing[data-game="{game}"]')
        assert drawing.count() == 1  # inline, once
        selector, least = SHAPES[game]
        shapes = page.locator(f"#board svg.drawing {selector}")
        if game in ("crystale", "prizmik"):
            assert shapes.count() == least
        else:
            assert shapes.count() >= least, (selector, shapes.count())
        assert page.locator("#board svg.drawing [data-notation]").count() > 0
        assert box(page, f"#board svg.drawing {selector}")["width"] > 5
        assert page.locator("#board .board-text").count() == 1  # the text, under "as text"
        page.screenshot(path=str(shots / f"{game}-board-{role}.png"), full_page=True)
        assert not page.errors
        page.context.close()


@pytest.mark.parametrize("game", ["crystale", "gammasphere"])
def test_the_public_sees_hidden_hands_as_backs(
    game: str,
    browser: Any,
    server: ThreadServer,
    games: dict[str, str],
    tokens: Tokens,
) -> None:
    page = on_page(browser, server, tokens["public"], games[game])
    backs = page.locator("#board svg.drawing .card.back")
    assert backs.count() >= 1
    back = box(page, "#board svg.drawing .card.back")
    assert back["width"] > 8
    assert back["height"] > 8
    for name in page.evaluate(
        "[...document.querySelectorAll('#board svg.drawing .card.back')]"
        ".map(e => e.getAttribute('data-notation'))"
    ):
        assert name is None  # a back names nothing
    page.context.close()


def test_a_click_on_the_board_fills_the_entry_line(
    browser: Any, server: ThreadServer, games: dict[str, str], tokens: Tokens
) -> None:
    page = on_page(browser, server, tokens["head"], games["crystale"])
    unit = page.locator("#board svg.drawing g.unit.servant").first
    uid = unit.get_attribute("data-notation")
    page.fill("#entry", "move ")
    unit.click()
    assert page.input_value("#entry") == f"move {uid}"
    page.locator('#board svg.drawing g.tile[data-notation="a1"]').click(position={"x": 8, "y": 30})
    assert page.input_value("#entry") == f"move {uid} a1"
    page.wait_for_selector("#check.legal, #check.illegal")  # judged as if typed
    page.fill("#entry", "summon Cinderpup @")
    page.locator('#board svg.drawing g.tile[data-notation="e5"]').click(position={"x": 8, "y": 30})
    assert page.input_value("#entry") == "summon Cinderpup @e5"
    page.context.close()

    page = on_page(browser, server, tokens["head"], games["prizmik"])
    taken = set(page.evaluate(
        "[...document.querySelectorAll('#board svg.drawing g.piece')].map(g => g.dataset.square)"
    ))  # fmt: skip
    first, second = next(
        (f"{f}{r}", f"{f}{r + 1}")
        for f in "abcdefgh"
        for r in range(1, 8)
        if not {f"{f}{r}", f"{f}{r + 1}"} & taken
    )
    page.fill("#entry", "")
    page.locator(f'#board svg.drawing rect.square[data-notation="{first}"]').click()
    page.locator(f'#board svg.drawing rect.square[data-notation="{second}"]').click()
    assert page.input_value("#entry") == f"{first}-{second}"
    page.context.close()


SMALLEST_TEXT = (
    "Math.min(...[...document.querySelectorAll('#board svg.drawing text')]"
    ".filter(t => t.getClientRects().length)"
    ".map(t => { const m = t.getScreenCTM();"
    " return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); }))"
)
"""The smallest text of the board as drawn, in CSS pixels (its font size times the scale)."""


@pytest.mark.parametrize("game", BUILT_IN)
def test_no_board_overflows_a_phone(
    game: str, browser: Any, server: ThreadServer, games: dict[str, str], tokens: Tokens
) -> None:
    """At 375 px no text of a board is under 11 CSS px (issue 30: hex labels and card
    stats were about 6 px): the board scrolls sideways in its own box, the page does not;
    the "whole board" switch fits it to the screen for an overview."""
    page = on_page(
        browser, server, tokens["public"], games[game], viewport={"width": 375, "height": 800}
    )
    frame = box(page, "#board .board-scroll")
    assert frame["x"] >= 0
    assert frame["x"] + frame["width"] <= 375
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    smallest = page.evaluate(SMALLEST_TEXT)
    assert smallest >= 11 - 0.01, smallest
    page.click("label[for=fit-board]")
    board = box(page, "#board svg.drawing")
    assert 300 < board["width"] <= 375
    assert board["x"] >= 0
    assert board["x"] + board["width"] <= 375
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.context.close()


def _element_png(page: Any, selector: str, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    page.locator(selector).screenshot(path=str(path))


def test_the_readme_pictures_of_a_crystale_and_a_gammasphere_board(
    browser: Any, server: ThreadServer, games: dict[str, str], tokens: Tokens, shots: Path
) -> None:
    folder = IMAGES if os.environ.get("REFEREE_README_IMAGES") else shots
    save: Callable[[Any, str], None] = lambda page, name: _element_png(  # noqa: E731
        page, "#board svg.drawing", folder / name
    )
    for game in ("crystale", "gammasphere"):
        page = on_page(
            browser, server, tokens["public"], games[game],
            viewport={"width": 520, "height": 900}, device_scale_factor=2,
        )  # fmt: skip
        save(page, f"{game}-board.png")
        assert (folder / f"{game}-board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        page.context.close()
    for game in ("crystale", "gammasphere"):  # the README shows the committed pictures
        assert (IMAGES / f"{game}-board.png").exists()
        assert f"docs/images/{game}-board.png" in (ROOT / "README.md").read_text()

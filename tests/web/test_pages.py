"""The pages in a real headless Chromium (Debian's ``/usr/bin/chromium``, driven by
Playwright's Python package; nothing is downloaded): whole games played from the
table page while another browser follows live, the replay viewer, the exported
replay file, the card games' public view, the live games list and scoreboard, a
phone's screen. Every page is screenshotted and the screenshot looked at (pixels
of the drawing, boxes of its elements).

Screenshots go to ``REFEREE_SCREENSHOTS`` (a folder) when set, else the test's
temporary folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.app import open_service
from tests.web.conftest import ROOT, ThreadServer, Tokens, auth, tribute_body
from tests.web.pixels import Image

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() or shutil.which("chromium") is None,
    reason=f"no browser: {CHROMIUM} is not installed (apt-get install chromium)",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright's Python package is not installed"
    )
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=ARGS
        )  # a fresh profile each run
        yield launched
        launched.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("REFEREE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def signed_in(browser: Any, base: str, token: str, **context: Any) -> Any:
    """A new browser context (its own cookies) signed in with ``token``, and its page."""
    ctx = browser.new_context(**({"viewport": {"width": 1200, "height": 900}} | context))
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{base}/login")
    page.fill("#token", token)
    page.click("#sign-in")
    page.wait_for_url(lambda url: url in (f"{base}/", f"{base}/events"))  # a player: events
    return page


def colour_at(page: Any, x: float, y: float) -> tuple[int, int, int]:
    """The colour the page shows at (x, y) of the viewport, read from a screenshot."""
    png = page.screenshot(clip={"x": max(0, x - 1), "y": max(0, y - 1), "width": 3, "height": 3})
    return Image(png).pixel(1, 1)


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found)


def new_game(base: str, token: str, body: dict[str, Any]) -> str:
    response = httpx.post(f"{base}/api/games", json=body, headers=auth(token))
    assert response.status_code == 201, response.text
    return str(response.json()["game_id"])


def enter(page: Any, text: str) -> None:
    """Type an entry and press Enter; wait until the page shows its fate."""
    version = int(page.get_attribute("#table", "data-version"))
    page.fill("#entry", text)
    page.press("#entry", "Enter")
    page.wait_for_function(f"Number(document.getElementById('table').dataset.version) > {version}")


def version_of(base: str, token: str, game: str) -> int:
    return int(httpx.get(f"{base}/api/games/{game}", headers=auth(token)).json()["version"])


def test_a_whole_prizmik_game_from_the_table_page_followed_live(
    browser: Any, live_server: ThreadServer, tokens: Tokens, shots: Path
) -> None:
    base = live_server.base
    fixture = json.loads(
        (ROOT / "fixtures/prizmik/games/02_base_captures_impossible.json").read_text()
    )
    game = new_game(
        base,
        tokens["head"],
        {"game": "prizmik", "players": fixture["players"], "meta": {"table": "1"}},
    )
    referee = signed_in(browser, base, tokens["table1"])
    public = signed_in(browser, base, tokens["public"])
    referee.goto(f"{base}/games/{game}")
    public.goto(f"{base}/games/{game}")
    assert public.locator("#entry").count() == 0  # the public reads only
    public.wait_for_selector("#live.on")

    # the entry box judges as you type: the rule broken is shown before anything is stored
    referee.fill("#entry", "c1-c5")
    referee.wait_for_selector("#check.illegal")
    assert re.search(r"PZ-\d", referee.inner_text("#check"))
    assert version_of(base, tokens["head"], game) == 1
    referee.press("#entry", "Enter")
    referee.wait_for_function("document.getElementById('table').dataset.version === '2'")
    assert "rejected" in referee.inner_text("#result")
    assert re.search(r"PZ-\d", referee.inner_text("#result"))

    moves: list[str] = fixture["moves"]
    for number, move in enumerate(moves, start=1):
        enter(referee, move)
        assert f"recorded {move}" in referee.inner_text("#result"), referee.inner_text("#result")
        if number == 3:  # undo with a reason, then enter it again
            referee.click("details.tools summary")
            referee.fill("#undo-reason", "misheard the move")
            referee.click("#undo")
            referee.wait_for_function(
                "document.getElementById('result').textContent.includes('retracted')"
            )
            # the entry carries the page's version (If-Match): wait until the page holds the
            # retraction's, else a loaded machine sends the stale one and meets a 412
            stored = version_of(base, tokens["head"], game)
            referee.wait_for_function(
                f"document.getElementById('table').dataset.version === '{stored}'"
            )
            enter(referee, move)
            assert f"recorded {move}" in referee.inner_text("#result"), referee.inner_text(
                "#result"
            )
        if number in (4, len(moves)):  # the other browser follows without reloading
            public.wait_for_function(
                f"document.getElementById('last').textContent.includes({json.dumps(move)})",
                timeout=15_000,
            )
    assert "game over" in referee.inner_text("#status")
    public.wait_for_function(
        "document.getElementById('status').textContent.includes('game over')", timeout=15_000
    )
    assert "blue wins" in public.inner_text("#status")
    assert not referee.errors
    assert not public.errors

    for page, name in ((referee, "prizmik-table-referee"), (public, "prizmik-table-public")):
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
        # the last action is marked: the square it reached shows the marker's yellow
        target = box(page, "svg.prizmik rect.last-to")
        r, g, b = colour_at(page, target["x"] + 5, target["y"] + target["height"] / 2)
        assert r > 200, (name, (r, g, b))
        assert g > 170, (name, (r, g, b))
        assert b < 140, (name, (r, g, b))
        # a blue piece is drawn in blue
        piece = box(
            page,
            'svg.prizmik g.piece[data-piece^="blue"] .ship, svg.prizmik '
            'g.piece[data-piece^="blue"] .base, svg.prizmik g.piece[data-piece^="blue"] .fighter',
        )
        r, g, b = colour_at(
            page, piece["x"] + piece["width"] / 2, piece["y"] + piece["height"] * 0.75
        )
        assert b > 120, (name, (r, g, b))
        assert r < 90, (name, (r, g, b))
    svc = open_service(live_server_store(live_server))
    try:
        view = svc.load(game)
        assert [e.notation for e in view.standing] == moves
        assert {e.recorded_by for e in view.standing} == {"Tom"}
    finally:
        svc.close()


def live_server_store(server: ThreadServer) -> str:
    app: Any = server.server.config.app
    web = app.state["web"]
    return str(web.spec.db)


def prismata_record() -> tuple[dict[str, Any], list[str]]:
    text = (ROOT / "fixtures/legacy/prismata-ref-cov_buy_000_seed19460.txt").read_text()
    found = re.search(r'^\[Options "(.*)"\]$', text, re.MULTILINE)
    assert found is not None
    options = json.loads(found.group(1).replace('\\"', '"'))
    entries = [m.group(1) for m in re.finditer(r"^\d+\. p[12] (.*)$", text, re.MULTILINE)]
    return options, entries


def test_a_prismata_game_typed_at_the_table_page_and_followed_to_its_end(
    browser: Any, live_server: ThreadServer, tokens: Tokens, shots: Path
) -> None:
    """The opening of a reference game typed at the table page (each entry's fate shown
    before the next), the rest (some 330 entries, which would only retype the same forms)
    sent through the API: both pages follow it live to its end."""
    base = live_server.base
    options, entries = prismata_record()
    game = new_game(
        base,
        tokens["head"],
        {
            "game": "prismata",
            "players": {"p1": "Ann", "p2": "Ben"},
            "options": options,
            "meta": {"table": "1"},
            "variants": {"wipeout": "second_player"},
        },
    )
    referee = signed_in(browser, base, tokens["table1"])
    public = signed_in(browser, base, tokens["public"])
    referee.goto(f"{base}/games/{game}")
    public.goto(f"{base}/games/{game}")
    referee.wait_for_selector("svg.prismata g.unit")
    referee.screenshot(path=str(shots / "prismata-table-start.png"), full_page=True)
    typed = 41  # two turns a seat and a third begun: the clicks, buys and ends later turns repeat
    for index, text in enumerate(entries[:typed]):
        enter(referee, text)
        if index == 40:
            referee.screenshot(path=str(shots / "prismata-table-midgame.png"), full_page=True)
            marked = referee.locator("svg.prismata g.unit.marked")
            assert marked.count() >= 1 or not re.search(r"#\d+", text)
    # one client, its connection kept: a client made for each entry cost 15-30 ms of CPU (its
    # TLS context), most of the CPU the 300 entries cost the test
    with httpx.Client(base_url=base, headers=auth(tokens["table1"])) as api:
        for text in entries[typed:]:
            sent = api.post(f"/api/games/{game}/entries", json={"text": text})
            assert sent.status_code == 201, sent.text
    for page in (referee, public):
        page.wait_for_function(
            "document.getElementById('status').textContent.includes('p2 wins')", timeout=15_000
        )
    assert "game over" in referee.inner_text("#status")
    for page, name in ((referee, "prismata-table-referee"), (public, "prismata-table-public")):
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
        seats = page.locator("svg.prismata g.seat")
        assert seats.count() == 2
        tile = box(page, "svg.prismata g.unit rect")
        assert tile["width"] > 30
        assert tile["height"] > 15
        r, g, b = colour_at(page, tile["x"] + tile["width"] / 2, tile["y"] + tile["height"] - 4)
        assert min(r, g, b) > 200, (name, (r, g, b))  # a tile's light face, not the page's grey
    assert not referee.errors
    assert not public.errors


def test_the_replay_viewer_steps_jumps_and_flips(
    browser: Any, live_server: ThreadServer, tokens: Tokens, shots: Path
) -> None:
    base, head = live_server.base, tokens["head"]
    game = new_game(base, head, {"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}})
    for text in ("e1>e2", "e8>e7", "e2-e5", "e2-e4"):
        httpx.post(f"{base}/api/games/{game}/entries", json={"text": text}, headers=auth(head))
    httpx.post(
        f"{base}/api/games/{game}/retractions", json={"reason": "wrong square"}, headers=auth(head)
    )
    httpx.post(f"{base}/api/games/{game}/entries", json={"text": "e2-e3"}, headers=auth(head))
    httpx.post(
        f"{base}/api/games/{game}/disputes",
        json={"event": 4, "by": "Ann", "claim": "it was legal"},
        headers=auth(head),
    )
    ruled = httpx.post(
        f"{base}/api/games/{game}/disputes/1/rulings",
        headers=auth(head),
        json={"decision": "uphold", "clause": "PZ-4.1", "reason": "a ship moves two squares"},
    )
    assert ruled.status_code == 201, ruled.text
    httpx.post(f"{base}/api/games/{game}/entries", json={"text": "e7-e5"}, headers=auth(head))
    page = signed_in(browser, base, tokens["public"])
    page.goto(f"{base}/games/{game}/replay")
    frames = page.locator("#moves li")
    total = frames.count()
    assert total == 7  # the start, four actions, a retraction, one more action
    assert page.inner_text("#where").startswith("step 0 of 6")
    page.keyboard.press("End")
    assert page.inner_text("#where").startswith("step 6 of 6")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#where").startswith("step 2 of 6")
    page.click('button[data-jump="rejection:1"]')
    assert "rejection" in page.inner_text("#moves li.current")
    assert re.search(r"PZ-\d+\.\d+", page.inner_text("#cited"))
    page.click('button[data-jump="correction:1"]')
    assert "retracted" in page.inner_text("#what")
    page.click('button[data-jump="ruling:1"]')
    cited = page.inner_text("#cited")
    assert "PZ-4.1" in cited
    assert len(cited) > 60
    frames.nth(1).click()
    assert page.inner_text("#what") == "1. red e1>e2"
    page.screenshot(path=str(shots / "replay.png"), full_page=True)
    # flipping sides: red's base on e1 moves from the bottom half of the board to the top half
    board = box(page, "#frame svg.prizmik")
    before = box(page, '#frame g.piece[data-square="e1"]')
    assert before["y"] > board["y"] + board["height"] / 2
    page.keyboard.press("f")
    after = box(page, '#frame g.piece[data-square="e1"]')
    assert after["y"] < board["y"] + board["height"] / 2
    r, g, b = colour_at(page, after["x"] + after["width"] / 2, after["y"] + 8)
    assert r > 150, (r, g, b)
    assert g < 90, (r, g, b)
    assert b < 90, (r, g, b)
    page.screenshot(path=str(shots / "replay-flipped.png"), full_page=True)
    assert not page.errors


def test_the_exported_replay_needs_no_server(
    browser: Any, live_server: ThreadServer, tokens: Tokens, tmp_path: Path, shots: Path
) -> None:
    from service.replay import replay_html

    base, head = live_server.base, tokens["head"]
    game = new_game(base, head, {"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}})
    for text in ("e1>e2", "e8>e7", "e2-e4"):
        httpx.post(f"{base}/api/games/{game}/entries", json={"text": text}, headers=auth(head))
    svc = open_service(live_server_store(live_server))
    try:
        html = replay_html(svc, game, "public")
    finally:
        svc.close()
    path = tmp_path / f"{game}.html"
    path.write_text(html, encoding="utf-8")
    assert not re.search(r"""(src|href|action)\s*=\s*["']?(https?:|/)""", html)  # nothing to fetch
    live_server.stop()  # no server at all
    ctx = browser.new_context()
    requests: list[str] = []
    ctx.on("request", lambda r: requests.append(r.url))
    page = ctx.new_page()
    page.goto(path.as_uri())
    assert page.inner_text("#where").startswith("step 0 of 3")
    page.keyboard.press("End")
    assert page.inner_text("#what") == "3. red e2-e4"
    page.screenshot(path=str(shots / "replay-export.png"), full_page=True)
    target = box(page, "#frame svg.prizmik rect.last-to")
    r, g, b = colour_at(page, target["x"] + 5, target["y"] + target["height"] / 2)
    assert r > 200
    assert g > 170
    assert b < 140
    assert requests == [path.as_uri()]
    ctx.close()


def test_a_card_game_shows_the_public_no_hidden_card(
    browser: Any, live_server: ThreadServer, tokens: Tokens, shots: Path
) -> None:
    base = live_server.base
    game = new_game(base, tokens["head"], tribute_body("2 King"))
    referee = signed_in(browser, base, tokens["table1"])
    referee.goto(f"{base}/games/{game}")
    for seat in ("p1", "p2", "p3"):
        referee.select_option("#seat", seat)
        enter(referee, "draw 2")
    referee.select_option("#seat", "")
    enter(referee, "play Joker")
    public = signed_in(browser, base, tokens["public"])
    public.goto(f"{base}/games/{game}")
    shown = public.inner_text("body") + public.content()
    assert "Joker" in shown  # played: everyone saw it
    assert not re.search(r"\bAce\b|\bJack\b", shown)
    assert re.search(r"\bAce\b", referee.content())
    for page, name in ((public, "tribute-table-public"), (referee, "tribute-table-referee")):
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
        assert page.locator(".board-tribute section.seat").count() == 3
        card = box(page, ".board-tribute svg.cards g.card rect")
        assert card["height"] > 30
        r, g, b = colour_at(page, card["x"] + 4, card["y"] + card["height"] / 2)
        assert r > 240, (name, (r, g, b))
        assert g > 240, (name, (r, g, b))
        assert b > 220, (name, (r, g, b))  # a face-up card
        pile = box(page, ".board-tribute svg.pile rect")  # a hand: card backs, counted
        r, g, b = colour_at(page, pile["x"] + 5, pile["y"] + pile["height"] / 2)
        assert b > r, (name, (r, g, b))
        assert r < 120, (name, (r, g, b))


def test_games_list_and_scoreboard_update_live(
    browser: Any, live_server: ThreadServer, tokens: Tokens, shots: Path
) -> None:
    base, head = live_server.base, tokens["head"]
    games_page = signed_in(browser, base, tokens["public"])
    games_page.wait_for_selector("#live.on")
    game = new_game(
        base,
        head,
        {"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}, "meta": {"table": "3"}},
    )
    games_page.wait_for_selector(f'tr[data-game="{game}"]', timeout=15_000)
    board = games_page.context.new_page()
    board.goto(f"{base}/scoreboard")
    board.wait_for_selector("#live.on")
    httpx.post(
        f"{base}/api/games/{game}/end",
        json={"how": "resignation", "who": "Ann"},
        headers=auth(head),
    )
    games_page.wait_for_function(
        f"document.querySelector('tr[data-game=\"{game}\"] .result').textContent.includes('blue')",
        timeout=15_000,
    )
    board.wait_for_function(
        "document.querySelector('#scoreboard tbody').textContent.includes('Ben')", timeout=15_000
    )
    games_page.screenshot(path=str(shots / "games.png"), full_page=True)
    board.screenshot(path=str(shots / "scoreboard.png"), full_page=True)
    row = box(board, "#scoreboard tbody tr")
    assert row["height"] > 10
    assert "Ann" in board.inner_text("#scoreboard")


def test_the_table_page_fits_a_phone(
    browser: Any, live_server: ThreadServer, tokens: Tokens, shots: Path
) -> None:
    base = live_server.base
    game = new_game(
        base,
        tokens["head"],
        {"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}, "meta": {"table": "1"}},
    )
    phone = signed_in(
        browser,
        base,
        tokens["table1"],
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    phone.goto(f"{base}/games/{game}")
    enter(phone, "e1>e2")
    phone.screenshot(path=str(shots / "table-phone.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 391
    # the board is drawn legibly (its text 11px or more), scrolling sideways in its own box
    scroller = box(phone, "#board .board-scroll")
    assert scroller["width"] <= 390
    assert box(phone, "svg.prizmik")["width"] > 300
    entry = box(phone, "#entry")
    assert entry["x"] >= 0
    assert entry["x"] + entry["width"] <= 390
    assert entry["y"] + entry["height"] < scroller["y"]  # on a phone the entry box is above it
    phone.click("label[for=fit-board]")  # the whole board, fitted to the screen
    board = box(phone, "svg.prizmik")
    assert board["width"] <= 390
    assert board["width"] > 300
    target = box(phone, "svg.prizmik rect.last-to")
    r, g, b = colour_at(phone, target["x"] + 4, target["y"] + target["height"] / 2)
    assert r > 200
    assert g > 170
    assert b < 140


def test_signing_in_is_needed_and_a_bad_token_is_refused(
    browser: Any, live_server: ThreadServer
) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(f"{live_server.base}/scoreboard")
    assert page.url.startswith(f"{live_server.base}/login")
    page.fill("#token", "rf_wrong_token")
    page.click("#sign-in")
    assert "unknown or revoked" in page.inner_text("main")
    ctx.close()

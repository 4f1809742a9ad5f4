"""The event pages a page of rows at a time, with a search that works without JavaScript
(issue 32 goal 4: the standings and pairings of a 10,000-player event are pages of 200 rows).

Here the page holds three rows (``web.eventpaging.PAGE_ROWS`` set for the test), so a
seven-player event has three pages. The pages are read over plain HTTP (what a browser with
JavaScript off does: links and GET forms), and once in a real headless Chromium with
JavaScript disabled, typing a name into the search box and following the pager's links.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import quote

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web.conftest import ThreadServer, Tokens, auth
from web import eventpaging
from web.eventpaging import clamped, find_rows, page_number, paged

PLAYERS = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus"]
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(autouse=True)
def three_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(eventpaging, "PAGE_ROWS", 3)


def make_event(store: str) -> str:
    """A Swiss event of seven players with round 1 paired and one result in."""
    with open_service(store) as svc:
        event = svc.event_new("Spring Open", "prizmik", rounds=3).event_id
        svc.event_register(event, PLAYERS)
        rows = svc.event_pair(event)
        svc.event_result(event, [f"{rows[0].table}=2-0-0"])
    return event


def names(html: str, table: str) -> list[str]:
    """The player of each row of the table ``#table`` (its ``data-player`` attributes)."""
    body = html.split(f'id="{table}"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'data-player="([^"]+)"', body)


def test_page_numbers_links_and_search_rows() -> None:
    """What a page shows and links to, apart from any server: a page past the last shows
    the last one, ``all`` every row, and the links keep the page's other parameters."""
    assert [page_number(t) for t in (None, "2", "all", "0", "-1", "x", "²", "9" * 12)] == [
        None,
        2,
        "all",
        None,
        None,
        None,
        None,
        None,
    ]
    assert [clamped(a, 7) for a in (None, 1, 3, 99, "all")] == [1, 1, 3, 3, "all"]
    rows, pager = paged(list(range(7)), 2, [("by", "name")])
    assert list(rows) == [3, 4, 5]
    assert (pager.first, pager.last, pager.pages) == (4, 6, 3)
    assert [(link.label, link.href) for link in pager.links] == [
        ("first", "?by=name&page=1"),
        ("previous", "?by=name&page=1"),
        ("next", "?by=name&page=3"),
        ("last", "?by=name&page=3"),
    ]
    rows, pager = paged(list(range(7)), "all", [])
    assert list(rows) == list(range(7))
    assert pager.all_href == "?page=all"
    found = find_rows([{"p": "Ann Lee"}, {"p": "Ben"}], "  ann  ", lambda r: [r["p"]])
    assert found == [{"p": "Ann Lee"}]


def test_standings_and_pairings_come_a_page_at_a_time(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """Each page of the standings and of both pairings postings holds its rows in order, and
    together the pages hold every row once; ``?page=all`` holds them all."""
    event = make_event(store)
    head = auth(tokens["head"])
    with open_service(store) as svc:
        standings = [r.player for r in svc.event_standings(event)]
        pairings = msgspec.to_builtins(svc.event_pairings(event))
    base = f"/events/{event}"

    shown: list[str] = []
    for number in (1, 2, 3):
        page = client.get(f"{base}/standings?page={number}", headers=head)
        assert page.status_code == 200
        shown += names(page.text, "standings")
        assert f"rows {3 * number - 2}–{min(3 * number, 7)} of 7" in page.text
    assert shown == standings
    past = client.get(f"{base}/standings?page=99", headers=head).text
    assert names(past, "standings") == standings[6:]  # the last page
    every = client.get(f"{base}/standings?page=all", headers=head).text
    assert names(every, "standings") == standings

    first = client.get(f"{base}/pairings?by=name", headers=head).text
    assert names(first, "pairings") == sorted(PLAYERS)[:3]
    assert 'href="?by=name&amp;page=2" rel="next"' in first
    second = client.get(f"{base}/pairings?by=name&page=2", headers=head).text
    assert names(second, "pairings") == sorted(PLAYERS)[3:6]

    tables = client.get(f"{base}/pairings?page=2", headers=head).text
    assert re.findall(r'data-table="(\w+)"', tables) == [
        "bye" if r["bye"] else str(r["table"]) for r in pairings[3:]
    ]


def test_a_search_narrows_each_page_to_the_names_holding_it(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """``?find=`` (the search box, a GET form) shows the standings rows, the pairings by
    name and the tables of the players whose name holds the text, in any case; the
    standings keep each player's rank among everyone."""
    event = make_event(store)
    head = auth(tokens["head"])
    base = f"/events/{event}"
    with open_service(store) as svc:
        ranks = {r.player: r.rank for r in svc.event_standings(event)}
        table_of = {
            p: ("bye" if r.bye else str(r.table))
            for r in svc.event_pairings(event)
            for p in r.players
        }

    found = client.get(f"{base}/standings?find=E", headers=head).text
    assert names(found, "standings") == sorted(
        (p for p in PLAYERS if "e" in p.casefold()), key=lambda p: ranks[p]
    )
    for player in names(found, "standings"):
        row = found.split(f'data-player="{player}"', 1)[1].split("</tr>", 1)[0]
        assert f'<td class="num">{ranks[player]}</td>' in row
    assert 'name="find" value="E"' in found  # the box keeps what was asked

    by_name = client.get(f"{base}/pairings?by=name&find=a", headers=head).text
    assert names(by_name, "pairings") == ["Ann", "Cal", "Fay"]
    by_table = client.get(f"{base}/pairings?find=gus", headers=head).text
    assert re.findall(r'data-table="(\w+)"', by_table) == [table_of["Gus"]]
    nobody = client.get(f"{base}/standings?find=zzz", headers=head).text
    assert names(nobody, "standings") == []
    assert "nobody by that name" in nobody

    # the by-name box: an exact name leads to the player's own page, a part of one to the list
    exact = client.get(f"{base}/find?name=Gus", headers=head, follow_redirects=False)
    assert exact.headers["location"] == f"{base}/players/Gus"
    part = client.get(f"{base}/find?name=u", headers=head, follow_redirects=False)
    assert part.headers["location"] == f"{base}/pairings?by=name&find=u"


@pytest.mark.skipif(
    not Path(CHROMIUM).exists() or shutil.which("chromium") is None,
    reason=f"no browser: {CHROMIUM} is not installed",
)
def test_paging_and_search_work_with_javascript_off(
    live_server: ThreadServer, tokens: Tokens, store: str
) -> None:
    """In Chromium with JavaScript disabled: the standings' search box finds a player, the
    pager's next link and its go-to form lead to the other pages."""
    sync_api = pytest.importorskip("playwright.sync_api")
    event = make_event(store)
    with open_service(store) as svc:
        standings = [r.player for r in svc.event_standings(event)]
    base = live_server.base
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
        )
        try:
            page: Any = browser.new_context(java_script_enabled=False).new_page()
            page.goto(f"{base}/login")
            page.fill("#token", tokens["head"])
            page.click("#sign-in")
            page.goto(f"{base}/events/{quote(event)}/standings")
            rows = page.eval_on_selector_all(
                "#standings tbody tr", "rows => rows.map(r => r.dataset.player)"
            )
            assert rows == standings[:3]
            page.click("#pager >> text=next")
            assert (
                page.eval_on_selector_all(
                    "#standings tbody tr", "rows => rows.map(r => r.dataset.player)"
                )
                == standings[3:6]
            )
            page.fill("#pager input[name=page]", "3")
            page.click("#pager button[type=submit]")
            assert (
                page.eval_on_selector_all(
                    "#standings tbody tr", "rows => rows.map(r => r.dataset.player)"
                )
                == standings[6:]
            )
            page.fill("#find-standing", "fay")
            page.press("#find-standing", "Enter")
            assert page.eval_on_selector_all(
                "#standings tbody tr", "rows => rows.map(r => r.dataset.player)"
            ) == ["Fay"]
        finally:
            browser.close()

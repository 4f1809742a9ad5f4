"""The event pages in a real headless Chromium (``/usr/bin/chromium`` through Playwright, as
``test_pages.py``): the two pairings postings, the standings, a player's own page, the result
slips, a result arriving live, a phone's width, and a printed posting of 60 players on one
A4 and one Letter page."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from service.access import TokenStore
from service.app import open_service
from service.seal import create_key, seal
from service.sidedb import open_side_db
from service.stores import parse_store
from tests.web import test_pages
from tests.web.conftest import LIVE_WAIT, ThreadServer, Tokens, auth
from tests.web.test_pages import CHROMIUM, signed_in

browser = test_pages.browser  # the one Chromium fixture, this module's own instance
PLAYERS = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus"]

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() or shutil.which("chromium") is None,
    reason=f"no browser: {CHROMIUM} is not installed",
)


def make_event(store: str, players: list[str], *, key: Path | None = None) -> str:
    """A PRIZMIK Swiss event with round 1 paired and (with ``key``) the store sealed."""
    with open_service(store) as svc:
        event = svc.event_new("Spring Open", "prizmik", rounds=3).event_id
        svc.event_register(event, players)
        svc.event_pair(event)
        if key is not None:
            seal(svc.store, key)
    return event


def own_token(store: str, event: str, name: str) -> str:
    """A player token bound to the player id ``name``'s registration carries (issue 31:
    every registration has one; a token matched by name alone reads no event seat)."""
    with open_service(store) as svc:
        state = svc.event_state(event)
        house = state.players[state.find(name) or ""].player_id
    side = TokenStore(open_side_db(parse_store(store)))
    try:
        return side.create("player", name, player_id=str(house))[1]
    finally:
        side.db.close()


def cells(page: Any, selector: str) -> list[list[str]]:
    rows: list[list[str]] = page.eval_on_selector_all(
        f"{selector} tbody tr",
        "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))",
    )
    return rows


def test_each_page_shows_the_right_rows(
    browser: Any, live_server: ThreadServer, tokens: Tokens, store: str, tmp_path: Path
) -> None:
    key = tmp_path / "seal.pem"
    create_key(key)
    event = make_event(store, PLAYERS, key=key)
    with open_service(store) as svc:
        pairings = msgspec.to_builtins(svc.event_pairings(event))
        standings = msgspec.to_builtins(svc.event_standings(event))
    base = live_server.base
    page = signed_in(browser, base, tokens["head"])
    page.click("header.top >> text=events")
    page.click("#events >> text=Spring Open")
    page.wait_for_url(f"{base}/events/{event}/pairings")

    shown = cells(page, "#pairings")
    assert len(shown) == len(pairings) == 4  # three tables and a bye
    for row, want in zip(shown, pairings, strict=True):
        assert row[0] == ("bye" if want["bye"] else str(want["table"]))
        assert row[1] == " v ".join(want["players"])
    assert "referee-checkpoint/1" in page.inner_text(".posted")
    href = page.get_attribute(".posted a[download]", "href")
    posting = httpx.get(base + href, headers=auth(tokens["head"])).json()
    assert posting["format"] == "referee-posting/1"
    assert posting["body"] == pairings

    page.click("nav.event-nav >> text=by name")
    by_name = cells(page, "#pairings")
    assert [r[0] for r in by_name] == sorted(PLAYERS)
    opponents = {r[0]: (r[1], r[2]) for r in by_name}
    first = pairings[0]
    assert opponents[first["players"][0]] == (str(first["table"]), first["players"][1])
    bye = next(p for p in pairings if p["bye"])["players"][0]
    assert opponents[bye] == ("bye", "")

    page.click("nav.event-nav >> text=standings")
    ranks = cells(page, "#standings")
    assert [r[1].split(" (")[0] for r in ranks] == [s["player"] for s in standings]
    page.click(f"#standings >> text={standings[0]['player']}")
    assert "OMW" in page.inner_text("#explain") or "opponents" in page.inner_text("#explain")

    page.click("nav.event-nav >> text=result slips")
    slips = page.locator(".slip")
    assert slips.count() == 3
    for index, want in enumerate(p for p in pairings if not p["bye"]):
        text = slips.nth(index).inner_text()
        assert f"table {want['table']}" in text
        assert all(g in text for g in want["games"])
        assert want["games"]

    with open_service(store) as svc:  # a result after the seal: standings are ahead of it
        svc.event_result(event, [f"{pairings[0]['table']}=2-0-0"])
    # A write by another process reaches the pages within the hub's two poll intervals.
    for _ in range(50):
        page.goto(f"{base}/events/{event}/standings")
        if page.inner_text("#posted").startswith("Not sealed"):
            break
        time.sleep(0.1)
    # the slip and its table's game closed as void (EV-3.9): two facts
    assert page.inner_text("#posted").startswith("Not sealed: these rows include 2 facts")
    page.goto(f"{base}/events/{event}/pairings")
    assert page.inner_text("#posted").startswith("Computed at fact")
    assert "they do not change these rows" in page.inner_text("#posted")
    assert page.errors == []


def test_the_player_page_shows_my_table_and_opponent(
    browser: Any, live_server: ThreadServer, tokens: Tokens, store: str
) -> None:
    event = make_event(store, PLAYERS)
    with open_service(store) as svc:
        pairings = msgspec.to_builtins(svc.event_pairings(event))
    mine = next(p for p in pairings if "Ann" in p["players"])
    page = signed_in(browser, live_server.base, own_token(store, event, "Ann"))
    page.goto(f"{live_server.base}/events/{event}/me")
    page.wait_for_url(re.compile(r".*/players/Ann$"))
    if mine["bye"]:
        assert "a bye" in page.inner_text("#my-round")
    else:
        assert page.inner_text("#my-table") == str(mine["table"])
        other = next(p for p in mine["players"] if p != "Ann")
        assert page.inner_text("#my-opponent") == other
    assert "Record 0-0-0" in page.inner_text("#my-record") or mine["bye"]


def test_a_result_shows_up_live_on_the_standings_page(
    browser: Any, pushed_server: ThreadServer, tokens: Tokens, store: str
) -> None:
    """A slip entered meanwhile is pushed to the open standings page: the server reads
    nothing on its own (``pushed_server``), so only the write's push can bring it; the page
    stays the same document, and how long a loaded machine takes is not asserted."""
    base = pushed_server.base
    event = make_event(store, PLAYERS)
    with open_service(store) as svc:
        table = next(p for p in svc.event_pairings(event) if not p.bye)
    page = signed_in(browser, base, tokens["public"])
    page.goto(f"{base}/events/{event}/standings")
    page.wait_for_function("document.getElementById('live').classList.contains('on')")
    page.evaluate("window.stillHere = true")  # gone if the page were loaded again
    winner = table.players[0]
    before = next(r for r in cells(page, "#standings") if r[1].startswith(winner))
    assert before[2] == "0"
    assert before[3] == "0-0-0"
    reported = httpx.post(  # the scorekeeper's slip, through the HTTP API
        f"{base}/api/events/{event}/results",
        json={"slips": [f"{table.table}=2-0-0"]},
        headers=auth(tokens["scorekeeper"]),
    )
    assert reported.status_code == 201, reported.text
    page.wait_for_function(
        "w => [...document.querySelectorAll('#standings tbody tr')].some("
        "r => r.dataset.player === w && r.cells[2].innerText.trim() === '3')",
        arg=winner,
        timeout=LIVE_WAIT * 1000,
    )
    assert page.evaluate("window.stillHere === true")  # pushed, not loaded again
    row = next(r for r in cells(page, "#standings") if r[1].startswith(winner))
    assert row[3] == "1-0-0"
    assert page.errors == []


@pytest.mark.parametrize("path", ["pairings", "pairings?by=name", "standings", "slips", "me"])
def test_no_page_overflows_a_phone(
    browser: Any, live_server: ThreadServer, tokens: Tokens, store: str, path: str
) -> None:
    names = [f"Player Withalongname{i:02d}" for i in range(12)]
    event = make_event(store, names)
    page = signed_in(
        browser, live_server.base, tokens["head"], viewport={"width": 375, "height": 800}
    )
    page.goto(f"{live_server.base}/events/{event}/{path}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


@pytest.mark.parametrize("by", ["table", "name"])
def test_a_printed_posting_fits_one_a4_and_one_letter_page_per_60_players(
    browser: Any, live_server: ThreadServer, tokens: Tokens, store: str, by: str
) -> None:
    names = [f"Player Number{i:02d}" for i in range(60)]
    event = make_event(store, names)
    page = signed_in(browser, live_server.base, tokens["head"])
    page.goto(f"{live_server.base}/events/{event}/pairings?by={by}")
    page.emulate_media(media="print")
    for paper in ("A4", "Letter"):
        assert _pages(page.pdf(format=paper)) == 1, paper
    more = make_event(store, [f"Player Number{i:03d}" for i in range(120)])
    page.goto(f"{live_server.base}/events/{more}/pairings?by={by}")
    for paper in ("A4", "Letter"):
        assert _pages(page.pdf(format=paper)) == 2, paper


def test_a_pod_event_posts_its_pods_places_and_slips(
    client: Any, tokens: Tokens, store: str
) -> None:
    """Prismatic pods (EV-7.1): four and threes; a pod's result reads as places."""
    with open_service(store) as svc:
        # seed 0 draws none of P10-P12 (whose names read as the ids p10-p12) to the first pod
        event = svc.event_new("Pod Night", "prismatic", pods=True, rounds=2, seed=0).event_id
        svc.event_register(event, [f"P{i:02d}" for i in range(13)])
        pods = svc.event_pair(event)
        first = pods[0]
        # the safe form (EV-7.5): places and names, nothing a shell reads as a redirection
        svc.event_result(
            event,
            [f"{first.table}=" + ",".join(f"{n}:{p}" for n, p in enumerate(first.players, 1))],
        )
    assert [len(p.players) for p in pods] == [4, 3, 3, 3]
    head = auth(tokens["head"])
    table = client.get(f"/events/{event}/pairings", headers=head).text
    assert f"1st {first.players[0]}, 2nd {first.players[1]}" in table  # places, not W-L-D
    assert " v ".join(first.players) in table
    slips = client.get(f"/events/{event}/slips", headers=head).text
    assert slips.count('class="slip"') == 4
    assert ">place<" in slips
    assert "drawn games" not in slips
    assert f"{first.table}=PLACE:{first.players[0]},PLACE:{first.players[1]}" in slips  # EV-7.5
    assert "&gt;" not in slips.split('class="slip"', 1)[1]
    mine = client.get(f"/events/{event}/players/{first.players[1]}", headers=head).text
    assert "2nd of 4" in mine
    standings = client.get(f"/events/{event}/standings", headers=head).text
    assert ">places<" in standings
    assert "2nd" in standings
    assert "W-L-D" not in standings
    assert "bo3" not in standings.split("</h1>")[0]  # no match length in a pod event's header


def test_an_elimination_events_standings_page_gives_final_places(
    client: Any, tokens: Tokens, store: str
) -> None:
    """EV-I.13: an elimination event's standings page lists the final places (it had none),
    the champion first, with the note naming the seed order; a player's page, their place."""
    with open_service(store) as svc:
        event = svc.event_new("Knockout", "prizmik", format="elimination", seed=3).event_id
        svc.event_register(event, PLAYERS[:4])
        semis = svc.event_pair(event)
        svc.event_result(event, ["1=2-0-0", "2=2-0-0"])
        final = svc.event_pair(event)
        svc.event_result(event, ["1=0-2-0"])
        svc.event_end(event)
    champion, finalist = final[0].players[1], final[0].players[0]
    head = auth(tokens["head"])
    page = client.get(f"/events/{event}/standings", headers=head).text
    assert "Final standings" in page
    assert "by seed (EV-I.13)" in page
    places = re.findall(r'final-place">(\d+)</td>', page)
    assert places == ["1", "2", "3", "4"]
    assert page.index(f'>{champion}</a> <span class="went">(champion)') < page.index(
        f'>{finalist}</a> <span class="went">(finalist)'
    )
    loser = next(p for p in semis[0].players if p not in (finalist, champion))
    mine = client.get(f"/events/{event}/players/{loser}", headers=head).text
    assert re.search(r"Final place <b>[34]</b></span> · semifinalist", mine)


def test_unknown_events_and_players_get_a_clear_answer(
    client: Any, tokens: Tokens, store: str
) -> None:
    event = make_event(store, PLAYERS[:4])
    head, ann = auth(tokens["head"]), auth(own_token(store, event, "Ann"))
    for path in ("/events/ev-nothere/pairings", "/events/ev-nothere/live"):
        answer = client.get(path, headers=head)
        assert answer.status_code == 404
        assert "no event" in answer.json()["detail"]
    unknown = client.get(f"/events/{event}/players/Zed", headers=head)
    assert unknown.status_code == 400
    assert "no player 'Zed'" in unknown.json()["detail"]
    sent = client.get(f"/events/{event}/me", headers=ann, follow_redirects=False)
    assert sent.headers["location"].endswith("/players/Ann")
    away = make_event(store, ["Xia", "Yul"])  # Ann plays in the first event only
    sent = client.get(f"/events/{away}/me", headers=ann, follow_redirects=False)
    assert sent.headers["location"].endswith("/pairings?by=name")
    no_seal = client.get(f"/events/{event}/postings/pairings", headers=head)
    assert no_seal.status_code == 404  # not sealed yet: the page's words, not the CLI's
    assert "the head referee seals it" in no_seal.json()["detail"]


def test_ev_2_2_a_player_registered_with_their_id_is_found_by_it(
    client: Any, tokens: Tokens, store: str
) -> None:
    """A registration bound to a player id (EV-2.2): that person's token, whatever name it
    carries, leads to their page and is their seat in their event game; another token of the
    same name but another id is neither."""
    from service.access import TokenStore
    from service.sidedb import open_side_db
    from service.stores import parse_store

    with open_service(store) as svc:
        event = svc.event_new("Spring Open", "prizmik", rounds=3).event_id
        svc.event_register(event, ["Ann Lee"], player_id="ann-7")
        svc.event_register(event, ["Ben"])
        (table,) = svc.event_pair(event)
        (game,) = table.games
        seats = {p.name: p for p in svc.load(game).setup.players}
    assert seats["Ann Lee"].id == "ann-7"
    assert seats["Ben"].id.startswith("pl-")
    side = TokenStore(open_side_db(parse_store(store)))
    mine = side.create("player", "Ann", player_id="ann-7")[1]
    namesake = side.create("player", "Ann Lee", player_id="ann-8")[1]
    side.db.close()
    sent = client.get(f"/events/{event}/me", headers=auth(mine), follow_redirects=False)
    assert sent.headers["location"].endswith("/players/Ann%20Lee")
    sent = client.get(f"/events/{event}/me", headers=auth(namesake), follow_redirects=False)
    assert sent.headers["location"].endswith("/pairings?by=name")
    seat = seats["Ann Lee"].seat
    legal = f"/api/games/{game}/legal?seat={seat}"
    assert client.get(legal, headers=auth(namesake)).status_code == 403
    assert client.get(legal, headers=auth(mine)).status_code == 200  # her own seat


def test_the_hall_forms_are_on_a_players_own_page_only(
    client: Any, tokens: Tokens, store: str
) -> None:
    """A judge call and a result report from a player's page act on the reader's own table
    (EV-10, EV-11): Ann reading Ben's page is shown neither form, Ann on her own page both,
    and so is Ben on his; a namesake of Ann bound to another id is not Ann. Each page is read
    twice: the second answer is the kept one (``web.fastpath``)."""
    from tests.web.conftest import house_ids

    with open_service(store) as svc:
        event = svc.event_new("Hall Cup", "prizmik", rounds=3).event_id
        svc.event_register(event, ["Ann", "Ben"], player_ids=house_ids(store, ["Ann", "Ben"]))
        svc.event_pair(event)
    side = TokenStore(open_side_db(parse_store(store)))
    namesake = side.create("player", "Ann", player_id="someone-else")[1]
    side.db.close()

    def forms(token: str, player: str) -> set[str]:
        shown = []
        for _ in range(2):
            page = client.get(f"/events/{event}/players/{player}", headers=auth(token))
            assert page.status_code == 200, page.text
            shown.append({f for f in ("call-judge", "report-result") if f'id="{f}"' in page.text})
        assert shown[0] == shown[1]
        return shown[0]

    assert forms(tokens["ann"], "Ann") == {"call-judge", "report-result"}
    assert forms(tokens["ann"], "Ben") == set()
    assert forms(tokens["ben"], "Ben") == {"call-judge", "report-result"}
    assert forms(tokens["ben"], "Ann") == set()
    assert forms(namesake, "Ann") == set()
    assert forms(tokens["head"], "Ann") == set()


def test_a_pod_events_table_of_two_asks_for_places_and_its_playoff_for_w_l_d(
    client: Any, tokens: Tokens, store: str
) -> None:
    """EV-7.1, EV-7.3, EV-6.4: five players sit three and two; the table of two is a pod,
    whose slip gives places (a W-L-D is refused, EV-7.3), and its slip on the slips page
    asked for W-L-D ('games won', 'drawn games') as a two-player Swiss would; the playoff
    of a pod event's cut is matches, and its slips ask for W-L-D."""
    with open_service(store) as svc:
        event = svc.event_new("Pods", "prismatic", pods=True, rounds=1, cut=2, seed=1).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee", "Eve"])
        pods = svc.event_pair(event)
        two = next(p for p in pods if len(p.players) == 2)
        three = next(p for p in pods if len(p.players) == 3)
    head = auth(tokens["head"])
    slips = client.get(f"/events/{event}/slips", headers=head).text
    slip = slips.split(f'id="slip-{two.table}"', 1)[1].split("</section>", 1)[0]
    assert ">place<" in slip
    assert "drawn games" not in slip
    assert f"{two.table}=PLACE:{two.players[0]},PLACE:{two.players[1]}" in slip
    with open_service(store) as svc:
        svc.event_result(
            event,
            [
                f"{two.table}=1:{two.players[0]},2:{two.players[1]}",
                f"{three.table}="
                + ",".join(f"{n}:{p}" for n, p in enumerate(three.players, start=1)),
            ],
        )
        final = svc.event_pair(event)[0]  # the top 2 cut: a match
    slips = client.get(f"/events/{event}/slips", headers=head).text
    slip = slips.split('id="slip-1"', 1)[1].split("</section>", 1)[0]
    assert ">games won<" in slip
    assert f"1=W-L-D</code> (W: games won by {final.players[0]})" in slip

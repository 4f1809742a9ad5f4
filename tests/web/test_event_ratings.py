"""Ratings over HTTP and on the desk (EV-2.11, EV-5.6): the registration body and the desk's
form take them, round 1 follows them, a rating is corrected before round 1; and two things
the organizer's walk found on a pod event's pages: the withdraw form asked for W-L-D where
the table reports places (EV-7.5), and the standings' places of a late entry left their
missed rounds out (EV-2.9, EV-I.6)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import httpx
from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from service.seal import create_key, seal
from tests.web.conftest import Tokens, auth, event_kinds
from tests.web.test_desk_page import Desk

Client = TestClient[Litestar]


def _new(client: Client, head: str, **settings: object) -> str:
    body = {"name": "Rated", "game": "prizmik", "seed": 7, "rounds": 2, **settings}
    made = client.post("/api/events", json=body, headers=auth(head))
    assert made.status_code == 201, made.text
    return str(made.json()["event_id"])


def _players(client: Client, head: str, event: str, body: dict[str, object]) -> httpx.Response:
    return client.post(f"/api/events/{event}/players", json=body, headers=auth(head))


def test_ev_5_6_the_api_registers_ratings_and_round_1_follows_them(
    client: Client, tokens: Tokens
) -> None:
    """EV-5.6, EV-2.11: `ratings` (in the order of `players`, null for none) and `rating`
    (one player) seed round 1, highest first, 1 v n/2+1, the unrated after the rated; the
    draw lists each rating in that order; out of bounds or one too many is refused 400
    naming EV-2.11, nothing stored; the OpenAPI document shows the fields and the route."""
    head = tokens["head"]
    event = _new(client, head)
    body = {"players": ["Ann", "Ben", "Cal", "Dee"], "ratings": [1500, None, 2100, 1800]}
    done = _players(client, head, event, body)
    assert done.status_code == 201, done.text
    one = _players(client, head, event, {"players": ["Eve"], "rating": 1200})
    assert one.status_code == 201
    version = client.get(f"/api/events/{event}", headers=auth(head)).json()["version"]
    for wrong in (
        {"players": ["Zed"], "rating": 10_000},
        {"players": ["Zed"], "rating": -5},
        {"players": ["Zed"], "ratings": [1, 2]},
    ):
        refused = _players(client, head, event, wrong)
        assert refused.status_code == 400, refused.text
        assert "EV-2.11" in refused.text
    assert client.get(f"/api/events/{event}", headers=auth(head)).json()["version"] == version
    draw = client.get(f"/api/events/{event}/draw", headers=auth(tokens["public"])).json()
    assert [(x["name"], x["rating"]) for x in draw["order"]] == [
        ("Cal", 2100),
        ("Dee", 1800),
        ("Ann", 1500),
        ("Eve", 1200),
        ("Ben", None),
    ]
    assert (
        client.post(f"/api/events/{event}/rounds", json={}, headers=auth(head)).status_code == 201
    )
    rows = client.get(f"/api/events/{event}/pairings", headers=auth(head)).json()
    assert [r["players"] for r in rows if not r["bye"]] == [["Cal", "Ann"], ["Dee", "Eve"]]
    assert [r["players"] for r in rows if r["bye"]] == [["Ben"]]
    schema = client.get("/schema/openapi.json").json()
    fields = schema["components"]["schemas"]["RegisterIn"]["properties"]
    assert {"rating", "ratings"} <= set(fields)
    assert "/api/events/{event_id}/ratings" in schema["paths"]


def test_ev_2_11_the_api_corrects_a_rating_until_round_1(client: Client, tokens: Tokens) -> None:
    """EV-2.11: `POST /api/events/E/ratings` (the head's) corrects a rating with a reason
    before round 1 and round 1 follows it; after round 1 is paired it is refused 400; the
    scorekeeper is refused 403."""
    head = tokens["head"]
    event = _new(client, head)
    body = {"players": ["Ann", "Ben", "Cal", "Dee"], "ratings": [1500, 1600, 1700, 1800]}
    assert _players(client, head, event, body).status_code == 201
    url = f"/api/events/{event}/ratings"
    fix = {"player": "Ann", "rating": 1900, "reason": "typed 1500"}
    assert client.post(url, json=fix, headers=auth(tokens["scorekeeper"])).status_code == 403
    done = client.post(url, json=fix, headers=auth(head))
    assert done.status_code == 201, done.text
    assert done.json() == {"player": "Ann", "rating": 1900}
    again = client.post(url, json=fix, headers=auth(head))
    assert again.status_code == 400
    assert "EV-2.11" in again.text
    assert (
        client.post(f"/api/events/{event}/rounds", json={}, headers=auth(head)).status_code == 201
    )
    rows = client.get(f"/api/events/{event}/pairings", headers=auth(head)).json()
    assert [r["players"] for r in rows] == [["Ann", "Cal"], ["Dee", "Ben"]]
    late = client.post(url, json={**fix, "rating": 1000}, headers=auth(head))
    assert late.status_code == 400
    assert "EV-2.11" in late.text


def test_ev_2_11_the_desk_registers_ratings_lists_them_and_corrects_one(
    client: Client, tokens: Tokens, store: str
) -> None:
    """EV-2.11: the desk's registration takes ratings one a line in the names' order (`-`
    for none); a rating that is not a whole number from 0 to 9,999 is refused naming the
    clause, with what was typed kept; before round 1 the desk lists the rated players in
    round 1's order and corrects a rating with a reason; once round 1 is paired, neither."""
    with open_service(store) as svc:
        event = svc.event_new("Desk Rated", "prizmik", rounds=2, seed=5).event_id
    desk = Desk(client, tokens["head"], event)
    form, page = desk.form("register-form")
    assert 'name="ratings"' in page
    refused = desk.send(**form, names="Ann\nBen", ratings="1500\n12000")
    said = desk.said(refused)
    assert (
        said == "bad: EV-2.11: the rating on line 2 is a whole number from 0 to 9,999, not 12,000"
    )
    assert ">1500\n12000</textarea>" in desk.shown(refused)
    assert event_kinds(store, event).count("player-registered") == 0
    form, _ = desk.form("register-form", refused.headers["location"])
    sent = desk.send(**form, names="Ann\nBen\nCal\nDee", ratings="1500\n-\n2100\n1800")
    said = desk.said(sent)
    assert said.startswith("good: registered 4: Ann (p1, player id "), said
    assert ", rating 1500), Ben (p2, player id " in said
    page = html.unescape(desk.shown(sent))
    seeds = page.split('id="desk-seeds"')[1].split("</details>")[0]
    assert re.findall(r"<li>(.*?)</li>", seeds) == ["Cal: 2100", "Dee: 1800", "Ann: 1500"]
    assert "3 rated, 1 without a rating" in page
    form, _ = desk.form("rating-form")
    fixed = desk.send(**form, player="Ben", rating="2000", reason="forgot Ben's")
    assert desk.said(fixed) == "good: Ben: rating 2000 (EV-2.11)"
    form, _ = desk.form("rating-form", fixed.headers["location"])
    wrong = desk.send(**form, player="Ben", rating="two", reason="x")
    assert desk.said(wrong).startswith("bad: EV-2.11: the rating is a whole number from 0 to")
    with open_service(store) as svc:
        svc.event_pair(event)
        rows = svc.event_pairings(event)
    assert [r.players for r in rows] == [["Cal", "Dee"], ["Ben", "Ann"]]  # 2100 v 1800, ...
    _, page = desk.form("register-form")
    assert 'id="desk-ratings"' not in page
    assert 'name="ratings"' not in page


def test_ev_5_6_the_desks_rated_list_orders_equal_ratings_as_the_draw_does(
    client: Client, tokens: Tokens, store: str
) -> None:
    """EV-5.6: players of equal rating are ordered by their draw keys in round 1; the
    desk's list, which says it is round 1's order, is the draw's (``event draw``), not
    registration order, and leaves out a rated player who dropped before round 1."""
    with open_service(store) as svc:
        event = svc.event_new("Ties", "prizmik", rounds=2, seed=11).event_id
        names = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay"]
        svc.event_register(event, names, ratings=[1500] * 5 + [1700])
        svc.event_drop(event, "Cal", reason="went home")
        drawn = [line.name for line in svc.event_draw(event).order]
    want = ["Fay"] + [n for n in drawn if n not in ("Fay", "Cal")]
    assert want != ["Fay", "Ann", "Ben", "Dee", "Eve"]  # the seed must mix the ties
    desk = Desk(client, tokens["head"], event)
    _, page = desk.form("register-form")
    seeds = html.unescape(page).split('id="desk-seeds"')[1].split("</details>")[0]
    assert re.findall(r"<li>(.*?)</li>", seeds) == [
        f"{n}: {1700 if n == 'Fay' else 1500}" for n in want
    ]


def _pod_event(store: str) -> tuple[str, list[str]]:
    """A Prismatic pod event of eight, round 1 paired and reported; Ann given a match loss
    in round 2 after a late entry (with a match loss for round 1, EV-2.9) is paired."""
    names = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]
    with open_service(store) as svc:
        event = svc.event_new("Pods", "prismatic", pods=True, rounds=3, seed=2).event_id
        svc.event_register(event, names)
        pods = svc.event_pair(event)
        svc.event_result(
            event,
            [
                f"{p.table}=" + ",".join(f"{n}:{q}" for n, q in enumerate(p.players, 1))
                for p in pods
            ],
        )
        svc.event_register(event, ["Ivy"], late_as_losses=True)
        svc.event_register(event, ["Jon"])
        svc.event_pair(event)
        svc.event_penalize(event, "Ann", "slow-play", penalty="match-loss", reason="slow")
    return event, names


def test_ev_7_5_a_pod_penalty_is_withdrawn_with_the_places_without_it(
    client: Client, tokens: Tokens, store: str
) -> None:
    """EV-7.5, EV-8.7: in a pod event the withdraw form of a penalty that decided a pod
    asks for the places without it (`1:Ann,2:Ben`), not W-L-D, and the desk says how a
    pod's result is typed; the correction form offers both forms."""
    event, _ = _pod_event(store)
    desk = Desk(client, tokens["head"], event)
    _form, page = desk.form("withdraw-form-1")
    withdraw = page.split('id="withdraw-form-1"')[1].split("</form>")[0]
    assert 'placeholder="1:Ann,2:Ben"' in withdraw
    assert "W-L-D" not in withdraw
    listed = page.split('id="desk-penalties"')[1].split("</p>")[0]
    assert "a pod's as places and names" in listed
    assert 'placeholder="W-L-D or 1:Ann,2:Ben"' in page.split('id="correct-form"')[1]


def test_ev_2_9_a_late_entrys_missed_rounds_show_in_the_pod_standings(
    client: Client, tokens: Tokens, store: str
) -> None:
    """EV-2.9, EV-I.6: in a pod event's standings a late entry's missed round shows as `–`
    under its round, titled with what it counts as (a match loss, or not played), on the
    page and in `referee event standings`; a player who missed nothing has none."""
    event, _ = _pod_event(store)
    page = client.get(f"/events/{event}/standings", headers=auth(tokens["head"])).text
    ivy = page.split('data-player="Ivy"')[1].split("</tr>")[0]
    assert re.search(
        r'<td class="late" title="round 1 missed as a late entry: a match loss each '
        r'\(EV-2.9\)">–</td>',
        ivy,
    ), ivy
    jon = page.split('data-player="Jon"')[1].split("</tr>")[0]
    assert 'title="round 1 missed as a late entry: not played (EV-I.6)">–</td>' in jon
    ann = page.split('data-player="Ann"')[1].split("</tr>")[0]
    assert "–</td>" not in ann.split("</a>")[1].split('class="num"')[2]
    with open_service(store) as svc:
        places = svc.event_pod_places(event)
    assert places["Ivy"] == ["–"]
    assert places["Ann"][0] != "–"


def test_ev_5_6_round_ones_sheet_says_the_ratings_came_before_the_draw(
    client: Client, tokens: Tokens, store: str, tmp_path: Path
) -> None:
    """EV-5.6, EV-2.11: the sealed round-1 sheet tells how to redo the order: with ratings
    given, the rated players first, highest first, then the keys; without, the keys alone
    (as before)."""
    key = tmp_path / "seal.pem"
    create_key(key)
    with open_service(store) as svc:
        rated = svc.event_new("Rated", "prizmik", rounds=2, seed=4).event_id
        svc.event_register(rated, ["Ann", "Ben", "Cal", "Dee"], ratings=[1500, 1600])
        plain = svc.event_new("Plain", "prizmik", rounds=2, seed=4).event_id
        svc.event_register(plain, ["Ann", "Ben", "Cal", "Dee"])
        for event in (rated, plain):
            svc.event_pair(event)
        seal(svc.store, key)
    said = "the players with a rating first, highest first (EV-2.11)"
    for event, shown in ((rated, True), (plain, False)):
        page = client.get(f"/events/{event}/pairings?round=1", headers=auth(tokens["head"]))
        footer = page.text[page.text.index('id="posted-seed"') :].split("</p>")[0]
        assert (said in footer) is shown, footer
        assert "<code>4:1:PLAYER-ID</code>" in footer

"""The organizer's walk through the pages (branch webwalk): what a player's own page and the
staff's pages must say that the walk found missing."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Tokens, auth, deck_event, table_token
from tests.web.test_calls_api import make_event


def test_ev_8_6_a_game_loss_shows_on_both_players_own_pages_as_the_match_so_far(
    client: Any, tokens: Tokens, store: str
) -> None:
    """A game loss given to Ann (tardiness, EV-8.6) ends her game 1 as a loss: the
    pairings say "0-1-0 so far" at table 1, and so must Ann's and Ben's own pages (the
    HTML and ``GET /api/events/E/players/NAME``), each with their own games first, or the
    player learns of the penalty only from the posting by table."""
    event = make_event(store)
    given = client.post(
        f"/api/events/{event}/penalties",
        json={"player": "Ann", "infraction": "tardiness", "reason": "ten minutes late"},
        headers=auth(tokens["head"]),
    )
    assert given.status_code == 201, given.text
    assert given.json()["penalty"] == "game-loss"
    for name, token, mine in (("Ann", "ann", "0-1-0"), ("Ben", "ben", "1-0-0")):
        line = client.get(f"/api/events/{event}/players/{name}", headers=auth(tokens[token]))
        assert line.json()["so_far"] == mine, line.text
        assert line.json()["result"] == ""  # the match is still being played
        assert line.json()["history"][0]["so_far"] == mine
        page = client.get(f"/events/{event}/me", headers=auth(tokens[token]))
        assert f"games {mine} so far" in page.text


def test_ev_11_5_the_slip_of_a_disputed_table_shows_both_claims_to_the_staff_only(
    client: Any, tokens: Tokens, store: str
) -> None:
    """The queue sends the scorekeeper to the slips page for a dispute (EV-11.5: enter the
    slip); the slip must say what was reported and what the opponent says, or the
    scorekeeper goes back to the queue (or to the table) to find out. A player reading the
    slips page sees neither (EV-10.7)."""
    event = make_event(store)
    reports = f"/api/events/{event}/reports"
    made = client.post(reports, json={"result": "2-0-0"}, headers=auth(tokens["ann"]))
    assert made.status_code == 201, made.text
    disputed = client.post(
        f"{reports}/1/dispute", json={"reason": "I won game 2"}, headers=auth(tokens["ben"])
    )
    assert disputed.status_code == 201, disputed.text
    page = client.get(f"/events/{event}/slips", headers=auth(tokens["scorekeeper"])).text
    assert "Ann reported 2-0-0 (the slip reads 2-0-0); Ben disputes it: I won game 2." in page
    for player in ("ann", "ben"):
        seen = client.get(f"/events/{event}/slips", headers=auth(tokens[player])).text
        assert "I won game 2" not in seen
        assert "reported" not in seen


def test_ev_2_8_the_slips_page_names_the_players_without_a_decklist_to_the_staff(
    client: Any, tokens: Tokens
) -> None:
    """A deck event's pairing warns of players without a list on the command line only; an
    organizer working from the pages must see it before the deadline round is paired: the
    slips page names them for the head referee and the scorekeeper, not for a player."""
    head = tokens["head"]
    event = deck_event(client, head, deck_deadline=1)
    for staff in ("head", "scorekeeper"):
        page = client.get(f"/events/{event}/slips", headers=auth(tokens[staff])).text
        assert "No event decklist (EV-2.8): Ben<" in page
    assert "EV-2.8" not in client.get(f"/events/{event}/slips", headers=auth(tokens["ann"])).text


def test_ev_1_4_the_clock_page_offers_no_controls_that_can_only_be_refused(
    client: Any, tokens: Tokens, store: str
) -> None:
    """A table referee whose only table has its result got an extension form with nothing
    to choose in its table list; once the event has ended the head referee still got
    start, pause, resume and end, each refused (EV-1.4). The page offers what can be done."""
    event = make_event(store)
    tom = table_token(store, event, "1")
    clock = f"/events/{event}/clock"
    assert 'id="extend-form"' in client.get(clock, headers=auth(tom)).text
    reported = client.post(
        f"/api/events/{event}/results", json={"slips": ["1=2-0-0"]}, headers=auth(tokens["head"])
    )
    assert reported.status_code == 201, reported.text
    assert 'id="extend-form"' not in client.get(clock, headers=auth(tom)).text
    assert 'id="clock-start"' in client.get(clock, headers=auth(tokens["head"])).text
    ended = client.post(
        f"/api/events/{event}/end", json={"reason": "rain"}, headers=auth(tokens["head"])
    )
    assert ended.status_code == 201, ended.text
    page = client.get(clock, headers=auth(tokens["head"])).text
    assert 'id="clock-start"' not in page
    assert "The event has ended." in page
    shown = client.get(f"/api/events/{event}/clock", headers=auth(tokens["ann"])).json()
    assert shown["event_ended"] is True


def test_ev_8_6_a_penalty_is_on_the_penalized_players_own_page_and_no_one_elses(
    client: Any, tokens: Tokens, store: str
) -> None:
    """Ann's game loss for tardiness is listed on her own page (and her API line) with its
    infraction, so she need not ask the floor what happened; Ben reading Ann's page, and
    Ann's line read by Ben, do not list it (EV-10.7: the hall's own parts are the player's)."""
    event = make_event(store)
    given = client.post(
        f"/api/events/{event}/penalties",
        json={"player": "Ann", "infraction": "tardiness"},
        headers=auth(tokens["head"]),
    )
    assert given.status_code == 201, given.text
    mine = client.get(f"/events/{event}/me", headers=auth(tokens["ann"])).text
    assert "game-loss for tardiness (round 1, penalty 1)" in mine
    line = client.get(f"/api/events/{event}/players/Ann", headers=auth(tokens["ann"])).json()
    assert [(p["penalty"], p["infraction"]) for p in line["penalties"]] == [
        ("game-loss", "tardiness")
    ]
    seen = client.get(f"/events/{event}/players/Ann", headers=auth(tokens["ben"])).text
    assert "tardiness" not in seen
    other = client.get(f"/api/events/{event}/players/Ann", headers=auth(tokens["ben"])).json()
    assert other["penalties"] is None

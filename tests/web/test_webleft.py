"""The organizer's walk through the hall's pages, continued (branch webleft): what the
standings, the clock, the pairings API, the queue, the nav, the posting page and a
player's own page said that the walk found wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service.app import open_service
from tests.web.conftest import Tokens, auth, deck_event, house_ids, table_token
from tests.web.test_calls_api import make_event
from tests.web.test_event_pages import own_token
from tests.web.test_toolkit import tribute


def unpaired_event(store: str) -> str:
    """A PRIZMIK Swiss event of Ann, Ben and Cal with no round paired yet."""
    with open_service(store) as svc:
        event = svc.event_new("Early Open", "prizmik", rounds=3, seed=5).event_id
        names = ["Ann", "Ben", "Cal"]
        svc.event_register(event, names, player_ids=house_ids(store, names))
    return event


def test_ev_i_3_before_round_1_the_standings_show_no_percentages(
    client: Any, tokens: Tokens, store: str
) -> None:
    """With no match played the percentages are of nothing (MTR Appendix C): the JSON
    faces say ``null``, the page "–", not the floor's 33.3 that was never computed; once a
    round is played the players' figures are shown again (the floor where it applies)."""
    event = unpaired_event(store)
    rows = client.get(f"/api/events/{event}/standings", headers=auth(tokens["head"])).json()
    assert len(rows) == 3
    for row in rows:
        assert (row["mw"], row["omw"], row["gw"], row["ogw"]) == (None, None, None, None)
    page = client.get(f"/events/{event}/standings", headers=auth(tokens["head"])).text
    assert "33.3" not in page
    assert page.count(">–</td>") == 12
    with open_service(store) as svc:  # the command line's rows are the same rows
        assert [r.omw for r in svc.event_standings(event)] == [None, None, None]
        svc.event_pair(event)
    slip = client.post(
        f"/api/events/{event}/results", json={"slips": ["1=2-0-0"]}, headers=auth(tokens["head"])
    )
    assert slip.status_code == 201, slip.text
    rows = client.get(f"/api/events/{event}/standings", headers=auth(tokens["head"])).json()
    assert all(row["mw"] is not None and row["omw"] is not None for row in rows)


def test_ev_1_4_an_ended_events_clock_page_says_it_ended_not_waiting(
    client: Any, tokens: Tokens, store: str
) -> None:
    """An event ended before its round's clock started read "50:00 waiting" on the clock
    page: the round is over with the event, and the page says so."""
    event = make_event(store)
    slip = client.post(
        f"/api/events/{event}/results", json={"slips": ["1=2-0-0"]}, headers=auth(tokens["head"])
    )
    assert slip.status_code == 201, slip.text
    ended = client.post(
        f"/api/events/{event}/end", json={"reason": "rain"}, headers=auth(tokens["head"])
    )
    assert ended.status_code == 201, ended.text
    shown = client.get(f"/api/events/{event}/clock", headers=auth(tokens["ann"])).json()
    assert (shown["state"], shown["running"]) == ("ended", False)
    page = client.get(f"/events/{event}/clock", headers=auth(tokens["public"])).text
    assert "waiting" not in page
    assert '<b class="clock-time">event ended</b>' in page


def test_the_pairings_api_rows_carry_each_tables_result_or_score_so_far(
    client: Any, tokens: Tokens, store: str
) -> None:
    """``GET /api/events/E/pairings`` gives each table's result once decided, and the games
    won so far while it is played, as the pairings page does (the posting stays as it was),
    and the OpenAPI document names both fields."""
    event = make_event(store, ("Ann", "Ben", "Cal", "Dee"))
    head = auth(tokens["head"])
    path = f"/api/events/{event}/pairings"
    rows = client.get(path, headers=head).json()
    assert [(r["result"], r["so_far"]) for r in rows] == [(None, None), (None, None)]
    given = client.post(
        f"/api/events/{event}/penalties",
        json={"player": "Ann", "infraction": "tardiness", "reason": "late"},
        headers=head,
    )
    assert given.status_code == 201, given.text
    slip = client.post(f"/api/events/{event}/results", json={"slips": ["2=2-1-0"]}, headers=head)
    assert slip.status_code == 201, slip.text
    rows = {r["table"]: r for r in client.get(path, headers=head).json()}
    assert (rows[1]["result"], rows[1]["so_far"]) == (None, "0-1-0")
    assert (rows[2]["result"], rows[2]["so_far"]) == ("2-1-0", None)
    schema = client.get("/schema/openapi.json").json()["components"]["schemas"]
    row = next(v for k, v in schema.items() if k.endswith("RoundPairingRow"))
    assert {"result", "so_far"} <= set(row["properties"])
    from service.tournaments import PairingRow  # the signed postings' rows: unchanged

    assert not {"result", "so_far"} & set(PairingRow.__struct_fields__)


def test_q_1_the_queues_last_entry_names_the_player_and_seat(
    client: Any, tokens: Tokens, store: str
) -> None:
    """A penalty given to seat p2 of a game was the queue's "last: penalty: warning for p2"
    while the card names the players: the last entry names Ben (p2)."""
    with open_service(Path(store)) as svc:
        game = tribute(svc, table="2", ruling=False)
        svc.penalty(game, "p2", "warning", "slow play")
    queue = client.get("/api/queue", headers=auth(tokens["head"])).json()
    items = [i for section in queue.values() if isinstance(section, list) for i in section]
    mine = [i for i in items if isinstance(i, dict) and i.get("game_id") == game]
    assert mine, queue
    assert "for Ben (p2)" in mine[0]["last"]
    page = client.get("/queue", headers=auth(tokens["head"])).text
    assert "for Ben (p2)" in page


def test_my_table_leads_staff_to_their_place_not_the_pairings_by_name(
    client: Any, tokens: Tokens, store: str
) -> None:
    """The nav's "my table" sent the head referee (who has no table) to the pairings by
    name: the head referee and the scorekeeper go to the desk, a table referee to their
    table on the pairings by table, a player to their own page as before."""
    event = make_event(store)
    me = f"/events/{event}/me"
    for staff in ("head", "scorekeeper"):
        sent = client.get(me, headers=auth(tokens[staff]), follow_redirects=False)
        assert sent.headers["location"] == f"/events/{event}/desk"
    tom = table_token(store, event, "1")
    sent = client.get(me, headers=auth(tom), follow_redirects=False)
    assert sent.headers["location"] == f"/events/{event}/pairings#table-1"
    page = client.get(f"/events/{event}/pairings", headers=auth(tom)).text
    assert 'id="table-1"' in page
    sent = client.get(me, headers=auth(own_token(store, event, "Ann")), follow_redirects=False)
    assert sent.headers["location"].endswith("/players/Ann")


def test_the_posting_page_before_any_seal_says_so_in_page_words(
    client: Any, tokens: Tokens, store: str
) -> None:
    """Before any seal the posting answered a bare 400 with the command line's "or give
    --key": the page says no posting has been sealed yet and how the staff seal one; the
    command line keeps its own hint."""
    event = make_event(store)
    head = auth(tokens["head"])
    answer = client.get(f"/events/{event}/postings/pairings", headers=head)
    assert answer.status_code == 404
    detail = answer.json()["detail"]
    assert f"no posting of {event} has been sealed yet" in detail
    assert "the head referee seals it" in detail
    assert "--key" not in detail
    page = client.get(
        f"/events/{event}/postings/pairings", headers={**head, "Accept": "text/html"}
    ).text
    assert "No posting has been sealed yet" in page
    from typer.testing import CliRunner

    from cli.main import app as cli_app

    said = CliRunner().invoke(cli_app, ["--db", store, "event", "pairings", event, "--posting"])
    assert said.exit_code != 0
    assert "or give --key" in said.output


def test_ev_2_8_a_players_own_page_says_whether_their_decklist_was_received(
    client: Any, tokens: Tokens, store: str
) -> None:
    """In a deck event Ann (list given) reads "Decklist received", Ben (none) "No decklist
    yet" with the deadline; neither reads the other's, nor does the head referee on a
    player's page (the slips page names the missing lists to the staff)."""
    head = tokens["head"]
    event = deck_event(client, head, deck_deadline=2, store=store)
    ann = client.get(f"/events/{event}/players/Ann", headers=auth(tokens["ann"])).text
    assert "Decklist received" in ann
    ben = client.get(f"/events/{event}/players/Ben", headers=auth(tokens["ben"])).text
    assert "No decklist yet (deadline: before round 2 is paired" in ben
    for reader, page in (("ben", "Ann"), ("ann", "Ben"), ("head", "Ben"), ("public", "Ann")):
        seen = client.get(f"/events/{event}/players/{page}", headers=auth(tokens[reader])).text
        assert 'id="my-decklist"' not in seen, (reader, page)

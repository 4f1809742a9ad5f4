"""The hall's pages after a walk on phones (``tests/test_queue_walk.py`` has the service's
side): the queue page and its JSON count an escalated call for the head referee, not for
the table referee who escalated it (EV-10.5); a player's own page and its JSON link the
game they are playing now, which nobody else's view of that page does."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web.conftest import Tokens, auth, house_ids, table_token


def _event(store: str) -> tuple[str, str, str]:
    """A paired PRIZMIK event of four (the fixture's Ann and Ben bound to their tokens):
    the event, Ann's table and the game at it."""
    with open_service(store) as svc:
        event = svc.event_new("Walk", "prizmik", rounds=3, seed=5).event_id
        names = ["Ann", "Ben", "Cal", "Dee"]
        svc.event_register(event, names, player_ids=house_ids(store, names))
        svc.event_pair(event)
        state = svc.event_state(event)
        table = next(t for t in state.tables.values() if "p1" in t.players)
    return event, str(table.table), table.games[-1]


def test_an_escalated_call_counts_for_the_head_on_the_queue_page(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    event, table, _ = _event(store)
    tom = auth(table_token(store, event, table))
    head = auth(tokens["head"])
    with open_service(store) as svc:
        svc.event_call(event, int(table), by="Tom", reason="a ruling")
        svc.event_call_escalate(event, 1, by="Tom")
    mine = client.get("/api/queue", headers=tom).json()
    assert [i["call"] for i in mine["needs"] if i["kind"] == "call"] == []
    assert [i["call"] for i in mine["info"] if i["kind"] == "call"] == [1]  # still in sight
    theirs = client.get("/api/queue", headers=head).json()
    assert [i["call"] for i in theirs["needs"] if i["kind"] == "call"] == [1]
    page = client.get("/queue", headers=tom).text
    needs, _, info = page.partition('id="q-info"')
    assert 'data-call="1"' in info
    assert 'data-call="1"' not in needs
    assert "with the head referee" in info


def test_a_player_s_own_page_links_the_game_they_are_playing(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    event, _, game = _event(store)
    own = client.get(f"/events/{event}/players/Ann", headers=auth(tokens["ann"])).text
    assert f'<p id="my-game"><a href="/games/{game}">' in own
    line = client.get(f"/api/events/{event}/players/Ann", headers=auth(tokens["ann"])).json()
    assert line["game"] == game
    for other in ("head", "ben", "public"):
        seen = client.get(f"/events/{event}/players/Ann", headers=auth(tokens[other])).text
        assert 'id="my-game"' not in seen, other
        read = client.get(f"/api/events/{event}/players/Ann", headers=auth(tokens[other]))
        assert read.json()["game"] is None, other

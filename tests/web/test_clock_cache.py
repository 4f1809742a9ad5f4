"""The round clock page shared by its readers (issue 32 goal 5: 4,000 phones read it at a
round start): one answer per viewer kind and event version, made again each second of the
service's clock while the clock runs (EV-9.3: its figures follow from the marks and now),
a new answer and tag at once after a mark or an extension (EV-9.2, EV-9.4), and the head's
and a table referee's page, with their controls, never shared. No test waits for a clock:
the service's clock is set."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from litestar import Litestar
from litestar.testing import TestClient

from tests.web.conftest import Tokens, auth, table_token
from tests.web.test_event_cache import cache
from tests.web.test_fast_path import fast, fast_get, same, slow_get


class Clock:
    """The service's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def set_clock(client: TestClient[Litestar]) -> Clock:
    clock = Clock()
    client.app.state["web"].svc.clock = clock
    return clock


def head_post(client: TestClient[Litestar], tokens: Tokens, path: str, body: object) -> None:
    answer = client.post(path, json=body, headers=auth(tokens["head"]))
    assert answer.status_code == 201, answer.text


def test_the_clock_page_is_one_answer_a_second_while_it_runs_and_new_after_each_fact(
    client: TestClient[Litestar], tokens: Tokens, event: str
) -> None:
    """EV-9.3: a running clock's page is kept for one second of the service's clock, then
    made again with the figure a second on and a new tag; EV-9.4: an extension is a new
    answer at once, showing the table's extra time; EV-9.2: a paused clock's page is kept
    (and answered 304) for as long as nothing happens."""
    clock = set_clock(client)
    head_post(client, tokens, f"/api/events/{event}/clock", {"action": "start"})
    url = f"/events/{event}/clock"
    ann = client.get(url, headers=auth(tokens["ann"]))
    assert ann.status_code == 200, ann.text
    assert ">50:00<" in ann.text
    tag = ann.headers["etag"]
    computed = cache(client).computed
    ben = client.get(url, headers=auth(tokens["ben"]))
    assert ben.content == ann.content  # the page names no viewer: one answer for both
    assert ben.headers["etag"] == tag
    clock.now += timedelta(milliseconds=900)
    held = client.get(url, headers=auth(tokens["ben"], **{"If-None-Match": tag}))
    assert held.status_code == 304
    assert cache(client).computed == computed

    clock.now += timedelta(milliseconds=100)  # the second is up: the figure moved
    moved = client.get(url, headers=auth(tokens["ann"], **{"If-None-Match": tag}))
    assert moved.status_code == 200
    assert ">49:59<" in moved.text
    assert moved.headers["etag"] != tag
    assert "+3 min" not in moved.text

    head_post(
        client,
        tokens,
        f"/api/events/{event}/tables/1/extensions",
        {"minutes": 3, "reason": "deck check"},
    )
    extended = client.get(
        url, headers=auth(tokens["ann"], **{"If-None-Match": moved.headers["etag"]})
    )
    assert extended.status_code == 200
    assert "+3 min" in extended.text
    assert 'data-table="1"' in extended.text

    head_post(client, tokens, f"/api/events/{event}/clock", {"action": "pause"})
    paused = client.get(url, headers=auth(tokens["public"]))
    assert "paused" in paused.text
    assert paused.headers["etag"] != extended.headers["etag"]
    clock.now += timedelta(hours=1)  # a paused clock's figures stand still
    again = client.get(
        url, headers=auth(tokens["public"], **{"If-None-Match": paused.headers["etag"]})
    )
    assert again.status_code == 304


def test_the_controls_are_never_in_a_shared_answer_nor_a_shared_answer_given_for_them(
    client: TestClient[Litestar], tokens: Tokens, store: str, event: str
) -> None:
    """EV-9.2, EV-9.4: the head's marks and a table referee's extension form are on their
    own pages only, whoever read the page first; a table referee of another event, the
    scorekeeper, the public and the players read the page without controls."""
    set_clock(client)
    url = f"/events/{event}/clock"
    tom = table_token(store, event, "1", name="Tom")
    uma = table_token(store, "ev-otherday", "1", name="Uma")
    readers = [tokens["ann"], tokens["head"], tom, tokens["public"], uma, tokens["scorekeeper"]]
    for _ in range(2):  # each reader after every other one has been answered
        pages = {token: client.get(url, headers=auth(token)) for token in readers}
        assert 'id="clock-start"' in pages[tokens["head"]].text
        assert 'id="extend-form"' in pages[tom].text
        assert 'id="clock-start"' not in pages[tom].text
        assert "etag" not in pages[tokens["head"]].headers  # made for its reader, not kept
        for token in (tokens["ann"], tokens["public"], uma, tokens["scorekeeper"]):
            assert pages[token].status_code == 200
            assert 'id="clock-controls"' not in pages[token].text
            assert 'name="idem"' not in pages[token].text  # no form key handed around
    kinds = {k[2] for k in cache(client)._values if k[0] == event and k[-1] == ("clock",)}
    assert kinds == {"player", "public", "referee"}


def test_the_fast_path_sends_the_shared_clock_page_as_the_handler_does_never_the_heads(
    client: TestClient[Litestar], tokens: Tokens, store: str, event: str
) -> None:
    clock = set_clock(client)
    head_post(client, tokens, f"/api/events/{event}/clock", {"action": "start"})
    url = f"/events/{event}/clock"
    for coding in ("gzip", "identity"):
        headers = auth(tokens["ann"], **{"Accept-Encoding": coding})
        slow = slow_get(client, url, headers)
        same(fast_get(client, url, headers), slow)
        held = {**headers, "If-None-Match": slow.headers["etag"]}
        assert fast_get(client, url, held).status_code == 304
    tom = table_token(store, event, "1", name="Tom")
    for token in (tokens["head"], tom):
        served = fast(client).served
        page = client.get(url, headers=auth(token))
        assert fast(client).served == served
        assert 'id="extend-form"' in page.text
    said = client.get(f"{url}?said=x", headers=auth(tokens["ann"]))
    assert said.status_code == 200
    served = fast(client).served
    clock.now += timedelta(seconds=1)  # past its second: the handler makes it again
    late = client.get(url, headers=auth(tokens["ann"]))
    assert fast(client).served == served
    assert ">49:59<" in late.text


def test_the_api_clock_narrowed_to_one_table_or_the_tables_with_extra_time(
    client: TestClient[Litestar], tokens: Tokens, event: str
) -> None:
    """EV-9.4: a page showing one table's clock reads that table alone (with the round's
    figures); the hall's clock reads the tables with extra time; without either, every
    table of the round."""
    set_clock(client)
    head_post(client, tokens, f"/api/events/{event}/clock", {"action": "start"})
    head_post(
        client,
        tokens,
        f"/api/events/{event}/tables/2/extensions",
        {"minutes": 4, "reason": "judge call"},
    )
    url = f"/api/events/{event}/clock"
    every = client.get(url, headers=auth(tokens["ann"])).json()
    assert [t["table"] for t in every["tables"]] == list(range(1, 9))
    one = client.get(f"{url}?table=3", headers=auth(tokens["ann"])).json()
    assert [t["table"] for t in one["tables"]] == [3]
    assert one["remaining_seconds"] == every["remaining_seconds"]
    assert one["state"] == "running"
    extended = client.get(f"{url}?extended=true", headers=auth(tokens["ann"])).json()
    assert [(t["table"], t["extension_minutes"]) for t in extended["tables"]] == [(2, 4)]


def test_two_server_processes_give_one_clock_page_and_tag_within_a_second(
    client: TestClient[Litestar], store: str, tokens: Tokens, event: str
) -> None:
    """--workers: a phone's connections land on either process. Within one second of the
    service's clock both make the clock page of that second's start: the same bytes and
    tag, so the tag one process gave is answered 304 by the other."""
    from web.app import ServeConfig, create_app

    clock = set_clock(client)
    head_post(client, tokens, f"/api/events/{event}/clock", {"action": "start"})
    url = f"/events/{event}/clock"
    with TestClient(create_app(ServeConfig(store=store, poll_interval=0.05))) as other:
        other_clock = set_clock(other)
        clock.now += timedelta(seconds=5, milliseconds=120)
        other_clock.now = clock.now + timedelta(milliseconds=700)  # the same second
        here = client.get(url, headers=auth(tokens["ann"]))
        there = other.get(url, headers=auth(tokens["ann"]))
        assert here.status_code == there.status_code == 200
        assert ">49:55<" in here.text
        assert there.content == here.content
        assert there.headers["etag"] == here.headers["etag"]
        held = other.get(
            url, headers=auth(tokens["ben"], **{"If-None-Match": here.headers["etag"]})
        )
        assert held.status_code == 304
        other_clock.now += timedelta(milliseconds=300)  # the next second: a new figure
        moved = other.get(
            url, headers=auth(tokens["ben"], **{"If-None-Match": here.headers["etag"]})
        )
        assert moved.status_code == 200
        assert ">49:54<" in moved.text

"""The fast path in front of Litestar (``web.fastpath``) answers exactly what the handlers
answer, or leaves the request to them: the same status, headers and bytes for a cached
answer and its 304, never one viewer kind's entry to another, and every refusal (a wrong,
missing or revoked token) left to the handlers, counted once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.access import TokenStore
from service.sidedb import open_side_db
from service.stores import parse_store
from tests.web.conftest import ThreadServer, Tokens, auth, follow_live, make_event, report
from web.app import ServeConfig, create_app
from web.fastpath import FastPath

URLS = [
    "/events/{e}/pairings",
    "/events/{e}/pairings?by=name&round=1",
    "/events/{e}/standings",
    "/events/{e}/standings?page=1",  # a page of rows is keyed as the handler keys it
    "/events/{e}/pairings?by=name&page=all",
    "/events/{e}/players/Player%2003",
    "/api/events/{e}/pairings",
    "/api/events/{e}/standings?round=1",
    "/api/events/{e}/players/Player%2005",
]


@pytest.fixture
def client(store: str, tokens: Tokens) -> Iterator[TestClient[Litestar]]:
    with TestClient(create_app(ServeConfig(store=store, poll_interval=0.05))) as test_client:
        yield test_client


def fast(client: TestClient[Litestar]) -> FastPath:
    door = client.app.asgi_handler
    assert isinstance(door, FastPath)
    return door


def slow_get(client: TestClient[Litestar], url: str, headers: dict[str, str]) -> httpx.Response:
    fast(client).enabled = False
    try:
        return client.get(url, headers=headers, follow_redirects=False)
    finally:
        fast(client).enabled = True


def fast_get(client: TestClient[Litestar], url: str, headers: dict[str, str]) -> httpx.Response:
    """``url`` answered by the fast path (asked again while the hub or the checkpoint it
    needs is not fresh; the handlers then refresh them)."""
    door = fast(client)
    deadline = time.monotonic() + 10
    while True:
        served = door.served
        answer = client.get(url, headers=headers, follow_redirects=False)
        if door.served == served + 1 or time.monotonic() > deadline:
            assert door.served == served + 1, f"{url}: not answered by the fast path"
            return answer
        time.sleep(0.02)


def same(a: httpx.Response, b: httpx.Response) -> None:
    assert a.status_code == b.status_code
    assert a.content == b.content
    drop = {"date", "server"}
    assert [(k, v) for k, v in a.headers.multi_items() if k not in drop] == [
        (k, v) for k, v in b.headers.multi_items() if k not in drop
    ]


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("coding", ["gzip", "identity"])
def test_a_cached_answer_and_its_304_are_the_handlers_own(
    client: TestClient[Litestar], tokens: Tokens, url: str, coding: str, event: str
) -> None:
    url = url.format(e=event)
    for who in ("ann", "public", "head"):
        headers = auth(tokens[who], **{"Accept-Encoding": coding})
        slow = slow_get(client, url, headers)  # computes the entry
        assert slow.status_code == 200, slow.text
        same(fast_get(client, url, headers), slow)
        held = {**headers, "If-None-Match": slow.headers["etag"]}
        not_modified = fast_get(client, url, held)
        assert not_modified.status_code == 304
        same(not_modified, slow_get(client, url, held))


def test_one_viewer_kind_is_never_served_another_kinds_entry(
    client: TestClient[Litestar], tokens: Tokens, event: str
) -> None:
    url = f"/events/{event}/players/Player%2003"
    ann = slow_get(client, url, auth(tokens["ann"]))
    fast_get(client, url, auth(tokens["ann"]))  # the players' entry is cached
    for other, name in (("public", "Pat"), ("head", "Hera"), ("scorekeeper", "Sam")):
        served, made = fast(client).served, fast(client).made
        seen = client.get(url, headers=auth(tokens[other]))
        # the first of a kind is made for it (by the handler, or by the fast path once the
        # version's index exists), never taken from the players' entry
        if other != "scorekeeper":  # head's kind came first
            assert fast(client).served - served == fast(client).made - made
        assert name in seen.text
        assert "Ann" not in seen.text
        assert seen.headers["etag"] != ann.headers["etag"]
    ben = fast_get(client, url, auth(tokens["ben"]))  # the same entry, Ben's own header
    assert "Ben" in ben.text
    assert "Ann" not in ben.text
    assert ben.headers["etag"] != ann.headers["etag"]


@pytest.mark.parametrize("url", ["/events/{e}/pairings", "/api/events/{e}/standings"])
def test_refusals_are_the_handlers_and_counted_once(
    client: TestClient[Litestar], store: str, tokens: Tokens, url: str, event: str
) -> None:
    url = url.format(e=event)
    slow_get(client, url, auth(tokens["ann"]))
    fast_get(client, url, auth(tokens["ann"]))  # cached and served fast for a good token
    web = client.app.state["web"]
    cases: list[tuple[dict[str, str], int]] = [  # headers, failures the two requests count
        (auth("rf_nope_wrong"), 2),
        (auth(tokens["ann"][:-2] + "xx"), 2),
        ({"Authorization": "Basic abc"}, 0),
        ({}, 0),
        ({"Cookie": "referee_token=rf_nope_wrong"}, 2),
    ]
    for headers, failures_counted in cases:
        served = fast(client).served
        failures = len(web.failed_auth._failures.get("testclient", ()))
        answer = client.get(url, headers=headers, follow_redirects=False)
        assert fast(client).served == served
        expected = slow_get(client, url, headers)
        assert answer.status_code == expected.status_code
        assert answer.status_code in ((303,) if url.startswith("/events") else (401,))
        counted = len(web.failed_auth._failures.get("testclient", ())) - failures
        assert counted == failures_counted  # once per request, by the handler
    # a token revoked after its answers were cached is refused at once
    side = TokenStore(open_side_db(parse_store(store)))
    token_id = tokens["ann"].split("_")[1]
    side.revoke(token_id)
    side.db.close()
    served = fast(client).served
    refused: Any = client.get(url, headers=auth(tokens["ann"]), follow_redirects=False)
    assert refused.status_code in (303, 401)
    assert fast(client).served == served


def test_a_streams_own_read_from_the_store_vouches_until_this_process_writes() -> None:
    """Under load the hub's reads of the log can come late; a page's own read of the event's
    version then serves the next readers as long as a read of the log would (no query each),
    but never past a write of this process begun after it."""
    import asyncio

    from web.hub import Hub

    async def run(fn: Any, *args: Any) -> Any:
        return fn(*args)

    async def scenario() -> None:
        hub = Hub(None, run, interval=60.0)  # type: ignore[arg-type]
        assert hub.read_mark() is None  # not started: nothing vouched
        hub._loop = asyncio.get_running_loop()  # started, but its log never read
        assert hub.known_version("ev-x") is None
        hub.note("ev-x", 4)  # a reading with no mark vouches for nothing
        assert hub.known_version("ev-x") is None
        hub.note("ev-x", 5, asked=hub.read_mark())
        assert hub.known_version("ev-x") == 5
        assert hub.known_version("ev-y") is None
        hub.poke()  # this process wrote: the reading may be older than its write
        assert hub.known_version("ev-x") is None
        before = hub.read_mark()
        hub.poke()  # a write while the read was under way
        hub.note("ev-x", 6, asked=before)
        assert hub.known_version("ev-x") is None
        hub.note("ev-x", 7, asked=hub.read_mark())
        assert hub.known_version("ev-x") == 7

    asyncio.run(scenario())


# -- the hot write: POST /api/games/{id}/entries ----------------------------------------------


def new_game(client: TestClient[Litestar], token: str, table: str = "1") -> str:
    made = client.post(
        "/api/games",
        json={
            "game": "prizmik",
            "players": {"red": "Ann", "blue": "Ben"},
            "meta": {"table": table},
        },
        headers=auth(token),
    )
    assert made.status_code == 201, made.text
    game: str = made.json()["game_id"]
    return game


def post(
    client: TestClient[Litestar], url: str, body: bytes, headers: dict[str, str], *, fast_: bool
) -> tuple[httpx.Response, bool]:
    """``body`` posted to ``url`` through the fast path or with it off, and whether the fast
    path answered it."""
    door = fast(client)
    door.enabled = fast_
    entries = door.entries
    try:
        answer = client.post(url, content=body, headers=headers)
    finally:
        door.enabled = True
    return answer, door.entries > entries


def as_game(answer: httpx.Response, game: str, instead: str) -> httpx.Response:
    """``answer`` with the game id ``game`` written as ``instead`` (two games, one request)."""
    swap = game.encode(), instead.encode()
    return httpx.Response(
        answer.status_code,
        headers=[(k, v.replace(*swap)) for k, v in answer.headers.raw],
        content=answer.content.replace(*swap),
    )


JSON_ = {"Content-Type": "application/json"}

# (entry body, extra headers, the status both answer): each sent to two games in the same state,
# one through the fast path and one with it off
WRITES: list[tuple[bytes, dict[str, str], int]] = [
    (b'{"text": "e1>e2"}', {}, 201),
    (b'{"text": "e1>e2", "seat": "red"}', {"If-Match": '"1"'}, 201),
    (b'{"text": "e1>e7"}', {}, 422),  # breaks a rule: stored as evidence
    (b'{"text": "hello there"}', {}, 400),  # not an entry
    (b'{"text": "e1>e2"}', {"If-Match": '"7"'}, 412),
    (b'{"text": "e1>e2"}', {"If-Match": "twelve"}, 400),
]


@pytest.mark.parametrize(("body", "extra", "status"), WRITES)
def test_an_entry_is_answered_as_the_handler_answers_it(
    client: TestClient[Litestar], tokens: Tokens, body: bytes, extra: dict[str, str], status: int
) -> None:
    one, two = new_game(client, tokens["head"]), new_game(client, tokens["head"])
    headers = auth(tokens["table1"], **JSON_, **extra)
    quick, taken = post(client, f"/api/games/{one}/entries", body, headers, fast_=True)
    assert taken
    slow, taken = post(client, f"/api/games/{two}/entries", body, headers, fast_=False)
    assert not taken
    assert quick.status_code == status, quick.text
    same(quick, as_game(slow, two, one))
    # both stored the same (nothing, or the same event), with the writing token's id
    logs = [
        client.get(f"/api/games/{g}/log", headers=auth(tokens["head"])).json() for g in (one, two)
    ]
    assert len(logs[0]) == len(logs[1])
    assert [e.get("token_id") for e in logs[0]] == [e.get("token_id") for e in logs[1]]


def test_refusals_of_an_entry_are_answered_alike(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    game = new_game(client, tokens["head"])
    ended = new_game(client, tokens["head"])
    finished = client.post(
        f"/api/games/{ended}/end",
        json={"how": "agreement", "reason": "x"},
        headers=auth(tokens["head"]),
    )
    assert finished.status_code == 201, finished.text
    url = f"/api/games/{game}/entries"
    entry = b'{"text": "e1>e2"}'
    cases = [  # url, token, body, status: answered by the fast path itself
        ("/api/games/prizmik-nothere/entries", tokens["table1"], entry, 404),
        (url, tokens["table2"], entry, 403),  # another table's referee
        (url, tokens["public"], entry, 403),
        (f"/api/games/{ended}/entries", tokens["table1"], entry, 409),
    ]
    for path, token, body, status in cases:
        headers = auth(token, **JSON_)
        quick, taken = post(client, path, body, headers, fast_=True)
        slow, _ = post(client, path, body, headers, fast_=False)
        assert taken, path
        assert quick.status_code == status, quick.text
        same(quick, slow)


PASSED_ON: list[tuple[bytes, dict[str, str]]] = [  # body, headers: the handler answers
    (b'{"text": "e1>e2"', JSON_),  # malformed JSON
    (b"", JSON_),
    (b"[]", JSON_),
    (b'{"text": "e1>e2", "colour": "red"}', JSON_),  # an unknown field
    (b'{"text": 5}', JSON_),
    (b'{"text": "' + b"x" * 1001 + b'"}', JSON_),  # too long
    (b'{"text": "e1>e2"}', {"Content-Type": "text/plain"}),
    (b'{"text": "e1>e2"}', {}),  # no content type
    (b'{"text": "e1>e2"}', {**JSON_, "Idempotency-Key": "k-1"}),
    (b'{"text": "' + b"x" * 70_000 + b'"}', JSON_),  # past the body limit
]


@pytest.mark.parametrize(("body", "extra"), PASSED_ON)
def test_an_unusual_entry_request_is_left_to_the_handler(
    client: TestClient[Litestar], tokens: Tokens, body: bytes, extra: dict[str, str]
) -> None:
    one, two = new_game(client, tokens["head"]), new_game(client, tokens["head"])
    headers = auth(tokens["table1"], **extra)
    quick, taken = post(client, f"/api/games/{one}/entries", body, headers, fast_=True)
    assert not taken
    if "Idempotency-Key" in headers:
        headers["Idempotency-Key"] += "-again"  # a key names one request
    slow, _ = post(client, f"/api/games/{two}/entries", body, headers, fast_=False)
    same(quick, as_game(slow, two, one))


def test_a_wrong_or_missing_token_on_an_entry_is_the_handlers_and_counted_once(
    client: TestClient[Litestar], store: str, tokens: Tokens
) -> None:
    game = new_game(client, tokens["head"])
    url = f"/api/games/{game}/entries"
    web = client.app.state["web"]
    entry = b'{"text": "e1>e2"}'
    for headers, failures_counted in (
        (auth("rf_nope_wrong", **JSON_), 1),
        ({"Authorization": "Basic abc", **JSON_}, 0),
        (JSON_, 0),
        ({"Cookie": f"referee_token={tokens['table1']}", **JSON_}, 0),  # a cookie: not same-site
    ):
        failures = len(web.failed_auth._failures.get("testclient", ()))
        quick, taken = post(client, url, entry, headers, fast_=True)
        assert not taken
        assert quick.status_code in (401, 403)
        counted = len(web.failed_auth._failures.get("testclient", ())) - failures
        assert counted == failures_counted
        same(quick, post(client, url, entry, headers, fast_=False)[0])
    # a token revoked by another process is refused on the next entry
    accepted, taken = post(client, url, entry, auth(tokens["table1"], **JSON_), fast_=True)
    assert accepted.status_code == 201
    assert taken
    side = TokenStore(open_side_db(parse_store(store)))
    side.revoke(tokens["table1"].split("_")[1])
    side.db.close()
    refused, taken = post(
        client, url, b'{"text": "e8>e7"}', auth(tokens["table1"], **JSON_), fast_=True
    )
    assert refused.status_code == 401
    assert not taken


def test_an_entry_with_a_header_twice_is_left_to_the_handler(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    from web.fastpath import _ENTRY_HEADERS, _headers

    twice = [(b"authorization", b"Bearer x"), (b"if-match", b'"1"'), (b"if-match", b'"5"')]
    assert _headers({"headers": twice}, _ENTRY_HEADERS) is None  # the handler's to read
    assert _headers({"headers": twice[:2]}, _ENTRY_HEADERS) == dict(twice[:2])
    # the test client joins them into one value ('"1", "5"'): answered alike either way
    one, two = new_game(client, tokens["head"]), new_game(client, tokens["head"])
    headers = auth(tokens["table1"], **JSON_, **{"If-Match": '"1", "5"'})
    quick, _ = post(client, f"/api/games/{one}/entries", b'{"text": "e1>e2"}', headers, fast_=True)
    slow, _ = post(client, f"/api/games/{two}/entries", b'{"text": "e1>e2"}', headers, fast_=False)
    assert quick.status_code == 400
    same(quick, as_game(slow, two, one))


def _live_head(base: str, path: str, headers: dict[str, str]) -> tuple[int, list[Any], str]:
    """A live stream's status, headers and first message, then the stream left."""
    with httpx.stream("GET", f"{base}{path}", headers=headers, timeout=20) as answer:
        first = ""
        if answer.status_code == 200:
            for line in answer.iter_lines():
                if line.startswith("data:"):
                    first = line
                    break
        drop = {"date", "server"}
        return (
            answer.status_code,
            [i for i in answer.headers.multi_items() if i[0] not in drop],
            first,
        )


@pytest.fixture
def steady_server(store: str, tokens: Tokens) -> Iterator[ThreadServer]:
    """A server whose hub, once it has read the log past this process's last write, vouches
    for the versions it knows for two intervals (a minute here) rather than 0.1 s: under a
    loaded machine the hub's next read can come later than that, and the fast path then
    rightly leaves a live stream to the handler. Its own writes still poke it at once."""
    server = ThreadServer(ServeConfig(store=store, poll_interval=30))
    yield server
    server.stop()


def vouched(server: ThreadServer, event: str) -> None:
    """Wait until the server's hub vouches for ``event``'s version (it has read the log past
    the last write: ``Hub.known_version``), which the fast path needs to answer its stream."""
    hub = server.app.state["web"].hub
    deadline = time.monotonic() + 20
    while hub.known_version(event) is None:
        assert time.monotonic() < deadline, "the hub did not read the log past its own write"
        time.sleep(0.01)


@pytest.mark.parametrize("path", ["/api/events/{e}/live", "/events/{e}/live?after=2"])
def test_a_live_stream_is_answered_as_the_handler_answers_it(
    steady_server: ThreadServer, tokens: Tokens, path: str
) -> None:
    """The fast path's live stream (``FastPath._live``): the handler's status, headers and
    messages, the change announced to it, and the feed left when the client leaves."""
    from web.fanout import feeds_of

    base = steady_server.base
    with httpx.Client(base_url=base) as http:
        event = make_event(http, tokens["head"])
    door = steady_server.app.asgi_handler
    assert isinstance(door, FastPath)
    path = path.format(e=event)
    door.enabled = False
    try:
        slow = _live_head(base, path, auth(tokens["ann"]))
    finally:
        door.enabled = True
    streams = door.streams
    vouched(steady_server, event)
    assert _live_head(base, path, auth(tokens["ann"])) == slow
    assert door.streams == streams + 1
    assert slow[0] == 200
    assert slow[2].startswith('data: {"version":')
    # a change reaches a stream the fast path answers; leaving it leaves the feed
    web = steady_server.app.state["web"]
    reader, got, opened = follow_live(f"{base}{path}", auth(tokens["ben"]))
    assert opened.wait(20)
    assert door.streams == streams + 2
    with httpx.Client(base_url=base) as http:
        report(http, event, tokens["head"])
    reader.join(20)
    assert len(got) == 2
    assert got[1] != got[0]
    deadline = time.monotonic() + 10
    while feeds_of(web).feed(event) is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert feeds_of(web).feed(event) is None  # every subscriber gone: the feed stopped


def test_a_live_stream_the_fast_path_cannot_vouch_for_is_the_handlers(
    live_server: ThreadServer, tokens: Tokens
) -> None:
    """A wrong or missing token (counted once, by the handler), an unknown event, a query it
    does not read plainly: the handler answers, as it would without the fast path."""
    base = live_server.base
    with httpx.Client(base_url=base) as http:
        event = make_event(http, tokens["head"])
        http.get(f"/api/events/{event}/pairings", headers=auth(tokens["ann"]))
    door = live_server.app.asgi_handler
    assert isinstance(door, FastPath)
    web = live_server.app.state["web"]
    cases = [
        (f"/api/events/{event}/live", auth("rf_nope_wrong"), 401, 1),
        (f"/api/events/{event}/live", {}, 401, 0),
        (f"/events/{event}/live", {"Cookie": "referee_token=rf_nope_wrong"}, 401, 1),
        ("/api/events/ev-nothere/live", auth(tokens["ann"]), 404, 0),
        (f"/api/events/{event}/live?after=x", auth(tokens["ann"]), 400, 0),
    ]
    for path, headers, status, counted in cases:
        streams = door.streams
        failures = sum(len(v) for v in web.failed_auth._failures.values())
        assert _live_head(base, path, headers)[0] == status, path
        assert door.streams == streams
        assert sum(len(v) for v in web.failed_auth._failures.values()) - failures == counted


def test_a_players_page_made_by_the_fast_path_is_the_handlers(store: str, tokens: Tokens) -> None:
    """Once the version's index exists, a player's page not made yet is made by the fast
    path (``FastPath._make``), with the handler's function, under the handler's key: the
    same page another server's handler makes (but for each form's fresh key), and the hall's
    forms shown to the page's own player only, never to another player, the head or the
    public (EV-10, EV-11). Its server reads the log every 30 s: the fast path answers only
    while the hub vouches for the version (within two intervals of a read), which a short
    interval on a loaded machine let lapse between two requests."""
    import re

    from service.app import open_service
    from tests.web.conftest import house_ids

    with open_service(store) as svc:
        event = svc.event_new("Hall Cup", "prizmik", rounds=3).event_id
        svc.event_register(event, ["Ann", "Ben"], player_ids=house_ids(store, ["Ann", "Ben"]))
        svc.event_pair(event)
    with TestClient(create_app(ServeConfig(store=store, poll_interval=30))) as client:
        door = fast(client)
        warm = f"/events/{event}/players/Ben"
        slow_get(client, warm, auth(tokens["public"]))  # the index
        fast_get(client, warm, auth(tokens["public"]))  # the hub vouches for the version
        cases = [("ann", "Ann", True), ("ann", "Ben", False), ("ben", "Ben", True)]
        cases += [("head", "Ann", False), ("public", "Ann", False)]
        keyless = re.compile(r'(name="idem" value=")[^"]*"')
        with TestClient(create_app(ServeConfig(store=store, poll_interval=0.05))) as other:
            fast(other).enabled = False
            for who, player, own in cases:
                url = f"/events/{event}/players/{player}"
                made = door.made
                page = fast_get(client, url, auth(tokens[who]))
                assert door.made == made + 1, (who, player)  # made here, not only sent
                assert page.status_code == 200
                shows = {f for f in ("call-judge", "report-result") if f'id="{f}"' in page.text}
                assert shows == ({"call-judge", "report-result"} if own else set()), (who, player)
                handler = other.get(url, headers=auth(tokens[who]))
                assert handler.headers["etag"] == page.headers["etag"]
                assert keyless.sub(r"\1", handler.text) == keyless.sub(r"\1", page.text)
                again = fast_get(client, url, auth(tokens[who]))  # kept: sent, not made again
                assert door.made == made + 1
                assert keyless.sub(r"\1", again.text) == keyless.sub(r"\1", page.text)
        # no such player: the handler's answer
        made, served = door.made, door.served
        missing = client.get(f"/events/{event}/players/Nobody", headers=auth(tokens["ann"]))
        assert (door.made, door.served) == (made, served)
        handlers = slow_get(client, f"/events/{event}/players/Nobody", auth(tokens["ann"]))
        assert missing.status_code == handlers.status_code == 400

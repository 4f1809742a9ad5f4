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
from tests.web.conftest import Tokens, auth
from tests.web.test_event_cache import make_event
from web.app import ServeConfig, create_app
from web.fastpath import FastPath

URLS = [
    "/events/{e}/pairings",
    "/events/{e}/pairings?by=name&round=1",
    "/events/{e}/standings",
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
    client: TestClient[Litestar], tokens: Tokens, url: str, coding: str
) -> None:
    event = make_event(client, tokens["head"])
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
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    event = make_event(client, tokens["head"])
    url = f"/events/{event}/players/Player%2003"
    ann = slow_get(client, url, auth(tokens["ann"]))
    fast_get(client, url, auth(tokens["ann"]))  # the players' entry is cached
    for other, name in (("public", "Pat"), ("head", "Hera"), ("scorekeeper", "Sam")):
        served = fast(client).served
        seen = client.get(url, headers=auth(tokens[other]))
        # the first of a kind is computed by the handler, never taken from the players' entry
        assert fast(client).served == served or other == "scorekeeper"  # head's kind came first
        assert name in seen.text and "Ann" not in seen.text
        assert seen.headers["etag"] != ann.headers["etag"]
    ben = fast_get(client, url, auth(tokens["ben"]))  # the same entry, Ben's own header
    assert "Ben" in ben.text and "Ann" not in ben.text
    assert ben.headers["etag"] != ann.headers["etag"]


@pytest.mark.parametrize("url", ["/events/{e}/pairings", "/api/events/{e}/standings"])
def test_refusals_are_the_handlers_and_counted_once(
    client: TestClient[Litestar], store: str, tokens: Tokens, url: str
) -> None:
    event = make_event(client, tokens["head"])
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

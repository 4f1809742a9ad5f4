"""The event pages and their JSON twins shared by every reader (issue 23 section 2): one
computation per event version and viewer kind, ETag and 304, gzip, a viewer's own header
never handed to another, and one live message per change for every subscriber."""

from __future__ import annotations

import gzip
import re
import threading
import time
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web.conftest import ThreadServer, Tokens, auth, follow_live, make_event, report
from web.eventcache import SLOT, EventCache, Rendered, _deflate, cache_of


def cache(client: TestClient[Litestar]) -> EventCache:
    return cache_of(client.app.state["web"])


@pytest.mark.parametrize(
    "path", ["pairings", "standings", "players/Player%2003", "api/standings", "api/pairings"]
)
def test_an_etag_is_answered_304_with_no_body_and_nothing_computed(
    client: TestClient[Litestar], tokens: Tokens, path: str, event: str
) -> None:
    url = (
        f"/api/events/{event}/{path[4:]}" if path.startswith("api/") else f"/events/{event}/{path}"
    )
    first = client.get(url, headers=auth(tokens["ann"]))
    assert first.status_code == 200, first.text
    tag = first.headers["etag"]
    assert tag.startswith('"v')
    assert "no-cache" in first.headers["cache-control"]
    computed = cache(client).computed
    again = client.get(url, headers=auth(tokens["ann"], **{"If-None-Match": tag}))
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == tag
    assert cache(client).computed == computed  # answered from the key alone
    other = client.get(url, headers=auth(tokens["ann"], **{"If-None-Match": '"v1-stale"'}))
    assert other.status_code == 200
    assert other.content == first.content


def test_a_new_fact_of_the_event_is_a_new_answer(
    client: TestClient[Litestar], tokens: Tokens, event: str
) -> None:
    url = f"/api/events/{event}/standings"
    before = client.get(url, headers=auth(tokens["public"]))
    tag = before.headers["etag"]
    assert all(row["points"] == 0 for row in before.json())
    report(client, event, tokens["head"])
    after = client.get(url, headers=auth(tokens["public"], **{"If-None-Match": tag}))
    assert after.status_code == 200
    assert after.headers["etag"] != tag
    assert sorted(row["points"] for row in after.json())[-1] == 3
    page = client.get(f"/events/{event}/pairings", headers=auth(tokens["public"]))
    assert "2-0-0" in page.text  # the pairings page shows the new result too


def test_viewer_kinds_never_share_an_answer_and_each_header_names_its_own_viewer(
    client: TestClient[Litestar], tokens: Tokens, event: str
) -> None:
    url = f"/events/{event}/players/Player%2003"
    head = client.get(url, headers=auth(tokens["head"]))  # a referee computes it first
    public = client.get(url, headers=auth(tokens["public"]))
    ann = client.get(url, headers=auth(tokens["ann"]))
    ben = client.get(url, headers=auth(tokens["ben"]))
    assert "Hera" in head.text
    assert 'id="queue-link"' in head.text
    for seen, name in ((public, "Pat"), (ann, "Ann"), (ben, "Ben")):
        assert name in seen.text
        assert "Hera" not in seen.text
        assert 'id="queue-link"' not in seen.text
        assert "new game" not in seen.text
        assert SLOT not in seen.text
    assert "Ann" not in ben.text
    assert "Ben" not in ann.text
    assert len({head.headers["etag"], public.headers["etag"], ann.headers["etag"]}) == 3
    assert ann.headers["etag"] != ben.headers["etag"]  # same shared bytes, another header
    kinds = {key[2] for key in cache(client)._values if key[0] == event and len(key) > 3}
    assert {"public", "player", "referee"} <= kinds
    # the player's shared bytes were computed once for Ann and Ben together
    players = [k for k in cache(client)._values if k[2] == "player" and str(k[3]).endswith("03")]
    assert len(players) == 1


def test_gzip_when_asked_and_the_same_bytes_when_decoded(
    client: TestClient[Litestar], tokens: Tokens, event: str
) -> None:
    for url in (f"/events/{event}/pairings", f"/api/events/{event}/standings"):
        plain = client.get(url, headers=auth(tokens["ann"], **{"Accept-Encoding": "identity"}))
        packed = client.get(url, headers=auth(tokens["ann"], **{"Accept-Encoding": "gzip"}))
        assert "content-encoding" not in plain.headers
        assert packed.headers["content-encoding"] == "gzip"
        assert packed.content == plain.content  # httpx checked the gzip stream's CRC and size
        assert packed.headers["etag"] != plain.headers["etag"]
        assert int(packed.headers["content-length"]) < len(plain.content)


def test_a_spliced_gzip_stream_is_one_valid_stream_for_every_viewer() -> None:
    body = "<html>" + "<p>row</p>" * 500 + SLOT + "<main>" + "<td>7</td>" * 500 + "</main>"
    entry = Rendered(body, "text/html", "v1-x")
    for slot in (b"", b"<header>Ann</header>", "<header>Zoë</header>".encode() * 40):
        data = gzip.decompress(entry.gzipped(slot, _deflate(slot, last=False) if slot else b""))
        assert data == body.replace(SLOT, slot.decode()).encode()


def test_every_subscriber_gets_the_change_encoded_once(
    live_server: ThreadServer, store: str, tokens: Tokens
) -> None:
    from web.fanout import feeds_of

    base = live_server.base
    with httpx.Client(base_url=base) as http:
        event = make_event(http, tokens["head"])
    got: dict[int, list[str]] = {n: [] for n in range(3)}
    ready = threading.Barrier(4, timeout=20)
    received = threading.Barrier(4, timeout=20)
    release = threading.Event()

    def follow(n: int) -> None:
        with httpx.stream(
            "GET", f"{base}/api/events/{event}/live", headers=auth(tokens["public"]), timeout=20
        ) as answer:
            for line in answer.iter_lines():
                if line.startswith("data:"):
                    got[n].append(line)
                    (ready if len(got[n]) == 1 else received).wait()
                    if len(got[n]) == 2:
                        release.wait(20)
                        return

    threads = [threading.Thread(target=follow, args=(n,), daemon=True) for n in got]
    for thread in threads:
        thread.start()
    ready.wait()  # every subscriber has the event as it stands
    with httpx.Client(base_url=base) as http:
        report(http, event, tokens["head"])
    received.wait()
    feeds = feeds_of(live_server.app.state["web"])
    feed = feeds.feed(event)
    assert feed is not None
    assert feed.subscribers == 3
    assert feed.encoded == 2  # as it stood, and the change: once each, for all three
    release.set()
    for thread in threads:
        thread.join(20)
    with open_service(store) as svc:
        version = svc.event_info(event).version
    for lines in got.values():
        assert lines == [lines[0], f'data: {{"version":{version},"round":1}}']


def test_the_hub_vouches_for_a_version_only_when_no_write_of_its_own_is_unread() -> None:
    import asyncio

    from service.live import Notice
    from web.hub import Hub

    class Log:
        def __init__(self) -> None:
            self.notices: list[Notice] = []

        def last(self) -> int:
            return 0

        def after(self, after: int, limit: int) -> list[Notice]:
            return [n for n in self.notices if n.id > after][:limit]

        def watch(self, heard: Any) -> None:
            return None  # announces nothing (as SQLite): found by reading the log

    async def run(fn: Any, *args: Any) -> Any:
        return fn(*args)

    async def scenario() -> None:
        log = Log()
        hub = Hub(log, run, interval=0.01, min_gap=0.0)  # type: ignore[arg-type]
        assert hub.known_version("ev-x") is None  # not started: ask the store
        await hub.start()
        try:
            log.notices.append(Notice(id=1, game_id="ev-x", version=4, topic="t"))
            hub.poke()
            assert hub.known_version("ev-x") is None  # a write not read yet
            # read once per try: under load the reading can age past two intervals
            # between two calls, and the hub then rightly stops vouching for it
            while (known := hub.known_version("ev-x")) is None:
                await asyncio.sleep(0.005)
            assert known == 4
            assert hub.known_version("ev-unseen") is None  # never seen: ask the store
            hub.note("ev-x", 3)  # an older reading never lowers it
            assert hub.versions["ev-x"] == 4
        finally:
            await hub.stop()

    asyncio.run(scenario())


def test_an_append_the_store_announces_is_vouched_for_only_once_read() -> None:
    """With --workers on PostgreSQL, another process's write is announced (LISTEN/NOTIFY)
    on a thread of its own: from then until the hub has read the log past it, the hub
    vouches for no version (a page would be the one before the change), then for the new
    one, long before its next reading at the interval (a minute here)."""
    import asyncio
    import threading

    from service.live import Notice
    from web.hub import Hub

    class Log:
        def __init__(self) -> None:
            self.notices: list[Notice] = []
            self.heard: Any = None
            self.stopped = False

        def last(self) -> int:
            return 0

        def after(self, after: int, limit: int) -> list[Notice]:
            return [n for n in self.notices if n.id > after][:limit]

        def watch(self, heard: Any) -> Any:
            self.heard = heard

            def stop() -> None:
                self.stopped = True

            return stop

    async def run(fn: Any, *args: Any) -> Any:
        return fn(*args)

    async def scenario() -> None:
        log = Log()
        hub = Hub(log, run, interval=60.0, min_gap=0.0)  # type: ignore[arg-type]
        await hub.start()
        assert hub.watching
        try:
            hub.note("ev-x", 3, asked=hub.read_mark())  # a page's own read of the store
            assert hub.known_version("ev-x") == 3
            log.notices.append(Notice(id=1, game_id="ev-x", version=4, topic="t"))
            announced = threading.Thread(target=log.heard)  # as the watching thread calls it
            announced.start()
            announced.join()
            assert hub.known_version("ev-x") is None  # heard, not read: ask the store
            deadline = asyncio.get_running_loop().time() + 10
            while (known := hub.known_version("ev-x")) is None:
                assert asyncio.get_running_loop().time() < deadline, "never read past it"
                await asyncio.sleep(0.005)
            assert known == 4
        finally:
            await hub.stop()
        assert log.stopped

    asyncio.run(scenario())


def test_a_write_by_another_process_reaches_the_shared_pages(
    client: TestClient[Litestar], store: str, tokens: Tokens, event: str
) -> None:
    import time

    url = f"/api/events/{event}/standings"
    first = client.get(url, headers=auth(tokens["public"]))
    with open_service(store) as svc:  # the command line, say: the server is not told
        svc.event_result(event, ["1=2-0-0"])
    deadline = time.monotonic() + 10
    while True:
        now = client.get(url, headers=auth(tokens["public"]))
        if now.headers["etag"] != first.headers["etag"] or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert now.headers["etag"] != first.headers["etag"]
    assert max(row["points"] for row in now.json()) == 3


def test_made_up_query_parameters_share_one_entry_and_the_cache_keeps_to_its_budget(
    client: TestClient[Litestar], tokens: Tokens, event: str
) -> None:
    import asyncio

    for n in range(5):
        answer = client.get(f"/events/{event}/pairings?junk={n}", headers=auth(tokens["ann"]))
        assert answer.status_code == 200
    kept = [k for k in cache(client)._values if k[0] == event and str(k[3]).endswith("/pairings")]
    assert len(kept) == 1

    small = EventCache(budget=5_000)

    async def fill() -> None:
        for n in range(10):
            key = ("ev-x", 1, "public", f"/p{n}", ())

            async def make(n: int = n) -> Rendered:
                return Rendered(f"{n}" * 2_000, "text/html", f"v1-{n}")

            await small.get(key, make)

    asyncio.run(fill())
    assert 0 < small.held <= 5_000
    assert ("ev-x", 1, "public", "/p9", ()) in small._values  # the newest kept
    assert ("ev-x", 1, "public", "/p0", ()) not in small._values  # the oldest dropped


def test_a_player_page_put_together_from_pieces_is_the_page_rendered_whole(
    client: TestClient[Litestar],
    store: str,
    tokens: Tokens,
    monkeypatch: pytest.MonkeyPatch,
    event: str,
) -> None:
    """The frame of a version, the name in the title and the live region, each kept under
    what it shows, join to the very bytes of the page rendered at once (plain and gzip);
    after one result only the pages that show something new are rendered again, and only
    the explanations that read that result are worked out again."""
    from referee.tournament import standings
    from service.postings import PlayerIndex
    from web.eventpages import viewer_top
    from web.export import render
    from web.formkeys import key_field

    def keyless(page: bytes) -> bytes:
        return re.sub(rb'name="idem" value="[^"]*"', b'name="idem" value=""', page)

    head = auth(tokens["head"])
    slips = [f"{t}={['2-0-0', '2-1-0', '0-2-0', '1-1-1'][t % 4]}" for t in range(1, 9)]
    assert client.post(f"/api/events/{event}/results", json={"slips": slips}, headers=head)
    assert client.post(f"/api/events/{event}/rounds", json={}, headers=head).status_code == 201
    web = client.app.state["web"]
    svc = open_service(store)
    shared = cache(client)
    explained: list[str] = []
    real_explain = standings.explain

    def counted(player: str, *args: Any, **kwargs: Any) -> str:
        explained.append(player)
        return real_explain(player, *args, **kwargs)

    monkeypatch.setattr(standings, "explain", counted)
    names = [f"Player {n:02}" for n in range(16)]

    def whole() -> dict[str, bytes]:
        board, state = svc.event_board(event)
        index = PlayerIndex(board, state)
        who = web.tokens.identify(tokens["ann"])
        return {
            name: render(
                "event_player.html",
                b=board,
                page="player",
                me=index.line(name),
                explained=index.explain(name),
                top_slot=SLOT,
                forms=False,  # Ann reads others' pages: no hall forms (they act on her table)
                **key_field(),
            )
            .replace(SLOT, viewer_top(who))
            .encode()
            for name in names
        }

    def regions() -> int:
        return sum(1 for k in shared._pieces if k[0] == "region")

    try:
        pages: list[dict[str, bytes]] = []
        made: list[int] = []
        for step in range(2):
            if step:
                report(client, event, tokens["head"])
            before, explained[:] = regions(), []
            for name in names:
                url = f"/events/{event}/players/{name.replace(' ', '%20')}"
                plain = client.get(url, headers=auth(tokens["ann"], **{"Accept-Encoding": "x"}))
                packed = client.get(url, headers=auth(tokens["ann"], **{"Accept-Encoding": "gzip"}))
                assert plain.status_code == packed.status_code == 200
                assert packed.headers["content-encoding"] == "gzip"
                assert packed.content == plain.content  # httpx checked the CRC and size
            made.append(regions() - before)
            computed = list(explained)
            pages.append(whole())
            for name in names:
                url = f"/events/{event}/players/{name.replace(' ', '%20')}"
                got = client.get(url, headers=auth(tokens["ann"], **{"Accept-Encoding": "x"}))
                # the same bytes but for the forms' keys (web.formkeys: one per version)
                assert keyless(got.content) == keyless(pages[-1][name])
        # a region is the part of the page after the version's frame: one is rendered per
        # player whose page shows something new, and an explanation per player who met
        # table 1's two players (in round 1 or now)
        # (the rank apart: a piece of its own, shared by every player of that rank)
        region = re.compile(rb'<div id="live-region">.*</div>\n</div>', re.S)

        def shown(page: bytes) -> list[bytes]:
            return [re.sub(rb"rank \d+", b"rank", r) for r in region.findall(keyless(page))]

        new = [n for n in names if shown(pages[0][n]) != shown(pages[1][n])]
        moved = [
            n
            for n in names
            if region.findall(keyless(pages[0][n])) != region.findall(keyless(pages[1][n]))
        ]
        assert made[0] == 16
        assert made[1] == len(new)
        assert 2 <= len(new) < len(moved)
        _board, state = svc.event_board(event)
        table_one = next(p for p in state.rounds[2].pairings if p.table == 1).players
        met = {
            q
            for p in state.rounds[1].pairings
            if set(p.players) & set(table_one)
            for q in p.players
        }
        assert sorted(computed) == sorted(set(table_one) | met)
    finally:
        svc.close()


def test_the_player_pages_read_before_a_change_are_made_for_it_before_they_are_asked(
    live_server: ThreadServer, store: str, tokens: Tokens
) -> None:
    """When a change is announced, the player pages read at the version before are made for
    the new one (under the same viewer kind), so the pages' re-reads find them made: the
    fast path answers them, with the bytes the handler itself answers. A page nobody read is
    not made."""
    from web.fastpath import FastPath

    base = live_server.base
    web = live_server.app.state["web"]
    shared = cache_of(web)
    door = live_server.app.asgi_handler
    assert isinstance(door, FastPath)
    with httpx.Client(base_url=base) as http:
        event = make_event(http, tokens["head"])
        read = {("player", n) for n in range(3)} | {("public", 3)}
        for kind, n in sorted(read):
            token = tokens["ann" if kind == "player" else "public"]
            got = http.get(f"/events/{event}/players/Player%20{n:02}", headers=auth(token))
            assert got.status_code == 200
    follower, seen, ready = follow_live(f"{base}/events/{event}/live", auth(tokens["public"]))
    assert ready.wait(20)
    before = shared.newest(event)
    with httpx.Client(base_url=base) as http:
        report(http, event, tokens["head"])
    follower.join(20)
    assert len(seen) == 2
    deadline = time.monotonic() + 10

    def made() -> set[tuple[str, int]]:
        return {
            (k[2], int(k[3][-2:]))
            for k in list(shared._values)
            if k[0] == event and k[1] > before and len(k) > 3 and "/players/" in str(k[3])
        }

    while made() != read and time.monotonic() < deadline:
        time.sleep(0.02)
    assert made() == read  # each read page, for its own viewer kind; no other
    with httpx.Client(base_url=base) as http:
        for kind, n in sorted(read):
            url = f"/events/{event}/players/Player%20{n:02}"
            token = tokens["ann" if kind == "player" else "public"]
            # made already: the fast path sends it (asked again while the hub's reading is
            # older than two intervals, as a loaded machine can make it)
            until = time.monotonic() + 10
            while True:
                served = door.served
                prepared = http.get(url, headers=auth(token, **{"Accept-Encoding": "gzip"}))
                if door.served == served + 1 or time.monotonic() > until:
                    break
                time.sleep(0.02)
            assert door.served == served + 1
            for key in [k for k in shared._values if len(k) > 3 and k[2] == kind]:
                if str(key[3]).endswith(f"Player {n:02}"):
                    shared._drop(key)  # the handler makes it again, by itself
            door.enabled = False
            try:
                again = http.get(url, headers=auth(token, **{"Accept-Encoding": "gzip"}))
            finally:
                door.enabled = True
            assert again.status_code == prepared.status_code == 200
            assert again.content == prepared.content
            assert again.headers["etag"] == prepared.headers["etag"]


def test_the_newest_checkpoint_is_read_once_for_every_reader_and_ahead_of_its_second() -> None:
    """Readers arriving together when the kept checkpoint is a second old share one read of
    the store; past half a second a read starts ahead, and the readers meanwhile get the kept
    one at once."""
    import asyncio

    from web import eventpages

    class FakeWeb:
        def __init__(self) -> None:
            self.reads = 0
            self.svc = self

        def newest_checkpoint(self) -> str:
            self.reads += 1
            return f"seal {self.reads}"

        async def run(self, fn: Any) -> Any:
            await asyncio.sleep(0.05)  # a round trip, during which more readers arrive
            return fn()

    async def main() -> None:
        web: Any = FakeWeb()
        try:
            texts = await asyncio.gather(*(eventpages._newest_checkpoint(web) for _ in range(50)))
            assert texts == ["seal 1"] * 50
            assert web.reads == 1
            kept = eventpages._SEALS[id(web)]
            eventpages._SEALS[id(web)] = (kept[0] - 0.6, kept[1])  # past half its second
            assert eventpages.fresh_checkpoint(web) == "seal 1"  # kept, and a read starts
            assert eventpages.fresh_checkpoint(web) == "seal 1"  # (one only)
            await asyncio.sleep(0.1)
            assert web.reads == 2
            assert eventpages.fresh_checkpoint(web) == "seal 2"
            eventpages._SEALS[id(web)] = (kept[0] - 5, "old")
            assert eventpages.fresh_checkpoint(web) is None  # too old to answer with
            assert await eventpages._newest_checkpoint(web) == "seal 3"
        finally:
            eventpages._SEALS.pop(id(web), None)

    asyncio.run(main())

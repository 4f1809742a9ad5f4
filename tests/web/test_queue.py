"""The referees' queue (``service.room``): one query for ``referee queue``, ``GET
/api/queue`` and the page ``/queue``; a table referee sees only their tables; the page
follows the store live (a new dispute at another table is pushed to the open page)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient
from typer.testing import CliRunner

from cli.main import app as cli_app
from events.store import GameStore
from service.app import RefereeService, open_service
from service.room import RoomQueue
from tests.web import test_pages
from tests.web.conftest import (
    LIVE_WAIT,
    ThreadServer,
    Tokens,
    auth,
    event_of_five,
    table_token,
)
from tests.web.test_pages import CHROMIUM, signed_in
from tests.web.test_toolkit import tribute


@pytest.fixture
def room(store: str) -> dict[str, str]:
    """A ruling awaited at table 1 with a dispute, and a quiet game at table 2 with two
    penalties for the same infraction (the second a repeat)."""
    svc = open_service(Path(store))
    try:
        one = tribute(svc, table="1")
        svc.dispute(one, 5, by="Ben", claim="I drew one")
        two = tribute(svc, table="2", ruling=False)
        for _ in range(2):
            svc.penalty(two, "p2", "warning", "slow play")
        return {"1": one, "2": two}
    finally:
        svc.close()


def test_the_queue_lists_each_kind_oldest_first_with_its_table(
    store: str, room: dict[str, str]
) -> None:
    svc = open_service(Path(store))
    try:
        later = datetime.now(UTC) + timedelta(minutes=70)
        view = svc.queue(now=later)
        assert [(i.table, i.dispute) for i in view.disputes] == [("1", 1)]
        assert view.disputes[0].link == f"/games/{room['1']}"
        assert 69 <= view.disputes[0].age_minutes <= 71
        assert [i.table for i in view.rulings] == ["1"]
        assert "Joker" in view.rulings[0].line
        assert [(i.table, i.upgrade) for i in view.penalties] == [("2", False), ("2", True)]
        assert "EV-8.4" in view.penalties[1].line  # the repeat the IPG upgrades
        assert sorted(i.table for i in view.idle) == ["1", "2"]  # 10 minutes
        assert sorted(i.table for i in view.overtime) == ["1", "2"]  # 50 minutes
        assert svc.queue().idle == []
        assert svc.queue().overtime == []
        only_two = svc.queue(tables=["2"], now=later)
        assert only_two.disputes == []
        assert only_two.rulings == []
        assert len(only_two.penalties) == 2
        # answered, a dispute and a ruling leave the queue
        svc.rule(room["1"], 1, decision="uphold", clause="REF-4.2", reason="seen", by="Rita")
        svc.adjust(room["1"], "", card="Joker", reason="nothing", by="Rita")
        after = svc.queue(now=later)
        assert after.disputes == []
        assert after.rulings == []
        svc.appeal(room["1"], 1, by="Ben", grounds="video")
        assert [i.dispute for i in svc.queue().appeals] == [1]
    finally:
        svc.close()


def _reads_of(store_: GameStore) -> list[int]:
    """The notification ids ``store_`` reads from its log from now on, as it reads them."""
    read: list[int] = []
    original = store_.log_page

    def counted(after: int, limit: int) -> Any:
        page = original(after, limit)
        read.extend(n for n, *_ in page.events)
        return page

    store_.log_page = counted  # type: ignore[method-assign]
    return read


def test_the_queue_reads_only_what_is_new(store: str, room: dict[str, str]) -> None:
    """Each call reads only the log after the last it read (no game replayed), and looks
    only at the games with something waiting."""
    store_ = GameStore(Path(store))
    queue = RoomQueue(store_)
    queue.items()
    read = _reads_of(store_)
    queue.items()
    assert read == []
    svc = RefereeService(store_)
    svc.dispute(room["2"], 5, by="Ann", claim="late")
    assert len(queue.items().disputes) == 2
    assert len(read) == 1
    svc.end(room["2"], "agreement")
    svc.rule(room["2"], 1, decision="uphold", clause="REF-4.2", reason="seen", by="Rita")
    queue.items()
    assert room["2"] not in queue._watched  # finished, its dispute ruled: nothing waits


def test_api_queue_head_sees_every_table_and_a_table_referee_their_own(
    client: TestClient[Litestar], tokens: Tokens, room: dict[str, str]
) -> None:
    head = client.get("/api/queue", headers=auth(tokens["head"]))
    assert head.status_code == 200
    assert {i["table"] for i in head.json()["penalties"]} == {"2"}
    assert [i["table"] for i in head.json()["disputes"]] == ["1"]
    tia = client.get("/api/queue", headers=auth(tokens["table2"])).json()
    assert tia["disputes"] == []
    assert tia["rulings"] == []
    assert len(tia["penalties"]) == 2
    assert tia["tables"] == ["2"]
    for role in ("ann", "public"):
        assert client.get("/api/queue", headers=auth(tokens[role])).status_code == 403
    sam = client.get("/api/queue", headers=auth(tokens["scorekeeper"])).json()
    assert sam["results_only"]
    assert sam["needs"] == []
    assert sam["info"] == []
    assert sam["disputes"] == []
    assert sam["penalties"] == []
    page = client.get("/queue", headers=auth(tokens["table1"]))
    assert page.status_code == 200
    assert f'href="/games/{room["1"]}"' in page.text
    assert f'href="/games/{room["2"]}"' not in page.text
    assert 'id="queue-link"' in page.text
    assert 'id="queue-link"' not in client.get("/", headers=auth(tokens["ann"])).text


def test_referee_queue_prints_the_same(store: str, room: dict[str, str]) -> None:
    runner = CliRunner()
    out = runner.invoke(cli_app, ["--db", store, "queue"])
    assert out.exit_code == 0, out.stderr
    assert "Needs me now (2):" in out.stdout
    assert "table 1" in out.stdout
    assert "For information (4):" in out.stdout  # two penalties, two tables playing
    assert "INVESTIGATE table 2 · Ann vs Ben vs Cy" in out.stdout  # the repeat's upgrade
    data = json.loads(runner.invoke(cli_app, ["--db", store, "queue", "--json"]).stdout)
    assert data["disputes"][0]["dispute"] == 1
    assert data["disputes"][0]["link"].startswith("/games/")
    only = json.loads(
        runner.invoke(cli_app, ["--db", store, "queue", "--table", "2", "--json"]).stdout
    )
    assert only["disputes"] == []
    bad = runner.invoke(cli_app, ["--db", store, "queue", "--idle", "0"])
    assert bad.exit_code == 2
    assert "1 to 1440" in bad.stderr


browser = test_pages.browser


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM}")
def test_a_new_dispute_at_another_table_is_pushed_to_the_open_queue(
    browser: Any, room: dict[str, str], tokens: Tokens, request: pytest.FixtureRequest
) -> None:
    """The open queue page shows a dispute opened meanwhile at another table without being
    read again by hand: the server's hub never reads the log on its own during the test
    (``PUSH_ONLY``), so only the write's push can bring it, however long a loaded machine
    takes (no time is asserted); the page is the same document throughout."""
    server: ThreadServer = request.getfixturevalue("pushed_server")
    page = signed_in(browser, server.base, tokens["head"])
    page.click("#queue-link")
    page.wait_for_selector("#q-needs")
    page.wait_for_function("document.getElementById('live').classList.contains('on')")
    disputes = '#q-needs li[data-kind="dispute"]'
    assert page.locator(disputes).count() == 1
    page.evaluate("window.stillHere = true")  # gone if the page were loaded again
    opened = httpx.post(
        f"{server.base}/api/games/{room['2']}/disputes",
        json={"event": 5, "by": "Ann", "claim": "a card was seen"},
        headers=auth(tokens["table2"]),
    )
    assert opened.status_code == 201, opened.text
    page.wait_for_function(
        f"document.querySelectorAll('{disputes}').length === 2", timeout=LIVE_WAIT * 1000
    )
    assert page.evaluate("window.stillHere === true")  # pushed, not loaded again
    item = page.locator(f'{disputes}[data-game="{room["2"]}"]')
    assert "table 2" in item.inner_text()
    item.locator("a").click()
    page.wait_for_url(f"{server.base}/games/{room['2']}")
    assert "dispute 1" in page.inner_text("#tool-disputes")
    assert not page.errors
    page.context.close()


@pytest.fixture
def event(store: str) -> str:
    return event_of_five(store, "Queue Open")


def test_unreported_lists_the_current_rounds_tables_without_a_result(
    store: str, event: str
) -> None:
    """Q-4: each table of the running round without a result, aged from the pairing,
    linked to the table's slip on the slips page; a result takes it off, the next round's tables
    come on, a table referee sees only their tables."""
    with open_service(Path(store)) as svc:
        later = datetime.now(UTC) + timedelta(minutes=30)
        view = svc.queue(now=later)
        assert [(i.table, i.players) for i in view.unreported] == [
            ("1", {"1": "Ann", "2": "Ben"}),
            ("2", {"1": "Cal", "2": "Dee"}),
        ]  # the bye never waits
        first = view.unreported[0]
        assert first.link == f"/events/{event}/slips#slip-1"
        assert (first.tournament, first.round, first.kind) == (event, 1, "unreported")
        assert 29 <= first.age_minutes <= 31
        pairings = svc.event_pairings(event)
        assert first.game_id == pairings[0].games[-1]
        assert "Queue Open round 1" in first.line
        assert "Ann vs Ben" in first.line
        assert [i.table for i in svc.queue(tables=["2"]).unreported] == ["2"]
        svc.event_result(event, ["1=2-0-0"])
        assert [i.table for i in svc.queue().unreported] == ["2"]
        svc.event_result(event, ["2=1-2-0"])
        assert svc.queue().unreported == []
        svc.event_pair(event)
        assert len(svc.queue().unreported) == 2
        assert svc.queue().unreported[0].round == 2
    # a new process folds the same from the log
    assert [i.round for i in RoomQueue(GameStore(Path(store))).items().unreported] == [2, 2]


def test_unreported_through_the_cli_and_the_api(
    store: str, event: str, client: TestClient[Litestar], tokens: Tokens
) -> None:
    runner = CliRunner()
    out = runner.invoke(cli_app, ["--db", store, "queue"])
    assert out.exit_code == 0, out.stderr
    assert "For information (2):" in out.stdout
    assert "Needs me now" not in out.stdout
    assert f"table 1 · Ann vs Ben · {event} round 1 ·" in out.stdout
    assert "Ann vs Ben has no result" in out.stdout
    data = json.loads(runner.invoke(cli_app, ["--db", store, "queue", "--json"]).stdout)
    assert [(i["table"], i["round"]) for i in data["unreported"]] == [("1", 1), ("2", 1)]
    assert data["unreported"][0]["link"] == f"/events/{event}/slips#slip-1"
    head = client.get("/api/queue", headers=auth(tokens["head"])).json()
    assert [i["table"] for i in head["unreported"]] == ["1", "2"]
    unscoped = client.get("/api/queue", headers=auth(tokens["table2"])).json()
    assert unscoped["unreported"] == []  # a table 2 of no event is not this event's (issue 31)
    tia = client.get("/api/queue", headers=auth(table_token(store, event, "2", name="Tia")))
    assert [i["players"] for i in tia.json()["unreported"]] == [{"1": "Cal", "2": "Dee"}]
    page = client.get("/queue", headers=auth(tokens["head"]))
    assert f'href="/events/{event}/slips#slip-1"' in page.text
    assert f"{event} round 1" in page.text
    with open_service(Path(store)) as svc:
        svc.event_result(event, ["1=2-0-0", "2=0-2-0"])
    after = client.get("/api/queue", headers=auth(tokens["head"])).json()
    assert after["unreported"] == []  # the server's fold is live


def _signature(view: Any) -> Any:
    """Everything a queue shows, without the read's own clock and position."""
    data = msgspec.to_builtins(view)
    return {k: v for k, v in data.items() if k not in ("changed", "now")}


def test_a_new_process_starts_from_the_persisted_fold(
    store: str, room: dict[str, str], event: str
) -> None:
    """The fold's snapshot is saved beside the read models: a later process reads only
    what the log gained since and shows exactly what a fold from the log's beginning
    shows (disputes, rulings, penalties and upgrades, events' unreported tables)."""
    later = datetime.now(UTC) + timedelta(minutes=70)
    first = RoomQueue(GameStore(Path(store)))
    first.items(now=later)  # the first fold in a process saves the snapshot
    first.close()
    svc = open_service(Path(store))
    try:
        svc.dispute(room["2"], 5, by="Ann", claim="late")
        svc.event_result(event, ["1=2-0-0"])
        store_ = GameStore(Path(store))
        read = _reads_of(store_)
        restored = RoomQueue(store_).items(now=later)
        # the dispute, the slip, and the slip's open game closed as void (EV-3.9): the
        # event's fact and the game's end; nothing older
        assert len(read) == 4
        scratch = RoomQueue(GameStore(Path(store)), persist=False).items(now=later)
        assert _signature(restored) == _signature(scratch)
        assert len(restored.disputes) == 2
        assert [i.table for i in restored.unreported] == ["2"]
        assert [i.upgrade for i in restored.penalties] == [False, True]
    finally:
        svc.close()


def test_a_snapshot_the_log_does_not_cover_is_ignored(store: str, room: dict[str, str]) -> None:
    """A snapshot of another shape, unreadable, or ahead of the log (a store restored
    from an older backup) is only a cache: the fold starts from the log's beginning."""
    import sqlite3

    from projections.projector import projection_path

    RoomQueue(GameStore(Path(store))).items()
    db = sqlite3.connect(projection_path(store))
    for change in (
        "UPDATE queue_fold SET position = position + 1000",
        "UPDATE queue_fold SET position = 1, state = x'00ff'",
        "UPDATE queue_fold SET position = 1, schema_version = 999",
    ):
        db.execute(change)
        db.commit()
        with open_service(Path(store)) as svc:  # a change the snapshot does not hold
            svc.dispute(room["2"], 5, by="Ann", claim=change)
        scratch = _signature(RoomQueue(GameStore(Path(store)), persist=False).items())
        assert change in scratch["disputes"][-1]["line"]
        assert _signature(RoomQueue(GameStore(Path(store))).items()) == scratch, change
    db.close()


def test_the_snapshot_is_kept_beside_the_events_on_postgresql(pg_env: dict[str, str]) -> None:
    """On PostgreSQL the snapshot is ``referee_queue_fold`` in the store's schema."""
    svc = RefereeService(GameStore(env=pg_env))
    try:
        gid = tribute(svc, table="1")
        svc.dispute(gid, 5, by="Ben", claim="I drew one")
        assert len(svc.queue().disputes) == 1
        store_ = GameStore(env=pg_env)
        read = _reads_of(store_)
        again = RoomQueue(store_)
        assert [i.dispute for i in again.items().disputes] == [1]
        assert read == []
        again.close()
        store_.close()
    finally:
        svc.close()

"""Running the hall: the round clock (EV-9) through the service, the CLI, the API and the
pages, and the queue's triage (Q-5, Q-6). Times are given as ``now`` where a figure is
asserted; no test waits for the clock to move."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from typer.testing import CliRunner

from cli.main import app as cli_app
from referee.contract import Player
from service.app import open_service
from tests.web import test_pages
from tests.web.conftest import ThreadServer, Tokens, auth, event_of_five, table_token
from tests.web.test_pages import CHROMIUM, signed_in


@pytest.fixture
def event(store: str) -> str:
    return event_of_five(store, "Hall Open")


# -- the service -------------------------------------------------------------------------------


def test_the_clock_is_facts_in_the_events_stream(store: str, event: str) -> None:
    """EV-9.2, EV-9.4: marks and extensions are events; the log, the audit and the export
    show them; EV-9.3: the figures follow from the recorded times and ``now``."""
    with open_service(Path(store)) as svc:
        started = svc.event_clock(event, "start", by="Hera")
        assert started.state == "running"
        assert started.minutes == 50
        svc.event_extend(event, 1, 5, reason="deck check", by="Tom")
        paused = svc.event_clock(event, "pause", by="Hera")
        assert paused.state == "paused"
        assert not paused.running
        later = paused.now + timedelta(hours=3)
        view = svc.event_clock_view(event, now=later)
        assert view.remaining_seconds == paused.remaining_seconds  # a pause does not count
        one, two = view.tables
        assert one.extension_minutes == 5
        assert one.remaining_seconds - two.remaining_seconds == 300
        assert [(e.table, e.minutes, e.reason) for e in view.extensions] == [(1, 5, "deck check")]
        kinds = [line.kind for line in svc.event_log(event)]
        assert kinds[-3:] == ["clock-marked", "time-extended", "clock-marked"]
        assert "5 extra minutes (deck check)" in svc.event_log(event)[-2].text
        audit = svc.event_audit(event)["entries"]
        assert {"what": "time extension", "table": 1, "minutes": 5, "by": "Tom"}.items() <= (
            audit[-1].items()
        )
        assert any("time-extended" in line for line in svc.event_export(event))
        svc.event_round_length(event, 30, reason="late start")
        assert svc.event_clock_view(event).minutes == 30  # EV-9.1: the round in progress too


def test_a_game_outside_an_event_runs_on_its_own_limit(store: str) -> None:
    """EV-9.5: a table's game without an event is timed from its start by its limit."""
    with open_service(Path(store)) as svc:
        game = svc.create_game(
            "prizmik",
            [Player("red", "Ann"), Player("blue", "Ben")],
            meta={"table": "7", "time_limit": "20", "referee": "Tom"},
        )
        created = game.created.timestamp
        clock = svc.game_clock(game.created.meta, created, now=created + timedelta(minutes=5))
        assert clock is not None
        assert clock.remaining == "15:00"
        assert clock.running
        over = svc.game_clock(game.created.meta, created, now=created + timedelta(minutes=21))
        assert over is not None
        assert over.over_time
        assert over.remaining == "-1:00"
        assert svc.game_clock({}, created) is None  # no table, no limit: no clock
        playing = svc.queue(now=created + timedelta(minutes=5))
        (item,) = [i for i in playing.info if i.kind == "playing"]
        assert (item.table, item.referee, item.remaining) == ("7", "Tom", "15:00")
        assert item.players == {"red": "Ann", "blue": "Ben"}
        assert item.last.startswith("created prizmik")
        assert playing.count == 0
        late = svc.queue(now=created + timedelta(minutes=21))
        assert [(i.kind, i.table) for i in late.needs] == [("overtime", "7")]
        assert late.count == 1


def test_the_queue_times_event_tables_by_the_round_clock(store: str, event: str) -> None:
    """Q-6, EV-9.5: over time by the round clock with the table's extension (not by the
    game's age); Q-5: needs-action first by urgency, the count of what needs action."""
    with open_service(Path(store)) as svc:
        assert svc.queue(now=datetime.now(UTC) + timedelta(hours=2)).overtime == []  # no clock
        start = svc.event_clock(event, "start").now
        svc.event_extend(event, 2, 10, reason="judge call")
        at = start + timedelta(minutes=55)
        view = svc.queue(now=at)
        assert [(i.kind, i.table) for i in view.needs] == [("overtime", "1")]
        assert view.needs[0].remaining is not None
        assert view.needs[0].remaining.startswith("-5:")
        assert view.count == 1
        # table 1 is one item, over time and saying it has no result; table 2 has
        # no result yet and is not over time
        assert "no result yet" in view.needs[0].line
        assert [(i.kind, i.table) for i in view.info if i.kind != "idle"] == [("unreported", "2")]
        game_two = svc.event_pairings(event)[1].games[-1]
        warned = svc.penalty(game_two, "Dee", "warning", "slow play").events[0]
        svc.dispute(game_two, warned, by="Dee", claim="I was not slow")
        later = svc.queue(now=start + timedelta(minutes=61))
        assert [(i.kind, i.table) for i in later.needs] == [
            ("dispute", "2"),
            ("overtime", "1"),
            ("overtime", "2"),
        ]
        assert later.count == 3
        assert all(i.needs_action for i in later.needs)
        svc.event_clock(event, "end")
        due = svc.queue(now=start + timedelta(minutes=70))
        assert [(i.kind, i.table) for i in due.needs if i.kind != "dispute"] == [
            ("unreported", "1"),
            ("unreported", "2"),
        ]  # time is called: the results are due, not over time
        assert "time is called" in due.needs[1].line


def test_penalties_are_for_information_and_a_dq_is_marked(store: str) -> None:
    """Q-5: penalties inform; an upgrade and a disqualification say to investigate."""
    with open_service(Path(store)) as svc:
        game = svc.create_game(
            "prizmik", [Player("red", "Ann"), Player("blue", "Ben")], meta={"table": "3"}
        ).game_id
        svc.penalty(game, "red", "warning", "slow play", reason="took 3 minutes")
        svc.penalty(game, "blue", "disqualification", "cheating", reason="marked cards")
        view = svc.queue()
        penalties = [i for i in view.info if i.kind == "penalty"]
        assert [(i.investigate, "took 3 minutes" in i.line) for i in penalties] == [
            (False, True),
            (True, False),
        ]
        assert "investigate" in penalties[1].line
        assert view.count == 0


# -- the command line --------------------------------------------------------------------------


def test_referee_event_clock_and_extend(store: str, event: str) -> None:
    runner = CliRunner()

    def run(*args: str) -> Any:
        return runner.invoke(cli_app, ["--db", store, "--referee", "Hera", *args])

    shown = run("event", "clock", event, "show")
    assert shown.exit_code == 0
    assert "50:00 left of 50 min (waiting)" in shown.stdout
    refused = run("event", "clock", event, "pause")
    assert refused.exit_code == 2
    assert "EV-9.2" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert run("event", "clock", event, "start").exit_code == 0
    out = run("event", "extend", event, "2", "4", "--reason", "ruling")
    assert out.exit_code == 0
    assert "table 2 +4 min (ruling)" in out.stdout
    bad = run("event", "extend", event, "2", "99", "--reason", "ruling")
    assert bad.exit_code == 2
    assert "EV-9.4" in bad.stderr
    data = json.loads(run("event", "clock", event, "show", "--json").stdout)
    assert data["state"] == "running"
    assert data["tables"][1]["extension_minutes"] == 4
    assert run("event", "clock", event, "stop").exit_code == 2
    length = run("event", "length", event, "40")
    assert length.exit_code == 0
    assert "of 40 min" in length.stdout
    made = run(
        "new", "prizmik", "-p", "red=A", "-p", "blue=B", "--table", "9", "--time-limit", "25"
    )
    assert made.exit_code == 0, made.stderr
    with open_service(Path(store)) as svc:
        assert svc.load(made.stdout.strip()).created.meta["time_limit"] == "25"
    assert run("new", "prizmik", "-p", "red=A", "-p", "blue=B", "--time-limit", "0").exit_code == 2


# -- the API -----------------------------------------------------------------------------------


def test_the_clock_over_http(
    client: TestClient[Litestar], tokens: Tokens, event: str, store: str
) -> None:
    """The head marks the clock; a table referee extends their own table of their own event
    only (issue 31: another event's table 1 is not theirs); anyone who reads the event reads
    the clock, the extensions' reasons the staff only (EV-10.7); refusals cite EV-9 and
    store nothing."""
    url = f"/api/events/{event}/clock"
    assert (
        client.post(url, json={"action": "start"}, headers=auth(tokens["table1"])).status_code
        == 403
    )
    started = client.post(url, json={"action": "start"}, headers=auth(tokens["head"]))
    assert started.status_code == 201
    assert started.json()["state"] == "running"
    again = client.post(url, json={"action": "start"}, headers=auth(tokens["head"]))
    assert again.status_code == 400
    assert "EV-9.2" in again.text
    ext = f"/api/events/{event}/tables/1/extensions"
    body = {"minutes": 3, "reason": "deck check"}
    tom = table_token(store, event, "1", name="Tom")
    elsewhere = table_token(store, "ev-otherday", "1", name="Uma")
    assert client.post(ext, json=body, headers=auth(elsewhere)).status_code == 403
    assert client.post(ext, json=body, headers=auth(tokens["table1"])).status_code == 403
    assert client.post(ext, json=body, headers=auth(tom)).status_code == 201
    other = f"/api/events/{event}/tables/2/extensions"
    assert client.post(other, json=body, headers=auth(tom)).status_code == 403
    assert client.post(ext, json=body, headers=auth(tokens["scorekeeper"])).status_code == 403
    bad = client.post(ext, json={"minutes": 0, "reason": "x"}, headers=auth(tokens["head"]))
    assert bad.status_code == 400
    assert "EV-9.4" in bad.text
    read = client.get(url, headers=auth(tokens["ann"]))
    assert read.status_code == 200
    assert read.json()["tables"][0]["extension_minutes"] == 3
    # EV-10.7: why a table has extra time is the staff's; the minutes are everyone's
    assert read.json()["extensions"] == [{"table": 1, "minutes": 3, "reason": ""}]
    for staff in (tokens["head"], tokens["scorekeeper"], tom):
        given = client.get(url, headers=auth(staff)).json()["extensions"]
        assert given == [{"table": 1, "minutes": 3, "reason": "deck check"}]
    assert client.get(url, headers=auth(elsewhere)).json()["extensions"][0]["reason"] == ""
    length = client.post(
        url, json={"action": "length", "minutes": 45}, headers=auth(tokens["head"])
    )
    assert length.status_code == 201
    assert length.json()["minutes"] == 45
    paths = client.get("/schema/openapi.json").json()["paths"]
    assert {"get", "post"} <= set(paths["/api/events/{event_id}/clock"])
    assert "400" in paths["/api/events/{event_id}/tables/{table}/extensions"]["post"]["responses"]
    page = client.get(f"/events/{event}/clock", headers=auth(tokens["public"]))
    assert page.status_code == 200
    assert 'id="round-clock"' in page.text
    assert "+3 min" in page.text
    for reader in ("public", "ann", "scorekeeper"):  # the shared page: no reasons
        shared = client.get(f"/events/{event}/clock", headers=auth(tokens[reader])).text
        assert "table 1 +3" in shared
        assert "deck check)" not in shared
    controls = client.get(f"/events/{event}/clock", headers=auth(tokens["head"])).text
    assert "table 1 +3 (deck check)" in controls
    assert 'http-equiv="refresh"' in page.text


def test_a_games_time_limit_over_http_and_on_its_table_page(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """REF-10.1: the table referee of the game's table (or the head) changes its limit; the
    table page and the queue follow the latest; refusals store nothing."""
    with open_service(Path(store)) as svc:
        game = svc.create_game(
            "prizmik", [Player("red", "Ann"), Player("blue", "Ben")], meta={"table": "1"}
        ).game_id
    url = f"/api/games/{game}/time-limit"
    body = {"minutes": 20, "reason": "short round"}
    assert client.post(url, json=body, headers=auth(tokens["table2"])).status_code == 403
    assert client.post(url, json=body, headers=auth(tokens["ann"])).status_code == 403
    bad = client.post(url, json={"minutes": 0}, headers=auth(tokens["table1"]))
    assert bad.status_code in (400, 422), bad.text
    made = client.post(url, json=body, headers=auth(tokens["table1"]))
    assert made.status_code == 201, made.text
    assert made.json()["summaries"] == ["time limit set to 20 minutes (short round)"]
    page = client.get(f"/games/{game}", headers=auth(tokens["head"]))
    assert 'id="table-clock"' in page.text
    assert "time limit 20 min" in page.text
    item = client.get("/api/queue", headers=auth(tokens["head"])).json()["info"][0]
    assert item["kind"] == "playing"
    assert "of its 20 minutes left" in item["line"]
    runner = CliRunner()
    out = runner.invoke(cli_app, ["--db", store, "time-limit", game, "25", "--reason", "x"])
    assert out.exit_code == 0
    assert "time limit 25 min" in out.stdout
    assert runner.invoke(cli_app, ["--db", store, "time-limit", game, "2000"]).exit_code == 2
    same = runner.invoke(cli_app, ["--db", store, "time-limit", game, "25"])  # nothing changes
    assert same.exit_code == 2
    assert "REF-10.1" in same.output
    assert "nothing is recorded" in same.output
    assert len(same.output.strip().splitlines()) == 1  # one line
    assert "Traceback" not in same.output
    assert client.post(url, json={"minutes": 25}, headers=auth(tokens["head"])).status_code == 409
    with open_service(Path(store)) as svc:
        assert svc.load(game).time_limit == 25
        assert svc.load(game).version == 3  # created, then 20, then 25: nothing more
    with open_service(Path(store)) as svc:
        svc.end(game, "resignation", who="blue")
    ended = client.post(url, json=body, headers=auth(tokens["head"]))
    assert ended.status_code == 409
    assert "REF-10.1" in ended.text


def test_extra_time_from_the_table_page_of_an_event_game(
    client: TestClient[Litestar], tokens: Tokens, event: str, store: str
) -> None:
    """EV-9.4 at the table: the head referee and that table's referee give its table extra
    time from the game's page (the service's one extension, as the clock page and
    'referee event extend' give it); another table's referee, the scorekeeper, a player
    and the public are offered no form and refused; a game of an earlier round is refused:
    its table number names other players now."""
    with open_service(Path(store)) as svc:
        svc.event_clock(event, "start")
        pairings = svc.event_pairings(event)
    game = pairings[0].games[0]  # table 1
    page = f"/games/{game}"
    tom = table_token(store, event, "1", name="Tom")
    tia = table_token(store, event, "2", name="Tia")
    json_answer = {"Accept": "application/json"}

    def extend(token: str, minutes: str, reason: str = "deck check") -> Any:
        body = {"minutes": minutes, "reason": reason}
        return client.post(f"{page}/do/extend", data=body, headers=auth(token, **json_answer))

    for staff in (tokens["head"], tom):
        shown = client.get(page, headers=auth(staff)).text
        assert 'id="tool-extend"' in shown
        assert f'action="/games/{game}/do/extend"' in shown
    for other in (tia, tokens["scorekeeper"], tokens["ann"], tokens["public"]):
        assert 'id="tool-extend"' not in client.get(page, headers=auth(other)).text
        refused = extend(other, "5")
        assert refused.status_code == 403, refused.text
    done = extend(tom, "5")
    assert done.status_code == 201, done.text
    assert done.json() == {
        "ok": True,
        "message": "table 1: 5 more minutes (deck check); 5 in all this round",
    }
    again = extend(tokens["head"], "2", "ruling")
    assert again.json()["message"].endswith("; 7 in all this round"), again.text
    bad = extend(tokens["head"], "0")
    assert (bad.status_code, bad.json()["ok"]) == (400, False)
    assert bad.json()["message"].startswith("EV-9.4: "), bad.text
    with open_service(Path(store)) as svc:
        assert svc.event_clock_view(event).tables[0].extension_minutes == 7
        audit = svc.event_audit(event)["entries"]
        given = [
            (e["table"], e["minutes"], e["by"]) for e in audit if e["what"] == "time extension"
        ]
        assert given == [(1, 5, "Tom"), (1, 2, "Hera")], given
        svc.event_result(event, ["1=2-0-0", "2=2-0-0"])
        svc.event_pair(event)
    # round 2 is paired: the round-1 game's page no longer offers it, and a post is refused
    assert 'id="tool-extend"' not in client.get(page, headers=auth(tokens["head"])).text
    late = extend(tokens["head"], "3")
    assert late.status_code == 400, late.text
    assert late.json()["message"] == (
        f"EV-9.4: game {game} was played in round 1, not the current round"
    )


def test_the_queue_for_a_scorekeeper_and_the_live_settings(
    client: TestClient[Litestar], tokens: Tokens, event: str
) -> None:
    """The scorekeeper reads the result items only; the live view refuses bad settings
    with a problem document, as the list does."""
    sam = client.get("/api/queue", headers=auth(tokens["scorekeeper"])).json()
    assert [i["kind"] for i in sam["info"]] == ["unreported", "unreported"]
    page = client.get("/queue", headers=auth(tokens["scorekeeper"]))
    assert page.status_code == 200
    assert "Hall Open round 1" in page.text
    bad = client.get("/api/queue/events?idle=0", headers=auth(tokens["head"]))
    assert bad.status_code == 400
    assert "1 to 1440" in bad.text


# -- the pages in a browser --------------------------------------------------------------------

browser = test_pages.browser


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM}")
def test_one_remaining_time_on_the_table_player_and_clock_pages(
    browser: Any, event: str, store: str, tokens: Tokens, request: pytest.FixtureRequest
) -> None:
    """EV-9.3, EV-9.4: with an extension at table 1 and the clock paused, the table page,
    Ann's player page and the hall's clock page show the same time left for table 1, with
    JavaScript on; without it the clock page shows it too."""
    server: ThreadServer = request.getfixturevalue("live_server")
    with open_service(Path(store)) as svc:
        svc.event_clock(event, "start")
        svc.event_extend(event, 1, 5, reason="deck check")
        view = svc.event_clock(event, "pause")
        game = svc.event_pairings(event)[0].games[-1]
    expected = view.tables[0].remaining
    assert expected.startswith(("54:", "55:"))
    page = signed_in(browser, server.base, tokens["head"])
    shown: dict[str, str] = {}
    for name, path, selector in (
        ("table", f"/games/{game}", "#table-clock"),
        ("player", f"/events/{event}/players/Ann", "#my-clock"),
        ("clock", f"/events/{event}/clock", '#hall-tables li[data-table="1"]'),
    ):
        page.goto(server.base + path)
        page.wait_for_selector(f"{selector}[data-shown] .clock-time")
        page.wait_for_function(
            f"document.querySelector('{selector} .clock-time').textContent === '{expected}'"
        )  # the default wait (30 s): no bound on how fast a loaded machine paints
        shown[name] = page.inner_text(f"{selector} .clock-time")
        assert "+5 min" in page.inner_text(selector)
    assert shown == {"table": expected, "player": expected, "clock": expected}
    assert not page.errors
    page.context.close()
    phone = signed_in(
        browser, server.base, tokens["public"], viewport={"width": 375, "height": 800}
    )
    phone.goto(f"{server.base}/events/{event}/clock")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    size = phone.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#round-clock .clock-time')).fontSize)"
    )
    assert size >= 60  # readable from across a room, on a phone too
    phone.context.close()
    still = signed_in(browser, server.base, tokens["head"], java_script_enabled=False)
    still.goto(f"{server.base}/events/{event}/clock")
    assert still.inner_text('#hall-tables li[data-table="1"] .clock-time') == expected
    assert still.inner_text("#round-clock .clock-time") == view.remaining
    still.context.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM}")
def test_the_clock_page_controls_for_the_head_and_a_table_referee(
    browser: Any, event: str, store: str, tokens: Tokens, request: pytest.FixtureRequest
) -> None:
    """EV-9.2: the head referee pauses from the clock page, which then offers resume and
    end, not start; a mark made elsewhere meanwhile refuses the page's stale button, with
    its clause; EV-9.4: a table referee extends only their own table."""
    server: ThreadServer = request.getfixturevalue("live_server")
    with open_service(Path(store)) as svc:
        svc.event_clock(event, "start")
    head = signed_in(browser, server.base, tokens["head"])
    head.goto(f"{server.base}/events/{event}/clock")
    head.click("#clock-pause")
    head.wait_for_function(
        "document.querySelector('#round-clock .clock-state').textContent.trim() === 'paused'"
    )
    assert head.locator("#clock-start").count() == 0  # the marks of a paused clock only
    with open_service(Path(store)) as svc:
        svc.event_clock(event, "resume")  # another head's phone, before this page knew
    head.click("#clock-resume")
    head.wait_for_function("document.getElementById('clock-said').textContent.includes('EV-9.2')")
    head.select_option("#extend-table", "2")
    head.fill("#extend-minutes", "4")
    head.select_option("#extend-reason", "ruling")
    head.click("#extend-submit")
    head.wait_for_selector('#hall-tables li[data-table="2"]')
    assert "+4 min" in head.inner_text('#hall-tables li[data-table="2"]')
    assert not head.errors
    head.context.close()
    tom = signed_in(browser, server.base, table_token(store, event, "1", name="Tom"))
    tom.goto(f"{server.base}/events/{event}/clock")
    assert tom.locator("#clock-pause").count() == 0  # the head's alone
    # the table with its players: the referee picks the table they stand at, not a number
    assert tom.locator("#extend-table option").all_inner_texts() == ["1 · Ann v Ben"]
    tom.context.close()
    with open_service(Path(store)) as svc:
        marks = [line.text for line in svc.event_log(event) if line.kind == "clock-marked"]
        assert [m.split(" clock ")[1].split(" ")[0] for m in marks] == [
            "started",
            "paused",
            "resumed",
        ]
        assert svc.event_clock_view(event).tables[1].extension_minutes == 4


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM}")
def test_a_table_referee_gives_extra_time_from_the_table_page(
    browser: Any, event: str, store: str, request: pytest.FixtureRequest
) -> None:
    """EV-9.4 at the table: the table's referee opens 'Give extra time' on the game's page,
    gives 5 minutes for a ruling, and the page's own clock shows them at once (no reload)."""
    server: ThreadServer = request.getfixturevalue("live_server")
    with open_service(Path(store)) as svc:
        svc.event_clock(event, "start")
        game = svc.event_pairings(event)[0].games[0]  # table 1
    tom = signed_in(browser, server.base, table_token(store, event, "1", name="Tom"))
    tom.goto(f"{server.base}/games/{game}")
    tom.click("#tool-extend summary")
    tom.fill("#extend-minutes", "5")
    tom.fill("#extend-reason", "ruling")
    tom.click("#extend-submit")
    tom.wait_for_function("document.getElementById('result').textContent.includes('5 more')")
    assert tom.inner_text("#result") == "table 1: 5 more minutes (ruling); 5 in all this round"
    tom.wait_for_function(
        "document.querySelector('#table-clock .clock-ext').textContent === '+5 min'"
    )
    assert not tom.errors
    tom.context.close()
    with open_service(Path(store)) as svc:
        assert svc.event_clock_view(event).tables[0].extension_minutes == 5

"""Two ``referee serve`` processes on one PostgreSQL store: the same games, exactly one
winner per racing entry, an Idempotency-Key honoured across processes, live streams fed
by the other process's writes, and the projections on the same store."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import httpx
import pytest

from events.store import GameStore
from service.app import RefereeService
from tests.postgres import SETTINGS, fresh_schema, server_problem
from tests.web.conftest import ROOT, Server, auth
from tests.web.test_live_and_hidden import read_events


def pg_url(env: dict[str, str]) -> str:
    return (
        f"postgresql://{env['POSTGRES_USER']}@{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}/"
        f"{env['POSTGRES_DBNAME']}?schema={env['POSTGRES_SCHEMA']}"
    )


def cli_token(url: str, role: str, name: str, *tables: str) -> str:
    args = [
        sys.executable,
        "-m",
        "cli.main",
        "token",
        "create",
        "--store",
        url,
        "--role",
        role,
        "--name",
        name,
        "--json",
    ]
    for table in tables:
        args += ["--table", table]
    done = subprocess.run(
        args, cwd=str(ROOT), capture_output=True, text=True, timeout=60, check=True
    )
    token: str = json.loads(done.stdout)["token"]
    return token


class TwoServers(NamedTuple):
    """Two ``referee serve`` processes on one fresh schema: its store settings and URL."""

    env: dict[str, str]
    url: str
    a: Server
    b: Server


@pytest.fixture(scope="module")
def pg_servers() -> Iterator[TwoServers]:
    """One pair for the module's tests (each writes and reads its own game only): starting
    two servers for each test cost it two processes' imports and start-ups."""
    problem = server_problem()
    if problem is not None:
        pytest.skip(problem)
    with fresh_schema() as schema:
        env = {**SETTINGS, "POSTGRES_SCHEMA": schema}
        url = pg_url(env)
        a = Server(url)
        try:
            b = Server(url)
        except BaseException:
            a.stop()
            raise
        try:
            yield TwoServers(env, url, a, b)
        finally:
            a.stop()
            b.stop()


def test_two_processes_one_winner_per_racing_entry(pg_servers: TwoServers) -> None:
    pg_env, url, a, b = pg_servers
    head = cli_token(url, "head", "Hera")
    created = httpx.post(
        f"{a.base}/api/games",
        json={"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}},
        headers=auth(head),
    )
    assert created.status_code == 201, created.text
    game = created.json()["game_id"]
    assert (
        httpx.get(f"{b.base}/api/games/{game}", headers=auth(head)).json()["version"] == 1
    )  # the same game
    moves = ["e1>e2", "e8>e7", "e2-e4", "e7-e5", "c1>c2", "c8>c7", "g1>g2", "g8>g7"]
    for version, text in enumerate(moves, start=1):
        statuses: list[int] = []
        barrier = threading.Barrier(6)

        def race(
            base: str, text: str, version: int, barrier: threading.Barrier, statuses: list[int]
        ) -> None:
            barrier.wait()
            response = httpx.post(
                f"{base}/api/games/{game}/entries",
                json={"text": text},
                headers=auth(head, **{"If-Match": f'"{version}"'}),
                timeout=20,
            )
            statuses.append(response.status_code)

        threads = [
            threading.Thread(target=race, args=(base, text, version, barrier, statuses))
            for base in (a.base, b.base) * 3
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert statuses.count(201) == 1, statuses
        assert set(statuses) <= {201, 409, 412}, statuses
    svc = RefereeService(GameStore(env=pg_env))
    try:
        view = svc.load(game)
        assert [e.notation for e in view.standing] == moves
        assert view.version == len(moves) + 1
        assert svc.verify(game).bad == 0
    finally:
        svc.close()


def test_idempotency_key_is_honoured_across_processes(pg_servers: TwoServers) -> None:
    _, url, a, b = pg_servers
    tom = cli_token(url, "table", "Tom", "5")
    game = httpx.post(
        f"{a.base}/api/games",
        json={"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}, "meta": {"table": "5"}},
        headers=auth(tom),
    ).json()["game_id"]
    entries = f"/api/games/{game}/entries"
    key = auth(tom, **{"Idempotency-Key": "retry-me"})
    first = httpx.post(a.base + entries, json={"text": "e1>e2"}, headers=key)
    retried = httpx.post(b.base + entries, json={"text": "e1>e2"}, headers=key)
    assert first.status_code == retried.status_code == 201
    assert retried.json() == first.json()
    assert retried.headers["idempotent-replayed"] == "true"
    # the same key sent to both processes at once: stored once, both told the same
    answers: list[httpx.Response] = []
    barrier = threading.Barrier(4)

    def send(base: str) -> None:
        barrier.wait()
        answers.append(
            httpx.post(
                base + entries,
                json={"text": "e8>e7"},
                headers=auth(tom, **{"Idempotency-Key": "both-at-once"}),
                timeout=20,
            )
        )

    threads = [
        threading.Thread(target=send, args=(base,)) for base in (a.base, b.base, a.base, b.base)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status_code for r in answers] == [201] * 4, [r.text for r in answers]
    assert len({r.text for r in answers}) == 1
    log = httpx.get(f"{b.base}/api/games/{game}/log", headers=auth(tom)).json()
    assert [e["kind"] for e in log] == ["created", "action", "action"]
    assert all(e.get("recorded_by") == "Tom" for e in log[1:])


def test_live_stream_and_scoreboard_follow_the_other_process(pg_servers: TwoServers) -> None:
    _, url, a, b = pg_servers
    head = cli_token(url, "head", "Hera")
    public = cli_token(url, "public", "Screen")
    game = httpx.post(
        f"{a.base}/api/games",
        json={"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}},
        headers=auth(head),
    ).json()["game_id"]
    got: list[dict[str, Any]] = []
    reader = threading.Thread(
        target=lambda: got.extend(
            read_events(
                f"{b.base}/api/games/{game}/events", auth(public, **{"Last-Event-ID": "1"}), 1
            )
        )
    )
    reader.start()
    time.sleep(0.5)
    httpx.post(f"{a.base}/api/games/{game}/entries", json={"text": "e1>e2"}, headers=auth(head))
    reader.join(8)
    assert [int(e["id"]) for e in got] == [2]
    assert json.loads(got[0]["data"])["notation"] == "e1>e2"
    httpx.post(
        f"{a.base}/api/games/{game}/end",
        json={"how": "resignation", "who": "red"},
        headers=auth(head),
    )
    board = httpx.get(f"{b.base}/api/scoreboard", headers=auth(public)).json()
    assert {(r["player"], r["won"]) for r in board} == {("Ann", 0), ("Ben", 1)}
    listed = httpx.get(f"{b.base}/api/games?status=finished", headers=auth(public)).json()
    assert [g["game_id"] for g in listed] == [game]


def _tag_version(tag: str) -> int:
    """The event version an event page's ``ETag`` names (``"v12-..."``)."""
    return int(tag.removeprefix("W/").strip('"').split("-", 1)[0][1:])


def test_a_page_from_a_process_that_did_not_write_shows_the_write_at_once(
    pg_env: dict[str, str],
) -> None:
    """--workers: a phone told of a change by one process's stream reads its page again
    from another process. That one hears the write from the store as it commits
    (LISTEN/NOTIFY), not at its next reading of the log (a minute here), and from then on
    serves no page of the version before."""
    from service.app import open_service
    from tests.web.conftest import ThreadServer
    from web.app import ServeConfig

    url = pg_url(pg_env)
    head = cli_token(url, "head", "Hera")
    svc = open_service(url, create=True)
    event = svc.event_new("Hall", "gammasphere", rounds=3).event_id
    svc.event_register(event, ["Ann", "Ben", "Cat", "Dan"])
    server = ThreadServer(ServeConfig(store=url, poll_interval=60.0))
    try:
        assert server.app.state["web"].hub.watching
        page = f"{server.base}/events/{event}/standings"
        first = httpx.get(page, headers=auth(head))
        assert first.status_code == 200, first.text
        before = _tag_version(first.headers["etag"])
        assert _tag_version(httpx.get(page, headers=auth(head)).headers["etag"]) == before
        svc.event_pair(event)  # another process's write: nothing pokes this server
        after = svc.event_info(event).version
        assert after > before
        deadline = time.monotonic() + 10
        while (shown := _tag_version(httpx.get(page, headers=auth(head)).headers["etag"])) < after:
            assert time.monotonic() < deadline, "the write was never heard"
            time.sleep(0.02)
        assert shown == after
    finally:
        server.stop()
        svc.close()

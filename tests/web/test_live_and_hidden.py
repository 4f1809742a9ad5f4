"""Live streams (server-sent events resumed with Last-Event-ID) and hidden cards: a public
viewer never receives one, in any answer, the live stream and exports included."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web.conftest import LIVE_WAIT, Server, ThreadServer, Tokens, auth, tribute_body

Client = TestClient[Litestar]


def read_events(
    url: str,
    headers: dict[str, str],
    count: int,
    timeout: float = 5.0,
    reached: tuple[int, threading.Event] | None = None,
    opened: threading.Event | None = None,
) -> list[dict[str, Any]]:
    """The first ``count`` server-sent events of ``url`` (fails after ``timeout`` seconds);
    ``reached``: (n, an event set once n of them have come); ``opened``: set once the
    stream is open (its answer's head read)."""
    found: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    deadline = time.monotonic() + timeout
    with httpx.stream("GET", url, headers=headers, timeout=timeout) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        if opened is not None:
            opened.set()
        for line in response.iter_lines():
            if time.monotonic() > deadline:
                break
            if not line:
                if "data" in current:
                    found.append(current)
                    if reached is not None and len(found) == reached[0]:
                        reached[1].set()
                    if len(found) >= count:
                        break
                current = {}
                continue
            key, _, value = line.partition(":")
            current[key] = value.strip()
    assert len(found) >= count, f"only {len(found)} of {count} events arrived: {found}"
    return found


def record(base: str, token: str, game: str, text: str, seat: str | None = None) -> httpx.Response:
    return httpx.post(
        f"{base}/api/games/{game}/entries", json={"text": text, "seat": seat}, headers=auth(token)
    )


def test_game_stream_resumes_with_last_event_id_and_misses_nothing(
    pushed_server: ThreadServer, tokens: Tokens
) -> None:
    base, head = pushed_server.base, tokens["head"]
    game = httpx.post(
        f"{base}/api/games",
        json={"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}},
        headers=auth(head),
    ).json()["game_id"]
    for text in ("e1>e2", "e8>e7", "e2-e5"):  # the last is rejected: evidence is streamed too
        record(base, head, game, text)
    url = f"{base}/api/games/{game}/events"
    first = read_events(url + "?after=0", auth(head), 4)
    assert [int(e["id"]) for e in first] == [1, 2, 3, 4]
    assert [e["event"] for e in first] == ["created", "action", "action", "rejected"]
    assert json.loads(first[1]["data"])["notation"] == "e1>e2"
    record(base, head, game, "e2-e4")
    record(base, head, game, "e7-e5")
    resumed = read_events(url, auth(head, **{"Last-Event-ID": "4"}), 2)
    assert [int(e["id"]) for e in resumed] == [5, 6]

    # connected: an entry made meanwhile is pushed to the open stream (the server reads
    # nothing on its own, ``pushed_server``: only the write's push can bring it; how long a
    # loaded machine takes is not asserted)
    got: list[dict[str, Any]] = []
    opened = threading.Event()
    reader = threading.Thread(
        target=lambda: got.extend(
            read_events(
                url, auth(head, **{"Last-Event-ID": "6"}), 1, timeout=LIVE_WAIT, opened=opened
            )
        )
    )
    reader.start()
    assert opened.wait(LIVE_WAIT)
    assert record(base, head, game, "c1>c2").status_code == 201
    reader.join(LIVE_WAIT + 5)
    assert [int(e["id"]) for e in got] == [7]


def test_games_list_and_scoreboard_stream(live_server: ThreadServer, tokens: Tokens) -> None:
    base, head = live_server.base, tokens["head"]
    got: list[dict[str, Any]] = []
    opened, created = threading.Event(), threading.Event()
    reader = threading.Thread(
        target=lambda: got.extend(
            read_events(
                f"{base}/api/live?after=0",
                auth(head),
                3,
                LIVE_WAIT,
                reached=(1, created),
                opened=opened,
            )
        )
    )
    reader.start()
    assert opened.wait(LIVE_WAIT)
    game = httpx.post(
        f"{base}/api/games",
        json={"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}, "meta": {"table": "7"}},
        headers=auth(head),
    ).json()["game_id"]
    assert created.wait(LIVE_WAIT)  # the stream sent the game open before it ends
    httpx.post(
        f"{base}/api/games/{game}/end",
        json={"how": "resignation", "who": "Ben"},
        headers=auth(head),
    )
    reader.join(LIVE_WAIT + 5)
    kinds = [e["event"] for e in got]
    assert kinds[0] == "game"
    assert json.loads(got[0]["data"])["meta"] == {"table": "7"}
    assert "scoreboard" in kinds
    finished = [json.loads(e["data"]) for e in got if e["event"] == "game"][-1]
    assert finished["status"] == "finished"
    assert finished["result"] == "red"
    ids = [int(e["id"]) for e in got]
    assert ids == sorted(ids)
    # resuming after the last id: nothing is sent twice
    later = httpx.stream(
        "GET", f"{base}/api/live", headers=auth(head, **{"Last-Event-ID": str(ids[-1])}), timeout=2
    )
    with later as response, pytest.raises(httpx.ReadTimeout):  # noqa: PT012 - read until it times out
        for line in response.iter_lines():
            assert not line.startswith("data"), line


# -- hidden cards ---------------------------------------------------------------------------------


@pytest.fixture
def tribute(client: Client, tokens: Tokens, store: str) -> str:
    """A Tribute game for Ann, Ben and Cy: open lists for p1 (Aces, Jokers) and p3 (Jacks), a
    sealed one for p2; everyone has drawn, p1 has tried a card that is not theirs."""
    body = tribute_body("2 King\n1 Jack")
    created = client.post("/api/games", json=body, headers=auth(tokens["head"]))
    assert created.status_code == 201, created.text
    game: str = created.json()["game_id"]
    for seat in ("p2", "p1", "p3"):
        assert (
            client.post(
                f"/api/games/{game}/entries",
                json={"text": "draw 2", "seat": seat},
                headers=auth(tokens["table1"]),
            ).status_code
            == 201
        )
    assert (
        client.post(
            f"/api/games/{game}/entries", json={"text": "play King"}, headers=auth(tokens["table1"])
        ).status_code
        == 422
    )
    return game


def secrets_now(store: str, game: str) -> dict[str, set[str]]:
    svc = open_service(store)
    try:
        view = svc.load(game)
        return {seat: set(view.rules.secrets(view.state, seat)) for seat in view.seats}
    finally:
        svc.close()


def shows(text: str, names: set[str]) -> set[str]:
    return {n for n in names if re.search(rf"\b{re.escape(n)}\b", text)}


def everything(client: Client, token: str, game: str, extra: str = "") -> dict[str, str]:
    """Every answer a reader can get about the game, by its path."""
    paths = [
        f"/api/games/{game}",
        f"/api/games/{game}?at=0",
        f"/api/games/{game}?at=2",
        f"/api/games/{game}/log",
        f"/api/games/{game}/replay",
        f"/api/games/{game}/replay?session=true",
        f"/api/games/{game}/export?format=text",
        f"/api/games/{game}/export?format=html",
        "/api/games",
        f"/games/{game}",
        f"/games/{game}/panel",
        f"/games/{game}/replay",
    ]
    out: dict[str, str] = {}
    for path in paths:
        response = client.get(path + extra, headers=auth(token))
        assert response.status_code == 200, (path, response.text)
        out[path] = response.text
    return out


def test_the_public_never_sees_a_hidden_card(
    client: Client, tokens: Tokens, store: str, tribute: str
) -> None:
    hidden = secrets_now(store, tribute)
    assert hidden["p1"] == {"Ace", "Joker"}
    assert hidden["p3"] == {"Jack"}
    every = hidden["p1"] | hidden["p3"]
    for path, text in everything(client, tokens["public"], tribute).items():
        assert not shows(text, every), f"{path} shows {shows(text, every)} to the public"
    # a head referee reading as the public (a screen for spectators) gets the same redacted answers
    for path in ("", "/log", "/replay", "/export?format=text", "/export?format=html"):
        sep = "&" if "?" in path else "?"
        text = client.get(
            f"/api/games/{tribute}{path}{sep}as=public", headers=auth(tokens["head"])
        ).text
        assert not shows(text, every), path
    assert (
        client.get(f"/api/games/{tribute}?as=p1", headers=auth(tokens["public"])).status_code == 400
    )
    # the referee does see them (so this test can fail), and each player sees only their own
    referee = "".join(everything(client, tokens["head"], tribute).values())
    assert shows(referee, every) == every
    ann = "".join(everything(client, tokens["ann"], tribute).values())
    assert shows(ann, every) == {"Ace", "Joker"}
    # refused outright: the exact record, the legal entries, a dry run
    for path in (f"/api/games/{tribute}/export?format=jsonl", f"/api/games/{tribute}/legal"):
        assert client.get(path, headers=auth(tokens["public"])).status_code == 403
    check = f"/api/games/{tribute}/check"
    refused = client.post(check, json={"text": "play Ace"}, headers=auth(tokens["public"]))
    assert refused.status_code == 403
    # once a card is played it is public, and the others stay hidden
    entries = f"/api/games/{tribute}/entries"
    played = client.post(entries, json={"text": "play Joker"}, headers=auth(tokens["table1"]))
    assert played.status_code == 201
    hidden = secrets_now(store, tribute)
    assert "Joker" not in hidden["p1"]
    assert "Ace" in hidden["p1"]
    public = "".join(everything(client, tokens["public"], tribute).values())
    assert "Joker" in public
    assert not shows(public, hidden["p1"] | hidden["p3"])


def test_the_public_live_stream_carries_no_hidden_card(
    store: str, tokens: Tokens, client: Client, tribute: str
) -> None:
    from web.app import ServeConfig

    server = ThreadServer(ServeConfig(store=store, poll_interval=0.05))
    try:
        url = f"{server.base}/api/games/{tribute}/events?after=0"
        every = {"Ace", "Joker", "Jack"}
        public = read_events(url, auth(tokens["public"]), 8)
        assert [e["event"] for e in public[:4]] == ["created", "deck", "deck", "deck"]
        assert not shows(json.dumps(public), every)
        referee = read_events(url, auth(tokens["head"]), 8)
        assert shows(json.dumps(referee), every) == every
    finally:
        server.stop()


def test_the_command_lines_html_replay_hides_what_the_viewer_may_not_see(
    store: str, tribute: str, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from cli.main import app

    every = {"Ace", "Joker", "Jack"}
    runner = CliRunner()
    public = runner.invoke(
        app, ["--db", store, "export", tribute, "--format", "html", "--as", "public"]
    )
    assert public.exit_code == 0, public.output
    assert public.stdout.lower().startswith("<!doctype html>")
    assert not shows(public.stdout, every)
    out = tmp_path / "replay.html"
    referee = runner.invoke(
        app, ["--db", store, "export", tribute, "--format", "html", "-o", str(out)]
    )
    assert referee.exit_code == 0, referee.output
    assert shows(out.read_text(encoding="utf-8"), every) == every
    assert out.stat().st_mode & 0o044  # an ordinary file others can read, not mkstemp's private one
    several = runner.invoke(app, ["--db", store, "export", "--all", "--format", "html"])
    assert several.exit_code == 2
    assert "one game" in several.output


def test_the_server_stops_at_once_with_streams_open_and_prints_no_traceback(
    store: str, tokens: Tokens, serve: Callable[..., Server]
) -> None:
    """A browser keeps its live streams open for ever: asked to stop (Ctrl-C, or SIGTERM from a
    service manager), the server ends them itself instead of waiting out its graceful limit
    and then cutting them mid-write with a traceback in its log."""
    server = serve(store)
    head = tokens["head"]
    game = httpx.post(
        f"{server.base}/api/games",
        json={"game": "prizmik", "players": {"red": "A", "blue": "B"}},
        headers=auth(head),
    ).json()["game_id"]
    opened = threading.Barrier(3, timeout=10)
    ended: list[str] = []

    def follow(path: str) -> None:
        with httpx.stream(
            "GET", f"{server.base}{path}", headers=auth(head), timeout=30
        ) as response:
            lines = response.iter_lines()
            next(lines)  # the stream is open and has sent something
            opened.wait()
            for _ in lines:
                pass
        ended.append(path)

    readers = [
        threading.Thread(target=follow, args=(p,))
        for p in (f"/api/games/{game}/events?after=0", "/api/live")
    ]
    for reader in readers:
        reader.start()
    opened.wait()
    server.process.terminate()
    server.process.wait(timeout=2.5)  # the graceful limit is 3 s: waiting it out fails here
    for reader in readers:
        reader.join(5)
    assert sorted(ended) == sorted(p for p in (f"/api/games/{game}/events?after=0", "/api/live")), (
        ended
    )
    server.stop()
    assert "Traceback" not in server.log.read_text(), server.log.read_text()


def test_px_14_1_a_live_stream_sends_a_sealed_bid_whole_once_its_round_is_complete(
    store: str, tokens: Tokens, live_server: ThreadServer
) -> None:
    """A follower who received a bid as 'sealed bid' is sent it whole ('revealed', the same
    event number, no new id) when the round's last bid completes it (PX-14.1)."""
    with open_service(store) as svc:
        game = svc.create_game(
            "prismatic", {"p1": "Ann", "p2": "Ben"}, variants={"starter_token": "auction"}
        ).game_id
        for entry in (
            *("p1: reveal Ember Spark", "p1: reveal Verdant Drop", "p1: reveal Sunset Sky"),
            *("p1: choose C M", "p1: keep Noon Blaze, discard Moonrise"),
            *("p2: choose Y Y", "p2: keep Glass Kiln, discard Eclipse"),
            *("p1: draw R R G G B", "p2: draw R R G G B", "p1: pass", "p2: pass"),
            *("p1: pass", "p2: pass", "p1: bid 0"),
        ):
            seat, _, text = entry.partition(": ")
            assert svc.record(game, text, actor=seat).accepted, entry
    url = f"{live_server.base}/api/games/{game}/events?after=0"
    got: list[list[dict[str, Any]]] = []
    sealed = threading.Event()
    reader = threading.Thread(
        target=lambda: got.append(
            read_events(url, auth(tokens["public"]), 17, timeout=15, reached=(15, sealed))
        )
    )
    reader.start()
    assert sealed.wait(15)  # the stream has sent the 15 events: p1's bid sealed
    with open_service(store) as svc:
        assert svc.record(game, "bid 0", actor="p2").accepted
    reader.join(20)
    (messages,) = got
    assert json.loads(messages[14]["data"])["notation"] == "sealed bid"
    revealed, last = messages[15], messages[16]
    assert revealed["event"] == "revealed"
    assert "id" not in revealed
    data = json.loads(revealed["data"])
    assert (data["originator_version"], data["notation"]) == (15, "bid 0")
    assert last["id"] == "16"
    assert json.loads(last["data"])["notation"] == "bid 0"


def test_ref_1_7_a_viewer_that_is_no_seat_is_refused_naming_the_clause_and_the_choices(
    client: Client, tokens: Tokens, tribute: str
) -> None:
    response = client.get(f"/api/games/{tribute}?as=green", headers=auth(tokens["head"]))
    assert response.status_code == 400
    problem = response.json()
    assert problem["clause"] == "REF-1.7"
    assert problem["reason"].startswith("'green' is not a viewer of this game; choose one of: ")
    assert "referee, public, p1 (" in problem["reason"]

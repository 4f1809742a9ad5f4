"""Fixtures for the HTTP face: a store with tokens for every role, the app in-process
(Litestar's test client), and real ``referee serve`` processes on loopback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.access import TokenStore
from service.app import open_service
from service.sidedb import open_side_db
from service.stores import parse_store
from web.app import ServeConfig, create_app

ROOT = Path(__file__).resolve().parents[2]


class Tokens(dict[str, str]):
    """Role name -> bearer token text, made on one store."""


def make_tokens(store: str) -> Tokens:
    tokens = TokenStore(open_side_db(parse_store(store)))
    made = Tokens()
    for key, role, name, tables in (
        ("head", "head", "Hera", ()),
        ("table1", "table", "Tom", ("1",)),
        ("table2", "table", "Tia", ("2",)),
        ("scorekeeper", "scorekeeper", "Sam", ()),
        ("ann", "player", "Ann", ()),
        ("ben", "player", "Ben", ()),
        ("public", "public", "Pat", ()),
    ):
        made[key] = tokens.create(role, name, tables)[1]
    tokens.db.close()
    return made


def table_token(store: str, event: str, *tables: str, name: str = "Tom") -> str:
    """A table referee's token for ``tables`` of ``event`` (issue 31: tables are an event's)."""
    tokens = TokenStore(open_side_db(parse_store(store)))
    try:
        return tokens.create("table", name, tables, event=event)[1]
    finally:
        tokens.db.close()


def house_ids(store: str, names: list[str]) -> list[str]:
    """The player ids of the fixture's player tokens named ``names`` (in order, as far as
    each has one): an event registration binds them so those tokens are those players
    (issue 31: people are ids; a token matched by name alone reads no event seat)."""
    tokens = TokenStore(open_side_db(parse_store(store)))
    try:
        by_name = {t.name: t.player_id for t in tokens.list() if t.role == "player"}
    finally:
        tokens.db.close()
    ids: list[str] = []
    for name in names:
        if not by_name.get(name):
            break
        ids.append(by_name[name])
    return ids


def deck_event(client: Any, head: str, deck_deadline: int, store: str | None = None) -> str:
    """A Gammasphere Swiss event of two rounds made through the API by the head referee
    (token ``head``), its decklists due before round ``deck_deadline`` is paired: Ann entered
    with her list, Ben without one (EV-2.8). With ``store``, each entry binds the player's
    house id (``house_ids``), so the fixture's player tokens are those players."""
    made = client.post(
        "/api/events",
        json={
            "name": "Deck Cup",
            "game": "gammasphere",
            "rounds": 2,
            "deck_deadline": deck_deadline,
        },
        headers=auth(head),
    )
    assert made.status_code == 201, made.text
    event: str = made.json()["event_id"]
    deck = (ROOT / "fixtures/gammasphere/decks/ann.txt").read_text()
    for name, body in (("Ann", {"decklist": deck}), ("Ben", {})):
        ids = {"player_ids": house_ids(store, [name])} if store else {}
        entered = client.post(
            f"/api/events/{event}/players",
            json={"players": [name], **ids, **body},
            headers=auth(head),
        )
        assert entered.status_code == 201, entered.text
    return event


def event_of_five(store: str, name: str) -> str:
    """A PRIZMIK Swiss event ``name`` of five, round 1 paired by hand: Ann-Ben at table 1,
    Cal-Dee at table 2, Eve a bye."""
    with open_service(Path(store)) as svc:
        event = svc.event_new(name, "prizmik", rounds=3).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee", "Eve"])
        svc.event_pair(
            event,
            manual={"pairs": [["Ann", "Ben"], ["Cal", "Dee"]], "byes": ["Eve"]},
            reason="known tables",
        )
    return event


def tribute_body(sealed_list: str) -> dict[str, Any]:
    """A Tribute game for Ann, Ben and Cy at table 1, as ``POST /api/games`` takes it: open
    lists for p1 (Aces, Jokers) and p3 (Jacks), p2's list ``sealed_list`` sealed."""
    from referee.kit.decks import parse_decklist
    from service.commands import Commands

    sealed, _salt = Commands.seal_decklist(Commands(), parse_decklist(sealed_list, "p2"))
    return {
        "game": "tribute",
        "players": {"p1": "Ann", "p2": "Ben", "p3": "Cy"},
        "meta": {"table": "1"},
        "decks": {
            "p1": {"decklist": "2 Ace\n2 Joker"},
            "p3": {"decklist": "2 Jack"},
            "p2": {"sealed": f"{sealed.commitment}:{sealed.size}"},
        },
    }


def api_event(client: Any, head: str, players: list[str], **settings: Any) -> str:
    """A PRIZMIK event of ``players`` made over the API by the head referee's token ``head``
    (``settings``: the name, rounds and the rest of ``POST /api/events``'s body)."""
    body = {"name": "Cup", "game": "prizmik", **settings}
    made = client.post("/api/events", json=body, headers=auth(head))
    assert made.status_code == 201, made.text
    event: str = made.json()["event_id"]
    entered = {"players": players}
    done = client.post(f"/api/events/{event}/players", json=entered, headers=auth(head))
    assert done.status_code == 201, done.text
    return event


def event_kinds(store: str, event: str) -> list[str]:
    """The kinds of the event's log lines, in order (``player-dropped``, ``judge-called``)."""
    with open_service(store) as svc:
        return [line.kind for line in svc.event_log(event)]


def auth(token: str, **extra: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **extra}


def follow_live(
    url: str, headers: dict[str, str], count: int = 2
) -> tuple[threading.Thread, list[str], threading.Event]:
    """Follow a live stream in a thread of its own until ``count`` ``data:`` lines came:
    the thread (started), the lines as they come, and an event set at the first."""
    lines: list[str] = []
    first = threading.Event()

    def follow() -> None:
        with httpx.stream("GET", url, headers=headers, timeout=20) as answer:
            for line in answer.iter_lines():
                if line.startswith("data:"):
                    lines.append(line)
                    first.set()
                    if len(lines) == count:
                        return

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    return thread, lines, first


PLAYERS = [f"Player {n:02}" for n in range(16)]


def make_event(http: Any, head: str) -> str:
    """A PRIZMIK Swiss event with round 1 paired, made over the API as the head referee (so
    the server's hub knows of each write as it answers it)."""
    event = api_event(http, head, PLAYERS, name="Spring Open", rounds=3)
    paired = http.post(f"/api/events/{event}/rounds", json={}, headers=auth(head))
    assert paired.status_code == 201, paired.text
    return event


def report(client: Any, event: str, token: str, slip: str = "1=2-0-0") -> None:
    answer = client.post(
        f"/api/events/{event}/results", json={"slips": [slip]}, headers=auth(token)
    )
    assert answer.status_code == 201, answer.text


def new_store(folder: Path) -> str:
    """An empty store in ``folder``."""
    path = folder / "games.db"
    open_service(path, create=True).close()
    return str(path)


@pytest.fixture
def store(tmp_path: Path) -> str:
    return new_store(tmp_path)


# A module whose tests only read (pages looked at, nothing written) shares one store, its
# tokens and one served app: building the games and starting the server for each test cost
# each of them about a second of CPU (ThreadServer 0.45 s, a board page's games 0.65 s).
@pytest.fixture(scope="module")
def module_store(tmp_path_factory: pytest.TempPathFactory) -> str:
    return new_store(tmp_path_factory.mktemp("module"))


@pytest.fixture(scope="module")
def module_tokens(module_store: str) -> Tokens:
    return make_tokens(module_store)


@pytest.fixture
def tokens(store: str) -> Tokens:
    return make_tokens(store)


@pytest.fixture
def client(store: str, tokens: Tokens) -> Iterator[TestClient[Litestar]]:
    with TestClient(create_app(ServeConfig(store=store, poll_interval=0.05))) as test_client:
        yield test_client


@pytest.fixture
def event(client: TestClient[Litestar], tokens: Tokens) -> str:
    """``make_event`` on the app in-process (a test module may keep an ``event`` of its own)."""
    return make_event(client, tokens["head"])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def referee_run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``referee ARGS`` run to its end from the project's folder (``env``: its whole
    environment, else this one's), its output and errors kept."""
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=str(ROOT),
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def start_serve(
    store: str, port: int, out: IO[Any], *extra: str, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """``referee serve`` of ``store`` on loopback ``port``, its output to ``out``."""
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--store", store, "--port", str(port), *extra],
        cwd=str(ROOT),
        stdout=out,
        stderr=subprocess.STDOUT,
        env={**os.environ, **(env or {})},
    )


def serving(base: str, process: subprocess.Popen[bytes]) -> bool:
    """Whether the server ``process`` at ``base`` answers its health check within 60 s (a
    wait, not a timing: --workers 2 on a busy host), or ``False`` once it has ended."""
    deadline = time.monotonic() + 60
    # one client for every try: a client made for each cost 15-30 ms of CPU (its TLS context),
    # taken from the server starting on a loaded machine, ten times a second
    with httpx.Client(timeout=1) as client:
        while process.poll() is None and time.monotonic() < deadline:
            try:
                if client.get(f"{base}/api/health").status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
    return False


def stop_serve(process: subprocess.Popen[bytes] | None) -> None:
    """End a server ``process`` as a signal would (killed after 15 s)."""
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


class Server:
    """A ``referee serve`` process on loopback, stopped by ``stop``."""

    def __init__(
        self, store: str, *, extra: tuple[str, ...] = (), env: dict[str, str] | None = None
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = Path(os.environ.get("TMPDIR", "/tmp")) / f"referee-serve-{self.port}.log"
        self._out = self.log.open("w")
        self.process = start_serve(store, self.port, self._out, *extra, env=env)
        if not serving(self.base, self.process):
            self.stop()
            raise RuntimeError(f"referee serve did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        stop_serve(self.process)
        self._out.close()


def servers() -> Iterator[Callable[..., Server]]:
    """Start ``referee serve`` processes; every one is stopped when the generator is closed."""
    started: list[Server] = []

    def start(store: str, *extra: str, env: dict[str, str] | None = None) -> Server:
        server = Server(store, extra=extra, env=env)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def serve() -> Iterator[Callable[..., Server]]:
    """Start ``referee serve`` processes; every one is stopped after the test."""
    yield from servers()


@pytest.fixture(scope="module")
def module_serve() -> Iterator[Callable[..., Server]]:
    """``serve`` for a module's tests to share: every one is stopped after the module."""
    yield from servers()


class ThreadServer:
    """The app served by uvicorn on a thread of the test process (so the test games
    registered here are known to it)."""

    def __init__(self, config: ServeConfig) -> None:
        import threading

        import uvicorn

        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.app = create_app(config)
        self.server = uvicorn.Server(
            uvicorn.Config(
                self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on"
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the in-process server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        """End the live streams (browsers keep theirs open), then the server, as a signal would."""
        self.app.state["web"].hub.close_streams_soon()
        self.server.should_exit = True
        self.thread.join(10)
        assert not self.thread.is_alive(), "the in-process server did not stop within 10 s"


def served(store: str, poll_interval: float = 0.05) -> Iterator[ThreadServer]:
    """``store`` served on a thread until the generator is closed (a fixture's body);
    ``poll_interval``: how often its hub reads the log for writes it was not told of."""
    server = ThreadServer(ServeConfig(store=store, poll_interval=poll_interval))
    yield server
    server.stop()


@pytest.fixture
def live_server(store: str, tokens: Tokens) -> Iterator[ThreadServer]:
    yield from served(store)


PUSH_ONLY = 3600.0
"""The hub's poll interval of ``pushed_server``: longer than any test, so a change shows on a
live page (or stream) only because the write that made it woke the streams (``Hub.poke``):
a test of liveness then waits as long as a loaded machine needs (``LIVE_WAIT``) and checks
what came, not how fast."""

LIVE_WAIT = 30.0
"""Seconds a liveness test waits for a push: generous, as the push is the only way the
change can come (``PUSH_ONLY``); the time it took is never asserted."""


@pytest.fixture
def pushed_server(
    store: str, tokens: Tokens, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ThreadServer]:
    """``live_server`` that reads nothing on its own within a test (``PUSH_ONLY``): its hub
    never polls the log, the queue's and a game's streams never read again on their own
    (``QUEUE_RECHECK``, ``GAME_RECHECK``), nor an event's stream looks again between
    keep-alives (``KEEP_ALIVE_SECONDS``), so only this server's writes, which wake its
    streams, reach a live page."""
    import web.api
    import web.fanout

    monkeypatch.setattr(web.api, "QUEUE_RECHECK", PUSH_ONLY)
    monkeypatch.setattr(web.api, "GAME_RECHECK", PUSH_ONLY)
    monkeypatch.setattr(web.fanout, "KEEP_ALIVE_SECONDS", PUSH_ONLY)
    yield from served(store, poll_interval=PUSH_ONLY)

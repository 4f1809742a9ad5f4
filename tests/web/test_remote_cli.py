"""``referee --server URL act ...``: the command line asking a running ``referee serve``.

The same entries are made on two twin games, one through the store (``--db``) and one
through the server (``--server``); what the command prints and its exit code must be the
same. Then what only a server can do wrong (a bad token, no server, a conflict, a
fault), each one line and an exit code; and what the remote command does not load."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from service.app import open_service
from tests.web.conftest import Server, Tokens, free_port

# What a remote command must not load (issue 23 section 3: start-up imports only what
# the command needs): the drivers, the web framework and server, the store.
HEAVY = (
    "psycopg",
    "psycopg_pool",
    "litestar",
    "uvicorn",
    "httpx",
    "sqlite_utils",
    "sqlite3",
    "eventsourcing",
    "events.store",
    "events.schema",
    "service.app",
    "referee.tournament",  # the events' domain: a third of the command line's own imports
)


def cli(cwd: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """The installed command as a process (what a referee's laptop runs)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=str(cwd),
        capture_output=True,
        text=True,
        timeout=120,
        env={**clean, **(env or {})},
    )
    return done.returncode, done.stdout, done.stderr


def twin_games(store: str) -> tuple[str, str]:
    """Two games set up alike in ``store``: one played locally, one through the server."""
    service = open_service(store)
    from referee.contract import Player

    try:
        ids = [
            service.create_game("prizmik", [Player("red", "Ann"), Player("blue", "Ben")]).game_id
            for _ in range(2)
        ]
    finally:
        service.close()
    return ids[0], ids[1]


# The hall's tests share one store, its tokens and one ``referee serve`` (a start is a process
# importing the app): each plays twin games of its own, made while the server runs.
@pytest.fixture(scope="module")
def store(module_store: str) -> str:
    return module_store


@pytest.fixture(scope="module")
def tokens(module_tokens: Tokens) -> Tokens:
    return module_tokens


@pytest.fixture(scope="module")
def hall_server(store: str, tokens: Tokens, module_serve: Callable[..., Server]) -> Server:
    found: Server = module_serve(store)
    return found


@pytest.fixture
def hall(store: str, hall_server: Server, tmp_path: Path) -> tuple[Server, str, str, Path]:
    """A server on the store, twin games in it, and an empty directory to run from."""
    local, remote = twin_games(store)
    laptop = tmp_path / "laptop"
    laptop.mkdir()
    return hall_server, local, remote, laptop


def same(local: str, remote: str, local_id: str, remote_id: str) -> None:
    assert remote == local.replace(local_id, remote_id)


def test_entries_print_and_exit_as_local(
    hall: tuple[Server, str, str, Path], store: str, tokens: Tokens
) -> None:
    server, local_id, remote_id, laptop = hall
    there = {"REFEREE_SERVER": server.base, "REFEREE_TOKEN": tokens["head"]}
    for args in (
        ("act", "{}", "e1>e2"),  # legal: recorded
        ("act", "{}", "e2>e8"),  # blue to act: rejected, kept as evidence (PZ-1.4)
        ("act", "{}", "e2>e8", "--json"),
        ("act", "{}", "b8>b7", "--dry-run"),  # only judged
        ("act", "{}", "e8>e7", "--dry-run", "--json"),
        ("act", "{}", "zzz"),  # not an entry: refused, nothing stored
        ("act", "{}", "e8>e7", "--json"),
        ("show", "{}"),
        ("show", "{}", "--json", "--at", "1"),
    ):
        mine = cli(laptop, "--db", store, "--referee", "Hera", *(a.format(local_id) for a in args))
        theirs = cli(laptop, *(a.format(remote_id) for a in args), env=there)
        assert theirs[0] == mine[0], (args, mine, theirs)
        same(mine[1], theirs[1], local_id, remote_id)
        same(mine[2], theirs[2], local_id, remote_id)
    assert mine[0] == 0
    assert "game_id" in mine[1]
    # what each printed, to know the comparison compared something
    code, out, err = cli(laptop, "act", remote_id, "c1>c2", env=there)
    assert (code, err) == (0, "")
    assert out == "recorded c1>c2 by red (event 6)\n"
    code, out, err = cli(laptop, "act", remote_id, "c2>c8", env=there)
    assert code == 1
    assert out == ""
    assert err.splitlines() == [
        "rejected 'c2>c8' (kept as evidence, event 7):",
        "  PZ-1.4: c2 holds a red ship stack; blue may act only with blue pieces",
    ]
    # the server kept the entries under the token's name
    service = open_service(store)
    try:
        log = service.log(remote_id)
    finally:
        service.close()
    assert [e["kind"] for e in log][-2:] == ["action", "rejected"]
    assert log[-2]["recorded_by"] == "Hera"


def test_a_game_named_by_its_ending_says_which(
    hall: tuple[Server, str, str, Path], tokens: Tokens
) -> None:
    server, _, remote_id, laptop = hall
    code, out, err = cli(
        laptop, "--server", server.base, "--token", tokens["head"], "act", remote_id[-6:], "e1>e2"
    )
    assert code == 0
    assert out.startswith("recorded e1>e2 by red")
    assert err == f"({remote_id[-6:]} is {remote_id})\n"


def test_unknown_game_and_other_commands(
    hall: tuple[Server, str, str, Path], store: str, tokens: Tokens
) -> None:
    server, _, _, laptop = hall
    there = {"REFEREE_SERVER": server.base, "REFEREE_TOKEN": tokens["head"]}
    local = cli(laptop, "--db", store, "act", "prizmik-nosuchgame", "e1>e2")
    remote = cli(laptop, "act", "prizmik-nosuchgame", "e1>e2", env=there)
    assert remote == local
    assert local[0] == 2
    assert local[2].startswith("error: no game")
    # a command that would open a store is refused, and no store appears on the laptop
    code, out, err = cli(laptop, "games", env=there)
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert "--server" in err
    assert list(laptop.iterdir()) == []


def one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    return lines[0]


def test_tokens_refused_in_one_line(
    hall: tuple[Server, str, str, Path], store: str, tokens: Tokens
) -> None:
    server, _, remote_id, laptop = hall
    base = ("--server", server.base)
    code, out, err = cli(laptop, *base, "--token", "rf_nothing_of_ours", "act", remote_id, "e1>e2")
    assert code == 2
    assert out == ""
    assert "refused the token: the token is unknown or revoked" in one_line(err)
    code, _, err = cli(laptop, *base, "act", remote_id, "e1>e2")
    assert code == 2
    assert "needs a token: give --token or REFEREE_TOKEN" in one_line(err)
    # a table referee's token for another table: forbidden
    code, _, err = cli(laptop, *base, "--token", tokens["table2"], "act", remote_id, "e1>e2")
    assert code == 2
    assert "refused the token: Tia referees tables 2" in one_line(err)
    service = open_service(store)
    try:
        assert service.load(remote_id).version == 1  # nothing was stored
    finally:
        service.close()


def test_no_server_in_one_line(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    code, out, err = cli(tmp_path, "--server", url, "--token", "t", "act", "prizmik-x", "e1>e2")
    assert code == 2
    assert out == ""
    assert one_line(err).startswith(f"error: cannot reach the referee server at {url}: ")
    code, _, err = cli(tmp_path, "--server", "games.example", "act", "prizmik-x", "e1>e2")
    assert code == 2
    assert "http://HOST:PORT" in one_line(err)


IMPORTS = """
import json, sys
sys.argv = ["referee", *sys.argv[1:]]
from cli.main import run
try:
    run()
except SystemExit as done:
    code = done.code
heavy = %r
loaded = [m for m in heavy if m in sys.modules]
print("LOADED " + json.dumps(loaded), file=sys.stderr)
"""


def test_remote_act_loads_no_store_no_driver_no_framework(
    hall: tuple[Server, str, str, Path], tokens: Tokens
) -> None:
    server, _, remote_id, laptop = hall
    for args, said in (
        (("act", remote_id, "e1>e2"), "recorded e1>e2 by red"),
        (("act", remote_id, "e2>e8"), "rejected 'e2>e8' (kept as evidence"),
        (("show", remote_id), "blue (Ben) to act"),
    ):
        done = subprocess.run(
            [sys.executable, "-c", IMPORTS % (HEAVY,), "--server", server.base, *args],
            cwd=str(laptop),
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "REFEREE_TOKEN": tokens["head"]},
        )
        assert said in done.stdout + done.stderr  # the command ran and printed its answer
        loaded = json.loads(done.stderr.rpartition("LOADED ")[2])
        assert loaded == [], args


# -- a stand-in server: answers the real one gives rarely -----------------------------


class Canned(BaseHTTPRequestHandler):
    answer: tuple[int, str, bytes] = (200, "application/json", b"{}")
    hang = threading.Event()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", "0")))
        status, media, body = self.answer
        if status == 0:  # no answer: wait until the test ends
            self.hang.wait(30)
            return
        self.send_response(status)
        self.send_header("Content-Type", media)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def canned() -> Iterator[tuple[str, type[Canned]]]:
    class Handler(Canned):
        hang = threading.Event()

    handler = Handler
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", handler
    handler.hang.set()
    server.shutdown()
    server.server_close()


def problem(status: int, kind: str, detail: str, **more: Any) -> tuple[int, str, bytes]:
    body = {"type": f"/problems/{kind}", "title": kind, "status": status, "detail": detail}
    return status, "application/problem+json", json.dumps({**body, **more}).encode()


def remote_act(url: str, *extra: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        app, ["--server", url, "--token", "t", "act", "prizmik-abcdefgh", "e1>e2", *extra]
    )
    return result.exit_code, result.stdout, result.stderr


def test_another_write_first_exits_3(canned: tuple[str, type[Canned]]) -> None:
    url, handler = canned
    handler.answer = problem(
        409, "concurrent-write", "another referee wrote to game prizmik-abcdefgh first"
    )
    code, out, err = remote_act(url)
    assert (code, out) == (3, "")
    assert one_line(err) == "error: another referee wrote to game prizmik-abcdefgh first"
    handler.answer = problem(409, "not-allowed-now", "REF-3.1: the game is over")
    code, _, err = remote_act(url)
    assert code == 2
    assert one_line(err) == "error: REF-3.1: the game is over"


def test_a_refusals_clause_and_reason_reach_the_json_error(
    canned: tuple[str, type[Canned]],
) -> None:
    """Under ``--json`` a refusal through a server is the same object a local one prints:
    the clause and the reason the server's problem document names, not only its text."""
    url, handler = canned
    handler.answer = problem(
        409, "not-allowed-now", "the game is over", clause="REF-3.1", reason="the game is over"
    )
    code, out, err = remote_act(url, "--json")
    assert (code, out) == (2, "")
    assert json.loads(err.splitlines()[-1]) == {
        "error": "the game is over",
        "clause": "REF-3.1",
        "reason": "the game is over",
        "exit": 2,
    }


def test_server_faults_in_one_line(canned: tuple[str, type[Canned]]) -> None:
    url, handler = canned
    handler.answer = problem(500, "server-error", "the server failed", id="a1b2c3")
    code, _, err = remote_act(url)
    assert code == 2
    assert "failed (HTTP 500)" in one_line(err)
    assert "a1b2c3" in err
    handler.answer = (502, "text/html", b"<html>bad gateway</html>")
    code, _, err = remote_act(url)
    assert code == 2
    assert "not as a referee server does" in one_line(err)
    handler.answer = (201, "application/json", b'{"game_id": 7}')
    code, _, err = remote_act(url)
    assert code == 2
    assert "cannot read" in one_line(err)


def test_a_whole_result_in_the_rejection_is_used(canned: tuple[str, type[Canned]]) -> None:
    """A server that adds the whole result to its 422 (``extra.result``) gives the seat
    and notation of the entry as the rules read it, as the local ``--json`` prints."""
    url, handler = canned
    result = {
        "game_id": "prizmik-abcdefgh",
        "status": "rejected",
        "accepted": False,
        "text": "e1>e2",
        "seat": "red",
        "notation": "e1>e2",
        "violations": [{"clause": "PZ-1.4", "reason": "not yours"}],
        "event": 5,
        "version": 5,
    }
    handler.answer = problem(
        422,
        "rejected",
        "rejected 'e1>e2' (kept as evidence, event 5): PZ-1.4: not yours",
        game_id="prizmik-abcdefgh",
        violations=[{"clause": "PZ-1.4", "reason": "not yours"}],
        event=5,
        version=5,
        stored=True,
        extra={"result": result},
    )
    code, out, _ = remote_act(url, "--json")
    assert code == 1
    assert json.loads(out)["seat"] == "red"
    code, _, err = remote_act(url)
    assert code == 1
    assert err.splitlines() == [
        "rejected 'e1>e2' (kept as evidence, event 5):",
        "  PZ-1.4: not yours",
    ]


def test_no_answer_in_time_says_the_write_may_be_stored(
    canned: tuple[str, type[Canned]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import service.remote

    url, handler = canned
    handler.answer = (0, "", b"")
    monkeypatch.setattr(service.remote, "TIMEOUT", 0.5)
    code, _, err = remote_act(url)
    line = one_line(err)
    assert code == 2
    assert "did not answer" in line
    assert "may have been recorded" in line


def test_through_a_postgresql_server(
    pg_env: dict[str, str], serve: Callable[..., Server], tmp_path: Path
) -> None:
    """The hall's case: the server on PostgreSQL, the laptop with nothing but the command."""
    from tests.web.test_postgres_web import cli_token, pg_url

    url = pg_url(pg_env)
    code, game, err = cli(tmp_path, "--db", url, "new", "prizmik", "-p", "red=A", "-p", "blue=B")
    assert code == 0, err
    game = game.strip()
    token = cli_token(url, "head", "Hera")
    server = serve(url)
    there = {"REFEREE_SERVER": server.base, "REFEREE_TOKEN": token}
    assert cli(tmp_path, "act", game, "e1>e2", env=there) == (
        0,
        "recorded e1>e2 by red (event 2)\n",
        "",
    )
    code, out, err = cli(tmp_path, "act", game, "e2>e8", "--json", env=there)
    assert code == 1
    assert json.loads(out)["seat"] == "blue"
    assert "PZ-1.4" in out
    code, out, _ = cli(tmp_path, "--db", url, "log", game, "--json")
    assert [e["kind"] for e in json.loads(out)] == ["created", "action", "rejected"]

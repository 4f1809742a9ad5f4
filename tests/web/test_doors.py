"""Issue 22, section 6: the service's doors, probed through a running server."""

from __future__ import annotations

import secrets
import subprocess
import sys
from typing import Any

import httpx
import pytest

from service.app import open_service
from tests.postgres import SETTINGS, server_problem
from tests.web.conftest import ROOT, ThreadServer, Tokens, auth, free_port


def _game(base: str, token: str, table: str, **extra: Any) -> str:
    body = {"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}, "meta": {"table": table}}
    made = httpx.post(f"{base}/api/games", json={**body, **extra}, headers=auth(token))
    assert made.status_code == 201, made.text
    game: str = made.json()["game_id"]
    return game


def _events(store: str, game: str) -> int:
    svc = open_service(store)
    try:
        return len(svc.load(game).events)
    finally:
        svc.close()


def _entry(
    live_server: ThreadServer, tokens: Tokens, store: str, **request: Any
) -> tuple[str, int, httpx.Response]:
    """A new game at table 1, its events before, and the head referee's entry ``request``."""
    base = live_server.base
    game = _game(base, tokens["head"], "1")
    before = _events(store, game)
    headers = auth(tokens["head"], **request.pop("headers", {}))
    return game, before, httpx.post(f"{base}/api/games/{game}/entries", headers=headers, **request)


def test_a_table_referee_reads_only_their_own_tables_audits(
    live_server: ThreadServer, tokens: Tokens
) -> None:
    base = live_server.base
    at1 = _game(base, tokens["head"], "1")
    audit = f"{base}/api/games/{at1}/audit"
    assert httpx.get(audit, headers=auth(tokens["table1"])).status_code == 200
    assert httpx.get(audit, headers=auth(tokens["head"])).status_code == 200
    other = httpx.get(audit, headers=auth(tokens["table2"]))
    assert other.status_code == 403, other.text
    assert other.json()["type"].endswith("forbidden"), other.text


def test_an_entry_longer_than_a_line_is_refused_and_nothing_is_stored(
    live_server: ThreadServer, tokens: Tokens, store: str
) -> None:
    game, before, long = _entry(live_server, tokens, store, json={"text": "e1>e2 " + "x" * 2_000})
    assert long.status_code == 422, long.text
    assert long.headers["content-type"].startswith("application/problem+json")
    assert _events(store, game) == before  # not even kept as evidence


def test_a_claim_longer_than_a_page_is_refused(
    live_server: ThreadServer, tokens: Tokens, store: str
) -> None:
    base = live_server.base
    game = _game(base, tokens["head"], "1")
    assert (
        httpx.post(
            f"{base}/api/games/{game}/entries", json={"text": "e1>e2"}, headers=auth(tokens["head"])
        ).status_code
        == 201
    )
    before = _events(store, game)
    claim = httpx.post(
        f"{base}/api/games/{game}/disputes",
        json={"event": 2, "claim": "c" * 20_000},
        headers=auth(tokens["head"]),
    )
    assert claim.status_code == 422, claim.text
    assert _events(store, game) == before


def test_a_body_past_the_limit_is_413_with_a_problem_body(
    live_server: ThreadServer, tokens: Tokens, store: str
) -> None:
    content = b'{"text": "' + b"x" * (1024 * 1024) + b'"}'
    game, before, big = _entry(
        live_server, tokens, store, content=content, headers={"Content-Type": "application/json"}
    )
    assert big.status_code == 413, big.text
    assert big.json()["status"] == 413
    assert _events(store, game) == before


def test_a_deeply_nested_body_is_refused_not_a_server_error(
    live_server: ThreadServer, tokens: Tokens
) -> None:
    base = live_server.base
    deep = b'{"game": "prizmik", "players": {"red": "A", "blue": "B"}, "options": ' + (
        b"[" * 20_000 + b"]" * 20_000 + b"}"
    )
    answer = httpx.post(
        f"{base}/api/games",
        content=deep,
        headers=auth(tokens["head"], **{"Content-Type": "application/json"}),
    )
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text[:300])
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_a_burst_of_bad_tokens_is_answered_429(live_server: ThreadServer, tokens: Tokens) -> None:
    """Past the limit a wrong token is answered 429; a valid token from the same address is
    still answered (issue 31: one phone must not lock out the hall behind one proxy)."""
    base = live_server.base
    codes = [
        httpx.get(f"{base}/api/whoami", headers=auth("not-a-token")).status_code for _ in range(40)
    ]
    assert codes[0] == 401, codes
    assert 429 in codes, codes
    refused = httpx.get(f"{base}/api/whoami", headers=auth("not-a-token"))
    assert refused.status_code == 429
    assert "retry-after" in refused.headers
    assert refused.json()["status"] == 429
    assert httpx.get(f"{base}/api/whoami", headers=auth(tokens["head"])).status_code == 200


@pytest.mark.slow  # a server or many CLI processes started: seconds each
@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_on_a_schema_that_does_not_exist_exits_at_start_with_one_line(workers: str) -> None:
    problem = server_problem()
    if problem:
        pytest.skip(problem)
    s = SETTINGS
    url = (
        f"postgresql://{s['POSTGRES_USER']}@{s['POSTGRES_HOST']}:{s['POSTGRES_PORT']}/"
        f"{s['POSTGRES_DBNAME']}?schema=no_such_schema_{secrets.token_hex(4)}"
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli.main",
            "serve",
            "--store",
            url,
            "--workers",
            workers,
            "--port",
            str(free_port()),
        ],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
    )
    assert run.returncode == 2, run.stderr
    errors = [line for line in run.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, run.stderr
    assert "does not exist" in errors[0], run.stderr
    assert "Traceback" not in run.stderr


STRUCTURED_ENTRIES = [
    {"action": {"kind": "deploy", "origin": 4, "target": 12}},  # an action, no text
    {"text": {"kind": "deploy", "origin": 4, "target": 12}},  # an action in place of text
    {"text": "e1>e2", "action": {"kind": "deploy", "origin": -1, "target": 12}},  # beside it
    {"text": "e1>e2", "kind": "deploy", "origin": 4, "target": 12},  # its fields spread out
]


@pytest.mark.parametrize("body", STRUCTURED_ENTRIES)
def test_an_entry_or_offline_batch_carrying_a_structured_action_is_refused(
    live_server: ThreadServer, tokens: Tokens, store: str, body: dict[str, Any]
) -> None:
    """Entries come in as text read by the game's notation, never as an action's fields
    (``EntryIn``, ``OfflineEntryIn``: ``text`` only, unknown fields refused), so the rules
    never see a structured action from outside (``tests/contract/test_structured_doors``)."""
    game, before, entry = _entry(live_server, tokens, store, json=body)
    assert entry.status_code == 400, entry.text  # malformed: refused before any rule
    assert entry.json()["type"].endswith("bad-request"), entry.text
    offline = httpx.post(
        f"{live_server.base}/api/games/{game}/offline",
        json={
            "device": "table-1",
            "base_version": before,
            "entries": [{"key": "k1", "recorded_at": "2026-11-28T12:00:00Z", **body}],
        },
        headers=auth(tokens["head"]),
    )
    assert offline.status_code == 400, offline.text
    assert offline.json()["type"].endswith("bad-request"), offline.text
    assert _events(store, game) == before  # neither stored nor kept as evidence
    plain = httpx.post(
        f"{live_server.base}/api/games/{game}/entries",
        json={"text": "e1>e2"},
        headers=auth(tokens["head"]),
    )
    assert plain.status_code == 201, plain.text  # the same door takes the text

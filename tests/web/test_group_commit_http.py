"""Entries from many tables at once over HTTP, through the server's group commit: every
entry lands with its version and no gap, a race on one If-Match gives one 201 and one 412 (stale),
and a follower of each game's stream receives every event. SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from service.app import open_service
from tests.web.conftest import ThreadServer, Tokens, auth, make_tokens
from tests.web.test_live_and_hidden import read_events
from tests.web.test_postgres_web import pg_url
from web.app import ServeConfig

TABLES = 8
ENTRIES = 6


@pytest.fixture(params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[tuple[ThreadServer, Tokens]]:
    if request.param == "sqlite":
        store = str(tmp_path / "games.db")
        open_service(store, create=True).close()
    else:
        store = pg_url(request.getfixturevalue("pg_env"))
        open_service(store, create=True).close()
    tokens = make_tokens(store)
    server = ThreadServer(ServeConfig(store=store, poll_interval=0.05))
    yield server, tokens
    server.stop()


async def _table(client: httpx.AsyncClient, head: str, game: str) -> list[tuple[int, str]]:
    answers = []
    for n in range(ENTRIES):
        response = await client.post(
            f"/api/games/{game}/entries",
            json={"text": "t1"},
            headers=auth(head, **{"If-Match": f'"{1 + n}"'}),
        )
        answers.append((response.status_code, response.headers.get("etag", "")))
    return answers


async def _race(client: httpx.AsyncClient, head: str, game: str) -> list[int]:
    sent = [
        client.post(
            f"/api/games/{game}/entries",
            json={"text": text},
            headers=auth(head, **{"If-Match": '"1"'}),
        )
        for text in ("t1", "t2")
    ]
    return sorted(r.status_code for r in await asyncio.gather(*sent))


@pytest.mark.slow  # a server or many CLI processes started: seconds each
def test_many_tables_at_once_land_in_order_and_every_follower_sees_every_event(
    served: tuple[ThreadServer, Tokens],
) -> None:
    server, tokens = served
    head = tokens["head"]
    games = [
        httpx.post(
            f"{server.base}/api/games",
            json={"game": "nim", "players": {"first": "Ann", "second": "Ben"}, "options": {}},
            headers=auth(head),
        ).json()["game_id"]
        for _ in range(TABLES + 1)
    ]
    followed: dict[str, list[dict[str, Any]]] = {g: [] for g in games[:3]}
    readers = [
        threading.Thread(
            target=lambda g=g: followed[g].extend(
                read_events(
                    f"{server.base}/api/games/{g}/events?after=0",
                    auth(tokens["public"]),
                    1 + ENTRIES,
                    timeout=30,
                )
            )
        )
        for g in followed
    ]
    for reader in readers:
        reader.start()

    async def everything() -> tuple[list[list[tuple[int, str]]], list[int]]:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as client:
            tables = asyncio.gather(*(_table(client, head, g) for g in games[:TABLES]))
            race = _race(client, head, games[TABLES])
            return await tables, await race

    answered, raced = asyncio.run(everything())
    for answers in answered:
        assert answers == [(201, f'"{v}"') for v in range(2, 2 + ENTRIES)]
    assert raced == [201, 412]  # the same If-Match twice: one recorded, one stale (as before)
    for game in games[:TABLES]:
        log = httpx.get(f"{server.base}/api/games/{game}/log", headers=auth(head)).json()
        numbers = [e["originator_version"] for e in log]
        assert numbers == list(range(1, 2 + ENTRIES))
        # written on the writer thread, each event still names the token that wrote it
        assert {e.get("token_id") for e in log} == {head.split("_")[1]}
    for reader in readers:
        reader.join(40)
    for game, events in followed.items():
        assert [int(e["id"]) for e in events] == list(range(1, 2 + ENTRIES)), game
    writer = server.app.state["web"].writer
    assert writer.entries >= TABLES * ENTRIES + 1

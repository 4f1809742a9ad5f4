"""Two hosts' worth of ``referee serve --workers 2`` on one PostgreSQL store, writing one
event's games at once (docs/scaling.md, "A 10,000-table online event").

Two server processes on two ports, each with two workers, share one database schema, as
two hosts behind a proxy would. Every table of a round plays its game through both
hosts in turn while the other tables do the same, and every table reports its result
through either host at the same moment. Then: each game's stream and the event's stream
are numbered without a gap or a repeat, every write a host acknowledged is in the store
exactly once, and the standings are the ones the reported results make.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import httpx

from events.store import GameStore
from service.app import RefereeService
from tests.web.conftest import Server, auth
from tests.web.test_postgres_web import cli_token, pg_url

PLAYERS = [f"P{n:02d}" for n in range(1, 17)]
MOVES = ["e1>e2", "e8>e7", "e2-e4", "e7-e5", "c1>c2", "c8>c7"]


def _post(base: str, path: str, body: Any, headers: dict[str, str]) -> httpx.Response:
    """A write; answered 409 (another writer changed the same stream first, nothing of
    ours stored) it is sent again, as a client would."""
    for _ in range(50):
        answer = httpx.post(f"{base}{path}", json=body, headers=headers, timeout=30)
        if answer.status_code != 409:
            return answer
    return answer


def test_two_hosts_write_one_events_games_at_once(
    pg_env: dict[str, str], serve: Callable[..., Server]
) -> None:
    url = pg_url(pg_env)
    hosts = [serve(url, "--workers", "2"), serve(url, "--workers", "2")]
    head = auth(cli_token(url, "head", "Hera"))
    made = _post(hosts[0].base, "/api/events", {"name": "Open", "game": "prizmik"}, head)
    assert made.status_code == 201, made.text
    event = made.json()["event_id"]
    joined = _post(hosts[1].base, f"/api/events/{event}/players", {"players": PLAYERS}, head)
    assert joined.status_code == 201, joined.text
    paired = _post(hosts[0].base, f"/api/events/{event}/rounds", {}, head)
    assert paired.status_code == 201, paired.text
    tables = [row for row in paired.json() if not row["bye"]]
    assert len(tables) == 8
    assert all(len(row["games"]) == 1 for row in tables)

    acknowledged: dict[str, list[str]] = {}  # game -> the entries a host answered 201
    reported: dict[int, str] = {}  # table -> the slip a host answered 201
    failures: list[str] = []
    start = threading.Barrier(len(tables))

    def play(row: dict[str, Any]) -> None:
        game, table = row["games"][0], row["table"]
        done: list[str] = []
        start.wait()
        for version, text in enumerate(MOVES, start=1):
            host = hosts[(table + version) % 2]  # each game through both hosts in turn
            answer = _post(
                host.base,
                f"/api/games/{game}/entries",
                {"text": text},
                {**head, "If-Match": f'"{version}"'},
            )
            if answer.status_code != 201:
                failures.append(f"{game} {text}: {answer.status_code} {answer.text[:200]}")
                return
            done.append(text)
        acknowledged[game] = done
        slip = f"{table}=2-0-0" if table % 2 else f"{table}=0-2-0"
        answer = _post(
            hosts[table % 2].base, f"/api/events/{event}/results", {"slips": [slip]}, head
        )
        if answer.status_code == 201:
            reported[table] = slip
        else:
            failures.append(f"table {table}: {answer.status_code} {answer.text[:200]}")

    threads = [threading.Thread(target=play, args=(row,)) for row in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not failures, failures
    assert len(acknowledged) == len(reported) == len(tables)

    svc = RefereeService(GameStore(env=pg_env))
    try:
        positions: list[int] = []
        numbers: dict[str, list[int]] = {}
        for position, stream, number, _ in svc.store.event_hashes():
            positions.append(position)
            numbers.setdefault(stream, []).append(number)
        assert positions == sorted(set(positions))  # each event once, in store order
        for stream, seen in numbers.items():  # every stream numbered 1..n: no gap, no repeat
            assert seen == list(range(1, len(seen) + 1)), (stream, seen)
        for game, entries in acknowledged.items():
            view = svc.load(game)
            assert [e.notation for e in view.standing] == entries == MOVES
            assert svc.verify(game).bad == 0
    finally:
        svc.close()

    standings = httpx.get(
        f"{hosts[1].base}/api/events/{event}/standings", headers=head, timeout=30
    ).json()
    points = {row["player"]: row["points"] for row in standings}
    for row in tables:
        first, second = row["players"]
        won = reported[row["table"]].endswith("=2-0-0")
        assert (points[first], points[second]) == ((3, 0) if won else (0, 3)), row
    assert sorted(points.values()) == [0] * 8 + [3] * 8

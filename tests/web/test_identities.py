"""Issue 22, section 6: identities that hold (players bound to ids) and tokens that
end (expiry, no cache that lets a revoked, rotated or expired token in), probed
through a running server."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from typer.testing import CliRunner

from cli.main import app
from service.access import TokenStore, parse_expiry
from service.app import open_service
from service.sidedb import open_side_db, side_path
from service.stores import parse_store
from tests.web.conftest import ThreadServer, Tokens, auth


def _token(store: str, *args: str) -> dict[str, str]:
    result = CliRunner().invoke(app, ["token", "create", "--store", store, "--json", *args])
    assert result.exit_code == 0, result.stderr
    made: dict[str, str] = json.loads(result.stdout)
    return made


def _new_game(base: str, head: str, players: dict[str, str], ids: dict[str, str]) -> str:
    body = {"game": "prizmik", "players": players, "player_ids": ids, "meta": {"table": "1"}}
    made = httpx.post(f"{base}/api/games", json=body, headers=auth(head))
    assert made.status_code == 201, made.text
    game: str = made.json()["game_id"]
    return game


def _viewer(base: str, game: str, token: str) -> str:
    seen = httpx.get(f"{base}/api/games/{game}", headers=auth(token))
    assert seen.status_code == 200, seen.text
    viewer: str = seen.json()["viewer"]
    return viewer


# -- players are ids, not display names ----------------------------------------------


def test_two_players_whose_names_differ_only_in_case_are_two_seats(
    live_server: ThreadServer, tokens: Tokens, store: str
) -> None:
    base = live_server.base
    ann = _token(store, "--role", "player", "--name", "Ann")
    other = _token(store, "--role", "player", "--name", "ann")  # another person
    assert ann["player_id"]
    assert other["player_id"]
    assert ann["player_id"] != other["player_id"]

    game = _new_game(base, tokens["head"], {"red": "Ann", "blue": "Ben"}, {"red": ann["player_id"]})
    assert _viewer(base, game, ann["token"]) == "red"
    assert _viewer(base, game, other["token"]) == "public"  # was red: matched "ann" to "Ann"
    refused = httpx.post(
        f"{base}/api/games/{game}/disputes",
        json={"event": 1, "claim": "not my seat"},
        headers=auth(other["token"]),
    )
    assert refused.status_code == 403, refused.text

    # The two may even sit at one table: the ids tell them apart, and each disputes
    # as their own seat.
    both = _new_game(
        base,
        tokens["head"],
        {"red": "Ann", "blue": "ann"},
        {"red": ann["player_id"], "blue": other["player_id"]},
    )
    assert (_viewer(base, both, ann["token"]), _viewer(base, both, other["token"])) == (
        "red",
        "blue",
    )
    entry = httpx.post(
        f"{base}/api/games/{both}/entries", json={"text": "e1>e2"}, headers=auth(tokens["head"])
    )
    assert entry.status_code == 201, entry.text
    opened = httpx.post(
        f"{base}/api/games/{both}/disputes",
        json={"event": 2, "claim": "blue's view"},
        headers=auth(other["token"]),
    )
    assert opened.status_code == 201, opened.text
    audit = httpx.get(f"{base}/api/games/{both}/audit", headers=auth(tokens["head"])).text
    assert "blue" in audit
    assert "blue's view" in audit


def test_a_second_device_bound_to_the_same_id_is_the_same_seat(
    live_server: ThreadServer, tokens: Tokens, store: str
) -> None:
    first = _token(store, "--role", "player", "--name", "Ann")
    second = _token(
        store, "--role", "player", "--name", "Ann B.", "--player-id", first["player_id"]
    )
    game = _new_game(
        live_server.base, tokens["head"], {"red": "Ann", "blue": "Ben"}, {"red": first["player_id"]}
    )
    assert _viewer(live_server.base, game, second["token"]) == "red"


def test_seats_without_ids_match_the_name_exactly_as_written(
    live_server: ThreadServer, tokens: Tokens, store: str
) -> None:
    """The rule for seats recorded before ids (and games entered by name alone): the
    display name as written, case kept."""
    base = live_server.base
    other = _token(store, "--role", "player", "--name", "ann")
    game = _new_game(base, tokens["head"], {"red": "Ann", "blue": "Ben"}, {})
    assert _viewer(base, game, tokens["ann"]) == "red"  # the fixture's "Ann"
    assert _viewer(base, game, other["token"]) == "public"


def test_a_seat_without_an_id_keeps_the_bytes_it_had(store: str) -> None:
    """Old stores load and verify: a creation without ids is encoded as before ids
    existed (no ``id`` key), and one with ids carries them."""
    svc = open_service(store)
    try:
        plain = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"})
        from referee.contract import Player

        bound = svc.create_game("prizmik", [Player("red", "Ann", "pl-a"), Player("blue", "Ben")])
        assert svc.verify().bad == 0
        assert svc.load(bound.game_id).created.players[0].id == "pl-a"
    finally:
        svc.close()
    db = sqlite3.connect(store)
    rows = {
        gid: state
        for gid, state in db.execute(
            "SELECT originator_id, state FROM stored_events WHERE originator_version = 1"
        )
    }
    db.close()
    assert b'"players":[{"seat":"red","name":"Ann"},{"seat":"blue","name":"Ben"}]' in bytes(
        rows[plain.game_id]
    )
    assert b'{"seat":"red","name":"Ann","id":"pl-a"}' in bytes(rows[bound.game_id])


def test_a_player_id_that_is_not_an_id_is_refused(
    live_server: ThreadServer, tokens: Tokens, store: str
) -> None:
    body = {
        "game": "prizmik",
        "players": {"red": "Ann", "blue": "Ben"},
        "player_ids": {"red": "Ann Smith"},
    }
    made = httpx.post(f"{live_server.base}/api/games", json=body, headers=auth(tokens["head"]))
    assert made.status_code in (400, 422), made.text
    assert "player id" in made.json()["detail"]
    refused = CliRunner().invoke(
        app,
        ["token", "create", "--store", store, "--role", "head", "--name", "H", "--player-id", "x"],
    )
    assert refused.exit_code == 2
    assert "only a player's token" in refused.stderr


# -- tokens that end ------------------------------------------------------------------


def test_an_expired_token_is_refused_with_its_own_words(
    live_server: ThreadServer, store: str
) -> None:
    made = _token(store, "--role", "scorekeeper", "--name", "Sam", "--expires", "1h")
    assert made["expires"]
    assert float(made["expires"]) > time.time() + 3000
    assert (
        httpx.get(f"{live_server.base}/api/games", headers=auth(made["token"])).status_code == 200
    )
    # An hour passes: the row's expiry is moved back, as the clock would.
    side = open_side_db(parse_store(store))
    side.execute(
        "UPDATE referee_tokens SET expires = ? WHERE token_id = ?",
        (time.time() - 1, made["token_id"]),
    )
    side.close()
    late = httpx.get(f"{live_server.base}/api/games", headers=auth(made["token"]))
    assert late.status_code == 401, late.text
    assert "the token expired at " in late.json()["detail"]
    listed = CliRunner().invoke(app, ["token", "list", "--store", store])
    assert f"{made['token_id']}  scorekeeper Sam  (expires " in listed.stdout


def test_expires_takes_a_duration_or_a_date_and_refuses_anything_else(store: str) -> None:
    assert parse_expiry("2w", now=1000.0) == 1000.0 + 14 * 86400
    assert parse_expiry("90m", now=0.0) == 5400.0
    assert parse_expiry("2030-01-01") == 1893456000.0
    assert parse_expiry("2030-01-01T01:00+01:00") == 1893456000.0
    for bad in ("soon", "0h", "2020-01-01"):
        result = CliRunner().invoke(
            app,
            [
                "token",
                "create",
                "--store",
                store,
                "--role",
                "head",
                "--name",
                "H",
                "--expires",
                bad,
            ],
        )
        assert result.exit_code == 2, (bad, result.stderr)
        assert result.stderr.count("\n") == 1, (bad, result.stderr)


@pytest.mark.parametrize("how", ["revoke", "rotate"])
def test_a_revoked_or_rotated_token_is_refused_on_the_next_request(
    live_server: ThreadServer, tokens: Tokens, store: str, how: str
) -> None:
    """No cached answer lets the old token in for seconds after (it was five)."""
    token = tokens["scorekeeper"]
    games = f"{live_server.base}/api/games"
    assert httpx.get(games, headers=auth(token)).status_code == 200  # now in any cache
    result = CliRunner().invoke(app, ["token", how, token.split("_")[1], "--store", store])
    assert result.exit_code == 0, result.stderr
    assert httpx.get(games, headers=auth(token)).status_code == 401


def test_a_token_revoked_between_two_entries_on_one_connection_refuses_the_second(
    live_server: ThreadServer, tokens: Tokens, store: str
) -> None:
    """Entries (the fast path's) ask SQLite whether a token changed once per event-loop turn:
    a revoke committed before the next request was sent is still seen by it."""
    token = tokens["table1"]
    with httpx.Client(base_url=live_server.base, headers=auth(token)) as http:
        made = http.post(
            "/api/games",
            json={"game": "prizmik", "players": {"red": "A", "blue": "B"}, "meta": {"table": "1"}},
        )
        assert made.status_code == 201, made.text
        url = f"/api/games/{made.json()['game_id']}/entries"
        assert http.post(url, json={"text": "e1>e2"}).status_code == 201
        elsewhere = TokenStore(open_side_db(parse_store(store)))
        assert elsewhere.revoke(token.split("_")[1])
        elsewhere.db.close()
        refused = http.post(url, json={"text": "e8>e7"})
        assert refused.status_code == 401, refused.text


def test_the_loop_turn_moves_before_anything_queued_after_its_first_reading() -> None:
    """``LoopTurn``: one number for the callbacks already queued when it was first read in a
    turn, a later one for every callback queued after (a request taken up later)."""
    import asyncio

    from web.context import LoopTurn

    turn = LoopTurn()
    assert turn() is None  # off the loop: ask every time
    seen: list[tuple[str, int | None]] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        loop.call_soon(lambda: seen.append(("queued before", turn())))
        first = turn()
        loop.call_soon(lambda: seen.append(("queued after", turn())))
        seen.append(("first", first))
        seen.append(("same step", turn()))
        await asyncio.sleep(0)
        seen.append(("next step", turn()))

    asyncio.run(scenario())
    numbers = dict(seen)
    assert numbers["first"] == numbers["same step"] == numbers["queued before"]
    assert numbers["queued after"] == numbers["next step"] != numbers["first"]


def test_a_side_db_made_before_expiry_and_ids_keeps_its_tokens(tmp_path: Path) -> None:
    """The guarded migration: the old table gains its columns; old tokens still work."""
    store = str(tmp_path / "old.db")
    open_service(store, create=True).close()
    old = sqlite3.connect(side_path(store))
    old.execute(
        "CREATE TABLE referee_tokens (token_id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, "
        "role TEXT NOT NULL, name TEXT NOT NULL, tables TEXT NOT NULL, created DOUBLE "
        "PRECISION NOT NULL, revoked INTEGER NOT NULL DEFAULT 0)"
    )
    import hashlib

    old.execute(
        "INSERT INTO referee_tokens VALUES ('abc', ?, 'player', 'Ann', '[]', 0, 0)",
        (hashlib.sha256(b"secret").hexdigest(),),
    )
    old.commit()
    old.close()
    for _ in range(2):  # twice: the second start finds the columns there
        tokens = TokenStore(open_side_db(parse_store(store)))
        who = tokens.authenticate("rf_abc_secret")
        tokens.db.close()
        assert who is not None
        assert (who.name, who.player_id, who.expires) == ("Ann", "", None)


def test_a_postgresql_side_db_made_before_expiry_and_ids_keeps_its_tokens(
    pg_env: dict[str, str],
) -> None:
    from tests.web.test_postgres_web import pg_url

    url = pg_url(pg_env)
    side = open_side_db(parse_store(url))
    side.execute(
        "CREATE TABLE referee_tokens (token_id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, "
        "role TEXT NOT NULL, name TEXT NOT NULL, tables TEXT NOT NULL, created DOUBLE "
        "PRECISION NOT NULL, revoked INTEGER NOT NULL DEFAULT 0)"
    )
    import hashlib

    side.execute(
        "INSERT INTO referee_tokens VALUES ('abc', ?, 'table', 'Tom', '[\"1\"]', 0, 0)",
        (hashlib.sha256(b"secret").hexdigest(),),
    )
    side.close()
    for _ in range(2):
        tokens = TokenStore(open_side_db(parse_store(url)))
        who = tokens.authenticate("rf_abc_secret")
        _, expiring = tokens.create("head", "Hera", expires=time.time() + 60)
        tokens.db.close()
        assert who is not None
        assert (who.tables, who.expires) == (("1",), None)
    tokens = TokenStore(open_side_db(parse_store(url)))
    try:
        assert tokens.authenticate(expiring) is not None
        tokens.db.execute("UPDATE referee_tokens SET expires = 1 WHERE role = 'head'")
        assert tokens.authenticate(expiring) is None
    finally:
        tokens.db.close()


# -- which token wrote ----------------------------------------------------------------


@pytest.mark.parametrize("threads", [0, 2])
def test_events_record_the_token_that_wrote_them(store: str, tokens: Tokens, threads: int) -> None:
    """Two devices of one holder: the log and the audit tell them apart; the token id is
    hashed with the event, so editing it is named by ``verify``."""
    from web.app import ServeConfig

    server = ThreadServer(ServeConfig(store=store, poll_interval=0.05, threads=threads))
    try:
        base = server.base
        phone = _token(store, "--role", "head", "--name", "Hera")
        tablet = _token(store, "--role", "head", "--name", "Hera")
        game = _new_game(base, phone["token"], {"red": "Ann", "blue": "Ben"}, {})
        moved = httpx.post(
            f"{base}/api/games/{game}/entries",
            json={"text": "e1>e2"},
            headers=auth(tablet["token"]),
        )
        assert moved.status_code == 201, moved.text
        fined = httpx.post(
            f"{base}/api/games/{game}/penalties",
            json={"seat": "blue", "level": "warning", "infraction": "slow play"},
            headers=auth(phone["token"]),
        )
        assert fined.status_code == 201, fined.text
        log = httpx.get(f"{base}/api/games/{game}/log", headers=auth(tokens["head"])).json()
        assert [e.get("token_id") for e in log] == [
            phone["token_id"],
            tablet["token_id"],
            phone["token_id"],
        ]
        assert {e.get("recorded_by") or e.get("by") or e.get("created_by") for e in log} == {"Hera"}
        audit = httpx.get(f"{base}/api/games/{game}/audit", headers=auth(tokens["head"])).json()
        assert [p["token"] for p in audit["penalties"]] == [phone["token_id"]]
        for reader in ("ann", "public"):  # a referee's device is the referees' business
            seen = httpx.get(f"{base}/api/games/{game}/log", headers=auth(tokens[reader]))
            assert seen.status_code == 200, seen.text
            assert "token_id" not in seen.text, seen.text
    finally:
        server.stop()

    svc = open_service(store)
    try:
        assert svc.verify().bad == 0
        _, events = svc.log_events(game)
        from service.wording import event_line

        assert f"[Hera, token {tablet['token_id']}]" in event_line(events[1])
    finally:
        svc.close()
    # Edit which token wrote the entry: the stored bytes no longer match their hash.
    db = sqlite3.connect(store)
    db.execute(
        "UPDATE stored_events SET state = replace(state, ?, ?) WHERE originator_id = ? AND "
        "originator_version = 2",
        (tablet["token_id"].encode(), phone["token_id"].encode(), game),
    )
    db.commit()
    db.close()
    svc = open_service(store)
    try:
        assert svc.verify(game).bad == 1
    finally:
        svc.close()


def test_a_command_line_write_records_no_token(store: str) -> None:
    svc = open_service(store)
    try:
        view = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"})
        assert view.created.token == ""
        assert b"token_id" not in msgspec.json.encode(view.created)
    finally:
        svc.close()


def test_a_cached_token_is_refused_once_it_expires(
    store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import service.access

    tokens = TokenStore(open_side_db(parse_store(store)), cache=True)
    try:
        principal, token = tokens.create("head", "Hera", expires=time.time() + 60)
        assert tokens.identify(token) == principal  # read, and now kept
        assert tokens.identify(token) == principal  # kept
        later = time.time() + 120
        monkeypatch.setattr("service.access.time.time", lambda: later)
        with pytest.raises(service.access.TokenRefusedError, match="the token expired at"):
            tokens.identify(token)
    finally:
        tokens.db.close()


def notified(server: TokenStore, before: int) -> None:
    """Wait until ``server`` has emptied its cache since its epoch was ``before`` (the
    NOTIFY of a revoke or rotation by another process reached its LISTEN thread)."""
    deadline = time.monotonic() + 10
    while server._epoch == before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server._epoch != before, "the NOTIFY did not reach the server"


def test_a_postgresql_server_forgets_a_token_revoked_by_another_process(
    pg_env: dict[str, str],
) -> None:
    """The server's cache is emptied by the NOTIFY of a revoke elsewhere (LISTEN)."""
    from tests.web.test_postgres_web import pg_url

    url = pg_url(pg_env)
    open_service(url, create=True).close()
    server = TokenStore(open_side_db(parse_store(url)), cache=True)
    elsewhere = TokenStore(open_side_db(parse_store(url)))
    try:
        principal, token = elsewhere.create("scorekeeper", "Sam")
        assert server.identify(token) == principal
        assert server._cache.get(token) == principal  # the server keeps the answer
        before = server._epoch
        assert elsewhere.revoke(principal.token_id)
        notified(server, before)
        assert server.authenticate(token) is None
    finally:
        server.db.close()
        elsewhere.db.close()


def test_a_postgresql_server_reads_the_live_tokens_in_one_query_and_refuses_as_before(
    pg_env: dict[str, str],
) -> None:
    """Many new tokens cost one read of the side table, not a round trip each; a wrong
    secret, a revoked token, a rotated secret and a token made since are answered as a
    read of the token's own row answers them."""
    from service.access import TokenRefusedError
    from tests.web.test_postgres_web import pg_url

    url = pg_url(pg_env)
    open_service(url, create=True).close()
    server = TokenStore(open_side_db(parse_store(url)), cache=True)
    elsewhere = TokenStore(open_side_db(parse_store(url)))
    try:
        made = [elsewhere.create("player", f"P{n}") for n in range(20)]
        revoked_principal, revoked = elsewhere.create("player", "Gone")
        emptied = server._epoch
        assert elsewhere.revoke(revoked_principal.token_id)
        notified(server, emptied)  # the revoke's NOTIFY has come and gone
        queries: list[str] = []
        execute = server.db.execute

        def counted(sql: str, params: Any = ()) -> Any:
            queries.append(sql)
            return execute(sql, params)

        server.db.execute = counted  # type: ignore[method-assign]
        assert [server.identify(token) for _, token in made] == [p for p, _ in made]
        assert len(queries) == 1, queries
        with pytest.raises(TokenRefusedError):
            server.identify(revoked)
        wrong = made[0][1][:-2] + ("xy" if not made[0][1].endswith("xy") else "zw")
        with pytest.raises(TokenRefusedError):
            server.identify(wrong)
        later, later_token = elsewhere.create("player", "Late")
        assert server.identify(later_token) == later  # not among the rows read: its own row
        before = server._epoch
        rotated = elsewhere.rotate(made[1][0].token_id)
        assert rotated is not None
        notified(server, before)
        assert server.authenticate(made[1][1]) is None
        assert server.identify(rotated) == made[1][0]
    finally:
        server.db.close()
        elsewhere.db.close()


def test_a_referee_naming_one_of_two_players_whose_names_differ_in_case_gets_that_seat(
    store: str,
) -> None:
    from referee.contract import Player
    from service.errors import RefusedError
    from service.procedure import seat_of

    svc = open_service(store)
    try:
        view = svc.create_game(
            "prizmik", [Player("red", "Ann", "pl-one"), Player("blue", "ann", "pl-two")]
        )
        assert (seat_of(view, "Ann"), seat_of(view, "ann"), seat_of(view, "BLUE")) == (
            "red",
            "blue",
            "blue",
        )
        with pytest.raises(RefusedError, match="names more than one player"):
            seat_of(view, "ANN")
    finally:
        svc.close()

"""Issue 31, "One event is not another": each numbered break of the issue, through the HTTP
API (Litestar's test client, or a real ``referee serve``) or the command line as a user
would. Clauses: EV-2.1 (known players), EV-2.2 (names and ids), EV-3.1/EV-3.5/EV-3.6 (slips),
EV-1.1/EV-1.3 (the event's settings)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient
from typer.testing import CliRunner

from cli.main import app
from events.codec import decode, encode, seal_after
from events.interchange.jsonl import export_jsonl
from events.schema import GENESIS_HASH
from tests.postgres import pg_env, pg_url  # noqa: F401 - the fixture
from tests.web.conftest import ROOT, Server, Tokens, api_event, auth
from tests.web.test_remote_cli import cli

# -- helpers ---------------------------------------------------------------------------


def _pair(client: TestClient[Litestar], head: str, event: str) -> list[dict[str, Any]]:
    rows = client.post(f"/api/events/{event}/rounds", json={}, headers=auth(head))
    assert rows.status_code == 201, rows.text
    answer: list[dict[str, Any]] = rows.json()
    return answer


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _played_and_exported(
    client: TestClient[Litestar], head: str, store: str, event: str
) -> tuple[str, str]:
    """Round 1 paired and its table 1 reported 2-1-0 over the API, then the event's record
    as ``referee event export`` prints it (its output and its errors)."""
    _pair(client, head, event)
    reported = client.post(
        f"/api/events/{event}/results", json={"slips": ["1=2-1-0"]}, headers=auth(head)
    )
    assert reported.status_code == 201
    code, honest, err = _cli("--db", store, "event", "export", event)
    assert code == 0, err
    return honest, err


# -- 1. a table referee's token is scoped by its event ---------------------------------


def test_a_table_token_names_its_event_and_reaches_no_other_events_table_1(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """Friday's table-1 token reports and reads Friday's table 1 only: Saturday's table 1
    (another event in the same store) is refused, and a token naming no event has no table
    in any event."""
    head = tokens["head"]
    friday = api_event(client, head, ["Ann", "Ben"], name="Friday", rounds=3)
    saturday = api_event(client, head, ["Cal", "Dee"], name="Saturday", rounds=3)
    (fri_table,) = _pair(client, head, friday)
    (sat_table,) = _pair(client, head, saturday)
    assert fri_table["table"] == sat_table["table"] == 1
    code, out, err = _cli(
        "token", "create", "--store", store, "--role", "table", "--name", "Fay",
        "--event", friday, "--table", "1", "--json",
    )  # fmt: skip
    assert code == 0, err
    made = json.loads(out)
    assert made["event"] == friday
    assert made["tables"] == ["1"]
    fay = made["token"]

    other = client.post(
        f"/api/events/{saturday}/results", json={"slips": ["1=2-0-0"]}, headers=auth(fay)
    )
    assert other.status_code == 403, other.text
    (sat_game,) = sat_table["games"]
    exported = client.get(f"/api/games/{sat_game}/export?format=jsonl", headers=auth(fay))
    assert exported.status_code == 403  # the full record holds the registered lists
    assert client.get(f"/api/games/{sat_game}", headers=auth(fay)).json()["viewer"] == "public"
    assert client.get(f"/api/events/{saturday}/audit", headers=auth(fay)).status_code == 403

    unscoped = tokens["table1"]  # a table-1 token of no event
    refused = client.post(
        f"/api/events/{friday}/results", json={"slips": ["1=2-0-0"]}, headers=auth(unscoped)
    )
    assert refused.status_code == 403
    assert "event" in refused.json()["detail"]
    (fri_game,) = fri_table["games"]
    assert client.get(f"/api/games/{fri_game}", headers=auth(unscoped)).json()["viewer"] == "public"

    # the referees' queue of Fay's tables is Friday's table 1, not Saturday's
    queue = client.get("/api/queue", headers=auth(fay))
    assert queue.status_code == 200, queue.text
    waiting = queue.json()["unreported"]
    assert [i["game_id"] for i in waiting] == [fri_game], waiting
    mine = client.post(
        f"/api/events/{friday}/results", json={"slips": ["1=2-0-0"]}, headers=auth(fay)
    )
    assert mine.status_code == 201, mine.text
    assert client.get(f"/api/games/{fri_game}", headers=auth(fay)).json()["viewer"] == "referee"
    # a plain game at table 1, outside every event, is the unscoped token's, not Fay's
    plain = client.post(
        "/api/games",
        json={"game": "prizmik", "players": {"red": "X", "blue": "Y"}, "meta": {"table": "1"}},
        headers=auth(unscoped),
    )
    assert plain.status_code == 201, plain.text
    game = plain.json()["game_id"]
    assert client.get(f"/api/games/{game}", headers=auth(fay)).json()["viewer"] == "public"


def test_only_a_table_token_names_an_event(store: str) -> None:
    code, _, err = _cli(
        "token", "create", "--store", store, "--role", "head", "--name", "H", "--event", "ev-x"
    )  # fmt: skip
    assert code == 2
    assert "only a table referee" in err


# -- 2. people are ids -------------------------------------------------------------------


def test_every_registration_gets_an_id_and_a_player_token_reads_only_its_own_seat(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """Two events each with an "Ann": every registration is bound to a player id (the one
    given, else a new one); a player token named "Ann" reads neither unbound by its id, and
    Ann's own token (bound to her id) reads her seat in her event only."""
    head = tokens["head"]
    one = client.post(
        "/api/events", json={"name": "One", "game": "prizmik"}, headers=auth(head)
    ).json()["event_id"]
    new = client.post(
        f"/api/events/{one}/players", json={"players": ["Ann", "Ben"]}, headers=auth(head)
    )
    assert new.status_code == 201, new.text
    ids = new.json()["player_ids"]
    assert len(set(ids)) == 2, ids
    assert all(i.startswith("pl-") for i in ids), ids  # new ones
    two = client.post(
        "/api/events", json={"name": "Two", "game": "prizmik"}, headers=auth(head)
    ).json()["event_id"]
    given = client.post(
        f"/api/events/{two}/players",
        json={"players": ["Ann", "Ben"], "player_ids": ["ann-2", "ben-2"]},
        headers=auth(head),
    )
    assert given.status_code == 201, given.text
    assert given.json()["player_ids"] == ["ann-2", "ben-2"]  # several in one call
    (row_one,) = _pair(client, head, one)
    (row_two,) = _pair(client, head, two)
    game_one, game_two = row_one["games"][0], row_two["games"][0]

    # "Ann" by name alone (the fixture's player token, bound to an id of its own) reads no seat
    for game in (game_one, game_two):
        assert client.get(f"/api/games/{game}", headers=auth(tokens["ann"])).json()["viewer"] == (
            "public"
        )
    code, out, err = _cli(
        "token", "create", "--store", store, "--role", "player", "--name", "Ann",
        "--player-id", "ann-2", "--json",
    )  # fmt: skip
    assert code == 0, err
    ann = json.loads(out)["token"]
    assert client.get(f"/api/games/{game_two}", headers=auth(ann)).json()["viewer"] != "public"
    assert client.get(f"/api/games/{game_one}", headers=auth(ann)).json()["viewer"] == "public"


def test_names_are_display_only_ids_their_own_namespace_and_lookups_exact(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    """Issue 29 section 4 and issue 31 break 7: "P2" registers first and "P100"-like names
    take no id; look-alike names (case, a Cyrillic A, a zero-width space) are refused with a
    clear message unless allowed; ``drop ann`` does not drop Ann."""
    head = auth(tokens["head"])
    event = api_event(client, tokens["head"], ["P2", "p3", "Ann"], name="Names", rounds=3)
    info = client.get(f"/api/events/{event}/standings", headers=head).json()
    assert sorted(r["player"] for r in info) == ["Ann", "P2", "p3"]
    more = client.post(f"/api/events/{event}/players", json={"players": ["Ben"]}, headers=head)
    assert more.status_code == 201
    assert more.json()["ids"] == ["p4"]

    for name, words in (
        ("ann", "looks like"),
        ("\u0410nn", "looks like"),  # a Cyrillic A
        ("Ann\u200b", "printable"),  # a zero-width space
        ("Eve\nTable 9: Zed", "one line"),
    ):
        refused = client.post(
            f"/api/events/{event}/players", json={"players": [name]}, headers=head
        )
        assert refused.status_code == 400, (name, refused.text)
        detail = refused.json()["detail"]
        assert "EV-2.2" in detail, detail
        assert words in detail, detail
    allowed = client.post(
        f"/api/events/{event}/players",
        json={"players": ["\u0410nn"], "allow_similar": True},
        headers=head,
    )
    assert allowed.status_code == 201, allowed.text

    wrong = client.post(f"/api/events/{event}/drops", json={"player": "ann"}, headers=head)
    assert wrong.status_code == 400
    assert "EV-2.1" in wrong.text
    by_name = client.post(f"/api/events/{event}/drops", json={"player": "P2"}, headers=head)
    assert by_name.status_code == 201, by_name.text
    by_id = client.post(f"/api/events/{event}/drops", json={"player": "p3"}, headers=head)
    assert by_id.status_code == 201, by_id.text  # the id p3 (the player named "p3" is p2)
    standings = client.get(f"/api/events/{event}/standings", headers=head).json()
    dropped = {r["player"] for r in standings if r["dropped_after"] is not None}
    assert dropped in ({"P2", "Ann"}, {"P2", "p3"})
    assert "Ann" not in dropped or "p3" not in dropped


def test_the_command_line_takes_several_player_ids_and_refuses_look_alikes(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    code, out, err = _cli("--db", db, "event", "new", "Cup", "--game", "prizmik")
    assert code == 0, err
    event = out.strip().splitlines()[-1]
    code, out, err = _cli(
        "--db", db, "event", "register", event, "--player", "Ann", "--player", "Ben",
        "--player-id", "ann-1", "--player-id", "ben-1", "--json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["player_ids"] == ["ann-1", "ben-1"]
    code, _, err = _cli("--db", db, "event", "register", event, "--player", "ANN")
    assert code == 2
    assert "EV-2.2" in err
    assert "--allow-similar" in err
    code, _, err = _cli(
        "--db", db, "event", "register", event, "--player", "ANN", "--allow-similar"
    )
    assert code == 0, err
    code, _, err = _cli("--db", db, "event", "drop", event, "ann")
    assert code == 2
    assert "EV-2.1" in err


# -- 3. imported event records are judged ------------------------------------------------


def _forged(record: str, change: Callable[[list[dict[str, Any]]], None]) -> str:
    """The record with its events changed by ``change`` and every hash made again, as a
    forger would: the chain is intact, only the decisions can tell."""
    lines = record.splitlines()
    header = json.loads(lines[0])
    items = [json.loads(line) for line in lines[1:] if line.strip()]
    change(items)
    events = []
    for item in items:
        topic = item.pop("topic")
        item.pop("kind")
        item["hash"] = ""
        events.append(decode(topic, msgspec.json.encode(item)))
    sealed = seal_after(0, GENESIS_HASH, events)
    rows = [(e.originator_version, _topic(e), encode(e)) for e in sealed]
    return "".join(export_jsonl(header["game_id"], header["game"], rows))


def _topic(event: Any) -> str:
    from events.schema import TOPIC_OF

    return TOPIC_OF[type(event)]


def _report(items: list[dict[str, Any]]) -> dict[str, Any]:
    return next(i for i in reversed(items) if i["kind"] == "match-reported")


def _three_zero(items: list[dict[str, Any]]) -> None:
    _report(items)["score"] = {"wins": 3, "losses": 0, "draws": 0}


def _negative(items: list[dict[str, Any]]) -> None:
    _report(items)["score"] = {"wins": -5, "losses": 9, "draws": 0}


def _twice_reported(items: list[dict[str, Any]]) -> None:
    report = _report(items)
    items.insert(items.index(report) + 1, dict(report))


def _registered_twice(items: list[dict[str, Any]]) -> None:
    items.insert(2, dict(items[1]))


def _unpaired_table(items: list[dict[str, Any]]) -> None:
    _report(items)["table"] = 9


def _cup(client: TestClient[Litestar], head: str, store: str) -> tuple[str, str]:
    """Ann and Ben's cup, round 1 reported, and its record as exported."""
    event = api_event(client, head, ["Ann", "Ben"], name="Cup", rounds=3)
    honest, err = _played_and_exported(client, head, store, event)
    assert honest.startswith('{"format"'), err
    return event, honest


def _cup_with_fixes(client: TestClient[Litestar], head: str, store: str) -> tuple[str, str]:
    """An event with the fixes of issue 29 in its record (a drop, an undrop and a change of
    the number of rounds, EV-2.7, EV-5.13), round 1 reported, and its record as exported."""
    event = api_event(client, head, ["Ann", "Ben", "Cal"], name="Fixes", rounds=3)
    for args in (
        ("drop", event, "Cal", "--reason", "left early"),
        ("undrop", event, "Cal", "--reason", "came back"),
        ("change", event, "--rounds", "2", "--reason", "short of time"),
    ):
        code, _, err = _cli("--db", store, "event", *args)
        assert code == 0, err
    honest, _ = _played_and_exported(client, head, store, event)
    kinds = [json.loads(line)["kind"] for line in honest.splitlines()[1:]]
    assert {"player-undropped", "settings-changed"} <= set(kinds)
    return event, honest


def _fact_item(beside: dict[str, Any], kind: str, fact: str, **fields: Any) -> dict[str, Any]:
    """A stored fact of the type ``fact`` with the common fields of ``beside``."""
    common = ("originator_id", "originator_version", "timestamp", "prev_hash", "hash")
    item = {"kind": kind, "topic": f"referee.event.{fact}.v1"}
    item.update({k: beside[k] for k in common})
    item.update(fields)
    return item


def _undone_after_a_result(items: list[dict[str, Any]]) -> None:
    report = _report(items)
    undo = _fact_item(report, "round-undone", "RoundUndone", round=1, reason="forged", by="")
    items.insert(items.index(report) + 1, undo)


def _undropped_never_dropped(items: list[dict[str, Any]]) -> None:
    report = _report(items)
    player = next(i for i in items if i["kind"] == "player-registered")["player"]["id"]
    back = _fact_item(report, "player-undropped", "PlayerUndropped", player=player, reason="x")
    items.insert(items.index(report) + 1, back)


@pytest.mark.parametrize(
    ("record", "forge", "clause"),
    [
        (_cup, _three_zero, "EV-3"),
        (_cup, _negative, "EV-3.1"),
        (_cup, _twice_reported, "EV-3.6"),
        (_cup, _registered_twice, "EV-2.2"),
        (_cup, _unpaired_table, "EV-3.5"),
        (_cup_with_fixes, _undone_after_a_result, "EV-5.13"),
        (_cup_with_fixes, _undropped_never_dropped, "EV-2.7"),
    ],
)
def test_an_imported_event_record_is_judged_by_the_live_decisions(
    client: TestClient[Litestar],
    tokens: Tokens,
    store: str,
    record: Callable[..., tuple[str, str]],
    forge: Callable[..., None],
    clause: str,
) -> None:
    """A re-hashed record that a live command would refuse is refused on import with the
    clause, nothing of it stored, and ``GET /events`` and the event list still answer; the
    honest record under a new id is judged intact. The fixes of issue 29 are judged as the
    live commands judge them: a round undone after a result (EV-5.13) or a player undropped
    who never dropped (EV-2.7) is refused, a record with a drop, an undrop and a change of
    the number of rounds imports intact."""
    head = auth(tokens["head"])
    event, honest = record(client, tokens["head"], store)
    forged = _forged(honest.replace(event, "ev-forged"), forge)
    answer = client.post("/api/imports", content=forged.encode(), headers=head)
    assert answer.status_code == 422, answer.text  # nothing of it imported
    assert answer.json()["type"] == "/problems/import-refused"
    (outcome,) = answer.json()["extra"]["outcomes"]
    assert outcome["status"] == "refused", outcome
    assert clause in outcome["detail"], outcome["detail"]
    assert client.get("/api/events/ev-forged", headers=head).status_code == 404
    assert client.get("/events", headers=head, follow_redirects=False).status_code in (200, 303)
    # under a new id its tables' games must be other games too: this store holds the
    # original's games for the original event (one event is not another)
    renamed = re.sub(r"\b(prizmik-[a-z0-9]+)", r"\1x", honest.replace(event, "ev-honest"))
    intact = _forged(renamed, lambda items: None)
    again = client.post("/api/imports", content=intact.encode(), headers=head)
    assert again.json()[0]["status"] == "imported", again.text


# -- 4. the wrong-token limit protects without locking out ------------------------------


def test_twenty_bad_tokens_do_not_lock_out_a_valid_one(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    codes = [
        client.get("/api/whoami", headers=auth(f"rf_guess{n}_wrong")).status_code for n in range(25)
    ]
    assert codes[0] == 401, codes
    assert codes[-1] == 429, codes
    assert client.get("/api/whoami", headers=auth(tokens["head"])).status_code == 200
    # one token id tried from many places is counted too
    web = client.app.state["web"]
    for _ in range(21):
        web.failed_auth._failures.clear()  # as if from a new address each time
        last = client.get("/api/whoami", headers=auth("rf_samething_wrong"))
    assert last.status_code == 429


def _forwarded_codes(http: httpx.Client, net: str) -> list[int]:
    """The answers to 40 bad tokens, each from an invented address ``10.NET.n.1``."""
    return [
        http.get(
            "/api/whoami",
            headers=auth(f"rf_{net}x{n}_bad", **{"X-Forwarded-For": f"10.{net}.{n}.1"}),
        ).status_code
        for n in range(40)
    ]


def test_invented_forwarded_addresses_do_not_escape_the_limit(
    serve: Callable[..., Server], store: str, tokens: Tokens
) -> None:
    """A real ``referee serve``: without ``--forwarded-allow-ips`` a client's own
    X-Forwarded-For is ignored, so 40 invented addresses are one address and are limited;
    with the proxy trusted, each forwarded address is counted on its own."""
    plain = serve(store)
    with httpx.Client(base_url=plain.base) as http:  # one client: 40 made cost a second of CPU
        codes = _forwarded_codes(http, "9")
        assert 429 in codes, codes
        assert http.get("/api/whoami", headers=auth(tokens["head"])).status_code == 200
    trusted = serve(store, "--forwarded-allow-ips", "127.0.0.1")
    with httpx.Client(base_url=trusted.base) as http:
        codes = _forwarded_codes(http, "8")
    assert set(codes) == {401}, codes


# -- 5. one set of bounds on every door ----------------------------------------------


def test_event_routes_apply_the_bounds_of_the_game_routes(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    head = auth(tokens["head"])
    for body in (
        {"name": "x" * 60_000, "game": "prizmik"},
        {"name": "Cup", "game": "prizmik", "rounds": "3"},  # a string is not a number
        {"name": "Cup", "game": "prizmik", "rounds": 10**30},
        {"name": "Cup", "game": "prizmik", "rounds": 21},
        {"name": "Cup", "game": "prizmik", "rounds": 0},
        {"name": "Cup", "game": "prizmik", "cut": 6},
        {"name": "Cup", "game": "prizmik", "cut": 128},
        {"name": "Cup\nRound 1", "game": "prizmik"},
    ):
        answer = client.post("/api/events", json=body, headers=head)
        assert 400 <= answer.status_code < 500, (body, answer.status_code)
    assert client.get("/api/events/ev-none", headers=head).status_code == 404
    event = api_event(client, tokens["head"], ["Ann", "Ben"], name="Cup", rounds=3)
    bodies: tuple[tuple[str, dict[str, Any]], ...] = (
        ("players", {"players": ["y" * 60_000]}),
        ("drops", {"player": "Ann", "reason": "r" * 20_000}),
        ("rounds", {"manual": {"pairs": [["Ann", "Ben"]]}, "reason": "r" * 20_000}),
    )
    for path, body in bodies:
        answer = client.post(f"/api/events/{event}/{path}", json=body, headers=head)
        assert 400 <= answer.status_code < 500, (path, answer.status_code)
    _pair(client, tokens["head"], event)
    version = client.get(f"/api/events/{event}", headers=head).json()["version"]
    for slip in ("1=\uff12-0-0", "\u0661=2-0-0", "1=3-0-0", "1=-5-9-0"):  # fullwidth, Arabic
        answer = client.post(f"/api/events/{event}/results", json={"slips": [slip]}, headers=head)
        assert answer.status_code == 400, (slip, answer.text)
    fixed = client.post(
        f"/api/events/{event}/corrections",
        json={"round": 1, "slip": "1=2-0-0", "reason": "r" * 20_000},
        headers=head,
    )
    assert 400 <= fixed.status_code < 500
    assert client.get(f"/api/events/{event}", headers=head).json()["version"] == version


def test_the_pages_forms_apply_the_same_bounds(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    head = auth(tokens["head"])
    made = client.post(
        "/api/games", json={"game": "prizmik", "players": {"red": "A", "blue": "B"}}, headers=head
    )
    game = made.json()["game_id"]
    answer = client.post(
        f"/games/{game}/do/retract",
        data={"reason": "r" * 20_000},
        headers={**head, "Accept": "application/json"},
    )
    assert 400 <= answer.status_code < 500
    assert "10,000" in answer.json()["message"]


def test_the_command_line_applies_the_same_bounds(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    code, _, err = _cli("--db", db, "event", "new", "x" * 100_000, "--game", "prizmik")
    assert code == 2
    assert "at most 1,000" in err
    code, _, err = _cli("--db", db, "event", "new", "Cup", "--game", "prizmik", "--rounds", "99")
    assert code == 2
    assert "1 to 20" in err
    code, out, err = _cli("--db", db, "event", "new", "Cup", "--game", "prizmik")
    event = out.strip().splitlines()[-1]
    code, _, err = _cli("--db", db, "event", "register", event, "--player", "A\nB")
    assert code == 2
    assert "one line" in err
    code, _, err = _cli(
        "token", "create", "--store", db, "--role", "head", "--name", "n" * 5_000
    )  # fmt: skip
    assert code == 2
    assert "at most 1,000" in err


# -- 6. postings verify every field they print ---------------------------------------


def test_a_posting_with_another_event_name_does_not_hold(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    key = tmp_path / "keys" / "event.key"
    key.parent.mkdir()
    code, out, err = _cli("--db", db, "event", "new", "Cup", "--game", "prizmik")
    event = out.strip().splitlines()[-1]
    assert (
        _cli("--db", db, "event", "register", event, "--player", "Ann", "--player", "Ben")[0] == 0
    )
    assert _cli("--db", db, "event", "pair", event)[0] == 0
    code, out, err = _cli("--db", db, "seal", "--new-key", str(key), "--json")
    assert code == 0, err
    code, out, err = _cli("--db", db, "event", "pairings", event, "--posting", "--key", str(key))
    assert code == 0, err
    posting = tmp_path / "posting.json"
    posting.write_text(out)
    held = _cli("--db", db, "event", "verify", event, "--posting", str(posting))
    assert held[0] == 0, held
    assert held[1].startswith("posting holds"), held
    data = json.loads(out)
    data["name"] = "Grand Prix"
    posting.write_text(json.dumps(data))
    code, out, err = _cli("--db", db, "event", "verify", event, "--posting", str(posting))
    assert code != 0, (out, err)
    assert "Grand Prix" in out + err, (out, err)
    assert not out.startswith("posting holds")


# -- 7. a first start on PostgreSQL makes every table, once ----------------------------


@pytest.mark.slow
def test_simultaneous_first_starts_on_a_fresh_schema(
    pg_env: dict[str, str],  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    """Six processes open the web face's side tables (tokens, idempotency) on one fresh
    schema at the same moment (a file barrier): none has a traceback."""
    url = pg_url(pg_env)
    barrier = tmp_path / "ready"
    barrier.mkdir()
    script = (
        "import os, sys, time\n"
        "from pathlib import Path\n"
        "from web.context import Web, ServeConfig\n"  # imported before the barrier
        "d = Path(sys.argv[2]); (d / str(os.getpid())).touch()\n"
        "while len(list(d.iterdir())) < int(sys.argv[3]): time.sleep(0.001)\n"
        "Web(ServeConfig(store=sys.argv[1])).close()\n"
        "print('started')\n"
    )
    count = 6
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", script, url, str(barrier), str(count)],
            cwd=str(ROOT),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(count)
    ]
    outputs = [p.communicate(timeout=300) for p in processes]
    for process, (out, err) in zip(processes, outputs, strict=True):
        assert "Traceback" not in err, err
        assert process.returncode == 0, err
        assert "started" in out, err


# -- 8. smaller ------------------------------------------------------------------------


def test_an_unauthenticated_malformed_post_is_401_before_400(client: TestClient[Litestar]) -> None:
    for path in ("/api/events", "/api/games", "/api/events/ev-x/results"):
        answer = client.post(
            path, content=b"{not json", headers={"Content-Type": "application/json"}
        )
        assert answer.status_code == 401, (path, answer.status_code)
        bad = client.post(path, content=b"{not json", headers=auth("rf_nope_wrong"))
        assert bad.status_code == 401, (path, bad.status_code)


def test_the_roles_table_says_what_the_scorekeeper_may_do(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    roles = (ROOT / "docs" / "server.md").read_text()  # the README's roles table moved here
    row = next(line for line in roles.splitlines() if line.startswith("| `scorekeeper` |"))
    assert "write nothing" not in row
    assert "register" in row
    event = api_event(client, tokens["head"], ["Ann", "Ben"], name="Cup", rounds=3)
    keeper = auth(tokens["scorekeeper"])
    assert (
        client.post(f"/api/events/{event}/players", json={"players": ["Cal"]}, headers=keeper)
    ).status_code == 201


def test_verify_checkpoint_runs_the_chain_checks_too(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "s.db"
    key = tmp_path / "keys" / "k.key"
    key.parent.mkdir()
    code, out, err = _cli("--db", str(db), "new", "prizmik", "-p", "red=A", "-p", "blue=B")
    assert code == 0, err
    code, out, err = _cli("--db", str(db), "seal", "--new-key", str(key), "--json")
    assert code == 0, err
    public = json.loads(out)["public_key"]
    code, out, err = _cli("--db", str(db), "seal", "--key", str(key), "--json")
    assert code == 0, err
    checkpoint = json.loads(out)["checkpoint"]
    args = ("--db", str(db), "verify", "--checkpoint", checkpoint, "--public-key", public)
    assert _cli(*args)[0] == 0
    with sqlite3.connect(db) as conn:  # an edited hash field, as issue 31 found it
        table = next(
            name
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if "event" in name and "stored" in name
        )
        rowid, state = conn.execute(f"SELECT rowid, state FROM {table} LIMIT 1").fetchone()
        edited = bytes(state).replace(b'"hash":"', b'"hash":"f', 1)
        assert edited != bytes(state)
        conn.execute(f"UPDATE {table} SET state = ? WHERE rowid = ?", (edited, rowid))
    assert _cli("--db", str(db), "verify")[0] != 0
    code, out, err = _cli(*args)
    assert code != 0, (out, err)


@pytest.mark.slow  # a server or many CLI processes started: seconds each
def test_typer_usage_errors_are_one_line() -> None:
    for args in (
        ["event", "new"],
        ["event", "new", "X", "--game", "prizmik", "--rounds", "abc"],
        ["nosuch"],
        ["verify", "--nope"],
        ["event", "register"],
    ):
        code, _, err = cli(ROOT, *args)  # the installed command, as a process
        lines = err.strip().splitlines()
        assert code == 2, (args, err)
        assert len(lines) == 1, (args, err)
        assert lines[0].startswith("error: "), (args, err)

"""Verifiable postings (issue 20, section 1): a round's pairings and standings carry the signed
checkpoint they were computed at, and ``referee event verify EVENT --posting FILE`` proves
later that nothing under them changed without a recorded correction."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from cli.main import app
from service.app import RefereeService, open_service
from service.postings import (
    by_name,
    make_posting,
    read_posting,
    standing_dicts,
    standings_json,
    verify_posting,
)
from service.seal import create_key, seal

runner = CliRunner()
PLAYERS = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus"]  # seven: a bye every round


class Event:
    """A small Swiss event of PRIZMIK (no decklists) after one round, sealed with a key."""

    def __init__(self, db: Path, key: Path) -> None:
        self.db, self.key = db, key
        self.public = create_key(key)
        with open_service(db, create=True) as svc:
            self.id = svc.event_new("Spring Open", "prizmik", rounds=3, match="bo3").event_id
            svc.event_register(self.id, PLAYERS)
            svc.event_pair(self.id)
            tables = [r.table for r in svc.event_pairings(self.id) if r.table is not None]
            svc.event_result(self.id, [f"{t}=2-0-0" if t % 2 else f"{t}=1-2-0" for t in tables])
            self.tables = tables

    def svc(self) -> RefereeService:
        return open_service(self.db)

    def forge(self, edit: Callable[[str, bytes], bytes | None]) -> None:
        """Rewrite the event's stored rows behind the store's back (a forger at the database):
        row by row in the stream's order, ``edit(topic, state)`` is the row's new state
        (``None``: the row left as it is)."""
        with sqlite3.connect(self.db) as con:
            rows = con.execute(
                "SELECT rowid, topic, state FROM stored_events WHERE originator_id = ? ORDER BY "
                "originator_version",
                (self.id,),
            ).fetchall()
            for rowid, topic, state in rows:
                new = edit(topic, bytes(state))
                if new is not None:
                    con.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (new, rowid))


@pytest.fixture
def event(tmp_path: Path) -> Event:
    return Event(tmp_path / "games.db", tmp_path / "seal.pem")


def _posting(event: Event, kind: str, round_number: int | None = None) -> Any:
    with event.svc() as svc:
        posting, later = make_posting(svc.store, event.id, kind, round_number, key=event.key)  # type: ignore[arg-type]
    assert later == 0
    return posting


def _verify(event: Event, posting: Any, key: str | None = None) -> Any:
    with event.svc() as svc:
        return verify_posting(svc.store, event.id, posting, key or event.public)


def test_postings_carry_the_cli_rows_and_a_checkpoint_and_hold_on_an_untouched_store(
    event: Event,
) -> None:
    pairings = _posting(event, "pairings")
    standings = _posting(event, "standings", 1)
    with event.svc() as svc:
        assert pairings.body == msgspec.to_builtins(svc.event_pairings(event.id, 1))
        assert standings.body == standing_dicts(svc.event_standings(event.id, 1))
        assert pairings.version == svc.event_info(event.id).version
    assert pairings.checkpoint.startswith("referee-checkpoint/1 ")
    for posting in (pairings, standings):
        report = _verify(event, posting)
        assert report.ok, report.checks
        names = ["signature", "ledger", "facts", "fields", "figures"]
        if posting.kind == "pairings":  # round 1 posts its seed: the draw is redone (EV-5.6)
            names.append("draw")
        assert [c.name for c in report.checks] == names
        assert all(c.ok for c in report.checks)
        assert report.corrections == []
        assert report.unchanged


def test_an_edited_result_row_in_the_database_is_caught(event: Event) -> None:
    posting = _posting(event, "standings", 1)
    edited: list[bytes] = []

    def first_result(topic: str, state: bytes) -> bytes | None:
        if "MatchReported" not in topic or edited:
            return None
        edited.append(state.replace(b'"wins":2', b'"wins":0', 1))
        assert edited[0] != state
        return edited[0]

    event.forge(first_result)
    assert edited, "the results are stored as the event's facts"
    report = _verify(event, posting)
    assert not report.ok
    facts = next(c for c in report.checks if c.name == "facts")
    assert not facts.ok
    assert "edited" in facts.detail
    assert "reported" in facts.detail


def test_an_edit_rehashed_by_a_forger_without_the_key_breaks_the_checkpoint(event: Event) -> None:
    """A forger who also rewrites the event's hash chain passes the stream's own check, but the
    store no longer extends the signed checkpoint."""
    from events.codec import decode, encode
    from events.codec import seal as seal_event

    posting = _posting(event, "standings", 1)
    prev = ""
    touched = False

    def rehashed(topic: str, state: bytes) -> bytes:
        nonlocal prev, touched
        stored: Any = decode(topic, state)
        if "MatchReported" in topic and not touched:
            score = msgspec.structs.replace(stored.score, wins=0, losses=2)
            stored = msgspec.structs.replace(stored, score=score)
            touched = True
        if prev:
            stored = msgspec.structs.replace(stored, prev_hash=prev)
        stored = seal_event(stored)
        prev = stored.hash
        return encode(stored)

    event.forge(rehashed)
    report = _verify(event, posting)
    assert not report.ok
    checks = {c.name: c for c in report.checks}
    assert not checks["ledger"].ok
    assert "chain" in checks["ledger"].detail


def test_a_recorded_correction_is_named_not_flagged(event: Event) -> None:
    posting = _posting(event, "standings", 1)
    with event.svc() as svc:
        svc.event_correct(
            event.id, 1, f"{event.tables[0]}=0-2-0", reason="slip filled in reversed", by="Hera"
        )
    report = _verify(event, posting)
    assert report.ok, report.checks
    assert not report.unchanged  # the standings now differ from the posting
    assert len(report.corrections) == 1
    said = str(report.corrections[0])
    assert f"round 1 table {event.tables[0]} corrected to 0-2-0" in said
    assert "Hera" in said
    assert "slip filled in reversed" in said


def test_a_posting_altered_after_it_was_printed_does_not_match_the_ledger(event: Event) -> None:
    posting = _posting(event, "standings", 1)
    posting.body[0]["points"] += 3
    report = _verify(event, posting)
    figures = next(c for c in report.checks if c.name == "figures")
    assert not report.ok
    assert not figures.ok
    assert "row 1" in figures.detail


def test_another_key_fails_the_signature(event: Event, tmp_path: Path) -> None:
    posting = _posting(event, "pairings")
    other = create_key(tmp_path / "other.pem")
    report = _verify(event, posting, other)
    assert not report.ok
    assert not next(c for c in report.checks if c.name == "signature").ok


def test_a_posting_is_computed_at_the_newest_checkpoint_and_counts_what_came_later(
    event: Event,
) -> None:
    with event.svc() as svc:
        sealed = seal(svc.store, event.key)
        svc.event_pair(event.id)  # round 2, after the checkpoint
        posting, later = make_posting(svc.store, event.id, "pairings")
        assert posting.round == 1
        assert later > 0
        assert posting.checkpoint == sealed.text()
        from service.errors import RefusedError

        with pytest.raises(RefusedError, match="paired after the newest checkpoint"):
            make_posting(svc.store, event.id, "pairings", 2)


def test_a_standings_posting_from_the_kept_table_is_the_one_the_facts_give(event: Event) -> None:
    """Issue 32 goal 3: a posting at the newest fact takes the service's kept standings
    table, not the standings from scratch; its rows are exactly those the facts give (the
    check recomputes them), with a dropped player and after a correction too."""
    with event.svc() as svc:
        svc.event_drop(event.id, "Gus")
        svc.event_correct(event.id, 1, f"{event.tables[0]}=0-2-0", reason="slip misread")
        posting, later = svc.event_posting(event.id, "standings", key=event.key)
        scratch, _ = make_posting(svc.store, event.id, "standings")  # no kept state: folded
        report = verify_posting(svc.store, event.id, posting, event.public)
    assert later == 0
    assert posting.body == scratch.body
    assert any(row.get("dropped_after") == 1 for row in posting.body)
    assert report.ok, report.checks


def test_a_posting_from_a_kept_table_that_went_wrong_fails_its_check(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept table is a cache: had it drifted from the facts (two players' lines swapped),
    the posting made from it is caught by the figures check, which recomputes the rows from
    the facts themselves (issue 32 goal 3: the check proves as much as before)."""
    from service.tournaments import Tournaments

    real = Tournaments.event_swiss_rows

    def drifted(self: Tournaments, event_id: str, version: int) -> Any:
        rows = real(self, event_id, version)
        assert rows is not None  # the posting is at the newest fact: the kept rows are used
        rows[0], rows[1] = rows[1], rows[0]
        return rows

    monkeypatch.setattr(Tournaments, "event_swiss_rows", drifted)
    with event.svc() as svc:
        posting, _ = svc.event_posting(event.id, "standings", key=event.key)
        report = verify_posting(svc.store, event.id, posting, event.public)
    assert not report.ok
    figures = next(c for c in report.checks if c.name == "figures")
    assert not figures.ok
    assert "row 1 is posted as" in figures.detail


def test_newest_at_names_the_streams_newest_fact_under_a_position(event: Event) -> None:
    """``GameStore.newest_at``: the fact a posting is computed at, as the positions give it."""
    with event.svc() as svc:
        positions = svc.store.positions(event.id)
        middle = sorted(positions.values())[len(positions) // 2]
        for at in (middle, max(positions.values())):
            wanted = max(v for v, p in positions.items() if p <= at)
            assert svc.store.newest_at(event.id, at) == (wanted, positions[wanted])
        assert svc.store.newest_at(event.id, min(positions.values()) - 1) is None


def test_pairings_by_name_lists_everyone_once_with_table_and_opponent() -> None:
    rows: list[dict[str, Any]] = [
        {"table": 1, "players": ["Ben", "ann"], "bye": False, "games": []},
        {"table": None, "players": ["Cal"], "bye": True, "games": []},
    ]
    assert by_name(rows) == [
        {"player": "ann", "table": 1, "bye": False, "opponents": ["Ben"]},
        {"player": "Ben", "table": 1, "bye": False, "opponents": ["ann"]},
        {"player": "Cal", "table": None, "bye": True, "opponents": []},
    ]


# -- the command line ------------------------------------------------------------------------


def call(db: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", str(db), "--referee", "Rita", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_posting_then_verify_holds_names_corrections_and_fails_on_tampering(
    event: Event, tmp_path: Path
) -> None:
    code, out, err = call(
        event.db,
        "event",
        "standings",
        event.id,
        "--round",
        "1",
        "--posting",
        "--key",
        str(event.key),
    )
    assert code == 0, err
    file = tmp_path / "standings.json"
    file.write_text(out)
    assert read_posting(file).kind == "standings"
    key_file = tmp_path / "public.txt"
    key_file.write_text(event.public + "\n")

    code, out, err = call(
        event.db, "event", "verify", event.id, "--posting", str(file), "--public-key", str(key_file)
    )
    assert code == 0, err
    assert out.startswith("posting holds")
    assert "nothing recorded since changes it" in out

    with event.svc() as svc:
        svc.event_correct(event.id, 1, f"{event.tables[0]}=0-2-0", reason="reversed", by="Hera")
    code, out, err = call(
        event.db, "event", "verify", event.id, "--posting", str(file), "--public-key", event.public
    )
    assert code == 0, err
    assert "1 recorded correction changes this posting" in out
    assert "reversed" in out

    code, out, _ = call(event.db, "event", "verify", event.id, "--posting", str(file), "--json")
    assert code == 0
    assert json.loads(out)["corrections"][0]["by"] == "Hera"

    with sqlite3.connect(event.db) as con:
        con.execute(
            "UPDATE stored_events SET state = replace(state, '\"wins\":2', '\"wins\":1') WHERE "
            "originator_id = ? AND topic LIKE '%MatchReported%'",
            (event.id,),
        )
    code, out, err = call(event.db, "event", "verify", event.id, "--posting", str(file))
    assert code == 1, err
    assert out.startswith("posting BROKEN"), err
    assert "facts: FAILED" in out, err


def test_cli_verify_refuses_unreadable_input_in_one_line(event: Event, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _out, err = call(event.db, "event", "verify", event.id, "--posting", str(bad))
    assert code == 2
    assert err.startswith("error: not a posting")
    assert len(err.splitlines()) == 1
    code, _, err = call(event.db, "event", "verify", event.id, "--posting", str(tmp_path / "none"))
    assert code == 2
    assert "No such file" in err
    code, _, err = call(event.db, "event", "pairings", event.id, "--posting")
    assert code == 0 or "seal" in err  # sealed by earlier postings or told to seal


def test_the_api_serves_a_posting_and_verifies_it(event: Event) -> None:
    from litestar.testing import TestClient

    from tests.web.conftest import auth, make_tokens
    from web.app import ServeConfig, create_app

    tokens = make_tokens(str(event.db))
    with event.svc() as svc:
        seal(svc.store, event.key)
    with TestClient(create_app(ServeConfig(store=str(event.db)))) as client:
        served = client.get(
            f"/api/events/{event.id}/postings/standings?round=1", headers=auth(tokens["public"])
        )
        assert served.status_code == 200, served.text
        posting = served.json()
        assert posting["kind"] == "standings"
        assert posting["round"] == 1
        with event.svc() as svc:
            svc.event_correct(event.id, 1, f"{event.tables[0]}=0-2-0", reason="reversed", by="H")
        checked = client.post(
            f"/api/events/{event.id}/postings/verify",
            json={"posting": posting, "public_key": event.public},
            headers=auth(tokens["ann"]),
        )
        assert checked.status_code == 200, checked.text
        report = checked.json()
        assert report["ok"]
        assert report["corrections"][0]["reason"] == "reversed"
        posting["body"][0]["points"] = 99
        forged = client.post(
            f"/api/events/{event.id}/postings/verify",
            json={"posting": posting},
            headers=auth(tokens["ann"]),
        ).json()
        assert not forged["ok"]
        assert "postings/verify" in client.get("/schema/openapi.json").text


def test_a_posting_claiming_another_place_or_an_unreadable_row_fails_without_a_crash(
    event: Event,
) -> None:
    posting = _posting(event, "pairings")
    moved = msgspec.structs.replace(posting, position=posting.position + 10_000)
    facts = next(c for c in _verify(event, moved).checks if c.name == "facts")
    assert not facts.ok
    assert "position" in facts.detail
    with sqlite3.connect(event.db) as con:
        con.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 2",
            (b"{not json", event.id),
        )
    report = _verify(event, posting)
    facts = next(c for c in report.checks if c.name == "facts")
    assert not report.ok
    assert not facts.ok
    assert "undecodable" in facts.detail


def test_standings_json_is_the_bytes_of_the_dicts() -> None:
    """``standings --json`` encodes the rows themselves (``standings_json``): the same bytes
    as ``standing_dicts`` encoded, its two empty keys cut, even where a player's name holds
    what such a key looks like; a dropped player and a player of the cut keep theirs."""
    from service.tournaments import RecordRow, StandingRow

    record = RecordRow(wins=1, losses=0, draws=0, byes=0)
    figures: dict[str, Any] = {
        "points": 3,
        "record": record,
        "mw": "1/1",
        "omw": "1/2",
        "gw": "1",
        "ogw": "0",
    }
    rows = [
        StandingRow(
            rank=1,
            player='A ,"went":null \\"',
            dropped_after=2,
            final_rank=1,
            went="final",
            **figures,
        ),
        StandingRow(rank=2, player='B,"dropped_after":null', **figures),
    ]
    encoded = standings_json(rows)
    assert encoded == msgspec.json.encode(standing_dicts(rows))
    assert [set(row) for row in json.loads(encoded)] == [
        set(msgspec.structs.asdict(rows[0])),
        set(msgspec.structs.asdict(rows[1])) - {"dropped_after", "went"},
    ]


def test_cli_verify_refuses_a_key_that_is_not_a_public_key(event: Event, tmp_path: Path) -> None:
    # a mistyped key, a shortened one, or the private key's file was reported as
    # "posting BROKEN" (exit 1, a signature failure): bad input now, exit 2, one line
    code, out, err = call(
        event.db, "event", "pairings", event.id, "--posting", "--key", str(event.key)
    )
    assert code == 0, err
    file = tmp_path / "pairings.json"
    file.write_text(out)
    for key, said in (
        (str(event.key), "holds a private key"),
        ("zzzz", "is not a public key"),
        (event.public[:16], "is not a public key"),
    ):
        code, out, err = call(
            event.db, "event", "verify", event.id, "--posting", str(file), "--public-key", key
        )
        assert code == 2, out
        assert said in err
        assert "BROKEN" not in out
        assert len(err.strip().splitlines()) == 1
    code, out, err = call(
        event.db, "event", "verify", event.id, "--posting", str(file), "--public-key", event.public
    )
    assert code == 0, err


def test_a_standings_posting_printed_before_the_blank_figures_still_holds(
    tmp_path: Path,
) -> None:
    """EV-I.3: a player who has played no round now shows no figures (``null``); a posting
    printed before that change showed the floor there, and still verifies; any other figure
    in that place is an alteration."""
    key = tmp_path / "seal.pem"
    public = create_key(key)
    with open_service(tmp_path / "games.db", create=True) as svc:
        event_id = svc.event_new("Early", "prizmik", rounds=3, match="bo3").event_id
        svc.event_register(event_id, ["Ann", "Ben", "Cal", "Dee"])
        svc.event_pair(event_id)
        posting, _ = make_posting(svc.store, event_id, "standings", None, key=key)
        assert posting.body
        assert all(row["mw"] is None for row in posting.body)
        old = msgspec.structs.replace(
            posting,
            body=[
                {**row, "mw": "1/3", "omw": "1/3", "gw": "1/3", "ogw": "1/3"}
                for row in posting.body
            ],
        )
        report = verify_posting(svc.store, event_id, old, public)
        assert report.ok, report.checks
        assert report.unchanged
        assert "before 29 November 2026" in report.checks[-1].detail
        forged = msgspec.structs.replace(old, body=[{**old.body[0], "omw": "1/2"}, *old.body[1:]])
        report = verify_posting(svc.store, event_id, forged, public)
        figures = next(c for c in report.checks if c.name == "figures")
        assert not report.ok
        assert not figures.ok
        assert "row 1" in figures.detail


def test_a_standings_posting_after_the_cut_carries_the_final_places(tmp_path: Path) -> None:
    """EV-6.7, EV-I.9: once the cut is made, the standings posting of the moment carries the
    final order beside its Swiss rows (``final``: the champion first, how far each player
    of the cut went), checked against the facts like the rows; a posting made before final
    places were posted (none) still holds, and one whose final order was altered does not.
    The standings after a round stay Swiss (EV-6.5) and carry none. A playoff round's
    pairings posting names its stage (EV-6.6), checked with the posting's other fields."""
    key = tmp_path / "seal.pem"
    public = create_key(key)
    with open_service(tmp_path / "games.db", create=True) as svc:
        event_id = svc.event_new("Cup", "prizmik", rounds=2, match="bo1", cut=2, seed=1).event_id
        svc.event_register(event_id, ["Ann", "Ben", "Cal", "Dee"])
        for _ in range(2):
            svc.event_pair(event_id)
            tables = [r.table for r in svc.event_pairings(event_id) if r.table is not None]
            svc.event_result(event_id, [f"{t}=1-0-0" for t in tables])
        before, _ = make_posting(svc.store, event_id, "standings", None, key=key)
        assert isinstance(before.final, msgspec.UnsetType)  # no playoff yet
        final = svc.event_pair(event_id)  # the cut and its final
        first, second = final[0].players
        svc.event_result(event_id, ["1=0-1-0"])  # the second seed wins the final
        posting, _ = make_posting(svc.store, event_id, "standings", None, key=key)
        after_swiss, _ = make_posting(svc.store, event_id, "standings", 2, key=key)
        assert isinstance(after_swiss.final, msgspec.UnsetType)
        assert isinstance(posting.final, list)
        assert posting.final[:2] == [
            {"final_rank": 1, "player": second, "went": "champion"},
            {"final_rank": 2, "player": first, "went": "finalist"},
        ]
        assert [r["final_rank"] for r in posting.final] == [1, 2, 3, 4]
        assert "went" not in posting.final[2]
        assert all(row["final_rank"] is None for row in posting.body)  # the Swiss rows
        report = verify_posting(svc.store, event_id, posting, public)
        assert report.ok, report.checks
        assert report.unchanged
        older = msgspec.structs.replace(posting, final=msgspec.UNSET)
        assert verify_posting(svc.store, event_id, older, public).ok
        swapped = [{**posting.final[0], "player": first}, {**posting.final[1], "player": second}]
        forged = msgspec.structs.replace(posting, final=[*swapped, *posting.final[2:]])
        report = verify_posting(svc.store, event_id, forged, public)
        figures = next(c for c in report.checks if c.name == "figures")
        assert not report.ok
        assert not figures.ok
        assert "final places" in figures.detail
        assert read_posting(msgspec.json.encode(posting)).final == posting.final
        # the final's pairings name their stage (EV-6.6), checked with the other fields
        pairings, _ = make_posting(svc.store, event_id, "pairings", 3, key=key)
        assert pairings.stage == "final"
        first_round, _ = make_posting(svc.store, event_id, "pairings", 1, key=key)
        assert isinstance(first_round.stage, msgspec.UnsetType)
        assert verify_posting(svc.store, event_id, pairings, public).ok
        renamed = msgspec.structs.replace(pairings, stage="semifinal")
        report = verify_posting(svc.store, event_id, renamed, public)
        fields = next(c for c in report.checks if c.name == "fields")
        assert not fields.ok
        assert "'semifinal'" in fields.detail
        assert verify_posting(
            svc.store, event_id, msgspec.structs.replace(pairings, stage=msgspec.UNSET), public
        ).ok

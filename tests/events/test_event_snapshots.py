"""Event snapshots (projections.event_state): an event loaded from its kept snapshot and the
facts after it reads exactly as the event folded from its whole log (pairings, standings with
the MTR tie-breakers of EV-4.1, the next round's pairing), a snapshot the log does not continue
or that another fold wrote is never read, and ``verify`` drops a snapshot that differs."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgspec
import pytest

from projections.event_state import (
    EventSnapshot,
    EventSnapshots,
    decode_snapshot,
    encode_snapshot,
)
from service import tournaments
from service.app import RefereeService, open_service

SLIPS = ["2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1", "0-0-3"]


@pytest.fixture(autouse=True)
def small_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep snapshots after a few facts, so a small event exercises them."""
    monkeypatch.setattr(tournaments, "SAVE_BEHIND", 5)


def play_round(svc: RefereeService, event: str, shift: int = 0) -> None:
    rows = svc.event_pair(event)
    slips = [f"{r.table}={SLIPS[((r.table or 0) + shift) % len(SLIPS)]}" for r in rows if not r.bye]
    svc.event_result(event, slips)


def build(db: Path, players: int = 13, rounds: int = 2) -> str:
    with open_service(db, create=True) as svc:
        event = svc.event_new("Snap", "gammasphere", rounds=4).event_id
        svc.event_register(event, [f"Player {n:02}" for n in range(players)])
        for number in range(rounds):
            play_round(svc, event, number)
        svc.event_standings(event)  # keeps the standings in the snapshot too
    return event


def fresh_read(db: Path, event: str) -> tuple[object, ...]:
    """Everything a command reads of the event, folded from the whole log."""
    projections = db.with_name(db.stem + ".projections.db")
    kept = projections.read_bytes() if projections.exists() else None
    if projections.exists():
        projections.unlink()
    try:
        with open_service(db) as svc:
            tournaments_keep = tournaments.SAVE_BEHIND
            tournaments.SAVE_BEHIND = 10**9  # read only: keep nothing
            try:
                return reads(svc, event)
            finally:
                tournaments.SAVE_BEHIND = tournaments_keep
    finally:
        if projections.exists():
            projections.unlink()
        if kept is not None:
            projections.write_bytes(kept)


def reads(svc: RefereeService, event: str) -> tuple[object, ...]:
    return (
        msgspec.to_builtins(svc.event_info(event)),
        msgspec.to_builtins(svc.event_standings(event)),
        msgspec.to_builtins(svc.event_pairings(event)),
        svc.event_state(event),
    )


def snapshot_row(db: Path, event: str) -> tuple[int, bytes] | None:
    with sqlite3.connect(db.with_name(db.stem + ".projections.db")) as conn:
        row = conn.execute(
            "SELECT version, state FROM event_state WHERE event_id = ?", (event,)
        ).fetchone()
    return None if row is None else (int(row[0]), bytes(row[1]))


def test_a_snapshot_is_kept_and_reads_as_the_whole_log(tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    event = build(db)
    kept = snapshot_row(db, event)
    assert kept is not None
    snapshot = decode_snapshot(kept[1])
    assert snapshot.standings is not None  # EV-4.1: the tie-breakers kept as counts
    with open_service(db) as svc:
        assert svc.event_info(event).version == kept[0]
        from_snapshot = reads(svc, event)
    assert from_snapshot == fresh_read(db, event)


def test_facts_after_the_snapshot_move_its_standings(tmp_path: Path) -> None:
    """Another process adds a round after the snapshot was kept: the standings restored from
    the snapshot are moved by those facts and equal the log's (EV-4.1, EV-8.1 corrections)."""
    db = tmp_path / "e.db"
    event = build(db)
    with open_service(db) as writer:
        tournaments.SAVE_BEHIND = 10**9  # this process keeps nothing: the snapshot lags
        play_round(writer, event, 3)
        writer.event_correct(event, 1, "1=0-2-0", reason="the slip was misread")
    tournaments.SAVE_BEHIND = 5
    with open_service(db) as svc:
        assert svc.parts.events._from_snapshot(event) is not None  # the kept one, behind the log
    with open_service(db) as svc:
        tournaments.SAVE_BEHIND = 10**9
        behind = reads(svc, event)
    assert behind == fresh_read(db, event)
    (tmp_path / "copy").mkdir()
    copy = tmp_path / "copy" / "e.db"  # the store alone: no snapshot beside it
    copy.write_bytes(db.read_bytes())
    with open_service(db) as svc:  # the next round, from the standings caught up
        pairing = [(r.table, r.players, r.bye) for r in svc.event_pair(event)]
    with open_service(copy) as svc:  # the same round from the whole log (new games' ids)
        assert [(r.table, r.players, r.bye) for r in svc.event_pair(event)] == pairing


def test_a_snapshot_the_log_does_not_continue_is_not_read(tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    event = build(db)
    kept = snapshot_row(db, event)
    assert kept is not None
    forged = msgspec.structs.replace(decode_snapshot(kept[1]), last_hash="f" * 64, name="Forged")
    with open_service(db) as svc:
        snapshots = EventSnapshots(svc.store)
        snapshots.drop(event)
        snapshots.save(event, forged)
        snapshots.close()
        assert svc.parts.events._from_snapshot(event) is None
        assert svc.event_info(event).name == "Snap"


def test_a_snapshot_of_other_code_is_not_read(tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    event = build(db)
    with sqlite3.connect(db.with_name(db.stem + ".projections.db")) as conn:
        conn.execute("UPDATE event_state SET fingerprint = 'older'")
    with open_service(db) as svc:
        assert svc.parts.events._from_snapshot(event) is None


def test_verify_drops_a_snapshot_that_differs_from_the_log(tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    event = build(db)
    with open_service(db) as svc:
        assert svc.verify(event).bad == 0
        kept = snapshot_row(db, event)
        assert kept is not None
        snapshot = decode_snapshot(kept[1])
        state = snapshot.state
        first = next(iter(state.players.values()))
        renamed = msgspec.structs.replace(first, name="Mallory")
        tampered = EventSnapshot(
            version=snapshot.version,
            last_hash=snapshot.last_hash,
            name=snapshot.name,
            state=msgspec.structs.replace(state, players=state.players.set(first.id, renamed)),
            decks=snapshot.decks,
            standings=snapshot.standings,
        )
        with sqlite3.connect(db.with_name(db.stem + ".projections.db")) as conn:
            conn.execute("UPDATE event_state SET state = ?", (encode_snapshot(tampered),))
        report = svc.verify(event)
        assert report.bad == 1
        (finding,) = report.reports[0].findings
        assert finding.problem == "snapshot"
        assert "dropped" in finding.detail
    assert snapshot_row(db, event) is None
    with open_service(db) as svc:
        assert svc.verify(event).bad == 0
        assert "Mallory" not in str(msgspec.to_builtins(svc.event_standings(event)))

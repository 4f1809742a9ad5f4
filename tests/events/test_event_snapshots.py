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
    PartedMap,
    decode_snapshot,
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
    """The kept snapshot's version and its parts (head, history, standings) in one buffer,
    as ``decode_snapshot`` reads them."""
    with sqlite3.connect(db.with_name(db.stem + ".projections.db")) as conn:
        row = conn.execute(
            "SELECT version, head, history, standings, standings_table FROM event_snapshot "
            "WHERE event_id = ?",
            (event,),
        ).fetchone()
    if row is None:
        return None
    parts = (bytes(row[1]), bytes(row[2]), *(None if r is None else bytes(r) for r in row[3:]))
    return int(row[0]), msgspec.msgpack.encode(parts)


def caught_and_dropped(svc: RefereeService, event: str, tampered: EventSnapshot) -> None:
    """``tampered`` kept as the event's snapshot: 'verify' finds it (one bad snapshot) and
    says it was dropped."""
    snapshots = EventSnapshots(svc.store)
    snapshots.drop(event)
    snapshots.save(event, tampered)
    snapshots.close()
    report = svc.verify(event)
    assert report.bad == 1
    (finding,) = report.reports[0].findings
    assert finding.problem == "snapshot"
    assert "dropped" in finding.detail


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
        conn.execute("UPDATE event_snapshot SET fingerprint = 'older'")
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
        caught_and_dropped(svc, event, tampered)
    assert snapshot_row(db, event) is None
    with open_service(db) as svc:
        assert svc.verify(event).bad == 0
        assert "Mallory" not in str(msgspec.to_builtins(svc.event_standings(event)))


# -- a snapshot in two parts (issue 32): the head read, the earlier rounds when asked for --


def history_unread(svc: RefereeService, event: str) -> bool:
    """Whether the loaded event's earlier rounds are still unread (its history)."""
    state = svc.parts.events._event(event).state
    tables = state.tables
    return isinstance(tables, PartedMap) and tables._history._maps is None


def test_a_result_and_the_standings_read_the_open_round_alone(tmp_path: Path) -> None:
    """A slip of the open round (EV-3.1), the event's info and the standings (EV-4.1) are
    answered from the snapshot's head; the earlier rounds are read only when something asks
    for them, and every read then equals the whole log's."""
    db = tmp_path / "e.db"
    event = build(db, rounds=3)
    with open_service(db) as svc:
        svc.event_pair(event)  # round 4 open: the snapshot is cut at it
        svc.event_standings(event)  # and keeps the standings
    with open_service(db) as svc:
        svc.event_info(event)
        svc.event_standings(event)
        assert history_unread(svc, event)
        svc.event_result(event, ["1=2-1-0"])
        assert history_unread(svc, event)
        state = svc.event_state(event)
        assert len(state.tables) == len(dict(state.tables.items()))  # counted, then read
        assert not history_unread(svc, event)
        from_snapshot = reads(svc, event)
    assert from_snapshot == fresh_read(db, event)


def test_a_parted_map_changes_as_the_whole_map(tmp_path: Path) -> None:
    """Setting, deleting and mutating keys of the head and of the history give the maps the
    whole state would (the parts stay apart: a change to an earlier key reads them)."""
    db = tmp_path / "e.db"
    event = build(db, rounds=3)
    with open_service(db) as svc:
        whole = fresh_read(db, event)[3]
        state = svc.event_state(event)
    assert isinstance(state.tables, PartedMap)
    plain = whole.tables  # type: ignore[attr-defined]
    for key in [(3, 1), (1, 1), (9, 9)]:
        value = plain.get((3, 2))
        assert state.tables.set(key, value) == plain.set(key, value)
        assert state.tables.get(key) == plain.get(key)
        assert (key in state.tables) == (key in plain)
        if key in plain:
            assert state.tables.delete(key) == plain.delete(key)
        mutation, expected = state.tables.mutate(), plain.mutate()
        mutation[key] = value
        expected[key] = value
        assert mutation.pop((3, 1), None) == expected.pop((3, 1), None)
        assert len(mutation) == len(expected)
        assert mutation.finish() == expected.finish()
    assert state.rounds == whole.rounds  # type: ignore[attr-defined]
    assert {**state.rounds} == whole.rounds  # type: ignore[attr-defined]


def test_a_head_written_again_keeps_its_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command that keeps a new snapshot while the earlier rounds are unread rewrites the
    head alone: the history row stays the one written at the cut."""
    db = tmp_path / "e.db"
    event = build(db, rounds=3)
    with open_service(db) as svc:
        svc.event_pair(event)
    projections = db.with_name(db.stem + ".projections.db")

    def history() -> tuple[int, bytes]:
        with sqlite3.connect(projections) as conn:
            row = conn.execute("SELECT history_id, history FROM event_snapshot").fetchone()
        return int(row[0]), bytes(row[1])

    before = history()
    monkeypatch.setattr(tournaments, "SAVE_BEHIND", 1)
    with open_service(db) as svc:
        svc.event_result(event, ["1=2-1-0"])
        assert history_unread(svc, event)
        version = svc.event_info(event).version
    assert history() == before
    row = snapshot_row(db, event)
    assert row is not None
    assert row[0] == version
    with open_service(db) as svc:
        assert reads(svc, event) == fresh_read(db, event)


def test_a_history_replaced_meanwhile_is_folded_again_from_the_log(tmp_path: Path) -> None:
    """A command that read the head and then finds the history rewritten (another process
    cut it again) folds the log up to the head's version instead: never a wrong state."""
    db = tmp_path / "e.db"
    event = build(db, rounds=3)
    with open_service(db) as svc:
        svc.event_pair(event)
    with open_service(db) as svc:
        svc.event_info(event)
        assert history_unread(svc, event)
        with sqlite3.connect(db.with_name(db.stem + ".projections.db")) as conn:
            conn.execute("UPDATE event_snapshot SET history_id = -1")
        assert reads(svc, event) == fresh_read(db, event)


def test_verify_drops_a_snapshot_whose_history_differs(tmp_path: Path) -> None:
    """``verify`` compares the earlier rounds too (EV-8.1: a result changed in the cache
    alone would change the standings)."""
    db = tmp_path / "e.db"
    event = build(db, rounds=3)
    with open_service(db) as svc:
        svc.event_pair(event)
        kept = snapshot_row(db, event)
        assert kept is not None
        snapshot = decode_snapshot(kept[1])
        state = snapshot.state
        table = state.tables[(1, 1)]
        changed = msgspec.structs.replace(table, reported=None)
        tampered = msgspec.structs.replace(
            snapshot, state=msgspec.structs.replace(state, tables=state.tables.set((1, 1), changed))
        )
        caught_and_dropped(svc, event, tampered)
    assert snapshot_row(db, event) is None


def test_the_kept_standings_table_is_read_until_a_fact_moves_it(tmp_path: Path) -> None:
    """The standings (EV-4.1) are read from the table kept with the snapshot while no fact
    since has moved them (a clock mark, EV-9.2, does not); a result does (EV-3.1), and they
    are then the counts restored and moved, equal to the log's either way."""
    db = tmp_path / "e.db"
    event = build(db, rounds=3)
    with open_service(db) as svc:
        svc.event_pair(event)
        svc.event_standings(event)
    with open_service(db) as svc:
        svc.event_round(event, "start")
        rows = svc.event_standings(event)
        assert svc.parts.events._event(event).standings is None  # the kept table, nothing restored
    assert msgspec.to_builtins(rows) == fresh_read(db, event)[1]
    with open_service(db) as svc:
        svc.event_result(event, ["1=0-2-0"])
        rows = svc.event_standings(event)
        assert svc.parts.events._event(event).standings is not None
    assert msgspec.to_builtins(rows) == fresh_read(db, event)[1]

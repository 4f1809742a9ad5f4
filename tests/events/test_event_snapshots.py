"""Event snapshots (projections.event_state): an event loaded from its kept snapshot and the
facts after it reads exactly as the event folded from its whole log (pairings, standings with
the MTR tie-breakers of EV-4.1, the next round's pairing), a snapshot the log does not continue
or that another fold wrote is never read, and ``verify`` drops a snapshot that differs."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.store import ConcurrentWriteError
from projections.event_state import (
    EventSnapshot,
    EventSnapshots,
    PartedMap,
    PartedRounds,
    decode_counts,
    decode_figures,
    decode_snapshot,
    encode_counts,
)
from referee.tournament.model import Entrant
from referee.tournament.state import Tournament
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
    """The kept snapshot's version and its parts (head, the earlier rounds' rows,
    standings) in one buffer, as ``decode_snapshot`` reads them."""
    with sqlite3.connect(db.with_name(db.stem + ".projections.db")) as conn:
        row = conn.execute(
            "SELECT h.version, h.head, s.standings, s.standings_table FROM event_snapshot h "
            "LEFT JOIN event_snapshot_standings s ON s.event_id = h.event_id WHERE h.event_id = ?",
            (event,),
        ).fetchone()
        rows = conn.execute(
            "SELECT number, written, pairings, maps FROM event_snapshot_round "
            "WHERE event_id = ? ORDER BY number",
            (event,),
        ).fetchall()
        players = conn.execute(
            "SELECT written, players FROM event_snapshot_players WHERE event_id = ?", (event,)
        ).fetchone()
    if row is None:
        return None
    standings = [None if r is None else bytes(r) for r in row[2:]]
    kept_players = None if players is None else (int(players[0]), bytes(players[1]))
    parts = (bytes(row[1]), [tuple(r) for r in rows], *standings, kept_players)
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
    head alone: the history's rows stay the ones written at the cut."""
    db = tmp_path / "e.db"
    event = build(db, rounds=3)
    with open_service(db) as svc:
        svc.event_pair(event)
    projections = db.with_name(db.stem + ".projections.db")
    before = history_rows(projections)
    assert sorted(before) == [1, 2, 3]  # round 4 is the head's
    monkeypatch.setattr(tournaments, "SAVE_BEHIND", 1)
    with open_service(db) as svc:
        svc.event_result(event, ["1=2-1-0"])
        assert history_unread(svc, event)
        version = svc.event_info(event).version
    assert history_rows(projections) == before
    row = snapshot_row(db, event)
    assert row is not None
    assert row[0] == version
    with open_service(db) as svc:
        assert reads(svc, event) == fresh_read(db, event)


def history_rows(projections: Path) -> dict[int, tuple[int, bytes, bytes]]:
    """The history's rows: round -> (the version written at, pairings, maps)."""
    with sqlite3.connect(projections) as conn:
        rows = conn.execute(
            "SELECT number, written, pairings, maps FROM event_snapshot_round"
        ).fetchall()
    return {int(r[0]): (int(r[1]), bytes(r[2]), bytes(r[3])) for r in rows}


def test_a_pairing_writes_the_row_of_the_round_it_closes_alone(tmp_path: Path) -> None:
    """Pairing the next round (EV-5.1) moves the round it closes into a row of its own; the
    earlier rounds' rows are not written again, nor read: the pairing takes the earlier
    rounds' pairings (EV-5.3: no rematch) and the kept standings (EV-4.1), not every
    table, and pairs as the whole log does."""
    db = tmp_path / "e.db"
    event = build(db, rounds=2)
    projections = db.with_name(db.stem + ".projections.db")
    with open_service(db) as svc:
        svc.event_pair(event)  # round 3: rows 1-2
    before = history_rows(projections)
    with open_service(db) as svc:
        rows = svc.event_pairings(event)
        svc.event_result(event, [f"{r.table}=2-1-0" for r in rows if not r.bye])
    (tmp_path / "copy").mkdir()
    copy = tmp_path / "copy" / "e.db"  # the store alone: no snapshot beside it
    copy.write_bytes(db.read_bytes())
    with open_service(db) as svc:
        pairing = [(r.table, r.players, r.bye) for r in svc.event_pair(event)]
        assert history_unread(svc, event)  # the tables of rounds 1-3 were never decoded
    after = history_rows(projections)
    assert sorted(after) == [1, 2, 3]
    assert {n: after[n] for n in before} == before
    with open_service(copy) as svc:
        assert [(r.table, r.players, r.bye) for r in svc.event_pair(event)] == pairing
    with open_service(db) as svc:
        assert reads(svc, event) == fresh_read(db, event)


@pytest.mark.parametrize("large", [True, False])
def test_a_large_save_has_the_file_copy_its_log_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, large: bool
) -> None:
    """A save of ``APART_BYTES`` or more (a pairing's, EV-5.1, at 10,000 players) starts the
    read models' checkpoint on a thread of its own (``Tables.checkpoint_apart``), and the
    service's close waits for it: the log is then removed as before, and the event reads as
    its whole log. A smaller save leaves the checkpoint to the close."""
    from projections import event_state
    from tests.held import held_checkpoints

    db = tmp_path / "e.db"
    event = build(db, rounds=2)
    projections = db.with_name(db.stem + ".projections.db")
    monkeypatch.setattr(event_state, "APART_BYTES", 1 if large else 1 << 40)
    held, copied = held_checkpoints(monkeypatch)
    svc = open_service(db)
    try:
        svc.event_pair(event)  # round 3: its snapshot kept
        snapshots = svc.parts.events._snapshots()
        assert snapshots is not None
        assert not copied
    finally:
        held.set()
        svc.close()
    assert copied == ([snapshots.db.checkpoints] if large else [])  # type: ignore[attr-defined]
    assert not Path(f"{projections}-wal").exists()
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
            conn.execute("UPDATE event_snapshot_round SET written = -1")
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
    are then the kept counts moved by it, equal to the log's either way."""
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
        loaded = svc.parts.events._event(event)
        assert loaded.kept_table() is None  # moved by the result
        assert loaded.counted()
    assert msgspec.to_builtins(rows) == fresh_read(db, event)[1]


# -- the kept standings against the log, on generated events (issue 32) --


def agreeing_slip(state: Tournament, table: int, pick: int) -> str:
    """A slip for ``table`` of the current round, chosen by ``pick``, that counts the games
    already decided there (EV-3.10): a game loss given before the round (EV-8.6) decides the
    penalized player's first game as soon as the round is paired, at whichever table the
    pairing seats them."""
    decided = state.tables[(state.current_round, table)].games_score()
    first = table * (pick + 1) % len(SLIPS)
    for slip in SLIPS[first:] + SLIPS[:first]:
        wins, losses, draws = (int(n) for n in slip.split("-"))
        if wins >= decided.wins and losses >= decided.losses and draws >= decided.draws:
            return slip
    raise AssertionError(f"no slip counts table {table}'s games: {decided}")


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    players=st.integers(5, 9),
    steps=st.lists(
        st.tuples(
            st.sampled_from(["round", "round", "correct", "drop", "late", "penalty"]),
            st.integers(0, 40),
        ),
        min_size=3,
        max_size=6,
    ),
)
def test_kept_standings_pair_as_the_standings_recomputed(
    players: int, steps: list[tuple[str, int]]
) -> None:
    """On generated events (odd fields get byes, EV-5.4; slips close their games as void,
    EV-3.9; drops, EV-2.6; late entries taking losses, EV-2.9; penalties, EV-8.6; an
    earlier round's result corrected, EV-8.1), each command run as its own process would
    (a fresh service reading the kept snapshot), the standings kept and moved by the
    tables touched since (EV-4.1) equal the whole log's, and the next round is paired from
    them exactly as from the standings worked out again (EV-5.3)."""
    tournaments.SAVE_BEHIND = 3
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "e.db"
        with open_service(db, create=True) as svc:
            event = svc.event_new("Gen", "gammasphere", rounds=9).event_id
            svc.event_register(event, [f"Player {n}" for n in range(players)])
            rows = svc.event_pair(event)
            svc.event_result(event, [f"{r.table}=2-1-0" for r in rows if not r.bye])
        for number, (action, pick) in enumerate(steps):
            with open_service(db) as svc:
                state = svc.event_state(event)
                active = [e.name for e in state.players.values() if e.dropped_after is None]
                if action == "round" and state.current_round < 9:
                    here = Path(folder) / f"copy{number}"
                    here.mkdir()
                    (here / "e.db").write_bytes(db.read_bytes())  # no snapshot: the log alone
                    rows = svc.event_pair(event)
                    with open_service(here / "e.db") as whole:
                        again = whole.event_pair(event)
                    assert [(r.table, r.players, r.bye) for r in rows] == [
                        (r.table, r.players, r.bye) for r in again
                    ]
                    paired = svc.event_state(event)
                    slips = [
                        f"{r.table}={agreeing_slip(paired, r.table or 0, pick)}"
                        for r in rows
                        if not r.bye
                    ]
                    svc.event_result(event, slips)
                elif action == "correct" and state.current_round > 1:
                    was = state.result(1, 1)  # a correction changes the result (EV-8.1)
                    slip = "1=2-0-0" if getattr(was, "losses", None) == 2 else "1=0-2-0"
                    svc.event_correct(event, 1, slip, reason="the slip was misread")
                elif action == "drop" and len(active) > 3:
                    svc.event_drop(event, active[pick % len(active)])
                elif action == "late" and state.current_round:
                    svc.event_register(event, [f"Late {number}"], late_as_losses=True)
                elif action == "penalty":
                    svc.event_penalize(event, active[pick % len(active)], "deck-problem")
            with open_service(db) as svc:
                assert reads(svc, event) == fresh_read(db, event)
                assert svc.verify(event).bad == 0


def rounds_unread(svc: RefereeService, event: str) -> bool:
    """Whether the loaded event's earlier rounds' pairings are still unread."""
    rounds = svc.parts.events._event(event).state.rounds
    return isinstance(rounds, PartedRounds) and rounds._history._rounds is None


def test_a_pairing_reads_the_kept_history_not_the_earlier_pairings(tmp_path: Path) -> None:
    """The head keeps the earlier rounds' kinds and pairing history (each player's opponents
    and byes): pairing the next round (EV-5.3 no rematch, EV-5.4 one bye) decodes none of
    their pairings, and pairs as the whole log does, round after round."""
    db = tmp_path / "e.db"
    event = build(db, rounds=2)
    (tmp_path / "copy").mkdir()
    copy = tmp_path / "copy" / "e.db"  # the store alone: no snapshot beside it
    for _ in range(2):  # rounds 3 and 4, each with one more round in the history
        copy.write_bytes(db.read_bytes())
        with open_service(db) as svc:
            state = svc.parts.events._event(event).state
            kept = (state.history(), state.round_kinds())
            assert rounds_unread(svc, event)
            pairing = [(r.table, r.players, r.bye) for r in svc.event_pair(event)]
            assert rounds_unread(svc, event)
            slips = [f"{table}=2-1-0" for table, _, bye in pairing if not bye]
            svc.event_result(event, slips)
        with open_service(copy) as svc:
            whole = svc.event_state(event)
            assert kept == (whole.history(), whole.round_kinds())
            assert [(r.table, r.players, r.bye) for r in svc.event_pair(event)] == pairing
    with open_service(db) as svc:
        assert svc.verify(event).bad == 0


def test_verify_drops_a_snapshot_whose_kept_pairing_history_differs(tmp_path: Path) -> None:
    """``verify`` compares the pairing history the head keeps with the log's: a rematch the
    cache alone forgot (EV-5.3) would let the next round pair it again."""
    db = tmp_path / "e.db"
    event = build(db, rounds=3)
    with open_service(db) as svc:
        svc.event_pair(event)
        assert svc.verify(event).bad == 0
    projections = db.with_name(db.stem + ".projections.db")
    with sqlite3.connect(projections) as conn:
        (head,) = conn.execute(
            "SELECT head FROM event_snapshot WHERE event_id = ?", (event,)
        ).fetchone()
        fields = msgspec.msgpack.decode(bytes(head))
        met, byes = msgspec.msgpack.decode(fields["old_met"])
        player = next(p for p, opponents in met.items() if opponents)
        met[player] = met[player][1:]  # one earlier opponent forgotten
        fields["old_met"] = msgspec.msgpack.encode([met, byes])
        conn.execute(
            "UPDATE event_snapshot SET head = ? WHERE event_id = ?",
            (msgspec.msgpack.encode(fields), event),
        )
    with open_service(db) as svc:
        report = svc.verify(event)
        assert report.bad == 1
        (finding,) = report.reports[0].findings
        assert finding.problem == "snapshot"
        assert "pairing history" in finding.detail
    assert snapshot_row(db, event) is None


def test_the_kept_standings_are_read_when_first_needed(tmp_path: Path) -> None:
    """A command loads a snapshot's head alone: its standings (6 MB at 10,000 players) are
    read when first needed, at the snapshot's version. One replaced meanwhile by another
    process's newer snapshot reads as none kept: the standings are counted from the state
    and equal the whole log's (EV-4.1)."""
    db = tmp_path / "e.db"
    event = build(db)
    with open_service(db) as svc:
        loaded = svc.parts.events._event(event)
        later = loaded._later
        assert later is not None
        assert later.standings  # kept, not read yet
        assert later.table
        assert svc.event_info(event).version == loaded.version
        assert later.standings  # a look at the event reads neither
        assert later.table
        with open_service(db) as writer:  # another process: a round, a newer snapshot
            play_round(writer, event, 3)
            writer.event_standings(event)
        kept = snapshot_row(db, event)
        assert kept is not None
        assert kept[0] > loaded.version
        assert later.read("standings") is None  # the one it loaded is gone
        replaced = reads(svc, event)
        assert svc.parts.events._event(event).version == kept[0]
    assert replaced == fresh_read(db, event)
    with open_service(db) as svc:  # the newer one, read when the standings are asked
        assert reads(svc, event) == fresh_read(db, event)


def test_kept_counts_are_read_a_section_at_a_time(tmp_path: Path) -> None:
    """The kept standings counts (EV-4.1) are kept in sections of their own: the whole
    counts read back as written, the figures without their results, and the results' keys
    asked about only where a question names a round a kept result is of (a pairing after
    a round's slips asks of that round's tables: none read)."""
    db = tmp_path / "e.db"
    event = build(db, rounds=2)  # rounds 1 and 2 reported, the standings kept
    with open_service(db) as svc:
        counts = svc.parts.events._event(event).kept_counts()
    assert counts is not None
    assert counts.results
    raw = encode_counts(counts)
    assert decode_counts(raw) == counts
    figures, keys = decode_figures(raw)
    assert figures.named() == msgspec.structs.replace(counts, sums=[], figures=[], results=[])
    assert figures.opponents[0] == [counts.players.index(o) for o in counts.opponents[0]]
    kept_key = counts.results[0][0]
    assert keys.isdisjoint([(3, 1), (3, 2)])  # round 3: no kept result is of it
    assert keys._read is None  # ... known from the rounds alone, the keys not decoded
    assert not keys.isdisjoint([(3, 1), kept_key])
    assert keys.isdisjoint([(kept_key[0], 999)])
    with pytest.raises(msgspec.DecodeError):
        decode_counts(msgspec.Raw(msgspec.msgpack.encode(counts)))  # not the framed layout
    with pytest.raises(msgspec.DecodeError):
        decode_counts(msgspec.Raw(bytes(raw)[:-10]))  # cut short


def _third_round_reported(db: Path) -> str:
    """An event of two stored rounds with its round 3 paired and every table reported:
    rounds 1-2 are the snapshot's history."""
    event = build(db, rounds=2)
    with open_service(db) as svc:
        svc.event_pair(event)
        svc.event_result(
            event, [f"{r.table}=2-1-0" for r in svc.event_pairings(event) if not r.bye]
        )
    return event


def test_a_pairings_new_games_are_linked_without_the_historys_digests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pairing a round (EV-5.1) links each table's new game (EV-3.1): their ids are new to
    the store, so folding the links digests none of them to look for it among the earlier
    rounds' games; the earlier rounds' games are still found there, and the state, the
    pairings and 'verify' are the whole log's."""
    from projections import event_state

    db = tmp_path / "e.db"
    event = _third_round_reported(db)
    digested: list[str] = []
    real = event_state._digest

    def recorded(key: str) -> int:
        digested.append(key)
        return real(key)

    monkeypatch.setattr(event_state, "_digest", recorded)
    with open_service(db) as svc:
        rows = svc.event_pair(event)  # round 4: round 3 moves to the history
        state = svc.parts.events._event(event).state
        assert isinstance(state.tables, PartedMap)
        assert isinstance(state.games, PartedMap)
        new = {
            game
            for (number, _), table in state.tables._head.items()
            if number == 4
            for game in table.games
        }
        assert len(new) == sum(1 for r in rows if not r.bye) > 0
        assert new.isdisjoint(digested)
        history = state.games._history
        old = next(game for game, (number, _) in state.games.items() if number == 1)
        test = history.old_test("games")
        assert test is not None
        assert history.is_old("games", old)
        assert test(old)
        assert not history.is_old("games", next(iter(new)))
        assert not test(next(iter(new)))
        assert reads(svc, event) == fresh_read(db, event)
        assert svc.verify(event).bad == 0


def test_a_pairing_refused_for_a_stored_game_id_leaves_it_in_the_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new game drawn under the id of a game stored already is refused with its whole
    pairing (EV-5.1: nothing is stored): that id is not taken as new, so the earlier
    round's game is still found where the history keeps it."""
    db = tmp_path / "e.db"
    event = _third_round_reported(db)
    with open_service(db) as svc:
        events = svc.parts.events
        games = events._event(event).state.games
        assert isinstance(games, PartedMap)
        history = games._history
        old = next(game for game, (number, _) in games.items() if number == 1)
        drawn = events.store.new_game_ids

        def reused(game: str, count: int) -> list[str]:
            return [old, *drawn(game, count)[1:]]

        monkeypatch.setattr(events.store, "new_game_ids", reused)
        with pytest.raises(ConcurrentWriteError):
            svc.event_pair(event)
        test = history.old_test("games")
        assert test is not None
        assert test(old)
        monkeypatch.undo()
        svc.event_pair(event)
        assert svc.verify(event).bad == 0


@pytest.mark.parametrize("most_runs", [32, 2])
def test_each_pairing_appends_the_closed_rounds_game_digests_as_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, most_runs: int
) -> None:
    """Each pairing (EV-5.1) moves the round it closes to the history and appends that
    round's game digests to the kept ones as a sorted run of its own, the earlier runs kept
    as written; past the most runs kept they are merged into one. Either way every earlier
    round's game is found old, the open round's is not, and the state, the pairings and
    'verify' are the whole log's."""
    from projections import event_state

    monkeypatch.setattr(event_state, "_MOST_RUNS", most_runs)
    db = tmp_path / "e.db"
    with open_service(db, create=True) as svc:
        event = svc.event_new("Snap", "gammasphere", rounds=6).event_id
        svc.event_register(event, [f"Player {n:02}" for n in range(13)])
        kept: list[bytes] = []
        for number in range(5):
            play_round(svc, event, number)
            row = snapshot_row(db, event)
            assert row is not None
            head = event_state._HEAD.decode(decode_snapshot_head(row[1]))
            runs = head.old_runs.get("games", [])
            data = head.old_keys.get("games", b"")
            assert runs == event_state._runs(runs, len(data) // 8)  # rising, ending at the end
            if most_runs > number + 1:
                assert len(runs) == number  # one run a round closed (none before round 2)
                assert all(data.startswith(before) for before in kept)  # the runs stay
            kept.append(data)
        svc.event_pair(event)
        state = svc.parts.events._event(event).state
        assert isinstance(state.games, PartedMap)
        history = state.games._history
        if most_runs == 2:
            assert len(history.kept_runs["games"]) <= 2
        for game, (number, _) in state.games.items():
            assert history.is_old("games", game) == (number < history.cut)
        assert reads(svc, event) == fresh_read(db, event)
        assert svc.verify(event).bad == 0


def decode_snapshot_head(data: bytes) -> bytes:
    """The head's bytes of a kept snapshot in one buffer (``snapshot_row``)."""
    head, *_ = msgspec.msgpack.decode(data)
    assert isinstance(head, bytes)
    return head


def test_a_pairings_links_update_the_heads_maps_in_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The 5,000 games a pairing links (EV-3.8) are tables of the round the head holds and
    games new to the store: their fold updates the head's tables and games in one pass each
    (the links are never folded one by one), and reads as the whole log's fold: the
    pairings, the standings, the state and 'verify'."""
    db = tmp_path / "e.db"
    event = _third_round_reported(db)

    def refused(*args: object, **kwargs: object) -> Tournament:
        raise AssertionError("the links were folded one by one")

    monkeypatch.setattr(tournaments, "fold_stored", refused)
    with open_service(db) as svc:
        rows = svc.event_pair(event)
        state = svc.parts.events._event(event).state
        assert isinstance(state.tables, PartedMap)
        assert state.tables._full is None  # the earlier rounds' tables never read
        linked = [r for r in rows if not r.bye]
        assert linked
        assert all(len(r.games) == 1 for r in linked)
        monkeypatch.undo()
        assert reads(svc, event) == fresh_read(db, event)
        assert svc.verify(event).bad == 0


def kept_head(db: Path, event: str) -> object:
    from projections import event_state

    row = snapshot_row(db, event)
    assert row is not None
    head = event_state._HEAD.decode(decode_snapshot_head(row[1]))
    players = msgspec.msgpack.decode(row[1])[4]  # the players' row: label and bytes
    if head.players_at and players is not None and players[0] == head.players_at:
        head.players = msgspec.Raw(players[1])
    return head


def test_the_players_are_kept_as_written_until_one_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save of a state whose players are the map its snapshot read writes their kept
    bytes again (a pairing, EV-5.1, changes no player); a player dropped (EV-2.6) is
    written afresh. Either way the event reads as the whole log's fold."""
    from projections import event_state

    db = tmp_path / "e.db"
    event = _third_round_reported(db)
    before = kept_head(db, event)
    assert isinstance(before, event_state._Head)
    assert before.players
    encoded: list[object] = []
    real = event_state._ENCODER

    class Recording:
        def encode(self, value: object) -> bytes:
            if isinstance(value, list) and value and isinstance(value[0], Entrant):
                encoded.extend(value)  # the players' bytes: their entrants alone
            return real.encode(value)

    monkeypatch.setattr(event_state, "_ENCODER", Recording())
    with open_service(db) as svc:
        svc.event_pair(event)  # round 4: round 3 moves to the history, the head is written
        entrants = set(svc.parts.events._event(event).state.players.values())
    after = kept_head(db, event)
    assert isinstance(after, event_state._Head)
    assert after.version > before.version
    assert bytes(after.players) == bytes(before.players)
    assert after.players_at == before.players_at  # their row left as it was
    assert not entrants.intersection(encoded)  # no entrant encoded again
    with open_service(db) as svc:
        player = next(iter(svc.parts.events._event(event).state.players))
        svc.event_drop(event, player)
        svc.event_result(event, ["1=2-0-0"])
        assert reads(svc, event) == fresh_read(db, event)
    dropped = kept_head(db, event)
    assert isinstance(dropped, event_state._Head)
    assert bytes(dropped.players) != bytes(before.players)
    assert dropped.players_at > before.players_at  # their row written afresh
    with open_service(db) as svc:
        assert reads(svc, event) == fresh_read(db, event)
        assert svc.verify(event).bad == 0


def standings_row(db: Path, event: str) -> tuple[int, bytes] | None:
    """The kept standings row's label and counts (``event_snapshot_standings``)."""
    with sqlite3.connect(db.with_name(db.stem + ".projections.db")) as conn:
        row = conn.execute(
            "SELECT written, standings FROM event_snapshot_standings WHERE event_id = ?",
            (event,),
        ).fetchone()
    return None if row is None else (int(row[0]), bytes(row[1]))


def test_a_pairing_leaves_the_kept_standings_row_as_written(tmp_path: Path) -> None:
    """The standings (EV-4.1) are kept in a row of their own: a pairing (EV-5.1) moves
    none of them, so its snapshot writes a new head standing on the row as it was (the
    same label, the same bytes, not written again), and every read, the next pairing and
    'verify' are the whole log's."""
    db = tmp_path / "e.db"
    event = _third_round_reported(db)
    with open_service(db) as svc:
        svc.event_standings(event)  # the round's results counted and kept
    before_head = snapshot_row(db, event)
    before = standings_row(db, event)
    assert before is not None
    assert before_head is not None
    with open_service(db) as svc:
        svc.event_pair(event)  # round 4: a new head
    after_head = snapshot_row(db, event)
    assert after_head is not None
    assert after_head[0] > before_head[0]
    assert standings_row(db, event) == before  # the row left as it was
    with open_service(db) as svc:
        assert svc.parts.events._event(event)._later is not None  # kept, read when asked
        assert svc.verify(event).bad == 0
        from_snapshot = reads(svc, event)
    assert from_snapshot == fresh_read(db, event)


def damage_row(db: Path, event: str, table: str, damage: str) -> None:
    """The event's row of the projections' ``table`` deleted (``damage`` "missing"), or
    made another head's (``damage`` "stale": its ``written`` label moved on by one)."""
    with sqlite3.connect(db.with_name(db.stem + ".projections.db")) as conn:
        if damage == "missing":
            conn.execute(f"DELETE FROM {table} WHERE event_id = ?", (event,))
        else:
            conn.execute(f"UPDATE {table} SET written = written + 1 WHERE event_id = ?", (event,))


@pytest.mark.parametrize("damage", ["missing", "stale"])
def test_a_missing_or_stale_standings_row_reads_as_none_kept(tmp_path: Path, damage: str) -> None:
    """A head whose standings row is gone, or is another head's (its label not the one
    this head stands on), reads as a snapshot without standings: they are counted from
    the state and equal the whole log's (EV-4.1), and the next keep writes them again."""
    db = tmp_path / "e.db"
    event = build(db, rounds=2)
    kept = standings_row(db, event)
    assert kept is not None
    damage_row(db, event, "event_snapshot_standings", damage)
    with open_service(db) as svc:
        loaded = svc.parts.events._event(event)
        assert loaded._later is None
        assert not loaded._keeps_standings()
        assert svc.verify(event).bad == 0
        from_snapshot = reads(svc, event)
    assert from_snapshot == fresh_read(db, event)
    with open_service(db) as svc:
        play_round(svc, event, 2)  # the next round: the snapshot kept again, with standings
        svc.event_standings(event)
    again = standings_row(db, event)
    assert again is not None
    assert again[0] > kept[0]  # written afresh, at a later version
    with open_service(db) as svc:
        assert svc.parts.events._event(event)._keeps_standings()
        assert reads(svc, event) == fresh_read(db, event)


def test_a_parted_maps_head_keys_are_answered_without_the_history(tmp_path: Path) -> None:
    """A lookup of a key the head holds (the open round's tables: a pairing looks up
    thousands) is answered from the head without asking whether the history holds it;
    a key of an earlier round, or of none, is still answered as the whole map answers."""
    db = tmp_path / "e.db"
    event = build(db, rounds=3)
    with open_service(db) as svc:
        whole = fresh_read(db, event)[3]
        state = svc.event_state(event)
    tables = state.tables
    assert isinstance(tables, PartedMap)
    plain = whole.tables  # type: ignore[attr-defined]
    history = tables._history
    mutation = tables.mutate()
    asked: list[object] = []
    real = history.old_test

    def counted(name: str) -> object:
        asked.append(name)
        return real(name)

    history.old_test = counted  # type: ignore[method-assign,assignment]
    head = next(iter(tables._head.keys()))
    assert tables.get(head) == plain.get(head)
    assert tables[head] == plain[head]
    assert head in tables
    assert mutation.get(head) == plain.get(head)
    assert head in mutation
    assert asked == []  # the head answered alone
    for key in [(1, 1), (9, 9)]:
        assert tables.get(key) == plain.get(key)
        assert (key in tables) == (key in plain)
        assert mutation.get(key) == plain.get(key)
    assert asked  # the earlier and the unknown keys asked the history


@pytest.mark.parametrize("damage", ["missing", "stale"])
def test_a_missing_or_stale_players_row_makes_the_snapshot_unread(
    tmp_path: Path, damage: str
) -> None:
    """The players are kept in a row of their own: a head whose players row is gone, or is
    not the one it stands on, is not read (the event is folded from its log, EV-2.1's
    players as registered) and the next keep writes a whole snapshot again."""
    db = tmp_path / "e.db"
    event = build(db, rounds=2)
    damage_row(db, event, "event_snapshot_players", damage)
    with open_service(db) as svc:
        snapshots = svc.parts.events._snapshots()
        assert snapshots is not None
        assert snapshots.load_head(event) is None  # not read
        assert svc.verify(event).bad == 0
        from_log = reads(svc, event)
    assert from_log == fresh_read(db, event)
    with open_service(db) as svc:
        play_round(svc, event, 2)  # kept again
        snapshots = svc.parts.events._snapshots()
        assert snapshots is not None
        assert snapshots.load_head(event) is not None
        assert reads(svc, event) == fresh_read(db, event)


def test_the_kept_rows_on_postgresql(pg_env: dict[str, str]) -> None:
    """On PostgreSQL too, the standings and the players are kept in rows of their own: a
    pairing (EV-5.1) leaves both as written, and a fresh process reads the event as the
    whole log folds it, its standings (EV-4.1) read when asked; 'verify' finds it intact."""
    from events.store import GameStore

    def service() -> RefereeService:  # a command's process: its standings not built
        return RefereeService(GameStore(env=pg_env))

    svc = service()
    try:
        event = svc.event_new("Snap", "gammasphere", rounds=4).event_id
        svc.event_register(event, [f"Player {n:02}" for n in range(13)])
        for number in range(2):
            play_round(svc, event, number)
        svc.event_standings(event)  # kept, with the standings
        snapshots = svc.parts.events._snapshots()
        assert snapshots is not None
        before = snapshots.load(event)
        assert before is not None
        assert before.standings is not None
    finally:
        svc.close()
    svc = service()  # another command: the pairing
    try:
        svc.event_pair(event)  # round 3: a new head
        snapshots = svc.parts.events._snapshots()
        assert snapshots is not None
        after = snapshots.load(event)
        assert after is not None
        assert after.version > before.version
        assert after.standings_at == before.standings_at  # the standings row left
        assert bytes(after.standings or b"") == bytes(before.standings)
    finally:
        svc.close()
    fresh = service()
    try:
        loaded = fresh.parts.events._event(event)
        assert loaded._later is not None  # the standings kept, not read yet
        assert loaded.version == after.version
        assert fresh.verify(event).bad == 0
        kept = (
            msgspec.to_builtins(fresh.event_standings(event)),
            msgspec.to_builtins(fresh.event_pairings(event)),
        )
    finally:
        fresh.close()
    whole = service()
    try:
        whole.parts.events._snapshots_looked = True  # no snapshot: the whole log folded
        assert kept == (
            msgspec.to_builtins(whole.event_standings(event)),
            msgspec.to_builtins(whole.event_pairings(event)),
        )
    finally:
        whole.close()


def test_the_players_bytes_read_back_as_the_map_they_were_written_from() -> None:
    """A snapshot keeps its players as their entrants alone (``_players_bytes``), each
    read back keyed by its id as the fold keys it (EV-2.2): every field, set or left
    unset, comes back; a map keyed otherwise is refused rather than kept wrong."""
    import immutables

    from projections import event_state

    entrants = [
        Entrant(id="p1", name="Ann", order=0),
        Entrant(id="p2", name="Bo", order=1, rating=1500, table=4, byes=2, player_id="pl-x"),
        Entrant(id="p3", name="Cy", order=2, entry_round=3, late_as_losses=True),
        Entrant(id="p4", name="Di", order=3, dropped_after=2, late_as_losses=False),
    ]
    players = immutables.Map({e.id: e for e in entrants})
    data = event_state._players_bytes(players)
    back = event_state._players_map(data)
    assert back == players
    assert [back[e.id] for e in entrants] == entrants
    assert all(key is back[key].id for key in back)  # one string each, not two
    assert not event_state._players_map(event_state._players_bytes(immutables.Map()))
    with pytest.raises(ValueError, match="keyed"):
        event_state._players_bytes(players.set("p9", entrants[0]))


def test_a_heads_tables_read_back_as_kept_by_either_path() -> None:
    """A head's tables (every field of ``TableState`` but its result, and the result in
    the field of its type) read back as the very tables kept: by the keywords written out
    (``TableState``'s fields as they are now) and by the general path a new field takes."""
    from projections import event_state
    from referee.tournament.model import Placement, Score
    from referee.tournament.state import TableState

    assert tuple(event_state._TABLE_NAMES) == event_state._TABLE_ROW_NAMES
    tables = {
        (9, 1): TableState(round=9, table=1, players=("a", "b"), reported=Score(2, 1)),
        (9, 2): TableState(
            round=9,
            table=2,
            players=("c", "d", "e"),
            games=("g1",),
            game_results=(("g1", (("c", 1), ("d", 2), ("e", 3))),),
            reported=Placement((("c", 1), ("d", 2), ("e", 3))),
            corrections=2,
        ),
        (9, 3): TableState(round=9, table=3, players=("f", "g"), games=("g2", "g3")),
    }
    rows = msgspec.msgpack.decode(
        msgspec.msgpack.encode(event_state._table_rows(tables)), type=event_state._Tables
    )
    fast = event_state._tables_items(rows)
    assert dict(fast) == tables
    names = event_state._TABLE_ROW_NAMES
    try:  # as if TableState had gained a field: the general path, by name
        event_state._TABLE_ROW_NAMES = (*names, "new")  # type: ignore[assignment]
        assert event_state._tables_items(rows) == fast
    finally:
        event_state._TABLE_ROW_NAMES = names


def test_a_snapshots_tables_keep_each_kind_of_result() -> None:
    """``_table_rows`` sorts each table's result by its exact type first (a pairing's save
    writes 10,000 tables): a slip's score, a pod's placement, none yet, and a subclass of
    either (told by ``isinstance`` as before, read back as the kind it is) each kept."""
    import immutables

    from projections.event_state import _ENCODER, _table_rows, _Tables, _tables_map
    from referee.tournament.model import Placement, Score
    from referee.tournament.state import TableState

    class LateScore(Score, frozen=True):
        pass

    results = [
        Score(2, 1, 0),
        Placement(places=(("p1", 1), ("p2", 2), ("p3", 2))),
        None,
        LateScore(0, 2, 1),
    ]
    tables: immutables.Map[tuple[int, int], TableState] = immutables.Map(
        {
            (4, n): TableState(round=4, table=n, players=("p1", "p2"), reported=result)
            for n, result in enumerate(results, start=1)
        }
    )
    rows = _table_rows(tables)
    kinds = dict(zip((key for key, _ in rows.rows), rows.results, strict=True))
    assert kinds[(4, 1)] == (results[0], None)
    assert kinds[(4, 2)] == (None, results[1])
    assert kinds[(4, 3)] == (None, None)
    assert kinds[(4, 4)] == (results[3], None)
    again = _tables_map(msgspec.msgpack.decode(_ENCODER.encode(rows), type=_Tables))
    read = {k: v.reported for k, v in again.items()}
    assert read == {(4, 1): results[0], (4, 2): results[1], (4, 3): None, (4, 4): Score(0, 2, 1)}


def test_a_pairings_save_keeps_the_history_the_decision_walked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pairing round 4 (EV-5.3: no rematch) walks round 3 over the kept history of rounds
    1-2; the save that moves round 3 into the history writes that walk, not walking round
    3 again: the history a later load keeps is the log's and 'verify' finds the snapshot
    whole."""
    from projections import event_state

    db = tmp_path / "e.db"
    event = _third_round_reported(db)
    walked_again: list[object] = []
    real = event_state._met_of

    def recorded(*args: object, **kwargs: object) -> bytes:
        walked_again.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(event_state, "_met_of", recorded)
    with open_service(db) as svc:
        rows = svc.event_pair(event)  # round 4: round 3 moves to the history
        svc.event_result(event, [f"{r.table}=2-1-0" for r in rows if not r.bye])
    assert walked_again == []
    (tmp_path / "copy").mkdir()
    copy = tmp_path / "copy" / "e.db"  # the store alone: no snapshot beside it
    copy.write_bytes(db.read_bytes())
    with open_service(db) as svc:
        kept = svc.parts.events._event(event).state
        assert rounds_unread(svc, event)
        with open_service(copy) as whole:
            log = whole.event_state(event)
            assert kept.history() == log.history()
            assert kept.round_kinds() == log.round_kinds()
        assert svc.verify(event).bad == 0

"""Tampering with a real SQLite store is caught by verify; what-if replays (toy game)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from events.integrity import what_if
from events.store import GameStore
from referee.contract import Player
from service import RefereeService

PLAYERS = [Player("first", "Ann"), Player("second", "Ben")]


@pytest.fixture
def played(db_path: Path) -> tuple[RefereeService, str]:
    store = RefereeService(GameStore(db_path))
    game = store.create_game("nim", PLAYERS, options={"heap": 9})
    for text in ("t3", "t5", "t2", "t1"):
        store.record(game.game_id, text)
    store.retract(game.game_id, "miscounted")
    for text in ("t2", "t2"):
        store.record(game.game_id, text)
    # A store written before REF-1.3 refused entries after the end kept them as rejections;
    # the import path still writes one, and such a store verifies.
    store.record(game.game_id, "t2", keep_unreadable=True)
    assert store.load(game.game_id).ended is not None
    return store, game.game_id


def problems(store: RefereeService, game_id: str) -> set[tuple[int | None, str]]:
    return {(f.event, f.problem) for f in store.verify(game_id).reports[0].findings}


def test_untouched_store_verifies(played: tuple[RefereeService, str]) -> None:
    store, game_id = played
    (report,) = store.verify(game_id).reports
    assert report.ok, report.findings
    assert report.events == 10
    assert report.actions == 5


@pytest.mark.parametrize("version", range(1, 11))
def test_any_changed_byte_is_caught(
    played: tuple[RefereeService, str], db_path: Path, version: int
) -> None:
    store, game_id = played
    with sqlite3.connect(db_path) as con:
        (state,) = con.execute(
            "SELECT state FROM stored_events WHERE originator_version=?", (version,)
        ).fetchone()
        data = bytearray(state)
        for offset in (len(data) // 3, len(data) // 2, len(data) - 5):
            data[offset] = data[offset] ^ 0x01
            con.execute(
                "UPDATE stored_events SET state=? WHERE originator_version=?",
                (bytes(data), version),
            )
            con.commit()
            assert any(event == version for event, _ in problems(store, game_id)), offset
            data[offset] = data[offset] ^ 0x01
    con.close()


def test_deleted_event_is_caught(played: tuple[RefereeService, str], db_path: Path) -> None:
    store, game_id = played
    with sqlite3.connect(db_path) as con:
        con.execute("DELETE FROM stored_events WHERE originator_version=4")
    con.close()
    found = problems(store, game_id)
    assert (4, "missing") in found
    assert (5, "chain") in found


def test_deleted_result_at_the_end_is_caught(
    played: tuple[RefereeService, str], db_path: Path
) -> None:
    """Cutting the log's tail (the result and the rejection after it) leaves a game the
    rules say is over without a recorded result."""
    store, game_id = played
    with sqlite3.connect(db_path) as con:
        con.execute("DELETE FROM stored_events WHERE originator_version>=9")
    con.close()
    assert (None, "result") in problems(store, game_id)


def test_reordered_events_are_caught(played: tuple[RefereeService, str], db_path: Path) -> None:
    store, game_id = played
    with sqlite3.connect(db_path) as con:
        con.execute("UPDATE stored_events SET originator_version=-1 WHERE originator_version=2")
        con.execute("UPDATE stored_events SET originator_version=2 WHERE originator_version=3")
        con.execute("UPDATE stored_events SET originator_version=3 WHERE originator_version=-1")
    con.close()
    found = problems(store, game_id)
    assert (2, "moved") in found
    assert (3, "moved") in found


def test_verify_catches_a_verdict_the_rules_no_longer_give(db_path: Path) -> None:
    """A rejection recorded as evidence must still be a rejection when replayed."""
    store = RefereeService(GameStore(db_path))
    game = store.create_game("nim", PLAYERS, options={"heap": 2})
    store.record(game.game_id, "t3")  # rejected: only 2 left
    view = store.load(game.game_id)
    # Forge a store where the same game started with a bigger heap: the recorded
    # rejection no longer holds.
    import msgspec

    from events.codec import seal

    created = seal(msgspec.structs.replace(view.events[0], options={"heap": 5}))
    rejected = seal(msgspec.structs.replace(view.events[1], prev_hash=created.hash))
    other = RefereeService(GameStore(db_path.with_name("forged.db")))
    other.store.insert_streams([[created, rejected]])
    assert (2, "verdict") in problems(other, game.game_id)


def test_what_if_lists_actions_illegal_under_another_setup(db_path: Path) -> None:
    store = RefereeService(GameStore(db_path))
    game = store.create_game("nim", PLAYERS, options={"heap": 5})
    for text in ("t3", "t2"):
        store.record(game.game_id, text)
    report = what_if(store.load(game.game_id))
    assert report.illegal == []
    assert report.result_under_ruling == "second"

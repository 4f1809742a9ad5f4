"""The event store and the referee service over it, on real SQLite files (test game Nim)."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest

from events.schema import ActionRecorded, ActionRejected, ActionRetracted, GameCreated, GameEnded
from events.store import ConcurrentWriteError, GameNotFoundError, GameStore
from referee.contract import Player
from service import InvalidCommandError, RefereeService, RefusedError, UnreadableEntryError


def service(path: Path) -> RefereeService:
    return RefereeService(GameStore(path))


PLAYERS = [Player("first", "Ann"), Player("second", "Ben")]


def rows(path: Path) -> list[tuple[str, int, str, bytes]]:
    with sqlite3.connect(path) as con:
        return con.execute(
            "SELECT originator_id, originator_version, topic, state FROM stored_events ORDER BY "
            "rowid"
        ).fetchall()


def test_create_record_and_replay(db_path: Path) -> None:
    store = service(db_path)
    game = store.create_game("nim", PLAYERS, options={"heap": 5})
    assert store.record(game.game_id, "t2").accepted
    assert store.record(game.game_id, " T1 ").accepted  # notation is tolerant; stored canonically
    view = service(db_path).load(game.game_id)  # a fresh store sees the same game
    assert view.state.left == 2
    assert [e.notation for e in view.standing] == ["t2", "t1"]
    assert [e.seq for e in view.standing] == [1, 2]
    assert isinstance(view.events[0], GameCreated)


def test_ref_1_4_rejection_is_evidence_and_changes_nothing(db_path: Path) -> None:
    """REF-1.4: a rejected entry is stored but the position is unchanged."""
    store = service(db_path)
    game = store.create_game("nim", PLAYERS)
    before = store.load(game.game_id).state
    result = store.record(game.game_id, "t7")
    assert not result.accepted
    assert result.violations[0].clause == "NIM-1.1"
    view = store.load(game.game_id)
    assert view.state == before
    assert isinstance(view.events[-1], ActionRejected)
    assert view.events[-1].text == "t7"


def test_ref_1_1_unreadable_text_is_refused_and_stores_nothing(db_path: Path) -> None:
    store = service(db_path)
    game = store.create_game("nim", PLAYERS)
    before = rows(db_path)
    for text in ("take two", "", "\x1b[A", "zz9>zz9"):
        with pytest.raises(UnreadableEntryError) as info:
            store.record(game.game_id, text)
        assert info.value.clause == "NIM-0.1"
    assert rows(db_path) == before


def test_ref_1_2_wrong_seat_is_rejected(db_path: Path) -> None:
    store = service(db_path)
    game = store.create_game("nim", PLAYERS)
    result = store.record(game.game_id, "t1", actor="second")
    assert not result.accepted
    assert result.violations[0].clause == "REF-1.2"
    with pytest.raises(RefusedError, match="not a seat or player"):
        store.record(game.game_id, "t1", actor="third")


def test_ref_3_1_result_by_rule_recorded_with_the_action(db_path: Path) -> None:
    store = service(db_path)
    game = store.create_game("nim", PLAYERS, options={"heap": 3})
    result = store.record(game.game_id, "t3")
    assert result.ended is not None
    assert result.ended.winner == "first"
    assert result.ended.clause == "NIM-2.1"
    kinds = [type(e) for e in store.load(game.game_id).events]
    assert kinds == [GameCreated, ActionRecorded, GameEnded]


def test_ref_1_3_no_action_after_the_end(db_path: Path) -> None:
    store = service(db_path)
    game = store.create_game("nim", PLAYERS, options={"heap": 4})
    store.end(game.game_id, "resignation", who="first")
    before = store.load(game.game_id).version
    with pytest.raises(InvalidCommandError) as refused:
        store.record(game.game_id, "t1")
    assert refused.value.clause == "REF-1.3"
    assert "nothing was stored" in str(refused.value)
    assert store.load(game.game_id).version == before


def test_ref_2_1_retraction_restores_position_and_keeps_history(db_path: Path) -> None:
    store = service(db_path)
    game = store.create_game("nim", PLAYERS)
    store.record(game.game_id, "t3")
    store.record(game.game_id, "t2")
    store.retract(game.game_id, "misheard")
    view = store.load(game.game_id)
    assert view.state.left == 7
    assert view.state.to_move == "second"
    assert isinstance(view.events[-1], ActionRetracted)
    assert view.events[-1].event == 3
    store.record(game.game_id, "t1")
    view = store.load(game.game_id)
    assert [e.seq for e in view.standing] == [1, 2]  # the retracted number is reused
    assert len(view.events) == 5  # nothing was removed


def test_ref_2_1_retraction_needs_an_action_and_a_reason(db_path: Path) -> None:
    store = service(db_path)
    game = store.create_game("nim", PLAYERS)
    with pytest.raises(InvalidCommandError, match="no standing action"):
        store.retract(game.game_id, "nothing there")
    store.record(game.game_id, "t1")
    with pytest.raises(InvalidCommandError, match="reason"):
        store.retract(game.game_id, "  ")


def test_ref_2_2_rule_result_reopened_by_retraction_but_resignation_is_final(db_path: Path) -> None:
    store = service(db_path)
    game = store.create_game("nim", PLAYERS, options={"heap": 2})
    store.record(game.game_id, "t2")
    assert store.load(game.game_id).ended is not None
    store.retract(game.game_id, "wrong count")
    view = store.load(game.game_id)
    assert view.ended is None
    assert view.state.left == 2
    store.end(game.game_id, "agreement")
    with pytest.raises(InvalidCommandError) as info:
        store.retract(game.game_id, "try again")
    assert info.value.clause == "REF-2.2"


def test_ref_3_2_to_3_4_ways_to_end(db_path: Path) -> None:
    store = service(db_path)
    a = store.create_game("nim", PLAYERS)
    resigned = store.end(a.game_id, "resignation", who="second").ended
    assert resigned is not None
    assert resigned.winner == "first"
    b = store.create_game("nim", PLAYERS)
    drawn = store.end(b.game_id, "agreement").ended
    assert drawn is not None
    assert drawn.winner is None
    assert drawn.clause == "REF-3.3"
    c = store.create_game("nim", PLAYERS)
    with pytest.raises(InvalidCommandError, match="reason"):
        store.end(c.game_id, "adjudication", who="first")
    adjudicated = store.end(c.game_id, "adjudication", who="first", reason="time forfeit").ended
    assert adjudicated is not None
    assert adjudicated.clause == "REF-3.4"
    with pytest.raises(InvalidCommandError):
        store.end(c.game_id, "agreement")


def test_concurrent_writers_one_wins_the_other_is_told(db_path: Path) -> None:
    first, second = service(db_path), service(db_path)
    game = first.create_game("nim", PLAYERS)
    stale = second.load(game.game_id)
    first.record(game.game_id, "t1")
    before = rows(db_path)
    with pytest.raises(ConcurrentWriteError, match="nothing of yours was stored"):
        second.record(game.game_id, "t2", view=stale)
    assert rows(db_path) == before
    assert second.record(game.game_id, "t2").accepted  # reloading and retrying works


def test_hash_chain_links_every_event(db_path: Path) -> None:
    store = service(db_path)
    game = store.create_game("nim", PLAYERS)
    for text in ("t1", "t9", "t2"):
        store.record(game.game_id, text)
    events = store.load(game.game_id).events
    assert events[0].prev_hash == "0" * 64
    for before, after in itertools.pairwise(events):
        assert after.prev_hash == before.hash
    assert len({e.hash for e in events}) == len(events)


def test_resolve_by_unique_ending(db_path: Path) -> None:
    store = service(db_path)
    game = store.create_game("nim", PLAYERS)
    assert store.resolve(game.game_id[-5:]) == game.game_id
    with pytest.raises(GameNotFoundError):
        store.resolve("no-such-game")


def test_games_listing_tracks_results(db_path: Path) -> None:
    store = service(db_path)
    a = store.create_game("nim", PLAYERS, options={"heap": 1})
    store.record(a.game_id, "t1")
    b = store.create_game("nim", PLAYERS)
    listing = {s.game_id: s for s in store.games()}
    assert listing[a.game_id].result == "first"
    assert listing[a.game_id].how == "rule"
    assert listing[b.game_id].result == "*"
    store.retract(a.game_id, "recount")
    assert {s.game_id: s for s in store.games()}[a.game_id].result == "*"


def test_setup_errors_store_nothing(db_path: Path) -> None:
    store = service(db_path)
    with pytest.raises(ValueError, match="nim is played by seats first, second"):
        store.create_game("nim", [Player("first", "Ann")])
    with pytest.raises(ValueError, match="nim has no variant 'nonsense'"):
        store.create_game("nim", PLAYERS, variants={"nonsense": "1"})
    with pytest.raises(LookupError):
        store.create_game("chess", PLAYERS)
    assert rows(db_path) == []


def test_game_ids_drawn_together_are_well_formed_distinct_and_uniform(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pairing's game ids drawn in one read of the random source (``new_game_ids``) are
    ``new_game_id``'s kind: the game's name and eight characters of the alphabet; and each
    character is uniform: bytes that would favour the alphabet's first letters are dropped
    (every byte value once maps onto each of the 31 letters eight times)."""
    from events import store as store_module

    store = GameStore(tmp_path / "ids.db")
    ids = store.new_game_ids("nim", 500)
    assert len(set(ids)) == 500
    alphabet = set(store_module._ALPHABET)
    for game_id in ids:
        name, token = game_id.split("-")
        assert name == "nim"
        assert len(token) == 8
        assert set(token) <= alphabet
    assert store.new_game_ids("nim", 0) == []

    reads = iter([bytes(range(256)), b"\x00" * 64])
    monkeypatch.setattr("os.urandom", lambda n: next(reads)[:n])
    drawn = "".join(store_module._tokens(31))  # 248 characters: the 248 fair bytes
    assert sorted(drawn) == sorted(store_module._ALPHABET * 8)

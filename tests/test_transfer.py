"""Export and import: exact JSONL round trip, text records, whole-or-nothing files."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.importer import import_files
from events.store import GameStore
from events.transfer import ImportFileError, export_jsonl, export_text, read_any
from referee.core import Player

PLAYERS = [Player("first", "Ann"), Player("second", "Ben")]


@pytest.fixture
def game(db_path: Path) -> tuple[GameStore, str]:
    store = GameStore(db_path)
    g = store.create("nim", PLAYERS, options={"heap": 8})
    store.record(g.game_id, "t3")
    store.record(g.game_id, "t4")  # rejected
    store.record(g.game_id, "t2")
    store.retract(g.game_id, "misheard")
    store.open_dispute(g.game_id, 3, by="Ann", claim="t4 is a legal take")
    store.rule(g.game_id, 1, decision="uphold", clause="NIM-1", reason="at most 3", by="Ref")
    store.appeal(g.game_id, 1, by="Ann", grounds="house rules")
    store.rule(g.game_id, 1, decision="uphold", clause="NIM-1", reason="tournament rules", by="Head",
               level="final")
    for text in ("t1", "t3", "t1"):
        store.record(g.game_id, text)
    return store, g.game_id


def test_jsonl_round_trip_is_event_for_event(game: tuple[GameStore, str], tmp_path: Path) -> None:
    store, game_id = game
    view = store.load(game_id)
    path = tmp_path / "game.jsonl"
    path.write_text(export_jsonl(view.events))
    other = GameStore(tmp_path / "other.db")
    report = import_files(other, [path], progress=False)
    assert report["errors"] == [] and report["game_ids"] == [game_id]
    assert other.load(game_id).events == view.events
    assert other.stored_events(game_id) == store.stored_events(game_id)  # byte for byte


def test_text_round_trip_keeps_every_decision(game: tuple[GameStore, str]) -> None:
    store, game_id = game
    view = store.load(game_id)
    text = export_text(view)
    assert '[Result "second"]' in text and "{retracted 2" in text and "{rejected \"t4\"" in text
    events = [e for _, e in read_any(text, "game.txt")]
    assert [type(e) for e in events] == [type(e) for e in view.events]
    assert [getattr(e, "notation", None) for e in events] == [getattr(e, "notation", None) for e in view.events]


def test_importing_twice_is_refused_unless_as_new(game: tuple[GameStore, str], tmp_path: Path) -> None:
    store, game_id = game
    path = tmp_path / "game.jsonl"
    path.write_text(export_jsonl(store.load(game_id).events))
    again = import_files(store, [path], progress=False)
    assert again["imported"] == 0 and "already in the store" in again["errors"][0]
    copy = import_files(store, [path], as_new=True, progress=False)
    assert copy["imported"] == 1 and copy["game_ids"][0] != game_id
    copied = store.load(copy["game_ids"][0])
    assert copied.state == store.load(game_id).state
    assert store.verify(copy["game_ids"][0]).ok


def test_an_illegal_action_refuses_the_whole_file(game: tuple[GameStore, str], tmp_path: Path) -> None:
    store, game_id = game
    text = export_text(store.load(game_id)).replace("2. second t1", "2. second t3\n3. first t3")
    path = tmp_path / "bad.txt"
    path.write_text(text)
    other = GameStore(tmp_path / "other.db")
    report = import_files(other, [path], progress=False)
    assert report["imported"] == 0
    assert "bad.txt:" in report["errors"][0]
    assert other.game_ids() == []


def test_edited_jsonl_names_the_line(game: tuple[GameStore, str]) -> None:
    store, game_id = game
    lines = export_jsonl(store.load(game_id).events).splitlines()
    lines[2] = lines[2].replace('"t3"', '"t2"')
    with pytest.raises(ImportFileError) as info:
        read_any("\n".join(lines), "edited.jsonl")
    assert info.value.line == 3 and "hash" in info.value.reason


def test_removed_jsonl_line_is_refused(game: tuple[GameStore, str]) -> None:
    store, game_id = game
    lines = export_jsonl(store.load(game_id).events).splitlines()
    del lines[3]
    with pytest.raises(ImportFileError) as info:
        read_any("\n".join(lines), "cut.jsonl")
    assert info.value.line == 4


def test_bulk_insert_of_an_existing_event_is_refused_whole(game: tuple[GameStore, str], tmp_path: Path) -> None:
    """Two imports racing for one game: the second insert fails whole, nothing half-written."""
    store, game_id = game
    rows = [(r.originator_version, r.topic, r.state) for r in store.stored_events(game_id)]
    other = GameStore(tmp_path / "other.db")
    other.insert_rows([(game_id, rows[:3])])
    from events.store import ConcurrentWriteError

    with pytest.raises(ConcurrentWriteError):
        other.insert_rows([("fresh-game", rows[:2]), (game_id, rows)])
    assert other.game_ids() == [game_id]
    assert len(other.stored_events(game_id)) == 3


def test_many_files_import_in_parallel_with_the_same_outcome(db_path: Path, tmp_path: Path) -> None:
    """Above the parallel threshold files are checked in worker processes; results keep file order."""
    from events.importer import PARALLEL_FROM_FILES

    store = GameStore(db_path)
    files = []
    for index in range(PARALLEL_FROM_FILES + 2):
        g = store.create("nim", PLAYERS, options={"heap": 3 + index % 5})
        store.record(g.game_id, "t1")
        path = tmp_path / f"g{index:03d}.jsonl"
        text = export_jsonl(store.load(g.game_id).events)
        path.write_text(text if index % 7 else text.replace('"t1"', '"t2"'))  # every 7th edited
        files.append(path)
    serial = import_files(GameStore(tmp_path / "serial.db"), files, progress=False, workers=1)
    parallel = import_files(GameStore(tmp_path / "parallel.db"), files, progress=False, workers=2)
    assert serial == parallel
    assert len(parallel["errors"]) == len(range(0, len(files), 7))
    assert all("hash" in e for e in parallel["errors"])
    assert parallel["imported"] == len(files) - len(parallel["errors"])
    assert GameStore(tmp_path / "parallel.db").verify(parallel["game_ids"][0]).ok


def test_hand_written_text_record_without_seats_or_optional_tags(tmp_path: Path) -> None:
    """A minimal record as a person or another tool would write it: seats may be left out,
    notation may use capitals and spaces, optional tags may be missing."""
    text = (
        '[Game "prizmik"]\n[GameId "hand-1"]\n[Ruleset "prizmik/1"]\n'
        '[Player:red "Alice"]\n[Player:blue "Bob"]\n\n'
        "1. e1>e2\n2. e8>e7\n3. red e2-e4\n4. E7 - E5\n"
    )
    events = [e for _, e in read_any(text, "hand.txt")]
    assert [getattr(e, "notation", None) for e in events[1:]] == ["e1>e2", "e8>e7", "e2-e4", "e7-e5"]
    assert [getattr(e, "actor", None) for e in events[1:]] == ["red", "blue", "red", "blue"]
    with pytest.raises(ImportFileError) as info:
        read_any(text.replace("4. E7 - E5", "4. red e4-e6"), "hand.txt")
    assert info.value.line == 10 and info.value.clause == "REF-1.2"

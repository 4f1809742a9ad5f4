"""Export and import: exact JSONL round trip, text records, each record judged on its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from events.interchange import ImportFileError, read_jsonl
from events.store import ConcurrentWriteError, GameStore
from referee.contract import Player
from service import RefereeService
from service.interchange import PARALLEL_FROM_FILES, check_records

PLAYERS = [Player("first", "Ann"), Player("second", "Ben")]


def service(path: Path) -> RefereeService:
    return RefereeService(GameStore(path))


@pytest.fixture
def game(db_path: Path) -> tuple[RefereeService, str]:
    svc = service(db_path)
    g = svc.create_game("nim", PLAYERS, options={"heap": 8})
    svc.record(g.game_id, "t3")
    svc.record(g.game_id, "t4")  # rejected
    svc.record(g.game_id, "t2")
    svc.retract(g.game_id, "misheard")
    svc.dispute(g.game_id, 3, by="Ann", claim="t4 is a legal take")
    svc.rule(g.game_id, 1, decision="uphold", clause="NIM-1.1", reason="at most 3", by="Ref")
    svc.appeal(g.game_id, 1, by="Ann", grounds="house rules")
    svc.rule(
        g.game_id,
        1,
        decision="uphold",
        clause="NIM-1.1",
        reason="tournament rules",
        by="Head",
        final=True,
    )
    for text in ("t1", "t3", "t1"):
        svc.record(g.game_id, text)
    return svc, g.game_id


def jsonl(svc: RefereeService, game_id: str) -> str:
    return "".join(svc.export([game_id], "jsonl"))


@pytest.fixture
def exported(game: tuple[RefereeService, str], tmp_path: Path) -> tuple[RefereeService, str, Path]:
    """The game, and its JSONL export in a file."""
    svc, game_id = game
    path = tmp_path / "game.jsonl"
    path.write_text(jsonl(svc, game_id))
    return svc, game_id, path


def text_record(svc: RefereeService, game_id: str) -> str:
    return "".join(svc.export([game_id], "text"))


def test_jsonl_round_trip_is_event_for_event(
    exported: tuple[RefereeService, str, Path], tmp_path: Path
) -> None:
    svc, game_id, path = exported
    other = service(tmp_path / "other.db")
    report = other.import_files([path])
    assert [f.status for f in report.files] == ["imported"]
    assert report.files[0].game_id == game_id
    assert other.load(game_id).events == svc.load(game_id).events
    assert other.store.rows(game_id) == svc.store.rows(game_id)  # byte for byte
    assert jsonl(other, game_id) == path.read_text()


def test_text_round_trip_keeps_every_decision(
    game: tuple[RefereeService, str], tmp_path: Path
) -> None:
    svc, game_id = game
    text = text_record(svc, game_id)
    assert '[Result "0-1"]' in text
    assert "{retracted 2" in text
    assert '{rejected "t4"' in text
    path = tmp_path / "game.txt"
    path.write_text(text)
    other = service(tmp_path / "other.db")
    assert other.import_files([path]).files[0].status == "imported"
    theirs, ours = other.load(game_id).events, svc.load(game_id).events
    assert [type(e) for e in theirs] == [type(e) for e in ours]
    assert [getattr(e, "notation", None) for e in theirs] == [
        getattr(e, "notation", None) for e in ours
    ]
    assert text_record(other, game_id) == text  # the same record again, line for line


def test_importing_twice_skips_and_as_new_copies(
    exported: tuple[RefereeService, str, Path],
) -> None:
    svc, game_id, path = exported
    again = svc.import_files([path])
    assert again.files[0].status == "skipped"
    assert "already in the store" in again.files[0].detail
    copy = svc.import_files([path], as_new=True)
    new_id = copy.files[0].game_id
    assert copy.files[0].status == "imported"
    assert new_id is not None
    assert new_id != game_id
    assert svc.load(new_id).state == svc.load(game_id).state
    assert svc.verify(new_id).bad == 0


def test_a_different_game_under_the_same_id_is_refused(
    game: tuple[RefereeService, str], tmp_path: Path
) -> None:
    svc, game_id = game
    other = service(tmp_path / "other.db")
    g = other.create_game("nim", PLAYERS, game_id=game_id)
    other.record(g.game_id, "t1")
    path = tmp_path / "other.jsonl"
    path.write_text(jsonl(other, game_id))
    report = svc.import_files([path])
    assert report.files[0].status == "refused"
    assert "a different game" in report.files[0].detail


def test_an_illegal_action_refuses_that_record(
    game: tuple[RefereeService, str], tmp_path: Path
) -> None:
    svc, game_id = game
    text = text_record(svc, game_id).replace("2. second t1", "2. second t3\n3. first t3")
    path = tmp_path / "bad.txt"
    path.write_text(text)
    other = service(tmp_path / "other.db")
    report = other.import_files([path])
    assert report.files[0].status == "refused"
    assert "bad.txt:" in report.files[0].detail
    assert other.store.game_ids() == []


def test_edited_jsonl_names_the_line(game: tuple[RefereeService, str]) -> None:
    svc, game_id = game
    lines = jsonl(svc, game_id).splitlines()
    lines[2] = lines[2].replace('"t3"', '"t2"')
    with pytest.raises(ImportFileError) as info:
        read_jsonl(lines, "edited.jsonl")
    assert info.value.line == 3
    assert "hash" in info.value.reason


def test_removed_jsonl_line_is_refused(game: tuple[RefereeService, str]) -> None:
    svc, game_id = game
    lines = jsonl(svc, game_id).splitlines()
    del lines[3]
    with pytest.raises(ImportFileError) as info:
        read_jsonl(lines, "cut.jsonl")
    assert info.value.line == 4


def test_truncated_jsonl_is_refused(game: tuple[RefereeService, str]) -> None:
    """A record declares its length and last hash: a file cut at any line is refused."""
    svc, game_id = game
    lines = jsonl(svc, game_id).splitlines()
    for keep in range(2, len(lines)):
        with pytest.raises(ImportFileError, match="cut short"):
            read_jsonl(lines[:keep], "cut.jsonl")


def test_non_canonical_jsonl_is_refused(game: tuple[RefereeService, str]) -> None:
    """An extra field with a hash recomputed to match is still not what the store wrote."""
    from events.codec import stored_hash

    svc, game_id = game
    lines = jsonl(svc, game_id).splitlines()
    record = json.loads(lines[2])
    record["extra"] = 1
    record["hash"] = ""
    body = json.dumps(
        {k: v for k, v in record.items() if k not in ("kind", "topic")}, separators=(",", ":")
    )
    record["hash"] = stored_hash(record["topic"], body.encode(), "")
    lines[2] = json.dumps(record, separators=(",", ":"))
    with pytest.raises(ImportFileError) as info:
        read_jsonl(lines, "extra.jsonl")
    assert info.value.line == 3


def test_bulk_insert_of_an_existing_event_is_refused_whole(
    game: tuple[RefereeService, str], tmp_path: Path
) -> None:
    """Two imports racing for one game: a batch insert fails whole, nothing half-written."""
    svc, game_id = game
    rows = svc.store.rows(game_id)
    other = GameStore(tmp_path / "other.db")
    other.insert_rows([(game_id, rows[:3])])
    with pytest.raises(ConcurrentWriteError):
        other.insert_rows([("fresh-game", rows[:2]), (game_id, rows)])
    assert other.game_ids() == [game_id]
    assert len(other.rows(game_id)) == 3


def test_many_files_import_in_parallel_with_the_same_outcome(db_path: Path, tmp_path: Path) -> None:
    """Above the parallel threshold files are checked in worker processes; results keep file order,
    and one bad file refuses only itself."""
    svc = service(db_path)
    files = []
    for index in range(PARALLEL_FROM_FILES + 2):
        g = svc.create_game("nim", PLAYERS, options={"heap": 3 + index % 5})
        svc.record(g.game_id, "t1")
        path = tmp_path / f"g{index:03d}.jsonl"
        text = jsonl(svc, g.game_id)
        path.write_text(text if index % 7 else text.replace('"t1"', '"t2"'))  # every 7th edited
        files.append(path)
    serial = service(tmp_path / "serial.db").import_files(files, workers=1)
    parallel = service(tmp_path / "parallel.db").import_files(files, workers=2)
    assert serial.files == parallel.files
    assert len(parallel.refused) == len(range(0, len(files), 7))
    assert all("hash" in f.detail for f in parallel.refused)
    assert len(parallel.imported) == len(files) - len(parallel.refused)
    assert service(tmp_path / "parallel.db").verify().bad == 0


def test_hand_written_text_record_without_seats_or_optional_tags() -> None:
    """A minimal record as a person or another tool would write it: seats may be left out,
    notation may use capitals and spaces, optional tags may be missing."""
    text = (
        '[Game "prizmik"]\n[GameId "hand-1"]\n[Ruleset "prizmik/1"]\n'
        '[Player:red "Alice"]\n[Player:blue "Bob"]\n\n'
        "1. e1>e2\n2. e8>e7\n3. red e2-e4\n4. E7 - E5\n"
    )
    (checked,) = check_records("hand.txt", text.encode(), "")
    assert checked.error is None, checked.error
    from events.codec import decode

    events = [decode(topic, state) for _, topic, state in checked.rows]
    assert [getattr(e, "notation", None) for e in events[1:]] == [
        "e1>e2",
        "e8>e7",
        "e2-e4",
        "e7-e5",
    ]
    assert [getattr(e, "actor", None) for e in events[1:]] == ["red", "blue", "red", "blue"]
    (bad,) = check_records("hand.txt", text.replace("4. E7 - E5", "4. red e4-e6").encode(), "")
    assert bad.error is not None
    assert bad.error.startswith("hand.txt:10:")
    assert "REF-1.2" in bad.error


def test_a_file_of_many_games_imports_as_one(
    game: tuple[RefereeService, str], tmp_path: Path
) -> None:
    svc, game_id = game
    g = svc.create_game("nim", PLAYERS, options={"heap": 2})
    svc.record(g.game_id, "t2")
    for fmt in ("jsonl", "text"):
        path = tmp_path / f"all.{fmt}"
        path.write_text("".join(svc.export(None, fmt)))
        other = service(tmp_path / f"other-{fmt}.db")
        report = other.import_files([path])
        assert [f.status for f in report.files] == ["imported", "imported"], report.files
        assert sorted(other.store.game_ids()) == sorted([game_id, g.game_id])

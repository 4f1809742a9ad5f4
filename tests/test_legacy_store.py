"""A store written before the extended contract still replays, verifies and exports.

``fixtures/legacy/`` holds a store, its JSONL and text exports and the positions
the code of that time showed (see its README). Older event topics
(``referee.GameCreated.v1``, ``referee.GameEnded.v1``) are read through upcasters;
their hashes are computed over the bytes stored, so the chains still hold.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from events.store import GameStore
from referee import games
from service import RefereeService
from tests.stored import service_over_a_copy

LEGACY = Path(__file__).resolve().parent.parent / "fixtures" / "legacy"
EXPECTED = json.loads((LEGACY / "expected.json").read_text())


@pytest.fixture
def legacy(tmp_path: Path) -> RefereeService:
    return service_over_a_copy(LEGACY / "store-v1.db", tmp_path)


def test_every_legacy_game_replays_to_the_position_it_had(legacy: RefereeService) -> None:
    assert sorted(legacy.store.game_ids()) == sorted(EXPECTED)
    for game_id, expected in EXPECTED.items():
        pos = legacy.position(game_id)
        assert pos.result == expected["result"], game_id
        assert pos.standing_actions == expected["standing_actions"], game_id
        # A finished game names no one to move (the old code still named the seat in turn).
        assert pos.to_move == (expected["to_move"] if expected["result"] == "*" else None), game_id
        assert shown_then(game_id, as_json(pos.position)) == expected["position"], game_id


def as_json(data: object) -> object:
    return json.loads(msgspec.json.encode(data))


def shown_then(game_id: str, position: object) -> object:
    """``position`` without the variants added to the game since the store was written, each
    of which must show the rules of the record's time: its ``absent`` value, else its default
    (a recorded game never chose them). A game shows its variants under ``variants``
    (PRIZMIK) or ``table`` (Prismata)."""
    if not isinstance(position, dict):
        return position
    options = {
        v.key: v.absent or v.default for v in games.load(game_id.partition("-")[0]).variant_options
    }
    for field in ("variants", "table"):
        shown = position.get(field)
        if not isinstance(shown, dict):
            continue
        then = EXPECTED[game_id]["position"].get(field, {})
        added = {k: v for k, v in shown.items() if k not in then}
        assert added == {k: options[k] for k in added}, game_id
        position = {**position, field: {k: v for k, v in shown.items() if k in then}}
    return position


def test_legacy_topics_are_read_through_upcasters(legacy: RefereeService) -> None:
    topics = {topic for g in EXPECTED for _, topic, _ in legacy.store.rows(g)}
    assert {"referee.GameCreated.v1", "referee.GameEnded.v1"} <= topics
    view = legacy.load("prizmik-gmjc2jm9")
    assert view.created.meta == {}
    assert view.ended is not None
    assert view.ended.ranking == ()


def test_legacy_store_verifies_intact(legacy: RefereeService) -> None:
    report = legacy.verify()
    assert report.games == 5, [r.findings for r in report.reports if not r.ok]
    assert report.bad == 0, [r.findings for r in report.reports if not r.ok]


def test_legacy_exports_import_and_new_exports_match_them(
    legacy: RefereeService, tmp_path: Path
) -> None:
    """The old code's JSONL files import byte for byte; today's JSONL export of the old store is
    the same file; the old text records import and rebuild the same decisions."""
    for path in sorted((LEGACY / "jsonl").glob("*.jsonl")):
        game_id = path.stem
        ours = "".join(legacy.export([game_id], "jsonl")).splitlines()
        theirs = path.read_text().splitlines()
        assert ours[1:] == theirs[1:], game_id  # every event line exactly as it was
        header = json.loads(ours[0])  # today's header adds the last hash (REF: truncation check)
        assert header == {**json.loads(theirs[0]), "last_hash": json.loads(theirs[-1])["hash"]}
    fresh = RefereeService(GameStore(tmp_path / "fresh.db"))
    report = fresh.import_files(sorted((LEGACY / "jsonl").glob("*.jsonl")))
    assert [f.status for f in report.files] == ["imported"] * 5, report.files
    for game_id in EXPECTED:
        assert fresh.store.rows(game_id) == legacy.store.rows(game_id)
    texts = RefereeService(GameStore(tmp_path / "texts.db"))
    report = texts.import_files(sorted(LEGACY.glob("*.txt")))
    assert [f.status for f in report.files] == ["imported"] * 5, report.files
    for game_id, expected in EXPECTED.items():
        shown = shown_then(game_id, as_json(texts.position(game_id).position))
        assert shown == expected["position"], game_id
        assert texts.position(game_id).result == expected["result"], game_id


def test_new_entries_append_to_a_legacy_game(legacy: RefereeService) -> None:
    game = "prismata-768p6t5j"
    before = legacy.load(game).version
    result = legacy.record(game, "end")
    assert result.accepted
    assert result.event == before + 1
    assert legacy.verify(game).bad == 0

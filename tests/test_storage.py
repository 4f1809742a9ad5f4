"""The storage suite: the same checks on every backend the store runs on (SQLite, the
machine's PostgreSQL through psycopg and through the one-shot commands' pg8000, the
library's in-memory recorder)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from events import store as store_module
from events.backends.sqlite import ROWS_A_STATEMENT
from events.codec import Sealed, decode, encode, event_hash, seal_after
from events.schema import GENESIS_HASH, TOPIC_OF
from events.store import ConcurrentWriteError, GameStore
from projections.projector import Projector
from referee.contract import Player
from service import RefereeService
from tests.held import held_checkpoints
from tests.postgres import pg_url
from tests.races import race

PLAYERS = [Player("first", "Ann"), Player("second", "Ben")]


@pytest.fixture(params=["sqlite", "postgres", "postgres-oneshot", "memory"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RefereeService]:
    if request.param == "sqlite":
        svc = RefereeService(GameStore(tmp_path / "store.db"))
    elif request.param == "memory":
        svc = RefereeService(
            GameStore(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}),
            projections=tmp_path / "memory.projections.db",
        )
    elif request.param == "postgres-oneshot":  # what `referee act --db postgresql://...` opens
        env = request.getfixturevalue("pg_env")
        store = GameStore(pg_url(env), one_shot=True)
        assert type(store.recorder).__name__ == "OneShotApplicationRecorder"
        svc = RefereeService(store)
    else:
        env = request.getfixturevalue("pg_env")
        svc = RefereeService(GameStore(env=env))
    yield svc
    svc.close()


def test_append_load_and_rows(backend: RefereeService) -> None:
    game = backend.create_game("nim", PLAYERS, options={"heap": 5}).game_id
    backend.record(game, "t2")
    backend.record(game, "t9")
    view = backend.load(game)
    assert view.state.left == 3
    assert view.version == 3
    rows = backend.store.rows(game)
    assert [r[0] for r in rows] == [1, 2, 3]
    assert rows[2][1] == "referee.ActionRejected.v1"
    assert backend.store.exists(game)
    assert not backend.store.exists("nim-nothing")
    assert backend.store.game_ids() == [game]


def test_a_long_game_is_read_and_exported_a_page_at_a_time(backend: RefereeService) -> None:
    """``iter_rows`` pages give exactly ``rows``; the JSONL export streams them up to the head
    it read first, so an entry made while it is written is not half in the record."""
    game = backend.create_game("nim", PLAYERS, options={"heap": 30}).game_id
    for _ in range(7):
        backend.record(game, "t1")
    rows = [tuple(row) for row in backend.store.rows(game)]
    assert backend.store.last_row(game) == rows[-1]
    assert backend.store.last_row("nim-nothing") is None
    assert [tuple(row) for row in backend.store.iter_rows(game, upto=len(rows), page=3)] == rows
    assert [tuple(row) for row in backend.store.iter_rows(game, upto=5, page=2)] == rows[:5]
    lines = backend.export([game], "jsonl")
    header = next(lines)
    backend.record(game, "t1")  # while the record is being written
    body = list(lines)
    assert json.loads(header)["events"] == len(body) == len(rows)
    assert json.loads(header)["last_hash"] == json.loads(body[-1])["hash"]


def test_one_writer_wins_a_race_and_the_other_stores_nothing(backend: RefereeService) -> None:
    game = backend.create_game("nim", PLAYERS).game_id
    stale = backend.load(game)
    backend.record(game, "t1")
    with pytest.raises(ConcurrentWriteError):
        backend.record(game, "t2", view=stale)
    assert backend.load(game).ply == 1
    assert backend.load(game).version == 2


def test_racing_threads_each_entry_stored_once(backend: RefereeService) -> None:
    game = backend.create_game("nim", PLAYERS, options={"heap": 200}).game_id
    wins, losses = race(lambda: backend, game, 10)
    view = backend.load(game)
    assert view.ply == wins
    assert view.state.left == 200 - wins
    assert wins + losses == 40
    assert backend.verify(game).bad == 0


def test_bulk_insert_is_all_or_nothing(backend: RefereeService) -> None:
    game = backend.create_game("nim", PLAYERS).game_id
    rows = backend.store.rows(game)
    with pytest.raises(ConcurrentWriteError):
        backend.store.insert_rows([("nim-other", rows), (game, rows)])
    assert not backend.store.exists("nim-other")


def test_a_large_write_stores_the_library_s_rows_all_or_nothing(
    backend: RefereeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write of many events (a round's pairing and its games: ``BULK_FROM`` or more) is
    stored past the library's ``save``: the rows are the store's mapper's, byte for byte,
    in the log's order, and a stream another writer moved meanwhile stores none of it."""
    monkeypatch.setattr(store_module, "BULK_FROM", 4)
    store = backend.store
    (created,) = store.events(backend.create_game("nim", PLAYERS).game_id)
    after = store.last_position()
    streams = [[msgspec.structs.replace(created, originator_id=f"nim-bulk{n}")] for n in range(5)]
    sealed = [seal_after(0, GENESIS_HASH, stream) for stream in streams]
    positions = store.append_sealed(sealed)
    stored = store.notifications(after, 100)
    assert [(n.originator_id, n.originator_version) for n in stored] == [
        (e.originator_id, e.originator_version) for (e,) in sealed
    ]
    assert positions == [n.id for n in stored]  # as the library's save answers them
    for note, (event,) in zip(stored, sealed, strict=True):
        expected = store.mapper.to_stored_event(event)
        assert (note.topic, bytes(note.state)) == (expected.topic, bytes(expected.state))
    again = [[msgspec.structs.replace(created, originator_id=f"nim-more{n}")] for n in range(4)]
    with pytest.raises(ConcurrentWriteError):  # nim-bulk0 is at version 1 now
        store.append_sealed([seal_after(0, GENESIS_HASH, s) for s in [*again, streams[0]]])
    assert not any(store.exists(f"nim-more{n}") for n in range(4))
    assert store.notifications(after, 100) == stored


def test_a_bulk_write_of_several_statements_keeps_the_log_s_order(
    backend: RefereeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More rows than one statement carries (SQLite: ``ROWS_A_STATEMENT`` a statement, the
    rest row by row) are stored in their order, each as the mapper stores it, their
    positions answered; a conflict in any statement stores none of them."""
    monkeypatch.setattr(store_module, "BULK_FROM", 4)
    store = backend.store
    (created,) = store.events(backend.create_game("nim", PLAYERS).game_id)
    after = store.last_position()
    count = 2 * ROWS_A_STATEMENT + 7
    streams = [
        seal_after(0, GENESIS_HASH, [msgspec.structs.replace(created, originator_id=f"nim-b{n}")])
        for n in range(count)
    ]
    positions = store.append_sealed(streams)
    stored = store.notifications(after, 1000)
    assert [n.originator_id for n in stored] == [f"nim-b{n}" for n in range(count)]
    assert positions == [n.id for n in stored]
    for note, (event,) in zip(stored, streams, strict=True):
        expected = store.mapper.to_stored_event(event)
        assert (note.topic, bytes(note.state)) == (expected.topic, bytes(expected.state))
    again = [
        seal_after(0, GENESIS_HASH, [msgspec.structs.replace(created, originator_id=f"nim-c{n}")])
        for n in range(count)
    ]
    again[ROWS_A_STATEMENT + 3] = streams[5]  # nim-b5 is at version 1 now: the second statement
    with pytest.raises(ConcurrentWriteError):
        store.append_sealed(again)
    assert not any(store.exists(f"nim-c{n}") for n in (0, count - 1))
    assert store.notifications(after, 1000) == stored
    again[ROWS_A_STATEMENT + 3] = seal_after(  # the write without its conflict: stored whole
        0, GENESIS_HASH, [msgspec.structs.replace(created, originator_id="nim-c-instead")]
    )
    store.append_sealed(again)
    assert all(store.exists(f"nim-c{n}") for n in (0, count - 1))
    assert len(store.notifications(after, 1000)) == 2 * count


def test_log_pages_count_actions_and_keep_the_rest(backend: RefereeService) -> None:
    game = backend.create_game("nim", PLAYERS, options={"heap": 4}).game_id
    for text in ("t1", "t9", "t1", "t2"):
        backend.record(game, text)
    page = backend.store.log_page(0, 100)
    assert page.total == 6
    assert page.actions[game][0] == 3
    last_action = backend.store.events(game)[-2]  # the third action; the result follows it
    assert page.actions[game][1] == last_action.originator_version
    assert (
        decode(TOPIC_OF[type(last_action)], page.last_actions[game]) == last_action
    )  # carried with the page
    assert [e[3] for e in page.events] == [
        "referee.GameCreated.v2",
        "referee.ActionRejected.v1",
        "referee.GameEnded.v2",
    ]
    second = backend.store.log_page(0, 2)
    assert second.total == 2
    assert backend.store.log_page(second.last_id, 100).total == 4


def test_read_models_and_verify_agree_on_every_backend(
    backend: RefereeService, tmp_path: Path
) -> None:
    game = backend.create_game("nim", PLAYERS, options={"heap": 2}).game_id
    backend.record(game, "t2")
    other = backend.create_game("nim", PLAYERS).game_id
    backend.end(other, "agreement")
    rows = {r["player"]: r for r in backend.scoreboard()}
    assert rows["Ann"]["won"] == 1
    assert rows["Ann"]["drawn"] == 1
    assert rows["Ben"]["points"] == 0.5
    assert backend.projector.exists()
    assert backend.projector.head(game) == (
        3,
        backend.load(game).last_hash,
    )
    assert {g.game_id for g in backend.games()} == {game, other}
    assert backend.verify().bad == 0
    path = tmp_path / "all.jsonl"
    path.write_text("".join(backend.export(None, "jsonl")))
    copy = RefereeService(GameStore(tmp_path / "copy.db"))
    assert len(copy.import_files([path]).imported) == 2


def test_projections_live_beside_a_postgres_store(pg_env: dict[str, str]) -> None:
    svc = RefereeService(GameStore(env=pg_env))
    svc.record(svc.create_game("nim", PLAYERS, options={"heap": 1}).game_id, "t1")
    assert svc.scoreboard()[0]["player"] == "Ann"
    assert isinstance(svc.projector, Projector)
    assert "PostgreSQL" in str(svc.projector.db.where)
    svc.close()


def test_positions_notifications_and_checkpoints_on_every_backend(
    backend: RefereeService, tmp_path: Path
) -> None:
    """What the service reads through the store rather than its recorder (issue 19: no
    backend branch in service/): a stream's events after a number, their places in the
    store's order, the log after a place, and the seal's checkpoints table beside the
    events (refused, with nothing written, where the store keeps no tables)."""
    from service.errors import RefusedError
    from service.seal import create_key, recorded_checkpoints, seal, verify_checkpoint

    game = backend.create_game("nim", PLAYERS, options={"heap": 5}).game_id
    backend.record(game, "t2")
    store = backend.store
    assert [number for number, _, _ in store.rows(game, after=1)] == [2]
    places = store.positions(game)
    assert sorted(places) == [1, 2]
    assert places[1] < places[2]
    assert store.last_position() == places[2]
    after_first = store.notifications(places[1], 10)
    assert [(str(n.originator_id), n.originator_version) for n in after_first] == [(game, 2)]
    key = tmp_path / "seal.key"
    create_key(key)
    if store.backend is None:
        with pytest.raises(RefusedError):
            seal(store, key)
        assert recorded_checkpoints(store) == []
        return
    checkpoint = seal(store, key)
    assert [c.text() for c in recorded_checkpoints(store)] == [checkpoint.text()]
    assert verify_checkpoint(store, checkpoint).ok
    backend.record(game, "t1")
    assert verify_checkpoint(store, checkpoint).ok  # the store still extends it


def test_sealed_events_carry_the_bytes_the_mapper_stores(backend: RefereeService) -> None:
    """``seal_after`` keeps each event's JSON as sealed (its hash written into the body it
    was taken over): the bytes the mapper encodes, so a bulk insert stores them as they
    are; a list changed since answers none."""
    game = backend.create_game("nim", PLAYERS, options={"heap": 4}).game_id
    for text in ("t1", "t2"):
        backend.record(game, text)
    events = backend.store.events(game)
    keyed = [msgspec.structs.replace(e, token_id="tok-1") for e in events]
    for batch in (events, keyed):
        sealed = seal_after(0, GENESIS_HASH, batch)
        assert isinstance(sealed, Sealed)
        assert sealed.kept_states() == [encode(e) for e in sealed]
        assert [e.hash for e in sealed] == [event_hash(e) for e in sealed]
        sealed.append(sealed[0])
        assert sealed.kept_states() is None


def test_events_made_numbered_and_chained_seal_as_any_other(backend: RefereeService) -> None:
    """A new game's first event made with its number and the genesis hash already (a
    round's games) is sealed without being copied to number it: the same event, hash and
    bytes as one made unnumbered."""
    game = backend.create_game("nim", PLAYERS, options={"heap": 4}).game_id
    backend.record(game, "t1")
    events = backend.store.events(game)
    replace = msgspec.structs.replace
    blank = [replace(e, originator_version=0, prev_hash="", hash="") for e in events]
    numbered = [replace(blank[0], originator_version=1, prev_hash=GENESIS_HASH)]
    numbered += blank[1:]
    plain, made = seal_after(0, GENESIS_HASH, blank), seal_after(0, GENESIS_HASH, numbered)
    assert made == plain == events
    assert isinstance(made, Sealed)
    assert isinstance(plain, Sealed)
    assert made.kept_states() == plain.kept_states() == [encode(e) for e in events]


def _wal_frames(db: Path) -> tuple[int, int]:
    """The frames in the log of the SQLite file ``db`` and how many of them a checkpoint has
    copied into the database (``mxFrame`` and ``nBackfill`` of its shared-memory index)."""
    import struct

    index = Path(f"{db}-shm").read_bytes()
    return struct.unpack_from("=I", index, 16)[0], struct.unpack_from("=I", index, 96)[0]


def test_a_sqlite_bulk_write_leaves_its_checkpoint_to_a_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A numbered bulk write (a pairing's 10,001 rows) commits without SQLite's checkpoint,
    its connection's ``wal_autocheckpoint`` as it was after it; a thread copies the log into
    the database meanwhile, and the store's close waits for it (``settle``), so the close
    still removes the log and the rows read back."""
    from events.backends.sqlite import SQLiteBackend

    monkeypatch.setattr(store_module, "BULK_FROM", 4)
    held, copied = held_checkpoints(monkeypatch)
    db = tmp_path / "store.db"
    svc = RefereeService(GameStore(db))
    store = svc.store
    (created,) = store.events(svc.create_game("nim", PLAYERS).game_id)
    direct = store.direct
    assert isinstance(direct, SQLiteBackend)

    def autocheckpoint(value: int | None = None) -> int:
        with direct.datastore.get_connection(commit=True) as conn:
            cursor = conn.cursor()
            if value is not None:
                cursor.execute(f"PRAGMA wal_autocheckpoint={value}")
            cursor.execute("PRAGMA wal_autocheckpoint")
            return int(cursor.fetchone()[0])

    assert autocheckpoint(1) == 1  # a commit of a page or more would copy the log itself
    many = [
        [msgspec.structs.replace(created, originator_id=f"nim-m{n}")]
        for n in range(ROWS_A_STATEMENT)
    ]
    try:
        store.append_sealed([seal_after(0, GENESIS_HASH, s) for s in many])
        assert autocheckpoint() == 1
        frames, backfilled = _wal_frames(db)
        assert frames > 0
        assert backfilled < frames  # committed, not yet copied
        assert all(store.exists(f"nim-m{n}") for n in (0, ROWS_A_STATEMENT - 1))
        assert not copied
    finally:
        held.set()
        svc.close()
    assert copied == [direct.checkpoints]
    assert not Path(f"{db}-wal").exists()
    with GameStore(db) as again:
        assert again.exists(f"nim-m{ROWS_A_STATEMENT - 1}")


def test_a_sqlite_bulk_write_keeps_its_pages_in_a_larger_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bulk write (a pairing's 10,001 rows) enlarges its connection's page cache to
    ``BULK_CACHE_KIB`` before it inserts, so its dirty pages are not spilled to the WAL
    before the commit; a write of a few rows leaves SQLite's default."""
    from events.backends.sqlite import BULK_CACHE_KIB, SQLiteBackend

    monkeypatch.setattr(store_module, "BULK_FROM", 4)
    svc = RefereeService(GameStore(tmp_path / "store.db"))
    try:
        store = svc.store
        (created,) = store.events(svc.create_game("nim", PLAYERS).game_id)
        direct = store.direct
        assert isinstance(direct, SQLiteBackend)

        def cache_size() -> int:
            with direct.datastore.transaction(commit=False) as cursor:
                cursor.execute("PRAGMA cache_size")
                return int(cursor.fetchone()[0])

        assert cache_size() == -2000  # SQLite's default
        few = [[msgspec.structs.replace(created, originator_id=f"nim-f{n}")] for n in range(5)]
        store.append_sealed([seal_after(0, GENESIS_HASH, s) for s in few])
        assert cache_size() == -2000
        many = [
            [msgspec.structs.replace(created, originator_id=f"nim-m{n}")]
            for n in range(ROWS_A_STATEMENT)
        ]
        store.append_sealed([seal_after(0, GENESIS_HASH, s) for s in many])
        assert cache_size() == -BULK_CACHE_KIB
        assert all(store.exists(f"nim-m{n}") for n in (0, ROWS_A_STATEMENT - 1))
    finally:
        svc.close()

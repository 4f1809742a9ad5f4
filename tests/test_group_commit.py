"""The server's group commit (``service.writer``): entries of many tables decided one by one
and appended in one transaction, each caller answered after the commit that holds its entry,
on SQLite and PostgreSQL. The writer thread is held by a blocking ``call`` while a batch is
queued, so every test knows exactly which entries share a commit."""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

import service.writer as writer_module
from events.backends import ONE_SHOT_MODULE
from events.store import GameStore
from referee.contract import Player
from referee.errors import SetupError
from service.access import AccessDeniedError, Principal
from service.cached import CachedService
from service.decide import CreateGame, End
from service.errors import (
    ConcurrentWriteError,
    InvalidCommandError,
    RefusedError,
    StaleVersionError,
    StoreError,
    UnreadableEntryError,
)
from service.pipeline import with_terms
from service.results import WrittenEvents
from service.writer import GroupWriter

PLAYERS = [Player("first", "Ann"), Player("second", "Ben")]


@pytest.fixture(params=["sqlite", "postgres"])
def store_env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    if request.param == "sqlite":
        return {"db": tmp_path / "store.db"}
    env: dict[str, str] = request.getfixturevalue("pg_env")
    return {"env": env}


@pytest.fixture
def svc(store_env: dict[str, Any]) -> Iterator[CachedService]:
    service = CachedService(GameStore(**store_env))
    yield service
    service.close()


@pytest.fixture
def writer(svc: CachedService) -> Iterator[GroupWriter]:
    group = GroupWriter(svc)
    yield group
    group.close()


def hold(writer: GroupWriter) -> threading.Event:
    """Keep the writer thread busy until the returned event is set."""
    release = threading.Event()
    started = threading.Event()

    def wait() -> None:
        started.set()
        release.wait(10)

    writer.call(wait)
    assert started.wait(10)
    return release


def outcome(future: Future[Any]) -> Any:
    """A write's answer, or the error it was refused with."""
    error = future.exception(10)
    return error if error is not None else future.result()


def race_on_each_load(svc: CachedService, moved: str, store_env: dict[str, Any]) -> Any:
    """Make every load of game ``moved`` let another process enter ``t3`` in it before the
    load's answer is used (so each commit built on it loses the race); the original load."""
    original_load = svc.load

    def load_then_race(ref: str) -> Any:
        view = original_load(ref)
        if view.game_id == moved:
            with CachedService(GameStore(**store_env)) as other:
                other.record(moved, "t3")
        return view

    svc.load = load_then_race
    return original_load


def _answers_with_a_broken_disk(svc: Any, release: Any, futures: list[Any]) -> None:
    """Let the held ``futures`` go while every save fails as a full disk would, and check
    that each is answered with that failure; the store saves again after."""
    save = svc.store.app.save

    def broken(*args: Any, **kwargs: Any) -> Any:
        from eventsourcing.persistence import OperationalError

        raise OperationalError("disk I/O error")

    svc.store.app.save = broken
    try:
        release.set()
        errors = [outcome(f) for f in futures]
    finally:
        svc.store.app.save = save
    assert all(isinstance(e, StoreError) and "disk I/O error" in str(e) for e in errors)


def test_entries_of_many_tables_land_in_one_commit_with_their_versions(
    svc: CachedService, writer: GroupWriter
) -> None:
    games = [svc.create_game("nim", PLAYERS, options={"heap": 30}).game_id for _ in range(12)]
    release = hold(writer)
    futures = {
        game: [with_terms(writer.entry, 1 + n)(game, "t1", by="Tom") for n in range(5)]
        for game in games
    }
    before = writer.commits
    release.set()
    for game, answers in futures.items():
        results = [f.result(10) for f in answers]
        assert [r.event for r in results] == [2, 3, 4, 5, 6]
        assert [r.version for r in results] == [2, 3, 4, 5, 6]
        assert all(r.accepted and r.game_id == game for r in results)
        stored = svc.store.rows(game)
        assert [row[0] for row in stored] == [1, 2, 3, 4, 5, 6]  # no gap, nothing twice
        assert svc.load(game).state.left == 25
    assert writer.commits == before + 1  # sixty entries, one transaction
    report = svc.verify()
    assert report.games == 12
    assert not report.bad


def test_a_rejection_and_a_refusal_in_a_batch_are_their_callers_alone(
    svc: CachedService, writer: GroupWriter
) -> None:
    game = svc.create_game("nim", PLAYERS, options={"heap": 5}).game_id
    release = hold(writer)
    legal = writer.entry(game, "t2")
    broken = writer.entry(game, "t9")  # reads as a take; breaks a rule: kept as evidence
    unreadable = writer.entry(game, "hello")
    after = writer.entry(game, "t1")
    release.set()
    assert legal.result(10).event == 2
    rejected = broken.result(10)
    assert not rejected.accepted
    assert rejected.event == 3
    assert rejected.status == "rejected"
    assert isinstance(outcome(unreadable), UnreadableEntryError)  # REF-1.1: nothing stored
    assert after.result(10).event == 4
    assert after.result(10).version == 4
    assert [r[0] for r in svc.store.rows(game)] == [1, 2, 3, 4]


def test_two_entries_with_the_same_if_match_give_one_recorded_and_one_stale(
    svc: CachedService, writer: GroupWriter
) -> None:
    game = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    release = hold(writer)
    first = with_terms(writer.entry, 1)(game, "t1")
    second = with_terms(writer.entry, 1)(game, "t2")
    release.set()
    assert first.result(10).version == 2
    assert isinstance(outcome(second), StaleVersionError)
    assert [r[0] for r in svc.store.rows(game)] == [1, 2]


def test_a_race_that_repeats_fails_only_the_game_that_moved_and_leaves_no_half_write(
    svc: CachedService, writer: GroupWriter, store_env: dict[str, Any]
) -> None:
    """Another process overtakes the game between every read and commit: its writes are
    judged once more, then refused (409) with nothing of theirs stored; the other game's
    entry is stored as if alone."""
    moved = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    calm = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    svc.load(moved)  # cached before the other writer moves it
    release = hold(writer)
    ours = [writer.entry(moved, "t1"), writer.entry(calm, "t1"), writer.entry(moved, "t1")]
    # Judged on the cache, which a second process's entry overtakes between load and commit:
    original_load = race_on_each_load(svc, moved, store_env)
    release.set()
    for future in (ours[0], ours[2]):
        assert isinstance(outcome(future), ConcurrentWriteError)
    assert ours[1].result(10).version == 2
    svc.load = original_load
    assert [r[0] for r in svc.store.rows(moved)] == [1, 2, 3]  # the other writer's two only
    assert svc.load(moved).state.left == 3
    assert [r[0] for r in svc.store.rows(calm)] == [1, 2]


def test_a_race_once_is_judged_again_on_the_game_as_stored(
    svc: CachedService, writer: GroupWriter, store_env: dict[str, Any]
) -> None:
    """Another process records in a game between the writer's read and its commit: the
    writer's entries of that game are judged again after it (as if they came later) and
    stored; an entry whose If-Match named the old version is stale on the new one."""
    moved = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    svc.load(moved)
    release = hold(writer)
    plain = writer.entry(moved, "t1")
    pinned = with_terms(writer.entry, 1)(moved, "t2")
    original_load = svc.load
    raced: list[bool] = []

    def load_then_race_once(ref: str) -> Any:
        view = original_load(ref)
        if view.game_id == moved and not raced:
            raced.append(True)
            with CachedService(GameStore(**store_env)) as other:
                other.record(moved, "t3")
        return view

    svc.load = load_then_race_once
    release.set()
    result = plain.result(10)
    assert result.accepted
    assert result.version == 3
    assert isinstance(outcome(pinned), StaleVersionError)
    svc.load = original_load
    assert [r[0] for r in svc.store.rows(moved)] == [1, 2, 3]
    assert svc.load(moved).state.left == 9 - 3 - 1


def test_a_failed_commit_answers_every_caller_and_leaves_the_cache_with_the_store(
    svc: CachedService, writer: GroupWriter
) -> None:
    games = [svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id for _ in range(3)]
    for game in games:
        assert svc.load(game).version == 1
    release = hold(writer)
    futures = [writer.entry(game, "t1") for game in games for _ in range(2)]
    _answers_with_a_broken_disk(svc, release, futures)
    for game in games:
        assert [r[0] for r in svc.store.rows(game)] == [1]
        assert svc.load(game).version == 1  # the cache never ran ahead of the store
    again = [with_terms(writer.entry, 1)(game, "t1") for game in games]
    assert [f.result(10).version for f in again] == [2, 2, 2]


def test_other_writes_run_in_order_between_batches(svc: CachedService, writer: GroupWriter) -> None:
    game = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    release = hold(writer)
    first = writer.entry(game, "t1")
    retract = writer.call(lambda: svc.retract(game, "wrong heap", by="Tom"))
    second = writer.entry(game, "t2")
    release.set()
    assert first.result(10).event == 2
    assert retract.result(10).events == [3]  # after the first entry, before the second
    assert second.result(10).event == 4
    assert svc.load(game).state.left == 7


def test_many_threads_entering_at_once_all_land(svc: CachedService, writer: GroupWriter) -> None:
    games = [svc.create_game("nim", PLAYERS, options={"heap": 60}).game_id for _ in range(16)]
    answers: dict[str, list[int]] = {g: [] for g in games}

    def table(game: str) -> None:
        for n in range(8):
            result = with_terms(writer.entry, 1 + n)(game, "t1").result(20)
            answers[game].append(result.version)

    threads = [threading.Thread(target=table, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for game in games:
        assert answers[game] == list(range(2, 10))
        assert [r[0] for r in svc.store.rows(game)] == list(range(1, 10))
    assert writer.entries >= 128
    assert writer.commits <= writer.entries


def test_a_write_by_another_process_between_commits_is_judged_on(
    svc: CachedService, writer: GroupWriter, store_env: dict[str, Any]
) -> None:
    """After its own commit the writer judges on the views it cached, with no query per
    game, only while the store's log says nobody else wrote since."""
    game = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    assert writer.entry(game, "t1").result(10).version == 2
    assert writer.entry(game, "t1").result(10).version == 3  # judged on the cached view
    with CachedService(GameStore(**store_env)) as other:
        other.record(game, "t3")  # 9 - 1 - 1 - 3 = 4 left
    after = with_terms(writer.entry, 4)(game, "t1").result(10)
    assert after.version == 5
    assert after.accepted
    assert svc.load(game).state.left == 3
    assert [r[0] for r in svc.store.rows(game)] == [1, 2, 3, 4, 5]


def test_a_game_written_past_the_cache_is_read_again_after_trust_returns(
    svc: CachedService, writer: GroupWriter
) -> None:
    """A lone write (here a retraction) appends from its own copy and leaves the cached
    view behind; later commits of other games must not make that stale view trusted."""
    stale = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    other = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    assert writer.entry(stale, "t1").result(10).version == 2
    assert writer.call(lambda: svc.retract(stale, "wrong", by="Tom")).result(10).version == 3
    assert writer.entry(other, "t1").result(10).version == 2  # trust comes back here
    assert writer.entry(other, "t1").result(10).version == 3
    again = writer.entry(stale, "t2").result(10)
    assert again.accepted
    assert again.version == 4
    assert svc.load(stale).state.left == 7


def test_an_entry_that_ends_a_game_of_an_event_updates_its_match(
    svc: CachedService, writer: GroupWriter
) -> None:
    """The match is updated in the game end's own transaction: that entry goes alone, after
    the entries queued before it (of its game and of others), which commit first."""
    event = svc.event_new("Nim cup", "nim", rounds=1).event_id
    svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    first, second = (table.games[0] for table in svc.event_pair(event))
    release = hold(writer)
    plays = [writer.entry(first, text) for text in ("t3", "t3", "t3", "t1")]  # the last ends it
    other = writer.entry(second, "t2")
    release.set()
    results = [f.result(10) for f in plays]
    assert [r.event for r in results] == [2, 3, 4, 5]
    assert results[-1].ended is not None
    assert results[-1].ended.how == "rule"
    assert other.result(10).version == 2
    (table,) = [t for t in svc.event_pairings(event) if t.games[0] == first]
    assert len(table.games) == 2  # the match heard of its game: best of 3, game 2 created


# -- ends and new games in the group commit ------------------------------------------------


def test_a_batch_of_entries_ends_and_new_games_commits_once(
    svc: CachedService, writer: GroupWriter
) -> None:
    games = [svc.create_game("nim", PLAYERS, options={"heap": 30}).game_id for _ in range(6)]
    release = hold(writer)
    plays = [with_terms(writer.entry, 1)(game, "t1") for game in games]
    ends = [
        with_terms(writer.command, 2)(game, End(how="resignation", who="first", by="Tom"))
        for game in games[:3]
    ]
    fresh = [
        writer.create(CreateGame(game="nim", players=tuple(PLAYERS), options={"heap": 7}, by="Tom"))
        for _ in range(4)
    ]
    before = writer.commits
    release.set()
    assert [f.result(10).version for f in plays] == [2] * 6
    for game, future in zip(games[:3], ends, strict=True):
        written = future.result(10)
        assert isinstance(written, WrittenEvents)
        assert written.game_id == game
        assert written.events == [3]
        assert written.version == 3
        assert written.ended is not None
        assert written.ended.how == "resignation"
        assert svc.load(game).ended is not None
    views = [f.result(10) for f in fresh]
    assert len({v.game_id for v in views}) == 4
    for view in views:
        assert view.version == 1
        assert view.state.left == 7
        assert svc.store.load(view.game_id).last_hash == view.last_hash  # stored as answered
    assert writer.commits == before + 1  # six entries, three ends, four new games: one commit
    report = svc.verify()
    assert report.games == 10
    assert not report.bad


def test_an_end_answers_as_the_service_does(svc: CachedService, writer: GroupWriter) -> None:
    """The grouped end's answer is the one ``Commands.end`` gives, field for field."""
    ours, theirs = (svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id for _ in range(2))
    command = End(how="adjudication", who="second", reason="time", by="Tom")
    grouped = writer.command(ours, command).result(10)
    alone = svc.end(theirs, "adjudication", who="second", reason="time", by="Tom")
    assert grouped.events == alone.events == [2]
    assert grouped.summaries == alone.summaries
    assert grouped.version == alone.version
    assert grouped.ended == alone.ended


def test_a_refused_end_in_a_batch_leaves_the_others_alone(
    svc: CachedService, writer: GroupWriter
) -> None:
    games = [svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id for _ in range(3)]
    release = hold(writer)
    stale = with_terms(writer.command, 5)(games[0], End(how="agreement"))
    nobody = writer.command(games[1], End(how="resignation", who="nobody"))
    unauthorized = writer.command(
        games[2],
        End(how="adjudication", who="first", reason="x"),
        action="adjudicate",
        principal=Principal(role="player", name="Ann", token_id="t", tables=()),
    )
    good = [writer.entry(game, "t1") for game in games]
    ended = writer.command(games[2], End(how="agreement"))
    late = writer.entry(games[2], "t1")  # the game is over: REF-1.3
    release.set()
    assert isinstance(outcome(stale), StaleVersionError)
    assert isinstance(outcome(nobody), RefusedError)
    assert "nobody" in str(outcome(nobody))
    assert isinstance(outcome(unauthorized), AccessDeniedError)
    assert [f.result(10).version for f in good] == [2, 2, 2]
    assert ended.result(10).events == [3]
    refused = outcome(late)
    assert isinstance(refused, InvalidCommandError)
    assert refused.clause == "REF-1.3"
    assert [len(svc.store.rows(g)) for g in games] == [2, 2, 3]


def test_a_game_created_in_a_batch_takes_entries_in_the_next(
    svc: CachedService, writer: GroupWriter
) -> None:
    view = writer.create(
        CreateGame(game="nim", players=tuple(PLAYERS), options={"heap": 5})
    ).result(10)
    release = hold(writer)
    plays = [with_terms(writer.entry, 1 + n)(view.game_id, "t1") for n in range(3)]
    resign = writer.command(view.game_id, End(how="resignation", who="second"))
    release.set()
    assert [f.result(10).version for f in plays] == [2, 3, 4]
    assert resign.result(10).version == 5
    assert [r[0] for r in svc.store.rows(view.game_id)] == [1, 2, 3, 4, 5]
    assert svc.load(view.game_id).state.left == 2
    # a refused setup is its caller's alone
    bad = writer.create(CreateGame(game="nim", players=(Player("first", "Ann"),) * 2))
    assert isinstance(outcome(bad), SetupError)


def test_a_race_on_an_end_fails_only_its_game(
    svc: CachedService, writer: GroupWriter, store_env: dict[str, Any]
) -> None:
    moved = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    calm = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    svc.load(moved)
    release = hold(writer)
    ours = writer.command(moved, End(how="agreement"))
    other = writer.command(calm, End(how="agreement"))
    created = writer.create(CreateGame(game="nim", players=tuple(PLAYERS)))
    original_load = race_on_each_load(svc, moved, store_env)
    release.set()
    assert isinstance(outcome(ours), ConcurrentWriteError)
    assert other.result(10).version == 2
    assert svc.store.exists(created.result(10).game_id)
    svc.load = original_load
    # the race came again when the end was judged once more: the other writer's two only
    assert svc.load(moved).ended is None
    assert svc.load(moved).version == 3


def test_ends_of_an_events_games_in_one_batch_each_update_their_match(
    svc: CachedService, writer: GroupWriter
) -> None:
    """An end (by command or by an entry) of an event's game updates its match in the same
    transaction; two of them in a batch go into two commits, each planned on the match as
    the one before left it, and the entries around them still share those commits."""
    event = svc.event_new("Nim cup", "nim", rounds=1).event_id
    svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    first, second = (table.games[0] for table in svc.event_pair(event))
    release = hold(writer)
    plays = [writer.entry(first, text) for text in ("t3", "t3", "t3", "t1")]  # the last ends it
    resign = writer.command(second, End(how="resignation", who="second", by="Tom"))
    late = writer.command(first, End(how="agreement"))  # after its end: REF-3 refusal
    before = writer.commits
    release.set()
    results = [f.result(10) for f in plays]
    assert [r.event for r in results] == [2, 3, 4, 5]
    assert results[-1].ended is not None
    assert results[-1].ended.how == "rule"
    assert resign.result(10).ended is not None
    assert isinstance(outcome(late), InvalidCommandError)
    assert writer.commits == before + 2
    tables = svc.event_pairings(event)
    assert all(len(t.games) == 2 for t in tables)  # both matches heard: game 2 created
    for table in tables:
        assert svc.load(table.games[1]).version >= 1
    report = svc.verify()
    assert not report.bad


def test_a_busy_writer_judging_on_its_last_commit_refuses_only_a_game_moved_meanwhile(
    svc: CachedService,
    writer: GroupWriter,
    store_env: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch queued while the writer was busy is judged on the writer's own last commit
    without reading the log again (``FOLLOW_WITHIN``): a game another process moved in
    that moment is refused as a race (its callers alone), and read again after it."""
    monkeypatch.setattr(writer_module, "FOLLOW_WITHIN", 3600.0)
    moved = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    calm = svc.create_game("nim", PLAYERS, options={"heap": 9}).game_id
    assert writer.entry(moved, "t1").result(10).version == 2
    assert writer.entry(calm, "t1").result(10).version == 2
    gate, entered = threading.Event(), threading.Event()
    clock = svc.clock

    def held_clock() -> Any:
        if not gate.is_set():
            entered.set()
            gate.wait(10)
        return clock()

    other = CachedService(GameStore(**store_env))
    svc.clock = held_clock
    first = writer.entry(calm, "t1")
    assert entered.wait(10)  # the writer is judging ``first``
    # after ``first``'s commit, on the writer thread, before the next batch is judged:
    first.add_done_callback(lambda _: other.record(moved, "t3"))
    stale = writer.entry(moved, "t1")  # queued while the writer is busy
    quiet = writer.entry(calm, "t1")
    gate.set()
    assert first.result(10).version == 3
    moved_on = stale.result(10)  # judged on version 2, refused, judged again on version 3
    assert moved_on.accepted
    assert moved_on.version == 4
    assert quiet.result(10).version == 4
    again = writer.entry(moved, "t1").result(10)
    assert again.accepted
    assert again.version == 5
    assert svc.load(moved).state.left == 3
    other.close()


# -- event writes in the group commit (``GroupWriter.event``) ---------------------------------


def paired_event(svc: CachedService, players: int = 8) -> tuple[str, list[int]]:
    """A nim event of ``players`` players, round 1 paired (its games created): the tables."""
    event = svc.event_new("Nim cup", "nim", rounds=3).event_id
    svc.event_register(event, [f"Player {n}" for n in range(players)])
    tables = [t.table or 0 for t in svc.event_pair(event) if not t.bye]
    return event, tables


def slip(svc: CachedService, event: str, table: int, expected_version: int | None = None) -> Any:
    return lambda: with_terms(svc.event_result, expected_version)(event, [f"{table}=2-0-0"])


def test_event_writes_queued_together_land_in_one_commit_each_answered(
    svc: CachedService, writer: GroupWriter, store_env: dict[str, Any]
) -> None:
    """EV-3.1's slips of four tables at once: one transaction (their facts and the games
    they close as void, EV-3.9), each caller answered with its own count."""
    event, tables = paired_event(svc)
    version = svc.event_version(event)
    release = hold(writer)
    futures = [writer.event(slip(svc, event, table)) for table in tables]
    before = writer.commits
    release.set()
    assert all(f.result(10) >= 1 for f in futures)  # facts stored, each write's own
    assert writer.commits == before + 1  # four event writes, one transaction
    stored = [row[0] for row in svc.store.rows(event)]
    assert stored == list(range(1, stored[-1] + 1))  # no gap, nothing twice
    assert stored[-1] > version
    state = svc.event_state(event)
    assert all(state.result(1, t) is not None for t in tables)
    with CachedService(GameStore(**store_env)) as fresh:  # the store, read afresh
        assert fresh.event_version(event) == svc.event_version(event)
    assert not svc.verify().bad


def test_a_refused_event_write_in_a_batch_is_its_callers_alone(
    svc: CachedService, writer: GroupWriter
) -> None:
    """A slip for a table that is not paired (EV-3.1) and a second slip for a table already
    reported in the batch are refused, nothing of theirs stored; the others share a commit."""
    event, tables = paired_event(svc)
    release = hold(writer)
    first = writer.event(slip(svc, event, tables[0]))
    unknown = writer.event(slip(svc, event, 99))
    again = writer.event(slip(svc, event, tables[0]))  # decided on the first's fold
    second = writer.event(slip(svc, event, tables[1]))
    before = writer.commits
    release.set()
    assert first.result(10) >= 1
    assert second.result(10) >= 1
    assert isinstance(outcome(unknown), RefusedError)
    assert isinstance(outcome(again), RefusedError)
    assert writer.commits == before + 1
    assert not svc.verify().bad


def test_two_event_writes_with_the_same_if_match_give_one_stored_and_one_stale(
    svc: CachedService, writer: GroupWriter
) -> None:
    event, tables = paired_event(svc)
    version = svc.event_version(event)
    release = hold(writer)
    first = writer.event(slip(svc, event, tables[0], expected_version=version))
    second = writer.event(slip(svc, event, tables[1], expected_version=version))
    release.set()
    assert first.result(10) >= 1
    assert isinstance(outcome(second), StaleVersionError)  # 412: the first moved the event
    state = svc.event_state(event)
    assert state.result(1, tables[1]) is None


def test_a_failed_event_commit_answers_its_callers_and_leaves_store_and_cache_as_they_were(
    svc: CachedService, writer: GroupWriter
) -> None:
    event, tables = paired_event(svc)
    version = svc.event_version(event)
    games = svc.store.rows(event)  # the stream as stored before
    release = hold(writer)
    futures = [writer.event(slip(svc, event, table)) for table in tables[:3]]
    _answers_with_a_broken_disk(svc, release, futures)
    assert svc.store.rows(event) == games  # nothing stored
    assert svc.event_version(event) == version  # the cache folded nothing past the store
    assert all(svc.event_state(event).result(1, t) is None for t in tables)
    again = [writer.event(slip(svc, event, t, expected_version=version)) for t in tables[:1]]
    assert all(f.result(10) >= 1 for f in again)


def test_an_event_write_raced_by_a_writer_taking_no_lock_is_held_again(
    svc: CachedService, writer: GroupWriter, store_env: dict[str, Any]
) -> None:
    """A writer that takes no event lock (a one-shot command) reports a table between the
    batch's decisions and its commit: the commit is refused whole, and the writes are held
    once more on the event as stored, in one more commit (not each alone), so every slip
    lands, in order, with no gap in the stream."""
    event, tables = paired_event(svc)
    raced: list[bool] = []

    def first_then_race() -> int:
        count = svc.event_result(event, [f"{tables[0]}=2-0-0"])
        if not raced:
            raced.append(True)
            contextvars.Context().run(another_process)  # not this write's context
        return count

    def another_process() -> None:
        env = store_env.get("env")
        lockless = {"env": {**env, "PERSISTENCE_MODULE": ONE_SHOT_MODULE}} if env else store_env
        with CachedService(GameStore(**lockless)) as other:
            other.event_result(event, [f"{tables[3]}=0-2-0"])

    release = hold(writer)
    futures = [writer.event(first_then_race)]
    futures += [writer.event(slip(svc, event, t)) for t in tables[1:3]]
    before = writer.commits
    release.set()
    assert all(f.result(10) >= 1 for f in futures)
    assert (writer.races, writer.commits - before) == (1, 2)  # refused, then held again
    state = svc.event_state(event)
    results = {t: state.result(1, t) for t in tables}
    assert all(result is not None for result in results.values()), results
    stored = [row[0] for row in svc.store.rows(event)]
    assert stored == list(range(1, stored[-1] + 1))
    assert not svc.verify().bad


def test_an_event_write_that_creates_streams_commits_alone_after_the_held_ones(
    svc: CachedService, writer: GroupWriter
) -> None:
    """Pairing a round creates its games: it is not held with the writes before it (they
    commit first), and a slip after it in the same batch closes the games it created."""
    event, tables = paired_event(svc, players=4)
    release = hold(writer)
    slips = [writer.event(slip(svc, event, table)) for table in tables]
    ended = writer.event(lambda: svc.event_round(event, "end"))
    paired = writer.event(lambda: svc.event_pair(event))
    after = writer.event(slip(svc, event, 1))
    before = writer.commits
    release.set()
    assert all(f.result(10) >= 1 for f in slips)
    ended.result(10)
    rows = paired.result(10)
    assert after.result(10) >= 1
    assert writer.commits == before + 3  # slips and the round's end; the pairing; the slip
    (game,) = next(r.games for r in rows if r.table == 1)[:1]
    assert svc.load(game).ended is not None  # closed as void by the slip (EV-3.9)
    assert not svc.verify().bad
    # the folds of the writes committed alone are settled too: a read elsewhere never waits
    reader = threading.Thread(target=svc.event_version, args=(event,))
    reader.start()
    reader.join(2)
    assert not reader.is_alive()


def test_a_pairing_alone_leaves_the_event_readable_at_once_on_another_thread(
    svc: CachedService, writer: GroupWriter
) -> None:
    """EV-5.1's pairing creates the round's games, so its commit is not held; once it is
    answered, a page's read on another thread neither waits for it nor folds it again."""
    event = svc.event_new("Nim cup", "nim", rounds=3).event_id
    svc.event_register(event, [f"Player {n}" for n in range(8)])
    assert writer.event(lambda: svc.event_pair(event)).result(10)
    seen: list[int] = []
    reader = threading.Thread(target=lambda: seen.append(svc.event_version(event)))
    reader.start()
    reader.join(2)
    assert not reader.is_alive()
    assert seen == [svc.store.rows(event)[-1][0]]


def test_a_read_on_another_thread_never_sees_event_facts_before_their_commit(
    svc: CachedService, writer: GroupWriter
) -> None:
    """The writer folds a held write's facts into the cached event at once (the writes
    after it decide on them); a page's read on another thread meanwhile waits for the
    commit, and is never shown a version the store does not hold."""
    event, tables = paired_event(svc)
    seen: list[tuple[int, int]] = []

    def read() -> None:
        version = svc.event_version(event)
        seen.append((version, svc.store.rows(event)[-1][0]))

    def slip_then_read() -> int:
        count = svc.event_result(event, [f"{tables[0]}=2-0-0"])  # held, folded
        reader = threading.Thread(target=read)
        reader.start()
        reader.join(0.3)  # it waits for the commit, which comes after this write returns
        assert reader.is_alive()
        readers.append(reader)
        return count

    readers: list[threading.Thread] = []
    before = svc.event_version(event)
    assert writer.event(slip_then_read).result(10) >= 1
    readers[0].join(10)
    ((version, stored),) = seen
    assert version == stored > before

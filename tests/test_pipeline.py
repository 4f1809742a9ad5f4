"""The one write pipeline (``service.pipeline``): the command line's commands and the server's
group commit stage a game's writes the same way (authorize, decide, seal, append, follow-ups),
so the same writes store the same bytes; the version a writer saw is checked in one place
(``referee.game.write.decision``), and an event write's ``If-Match`` and idempotency key are
checked as it loads its event: a stale version or a key already stored writes nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from events.store import GameStore
from referee.contract import Player
from referee.game.commands import End, Retract
from referee.game.write import decision
from service import pipeline
from service.app import RefereeService
from service.cached import CachedService
from service.decide import CreateGame
from service.errors import RepeatedWriteError, StaleVersionError
from service.pipeline import with_terms
from service.procedure import header, writing_token
from service.writer import GroupWriter

WHEN = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
PLAYERS = (Player("first", "Ann"), Player("second", "Ben"))
# REF-1.1 to REF-1.4 (entries recorded, rejected as evidence), REF-2.1 (a retraction),
# REF-3.2 (a resignation): the writes both doors make, in order.
ENTRIES = ["t1", "t2", "t7", "t3"]


def _clock() -> datetime:
    return WHEN


def _rows(store: GameStore, game_id: str) -> list[tuple[int, str, bytes]]:
    return store.rows(game_id)


def test_the_command_line_and_the_group_commit_store_the_same_bytes(tmp_path: Path) -> None:
    """The same writes (a new game, entries recorded and one rejected as evidence, REF-1.4,
    a retraction, REF-2.1, a resignation, REF-3.2) through ``Commands`` and through the
    server's ``GroupWriter`` are stored as the very same events, byte for byte."""
    cli = RefereeService(GameStore(tmp_path / "cli.db"), clock=_clock, draw_seed=lambda: 7)
    cached = CachedService(GameStore(tmp_path / "server.db"), clock=_clock, draw_seed=lambda: 7)
    writer = GroupWriter(cached)
    try:
        cli.create_game("nim", PLAYERS, options={"heap": 12}, game_id="nim-same0001")
        writer.create(
            CreateGame(game="nim", players=PLAYERS, options={"heap": 12}),
            game_id="nim-same0001",
        ).result(10)
        for text in ENTRIES:
            ours = cli.record("nim-same0001", text)
            theirs = writer.entry("nim-same0001", text).result(10)
            assert ours == theirs
        cli.retract("nim-same0001", "misread")
        writer.command("nim-same0001", Retract(reason="misread")).result(10)
        cli.end("nim-same0001", "resignation", who="Ann")
        writer.command("nim-same0001", End(how="resignation", who="Ann")).result(10)
        stored = _rows(cli.store, "nim-same0001")
        assert len(stored) >= 7
        assert stored == _rows(cached.store, "nim-same0001")
    finally:
        writer.close()
        cached.close()
        cli.close()


@pytest.fixture
def svc(tmp_path: Path) -> Iterator[RefereeService]:
    service = RefereeService(GameStore(tmp_path / "store.db"), clock=_clock)
    yield service
    service.close()


def test_a_stale_version_is_refused_once_by_the_pipeline_for_entries_and_commands(
    svc: RefereeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's write takes the version its writer saw as its terms (``with_terms``), not
    as a parameter: the pipeline's stage checks them once, before deciding, so an entry or
    a command made on an older version is refused (``StaleVersionError``), whatever it
    says, nothing stored; the decision itself is asked no version."""
    view = svc.create_game("nim", PLAYERS, options={"heap": 12})
    svc.record(view.game_id, "t1")
    with pytest.raises(StaleVersionError):
        with_terms(svc.record, 1)(view.game_id, "not an entry")
    with pytest.raises(StaleVersionError):
        with_terms(svc.retract, 1)(view.game_id, "")  # refused for its reason too
    assert svc.load(view.game_id).version == 2
    checks: list[int] = []
    real = pipeline.check_terms

    def counted(stream_id: str, version: int, *args: Any, **kwargs: Any) -> None:
        checks.append(version)
        real(stream_id, version, *args, **kwargs)

    monkeypatch.setattr(pipeline, "check_terms", counted)
    now = svc.load(view.game_id)
    decided = decision(now, Retract(reason="misread"), header(view.game_id, WHEN))
    assert decided.new
    assert not checks  # the decision alone: no terms, no version asked
    assert with_terms(svc.retract, 2)(view.game_id, "misread").version == 3
    assert checks == [2]  # once, on the version the write was decided on


def _event(svc: RefereeService) -> str:
    info = svc.event_new("Open", "nim", rounds=3)
    svc.event_register(info.event_id, ["Ann", "Ben", "Cal"])
    return info.event_id


def test_an_event_write_on_a_stale_version_stores_nothing(svc: RefereeService) -> None:
    """An event write names the version its writer saw (``If-Match``): made on an older one,
    it is refused (``StaleVersionError``) and the event's log is unchanged."""
    event_id = _event(svc)
    version = svc.event_version(event_id)
    with pytest.raises(StaleVersionError):
        with_terms(svc.event_drop, version - 1)(event_id, "Cal", reason="ill")
    assert svc.event_version(event_id) == version
    assert with_terms(svc.event_drop, version)(event_id, "Cal", reason="ill").after_round == 0
    assert svc.event_version(event_id) == version + 1


def test_an_event_write_repeated_with_its_idempotency_key_stores_nothing_new(
    svc: RefereeService,
) -> None:
    """A write sent again with the key of a write already stored is not carried out again
    (``RepeatedWriteError`` names the event that holds it), even though its own events moved
    the version its retry names; another key, or another token's same key, is a new write."""
    event_id = _event(svc)
    version = svc.event_version(event_id)
    with_terms(svc.event_drop, version, "k1")(event_id, "Cal", reason="ill")
    after = svc.event_version(event_id)
    with pytest.raises(RepeatedWriteError) as refused:
        with_terms(svc.event_drop, version, "k1")(event_id, "Cal", reason="ill")
    assert refused.value.event == after
    fresh = RefereeService(GameStore(svc.store.path), clock=_clock)  # another process, afresh
    try:
        with pytest.raises(RepeatedWriteError):
            with_terms(fresh.event_register, idempotency_key="k1")(event_id, ["Dan"])
    finally:
        fresh.close()
    assert svc.event_version(event_id) == after
    with writing_token("tok-other"):
        with_terms(svc.event_register, idempotency_key="k1")(event_id, ["Dan"])
    assert svc.event_version(event_id) == after + 1


def test_an_event_created_again_with_its_idempotency_key_is_not_created_twice(
    svc: RefereeService,
) -> None:
    """Creating an event is a write too: retried with its key, it finds the event its first
    try made and creates none."""
    create = with_terms(svc.event_new, idempotency_key="make-open")
    first = create("Open", "nim", rounds=3)
    with pytest.raises(RepeatedWriteError) as refused:
        create("Open", "nim", rounds=3)
    assert refused.value.stream == first.event_id
    assert svc.event_ids() == [first.event_id]


def _numbered(store: GameStore) -> None:
    """Game ids drawn in order (the same in two stores), not at random."""
    drawn = iter(range(1, 10_000))
    store.new_game_id = lambda game: f"{game}-g{next(drawn):07d}"  # type: ignore[method-assign]
    store.new_game_ids = lambda game, count: [  # type: ignore[method-assign]
        store.new_game_id(game) for _ in range(count)
    ]


def test_an_event_s_writes_go_through_the_pipeline_from_both_doors(tmp_path: Path) -> None:
    """An event's writes (its creation, players, a round paired with its games, slips that
    close the games as void, EV-3.9) from the command line and through the server's writer
    are stored as the very same events, byte for byte; on the writer thread each is
    committed by the writer's own commit (a group of one: ``GroupWriter.commits`` counts
    it), with its follow-ups (the event folded, the key stored with its first fact)."""
    cli = RefereeService(GameStore(tmp_path / "cli.db"), clock=_clock, draw_seed=lambda: 7)
    cached = CachedService(GameStore(tmp_path / "server.db"), clock=_clock, draw_seed=lambda: 7)
    _numbered(cli.store)
    _numbered(cached.store)
    writer = GroupWriter(cached)
    ids = ["pl-aaaaaaaa", "pl-bbbbbbbb", "pl-cccccccc", "pl-dddddddd"]

    def writes(svc: RefereeService) -> list[object]:
        event = with_terms(svc.event_new, idempotency_key="open")("Open", "nim", rounds=3, seed=3)
        event_id = event.event_id
        return [
            event_id,
            svc.event_register(event_id, ["Ann", "Ben", "Cal", "Dan"], player_ids=ids),
            [r.table for r in with_terms(svc.event_pair, idempotency_key="pair-1")(event_id)],
            with_terms(svc.event_result, svc.event_version(event_id))(event_id, ["1=2-0-0"]),
            with_terms(svc.event_result, idempotency_key="slip-2")(event_id, ["2=0-2-0"]),
        ]

    try:
        ours = writes(cli)
        before = writer.commits
        theirs = writer.call(lambda: writes(cached)).result(30)
        assert writer.commits - before == 5  # each write committed through the writer's path
        assert ours == theirs
        event = str(ours[0])
        assert _rows(cli.store, event) == _rows(cached.store, event)
        for game in cli.event_state(event).games:
            assert _rows(cli.store, game) == _rows(cached.store, game)
            assert cli.load(game).ended is not None  # closed as void by its table's slip
        with pytest.raises(RepeatedWriteError):
            writer.call(
                lambda: with_terms(cached.event_result, idempotency_key="slip-2")(
                    event, ["2=0-2-0"]
                )
            ).result(30)
    finally:
        writer.close()
        cli.close()
        cached.close()


def test_an_event_write_s_terms_are_checked_once(
    svc: RefereeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player's report (EV-11.1) looks the caller up in the event, then decides under the
    event's lock (``_raced``): its If-Match and key are checked once, on the event it decides
    on (``pipeline.check_terms``), and a stale If-Match is refused there, nothing stored."""
    from service import pipeline, tournaments
    from service.access import Principal

    event_id = _event(svc)
    svc.event_pair(event_id)
    state = svc.event_state(event_id)
    table = next(p for p in state.rounds[1].pairings if not p.bye)
    player = state.players[table.players[0]]
    who = Principal(token_id="p", role="player", name=player.name, player_id=player.player_id or "")
    checks: list[int] = []
    real = pipeline.check_terms

    def counted(*args: object, **kwargs: object) -> None:
        checks.append(1)
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tournaments, "check_terms", counted)
    version = svc.event_version(event_id)
    with pytest.raises(StaleVersionError):
        with_terms(svc.report_as, version - 1, "r1")(who, event_id, "2-1-0")
    assert (checks, svc.event_version(event_id)) == ([1], version)
    with_terms(svc.report_as, version, "r1")(who, event_id, "2-1-0")
    assert checks == [1, 1]
    assert svc.event_version(event_id) == version + 1


def test_a_game_write_inside_an_event_write_keeps_the_event_s_terms(svc: RefereeService) -> None:
    """EV-8.6: an event's game loss, given with the event's version as its If-Match, ends the
    player's game through the game's own pipeline; the terms are the event's, checked on the
    event, never compared with the game's version (which differs)."""
    event_id = _event(svc)
    table = next(row for row in svc.event_pair(event_id) if not row.bye)
    game = table.games[-1]
    before = svc.load(game).version
    version = svc.event_version(event_id)
    assert before != version  # a check against the game would refuse it
    given = with_terms(svc.event_penalize, version)(
        event_id, table.players[0], "cheating", penalty="game-loss", reason="marked"
    )
    assert given.effect.startswith(f"game {game} ended")
    assert svc.load(game).ended is not None
    with pytest.raises(StaleVersionError):  # the event's terms were checked on the event
        with_terms(svc.event_penalize, version)(
            event_id, table.players[1], "cheating", penalty="warning", reason="late"
        )


def test_a_game_write_sent_again_with_its_key_is_answered_as_the_first_from_both_doors(
    tmp_path: Path,
) -> None:
    """A game's write sent again with its idempotency key after its answer was lost (a new
    game, an entry, one rejected as evidence, REF-1.4, a retraction, REF-2.1) is answered
    as the first time and stores nothing more, through ``Commands`` and through the
    server's ``GroupWriter`` alike, even after the game moved on; the key is stored with
    the write's first event, so the two doors store the same bytes, and a process that
    never saw the first try finds it in the log."""
    cli = RefereeService(GameStore(tmp_path / "cli.db"), clock=_clock, draw_seed=lambda: 7)
    cached = CachedService(GameStore(tmp_path / "server.db"), clock=_clock, draw_seed=lambda: 7)
    writer = GroupWriter(cached)
    new = CreateGame(game="nim", players=PLAYERS, options={"heap": 12})
    retract = Retract(reason="misread")
    doors: dict[str, dict[str, Callable[..., Any]]] = {
        "cli": {
            "create": lambda: cli.create_game("nim", PLAYERS, options={"heap": 12}),
            "entry": cli.record,
            "retract": lambda game: cli.retract(game, "misread"),
        },
        "server": {
            "create": lambda: writer.create(new).result(10),
            "entry": lambda game, text: writer.entry(game, text).result(10),
            "retract": lambda game: writer.command(game, retract).result(10),
        },
    }
    answers: dict[str, list[Any]] = {}
    try:
        for door, svc in (("cli", cli), ("server", cached)):
            do = doors[door]

            def write(key: str, what: str, *args: Any, do: Any = do) -> Any:
                return with_terms(do[what], idempotency_key=key)(*args)

            made = write("new", "create")
            game = made.game_id  # made from the key and the token: the same at both doors
            assert write("new", "create").game_id == game
            first = write("t1", "entry", game, "t1")
            rejected = write("t7", "entry", game, "t7")
            assert first.accepted
            assert rejected.stored  # REF-1.4: a rejection is kept as evidence
            assert not rejected.accepted
            assert write("t1", "entry", game, "t1") == first  # as the first time
            assert write("t7", "entry", game, "t7") == rejected  # the evidence kept once
            undone = write("undo", "retract", game)
            write("t2", "entry", game, "t2")  # the game moves on meanwhile
            assert write("undo", "retract", game) == undone  # the version it left, as then
            assert write("new", "create").version == 1
            assert svc.load(game).version == 5  # created, t1, t7 kept, retracted, t2
            answers[door] = [first, rejected, undone.events, undone.version]
        assert answers["cli"] == answers["server"]
        assert _rows(cli.store, game) == _rows(cached.store, game)  # the keys and all
        assert cli.store.rows(game)[1][2].count(b'"write_key":"t1"') == 1
    finally:
        writer.close()
        cached.close()
        cli.close()
    fresh = RefereeService(GameStore(tmp_path / "cli.db"), clock=_clock)  # another process
    try:
        held = pipeline.Terms(None, "t1")
        assert pipeline.under_terms(fresh.record, held)(game, "t1") == answers["cli"][0]
        assert held.replayed == 2  # the event that holds the key
        assert fresh.load(game).version == 5
    finally:
        fresh.close()


def test_a_game_s_key_sent_again_with_another_request_is_refused(svc: RefereeService) -> None:
    """A key names one request: the same key with another entry, another command or a new
    game of other players is refused (``KeyReusedError``, HTTP 422) and stores nothing
    (REF-1.1: the entry is not judged); a write refused stores no key, so sent again it
    is decided again."""
    from service.errors import KeyReusedError

    game = with_terms(svc.create_game, idempotency_key="g")("nim", PLAYERS, options={"heap": 12})
    with pytest.raises(KeyReusedError):
        with_terms(svc.create_game, idempotency_key="g")("nim", PLAYERS, options={"heap": 9})
    with pytest.raises(KeyReusedError):
        with_terms(svc.create_game, idempotency_key="g")("nim", PLAYERS[::-1])
    with_terms(svc.record, idempotency_key="k")(game.game_id, "t1")
    for other in (lambda: svc.record(game.game_id, "t2"), lambda: svc.retract(game.game_id, "")):
        with pytest.raises(KeyReusedError) as refused:
            with_terms(other, idempotency_key="k")()
        assert refused.value.event == 2
    assert svc.load(game.game_id).version == 2
    with pytest.raises(StaleVersionError):  # refused: nothing stored, the key kept nowhere
        with_terms(svc.record, 1, "late")(game.game_id, "t2")
    assert with_terms(svc.record, 2, "late")(game.game_id, "t2").version == 3


def test_a_key_sent_twice_in_one_group_commit_is_answered_once_that_commit_is_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry (REF-1.1) and its retry queued in the same group commit: the retry finds the
    key on the first's events, not yet stored, and is answered with the commit: the failure
    of a commit that stores nothing is both callers' (never an answer for what was not
    stored); sent again, the entry is stored once and both are told the same."""
    import threading

    cached = CachedService(GameStore(tmp_path / "server.db"), clock=_clock)
    writer = GroupWriter(cached)
    try:
        game = writer.create(CreateGame(game="nim", players=PLAYERS, options={"heap": 12}))
        game_id = game.result(10).game_id
        real = cached.store.append_sealed

        def both(fail: bool) -> list[Any]:
            gate = threading.Event()
            writer.call(gate.wait)  # holds the writer: the two entries are queued together
            futures = [
                with_terms(lambda: writer.entry(game_id, "t1"), idempotency_key="k")()
                for _ in range(2)
            ]
            if fail:
                monkeypatch.setattr(
                    cached.store, "append_sealed", lambda *a, **k: (_ for _ in ()).throw(OSError)
                )
            gate.set()
            outcomes: list[Any] = []
            for future in futures:
                try:
                    outcomes.append(future.result(10))
                except OSError as exc:
                    outcomes.append(exc)
            monkeypatch.setattr(cached.store, "append_sealed", real)
            return outcomes

        failed = both(fail=True)
        assert all(isinstance(o, OSError) for o in failed)  # the retry's too
        assert cached.load(game_id).version == 1
        first, again = both(fail=False)
        assert first == again
        assert first.accepted
        assert cached.store.rows(game_id)[-1][0] == 2  # stored once
    finally:
        writer.close()
        cached.close()


class _Counting(list[Any]):
    """A game's events that count how many of them are read one by one."""

    reads = 0

    def __getitem__(self, index: Any) -> Any:
        self.reads += 1
        return super().__getitem__(index)


def test_a_kept_game_looks_for_a_key_in_the_events_folded_since_its_last_look(
    tmp_path: Path,
) -> None:
    """The server's kept view of a game (the group commit's, adopted by the cache) looks for
    a write's key in the events folded since its last look, not in the whole log again: a
    long game's keyed write costs what a short one's does. A key sent again is still found
    (REF-1.1: answered as the first time, nothing stored), and found by a process that
    never saw it (the log is the keys' one record)."""
    from referee.game.write import key_stored

    cached = CachedService(GameStore(tmp_path / "server.db"), clock=_clock)
    writer = GroupWriter(cached)
    try:
        game = writer.create(CreateGame(game="nim", players=PLAYERS, options={"heap": 12}))
        game_id = game.result(10).game_id
        first = with_terms(writer.entry, idempotency_key="e0")(game_id, "t1").result(10)
        for n in range(1, 21):  # an entry and its retraction, each under a fresh key
            with_terms(writer.command, idempotency_key=f"r{n}")(
                game_id, Retract(reason="x")
            ).result(10)
            with_terms(writer.entry, idempotency_key=f"e{n}")(game_id, "t1").result(10)
        view = cached.load(game_id)  # a copy of the kept view
        assert view.version == 42
        view.events = _Counting(view.events)
        assert key_stored(view, "absent", token="") is None
        assert view.events.reads <= 2  # the last write's events, not the game's 42
        assert with_terms(writer.entry, idempotency_key="e0")(game_id, "t1").result(10) == first
        assert cached.load(game_id).version == 42
    finally:
        writer.close()
        cached.close()
    fresh = RefereeService(GameStore(tmp_path / "server.db"), clock=_clock)  # another process
    try:
        assert with_terms(fresh.record, idempotency_key="e0")(game_id, "t1") == first
        assert fresh.load(game_id).version == 42
    finally:
        fresh.close()

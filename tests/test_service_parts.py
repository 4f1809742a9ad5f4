"""``RefereeService`` is a thin facade over small services (issue 34, "small application
services with typed interfaces"): every method a face calls is the method of one part, the
parts share one store and clock, and a game of an event reaches its match through the
event service it was given, not through attributes found on a shared ``self``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from events.store import GameStore
from service import RefereeService
from service.app import _Via
from service.cached import CachedService


def _service(db_path: Path) -> RefereeService:
    return RefereeService(GameStore(db_path))


def test_every_method_of_the_facade_is_a_parts_own(db_path: Path) -> None:
    """Each ``svc.<name>`` the faces call is bound to one of ``svc.parts``, so the facade
    holds no logic of its own to drift from the parts' (and mypy sees the part's signature)."""
    svc = _service(db_path)
    names = [name for name, value in vars(RefereeService).items() if isinstance(value, _Via)]
    assert len(names) > 100
    bound = {name: getattr(svc, name) for name in names}  # makes every part asked for
    parts = {id(part) for part in svc.parts.built().values()}
    assert svc.parts.built().keys() == {"games", "events", "postings", "room", "records"}
    for name, method in bound.items():
        assert id(method.__self__) in parts, name


def test_a_clock_set_on_the_service_is_the_clock_of_every_part(db_path: Path) -> None:
    """A test (or a replay) that sets ``svc.clock`` after opening the service stamps the
    games' events and the events' facts alike with it: the parts read one clock."""
    svc = _service(db_path)
    noon = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)
    svc.clock = lambda: noon
    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}, options={"heap": 5})
    event = svc.event_new("Friday", "nim", rounds=1)
    assert svc.load(game.game_id).created.timestamp == noon
    assert {line.time for line in svc.event_log(event.event_id)} == {noon}


def test_the_parts_are_wired_to_each_other_and_to_one_store(db_path: Path) -> None:
    """The games ask the event service about their match (``MatchHooks``), the event service
    asks the games for a game or a penalty (``GameDoor``), and all read one store."""
    svc = _service(db_path)
    parts = svc.parts
    assert parts.games.matches is not None
    assert parts.games.matches.events is parts.events  # type: ignore[attr-defined]
    assert parts.events.game_service is parts.games
    assert parts.postings.events is parts.events
    assert {id(p.store) for p in (parts.games, parts.events, parts.postings, parts.room)} == {
        id(svc.store)
    }


def test_the_servers_commands_load_through_its_cache(db_path: Path) -> None:
    """``CachedService``'s game service is the cached one: a command's own load (inside the
    game service) keeps the game folded, not only a face's ``svc.load``."""
    server = CachedService(GameStore(db_path))
    game = server.create_game("nim", {"first": "Ann", "second": "Ben"}, options={"heap": 5})
    assert server.cached_copy(game.game_id) is None
    server.record(game.game_id, "t1")  # loads the game through the game service
    cached = server.cached_copy(game.game_id)
    assert cached is not None
    assert server.parts.games is server.cache


def test_a_game_of_no_event_makes_no_other_part(db_path: Path) -> None:
    """A command on one game (``referee act``) builds the games alone: the other parts are
    made when first asked for, the event service when a game played at an event is
    written (its match is updated in the same write, ``MatchHooks``)."""
    svc = _service(db_path)
    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}, options={"heap": 5})
    svc.record(game.game_id, "t1")
    svc.record(game.game_id, "t9")  # refused, kept as evidence
    assert set(svc.parts.built()) == {"games"}
    assert svc.parts.events is svc.parts.events  # made once
    assert set(svc.parts.built()) == {"games", "events"}
    svc.close()


def test_closing_the_service_frees_its_events_without_a_cyclic_collection(
    db_path: Path,
) -> None:
    """The event service and each event it holds folded refer to each other (a cycle); at
    close it lets its events go, so reference counting frees them then (a 10,000-player
    event's state is some 55,000 objects the interpreter's last collection would walk)."""
    import gc
    import weakref

    svc = _service(db_path)
    event = svc.event_new("Friday", "nim", rounds=1).event_id
    events = svc.parts.events
    loaded = weakref.ref(events._event(event))
    assert loaded() is not None
    was = gc.isenabled()
    gc.disable()
    try:
        svc.close()
        assert not events._events_cache
        assert loaded() is None  # freed at once, not left to a collection
    finally:
        if was:
            gc.enable()

"""The server's cached service: each request gets its own copy of a folded game, the
cache follows whatever another process wrote, and a short id resolves as it does for
the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.store import GameStore
from service import RefereeService, RefusedError
from service.cached import CachedService


def test_a_copy_folds_without_touching_the_original(db_path: Path) -> None:
    svc = RefereeService(GameStore(db_path))
    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}, options={"heap": 5}).game_id
    svc.record(game, "t1")
    svc.dispute(game, 2, by="Ben", claim="took two")
    view = svc.load(game)
    clone = view.copy()
    svc.record(game, "t1")
    svc.rule(game, 1, decision="uphold", clause="REF-4.2", reason="seen by the table", by="Hera")
    for event in svc.store.events(game)[len(view.events) :]:
        clone.fold(event)
    assert (len(view.standing), len(view.states), len(view.disputes[1].steps)) == (1, 2, 0)
    assert (len(clone.standing), len(clone.states), len(clone.disputes[1].steps)) == (2, 3, 1)
    assert clone.states[:2] == view.states


def test_the_cache_sees_writes_from_another_process(db_path: Path) -> None:
    server = CachedService(GameStore(db_path))
    command_line = RefereeService(GameStore(db_path))
    game = command_line.create_game(
        "nim", {"first": "Ann", "second": "Ben"}, options={"heap": 5}
    ).game_id
    first = server.load(game)
    command_line.record(game, "t1")
    second = server.load(game)
    assert len(first.standing) == 0  # the copy handed out earlier did not move
    assert len(second.standing) == 1  # the cache caught up from the store
    second.fold(command_line.store.events(game)[-1])  # a caller folding its copy ...
    assert len(server.load(game).standing) == 1  # ... leaves the cache as it was


def test_short_ids_resolve_through_the_catalog(db_path: Path) -> None:
    server = CachedService(GameStore(db_path))
    game = server.create_game(
        "nim", {"first": "Ann", "second": "Ben"}, game_id="nim-aaaa1234"
    ).game_id
    assert server.load("a1234").game_id == game
    with pytest.raises(RefusedError, match="too short"):
        server.load("234")


def test_the_games_list_asks_the_log_once_per_position_its_callers_have_seen(
    db_path: Path,
) -> None:
    """A live stream passes the log position it last read (``seen``): one catch-up past it
    serves every stream that read no further; a later position is caught up, never missed."""
    svc = RefereeService(GameStore(db_path))
    listing = svc.game_listing()
    asked: list[int] = []
    catch_up = listing._catch_up

    def counted() -> None:
        asked.append(1)
        catch_up()

    listing._catch_up = counted  # type: ignore[method-assign]
    first = svc.create_game("nim", {"first": "Ann", "second": "Ben"}, options={"heap": 5})
    position = svc.store.last_position()
    assert [r.game_id for r in listing.rows(seen=position)] == [first.game_id]
    assert [r.game_id for r in listing.rows(seen=position)] == [first.game_id]
    assert len(asked) == 1  # the second stream's reading was covered by the first catch-up
    second = svc.create_game("nim", {"first": "Cy", "second": "Di"}, options={"heap": 5})
    assert len(listing.rows(seen=position)) == 1  # no later reading: nothing new asked
    found = listing.rows(seen=svc.store.last_position())
    assert {r.game_id for r in found} == {first.game_id, second.game_id}
    assert len(listing.rows()) == 2
    assert len(asked) == 3


def test_the_games_list_gives_a_live_stream_the_rows_changed_since_its_last_message(
    db_path: Path,
) -> None:
    svc = RefereeService(GameStore(db_path))
    listing = svc.game_listing()
    games = [
        svc.create_game("nim", {"first": f"A{n}", "second": f"B{n}"}, options={"heap": 5}).game_id
        for n in range(3)
    ]
    assert [r.game_id for r in listing.changed_after(0)] == games
    last = listing.changed_after(0)[-1].changed
    assert listing.changed_after(last) == []
    svc.end(games[0], "agreement", reason="a draw")  # the oldest game changes last
    newer = listing.changed_after(last)
    assert [(r.game_id, r.status) for r in newer] == [(games[0], "finished")]
    assert [r.game_id for r in listing.changed_after(0)] == [games[1], games[2], games[0]]
    assert [r.game_id for r in listing.rows()] == games  # the list keeps its own order

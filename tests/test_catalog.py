"""The games catalog: paging newest first, filters, short ids through the index."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.store import GameStore
from service import GameNotFoundError, RefereeService, RefusedError
from service.results import GameQuery


@pytest.fixture
def svc(db_path: Path) -> RefereeService:
    return RefereeService(GameStore(db_path))


def test_games_page_newest_first_with_a_cursor(svc: RefereeService) -> None:
    ids = [svc.create_game("nim", {"first": f"A{i}", "second": f"B{i}"}).game_id for i in range(7)]
    first = svc.games(GameQuery(limit=3))
    assert [g.game_id for g in first] == ids[::-1][:3]
    second = svc.games(GameQuery(limit=3, before=first[-1].cursor))
    assert [g.game_id for g in second] == ids[::-1][3:6]
    assert [g.game_id for g in svc.games(GameQuery(limit=3, offset=6))] == [ids[0]]


def test_games_filters(svc: RefereeService) -> None:
    done = svc.create_game("nim", {"first": "Ann", "second": "Ben"}, options={"heap": 1}).game_id
    svc.record(done, "t1")
    svc.create_game("nim", {"first": "Cy", "second": "Ann"})
    svc.create_game("prizmik", {"red": "Dee", "blue": "Eve"})
    cy = svc.games(GameQuery(player="Cy"))[0].game_id
    assert {g.game_id for g in svc.games(GameQuery(player="Ann"))} == {done, cy}
    assert [g.game_id for g in svc.games(GameQuery(status="finished"))] == [done]
    assert {g.game for g in svc.games(GameQuery(game="prizmik"))} == {"prizmik"}
    assert svc.games(GameQuery(since="2999-01-01")) == []
    with pytest.raises(LookupError):
        svc.games(GameQuery(game="chess"))
    with pytest.raises(RefusedError):
        svc.games(GameQuery(status="lost"))
    svc.retract(done, "miscounted")  # the catalog follows corrections
    assert svc.games(GameQuery(status="finished")) == []


def test_short_ids_resolve_through_the_index(svc: RefereeService) -> None:
    a = svc.create_game("nim", {"first": "Ann", "second": "Ben"}, game_id="nim-aaaa1234").game_id
    svc.create_game("nim", {"first": "Ann", "second": "Ben"}, game_id="nim-bbbb1234")
    svc.create_game("nim", {"first": "Ann", "second": "Ben"}, game_id="nim-cc_x9999")
    assert svc.resolve("a1234") == a
    with pytest.raises(RefusedError, match="ends several games: nim-"):
        svc.resolve("1234")
    with pytest.raises(RefusedError, match="too short"):
        svc.resolve("234")
    with pytest.raises(GameNotFoundError):
        svc.resolve("zzzz")
    assert svc.resolve("_x9999") == "nim-cc_x9999"  # '_' is matched as itself
    assert svc.resolve("9999") == "nim-cc_x9999"

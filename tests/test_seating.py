"""What a face asks the service before a command or a read, as plain values: who sits
where and at which table (``seating``), whether a dispute was ruled on, and a position
only when the caller has not seen it yet. A face never holds the game itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.store import GameStore
from referee.contract import PUBLIC, REFEREE
from service import RefereeService
from service.access import AccessDeniedError, Principal, Seating, authorize, viewer_for
from service.cached import CachedService


@pytest.fixture(params=[RefereeService, CachedService])
def svc(request: pytest.FixtureRequest, db_path: Path) -> RefereeService:
    made: RefereeService = request.param(GameStore(db_path), draw_seed=lambda: 7)
    return made


def test_seating_is_the_games_table_and_players(svc: RefereeService) -> None:
    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}, meta={"table": " 5 "}).game_id
    svc.load(game)  # a cached service now answers from its cache
    seating = svc.seating(game[-8:])  # by the end of its id, as faces allow
    assert seating == Seating(game_id=game, table="5", players={"first": "Ann", "second": "Ben"})
    table5 = Principal(token_id="t", role="table", name="Rita", tables=("5",))
    table6 = Principal(token_id="u", role="table", name="Sam", tables=("6",))
    ann = Principal(token_id="a", role="player", name="Ann")
    assert viewer_for(table5, seating) == REFEREE
    assert viewer_for(table6, seating) == PUBLIC
    assert viewer_for(ann, seating) == "first"
    authorize(table5, "retract", seating)
    with pytest.raises(AccessDeniedError, match="not table 5"):
        authorize(table6, "retract", seating)
    assert viewer_for(table5, svc.load(game)) == REFEREE  # the same rules on a loaded game


def test_a_position_is_computed_only_for_a_version_not_seen(svc: RefereeService) -> None:
    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}).game_id
    version, found = svc.position_unless(game, None)
    assert version == 1
    assert found is not None
    assert found.version == 1
    assert svc.position_unless(game, 1) == (1, None)
    svc.record(game, "t2")
    version, found = svc.position_unless(game, 1)
    assert version == 2
    assert found is not None
    assert found.last_action is not None
    _, past = svc.position_unless(game, 2, at=0)  # a past position is not the one seen
    assert past is not None
    assert past.at == 0


def test_dispute_steps_count_rulings_and_appeals(svc: RefereeService) -> None:
    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}).game_id
    svc.record(game, "t2")
    assert svc.dispute_steps(game, 1) == 0  # no such dispute yet
    svc.dispute(game, 2, by="Ben", claim="I saw three taken")
    assert svc.dispute_steps(game, 1) == 0
    svc.rule(game, 1, decision="uphold", clause="REF-4.2", reason="two were taken", by="Rita")
    svc.appeal(game, 1, by="Ben", grounds="ask the head")
    assert svc.dispute_steps(game, 1) == 2

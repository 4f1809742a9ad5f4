"""The write pipeline's first stage, authorize (issue 34 item 1): an event's write is made by a
principal (the command line's ``LOCAL``, or the caller a face hands over with ``as_caller``)
and the pipeline decides, before the write reads anything, whether that principal may make it
(``service.pipeline.admit``: REF-3.2's roles at an event, EV-9.4's clock); a refusal stores
nothing. What a face's guard admitted before it read the body is not decided again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from service import pipeline
from service.access import LOCAL, AccessDeniedError, Principal
from service.app import RefereeService
from service.pipeline import as_caller, authorize_write, event_write, need
from tests.fixed_service import fixed_clock_service


@pytest.fixture
def svc(tmp_path: Path) -> Iterator[RefereeService]:
    with fixed_clock_service(tmp_path / "store.db") as service:
        yield service


def _event(svc: RefereeService) -> str:
    info = svc.event_new("Authorized", "prizmik", rounds=3)
    svc.event_register(info.event_id, ["Ann", "Ben", "Cal"])
    return info.event_id


def _who(role: str, *, tables: tuple[str, ...] = (), event: str = "") -> Principal:
    return Principal(token_id=f"t-{role}", role=role, name=role.title(), tables=tables, event=event)  # type: ignore[arg-type]


def test_a_write_without_a_caller_is_the_command_line_s_local_principal() -> None:
    """The command line passes no caller: its writes are ``LOCAL``'s, the head referee's."""

    class Probe:
        @event_write(None)
        def write(self) -> Principal:
            return authorize_write("result", "ev-x", lambda: (4,))

    assert Probe().write() == LOCAL
    scorekeeper = _who("scorekeeper")
    assert as_caller(scorekeeper, Probe().write)() == scorekeeper


def test_a_role_that_may_not_is_refused_by_the_pipeline_and_nothing_is_stored(
    svc: RefereeService,
) -> None:
    """REF-3.2 at an event: running it (pairing) is the head's; entering players (a drop) the
    head's and the scorekeeper's. The pipeline refuses the others before the write loads the
    event, whatever door the write came by."""
    event_id = _event(svc)
    version = svc.event_version(event_id)
    with pytest.raises(AccessDeniedError, match="a player may not run the event here"):
        as_caller(_who("player"), svc.event_pair)(event_id)
    table = _who("table", tables=("1",), event=event_id)
    with pytest.raises(AccessDeniedError, match="only the head referee may enter the event"):
        as_caller(table, svc.event_drop)(event_id, "Cal", reason="ill")
    assert svc.event_version(event_id) == version
    assert (
        as_caller(_who("scorekeeper"), svc.event_drop)(event_id, "Cal", reason="ill").after_round
        == 0
    )
    assert svc.event_version(event_id) == version + 1


def test_a_slip_s_tables_are_authorized_by_the_pipeline(svc: RefereeService) -> None:
    """A table referee reports the slips of their own tables of their own event (issue 31):
    the tables are read from the slips by the write, and authorized before it decides."""
    event_id = _event(svc)
    svc.event_pair(event_id)
    version = svc.event_version(event_id)
    other = _who("table", tables=("2",), event=event_id)
    with pytest.raises(AccessDeniedError, match="reports tables 2, not table 1"):
        as_caller(other, svc.event_result)(event_id, ["1=2-0-0"])
    elsewhere = _who("table", tables=("1",), event="ev-other")
    with pytest.raises(AccessDeniedError, match="not of event"):
        as_caller(elsewhere, svc.event_result)(event_id, ["1=2-0-0"])
    assert svc.event_version(event_id) == version
    own = _who("table", tables=("1",), event=event_id)
    assert as_caller(own, svc.event_result)(event_id, ["1=2-0-0"]) >= 1
    assert svc.event_version(event_id) > version


def test_what_a_face_admitted_is_not_decided_again(
    svc: RefereeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A route's guard runs the pipeline's authorize stage before the body is read and hands
    what it admitted to the write (``as_caller(..., admitted)``): the write's stage does not
    ask again; a write inside a write (a call's step) is authorized with the outer one."""
    event_id = _event(svc)
    asked: list[tuple[str, str | None, tuple[int, ...]]] = []
    admit = pipeline.admit

    def counted(principal: Principal, wanted: pipeline.Need) -> None:
        asked.append(wanted)
        admit(principal, wanted)

    monkeypatch.setattr(pipeline, "admit", counted)
    head = _who("head")
    as_caller(head, svc.event_drop, need("enter"))(event_id, "Cal", reason="ill")
    assert asked == []
    as_caller(head, svc.event_undrop)(event_id, "Cal", reason="back")
    assert asked == [need("run")]


def test_whom_a_dispute_is_by_is_decided_by_the_pipeline_not_the_face(
    svc: RefereeService,
) -> None:
    """REF-4.1: a player disputes as their own seat, found by their token's player id
    (issue 22), whatever the request named; a referee names the player, and a dispute that
    names nobody is refused with nothing stored. The stage decides it for every face."""
    from referee.contract import Player
    from referee.errors import RefusedError

    players = [Player("first", "Ann", id="p-ann"), Player("second", "Ben", id="p-ben")]
    game = svc.create_game("nim", players, options={"heap": 9}).game_id
    svc.record(game, "t1")
    ann = Principal(token_id="t-ann", role="player", name="Ann", player_id="p-ann")
    as_caller(ann, svc.dispute)(game, 2, by="second", claim="Ben's own take")
    assert svc.store.events(game)[-1].by == "Ann"  # type: ignore[attr-defined]  # not Ben
    version = svc.load(game).version
    with pytest.raises(RefusedError, match=r"name the player \(by\)"):
        as_caller(_who("head"), svc.dispute)(game, 2, by="", claim="who?")
    assert svc.load(game).version == version
    as_caller(_who("head"), svc.dispute)(game, 2, by="second", claim="a second look")
    assert svc.store.events(game)[-1].by == "Ben"  # type: ignore[attr-defined]

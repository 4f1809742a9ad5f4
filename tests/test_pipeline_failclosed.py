"""The write pipeline's authorize stage fails closed in a server (issue 34 item 1): the
command line's writes are ``LOCAL``'s (the head), but a write made in a server's request
(``service.pipeline.serving``, which the HTTP face's ASGI layer calls for every request) is
refused unless its caller is known (``identified``: the request's authenticated token,
``as_caller``, a ``GameWrite``'s principal), never made as ``LOCAL``. An event's write, a
game's command, a new game and an offline table's merge all ask the same stage; nothing is
stored by a refused one (REF-3.2: a role writes what it may, and only that)."""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from referee.contract import Player
from service import pipeline
from service.access import LOCAL, AccessDeniedError, NoCallerError, Principal
from service.app import RefereeService
from tests.fixed_service import fixed_clock_service

PLAYERS = (Player("first", "Ann"), Player("second", "Ben"))
T = TypeVar("T")


@pytest.fixture
def svc(tmp_path: Path) -> Iterator[RefereeService]:
    with fixed_clock_service(tmp_path / "store.db") as service:
        yield service


def _who(role: str, *, tables: tuple[str, ...] = (), event: str = "") -> Principal:
    return Principal(token_id=f"t-{role}", role=role, name=role.title(), tables=tables, event=event)  # type: ignore[arg-type]


def _served(fn: Callable[..., T], *args: Any, who: Principal | None = None, **kwargs: Any) -> T:
    """``fn`` called as a server's request calls it: in a context of its own marked
    ``serving``, with ``who`` identified (as ``Web.principal`` does) or nobody."""

    def run() -> T:
        pipeline.serving()
        if who is not None:
            pipeline.identified(who)
        return fn(*args, **kwargs)

    return contextvars.copy_context().run(run)


def _event(svc: RefereeService) -> str:
    info = svc.event_new("Closed", "prizmik", rounds=3)
    svc.event_register(info.event_id, ["Ann", "Ben", "Cal"])
    return info.event_id


def test_a_server_s_event_write_without_a_caller_is_refused_not_made_as_local(
    svc: RefereeService,
) -> None:
    event_id = _event(svc)
    version = svc.event_version(event_id)
    with pytest.raises(NoCallerError, match="no caller"):
        _served(svc.event_drop, event_id, "Cal", reason="ill")
    with pytest.raises(NoCallerError):  # a hall write that reads its role from the event
        _served(svc.call_as, LOCAL, event_id, None, reason="help")
    with pytest.raises(NoCallerError):  # a rule that reads its arguments (a slip's tables)
        _served(svc.event_result, event_id, ["1=2-0-0"])
    assert svc.event_version(event_id) == version  # nothing stored
    # the command line (no server): LOCAL, the head, as before
    assert svc.event_drop(event_id, "Cal", reason="ill").after_round == 0
    assert svc.event_version(event_id) == version + 1


def test_a_server_s_game_writes_without_a_caller_are_refused(svc: RefereeService) -> None:
    view = svc.create_game("nim", PLAYERS, options={"heap": 12})
    svc.record(view.game_id, "t1")
    version = svc.load(view.game_id).version
    with pytest.raises(NoCallerError):
        _served(svc.retract, view.game_id, "misread")
    with pytest.raises(NoCallerError):
        _served(svc.record, view.game_id, "t2")
    with pytest.raises(NoCallerError):
        _served(svc.create_game, "nim", PLAYERS, options={"heap": 12})
    assert svc.load(view.game_id).version == version
    assert svc.retract(view.game_id, "misread").retracted  # the command line's: LOCAL


def test_a_server_s_request_writes_as_its_identified_caller(svc: RefereeService) -> None:
    """Once the request's token is known its writes are its holder's, and the pipeline's
    authorize stage asks of them (REF-3.2: a scorekeeper writes no game; the public writes
    nothing; EV: a scorekeeper enters players, a player does not)."""
    event_id = _event(svc)
    view = svc.create_game("nim", PLAYERS, options={"heap": 12})
    svc.record(view.game_id, "t1")
    with pytest.raises(AccessDeniedError, match="a scorekeeper reads everything"):
        _served(svc.retract, view.game_id, "misread", who=_who("scorekeeper"))
    with pytest.raises(AccessDeniedError, match="the public reads"):
        _served(svc.create_game, "nim", PLAYERS, who=_who("public"))
    with pytest.raises(AccessDeniedError, match="a player may not"):
        _served(svc.event_drop, event_id, "Cal", reason="ill", who=_who("player"))
    assert (
        _served(svc.event_drop, event_id, "Cal", reason="ill", who=_who("scorekeeper")).after_round
        == 0
    )
    table = _who("table", tables=("1",))
    with pytest.raises(AccessDeniedError, match="referees tables 1"):  # the game has no table
        _served(svc.retract, view.game_id, "misread", who=table)
    assert _served(svc.retract, view.game_id, "misread", who=_who("head")).retracted
    # a face may still hand a write its caller itself, over the request's
    assert _served(pipeline.as_caller(_who("head"), svc.record), view.game_id, "t1").accepted


def test_what_a_guard_admitted_for_a_game_write_is_not_asked_again(
    svc: RefereeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game route's guard runs the pipeline's stage before the body is read
    (``admit_game_early``); the write's stage compares what it needs with what was admitted
    and does not ask ``service.access`` again, and asks for any other write."""
    view = svc.create_game("nim", PLAYERS, options={"heap": 12})
    svc.record(view.game_id, "t1")
    svc.record(view.game_id, "t2")
    asked: list[str] = []
    import service.access

    authorize = service.access.authorize

    def counted(principal: Principal, action: Any, *args: Any, **kwargs: Any) -> None:
        asked.append(action)
        authorize(principal, action, *args, **kwargs)

    monkeypatch.setattr(service.access, "authorize", counted)
    head = _who("head")
    seating = svc.seating(view.game_id)

    def guarded(action: Any, fn: Callable[..., T], *args: Any) -> T:
        pipeline.admit_game_early(head, action, seating)
        return fn(*args)

    _served(guarded, "retract", svc.retract, view.game_id, "misread", who=head)
    assert asked == ["retract"]  # the guard's, once
    asked.clear()
    _served(guarded, "dispute", svc.retract, view.game_id, "misread", who=head)
    assert asked == ["dispute", "retract"]  # admitted another action: the write asks its own


def test_a_hall_write_acts_only_as_its_caller(svc: RefereeService) -> None:
    """The hall's ``*_as`` writes decide their right from who acts (a player's seat, a
    referee's tables, EV-10); who acts is the write's caller, the stage's one principal: a
    face's caller may not hand another principal in (the command line's LOCAL, the head,
    may)."""
    event_id = _event(svc)
    svc.event_pair(event_id)
    version = svc.event_version(event_id)
    scorekeeper = _who("scorekeeper")
    with pytest.raises(AccessDeniedError, match="may act only as themselves"):
        pipeline.as_caller(_who("player"), svc.call_as)(scorekeeper, event_id, 1, reason="x")
    with pytest.raises(AccessDeniedError, match="may act only as themselves"):
        _served(svc.call_as, LOCAL, event_id, 1, reason="x", who=_who("public"))
    assert svc.event_version(event_id) == version
    row = pipeline.as_caller(scorekeeper, svc.call_as)(scorekeeper, event_id, 1, reason="x")
    assert row.table == 1
    head = _who("head")
    assert svc.call_step_as(head, event_id, row.call, "claim").holder  # LOCAL acts as anyone

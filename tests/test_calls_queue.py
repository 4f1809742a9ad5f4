"""The queue's judge calls and result disagreements (``service.calls``): an unclaimed call
is overdue past ``call_seconds`` (60 unless said), claimed ones never; escalated calls come
first; a table referee's queue holds only their tables' calls (EV-10, EV-11.5)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from service.app import open_service
from service.errors import RefusedError

T0 = datetime(2026, 11, 28, 14, 0, tzinfo=UTC)


def test_an_unclaimed_call_is_overdue_after_call_seconds_and_a_claimed_one_never(
    tmp_path: Path,
) -> None:
    clock = [T0]
    with open_service(tmp_path / "g.db", create=True) as svc:
        svc.clock = lambda: clock[0]
        # seed 5 draws two or four players in registration order (EV-5.6)
        event = svc.event_new("Open", "prizmik", rounds=3, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])  # tables 1 and 2
        svc.event_pair(event)
        svc.event_call(event, 1, by="Tom", reason="ruling")
        clock[0] = T0 + timedelta(seconds=5)
        svc.event_call(event, 2, by="Tia")
        (call,) = svc.queue(tables=["1"], now=T0 + timedelta(seconds=59)).calls
        assert (call.call, call.overdue, call.holder) == (1, False, "")
        late = svc.queue(now=T0 + timedelta(seconds=61))
        assert [(c.call, c.overdue) for c in late.calls] == [(1, True), (2, False)]
        soon = svc.queue(now=T0 + timedelta(seconds=31), call_seconds=30)
        assert [c.overdue for c in soon.calls] == [True, False]
        svc.event_call_claim(event, 1, by="Tom", head=False)
        svc.event_call_escalate(event, 2, by="Tia")
        escalated = svc.queue(now=T0 + timedelta(seconds=59)).calls[0]
        assert (escalated.call, escalated.status, escalated.overdue) == (2, "escalated", False)
        now = svc.queue(now=T0 + timedelta(minutes=10))
        assert [(c.call, c.status, c.overdue) for c in now.calls] == [
            (2, "escalated", True),  # the head referee's first; nobody took it yet
            (1, "claimed", False),
        ]
        svc.event_call_claim(event, 2, by="Hera", head=True)
        assert [c.overdue for c in svc.queue(now=T0 + timedelta(minutes=10)).calls] == [False] * 2
        assert now.count >= 2
        with pytest.raises(RefusedError):
            svc.queue(call_seconds=0)


def test_ref_11_a_call_from_a_game_outside_any_event_reaches_the_queue(tmp_path: Path) -> None:
    """REF-11.1: a player seated at a casual game, or a referee of its table, calls a judge
    from the game; the call is kept in the game, one at a time, and the queue lists it.
    REF-11.2: the table's referee claims it, escalates it, and the head referee alone then
    resolves it; resolved, it leaves the queue."""
    from service.access import AccessDeniedError, Principal

    ann = Principal(token_id="a", role="player", name="Ann")
    cal = Principal(token_id="c", role="player", name="Cal")
    rita = Principal(token_id="r", role="table", name="Rita", tables=("5",))
    sam = Principal(token_id="s", role="table", name="Sam", tables=("6",))
    head = Principal(token_id="h", role="head", name="Hera")
    with open_service(tmp_path / "g.db", create=True) as svc:
        svc.clock = lambda: T0
        game = svc.create_game(
            "prizmik", {"red": "Ann", "blue": "Ben"}, meta={"table": "5"}
        ).game_id
        for stranger in (cal, sam):
            with pytest.raises(AccessDeniedError):
                svc.game_call_as(stranger, game, reason="lost")
        row = svc.game_call_as(ann, game, reason="a ruling on a capture")
        assert (row.event_id, row.table, row.by, row.status, row.game) == (
            "",
            5,
            "Ann",
            "open",
            game,
        )
        with pytest.raises(RefusedError, match=r"REF-11\.1"):
            svc.game_call_as(rita, game)  # one call at a time
        (item,) = svc.queue(now=T0 + timedelta(seconds=61)).calls
        assert (item.game_id, item.call, item.tournament, item.overdue) == (
            game,
            row.call,
            game,
            True,
        )
        assert "by Ann: a ruling on a capture" in item.line
        with pytest.raises(AccessDeniedError):
            svc.call_step_as(sam, game, row.call, "claim")
        assert svc.call_step_as(rita, game, row.call, "claim").holder == "Rita"
        assert svc.call_step_as(rita, game, row.call, "escalate", "rules text").escalated
        with pytest.raises(RefusedError, match=r"REF-11\.2"):
            svc.call_step_as(rita, game, row.call, "resolve", "ruled")
        done = svc.call_step_as(head, game, row.call, "resolve", "capture stands (PZ-6.1)")
        assert (done.status, done.holder, done.note) == (
            "resolved",
            "Hera",
            "capture stands (PZ-6.1)",
        )
        assert svc.queue(now=T0).calls == []
        assert svc.game_call(game, by="Rita").call > row.call  # a new call, by the CLI's staff

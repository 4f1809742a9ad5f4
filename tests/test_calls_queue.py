"""The queue's judge calls and result disagreements (``service.calls``): an unclaimed call
is overdue past ``call_seconds`` (60 unless said), claimed ones never; escalated calls come
first; a table referee's queue holds only their tables' calls (EV-10, EV-11.5)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from service.access import Principal
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


def test_ref_11_a_game_s_calls_are_in_its_text_record_and_come_back_on_import(
    tmp_path: Path,
) -> None:
    """A game outside an event keeps its judge calls in its text record (a line each, with
    the steps on them), and importing the record stores the same calls again, in order."""
    head = Principal(token_id="h", role="head", name="Hera")
    with open_service(tmp_path / "g.db", create=True) as svc:
        svc.clock = lambda: T0
        game = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}).game_id
        row = svc.game_call(game, by="Rita", reason='a "capture" {odd}')
        svc.call_step_as(head, game, row.call, "escalate", "rules text")
        svc.call_step_as(head, game, row.call, "resolve", "capture stands")
        text = "".join(svc.export([game], "text"))
        assert '{call by "Rita": "a \\"capture\\" {odd}"}' in text
        assert f'{{call-answered {row.call} escalate by "Hera": "rules text"}}' in text
        assert f'{{call-answered {row.call} resolve by "Hera": "capture stands"}}' in text
        stored = svc.load(game).events
    record = tmp_path / "g.txt"
    record.write_text(text)
    with open_service(tmp_path / "other.db", create=True) as other:
        report = other.import_files([record])
        assert [f.status for f in report.files] == ["imported"], report
        again = other.load(game).events
    assert [type(e).__name__ for e in again] == [type(e).__name__ for e in stored]
    calls = [e for e in again if type(e).__name__ in ("JudgeCalledToGame", "GameCallAnswered")]
    assert [getattr(e, "by", "") for e in calls] == ["Rita", "Hera", "Hera"]


def test_ref_11_an_idempotency_key_on_a_game_s_call_is_stored_with_it(tmp_path: Path) -> None:
    """The key sent with a call from a game outside an event (or a step on it) is stored
    with the call's fact: the same write sent again with it is refused, nothing stored
    twice (as an event's write is, 409); another token's key is its own."""
    from service.errors import RepeatedWriteError
    from service.pipeline import with_terms
    from service.procedure import WRITING_TOKEN

    ann = Principal(token_id="a", role="player", name="Ann")
    rita = Principal(token_id="r", role="table", name="Rita", tables=("5",))
    with open_service(tmp_path / "g.db", create=True) as svc:
        svc.clock = lambda: T0
        game = svc.create_game(
            "prizmik", {"red": "Ann", "blue": "Ben"}, meta={"table": "5"}
        ).game_id
        reset = WRITING_TOKEN.set("a")
        try:
            row = with_terms(svc.game_call_as, idempotency_key="k1")(ann, game, reason="ruling")
            version = svc.load(game).version
            with pytest.raises(RepeatedWriteError) as again:
                with_terms(svc.game_call_as, idempotency_key="k1")(ann, game, reason="ruling")
            assert again.value.event == row.call
        finally:
            WRITING_TOKEN.reset(reset)
        assert svc.load(game).version == version  # nothing stored twice
        called = svc.load(game).event(row.call)
        assert getattr(called, "idempotency_key", None) == "k1"
        reset = WRITING_TOKEN.set("r")
        try:
            step = with_terms(svc.call_step_as, idempotency_key="k1")(rita, game, row.call, "claim")
            assert step.holder == "Rita"  # another token's key: its own write
            with pytest.raises(RepeatedWriteError):
                with_terms(svc.call_step_as, idempotency_key="k1")(rita, game, row.call, "claim")
        finally:
            WRITING_TOKEN.reset(reset)


def test_ev_6_6_the_hall_names_a_playoff_round_by_its_stage(tmp_path: Path) -> None:
    """EV-6.6: the clock, the calls, the reports and the queue say "final (round 2)",
    never "round 2" alone, as the pairings and standings do."""
    with open_service(tmp_path / "g.db", create=True) as svc:
        svc.clock = lambda: T0
        event = svc.event_new("Open", "prizmik", rounds=1, cut=2, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
        svc.event_pair(event)
        svc.event_result(event, ["1=2-0-0", "2=2-0-0"])
        svc.event_pair(event)  # the final: round 2
        assert svc.event_clock_view(event).stage == "final (round 2)"
        svc.event_call(event, 1, by="Tom", reason="ruling")
        (call,) = svc.event_calls(event)
        assert call.stage == "final (round 2)"
        finalist = svc.event_state(event).rounds[2].pairings[0].players[0]
        report = svc.event_report(event, finalist, "2-0-0")
        assert report.stage == "final (round 2)"
        state = svc.event_state(event)
        out = next(p for p in state.players if p not in state.rounds[2].pairings[0].players)
        with pytest.raises(RefusedError, match=r"is not paired in the final \(round 2\):"):
            svc.event_report(event, out, "2-0-0")
        queue = svc.queue(now=T0)
        items = [*queue.calls, *queue.unreported]
        assert {i.stage for i in items} == {"final (round 2)"}
        assert all("Open final (round 2): " in i.line for i in items)
        assert not any("round 2:" in i.line for i in items)
        assert svc.event_clock_view(event, round_number=1).stage == "round 1"
        game = svc.event_state(event).tables[(2, 1)].games[0]
        view = svc.load(game)
        clock = svc.game_clock(view.created.meta, view.created.timestamp)
        assert clock is not None
        assert clock.label == "final (round 2) · table 1"


def test_ev_8_4_an_event_penalty_s_upgrade_is_flagged_in_the_queue(tmp_path: Path) -> None:
    """EV-8.4, Q-5: a second slow play (a tournament error) is upgraded to a game loss by
    the event, which ends the player's game; the queue lists that game's penalty as the
    repeat it is (to investigate), as it does for a repeat recorded game by game."""
    with open_service(tmp_path / "g.db", create=True) as svc:
        svc.clock = lambda: T0
        event = svc.event_new("Open", "prizmik", rounds=3, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
        svc.event_pair(event)
        assert svc.event_penalize(event, "Ann", "slow-play").penalty == "warning"
        given = svc.event_penalize(event, "Ann", "slow-play")
        assert (given.penalty, given.suggested) == ("game-loss", "game-loss")
        warning, item = svc.queue(now=T0).penalties  # the warning too, as the desk lists it
        assert (warning.investigate, item.investigate) == (False, True)
        assert "a repeat: the IPG suggests game-loss (EV-8.4)" in item.line


def test_ev_10_2_a_call_from_someone_not_in_the_event_names_the_calls_clause(
    tmp_path: Path,
) -> None:
    """EV-10.2: a player's token of someone not registered in the event calls nobody; the
    refusal named EV-11.2, the clause of players' reports."""
    from service.tournaments import EventRefusedError

    zed = Principal(token_id="z", role="player", name="Zed", player_id="pl-zed")
    with open_service(tmp_path / "g.db", create=True) as svc:
        event = svc.event_new("Open", "prizmik", rounds=3, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben"])
        svc.event_pair(event)
        with pytest.raises(EventRefusedError) as caught:
            svc.call_as(zed, event, None, reason="help")
        assert caught.value.clause == "EV-10.2"
        assert "Zed is not a player of this event" in str(caught.value)
        with pytest.raises(EventRefusedError) as reported:
            svc.report_as(zed, event, "2-0-0")
        assert reported.value.clause == "EV-11.2"

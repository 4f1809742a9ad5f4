"""The round clock's arithmetic: marks, pauses, extensions and lengths (EV-9.1 ... EV-9.5).

Every answer is computed from recorded times with ``now`` as an input, so each test
names the moments it asks about; no test waits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from referee.tournament import decisions as d
from referee.tournament.clock import RoundClock, clock_text, extended, marked
from referee.tournament.errors import Refusal
from referee.tournament.facts import RoundUndone
from referee.tournament.state import fold
from tests.tournament.helpers import paired, run

T0 = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def test_remaining_counts_only_running_time() -> None:
    """EV-9.3: time while paused does not count; an ended clock stands still."""
    clock = marked(RoundClock(round=1, minutes=50), "start", at(0))
    assert clock.state == "running"
    assert clock.remaining(at(10)) == 40 * 60
    clock = marked(clock, "pause", at(10))
    assert clock.state == "paused"
    assert clock.remaining(at(25)) == 40 * 60
    clock = marked(clock, "resume", at(25))
    assert clock.remaining(at(35)) == 30 * 60
    clock = marked(clock, "end", at(40))
    assert clock.state == "ended"
    assert clock.remaining(at(90)) == 25 * 60


def test_extension_is_the_tables_own() -> None:
    """EV-9.4: a table's extension adds to its time only; EV-9.5: over time below zero."""
    clock = extended(extended(marked(RoundClock(round=1), "start", at(0)), 2, 3), 2, 5)
    assert clock.remaining(at(50), table=2) == 8 * 60
    assert clock.remaining(at(50), table=1) == 0
    assert clock.remaining(at(50)) == 0
    assert clock.over_time(at(51), table=1)
    assert not clock.over_time(at(51), table=2)
    assert clock.over_time(at(58.5), table=2)
    assert not RoundClock(round=1).over_time(at(999)), "a clock never started is never over"


def test_clock_text_rounds_toward_the_past() -> None:
    """EV-9.3: every face shows the same figure for the same moment."""
    assert clock_text(12 * 60 + 5.9) == "12:05"
    assert clock_text(-0.5) == "-0:01"
    assert clock_text(-190) == "-3:10"
    assert clock_text(3 * 3600 + 61) == "3:01:01"


def test_marks_follow_their_order() -> None:
    """EV-9.2: start once, pause a running clock, resume a paused one, end once."""
    state = paired()
    with pytest.raises(Refusal, match=r"EV-9.2.*has not started"):
        d.decide(state, d.MarkClock(action="pause", at=at(0)))
    state = run(state, d.MarkClock(action="start", at=at(0)))
    with pytest.raises(Refusal, match=r"EV-9.2.*is running: it cannot start"):
        d.decide(state, d.MarkClock(action="start", at=at(1)))
    with pytest.raises(Refusal, match=r"EV-9.3"):
        d.decide(state, d.MarkClock(action="pause", at=at(-1)))
    state = run(
        state,
        d.MarkClock(action="pause", at=at(5)),
        d.MarkClock(action="resume", at=at(7)),
        d.MarkClock(action="end", at=at(60)),
    )
    assert state.clock().state == "ended"
    assert state.clock().elapsed(at(99)) == 58 * 60
    with pytest.raises(Refusal, match=r"EV-9.2.*has ended"):
        d.decide(state, d.MarkClock(action="resume", at=at(61)))
    with pytest.raises(Refusal, match=r"EV-9.2"):
        d.decide(paired(), d.MarkClock(action="stop", at=at(0)))  # type: ignore[arg-type]


def test_round_length_applies_to_the_round_in_progress() -> None:
    """EV-9.1: the length is set per event and may change; the running round follows."""
    state = run(paired(), d.SetRoundLength(minutes=40, reason="short round"))
    assert state.clock().minutes == 40
    assert state.clock().state == "waiting"
    state = run(state, d.MarkClock(action="start", at=at(0)), d.SetRoundLength(minutes=30))
    assert state.clock().remaining(at(10)) == 20 * 60
    assert state.round_minutes == 30
    with pytest.raises(Refusal, match=r"EV-9.1"):
        d.decide(state, d.SetRoundLength(minutes=0))
    with pytest.raises(Refusal, match=r"EV-9.1"):
        d.decide(state, d.SetRoundLength(minutes=30, reason="x" * 201))


def test_ev_9_1_setting_the_length_the_rounds_have_is_refused() -> None:
    """EV-9.1: the length the rounds already have (the default 50, then as set) is no
    change: refused, so nothing is stored."""
    state = paired()
    with pytest.raises(Refusal, match=r"EV-9.1"):
        d.decide(state, d.SetRoundLength(minutes=50))
    state = run(state, d.SetRoundLength(minutes=40, reason="short round"))
    with pytest.raises(Refusal, match=r"EV-9.1"):
        d.decide(state, d.SetRoundLength(minutes=40))
    assert run(state, d.SetRoundLength(minutes=45)).round_minutes == 45


def test_extensions_are_checked() -> None:
    """EV-9.4: a real table of the current round, 1 to 60 minutes, a reason, no result yet,
    the clock not ended."""
    state = run(paired(), d.MarkClock(action="start", at=at(0)))
    ok = d.ExtendTime(table=1, minutes=4, reason="deck  check", at=at(3), by="Rita")
    (fact,) = d.decide(state, ok)
    assert fact.reason == "deck check"  # type: ignore[union-attr]
    state = run(state, ok, d.ExtendTime(table=1, minutes=2, reason="ruling", at=at(4)))
    assert state.clock().extensions == {1: 6}
    for bad, why in (
        (d.ExtendTime(table=9, minutes=3, reason="ruling", at=at(5)), "no table 9"),
        (d.ExtendTime(table=1, minutes=0, reason="ruling", at=at(5)), "1 to 60"),
        (d.ExtendTime(table=1, minutes=61, reason="ruling", at=at(5)), "1 to 60"),
        (d.ExtendTime(table=1, minutes=3, reason=" ", at=at(5)), "give the reason"),
    ):
        with pytest.raises(Refusal, match=f"EV-9.4.*{why}"):
            d.decide(state, bad)
    reported = run(state, d.ReportResult(round=1, table=2, slip="2-0-0"))
    with pytest.raises(Refusal, match=r"EV-9.4.*has its result"):
        d.decide(reported, d.ExtendTime(table=2, minutes=3, reason="ruling", at=at(5)))
    ended = run(state, d.MarkClock(action="end", at=at(50)))
    with pytest.raises(Refusal, match=r"EV-9.4.*has ended"):
        d.decide(ended, d.ExtendTime(table=1, minutes=3, reason="ruling", at=at(51)))


def test_over_time_of_a_table_with_an_extension() -> None:
    """EV-9.5: the round's time plus the table's extension, pauses not counted."""
    state = run(
        paired(),
        d.MarkClock(action="start", at=at(0)),
        d.MarkClock(action="pause", at=at(20)),
        d.MarkClock(action="resume", at=at(30)),
        d.ExtendTime(table=2, minutes=5, reason="judge call", at=at(31)),
    )
    clock = state.clock(1)
    assert clock.over_time(at(60.5), table=1)
    assert not clock.over_time(at(60.5), table=2)
    assert clock_text(clock.remaining(at(60.5), table=2)) == "4:30"


def test_the_clock_survives_an_event_snapshot() -> None:
    """EV-9.3: an event read back from its snapshot (``projections.event_state``) has the
    same clocks, so the time left is the same for the same ``now``."""
    from projections.event_state import EventSnapshot, decode_snapshot, encode_snapshot

    state = run(
        paired(),
        d.SetRoundLength(minutes=45),
        d.MarkClock(action="start", at=at(0)),
        d.ExtendTime(table=2, minutes=5, reason="deck check", at=at(2)),
        d.MarkClock(action="pause", at=at(10)),
    )
    snapshot = EventSnapshot(version=9, last_hash="0" * 64, name="Open", state=state)
    back = decode_snapshot(encode_snapshot(snapshot)).state
    assert back.clocks == state.clocks
    assert back.round_minutes == 45
    assert back.clock().remaining(at(99), 2) == state.clock().remaining(at(99), 2) == 40 * 60


def test_an_undone_round_takes_its_clock_with_it() -> None:
    """EV-9.2: a round taken back (EV-5.13) and paired again starts with a waiting clock."""
    state = run(
        paired(),
        d.MarkClock(action="start", at=at(0)),
        d.ExtendTime(table=1, minutes=3, reason="ruling", at=at(1)),
    )
    undone = fold([RoundUndone(round=1, reason="wrong players", by="Hera")], state)
    assert 1 not in undone.clocks
    assert undone.clock(1).state == "waiting"

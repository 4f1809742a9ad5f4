"""EV-1.3, EV-I.14 through the command line and an imported record: the default number of
Swiss rounds shown with where it comes from (the players so far, the players of round 1,
the organiser), unchanged by a late entry or a drop after round 1, changed by `event
change --rounds`; a record whose round 1 was stored before the plan imports and keeps the
count it had, and a record whose plan was altered is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from events.tournament import fold_stored
from referee.tournament import Drop, PairNext, ReportResult
from referee.tournament import facts as f
from referee.tournament.model import SwissPlan
from service.event_judge import EventJudgement, judge_event
from tests.events.recorded import Recorded
from tests.events.test_event_cli import as_json, ok, register
from tests.tournament.helpers import event as pure_event

NINE = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def _format(db: Path, event: str) -> str:
    lines = ok(db, "event", "show", event).splitlines()
    return next(line for line in lines if line.startswith("format: "))


def test_ev_i_14_event_show_says_where_the_rounds_come_from(tmp_path: Path) -> None:
    """EV-1.3, EV-I.14, EV-1.5: nine registered and one dropped before round 1 play three
    rounds, "from the 8 players of round 1"; a late entry and a drop after round 1 leave it;
    the organiser's change is shown as theirs."""
    db = tmp_path / "s.db"
    event = ok(db, "event", "new", "Club", "--game", "prizmik").strip().splitlines()[-1]
    register(db, event, *NINE)
    assert _format(db, event) == (
        "format: 5 Swiss rounds (from the 9 players so far: fixed when round 1 is paired)"
    )
    ok(db, "event", "drop", event, "Ivy", "--reason", "went home")
    ok(db, "event", "pair", event)
    assert _format(db, event) == "format: 3 Swiss rounds (from the 8 players of round 1)"
    shown = as_json(db, "event", "show", event)
    assert (shown["rounds"], shown["rounds_from"], shown["rounds_players"]) == (3, "round 1", 8)
    ok(db, "event", "result", event, "1=2-0-0", "2=2-0-0", "3=2-0-0", "4=2-0-0")
    register(db, event, "Late1", "Late2", "Late3")
    ok(db, "event", "drop", event, "Ann", "--reason", "ill")
    assert _format(db, event) == "format: 3 Swiss rounds (from the 8 players of round 1)"
    ok(db, "event", "change", event, "--rounds", "4", "--reason", "the hall is ours")
    assert _format(db, event) == "format: 4 Swiss rounds (set by the organiser)"
    assert as_json(db, "event", "show", event)["rounds_from"] == "organiser"


def _record(event: Recorded, *, plan: Any) -> list[Any]:
    """The record of ``event`` with round 1's plan replaced by ``plan``."""
    return event.stored(
        "ev-rounds02",
        [
            msgspec.structs.replace(x, plan=plan)
            if isinstance(x, f.RoundPaired) and x.round.number == 1
            else x
            for x in event.facts
        ],
    )


def test_ev_i_14_a_record_paired_before_the_plan_imports_with_its_rounds() -> None:
    """EV-I.14: round 1 stored without a plan (before it was recorded) is judged as stored
    and the event keeps its count, every player registered for round 1 (five rounds here,
    where round 1 paired now fixes three), through round 2's pairing; a record whose plan
    says another number is refused as altered."""
    event = Recorded(pure_event(NINE))
    event.step(Drop(player="p9", reason="went home"))
    event.step(PairNext())
    plan = event.state.swiss_plan
    assert plan == SwissPlan(rounds=3, players=8, counted=8)
    for table in range(1, 5):
        event.step(ReportResult(round=1, table=table, slip="2-0-0"))
    event.step(PairNext())

    judge_event(_record(event, plan=plan))
    assert fold_stored(_record(event, plan=plan)).planned_swiss_rounds() == 3

    old = _record(event, plan=msgspec.UNSET)
    judge_event(old)  # raises EventJudgement if a stored fact would be decided otherwise
    replayed = fold_stored(old)
    assert replayed.swiss_plan is None
    assert replayed.planned_swiss_rounds() == 5
    assert replayed.rounds == event.state.rounds

    with pytest.raises(EventJudgement, match="altered"):
        judge_event(_record(event, plan=SwissPlan(rounds=5, players=9, counted=9)))

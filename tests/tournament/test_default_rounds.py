"""EV-1.3, EV-I.14: the default number of Swiss rounds, read from the MTR Appendix E table
with the players taking part in round 1, fixed when round 1 is paired; late entries and
drops do not move it, the organiser still may (EV-1.5), and an event whose round 1 was
paired before the number was recorded keeps the count it had."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec
import pytest

from events import codec
from events.tournament import to_stored
from referee.tournament import (
    DEFAULT_ROUNDS,
    Drop,
    PairManual,
    PairNext,
    Register,
    ReportResult,
    Tournament,
    decide,
    default_rounds,
    fold,
)
from referee.tournament import facts as f
from referee.tournament.fixing import ChangeSettings, UndoRound, decide_fix
from referee.tournament.model import SwissPlan
from referee.tournament.rounds import effective_players
from tests.tournament.helpers import event, run

# MTR Appendix E (players: Swiss rounds), the formats other than a Limited event drafting
# in its playoff (9-16: 5); below nine the MTR runs single elimination, and a Swiss event
# here plays enough rounds for one undefeated player (EV-1.3)
APPENDIX_E = {
    9: 5,
    16: 5,
    17: 5,
    32: 5,
    33: 6,
    64: 6,
    65: 7,
    128: 7,
    129: 8,
    226: 8,
    227: 9,
    409: 9,
    410: 10,
    5000: 10,
}
BELOW_NINE = {0: 0, 1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 8: 3}
_WHEN = datetime(2026, 11, 29, tzinfo=UTC)


def names(count: int) -> list[str]:
    return [f"P{n}" for n in range(1, count + 1)]


def _played(state: Tournament) -> Tournament:
    number = state.current_round
    tables = [p.table for p in state.rounds[number].pairings if p.table]
    return run(state, *(ReportResult(round=number, table=t, slip="2-0-0") for t in tables))


def test_ev_1_3_the_table_at_its_boundaries() -> None:
    """EV-1.3: MTR Appendix E from nine players up, at each boundary of its rows; below
    nine, one undefeated player; a 1-, 2- or 3-round bye counts 2, 4 or 8 players."""
    for players, rounds in {**APPENDIX_E, **BELOW_NINE}.items():
        assert default_rounds(players) == rounds, players
    assert [row[:2] for row in DEFAULT_ROUNDS][-1] == (410, 10**9)
    assert effective_players([0, 1, 2, 3, 4]) == 1 + 2 + 4 + 8 + 8


@pytest.mark.parametrize("players", [8, 9, 16, 17, 32, 33])
def test_ev_i_14_round_1_records_the_table_for_its_players(players: int) -> None:
    """EV-I.14: round 1's pairing records the default it fixes, from its players."""
    made = decide(event(names(players)), PairNext())
    assert len(made) == 1
    assert isinstance(made[0], f.RoundPaired)
    expected = default_rounds(players)
    assert made[0].plan == SwissPlan(rounds=expected, players=players, counted=players)
    assert fold(made, event(names(players))).planned_swiss_rounds() == expected


def test_ev_i_14_a_drop_before_round_1_does_not_count() -> None:
    """EV-I.14: nine registered, one dropped before round 1: eight start, three rounds (the
    organiser's walk found five: the player who left was counted)."""
    state = run(event(names(9)), Drop(player="p9", reason="went home"))
    assert state.planned_swiss_rounds() == 3  # what round 1 would fix, shown before it
    state = run(state, PairNext())
    assert state.swiss_plan == SwissPlan(rounds=3, players=8, counted=8)
    assert state.planned_swiss_rounds() == 3
    for _ in range(3):
        state = _played(state)
        if state.current_round < 3:
            state = run(state, PairNext())
    with pytest.raises(Exception, match=r"all 3 Swiss rounds have been played"):
        decide(state, PairNext())


def test_ev_i_14_late_entries_and_drops_after_round_1_do_not_move_it() -> None:
    """EV-I.14: eight start (three rounds); eight more entering after round 1 would make
    sixteen (five rounds), and a drop to seven would make... still three: nothing moves it."""
    state = run(event(names(8)), PairNext())
    state = run(_played(state), *(Register(name=f"Late{n}") for n in range(8)))
    assert len(state.active(2)) == 16
    assert state.planned_swiss_rounds() == 3
    state = run(state, PairNext(), Drop(player="p1", reason="ill"))
    assert state.planned_swiss_rounds() == 3
    nine = run(event(names(9)), PairNext(), *(Drop(player=f"p{n}", reason="x") for n in (1, 2)))
    assert nine.planned_swiss_rounds() == 5  # nine started: five, whoever leaves after


def test_ev_i_14_awarded_byes_weigh_in_the_players_of_round_1() -> None:
    """EV-1.3, EV-I.14: a player with a one-round bye counts two: eight players, one with a
    bye, are read as nine (five rounds)."""
    state = event(names(7))
    state = run(state, Register(name="Byed", byes=1), PairNext())
    assert state.swiss_plan == SwissPlan(rounds=5, players=8, counted=9)


def test_ev_i_14_a_hand_pairing_of_round_1_fixes_it_too() -> None:
    """EV-5.11, EV-I.14: round 1 paired by hand records the same default."""
    state = run(event(names(5)), Drop(player="p5", reason="x"))
    spec = {"pairs": [["p1", "p2"], ["p3", "p4"]], "byes": []}
    made = decide(state, PairManual(spec=spec, reason="feature table"))
    assert isinstance(made[0], f.RoundPaired)
    assert made[0].plan == SwissPlan(rounds=2, players=4, counted=4)


def test_ev_i_14_round_1_undone_is_fixed_again_by_its_next_pairing() -> None:
    """EV-5.13, EV-I.14: round 1 taken back takes its plan with it; paired again after a
    player left, it fixes the number from the players then."""
    state = run(event(names(9)), PairNext())
    assert state.planned_swiss_rounds() == 5
    state = fold(decide_fix(state, UndoRound(reason="wrong event", by="HJ")), state)
    assert state.swiss_plan is None
    state = run(state, Drop(player="p9", reason="left"), PairNext())
    assert state.swiss_plan == SwissPlan(rounds=3, players=8, counted=8)


def test_ev_i_14_the_organiser_sets_or_changes_the_rounds() -> None:
    """EV-1.3, EV-1.5, EV-I.14: rounds the organiser set record no default; a change after
    round 1 wins over the default it fixed."""
    made = decide(event(names(9), rounds=4), PairNext())
    assert isinstance(made[0], f.RoundPaired)
    assert made[0].plan is msgspec.UNSET
    state = run(event(names(9)), PairNext())
    change = ChangeSettings(rounds=4, reason="the hall closes early", by="TO")
    state = fold(decide_fix(state, change), state)
    assert state.planned_swiss_rounds() == 4
    assert state.swiss_plan is not None
    assert state.swiss_plan.rounds == 5


def test_ev_i_14_pod_events_keep_their_count() -> None:
    """EV-I.14: a pod event's default is left as it was (every player registered for
    round 1), and its round 1 records none."""
    state = run(event(names(9), pods=True), Drop(player="p9", reason="x"))
    assert state.planned_swiss_rounds() == 5
    made = decide(state, PairNext())
    assert isinstance(made[0], f.RoundPaired)
    assert made[0].plan is msgspec.UNSET


def test_ev_i_14_an_event_paired_before_the_plan_keeps_its_rounds() -> None:
    """EV-I.14: round 1 stored before the plan was recorded (no ``plan``): the event keeps
    the count it had, every player registered for round 1 (five rounds for nine registered,
    one dropped before round 1), and the stored bytes carry no plan."""
    state = run(event(names(9)), Drop(player="p9", reason="went home"))
    (paired,) = decide(state, PairNext())
    assert isinstance(paired, f.RoundPaired)
    old = msgspec.structs.replace(paired, plan=msgspec.UNSET)
    before = fold([old], state)
    assert before.swiss_plan is None
    assert before.planned_swiss_rounds() == 5
    assert fold([paired], state).planned_swiss_rounds() == 3
    header = {"originator_id": "ev-rounds01", "originator_version": 12, "hash": ""}
    stored = codec.encode(to_stored(old, {**header, "timestamp": _WHEN, "prev_hash": ""}))
    assert b'"plan"' not in stored
    new = codec.encode(to_stored(paired, {**header, "timestamp": _WHEN, "prev_hash": ""}))
    assert b'"plan":{"rounds":3,"players":8,"counted":8}' in new

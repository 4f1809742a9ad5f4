"""Rule audit of Prismata (helper ptaudit): cases the clause-by-clause tests did not reach.

Each test names the clause it checks; positions are built by hand (``tests.prismata.helpers``).
"""

from __future__ import annotations

import msgspec

from referee.games.prismata import PrismataState
from referee.games.prismata.catalog import Res
from tests.prismata.helpers import RULES, act, reason, refused, scenario


def test_PM_I_7_damage_taken_back_in_full_lets_a_click_be_undone() -> None:
    """PM-I.7: a click may be taken back while no unit has been overrun or damaged in the
    breach. A fragile unit hit twice (its damage taken back once, in full) leaves nothing
    damaged, so the click can be taken back again."""
    s = scenario(["Drone"], ["Gauss Cannon", "Tarsier"], res1=Res(attack=4))
    s = act(s, "click #1", "end")
    assert s.phase == "breach"
    s = act(s, "breach #3", "breach #2", "unbreach #3", "breach #2", "unbreach #2")
    assert s.res[0].attack == 4
    assert s.units[2].health == 5
    s = act(s, "undo #1")
    assert s.phase == "action"
    assert s.res[0] == Res(attack=4)


def test_PM_I_23_breach_tally_entries_keeps_the_count_before_it() -> None:
    """PM-I.23, variant breach_tally=entries (what a game recorded before the switch plays):
    every breach entry counts and taking a unit's damage back uncounts one, so after the
    fragile Gauss Cannon is breached twice and taken back, the click stands (PM-5.8)."""
    s = scenario(["Drone"], ["Gauss Cannon", "Tarsier"], res1=Res(attack=4), breach_tally="entries")
    s = act(s, "click #1", "end", "breach #3", "breach #2", "unbreach #3", "breach #2")
    s = act(s, "unbreach #2")
    assert (s.overrun, s.units[2].health, s.res[0].attack) == (1, 5, 4)
    verdict = RULES.check(s, RULES.parse("undo #1"))
    assert [v.clause for v in verdict.violations] == ["PM-5.8"]
    assert "undo #1" not in {RULES.notation(a) for a in RULES.legal_actions(s)}


def test_PM_7_1_attack_equal_to_the_defense_overruns_it() -> None:
    """PM-7.1 (PM-I.18): attack equal to the defense overruns every blocker at the end of the
    action phase; a seat left with nothing loses when the turn ends (PM-9.1)."""
    s = scenario(["Tarsier"], ["Wall"], res1=Res(attack=3))
    s = act(s, "end")
    assert s.phase == "breach"
    assert 2 not in s.units
    s = act(s, "end")
    assert s.result is not None
    assert (s.result.winner, s.result.clause) == (0, "PM-9.1")


def test_PM_I_18_variant_breach_needs_more_attack_than_the_defense() -> None:
    """PM-I.18, variant breach=exceed: attack only equal to the defense does not overrun; the
    defender blocks it in full and plays on, buying with the gold it kept."""
    s = scenario(["Tarsier"], ["Wall"], res1=Res(attack=3), res2=Res(gold=2), breach="exceed")
    s = act(s, "end")
    assert (s.active, s.phase) == (1, "defense")
    assert s.result is None
    s = act(s, "block #2")
    assert 2 not in s.units
    s = act(s, "end", "buy Engineer", "end")
    assert s.result is None
    more = scenario(["Tarsier"], ["Wall"], res1=Res(attack=4), breach="exceed")
    assert act(more, "end").phase == "breach"


def test_PM_I_19_units_under_construction_are_out_of_reach_of_destroys() -> None:
    """PM-5.7 (PM-I.19): Deadeye Operative destroys an exhausted Drone (it cannot block) but
    not one under construction, nor can a snipe reach a unit under construction."""
    s = scenario(
        ["Deadeye Operative", "Kinetic Driver"],
        [("Drone", {"build": 1, "status": "idle"}), ("Drone", {"exhaust": 1, "status": "idle"})],
        offer=["Animus"],
        res1=Res(gold=2),
    )
    assert refused(s, "click #1 on #3") == ["PM-5.7"]
    assert "under construction" in reason(s, "click #1 on #3")
    s = act(s, "click #1 on #4")
    assert 4 not in s.units
    t = scenario(["Kinetic Driver"], [("Animus", {"build": 1})], res1=Res(gold=2))
    assert refused(t, "click #1 on #2") == ["PM-5.7"]


def test_PM_I_20_the_breach_closes_the_action_phase() -> None:
    """PM-1.4 (PM-I.20): once the defense has been overrun, no unit is bought or clicked; the
    breach only assigns damage."""
    s = scenario(["Tarsier", "Drone"], ["Drone"], res1=Res(gold=3, energy=1, attack=1))
    s = act(s, "end")
    assert (s.phase, s.overrun) == ("breach", 1)
    assert refused(s, "buy Drone") == ["PM-5.1"]
    assert refused(s, "click #2") == ["PM-5.4"]


def test_PM_5_4_a_unit_may_pay_its_last_health() -> None:
    """PM-5.4 (PM-I.21): a unit with exactly the health its ability costs may click; it dies
    of the cost (the reference engine clicks a Cryo Ray on its last health)."""
    s = scenario(["Cryo Ray", ("Cryo Ray", {"health": 1})], ["Wall"])
    s = act(s, "click #2 on #3")
    assert 2 not in s.units
    assert s.units[3].chill == 1


def test_PM_I_21_variant_health_cost_must_leave_the_unit_alive() -> None:
    """PM-I.21, variant health_cost=must_survive: the cost must leave the unit at least one
    health, so a Cryo Ray on its last health cannot click, and Xaetron needs more than 7."""
    s = scenario(
        [("Cryo Ray", {"health": 1}), ("Xaetron", {"health": 7}), ("Xaetron", {"health": 8})],
        ["Wall"],
        health_cost="must_survive",
    )
    assert refused(s, "click #1 on #4") == ["PM-5.4"]
    assert "more than 7 health" in reason(s, "click #2")
    s = act(s, "click #3")
    assert s.units[3].health == 1


def _hellhound_turn(made: str = "construct") -> PrismataState:
    """p1 buys a Hellhound (its purchase makes an Engineer) beside a Drone and an Animus; p2
    then overruns the Drone with 3 attack and breaches."""
    s = scenario(
        ["Drone", "Animus"],
        ["Tarsier"],
        res1=Res(gold=5, blue=1, red=1),
        offer=["Hellhound"],
        made=made,
    )
    s = act(s, "click #1", "buy Hellhound", "end")
    s = msgspec.structs.replace(s, res=(s.res[0], Res(attack=3)))
    return act(s, "end")


def test_PM_I_2_a_unit_made_by_a_purchase_is_shielded_by_construction() -> None:
    """PM-I.2, PM-7.3: the Engineer a Hellhound's purchase makes is under construction, so a
    breach cannot reach it while the Animus stands."""
    s = _hellhound_turn()
    engineer = max(u.id for u in s.units.values() if u.kind == "Engineer")
    assert (s.units[engineer].build, s.units[engineer].exhaust) == (1, 0)
    assert refused(s, f"breach #{engineer}") == ["PM-7.3"]


def test_PM_I_2_variant_made_exhaust_units_made_by_purchases_are_exhausted() -> None:
    """PM-I.2, variant made=exhaust: as the comprehensive rules word it, every unit made by
    another is exhausted for the effect's delay and never under construction, so the breach
    may destroy the Engineer at once."""
    s = _hellhound_turn(made="exhaust")
    engineer = max(u.id for u in s.units.values() if u.kind == "Engineer")
    assert (s.units[engineer].build, s.units[engineer].exhaust) == (0, 1)
    s = act(s, f"breach #{engineer}")
    assert engineer not in s.units


def test_PM_I_22_an_exhausted_blocker_does_not_block() -> None:
    """PM-4.2 (PM-I.22): an Immolite still exhausted from an earlier click (no longer marked as
    used) neither blocks nor counts in the defense; once rested it blocks again."""
    s = scenario(
        ["Tarsier"],
        [("Immolite", {"exhaust": 1, "status": "idle"}), "Wall"],
        res1=Res(attack=2),
        active=1,
        phase="defense",
    )
    assert refused(s, "block #2") == ["PM-4.2"]
    assert "exhausted" in reason(s, "block #2")
    s = act(s, "block #3", "end", "end")
    assert (s.active, s.phase) == (0, "action")
    assert s.units[2].exhaust == 0
    s = msgspec.structs.replace(s, res=(Res(attack=1), s.res[1]))
    s = act(s, "end")
    assert (s.active, s.phase) == (1, "defense")
    s = act(s, "block #2")
    assert 2 not in s.units


def test_PM_I_24_a_chill_whose_target_was_since_destroyed_may_be_taken_back() -> None:
    """PM-I.24 (PM-5.8): a Cryo Ray freezes a blocking Drone, which a Deadeye Operative
    then destroys (PM-5.7: only a non-blocking Drone); the chill may still be taken back:
    the Cryo Ray is ready with its health back, and the Drone stays destroyed."""
    s = scenario(["Cryo Ray", "Deadeye Operative"], ["Drone", "Wall"])
    assert refused(s, "click #2 on #3") == ["PM-5.7"]
    s = act(s, "click #1 on #3", "click #2 on #3")
    assert 3 not in s.units
    first = act(s, "undo #2")  # the later click taken back first: the Drone back, frozen
    assert (first.units[3].chill, first.units[2].status) == (1, "ready")
    s = act(s, "undo #1")
    assert (s.units[1].status, s.units[1].health) == ("ready", 3)
    assert (3 not in s.units, s.units[2].status) == (True, "used")

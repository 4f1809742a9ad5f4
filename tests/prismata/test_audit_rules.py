"""Rule audit of Prismata (helper ptaudit): cases the clause-by-clause tests did not reach.

Each test names the clause it checks; positions are built by hand (``tests.prismata.helpers``).
"""

from __future__ import annotations

from referee.games.prismata.catalog import Res
from tests.prismata.helpers import act, scenario


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

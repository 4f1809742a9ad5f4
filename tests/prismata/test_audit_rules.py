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

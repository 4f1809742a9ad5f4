"""The standings sort (EV-4.1 order, EV-I.2 last key) is exact even where floats tie."""

from __future__ import annotations

from fractions import Fraction

from referee.tournament.model import Entrant
from referee.tournament.standings import _sort_best_first


def test_fractions_equal_as_floats_are_still_ordered_exactly() -> None:
    third = Fraction(1, 3)
    above = third + Fraction(1, 10**20)  # the same float as 1/3
    assert float(above) == float(third) and above > third
    people = [Entrant(id=f"p{n}", name=f"P{n}", order=n) for n in range(4)]
    lines = [
        (3, third, third, third, people[0]),
        (3, above, third, third, people[1]),
        (6, third, third, third, people[2]),
        (3, third, third, third, people[3]),
    ]
    _sort_best_first(lines)
    assert [line[4].id for line in lines] == ["p2", "p1", "p0", "p3"]

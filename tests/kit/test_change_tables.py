"""The referee's adjustments in the kit's dispatch idiom (``referee.kit.adjustments``):
the two tables a game declares and the kinds of change it refuses (REF-6.3)."""

from __future__ import annotations

import pytest

from referee.kit.adjustments import (
    ChangeResource,
    DrawCards,
    Tap,
    Untap,
    change_tables,
    refuse_changes,
)
from referee.verdicts import LEGAL


def test_a_game_s_tables_are_named_after_it() -> None:
    checks, effects = change_tables(int, "Counters")
    assert (checks.what, effects.what) == ("checks of Counters adjustments", "Counters adjustments")
    assert checks.handlers == {}
    assert effects.handlers == {}


def test_ref_6_3_a_refused_kind_is_refused_with_the_game_s_clause_and_words() -> None:
    tables = change_tables(int, "Counters")
    checks, effects = tables
    checks.add(ChangeResource, lambda state, change, _: LEGAL)
    refuse_changes(tables, ("tap", "draw"), "REF-6.3", "counters are never tapped or drawn")
    assert checks.missing([Tap, DrawCards, Untap]) == ["Untap"]
    for change in (Tap("#1"), DrawCards("p1", 2)):
        verdict = checks(0, change, None)
        assert [(v.clause, v.reason) for v in verdict.violations] == [
            ("REF-6.3", "counters are never tapped or drawn")
        ]
        with pytest.raises(TypeError, match="checks of Counters adjustments refuse"):
            effects(0, change, None)
    assert checks(0, ChangeResource("p1", "gas", 1), None) is LEGAL


def test_a_kind_both_handled_and_refused_or_unknown_fails_when_the_tables_are_built() -> None:
    tables = change_tables(int, "Counters")
    tables[0].add(Tap, lambda state, change, _: LEGAL)
    with pytest.raises(ValueError, match="Tap is handled twice"):
        refuse_changes(tables, ("tap",), "REF-6.3", "no")
    with pytest.raises(KeyError, match="flip"):
        refuse_changes(change_tables(int, "Counters"), ("flip",), "REF-6.3", "no")


@pytest.mark.parametrize("text", ["mve p1 hand>discard", "stat #1 attack 300", ";"])
def test_ref_6_3_text_that_is_no_change_is_refused_naming_the_clause(text: str) -> None:
    """A referee's typo in an adjustment is refused like a typo in an entry: with the clause
    that lists the primitive changes (REF-6.3), not a bare 'cannot read'."""
    from referee.errors import AdjustmentSyntaxError
    from referee.kit.adjustments import parse_adjustment

    with pytest.raises(AdjustmentSyntaxError) as refused:
        parse_adjustment(text)
    assert refused.value.clause == "REF-6.3"
    assert str(refused.value).startswith("REF-6.3: ")

"""Crystal names as typed (CR-N.4): the catalog's spelling is recorded, a name the catalog
does not hold is no entry (refused with the closest names), a catalog crystal that cannot
be cast now stays a rejection."""

from __future__ import annotations

import pytest

from referee.errors import ActionSyntaxError
from referee.procedure import judge
from tests.crystale.helpers import RULES, fresh, started
from tests.names import assert_no_such_name


def test_cr_n_4_a_misspelt_crystal_is_no_entry_and_the_closest_name_is_suggested() -> None:
    """CR-N.4: "Cinderpupp" is no crystal: unreadable (nothing stored), did you mean?"""
    state = fresh()
    show = "show Pyrelance Archer, Cinderpupp, Cinderpup"
    assert_no_such_name(RULES, state, show, "p1", "CR-N.4", "Cinderpup")
    with pytest.raises(ActionSyntaxError, match="did you mean"):
        RULES.read_entry(state, "summon Cindrpup @b1")


def test_cr_n_4_the_notation_records_the_catalogs_spelling() -> None:
    """CR-N.4: names typed in any case are recorded as the catalog spells them."""
    state = fresh()
    action = RULES.read_entry(state, "show pyrelance archer, CINDERPUP, cinderpup")
    assert RULES.notation(action) == "show Pyrelance Archer, Cinderpup, Cinderpup"


def test_cr_n_4_a_catalog_crystal_that_cannot_be_played_stays_a_rejection() -> None:
    """A crystal of the catalog summoned in the pull phase is a rejection (evidence)."""
    state = started()
    judged = judge(RULES, state, "summon cinderpup @b1")
    assert judged.readable
    assert not judged.verdict.legal
    assert judged.action is not None
    assert RULES.notation(judged.action) == "summon Cinderpup @b1"

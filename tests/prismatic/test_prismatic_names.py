"""Card names as typed (PX-15.2): the catalog's spelling is recorded, a name the catalog
does not hold is no entry (refused with the closest names), a catalog card that cannot be
taken now stays a rejection."""

from __future__ import annotations

import pytest

from referee.errors import ActionSyntaxError
from referee.procedure import judge
from tests.names import assert_no_such_name
from tests.prismatic.helpers import RULES, new, started


def test_px_15_2_a_misspelt_card_is_no_entry_and_the_closest_name_is_suggested() -> None:
    """PX-15.2: "Ember Sprak" is no card: unreadable (nothing stored), did you mean?"""
    state = new()
    assert_no_such_name(RULES, state, "reveal Ember Sprak", "p1", "PX-15.2", "Ember Spark")


def test_px_15_2_names_inside_an_action_are_matched_too() -> None:
    state = started()
    with pytest.raises(ActionSyntaxError, match="did you mean"):
        RULES.read_entry(state, "use Noon Blaze: pull R to Noon Blazee")
    action = RULES.read_entry(state, "use noon blaze: pull R to noon BLAZE")
    assert RULES.notation(action) == "use Noon Blaze: pull R to Noon Blaze"
    assert RULES.notation(RULES.read_entry(state, "commit R to palette")).endswith("palette")


def test_px_15_2_the_notation_records_the_catalogs_spelling() -> None:
    state = new()
    judged = judge(RULES, state, "reveal ember   SPARK", "p1")
    assert judged.verdict.legal
    assert judged.action is not None
    assert RULES.notation(judged.action) == "reveal Ember Spark"


def test_px_15_2_a_catalog_card_not_in_the_deck_stays_a_rejection() -> None:
    """A card of the catalog that is not where the entry says is a rejection (evidence)."""
    state = new()
    state = RULES.apply(state, RULES.read_entry(state, "reveal Ember Spark"), "p1")
    judged = judge(RULES, state, "reveal ember spark", "p1")
    assert judged.readable
    assert not judged.verdict.legal

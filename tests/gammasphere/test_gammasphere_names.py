"""Card names as typed (GS-N.2): the catalog's spelling is recorded, a name the catalog does
not hold is no entry (refused with the closest names), a catalog card that cannot be played
now stays a rejection (GS-3.5)."""

from __future__ import annotations

import pytest

from referee.errors import ActionSyntaxError
from referee.procedure import judge
from tests.gammasphere.helpers import DECK, OTHER, RULES, started
from tests.names import assert_no_such_name


def test_gs_n_2_a_misspelt_card_is_no_entry_and_the_closest_name_is_suggested() -> None:
    """GS-N.2: "Gama Trooper" is not a card: unreadable (nothing stored), did you mean?"""
    state = started({"p1": DECK, "p2": OTHER})
    assert_no_such_name(RULES, state, "play Gama Trooper", None, "GS-N.2", "Gamma Trooper")
    with pytest.raises(ActionSyntaxError, match="did you mean Gamma Trooper"):
        RULES.read_entry(state, "play gama troooper (defense)")


def test_gs_n_2_a_name_nothing_like_a_card_gets_no_suggestion() -> None:
    state = started({"p1": DECK, "p2": OTHER})
    with pytest.raises(ActionSyntaxError) as raised:
        RULES.read_entry(state, "construct Qwxzv")
    assert raised.value.clause == "GS-N.2"
    assert "did you mean" not in raised.value.reason


def test_gs_n_2_the_notation_records_the_catalogs_spelling() -> None:
    """GS-N.2: "play gamma trooper" is recorded as "play Gamma Trooper"."""
    state = started({"p1": DECK, "p2": OTHER})
    judged = judge(RULES, state, "play  gamma   TROOPER (defense)")
    assert judged.verdict.legal
    assert judged.action is not None
    assert RULES.notation(judged.action) == "play Gamma Trooper (defense)"
    assert RULES.notation(RULES.read_entry(state, "construct pylon")) == "construct Pylon"


def test_gs_3_5_a_catalog_card_not_on_the_list_stays_a_rejection() -> None:
    """GS-3.5: Static Medic is in the catalog but not in p1's list: evidence, not refused."""
    state = started({"p1": DECK, "p2": OTHER})
    judged = judge(RULES, state, "play static medic")
    assert judged.readable
    assert not judged.verdict.legal
    assert judged.verdict.violations[0].clause == "GS-3.5"

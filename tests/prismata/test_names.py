"""Unit names as typed (PM-N.1): a name no catalog holds is no entry, answered with the
closest unit names. A unit typed in any case is recorded as the catalog spells it: a row
of the contract suite's (tests/contract/test_notation.py)."""

from __future__ import annotations

import pytest

from referee.errors import ActionSyntaxError
from tests.prismata.helpers import RULES


def test_pm_n_1_a_misspelt_unit_is_refused_with_the_closest_names() -> None:
    """PM-N.1: "buy Tarsir" names no unit: did you mean Tarsier?"""
    with pytest.raises(ActionSyntaxError) as raised:
        RULES.parse("buy Tarsir")
    assert raised.value.clause == "PM-N.1"
    assert "did you mean Tarsier?" in raised.value.reason

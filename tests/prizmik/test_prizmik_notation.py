"""Notation: reading and writing actions (PZ-9.1 to PZ-9.3)."""

from __future__ import annotations

import pytest

from referee.errors import ActionSyntaxError
from referee.games.prizmik import PrizmikAction
from tests.prizmik.helpers import RULES, start


@pytest.mark.parametrize(
    ("text", "kind", "origin", "target"),
    [
        ("c1>c2", "deploy", 2, 10),
        ("c2-c4", "move", 10, 26),
        ("c4xd5", "capture", 26, 35),
        ("a1-h8", "move", 0, 63),
        ("h8xa1", "capture", 63, 0),
    ],
)
def test_pz_9_2_signs_name_the_action_kind(text: str, kind: str, origin: int, target: int) -> None:
    action = RULES.parse(text)
    assert action == PrizmikAction(kind, origin, target)  # type: ignore[arg-type]
    assert RULES.notation(action) == text
    assert str(action) == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (" C1 > c2 ", "c1>c2"),
        ("C2-C4", "c2-c4"),
        ("c4 X d5", "c4xd5"),
        ("c4Xd5", "c4xd5"),
        ("\tc 4 x d 5\n", "c4xd5"),
    ],
)
def test_pz_9_3_case_and_spaces_are_ignored(text: str, canonical: str) -> None:
    assert RULES.notation(RULES.parse(text)) == canonical
    assert RULES.parse(text) is RULES.parse(canonical)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("c1c2", "expected an origin square"),
        ("c1>>c2", "expected an origin square"),
        ("c1 to c2", "expected an origin square"),
        ("i1>c2", "origin 'i1' is not a square"),
        ("c9-c2", "origin 'c9' is not a square"),
        ("c1-c0", "target 'c0' is not a square"),
        ("c1*c2", "'*' is not an action sign"),
        ("c1=c2", "'=' is not an action sign"),
        ("pass", "expected an origin square"),
    ],
)
def test_pz_9_1_unreadable_text_is_rejected_under_the_notation_clause(
    text: str, fragment: str
) -> None:
    with pytest.raises(ActionSyntaxError) as info:
        RULES.parse(text)
    err = info.value
    assert err.clause == "PZ-9.1"
    assert err.text == text
    assert fragment in err.reason
    assert isinstance(err, ValueError)


def test_pz_9_1_non_text_is_rejected() -> None:
    with pytest.raises(ActionSyntaxError):
        RULES.parse(42)  # type: ignore[arg-type]


def test_pz_9_1_parse_accepts_any_well_formed_action_and_leaves_legality_to_check() -> None:
    action = RULES.parse("a1xh8")
    v = RULES.check(start(), action)
    assert not v.legal
    assert v.violations[0].clause == "PZ-1.4"


def test_pz_9_3_notation_of_a_malformed_action_raises() -> None:
    with pytest.raises(ValueError, match="not a PRIZMIK action"):
        RULES.notation(PrizmikAction("move", 64, 0))
    assert "malformed" in str(PrizmikAction("jump", 1, 2))  # type: ignore[arg-type]


def test_check_explains_out_of_range_squares() -> None:
    v = RULES.check(start(), PrizmikAction("move", 64, 3))
    assert v.violations[0].clause == "PZ-9.1"
    v = RULES.check(start(), PrizmikAction("move", "c2", "c4"))  # type: ignore[arg-type]
    assert v.violations[0].clause == "PZ-9.1"


def test_parse_cache_returns_same_object_repeatedly() -> None:
    first = RULES.parse(" E2 - e4 ")
    assert RULES.parse(" E2 - e4 ") is first
    assert RULES.parse("e2-e4") is first

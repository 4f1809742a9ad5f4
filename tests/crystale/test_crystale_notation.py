"""The notation (CR-N): every entry kind reads back exactly; bad text names its clause."""

from __future__ import annotations

import pytest

from referee.errors import ActionSyntaxError
from tests.crystale.helpers import RULES

CANONICAL = [
    "first p2",
    "summoner Vulkara Emberqueen",
    "pull",
    "pull 6",
    "pull Flame Lance",
    "mulligan",
    "show Cinderpup, Cinderpup, Magmaback Golem",
    "reshuffle",
    "summon Cinderpup @b1",
    "sacrifice u5",
    "cast Flame Lance @u4",
    "cast Kiln Surge",
    "cast Twisted Cinders @u3 @u4",
    "use u1 2 @c4",
    "use u3 1",
    "move u3 c3",
    "attack u3 u4",
    "counter",
    "hold",
    "slot promote u3",
    "slot servant Cinderpup",
    "slot mp",
    "end",
    "discard Flame Lance, Kiln Surge",
    "promote u3",
    "done",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_cr_n_1_and_cr_n_6_every_entry_kind_round_trips(text: str) -> None:
    action = RULES.parse(text)
    assert RULES.notation(action) == text
    assert RULES.parse(RULES.notation(action)) == action


def test_cr_n_6_reading_is_tolerant_and_recording_canonical() -> None:
    assert RULES.notation(RULES.parse("  SUMMON  Cinderpup   @B1 ")) == "summon Cinderpup @b1"
    assert RULES.notation(RULES.parse("Pull 1")) == "pull"
    assert (
        RULES.notation(RULES.parse("show Cinderpup,Cinderpup ,  Reefling"))
        == "show Cinderpup, Cinderpup, Reefling"
    )
    assert RULES.notation(RULES.parse("ATTACK U3 U4")) == "attack u3 u4"


@pytest.mark.parametrize(
    ("text", "clause"),
    [
        ("", "CR-N.1"),
        ("fly u3 c4", "CR-N.1"),
        ("end now", "CR-N.1"),
        ("first p3", "CR-N.1"),
        ("summon Cinderpup", "CR-N.1"),
        ("pull 0", "CR-N.1"),
        ("slot", "CR-N.1"),
        ("use u3", "CR-N.1"),
        ("move u3 f9", "CR-N.2"),
        ("summon Cinderpup @z1", "CR-N.2"),
        ("attack x3 u4", "CR-N.3"),
        ("sacrifice u0", "CR-N.3"),
        ("show Cinderpup,,Reefling", "CR-N.4"),
        ("discard", "CR-N.4"),
        ("summoner", "CR-N.4"),
        ("cast Flame Lance @", "CR-N.5"),
        ("cast Flame Lance @zz", "CR-N.3"),
    ],
)
def test_cr_n_bad_text_names_its_clause(text: str, clause: str) -> None:
    with pytest.raises(ActionSyntaxError) as caught:
        RULES.parse(text)
    assert caught.value.clause == clause


def test_cr_n_3_unit_ids_and_cr_n_5_targets() -> None:
    action = RULES.parse("cast Twisted Cinders @U3 @C4")
    assert action == RULES.parse("cast Twisted Cinders @u3 @c4")
    assert RULES.notation(RULES.parse("use u12 3 @u40")) == "use u12 3 @u40"


def test_cr_n_4_crystal_names_any_case_matched_when_checked() -> None:
    from tests.crystale.helpers import judge, main_phase

    assert judge(main_phase(), "summon cinderpup @c2").legal
    assert RULES.parse("summon cinderpup @c2") != RULES.parse("summon Cinderpup @c2")

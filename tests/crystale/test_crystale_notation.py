"""The notation (CR-N): every entry kind reads back exactly, unit ids, targets and crystal
names; text as typed and text that is no entry are the contract suite's rows
(tests/contract/test_notation.py)."""

from __future__ import annotations

import pytest

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


def test_cr_n_3_unit_ids_and_cr_n_5_targets() -> None:
    action = RULES.parse("cast Twisted Cinders @U3 @C4")
    assert action == RULES.parse("cast Twisted Cinders @u3 @c4")
    assert RULES.notation(RULES.parse("use u12 3 @u40")) == "use u12 3 @u40"


def test_cr_n_4_crystal_names_any_case_matched_when_checked() -> None:
    from tests.crystale.helpers import judge, main_phase

    assert judge(main_phase(), "summon cinderpup @c2").legal
    assert RULES.parse("summon cinderpup @c2") != RULES.parse("summon Cinderpup @c2")

"""What the Prismatic contract cases show beyond what every case must (the contract suite
plays each through the rules alone, ``tests.contract.cases.play_case``, and through the
store): every kind of entry, simultaneous turns, and the final scores.
"""

from __future__ import annotations

from typing import Any

from tests.contract.cases import ContractCase, Reject, play_case
from tests.prismatic.contract import CASES
from tests.prismatic.helpers import RULES


def run(case: ContractCase) -> tuple[Any, set[str]]:
    return play_case(RULES, case)


def test_contract_cases_exercise_every_entry_kind() -> None:
    kinds: set[str] = set()
    for case in CASES:
        kinds |= run(case)[1]
    assert kinds >= {
        "Reveal",
        "Choose",
        "Keep",
        "DrawMotes",
        "Commit",
        "Pass",
        "Create",
        "CreateBoard",
        "Use",
        "Take",
        "Decline",
        "Bid",
        "Forgo",
        "Colours",
        "reject",
        "adjust",
        "simultaneous",
    }


def test_the_three_player_case_reaches_the_final_score() -> None:
    state, _ = run(CASES[0])
    out = RULES.outcome(state)
    assert out.over
    assert out.result == "p1>p2>p3"
    assert [p.score for p in out.ranking] == [5.0, 4.0, 3.0]
    rejected = {s.clause for s in CASES[0].steps if isinstance(s, Reject)}
    assert rejected == {"PX-3.5", "PX-5.4", "PX-7.2", "PX-9.5"}


def test_the_colours_case_ends_with_a_shared_place() -> None:
    state, _ = run(CASES[2])
    assert RULES.outcome(state).result == "p1>p3>p2=p4"

"""What the Crystale contract cases show beyond what every case must (the contract suite
plays each through the rules alone, ``play_case``, and through the store): the battle's
two endings, a Summoner's third hit and a forfeit on an empty pool."""

from __future__ import annotations

from tests.contract.cases import ContractCase, play_case
from tests.crystale.contract import CASES
from tests.crystale.helpers import RULES


def _case(name: str) -> ContractCase:
    (case,) = [c for c in CASES if c.name == name]
    return case


def test_cr_13_1_the_three_hits_case_ends_on_the_third_hit_after_a_ruling() -> None:
    state, kinds = play_case(RULES, _case("three hits"))
    assert {"reject", "adjust"} <= kinds
    assert RULES.outcome(state).clause == "CR-13.1"


def test_cr_6_3_the_own_catalog_case_ends_in_a_forfeit_on_an_empty_pool() -> None:
    state, kinds = play_case(RULES, _case("own catalog forfeit"))
    assert "reject" in kinds
    assert RULES.outcome(state).clause == "CR-6.3"


def test_every_case_rejects_an_entry() -> None:
    assert all(play_case(RULES, case)[1] >= {"reject"} for case in CASES)

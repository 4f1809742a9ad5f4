"""Contract cases of PRIZMIK: two oracle-checked fixture games, with rejections between moves."""

from __future__ import annotations

import json
from pathlib import Path

from tests.contract.cases import Act, ContractCase, Reject, Step

FIXTURES = Path(__file__).resolve().parent.parent.parent / "fixtures" / "prizmik" / "games"


def _case(name: str, reject_at: int) -> ContractCase:
    data = json.loads((FIXTURES / name).read_text())
    steps: list[Step] = [Act(move) for move in data["moves"]]
    steps.insert(reject_at, Reject("a1-h8", "PZ-1.4"))  # an illegal move between legal ones
    steps.insert(1, Reject("e2>e3", "REF-1.2", seat="red"))  # blue's turn, not red's
    return ContractCase(
        game="prizmik",
        name=data["title"],
        players=data["players"],
        ruleset=data["ruleset"],
        variants=data["variants"],
        steps=tuple(steps),
    )


CASES = [
    _case("01_promotion_then_all_bases.json", 10),
    _case("06_fleets_not_capturable.json", 20),
]

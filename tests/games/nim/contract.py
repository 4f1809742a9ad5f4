"""Contract cases of the test game Nim."""

from __future__ import annotations

from tests.contract.cases import Act, ContractCase, Reject

CASES = [
    ContractCase(
        game="nim",
        name="a heap of six to the last counter",
        players={"first": "Ann", "second": "Ben"},
        options={"heap": "6"},
        steps=(
            Act("t2"),
            Reject("t4", "NIM-1.1"),
            Act("t3"),
            Reject("t1", "REF-1.2", seat="second"),
            Act("t1"),
        ),
    ),
]

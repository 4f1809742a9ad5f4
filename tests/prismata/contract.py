"""Contract cases of Prismata: a whole reference-engine game under the engine's rulings, and a
game on a drawn set with rejections."""

from __future__ import annotations

from pathlib import Path

from referee.games.prismata.reference import read_reference
from tests.contract.cases import Act, ContractCase, Reject, Step

REFERENCE = Path(__file__).resolve().parent.parent.parent / "fixtures" / "prismata" / "reference"


def _reference_case(path: Path) -> ContractCase:
    record = read_reference(path.read_bytes(), str(path), {"quirks": True})
    steps: list[Step] = [Act(text) for step in record.steps() for text in step.entries]
    steps.insert(3, Reject("sell #9999", "PM-5.9"))
    players = {p.seat: p.name for p in record.setup.players}
    return ContractCase(
        game="prismata",
        name=f"reference {path.name}",
        players=players,
        ruleset=record.setup.ruleset,
        variants=record.setup.variants,
        options={"units": list(record.setup.options["units"])},
        steps=tuple(steps),
    )


CASES = [
    _reference_case(REFERENCE / "live-2026-03" / "cov_buy_000_seed19460.json.gz"),
    ContractCase(
        game="prismata",
        name="a drawn set",
        players={"p1": "Ann", "p2": "Ben"},
        options={"seed": "42", "random_size": "5"},
        steps=(
            Act("click #1"),
            Reject("buy Wall", "PM-5.2"),
            Act("undo #1"),
            Act("end"),
            Act("end"),
        ),
    ),
]

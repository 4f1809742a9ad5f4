"""The rulebook is complete and consistent with the code and the tests."""

from __future__ import annotations

import re
from pathlib import Path

from referee.games.prismata import PrismataRules
from referee.rulebook import load_rulebook

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parents[1] / "referee/games/prismata"


def _test_sources() -> str:
    return "\n".join(p.read_text() for p in HERE.glob("*.py"))


def test_every_clause_is_cited_by_a_test() -> None:
    text = _test_sources()
    spelled = set(re.findall(r"PM-[0-9NI]+\.[0-9]+", text))
    named = {
        m.replace("_", "-", 1).replace("_", ".", 1).replace("_", ".")
        for m in re.findall(r"PM_[0-9NI]+_[0-9]+", text)
    }
    cited = spelled | named
    missing = [c for c in load_rulebook("prismata").ids() if c not in cited]
    assert not missing, f"clauses without a test: {missing}"


def test_clauses_cited_by_the_code_exist() -> None:
    ids = set(load_rulebook("prismata").ids())
    for path in PACKAGE.glob("*.py"):
        for clause in re.findall(r"PM-[0-9NI]+\.[0-9]+", path.read_text()):
            assert clause in ids, f"{path.name} cites unknown {clause}"


def test_variant_options_name_interpretations() -> None:
    book = load_rulebook("prismata")
    for option in PrismataRules.variant_options:
        clause = book.get(option.clause)
        assert clause.kind == "interpretation" and clause.variant == option.key
    flagged = {c.variant for c in book.clauses if c.variant}
    assert flagged == {o.key for o in PrismataRules.variant_options}


def test_sections_and_titles() -> None:
    book = load_rulebook("prismata")
    assert book.game == "prismata"
    for section in ("PM-1", "PM-4", "PM-7", "PM-9", "PM-N", "PM-I"):
        assert book.in_section(section)

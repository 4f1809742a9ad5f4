"""The PRIZMIK rulebook: structure, variants, and that every clause is tested."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import games
from referee.prizmik import PrizmikRules
from referee.rulebook import find_clause, load_rulebook
from tests.prizmik.helpers import ROOT, RULES

HERE = Path(__file__).resolve().parent
RULES_TEXT = Path("/work/shared/rules/prizmik.txt")


def test_rulebook_loads_with_ten_sections_in_order() -> None:
    book = load_rulebook("prizmik")
    assert book.game == "prizmik"
    assert [s.id for s in book.sections] == [f"PZ-{n}" for n in range(1, 11)]
    assert [s.title for s in book.sections][:3] == [
        "Overview and turns",
        "Pieces and nests",
        "Board and setup",
    ]
    assert RULES.rulebook() is book


def test_clause_ids_are_numbered_consecutively_within_sections() -> None:
    book = load_rulebook("prizmik")
    for section in book.sections:
        clauses = book.in_section(section.id)
        assert clauses, f"section {section.id} is empty"
        numbers = [int(c.id.rsplit(".", 1)[1]) for c in clauses]
        assert numbers == list(range(1, len(numbers) + 1)), section.id
        for clause in clauses:
            assert re.fullmatch(r"PZ-\d+\.\d+", clause.id)
            assert clause.title and len(clause.text) > 30


def test_interpretations_are_exactly_section_pz_10() -> None:
    book = load_rulebook("prizmik")
    for clause in book.clauses:
        is_interp = clause.kind == "interpretation"
        assert is_interp == (clause.section == "PZ-10"), clause.id


def test_every_variant_option_names_an_interpretation_clause_with_that_variant() -> None:
    book = load_rulebook("prizmik")
    keys = {v.key for v in PrizmikRules.variant_options}
    assert keys == {"setup_files", "fleet_capturable", "no_legal_action", "quiet_limit"}
    for option in PrizmikRules.variant_options:
        clause = book.get(option.clause)
        assert clause.kind == "interpretation"
        assert clause.variant == option.key
    marked = {c.variant for c in book.clauses if c.variant}
    assert marked == keys


def test_registry_finds_prizmik_and_its_clauses() -> None:
    rules = games.load("prizmik")
    assert isinstance(rules, PrizmikRules)
    assert find_clause("pz-8.1", "prizmik").title == "Win by taking every base"
    assert find_clause("REF-1.3").id == "REF-1.3"


def test_every_clause_cited_by_the_engine_exists() -> None:
    source = "\n".join(p.read_text() for p in (ROOT / "referee" / "prizmik").glob("*.py"))
    cited = set(re.findall(r'"(PZ-\d+\.\d+)"', source))
    assert len(cited) > 20
    book = load_rulebook("prizmik")
    for clause_id in cited:
        book.get(clause_id)


def _mentioned(clause_id: str, text: str) -> bool:
    """Whether the tests name ``clause_id`` as PZ-4.1 or in a test name as pz_4_1."""
    section, number = clause_id[3:].split(".")
    dotted = rf"PZ-{section}\.{number}(?!\d)"
    snake = rf"pz_{section}_{number}(?!\d)"
    return bool(re.search(dotted, text) or re.search(snake, text))


def test_every_clause_id_is_mentioned_in_the_prizmik_tests() -> None:
    sources = "\n".join(
        p.read_text() for p in sorted(HERE.glob("test_*.py")) if p.name != Path(__file__).name
    )
    missing = [c.id for c in load_rulebook("prizmik").clauses if not _mentioned(c.id, sources)]
    assert missing == []


@pytest.mark.skipif(not RULES_TEXT.exists(), reason="the published rules text is not available")
def test_rulebook_restates_rather_than_copies_the_rules_text() -> None:
    """No run of seven words in a clause is taken verbatim from the published text."""

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())

    source = words(RULES_TEXT.read_text(encoding="utf-8"))
    runs = {tuple(source[i : i + 7]) for i in range(len(source) - 6)}
    for clause in load_rulebook("prizmik").clauses:
        w = words(clause.text)
        copied = [" ".join(w[i : i + 7]) for i in range(len(w) - 6) if tuple(w[i : i + 7]) in runs]
        assert copied == [], f"{clause.id} repeats the rules text: {copied}"

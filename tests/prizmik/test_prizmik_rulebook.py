"""The PRIZMIK rulebook: structure, variants, and that every clause is tested."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import games
from referee.games.prizmik import PrizmikRules
from referee.rulebook import find_clause, load_rulebook
from tests.prizmik.helpers import RULES
from tests.rulebooks import (
    SHARED_RULES,
    check_cited_clauses_exist,
    check_interpretations_are_section,
    check_numbered_in_order,
    clauses_not_tested,
    copied_from,
)

HERE = Path(__file__).resolve().parent
SOURCES = [SHARED_RULES / "prizmik.txt"]


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
    check_numbered_in_order("prizmik", "PZ")


def test_interpretations_are_exactly_section_pz_10() -> None:
    check_interpretations_are_section("prizmik", "PZ-10")


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
    check_cited_clauses_exist("prizmik", "PZ", at_least=20)


def test_every_clause_id_is_mentioned_in_the_prizmik_tests() -> None:
    assert clauses_not_tested("prizmik", HERE, __file__) == []


@pytest.mark.skipif(
    not SOURCES[0].exists(), reason="the published rules text is not beside the project"
)
def test_rulebook_restates_rather_than_copies_the_rules_text() -> None:
    """No run of seven words in a clause is taken verbatim from the published text."""
    assert copied_from("prizmik", SOURCES) == {}

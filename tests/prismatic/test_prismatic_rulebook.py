"""The Prismatic rulebook: structure, variants, own words, and that every clause is tested."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import games
from referee.games.prismatic import PrismaticRules
from referee.rulebook import find_clause, load_rulebook
from tests.prismatic.helpers import RULES
from tests.rulebooks import (
    SHARED_RULES,
    check_cited_clauses_exist,
    check_interpretations_are_section,
    check_numbered_in_order,
    clauses_not_tested,
    copied_from,
)

HERE = Path(__file__).resolve().parent
SOURCES = [SHARED_RULES / "prismatic.txt"]
SECTIONS = [f"PX-{n}" for n in range(1, 16)] + ["PX-I"]


def test_rulebook_loads_with_its_sections_in_order() -> None:
    book = load_rulebook("prismatic")
    assert book.game == "prismatic"
    assert [s.id for s in book.sections] == SECTIONS
    assert [s.title for s in book.sections][:3] == [
        "The game and its components",
        "Setup",
        "The round and the draw",
    ]
    assert RULES.rulebook() is book


def test_clause_ids_are_numbered_consecutively_within_sections() -> None:
    check_numbered_in_order("prismatic", "PX")


def test_interpretations_are_exactly_section_px_i() -> None:
    check_interpretations_are_section("prismatic", "PX-I")


def test_every_variant_option_names_an_interpretation_clause_with_that_variant() -> None:
    book = load_rulebook("prismatic")
    keys = {v.key for v in PrismaticRules.variant_options}
    assert keys == {
        "spent_motes",
        "gained_motes",
        "ability_uses",
        "empty_target",
        "empty_deck",
        "starter_token",
    }
    for option in PrismaticRules.variant_options:
        clause = book.get(option.clause)
        assert clause.kind == "interpretation"
        assert clause.variant == option.key
        assert option.default == option.choices[0]
    marked = {c.variant for c in book.clauses if c.variant}
    assert marked == keys


def test_registry_finds_prismatic_and_its_clauses() -> None:
    rules = games.load("prismatic")
    assert isinstance(rules, PrismaticRules)
    assert find_clause("px-12.7", "prismatic").title == "Most prismatic motes"
    assert find_clause("PX-I.9", "prismatic").variant == "starter_token"


def test_every_clause_cited_by_the_engine_exists() -> None:
    check_cited_clauses_exist("prismatic", "PX", at_least=40)


def test_every_clause_id_is_mentioned_in_the_prismatic_tests() -> None:
    assert clauses_not_tested("prismatic", HERE, __file__) == []


@pytest.mark.skipif(
    not SOURCES[0].exists(), reason="the published rules text is not beside the project"
)
def test_rulebook_restates_rather_than_copies_the_rules_text() -> None:
    """No run of seven words in a clause is taken verbatim from the published text."""
    assert copied_from("prismatic", SOURCES) == {}


def test_px_i_23_names_the_board_text_it_reads() -> None:
    """PX-I.23: progress cards leave by the Discard action or the board's 'Discard One Card'
    creation, whose text allows an own progress card or a common card (PX-10.4)."""
    from referee.rulebook import find_clause

    text = find_clause("PX-I.23", "prismatic").text
    assert "Discard One Card" in text and "PX-8.7" in text and "PX-12.8" in text

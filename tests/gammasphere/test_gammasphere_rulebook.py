"""The Gammasphere rulebook: structure, variants, own words, and that every clause is tested."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import games
from referee.games.gammasphere import GammasphereRules
from referee.rulebook import find_clause, load_rulebook
from tests.gammasphere.helpers import ROOT, RULES
from tests.rulebooks import (
    SHARED_RULES,
    check_cited_clauses_exist,
    check_interpretations_are_section,
    check_numbered_in_order,
    clauses_not_tested,
    copied_from,
)

HERE = Path(__file__).resolve().parent
PACKAGE = ROOT / "referee" / "games" / "gammasphere"
SOURCES = [SHARED_RULES / "gammasphere-tcg-p3.txt"]
SECTIONS = [f"GS-{n}" for n in range(1, 10)] + ["GS-N", "GS-I"]


def test_rulebook_loads_with_its_sections_in_order() -> None:
    book = load_rulebook("gammasphere")
    assert book.game == "gammasphere"
    assert book.title == GammasphereRules.title
    assert [s.id for s in book.sections] == SECTIONS
    assert [s.title for s in book.sections][:3] == ["General", "Cards and the catalog", "Decks"]
    assert RULES.rulebook() is book


def test_clause_ids_are_numbered_consecutively_within_sections() -> None:
    check_numbered_in_order("gammasphere", "GS")


def test_interpretations_are_exactly_section_gs_i() -> None:
    check_interpretations_are_section("gammasphere", "GS-I")


def test_every_variant_option_names_an_interpretation_clause_with_that_variant() -> None:
    book = load_rulebook("gammasphere")
    keys = {v.key for v in GammasphereRules.variant_options}
    assert keys == {
        "deck_limits",
        "first_draw",
        "empty_deck",
        "attack_taps",
        "attack_tie",
        "defender_loses",
        "direct_attack",
    }
    for option in GammasphereRules.variant_options:
        clause = book.get(option.clause)
        assert clause.kind == "interpretation"
        assert clause.variant == option.key
        assert option.default in option.choices
    marked = {c.variant for c in book.clauses if c.variant}
    assert marked == keys


def test_registry_finds_gammasphere_and_its_clauses() -> None:
    rules = games.load("gammasphere")
    assert isinstance(rules, GammasphereRules)
    assert find_clause("gs-8.1", "gammasphere").title == "Power level at zero"
    assert find_clause("GS-I.7", "gammasphere").variant == "attack_taps"


def test_every_clause_cited_by_the_engine_exists() -> None:
    check_cited_clauses_exist("gammasphere", "GS", at_least=30)


def test_every_clause_id_is_mentioned_in_the_gammasphere_tests() -> None:
    assert clauses_not_tested("gammasphere", HERE, __file__) == []


@pytest.mark.skipif(
    not SOURCES[0].exists(), reason="the published rules text is not beside the project"
)
def test_rulebook_restates_rather_than_copies_the_rules_text() -> None:
    """No run of seven words in a clause is taken verbatim from the published text."""
    assert copied_from("gammasphere", SOURCES) == {}

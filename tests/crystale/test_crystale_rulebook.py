"""The CR rulebook: structure, variants, clauses cited by code and tests, own words."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import games
from referee.games.crystale import CrystaleRules
from referee.rulebook import find_clause, load_rulebook
from tests.crystale.helpers import ROOT, RULES
from tests.rulebooks import (
    SHARED_RULES,
    check_cited_clauses_exist,
    check_interpretations_are_section,
    check_numbered_in_order,
    clauses_not_tested,
    copied_from,
)

HERE = Path(__file__).resolve().parent
PACKAGE = ROOT / "referee" / "games" / "crystale"
SOURCES = [SHARED_RULES / "summoner-battle.txt", SHARED_RULES / "crystale-notes.md"]
SECTIONS = [f"CR-{n}" for n in range(1, 14)] + ["CR-N", "CR-I"]


def test_rulebook_loads_with_its_sections_in_order() -> None:
    book = load_rulebook("crystale")
    assert book.game == "crystale"
    assert [s.id for s in book.sections] == SECTIONS
    assert RULES.rulebook() is book
    assert len(book.clauses) >= 100


def test_clause_ids_are_numbered_consecutively_within_sections() -> None:
    check_numbered_in_order("crystale", "CR")


def test_interpretations_are_exactly_section_cr_i() -> None:
    check_interpretations_are_section("crystale", "CR-I")


def test_every_variant_option_names_an_interpretation_clause_with_that_variant() -> None:
    book = load_rulebook("crystale")
    keys = {v.key for v in CrystaleRules.variant_options}
    assert keys == {
        "counterattack",
        "bonus_mp",
        "start_mp",
        "promotion_hp",
        "attack_after_move",
        "trigger_order",
    }
    for option in CrystaleRules.variant_options:
        clause = book.get(option.clause)
        assert clause.kind == "interpretation" and clause.variant == option.key
        assert option.default in option.choices
    assert {c.variant for c in book.clauses if c.variant} == keys


def test_registry_finds_crystale_and_its_clauses() -> None:
    rules = games.load("crystale")
    assert isinstance(rules, CrystaleRules)
    assert rules.title == "Crystale summoner battle" and rules.seats == ("p1", "p2")
    assert find_clause("cr-13.1", "crystale").title == "Three hits"


def test_every_clause_cited_by_the_engine_exists() -> None:
    check_cited_clauses_exist("crystale", "CR", at_least=60)


def test_every_clause_id_is_mentioned_in_the_crystale_tests() -> None:
    assert clauses_not_tested("crystale", HERE, __file__) == []


@pytest.mark.skipif(
    not SOURCES[0].exists(), reason="the published rules text is not beside the project"
)
def test_rulebook_restates_rather_than_copies_the_sources() -> None:
    """No run of seven words in a clause is taken verbatim from the published text."""
    assert copied_from("crystale", SOURCES) == {}

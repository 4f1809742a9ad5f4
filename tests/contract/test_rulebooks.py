"""The rulebook checks every shipped game passes (the game kit, issue 34 item 7): its
clauses numbered in order, every variant naming an interpretation clause, every
clause the engine cites there, every clause named by a test of the game
(``tests/<game>/``), and no clause copying the published text the game is written from.

What is particular to each game's book (its sections, its interpretations' section, its
variant keys, a few clauses' titles, the rules class the registry loads) is a row of this
module's tables, checked by the same two tests (issue 34 item 7: the per-game rulebook
tests folded in here); a game added to the registry (``referee.games.BUILT_IN``) is held to
all of these at once, and fails until it has its rows. A clause's own wording is tested
beside the game (``tests/prismatic/test_prismatic_rulebook.py``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from referee import games
from referee.games.crystale import CrystaleRules
from referee.games.gammasphere import GammasphereRules
from referee.games.prismata import PrismataRules
from referee.games.prismatic import PrismaticRules
from referee.games.prizmik import PrizmikRules
from referee.rulebook import find_clause, load_rulebook
from tests.rulebooks import (
    ROOT,
    SHARED_RULES,
    check_cited_clauses_exist,
    check_interpretations_are_section,
    check_numbered_in_order,
    check_sections,
    check_variants_name_interpretations,
    copied_from,
    mentioned,
)

SOURCES: dict[str, tuple[Path, ...]] = {
    "prizmik": (SHARED_RULES / "prizmik.txt",),
    "prismata": (
        SHARED_RULES / "prismata.txt",
        *sorted((SHARED_RULES.parent / "data" / "prismata" / "wiki").glob("*.txt")),
    ),
    "prismatic": (SHARED_RULES / "prismatic.txt",),
    "crystale": (SHARED_RULES / "summoner-battle.txt", SHARED_RULES / "crystale-notes.md"),
    "gammasphere": (SHARED_RULES / "gammasphere-tcg-p3.txt",),
}
"""The published texts each game's rulebook restates in its own words (empty for a game
of our own invention)."""
CITED_AT_LEAST = 20
"""A rules engine cites at least this many of its clauses by id (PRIZMIK's cites 25,
Crystale's 61)."""


class Loaded(NamedTuple):
    """What the registry's ``games.load`` gives for a game: an instance of ``rules``, titled
    ``title`` (the book's title too), seating ``seats``; its book holds at least
    ``clauses`` clauses (a book cut short fails)."""

    rules: type[Any]
    title: str
    seats: tuple[str, ...]
    clauses: int


LOADED = {
    "prizmik": Loaded(PrizmikRules, "PRIZMIK", ("red", "blue"), 45),
    "prismata": Loaded(PrismataRules, "Prismata", ("p1", "p2"), 70),
    "prismatic": Loaded(PrismaticRules, "Prismatic", ("p1", "p2", "p3", "p4"), 110),
    "crystale": Loaded(CrystaleRules, "Crystale summoner battle", ("p1", "p2"), 100),
    "gammasphere": Loaded(GammasphereRules, "Gammasphere TCG (Prototype 3)", ("p1", "p2"), 90),
}
SECTIONS = {
    "prizmik": [f"PZ-{n}" for n in range(1, 11)],
    "prismata": [f"PM-{n}" for n in range(1, 10)] + ["PM-N", "PM-I"],
    "prismatic": [f"PX-{n}" for n in range(1, 16)] + ["PX-I"],
    "crystale": [f"CR-{n}" for n in range(1, 14)] + ["CR-N", "CR-I"],
    "gammasphere": [f"GS-{n}" for n in range(1, 10)] + ["GS-N", "GS-I"],
}
"""Each book's sections in order: PZ-1 to PZ-10, PM-1 to PM-9 with the notation (PM-N) and
the interpretations (PM-I), and so on."""
FIRST_TITLES = {
    "prizmik": ["Overview and turns", "Pieces and nests", "Board and setup"],
    "prismata": ["General", "Setup, catalogs and supply", "Start of turn"],
    "prismatic": ["The game and its components", "Setup", "The round and the draw"],
    "crystale": [],
    "gammasphere": ["General", "Cards and the catalog", "Decks"],
}
"""The titles of each book's first sections."""
INTERPRETATIONS = {
    "prizmik": "PZ-10",
    "prismatic": "PX-I",
    "crystale": "CR-I",
    "gammasphere": "GS-I",
}
"""The one section of interpretation clauses, where a book keeps them apart (Prismata's
stand in PM-9 and PM-I, beside the rules they read)."""
VARIANTS = {
    "prizmik": {
        "setup_files",
        "fleet_capturable",
        "no_legal_action",
        "quiet_limit",
        "far_rank_step",
        "impossible_test",
        "waiting_promotion",
    },
    "prismata": {
        "supply",
        "doomed",
        "wipeout",
        "overkill",
        "lifespan",
        "breach",
        "health_cost",
        "made",
        "breach_tally",
    },
    "prismatic": {
        "spent_motes",
        "gained_motes",
        "ability_uses",
        "empty_target",
        "empty_deck",
        "starter_token",
        "draw_action",
        "progress_removal",
        "components",
        "goal_reach",
        "opening_forgo",
    },
    "crystale": {
        "counterattack",
        "bonus_mp",
        "start_mp",
        "promotion_hp",
        "attack_after_move",
        "trigger_order",
        "summon_sacrifice",
        "counter_range",
        "counter_fatigue",
        "slot_phase",
        "slot_earning",
        "zero_strike",
        "slot_servant",
        "attacks",
        "knowledge",
    },
    "gammasphere": {
        "deck_limits",
        "first_draw",
        "empty_deck",
        "attack_taps",
        "attack_tie",
        "defender_loses",
        "direct_attack",
        "building_weapons",
        "hand_limit",
        "switch_limit",
        "first_turn_attack",
        "no_target",
        "weapon_carriers",
        "self_target",
    },
}
"""The keys of each game's variant options, each an interpretation clause's ``variant``."""
TITLED = {
    "prizmik": {"pz-8.1": "Win by taking every base"},
    "prismata": {"pm-6.1": "Frontline targets"},
    "prismatic": {"px-12.7": "Most prismatic motes"},
    "crystale": {"cr-13.1": "Three hits"},
    "gammasphere": {"gs-8.1": "Power level at zero"},
}
"""A clause of each book as a player may write its id (any case), and its title."""


def prefix_of(game: str) -> str:
    """The clause prefix of a game's rulebook (``PZ`` for ``PZ-1.1``)."""
    return load_rulebook(game).clauses[0].id.partition("-")[0]


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_the_rulebook_is_the_games_and_numbered_in_order(game: str) -> None:
    book = load_rulebook(game)
    assert book.game == game
    check_numbered_in_order(game, prefix_of(game))


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_every_variant_names_an_interpretation_marked_with_it(game: str) -> None:
    rules = games.load(game)
    check_variants_name_interpretations(game, rules, {v.key for v in rules.variant_options})


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_every_clause_the_engine_cites_exists(game: str) -> None:
    check_cited_clauses_exist(game, prefix_of(game), at_least=CITED_AT_LEAST)


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_every_clause_is_named_by_a_test_of_the_game(game: str) -> None:
    """By id (``PX-4.1``) or in a test's name (``px_4_1``), in ``tests/<game>/`` but not in
    its rulebook tests (which name clauses to check the book, not the rules)."""
    folder = ROOT / "tests" / game
    assert folder.is_dir(), f"a shipped game has its tests in tests/{game}/"
    sources = "\n".join(
        p.read_text(encoding="utf-8")
        for p in sorted(folder.glob("test_*.py"))
        if not re.search(r"rulebook", p.name)
    )
    untested = [c.id for c in load_rulebook(game).clauses if not mentioned(c.id, sources)]
    assert untested == []


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_the_rulebook_restates_rather_than_copies_its_sources(game: str) -> None:
    """No run of seven words in a clause is taken verbatim from the published text."""
    assert game in SOURCES, f"name the texts {game}'s rulebook is written from in SOURCES"
    present = [p for p in SOURCES[game] if p.exists()]
    if SOURCES[game] and not present:
        pytest.skip("the published rules text is not beside the project")
    assert copied_from(game, present) == {}


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_the_rulebook_has_the_games_sections_interpretations_and_variants(game: str) -> None:
    """The book's sections in order, the first of them titled as ``FIRST_TITLES`` says, its
    interpretation clauses in their one section, and the rules' variant keys."""
    assert game in SECTIONS, f"state {game}'s sections and variants in this module's tables"
    rules = games.load(game)
    check_sections(game, rules, SECTIONS[game], FIRST_TITLES[game])
    if game in INTERPRETATIONS:
        check_interpretations_are_section(game, INTERPRETATIONS[game])
    check_variants_name_interpretations(game, rules, VARIANTS[game])
    assert len(load_rulebook(game).clauses) >= LOADED[game].clauses


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_the_registry_loads_the_games_rules_and_finds_its_clauses(game: str) -> None:
    """``games.load`` gives the game's rules class, titled as its book; ``find_clause``
    reads a clause's id in any case, through the game or, for the house rules (REF), alone."""
    rules = games.load(game)
    loaded = LOADED[game]
    assert isinstance(rules, loaded.rules)
    assert rules.title == loaded.title == load_rulebook(game).title
    assert rules.seats == loaded.seats
    for clause_id, title in TITLED[game].items():
        assert find_clause(clause_id, game).title == title
    for option in rules.variant_options:
        assert find_clause(option.clause.lower(), game).variant == option.key
    assert find_clause("ref-1.3", game).id == find_clause("REF-1.3").id == "REF-1.3"

"""The rulebook checks every shipped game passes (the game kit, issue 34 item 7): its
clauses numbered in order, every variant naming an interpretation clause, every
clause the engine cites there, every clause named by a test of the game
(``tests/<game>/``), and no clause copying the published text the game is written from.

Each game's own ``test_<game>_rulebook.py`` keeps only what is particular to it (its
sections, its variant keys, a clause's wording); a game added to the registry
(``referee.games.BUILT_IN``) is held to all of these at once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import games
from referee.rulebook import load_rulebook
from tests.rulebooks import (
    ROOT,
    SHARED_RULES,
    check_cited_clauses_exist,
    check_numbered_in_order,
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

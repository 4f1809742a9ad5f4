"""Guards the rulebook tests share: clauses cited by the engine exist, every clause is named
by a test, ids are numbered in order, sections as stated, interpretations carry their
variants, and no clause copies the published text.

The contract suite (``tests/contract/test_rulebooks.py``) calls these for every shipped
game, with each game's particulars (its sections, its variant keys) from its tables.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from referee.rulebook import find_clause, load_rulebook

ROOT = Path(__file__).resolve().parent.parent
SHARED_RULES = Path(os.environ.get("REFEREE_SHARED_RULES", "/work/shared/rules"))


def _section_pattern(prefix: str) -> str:
    return rf"{prefix}-(?:\d+|[A-Z])\.\d+"


def cited_by_engine(game: str, prefix: str) -> set[str]:
    """Clause ids the game's package names in quotes (``"PX-4.2"``)."""
    package = ROOT / "referee" / "games" / game
    source = "\n".join(p.read_text() for p in package.glob("*.py"))
    return set(re.findall(rf'"({_section_pattern(prefix)})"', source))


def check_cited_clauses_exist(game: str, prefix: str, at_least: int) -> None:
    cited = cited_by_engine(game, prefix)
    assert len(cited) >= at_least, f"only {len(cited)} clauses cited by the engine"
    book = load_rulebook(game)
    for clause_id in cited:
        book.get(clause_id)
    package = ROOT / "referee" / "games" / game
    for clause_id in set(
        re.findall(r"REF-\d+\.\d+", "\n".join(p.read_text() for p in package.glob("*.py")))
    ):
        find_clause(clause_id)


def mentioned(clause_id: str, text: str) -> bool:
    """Whether tests name ``clause_id`` as ``PX-4.1`` or, in a test's name, ``px_4_1`` (or
    ``PX_4_1``)."""
    prefix, _, rest = clause_id.partition("-")
    section, number = rest.split(".")
    dotted = rf"{prefix}-{section}\.{number}(?!\d)"
    snake = rf"{prefix.lower()}_{section.lower()}_{number}(?!\d)"
    return bool(re.search(dotted, text) or re.search(snake, text, re.IGNORECASE))


def clauses_not_tested(game: str, tests: Path, this_file: str) -> list[str]:
    sources = "\n".join(
        p.read_text() for p in sorted(tests.glob("test_*.py")) if p.name != Path(this_file).name
    )
    return [c.id for c in load_rulebook(game).clauses if not mentioned(c.id, sources)]


def check_numbered_in_order(game: str, prefix: str) -> None:
    book = load_rulebook(game)
    for section in book.sections:
        clauses = book.in_section(section.id)
        assert clauses, f"section {section.id} is empty"
        numbers = [int(c.id.rsplit(".", 1)[1]) for c in clauses]
        assert numbers == list(range(1, len(numbers) + 1)), section.id
        for clause in clauses:
            assert re.fullmatch(_section_pattern(prefix), clause.id), clause.id
            assert clause.title, clause.id
            assert len(clause.text) > 30, clause.id


def check_sections(game: str, rules: Any, sections: list[str], titles: list[str]) -> None:
    """The game's rulebook loads with ``sections`` in order, the first of them titled
    ``titles``, and is the book the rules answer."""
    book = load_rulebook(game)
    assert book.game == game
    assert [s.id for s in book.sections] == sections
    assert [s.title for s in book.sections][: len(titles)] == titles
    assert rules.rulebook() is book


def check_interpretations_are_section(game: str, section: str) -> None:
    for clause in load_rulebook(game).clauses:
        assert (clause.kind == "interpretation") == (clause.section == section), clause.id


def check_variants_name_interpretations(game: str, rules: Any, keys: set[str]) -> None:
    book = load_rulebook(game)
    assert {v.key for v in rules.variant_options} == keys
    for option in rules.variant_options:
        clause = book.get(option.clause)
        assert clause.kind == "interpretation", option.key
        assert clause.variant == option.key, option.key
        assert not option.choices or option.default in option.choices
    assert {c.variant for c in book.clauses if c.variant} == keys


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def copied_from(game: str, sources: Iterable[Path], run: int = 7) -> dict[str, list[str]]:
    """Runs of ``run`` words a clause takes verbatim from the published texts."""
    runs: set[tuple[str, ...]] = set()
    for source in sources:
        w = words(source.read_text(encoding="utf-8"))
        runs.update(tuple(w[i : i + run]) for i in range(len(w) - run + 1))
    found: dict[str, list[str]] = {}
    for clause in load_rulebook(game).clauses:
        w = words(clause.text)
        copied = [
            " ".join(w[i : i + run])
            for i in range(len(w) - run + 1)
            if tuple(w[i : i + run]) in runs
        ]
        if copied:
            found[clause.id] = copied
    return found

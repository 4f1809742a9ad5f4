"""The event rulebook: loadable as 'event', numbered in order, every clause the core cites
exists and every clause is named by a test (EV-1.1 ... EV-I.8)."""

from __future__ import annotations

import re
from pathlib import Path

from referee.rulebook import find_clause, load_rulebook

PACKAGE = Path(__file__).resolve().parents[2] / "referee" / "tournament"
TESTS = Path(__file__).resolve().parent


def test_rulebook_loads_as_event() -> None:
    """load_rulebook('event') finds the EV clauses without registering a game."""
    book = load_rulebook("event")
    assert book.game == "event"
    assert book.get("EV-4.1").section == "EV-4"
    assert find_clause("EV-6.4").title == "No drawn playoff match"


def test_numbered_in_order_and_interpretations_in_their_section() -> None:
    """Clause ids run 1, 2, 3 ... in each section; interpretations are exactly EV-I."""
    book = load_rulebook("event")
    for section in book.sections:
        numbers = [int(c.id.rsplit(".", 1)[1]) for c in book.in_section(section.id)]
        assert numbers == list(range(1, len(numbers) + 1)), section.id
    for clause in book.clauses:
        assert (clause.kind == "interpretation") == (clause.section == "EV-I"), clause.id
    assert {c.variant for c in book.clauses if c.variant} == {
        "floor",
        "pod_points",
        "missed_losses",
        "playoff_places",
    }


def test_every_clause_cited_by_the_core_exists() -> None:
    book = load_rulebook("event")
    source = "\n".join(p.read_text() for p in PACKAGE.glob("*.py"))
    cited = set(re.findall(r"EV-(?:\d+|I)\.\d+", source))
    assert len(cited) > 30
    for clause_id in cited:
        book.get(clause_id)


def test_every_clause_is_named_by_a_test() -> None:
    sources = "\n".join(
        p.read_text() for p in TESTS.glob("test_*.py") if p.name != Path(__file__).name
    )
    missing = [
        c.id
        for c in load_rulebook("event").clauses
        if not re.search(re.escape(c.id) + r"(?!\d)", sources)
    ]
    assert not missing, missing

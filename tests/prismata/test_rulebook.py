"""The Prismata rulebook: its sections.

The checks every game shares are the contract suite's (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

from referee.rulebook import load_rulebook


def test_sections_and_titles() -> None:
    book = load_rulebook("prismata")
    assert book.game == "prismata"
    for section in ("PM-1", "PM-4", "PM-7", "PM-9", "PM-N", "PM-I"):
        assert book.in_section(section)

"""The Prismata rulebook: its sections and variants (its interpretations stand in PM-9 and
PM-I, beside the rules they read).

The checks every game shares are the contract suite's (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

from tests.prismata.helpers import RULES
from tests.rulebooks import check_sections, check_variants_name_interpretations


def test_rulebook_has_its_sections_and_variants() -> None:
    sections = [f"PM-{n}" for n in range(1, 10)] + ["PM-N", "PM-I"]
    titles = ["General", "Setup, catalogs and supply", "Start of turn"]
    check_sections("prismata", RULES, sections, titles)
    check_variants_name_interpretations(
        "prismata",
        RULES,
        {
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
    )

"""PM clauses are in our own words: no run of 7 words from the rules text or the wiki."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.rulebook import load_rulebook

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
SOURCES = [
    SHARED / "rules" / "prismata.txt",
    *sorted((SHARED / "data" / "prismata" / "wiki").glob("*.txt")),
]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


@pytest.mark.skipif(
    not SOURCES[0].exists(), reason="the shared rules text is not beside the project"
)
def test_no_clause_repeats_seven_words_of_the_sources() -> None:
    runs: set[tuple[str, ...]] = set()
    for source in SOURCES:
        words = _words(source.read_text(errors="ignore"))
        runs.update(tuple(words[i : i + 7]) for i in range(len(words) - 6))
    copied = []
    for clause in load_rulebook("prismata").clauses:
        words = _words(clause.text)
        copied += [
            (clause.id, " ".join(words[i : i + 7]))
            for i in range(len(words) - 6)
            if tuple(words[i : i + 7]) in runs
        ]
    assert copied == []

"""Rulebooks: numbered clauses in our own words, shipped as TOML package data.

A rulebook lives beside its game as ``referee/games/<game>/rulebook.toml``; the
procedure clauses shared by every game (``REF-...``) live in
``referee/procedure.toml``. Clauses are either rules (restated from the game's
text) or interpretations (our default where the text is silent or ambiguous);
an interpretation that a table could reasonably rule otherwise names the variant
switch that flips it.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Literal

import msgspec

from referee.errors import UnknownClauseError, UnknownGameError


class Clause(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    title: str
    text: str
    kind: Literal["rule", "interpretation"] = "rule"
    variant: str | None = None
    section: str = ""


class Section(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    title: str


class Rulebook(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    title: str
    source: str = ""
    sections: tuple[Section, ...] = ()
    clauses: tuple[Clause, ...] = ()

    def get(self, clause_id: str) -> Clause:
        wanted = clause_id.strip().upper()
        for clause in self.clauses:
            if clause.id.upper() == wanted:
                return clause
        raise UnknownClauseError(f"{self.title} has no clause {clause_id!r}")

    def ids(self) -> list[str]:
        return [c.id for c in self.clauses]

    def in_section(self, section_id: str) -> list[Clause]:
        return [c for c in self.clauses if c.section == section_id]


class _RawRulebook(msgspec.Struct, kw_only=True):
    game: str
    title: str
    source: str = ""
    section: list[Section] = []
    clause: list[Clause] = []


@cache
def load_rulebook(game: str) -> Rulebook:
    """Load a game's rulebook (``procedure`` for the shared ``REF`` clauses)."""
    if game == "procedure":
        ref = resources.files("referee") / "procedure.toml"
    elif game == "event":  # the tournament rules (EV-...), not a game
        ref = resources.files("referee.tournament") / "rulebook.toml"
    else:
        from referee import games

        try:
            ref = resources.files(games.package_of(game)) / "rulebook.toml"
        except ModuleNotFoundError as exc:
            raise UnknownGameError(f"no rulebook for game {game!r}") from exc
    raw = msgspec.convert(tomllib.loads(ref.read_text(encoding="utf-8")), _RawRulebook)
    section_ids = {s.id for s in raw.section}
    clauses = []
    for clause in raw.clause:
        section = clause.section or clause.id.rsplit(".", 1)[0]
        if section not in section_ids:
            raise ValueError(f"clause {clause.id} names unknown section {section!r}")
        clauses.append(msgspec.structs.replace(clause, section=section))
    ids = [c.id for c in clauses]
    if len(set(ids)) != len(ids):
        raise ValueError(f"duplicate clause ids in {game} rulebook")
    return Rulebook(
        game=raw.game,
        title=raw.title,
        source=raw.source,
        sections=tuple(raw.section),
        clauses=tuple(clauses),
    )


def find_clause(clause_id: str, game: str | None = None) -> Clause:
    """Look a clause up in ``game``'s rulebook or, for ``REF-`` ids, the procedure
    (``EV-`` ids: the event rulebook)."""
    if clause_id.upper().startswith("EV-"):
        return load_rulebook("event").get(clause_id)
    if clause_id.upper().startswith("REF-") or game is None:
        return load_rulebook("procedure").get(clause_id)
    return load_rulebook(game).get(clause_id)

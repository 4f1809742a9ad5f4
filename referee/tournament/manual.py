"""Checking a pairing written by hand (``--manual FILE``, already parsed).

Two shapes: ``{"pairs": [["Ann", "Ben"], ...], "byes": ["Cal", ...]}`` for
two-player rounds, ``{"pods": [["Ann", "Ben", "Cal"], ...], "byes": [...]}`` for
pods. Ids, or names exactly as registered (issue 31). Every active player must appear
exactly once and nobody else (EV-5.11); several byes are allowed (awarded byes).
Rematches and second byes are allowed but reported as warnings for the audit.
Tables are numbered in the order given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from referee.tournament.model import Entrant, Pairing, Round, RoundKind
from referee.verdicts import Violation

__all__ = ["ManualCheck", "check_manual"]


class ManualCheck(msgspec.Struct, frozen=True, kw_only=True):
    """The round, if the pairing is acceptable; else the violations. Warnings either way."""

    round: Round | None
    violations: tuple[Violation, ...] = ()
    warnings: tuple[Violation, ...] = ()


def check_manual(
    number: int,
    kind: RoundKind,
    spec: Mapping[str, Any],
    active: Sequence[Entrant],
    everyone: Mapping[str, Entrant],
    met: Mapping[str, set[str]],
    byes: Mapping[str, int],
) -> ManualCheck:
    """Check ``spec`` for round ``number`` against the ``active`` players."""
    violations: list[Violation] = []
    warnings: list[Violation] = []
    lookup = _lookup(everyone)
    active_ids = {e.id for e in active}
    groups_key = "pods" if "pods" in spec else "pairs"
    unknown_keys = set(spec) - {"pairs", "pods", "byes"}
    if unknown_keys:
        violations.append(
            Violation("EV-5.11", f"unknown keys {sorted(unknown_keys)}: use pairs or pods, byes")
        )
    raw_groups = spec.get(groups_key, [])
    raw_byes = spec.get("byes", [])
    if not isinstance(raw_groups, list) or not isinstance(raw_byes, list):
        return ManualCheck(
            round=None,
            violations=(Violation("EV-5.11", f"{groups_key} and byes must be lists"),),
        )
    seen: dict[str, int] = {}

    def resolve(name: object) -> str | None:
        if not isinstance(name, str):
            violations.append(Violation("EV-5.11", f"{name!r} is not a player name"))
            return None
        player = lookup.get(" ".join(name.split()))
        if player is None:
            violations.append(Violation("EV-2.1", f"{name!r} is not a registered player"))
            return None
        if player not in active_ids:
            violations.append(
                Violation("EV-5.11", f"{everyone[player].name} is not active in round {number}")
            )
        seen[player] = seen.get(player, 0) + 1
        return player

    pairings: list[Pairing] = []
    low, high = (2, 4) if groups_key == "pods" else (2, 2)
    for table, group in enumerate(raw_groups, start=1):
        if not isinstance(group, list) or not low <= len(group) <= high:
            violations.append(
                Violation("EV-5.11", f"table {table}: {group!r} must list {low}-{high} players")
            )
            continue
        players = [resolve(name) for name in group]
        ids = tuple(p for p in players if p is not None)
        if len(ids) == len(group):
            pairings.append(Pairing(table=table, players=ids))
            warnings += _rematches(table, ids, met, everyone)
    for name in raw_byes:
        player = resolve(name)
        if player is not None:
            pairings.append(Pairing(table=None, players=(player,), bye=True))
            if byes.get(player, 0):
                warnings.append(Violation("EV-5.5", f"{everyone[player].name} already had a bye"))
    violations += _not_once(seen, active, everyone)
    if violations:
        return ManualCheck(round=None, violations=tuple(violations), warnings=tuple(warnings))
    return ManualCheck(
        round=Round(number=number, kind=kind, pairings=tuple(pairings)),
        warnings=tuple(warnings),
    )


def _lookup(everyone: Mapping[str, Entrant]) -> dict[str, str]:
    """Each player's id by their id and by their exact name."""
    lookup: dict[str, str] = {}
    for entrant in everyone.values():
        lookup.setdefault(entrant.name, entrant.id)  # a name exactly (issue 31) ...
    for entrant in everyone.values():
        lookup[entrant.id] = entrant.id  # ... and an id first: ids are their own namespace
    return lookup


def _rematches(
    table: int,
    ids: tuple[str, ...],
    met: Mapping[str, set[str]],
    everyone: Mapping[str, Entrant],
) -> list[Violation]:
    """EV-5.4: a warning for each two players at ``table`` who have met before."""
    warnings: list[Violation] = []
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if b in met.get(a, set()):
                warnings.append(
                    Violation(
                        "EV-5.4",
                        f"table {table}: {everyone[a].name} and {everyone[b].name} have met before",
                    )
                )
    return warnings


def _not_once(
    seen: Mapping[str, int], active: Sequence[Entrant], everyone: Mapping[str, Entrant]
) -> list[Violation]:
    """EV-5.11: every active player appears exactly once."""
    violations: list[Violation] = []
    for player, count in seen.items():
        if count > 1:
            violations.append(
                Violation("EV-5.11", f"{everyone[player].name} is paired {count} times")
            )
    missing = [e.name for e in active if e.id not in seen]
    if missing:
        violations.append(Violation("EV-5.11", f"not paired: {', '.join(missing)}"))
    return violations

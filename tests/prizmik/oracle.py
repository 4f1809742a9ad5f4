"""The engine beside the independent reference model of ``tests/prizmik/reference.py``.

The reference imports nothing of the project; this module is the one place that joins the
two: the project's variant switches as the reference's ``Table``, the engine's view of a
position compared with the reference's, perft (counts of legal action sequences) by each,
and the first place two perft counts part ways, so that a failing count names a line of
play to look at rather than a number.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from referee.games.prizmik import PrizmikState
from tests.prizmik import reference as ref
from tests.prizmik.helpers import FIXTURES, RULES

TABLES: list[dict[str, str]] = [
    {},
    {"fleet_capturable": "no"},
    {"far_rank_step": "no"},
    {"waiting_promotion": "yes"},
    {"waiting_promotion": "yes", "far_rank_step": "no"},
    {"impossible_test": "files"},
    {"no_legal_action": "draw", "quiet_limit": "40"},
    {"setup_files": "abh"},
    {"setup_files": "bdf", "fleet_capturable": "no", "waiting_promotion": "yes"},
]
"""Variant sets covering every choice of every PZ-10 variant at least once."""


def start_name(variants: dict[str, str]) -> str:
    """The perft table's name for the start under ``variants``."""
    return " ".join(["start", *(f"{k}={v}" for k, v in variants.items())])


@cache
def perft_table() -> dict[str, dict[str, Any]]:
    """The entries of ``fixtures/prizmik/perft.json`` by name (``build_fixtures`` writes it
    with the reference alone): each a position line, its variants and its counts."""
    table = json.loads((FIXTURES / "perft.json").read_text())
    return {entry["name"]: entry for entry in table["positions"]}


def table_of(variants: dict[str, str]) -> ref.Table:
    """The reference's table for the engine's variant switches."""
    quiet = variants.get("quiet_limit", "off")
    return ref.Table(
        setup_files=variants.get("setup_files", "ceg"),
        fleet_capturable=variants.get("fleet_capturable", "yes") == "yes",
        no_legal_action=variants.get("no_legal_action", "loss"),
        quiet_limit=0 if quiet == "off" else int(quiet),
        far_rank_step=variants.get("far_rank_step", "yes") == "yes",
        impossible_test=variants.get("impossible_test", "pieces"),
        waiting_promotion=variants.get("waiting_promotion", "no") == "yes",
    )


def engine_actions(state: PrizmikState) -> set[str]:
    return {RULES.notation(a) for a in RULES.legal_actions(state)}


def agree(state: PrizmikState, model: ref.Position, where: str) -> None:
    """Board, side to act, reserves, counters and result are the same in both."""
    assert state.board == ref.board_letters(model), where
    assert RULES.position_text(state) == ref.position_line(model), where
    outcome = RULES.outcome(state)
    ended = (outcome.status, outcome.winner, outcome.clause) if outcome.over else None
    assert ended == model.ended, where
    if not outcome.over:
        assert engine_actions(state) == ref.actions(model), where


def engine_perft(state: PrizmikState, depth: int) -> int:
    """Leaves of the engine's game tree ``depth`` actions deep (a finished game has none
    below it), through its public API: ``legal_actions`` and ``apply``."""
    actions = RULES.legal_actions(state)
    if depth <= 1:
        return len(actions) if depth == 1 else 1
    return sum(engine_perft(RULES.apply(state, a), depth - 1) for a in actions)


def reference_perft(model: ref.Position, depth: int) -> int:
    """The same count by the reference model alone."""
    texts = ref.actions(model)
    if depth <= 1:
        return len(texts) if depth == 1 else 1
    return sum(reference_perft(ref.play(model, t), depth - 1) for t in texts)


def mismatch(state: PrizmikState, model: ref.Position) -> str | None:
    """How the engine's position differs from the reference's (its line, result or legal
    actions), or ``None``."""
    line, outcome = RULES.position_text(state), RULES.outcome(state)
    ended = (outcome.status, outcome.winner, outcome.clause) if outcome.over else None
    where = ref.position_line(model)
    if line != where:
        return f"engine {line}, reference {where}"
    if ended != model.ended:
        return f"at {where}: engine result {ended}, reference {model.ended}"
    mine, theirs = engine_actions(state), ref.actions(model)
    if mine != theirs:
        return (
            f"at {where}: engine only {sorted(mine - theirs)}, reference only "
            f"{sorted(theirs - mine)}"
        )
    return None


def divergence(state: PrizmikState, model: ref.Position, depth: int) -> str | None:
    """The first line of play from here, up to ``depth`` actions long, after which the
    engine and the reference disagree, or ``None`` when they agree all the way."""
    found = mismatch(state, model)
    if found is not None or depth <= 1:
        return found
    for text in sorted(ref.actions(model)):
        after, seen = RULES.apply(state, RULES.parse(text)), ref.play(model, text)
        found = divergence(after, seen, depth - 1)
        if found is not None:
            return f"{text}, then {found}"
    return None

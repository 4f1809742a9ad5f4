"""Shared helpers for the PRIZMIK tests: positions built through the engine, actions
checked and played through it.

The independent reference model the engine is compared with is ``reference.py`` (it
imports nothing of the project); ``oracle.py`` joins the two.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from pathlib import Path

from referee.contract import Player, Setup, Verdict
from referee.games.prizmik import PrizmikAction, PrizmikRules, PrizmikState

RULES = PrizmikRules()
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "prizmik"
PLAYERS = (Player(seat="red", name="Ruby"), Player(seat="blue", name="Cobalt"))


BACK = {"a1": "B", "a2": "H", "h8": "b", "h7": "h"}
"""A quiet background: each side keeps a base and a ship far away, so no single action of
a test ends the game (a1 holds a red base, so a red fighter arriving on a8 cannot promote;
h8 a blue one, so a blue fighter arriving on h1 cannot)."""


def board(**pieces: str) -> dict[str, str]:
    """``pieces`` (square: piece) on the quiet background ``BACK``."""
    return {**BACK, **pieces}


def setup(**variants: str) -> Setup:
    """A two-player setup with the given variant switches."""
    return Setup(players=PLAYERS, variants=dict(variants))


def start(**variants: str) -> PrizmikState:
    """The initial position with the given variant switches."""
    return RULES.initial_state(setup(**variants))


def pos(
    pieces: Mapping[str, str] | str,
    turn: str = "red",
    reserves: tuple[int, int] = (3, 3),
    judge: bool = True,
    **variants: str,
) -> PrizmikState:
    """A hand-built position (see ``PrizmikRules.position``)."""
    return RULES.position(pieces, turn=turn, reserves=reserves, variants=variants, judge=judge)


def act(text: str) -> PrizmikAction:
    return RULES.parse(text)


def verdict(state: PrizmikState, text: str) -> Verdict:
    return RULES.check(state, act(text))


def assert_legal(state: PrizmikState, text: str) -> None:
    v = verdict(state, text)
    assert v.legal, f"{text} should be legal, got {v.violations}"
    assert act(text) in RULES.legal_actions(state)


def assert_illegal(state: PrizmikState, text: str, clause: str, *fragments: str) -> str:
    """Assert ``text`` breaks ``clause`` first and its reason has every fragment."""
    v = verdict(state, text)
    assert not v.legal, f"{text} should be illegal"
    assert act(text) not in RULES.legal_actions(state)
    first = v.violations[0]
    assert first.clause == clause, f"{text}: expected {clause}, got {first}"
    for fragment in fragments:
        assert fragment in first.reason, f"{fragment!r} not in {first.reason!r}"
    return first.reason


def play(state: PrizmikState, texts: Iterable[str]) -> PrizmikState:
    """Check then apply each action, failing on the first illegal one."""
    for text in texts:
        v = verdict(state, text)
        assert v.legal, f"{text} illegal: {v.violations}"
        state = RULES.apply(state, act(text))
    return state


def square(state: PrizmikState, name: str) -> str:
    """The board letter on square ``name`` (``.`` when empty)."""
    f = "abcdefgh".index(name[0])
    r = int(name[1]) - 1
    return state.board[r * 8 + f]


def random_states(seed: int, plies: int, **variants: str) -> list[PrizmikState]:
    """States along one random legal game (stops early if it ends)."""
    rng = random.Random(seed)
    state = start(**variants)
    states = [state]
    for _ in range(plies):
        if RULES.outcome(state).over:
            break
        state = RULES.apply(state, rng.choice(RULES.legal_actions(state)))
        states.append(state)
    return states

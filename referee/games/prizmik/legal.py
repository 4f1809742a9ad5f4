"""Listing PRIZMIK actions: every legal action of the side to move from precomputed
tables, by origin square a1..h8, then deploys, moves, captures; ``has_action`` answers
whether there is one without listing them (PZ-10.6).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from referee.games.prizmik.board import (
    BASE,
    EMPTY,
    ENEMY,
    FIGHTER,
    FLEET,
    FLEET_DEPLOY,
    JUMP2,
    NEIGH8,
    ORTHO4,
    OWN,
    SHIP,
    STACK,
)
from referee.games.prizmik.model import (
    PrizmikAction,
    PrizmikState,
)
from referee.games.prizmik.notation import ACTIONS

__all__ = ["has_action", "iter_actions", "legal_actions"]


def iter_actions(state: PrizmikState) -> Iterator[PrizmikAction]:
    """Every legal action of the side to move, by origin a1..h8, then deploy, move, capture."""
    board = state.board
    side = 0 if state.turn == "red" else 1
    own = OWN[side]
    enemy = ENEMY[side]
    fleets_capturable = state.variants.fleet_capturable
    for o in range(64):
        k = own.get(board[o])
        if k is None or k == BASE:
            continue
        if k == FLEET:
            yield from _empty_targets(board, _FLEET_DEPLOYS[side][o])
            continue
        if k == STACK:
            yield from _empty_targets(board, _STACK_DEPLOYS[o])
        if k == FIGHTER:
            yield from _fighter_actions(board, enemy, o)
        else:  # ship stack or lone ship
            yield from _ship_actions(board, enemy, o, fleets_capturable)


def _empty_targets(
    board: str, table: Sequence[tuple[int, PrizmikAction]]
) -> Iterator[PrizmikAction]:
    """The actions of ``table`` whose target square is empty (deploys, steps)."""
    for t, act in table:
        if board[t] == EMPTY:
            yield act


def _fighter_actions(board: str, enemy: dict[str, int], o: int) -> Iterator[PrizmikAction]:
    """PZ-5.3, 6.4, 6.5: a lone fighter's steps, then its captures."""
    yield from _empty_targets(board, _STEP_MOVES[o])
    for t, ortho, act in _FIGHTER_CAPTURES[o]:
        ek = enemy.get(board[t])
        if ek is not None and ((ek in (STACK, SHIP)) if ortho else ek == FIGHTER):
            yield act


def _ship_actions(
    board: str, enemy: dict[str, int], o: int, fleets_capturable: bool
) -> Iterator[PrizmikAction]:
    """PZ-5.2, 6.2, 10.3: a ship's (or ship stack's) moves, then its captures."""
    for t, mid, act in _SHIP_MOVES[o]:
        if board[t] == EMPTY and (mid < 0 or board[mid] == EMPTY):
            yield act
    for t, act in _STEP_CAPTURES[o]:
        ek = enemy.get(board[t])
        if ek == BASE or (ek == FLEET and fleets_capturable):
            yield act


_MOBILE_LETTERS: Final = (("X", "S", "H"), ("x", "s", "h"))
_FLEET_LETTER: Final = ("F", "f")
_NEIGH8_LIST: Final = tuple(tuple(sorted(NEIGH8[o])) for o in range(64))


def has_action(state: PrizmikState) -> bool:
    """Whether the side to move has any legal action, without listing them.

    Almost every position has a lone fighter, ship or stack next to an empty
    square (a legal one-step move) or a fleet with an empty deploy square;
    ``str.find`` locates the pieces at C speed. Only when none has, the full
    generator decides (a capture may still be possible)."""
    board = state.board
    side = 0 if state.turn == "red" else 1
    for letter in _MOBILE_LETTERS[side]:
        o = board.find(letter)
        while o >= 0:
            for t in _NEIGH8_LIST[o]:
                if board[t] == EMPTY:
                    return True
            o = board.find(letter, o + 1)
    letter = _FLEET_LETTER[side]
    o = board.find(letter)
    while o >= 0:
        for t, _ in _FLEET_DEPLOYS[side][o]:
            if board[t] == EMPTY:
                return True
        o = board.find(letter, o + 1)
    return next(iter_actions(state), None) is not None


def _table(kind: str, targets: frozenset[int], o: int) -> tuple[tuple[int, PrizmikAction], ...]:
    """``(target, interned action)`` pairs from ``o``, targets in square order."""
    return tuple((t, ACTIONS[(kind, o, t)]) for t in sorted(targets))


# Move-generation tables: for every origin, the candidate targets with their
# interned actions, so that generating actions allocates nothing but the list.
_FLEET_DEPLOYS: Final = tuple(
    tuple(_table("deploy", FLEET_DEPLOY[side][o], o) for o in range(64)) for side in (0, 1)
)
_STACK_DEPLOYS: Final = tuple(_table("deploy", ORTHO4[o], o) for o in range(64))
_STEP_MOVES: Final = tuple(_table("move", NEIGH8[o], o) for o in range(64))
_STEP_CAPTURES: Final = tuple(_table("capture", NEIGH8[o], o) for o in range(64))
_SHIP_MOVES: Final = tuple(
    tuple(
        (t, JUMP2[o].get(t, -1), ACTIONS[("move", o, t)])
        for t in sorted(NEIGH8[o] | JUMP2[o].keys())
    )
    for o in range(64)
)
_FIGHTER_CAPTURES: Final = tuple(
    tuple((t, t in ORTHO4[o], ACTIONS[("capture", o, t)]) for t in sorted(NEIGH8[o]))
    for o in range(64)
)


def legal_actions(state: PrizmikState, seat: str | None = None) -> Sequence[PrizmikAction]:
    """All legal actions, by origin square a1..h8, then deploys, moves, captures."""
    if state.result is not None:
        return []
    return list(iter_actions(state))

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
    """Every legal action of the side to move, by origin a1..h8, then deploy, move, capture.

    Each piece's candidates come from the tables of its kind (``_DEPLOYS``, ``_MOVES``,
    ``_CAPTURES``, below): a deploy needs an empty target, a move an empty target (and
    an empty middle square on a two-step move), a capture an enemy piece of a kind the
    mover may take there."""
    board = state.board
    side = 0 if state.turn == "red" else 1
    own = OWN[side]
    enemy = ENEMY[side]
    deploys = _DEPLOYS[side]
    captures = _CAPTURES[state.variants.fleet_capturable]
    for o in range(64):
        k = own.get(board[o])
        if k is None or k == BASE:
            continue
        for t, act in deploys[k][o]:
            if board[t] == EMPTY:
                yield act
        for t, mid, act in _MOVES[k][o]:
            if board[t] == EMPTY and (mid < 0 or board[mid] == EMPTY):
                yield act
        for t, kinds, act in captures[k][o]:
            if enemy.get(board[t]) in kinds:
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
    tuple(
        (t, frozenset((STACK, SHIP)) if t in ORTHO4[o] else frozenset((FIGHTER,)), act)
        for t, act in _STEP_CAPTURES[o]
    )
    for o in range(64)
)
"""PZ-6.4, 6.5: a fighter takes a ship straight beside it, a fighter diagonally."""
_NONE: Final = tuple(() for _ in range(64))

_DEPLOYS: Final = tuple(
    {FLEET: _FLEET_DEPLOYS[side], STACK: _STACK_DEPLOYS, SHIP: _NONE, FIGHTER: _NONE}
    for side in (0, 1)
)
"""Each side's deploys by the kind of piece deploying (PZ-4)."""
_MOVES: Final = {
    FLEET: _NONE,
    STACK: _SHIP_MOVES,
    SHIP: _SHIP_MOVES,
    FIGHTER: tuple(tuple((t, -1, act) for t, act in _STEP_MOVES[o]) for o in range(64)),
}
"""``(target, middle square or -1, action)`` by the kind of piece moving (PZ-5)."""


def _ship_captures(
    capturable: bool,
) -> tuple[tuple[tuple[int, frozenset[int], PrizmikAction], ...], ...]:
    """PZ-6.2, 10.3: a ship takes a lone base (or a full fleet, when fleets are
    capturable) on one of the eight squares around it."""
    kinds = frozenset((BASE, FLEET) if capturable else (BASE,))
    return tuple(tuple((t, kinds, act) for t, act in _STEP_CAPTURES[o]) for o in range(64))


_CAPTURES: Final = {
    capturable: {
        FLEET: _NONE,
        STACK: _ship_captures(capturable),
        SHIP: _ship_captures(capturable),
        FIGHTER: _FIGHTER_CAPTURES,
    }
    for capturable in (False, True)
}
"""``(target, kinds it may take there, action)`` by the kind of piece capturing, for each
value of the fleet_capturable variant (PZ-6, PZ-10.3)."""


def legal_actions(state: PrizmikState, seat: str | None = None) -> Sequence[PrizmikAction]:
    """All legal actions, by origin square a1..h8, then deploys, moves, captures."""
    if state.result is not None:
        return []
    return list(iter_actions(state))

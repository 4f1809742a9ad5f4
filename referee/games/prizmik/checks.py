"""Checking PRIZMIK actions.

``check`` has a straight-line path for legal actions that only indexes precomputed tables
(``board``); only an illegal action pays for working out the most specific clause it
breaks and a reason in plain words (``explain``). The clause ids cited here are those of
``rulebook.toml``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from referee.contract import (
    LEGAL,
    Verdict,
    Violation,
)
from referee.games.prizmik.board import (
    BASE,
    DIAG4,
    EMPTY,
    ENEMY,
    FAR_RANK,
    FIGHTER,
    FLEET,
    FLEET_DEPLOY,
    JUMP2,
    KIND_NAMES,
    KIND_OF,
    NEIGH8,
    ORTHO4,
    OWN,
    SHIP,
    SIDE_OF,
    SQUARE_NAMES,
    STACK,
    piece_name,
)
from referee.games.prizmik.engine import (
    outcome,
)
from referee.games.prizmik.legal import iter_actions
from referee.games.prizmik.model import (
    SEPARATORS,
    PrizmikAction,
    PrizmikState,
)
from referee.games.prizmik.notation import ACTIONS, notation

__all__ = ["check", "explain", "is_legal"]

# -- clause ids ------------------------------------------------------------
GAME_OVER: Final = "REF-1.3"
OWN_PIECES: Final = "PZ-1.4"
DEPLOY_FLEET: Final = "PZ-4.1"
DEPLOY_STACK: Final = "PZ-4.2"
DEPLOY_WHO: Final = "PZ-4.3"
NO_MOVE_BASES: Final = "PZ-5.1"
MOVE_SHIP: Final = "PZ-5.2"
MOVE_FIGHTER: Final = "PZ-5.3"
CAPTURE_GENERAL: Final = "PZ-6.1"
CAPTURE_SHIP_BASE: Final = "PZ-6.2"
CAPTURE_SHIP_ONLY_BASES: Final = "PZ-6.3"
CAPTURE_FIGHTER_SHIP: Final = "PZ-6.4"
CAPTURE_FIGHTER_FIGHTER: Final = "PZ-6.5"
CAPTURE_FIGHTER_NO_BASE: Final = "PZ-6.6"
NOTATION_SIGNS: Final = "PZ-9.2"
SEPARATOR_FITS: Final = "PZ-9.4"
FLEET_CAPTURABLE: Final = "PZ-10.3"
EMPTY_ONLY: Final = "PZ-10.4"
WHO_CAPTURES: Final = "PZ-10.9"


def _names(squares: frozenset[int] | Sequence[int]) -> str:
    """Square names in alphabetical order joined for a reason: ``c4, d3 or e4``."""
    names = sorted(SQUARE_NAMES[s] for s in squares)
    if len(names) <= 1:
        return "".join(names) or "nowhere"
    return ", ".join(names[:-1]) + " or " + names[-1]


class CheckMethods:
    """``check`` as a method, for ``PrizmikRules`` to inherit: it runs for every action a
    game replays or checks, and an ordinary method call is the cheapest call Python 3.11
    makes (a module function carried by the rules object is looked up afresh each time)."""

    def check(self, state: PrizmikState, action: PrizmikAction, seat: str | None = None) -> Verdict:
        """Legal, or the most specific clause ``action`` breaks with a reason."""
        if state.result is None:
            board = state.board
            o = action.origin
            t = action.target
            if type(o) is int and type(t) is int and 0 <= o < 64 and 0 <= t < 64:
                side = 0 if state.turn == "red" else 1
                k = OWN[side].get(board[o])
                kind = action.kind
                if kind == "move":
                    if board[t] == EMPTY and k is not None:
                        if k == FIGHTER:
                            if t in NEIGH8[o]:
                                return LEGAL
                        elif k in (STACK, SHIP):
                            if t in NEIGH8[o]:
                                return LEGAL
                            mid = JUMP2[o].get(t)
                            if mid is not None and board[mid] == EMPTY:
                                return LEGAL
                elif kind == "capture":
                    ek = ENEMY[side].get(board[t])
                    if k in (STACK, SHIP):
                        if (ek == BASE or (ek == FLEET and state.variants.fleet_capturable)) and (
                            t in NEIGH8[o]
                        ):
                            return LEGAL
                    elif k == FIGHTER:
                        if ek in (STACK, SHIP):
                            if t in ORTHO4[o]:
                                return LEGAL
                        elif ek == FIGHTER and t in DIAG4[o]:
                            return LEGAL
                elif kind == "deploy" and board[t] == EMPTY:
                    if k == FLEET:
                        if t in FLEET_DEPLOY[side][o]:
                            return LEGAL
                    elif k == STACK and t in ORTHO4[o]:
                        return LEGAL
        return Verdict((explain(state, action),))


check = CheckMethods().check
"""``check`` as every game's checks module has it."""


def explain(state: PrizmikState, act: PrizmikAction) -> Violation:
    """The most specific clause an illegal ``act`` breaks, with a plain-words reason."""
    result = outcome(state)
    if result.over:
        decided = f"{result.winner} won" if result.status == "win" else "it was drawn"
        return Violation(
            GAME_OVER, f"the game is over: {decided} by {result.clause} ({result.reason})"
        )
    kind = act.kind
    o, t = act.origin, act.target
    if kind not in SEPARATORS:
        return Violation(
            NOTATION_SIGNS,
            f"{kind!r} is not an action: use deploy (>), move (-) or capture (x)",
        )
    if not (type(o) is int and type(t) is int and 0 <= o < 64 and 0 <= t < 64):
        return Violation(
            "PZ-9.1", f"squares must be numbered 0 (a1) to 63 (h8), not {o!r} and {t!r}"
        )
    board = state.board
    mover = state.turn
    side = 0 if mover == "red" else 1
    on, tn = SQUARE_NAMES[o], SQUARE_NAMES[t]
    p, q = board[o], board[t]
    if p == EMPTY:
        return Violation(OWN_PIECES, f"there is no piece on {on} for {mover} to act with")
    if SIDE_OF[p] != side:
        return Violation(
            OWN_PIECES,
            f"{on} holds a {piece_name(p)}; {mover} may act only with {mover} pieces",
        )
    k = KIND_OF[p]
    what = f"the {piece_name(p)} on {on}"
    qk = KIND_OF[q]
    q_enemy = q != EMPTY and SIDE_OF[q] != side
    verb = {"deploy": "deploy to", "move": "move to", "capture": "capture on"}[kind]
    head = f"{what} cannot {verb} {tn}"

    # A sign that does not fit what the target holds (PZ-9.4), when the
    # fitting sign would make the action legal.
    if kind != "capture" and q_enemy:
        alt = ACTIONS[("capture", o, t)]
        if is_legal(state, alt):
            return Violation(
                SEPARATOR_FITS,
                f"{head}: {tn} holds a {piece_name(q)}; write {notation(alt)} to capture it",
            )
    if kind == "capture" and q == EMPTY:
        alts = [
            ACTIONS[(k2, o, t)] for k2 in ("move", "deploy") if is_legal(state, ACTIONS[(k2, o, t)])
        ]
        if alts:
            hint = " or ".join(f"{notation(a)} to {a.kind}" for a in alts)
            return Violation(
                SEPARATOR_FITS, f"{head}: there is nothing on {tn} to capture; write {hint}"
            )

    if kind == "deploy":
        if k == BASE:
            return Violation(
                DEPLOY_WHO, f"{what} cannot deploy: a lone base has no ship left in it"
            )
        if k == SHIP:
            return Violation(
                DEPLOY_WHO, f"{what} cannot deploy: a lone ship has no fighter nested in it"
            )
        if k == FIGHTER:
            return Violation(DEPLOY_WHO, f"{what} cannot deploy: a fighter holds nothing")
        if k == FLEET:
            allowed = FLEET_DEPLOY[side][o]
            if t not in allowed:
                return Violation(
                    DEPLOY_FLEET,
                    f"{head}: a full fleet deploys its ship stack one step left, right or "
                    f"forward (toward rank {FAR_RANK[side] + 1}), that is to {_names(allowed)}",
                )
            return Violation(
                DEPLOY_FLEET,
                f"{head}: {tn} is occupied by a {piece_name(q)}; a deploy needs an empty square",
            )
        # ship stack
        if t not in ORTHO4[o]:
            return Violation(
                DEPLOY_STACK,
                f"{head}: a ship stack deploys its fighter one step left, right, forward "
                f"or back, that is to {_names(ORTHO4[o])}",
            )
        return Violation(
            DEPLOY_STACK,
            f"{head}: {tn} is occupied by a {piece_name(q)}; a deploy needs an empty square",
        )

    if kind == "move":
        if k in (BASE, FLEET):
            return Violation(
                NO_MOVE_BASES,
                f"{what} cannot move: "
                + (
                    "a base never moves"
                    if k == BASE
                    else "a full fleet never moves (it may deploy its ship stack instead)"
                ),
            )
        clause = MOVE_FIGHTER if k == FIGHTER else MOVE_SHIP
        mid = JUMP2[o].get(t) if k != FIGHTER else None
        if t not in NEIGH8[o] and mid is None:
            how = (
                "a fighter moves exactly one step in any direction"
                if k == FIGHTER
                else "a ship moves one step in any direction or two steps straight along "
                "a rank or file"
            )
            return Violation(clause, f"{head}: {how}")
        if q != EMPTY:
            if not q_enemy:
                extra = (
                    "; a ship never takes a fighter back in" if k == SHIP and qk == FIGHTER else ""
                )
                return Violation(
                    EMPTY_ONLY,
                    f"{head}: {tn} is occupied by {mover}'s own {KIND_NAMES[qk]}; pieces "
                    f"only move onto empty squares{extra}",
                )
            return Violation(
                clause,
                f"{head}: {tn} is occupied by a {piece_name(q)}; a move needs an empty square",
            )
        if mid is not None and board[mid] != EMPTY:
            return Violation(
                MOVE_SHIP,
                f"{head}: the middle square {SQUARE_NAMES[mid]} is occupied by a "
                f"{piece_name(board[mid])}",
            )

    if kind == "capture":
        if q == EMPTY:
            return Violation(CAPTURE_GENERAL, f"{head}: there is nothing on {tn} to capture")
        if not q_enemy:
            return Violation(
                CAPTURE_GENERAL,
                f"{head}: {tn} holds {mover}'s own {KIND_NAMES[qk]}; only enemy pieces can "
                "be captured",
            )
        target = f"the {piece_name(q)} on {tn}"
        if k in (BASE, FLEET):
            return Violation(
                WHO_CAPTURES,
                f"{what} cannot capture: lone bases and full fleets never capture",
            )
        if k in (STACK, SHIP):
            if qk == FIGHTER and k == STACK:
                return Violation(
                    CAPTURE_SHIP_ONLY_BASES,
                    f"{what} cannot capture {target}: a ship stack never captures a "
                    "fighter; ships capture only bases",
                )
            if qk in (FIGHTER, SHIP, STACK):
                return Violation(
                    CAPTURE_SHIP_ONLY_BASES,
                    f"{what} cannot capture {target}: ships capture only bases",
                )
            if qk == FLEET and not state.variants.fleet_capturable:
                return Violation(
                    FLEET_CAPTURABLE,
                    f"{what} cannot capture {target}: full fleets cannot be captured in this "
                    "game (variant fleet_capturable=no)",
                )
            if t not in NEIGH8[o]:
                return Violation(
                    CAPTURE_SHIP_BASE,
                    f"{what} cannot capture {target}: a ship captures a base only from one "
                    f"of the eight squares next to it, and {tn} is not next to {on}",
                )
        if k == FIGHTER:
            if qk in (BASE, FLEET):
                return Violation(
                    CAPTURE_FIGHTER_NO_BASE,
                    f"{what} cannot capture {target}: fighters never capture bases or full fleets",
                )
            if qk in (STACK, SHIP):
                where = "diagonal from" if t in DIAG4[o] else "not next to"
                return Violation(
                    CAPTURE_FIGHTER_SHIP,
                    f"{what} cannot capture {target}: a fighter captures a ship only from "
                    f"the next square along a rank or file, and {tn} is {where} {on}",
                )
            if qk == FIGHTER:
                where = "straight beside" if t in ORTHO4[o] else "not next to"
                return Violation(
                    CAPTURE_FIGHTER_FIGHTER,
                    f"{what} cannot capture {target}: a fighter captures a fighter only "
                    f"from a diagonally adjacent square, and {tn} is {where} {on}",
                )
    raise AssertionError(f"no violation found for illegal action {act!r}")  # pragma: no cover


def is_legal(state: PrizmikState, act: PrizmikAction) -> bool:
    """Whether ``act`` is legal, by membership in the generated actions (slow path only)."""
    return act in set(iter_actions(state))

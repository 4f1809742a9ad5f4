"""Checking PRIZMIK actions.

``check`` has a straight-line path for legal actions that only indexes precomputed tables
(``board``); only an illegal action pays for working out the most specific clause it
breaks and a reason in plain words (``explain``). The clause ids cited here are those of
``rulebook.toml``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

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
from referee.kit.dispatch import Dispatch

__all__ = ["ENTRY_CHECKS", "EXPLANATIONS", "check", "explain", "is_legal"]

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


ENTRY_CHECKS: Dispatch[PrizmikState, int, Verdict] = Dispatch("checks of PRIZMIK entries")
"""Each kind's check (``deploy``, ``move``, ``capture``), given the acting side (0 red, 1
blue); the kit's idiom (``referee.kit.dispatch``), by the action's ``kind``."""

EXPLANATIONS: Dispatch[PrizmikState, _Attempt, Violation | None] = Dispatch(
    "explanations of illegal PRIZMIK entries"
)
"""Each kind's most specific clause broken, once the clauses every kind shares hold."""


def check(state: PrizmikState, action: PrizmikAction, seat: str | None = None) -> Verdict:
    """Legal, or the most specific clause ``action`` breaks with a reason."""
    if state.result is None:
        o = action.origin
        t = action.target
        if type(o) is int and type(t) is int and 0 <= o < 64 and 0 <= t < 64:
            try:
                checker = _CHECKS[action.kind]
            except KeyError:  # not a kind of action: explain says so (PZ-9.2)
                return Verdict((explain(state, action),))
            return checker(state, action, 0 if state.turn == "red" else 1)
    return Verdict((explain(state, action),))


@ENTRY_CHECKS.tagged("move")
def _check_move(state: PrizmikState, action: PrizmikAction, side: int) -> Verdict:
    """PZ-5: a fighter steps once, a ship or ship stack once or twice straight, to an empty
    square (the straight-line path for legal moves; ``explain`` for the rest)."""
    board = state.board
    o = action.origin
    t = action.target
    k = OWN[side].get(board[o])
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
    return Verdict((explain(state, action),))


@ENTRY_CHECKS.tagged("capture")
def _check_capture(state: PrizmikState, action: PrizmikAction, side: int) -> Verdict:
    """PZ-6: ships take bases (and fleets, PZ-10.3) next to them; fighters take ships
    straight beside and fighters diagonally beside."""
    board = state.board
    o = action.origin
    t = action.target
    k = OWN[side].get(board[o])
    ek = ENEMY[side].get(board[t])
    if k in (STACK, SHIP):
        if (ek == BASE or (ek == FLEET and state.variants.fleet_capturable)) and (t in NEIGH8[o]):
            return LEGAL
    elif k == FIGHTER:
        if ek in (STACK, SHIP):
            if t in ORTHO4[o]:
                return LEGAL
        elif ek == FIGHTER and t in DIAG4[o]:
            return LEGAL
    return Verdict((explain(state, action),))


@ENTRY_CHECKS.tagged("deploy")
def _check_deploy(state: PrizmikState, action: PrizmikAction, side: int) -> Verdict:
    """PZ-4: a full fleet deploys its ship stack, a ship stack its fighter, to an empty
    square beside it."""
    board = state.board
    o = action.origin
    t = action.target
    if board[t] == EMPTY:
        k = OWN[side].get(board[o])
        if k == FLEET:
            if t in FLEET_DEPLOY[side][o]:
                return LEGAL
        elif k == STACK and t in ORTHO4[o]:
            return LEGAL
    return Verdict((explain(state, action),))


_CHECKS = ENTRY_CHECKS.handlers


class _Attempt(NamedTuple):
    """What every explanation reads of an illegal action by the side to move."""

    o: int
    t: int
    side: int
    mover: str
    on: str
    tn: str
    p: str
    q: str
    k: int
    qk: int
    q_enemy: bool
    what: str
    head: str


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
    attempt = _attempt(state, kind, o, t)
    if isinstance(attempt, Violation):
        return attempt
    found = _wrong_sign(state, act, attempt)
    if found is None:
        found = _EXPLAIN[kind](state, act, attempt)
    if found is None:
        raise AssertionError(f"no violation found for illegal action {act!r}")  # pragma: no cover
    return found


def _attempt(state: PrizmikState, kind: str, o: int, t: int) -> _Attempt | Violation:
    """The action's pieces and names, or PZ-1.4 when it does not start from one of the
    mover's own pieces."""
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
    what = f"the {piece_name(p)} on {on}"
    verb = {"deploy": "deploy to", "move": "move to", "capture": "capture on"}[kind]
    return _Attempt(
        o=o,
        t=t,
        side=side,
        mover=mover,
        on=on,
        tn=tn,
        p=p,
        q=q,
        k=KIND_OF[p],
        qk=KIND_OF[q],
        q_enemy=q != EMPTY and SIDE_OF[q] != side,
        what=what,
        head=f"{what} cannot {verb} {tn}",
    )


def _wrong_sign(state: PrizmikState, act: PrizmikAction, a: _Attempt) -> Violation | None:
    """PZ-9.4: a sign that does not fit what the target holds, when the fitting sign
    would make the action legal."""
    kind, o, t, tn, q = act.kind, a.o, a.t, a.tn, a.q
    if kind != "capture" and a.q_enemy:
        alt = ACTIONS[("capture", o, t)]
        if is_legal(state, alt):
            return Violation(
                SEPARATOR_FITS,
                f"{a.head}: {tn} holds a {piece_name(q)}; write {notation(alt)} to capture it",
            )
    if kind == "capture" and q == EMPTY:
        alts = [
            ACTIONS[(k2, o, t)] for k2 in ("move", "deploy") if is_legal(state, ACTIONS[(k2, o, t)])
        ]
        if alts:
            hint = " or ".join(f"{notation(x)} to {x.kind}" for x in alts)
            return Violation(
                SEPARATOR_FITS, f"{a.head}: there is nothing on {tn} to capture; write {hint}"
            )
    return None


@EXPLANATIONS.tagged("deploy")
def _explain_deploy(state: PrizmikState, act: PrizmikAction, a: _Attempt) -> Violation | None:
    k, what, head, o, t = a.k, a.what, a.head, a.o, a.t
    if k == BASE:
        return Violation(DEPLOY_WHO, f"{what} cannot deploy: a lone base has no ship left in it")
    if k == SHIP:
        return Violation(
            DEPLOY_WHO, f"{what} cannot deploy: a lone ship has no fighter nested in it"
        )
    if k == FIGHTER:
        return Violation(DEPLOY_WHO, f"{what} cannot deploy: a fighter holds nothing")
    if k == FLEET:
        allowed = FLEET_DEPLOY[a.side][o]
        if t not in allowed:
            return Violation(
                DEPLOY_FLEET,
                f"{head}: a full fleet deploys its ship stack one step left, right or "
                f"forward (toward rank {FAR_RANK[a.side] + 1}), that is to {_names(allowed)}",
            )
        return _needs_empty(a, DEPLOY_FLEET, "deploy")
    # ship stack
    if t not in ORTHO4[o]:
        return Violation(
            DEPLOY_STACK,
            f"{head}: a ship stack deploys its fighter one step left, right, forward "
            f"or back, that is to {_names(ORTHO4[o])}",
        )
    return _needs_empty(a, DEPLOY_STACK, "deploy")


def _needs_empty(a: _Attempt, clause: str, what: str) -> Violation:
    """``clause`` broken by a ``what`` (deploy, move) onto a square another piece holds."""
    return Violation(
        clause,
        f"{a.head}: {a.tn} is occupied by a {piece_name(a.q)}; a {what} needs an empty square",
    )


@EXPLANATIONS.tagged("move")
def _explain_move(state: PrizmikState, act: PrizmikAction, a: _Attempt) -> Violation | None:
    k, what, head, o, t, q = a.k, a.what, a.head, a.o, a.t, a.q
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
            else "a ship moves one step in any direction or two steps straight along a rank or file"
        )
        return Violation(clause, f"{head}: {how}")
    if q != EMPTY:
        return _occupied(a, clause)
    board = state.board
    if mid is not None and board[mid] != EMPTY:
        return Violation(
            MOVE_SHIP,
            f"{head}: the middle square {SQUARE_NAMES[mid]} is occupied by a "
            f"{piece_name(board[mid])}",
        )
    return None


def _occupied(a: _Attempt, clause: str) -> Violation:
    """A move onto a square that is not empty: PZ-10.4 for one's own piece, else the
    mover's own clause."""
    if not a.q_enemy:
        extra = "; a ship never takes a fighter back in" if a.k == SHIP and a.qk == FIGHTER else ""
        return Violation(
            EMPTY_ONLY,
            f"{a.head}: {a.tn} is occupied by {a.mover}'s own {KIND_NAMES[a.qk]}; pieces "
            f"only move onto empty squares{extra}",
        )
    return _needs_empty(a, clause, "move")


@EXPLANATIONS.tagged("capture")
def _explain_capture(state: PrizmikState, act: PrizmikAction, a: _Attempt) -> Violation | None:
    k, what, head, tn, q = a.k, a.what, a.head, a.tn, a.q
    if q == EMPTY:
        return Violation(CAPTURE_GENERAL, f"{head}: there is nothing on {tn} to capture")
    if not a.q_enemy:
        return Violation(
            CAPTURE_GENERAL,
            f"{head}: {tn} holds {a.mover}'s own {KIND_NAMES[a.qk]}; only enemy pieces can "
            "be captured",
        )
    if k in (BASE, FLEET):
        return Violation(
            WHO_CAPTURES,
            f"{what} cannot capture: lone bases and full fleets never capture",
        )
    if k in (STACK, SHIP):
        return _ship_capture(state, a)
    if k == FIGHTER:
        return _fighter_capture(a)
    return None


def _ship_capture(state: PrizmikState, a: _Attempt) -> Violation | None:
    """PZ-6.2, 6.3, 10.3: what a ship or ship stack cannot capture."""
    k, qk, what, tn = a.k, a.qk, a.what, a.tn
    target = f"the {piece_name(a.q)} on {tn}"
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
    if a.t not in NEIGH8[a.o]:
        return Violation(
            CAPTURE_SHIP_BASE,
            f"{what} cannot capture {target}: a ship captures a base only from one "
            f"of the eight squares next to it, and {tn} is not next to {a.on}",
        )
    return None


def _fighter_capture(a: _Attempt) -> Violation | None:
    """PZ-6.4, 6.5, 6.6: what a fighter cannot capture."""
    qk, what, tn, o, t = a.qk, a.what, a.tn, a.o, a.t
    target = f"the {piece_name(a.q)} on {tn}"
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
            f"the next square along a rank or file, and {tn} is {where} {a.on}",
        )
    if qk == FIGHTER:
        where = "straight beside" if t in ORTHO4[o] else "not next to"
        return Violation(
            CAPTURE_FIGHTER_FIGHTER,
            f"{what} cannot capture {target}: a fighter captures a fighter only "
            f"from a diagonally adjacent square, and {tn} is {where} {a.on}",
        )
    return None


_EXPLAIN = EXPLANATIONS.handlers


def is_legal(state: PrizmikState, act: PrizmikAction) -> bool:
    """Whether ``act`` is legal, by membership in the generated actions (slow path only)."""
    return act in set(iter_actions(state))

"""Carrying out PRIZMIK actions and deciding results.

Speed matters because a referee replays whole games on every read: ``apply`` builds one
new board string and one new state, reuses every counter tuple it does not change, and
decides by-rule results (PZ-8, PZ-10.7, PZ-10.8, PZ-10.11) from those counters; the
no-legal-action ending (PZ-10.6) needs move generation and is therefore found lazily by
``outcome``. The clause ids cited here are those of ``rulebook.toml``.
"""

from __future__ import annotations

from typing import Final

from referee.contract import (
    ONGOING,
    Outcome,
)
from referee.games.prizmik.board import (
    BASE,
    CHAR,
    EMPTY,
    FAR_HOME,
    FIGHTER,
    FLEET,
    KIND_OF,
    SEATS,
    SHIP,
    SIDE_OF,
    STACK,
)
from referee.games.prizmik.legal import has_action
from referee.games.prizmik.model import (
    PrizmikAction,
    PrizmikState,
)
from referee.kit.dispatch import Dispatch

__all__ = [
    "ENTRY_EFFECTS",
    "apply",
    "count_pieces",
    "decide",
    "files_closed",
    "outcome",
    "to_act",
    "to_move",
]

# -- clause ids --------------------------------------------------------------
WIN_ALL_BASES: Final = "PZ-8.1"
WIN_IMPOSSIBLE: Final = "PZ-8.2"
NO_LEGAL_ACTION: Final = "PZ-10.6"
BOTH_UNABLE: Final = "PZ-10.8"
FILES_CLOSED: Final = "PZ-10.13"
QUIET_LIMIT: Final = "PZ-10.11"


# -- counting ----------------------------------------------------------------
def count_pieces(board: str) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Per side (red, blue): bases (lone + fleets), ship holders, lone fighters."""
    bases = [0, 0]
    ships = [0, 0]
    fighters = [0, 0]
    for ch in board:
        if ch == EMPTY:
            continue
        side = SIDE_OF[ch]
        kind = KIND_OF[ch]
        if kind in (BASE, FLEET):
            bases[side] += 1
        if kind in (FLEET, STACK, SHIP):
            ships[side] += 1
        if kind == FIGHTER:
            fighters[side] += 1
    return (bases[0], bases[1]), (ships[0], ships[1]), (fighters[0], fighters[1])


def _unable(
    side: int, ships: tuple[int, int], fighters: tuple[int, int], reserves: tuple[int, int]
) -> bool:
    """PZ-10.7: ``side`` can never capture a base again."""
    return ships[side] == 0 and (fighters[side] == 0 or reserves[side] == 0)


_BASE_KINDS: Final = frozenset((BASE, FLEET))


def files_closed(board: str, ships: tuple[int, int]) -> bool:
    """PZ-10.13: no ship stands on the board, in any nest of either player, and every file
    has a base (lone or in a full fleet, either player's) on rank 1 or rank 8. Then no
    fighter can ever promote, since a promotion needs both ends of its file free of bases
    (the fighter on one end, the other end empty, PZ-7.1), and only a ship, which only a
    promotion can bring back, can remove a base: nobody can ever capture a base again."""
    if ships[0] or ships[1]:
        return False
    for f in range(8):
        if KIND_OF[board[f]] not in _BASE_KINDS and KIND_OF[board[56 + f]] not in _BASE_KINDS:
            return False
    return True


def decide(
    side: int,
    bases: tuple[int, int],
    ships: tuple[int, int],
    fighters: tuple[int, int],
    reserves: tuple[int, int],
    quiet: int,
    limit: int,
    *,
    closed: bool = False,
) -> Outcome | None:
    """The by-rule result after ``side`` acted, in the order of PZ-10.8, or None;
    ``closed``: ``files_closed`` found under ``impossible_test=files`` (PZ-10.13)."""
    opp = 1 - side
    mover, other = SEATS[side], SEATS[opp]
    if bases[opp] == 0:
        return Outcome("win", mover, WIN_ALL_BASES, f"{other} has no base left on the board")
    if closed:
        return Outcome(
            "draw",
            None,
            FILES_CLOSED,
            "neither player can ever capture a base again: no ship is on the board, and "
            "every file has a base on rank 1 or rank 8, so no fighter can ever promote",
        )
    opp_unable = _unable(opp, ships, fighters, reserves)
    mover_unable = _unable(side, ships, fighters, reserves)
    if opp_unable and mover_unable:
        return Outcome(
            "draw",
            None,
            BOTH_UNABLE,
            "neither player can ever capture a base again: neither has a ship, "
            "nor a lone fighter with a reserve fleet to promote",
        )
    if opp_unable or mover_unable:
        loser = opp if opp_unable else side
        return Outcome(
            "win",
            SEATS[1 - loser],
            WIN_IMPOSSIBLE,
            f"{SEATS[loser]} can never capture a base again (PZ-10.7): no ship on the board, "
            + (
                "and no lone fighter"
                if fighters[loser] == 0
                else "and no reserve fleet to promote a fighter into"
            ),
        )
    if limit and quiet >= limit:
        return Outcome(
            "draw",
            None,
            QUIET_LIMIT,
            f"{quiet} actions in a row without a capture or promotion (limit {limit})",
        )
    return None


_NOBODY: frozenset[str] = frozenset()
_ONLY = {seat: frozenset((seat,)) for seat in SEATS}


def to_act(state: PrizmikState) -> frozenset[str]:
    """The side to move, or nobody once the game has a result (stored or PZ-10.6)."""
    if outcome(state).over:
        return _NOBODY
    return _ONLY[state.turn]


def to_move(state: PrizmikState) -> str | None:
    """The side to move, or ``None`` once the game has a result."""
    if outcome(state).over:
        return None
    return state.turn


ENTRY_EFFECTS: Dispatch[PrizmikState, int, PrizmikState] = Dispatch("PRIZMIK entries")
"""What each kind (``deploy``, ``move``, ``capture``) does, given the acting side (0 red,
1 blue); the kit's idiom (``referee.kit.dispatch``), by the action's ``kind``. Each ends in
``_after``: a fighter's promotion (PZ-7), then the by-rule results (PZ-10.8)."""

_Counts = tuple[int, int]


def apply(state: PrizmikState, action: PrizmikAction, seat: str | None = None) -> PrizmikState:
    """The state after ``action`` (assumed legal); ``state`` is not touched."""
    return _EFFECTS[action.kind](state, action, 0 if state.turn == "red" else 1)


@ENTRY_EFFECTS.tagged("move")
def _apply_move(state: PrizmikState, action: PrizmikAction, side: int) -> PrizmikState:
    board = state.board
    o = action.origin
    t = action.target
    p = board[o]
    if o < t:
        board = board[:o] + EMPTY + board[o + 1 : t] + p + board[t + 1 :]
    else:
        board = board[:t] + p + board[t + 1 : o] + EMPTY + board[o + 1 :]
    arrived = p == CHAR[side][FIGHTER] and _reaches(state, side, o)
    return _after(
        state,
        side,
        board,
        t,
        arrived,
        state.bases,
        state.ships,
        state.fighters,
        state.quiet + 1,
        o,
    )


@ENTRY_EFFECTS.tagged("deploy")
def _apply_deploy(state: PrizmikState, action: PrizmikAction, side: int) -> PrizmikState:
    """PZ-4: a fleet leaves a lone base and a ship stack; a stack, a lone ship and a
    fighter (which has arrived, and may be promoted)."""
    board = state.board
    o = action.origin
    t = action.target
    fighters = state.fighters
    if KIND_OF[board[o]] == FLEET:
        left, right = CHAR[side][BASE], CHAR[side][STACK]
        arrived = False
    else:
        left, right = CHAR[side][SHIP], CHAR[side][FIGHTER]
        fighters = (fighters[0] + 1, fighters[1]) if side == 0 else (fighters[0], fighters[1] + 1)
        arrived = True
    if o < t:
        board = board[:o] + left + board[o + 1 : t] + right + board[t + 1 :]
    else:
        board = board[:t] + right + board[t + 1 : o] + left + board[o + 1 :]
    return _after(
        state, side, board, t, arrived, state.bases, state.ships, fighters, state.quiet + 1
    )


@ENTRY_EFFECTS.tagged("capture")
def _apply_capture(state: PrizmikState, action: PrizmikAction, side: int) -> PrizmikState:
    """The captured piece leaves the board and its side's counters (a full fleet is a base
    and a ship holder)."""
    board = state.board
    o = action.origin
    t = action.target
    p = board[o]
    bases, ships, fighters = state.bases, state.ships, state.fighters
    victim = KIND_OF[board[t]]
    if victim == FIGHTER:
        fighters = (fighters[0], fighters[1] - 1) if side == 0 else (fighters[0] - 1, fighters[1])
    else:
        if victim != BASE:
            ships = (ships[0], ships[1] - 1) if side == 0 else (ships[0] - 1, ships[1])
        if victim in (BASE, FLEET):
            bases = (bases[0], bases[1] - 1) if side == 0 else (bases[0] - 1, bases[1])
    if o < t:
        board = board[:o] + EMPTY + board[o + 1 : t] + p + board[t + 1 :]
    else:
        board = board[:t] + p + board[t + 1 : o] + EMPTY + board[o + 1 :]
    arrived = p == CHAR[side][FIGHTER] and _reaches(state, side, o)
    return _after(state, side, board, t, arrived, bases, ships, fighters, 0, o)


_EFFECTS = ENTRY_EFFECTS.handlers


def _reaches(state: PrizmikState, side: int, origin: int) -> bool:
    """Whether a lone fighter moving or capturing from ``origin`` reaches its far rank by it
    (PZ-7.1): any step onto a far-rank square under the default ``far_rank_step`` (PZ-10.5),
    else only from another rank. A deployed fighter was no lone fighter before, so it always
    arrives."""
    return state.variants.far_rank_step or FAR_HOME[side][origin] < 0


def _less(counts: _Counts, side: int) -> _Counts:
    return (counts[0] - 1, counts[1]) if side == 0 else (counts[0], counts[1] - 1)


def _more(counts: _Counts, side: int) -> _Counts:
    return (counts[0] + 1, counts[1]) if side == 0 else (counts[0], counts[1] + 1)


def _after(  # noqa: PLR0913, PLR0917 - the move's hot path: counts passed as they are, unwrapped
    state: PrizmikState,
    side: int,
    board: str,
    t: int,
    arrived: bool,
    bases: _Counts,
    ships: _Counts,
    fighters: _Counts,
    quiet: int,
    vacated: int = -1,
) -> PrizmikState:
    """The new state once ``side``'s piece is on ``t``: a fighter that ``arrived`` there may
    be promoted (PZ-7), and under ``waiting_promotion`` a fighter waiting on its far rank
    whose home square the action ``vacated`` (PZ-10.15); then the by-rule results are
    decided (PZ-10.8)."""
    reserves = state.reserves
    if arrived:
        home = FAR_HOME[side][t]
        if home >= 0 and reserves[side] and board[home] == EMPTY:
            # PZ-7.1/7.2: the fighter leaves t and a reserve fleet lands on home.
            fleet = CHAR[side][FLEET]
            if home < t:
                board = board[:home] + fleet + board[home + 1 : t] + EMPTY + board[t + 1 :]
            else:
                board = board[:t] + EMPTY + board[t + 1 : home] + fleet + board[home + 1 :]
            fighters = _less(fighters, side)
            ships = _more(ships, side)
            bases = _more(bases, side)
            reserves = _less(reserves, side)
            quiet = 0
    if vacated >= 0 and state.variants.waiting_promotion and board[vacated] == EMPTY:
        waiting = _waiting_promotion(board, vacated, side, bases, reserves)
        if waiting is not None:
            board, owner = waiting
            fighters = _less(fighters, owner)
            ships = _more(ships, owner)
            bases = _more(bases, owner)
            reserves = _less(reserves, owner)
            quiet = 0
    # PZ-10.8: the order of end checks; the common case is decided by the
    # first test (both sides keep a base and a way to capture one).
    opp = 1 - side
    limit = state.variants.quiet_limit
    # PZ-10.13 can apply only with no ship on the board: asked only when opp has none.
    if (
        bases[opp]
        and (
            ships[opp]
            or (
                fighters[opp]
                and reserves[opp]
                and (ships[side] or state.variants.impossible_test == "pieces")
            )
        )
        and (ships[side] or (fighters[side] and reserves[side]))
        and not (limit and quiet >= limit)
    ):
        result = state.result
    else:
        closed = state.variants.impossible_test == "files" and files_closed(board, ships)
        result = state.result or decide(
            side, bases, ships, fighters, reserves, quiet, limit, closed=closed
        )
    return PrizmikState(
        board,
        "blue" if side == 0 else "red",
        state.ply + 1,
        reserves,
        bases,
        ships,
        fighters,
        quiet,
        state.variants,
        state.ruleset,
        result,
    )


def _waiting_promotion(
    board: str, vacated: int, side: int, bases: _Counts, reserves: _Counts
) -> tuple[str, int] | None:
    """PZ-10.15 under ``waiting_promotion=yes``: the action has just emptied ``vacated``; if
    that is a home square, and its owner's lone fighter stands on the far-rank square of the
    same file with a reserve fleet left, the fighter promotes (PZ-7.2): the new board and the
    owner. Not when the actor has just taken the owner's last base: that wins at once (PZ-8.1).
    """
    if vacated < 8:
        owner, far = 0, vacated + 56
    elif vacated >= 56:
        owner, far = 1, vacated - 56
    else:
        return None
    if board[far] != CHAR[owner][FIGHTER] or not reserves[owner]:
        return None
    if owner != side and not bases[owner]:
        return None
    cells = list(board)
    cells[far] = EMPTY
    cells[vacated] = CHAR[owner][FLEET]
    return "".join(cells), owner


_memo: list[tuple[PrizmikState, Outcome]] = []
"""The last position ``outcome`` judged and its result: to_move and outcome ask in turn."""


def outcome(state: PrizmikState) -> Outcome:
    """The stored by-rule result, else PZ-10.6 if the side to move is stuck, else ongoing."""
    if state.result is not None:
        return state.result
    if _memo and _memo[0][0] is state:
        return _memo[0][1]
    result = _no_action_outcome(state)
    _memo[:] = [(state, result)]
    return result


def _no_action_outcome(state: PrizmikState) -> Outcome:
    if not has_action(state):
        mover = state.turn
        other = "blue" if mover == "red" else "red"
        if state.variants.no_legal_action == "draw":
            return Outcome(
                "draw", None, NO_LEGAL_ACTION, f"{mover} has no legal action on their turn"
            )
        return Outcome("win", other, NO_LEGAL_ACTION, f"{mover} has no legal action on their turn")
    return ONGOING

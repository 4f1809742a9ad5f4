"""Shared helpers for the PRIZMIK tests, including an independent reference model.

The reference model below is written from the rulebook on purpose in a
different, naive style (coordinates, dicts, no precomputed tables) so that the
property tests compare two implementations instead of one with itself.
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


# -- the reference model --------------------------------------------------------

FILES = "abcdefgh"


def _name(f: int, r: int) -> str:
    return f"{FILES[f]}{r + 1}"


def _grid(board: str) -> dict[tuple[int, int], str]:
    return {(i % 8, i // 8): ch for i, ch in enumerate(board)}


def _owner(ch: str) -> str | None:
    if ch == ".":
        return None
    return "red" if ch.isupper() else "blue"


def ref_actions(board: str, turn: str, fleet_capturable: bool = True) -> set[str]:
    """Every legal action text by the rulebook, computed naively."""
    grid = _grid(board)
    fwd = 1 if turn == "red" else -1
    out: set[str] = set()
    all8 = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]
    ortho = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    for (f, r), ch in grid.items():
        if _owner(ch) != turn:
            continue
        kind = ch.upper()
        here = _name(f, r)

        def cell(df: int, dr: int, f: int = f, r: int = r) -> str | None:
            return grid.get((f + df, r + dr))

        if kind == "F":
            for df, dr in ((-1, 0), (1, 0), (0, fwd)):
                if cell(df, dr) == ".":
                    out.add(f"{here}>{_name(f + df, r + dr)}")
        if kind == "S":
            for df, dr in ortho:
                if cell(df, dr) == ".":
                    out.add(f"{here}>{_name(f + df, r + dr)}")
        if kind in "SHX":
            for df, dr in all8:
                if cell(df, dr) == ".":
                    out.add(f"{here}-{_name(f + df, r + dr)}")
        if kind in "SH":
            for df, dr in ortho:
                if cell(df, dr) == "." and cell(2 * df, 2 * dr) == ".":
                    out.add(f"{here}-{_name(f + 2 * df, r + 2 * dr)}")
            for df, dr in all8:
                target = cell(df, dr)
                if (
                    target
                    and _owner(target) not in (None, turn)
                    and (target.upper() == "B" or (target.upper() == "F" and fleet_capturable))
                ):
                    out.add(f"{here}x{_name(f + df, r + dr)}")
        if kind == "X":
            for df, dr in all8:
                target = cell(df, dr)
                if not target or _owner(target) in (None, turn):
                    continue
                diagonal = df != 0 and dr != 0
                if (not diagonal and target.upper() in "SH") or (
                    diagonal and target.upper() == "X"
                ):
                    out.add(f"{here}x{_name(f + df, r + dr)}")
    return out


def ref_apply(
    board: str,
    turn: str,
    reserves: tuple[int, int],
    text: str,
    far_rank_step: bool = True,
    waiting_promotion: bool = False,
) -> tuple[str, tuple[int, int]]:
    """The board and reserves after a legal action, computed naively; with
    ``far_rank_step`` off a fighter that moves or captures from its far rank has not
    reached it (PZ-10.5), while a deployed fighter always has. With ``waiting_promotion``
    a home square that held a piece before the action and none after it lets its owner's
    lone fighter waiting on the far end of that file promote, unless the action took that
    owner's last base (PZ-10.15, PZ-8.1)."""
    cells = list(board)
    o = (int(text[1]) - 1) * 8 + FILES.index(text[0])
    t = (int(text[4]) - 1) * 8 + FILES.index(text[3])
    sign = text[2]
    red = turn == "red"
    piece = cells[o]
    if sign == ">":
        if piece.upper() == "F":
            cells[o], cells[t] = ("B", "S") if red else ("b", "s")
        else:
            cells[o], cells[t] = ("H", "X") if red else ("h", "x")
    else:
        cells[o], cells[t] = ".", piece
    landed = cells[t]
    far = 7 if red else 0
    res = list(reserves)
    side = 0 if red else 1
    arrived = sign == ">" or far_rank_step or o // 8 != far
    if landed.upper() == "X" and t // 8 == far and arrived:
        home = (0 if red else 7) * 8 + t % 8
        if cells[home] == "." and res[side] > 0:
            cells[t] = "."
            cells[home] = "F" if red else "f"
            res[side] -= 1
    if waiting_promotion:
        for seat, home_rank, fighter, fleet in (("red", 0, "X", "F"), ("blue", 7, "x", "f")):
            owner = 0 if seat == "red" else 1
            if seat != turn and ref_bases("".join(cells), seat) == 0:
                continue
            for f in range(8):
                home, far_sq = home_rank * 8 + f, (7 - home_rank) * 8 + f
                emptied = board[home] != "." and cells[home] == "."
                if emptied and cells[far_sq] == fighter and res[owner] > 0:
                    cells[far_sq], cells[home] = ".", fleet
                    res[owner] -= 1
    return "".join(cells), (res[0], res[1])


def ref_unable(board: str, seat: str, reserves: tuple[int, int]) -> bool:
    """PZ-10.7 judged from the board."""
    mine = [ch for ch in board if _owner(ch) == seat]
    ships = sum(1 for ch in mine if ch.upper() in "FSH")
    fighters = sum(1 for ch in mine if ch.upper() == "X")
    reserve = reserves[0 if seat == "red" else 1]
    return ships == 0 and (fighters == 0 or reserve == 0)


def ref_bases(board: str, seat: str) -> int:
    return sum(1 for ch in board if _owner(ch) == seat and ch.upper() in "FB")


def ref_closed(board: str) -> bool:
    """PZ-10.13 judged from the board: no ship in any nest, a base at an end of every file."""
    if any(ch.upper() in "FSH" for ch in board):
        return False
    return all(board[f].upper() in "FB" or board[56 + f].upper() in "FB" for f in range(8))

"""What each viewer sees of a PRIZMIK position: everything is on the board, so every
viewer sees the same."""

from __future__ import annotations

from typing import Any

from referee.contract import (
    REFEREE,
    Viewer,
)
from referee.games.prizmik.board import (
    EMPTY,
    FILES,
    SEATS,
    SQUARE_NAMES,
    piece_name,
)
from referee.games.prizmik.engine import outcome
from referee.games.prizmik.model import (
    DEFAULT_VARIANTS,
    PrizmikState,
)

__all__ = ["observe", "render", "secrets"]


def render(state: PrizmikState, viewer: Viewer = REFEREE) -> str:
    """The board for a terminal, rank 8 at the top, with a legend and the status."""
    board = state.board
    files = "    " + " ".join(FILES)
    lines = [files]
    for rank in range(7, -1, -1):
        row = " ".join(board[rank * 8 : rank * 8 + 8])
        lines.append(f" {rank + 1}  {row}  {rank + 1}")
    lines.append(files)
    lines.append("")
    lines.append(
        "Legend: red upper case, blue lower case. F full fleet (base+ship+fighter), B lone base,"
    )
    lines.append("        S ship stack (ship+fighter), H lone ship, X lone fighter, . empty")
    lines.append(f"Reserve fleets: red {state.reserves[0]}, blue {state.reserves[1]}")
    result = outcome(state)
    if result.over:
        decided = f"{result.winner} wins" if result.status == "win" else "draw"
        lines.append(f"Ply {state.ply}. Result: {decided} by {result.clause}: {result.reason}")
    else:
        lines.append(f"Ply {state.ply}.")  # whose turn: the faces say it, with the player's name
    changed = {
        k: v for k, v in state.variants.as_dict().items() if v != DEFAULT_VARIANTS.as_dict()[k]
    }
    if changed:
        lines.append("Variants: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    return "\n".join(lines)


def observe(state: PrizmikState, viewer: Viewer = REFEREE) -> dict[str, Any]:
    """The position as JSON-ready data: pieces by square, side to move, counts, result.
    Everything in PRIZMIK is on the board, so every viewer sees the same."""
    result = outcome(state)
    return {
        "game": "prizmik",
        "ruleset": state.ruleset,
        "board": {
            SQUARE_NAMES[sq]: piece_name(ch) for sq, ch in enumerate(state.board) if ch != EMPTY
        },
        "to_move": None if result.over else state.turn,
        "ply": state.ply,
        "reserves": {"red": state.reserves[0], "blue": state.reserves[1]},
        "counts": {
            seat: {
                "bases": state.bases[i],
                "ship_holders": state.ships[i],
                "lone_fighters": state.fighters[i],
            }
            for i, seat in enumerate(SEATS)
        },
        "quiet": state.quiet,
        "variants": state.variants.as_dict(),
        "result": result.result,
        "outcome": {
            "status": result.status,
            "winner": result.winner,
            "clause": result.clause,
            "reason": result.reason,
        },
    }


def secrets(state: PrizmikState, seat: str) -> frozenset[str]:
    """Nothing in PRIZMIK is hidden."""
    return frozenset()

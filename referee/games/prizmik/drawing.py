"""The PRIZMIK board as SVG, from ``observe`` output (everything in PRIZMIK is on the
board, so every viewer sees the same drawing).

Each piece is drawn from its parts in its side's colour (base: a square, ship: a
triangle pointing the way its side advances, fighter: a dot); the squares the
last entry names are marked (``from`` outlined, ``to`` filled); each side's
reserve and the side to move are written under the board. Every square carries
its name in ``data-notation`` (``e2``), so a page can put it in the entry line;
a square holding a piece of the side not to move joins with ``x`` (a capture),
others with ``-`` (a move). Turning the board round is left to the page (the
``rotor`` group, with letters in ``glyph`` elements that can be turned back).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from referee.kit.svg import Canvas, Sight

__all__ = ["draw"]

FILES = "abcdefgh"
SQ = 60
MARGIN = 22
SIDE_COLOURS = {"red": "#c62828", "blue": "#1565c0"}


def _piece(canvas: Canvas, square: str, name: str, x: float, y: float, join: str) -> None:
    words = name.split()
    side = words[0] if words else ""
    kind = " ".join(words[1:])
    colour = SIDE_COLOURS.get(side, "#555")
    has_base = kind in ("full fleet", "base")
    has_ship = kind in ("full fleet", "ship stack", "lone ship", "ship")
    has_fighter = kind in ("full fleet", "ship stack", "lone fighter", "fighter")
    cx, cy = x + SQ / 2, y + SQ / 2
    canvas.open(
        class_="piece", data_square=square, data_piece=name, data_notation=square, data_join=join
    )
    canvas.title(f"{square}: {name}")
    if has_base:
        canvas.rect(
            x + 7, y + 7, SQ - 14, SQ - 14, class_="base", rx=7, fill=colour, stroke="#222",
            stroke_width=2,
        )  # fmt: skip
    if has_ship:
        fill = "#fff" if has_base else colour
        stroke = colour if has_base else "#222"
        forward = -1 if side == "red" else 1
        tip, back = cy + forward * 17, cy - forward * 13
        canvas.polygon(
            [(cx, tip), (cx - 14, back), (cx + 14, back)],
            class_="ship", fill=fill, stroke=stroke, stroke_width=2,
        )  # fmt: skip
    if has_fighter:  # on a ship: a small yellow dot; alone: a dot in its side's colour
        radius, fill = (5, "#ffd54f") if has_ship else (10, colour)
        canvas.circle(cx, cy, radius, class_="fighter", fill=fill, stroke="#222", stroke_width=1.5)
    canvas.close()


def _marked(last: str | None) -> list[str]:
    """The squares the last entry names, origin first (the actor's name is skipped)."""
    if not last or not last.split():
        return []
    return re.findall(r"[a-h][1-8]", last.split()[-1])


def draw(position: Mapping[str, Any], sight: Sight) -> str:
    """The board of ``position`` with the last entry's squares marked."""
    players, last = sight.players, sight.last
    pieces: Mapping[str, str] = position.get("board", {}) or {}
    to_move = position.get("to_move")
    marked = _marked(last)
    size = 8 * SQ + 2 * MARGIN
    canvas = Canvas()
    canvas.open(class_="rotor")
    for rank in range(8):
        for file in range(8):
            square = f"{FILES[file]}{rank + 1}"
            x, y = MARGIN + file * SQ, MARGIN + (7 - rank) * SQ
            shade = "#e9dcc0" if (file + rank) % 2 else "#b58863"
            canvas.rect(
                x, y, SQ, SQ, class_="square", data_square=square, data_notation=square,
                data_join="-", fill=shade,
            )  # fmt: skip
    for square in marked:
        file, rank = FILES.index(square[0]), int(square[1]) - 1
        x, y = MARGIN + file * SQ, MARGIN + (7 - rank) * SQ
        role = "to" if square == marked[-1] else "from"
        canvas.rect(
            x + 2, y + 2, SQ - 4, SQ - 4, class_=f"last last-{role}", data_square=square,
            fill="#fff176" if role == "to" else "none", fill_opacity=0.75, stroke="#f9a825",
            stroke_width=4, pointer_events="none",
        )  # fmt: skip
    for square, name in sorted(pieces.items()):
        file, rank = FILES.index(square[0]), int(square[1]) - 1
        x, y = MARGIN + file * SQ, MARGIN + (7 - rank) * SQ
        side = str(name).split()[0] if str(name).split() else ""
        join = "x" if to_move and side and side != to_move else "-"
        _piece(canvas, square, str(name), x, y, join)
    for index in range(8):
        mid = MARGIN + index * SQ + SQ / 2
        row = MARGIN + (7 - index) * SQ + SQ / 2 + 5
        for tx, ty, label in (
            (mid, size - 6, FILES[index]),
            (mid, 15, FILES[index]),
            (11, row, str(index + 1)),
            (size - 11, row, str(index + 1)),
        ):
            canvas.text(tx, ty, label, 13, class_="glyph coord", text_anchor="middle", fill="#333")
    canvas.close()
    reserves: Mapping[str, Any] = position.get("reserves", {}) or {}
    x = MARGIN
    for index, (seat, count) in enumerate(reserves.items()):
        y = size + 20 + index * 22
        colour = SIDE_COLOURS.get(seat, "#555")
        canvas.open(class_="seat", data_seat=seat)
        canvas.circle(x + 7, y - 5, 7, fill=colour)
        acting = ", to move" if seat == to_move else ""
        canvas.text(
            x + 20, y, f"{seat} ({players.get(seat, '')}): {count} in reserve{acting}", 15,
            fill="#222", font_weight="600" if acting else None,
        )  # fmt: skip
        canvas.close()
    height: float = size + 12 + 22 * len(reserves)
    result = position.get("result")
    if result and result != "*":
        canvas.text(MARGIN, height + 8, f"result {result}", 15, fill="#222", class_="result")
        height += 22
    return canvas.finish_for(
        sight, game="prizmik", what="PRIZMIK board", width=size, height=height, glue=">-x"
    )

"""Drawing a position for the pages, from the JSON-ready data a game's ``observe``
returns for the viewer (so a drawing can only show what that viewer may see).

- PRIZMIK: the 8x8 board as SVG; each piece drawn from its parts (base: a
  square, ship: a triangle, fighter: a dot) in its side's colour; the last
  action's squares marked.
- Prismata: each player's units as tiles (health, ready, blocking), resources
  and defence, the unit the last action named marked.
- Any other game (the card games): each seat's zones as rows of cards and
  counts, from whatever ``observe`` gives; and for every game the game's own
  text drawing under "as text", so a game with no drawing here still shows.

Flipping sides is done by the page's CSS (class ``flipped``), so one drawing
serves both orientations. Every text is escaped; a drawing that fails falls
back to the text.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from html import escape
from typing import Any

__all__ = ["render_board"]

log = logging.getLogger("referee.web.boards")

Drawer = Callable[[dict[str, Any], dict[str, str], str | None], str]

SIDE_COLOURS = {"red": "#c62828", "blue": "#1565c0"}
SEAT_COLOURS = ("#c62828", "#1565c0", "#2e7d32", "#6a1b9a")


def render_board(
    game: str,
    position: dict[str, Any],
    *,
    players: dict[str, str] | None = None,
    last: str | None = None,
    text: str = "",
) -> str:
    """The position as HTML (SVG inside), with the text drawing beneath."""
    drawer = DRAWERS.get(game, _cards)
    try:
        drawing = drawer(position, players or {}, last)
    except Exception:
        log.exception("cannot draw a %s position; showing its text", game)
        drawing = ""
    fallback = (
        (
            f'<details class="as-text"{" open" if not drawing else ""}><summary>as text</summary>'
            f'<pre class="board-text">{escape(text)}</pre></details>'
        )
        if text
        else ""
    )
    return (
        f'<div class="board board-{escape(game)}" '
        f'data-game="{escape(game)}">{drawing}{fallback}</div>'
    )


# -- PRIZMIK ----------------------------------------------------------------------

FILES = "abcdefgh"
SQ = 60
MARGIN = 22
_SQUARE = re.compile(r"[a-h][1-8]")


def _prizmik_piece(name: str, x: float, y: float) -> str:
    words = name.split()
    side = words[0] if words else ""
    kind = " ".join(words[1:])
    colour = SIDE_COLOURS.get(side, "#555")
    has_base = kind in ("full fleet", "base")
    has_ship = kind in ("full fleet", "ship stack", "lone ship")
    has_fighter = kind in ("full fleet", "ship stack", "lone fighter")
    cx, cy = x + SQ / 2, y + SQ / 2
    parts: list[str] = []
    if has_base:
        parts.append(
            f'<rect class="base" x="{x + 7}" y="{y + 7}" width="{SQ - 14}" height="{SQ - 14}" '
            f'rx="7" fill="{colour}" stroke="#222" stroke-width="2"/>'
        )
    if has_ship:
        fill = "#fff" if has_base else colour
        stroke = colour if has_base else "#222"
        forward = -1 if side == "red" else 1
        tip, back = cy + forward * 17, cy - forward * 13
        parts.append(
            f'<polygon class="ship" points="{cx},{tip} {cx - 14},{back} {cx + 14},{back}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="2"/>'
        )
    if has_fighter:  # on a ship: a small yellow dot; alone: a dot in its side's colour
        radius, fill = (5, "#ffd54f") if has_ship else (10, colour)
        parts.append(
            f'<circle class="fighter" cx="{cx}" cy="{cy}" r="{radius}" fill="{fill}" '
            f'stroke="#222" stroke-width="1.5"/>'
        )
    return (
        f'<g class="piece" data-square="" data-piece="{escape(name)}"><title>{escape(name)}</title>'
        f"{''.join(parts)}</g>"
    )


def _prizmik(position: dict[str, Any], players: dict[str, str], last: str | None) -> str:
    pieces: dict[str, str] = position.get("board", {})
    marked = _SQUARE.findall((last or "").split()[-1]) if last and last.split() else []
    size = 8 * SQ + 2 * MARGIN
    out = [
        (
            f'<svg class="prizmik" viewBox="0 0 {size} {size}" '
            'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="PRIZMIK board"><g '
            'class="rotor">'
        )
    ]
    for rank in range(8):
        for file in range(8):
            square = f"{FILES[file]}{rank + 1}"
            x, y = MARGIN + file * SQ, MARGIN + (7 - rank) * SQ
            shade = "#e9dcc0" if (file + rank) % 2 else "#b58863"
            out.append(
                f'<rect class="square" data-square="{square}" x="{x}" y="{y}" width="{SQ}" '
                f'height="{SQ}" fill="{shade}"/>'
            )
            if square in marked:
                role = "to" if marked and square == marked[-1] else "from"
                out.append(
                    f'<rect class="last last-{role}" data-square="{square}" x="{x + 2}" '
                    f'y="{y + 2}" width="{SQ - 4}" height="{SQ - 4}" '
                    f'fill="{"#fff176" if role == "to" else "none"}" fill-opacity="0.75" '
                    'stroke="#f9a825" stroke-width="4"/>'
                )
    for square, name in sorted(pieces.items()):
        file, rank = FILES.index(square[0]), int(square[1]) - 1
        x, y = MARGIN + file * SQ, MARGIN + (7 - rank) * SQ
        out.append(
            _prizmik_piece(name, x, y).replace('data-square=""', f'data-square="{square}"', 1)
        )
    for index in range(8):
        mid = MARGIN + index * SQ + SQ / 2
        out.append(
            f'<text class="glyph coord" x="{mid}" y="{size - 6}" '
            f'text-anchor="middle">{FILES[index]}</text>'
        )
        out.append(
            f'<text class="glyph coord" x="{mid}" y="15" text-anchor="middle">{FILES[index]}</text>'
        )
        out.append(
            f'<text class="glyph coord" x="11" y="{MARGIN + (7 - index) * SQ + SQ / 2 + 5}" '
            f'text-anchor="middle">{index + 1}</text>'
        )
        out.append(
            f'<text class="glyph coord" x="{size - 11}" '
            f'y="{MARGIN + (7 - index) * SQ + SQ / 2 + 5}" '
            f'text-anchor="middle">{index + 1}</text>'
        )
    out.append("</g></svg>")
    reserves = position.get("reserves", {})
    info = " · ".join(
        f'<span class="seat-{escape(s)}">{escape(s)} ({escape(players.get(s, ""))}): '
        f"{escape(str(n))} in reserve</span>"
        for s, n in reserves.items()
    )
    return "".join(out) + (f'<p class="board-info">{info}</p>' if info else "")


# -- Prismata -------------------------------------------------------------------------

TILE_W, TILE_H, PER_ROW = 92, 64, 7


def _prismata(position: dict[str, Any], players: dict[str, str], last: str | None) -> str:
    seats: list[str] = list(position.get("seats") or list(players) or ["p1", "p2"])
    units: dict[str, dict[str, Any]] = position.get("units", {})
    blocking = set(position.get("blocking", []))
    marked = {int(n) for n in re.findall(r"#(\d+)", last or "")}
    active = position.get("active")
    resources = position.get("res", [])
    defense = position.get("defense", [])
    panels: list[str] = []
    for index, seat in enumerate(seats):
        own = [u for u in units.values() if u.get("owner") == index]
        own.sort(key=lambda u: (str(u.get("kind")), int(u.get("id", 0))))
        rows = max(1, (len(own) + PER_ROW - 1) // PER_ROW)
        width, height = PER_ROW * TILE_W + 8, rows * TILE_H + 8
        tiles: list[str] = []
        for n, unit in enumerate(own):
            x, y = 4 + (n % PER_ROW) * TILE_W, 4 + (n // PER_ROW) * TILE_H
            uid = int(unit.get("id", 0))
            status = str(unit.get("status", "") or "")
            classes = ["unit", f"status-{status or 'none'}"]
            if uid in blocking:
                classes.append("blocking")
            if uid in marked:
                classes.append("marked")
            fill = "#e8f5e9" if status == "ready" else "#eceff1" if status else "#fff"
            stroke = "#ff6f00" if uid in marked else ("#1565c0" if uid in blocking else "#607d8b")
            kind = str(unit.get("kind", "?"))
            label = kind if len(kind) <= 12 else kind[:11] + "…"
            tiles.append(
                f'<g class="{" ".join(classes)}" data-unit="{uid}"><title>#{uid} {escape(kind)}'
                f"{' (' + escape(status) + ')' if status else ''}"
                f"{' blocking' if uid in blocking else ''}</title>"
                f'<rect x="{x}" y="{y}" width="{TILE_W - 6}" height="{TILE_H - 6}" rx="6" '
                f'fill="{fill}" stroke="{stroke}" stroke-width="{4 if uid in marked else 2}"/>'
                f'<text x="{x + 6}" y="{y + 17}" class="unit-name">{escape(label)}</text><text '
                f'x="{x + 6}" y="{y + 34}" class="unit-meta">#{uid} · '
                f"{escape(str(unit.get('health', '')))}"
                f' hp</text><text x="{x + 6}" y="{y + 50}" '
                f'class="unit-meta">{escape(status)}</text>'
                + (
                    f'<rect x="{x + TILE_W - 20}" y="{y + 4}" width="10" height="10" '
                    'fill="#1565c0"/>'
                    if uid in blocking
                    else ""
                )
                + "</g>"
            )
        res = resources[index] if index < len(resources) else {}
        res_text = (
            ", ".join(f"{escape(str(k))} {escape(str(v))}" for k, v in res.items()) or "nothing"
        )
        shield = defense[index] if index < len(defense) else "?"
        acting = (
            ' <b class="to-act">to act</b>'
            if active == index and not position.get("result")
            else ""
        )
        colour = SEAT_COLOURS[index % len(SEAT_COLOURS)]
        panels.append(
            f'<section class="seat" data-seat="{escape(seat)}" style="border-color:{colour}">'
            f'<h3><span class="dot" style="background:{colour}"></span>{escape(seat)} '
            f"({escape(players.get(seat, ''))}){acting}</h3>"
            f'<p class="seat-info">{res_text}; defence {escape(str(shield))}; {len(own)} units</p>'
            f'<svg class="units" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'
            f"{''.join(tiles)}</svg></section>"
        )
    head = (
        f'<p class="board-info">turn {escape(str(position.get("turn", "")))}, '
        f"{escape(str(position.get('phase', '')))} phase</p>"
    )
    return head + f'<div class="seats">{"".join(panels)}</div>'


# -- anything else: seats and their zones ------------------------------------------------


def _chip(key: str, value: Any) -> str:
    return f'<span class="chip"><b>{escape(str(key))}</b> {escape(_short(value))}</span>'


def _short(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return (
            ", ".join(
                f"{k} {_short(v)}" if not isinstance(v, dict) else f"{k}: {_short(v)}"
                for k, v in value.items()
            )
            or "-"
        )
    if isinstance(value, list):
        return ", ".join(_short(v) for v in value) or "-"
    return str(value)


def _cards_row(names: list[str], label: str) -> str:
    if not names:
        return (
            f'<div class="zone"><span class="zone-name">{escape(label)}</span> <i>empty</i></div>'
        )
    width = len(names) * 74 + 4
    cards = "".join(
        f'<g class="card"><rect x="{4 + i * 74}" y="4" width="68" height="92" rx="7" '
        f'fill="#fffdf5" stroke="#5d4037" stroke-width="2"/><text x="{38 + i * 74}" y="54" '
        'text-anchor="middle" '
        f'class="card-name">{escape(str(n)[:11])}</text><title>{escape(str(n))}</title></g>'
        for i, n in enumerate(names)
    )
    return (
        f'<div class="zone"><span class="zone-name">{escape(label)}</span>'
        f'<svg class="cards" viewBox="0 0 {width} 100" style="max-width:{width}px" '
        f'xmlns="http://www.w3.org/2000/svg">{cards}</svg></div>'
    )


def _counted(label: str, count: int) -> str:
    if count <= 0:
        return (
            f'<div class="zone"><span class="zone-name">{escape(label)}</span> <span '
            'class="count">0</span></div>'
        )
    shown = min(count, 12)
    backs = "".join(
        f'<rect x="{4 + i * 9}" y="4" width="40" height="56" rx="5" fill="#546e7a" '
        'stroke="#263238"/>'
        for i in range(shown)
    )
    width = 4 + max(shown - 1, 0) * 9 + 44
    return (
        f'<div class="zone"><span class="zone-name">{escape(label)}</span>'
        f'<svg class="pile" viewBox="0 0 {width} 64" style="max-width:{width}px" '
        f'xmlns="http://www.w3.org/2000/svg">{backs}</svg> <span class="count">{count}</span></div>'
    )


def _zone(key: str, value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return _cards_row(list(value), key)
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and key in ("hand", "deck", "library", "discard", "graveyard", "pool", "bag")
    ):
        return _counted(key, value)
    return _chip(key, value)


def _cards(position: dict[str, Any], players: dict[str, str], last: str | None) -> str:
    seats = position.get("seats") or position.get("players")
    if not isinstance(seats, dict) or not seats:
        return ""
    header = "".join(
        _chip(k, v)
        for k, v in position.items()
        if k not in ("seats", "players", "viewer") and not isinstance(v, dict | list)
    )
    panels: list[str] = []
    for index, (seat, data) in enumerate(seats.items()):
        colour = SEAT_COLOURS[index % len(SEAT_COLOURS)]
        zones = (
            "".join(_zone(str(k), v) for k, v in data.items())
            if isinstance(data, dict)
            else _chip("", data)
        )
        panels.append(
            f'<section class="seat" data-seat="{escape(str(seat))}" style="border-color:{colour}">'
            f'<h3><span class="dot" style="background:{colour}"></span>{escape(str(seat))} '
            f"({escape(players.get(str(seat), ''))})</h3>{zones}</section>"
        )
    return f'<p class="board-info">{header}</p><div class="seats">{"".join(panels)}</div>'


DRAWERS: dict[str, Drawer] = {"prizmik": _prizmik, "prismata": _prismata}

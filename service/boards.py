"""The position as the pages show it: the game's own drawing (``referee.drawings``, one
standalone SVG per game, from the JSON-ready data a game's ``observe`` returns for
the viewer, so a drawing can only show what that viewer may see), with the game's
text drawing beneath under "as text".

A game with no drawing module of its own (a test game) is shown as each seat's
zones in rows of cards and counts, from whatever ``observe`` gives. Flipping sides
is done by the page's CSS (class ``flipped``), so one drawing serves both
orientations. Every text is escaped; a drawing that fails falls back to the text.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING, Any

from referee import drawings

if TYPE_CHECKING:
    from service.results import PositionView

__all__ = ["render_board", "render_position"]

log = logging.getLogger("referee.web.boards")  # the name the logs have always used

SEAT_COLOURS = ("#c62828", "#1565c0", "#2e7d32", "#6a1b9a")


def render_board(
    game: str,
    position: Mapping[str, Any],
    *,
    players: Mapping[str, str] | None = None,
    last: str | None = None,
    text: str = "",
    viewer: str = "referee",
    svg: str | None = None,
) -> str:
    """The position as HTML (the game's SVG drawing inline, or ``svg`` when the service
    drew it already), with the text drawing beneath. ``last`` is the last entry's
    notation (a leading seat is dropped)."""
    try:
        if svg is not None:
            drawing = svg
        elif drawings.has_drawing(game):
            last = re.sub(r"^\d+\.\s+", "", last or "") or None  # a replay's "3. red e1>e2"
            if last and last.split(" ", 1)[0] in (players or {}):
                last = last.split(" ", 1)[1]
            drawing = drawings.draw(game, position, viewer=viewer, players=players or {}, last=last)
        else:
            drawing = _cards(dict(position), dict(players or {}), last)
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
    name = escape(game)
    return f'<div class="board board-{name}" data-game="{name}">{legible(drawing)}{fallback}</div>'


def render_position(pos: PositionView, svg: str | None = None) -> str:
    """A position the service answered (``svc.position``) drawn as ``render_board`` draws
    it: for its viewer, with its players and its last entry."""
    return render_board(
        pos.game,
        pos.position,
        players=pos.players,
        last=pos.last_action,
        text=pos.board,
        viewer=pos.viewer,
        svg=svg,
    )


SMALLEST_TEXT = 11.0
"""The smallest text a board shows, in CSS pixels, however narrow the screen (a phone)."""
_SVG_HEAD = re.compile(r"<svg\b[^>]*>")
_VIEW_WIDTH = re.compile(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) [\d.]+"')
_FONT_SIZE = re.compile(r'font-size="([\d.]+)"')


def legible(drawing: str) -> str:
    """A game's drawing kept legible on a phone: never drawn narrower than the width at
    which its smallest text is ``SMALLEST_TEXT`` pixels (``min-width``), in a box that
    scrolls sideways when the screen is narrower (the page itself never does). The table
    page's "whole board" switch fits it to the screen instead, for an overview."""
    head = _SVG_HEAD.match(drawing)
    width = _VIEW_WIDTH.search(head.group(0)) if head else None
    sizes = [float(size) for size in _FONT_SIZE.findall(drawing)]
    if head is None or width is None or not sizes:
        return drawing
    least = math.ceil(float(width.group(1)) * SMALLEST_TEXT / min(sizes))
    styled = head.group(0)[:-1] + f' style="min-width:{least}px">'
    return f'<div class="board-scroll">{styled}{drawing[head.end() :]}</div>'


# -- anything else: seats and their zones ------------------------------------------------


def _chip(key: str, value: object) -> str:
    return f'<span class="chip"><b>{escape(str(key))}</b> {escape(_short(value))}</span>'


def _short(value: object) -> str:
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
        f'fill="#fffdf5" stroke="#5d4037" stroke-width="2"/>'
        f'<text x="{38 + i * 74}" y="54" text-anchor="middle" class="card-name">'
        f"{escape(str(n)[:11])}</text><title>{escape(str(n))}</title></g>"
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
            f'<div class="zone"><span class="zone-name">{escape(label)}</span> '
            '<span class="count">0</span></div>'
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


def _zone(key: str, value: object) -> str:
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

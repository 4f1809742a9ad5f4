"""Writing small standalone SVG drawings by hand: escaped text, attributes in a fixed
order, numbers printed the same way every time.

The games' drawing modules (``referee/games/<game>/drawing.py``) build their
pictures from these few pieces so that every drawing is well-formed XML, escapes
every text it shows (names come from catalogs and players), and comes out byte
for byte the same for the same position (golden tests compare whole files).
Only presentation attributes are used, never a ``<style>`` element: a drawing
put inline in a page must not restyle the page around it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from html import escape
from typing import NamedTuple

__all__ = [
    "FONT",
    "SEAT_COLOURS",
    "Canvas",
    "Sight",
    "attrs",
    "esc",
    "num",
    "seat_colour",
    "short",
]

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
SEAT_COLOURS = ("#c62828", "#1565c0", "#2e7d32", "#6a1b9a")
"""One colour per seat in seat order (p1 red, p2 blue, p3 green, p4 purple)."""

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def esc(text: object) -> str:
    """``text`` safe inside an element or a quoted attribute (and valid XML)."""
    return escape(_NOT_XML.sub("\ufffd", str(text)), quote=True)


def num(value: float) -> str:
    """A coordinate as text: whole numbers without a point, others to two places."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def attrs(values: Mapping[str, object]) -> str:
    """`` key="value"`` for each pair in order, skipping ``None``; numbers through ``num``."""
    out: list[str] = []
    for key, value in values.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        text = num(value) if isinstance(value, int | float) else str(value)
        out.append(f' {key}="{esc(text)}"')
    return "".join(out)


def short(text: str, most: int) -> str:
    """``text`` cut to ``most`` characters with an ellipsis (the full text goes in a title)."""
    return text if len(text) <= most else text[: max(1, most - 1)].rstrip() + "…"


def seat_colour(seats: Iterable[str], seat: str) -> str:
    """The colour of ``seat`` by its place among ``seats`` (grey for a seat not listed)."""
    order = list(seats)
    if seat not in order:
        return "#616161"
    return SEAT_COLOURS[order.index(seat) % len(SEAT_COLOURS)]


class Sight(NamedTuple):
    """Who a drawing is for and what it marks: the viewer (a seat, ``referee`` or
    ``public``), each seat's player name and the text of the last entry, if any. Every
    game's ``draw(position, sight)`` gets one (``referee.drawings.draw`` builds it)."""

    viewer: str
    players: Mapping[str, str]
    last: str | None = None

    def title(self, what: str, seats: Iterable[str] | None = None) -> str:
        """``what (p1 Ann vs p2 Bo) as viewer, last <entry>``: the players in the order of
        ``players``, or of ``seats`` when given (a seat without a player has no name)."""
        if seats is None:
            names = " vs ".join(f"{s} {n}" for s, n in self.players.items())
        else:
            names = " vs ".join(f"{s} {self.players.get(s, '')}" for s in seats)
        last = self.last
        return f"{what} ({names}) as {self.viewer}" + (f", last {last}" if last else "")


class Canvas:
    """An SVG drawing being written: add elements, then ``finish`` into one document."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, markup: str) -> None:
        """Raw markup, already escaped (built with this module's helpers)."""
        self.parts.append(markup)

    def el(self, tag: str, values: Mapping[str, object], text: str | None = None) -> None:
        """One element; ``text`` (escaped here) makes it a container, else it is empty."""
        if text is None:
            self.parts.append(f"<{tag}{attrs(values)}/>")
        else:
            self.parts.append(f"<{tag}{attrs(values)}>{esc(text)}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, **extra: object) -> None:
        self.el("rect", {"x": x, "y": y, "width": w, "height": h, **_keys(extra)})

    def circle(self, cx: float, cy: float, r: float, **extra: object) -> None:
        self.el("circle", {"cx": cx, "cy": cy, "r": r, **_keys(extra)})

    def line(self, x1: float, y1: float, x2: float, y2: float, **extra: object) -> None:
        self.el("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **_keys(extra)})

    def polygon(self, points: Iterable[tuple[float, float]], **extra: object) -> None:
        text = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        self.el("polygon", {"points": text, **_keys(extra)})

    def text(self, x: float, y: float, content: str, size: float = 12, **extra: object) -> None:
        self.el("text", {"x": x, "y": y, "font-size": size, **_keys(extra)}, content)

    def open(self, tag: str = "g", **values: object) -> None:
        self.parts.append(f"<{tag}{attrs(_keys(values))}>")

    def close(self, tag: str = "g") -> None:
        self.parts.append(f"</{tag}>")

    def title(self, text: str) -> None:
        """A tooltip (and an accessible name) for the element just opened."""
        self.parts.append(f"<title>{esc(text)}</title>")

    def seat_frame(self, top: float, height: float, width: int, colour: str) -> None:
        """The rounded outline, in the seat's ``colour``, around a seat's part of a drawing
        ``width`` wide that starts at ``top``: from 4 above it, ``height`` high."""
        self.parts.append(
            f'<rect x="2" y="{top - 4:g}" width="{width - 4}" height="{height:g}" rx="6" '
            f'fill="none" stroke="{colour}" stroke-width="2" class="seat-frame"/>'
        )

    def finish(
        self,
        *,
        game: str,
        title: str,
        width: float,
        height: float,
        viewer: str,
        extra: Mapping[str, object] | None = None,
    ) -> str:
        """The whole document: ``<svg>`` with the game, the viewer, a viewBox and a title."""
        head = {
            "xmlns": SVG_NS,
            "class": f"drawing {game}",
            "data-game": game,
            "data-viewer": viewer,
            "viewBox": f"0 0 {num(width)} {num(height)}",
            "width": width,
            "height": height,
            "role": "img",
            "font-family": FONT,
            **(extra or {}),
        }
        return f"<svg{attrs(head)}><title>{esc(title)}</title>{''.join(self.parts)}</svg>"

    def finish_for(
        self,
        sight: Sight,
        *,
        game: str,
        what: str,
        width: float,
        height: float,
        glue: str | None = None,
        seats: Iterable[str] | None = None,
    ) -> str:
        """A game's whole drawing for ``sight``: titled ``what (players) as viewer, last
        ...`` (``Sight.title``), carrying the last entry as ``data-last`` and the game's
        notation signs that glue an actor to its entry as ``data-glue``, if any."""
        return self.finish(
            game=game,
            title=sight.title(what, seats),
            width=width,
            height=height,
            viewer=sight.viewer,
            extra={"data-glue": glue, "data-last": sight.last or None},
        )


def _keys(values: Mapping[str, object]) -> dict[str, object]:
    """Python keyword names as SVG attribute names: ``class_`` is ``class``, ``_`` is ``-``."""
    return {key.rstrip("_").replace("_", "-"): value for key, value in values.items()}

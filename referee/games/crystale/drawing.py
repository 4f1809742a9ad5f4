"""The Crystale battle as SVG, from ``observe`` output for one viewer.

The 29 hexagonal tiles in rows of 5, 6, 7, 6 and 5 (CR-4), each tinted by its
element and named (``c3``); every unit on its tile in its owner's colour: a
Summoner as a large hexagon with its hit box (three pips, filled for each hit it
can still take), a Servant as a disc with its id, HP and ATK as they stand on the
tile (dimmed when fatigued). Under the board, for each player: MP out of the mana
pool and the recharge, the hand (crystals shown to the table face up, the rest as
backs: a hidden hand is only a count in ``observe``), the pool still to pull from,
the Higher Plane and the three promotion slots.

Every tile carries ``data-notation="c3"``, every unit ``data-notation="u5"`` and
every crystal shown by name its name, so a page can put them in the entry line;
the tiles and units the last entry names are outlined, and a counterattack in
progress is marked on the units in it.

The geometry is the board's own (``board.py``): tile ``i`` of row ``r`` sits at
doubled column ``2*i + |r-2|``; it is restated here so that drawing needs nothing
but the viewer's data.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.kit.svg import Canvas, Sight, seat_colour, short

__all__ = ["HEX_COUNT", "draw", "tile_names"]

ROW_SIZES = (5, 6, 7, 6, 5)
ROW_LETTERS = "abcde"
HEX_COUNT = sum(ROW_SIZES)
R = 34.0
"""A hexagon's radius (centre to corner); the hexagons stand on a point."""
HEX_W = math.sqrt(3) * R
WIDTH = 440
LEFT = (WIDTH - 7 * HEX_W) / 2 + HEX_W / 2
TOP = 58.0
ROW_H = 1.5 * R
BOARD_BOTTOM = TOP + 4 * ROW_H + R
ELEMENT_FILL = {
    "Fire": "#ffccbc",
    "Water": "#bbdefb",
    "Earth": "#d7ccc8",
    "Thunder": "#fff59d",
    "Wind": "#c8e6c9",
    "Light": "#fffde7",
    "Darkness": "#b39ddb",
    "Ice": "#e0f7fa",
}
ELEMENT_LETTER = dict(zip(ELEMENT_FILL, "FWETALDI", strict=True))
SEATS = ("p1", "p2")
_TILE = re.compile(r"(?<![\w])([a-e][1-7])(?![\w])")
_UNIT = re.compile(r"(?<![\w])(u\d+)(?![\w])")
CARD_W, CARD_H = 58, 40


def tile_names() -> list[str]:
    """The 29 tiles in reading order (``a1`` .. ``e5``)."""
    return [f"{ROW_LETTERS[r]}{i + 1}" for r, size in enumerate(ROW_SIZES) for i in range(size)]


def centre(tile: str) -> tuple[float, float]:
    """Where tile ``c3`` sits in the drawing."""
    row = ROW_LETTERS.index(tile[0])
    column = 2 * (int(tile[1:]) - 1) + abs(row - 2)
    return LEFT + column * HEX_W / 2, TOP + row * ROW_H


def _hexagon(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    return [
        (
            round(cx + radius * math.cos(math.radians(60 * k - 30)), 2),
            round(cy + radius * math.sin(math.radians(60 * k - 30)), 2),
        )
        for k in range(6)
    ]


def _unit(
    canvas: Canvas, unit: Mapping[str, Any], colour: str, *, marked: bool, countering: bool
) -> None:
    uid = str(unit.get("id", "?"))
    cx, cy = centre(str(unit.get("tile", "c4")))
    crystal = str(unit.get("crystal", ""))
    summoner = unit.get("kind") == "summoner"
    classes = ["unit", "summoner" if summoner else "servant"]
    if marked:
        classes.append("marked")
    if countering:
        classes.append("counter")
    fatigued = bool(unit.get("fatigued"))
    canvas.open(
        class_=" ".join(classes), data_unit=uid, data_seat=unit.get("seat"), data_notation=uid,
        opacity=0.6 if fatigued else None,
    )  # fmt: skip
    if summoner:
        canvas.title(f"{uid} {unit.get('seat')} Summoner {crystal}: {unit.get('hits')} hits left")
        canvas.polygon(
            _hexagon(cx, cy, R * 0.72), fill=colour, stroke="#ff6f00" if marked else "#212121",
            stroke_width=4 if marked else 2,
        )  # fmt: skip
        canvas.text(cx, cy - 2, uid, 12, text_anchor="middle", fill="#fff", font_weight="700")
        hits = int(unit.get("hits", 0) or 0)
        for k in range(3):
            canvas.circle(
                cx - 10 + 10 * k, cy + 10, 3.6, class_="hit" + (" left" if k < hits else ""),
                fill="#ffd54f" if k < hits else "none", stroke="#fff", stroke_width=1.2,
            )  # fmt: skip
    else:
        notes = []
        if fatigued:
            notes.append("fatigued")
        if unit.get("moved"):
            notes.append("moved")
        if unit.get("used_effect"):
            notes.append("effect used")
        canvas.title(
            f"{uid} {unit.get('seat')} {crystal} rank {unit.get('rank')}: HP {unit.get('hp')}/"
            f"{unit.get('max_hp')}, ATK {unit.get('atk')} ({unit.get('base_atk')} base)"
            + (f" [{', '.join(notes)}]" if notes else "")
        )
        canvas.circle(
            cx, cy - 3, 17, fill=colour, stroke="#ff6f00" if marked else "#212121",
            stroke_width=4 if marked else 1.5,
        )  # fmt: skip
        canvas.text(cx, cy + 1, uid, 11.5, text_anchor="middle", fill="#fff", font_weight="700")
        canvas.text(
            cx, cy + 24, f"{unit.get('hp')}/{unit.get('atk')}", 11, text_anchor="middle",
            fill="#212121", font_weight="600",
        )  # fmt: skip
        rank = int(unit.get("rank", 1) or 1)
        for k in range(rank - 1):  # a star per promotion
            canvas.circle(cx + 13 - 6 * k, cy - 18, 2.6, fill="#ffd54f", stroke="#212121")
    if countering:
        canvas.circle(
            cx, cy - 3, 22, fill="none", stroke="#d50000", stroke_width=2, stroke_dasharray="4 3"
        )
    canvas.close()


def _cards(
    canvas: Canvas,
    x: float,
    y: float,
    label: str,
    names: Mapping[str, int],
    hidden: int,
    width: float,
) -> float:
    """A zone: crystals by name face up, ``hidden`` more as backs; returns the height used."""
    canvas.text(x, y + 12, label, 12, fill="#455a64", font_weight="600")
    faces = [name for name, count in sorted(names.items()) for _ in range(int(count))]
    per_row = max(1, int((width - 4) // (CARD_W + 4)))
    slots = len(faces) + hidden
    rows = max(1, (slots + per_row - 1) // per_row)
    for n in range(slots):
        cx = x + (n % per_row) * (CARD_W + 4)
        cy = y + 18 + (n // per_row) * (CARD_H + 4)
        if n < len(faces):
            name = faces[n]
            canvas.open(class_="card face", data_notation=name)
            canvas.title(name)
            canvas.rect(cx, cy, CARD_W, CARD_H, rx=4, fill="#fffdf5", stroke="#5d4037")
            words = name.split()
            canvas.text(cx + 4, cy + 15, short(words[0], 9), 10.5, fill="#3e2723")
            if len(words) > 1:
                canvas.text(cx + 4, cy + 29, short(" ".join(words[1:]), 9), 10.5, fill="#3e2723")
            canvas.close()
        else:
            canvas.open(class_="card back")
            canvas.title("a crystal not shown")
            canvas.rect(cx, cy, CARD_W, CARD_H, rx=4, fill="#546e7a", stroke="#263238")
            canvas.polygon(_hexagon(cx + CARD_W / 2, cy + CARD_H / 2, 10), fill="#90a4ae")
            canvas.close()
    if slots == 0:
        canvas.text(x, y + 32, "none", 11, fill="#90a4ae", font_style="italic")
    return 18 + rows * (CARD_H + 4)


def _seat(
    canvas: Canvas,
    seat: str,
    data: Mapping[str, Any],
    y: float,
    *,
    player: str,
    acting: bool,
) -> float:
    """One player's panel under the board; returns its height."""
    colour = seat_colour(SEATS, seat)
    canvas.open(class_="seat", data_seat=seat)
    top = y
    canvas.circle(14, y + 14, 6, fill=colour)
    summoner = data.get("summoner") or "no Summoner yet"
    canvas.text(
        26, y + 19, f"{seat} ({player}): {summoner}" + (", to act" if acting else ""), 14,
        font_weight="600", fill="#212121",
    )  # fmt: skip
    y += 28
    mp, pool = int(data.get("mp", 0) or 0), int(data.get("mana_pool", 0) or 0)
    bonus = int(data.get("bonus_mp", 0) or 0)
    bar = WIDTH - 150
    canvas.open(class_="mana")
    canvas.title(f"MP {mp} of {pool}" + (f" (+{bonus} bonus)" if bonus else ""))
    canvas.rect(10, y, bar, 12, rx=3, fill="#eceff1", stroke="#90a4ae")
    if pool:
        canvas.rect(10, y, round(bar * min(mp, pool) / pool, 2), 12, rx=3, fill="#42a5f5")
    canvas.close()
    canvas.text(
        bar + 16, y + 11, f"MP {mp}/{pool}" + (f" +{bonus}" if bonus else ""), 12, fill="#212121"
    )
    y += 28
    slots: Mapping[str, Any] = data.get("slots", {}) or {}
    earned, used = int(slots.get("earned", 0) or 0), int(slots.get("used", 0) or 0)
    info = (
        f"recharge {data.get('recharge', 0)} · element {data.get('element') or '?'} · "
        f"hits {data.get('hits', 0)}/3 · pool {data.get('pool', 0)}"
    )
    canvas.text(10, y, info, 12, fill="#455a64")
    y += 10
    canvas.text(10, y + 14, "promotion slots", 12, fill="#455a64", font_weight="600")
    for k in range(3):
        state = "used" if k < used else "open" if k < earned else "locked"
        fill = {"used": "#9e9e9e", "open": "#ffd54f", "locked": "none"}[state]
        canvas.open(class_=f"slot slot-{state}")
        canvas.title(f"promotion slot {k + 1}: {state}")
        canvas.rect(122 + k * 26, y + 3, 20, 14, rx=3, fill=fill, stroke="#616161")
        canvas.close()
    y += 24
    known: Mapping[str, int] = data.get("hand_known", {}) or {}
    hand = int(data.get("hand", 0) or 0)
    y += _cards(
        canvas, 10, y, f"hand {hand}", known, max(0, hand - sum(known.values())), WIDTH - 20
    )
    plane: Mapping[str, int] = data.get("higher_plane", {}) or {}
    y += _cards(canvas, 10, y, f"Higher Plane {sum(plane.values())}", plane, 0, WIDTH - 20)
    registered = data.get("registered")
    if isinstance(registered, Mapping):
        state = "sealed" if registered.get("sealed") and not registered.get("opened") else "open"
        canvas.text(
            10, y + 12, f"registered pool of {registered.get('size', '?')} ({state})", 11.5,
            fill="#607d8b",
        )  # fmt: skip
        y += 18
    canvas.close()
    canvas.seat_frame(top, y - top + 8, WIDTH, colour)
    return y - top + 14


def draw(position: Mapping[str, Any], sight: Sight) -> str:
    """The hex board, its units and each player's zones, with the last entry marked."""
    players, last = sight.players, sight.last
    tiles: Mapping[str, str] = position.get("tiles", {}) or {}
    units: Sequence[Mapping[str, Any]] = position.get("units", []) or []
    seats: Mapping[str, Mapping[str, Any]] = position.get("seats", {}) or {}
    marked_tiles = set(_TILE.findall(last or ""))
    marked_units = set(_UNIT.findall(last or ""))
    counter = set(position.get("counter") or [])
    active = position.get("active")
    over = position.get("result") not in (None, "*")
    canvas = Canvas()
    phase = position.get("phase", "")
    head = f"turn {position.get('turn', 0)}, {phase} phase"
    if active and not over:
        head += f", {active} to act"
    if over:
        head += f"; result {position.get('result')}"
    canvas.text(10, 18, head, 14, class_="board-info", fill="#37474f")
    canvas.open(class_="board")
    for tile in tile_names():
        cx, cy = centre(tile)
        element = str(tiles.get(tile, "Ice"))
        marked = tile in marked_tiles
        canvas.open(class_="tile" + (" marked" if marked else ""), data_notation=tile)
        canvas.title(f"{tile}: {element} tile")
        canvas.polygon(
            _hexagon(cx, cy, R - 1), class_="hex", data_tile=tile,
            fill=ELEMENT_FILL.get(element, "#eeeeee"), stroke="#ff6f00" if marked else "#78909c",
            stroke_width=4 if marked else 1.2,
        )  # fmt: skip
        canvas.text(
            cx, cy - R * 0.55, f"{tile} {ELEMENT_LETTER.get(element, '?')}", 9.5,
            text_anchor="middle", fill="#546e7a",
        )  # fmt: skip
        canvas.close()
    for unit in units:
        uid = str(unit.get("id", ""))
        _unit(
            canvas, unit, seat_colour(SEATS, str(unit.get("seat", ""))),
            marked=uid in marked_units, countering=uid in counter,
        )  # fmt: skip
    canvas.close()
    y = BOARD_BOTTOM + 14
    for seat, data in seats.items():
        y += _seat(
            canvas, seat, data, y, player=players.get(seat, ""),
            acting=seat == active and not over,
        )  # fmt: skip
    return canvas.finish_for(
        sight, game="crystale", what="Crystale board", width=WIDTH, height=round(y + 4, 2), glue="@"
    )

"""The Prismata table as SVG, from ``observe`` output (Prismata has no hidden
information: every viewer sees the same drawing).

For each player, a panel: resources, defence (the damage still to block in the
defence phase), and every unit as a tile (name, ``#id``, health, status; a blue
corner when it blocks, a grey tile while it is being built). Under the panels,
the supply: each buyable unit with its cost and how many each player has left.
Units carry ``data-notation="#12"`` and supply entries their name, so a page can
put them in the entry line (``click #12``, ``buy Drone``); the units and the
supply entry the last entry names are outlined.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.kit.svg import Canvas, Sight, seat_colour, short

__all__ = ["draw"]

WIDTH = 500
PER_ROW = 5
TILE_W, TILE_H = 96, 58
SUPPLY_PER_ROW = 2
SUPPLY_W, SUPPLY_H = 245, 24
RESOURCE_ORDER = ("gold", "energy", "blue", "red", "green", "attack")


def _resources(res: Mapping[str, Any]) -> str:
    known = [k for k in RESOURCE_ORDER if res.get(k)]
    known += sorted(k for k in res if k not in RESOURCE_ORDER and res.get(k))
    return ", ".join(f"{k} {res[k]}" for k in known) or "no resources"


def _unit(
    canvas: Canvas, unit: Mapping[str, Any], x: float, y: float, *, blocking: bool, marked: bool
) -> None:
    uid = int(unit.get("id", 0))
    kind = str(unit.get("kind", "?"))
    status = str(unit.get("status", "") or "")
    building = "build" in unit
    classes = ["unit", f"status-{status or 'none'}"]
    if blocking:
        classes.append("blocking")
    if marked:
        classes.append("marked")
    if building:
        classes.append("building")
    fill = "#e8f5e9" if status == "ready" else "#eceff1" if status or building else "#fff"
    stroke = "#ff6f00" if marked else ("#1565c0" if blocking else "#607d8b")
    canvas.open(class_=" ".join(classes), data_unit=uid, data_notation=f"#{uid}")
    notes = [status] if status else []
    if building:
        notes.append(f"building ({unit.get('build')})")
    if blocking:
        notes.append("blocking")
    canvas.title(f"#{uid} {kind}" + (f" ({', '.join(notes)})" if notes else ""))
    canvas.rect(
        x, y, TILE_W - 6, TILE_H - 6, rx=6, fill=fill, stroke=stroke,
        stroke_width=4 if marked else 2, stroke_dasharray="5 3" if building else None,
    )  # fmt: skip
    canvas.text(x + 6, y + 17, short(kind, 11), 12.5, class_="unit-name", font_weight="600")
    canvas.text(
        x + 6, y + 33, f"#{uid} · {unit.get('health', '')} hp", 12, class_="unit-meta",
        fill="#37474f",
    )  # fmt: skip
    below = status or (f"build {unit.get('build')}" if building else "")
    if "stamina" in unit:
        below += f" st {unit['stamina']}"
    canvas.text(x + 6, y + 47, below.strip(), 11, class_="unit-meta", fill="#546e7a")
    if blocking:
        canvas.rect(x + TILE_W - 20, y + 4, 10, 10, fill="#1565c0")
    canvas.close()


def draw(position: Mapping[str, Any], sight: Sight) -> str:
    """Each player's units and resources, and the supply, with the last entry marked."""
    players, last = sight.players, sight.last
    seats: Sequence[str] = list(position.get("seats") or list(players) or ["p1", "p2"])
    units: Mapping[str, Mapping[str, Any]] = position.get("units", {}) or {}
    blocking = {int(u) for u in position.get("blocking", []) or []}
    marked = {int(n) for n in re.findall(r"#(\d+)", last or "")}
    bought = last.split(" ", 1)[1] if last and last.split(" ", 1)[0] == "buy" else None
    if last and not bought and " buy " in f" {last} ":  # "p1 buy Drone", the actor first
        bought = last.split(" buy ", 1)[1]
    bought = bought.split(" consume ")[0].strip() if bought else None
    active = position.get("active")
    resources: Sequence[Mapping[str, Any]] = position.get("res", []) or []
    defense: Sequence[Any] = position.get("defense", []) or []
    over = bool(position.get("result"))
    canvas = Canvas()
    head = f"turn {position.get('turn', '')}, {position.get('phase', '')} phase"
    result = position.get("result")
    if isinstance(result, Mapping):
        winner = result.get("winner")
        who = seats[winner] if isinstance(winner, int) and winner < len(seats) else None
        head = f"game over: {f'{who} wins' if who else 'a draw'} ({result.get('clause', '')})"
    canvas.text(8, 20, head, 14, class_="board-info", fill="#37474f")
    y = 30
    for index, seat in enumerate(seats):
        own = [u for u in units.values() if u.get("owner") == index]
        own.sort(key=lambda u: (str(u.get("kind")), int(u.get("id", 0))))
        rows = max(1, (len(own) + PER_ROW - 1) // PER_ROW)
        height = 52 + rows * TILE_H
        colour = seat_colour(seats, seat)
        canvas.open(class_="seat", data_seat=seat)
        canvas.rect(2, y, WIDTH - 4, height, rx=6, fill="#fafafa", stroke=colour, stroke_width=2)
        canvas.circle(16, y + 16, 6, fill=colour)
        acting = ", to act" if active == index and not over else ""
        canvas.text(
            28, y + 21, f"{seat} ({players.get(seat, '')}){acting}", 15, font_weight="600",
            fill="#212121",
        )  # fmt: skip
        res = resources[index] if index < len(resources) else {}
        shield = defense[index] if index < len(defense) else "?"
        canvas.text(
            10, y + 40, f"{_resources(res)}; defence {shield}; {len(own)} units", 12.5,
            class_="seat-info", fill="#455a64",
        )  # fmt: skip
        for n, unit in enumerate(own):
            uid = int(unit.get("id", 0))
            _unit(
                canvas, unit, 8 + (n % PER_ROW) * TILE_W, y + 50 + (n // PER_ROW) * TILE_H,
                blocking=uid in blocking, marked=uid in marked,
            )  # fmt: skip
        canvas.close()
        y += height + 8
    supply: Mapping[str, Sequence[int]] = position.get("supply", {}) or {}
    costs: Mapping[str, str] = position.get("costs", {}) or {}
    if supply:
        canvas.text(8, y + 16, "supply (cost; left for each player)", 13, fill="#37474f")
        y += 24
        for n, (name, left) in enumerate(supply.items()):
            x = 4 + (n % SUPPLY_PER_ROW) * (SUPPLY_W + 2)
            top = y + (n // SUPPLY_PER_ROW) * (SUPPLY_H + 3)
            is_marked = bought is not None and name.lower() == bought.lower()
            canvas.open(
                class_="supply" + (" marked" if is_marked else ""), data_notation=name,
                data_unit_kind=name,
            )  # fmt: skip
            counts = "/".join(str(c) for c in left)
            canvas.title(f"{name}: cost {costs.get(name, '?')}; left {counts}")
            canvas.rect(
                x, top, SUPPLY_W, SUPPLY_H, rx=4, fill="#fff",
                stroke="#ff6f00" if is_marked else "#b0bec5", stroke_width=3 if is_marked else 1,
            )  # fmt: skip
            canvas.text(x + 5, top + 16, short(name, 20), 12.5, fill="#212121")
            canvas.text(
                x + SUPPLY_W - 5, top + 16, f"{costs.get(name, '')} {counts}", 11,
                text_anchor="end", fill="#546e7a",
            )  # fmt: skip
            canvas.close()
        y += ((len(supply) + SUPPLY_PER_ROW - 1) // SUPPLY_PER_ROW) * (SUPPLY_H + 3)
    return canvas.finish_for(
        sight, game="prismata", what="Prismata table", width=WIDTH, height=y + 6, seats=seats
    )

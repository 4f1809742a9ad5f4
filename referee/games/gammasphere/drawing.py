"""The Gammasphere table as SVG, from ``observe`` output for one viewer.

Each seat's field as its zones: power level (life), gas and the jiggawatt pool;
the deck and the hand as card backs with their counts (a hand is only a count in
``observe``, with the cards known to be in it face up); the discard pile with its
top card; the characters and buildings in play face up with level, ATK and DEF as
calculated, their mode, the weapons they carry, and tapped cards turned aside;
the pylons as a row of tokens, tapped ones greyed. The viewer's own seat is at the
bottom (the first player's for the referee and the public).

Field cards carry ``data-notation="#4"`` and cards shown by name their name, so a
page can put them in the entry line. The cards the last entry names are outlined,
and an attack (the combat of the last entry) is drawn as an arrow from the
attacker to its target, or to the defending seat's power level when direct.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.kit.svg import Canvas, Sight, seat_colour, short

__all__ = ["draw"]

WIDTH = 480
CARD_W, CARD_H = 88, 78
SMALL_W, SMALL_H = 38, 52
PER_ROW = 5
SEATS = ("p1", "p2")
_ID = re.compile(r"#(\d+)")
_ATTACK = re.compile(r"\battack\s+#(\d+)\s+(#(\d+)|direct)")


def _pile(
    canvas: Canvas, x: float, y: float, label: str, count: int, *, top_card: str | None = None
) -> None:
    """A pile as a few stacked backs (or its top card face up) and its count."""
    canvas.open(class_=f"pile {label}", data_count=count)
    canvas.title(f"{label}: {count}" + (f", top {top_card}" if top_card else ""))
    for k in range(min(count, 3)):
        canvas.rect(
            x + 2 * k, y - 2 * k, SMALL_W, SMALL_H, rx=4, class_="back" if not top_card else None,
            fill="#37474f" if not top_card else "#fffdf5", stroke="#263238",
        )  # fmt: skip
    if count == 0:
        canvas.rect(
            x, y, SMALL_W, SMALL_H, rx=4, fill="none", stroke="#b0bec5", stroke_dasharray="4 3"
        )
    if top_card:
        canvas.text(x + 6, y - 2 * min(count - 1, 2) + 20, short(top_card, 5), 9.5, fill="#3e2723")
    canvas.text(x + SMALL_W / 2 + 2, y + SMALL_H + 14, f"{label} {count}", 11,
                text_anchor="middle", fill="#455a64")  # fmt: skip
    canvas.close()


def _hand(
    canvas: Canvas, x: float, y: float, count: int, known: Mapping[str, int], room: float
) -> None:
    """The hand: known cards face up, the rest as backs, fanned to fit ``room``."""
    faces = [name for name, n in sorted(known.items()) for _ in range(int(n))]
    cards = max(count, len(faces))
    step = min(SMALL_W + 4, (room - SMALL_W) / max(1, cards - 1)) if cards > 1 else 0
    canvas.open(class_="hand", data_count=count)
    canvas.title(f"hand {count}" + (f" (known: {', '.join(faces)})" if faces else ""))
    for k in range(cards):
        cx = x + k * step
        if k < len(faces):
            canvas.open(class_="card face", data_notation=faces[k])
            canvas.title(faces[k])
            canvas.rect(cx, y, SMALL_W, SMALL_H, rx=4, fill="#fffdf5", stroke="#5d4037")
            canvas.text(cx + 3, y + 16, short(faces[k], 6), 9.5, fill="#3e2723")
            canvas.close()
        else:
            canvas.rect(
                cx, y, SMALL_W, SMALL_H, rx=4, class_="card back", fill="#37474f", stroke="#263238"
            )
            canvas.circle(cx + SMALL_W / 2, y + SMALL_H / 2, 7, fill="none", stroke="#80cbc4")
    if cards == 0:
        canvas.rect(
            x, y, SMALL_W, SMALL_H, rx=4, fill="none", stroke="#b0bec5", stroke_dasharray="4 3"
        )
    canvas.text(x, y + SMALL_H + 14, f"hand {count}", 11, fill="#455a64")
    canvas.close()


def _entity(
    canvas: Canvas,
    entity: Mapping[str, Any],
    weapons: Sequence[Mapping[str, Any]],
    x: float,
    y: float,
    *,
    marked: set[int],
) -> None:
    eid = int(entity.get("id", 0))
    name = str(entity.get("card", "?"))
    kind = str(entity.get("kind", ""))
    tapped = bool(entity.get("tapped"))
    mode = str(entity.get("mode", "") or "")
    classes = ["card", "field", kind]
    if tapped:
        classes.append("tapped")
    if eid in marked:
        classes.append("marked")
    cx, cy = x + CARD_W / 2, y + CARD_H / 2
    canvas.open(
        class_=" ".join(classes), data_entity=eid, data_notation=f"#{eid}",
        transform=f"rotate(8 {cx:g} {cy:g})" if tapped else None,
    )  # fmt: skip
    notes = [n for n in (mode, "tapped" if tapped else "") if n]
    stats = ""
    if kind == "character":
        stats = f"Lv {entity.get('level')} ATK {entity.get('attack')} DEF {entity.get('defense')}"
    elif kind == "building":
        stats = f"DEF {entity.get('defense')}"
    carried = ", ".join(f"#{w.get('id')} {w.get('card')}" for w in weapons)
    canvas.title(
        f"#{eid} {name} ({kind}{', ' + ', '.join(notes) if notes else ''}) {stats}".strip()
        + (f", carrying {carried}" if carried else "")
    )
    canvas.rect(
        x, y, CARD_W, CARD_H - 4, rx=6, fill="#eceff1" if tapped else "#fffdf5",
        stroke="#ff6f00" if eid in marked else "#5d4037", stroke_width=4 if eid in marked else 1.5,
    )  # fmt: skip
    canvas.text(x + 5, y + 15, short(name, 12), 11, font_weight="600", fill="#3e2723")
    canvas.text(
        x + 5, y + 29, f"#{eid}" + (f" {mode}" if mode else f" {kind}"), 10.5, fill="#5d4037"
    )
    if kind == "character":
        canvas.text(x + 5, y + 43, f"Lv {entity.get('level')}", 10.5, fill="#5d4037")
        canvas.text(
            x + 5, y + 57, f"{entity.get('attack')}/{entity.get('defense')}", 12,
            font_weight="700", fill="#bf360c" if mode == "attack" else "#0d47a1",
        )  # fmt: skip
    elif kind == "building":
        canvas.text(x + 5, y + 57, f"DEF {entity.get('defense')}", 12, fill="#0d47a1")
    for k, weapon in enumerate(weapons[:2]):
        wid = int(weapon.get("id", 0))
        canvas.open(class_="card field weapon", data_entity=wid, data_notation=f"#{wid}")
        canvas.title(f"#{wid} {weapon.get('card')} (weapon on #{eid})")
        canvas.rect(
            x + CARD_W - 34 - k * 4, y + CARD_H - 24 + k * 2, 30, 16, rx=3, fill="#ffe0b2",
            stroke="#ff6f00" if wid in marked else "#e65100",
        )  # fmt: skip
        canvas.text(x + CARD_W - 31 - k * 4, y + CARD_H - 12 + k * 2, f"#{wid}", 9.5)
        canvas.close()
    canvas.close()


def _side(
    canvas: Canvas,
    side: Mapping[str, Any],
    field: Sequence[Mapping[str, Any]],
    y: float,
    *,
    player: str,
    acting: str,
    marked: set[int],
    places: dict[str, tuple[float, float]],
) -> float:
    """One seat's zones from ``y``; returns the height used. ``places`` learns where
    each field card (``#4``) and the seat's power level are, for the combat arrow."""
    seat = str(side.get("seat", "?"))
    colour = seat_colour(SEATS, seat)
    top = y
    canvas.open(class_="seat", data_seat=seat)
    canvas.circle(14, y + 14, 6, fill=colour)
    canvas.text(
        26, y + 19, f"{seat} ({player})" + (f", {acting}" if acting else ""), 14,
        font_weight="600", fill="#212121",
    )  # fmt: skip
    canvas.open(class_="power", data_seat=seat)
    canvas.title(f"power level {side.get('power')}")
    canvas.text(
        WIDTH - 10, y + 19, f"power {side.get('power')}", 15, text_anchor="end",
        font_weight="700", fill=colour,
    )  # fmt: skip
    canvas.close()
    places[seat] = (WIDTH - 60, y + 14)
    y += 26
    canvas.text(
        10, y + 12, f"gas {side.get('gas', 0)} · jiggawatts {side.get('jiggawatts', 0)}", 12,
        fill="#455a64",
    )  # fmt: skip
    y += 22
    _pile(canvas, 10, y, "deck", int(side.get("deck", 0) or 0))
    discard = list(side.get("discard", []) or [])
    _pile(canvas, 60, y, "discard", len(discard), top_card=discard[-1] if discard else None)
    _hand(
        canvas, 120, y, int(side.get("hand", 0) or 0), side.get("hand_known", {}) or {},
        WIDTH - 130,
    )  # fmt: skip
    y += SMALL_H + 24
    own = [e for e in field if e.get("owner") == seat]
    weapons: dict[int, list[Mapping[str, Any]]] = {}
    for e in own:
        if e.get("kind") == "weapon":
            weapons.setdefault(int(e.get("carrier", 0) or 0), []).append(e)
    carriers = {int(e.get("id", 0)) for e in own}
    loose = [
        e for e in own if e.get("kind") == "weapon" and int(e.get("carrier", 0)) not in carriers
    ]
    cards = [e for e in own if e.get("kind") not in ("weapon", "pylon")] + loose
    pylons = [e for e in own if e.get("kind") == "pylon"]
    for n, entity in enumerate(cards):
        x = 10 + (n % PER_ROW) * (CARD_W + 4)
        cy = y + (n // PER_ROW) * CARD_H
        eid = int(entity.get("id", 0))
        _entity(canvas, entity, weapons.get(eid, []), x, cy, marked=marked)
        places[f"#{eid}"] = (x + CARD_W / 2, cy + CARD_H / 2)
    if not cards:
        canvas.text(10, y + 20, "no characters or buildings in play", 11.5, fill="#90a4ae",
                    font_style="italic")  # fmt: skip
        y += 30
    else:
        y += ((len(cards) + PER_ROW - 1) // PER_ROW) * CARD_H
    canvas.text(10, y + 14, f"pylons {len(pylons)}", 11.5, fill="#455a64")
    for n, pylon in enumerate(pylons):
        pid = int(pylon.get("id", 0))
        tapped = bool(pylon.get("tapped"))
        px, py = 80 + (n % 12) * 32, y + 2 + (n // 12) * 30
        classes = (
            "card field pylon"
            + (" tapped" if tapped else "")
            + (" marked" if pid in marked else "")
        )
        canvas.open(class_=classes, data_entity=pid, data_notation=f"#{pid}")
        canvas.title(f"#{pid} Pylon" + (" (tapped)" if tapped else ""))
        canvas.polygon(
            [(px + 14, py), (px + 28, py + 12), (px + 14, py + 24), (px, py + 12)],
            fill="#b0bec5" if tapped else "#4dd0e1",
            stroke="#ff6f00" if pid in marked else "#006064",
            stroke_width=3 if pid in marked else 1,
        )  # fmt: skip
        canvas.text(px + 14, py + 16, str(pid), 9, text_anchor="middle", fill="#004d40")
        canvas.close()
        places[f"#{pid}"] = (px + 14, py + 12)
    y += 8 + max(1, (len(pylons) + 11) // 12) * 30
    canvas.close()
    canvas.seat_frame(top, y - top + 4, WIDTH, colour)
    return y - top + 12


def draw(position: Mapping[str, Any], sight: Sight) -> str:
    """Both seats' fields, the viewer's own at the bottom, with the last entry marked."""
    viewer, players, last = sight
    sides: Sequence[Mapping[str, Any]] = position.get("sides", []) or []
    field: Sequence[Mapping[str, Any]] = position.get("field", []) or []
    active, phase = position.get("active"), position.get("phase", "")
    over = position.get("over")
    marked = {int(n) for n in _ID.findall(last or "")}
    first = str(position.get("first") or "p1")
    bottom = viewer if viewer in SEATS else first
    order = sorted(sides, key=lambda s: s.get("seat") == bottom)
    canvas = Canvas()
    head = f"turn {position.get('turn', 0)}, {phase} phase"
    if over:
        winner = over.get("winner") if isinstance(over, Mapping) else None
        head += "; game over: " + (f"{winner} wins" if winner else "a draw")
    canvas.text(10, 18, head, 14, class_="board-info", fill="#37474f")
    y = 34.0
    places: dict[str, tuple[float, float]] = {}
    for side in order:
        seat = str(side.get("seat", ""))
        acting = ""
        if not over and phase == "opening" and not side.get("opened"):
            acting = "to draw an opening hand"
        elif not over and seat == active and phase != "opening":
            acting = {"draw": "to draw", "discard": "to discard"}.get(str(phase), "to play")
        y += _side(
            canvas, side, field, y, player=players.get(seat, ""), acting=acting, marked=marked,
            places=places,
        )  # fmt: skip
    attack = _ATTACK.search(last or "")
    if attack:
        source = places.get(f"#{attack.group(1)}")
        if attack.group(3):
            target = places.get(f"#{attack.group(3)}")
        else:
            attacker = next((e for e in field if str(e.get("id")) == attack.group(1)), None)
            other = [s for s in SEATS if attacker is not None and s != attacker.get("owner")]
            target = places.get(other[0]) if other else None
        if source and target:
            canvas.open(class_="combat", pointer_events="none")
            canvas.title(f"attack: {attack.group(0)}")
            canvas.line(*source, *target, stroke="#d50000", stroke_width=4, stroke_opacity=0.8,
                        stroke_linecap="round")  # fmt: skip
            canvas.circle(*target, 9, fill="#d50000", fill_opacity=0.8)
            canvas.close()
    return canvas.finish_for(
        sight, game="gammasphere", what="Gammasphere field", width=WIDTH, height=round(y + 2, 2)
    )

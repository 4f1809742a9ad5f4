"""The Prismatic table as SVG, from ``observe`` output for one viewer.

At the top, the supply as a ring of the nine mote colours (how many of each are
left, the prisms in the middle), the common cards with their recipes, the deck
(backs and a count: its order is the referee's alone) and the discard pile. Then
the board: every method of every board creation (``red-mote.2``) with its recipe
as coloured motes and its effect, and the seats that used it this round. Then one
panel per player: score as it would stand now, created cards against the goal,
prisms, the bag's counts by colour, the motes drawn, the palette, the colour pool,
the motes gained this round, and the progress and creation cards with what they
hold.

Cards carry their name in ``data-notation``, board methods ``board red-mote.2``
and drawn motes their letter, so a page can put them in the entry line; the cards
and methods the last entry names are outlined.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.games.prismatic.motes import COLOUR_NAMES
from referee.kit.svg import Canvas, Sight, seat_colour, short

__all__ = ["draw"]

WIDTH = 480
KINDS = "RGBCMYWKP"
MOTE_FILL = {
    "R": "#e53935",
    "G": "#43a047",
    "B": "#1e88e5",
    "C": "#00bcd4",
    "M": "#d81b60",
    "Y": "#fdd835",
    "W": "#ffffff",
    "K": "#212121",
    "P": "#ce93d8",
}
CARD_W, CARD_H = 112, 64


def _dot(canvas: Canvas, x: float, y: float, kind: str, r: float = 6, **extra: object) -> None:
    canvas.circle(
        x, y, r, fill=MOTE_FILL.get(kind, "#9e9e9e"), stroke="#424242", stroke_width=1, **extra
    )


def _recipe(canvas: Canvas, x: float, y: float, recipe: str, r: float = 5.5) -> float:
    """A recipe (``R G 1 prism``) as coloured dots and prism diamonds; returns its width."""
    dx = 0.0
    words = recipe.split()
    k = 0
    while k < len(words):
        word = words[k]
        if word.isdigit() and k + 1 < len(words) and words[k + 1].startswith("prism"):
            for _ in range(int(word)):
                canvas.polygon(
                    [(x + dx, y - r), (x + dx + r, y), (x + dx, y + r), (x + dx - r, y)],
                    fill="#e1bee7", stroke="#6a1b9a",
                )  # fmt: skip
                dx += 2 * r + 2
            k += 2
            continue
        if word in MOTE_FILL:
            _dot(canvas, x + dx, y, word, r)
            dx += 2 * r + 2
        k += 1
    return dx


def _counts(
    canvas: Canvas, x: float, y: float, label: str, counts: Mapping[str, int], *, click: bool
) -> None:
    """``label`` then a dot with its count for each colour present (clickable letters)."""
    canvas.text(x, y + 4, label, 11.5, fill="#455a64")
    dx = x + 74
    shown = [(k, int(counts.get(k, 0))) for k in KINDS if counts.get(k)]
    for kind, count in shown:
        if click:
            canvas.open(class_="mote", data_notation=kind)
            canvas.title(f"{count} {COLOUR_NAMES[kind]}")
        _dot(canvas, dx, y, kind)
        canvas.text(dx + 9, y + 4, str(count), 11, fill="#212121")
        if click:
            canvas.close()
        dx += 30
    if not shown:
        canvas.text(dx - 6, y + 4, "none", 11, fill="#90a4ae", font_style="italic")


def _card(
    canvas: Canvas,
    x: float,
    y: float,
    name: str,
    printed: Mapping[str, Any] | None,
    *,
    marked: bool,
    holding: Mapping[str, Any] | None = None,
) -> None:
    spec = printed or {}
    canvas.open(class_="card" + (" marked" if marked else ""), data_notation=name)
    parts = [f"{spec.get('type', '?')}, {spec.get('stars', '?')} star(s)"]
    if spec:
        parts.append(f"needs {spec.get('recipe')}")
        if spec.get("rewards"):
            parts.append("rewards " + ", ".join(spec["rewards"]))
        if spec.get("ability"):
            parts.append(f"ability {spec['ability']}")
    canvas.title(f"{name} [{'; '.join(parts)}]")
    canvas.rect(
        x, y, CARD_W, CARD_H, rx=6, fill="#fffdf5", stroke="#ff6f00" if marked else "#5d4037",
        stroke_width=4 if marked else 1.5,
    )  # fmt: skip
    canvas.text(x + 5, y + 15, short(name, 16), 11.5, font_weight="600", fill="#3e2723")
    stars = int(spec.get("stars", 0) or 0)
    canvas.text(
        x + 5, y + 29, f"{spec.get('type', '')} {'★' * stars}".strip(), 10.5, fill="#6d4c41"
    )
    if spec.get("recipe"):
        _recipe(canvas, x + 11, y + 42, str(spec["recipe"]))
    if holding:
        motes: Mapping[str, int] = holding.get("motes", {}) or {}
        prisms = int(holding.get("prisms", 0) or 0)
        held = " ".join(f"{k}{n}" for k, n in motes.items()) + (f" ◆{prisms}" if prisms else "")
        if held:
            canvas.text(x + 5, y + 59, f"holds {held}", 10, fill="#1b5e20")
    canvas.close()


def _ring(canvas: Canvas, cx: float, cy: float, supply: Mapping[str, Any]) -> None:
    """The supply as a ring of nine coloured segments, each with what is left."""
    motes: Mapping[str, int] = supply.get("motes", {}) or {}
    canvas.open(class_="supply")
    canvas.title(
        "supply: " + ", ".join(f"{k} {motes.get(k, 0)}" for k in KINDS)
        + f"; prisms {supply.get('prisms', 0)}"
    )  # fmt: skip
    outer, inner = 58.0, 30.0
    for n, kind in enumerate(KINDS):
        a0 = math.radians(n * 40 - 90)
        a1 = math.radians((n + 1) * 40 - 90)
        points = [
            (round(cx + outer * math.cos(a0), 2), round(cy + outer * math.sin(a0), 2)),
            (round(cx + outer * math.cos(a1), 2), round(cy + outer * math.sin(a1), 2)),
            (round(cx + inner * math.cos(a1), 2), round(cy + inner * math.sin(a1), 2)),
            (round(cx + inner * math.cos(a0), 2), round(cy + inner * math.sin(a0), 2)),
        ]
        canvas.polygon(points, fill=MOTE_FILL[kind], stroke="#424242", stroke_width=1)
        mid = math.radians(n * 40 - 70)
        tx, ty = cx + (outer + 12) * math.cos(mid), cy + (outer + 12) * math.sin(mid) + 4
        canvas.text(
            round(tx, 2), round(ty, 2), str(motes.get(kind, 0)), 11, text_anchor="middle",
            fill="#212121",
        )  # fmt: skip
    canvas.text(cx, cy - 2, "◆", 12, text_anchor="middle", fill="#6a1b9a")
    canvas.text(cx, cy + 12, str(supply.get("prisms", 0)), 11, text_anchor="middle")
    canvas.close()


def draw(position: Mapping[str, Any], sight: Sight) -> str:
    """The supply, commons, board and each player's areas, with the last entry marked."""
    players, last = sight.players, sight.last
    printed: Mapping[str, Mapping[str, Any]] = position.get("cards", {}) or {}
    seats: Mapping[str, Mapping[str, Any]] = position.get("players", {}) or {}
    said = f" {last or ''} ".replace(",", " ").replace(":", " ")
    said_lower = said.lower()

    def named(name: str) -> bool:
        return bool(last) and f" {name.lower()} " in said_lower

    canvas = Canvas()
    _draw_header(canvas, position)
    y = _draw_table(canvas, position, printed, named)
    y = _draw_board(canvas, position, seats, named, y)
    for seat, data in seats.items():
        y = _draw_seat(canvas, position, players, seat, data, named, y)
    return canvas.finish_for(
        sight, game="prismatic", what="Prismatic table", width=WIDTH, height=round(y, 2)
    )


def _draw_header(canvas: Canvas, position: Mapping[str, Any]) -> None:
    """The round, the step, who is to act, the goal and any result."""
    to_act = ", ".join(position.get("to_act", []) or []) or "nobody"
    head = f"round {position.get('round', '')}, {position.get('step', '')} · to act: {to_act}"
    canvas.text(10, 18, head, 13.5, class_="board-info", fill="#37474f")
    goal = f"goal {position.get('goal', '?')} created · starter {position.get('starter', '')}"
    if position.get("final_round"):
        goal += f" · round {position['final_round']} is the last"
    if position.get("result") not in (None, "*"):
        goal += f" · result {position['result']}"
    canvas.text(10, 36, goal, 12, fill="#546e7a")


def _draw_table(
    canvas: Canvas,
    position: Mapping[str, Any],
    printed: Mapping[str, Mapping[str, Any]],
    named: Callable[[str], bool],
) -> float:
    """The supply, the common cards, the piles, rewards to settle and the auction; the
    height reached."""
    _ring(canvas, 80, 120, position.get("supply", {}) or {})
    commons: Sequence[str] = position.get("commons", []) or []
    canvas.text(170, 60, "common cards", 12, fill="#455a64", font_weight="600")
    for n, name in enumerate(commons):
        x = 170 + (n % 2) * (CARD_W + 6)
        y = 66 + (n // 2) * (CARD_H + 6)
        _card(canvas, x, y, name, printed.get(name), marked=named(name))
    rows = max(2, (len(commons) + 1) // 2)
    y = 66 + rows * (CARD_H + 6)
    deck = int(position.get("deck", 0) or 0)
    canvas.open(class_="pile deck", data_count=deck)
    canvas.title(f"deck: {deck} cards")
    for k in range(min(deck, 3)):
        canvas.rect(20 + 2 * k, 196 - 2 * k, 30, 40, rx=3, class_="back", fill="#5e35b1",
                    stroke="#311b92")  # fmt: skip
    canvas.text(36, 252, f"deck {deck}", 11, text_anchor="middle", fill="#455a64")
    canvas.close()
    discard: Sequence[str] = position.get("discard", []) or []
    canvas.open(class_="pile discard", data_count=len(discard))
    canvas.title("discard pile: " + (", ".join(discard) or "empty"))
    canvas.rect(80, 196, 30, 40, rx=3, fill="#fffdf5" if discard else "none", stroke="#8d6e63",
                stroke_dasharray=None if discard else "4 3")  # fmt: skip
    canvas.text(96, 252, f"discard {len(discard)}", 11, text_anchor="middle", fill="#455a64")
    canvas.close()
    pending = position.get("pending_rewards")
    if isinstance(pending, Mapping):
        canvas.text(
            10, 268, f"rewards of {pending.get('card')} to settle: "
            + ", ".join(pending.get("rewards", []) or []), 11.5, fill="#bf360c",
        )  # fmt: skip
    auction = position.get("auction")
    if isinstance(auction, Mapping):
        standing = ", ".join(f"{s} {n}" for s, n in (auction.get("standing", {}) or {}).items())
        sealed = "; ".join(auction.get("sealed", []) or [])
        canvas.text(
            10, 284, f"auction: standing {standing or 'none'}" + (f"; {sealed}" if sealed else ""),
            11.5, class_="auction", fill="#4a148c",
        )  # fmt: skip
    return max(y, 296 if isinstance(auction, Mapping) else 276)


def _draw_board(
    canvas: Canvas,
    position: Mapping[str, Any],
    seats: Mapping[str, Mapping[str, Any]],
    named: Callable[[str], bool],
    y: float,
) -> float:
    """The board's creations, one chip per method; the height reached."""
    order = list(seats)
    board: Sequence[Mapping[str, Any]] = position.get("board", []) or []
    used_by: dict[str, list[str]] = {}
    for seat, data in seats.items():
        for ident in data.get("board_used", []) or []:
            used_by.setdefault(str(ident), []).append(seat)
    methods = [
        (str(ident), str(recipe), str(creation.get("effect", "")), str(creation.get("creation")))
        for creation in board
        for ident, recipe in (creation.get("methods", {}) or {}).items()
    ]
    if methods:
        canvas.text(10, y + 4, "board (method: recipe → effect)", 12, fill="#455a64",
                    font_weight="600")  # fmt: skip
        y += 12
        chip_w, chip_h = 232, 22
        for n, (ident, recipe, effect, creation) in enumerate(methods):
            x = 10 + (n % 2) * (chip_w + 6)
            top = y + (n // 2) * (chip_h + 3)
            marked = named(ident)
            canvas.open(class_="method" + (" marked" if marked else ""),
                        data_notation=f"board {ident}")  # fmt: skip
            canvas.title(f"{ident} ({creation}): needs {recipe}; {effect}")
            canvas.rect(x, top, chip_w, chip_h, rx=4, fill="#f5f5f5",
                        stroke="#ff6f00" if marked else "#bdbdbd",
                        stroke_width=3 if marked else 1)  # fmt: skip
            canvas.text(x + 4, top + 15, short(ident, 16), 10.5, fill="#37474f")
            width = _recipe(canvas, x + 104, top + 11, recipe, 4.5)
            canvas.text(x + 104 + width, top + 15, "→ " + short(effect, 14), 10.5,
                        fill="#37474f")  # fmt: skip
            for k, seat in enumerate(used_by.get(ident, [])):
                canvas.circle(x + chip_w - 7 - 9 * k, top + 6, 3.5,
                              fill=seat_colour(order, seat))  # fmt: skip
            canvas.close()
        y += ((len(methods) + 1) // 2) * (chip_h + 3) + 8
    return y


def _draw_seat(
    canvas: Canvas,
    position: Mapping[str, Any],
    players: Mapping[str, str],
    seat: str,
    data: Mapping[str, Any],
    named: Callable[[str], bool],
    y: float,
) -> float:
    """One player's areas, framed in the seat's colour; the height reached."""
    printed: Mapping[str, Mapping[str, Any]] = position.get("cards", {}) or {}
    seats: Mapping[str, Mapping[str, Any]] = position.get("players", {}) or {}
    order = list(seats)
    score: Mapping[str, int] = position.get("score", {}) or {}
    colour = seat_colour(order, seat)
    top = y
    canvas.open(class_="seat", data_seat=seat)
    canvas.circle(14, y + 14, 6, fill=colour)
    playing = "" if data.get("playing", True) else " (withdrawn)"
    acting = ", to act" if seat in (position.get("to_act") or []) else ""
    canvas.text(26, y + 19, f"{seat} ({players.get(seat, '')}){playing}{acting}", 14,
                font_weight="600", fill="#212121")  # fmt: skip
    canvas.open(class_="score", data_seat=seat)
    canvas.title(f"score if the game ended now: {score.get(seat, 0)}")
    canvas.text(WIDTH - 10, y + 19, f"score {score.get(seat, 0)}", 15, text_anchor="end",
                font_weight="700", fill=colour)  # fmt: skip
    canvas.close()
    y += 26
    nth = data.get("reached_goal")  # the order of reaching the goal (PX-I.17), not a round
    reached = f" (reached the goal {_ordinal(int(nth))})" if nth else ""
    canvas.text(
        10, y + 8, f"created {data.get('created', 0)}/{position.get('goal', '?')}{reached}"
        f" · prisms {data.get('prisms', 0)} · bag {data.get('bag_total', 0)}", 12,
        fill="#455a64",
    )  # fmt: skip
    y += 22
    palette: Mapping[str, Any] = data.get("palette", {}) or {}
    for label, counts, click in (
        ("bag", data.get("bag", {}) or {}, False),
        ("drawn", data.get("drawn", {}) or {}, True),
        ("palette", palette.get("motes", {}) or {}, False),
        ("pool", data.get("pool", {}) or {}, True),
        ("gained", data.get("gained_this_round", {}) or {}, False),
    ):
        if label in ("pool", "gained") and not counts:
            continue
        _counts(canvas, 10, y, label, counts, click=click)
        if label == "palette" and palette.get("prisms"):
            canvas.text(WIDTH - 10, y + 4, f"◆ {palette['prisms']} on the palette", 11,
                        text_anchor="end", fill="#6a1b9a")  # fmt: skip
        y += 18
    for label, held in (
        ("progress", data.get("progress", []) or []),
        ("creation", data.get("creation", []) or []),
    ):
        canvas.text(10, y + 8, f"{label} {len(held)}", 11.5, fill="#455a64")
        y += 12
        for n, h in enumerate(held):
            name = str(h.get("card", "?"))
            x = 10 + (n % 4) * (CARD_W + 4)
            _card(canvas, x, y + (n // 4) * (CARD_H + 4), name, printed.get(name),
                  marked=named(name), holding=h)  # fmt: skip
        y += max(1, (len(held) + 3) // 4) * (CARD_H + 4) if held else 8
    canvas.close()
    canvas.add(
        f'<rect x="2" y="{top - 4:g}" width="{WIDTH - 4}" height="{y - top + 6:g}" rx="6" '
        f'fill="none" stroke="{colour}" stroke-width="2" class="seat-frame"/>'
    )
    y += 14
    return y


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``."""
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"

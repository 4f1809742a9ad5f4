"""Shared helpers for the Prismatic tests: games started on the example catalogs, entries
written as the referee writes them (``p2: draw R R G K W``), and hand-built positions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from referee.contract import Player, Setup, Verdict
from referee.games.prismatic import PrismaticAction, PrismaticRules, PrismaticState
from referee.games.prismatic.model import Held, SeatState
from referee.games.prismatic.motes import parse_items
from referee.kit.multiset import Multiset

RULES = PrismaticRules()
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "prismatic"
NAMES = ("Ann", "Ben", "Cy", "Dee")


def ms(text: str = "") -> Multiset:
    """A multiset of motes from ``R R G`` (or ``RRG``)."""
    motes, _ = parse_items(text, allow_prisms=False)
    return Multiset.of(motes)


def setup(
    players: int = 3,
    *,
    ruleset: str | None = None,
    options: dict[str, Any] | None = None,
    **variants: str,
) -> Setup:
    seated = tuple(Player(f"p{i + 1}", NAMES[i]) for i in range(players))
    return Setup(
        players=seated, ruleset=ruleset, variants=dict(variants), options=dict(options or {})
    )


def new(players: int = 3, goal: int = 5, starter: str = "p1", **variants: str) -> PrismaticState:
    """The position before the first entry."""
    return RULES.initial_state(
        setup(players, options={"goal": str(goal), "starter": starter}, **variants)
    )


COMMONS = ("Ember Spark", "Verdant Drop", "Sunset Sky")
DEALS = {
    "p1": ("Noon Blaze", "Moonrise"),
    "p2": ("Glass Kiln", "Eclipse"),
    "p3": ("Dye Vat", "Starfield"),
    "p4": ("Pigment Mill", "Color Wheel"),
}
CHOICES = {"p1": "C M", "p2": "Y Y", "p3": "R K", "p4": "W B"}


def setup_entries(players: int, starter: str = "p1") -> list[str]:
    entries = [f"{starter}: reveal {card}" for card in COMMONS]
    for i in range(players):
        seat = f"p{i + 1}"
        keep, drop = DEALS[seat]
        entries += [f"{seat}: choose {CHOICES[seat]}", f"{seat}: keep {keep}, discard {drop}"]
    return entries


def started(
    players: int = 3, goal: int = 5, starter: str = "p1", **variants: str
) -> PrismaticState:
    """After setup (commons Ember Spark, Verdant Drop, Sunset Sky; the DEALS kept; the CHOICES
    added): round 1, step 1."""
    return play(new(players, goal, starter, **variants), setup_entries(players, starter))


def started_with(players: int, variants: dict[str, str]) -> PrismaticState:
    """``started`` with variant switches given as a mapping."""
    state = RULES.initial_state(setup(players, options={"goal": "5", "starter": "p1"}, **variants))
    return play(state, setup_entries(players))


def split(entry: str) -> tuple[str | None, str]:
    seat, colon, text = entry.partition(": ")
    if colon and seat in ("p1", "p2", "p3", "p4"):
        return seat, text
    return None, entry


def verdict(state: PrismaticState, entry: str) -> Verdict:
    seat, text = split(entry)
    return RULES.check(state, RULES.parse(text), seat)


def act(state: PrismaticState, entry: str) -> PrismaticState:
    """Check then apply one entry, failing if it is not legal."""
    seat, text = split(entry)
    action: PrismaticAction = RULES.parse(text)
    v = RULES.check(state, action, seat)
    assert v.legal, f"{entry}: {v.explain()}"
    return RULES.apply(state, action, seat)


def play(state: PrismaticState, entries: list[str] | tuple[str, ...]) -> PrismaticState:
    for entry in entries:
        state = act(state, entry)
    return state


def assert_illegal(state: PrismaticState, entry: str, clause: str, *fragments: str) -> str:
    """``entry`` breaks ``clause`` (first violation) with every fragment in the reason."""
    v = verdict(state, entry)
    assert not v.legal, f"{entry} should be illegal"
    first = v.violations[0]
    assert first.clause == clause, f"{entry}: expected {clause}, got {first}"
    for fragment in fragments:
        assert fragment in first.reason, f"{fragment!r} not in {first.reason!r}"
    return first.reason


def edit(state: PrismaticState, seat: str, **fields: Any) -> PrismaticState:
    """``seat``'s belongings changed; multisets may be given as text (``bag="R R G"``),
    cards as names or ``(name, "R G", prisms)``."""
    values: dict[str, Any] = {}
    for key, value in fields.items():
        if key in ("bag", "hand", "palette", "pool", "incoming") and isinstance(value, str):
            value = ms(value)
        if key in ("progress", "creation"):
            value = tuple(_held(v) for v in value)
        values[key] = value
    players = tuple(
        msgspec.structs.replace(p, **values) if p.seat == seat else p for p in state.players
    )
    return msgspec.structs.replace(state, players=players)


def _held(value: str | tuple[str, str, int] | Held) -> Held:
    if isinstance(value, Held):
        return value
    if isinstance(value, str):
        return Held(value)
    name, motes, prisms = value
    return Held(name, ms(motes), prisms)


def resolving(
    state: PrismaticState, seat: str, order: tuple[str, ...] | None = None
) -> PrismaticState:
    """``state`` moved to step 3 with ``seat`` resolving."""
    order = order or tuple(p.seat for p in state.players)
    return msgspec.structs.replace(state, step="resolve", order=order, resolver=order.index(seat))


def table(players: int = 3, variants: dict[str, str] | None = None, **p1: object) -> PrismaticState:
    """Step 3 of round 1 after ``started_with``, p1 resolving with p1's belongings as given
    (``edit``'s fields)."""
    return resolving(edit(started_with(players, variants or {}), "p1", **p1), "p1")


def player(state: PrismaticState, seat: str) -> SeatState:
    return state.player(seat)


def pass_round(state: PrismaticState, draws: dict[str, str] | None = None) -> PrismaticState:
    """Everyone draws (R R G G B unless given), commits nothing and passes in turn."""
    seats = state.active
    for seat in seats:
        state = act(state, f"{seat}: draw {(draws or {}).get(seat, 'R R G G B')}")
    for seat in seats:
        state = act(state, f"{seat}: pass")
    for seat in state.order:
        state = act(state, f"{seat}: pass")
    return state


def auction_table(opening_forgo: str = "no_bid", **prisms: int) -> PrismaticState:
    """Three players, p2 holding the token, each with the prisms given, at the auction that
    ends round 1 (everyone drew R R G G B, committed nothing and passed); ``opening_forgo``
    is PX-I.32's switch."""
    state = started(3, starter="p2", starter_token="auction", opening_forgo=opening_forgo)
    for seat, n in prisms.items():
        state = edit(state, seat, prisms=n)
    state = pass_round(state)
    assert state.step == "auction"
    return state


def scored(**players: dict[str, object]) -> PrismaticState:
    """After setup, one player a keyword, each seat's fields set as ``edit`` sets them."""
    state = started(len(players))
    for seat, fields in players.items():
        state = edit(state, seat, **fields)
    return state


THREE = {
    "p1": {
        "bag": "R R G B W P",
        "incoming": "R",
        "palette": "G G",
        "palette_prisms": 1,
        "prisms": 6,
        "creation": ["Ember Spark", "Sunset Sky", "Glass Kiln"],
        "progress": ["Noon Blaze"],
        "reached": 2,
    },
    "p2": {
        "bag": "R R G G B B W P P",
        "prisms": 3,
        "creation": ["Verdant Drop", "Cobalt Tear", "Starfield"],
        "progress": [],
        "reached": 1,
    },
    "p3": {"bag": "R G B K", "prisms": 8, "creation": ["Dye Vat", "Lens Grinder"], "progress": []},
}
"""Three players' positions at the end of a game, charted by hand in the end tests (PX-12):
motes 9, 9 and 4, card stars 4, 4 and 3, p2 first to the goal."""

"""Shared pools, setups and a small driver for the Crystale tests."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from referee.contract import Player, Setup
from referee.games.crystale import CrystaleRules, CrystaleState
from referee.kit.decks import Deck, Decklist
from referee.kit.multiset import Multiset
from referee.verdicts import Verdict

RULES = CrystaleRules()
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "crystale"
PLAYERS = (Player("p1", "Ann"), Player("p2", "Ben"))

FIRE_POOL = Decklist(
    Multiset.of(
        {
            "Vulkara Emberqueen": 1,
            "Cinderpup": 4,
            "Pyrelance Archer": 2,
            "Magmaback Golem": 2,
            "Sootwing Drake": 2,
            "Ignarok the Unbound": 1,
            "Flame Lance": 4,
            "Heatwave Hymn": 4,
            "Ember Mending": 3,
            "Kiln Surge": 3,
            "Molten Field": 2,
            "Twisted Cinders": 3,
        }
    )
)
WATER_POOL = Decklist(
    Multiset.of(
        {
            "Thalassa Tidecaller": 1,
            "Reefling": 4,
            "Kelpie Skirmisher": 2,
            "Coral Bastion": 2,
            "Harpoon Naiad": 2,
            "Abyssal Leviathan": 1,
            "Tidal Lash": 4,
            "Riptide Rally": 4,
            "Spring Renewal": 3,
            "Current Draw": 3,
            "Flood Plain": 2,
            "Whirlpool Ward": 3,
        }
    )
)
POOLS: dict[str, Deck] = {"p1": FIRE_POOL, "p2": WATER_POOL}

ICE = "I" * 29
"""A board of Ice tiles: no tile changes any ATK (CR-4.6)."""


def tiles_with(**elements: str) -> str:
    """An Ice board with the named tiles changed, e.g. ``tiles_with(c3="F")``."""
    from referee.games.crystale.board import TILE_INDEX

    letters = list(ICE)
    for tile, letter in elements.items():
        letters[TILE_INDEX[tile]] = letter
    return "".join(letters)


def make_setup(
    *,
    tiles: str = ICE,
    variants: Mapping[str, str] | None = None,
    decks: Mapping[str, Deck] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Setup:
    opts: dict[str, Any] = {"tiles": tiles}
    opts.update(options or {})
    return RULES.resolve_setup(
        Setup(
            players=PLAYERS,
            variants=dict(variants or {}),
            options=opts,
            decks=dict(POOLS if decks is None else decks),
        )
    )


def fresh(**kwargs: Any) -> CrystaleState:
    """The position before the start step."""
    return RULES.initial_state(make_setup(**kwargs))


def step(state: CrystaleState, text: str, seat: str | None = None) -> CrystaleState:
    """Apply one entry that must be legal (rulings allowed)."""
    action = RULES.parse(text)
    verdict = RULES.check(state, action, seat)
    assert verdict.legal, f"{text!r}: {verdict.explain()}"
    return RULES.apply(state, action, seat)


def play(state: CrystaleState, *entries: str | tuple[str, str]) -> CrystaleState:
    """Apply entries: plain text for the seat to act, or ``(seat, text)``."""
    for entry in entries:
        seat, text = (None, entry) if isinstance(entry, str) else entry
        state = step(state, text, seat)
    return state


def judge(state: CrystaleState, text: str, seat: str | None = None) -> Verdict:
    return RULES.check(state, RULES.parse(text), seat)


def rejected(state: CrystaleState, text: str, clause: str, seat: str | None = None) -> str:
    """Assert that ``text`` breaks ``clause`` first; return the reason."""
    verdict = judge(state, text, seat)
    assert not verdict.legal, f"{text!r} was accepted"
    assert verdict.violations[0].clause == clause, verdict.explain()
    return verdict.violations[0].reason


OPENING: tuple[tuple[str, str], ...] = (
    ("p2", "first p1"),
    ("p1", "pull 6"),
    ("p2", "pull 6"),
    ("p1", "show Pyrelance Archer, Cinderpup, Cinderpup"),
    ("p2", "show Reefling, Kelpie Skirmisher, Reefling"),
)
"""p2 won rock-paper-scissors and let p1 go first; both show three Servants."""


def started(**kwargs: Any) -> CrystaleState:
    """Turn 1, p1's Pull phase."""
    return play(fresh(**kwargs), *OPENING)


REEFLING_TURN = ("end", "pull", "summon Reefling @c6", "end", "done", "pull")
"""From p1's first Main phase: p1 ends, p2 pulls, summons a Reefling at c6 and ends, and p1
pulls: p1's Main phase of turn 2, a Reefling across the board."""

REEFLING_REPLY = ("end", "done", "pull", "summon Reefling @c6", "end", "done")
"""After p1's summon: p1 ends, p2 pulls, summons a Reefling at c6 and ends."""


def main_phase(**kwargs: Any) -> CrystaleState:
    """Turn 1, p1's Main phase (after the pull)."""
    return play(started(**kwargs), "pull")


def unit_at(state: CrystaleState, tile: str) -> Any:
    from referee.games.crystale.board import TILE_INDEX

    for unit in state.units.values():
        if unit.tile == TILE_INDEX[tile]:
            return unit
    return None

"""What each viewer sees of a Crystale position: the terminal drawing (``render``),
JSON-ready data (``observe``) and the secrets of each seat (``secrets``).

Every viewer sees the board, the Summoners, hand and pool counts, crystals known
to be in a hand and the Higher Planes. Only a seat and the referee see that
seat's registered pool and which of its crystals are still unaccounted for (CR-3.8).
"""

from __future__ import annotations

from typing import Any

from referee.games.crystale.board import (
    ELEMENT_LETTERS,
    ELEMENTS,
    ROW_SIZES,
    TILE_NAMES,
    element_of_letter,
    tile_atk_modifier,
)
from referee.games.crystale.engine import outcome
from referee.games.crystale.model import HIT_BOX, SEATS, SLOT_THRESHOLDS, CrystaleState, Unit
from referee.games.crystale.notation import notation, parse
from referee.games.crystale.position import base_atk, crystal_of, effective_atk, max_hp
from referee.kit.secrecy import masked_text
from referee.kit.zones import private_data, private_text
from referee.viewers import REFEREE

__all__ = [
    "NAMED_FIELDS",
    "observe",
    "own_secrets",
    "public_names",
    "render",
    "secrets",
    "shown_text",
]

NAMED_FIELDS = ("crystal", "crystals")
"""Fields of an entry that name crystals (hidden in a rejected entry's text, CR-3.8)."""


_CELL = 12
_MARK = ("+", "-")
_PHASE_TEXT = {
    "start": "start of the battle",
    "pull": "Pull phase",
    "main": "Main phase",
    "counter": "counterattack decision",
    "discard": "End phase (hand limit)",
    "promotion": "Promotion phase",
}


def public_names(state: CrystaleState) -> set[str]:
    """Every crystal name any viewer may see: units, known hand crystals, Higher Planes."""
    names = {u.crystal for u in state.units.values()}
    for side in state.sides:
        names.update(side.hand.known.names())
        names.update(side.plane.names())
        names.update(side.pool.known.names())
        if side.summoner:
            names.add(side.summoner)
        if side.knowledge is not None:
            names.update(side.knowledge.seen.names())
    return names


def own_secrets(state: CrystaleState, seat: str) -> frozenset[str]:
    """Crystals of ``seat``'s registered pool not public, whether or not the other seat
    registered them too: what ``seat``'s rejected entry may not tell the others it named
    (CR-3.8)."""
    side = state.sides[SEATS.index(seat)]
    if side.knowledge is None or side.knowledge.listed is None:
        return frozenset()
    return frozenset(set(side.knowledge.listed.cards.names()) - public_names(state))


def secrets(state: CrystaleState, seat: str) -> frozenset[str]:
    """Crystals of ``seat``'s registered pool that no other viewer may learn of (CR-3.8)."""
    index = SEATS.index(seat)
    # a crystal the other seat registered too is that seat's own knowledge, not a secret from it
    other = state.sides[1 - index].knowledge
    shared = (
        set(other.listed.cards.names()) if other is not None and other.listed is not None else set()
    )
    return own_secrets(state, seat) - shared


def _may_see(viewer: str, seat: str) -> bool:
    return viewer in (REFEREE, seat)


def _unit_data(state: CrystaleState, unit: Unit) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": f"u{unit.id}",
        "seat": SEATS[unit.seat],
        "crystal": unit.crystal,
        "kind": "summoner" if unit.summoner else "servant",
        "tile": TILE_NAMES[unit.tile],
        "tile_element": element_of_letter(state.tiles[unit.tile]),
    }
    if unit.summoner:
        data["hits"] = state.sides[unit.seat].hits
        data["moved"] = unit.moved  # a Summoner moves once a turn too (CR-I.15, CR-12.5)
        return data
    data.update(
        rank=unit.rank,
        hp=unit.hp,
        max_hp=max_hp(state, unit),
        atk=effective_atk(state, unit),
        base_atk=base_atk(state, unit),
        fatigued=unit.attacked,
        moved=unit.moved,
        used_effect=unit.used_effect,
    )
    return data


def observe(state: CrystaleState, viewer: str = REFEREE) -> dict[str, Any]:
    """The position as ``viewer`` may see it (CR-12.5)."""
    result = outcome(state).result
    seats: dict[str, Any] = {}
    for index, side in enumerate(state.sides):
        seat = SEATS[index]
        data: dict[str, Any] = {
            "summoner": side.summoner,
            "element": side.element or None,
            "mp": side.mp,
            "mana_pool": side.mana_pool,
            "bonus_mp": side.bonus,
            "recharge": side.recharge,
            "hits": side.hits,
            "hand": side.hand.count,
            "hand_known": side.hand.known.as_dict(),
            "pool": side.pool.count,
            "higher_plane": side.plane.as_dict(),
            "slots": {
                "earned": side.slots_earned,
                "used": side.slots_used,
                "left": side.slots_earned - side.slots_used,
            },
            "summoned_this_turn": side.summoned,
            "sacrificed_this_turn": side.sacrificed,
            "attacked_this_turn": side.attacked,
            "opening_shown": side.shown,
        }
        if _may_see(viewer, seat):  # REF-6.6: what its seat and the referee saw put there
            data.update(private_data(hand=side.hand, pool=side.pool))
        if side.knowledge is not None:
            data["registered"] = side.knowledge.view(_may_see(viewer, seat))
        seats[seat] = data
    return {
        "phase": state.phase,
        "turn": state.turn,
        "active": SEATS[state.active] if state.phase != "start" else None,
        "first": SEATS[state.first] if state.first is not None else None,
        "counter": [f"u{u}" for u in state.counter] if state.counter else None,
        "tiles": {TILE_NAMES[i]: element_of_letter(ch) for i, ch in enumerate(state.tiles)},
        "units": [_unit_data(state, state.units[uid]) for uid in sorted(state.units)],
        "seats": seats,
        "result": result,
        "variants": {
            "counterattack": state.table.counterattack,
            "bonus_mp": state.table.bonus_mp,
            "start_mp": state.table.start_mp,
            "promotion_hp": state.table.promotion_hp,
            "attack_after_move": state.table.attack_after_move,
            "trigger_order": state.table.trigger_order,
            "summon_sacrifice": state.table.summon_sacrifice,
            "counter_range": state.table.counter_range,
            "counter_fatigue": state.table.counter_fatigue,
            "slot_phase": state.table.slot_phase,
            "slot_earning": state.table.slot_earning,
            "zero_strike": state.table.zero_strike,
            "slot_servant": state.table.slot_servant,
            "attacks": state.table.attacks,
            "knowledge": state.table.knowledge,
        },
    }


def _cell_top(state: CrystaleState, tile: int) -> str:
    return f"{TILE_NAMES[tile]}:{state.tiles[tile]}"


def _cell_bottom(state: CrystaleState, unit: Unit | None) -> str:
    if unit is None:
        return "."
    mark = _MARK[unit.seat]
    if unit.summoner:
        return f"{mark}u{unit.id} {state.sides[unit.seat].hits}hit"
    return f"{mark}u{unit.id} {unit.hp}/{effective_atk(state, unit)}"


def draw_board(state: CrystaleState) -> list[str]:
    """The hex board, two lines per row: tile and element, then the unit on it."""
    at = {u.tile: u for u in state.units.values()}
    lines: list[str] = []
    start = 0
    for row, size in enumerate(ROW_SIZES):
        indent = " " * ((_CELL // 2) * abs(row - 2))
        tiles = range(start, start + size)
        lines.append(indent + "".join(_cell_top(state, t).ljust(_CELL) for t in tiles).rstrip())
        lines.append(
            indent + "".join(_cell_bottom(state, at.get(t)).ljust(_CELL) for t in tiles).rstrip()
        )
        start += size
    return lines


def _unit_line(state: CrystaleState, unit: Unit) -> str:
    where = f"on {TILE_NAMES[unit.tile]} ({element_of_letter(state.tiles[unit.tile])} tile)"
    owner = SEATS[unit.seat]
    if unit.summoner:
        return f"  u{unit.id} {owner} Summoner {unit.crystal} {where}"
    crystal = crystal_of(state, unit)
    modifier = tile_atk_modifier(state.tiles[unit.tile], crystal.element)
    parts = [f"{base_atk(state, unit)} base"]
    if unit.atk_mod:
        parts.append(f"{unit.atk_mod:+d} lasting")
    if unit.atk_turn:
        parts.append(f"{unit.atk_turn:+d} this turn")
    if modifier:
        parts.append(f"{modifier:+d} tile")
    flags = [
        f
        for f, on in (
            ("fatigued", unit.attacked),
            ("moved", unit.moved),
            ("effect used", unit.used_effect),
        )
        if on
    ]
    tail = f" [{', '.join(flags)}]" if flags else ""
    return (
        f"  u{unit.id} {owner} {unit.crystal} ({crystal.element}) rank {unit.rank} {where}: HP "
        f"{unit.hp}/{max_hp(state, unit)}, ATK {effective_atk(state, unit)} "
        f"({', '.join(parts)}), range {crystal.attack_range}{tail}"
    )


def render(state: CrystaleState, viewer: str = REFEREE) -> str:
    """The position drawn for a terminal, as ``viewer`` may see it."""
    result = outcome(state).result
    lines = draw_board(state)
    legend = ", ".join(
        f"{letter} {name}" for letter, name in zip(ELEMENT_LETTERS, ELEMENTS, strict=True)
    )
    lines.append("")
    lines.append(f"+ p1  - p2   HP/ATK as on the tile   tiles: {legend}")
    lines.append("Units:")
    lines += [_unit_line(state, state.units[uid]) for uid in sorted(state.units)] or ["  none"]
    for index, side in enumerate(state.sides):
        seat = SEATS[index]
        summoner = side.summoner or "(not yet shown)"
        bonus = f" (+{side.bonus} bonus)" if side.bonus else ""
        known = f" (known: {side.hand.known.text()})" if side.hand.known else ""
        hand, pool = side.hand, side.pool
        if _may_see(viewer, seat):  # REF-6.6: what its seat and the referee saw put there
            known += private_text(hand)
            pooled = f"{pool.count}{private_text(pool)}"
        else:
            pooled = str(pool.count)
        lines.append(
            f"{seat}: {summoner}: MP {side.mp}/{side.mana_pool}{bonus}, Recharge {side.recharge}, "
            f"hits {side.hits}/{HIT_BOX}; hand {hand.count}{known}; pool {pooled}; "
            f"promotion slots {side.slots_earned - side.slots_used} left "
            f"({side.slots_used} of {len(SLOT_THRESHOLDS)} used)"
        )
        lines.append(f"  Higher Plane: {side.plane.text()}")
        if side.knowledge is not None and _may_see(viewer, seat):
            unaccounted = side.knowledge.unaccounted()
            if unaccounted is None:
                lines.append(f"  registered pool: sealed, {side.knowledge.size} crystals")
            else:
                lines.append(f"  registered pool not yet seen: {unaccounted.text()}")
    if result != "*":
        lines.append(f"Result: {result}")
    elif state.phase == "start":
        first = SEATS[state.first] if state.first is not None else "not yet chosen"
        lines.append(f"Start of the battle: first player {first}")
    elif state.phase == "counter" and state.counter:
        lines.append(
            f"Turn {state.turn}: {SEATS[1 - state.active]} decides whether u{state.counter[1]} "
            f"counterattacks u{state.counter[0]}"
        )
    else:
        lines.append(f"Turn {state.turn}: {SEATS[state.active]}, {_PHASE_TEXT[state.phase]}")
    return "\n".join(lines)


def shown_text(text: str, seat: str | None, viewer: str) -> str:
    """A rejected entry's crystals named out of a hand or a sealed pool are hidden from
    the other seats and the public: rejected, it took nothing out of hiding (CR-3.8)."""
    if viewer in (REFEREE, seat):
        return text
    return masked_text(text, parse, notation, NAMED_FIELDS)

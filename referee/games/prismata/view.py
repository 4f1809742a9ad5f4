"""Plain-text and JSON views of a Prismata position (``show`` and ``show --json``)."""

from __future__ import annotations

from typing import Any

import msgspec

from referee.games.prismata.catalog import format_amount, load_catalog
from referee.games.prismata.engine import can_block, defense
from referee.games.prismata.model import SEATS, PrismataState, Unit
from referee.viewers import REFEREE

__all__ = ["observe", "render", "secrets", "unit_note"]


def unit_note(u: Unit, state: PrismataState) -> str:
    """One unit's id with whatever is unusual about it: ``#4 (2/5 hp, build 1, used)``."""
    cat = load_catalog(state.ruleset)
    utype = cat.units[u.kind]
    notes: list[str] = []
    if u.health != utype.health:
        notes.append(f"{u.health}/{utype.health} hp")
    if u.build:
        notes.append(f"build {u.build}")
    if u.exhaust:
        notes.append(f"exhaust {u.exhaust}")
    if u.chill:
        notes.append(f"chill {u.chill}" + (" frozen" if u.chill >= u.health else ""))
    if u.lifespan:
        notes.append(f"lifespan {u.lifespan}")
    if utype.stamina:
        notes.append(f"stamina {u.stamina}")
    if utype.click is not None and u.status != "idle":
        notes.append(u.status)
    if can_block(u, utype):
        notes.append("blocking")
    if u.fresh:
        notes.append("new")
    return f"#{u.id}" + (f" ({', '.join(notes)})" if notes else "")


def render(state: PrismataState, viewer: str = REFEREE) -> str:
    """Each seat's resources and units grouped by kind, the supply, the phase and whose turn."""
    cat = load_catalog(state.ruleset)
    lines = [f"Prismata ({state.ruleset}), turn {state.turn + 1}"]
    if state.result is not None:
        who = "draw" if state.result.winner is None else f"{SEATS[state.result.winner]} wins"
        lines.append(f"Game over: {who} ({state.result.clause}: {state.result.reason})")
    else:
        line = f"{SEATS[state.active]} to act, {state.phase} phase"
        if state.phase == "defense":
            line += f": {state.res[1 - state.active].attack} incoming damage to block"
        lines.append(line)
    lines.append("Random set: " + ", ".join(state.random_set))
    for seat in (0, 1):
        r = state.res[seat]
        lines.append("")
        lines.append(
            f"{SEATS[seat]}: gold {r.gold}, energy {r.energy}, blue {r.blue}, red {r.red}, "
            f"green {r.green}, attack {r.attack}; defense {defense(state.units, seat, cat)}"
        )
        groups: dict[str, list[Unit]] = {}
        for u in state.units.values():
            if u.owner == seat:
                groups.setdefault(u.kind, []).append(u)
        if not groups:
            lines.append("  (no units)")
        for kind in sorted(groups):
            members = groups[kind]
            utype = cat.units[kind]
            lines.append(
                f"  {kind} x{len(members)} ({utype.health} hp): "
                + ", ".join(unit_note(u, state) for u in members)
            )
    lines.append("")
    lines.append(
        "Supply left (p1/p2): "
        + ", ".join(f"{name} {left[0]}/{left[1]}" for name, left in state.supply.items())
    )
    return "\n".join(lines)


def observe(state: PrismataState, viewer: str = REFEREE) -> dict[str, Any]:
    """The position as JSON-ready data, with derived facts (defense, costs) added."""
    cat = load_catalog(state.ruleset)
    data = msgspec.to_builtins(state)
    if not isinstance(data, dict):
        raise TypeError(f"data is a {type(data).__name__}, not dict")
    data["to_move"] = None if state.result is not None else SEATS[state.active]
    data["seats"] = list(SEATS)
    data["defense"] = [defense(state.units, 0, cat), defense(state.units, 1, cat)]
    data["blocking"] = sorted(u.id for u in state.units.values() if can_block(u, cat.units[u.kind]))
    data["costs"] = {name: format_amount(cat.units[name].cost) for name in state.supply}
    return data


def secrets(state: PrismataState, seat: str) -> frozenset[str]:
    """Nothing in Prismata is hidden: every viewer sees the whole table."""
    return frozenset()

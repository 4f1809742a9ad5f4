"""Crystal effects: checking their targets (CR-7.10) and carrying them out (CR-2.6).

A structured effect's ops are carried out by the engine; an effect with no ops is
free text that needs the referee's ruling (CR-11.1). Targets are given in the
entry in the printed order of the effects that take one, whatever order the
effects resolve in (trigger spells, CR-7.7).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from referee.games.crystale.board import LETTER_OF, TILE_INDEX, TILE_NAMES
from referee.games.crystale.catalog import Crystal, Effect
from referee.games.crystale.model import SEATS, CrystaleState, Unit
from referee.games.crystale.position import (
    gain_mp,
    kill,
    max_hp,
    settle,
    summoner_id,
    with_side,
    with_unit,
)
from referee.verdicts import RulingNeeded, Verdict

__all__ = ["check_targets", "resolve", "rulings_for"]

TARGETS = "CR-7.10"
RULING = "CR-11.1"

replace = msgspec.structs.replace

_NEEDS_TARGET = ("unit", "ally", "enemy", "tile")
_SERVANT_ONLY = ("heal", "atk")


def _unit_target(state: CrystaleState, token: str) -> Unit | None:
    if not token.startswith("u"):
        return None
    return state.units.get(int(token[1:]))


def check_targets(
    state: CrystaleState,
    seat: int,
    crystal: Crystal,
    effects: Sequence[Effect],
    targets: Sequence[str],
) -> Verdict:
    """Whether ``targets`` fit the effects that take one, in printed order."""
    wanted = [e for e in effects if e.target in _NEEDS_TARGET]
    name = crystal.name
    if len(targets) != len(wanted):
        kinds = ", ".join(e.target for e in wanted) or "none"
        return Verdict.illegal(
            TARGETS, f"{name} takes {len(wanted)} target(s) ({kinds}); {len(targets)} given"
        )
    for effect, token in zip(wanted, targets, strict=True):
        if effect.target == "tile":
            if token not in TILE_INDEX:
                return Verdict.illegal(TARGETS, f"{name} targets a tile; {token} is a unit")
            continue
        unit = _unit_target(state, token)
        if unit is None:
            what = "a tile" if token in TILE_INDEX else "not on the board"
            return Verdict.illegal(TARGETS, f"{name} targets a unit; {token} is {what}")
        if effect.target == "ally" and unit.seat != seat:
            return Verdict.illegal(
                TARGETS,
                f"{name} targets one of {SEATS[seat]}'s own units; "
                f"{token} ({unit.crystal}) belongs to {SEATS[unit.seat]}",
            )
        if effect.target == "enemy" and unit.seat == seat:
            return Verdict.illegal(
                TARGETS,
                f"{name} targets an enemy unit; {token} ({unit.crystal}) is {SEATS[seat]}'s own",
            )
        if unit.summoner and any(op.op in _SERVANT_ONLY for op in effect.ops):
            return Verdict.illegal(
                TARGETS, f"{name} works on Servants; {token} ({unit.crystal}) is a Summoner"
            )
    return Verdict()


def rulings_for(
    crystal: Crystal, effects: Sequence[Effect], targets: Sequence[str]
) -> tuple[RulingNeeded, ...]:
    """One ruling per free-text effect, naming its target when it has one (CR-11.1)."""
    out = []
    remaining = list(targets)
    for effect in effects:
        target = remaining.pop(0) if effect.target in _NEEDS_TARGET and remaining else None
        if not effect.structured:
            text = effect.text + (f" (target {target})" if target else "")
            out.append(RulingNeeded(crystal.name, RULING, text))
    return tuple(out)


def resolve(
    state: CrystaleState,
    seat: int,
    source: int | None,
    effects: Sequence[Effect],
    targets: Sequence[str],
    *,
    reverse: bool = False,
) -> CrystaleState:
    """Carry out the structured ops of ``effects`` for ``seat``; ``source`` is the unit
    using them (``None`` for a crystal cast from hand, whose "self" is the Summoner)."""
    remaining = list(targets)
    paired: list[tuple[Effect, str | None]] = []
    for effect in effects:
        target = remaining.pop(0) if effect.target in _NEEDS_TARGET else None
        if effect.target == "self":
            target = f"u{source if source is not None else summoner_id(seat)}"
        paired.append((effect, target))
    if reverse:
        paired.reverse()
    for effect, target in paired:
        hit = False  # CR-I.4: one damage effect takes at most one hit from a Summoner
        for op in effect.ops:
            if op.op == "damage" and op.amount > 0:
                unit = _unit_target(state, target) if target is not None else None
                if unit is not None and unit.summoner:
                    if hit:
                        continue
                    hit = True
            state = settle(_apply_op(state, seat, op.op, op.amount, op.element, target))
            if state.result is not None:
                return state  # CR-13.1: the battle ended with this step; no later step happens
    return state


def _apply_op(
    state: CrystaleState,
    seat: int,
    op: str,
    amount: int,
    element: str | None,
    target: str | None,
) -> CrystaleState:
    if op == "mp":
        return with_side(state, seat, gain_mp(state.sides[seat], amount))
    if op == "tile":
        if target is None or element is None:
            raise ValueError(
                "target and element are missing: only an entry its check allowed is carried out"
            )
        index = TILE_INDEX[target]
        tiles = state.tiles[:index] + LETTER_OF[element] + state.tiles[index + 1 :]
        return replace(state, tiles=tiles)
    unit = _unit_target(state, target) if target is not None else None
    if unit is None:  # the target already left the board (an earlier effect removed it)
        return state
    if op == "damage":
        if amount <= 0:
            return state
        if unit.summoner:
            side = state.sides[unit.seat]
            return with_side(state, unit.seat, replace(side, hits=side.hits - 1))
        hp = unit.hp - amount
        return kill(state, unit.id) if hp <= 0 else with_unit(state, replace(unit, hp=hp))
    if unit.summoner:
        return state
    if op == "heal":
        return with_unit(
            state, replace(unit, hp=min(max_hp(state, unit), unit.hp + max(0, amount)))
        )
    if op != "atk":
        raise ValueError(f"op is {op!r}, not atk")
    return with_unit(state, replace(unit, atk_turn=unit.atk_turn + amount))


def tile_name(index: int) -> str:
    return TILE_NAMES[index]

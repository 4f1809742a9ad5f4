"""Listing legal entries (``legal_actions``).

Entries that name hidden crystals cannot all be listed (any crystal of the
registered pool not yet seen could be the one shown), so for those the list holds
one entry per crystal name that could be named, and one representative ``show``
and ``discard``; every listed entry passes ``check``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from referee.games.crystale import model
from referee.games.crystale.board import NEIGHBOURS, TILE_NAMES
from referee.games.crystale.catalog import Effect
from referee.games.crystale.checks import check_action
from referee.games.crystale.engine import to_act
from referee.games.crystale.model import (
    HAND_LIMIT,
    OPENING_HAND,
    OPENING_SERVANTS,
    SEATS,
    CrystaleAction,
    CrystaleState,
    Side,
    Unit,
)
from referee.games.crystale.position import summoner_id

__all__ = ["legal_actions", "to_act"]

_MAX_TARGET_COMBINATIONS = 400


def _possible(state: CrystaleState, side: Side, kinds: tuple[str, ...]) -> list[str]:
    """Crystal names of ``kinds`` that could be one of ``side``'s hidden crystals."""
    if side.knowledge is not None:
        unaccounted = side.knowledge.unaccounted()
        if unaccounted is not None:
            return [n for n in unaccounted.names() if state.book.crystals[n].kind in kinds]
    return sorted(
        c.name
        for c in state.book.crystals.values()
        if c.kind in kinds and (not side.element or c.element == side.element)
    )


def _hand_names(state: CrystaleState, side: Side, kinds: tuple[str, ...]) -> list[str]:
    names = {n for n in side.hand.known.names() if state.book.crystals[n].kind in kinds}
    if side.hand.unknown:
        names.update(_possible(state, side, kinds))
    return sorted(names)


def _multiples(state: CrystaleState, side: Side, kinds: tuple[str, ...], count: int) -> list[str]:
    """``count`` names (with repeats) that could all be in hand at once, known ones first."""
    picked = [n for n in side.hand.known if state.book.crystals[n].kind in kinds]
    if side.hand.unknown and side.knowledge is not None:
        unaccounted = side.knowledge.unaccounted()
        pool = (
            [n for n in unaccounted if state.book.crystals[n].kind in kinds]
            if unaccounted is not None
            else [n for n in _possible(state, side, kinds) for _ in range(4)]
        )
        picked += pool[: side.hand.unknown]
    return picked[:count]


def _target_lists(state: CrystaleState, seat: int, effects: list[Effect]) -> list[tuple[str, ...]]:
    options: list[list[str]] = []
    for effect in effects:
        if effect.target == "tile":
            options.append(list(TILE_NAMES))
        elif effect.target in ("unit", "ally", "enemy"):
            units = [
                u
                for u in state.units.values()
                if effect.target == "unit" or (u.seat == seat) == (effect.target == "ally")
            ]
            options.append([f"u{u.id}" for u in sorted(units, key=lambda u: u.id)])
    return list(itertools.islice(itertools.product(*options), _MAX_TARGET_COMBINATIONS))


def _candidates(state: CrystaleState, seat: int) -> list[CrystaleAction]:
    """The entries worth checking for ``seat`` in the current phase."""
    return _BY_PHASE.get(state.phase, _main_candidates)(state, seat)


def _start_candidates(state: CrystaleState, seat: int) -> list[CrystaleAction]:
    side = state.sides[seat]
    out: list[CrystaleAction] = []
    if state.first is None:
        out += [model.First("p1"), model.First("p2")]
    if side.summoner is None:
        out += [model.Declare(n) for n in _possible(state, side, ("summoner",))]
    if not side.shown:
        out += [model.Pull(OPENING_HAND), model.Mulligan()]
        shown = _multiples(state, side, ("servant",), OPENING_SERVANTS)
        if len(shown) == OPENING_SERVANTS:
            out.append(model.Show(tuple(shown)))
    return out


def _pull_candidates(state: CrystaleState, seat: int) -> list[CrystaleAction]:
    side = state.sides[seat]
    out: list[CrystaleAction] = [model.Pull(), model.Reshuffle()]
    if side.pool.count:
        out += [model.Pull(1, n) for n in _possible(state, side, ("servant", "spell", "god"))]
    return out


def _counter_candidates(state: CrystaleState, seat: int) -> list[CrystaleAction]:
    return [model.Counter(), model.Hold()]


def _discard_candidates(state: CrystaleState, seat: int) -> list[CrystaleAction]:
    side = state.sides[seat]
    names = _multiples(state, side, ("servant", "spell", "god"), side.hand.count - HAND_LIMIT)
    return [model.Discard(tuple(names))] if names else []


def _promotion_candidates(state: CrystaleState, seat: int) -> list[CrystaleAction]:
    servants = [u for u in _own(state, seat) if not u.summoner]
    out: list[CrystaleAction] = [model.Promote(u.id) for u in servants]
    if state.table.slot_phase == "promotion":  # CR-I.31
        out += [model.SlotPromote(u.id) for u in servants]
    out.append(model.Done())
    return out


def _main_candidates(state: CrystaleState, seat: int) -> list[CrystaleAction]:
    side = state.sides[seat]
    out: list[CrystaleAction] = [model.End()]
    home = state.units.get(summoner_id(seat))
    for name in _hand_names(state, side, ("servant",)):
        if home is not None:
            out += [model.Summon(name, t) for t in NEIGHBOURS[home.tile]]
    for unit in _own(state, seat):
        out += _unit_candidates(state, seat, unit)
    for name in _hand_names(state, side, ("spell", "god")):
        spell = state.book.crystals[name]
        out += [model.Cast(name, ts) for ts in _target_lists(state, seat, list(spell.effects))]
    out.append(model.SlotMp())
    out += [model.SlotServant(n) for n in _possible(state, side, ("servant",))]
    return out


def _unit_candidates(state: CrystaleState, seat: int, unit: Unit) -> list[CrystaleAction]:
    """What one of ``seat``'s units may do in the main phase."""
    out: list[CrystaleAction] = []
    if not unit.summoner:
        out.append(model.Sacrifice(unit.id))
        out.append(model.SlotPromote(unit.id))
        out += [model.Attack(unit.id, e.id) for e in state.units.values() if e.seat != seat]
    out += [model.Move(unit.id, t) for t in NEIGHBOURS[unit.tile]]
    crystal = state.book.crystals[unit.crystal]
    for number, effect in enumerate(crystal.effects, 1):
        if effect.phase == "main":
            out += [model.Use(unit.id, number, ts) for ts in _target_lists(state, seat, [effect])]
    return out


_BY_PHASE: dict[str, Callable[[CrystaleState, int], list[CrystaleAction]]] = {
    "start": _start_candidates,
    "pull": _pull_candidates,
    "counter": _counter_candidates,
    "discard": _discard_candidates,
    "promotion": _promotion_candidates,
}
"""The candidates of each phase but the main one."""


def _own(state: CrystaleState, seat: int) -> list[Unit]:
    return [state.units[uid] for uid in sorted(state.units) if state.units[uid].seat == seat]


def legal_actions(state: CrystaleState, seat: str | None = None) -> list[CrystaleAction]:
    """Every listed entry of ``seat`` (or of every seat that may act) that passes ``check``."""
    seats = sorted(to_act(state)) if seat is None else [seat] if seat in to_act(state) else []
    out: list[CrystaleAction] = []
    seen: set[CrystaleAction] = set()
    for who in seats:
        index = SEATS.index(who)
        for action in _candidates(state, index):
            if action not in seen and check_action(state, action, index).legal:
                seen.add(action)
                out.append(action)
    return out

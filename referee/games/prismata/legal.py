"""Listing Prismata actions: ``legal_actions`` gives every legal action up to
interchangeable units (see PM-I.9).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from referee.games.prismata import model
from referee.games.prismata.catalog import Catalog, load_catalog
from referee.games.prismata.checks import (
    breach_problem,
    check_action,
    check_undo,
    click_problem,
    consumable,
    target_problem,
)
from referee.games.prismata.engine import can_block
from referee.games.prismata.model import PrismataAction, PrismataState, Unit

__all__ = ["legal_actions"]
# ---------------------------------------------------------------------------
# legal actions
# ---------------------------------------------------------------------------


def _signature(u: Unit) -> tuple[object, ...]:
    return (
        u.kind,
        u.health,
        u.chill,
        u.build,
        u.exhaust,
        u.lifespan,
        u.stamina,
        u.status,
        u.fresh,
        u.made,
        u.ate,
        u.target,
    )


def _consume_choices(
    state: PrismataState, cat: Catalog, needed: Sequence[tuple[str, int]], exclude: int = 0
) -> Iterator[tuple[int, ...]]:
    """Every way to pick the consumed units, up to interchangeable units (PM-I.9)."""
    if not needed:
        yield ()
        return
    per_kind: list[list[tuple[int, ...]]] = []
    for kind, n in needed:
        groups: dict[tuple[object, ...], list[int]] = {}
        for u in state.units.values():
            if (
                u.owner == state.active
                and u.kind == kind
                and u.id != exclude
                and not consumable(u, cat.units[kind])
            ):
                groups.setdefault(_signature(u), []).append(u.id)
        pools = [sorted(ids) for ids in groups.values()]
        options: list[tuple[int, ...]] = []
        for counts in _split(n, [len(p) for p in pools]):
            pick: list[int] = []
            for pool, c in zip(pools, counts, strict=True):
                pick.extend(pool[:c])
            options.append(tuple(sorted(pick)))
        if not options:
            return
        per_kind.append(options)
    yield from _product(per_kind)


def _split(n: int, sizes: list[int]) -> Iterator[list[int]]:
    if not sizes:
        if n == 0:
            yield []
        return
    for c in range(min(n, sizes[0]), -1, -1):
        for rest in _split(n - c, sizes[1:]):
            yield [c, *rest]


def _product(parts: list[list[tuple[int, ...]]]) -> Iterator[tuple[int, ...]]:
    if not parts:
        yield ()
        return
    for first in parts[0]:
        for rest in _product(parts[1:]):
            yield first + rest


def legal_actions(state: PrismataState, acting: str | None = None) -> list[PrismataAction]:
    """Every legal action of the seat to act (consumed units up to interchangeable ones);
    ``acting`` is that seat or ``None``."""
    if state.result is not None:
        return []
    cat = load_catalog(state.ruleset)
    if state.phase == "defense":
        return _defense_actions(state, cat)
    if state.phase == "breach":
        return _breach_actions(state, cat)
    out: list[PrismataAction] = []
    out += _buys(state, cat)
    out += _clicks(state, cat)
    out += _undos(state, cat)
    out += _sells(state)
    out += _strikes(state, cat)
    out.append(model.End())
    return out


def _defense_actions(state: PrismataState, cat: Catalog) -> list[PrismataAction]:
    """PM-4: a block by each blocker while damage is left to block, else the end."""
    seat = state.active
    out: list[PrismataAction] = []
    if state.res[1 - seat].attack > 0:
        for u in state.units.values():
            if u.owner == seat and can_block(u, cat.units[u.kind]):
                out.append(model.Block(u.id))
    else:
        out.append(model.End())
    return out


def _breach_actions(state: PrismataState, cat: Catalog) -> list[PrismataAction]:
    """PM-7: breach damage given and taken back, clicks undone (before any overrun, or a chill
    on a unit the breach destroyed, PM-I.7), the end."""
    seat = state.active
    out: list[PrismataAction] = []
    for u in state.units.values():
        if u.owner != seat and breach_problem(state, cat, u) is None:
            out.append(model.Breach(u.id))
    for u in list(state.units.values()) + list(state.dead.values()):
        if u.owner != seat and u.hit > 0 and check_action(state, model.Unbreach(u.id)).legal:
            out.append(model.Unbreach(u.id))
    out += _undos(state, cat)
    if not check_action(state, model.End()).violations:
        out.append(model.End())
    return out


def _buys(state: PrismataState, cat: Catalog) -> list[PrismataAction]:
    seat = state.active
    have = state.res[seat]
    out: list[PrismataAction] = []
    for name, left in state.supply.items():
        utype = cat.units[name]
        if left[seat] > 0 and have.covers(utype.cost):
            for consumed in _consume_choices(state, cat, utype.consume):
                out.append(model.Buy(name, consumed))
    return out


def _clicks(state: PrismataState, cat: Catalog) -> list[PrismataAction]:
    seat = state.active
    have = state.res[seat]
    out: list[PrismataAction] = []
    for u in state.units.values():
        if u.owner != seat:
            continue
        utype = cat.units[u.kind]
        ability = utype.click
        if ability is None or click_problem(state, cat, u, utype) or not have.covers(ability.cost):
            continue
        targets: list[int | None] = [None]
        if ability.target is not None or ability.effect.destroy:
            targets = [
                t.id
                for t in state.units.values()
                if t.owner != seat and not target_problem(state, cat, u, utype, t.id).violations
            ]
        for target in targets:
            for consumed in _consume_choices(state, cat, ability.consume, exclude=u.id):
                out.append(model.Click(u.id, target, consumed))
    return out


def _undos(state: PrismataState, cat: Catalog) -> list[PrismataAction]:
    seat = state.active
    return [
        model.Undo(u.id)
        for u in list(state.units.values()) + list(state.dead.values())
        if u.owner == seat and u.status == "used" and not check_undo(state, cat, u.id).violations
    ]


def _sells(state: PrismataState) -> list[PrismataAction]:
    seat = state.active
    return [
        model.Sell(u.id)
        for u in state.units.values()
        if u.owner == seat and u.fresh and not check_action(state, model.Sell(u.id)).violations
    ]


def _strikes(state: PrismataState, cat: Catalog) -> list[PrismataAction]:
    seat = state.active
    if state.res[seat].attack <= 0:
        return []
    return [
        model.Strike(u.id)
        for u in state.units.values()
        if u.owner != seat
        and cat.units[u.kind].frontline
        and not check_action(state, model.Strike(u.id)).violations
    ]

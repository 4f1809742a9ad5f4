"""A scenario per unit of the live catalog (PM-5.1, PM-5.4, PM-3.4): buying it works and is
undone exactly by selling it back; its click ability and its start-of-turn effect do what the
catalog says."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from referee.games.prismata import Buy, Click, PrismataState
from referee.games.prismata.catalog import Res, UnitType, load_catalog
from tests.prismata.helpers import LIVE, RULES, UnitSpec, scenario

CAT = load_catalog(LIVE)
PLENTY = Res(gold=100, energy=10, blue=10, red=10, green=10, attack=20)


def _consumables(needs: tuple[tuple[str, int], ...]) -> list[UnitSpec]:
    out: list[UnitSpec] = []
    for kind, n in needs:
        status = "used" if CAT.units[kind].click is not None else "idle"
        out.extend([(kind, {"status": status})] * n)
    return out


def _same_position(a: PrismataState, b: PrismataState) -> bool:
    da = msgspec.to_builtins(msgspec.structs.replace(a, next_id=0))
    db = msgspec.to_builtins(msgspec.structs.replace(b, next_id=0))
    return bool(da == db)


def _made(before: PrismataState, after: PrismataState) -> list[Any]:
    return [u for u in after.units.values() if u.id >= before.next_id]


@pytest.mark.parametrize("name", sorted(CAT.units))
def test_buy_each_unit(name: str) -> None:
    """PM-5.1/PM-5.2/PM-5.3: every unit can be bought, pays its cost, and selling restores all."""
    utype = CAT.units[name]
    consum = _consumables(utype.consume)
    s = scenario([*consum, "Wall"], ["Wall"], res1=PLENTY, offer=[name])
    ids = tuple(range(1, len(consum) + 1))
    action = Buy(name, ids)
    assert RULES.check(s, action).legal, RULES.check(s, action)
    t = RULES.apply(s, action)
    gain = utype.on_buy.gain if utype.on_buy else Res()
    assert t.res[0] == PLENTY - utype.cost + gain
    assert t.supply[name][0] == s.supply[name][0] - 1
    assert all(i not in t.units for i in ids)
    new_id = s.next_id
    made = [u for u in _made(s, t) if u.id != new_id]
    expected = sum(c.count for c in utype.on_buy.create) if utype.on_buy else 0
    assert len(made) == expected
    if utype.on_buy:
        for c in utype.on_buy.create:
            assert sum(1 for u in made if u.kind == c.unit and u.build == c.delay) >= c.count
    if utype.spell:
        assert new_id not in t.units
        assert t.dead[new_id].cause == "sacrifice"
        return
    bought = t.units[new_id]
    assert bought.fresh
    assert bought.build == utype.build_time
    assert bought.status == "idle"
    back = RULES.apply(t, RULES.parse(f"sell #{new_id}"))
    assert RULES.check(t, RULES.parse(f"sell #{new_id}")).legal
    assert _same_position(back, s)


def _target_for(utype: UnitType) -> UnitSpec | None:
    ability = utype.click
    assert ability is not None
    if ability.target is not None and ability.target.kind == "chill":
        return "Wall"
    if ability.target is not None:
        return ability.target.only[0] if ability.target.only else "Tarsier"
    if ability.effect.destroy:
        return (ability.effect.destroy[0].unit, {"status": "used"})
    return None


@pytest.mark.parametrize("name", sorted(n for n, u in CAT.units.items() if u.click is not None))
def test_click_each_unit(name: str) -> None:
    """PM-5.4..PM-5.8: each click ability pays its costs, has its effect, and can be undone."""
    utype = CAT.units[name]
    ability = utype.click
    assert ability is not None
    health = max(utype.health, ability.health_cost + 1)
    consum = _consumables(ability.consume)
    target_spec = _target_for(utype)
    p2: list[UnitSpec] = ["Wall"]
    if target_spec is not None:
        p2.append(target_spec)
    s = scenario([(name, {"health": health}), *consum], p2, res1=PLENTY)
    consumed = tuple(range(2, 2 + len(consum)))
    target = len(consum) + 3 if target_spec is not None else None
    action = Click(1, target, consumed)
    assert RULES.check(s, action).legal, RULES.check(s, action)
    t = RULES.apply(s, action)
    effect = ability.effect
    assert t.res[0] == PLENTY - ability.cost + effect.gain
    assert t.res[1] == Res() + effect.give
    made = _made(s, t)
    assert len(made) == sum(c.count for c in effect.create)
    delays = {(c.unit, c.delay) for c in effect.create}
    for u in made:
        assert (u.kind, u.exhaust) in delays
        assert u.build == 0
        assert u.status == "idle"
    if target is not None:
        if ability.target is not None and ability.target.kind == "chill":
            assert t.units[target].chill == ability.target.amount
        else:
            assert target not in t.units
    if effect.sacrifice:
        assert 1 not in t.units
    else:
        me = t.units[1]
        assert me.status == "used"
        assert me.exhaust == effect.exhaust
        assert me.health == health - ability.health_cost
        if utype.stamina:
            assert me.stamina == utype.stamina - 1
        blocks = utype.blocks_after_click
        assert (1 in RULES.observe(t)["blocking"]) == (blocks and not me.exhaust)
    undo = RULES.parse("undo #1")
    assert RULES.check(t, undo).legal, RULES.check(t, undo)
    assert _same_position(RULES.apply(t, undo), s)


@pytest.mark.parametrize("name", sorted(n for n, u in CAT.units.items() if u.start is not None))
def test_start_of_turn_each_unit(name: str) -> None:
    """PM-3.4/PM-3.5: each start-of-turn effect gains, gives, resonates, makes and
    sacrifices as listed."""
    utype = CAT.units[name]
    effect = utype.start
    assert effect is not None
    helpers: list[UnitSpec] = []
    if effect.resonate is not None:
        helpers = [effect.resonate.unit, effect.resonate.unit, (effect.resonate.unit, {"build": 2})]
    with_unit = scenario(["Wall"], [*helpers, name])
    without = scenario(["Wall"], list(helpers))
    a = RULES.apply(with_unit, RULES.parse("end"))
    b = RULES.apply(without, RULES.parse("end"))
    count = 0
    if effect.resonate is not None:
        count = 2 + (1 if name == effect.resonate.unit else 0)
    expected = effect.gain + (effect.resonate.gain.times(count) if effect.resonate else Res())
    assert a.res[1] - b.res[1] == expected
    assert a.res[0] - b.res[0] == effect.give
    uid = len(helpers) + 2
    made = [u for u in a.units.values() if u.id >= with_unit.next_id]
    assert len(made) == sum(c.count for c in effect.create)
    if effect.sacrifice:
        assert uid not in a.units
    else:
        assert a.units[uid].exhaust == effect.exhaust

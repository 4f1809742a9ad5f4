"""An independent check of Prismata's purchases and breach threshold over random games.

The engine's decisions are compared with ones worked out here from the shared unit data
(``/work/shared/data/prismata/unit_definitions.json``, read directly, not through the engine's
catalog) and the rules summary (``/work/shared/rules/prismata.txt``):

- PM-5.2 (buy "if you can pay their costs, and you have supplies of those units available"):
  a unit without a consume cost may be bought in the action phase exactly when the active
  seat's resources cover its ``buyCost`` and its supply is not spent; once bought, the cost
  is gone from the seat's resources, one fewer is left in its supply, and a unit of that kind
  with the data's ``toughness`` (0 read as 1, PM-I.3) is on its side, unless it is a spell,
  which leaves play at once (PM-I.13).
- PM-4.2: the defense every view shows is that sum, and its blockers those units.
- PM-7.1 ("A player having attack power equal to or greater than the opponent's defense assigns
  the damage"): ending the action phase with attack at least the defense, the sum of the
  health of the opponent's blockers, starts the breach; with less, the turn passes. A blocker
  blocks by default (``defaultBlocking``), or after using its ability only if the data says so
  (``assignedBlocking``), is neither under construction nor exhausted (PM-I.22), and is not
  frozen (chill at least its health).

Only the live balance (March 2026) is checked, the one the shared data describes.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.contract import Setup
from referee.games.prismata import Buy, Click, End, PrismataAction, PrismataState
from tests.prismata.helpers import LIVE, PLAYERS, RULES

DATA = Path("/work/shared/data/prismata/unit_definitions.json")
COST = re.compile(r"^(\d*)([HGBCA]*)$")
LETTERS = {"H": "energy", "G": "green", "B": "blue", "C": "red", "A": "attack"}

pytestmark = pytest.mark.skipif(not DATA.is_file(), reason="shared Prismata data not present")


@cache
def units() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(DATA.read_text())["units"]
    return data


def cost_of(name: str) -> dict[str, int]:
    """``buyCost`` as amounts: leading digits gold, then one letter per unit of the others."""
    text = str(units()[name].get("buyCost", "0"))
    match = COST.match(text)
    assert match, f"{name}: unreadable cost {text!r}"
    amounts = {"gold": int(match.group(1) or 0)}
    for letter in match.group(2):
        amounts[LETTERS[letter]] = amounts.get(LETTERS[letter], 0) + 1
    return amounts


def health_of(name: str) -> int:
    """``toughness``; PM-I.3: the live data's 0 (four self-sacrificing units) is 1."""
    return int(units()[name].get("toughness", 1)) or 1


def resources(state: PrismataState, seat: int) -> dict[str, int]:
    res = state.res[seat]
    return {k: getattr(res, k) for k in ("gold", "energy", "blue", "red", "green", "attack")}


def may_buy(state: PrismataState, name: str) -> bool:
    seat = state.active
    if state.phase != "action" or state.result is not None:
        return False
    if state.supply[name][seat] <= 0:
        return False
    have = resources(state, seat)
    return all(have.get(k, 0) >= n for k, n in cost_of(name).items())


def blocks(unit: Any) -> bool:
    data = units()[unit.kind]
    if unit.build or unit.exhaust or unit.chill >= unit.health:
        return False
    key = "assignedBlocking" if unit.status == "used" else "defaultBlocking"
    return bool(data.get(key, 0))


def defense(state: PrismataState, seat: int) -> int:
    return sum(u.health for u in state.units.values() if u.owner == seat and blocks(u))


def check_buys(state: PrismataState) -> None:
    for name in state.supply:
        if units()[name].get("buySac"):
            continue  # a consume cost names the units it takes: not checked here
        engine = RULES.check(state, Buy(name)).legal
        assert engine == may_buy(state, name), (name, state.phase, resources(state, state.active))


def check_defense(state: PrismataState) -> None:
    """PM-4.2: the defense and the blockers every view shows."""
    shown = RULES.observe(state)
    assert shown["defense"] == [defense(state, 0), defense(state, 1)]
    assert sorted(shown["blocking"]) == sorted(u.id for u in state.units.values() if blocks(u))


def check_bought(before: PrismataState, after: PrismataState, name: str) -> None:
    seat = before.active
    have, now = resources(before, seat), resources(after, seat)
    cost = cost_of(name)
    assert {k: have[k] - cost.get(k, 0) for k in have} == now, name
    assert after.supply[name][seat] == before.supply[name][seat] - 1, name
    new = [u for uid, u in after.units.items() if uid not in before.units]
    made = [u for u in new if u.kind == name and u.owner == seat]
    if units()[name].get("spell"):  # PM-I.13: a spell leaves play as it is bought
        assert made == [], name
        return
    assert len(made) == 1, (name, new)  # a purchase's own script may make others too
    assert made[0].health == health_of(name), name


def check_end(before: PrismataState, after: PrismataState) -> None:
    seat = before.active
    attack = before.res[seat].attack
    enemy_units = any(u.owner != seat for u in before.units.values())
    breach = attack > 0 and enemy_units and attack >= defense(before, 1 - seat)
    if after.result is None:
        assert (after.phase == "breach") == breach, (attack, defense(before, 1 - seat))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    size=st.sampled_from([5, 8]),
    picks=st.lists(st.integers(0, 2**16), min_size=40, max_size=200),
)
def test_buys_and_breaches_agree_with_the_unit_data(seed: int, size: int, picks: list[int]) -> None:
    """PM-5.2, PM-7.1: every purchase decision and its result, and every end of an action
    phase, as the unit data and the rules summary have them."""
    setup = RULES.resolve_setup(
        Setup(players=PLAYERS, ruleset=LIVE, options={"seed": seed, "random_size": size})
    )
    state = RULES.initial_state(setup)
    for pick in picks:
        if state.result is not None:
            break
        check_buys(state)
        check_defense(state)
        actions = list(RULES.legal_actions(state))
        buys = [a for a in actions if isinstance(a, Buy) and not a.consume]
        clicks = [a for a in actions if isinstance(a, Click) and a.target is None]
        # click first (gold and attack; a clicked unit mostly stops blocking, so breaches
        # come), then buy (an economy grows attack), ending the phase now and then
        action: PrismataAction
        if clicks and pick % 10 < 5:
            action = clicks[pick % len(clicks)]
        elif pick % 10 == 5 and End() in actions:
            action = End()
        elif buys and pick % 10 < 9:
            action = buys[pick % len(buys)]
        else:
            action = actions[pick % len(actions)]
        after = RULES.apply(state, action)
        if isinstance(action, Buy) and not action.consume:
            check_bought(state, after, action.unit)
        if isinstance(action, End) and state.phase == "action":
            check_end(state, after)
        state = after
    assert msgspec.json.encode(state)

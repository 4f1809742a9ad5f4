"""Checking Prismata actions: ``check`` returns the clauses an action breaks.

Clause ids cited here are defined in ``rulebook.toml``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, get_args

import msgspec

from referee.contract import LEGAL, Verdict, Violation
from referee.games.prismata import model
from referee.games.prismata.catalog import Catalog, UnitType, load_catalog
from referee.games.prismata.engine import can_block, label
from referee.games.prismata.model import SEATS, Phase, PrismataAction, PrismataState, Unit
from referee.kit.dispatch import Dispatch

__all__ = [
    "ENTRY_CHECKS",
    "PHASE_OF",
    "breach_problem",
    "check",
    "check_action",
    "check_undo",
    "click_problem",
    "consumable",
    "target_problem",
]
# ---------------------------------------------------------------------------
# check
# ---------------------------------------------------------------------------


def _bad(clause: str, reason: str) -> Verdict:
    return Verdict((Violation(clause, reason),))


def _own_unit(state: PrismataState, uid: int, what: str) -> tuple[Unit | None, Verdict]:
    u = state.units.get(uid)
    if u is None:
        why = (
            f"{state.dead[uid].kind} #{uid} is no longer in play"
            if uid in state.dead
            else f"there is no unit #{uid}"
        )
        return None, _bad("PM-1.3", f"{why}, so it cannot {what}")
    if u.owner != state.active:
        return None, _bad(
            "PM-1.3", f"{label(u)} belongs to {SEATS[u.owner]}, not to {SEATS[state.active]}"
        )
    return u, LEGAL


def consumable(u: Unit, utype: UnitType) -> str:
    """PM-5.3: why ``u`` cannot be consumed now, or empty text when it can."""
    if u.build:
        return "is under construction"
    if u.exhaust:
        return "is exhausted"
    if utype.click is not None and u.status != "used":
        return "has not used its click ability this turn (click it first)"
    return ""


def _check_consume(
    state: PrismataState,
    cat: Catalog,
    needed: Sequence[tuple[str, int]],
    given: Sequence[int],
    for_what: str,
) -> Verdict:
    want: dict[str, int] = {}
    for kind, n in needed:
        want[kind] = want.get(kind, 0) + n
    if len(set(given)) != len(given):
        return _bad(
            "PM-5.3", f"the same unit is named twice among the units consumed for {for_what}"
        )
    got: dict[str, int] = {}
    for cid in given:
        u = state.units.get(cid)
        if u is None:
            return _bad(
                "PM-5.3", f"unit #{cid}, named to be consumed for {for_what}, is not in play"
            )
        if u.owner != state.active:
            return _bad("PM-5.3", f"{label(u)} belongs to the opponent and cannot be consumed")
        if u.kind not in want:
            needs = ", ".join(f"{n} {k}" for k, n in want.items()) or "nothing"
            return _bad("PM-5.3", f"{for_what} consumes {needs}, not {label(u)}")
        why = consumable(u, cat.units[u.kind])
        if why:
            return _bad("PM-5.3", f"{label(u)} {why} and cannot be consumed")
        got[u.kind] = got.get(u.kind, 0) + 1
    if got != want:
        needs = ", ".join(f"{n} {k}" for k, n in want.items()) or "nothing"
        return _bad("PM-5.3", f"{for_what} consumes exactly {needs}; {len(given)} unit(s) named")
    return LEGAL


ENTRY_CHECKS: Dispatch[PrismataState, Catalog, Verdict] = Dispatch("checks of Prismata entries")
"""Each entry type's check, given the game's catalog (the kit's idiom, ``referee.kit.dispatch``)."""

PHASE_OF: dict[type, tuple[str, str, str]] = {
    model.Buy: ("action", "PM-5.1", "units are bought in the action phase"),
    model.Click: ("action", "PM-5.4", "abilities are used in the action phase"),
    model.Sell: ("action", "PM-5.9", "a purchase can only be taken back in the action phase"),
    model.Strike: ("action", "PM-6.1", "frontline units are attacked in the action phase"),
    model.Block: ("defense", "PM-4.1", "blockers are chosen in the defense phase"),
    model.Breach: ("breach", "PM-7.2", "damage is assigned to units during a breach"),
    model.Unbreach: ("breach", "PM-7.5", "breach damage can only be taken back during the breach"),
}
"""The one phase each entry type is made in, the clause an entry made in another breaks
and that clause in words; checked before the type's own check (``Undo`` and ``End`` are
made in any phase): ``_IN_PHASE`` holds the checks as seen in each phase."""


def check_action(
    state: PrismataState, action: PrismataAction, acting: str | None = None
) -> Verdict:
    """Legal, or the violated clauses with reasons naming the units by name and id (the
    action is by the seat to act: ``acting`` is that seat or ``None``)."""
    if state.result is not None:
        return _bad("PM-9.4", "the game is over; no more actions can be recorded")
    cat = load_catalog(state.ruleset)
    checker = _IN_PHASE[state.phase].get(type(action))
    if checker is None:
        return _bad("PM-N.1", f"not a Prismata action: {action!r}")  # pragma: no cover
    return checker(state, action, cat)


@ENTRY_CHECKS.register(model.End)
def _check_end(state: PrismataState, action: model.End, cat: Catalog) -> Verdict:
    if state.phase == "defense":
        incoming = state.res[1 - state.active].attack
        if incoming > 0:
            return _bad(
                "PM-4.1",
                f"{incoming} incoming damage must still be blocked before the defense ends",
            )
        return LEGAL
    if state.phase == "breach":
        return _check_breach_over(state, cat)
    return LEGAL


def _check_breach_over(state: PrismataState, cat: Catalog) -> Verdict:
    """PM-7.4: the breach ends only once the attack left can damage no enemy unit."""
    seat = state.active
    attack = state.res[seat].attack
    if attack > 0:
        for other in state.units.values():
            if other.owner != seat and not breach_problem(state, cat, other):
                return _bad(
                    "PM-7.4",
                    f"the breach cannot end while {attack} attack can still damage {label(other)}",
                )
    return LEGAL


@ENTRY_CHECKS.register(model.Buy)
def _check_buy(state: PrismataState, action: model.Buy, cat: Catalog) -> Verdict:
    seat = state.active
    name = action.unit
    utype = cat.units.get(name)
    if utype is None or name not in state.supply:
        return _bad("PM-5.1", f"{name} is not on offer in this game")
    left = state.supply[name][seat]
    if left <= 0:
        return _bad("PM-2.4", f"{SEATS[seat]} has no {name} left in supply")
    have = state.res[seat]
    if not have.covers(utype.cost):
        return _bad(
            "PM-5.2", f"{name} costs {utype.cost.words()}; {SEATS[seat]} has {have.words()}"
        )
    return _check_consume(state, cat, utype.consume, action.consume, f"buying {name}")


@ENTRY_CHECKS.register(model.Block)
def _check_block(state: PrismataState, action: model.Block, cat: Catalog) -> Verdict:
    blocker, v = _own_unit(state, action.unit, "block")
    if blocker is None:
        return v
    if state.res[1 - state.active].attack <= 0:
        return _bad("PM-4.1", "there is no incoming damage left to block")
    btype = cat.units[blocker.kind]
    if not can_block(blocker, btype):
        return _bad("PM-4.2", f"{label(blocker)} cannot block: {_why_not_block(blocker, btype)}")
    return LEGAL


@ENTRY_CHECKS.register(model.Strike)
def _check_strike(state: PrismataState, action: model.Strike, cat: Catalog) -> Verdict:
    seat = state.active
    u = state.units.get(action.unit)
    if u is None or u.owner == seat:
        return _bad("PM-6.1", f"#{action.unit} is not an enemy unit in play")
    utype = cat.units[u.kind]
    attack = state.res[seat].attack
    if not utype.frontline:
        return _bad(
            "PM-6.1",
            f"{label(u)} is not frontline; only frontline units can be attacked directly",
        )
    if u.build:
        return _bad("PM-6.1", f"{label(u)} is under construction and cannot be damaged")
    if attack <= 0:
        return _bad("PM-6.2", f"{SEATS[seat]} has no attack to spend")
    if not utype.fragile and attack < u.health:
        return _bad(
            "PM-6.2", f"{label(u)} has {u.health} health; {attack} attack cannot destroy it"
        )
    return LEGAL


@ENTRY_CHECKS.register(model.Breach)
def _check_breach(state: PrismataState, action: model.Breach, cat: Catalog) -> Verdict:
    u = state.units.get(action.unit)
    if u is None or u.owner == state.active:
        return _bad("PM-7.2", f"#{action.unit} is not an enemy unit in play")
    why = breach_problem(state, cat, u)
    if why:
        return _bad(why[0], why[1])
    return LEGAL


@ENTRY_CHECKS.register(model.Unbreach)
def _check_unbreach(state: PrismataState, action: model.Unbreach, cat: Catalog) -> Verdict:
    u = state.units.get(action.unit) or state.dead.get(action.unit)
    if u is None or u.owner == state.active or u.hit <= 0:
        return _bad("PM-7.5", f"#{action.unit} took no breach damage this turn")
    utype = cat.units[u.kind]
    restored = msgspec.structs.replace(u, health=u.health + u.hit) if utype.fragile else u
    if can_block(restored, utype):
        return _bad(
            "PM-7.5",
            f"{label(u)} would return as a blocker after the overrun (the chill on it was "
            "taken back), so its breach damage stands",
        )
    return LEGAL


@ENTRY_CHECKS.register(model.Undo)
def _check_undo_entry(state: PrismataState, action: model.Undo, cat: Catalog) -> Verdict:
    return check_undo(state, cat, action.unit)


@ENTRY_CHECKS.register(model.Sell)
def _check_sell(state: PrismataState, action: model.Sell, cat: Catalog) -> Verdict:
    seat = state.active
    u = state.units.get(action.unit)
    if u is None:
        return _bad("PM-5.9", f"#{action.unit} is not a unit in play")
    if u.owner != seat or not u.fresh:
        return _bad("PM-5.9", f"{label(u)} was not bought by {SEATS[seat]} this turn")
    utype = cat.units[u.kind]
    if utype.on_buy is not None and not state.res[seat].covers(utype.on_buy.gain):
        return _bad("PM-5.9", f"the resources gained by buying {label(u)} have been spent")
    for cid in u.made:
        if cid not in state.units:
            return _bad(
                "PM-5.9",
                f"unit #{cid} made by buying {label(u)} is gone, so the purchase stands",
            )
    return LEGAL


def _why_not_block(u: Unit, utype: UnitType) -> str:
    if not (utype.blocks_after_click if u.status == "used" else utype.blocker):
        return (
            "it used its click ability this turn" if utype.blocker else f"a {u.kind} does not block"
        )
    if u.build:
        return "it is under construction"
    if u.exhaust:
        return "it is exhausted"
    return f"it is frozen ({u.chill} chill on {u.health} health)"


def breach_problem(state: PrismataState, cat: Catalog, u: Unit) -> tuple[str, str] | None:
    """Why the attacker cannot assign breach damage to enemy unit ``u`` now (None: it can)."""
    seat = state.active
    attack = state.res[seat].attack
    if attack <= 0:
        return ("PM-7.2", "there is no attack left to assign")
    if u.build:
        shielded_by_any = state.table.overkill != "undamageable"
        for other in state.units.values():
            if (
                other.owner == u.owner
                and not other.build
                and (shielded_by_any or _can_take(cat, other, attack))
            ):
                why = (
                    f"{label(u)} is under construction; it can only be damaged once every "
                    + (
                        "other enemy unit is gone"
                        if shielded_by_any
                        else "other enemy unit is gone or too big for the attack left"
                    )
                    + f" ({label(other)} remains)"
                )
                return ("PM-7.3", why)
    if not _can_take(cat, u, attack):
        why = (
            f"{label(u)} has {u.health} health and is not fragile; {attack} attack cannot "
            "destroy it"
        )
        return ("PM-7.2", why)
    return None


def _can_take(cat: Catalog, u: Unit, attack: int) -> bool:
    """PM-7.2: whether ``attack`` may be assigned to ``u`` in a breach (a fragile unit takes
    any amount, another only enough to destroy it)."""
    return cat.units[u.kind].fragile or attack >= u.health


def target_problem(
    state: PrismataState, cat: Catalog, ability_unit: Unit, utype: UnitType, target: int | None
) -> Verdict:
    ability = utype.click
    if ability is None:
        return _bad("PM-5.4", f"{label(ability_unit)} has no ability to aim")
    needs_target = ability.target is not None or bool(ability.effect.destroy)
    if not needs_target:
        if target is not None:
            return _bad("PM-5.5", f"{label(ability_unit)}'s ability takes no target")
        return LEGAL
    if target is None:
        return _bad("PM-5.5", f"{label(ability_unit)}'s ability needs a target ('on #id')")
    t = state.units.get(target)
    if t is None:
        return _bad("PM-5.5", f"target #{target} is not a unit in play")
    if t.owner == state.active:
        return _bad("PM-5.5", f"{label(t)} is your own unit; targets must be enemy units")
    ttype = cat.units[t.kind]
    if ability.target is not None and ability.target.kind == "chill":
        if not can_block(t, ttype):
            return _bad(
                "PM-5.6",
                f"{label(t)} cannot be chilled: it is not blocking ({_why_not_block(t, ttype)})",
            )
        return LEGAL
    if ability.target is not None:  # snipe
        if t.build:
            return _bad("PM-5.7", f"{label(t)} is under construction and cannot be sniped")
        mh = ability.target.max_health
        if mh is not None and t.health > mh:
            return _bad(
                "PM-5.7",
                f"{label(ability_unit)} only destroys units with at most {mh} health; "
                f"{label(t)} has {t.health}",
            )
        if ability.target.only and t.kind not in ability.target.only:
            return _bad(
                "PM-5.7",
                f"{label(ability_unit)} only destroys {', '.join(ability.target.only)}; "
                f"not {label(t)}",
            )
        return LEGAL
    d = ability.effect.destroy[0]
    if t.kind != d.unit or (d.not_blocking and can_block(t, ttype)):
        cond = " non-blocking" if d.not_blocking else ""
        return _bad(
            "PM-5.7",
            f"{label(ability_unit)} destroys a{cond} enemy {d.unit}; {label(t)} is not one",
        )
    if t.build:  # PM-I.19
        return _bad(
            "PM-5.7", f"{label(t)} is under construction and cannot be destroyed until it is built"
        )
    return LEGAL


def click_problem(state: PrismataState, cat: Catalog, u: Unit, utype: UnitType) -> str:
    """PM-5.4: why ``u``'s click ability cannot be used now (empty when it can, costs aside)."""
    ability = utype.click
    if ability is None:
        return f"a {u.kind} has no click ability"
    if u.build:
        return "it is under construction"
    if u.exhaust:
        return "it is exhausted"
    if u.status == "used":
        return "it already used its ability this turn"
    if u.status != "ready":
        return "it cannot use its ability on the turn it arrives"
    if utype.stamina and u.stamina < 1:
        return "it has no stamina left"
    if u.health < ability.health_cost:
        return f"it needs {ability.health_cost} health to pay for its ability and has {u.health}"
    if (
        ability.health_cost
        and state.table.health_cost == "must_survive"
        and u.health <= ability.health_cost
    ):  # PM-I.21
        return (
            f"it needs more than {ability.health_cost} health to pay for its ability and "
            f"stay alive, and has {u.health}"
        )
    return ""


@ENTRY_CHECKS.register(model.Click)
def _check_click(state: PrismataState, action: model.Click, cat: Catalog) -> Verdict:
    u, v = _own_unit(state, action.unit, "be clicked")
    if u is None:
        return v
    utype = cat.units[u.kind]
    why = click_problem(state, cat, u, utype)
    if why:
        return _bad("PM-5.4", f"{label(u)} cannot use its ability: {why}")
    ability = utype.click
    if ability is None:
        return _bad("PM-5.4", f"{label(u)} has no ability to use")
    have = state.res[state.active]
    if not have.covers(ability.cost):
        return _bad(
            "PM-5.2",
            f"{label(u)}'s ability costs {ability.cost.words()}; "
            f"{SEATS[state.active]} has {have.words()}",
        )
    v = target_problem(state, cat, u, utype, action.target)
    if not v:
        return v
    if u.id in action.consume:
        return _bad("PM-5.3", f"{label(u)} cannot consume itself")
    return _check_consume(state, cat, ability.consume, action.consume, f"{label(u)}'s ability")


def check_undo(state: PrismataState, cat: Catalog, uid: int) -> Verdict:
    seat = state.active
    if state.phase == "breach":
        if state.overrun and not _chilled_unit_breached(state, cat, uid):
            return _bad(
                "PM-5.8",
                "once units have been overrun or breached, clicks can no longer be taken back "
                "(except a chill on a unit the breach has destroyed)",
            )
    elif state.phase != "action":
        return _bad(
            "PM-5.8",
            f"clicks can only be taken back in the action phase; it is the {state.phase} phase",
        )
    u = state.units.get(uid)
    if u is None:
        u = state.dead.get(uid)
        if u is None or u.cause not in ("sacrifice", "health"):
            return _bad("PM-5.8", f"#{uid} is not a unit in play whose click can be taken back")
    if u.owner != seat:
        return _bad("PM-5.8", f"{label(u)} belongs to {SEATS[u.owner]}")
    if u.status != "used":
        return _bad("PM-5.8", f"{label(u)} has not used its ability this turn")
    utype = cat.units[u.kind]
    ability = utype.click
    if ability is None:
        return _bad("PM-5.8", f"{label(u)} has no ability whose use could be taken back")
    if not state.res[seat].covers(ability.effect.gain):
        return _bad(
            "PM-5.8", f"what {label(u)}'s ability produced ({ability.effect.gain}) has been spent"
        )
    if not state.res[1 - seat].covers(ability.effect.give):
        return _bad("PM-5.8", f"what {label(u)}'s ability gave the opponent has been spent")
    for cid in u.made:
        if cid not in state.units:
            return _bad("PM-5.8", f"unit #{cid} made by {label(u)} is gone, so the click stands")
    for cid in u.ate:
        if cid not in state.dead:
            return _bad("PM-5.8", f"unit #{cid} removed by {label(u)} cannot be brought back")
    return LEGAL


def _chilled_unit_breached(state: PrismataState, cat: Catalog, uid: int) -> bool:
    """PM-I.7: whether ``uid``'s click chilled a unit that has since been destroyed by breach
    damage, so that taking the chill back cannot change the defense that was overrun."""
    u = state.units.get(uid) or state.dead.get(uid)
    if u is None or u.target is None:
        return False
    ability = cat.units[u.kind].click
    if ability is None or ability.target is None or ability.target.kind != "chill":
        return False
    target = state.dead.get(u.target)
    return target is not None and target.cause == "breached"


def _wrong_phase(state: PrismataState, action: PrismataAction, cat: Catalog) -> Verdict:
    """The clause of ``PHASE_OF`` an entry made outside its phase breaks."""
    _, clause, rule = PHASE_OF[type(action)]
    return _bad(clause, f"{rule}; it is the {state.phase} phase")


def _seen_in(phase: str) -> dict[type | str, Callable[[PrismataState, Any, Catalog], Verdict]]:
    """``ENTRY_CHECKS`` with ``_wrong_phase`` for the entry types made in another phase."""
    table = dict(ENTRY_CHECKS.handlers)
    for kind, (made_in, _, _) in PHASE_OF.items():
        if made_in != phase:
            table[kind] = _wrong_phase
    return table


_IN_PHASE = {phase: _seen_in(phase) for phase in get_args(Phase)}
"""``ENTRY_CHECKS`` as seen in each phase: an entry type made outside its phase
(``PHASE_OF``) finds ``_wrong_phase``, so the phase costs no test on the hot path."""

check = check_action
"""The contract's ``check`` is ``check_action`` itself: no call in between on the hot path."""

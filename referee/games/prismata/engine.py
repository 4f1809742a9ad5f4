"""The Prismata turn engine: applying, checking and listing actions.

``apply_action`` never checks anything (replay calls it on recorded actions);
``check_action`` returns the clauses an action breaks; ``legal_actions`` lists
every legal action up to interchangeable units (see PM-I.9). All functions are
pure: the input state is never changed.

Clause ids cited here are defined in ``rulebook.toml``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import msgspec

from referee.contract import LEGAL, Verdict, Violation
from referee.games.prismata.catalog import Catalog, Effect, Res, UnitType, load_catalog
from referee.games.prismata.model import (
    SEATS,
    Block,
    Breach,
    Buy,
    Click,
    End,
    PrismataAction,
    PrismataState,
    Result,
    Sell,
    Strike,
    Unbreach,
    Undo,
    Unit,
)

if TYPE_CHECKING:
    from referee.games.prismata.model import Phase

__all__ = [
    "Work",
    "apply_action",
    "can_block",
    "catalog_of",
    "check_action",
    "defense",
    "label",
    "legal_actions",
    "start_turn",
]

_replace = msgspec.structs.replace


def catalog_of(state: PrismataState) -> Catalog:
    return load_catalog(state.ruleset)


def label(unit: Unit) -> str:
    """A unit named for people: display name and id, e.g. ``Drone #4``."""
    return f"{unit.kind} #{unit.id}"


def can_block(unit: Unit, utype: UnitType) -> bool:
    """PM-4.2: blocks if its kind blocks (after a click: if it still blocks),
    it is built, not exhausted and not frozen."""
    if not (utype.blocks_after_click if unit.status == "used" else utype.blocker):
        return False
    return unit.exhaust == 0 and unit.build == 0 and unit.chill < unit.health


def defense(units: dict[int, Unit], seat: int, cat: Catalog) -> int:
    """PM-4.2: total health of the seat's units that can block."""
    total = 0
    for u in units.values():
        if u.owner == seat and can_block(u, cat.units[u.kind]):
            total += u.health
    return total


def _has_click(utype: UnitType) -> bool:
    return utype.click is not None


class Work:
    """A mutable working copy of a state used while applying one action."""

    __slots__ = (
        "active",
        "cat",
        "dead",
        "new_ids",
        "next_id",
        "overrun",
        "phase",
        "res",
        "result",
        "state",
        "supply",
        "turn",
        "units",
    )

    def __init__(self, state: PrismataState) -> None:
        self.state = state
        self.cat = load_catalog(state.ruleset)
        self.units = dict(state.units)
        self.dead = dict(state.dead)
        self.res = list(state.res)
        self.next_id = state.next_id
        self.supply: dict[str, tuple[int, int]] | None = None
        self.phase: Phase = state.phase
        self.active = state.active
        self.turn = state.turn
        self.overrun = state.overrun
        self.result = state.result
        self.new_ids: list[int] = []

    def finish(self) -> PrismataState:
        s = self.state
        return PrismataState(
            ruleset=s.ruleset,
            table=s.table,
            random_set=s.random_set,
            supply=self.supply if self.supply is not None else s.supply,
            supply_max=s.supply_max,
            turn=self.turn,
            active=self.active,
            phase=self.phase,
            res=(self.res[0], self.res[1]),
            units=self.units,
            dead=self.dead,
            next_id=self.next_id,
            overrun=self.overrun,
            result=self.result,
        )

    # -- unit bookkeeping ---------------------------------------------------
    def kill(self, uid: int, cause: str) -> None:
        unit = self.units.pop(uid)
        self.dead[uid] = _replace(unit, cause=cause)

    def revive(self, uid: int) -> None:
        unit = self.dead.pop(uid)
        self.units[uid] = _replace(unit, cause="")

    def create(
        self,
        kind: str,
        owner: int,
        *,
        build: int = 0,
        exhaust: int = 0,
        lifespan: int = 0,
        bought: bool = False,
    ) -> int:
        utype = self.cat.units[kind]
        uid = self.next_id
        self.next_id += 1
        self.units[uid] = Unit(
            id=uid,
            owner=owner,
            kind=kind,
            health=utype.health,
            build=build,
            exhaust=exhaust,
            lifespan=lifespan or utype.lifespan,
            stamina=utype.stamina,
            status="idle",
            fresh=bought,
        )
        self.new_ids.append(uid)
        return uid

    def run_effect(
        self,
        source: int,
        owner: int,
        effect: Effect,
        *,
        on_buy: bool,
        destroy_target: int | None = None,
    ) -> tuple[list[int], list[int]]:
        """Gain, give, resonate, create and destroy (PM-5.x); returns (made, destroyed)."""
        if not effect.gain.empty:
            self.res[owner] = self.res[owner] + effect.gain
        if not effect.give.empty:
            self.res[1 - owner] = self.res[1 - owner] + effect.give
        if effect.resonate is not None:
            kind = effect.resonate.unit
            n = 0
            for u in self.units.values():
                if u.owner == owner and u.kind == kind and u.build == 0 and u.exhaust == 0:
                    n += 1
            if n:
                self.res[owner] = self.res[owner] + effect.resonate.gain.times(n)
        made: list[int] = []
        for c in effect.create:
            who = owner if c.owner == "self" else 1 - owner
            for _ in range(c.count):
                if on_buy:
                    made.append(self.create(c.unit, who, build=c.delay, lifespan=c.lifespan))
                else:
                    made.append(self.create(c.unit, who, exhaust=c.delay, lifespan=c.lifespan))
        destroyed: list[int] = []
        for d in effect.destroy:
            if destroy_target is not None:
                self.kill(destroy_target, "destroyed")
                destroyed.append(destroy_target)
            else:
                for uid in _destroy_candidates(
                    self.units, self.cat, owner, d.unit, d.owner, d.not_blocking
                )[: d.count]:
                    self.kill(uid, "destroyed")
                    destroyed.append(uid)
        return made, destroyed

    # -- turn structure -----------------------------------------------------
    def start_turn(self, seat: int) -> None:
        """PM-3: the start of ``seat``'s turn (upkeep, then start-of-turn effects)."""
        cat = self.cat
        r = self.res[seat]
        self.res[seat] = Res(r.gold, 0, 0, 0, r.green, 0)
        order = [uid for uid, u in self.units.items() if u.owner == seat]
        for uid in order:
            u = self.units[uid]
            utype = cat.units[u.kind]
            lifespan, exhaust, build, status = u.lifespan, u.exhaust, u.build, u.status
            health, chill = u.health, u.chill
            if build == 0 and exhaust == 0 and lifespan > 0:
                lifespan -= 1
                if lifespan == 0:
                    self.units[uid] = _replace(
                        u, lifespan=0, fresh=False, hit=0, made=(), ate=(), target=None
                    )
                    self.kill(uid, "lifespan")
                    continue
            if build == 0 and exhaust > 0:
                exhaust -= 1
            if exhaust > 0:
                status = "idle"
            if build > 0:
                build -= 1
            if build == 0 and exhaust == 0:
                health += utype.regen
                if utype.health_cap > 0 and health > utype.health_cap:
                    health = utype.health_cap
                status = "ready" if utype.click is not None else "idle"
                chill = 0
            self.units[uid] = Unit(
                id=uid,
                owner=u.owner,
                kind=u.kind,
                health=health,
                chill=chill,
                build=build,
                exhaust=exhaust,
                lifespan=lifespan,
                stamina=u.stamina,
                status=status,
            )
        for uid in order:
            cur = self.units.get(uid)
            if cur is None or cur.build or cur.exhaust:
                continue
            start = cat.units[cur.kind].start
            if start is None:
                continue
            self.run_effect(uid, seat, start, on_buy=False)
            if start.sacrifice:
                self.kill(uid, "sacrifice")
            elif start.exhaust:
                self.units[uid] = _replace(self.units[uid], exhaust=start.exhaust)
        self.dead = {}
        self.phase = "action"
        self.active = seat

    def end_turn(self) -> None:
        """PM-8: the acting seat's turn ends; the game may end; the opponent goes on."""
        seat = self.active
        self.turn += 1
        self.dead = {}
        self.overrun = 0
        for uid, u in list(self.units.items()):
            if u.made or u.ate or u.target is not None or u.hit:
                self.units[uid] = _replace(u, made=(), ate=(), target=None, hit=0)
        if self.result is None:
            self.result = _decide(self)
        if self.result is not None:
            r = self.res[seat]
            self.res[seat] = _replace(r, attack=0)
        if self.res[seat].attack > 0:
            self.active = 1 - seat
            self.phase = "defense"
        else:
            self.start_turn(1 - seat)

    def damage(self, uid: int, attacker: int, cause: str) -> int:
        """Apply the attacker's attack to one unit (PM-4.3, PM-6.3, PM-7.3); returns damage dealt.

        The unit takes as much as it has health; it dies when that is all of it.
        Only a fragile unit keeps partial damage.
        """
        u = self.units[uid]
        attack = self.res[attacker].attack
        health = u.health
        dealt = min(health, attack)
        if cause == "breached":
            u = _replace(u, hit=u.hit + dealt)
        if self.cat.units[u.kind].fragile:
            u = _replace(u, health=health - dealt)
        self.units[uid] = u
        if dealt >= health:
            self.kill(uid, cause)
        self.res[attacker] = _replace(self.res[attacker], attack=attack - dealt)
        return dealt


def _destroy_candidates(
    units: dict[int, Unit], cat: Catalog, owner: int, kind: str, whose: str, not_blocking: bool
) -> list[int]:
    """Units a destroy effect may remove, best first as the reference engine orders them."""
    victim = owner if whose == "self" else 1 - owner
    out = []
    for u in units.values():
        if u.owner != victim or u.kind != kind or u.build:
            continue
        if not_blocking and can_block(u, cat.units[u.kind]):
            continue
        out.append(u)
    out.sort(key=lambda u: (u.exhaust, -u.lifespan, -u.stamina, -u.health, u.chill, u.id))
    return [u.id for u in out]


def _all_gone(units: dict[int, Unit], seat: int, doomed: bool) -> bool:
    for u in units.values():
        if u.owner != seat:
            continue
        if not doomed:
            return False
        if not (u.lifespan == 1 and u.build == 0 and u.exhaust == 0):
            return False
    return True


def _decide(w: Work) -> Result | None:
    """PM-9.1: at the end of a turn, a seat with no units (or, by variant, only doomed
    ones) loses."""
    doomed = w.state.table.doomed == "lose"
    gone = [_all_gone(w.units, 0, doomed), _all_gone(w.units, 1, doomed)]
    if gone[0] and gone[1]:
        if w.state.table.wipeout == "second_player":
            return Result(
                winner=1,
                clause="PM-9.3",
                reason="both seats lost their last units at once; "
                "scored for the second player (reference-engine rule)",
            )
        return Result(
            winner=None, clause="PM-9.2", reason="both seats lost their last units at once"
        )
    for seat in (0, 1):
        if gone[seat]:
            what = "units" if not doomed else "units that will survive their next turn"
            return Result(
                winner=1 - seat, clause="PM-9.1", reason=f"{SEATS[seat]} has no {what} left"
            )
    return None


def start_turn(state: PrismataState, seat: int) -> PrismataState:
    """Run ``seat``'s start of turn on ``state`` (used to build the first position)."""
    w = Work(state)
    w.start_turn(seat)
    return w.finish()


# ---------------------------------------------------------------------------
# apply
# ---------------------------------------------------------------------------


def apply_action(state: PrismataState, action: PrismataAction) -> PrismataState:
    """The state after ``action``; no checks."""
    w = Work(state)
    apply_into(w, action)
    return w.finish()


def apply_into(w: Work, action: PrismataAction) -> None:
    """Apply ``action`` to the working copy ``w``."""
    seat = w.active
    cat = w.cat
    if isinstance(action, Click):
        _click(w, action)
    elif isinstance(action, Buy):
        utype = cat.units[action.unit]
        w.res[seat] = w.res[seat] - utype.cost
        supply = dict(w.state.supply)
        left = supply[action.unit]
        supply[action.unit] = (left[0] - 1, left[1]) if seat == 0 else (left[0], left[1] - 1)
        w.supply = supply
        uid = w.create(action.unit, seat, build=utype.build_time, bought=True)
        for cid in action.consume:
            w.kill(cid, "consumed")
        made: list[int] = []
        if utype.on_buy is not None:
            made, destroyed = w.run_effect(uid, seat, utype.on_buy, on_buy=True)
            ate = tuple(action.consume) + tuple(destroyed)
        else:
            ate = tuple(action.consume)
        w.units[uid] = _replace(w.units[uid], made=tuple(made), ate=ate)
        if utype.on_buy is not None and utype.on_buy.sacrifice:
            w.kill(uid, "sacrifice")
    elif isinstance(action, End):
        if w.phase == "defense":
            w.start_turn(seat)
        elif w.phase == "action":
            enemy = 1 - seat
            attack = w.res[seat].attack
            if (
                attack > 0
                and any(u.owner == enemy for u in w.units.values())
                and attack >= defense(w.units, enemy, cat)
            ):
                _overrun(w, enemy)
                w.phase = "breach"
            else:
                w.end_turn()
        else:
            w.res[seat] = _replace(w.res[seat], attack=0)
            w.end_turn()
    elif isinstance(action, Block):
        w.damage(action.unit, 1 - seat, "blocked")
    elif isinstance(action, Breach):
        w.damage(action.unit, seat, "breached")
        w.overrun += 1
    elif isinstance(action, Strike):
        w.damage(action.unit, seat, "frontline")
    elif isinstance(action, Undo):
        if w.phase == "breach":
            w.phase = "action"
        _undo(w, action.unit)
    elif isinstance(action, Unbreach):
        uid = action.unit
        if uid in w.dead:
            w.revive(uid)
        u = w.units[uid]
        if cat.units[u.kind].fragile:
            u = _replace(u, health=u.health + u.hit)
        w.res[seat] = _replace(w.res[seat], attack=w.res[seat].attack + u.hit)
        w.units[uid] = _replace(u, hit=0)
        w.overrun -= 1
    elif isinstance(action, Sell):
        _sell(w, action.unit)
    else:  # pragma: no cover - exhaustive
        raise TypeError(f"not a Prismata action: {action!r}")


def _overrun(w: Work, enemy: int) -> None:
    """PM-7.1: every enemy blocker takes damage in play order until none is left."""
    cat = w.cat
    attacker = 1 - enemy
    while True:
        for u in w.units.values():
            if u.owner == enemy and can_block(u, cat.units[u.kind]):
                break
        else:
            return
        w.damage(u.id, attacker, "overrun")
        w.overrun += 1


def _click(w: Work, action: Click) -> None:
    seat = w.active
    uid = action.unit
    u = w.units[uid]
    utype = w.cat.units[u.kind]
    ability = utype.click
    assert ability is not None
    target = action.target
    ate: list[int] = []
    tgt_kind = ability.target.kind if ability.target is not None else None
    if tgt_kind == "chill" and target is not None:
        t = w.units[target]
        w.units[target] = _replace(t, chill=t.chill + ability.target.amount)  # type: ignore[union-attr]
    elif tgt_kind == "snipe" and target is not None:
        w.kill(target, "sniped")
        ate.append(target)
    if not ability.cost.empty:
        w.res[seat] = w.res[seat] - ability.cost
    for cid in action.consume:
        w.kill(cid, "consumed")
        ate.append(cid)
    made, destroyed = w.run_effect(
        uid,
        seat,
        ability.effect,
        on_buy=False,
        destroy_target=target if ability.effect.destroy else None,
    )
    ate.extend(destroyed)
    u = w.units[uid]
    health = u.health - ability.health_cost
    u = _replace(
        u,
        stamina=u.stamina - 1 if utype.stamina else u.stamina,
        health=health,
        status="used",
        exhaust=ability.effect.exhaust,
        made=tuple(made),
        ate=tuple(ate),
        target=target if tgt_kind is not None else None,
    )
    w.units[uid] = u
    if ability.effect.sacrifice:
        w.kill(uid, "sacrifice")
    elif health <= 0:
        w.kill(uid, "health")


def _undo(w: Work, uid: int) -> None:
    """PM-5.8: take back a click: costs refunded, gains returned, units restored or removed."""
    seat = w.active
    u = w.units.get(uid) or w.dead[uid]
    utype = w.cat.units[u.kind]
    ability = utype.click
    assert ability is not None
    r = w.res[seat] + ability.cost - ability.effect.gain
    w.res[seat] = r
    if not ability.effect.give.empty:
        w.res[1 - seat] = w.res[1 - seat] - ability.effect.give
    for cid in u.ate:
        w.revive(cid)
    for cid in u.made:
        if cid in w.units:
            del w.units[cid]
        else:
            w.dead.pop(cid, None)
    was_dead = uid in w.dead
    if ability.target is not None and ability.target.kind == "chill" and u.target is not None:
        t = w.units.get(u.target)
        if t is not None:
            w.units[u.target] = _replace(t, chill=t.chill - ability.target.amount)
        elif u.target in w.dead:
            t = w.dead[u.target]
            w.dead[u.target] = _replace(t, chill=t.chill - ability.target.amount)
    restored = _replace(
        u,
        stamina=u.stamina + 1 if utype.stamina else u.stamina,
        health=u.health + ability.health_cost,
        status="ready",
        exhaust=0,
        made=(),
        ate=(),
        target=None,
        cause="",
    )
    if was_dead:
        del w.dead[uid]
    w.units[uid] = restored


def _sell(w: Work, uid: int) -> None:
    """PM-5.9: take back a purchase: cost and supply returned, consumed units restored."""
    seat = w.active
    u = w.units.get(uid) or w.dead[uid]
    utype = w.cat.units[u.kind]
    r = w.res[seat] + utype.cost
    if utype.on_buy is not None:
        r = r - utype.on_buy.gain
        if not utype.on_buy.give.empty:
            w.res[1 - seat] = w.res[1 - seat] - utype.on_buy.give
    w.res[seat] = r
    for cid in u.ate:
        w.revive(cid)
    for cid in u.made:
        if cid in w.units:
            del w.units[cid]
        else:
            w.dead.pop(cid, None)
    if uid in w.units:
        del w.units[uid]
    else:
        del w.dead[uid]
    supply = dict(w.state.supply) if w.supply is None else w.supply
    left = supply[u.kind]
    supply[u.kind] = (left[0] + 1, left[1]) if seat == 0 else (left[0], left[1] + 1)
    w.supply = supply


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


def check_action(state: PrismataState, action: PrismataAction) -> Verdict:
    """Legal, or the violated clauses with reasons naming the units by name and id."""
    if state.result is not None:
        return _bad("PM-9.4", "the game is over; no more actions can be recorded")
    cat = load_catalog(state.ruleset)
    seat = state.active
    phase = state.phase
    u: Unit | None
    if isinstance(action, End):
        if phase == "defense":
            incoming = state.res[1 - seat].attack
            if incoming > 0:
                return _bad(
                    "PM-4.1",
                    f"{incoming} incoming damage must still be blocked before the defense ends",
                )
            return LEGAL
        if phase == "breach":
            attack = state.res[seat].attack
            if attack > 0:
                for other in state.units.values():
                    if other.owner != seat and not _breach_problem(state, cat, other):
                        return _bad(
                            "PM-7.4",
                            f"the breach cannot end while {attack} attack can still "
                            f"damage {label(other)}",
                        )
        return LEGAL
    if isinstance(action, Buy):
        if phase != "action":
            return _bad("PM-5.1", f"units are bought in the action phase; it is the {phase} phase")
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
    if isinstance(action, Click):
        return _check_click(state, cat, action)
    if isinstance(action, Block):
        if phase != "defense":
            return _bad(
                "PM-4.1", f"blockers are chosen in the defense phase; it is the {phase} phase"
            )
        blocker, v = _own_unit(state, action.unit, "block")
        if blocker is None:
            return v
        if state.res[1 - seat].attack <= 0:
            return _bad("PM-4.1", "there is no incoming damage left to block")
        btype = cat.units[blocker.kind]
        if not can_block(blocker, btype):
            return _bad(
                "PM-4.2", f"{label(blocker)} cannot block: {_why_not_block(blocker, btype)}"
            )
        return LEGAL
    if isinstance(action, Strike):
        if phase != "action":
            return _bad(
                "PM-6.1",
                f"frontline units are attacked in the action phase; it is the {phase} phase",
            )
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
    if isinstance(action, Breach):
        if phase != "breach":
            return _bad(
                "PM-7.2", f"damage is assigned to units during a breach; it is the {phase} phase"
            )
        u = state.units.get(action.unit)
        if u is None or u.owner == seat:
            return _bad("PM-7.2", f"#{action.unit} is not an enemy unit in play")
        why = _breach_problem(state, cat, u)
        if why:
            return _bad(why[0], why[1])
        return LEGAL
    if isinstance(action, Unbreach):
        if phase != "breach":
            return _bad(
                "PM-7.5",
                f"breach damage can only be taken back during the breach; it is the {phase} phase",
            )
        u = state.units.get(action.unit) or state.dead.get(action.unit)
        if u is None or u.owner == seat or u.hit <= 0:
            return _bad("PM-7.5", f"#{action.unit} took no breach damage this turn")
        return LEGAL
    if isinstance(action, Undo):
        return _check_undo(state, cat, action.unit)
    if isinstance(action, Sell):
        if phase != "action":
            return _bad(
                "PM-5.9",
                f"a purchase can only be taken back in the action phase; it is the {phase} phase",
            )
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
    return _bad("PM-N.1", f"not a Prismata action: {action!r}")  # pragma: no cover


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


def _breach_problem(state: PrismataState, cat: Catalog, u: Unit) -> tuple[str, str] | None:
    """Why the attacker cannot assign breach damage to enemy unit ``u`` now (None: it can)."""
    seat = state.active
    attack = state.res[seat].attack
    if attack <= 0:
        return ("PM-7.2", "there is no attack left to assign")
    if u.build:
        for other in state.units.values():
            if other.owner == u.owner and not other.build:
                why = (
                    f"{label(u)} is under construction; it can only be damaged once every "
                    f"other enemy unit is gone ({label(other)} remains)"
                )
                return ("PM-7.3", why)
    utype = cat.units[u.kind]
    if not utype.fragile and attack < u.health:
        why = (
            f"{label(u)} has {u.health} health and is not fragile; {attack} attack cannot "
            "destroy it"
        )
        return ("PM-7.2", why)
    return None


def _target_problem(
    state: PrismataState, cat: Catalog, ability_unit: Unit, utype: UnitType, target: int | None
) -> Verdict:
    ability = utype.click
    assert ability is not None
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
    if t.kind != d.unit or t.build or (d.not_blocking and can_block(t, ttype)):
        cond = " non-blocking" if d.not_blocking else ""
        return _bad(
            "PM-5.7",
            f"{label(ability_unit)} destroys a{cond} enemy {d.unit}; {label(t)} is not one",
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
    return ""


def _check_click(state: PrismataState, cat: Catalog, action: Click) -> Verdict:
    if state.phase != "action":
        return _bad(
            "PM-5.4", f"abilities are used in the action phase; it is the {state.phase} phase"
        )
    u, v = _own_unit(state, action.unit, "be clicked")
    if u is None:
        return v
    utype = cat.units[u.kind]
    why = click_problem(state, cat, u, utype)
    if why:
        return _bad("PM-5.4", f"{label(u)} cannot use its ability: {why}")
    ability = utype.click
    assert ability is not None
    have = state.res[state.active]
    if not have.covers(ability.cost):
        return _bad(
            "PM-5.2",
            f"{label(u)}'s ability costs {ability.cost.words()}; "
            f"{SEATS[state.active]} has {have.words()}",
        )
    v = _target_problem(state, cat, u, utype, action.target)
    if not v:
        return v
    if u.id in action.consume:
        return _bad("PM-5.3", f"{label(u)} cannot consume itself")
    return _check_consume(state, cat, ability.consume, action.consume, f"{label(u)}'s ability")


def _check_undo(state: PrismataState, cat: Catalog, uid: int) -> Verdict:
    seat = state.active
    if state.phase == "breach":
        if state.overrun:
            return _bad(
                "PM-5.8",
                "once units have been overrun or breached, clicks can no longer be taken back",
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
    assert ability is not None
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


def legal_actions(state: PrismataState) -> list[PrismataAction]:
    """Every legal action (consumed units up to interchangeable ones)."""
    if state.result is not None:
        return []
    cat = load_catalog(state.ruleset)
    seat = state.active
    out: list[PrismataAction] = []
    if state.phase == "defense":
        if state.res[1 - seat].attack > 0:
            for u in state.units.values():
                if u.owner == seat and can_block(u, cat.units[u.kind]):
                    out.append(Block(u.id))
        else:
            out.append(End())
        return out
    if state.phase == "breach":
        for u in state.units.values():
            if u.owner != seat and _breach_problem(state, cat, u) is None:
                out.append(Breach(u.id))
        for u in list(state.units.values()) + list(state.dead.values()):
            if u.owner != seat and u.hit > 0:
                out.append(Unbreach(u.id))
        if not state.overrun:
            for u in list(state.units.values()) + list(state.dead.values()):
                if (
                    u.owner == seat
                    and u.status == "used"
                    and not _check_undo(state, cat, u.id).violations
                ):
                    out.append(Undo(u.id))
        if not check_action(state, End()).violations:
            out.append(End())
        return out
    have = state.res[seat]
    for name, left in state.supply.items():
        utype = cat.units[name]
        if left[seat] > 0 and have.covers(utype.cost):
            for consumed in _consume_choices(state, cat, utype.consume):
                out.append(Buy(name, consumed))
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
                if t.owner != seat and not _target_problem(state, cat, u, utype, t.id).violations
            ]
        for target in targets:
            for consumed in _consume_choices(state, cat, ability.consume, exclude=u.id):
                out.append(Click(u.id, target, consumed))
    for u in list(state.units.values()) + list(state.dead.values()):
        if u.owner == seat and u.status == "used" and not _check_undo(state, cat, u.id).violations:
            out.append(Undo(u.id))
    for u in state.units.values():
        if u.owner == seat and u.fresh and not check_action(state, Sell(u.id)).violations:
            out.append(Sell(u.id))
    if have.attack > 0:
        for u in state.units.values():
            if (
                u.owner != seat
                and cat.units[u.kind].frontline
                and not check_action(state, Strike(u.id)).violations
            ):
                out.append(Strike(u.id))
    out.append(End())
    return out

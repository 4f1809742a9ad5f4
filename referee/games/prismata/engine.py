"""Carrying out Prismata actions: ``apply`` gives the position after an action and never
checks (replay calls it on recorded actions); ``to_act`` and ``outcome`` say who acts and
how the game stands. All functions are pure: the input state is never changed.

Clause ids cited here are defined in ``rulebook.toml``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from referee.games.prismata import model
from referee.games.prismata.catalog import Catalog, Effect, Res, UnitType, load_catalog
from referee.games.prismata.model import SEATS, PrismataAction, PrismataState, Result, Status, Unit
from referee.kit.dispatch import Dispatch
from referee.outcomes import ONGOING, Outcome

if TYPE_CHECKING:
    from referee.games.prismata.model import Phase

__all__ = [
    "ENTRY_EFFECTS",
    "Work",
    "apply",
    "apply_action",
    "can_block",
    "catalog_of",
    "defense",
    "label",
    "new_unit",
    "outcome",
    "start_turn",
    "to_act",
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


def new_unit(
    uid: int,
    owner: int,
    utype: UnitType,
    *,
    build: int = 0,
    exhaust: int = 0,
    lifespan: int = 0,
    status: Status = "idle",
    fresh: bool = False,
) -> Unit:
    """Unit ``uid`` of type ``utype`` as it comes into play, at the start (PM-2) or bought
    or made later: its type's health and stamina, and its type's lifespan unless
    ``lifespan`` gives its own."""
    return Unit(
        id=uid,
        owner=owner,
        kind=utype.name,
        health=utype.health,
        build=build,
        exhaust=exhaust,
        lifespan=lifespan or utype.lifespan,
        stamina=utype.stamina,
        status=status,
        fresh=fresh,
    )


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

    def unmake(self, unit: Unit) -> None:
        """Take back what ``unit``'s click or purchase did to other units: the units it
        consumed come back, the units it made are gone (PM-5.8, PM-5.9)."""
        for cid in unit.ate:
            self.revive(cid)
        for cid in unit.made:
            if cid in self.units:
                del self.units[cid]
            else:
                self.dead.pop(cid, None)

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
        self.units[uid] = new_unit(
            uid, owner, utype, build=build, exhaust=exhaust, lifespan=lifespan, fresh=bought
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
        construct = on_buy and self.state.table.made == "construct"  # PM-I.2
        for c in effect.create:
            who = owner if c.owner == "self" else 1 - owner
            for _ in range(c.count):
                if construct:
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
        aging = self.state.table.lifespan
        for uid in order:
            u = self.units[uid]
            utype = cat.units[u.kind]
            lifespan, exhaust, build, status = u.lifespan, u.exhaust, u.build, u.status
            health, chill = u.health, u.chill
            if lifespan > 0 and _ages(aging, build, exhaust):
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


def _ages(aging: str, build: int, exhaust: int) -> bool:
    """PM-3.2, PM-I.12, PM-I.17: whether a unit's lifespan runs down at its owner's start
    of turn under the table's ``lifespan`` variant (``aging``): by default only when it is
    neither under construction nor exhausted; ``built``: once built; ``always``: always."""
    if aging == "reference":
        return build == 0 and exhaust == 0
    return aging == "always" or build == 0


def _all_gone(units: dict[int, Unit], seat: int, doomed: bool, aging: str) -> bool:
    for u in units.values():
        if u.owner != seat:
            continue
        if not doomed:
            return False
        if not (u.lifespan == 1 and _ages(aging, u.build, u.exhaust)):
            return False
    return True


def _decide(w: Work) -> Result | None:
    """PM-9.1: at the end of a turn, a seat with no units (or, by variant, only doomed
    ones) loses."""
    doomed = w.state.table.doomed == "lose"
    aging = w.state.table.lifespan
    gone = [_all_gone(w.units, 0, doomed, aging), _all_gone(w.units, 1, doomed, aging)]
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


def apply_action(
    state: PrismataState, action: PrismataAction, seat: str | None = None
) -> PrismataState:
    """The state after ``action`` by the seat to act (``seat`` is that seat or ``None``);
    no checks."""
    w = Work(state)
    apply_into(w, action)
    return w.finish()


ENTRY_EFFECTS: Dispatch[Work, int, None] = Dispatch("Prismata entries")
"""What each entry type does to the working copy, given the seat to act (the kit's idiom,
``referee.kit.dispatch``)."""


def apply_into(w: Work, action: PrismataAction) -> None:
    """Apply ``action`` to the working copy ``w``."""
    effect = _EFFECTS.get(type(action))
    if effect is None:  # pragma: no cover - exhaustive
        raise TypeError(f"not a Prismata action: {action!r}")
    effect(w, action, w.active)


@ENTRY_EFFECTS.register(model.Click)
def _apply_click(w: Work, action: model.Click, seat: int) -> None:
    _click(w, action)


@ENTRY_EFFECTS.register(model.Buy)
def _apply_buy(w: Work, action: model.Buy, seat: int) -> None:
    utype = w.cat.units[action.unit]
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


@ENTRY_EFFECTS.register(model.End)
def _apply_end(w: Work, action: model.End, seat: int) -> None:
    if w.phase == "defense":
        w.start_turn(seat)
    elif w.phase == "action":
        enemy = 1 - seat
        attack = w.res[seat].attack
        # PM-7.1, PM-I.18: the attack must reach the defense (variant exceed: pass it)
        needed = defense(w.units, enemy, w.cat) + (w.state.table.breach == "exceed")
        if attack > 0 and any(u.owner == enemy for u in w.units.values()) and attack >= needed:
            _overrun(w, enemy)
            w.phase = "breach"
        else:
            w.end_turn()
    else:
        w.res[seat] = _replace(w.res[seat], attack=0)
        w.end_turn()


@ENTRY_EFFECTS.register(model.Block)
def _apply_block(w: Work, action: model.Block, seat: int) -> None:
    w.damage(action.unit, 1 - seat, "blocked")


@ENTRY_EFFECTS.register(model.Breach)
def _apply_breach(w: Work, action: model.Breach, seat: int) -> None:
    # ``overrun`` counts units damaged (PM-I.7); a fragile unit hit again is counted once,
    # so taking its damage back (which undoes every hit at once) leaves the count right
    # (PM-I.23; breach_tally=entries counts every entry, as games recorded before it did)
    counted = w.units[action.unit].hit == 0 or w.state.table.breach_tally == "entries"
    w.damage(action.unit, seat, "breached")
    if counted:
        w.overrun += 1


@ENTRY_EFFECTS.register(model.Strike)
def _apply_strike(w: Work, action: model.Strike, seat: int) -> None:
    w.damage(action.unit, seat, "frontline")


@ENTRY_EFFECTS.register(model.Undo)
def _apply_undo(w: Work, action: model.Undo, seat: int) -> None:
    if w.phase == "breach" and not w.overrun:
        w.phase = "action"
    _undo(w, action.unit)


@ENTRY_EFFECTS.register(model.Unbreach)
def _apply_unbreach(w: Work, action: model.Unbreach, seat: int) -> None:
    uid = action.unit
    if uid in w.dead:
        w.revive(uid)
    u = w.units[uid]
    if w.cat.units[u.kind].fragile:
        u = _replace(u, health=u.health + u.hit)
    w.res[seat] = _replace(w.res[seat], attack=w.res[seat].attack + u.hit)
    w.units[uid] = _replace(u, hit=0)
    w.overrun -= 1


@ENTRY_EFFECTS.register(model.Sell)
def _apply_sell(w: Work, action: model.Sell, seat: int) -> None:
    _sell(w, action.unit)


_EFFECTS = ENTRY_EFFECTS.handlers


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


def _click(w: Work, action: model.Click) -> None:
    seat = w.active
    uid = action.unit
    u = w.units[uid]
    utype = w.cat.units[u.kind]
    ability = utype.click
    if ability is None:
        raise ValueError("ability is missing: only an entry its check allowed is carried out")
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
    if ability is None:
        raise ValueError("ability is missing: only an entry its check allowed is carried out")
    r = w.res[seat] + ability.cost - ability.effect.gain
    w.res[seat] = r
    if not ability.effect.give.empty:
        w.res[1 - seat] = w.res[1 - seat] - ability.effect.give
    w.unmake(u)
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
    w.unmake(u)
    if uid in w.units:
        del w.units[uid]
    else:
        del w.dead[uid]
    supply = dict(w.state.supply) if w.supply is None else w.supply
    left = supply[u.kind]
    supply[u.kind] = (left[0] + 1, left[1]) if seat == 0 else (left[0], left[1] + 1)
    w.supply = supply


_NOBODY: frozenset[str] = frozenset()
_ONLY = tuple(frozenset((seat,)) for seat in SEATS)


apply = apply_action
"""The contract's ``apply`` is ``apply_action`` itself: no call in between on the hot path."""


def to_act(state: PrismataState) -> frozenset[str]:
    """The seat whose turn it is; nobody once the game is over."""
    return _NOBODY if state.result is not None else _ONLY[state.active]


def outcome(state: PrismataState) -> Outcome:
    """Ongoing, or the win or draw the position shows (PM-9)."""
    r = state.result
    if r is None:
        return ONGOING
    if r.winner is None:
        return Outcome(status="draw", clause=r.clause, reason=r.reason)
    return Outcome(status="win", winner=SEATS[r.winner], clause=r.clause, reason=r.reason)

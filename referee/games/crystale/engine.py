"""Carrying out Crystale entries: ``apply`` returns the position after a checked entry
(it never checks), ``to_act`` says who may act and ``outcome`` how the battle stands.
"""

from __future__ import annotations

import msgspec

from referee.games.crystale import model
from referee.games.crystale.board import distance
from referee.games.crystale.catalog import Crystal
from referee.games.crystale.effects import resolve
from referee.games.crystale.model import (
    HAND_LIMIT,
    RESHUFFLE_MP,
    SEATS,
    SECOND_PLAYER_BONUS,
    CrystaleAction,
    CrystaleState,
    Result,
    Side,
    Unit,
)
from referee.games.crystale.position import (
    crystal_of,
    effective_atk,
    gain_mp,
    kill,
    out_of_sight,
    place_summoner,
    promote_unit,
    put_in_plane,
    recharge_effects,
    reshuffled,
    settle,
    spend_mp,
    take_from_hand,
    take_from_pool,
    with_side,
    with_unit,
)
from referee.kit.dispatch import Dispatch
from referee.outcomes import ONGOING, Outcome

__all__ = ["ENTRY_EFFECTS", "apply", "apply_action", "next_turn", "outcome", "seat_index", "to_act"]

replace = msgspec.structs.replace


# -- apply ------------------------------------------------------------------------------
ENTRY_EFFECTS: Dispatch[CrystaleState, int, CrystaleState] = Dispatch("Crystale entries")
"""What each entry type does, given the seat index making it (the kit's idiom,
``referee.kit.dispatch``)."""


def apply_action(state: CrystaleState, action: CrystaleAction, seat: int) -> CrystaleState:
    """The state after a checked entry (no checks here)."""
    effect = _EFFECTS.get(type(action))
    if effect is None:
        raise TypeError(f"action is a {type(action).__name__}, not Done")
    return effect(state, action, seat)


@ENTRY_EFFECTS.register(model.First)
def _apply_first(state: CrystaleState, action: model.First, seat: int) -> CrystaleState:
    return _close_start(replace(state, first=SEATS.index(action.seat)))


@ENTRY_EFFECTS.register(model.Declare)
def _apply_declare(state: CrystaleState, action: model.Declare, seat: int) -> CrystaleState:
    return _close_start(place_summoner(state, seat, _crystal(state, action.crystal)))


@ENTRY_EFFECTS.register(model.Mulligan)
def _apply_mulligan(state: CrystaleState, action: model.Mulligan, seat: int) -> CrystaleState:
    side = state.sides[seat]
    return with_side(
        state,
        seat,
        replace(
            out_of_sight(side, "hand", side.hand.count, state.table),
            pool=side.pool.put_unseen(side.hand.count),
        ),
    )


@ENTRY_EFFECTS.register(model.Show)
def _apply_show(state: CrystaleState, action: model.Show, seat: int) -> CrystaleState:
    side, shown = _out_of_hand(state, seat, action.crystals)
    for name in shown:
        side = replace(side, hand=side.hand.put_known(name))
    return _close_start(with_side(state, seat, replace(side, shown=True)))


@ENTRY_EFFECTS.register(model.Summon)
def _apply_summon(state: CrystaleState, action: model.Summon, seat: int) -> CrystaleState:
    side, crystal = _paid_from_hand(state, seat, action.crystal)
    state = with_side(state, seat, replace(side, summoned=True))
    unit = Unit(state.next_id, seat, crystal.name, action.tile, hp=crystal.ranks[0].hp)
    return replace(with_unit(state, unit), next_id=state.next_id + 1)


@ENTRY_EFFECTS.register(model.Sacrifice)
def _apply_sacrifice(state: CrystaleState, action: model.Sacrifice, seat: int) -> CrystaleState:
    side = state.sides[seat]
    if state.table.summon_sacrifice == "each":  # CR-I.27: the sacrifice leaves the summon
        side = replace(side, sacrificed=True)
    else:
        side = replace(side, summoned=True)
    return kill(with_side(state, seat, side), action.unit)


@ENTRY_EFFECTS.register(model.Move)
def _apply_move(state: CrystaleState, action: model.Move, seat: int) -> CrystaleState:
    unit = state.units[action.unit]
    return with_unit(state, replace(unit, tile=action.tile, moved=True))


@ENTRY_EFFECTS.register(model.Counter)
def _apply_counter(state: CrystaleState, action: model.Counter, seat: int) -> CrystaleState:
    if state.counter is None:
        raise ValueError("state.counter is missing: only an entry its check allowed is carried out")
    attacker_id, defender_id = state.counter
    state = replace(state, phase="main", counter=None)
    return _strike_back(state, state.units[defender_id], state.units[attacker_id])


@ENTRY_EFFECTS.register(model.Hold)
def _apply_hold(state: CrystaleState, action: model.Hold, seat: int) -> CrystaleState:
    return replace(state, phase="main", counter=None)


@ENTRY_EFFECTS.register(model.Discard)
def _apply_discard(state: CrystaleState, action: model.Discard, seat: int) -> CrystaleState:
    side, names = _out_of_hand(state, seat, action.crystals)
    state = put_in_plane(with_side(state, seat, side), seat, names)
    return _after_end(replace(state, phase="main"), seat)


@ENTRY_EFFECTS.register(model.Promote)
def _apply_promote(state: CrystaleState, action: model.Promote, seat: int) -> CrystaleState:
    state = promote_unit(state, state.units[action.unit])
    return replace(state, promoted=(*state.promoted, action.unit))


@ENTRY_EFFECTS.register(model.Done)
def _apply_done(state: CrystaleState, action: model.Done, seat: int) -> CrystaleState:
    return next_turn(state)


def _crystal(state: CrystaleState, name: str) -> Crystal:
    """The catalog's crystal ``name``, which an entry already checked names (carrying out
    never checks: a missing one is a caller's mistake, not a rule broken)."""
    crystal = state.book.find(name)
    if crystal is None:
        raise ValueError("crystal is missing: only an entry its check allowed is carried out")
    return crystal


def _canonical(state: CrystaleState, name: str) -> str:
    crystal = state.book.find(name)  # ``_crystal`` inline: once per crystal shown or discarded
    if crystal is None:
        raise ValueError("crystal is missing: only an entry its check allowed is carried out")
    return crystal.name


def _paid_from_hand(state: CrystaleState, seat: int, name: str) -> tuple[Side, Crystal]:
    """``seat``'s side with the named crystal taken from its hand and its cost paid (a
    Servant summoned, a spell cast), and the crystal."""
    crystal = _crystal(state, name)
    return spend_mp(take_from_hand(state.sides[seat], crystal.name), crystal.cost), crystal


def _out_of_hand(
    state: CrystaleState, seat: int, crystals: tuple[str, ...]
) -> tuple[Side, list[str]]:
    """``seat``'s side with the named crystals taken from its hand (shown or discarded),
    and their names as the catalog spells them."""
    side = state.sides[seat]
    names = [_canonical(state, n) for n in crystals]
    for name in names:
        side = take_from_hand(side, name)
    return side, names


def _pull_named(state: CrystaleState, side: Side, crystal: str) -> Side:
    """``side`` with the named crystal taken from its pool into its hand, seen from now on
    (a pull naming its crystal, CR-6.1; a slot spent on a Servant, CR-9)."""
    name = _canonical(state, crystal)
    side = take_from_pool(side, name)
    return replace(side, hand=side.hand.put_known(name))


def _close_start(state: CrystaleState) -> CrystaleState:
    """CR-5.5: the battle starts once the first player is chosen and both seats have a
    Summoner and a shown opening hand; the second player's Summoner gets 20 MP (CR-5.4)."""
    if state.first is None or not all(s.shown and s.summoner is not None for s in state.sides):
        return state
    second = 1 - state.first
    side = state.sides[second]
    mp = side.mp + SECOND_PLAYER_BONUS
    if state.table.bonus_mp == "over_cap":
        side = replace(side, mp=mp, bonus=max(0, mp - side.mana_pool))
    else:
        side = replace(side, mp=min(mp, side.mana_pool))
    state = with_side(state, second, side)
    return _begin_turn(replace(state, active=state.first, turn=1, phase="pull"))


@ENTRY_EFFECTS.register(model.Pull)
def _apply_pull(state: CrystaleState, action: model.Pull, seat: int) -> CrystaleState:
    side = state.sides[seat]
    if state.phase == "start":
        side = replace(
            out_of_sight(side, "pool", action.count, state.table),
            hand=side.hand.put_unseen(action.count),
        )
        return with_side(state, seat, side)
    if action.crystal is not None:
        side = _pull_named(state, side, action.crystal)
    else:
        side = replace(out_of_sight(side, "pool", 1, state.table), hand=side.hand.put_unseen(1))
    side = gain_mp(side, side.recharge)
    state = with_side(state, seat, side)
    for unit, _crystal, effect in recharge_effects(state, seat):
        if effect.structured and unit.id in state.units and state.result is None:
            state = resolve(state, seat, unit.id, [effect], ())
    return replace(state, phase="main")


@ENTRY_EFFECTS.register(model.Reshuffle)
def _apply_reshuffle(state: CrystaleState, action: model.Reshuffle, seat: int) -> CrystaleState:
    side = reshuffled(spend_mp(state.sides[seat], RESHUFFLE_MP), state.table)
    return settle(with_side(state, seat, replace(side, hits=side.hits - 1)))


@ENTRY_EFFECTS.register(model.Cast)
def _apply_cast(state: CrystaleState, action: model.Cast, seat: int) -> CrystaleState:
    side, crystal = _paid_from_hand(state, seat, action.crystal)
    state = with_side(state, seat, side)
    reverse = crystal.trigger and state.table.trigger_order == "reverse"
    state = resolve(state, seat, None, crystal.effects, action.targets, reverse=reverse)
    return put_in_plane(state, seat, [crystal.name])


@ENTRY_EFFECTS.register(model.Use)
def _apply_use(state: CrystaleState, action: model.Use, seat: int) -> CrystaleState:
    unit = state.units[action.unit]
    effect = crystal_of(state, unit).effects[action.effect - 1]
    state = with_side(state, seat, spend_mp(state.sides[seat], effect.cost))
    if not unit.summoner:
        state = with_unit(state, replace(unit, used_effect=True))
    return resolve(state, seat, unit.id, [effect], action.targets)


def _strike(state: CrystaleState, striker: Unit, struck: Unit) -> CrystaleState:
    """``striker`` deals its ATK on its tile to ``struck`` (CR-8.4, CR-8.6); on a
    Summoner one hit, none with 0 ATK unless ``zero_strike=hit`` (CR-I.4, CR-I.35)."""
    damage = effective_atk(state, striker)
    if struck.summoner:
        if damage <= 0 and state.table.zero_strike == "no_hit":
            return state
        side = state.sides[struck.seat]
        return settle(with_side(state, struck.seat, replace(side, hits=side.hits - 1)))
    hp = struck.hp - damage
    return kill(state, struck.id) if hp <= 0 else with_unit(state, replace(struck, hp=hp))


def _strike_back(state: CrystaleState, defender: Unit, attacker: Unit) -> CrystaleState:
    """CR-8.7: the defender's counterattack; under ``counter_fatigue=once`` it is then
    fatigued for the rest of the turn (CR-I.29)."""
    if state.table.counter_fatigue == "once":
        defender = replace(defender, attacked=True)
        state = with_unit(state, defender)
    return _strike(state, defender, attacker)


@ENTRY_EFFECTS.register(model.Attack)
def _apply_attack(state: CrystaleState, action: model.Attack, seat: int) -> CrystaleState:
    attacker = replace(state.units[action.unit], attacked=True)
    state = with_unit(state, attacker)
    if state.table.attacks == "one":  # CR-I.26: the side's one attack of the turn
        state = with_side(state, seat, replace(state.sides[seat], attacked=True))
    state = _strike(state, attacker, state.units[action.target])
    defender = state.units.get(action.target)
    if defender is None or defender.summoner or state.result is not None:
        return state
    if (
        state.table.counter_range == "in_range"
        and distance(defender.tile, attacker.tile) > crystal_of(state, defender).attack_range
    ):
        return state  # CR-I.28 in_range: the attacker stands beyond the defender's reach
    if state.table.counter_fatigue == "once" and defender.attacked:
        return state  # CR-I.29: it struck back already this turn and is fatigued
    if state.table.counterattack == "always":
        return _strike_back(state, defender, state.units[attacker.id])
    return replace(state, phase="counter", counter=(attacker.id, defender.id))


def _apply_slot(
    state: CrystaleState, action: model.SlotPromote | model.SlotServant | model.SlotMp, seat: int
) -> CrystaleState:
    """CR-8: a slot spent on a promotion, a Servant drawn or MP."""
    side = state.sides[seat]
    side = replace(side, slots_used=side.slots_used + 1)
    if isinstance(action, model.SlotMp):
        return with_side(state, seat, gain_mp(side, side.recharge))
    if isinstance(action, model.SlotServant):
        return with_side(state, seat, _pull_named(state, side, action.crystal))
    state = with_side(state, seat, side)
    state = promote_unit(state, state.units[action.unit])
    if state.phase == "promotion":  # CR-I.31 promotion: its one promotion there (CR-I.19)
        state = replace(state, promoted=(*state.promoted, action.unit))
    return state


ENTRY_EFFECTS.add(model.SlotPromote, _apply_slot)
ENTRY_EFFECTS.add(model.SlotServant, _apply_slot)
ENTRY_EFFECTS.add(model.SlotMp, _apply_slot)


@ENTRY_EFFECTS.register(model.End)
def _apply_end(state: CrystaleState, action: model.End, seat: int) -> CrystaleState:
    """CR-10.1: effects lasting to the end of the turn stop (ATK for the turn, and fatigue,
    CR-8.9); then the hand limit (CR-10.2)."""
    units = {
        uid: (replace(u, atk_turn=0, attacked=False) if (u.atk_turn or u.attacked) else u)
        for uid, u in state.units.items()
    }
    state = replace(state, units=units)
    if state.sides[seat].hand.count > HAND_LIMIT:
        return replace(state, phase="discard")
    return _after_end(state, seat)


def _after_end(state: CrystaleState, seat: int) -> CrystaleState:
    """The Promotion phase, skipped when no Servant of ``seat`` can still rank up."""
    for unit in state.units.values():
        if (
            unit.seat == seat
            and not unit.summoner
            and unit.rank < len(crystal_of(state, unit).ranks)
        ):
            return replace(state, phase="promotion", promoted=())
    return next_turn(state)


def next_turn(state: CrystaleState) -> CrystaleState:
    """The opponent's turn begins with its Pull phase."""
    return _begin_turn(replace(state, active=1 - state.active, turn=state.turn + 1, phase="pull"))


def _begin_turn(state: CrystaleState) -> CrystaleState:
    """Fresh units, a fresh summon, and the forfeit of CR-6.3."""
    units = {
        uid: (
            replace(u, moved=False, attacked=False, used_effect=False)
            if (u.moved or u.attacked or u.used_effect)
            else u
        )
        for uid, u in state.units.items()
    }
    seat = state.active
    side = state.sides[seat]
    state = with_side(
        replace(state, units=units, promoted=(), counter=None),
        seat,
        replace(side, summoned=False, sacrificed=False, attacked=False),
    )
    if side.pool.count == 0 and (side.mp < RESHUFFLE_MP or side.plane.total == 0):
        why = (
            (
                f"{SEATS[seat]}'s pool is empty and its Summoner has {side.mp} MP, short of the "
                f"{RESHUFFLE_MP} a reshuffle costs"
            )
            if side.mp < RESHUFFLE_MP
            else f"{SEATS[seat]}'s pool and Higher Plane are both empty: nothing can be pulled"
        )
        clause = "CR-6.3" if side.mp < RESHUFFLE_MP else "CR-I.22"
        state = replace(state, result=Result(1 - seat, clause, why))
    return state


def to_act(state: CrystaleState) -> frozenset[str]:
    """Seats that may make an entry: both in the start step (CR-5.5), the defender while a
    counterattack is decided (CR-8.7), otherwise the seat whose turn it is."""
    if state.result is not None:
        return frozenset()
    if state.phase == "start":
        return frozenset(
            SEATS[i]
            for i, side in enumerate(state.sides)
            if state.first is None or not side.shown or side.summoner is None
        )
    if state.phase == "counter":
        return frozenset((SEATS[1 - state.active],))
    return frozenset((SEATS[state.active],))


def seat_index(state: CrystaleState, seat: str | None) -> int | None:
    """The index of the seat making an entry: the one named, or the one seat that may act
    (``None`` when several may act and none is named, or the name is no seat)."""
    if seat is not None:
        return SEATS.index(seat) if seat in SEATS else None
    acting = to_act(state)
    if len(acting) != 1:
        return None
    (mover,) = acting
    return SEATS.index(mover)


_EFFECTS = ENTRY_EFFECTS.handlers


def apply(state: CrystaleState, action: CrystaleAction, seat: str | None = None) -> CrystaleState:
    """The state after ``seat``'s checked entry (the one seat to act when none is named)."""
    index = seat_index(state, seat)
    if index is None:  # check refuses such an entry (REF-1.2): nothing to carry out
        raise ValueError("REF-1.2: several seats may act now; name the seat making this entry")
    return apply_action(state, action, index)


def outcome(state: CrystaleState) -> Outcome:
    """Ongoing, or the battle's winner by the clause that ended it (CR-13)."""
    r = state.result
    if r is None:
        return ONGOING
    return Outcome(status="win", winner=SEATS[r.winner], clause=r.clause, reason=r.reason)

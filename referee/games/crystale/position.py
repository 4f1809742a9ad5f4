"""Small pure helpers over a :class:`CrystaleState` shared by the engine, the
effects and the adjustments: ATK on a tile, MP with the bonus cap, hands, the
Higher Plane and promotion slots, deaths and the end of the battle.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from referee.games.crystale.board import P1_START, P2_START, tile_atk_modifier
from referee.games.crystale.catalog import Book, Crystal, Effect
from referee.games.crystale.decks import check_named
from referee.games.crystale.model import (
    SEATS,
    SLOT_THRESHOLDS,
    CrystaleState,
    Result,
    Side,
    Table,
    Unit,
)
from referee.kit.multiset import Multiset
from referee.kit.zones import HiddenZone
from referee.verdicts import LEGAL, Verdict

__all__ = [
    "base_atk",
    "crystal_of",
    "effective_atk",
    "empty_side",
    "gain_mp",
    "hand_check",
    "kill",
    "max_hp",
    "occupant",
    "out_of_sight",
    "place_summoner",
    "pool_check",
    "promote_unit",
    "put_in_plane",
    "recharge_effects",
    "reshuffled",
    "settle",
    "spend_mp",
    "start_mp",
    "summoner_id",
    "take_from_hand",
    "take_from_pool",
    "with_side",
    "with_unit",
]

replace = msgspec.structs.replace


def summoner_id(seat: int) -> int:
    """``u1`` is p1's Summoner and ``u2`` p2's (CR-N.3)."""
    return seat + 1


def crystal_of(state: CrystaleState, unit: Unit) -> Crystal:
    return state.book.crystals[unit.crystal]


def base_atk(state: CrystaleState, unit: Unit) -> int:
    crystal = crystal_of(state, unit)
    return crystal.ranks[unit.rank - 1].atk if crystal.ranks else 0


def max_hp(state: CrystaleState, unit: Unit) -> int:
    crystal = crystal_of(state, unit)
    return crystal.ranks[unit.rank - 1].hp if crystal.ranks else 0


def effective_atk(state: CrystaleState, unit: Unit) -> int:
    """CR-8.10: ATK as the Servant stands on its tile, never below 0 (CR-I.20);
    a Summoner has none (CR-2.2)."""
    if unit.summoner:
        return 0
    crystal = crystal_of(state, unit)
    atk = crystal.ranks[unit.rank - 1].atk + unit.atk_mod + unit.atk_turn
    return max(0, atk + tile_atk_modifier(state.tiles[unit.tile], crystal.element))


def occupant(state: CrystaleState, tile: int) -> Unit | None:
    for unit in state.units.values():
        if unit.tile == tile:
            return unit
    return None


def with_side(state: CrystaleState, seat: int, side: Side) -> CrystaleState:
    sides = (side, state.sides[1]) if seat == 0 else (state.sides[0], side)
    return replace(state, sides=sides)


def with_unit(state: CrystaleState, unit: Unit) -> CrystaleState:
    units = dict(state.units)
    units[unit.id] = unit
    return replace(state, units=units)


# -- MP ------------------------------------------------------------------------------
def spend_mp(side: Side, amount: int) -> Side:
    """Pay ``amount`` MP (never below 0); the bonus above the Mana Pool goes first (CR-I.6)."""
    mp = max(0, side.mp - amount)
    bonus = max(0, min(side.bonus, mp - side.mana_pool))
    return replace(side, mp=mp, bonus=bonus)


def gain_mp(side: Side, amount: int) -> Side:
    """Regain MP up to the Mana Pool, or to what is left of the bonus above it (CR-6.4)."""
    if amount < 0:
        return spend_mp(side, -amount)
    cap = side.mana_pool + side.bonus
    return replace(side, mp=max(side.mp, min(cap, side.mp + amount)))


# -- hands and the Higher Plane -----------------------------------------------------
def hand_check(book: Book, side: Side, seat: int, name: str, clause: str) -> Verdict:
    """Whether ``name`` can come out of ``seat``'s hand (CR-12.3)."""
    who = SEATS[seat]
    hand = side.hand
    if hand.count == 0:
        return Verdict.illegal(clause, f"{who} holds no crystals; {name} cannot come from the hand")
    if hand.known.count(name):
        return LEGAL
    if hand.unknown == 0:
        return Verdict.illegal(
            clause,
            f"every crystal {who} holds is known ({hand.known.text()}); {name} is not one of them",
        )
    return check_named(book, side.knowledge, name, clause)


def take_from_hand(side: Side, name: str) -> Side:
    """``name`` leaves the hand face up; a crystal not known to be there is now seen."""
    knowledge = side.knowledge
    if not side.hand.known.count(name) and knowledge is not None:
        knowledge = knowledge.with_seen(name)
    return replace(side, hand=side.hand.take_known(name), knowledge=knowledge)


def out_of_sight(side: Side, zone: str, n: int, table: Table) -> Side:
    """``side`` with ``n`` crystals gone unseen out of its ``zone`` (``hand`` or ``pool``),
    into another hidden zone of the seat. Any of them may have been a crystal known to be
    there, so none is known to be there any longer, and those crystals are unaccounted for
    again (CR-12.4): each may be named once more when it comes out, as at the table. Under
    ``knowledge=stays`` (CR-I.36, games recorded before it) they stay counted as seen."""
    pile: HiddenZone = getattr(side, zone)
    knowledge = side.knowledge
    if knowledge is not None and table.knowledge == "follows":
        for name in pile.known:
            knowledge = knowledge.with_unseen(name)
    return msgspec.structs.replace(side, **{zone: pile.take_unseen(n)}, knowledge=knowledge)


def reshuffled(side: Side, table: Table) -> Side:
    """``side`` with its Higher Plane shuffled into its empty pool (CR-6.2). Everyone saw
    what went in, so until a crystal is pulled unseen those crystals are all the pool holds
    (CR-12.4); under ``knowledge=stays`` (CR-I.36, games recorded before it) the pool is a
    plain count and its crystals are unaccounted for like any other."""
    if table.knowledge == "follows":
        pool = HiddenZone(side.pool.owner, side.plane.total, side.plane)
        return replace(side, pool=pool, plane=Multiset())
    knowledge = side.knowledge
    if knowledge is not None:
        for name in side.plane:
            knowledge = knowledge.with_unseen(name)
    return replace(
        side, pool=side.pool.put_unseen(side.plane.total), plane=Multiset(), knowledge=knowledge
    )


def pool_check(book: Book, side: Side, seat: int, name: str, clause: str) -> Verdict:
    """Whether ``name`` can come out of ``seat``'s pool (CR-12.3): known to be there, or
    one of its unknown crystals may be it. A pool refilled from the Higher Plane holds just
    the crystals everyone saw go in until one is pulled unseen (CR-12.4)."""
    pool = side.pool
    if pool.known.count(name):
        return LEGAL
    if pool.count and pool.unknown == 0:
        return Verdict.illegal(
            clause,
            f"{SEATS[seat]}'s pool holds only the crystals shuffled into it "
            f"({pool.known.text()}); {name} is not one of them",
        )
    return check_named(book, side.knowledge, name, clause)


def take_from_pool(side: Side, name: str) -> Side:
    """``name`` leaves the pool face up; a crystal not known to be there is now seen.

    A pool known in full that lacks ``name`` is never met in play (the check refuses such
    a pull, and a game recorded before CR-12.4 said what a reshuffled pool holds plays
    ``knowledge=stays``, CR-I.36, where no pool is known in full): should it be, what the
    pool was known to hold is let go, not raised on."""
    pool, knowledge = side.pool, side.knowledge
    if not pool.known.count(name) and pool.unknown == 0:
        if knowledge is not None:
            for known in pool.known:
                knowledge = knowledge.with_unseen(known)
        pool = HiddenZone(pool.owner, pool.count)
    if not pool.known.count(name) and knowledge is not None:
        knowledge = knowledge.with_seen(name)
    return replace(side, pool=pool.take_known(name), knowledge=knowledge)


def _servants_in(state: CrystaleState, plane: Multiset) -> int:
    crystals = state.book.crystals
    return sum(count for name, count in plane.items if crystals[name].kind == "servant")


def _counts_reached(state: CrystaleState, plane: Multiset) -> int:
    """How many of the counts 2, 4 and 7 the Servants of ``plane`` reach (CR-9.1)."""
    servants = _servants_in(state, plane)
    return sum(1 for threshold in SLOT_THRESHOLDS if servants >= threshold)


def put_in_plane(state: CrystaleState, seat: int, names: Iterable[str]) -> CrystaleState:
    """Crystals go to ``seat``'s Higher Plane; a slot is earned the first time its
    Servants there reach 2, 4 and 7 (CR-9.1, CR-I.17), or under ``slot_earning=again``
    each time they climb to one of those counts, three a match at most (CR-I.32)."""
    side = state.sides[seat]
    plane = side.plane.plus(list(names))
    reached = _counts_reached(state, plane)
    if state.table.slot_earning == "again":
        climbed = reached - _counts_reached(state, side.plane)
        earned = min(len(SLOT_THRESHOLDS), side.slots_earned + max(0, climbed))
    else:
        earned = max(side.slots_earned, reached)
    return with_side(state, seat, replace(side, plane=plane, slots_earned=earned))


def kill(state: CrystaleState, unit_id: int) -> CrystaleState:
    """A Servant at 0 HP (or destroyed, or sacrificed) leaves the board for its owner's
    Higher Plane (CR-8.5)."""
    unit = state.units[unit_id]
    units = dict(state.units)
    del units[unit_id]
    return put_in_plane(replace(state, units=units), unit.seat, [unit.crystal])


def promote_unit(state: CrystaleState, unit: Unit) -> CrystaleState:
    """CR-9.6: the next rank's stats; HP regained in full, or less the damage taken
    under the ``promotion_hp=keep_damage`` variant (CR-I.10)."""
    crystal = crystal_of(state, unit)
    new_hp = crystal.ranks[unit.rank].hp
    if state.table.promotion_hp == "keep_damage":
        new_hp = max(1, new_hp - max(0, max_hp(state, unit) - unit.hp))
    return with_unit(state, replace(unit, rank=unit.rank + 1, hp=new_hp))


def settle(state: CrystaleState) -> CrystaleState:
    """Record the result once a Summoner's hit box is empty (CR-13.1)."""
    if state.result is not None:
        return state
    for seat in (0, 1):
        if state.sides[seat].hits <= 0:
            other = 1 - seat
            return replace(
                state,
                result=Result(
                    other, "CR-13.1", f"{SEATS[seat]}'s Summoner has no hits left in its hit box"
                ),
            )
    return state


def start_mp(state_table_start: str, mana_pool: int) -> int:
    """CR-I.7: a Summoner begins with a full Mana Pool (or empty, by variant)."""
    return mana_pool if state_table_start == "full" else 0


def place_summoner(state: CrystaleState, seat: int, crystal: Crystal) -> CrystaleState:
    """Put ``seat``'s Summoner on its starting tile (CR-4.3) with its Mana Pool."""
    side = state.sides[seat]
    knowledge = side.knowledge.with_seen(crystal.name) if side.knowledge is not None else None
    side = replace(
        side,
        knowledge=knowledge,
        summoner=crystal.name,
        mana_pool=crystal.mana_pool,
        recharge=crystal.recharge,
        element=crystal.element,
        mp=start_mp(state.table.start_mp, crystal.mana_pool),
    )
    uid = summoner_id(seat)
    unit = Unit(uid, seat, crystal.name, P1_START if seat == 0 else P2_START, summoner=True)
    return with_unit(with_side(state, seat, side), unit)


def recharge_effects(state: CrystaleState, seat: int) -> list[tuple[Unit, Crystal, Effect]]:
    """Recharge-phase effects of ``seat``'s units, in unit order (CR-6.5)."""
    out = []
    for uid in sorted(state.units):
        unit = state.units[uid]
        if unit.seat != seat:
            continue
        crystal = crystal_of(state, unit)
        for effect in crystal.effects:
            if effect.phase == "recharge" and effect.rank <= unit.rank:
                out.append((unit, crystal, effect))
    return out


def empty_side(seat: int, size: int) -> Side:
    """A side before its Summoner is placed: ``size - 1`` crystals in the pool (CR-3.4)."""
    return Side(
        knowledge=None, pool=HiddenZone(SEATS[seat], max(0, size - 1)), hand=HiddenZone(SEATS[seat])
    )

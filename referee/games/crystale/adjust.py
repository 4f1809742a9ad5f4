"""Referee adjustments for Crystale (CR-11.2): the kit's primitive changes read as
changes to a Crystale position, and refused when they cannot happen (CR-11.3).

    move p1 pool>hand [NAME]     move p1 hand>plane NAME     move p1 plane>pool NAME
    move p1 hand>c3 NAME         (a Servant an effect summons, rank 1, onto a free tile)
    move p1 u5>hand / u5>pool / u5>plane / u5>c4   (a unit leaves the board or is moved)
    stat u5 hp -20    stat u5 atk +10    stat u5 rank +1    stat c3 water =1 (tile element)
    resource p1 mp +30    resource p1 hits -1    resource p1 slots +1
    tap u5 (fatigue)    untap u5 (fresh again)    destroy u5    draw p1 2
"""

from __future__ import annotations

import msgspec

from referee.games.crystale.board import ELEMENT_ALIASES, LETTER_OF, TILE_INDEX
from referee.games.crystale.catalog import Book
from referee.games.crystale.model import HIT_BOX, SEATS, SLOT_THRESHOLDS, CrystaleState, Side, Unit
from referee.games.crystale.position import (
    crystal_of,
    gain_mp,
    hand_check,
    kill,
    occupant,
    out_of_sight,
    pool_check,
    promote_unit,
    put_in_plane,
    settle,
    spend_mp,
    take_from_hand,
    take_from_pool,
    with_side,
    with_unit,
)
from referee.kit.adjustments import (
    Change,
    ChangeResource,
    ChangeStat,
    Destroy,
    DrawCards,
    MoveCard,
    Tap,
    Untap,
    change_tables,
)
from referee.kit.zones import kept_private
from referee.verdicts import LEGAL, Verdict

__all__ = [
    "CHANGE_CHECKS",
    "CHANGE_EFFECTS",
    "HIDDEN_ZONES",
    "apply_change",
    "check_change",
    "kept_in_sight",
]

CHANGE_CHECKS, CHANGE_EFFECTS = change_tables(CrystaleState, "Crystale")

PRIMITIVES = "CR-11.2"
FIT = "CR-11.3"
NAMED = "CR-12.3"

replace = msgspec.structs.replace
_ZONES = ("pool", "hand", "plane")
HIDDEN_ZONES = frozenset({"pool", "hand"})
"""What a seat's pool and hand hold is its own and the referee's; the Higher Plane is
public (CR-12.5): a crystal moved between pool and hand is kept hidden (REF-6.6)."""


def _seat(name: str) -> int | None:
    return SEATS.index(name) if name in SEATS else None


def _unit(state: CrystaleState, token: str) -> Unit | None:
    token = token.strip().lower().lstrip("#")
    token = token.removeprefix("u")
    return state.units.get(int(token)) if token.isdigit() else None


def check_change(state: CrystaleState, change: Change) -> Verdict:
    """Whether ``change`` fits the position (CR-11.3)."""
    if state.result is not None:
        return Verdict.illegal("REF-1.3", "the battle is over")
    return _CHECKS[type(change)](state, change, None)


@CHANGE_CHECKS.register(DrawCards)
def _check_draw(state: CrystaleState, change: DrawCards, _: None) -> Verdict:
    seat = _seat(change.seat)
    if seat is None:
        return Verdict.illegal(FIT, f"{change.seat!r} is not a seat (p1 or p2)")
    pool = state.sides[seat].pool.count
    if change.count > pool:
        return Verdict.illegal(
            FIT, f"{change.seat}'s pool holds {pool} crystals; {change.count} cannot be drawn"
        )
    return LEGAL


def _check_on_board(state: CrystaleState, change: Tap | Untap, _: None) -> Verdict:
    """A unit tapped or untapped is on the board."""
    if _unit(state, change.target) is None:
        return _no_unit(change.target)
    return LEGAL


CHANGE_CHECKS.add(Tap, _check_on_board)
CHANGE_CHECKS.add(Untap, _check_on_board)


@CHANGE_CHECKS.register(Destroy)
def _check_destroy(state: CrystaleState, change: Destroy, _: None) -> Verdict:
    unit = _unit(state, change.target)
    if unit is None:
        return _no_unit(change.target)
    if unit.summoner:
        return Verdict.illegal(
            FIT,
            f"u{unit.id} ({unit.crystal}) is a Summoner; it leaves the board only when "
            "the battle ends (take hits with resource SEAT hits -1)",
        )
    return LEGAL


def _no_unit(target: str) -> Verdict:
    return Verdict.illegal(FIT, f"there is no unit {target!r} on the board")


@CHANGE_CHECKS.register(MoveCard)
def _check_move(state: CrystaleState, change: MoveCard, _: None) -> Verdict:
    seat = _seat(change.seat)
    if seat is None:
        return Verdict.illegal(FIT, f"{change.seat!r} is not a seat (p1 or p2)")
    source, target = change.source, change.target
    unit = _unit(state, source) if source.startswith("u") else None
    if unit is not None:
        return _check_unit_move(state, seat, unit, target)
    verdict = _check_zones(source, target)
    if not verdict:
        return verdict
    named = _named_crystal(state, change)
    if isinstance(named, Verdict):
        return named
    verdict = _check_source(state.book, state.sides[seat], seat, change, named)
    if not verdict:
        return verdict
    if target in TILE_INDEX:
        return _free_tile(state, target)
    return LEGAL


def _check_unit_move(state: CrystaleState, seat: int, unit: Unit, target: str) -> Verdict:
    """A unit on the board moved by the referee: the seat's own, never a Summoner off it."""
    if unit.seat != seat:
        return Verdict.illegal(FIT, f"u{unit.id} ({unit.crystal}) belongs to {SEATS[unit.seat]}")
    if unit.summoner and target in _ZONES:
        return Verdict.illegal(
            FIT, f"u{unit.id} ({unit.crystal}) is a Summoner; it never leaves the board"
        )
    if target in TILE_INDEX:
        return _free_tile(state, target)
    if target not in _ZONES:
        return Verdict.illegal(
            PRIMITIVES, f"a unit goes to hand, pool, plane or a tile, not {target!r}"
        )
    return LEGAL


def _check_zones(source: str, target: str) -> Verdict:
    """A crystal moves from a zone to another zone or a tile."""
    if source not in _ZONES:
        return Verdict.illegal(
            PRIMITIVES,
            f"crystals move between pool, hand and plane (or a unit uN), not from {source!r}",
        )
    if target not in _ZONES and target not in TILE_INDEX:
        return Verdict.illegal(
            PRIMITIVES, f"crystals move to pool, hand, plane or a tile, not {target!r}"
        )
    if source == target:
        return Verdict.illegal(
            PRIMITIVES, f"a crystal moving from {source} to {target} goes nowhere"
        )
    return LEGAL


def _named_crystal(state: CrystaleState, change: MoveCard) -> str | Verdict | None:
    """The catalog's name of the crystal moved (``None``: unseen), or why it cannot move so."""
    source, target = change.source, change.target
    if change.card is None:
        if source == "plane" or target == "plane" or target in TILE_INDEX:
            return Verdict.illegal(FIT, f"a crystal moved {source}>{target} is seen: name it")
        return None
    crystal = state.book.find(change.card)
    if crystal is None:
        return Verdict.illegal(
            NAMED, f"no crystal called {change.card!r} is in this game's catalog"
        )
    if crystal.kind == "summoner":
        return Verdict.illegal(FIT, f"{crystal.name} is a Summoner; it stays on the board")
    if target in TILE_INDEX and crystal.kind != "servant":
        return Verdict.illegal(
            FIT, f"{crystal.name} is a {crystal.kind} crystal; only Servants stand on tiles"
        )
    return crystal.name


def _check_source(book: Book, side: Side, seat: int, change: MoveCard, name: str | None) -> Verdict:
    """The zone the crystal leaves holds it (as far as the referee knows)."""
    source = change.source
    if source == "pool":
        if side.pool.count == 0:
            return Verdict.illegal(FIT, f"{change.seat}'s pool is empty")
        if name is not None:
            return pool_check(book, side, seat, name, NAMED)
        return LEGAL
    if source == "hand":
        if name is None:
            if side.hand.count == 0:
                return Verdict.illegal(FIT, f"{change.seat} holds no crystals")
            return LEGAL
        return hand_check(book, side, seat, name, NAMED)
    if name is not None and not side.plane.count(name):
        return Verdict.illegal(FIT, f"{change.seat}'s Higher Plane holds no {name}")
    return LEGAL


def _free_tile(state: CrystaleState, tile: str) -> Verdict:
    holder = occupant(state, TILE_INDEX[tile])
    if holder is not None:
        return Verdict.illegal("CR-4.4", f"{tile} holds u{holder.id} ({holder.crystal})")
    return LEGAL


@CHANGE_CHECKS.register(ChangeStat)
def _check_stat(state: CrystaleState, change: ChangeStat, _: None) -> Verdict:
    target = change.target.strip().lower()
    if target in TILE_INDEX:
        if change.stat.lower() not in ELEMENT_ALIASES or not (
            change.absolute and change.amount == 1
        ):
            return Verdict.illegal(
                PRIMITIVES,
                f"a tile changes element as 'stat {target} ELEMENT =1', such as stat c3 water =1",
            )
        return LEGAL
    unit = _unit(state, target)
    if unit is None:
        return Verdict.illegal(FIT, f"there is no unit or tile {change.target!r}")
    stat = change.stat.lower()
    if stat not in ("hp", "atk", "rank"):
        return Verdict.illegal(
            PRIMITIVES, f"a unit's stats are hp, atk and rank, not {change.stat!r}"
        )
    if unit.summoner:
        return Verdict.illegal(
            FIT,
            f"u{unit.id} ({unit.crystal}) is a Summoner: it has no {stat}; change its "
            "mp or hits as resources",
        )
    if stat == "rank":
        top = len(crystal_of(state, unit).ranks)
        rank = change.amount if change.absolute else unit.rank + change.amount
        if not 1 <= rank <= top:
            return Verdict.illegal(
                FIT, f"u{unit.id} ({unit.crystal}) has ranks 1 to {top}, not {rank}"
            )
    return LEGAL


@CHANGE_CHECKS.register(ChangeResource)
def _check_resource(state: CrystaleState, change: ChangeResource, _: None) -> Verdict:
    seat = _seat(change.seat)
    if seat is None:
        return Verdict.illegal(FIT, f"{change.seat!r} is not a seat (p1 or p2)")
    side = state.sides[seat]
    resource = change.resource
    if resource == "mp":
        after = side.mp + change.amount
        if after < 0:
            return Verdict.illegal(
                FIT, f"{change.seat}'s Summoner has {side.mp} MP; {-change.amount} cannot be taken"
            )
        if after > side.mana_pool + side.bonus and change.amount > 0:
            return Verdict.illegal(
                "CR-6.4",
                f"{change.seat}'s Summoner holds at most "
                f"{side.mana_pool + side.bonus} MP; {after} is over it",
            )
        return LEGAL
    if resource == "hits":
        after = side.hits + change.amount
        if not 0 <= after <= HIT_BOX:
            return Verdict.illegal(
                FIT, f"a hit box holds 0 to {HIT_BOX} hits; {change.seat} would have {after}"
            )
        return LEGAL
    if resource == "slots":
        after = side.slots_earned + change.amount
        if not side.slots_used <= after <= len(SLOT_THRESHOLDS):
            return Verdict.illegal(
                "CR-9.2",
                f"{change.seat} would have {after} promotion slots; a match has "
                f"at most {len(SLOT_THRESHOLDS)} and {side.slots_used} are used",
            )
        return LEGAL
    return Verdict.illegal(
        PRIMITIVES, f"a seat's resources are mp, hits and slots, not {resource!r}"
    )


# -- apply ------------------------------------------------------------------------------
def apply_change(state: CrystaleState, change: Change) -> CrystaleState:
    """The position after a checked change."""
    return _EFFECTS[type(change)](state, change, None)


@CHANGE_EFFECTS.register(ChangeResource)
def _apply_resource(state: CrystaleState, change: ChangeResource, _: None) -> CrystaleState:
    seat = SEATS.index(change.seat)
    side = state.sides[seat]
    if change.resource == "mp":
        side = (
            gain_mp(side, change.amount) if change.amount >= 0 else spend_mp(side, -change.amount)
        )
    elif change.resource == "hits":
        side = replace(side, hits=side.hits + change.amount)
    else:
        side = replace(side, slots_earned=side.slots_earned + change.amount)
    return settle(with_side(state, seat, side))


@CHANGE_EFFECTS.register(DrawCards)
def _apply_draw(state: CrystaleState, change: DrawCards, _: None) -> CrystaleState:
    seat = SEATS.index(change.seat)
    side = state.sides[seat]
    side = replace(
        out_of_sight(side, "pool", change.count, state.table),
        hand=side.hand.put_unseen(change.count),
    )
    return with_side(state, seat, side)


@CHANGE_EFFECTS.register(Tap)
def _apply_tap(state: CrystaleState, change: Tap, _: None) -> CrystaleState:
    return with_unit(state, replace(_checked_unit(state, change.target), attacked=True))


@CHANGE_EFFECTS.register(Untap)
def _apply_untap(state: CrystaleState, change: Untap, _: None) -> CrystaleState:
    unit = _checked_unit(state, change.target)
    return with_unit(state, replace(unit, moved=False, attacked=False, used_effect=False))


@CHANGE_EFFECTS.register(Destroy)
def _apply_destroy(state: CrystaleState, change: Destroy, _: None) -> CrystaleState:
    return kill(state, _checked_unit(state, change.target).id)


def _checked_unit(state: CrystaleState, target: str) -> Unit:
    """The unit a checked change names (its check found it)."""
    unit = _unit(state, target)
    if unit is None:
        raise ValueError("unit is missing: only an entry its check allowed is carried out")
    return unit


@CHANGE_EFFECTS.register(MoveCard)
def _apply_move(state: CrystaleState, change: MoveCard, _: None) -> CrystaleState:
    return settle(_moved(state, change))


def _moved(state: CrystaleState, change: MoveCard) -> CrystaleState:
    seat = SEATS.index(change.seat)
    side = state.sides[seat]
    source, target = change.source, change.target
    unit = _unit(state, source) if source.startswith("u") else None
    if unit is not None:
        if target in TILE_INDEX:
            return with_unit(state, replace(unit, tile=TILE_INDEX[target]))
        units = dict(state.units)
        del units[unit.id]
        state = replace(state, units=units)
        if target == "plane":
            return put_in_plane(state, seat, [unit.crystal])
        if target == "hand":
            return with_side(state, seat, replace(side, hand=side.hand.put_known(unit.crystal)))
        return with_side(state, seat, _into_pool(side, unit.crystal))
    crystal = state.book.find(change.card) if change.card is not None else None
    if change.card is not None and crystal is None:
        raise ValueError(f"{change.card!r} is no crystal: apply only a change check_change allowed")
    name = crystal.name if crystal is not None else None
    # out of the source zone
    if source == "pool":
        side = (
            out_of_sight(side, "pool", 1, state.table)
            if name is None
            else take_from_pool(side, name)
        )
    elif source == "hand":
        side = (
            out_of_sight(side, "hand", 1, state.table)
            if name is None
            else take_from_hand(side, name)
        )
    else:
        if name is None:
            raise ValueError("name is missing: only an entry its check allowed is carried out")
        side = replace(side, plane=side.plane.minus([name]))
    # into the target zone
    if target == "pool":
        return with_side(
            state,
            seat,
            _into_pool(side, name)
            if name is not None
            else replace(side, pool=side.pool.put_unseen(1)),
        )
    if target == "hand":
        hand = side.hand.put_unseen(1) if name is None else side.hand.put_known(name)
        return with_side(state, seat, replace(side, hand=hand))
    state = with_side(state, seat, side)
    if name is None:
        raise ValueError("name is missing: only an entry its check allowed is carried out")
    if target == "plane":
        return put_in_plane(state, seat, [name])
    crystal = state.book.crystals[name]
    new = Unit(state.next_id, seat, name, TILE_INDEX[target], hp=crystal.ranks[0].hp)
    return replace(with_unit(state, new), next_id=state.next_id + 1)


def _into_pool(side: Side, name: str) -> Side:
    """A named crystal shuffled into the pool is hidden again (CR-12.4)."""
    knowledge = side.knowledge.with_unseen(name) if side.knowledge is not None else None
    return replace(side, pool=side.pool.put_unseen(1), knowledge=knowledge)


@CHANGE_EFFECTS.register(ChangeStat)
def _apply_stat(state: CrystaleState, change: ChangeStat, _: None) -> CrystaleState:
    target = change.target.strip().lower()
    if target in TILE_INDEX:
        index = TILE_INDEX[target]
        letter = LETTER_OF[ELEMENT_ALIASES[change.stat.lower()]]
        return replace(state, tiles=state.tiles[:index] + letter + state.tiles[index + 1 :])
    unit = _checked_unit(state, target)
    stat = change.stat.lower()
    if stat == "hp":
        hp = change.amount if change.absolute else unit.hp + change.amount
        return kill(state, unit.id) if hp <= 0 else with_unit(state, replace(unit, hp=hp))
    if stat == "atk":
        atk = (
            change.amount - _base(state, unit) if change.absolute else unit.atk_mod + change.amount
        )
        return with_unit(state, replace(unit, atk_mod=atk))
    rank = change.amount if change.absolute else unit.rank + change.amount
    if rank == unit.rank + 1:
        return promote_unit(state, unit)
    crystal = crystal_of(state, unit)
    return with_unit(state, replace(unit, rank=rank, hp=min(unit.hp, crystal.ranks[rank - 1].hp)))


def _base(state: CrystaleState, unit: Unit) -> int:
    return crystal_of(state, unit).ranks[unit.rank - 1].atk


_CHECKS = CHANGE_CHECKS.handlers
_EFFECTS = CHANGE_EFFECTS.handlers


def kept_in_sight(state: CrystaleState, seat: str, zone: str, card: str) -> CrystaleState:
    """``state`` with the card just moved unseen into ``seat``'s hidden ``zone`` (its
    pool and hand) known as ``card`` to that seat and the referee only (REF-6.6)."""
    index = SEATS.index(seat)
    name = found.name if (found := state.book.find(card)) is not None else card
    side = kept_private(state.sides[index], zone, name)
    return state if side is None else with_side(state, index, side)

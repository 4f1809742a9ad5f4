"""The field and the piles: calculated attack and defense, cards entering and leaving
play, costs, income and the passing of turns.

Shared by the entries (``engine``) and the referee's adjustments (``adjust``).
Every function returns a new state and leaves its input untouched; nothing here
checks legality (the callers do).
"""

from __future__ import annotations

import msgspec

from referee.games.gammasphere.catalog import PYLON_GAS, Card, Effect
from referee.games.gammasphere.model import SEATS, Entity, GammasphereState, Result, Side

__all__ = [
    "BASE_INCOME",
    "HAND_LIMIT",
    "LEVELS",
    "OPENING_HAND",
    "REFINERY_INCOME",
    "START_GAS",
    "START_POWER",
    "aimable",
    "attack_of",
    "available_jiggawatts",
    "await_draw",
    "begin_turn",
    "card_of",
    "clamp_level",
    "cost_of",
    "defense_of",
    "draw_cards",
    "draw_for_effect",
    "enter",
    "find",
    "finished",
    "gain_income",
    "leave",
    "lower",
    "on_buildings",
    "over_limit",
    "pass_turn",
    "pay",
    "present",
    "raw_attack",
    "raw_defense",
    "refineries",
    "self_aimable",
    "side",
    "untapped_pylons",
    "with_entity",
    "with_side",
]

START_GAS = 3000
START_POWER = 9000
OPENING_HAND = 7
HAND_LIMIT = 10
BASE_INCOME = 300
REFINERY_INCOME = 300
LEVELS = (1, 10)


def side(state: GammasphereState, seat: int) -> Side:
    return state.sides[seat]


def with_side(state: GammasphereState, seat: int, new: Side) -> GammasphereState:
    sides = (new, state.sides[1]) if seat == 0 else (state.sides[0], new)
    return msgspec.structs.replace(state, sides=sides)


def find(state: GammasphereState, number: int) -> Entity | None:
    for entity in state.field:
        if entity.id == number:
            return entity
    return None


def present(state: GammasphereState, number: int, what: str = "entity") -> Entity:
    """Entity ``number``, which an entry already checked names (carrying out never checks:
    a missing one is a caller's mistake, not a rule broken)."""
    for entity in state.field:
        if entity.id == number:
            return entity
    raise ValueError(f"{what} is missing: only an entry its check allowed is carried out")


def card_of(state: GammasphereState, entity: Entity) -> Card:
    return state.cards.by_name[entity.card]


def with_entity(state: GammasphereState, new: Entity) -> GammasphereState:
    field = tuple(new if e.id == new.id else e for e in state.field)
    return msgspec.structs.replace(state, field=field)


# -- calculated values (GS-2.4, GS-2.6, GS-I.14) ---------------------------------


def raw_attack(state: GammasphereState, entity: Entity) -> int:
    """Attack before the floor at zero: a weapon's boost, a character's calculated attack."""
    card = card_of(state, entity)
    if entity.kind == "weapon":
        return card.attack_boost + entity.attack_bonus
    if entity.kind != "character":
        return 0
    value = card.attack + (entity.level - card.level) * card.attack_mod + entity.attack_bonus
    for weapon in state.field:
        if weapon.carrier == entity.id:
            value += raw_attack(state, weapon)
    return value


def raw_defense(state: GammasphereState, entity: Entity) -> int:
    """Defense before the floor at zero (a building's too; a weapon's boost)."""
    card = card_of(state, entity)
    if entity.kind == "weapon":
        return card.defense_boost + entity.defense_bonus
    if entity.kind == "character":
        value = card.defense + (entity.level - card.level) * card.defense_mod + entity.defense_bonus
    elif entity.kind == "building":
        value = card.defense + entity.defense_bonus
    else:
        return 0
    for weapon in state.field:
        if weapon.carrier == entity.id:
            value += raw_defense(state, weapon)
    return value


def attack_of(state: GammasphereState, entity: Entity) -> int:
    """GS-2.4: a character's attack at its level, with weapons and adjustments, never below 0."""
    return max(0, raw_attack(state, entity))


def defense_of(state: GammasphereState, entity: Entity) -> int:
    """GS-2.4: defense at the current level, with weapons and adjustments, never below 0."""
    return max(0, raw_defense(state, entity))


def aimable(state: GammasphereState, seat: int, kind: str) -> list[Entity]:
    """The characters a structured effect of ``seat``'s aiming at ``kind`` (``character``,
    ``own character`` or ``opposing character``) may name, in the order they entered."""
    return [
        e
        for e in state.field
        if e.kind == "character"
        and (
            kind == "character"
            or (kind == "own character" and e.owner == seat)
            or (kind == "opposing character" and e.owner != seat)
        )
    ]


def self_aimable(state: GammasphereState, card: Card, effect: Effect, arriving: bool) -> bool:
    """GS-I.33: whether ``card``, ``arriving`` on the field, may be the target of its own
    ``effect`` (a character aiming at any or an own character, where the table allows it)."""
    return (
        arriving
        and card.kind == "character"
        and effect.target in ("character", "own character")
        and state.table.self_target == "yes"
    )


def on_buildings(state: GammasphereState, card: Card) -> bool:
    """GS-I.28: whether weapon ``card`` may be attached to a building at this table."""
    return card.on_buildings or state.table.building_weapons == "any"


def over_limit(state: GammasphereState) -> list[int]:
    """GS-5.6, GS-I.29: the seats holding more than ten cards whose hands the end of the
    turn counts (every seat's, or the active seat's alone under hand_limit=own)."""
    counted = (0, 1) if state.table.hand_limit == "every" else (state.active,)
    return [i for i in counted if state.sides[i].hand.count > HAND_LIMIT]


def refineries(state: GammasphereState, seat: int) -> int:
    """GS-I.11: the seat's entities in play whose card is a Refinery."""
    by_name = state.cards.by_name
    return sum(1 for e in state.field if e.owner == seat and by_name[e.card].refinery)


# -- costs (GS-2.2, GS-6.2, GS-6.3, GS-I.21) --------------------------------------


def cost_of(card: Card) -> tuple[int, int]:
    """Gas and jiggawatts it takes to put ``card`` into play (a pylon: 100 gas)."""
    if card.kind == "pylon":
        return PYLON_GAS, 0
    return card.gas, card.jiggawatts


def untapped_pylons(state: GammasphereState, seat: int) -> list[Entity]:
    return [e for e in state.field if e.owner == seat and e.kind == "pylon" and not e.tapped]


def available_jiggawatts(state: GammasphereState, seat: int) -> int:
    """The seat's jiggawatt pool plus one for each untapped pylon."""
    return state.sides[seat].jiggawatts + len(untapped_pylons(state, seat))


def pay(state: GammasphereState, seat: int, gas: int, jiggawatts: int) -> GammasphereState:
    """Take ``gas``; pay ``jiggawatts`` from the pool first, then by tapping the
    lowest-numbered untapped pylons (pylons are alike, so which ones does not matter)."""
    own = state.sides[seat]
    from_pool = min(own.jiggawatts, jiggawatts)
    if gas or from_pool:
        state = with_side(
            state,
            seat,
            msgspec.structs.replace(own, gas=own.gas - gas, jiggawatts=own.jiggawatts - from_pool),
        )
    to_tap = jiggawatts - from_pool
    if to_tap:
        tapped = {e.id for e in untapped_pylons(state, seat)[:to_tap]}
        field = tuple(
            msgspec.structs.replace(e, tapped=True) if e.id in tapped else e for e in state.field
        )
        state = msgspec.structs.replace(state, field=field)
    return state


# -- cards entering and leaving the field -------------------------------------------


def enter(
    state: GammasphereState, seat: int, card: Card, mode: str = "", carrier: int = 0
) -> GammasphereState:
    """``card`` enters ``seat``'s side untapped (GS-I.17), a character at its printed level."""
    if card.kind == "character":
        entity = Entity(
            id=state.next_id,
            card=card.name,
            owner=seat,
            kind="character",
            mode="defense" if mode == "defense" else "attack",
            level=card.level,
        )
    else:
        entity = Entity(
            id=state.next_id, card=card.name, owner=seat, kind=card.kind, carrier=carrier
        )
    return msgspec.structs.replace(state, field=(*state.field, entity), next_id=state.next_id + 1)


def _to_discard(state: GammasphereState, seat: int, names: list[str]) -> GammasphereState:
    own = state.sides[seat]
    return with_side(state, seat, msgspec.structs.replace(own, discard=own.discard + tuple(names)))


def leave(state: GammasphereState, number: int, to: str = "discard") -> GammasphereState:
    """Entity ``number`` leaves the field for its owner's ``to`` pile (``discard``, ``hand``
    or ``deck``); weapons it carried go to their owners' discard piles (GS-I.12)."""
    entity = present(state, number)
    carried = [w for w in state.field if w.carrier == number]
    gone = {number} | {w.id for w in carried}
    state = msgspec.structs.replace(state, field=tuple(e for e in state.field if e.id not in gone))
    for weapon in carried:
        state = _to_discard(state, weapon.owner, [weapon.card])
    owner = state.sides[entity.owner]
    if to == "discard":
        return _to_discard(state, entity.owner, [entity.card])
    if to == "hand":
        return with_side(
            state,
            entity.owner,
            msgspec.structs.replace(owner, hand=owner.hand.put_known(entity.card)),
        )
    return with_side(
        state,
        entity.owner,
        msgspec.structs.replace(
            owner, deck=owner.deck.put_unseen(), knowledge=owner.knowledge.with_unseen(entity.card)
        ),
    )


# -- draws, turns and the end of the game --------------------------------------------


def draw_cards(state: GammasphereState, seat: int, count: int) -> GammasphereState:
    """``seat`` draws ``count`` unseen cards (the caller made sure the deck holds them)."""
    own = state.sides[seat]
    return with_side(
        state,
        seat,
        msgspec.structs.replace(
            own, hand=own.hand.put_unseen(count), deck=own.deck.take_unseen(count)
        ),
    )


def draw_for_effect(state: GammasphereState, seat: int, count: int, cause: str) -> GammasphereState:
    """An effect makes ``seat`` draw ``count``: it draws what the deck holds, and when that
    is too few under empty_deck=lose it loses (GS-I.5), unless the game already ended;
    ``cause`` opens the reason."""
    held = state.sides[seat].deck.count
    over = finished(state) is not None  # a power level already at zero ended the game first
    state = draw_cards(state, seat, min(held, count))
    if held < count and state.table.empty_deck == "lose" and not over:
        reason = f"{cause} draw {count} from a deck of {held}"
        state = msgspec.structs.replace(state, result=Result(1 - seat, "GS-I.5", reason))
    return state


def gain_income(state: GammasphereState, seat: int) -> GammasphereState:
    """GS-5.2: 300 gas, and 300 more for each Refinery in play."""
    own = state.sides[seat]
    income = BASE_INCOME + REFINERY_INCOME * refineries(state, seat)
    return with_side(state, seat, msgspec.structs.replace(own, gas=own.gas + income))


def begin_turn(state: GammasphereState, seat: int, first_turn: bool = False) -> GammasphereState:
    """The start of ``seat``'s turn: everything of theirs untaps (GS-5.3, GS-I.6) and every
    character may switch again (GS-I.26), then the draw is awaited, or skipped (GS-I.4,
    GS-I.5) with the income gained at once."""
    if any((e.tapped and e.owner == seat) or e.switched for e in state.field):
        field = tuple(
            msgspec.structs.replace(e, tapped=e.tapped and e.owner != seat, switched=False)
            if (e.tapped and e.owner == seat) or e.switched
            else e
            for e in state.field
        )
        state = msgspec.structs.replace(state, field=field)
    state = msgspec.structs.replace(state, active=seat)
    if first_turn and state.table.first_draw == "no":
        return msgspec.structs.replace(gain_income(state, seat), phase="main")
    return await_draw(state)


def await_draw(state: GammasphereState) -> GammasphereState:
    """The active seat's draw is awaited, unless its deck is empty (GS-I.5): then the draw is
    skipped and the income gained, or, when the table so rules, the seat loses."""
    seat = state.active
    if state.sides[seat].deck.count == 0:
        if state.table.empty_deck == "lose":
            return msgspec.structs.replace(
                state,
                phase="draw",
                result=Result(1 - seat, "GS-I.5", f"{SEATS[seat]} must draw from an empty deck"),
            )
        return msgspec.structs.replace(gain_income(state, seat), phase="main")
    return msgspec.structs.replace(state, phase="draw")


def pass_turn(state: GammasphereState) -> GammasphereState:
    """The active seat's turn ends: its unspent jiggawatt pool lapses (GS-I.21), the other
    seat's turn begins."""
    seat = state.active
    own = state.sides[seat]
    if own.jiggawatts:
        state = with_side(state, seat, msgspec.structs.replace(own, jiggawatts=0))
    state = msgspec.structs.replace(state, turn=state.turn + 1)
    return begin_turn(state, 1 - seat)


def finished(state: GammasphereState) -> Result | None:
    """How the game ended by rule, or ``None``: a deck-out loss recorded in the state
    (GS-I.5), else GS-8.1 and GS-I.15 read from the power levels, so that an
    adjustment bringing both to zero is a draw however its changes are ordered."""
    if state.result is not None:
        return state.result
    first, second = state.sides
    if first.power > 0 and second.power > 0:
        return None
    if first.power <= 0 and second.power <= 0:
        return Result(None, "GS-I.15", "both power levels reached 0 at once")
    loser = 0 if first.power <= 0 else 1
    return Result(1 - loser, "GS-8.1", f"{SEATS[loser]}'s power level reached 0")


def lower(value: int, amount: int) -> int:
    """``value`` changed by ``amount`` but never below zero (GS-I.15, GS-I.24)."""
    return max(0, value + amount)


def clamp_level(level: int) -> int:
    return min(LEVELS[1], max(LEVELS[0], level))

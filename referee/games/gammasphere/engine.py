"""Carrying out Gammasphere entries: ``apply`` returns the position after an entry
that was checked beforehand (it never checks), leaving its input untouched.
"""

from __future__ import annotations

import msgspec

from referee.games.gammasphere import model
from referee.games.gammasphere.catalog import Card, Effect
from referee.games.gammasphere.checks import acting_seat, over_limit
from referee.games.gammasphere.decks import take_from_hand
from referee.games.gammasphere.model import SEATS, GammasphereAction, GammasphereState
from referee.games.gammasphere.position import (
    attack_of,
    begin_turn,
    card_of,
    clamp_level,
    cost_of,
    defense_of,
    draw_cards,
    draw_for_effect,
    enter,
    find,
    finished,
    gain_income,
    leave,
    lower,
    pass_turn,
    pay,
    present,
    with_entity,
    with_side,
)
from referee.kit.dispatch import Dispatch
from referee.outcomes import ONGOING, Outcome

ENTRY_EFFECTS: Dispatch[GammasphereState, int, GammasphereState] = Dispatch("Gammasphere entries")
"""What each kind of Gammasphere entry does, by its type."""

__all__ = ["apply", "apply_effect", "outcome", "to_act"]


# -- carrying entries out --------------------------------------------------------------


def apply_effect(
    state: GammasphereState, seat: int, card: Card, effect: Effect, target: int
) -> GammasphereState:
    """GS-9.1: a structured effect of ``seat``'s ``card``; amounts stop at zero (GS-I.24). A
    power level brought to zero ends the game at once (GS-8.1): nothing after it happens."""
    other = 1 - seat
    for index, gas, power in (
        (seat, effect.gas, effect.power),
        (other, effect.opponent_gas, effect.opponent_power),
    ):
        if gas or power:
            own = state.sides[index]
            state = with_side(
                state,
                index,
                msgspec.structs.replace(
                    own, gas=lower(own.gas, gas), power=lower(own.power, power)
                ),
            )
    if finished(state) is not None:
        return state
    if effect.draw:
        state = draw_for_effect(state, seat, effect.draw, f"{card.name} made {SEATS[seat]}")
        if finished(state) is not None:  # a draw the deck could not meet lost it (GS-I.5)
            return state
    if target and effect.target != "none":
        aimed = find(state, target)
        if aimed is not None and effect.level:
            state = with_entity(
                state, msgspec.structs.replace(aimed, level=clamp_level(aimed.level + effect.level))
            )
        if aimed is not None and effect.destroy:
            state = leave(state, target)
    return state


@ENTRY_EFFECTS.register(model.Draw)
def _apply_draw(state: GammasphereState, action: model.Draw, seat: int) -> GammasphereState:
    state = draw_cards(state, seat, action.count)
    if state.phase == "opening":
        own = state.sides[seat]
        state = with_side(state, seat, msgspec.structs.replace(own, opened=True))
        if all(s.opened for s in state.sides):
            state = msgspec.structs.replace(state, turn=1)
            state = begin_turn(state, state.first, first_turn=True)
        return state
    return msgspec.structs.replace(gain_income(state, seat), phase="main")


@ENTRY_EFFECTS.register(model.Play)
def _apply_play(state: GammasphereState, action: model.Play, seat: int) -> GammasphereState:
    card = state.cards.by_name[state.cards.canonical(action.card) or action.card]
    state = with_side(state, seat, take_from_hand(state, seat, card.name))
    gas, jiggawatts = cost_of(card)
    state = pay(state, seat, gas, jiggawatts)
    if card.kind == "event":
        own = state.sides[seat]
        state = with_side(
            state, seat, msgspec.structs.replace(own, discard=(*own.discard, card.name))
        )
    elif card.kind == "weapon":
        state = enter(state, seat, card, carrier=action.target)
    else:
        state = enter(state, seat, card, mode=action.mode)
    if card.plays_effect and card.effect is not None:
        state = apply_effect(state, seat, card, card.effect, action.target)
    return state


@ENTRY_EFFECTS.register(model.Construct)
def _apply_construct(
    state: GammasphereState, action: model.Construct, seat: int
) -> GammasphereState:
    card = state.cards.by_name[state.cards.canonical(action.card) or action.card]
    state = with_side(state, seat, take_from_hand(state, seat, card.name))
    state = pay(state, seat, *cost_of(card))
    return enter(state, seat, card)


def _lose_power(state: GammasphereState, seat: int, amount: int) -> GammasphereState:
    own = state.sides[seat]
    return with_side(state, seat, msgspec.structs.replace(own, power=lower(own.power, -amount)))


@ENTRY_EFFECTS.register(model.Attack)
def _apply_attack(state: GammasphereState, action: model.Attack, seat: int) -> GammasphereState:
    """GS-7.3 to GS-7.6 with GS-I.7 to GS-I.10."""
    attacker = present(state, action.attacker, "attacker")
    power = attack_of(state, attacker)
    if state.table.attack_taps == "yes":
        state = with_entity(state, msgspec.structs.replace(attacker, tapped=True))
    if not action.target:
        return _lose_power(state, 1 - seat, power)
    defender = present(state, action.target, "defender")
    if defender.mode == "defense":
        guard = defense_of(state, defender)
        if guard < power:
            state = leave(state, defender.id)
        elif guard > power:
            state = _lose_power(state, seat, guard - power)
        return state
    against = attack_of(state, defender)
    if against < power:
        state = leave(state, defender.id)
        if state.table.defender_loses == "yes":
            state = _lose_power(state, 1 - seat, power - against)
    elif against > power:
        state = _lose_power(leave(state, attacker.id), seat, against - power)
    elif state.table.attack_tie == "both":
        state = leave(leave(state, defender.id), attacker.id)
    return state


@ENTRY_EFFECTS.register(model.Switch)
def _apply_switch(state: GammasphereState, action: model.Switch, seat: int) -> GammasphereState:
    entity = present(state, action.entity)
    once = state.table.switch_limit == "once"  # GS-I.26: marked only where it counts
    return with_entity(
        state, msgspec.structs.replace(entity, mode=action.mode, switched=once or entity.switched)
    )


@ENTRY_EFFECTS.register(model.Activate)
def _apply_activate(state: GammasphereState, action: model.Activate, seat: int) -> GammasphereState:
    entity = present(state, action.entity)
    card = card_of(state, entity)
    if card.tap:
        state = with_entity(state, msgspec.structs.replace(entity, tapped=True))
    state = pay(state, seat, card.activate_gas, card.activate_jiggawatts)
    if card.effect is not None:
        state = apply_effect(state, seat, card, card.effect, action.target)
    return state


@ENTRY_EFFECTS.register(model.Discard)
def _apply_discard(state: GammasphereState, action: model.Discard, seat: int) -> GammasphereState:
    name = state.cards.canonical(action.card) or action.card
    own = take_from_hand(state, seat, name)
    state = with_side(state, seat, msgspec.structs.replace(own, discard=(*own.discard, name)))
    return state if over_limit(state) else pass_turn(state)


@ENTRY_EFFECTS.register(model.End)
def _apply_end(state: GammasphereState, action: model.End, seat: int) -> GammasphereState:
    """GS-5.5, GS-5.6: the turn passes, once every hand above ten is discarded down."""
    if over_limit(state):
        return msgspec.structs.replace(state, phase="discard")
    return pass_turn(state)


_APPLIES = ENTRY_EFFECTS.handlers


def apply(
    state: GammasphereState, action: GammasphereAction, seat: str | None = None
) -> GammasphereState:
    """The state after ``action`` (checked beforehand); ``state`` is left untouched."""
    return _APPLIES[type(action)](state, action, acting_seat(state, seat))


def to_act(state: GammasphereState) -> frozenset[str]:
    """Who may make an entry: both seats for the opening hands (GS-4.3), a seat over the
    hand limit at the end of a turn (GS-5.6), otherwise the active seat."""
    if finished(state) is not None:
        return frozenset()
    if state.phase == "opening":
        return frozenset(s.seat for s in state.sides if not s.opened)
    if state.phase == "discard":
        over = over_limit(state)
        if over:
            return frozenset(SEATS[i] for i in over)
    return frozenset((SEATS[state.active],))


def outcome(state: GammasphereState) -> Outcome:
    """Ongoing, or the win or draw the position shows (GS-8)."""
    r = finished(state)
    if r is None:
        return ONGOING
    if r.winner is None:
        return Outcome(status="draw", clause=r.clause, reason=r.reason)
    return Outcome(status="win", winner=SEATS[r.winner], clause=r.clause, reason=r.reason)

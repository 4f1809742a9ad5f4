"""Checking Gammasphere entries: ``check_action`` answers with the first clause an entry
breaks, or with a ruling on card text the engine cannot compute (GS-9.2).

Checks use the referee's knowledge only: unseen cards are counts, and a card named
from a hidden pile is checked against what its seat's deck can still hold (GS-3.5).
"""

from __future__ import annotations

from referee.games.gammasphere import model
from referee.games.gammasphere.catalog import Card, Effect
from referee.games.gammasphere.decks import catalog_card, check_deck_holds, check_from_hand
from referee.games.gammasphere.model import SEATS, Entity, GammasphereAction, GammasphereState
from referee.games.gammasphere.position import (
    HAND_LIMIT,
    OPENING_HAND,
    aimable,
    available_jiggawatts,
    card_of,
    cost_of,
    find,
    on_buildings,
    over_limit,
    self_aimable,
)
from referee.games.gammasphere.view import own_secrets, secrets
from referee.kit.dispatch import Dispatch
from referee.kit.secrecy import names_in, secrets_for_reasons
from referee.verdicts import LEGAL, Verdict

ENTRY_CHECKS: Dispatch[GammasphereState, int, Verdict] = Dispatch("checks of Gammasphere entries")
"""The check of each kind of Gammasphere entry, by its type."""
__all__ = ["RULING_CLAUSE", "acting_seat", "check", "check_action", "over_limit"]

RULING_CLAUSE = "GS-9.2"


# -- shared checks ---------------------------------------------------------------------


def _phase_gate(state: GammasphereState, seat: int, what: str) -> Verdict | None:
    """The entry ``what`` belongs to the main phase; say which step comes first."""
    who = SEATS[seat]
    if state.phase == "opening":
        waiting = " and ".join(s.seat for s in state.sides if not s.opened)
        return Verdict.illegal(
            "GS-4.3",
            f"the opening hands come first ({waiting} still to draw 7); "
            f"{what} waits for the first turn",
        )
    if state.phase == "draw":
        return Verdict.illegal(
            "GS-5.1", f"{who}'s turn begins with the draw; record 'draw' before {what}"
        )
    if state.phase == "discard":
        over = over_limit(state)
        if not over:  # an adjustment took the hands down to ten: only 'end' is left
            return Verdict.illegal(
                "GS-5.6", f"the turn is over: record 'end' to pass it; {what} is not possible now"
            )
        return Verdict.illegal(
            "GS-5.6",
            f"the turn is over and {_holding(state, over)}: discard down to "
            f"{HAND_LIMIT} first; {what} is not possible now",
        )
    return None


def _entity(state: GammasphereState, number: int) -> Entity | Verdict:
    entity = find(state, number)
    if entity is None:
        return Verdict.illegal("GS-1.3", f"no card numbered #{number} is on the field")
    return entity


def _main_phase_entity(
    state: GammasphereState, seat: int, what: str, number: int
) -> Entity | Verdict:
    """The field's card ``#number`` for an entry ``what`` of the main phase: the phase's
    refusal first (``_phase_gate``), then GS-1.3 when no such card is on the field."""
    gate = _phase_gate(state, seat, what)
    return gate if gate is not None else _entity(state, number)


def _spelt(state: GammasphereState, name: str) -> str:
    """``name`` as the catalog spells it (GS-N.2), so that a reason naming a hidden card
    names it the way its concealing looks for (GS-3.5)."""
    return state.cards.canonical(name) or name


def _main_phase_card(state: GammasphereState, seat: int, what: str, name: str) -> Card | Verdict:
    """The catalog's card ``name`` for an entry ``what`` of the main phase: the phase's
    refusal first (``_phase_gate``), then GS-2.1 when the catalog has no such card."""
    gate = _phase_gate(state, seat, what)
    return gate if gate is not None else catalog_card(state, name)


def _describe(state: GammasphereState, entity: Entity) -> str:
    return f"#{entity.id} {entity.card} ({SEATS[entity.owner]}'s {entity.kind})"


def _count(number: int, thing: str) -> str:
    """``1 jiggawatt``, ``2 jiggawatts``."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _check_costs(
    state: GammasphereState, seat: int, what: str, gas: int, jiggawatts: int
) -> Verdict:
    own = state.sides[seat]
    who = SEATS[seat]
    if own.gas < gas:
        return Verdict.illegal("GS-6.2", f"{what} costs {gas} gas; {who} has {own.gas}")
    if jiggawatts:
        available = available_jiggawatts(state, seat)
        if available < jiggawatts:
            pool = (
                f" and {_count(own.jiggawatts, 'jiggawatt')} in the pool" if own.jiggawatts else ""
            )
            untapped = available - own.jiggawatts
            return Verdict.illegal(
                "GS-6.3",
                (
                    f"{what} costs {_count(jiggawatts, 'jiggawatt')}; {who} has "
                    f"{_count(untapped, 'untapped pylon')}{pool}"
                ),
            )
    return LEGAL


def _check_unique(state: GammasphereState, seat: int, card: Card) -> Verdict:
    if not card.unique:
        return LEGAL
    for entity in state.field:
        if entity.card == card.name:
            if entity.owner == seat:
                return Verdict.illegal(
                    "GS-6.4",
                    (
                        f"{card.name} is unique and {SEATS[seat]} already has it in play as "
                        f"#{entity.id}"
                    ),
                )
            return Verdict.illegal(
                "GS-6.5",
                (
                    f"{card.name} is unique and the opponent {SEATS[entity.owner]} has it in "
                    f"play as #{entity.id}"
                ),
            )
    return LEGAL


def _check_effect_target(
    state: GammasphereState,
    seat: int,
    card: Card,
    effect: Effect,
    target: int,
    arriving: bool = False,
) -> Verdict:
    """GS-9.1: a structured effect's target named with ``on #N`` fits its kind; ``arriving``
    when the card is being played, so that a character may aim at itself (GS-I.33)."""
    if effect.target == "none":
        if target:
            return Verdict.illegal(
                "GS-N.3", f"{card.name}'s effect takes no target; drop 'on #{target}'"
            )
        return LEGAL
    wanted = {
        "character": "a character",
        "own character": f"one of {SEATS[seat]}'s own characters",
        "opposing character": "an opposing character",
    }[effect.target]
    itself = arriving and card.kind == "character"
    if itself and target == state.next_id:
        return _check_self_target(state, seat, card, effect, wanted)
    if not target:
        if aimable(state, seat, effect.target) or self_aimable(state, card, effect, arriving):
            return Verdict.illegal(
                "GS-9.1", f"{card.name}'s effect needs {wanted} as its target: add 'on #N'"
            )
        if state.table.no_target == "refuse":  # GS-9.1 as it read before GS-I.32
            return Verdict.illegal(
                "GS-9.1",
                f"{card.name}'s effect needs {wanted} as its target and none is on the field; "
                "this table plays no card without one (no_target=refuse, GS-I.32)",
            )
        return LEGAL  # GS-I.32: nothing to aim at, so that part of the effect does nothing
    found = _entity(state, target)
    if isinstance(found, Verdict):
        return found
    if found.kind != "character":
        return Verdict.illegal(
            "GS-9.1",
            f"{card.name} needs {wanted} as its target; "
            f"{_describe(state, found)} is not a character",
        )
    if effect.target == "own character" and found.owner != seat:
        return Verdict.illegal(
            "GS-9.1",
            f"{card.name} targets one of {SEATS[seat]}'s own characters; "
            f"#{target} {found.card} is {SEATS[found.owner]}'s",
        )
    if effect.target == "opposing character" and found.owner == seat:
        return Verdict.illegal(
            "GS-9.1",
            f"{card.name} targets an opposing character; "
            f"#{target} {found.card} is {SEATS[seat]}'s own",
        )
    return LEGAL


def _check_self_target(
    state: GammasphereState, seat: int, card: Card, effect: Effect, wanted: str
) -> Verdict:
    """GS-I.33: an arriving character naming itself, by the number it is about to take.
    By default (self_target=no) that number is not on the field when the entry is made, so
    the entry breaks GS-1.3, the clause games recorded before GS-I.33 were refused under."""
    number = state.next_id
    if state.table.self_target != "yes":
        return Verdict.illegal(
            "GS-1.3",
            f"#{number} is the number {card.name} would take as it enters, not a card on the "
            f"field; its arrival effect aims at {wanted} already there, never at itself "
            "(self_target=no, GS-I.33)",
        )
    if effect.target == "opposing character":
        return Verdict.illegal(
            "GS-9.1",
            f"{card.name} targets an opposing character; #{number} is the number it takes "
            f"itself as it enters on {SEATS[seat]}'s side",
        )
    return LEGAL


def _check_free_target(state: GammasphereState, card: Card, target: int, has_text: bool) -> Verdict:
    """An optional target named for a free-text effect must be on the field."""
    if not target:
        return LEGAL
    if not has_text:
        return Verdict.illegal(
            "GS-N.3", f"{card.name} has no effect that takes a target; drop 'on #{target}'"
        )
    found = _entity(state, target)
    return found if isinstance(found, Verdict) else LEGAL


def _ruling(card: Card) -> Verdict:
    return Verdict.ruling(card.name, RULING_CLAUSE, card.text)


# -- entries ---------------------------------------------------------------------------


@ENTRY_CHECKS.register(model.Draw)
def _check_draw(state: GammasphereState, action: model.Draw, seat: int) -> Verdict:
    own = state.sides[seat]
    who = SEATS[seat]
    if state.phase == "main":
        return Verdict.illegal(
            "GS-5.1",
            f"{who} has drawn for this turn; a draw an effect causes is "
            f"recorded as an adjustment ('draw {who} N')",
        )
    if state.phase == "discard":
        gate = _phase_gate(state, seat, "a draw")
        return gate if gate is not None else LEGAL
    if state.phase == "opening" and own.opened:
        return Verdict.illegal("GS-4.3", f"{who} has drawn an opening hand already")
    holds = check_deck_holds(state, seat, action.count)
    if not holds:
        return holds
    if state.phase == "opening" and action.count != OPENING_HAND:
        return Verdict.illegal(
            "GS-4.3", f"an opening hand is {OPENING_HAND} cards, not {action.count}"
        )
    if state.phase == "draw" and action.count != 1:
        return Verdict.illegal("GS-5.1", f"the turn's draw is one card, not {action.count}")
    return LEGAL


@ENTRY_CHECKS.register(model.Play)
def _check_play(state: GammasphereState, action: model.Play, seat: int) -> Verdict:
    card = _main_phase_card(state, seat, f"playing {_spelt(state, action.card)}", action.card)
    if isinstance(card, Verdict):
        return card
    if card.kind == "pylon":
        return Verdict.illegal(
            "GS-6.8", f"{card.name} is a pylon: construct it with 'construct {card.name}'"
        )
    if action.mode and card.kind != "character":
        return Verdict.illegal(
            "GS-N.3", f"only characters take a mode; {card.name} is a {card.kind}"
        )
    from_hand = check_from_hand(state, seat, card)
    if not from_hand:
        return from_hand
    unique = _check_unique(state, seat, card)
    if not unique:
        return unique
    if card.kind == "weapon":
        aimed = _check_carrier(state, seat, card, action.target)
    elif card.plays_effect and card.effect is not None:
        aimed = _check_effect_target(state, seat, card, card.effect, action.target, True)
    else:
        aimed = _check_free_target(state, card, action.target, card.plays_effect)
    if not aimed:
        return aimed
    gas, jiggawatts = cost_of(card)
    costs = _check_costs(state, seat, card.name, gas, jiggawatts)
    if not costs:
        return costs
    if card.plays_effect and card.effect is None:
        return _ruling(card)
    return LEGAL


def _check_carrier(state: GammasphereState, seat: int, card: Card, target: int) -> Verdict:
    """GS-6.7, GS-I.28, GS-I.18: a weapon goes onto a character (or building) of its player's,
    or of either player's where the table allows it."""
    if not target:
        return Verdict.illegal(
            "GS-6.7",
            f"{card.name} is a weapon and is played onto a character: "
            f"write 'play {card.name} on #N'",
        )
    carrier = _entity(state, target)
    if isinstance(carrier, Verdict):
        return carrier
    if carrier.owner != seat and state.table.weapon_carriers == "own":
        return Verdict.illegal(
            "GS-I.18",
            f"weapons go onto their player's own entities; "
            f"{_describe(state, carrier)} is not {SEATS[seat]}'s",
        )
    if carrier.kind == "building" and not on_buildings(state, card):
        return Verdict.illegal(
            "GS-I.28", f"{card.name} cannot be carried by a building (#{target} {carrier.card})"
        )
    if carrier.kind not in ("character", "building"):
        return Verdict.illegal(
            "GS-6.7", f"a weapon goes onto a character; {_describe(state, carrier)} is not one"
        )
    return LEGAL


@ENTRY_CHECKS.register(model.Construct)
def _check_construct(state: GammasphereState, action: model.Construct, seat: int) -> Verdict:
    card = _main_phase_card(state, seat, f"constructing {_spelt(state, action.card)}", action.card)
    if isinstance(card, Verdict):
        return card
    if card.kind != "pylon":
        return Verdict.illegal(
            "GS-6.8",
            f"only pylons are constructed; {card.name} is a {card.kind}: write 'play {card.name}'",
        )
    from_hand = check_from_hand(state, seat, card)
    if not from_hand:
        return from_hand
    gas, jiggawatts = cost_of(card)
    return _check_costs(state, seat, card.name, gas, jiggawatts)


@ENTRY_CHECKS.register(model.Attack)
def _check_attack(state: GammasphereState, action: model.Attack, seat: int) -> Verdict:
    if state.phase == "main" and state.turn == 1 and state.table.first_turn_attack == "no":
        return Verdict.illegal(
            "GS-I.31",
            f"this table plays Yu-Gi-Oh's limit (first_turn_attack=no): nobody attacks in "
            f"the game's first turn, so {SEATS[seat]}'s first attack waits for their next "
            "turn",
        )
    attacker = _main_phase_entity(state, seat, "an attack", action.attacker)
    if isinstance(attacker, Verdict):
        return attacker
    who = SEATS[seat]
    if attacker.owner != seat:
        return Verdict.illegal(
            "GS-7.1", f"the attacker must be {who}'s own; {_describe(state, attacker)} is not"
        )
    if attacker.kind != "character":
        return Verdict.illegal(
            "GS-7.1", f"only characters attack; {_describe(state, attacker)} is not one"
        )
    if attacker.mode != "attack":
        return Verdict.illegal(
            "GS-7.1", f"#{attacker.id} {attacker.card} is in defense mode and cannot attack"
        )
    if attacker.tapped:
        return Verdict.illegal(
            "GS-7.1", f"#{attacker.id} {attacker.card} is tapped and cannot attack"
        )
    if not action.target:
        if state.table.direct_attack != "yes":
            return Verdict.illegal(
                "GS-I.10",
                "an attack names an opposing character ('attack #A #T'); "
                "this table plays no direct attacks",
            )
        defenders = [e for e in state.field if e.owner != seat and e.kind == "character"]
        if defenders:
            listed = ", ".join(f"#{e.id} {e.card}" for e in defenders)
            return Verdict.illegal(
                "GS-I.10",
                f"{SEATS[1 - seat]} still has characters ({listed}); "
                "only a player with none can be attacked directly",
            )
        return LEGAL
    target = _entity(state, action.target)
    if isinstance(target, Verdict):
        return target
    if target.owner == seat:
        return Verdict.illegal(
            "GS-7.2", f"#{target.id} {target.card} is {who}'s own; attack an opposing character"
        )
    if target.kind != "character":
        return Verdict.illegal(
            "GS-7.2", f"only characters can be attacked; {_describe(state, target)} is not one"
        )
    return LEGAL


@ENTRY_CHECKS.register(model.Switch)
def _check_switch(state: GammasphereState, action: model.Switch, seat: int) -> Verdict:
    entity = _main_phase_entity(state, seat, "switching modes", action.entity)
    if isinstance(entity, Verdict):
        return entity
    if entity.owner != seat:
        return Verdict.illegal(
            "GS-6.10",
            f"{SEATS[seat]} switches only their own characters; {_describe(state, entity)} is not",
        )
    if entity.kind != "character":
        return Verdict.illegal(
            "GS-6.10", f"only characters have modes; {_describe(state, entity)} is not one"
        )
    if entity.tapped:
        return Verdict.illegal(
            "GS-6.10", f"#{entity.id} {entity.card} is tapped and cannot switch modes"
        )
    if entity.mode == action.mode:
        return Verdict.illegal(
            "GS-6.10", f"#{entity.id} {entity.card} is already in {action.mode} mode"
        )
    if entity.switched and state.table.switch_limit == "once":
        return Verdict.illegal(
            "GS-I.26",
            f"#{entity.id} {entity.card} has already switched mode this turn; "
            "this table allows one switch a turn (switch_limit=once)",
        )
    return LEGAL


@ENTRY_CHECKS.register(model.Activate)
def _check_activate(state: GammasphereState, action: model.Activate, seat: int) -> Verdict:
    entity = _main_phase_entity(state, seat, "activating an effect", action.entity)
    if isinstance(entity, Verdict):
        return entity
    card = card_of(state, entity)
    if entity.owner != seat:
        return Verdict.illegal(
            "GS-6.9",
            f"{SEATS[seat]} activates only their own cards; {_describe(state, entity)} is not",
        )
    if not card.activates:
        return Verdict.illegal("GS-6.9", f"{card.name} has no activated effect")
    if card.tap and entity.tapped:
        return Verdict.illegal(
            "GS-I.13",
            f"#{entity.id} {card.name} is tapped; its effect needs it untapped "
            "so it can be turned sideways",
        )
    if card.effect is not None:
        aimed = _check_effect_target(state, seat, card, card.effect, action.target)
    else:
        aimed = _check_free_target(state, card, action.target, True)
    if not aimed:
        return aimed
    costs = _check_costs(
        state, seat, f"{card.name}'s effect", card.activate_gas, card.activate_jiggawatts
    )
    if not costs:
        return costs
    return LEGAL if card.effect is not None else _ruling(card)


def _holding(state: GammasphereState, seats: list[int]) -> str:
    """``p1 holds 12 cards`` or ``p1 holds 12 cards and p2 holds 11 cards``."""
    return " and ".join(f"{SEATS[i]} holds {state.sides[i].hand.count} cards" for i in seats)


@ENTRY_CHECKS.register(model.Discard)
def _check_discard(state: GammasphereState, action: model.Discard, seat: int) -> Verdict:
    count = state.sides[seat].hand.count
    if state.phase == "discard" and count > HAND_LIMIT and seat not in over_limit(state):
        return Verdict.illegal(
            "GS-I.29",
            f"this table counts only the hand of the player whose turn ends "
            f"(hand_limit=own); {SEATS[seat]} holds {count} but discards at the end of "
            "their own turn",
        )
    if state.phase != "discard" or count <= HAND_LIMIT:
        return Verdict.illegal(
            "GS-5.6",
            f"cards are discarded only when a turn ends with more than "
            f"{HAND_LIMIT} in hand; {SEATS[seat]} holds {count}",
        )
    card = catalog_card(state, action.card)
    if isinstance(card, Verdict):
        return card
    return check_from_hand(state, seat, card)


@ENTRY_CHECKS.register(model.End)
def _check_end(state: GammasphereState, action: model.End, seat: int) -> Verdict:
    if state.phase == "main":
        return LEGAL
    if state.phase == "discard":
        over = over_limit(state)
        if over:
            return Verdict.illegal(
                "GS-5.6",
                f"{_holding(state, over)}: discard down to {HAND_LIMIT} before the turn passes",
            )
        return LEGAL
    gate = _phase_gate(state, seat, "ending the turn")
    return gate if gate is not None else LEGAL


_CHECKS = ENTRY_CHECKS.handlers


def acting_seat(state: GammasphereState, seat: str | None) -> int:
    """The seat index making an entry (the first still to draw in the opening, else the
    active seat, when none is named)."""
    if seat is not None:
        return SEATS.index(seat)
    if state.phase == "opening":
        for index, own in enumerate(state.sides):
            if not own.opened:
                return index
    if state.phase == "discard":
        over = over_limit(state)
        if over and state.active not in over:
            return over[0]
    return state.active


def _turn_gate(state: GammasphereState, action: GammasphereAction, seat: int) -> Verdict | None:
    """GS-1.4: outside the opening hands and the discards down to ten, only the player whose
    turn it is makes entries, so the other seat cannot draw, play, attack or end that turn."""
    if seat == state.active or state.phase == "opening":
        return None
    if state.phase == "discard" and over_limit(state):
        return None  # a seat over ten discards in the other's turn (GS-5.6, GS-I.29)
    who, other = SEATS[seat], SEATS[state.active]
    what = "end it" if isinstance(action, model.End) else "make an entry in it"
    return Verdict.illegal(
        "GS-1.4",
        f"it is {other}'s turn, not {who}'s: only the player whose turn it is "
        f"makes entries, so {who} cannot {what}",
    )


def check_action(
    state: GammasphereState, action: GammasphereAction, seat: str | None = None
) -> Verdict:
    """Legal, needing a ruling (GS-9.2), or the first clause ``action`` breaks (the seat
    whose turn it is not first of all, GS-1.4)."""
    index = acting_seat(state, seat)
    gate = _turn_gate(state, action, index)
    return gate if gate is not None else _CHECKS[type(action)](state, action, index)


def check(state: GammasphereState, action: GammasphereAction, seat: str | None = None) -> Verdict:
    """``check_action``, with every reason that names a seat's hidden card kept for that
    seat and the referee (the others read it without the name, GS-3.5)."""
    verdict = check_action(state, action, seat)
    if verdict.violations:
        actor = SEATS[acting_seat(state, seat)]
        # the actor's own hidden cards count whole: the other seat registering the same card
        # tells it nothing of what the actor reached for (GS-3.5)
        hidden = {s: own_secrets(state, s) if s == actor else secrets(state, s) for s in SEATS}
        typed = frozenset(state.cards.canonical(n) or n for n in names_in(action, ("card",)))
        # every card an entry names comes out of the actor's hand, which is hidden with or
        # without a list (GS-1.2): unless the card is known to be there, the name it typed
        # stays the actor's, as the masked entry does, though a card of that name may be in
        # sight elsewhere (that tells the table the card exists, not that the actor holds it)
        held = set(state.sides[SEATS.index(actor)].hand.known.names())
        hidden[actor] = hidden[actor] | frozenset(
            n for n in typed if n in state.cards.by_name and n not in held
        )
        verdict = verdict.concealing(secrets_for_reasons(hidden, actor, typed))
    return verdict

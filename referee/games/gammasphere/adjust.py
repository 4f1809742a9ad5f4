"""The referee's adjustments (GS-9.3 to GS-9.8): the kit's primitive changes as they apply
to a Gammasphere position.

Zones are ``hand``, ``deck``, ``discard`` and ``field``; field cards are named by
number (``#4``) or by name when only one card of that name is there. Resources
are ``gas``, ``power`` (the power level) and ``jiggawatts`` (the pool effects
give, GS-I.21); stats are ``attack``, ``defense`` and ``level``.
"""

from __future__ import annotations

import msgspec

from referee.games.gammasphere.catalog import Card
from referee.games.gammasphere.decks import (
    catalog_card,
    check_deck_holds,
    check_from_hand,
    check_shown,
    show,
    take_from_hand,
)
from referee.games.gammasphere.model import SEATS, Entity, GammasphereState
from referee.games.gammasphere.position import (
    LEVELS,
    await_draw,
    draw_cards,
    draw_for_effect,
    enter,
    find,
    leave,
    raw_attack,
    raw_defense,
    with_entity,
    with_side,
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
    "RESOURCES",
    "STATS",
    "ZONES",
    "apply_change",
    "check_change",
    "kept_in_sight",
]

CHANGE_CHECKS, CHANGE_EFFECTS = change_tables(GammasphereState, "Gammasphere")

ZONES = ("hand", "deck", "discard", "field")
HIDDEN_ZONES = frozenset({"hand", "deck"})
"""Decks and hands are hidden (GS-1.2): a card moved between them is kept hidden (REF-6.6)."""
RESOURCES = {
    "gas": "gas",
    "vespene": "gas",
    "power": "power",
    "power_level": "power",
    "pl": "power",
    "jiggawatts": "jiggawatts",
    "jiggawatt": "jiggawatts",
    "jw": "jiggawatts",
}
STATS = {
    "attack": "attack",
    "atk": "attack",
    "defense": "defense",
    "def": "defense",
    "level": "level",
    "lv": "level",
    "lvl": "level",
}


def _seat(seat: str) -> int | Verdict:
    if seat not in SEATS:
        return Verdict.illegal("GS-9.4", f"no seat {seat!r}; the seats are {' and '.join(SEATS)}")
    return SEATS.index(seat)


def _field_card(state: GammasphereState, text: str, seat: int | None = None) -> Entity | Verdict:
    """A field card by ``#N`` or by its name (when one card of that name is there)."""
    words = text.strip()
    if words.startswith("#") and words[1:].isdigit():
        found = find(state, int(words[1:]))
        if found is None:
            return Verdict.illegal("GS-1.3", f"no card numbered {words} is on the field")
        if seat is not None and found.owner != seat:
            return Verdict.illegal(
                "GS-9.4", f"{words} {found.card} is {SEATS[found.owner]}'s, not {SEATS[seat]}'s"
            )
        return found
    name = state.cards.canonical(words)
    matches = [e for e in state.field if e.card == name and (seat is None or e.owner == seat)]
    if not matches:
        owner = f"{SEATS[seat]}'s side of " if seat is not None else ""
        return Verdict.illegal("GS-1.3", f"no {words} is on {owner}the field")
    if len(matches) > 1:
        numbers = ", ".join(f"#{e.id}" for e in matches)
        return Verdict.illegal(
            "GS-9.4",
            f"{len(matches)} cards called {name} are on the field ({numbers}); name one by number",
        )
    return matches[0]


def _checked_card(state: GammasphereState, text: str, seat: int | None = None) -> Entity:
    """The field card a checked change names (its check found it)."""
    found = _field_card(state, text, seat)
    if not isinstance(found, Entity):
        raise TypeError(f"found is a {type(found).__name__}, not Entity")
    return found


@CHANGE_CHECKS.register(MoveCard)
def _check_move(state: GammasphereState, change: MoveCard, _: None) -> Verdict:
    seat = _seat(change.seat)
    if isinstance(seat, Verdict):
        return seat
    source, target = change.source, change.target
    for zone in (source, target):
        if zone not in ZONES:
            return Verdict.illegal("GS-9.4", f"no zone {zone!r}; the zones are {', '.join(ZONES)}")
    if source == target:
        return Verdict.illegal("GS-9.4", f"a card moved from {source} to {source} does not move")
    if change.card is None:
        return _check_unseen_move(state, seat, source, target)
    if source == "field":
        found = _field_card(state, change.card, seat)
        if isinstance(found, Verdict):
            return found
        card = state.cards.by_name[found.card]
    else:
        looked = _card_leaving(state, seat, change.card, source)
        if isinstance(looked, Verdict):
            return looked
        card = looked
    if target == "field":
        return _check_entering(state, seat, card)
    return LEGAL


def _check_entering(state: GammasphereState, seat: int, card: Card) -> Verdict:
    """A card an adjustment puts onto the field: an entity or pylon, unique ones once."""
    if card.kind == "event":
        return Verdict.illegal(
            "GS-9.4", f"{card.name} is an event; events do not stay on the field"
        )
    if card.kind == "weapon":
        return Verdict.illegal(
            "GS-9.4",
            f"{card.name} is a weapon; it enters the field only when played onto its carrier",
        )
    if card.unique:
        for entity in state.field:
            if entity.card == card.name:
                clause = "GS-6.4" if entity.owner == seat else "GS-6.5"
                return Verdict.illegal(
                    clause,
                    f"{card.name} is unique and #{entity.id} is already in play "
                    f"on {SEATS[entity.owner]}'s side",
                )
    return LEGAL


def _check_unseen_move(state: GammasphereState, seat: int, source: str, target: str) -> Verdict:
    """A card moved unnamed: only between hidden zones, and from a zone holding one."""
    who = SEATS[seat]
    own = state.sides[seat]
    if not (source in HIDDEN_ZONES and target in HIDDEN_ZONES):
        return Verdict.illegal(
            "GS-9.4",
            f"a card moved from the {source} to the {target} is seen by the table: name it",
        )
    if source == "deck" and own.deck.count == 0:
        return Verdict.illegal("GS-5.7", f"{who}'s deck is empty; no card can leave it")
    if source == "hand" and own.hand.count == 0:
        return Verdict.illegal("GS-9.4", f"{who}'s hand is empty; no card can leave it")
    return LEGAL


def _card_leaving(state: GammasphereState, seat: int, name: str, source: str) -> Card | Verdict:
    """The named card leaving ``seat``'s hand, deck or discard pile, or why it cannot."""
    who = SEATS[seat]
    own = state.sides[seat]
    if name.startswith("#"):
        return Verdict.illegal(
            "GS-9.4",
            f"numbers name cards on the field; {name} is not in {who}'s {source}",
        )
    card = catalog_card(state, name)
    if isinstance(card, Verdict):
        return card
    if source == "hand":
        verdict = check_from_hand(state, seat, card)
    elif source == "deck":
        verdict = (
            Verdict.illegal("GS-5.7", f"{who}'s deck is empty; {card.name} cannot come from it")
            if own.deck.count == 0
            else check_shown(state, seat, card)
        )
    else:
        verdict = (
            LEGAL
            if card.name in own.discard
            else Verdict.illegal("GS-9.4", f"no {card.name} is in {who}'s discard pile")
        )
    return card if verdict else verdict


@CHANGE_EFFECTS.register(MoveCard)
def _apply_move(state: GammasphereState, change: MoveCard, _: None) -> GammasphereState:
    seat = SEATS.index(change.seat)
    own = state.sides[seat]
    source, target = change.source, change.target
    if change.card is None:
        if source == "deck":
            return draw_cards(state, seat, 1)
        knowledge = own.knowledge
        for name in own.hand.known:  # those cards may now be in the deck: no longer identified
            knowledge = knowledge.with_unseen(name)
        return with_side(
            state,
            seat,
            msgspec.structs.replace(
                own, hand=own.hand.take_unseen(1), deck=own.deck.put_unseen(), knowledge=knowledge
            ),
        )
    if source == "field":
        found = _checked_card(state, change.card, seat)
        if target in ("discard", "hand", "deck"):
            return leave(state, found.id, target)
        return state  # pragma: no cover - field to field is refused
    name = state.cards.canonical(change.card) or change.card
    if source == "hand":
        own = take_from_hand(state, seat, name)
    elif source == "deck":
        own = show(msgspec.structs.replace(own, deck=own.deck.take_unseen(1)), name)
    else:
        at = len(own.discard) - 1 - own.discard[::-1].index(name)
        own = msgspec.structs.replace(own, discard=own.discard[:at] + own.discard[at + 1 :])
    if target == "hand":
        own = msgspec.structs.replace(own, hand=own.hand.put_known(name))
    elif target == "deck":
        own = msgspec.structs.replace(
            own, deck=own.deck.put_unseen(), knowledge=own.knowledge.with_unseen(name)
        )
    elif target == "discard":
        own = msgspec.structs.replace(own, discard=(*own.discard, name))
    state = with_side(state, seat, own)
    if target == "field":
        state = enter(state, seat, state.cards.by_name[name])
    return state


@CHANGE_CHECKS.register(ChangeStat)
def _check_stat(state: GammasphereState, change: ChangeStat, _: None) -> Verdict:
    found = _field_card(state, change.target)
    if isinstance(found, Verdict):
        return found
    stat = STATS.get(change.stat)
    if stat is None:
        return Verdict.illegal(
            "GS-9.5", f"no stat {change.stat!r}; the stats are attack, defense and level"
        )
    kinds = {
        "attack": ("character", "weapon"),
        "defense": ("character", "building", "weapon"),
        "level": ("character",),
    }[stat]
    if found.kind not in kinds:
        return Verdict.illegal(
            "GS-9.5", f"#{found.id} {found.card} is a {found.kind} and has no {stat}"
        )
    if stat == "level":
        level = change.amount if change.absolute else found.level + change.amount
        if not LEVELS[0] <= level <= LEVELS[1]:
            return Verdict.illegal(
                "GS-I.23",
                f"levels run from {LEVELS[0]} to {LEVELS[1]}; #{found.id} "
                f"{found.card} would be at level {level}",
            )
    return LEGAL


@CHANGE_EFFECTS.register(ChangeStat)
def _apply_stat(state: GammasphereState, change: ChangeStat, _: None) -> GammasphereState:
    found = _checked_card(state, change.target)
    stat = STATS[change.stat]
    if stat == "level":
        level = change.amount if change.absolute else found.level + change.amount
        return with_entity(state, msgspec.structs.replace(found, level=level))
    if stat == "attack":
        bonus = found.attack_bonus + (
            change.amount - raw_attack(state, found) if change.absolute else change.amount
        )
        return with_entity(state, msgspec.structs.replace(found, attack_bonus=bonus))
    bonus = found.defense_bonus + (
        change.amount - raw_defense(state, found) if change.absolute else change.amount
    )
    return with_entity(state, msgspec.structs.replace(found, defense_bonus=bonus))


@CHANGE_CHECKS.register(ChangeResource)
def _check_resource(state: GammasphereState, change: ChangeResource, _: None) -> Verdict:
    seat = _seat(change.seat)
    if isinstance(seat, Verdict):
        return seat
    resource = RESOURCES.get(change.resource)
    if resource is None:
        return Verdict.illegal(
            "GS-9.6",
            f"no resource {change.resource!r}; the resources are gas, power and jiggawatts",
        )
    held: int = getattr(state.sides[seat], resource)
    if held + change.amount < 0:
        return Verdict.illegal(
            "REF-6.3", f"{SEATS[seat]} has {held} {resource}; {-change.amount} cannot be taken"
        )
    return LEGAL


@CHANGE_EFFECTS.register(ChangeResource)
def _apply_resource(state: GammasphereState, change: ChangeResource, _: None) -> GammasphereState:
    seat = SEATS.index(change.seat)
    resource = RESOURCES[change.resource]
    own = state.sides[seat]
    held: int = getattr(own, resource)
    return with_side(state, seat, msgspec.structs.replace(own, **{resource: held + change.amount}))


@CHANGE_CHECKS.register(Tap)
def _check_tap(state: GammasphereState, change: Tap, _: None) -> Verdict:
    return _check_tapped(state, change.target, wanted=True)


@CHANGE_CHECKS.register(Untap)
def _check_untap(state: GammasphereState, change: Untap, _: None) -> Verdict:
    return _check_tapped(state, change.target, wanted=False)


def _check_tapped(state: GammasphereState, target: str, *, wanted: bool) -> Verdict:
    found = _field_card(state, target)
    if isinstance(found, Verdict):
        return found
    if found.tapped == wanted:
        return Verdict.illegal(
            "GS-9.7", f"#{found.id} {found.card} is already {'tapped' if wanted else 'untapped'}"
        )
    return LEGAL


@CHANGE_EFFECTS.register(Tap)
def _apply_tap(state: GammasphereState, change: Tap, _: None) -> GammasphereState:
    found = _checked_card(state, change.target)
    return with_entity(state, msgspec.structs.replace(found, tapped=True))


@CHANGE_EFFECTS.register(Untap)
def _apply_untap(state: GammasphereState, change: Untap, _: None) -> GammasphereState:
    found = _checked_card(state, change.target)
    return with_entity(state, msgspec.structs.replace(found, tapped=False))


@CHANGE_CHECKS.register(Destroy)
def _check_destroy(state: GammasphereState, change: Destroy, _: None) -> Verdict:
    found = _field_card(state, change.target)
    return found if isinstance(found, Verdict) else LEGAL


@CHANGE_EFFECTS.register(Destroy)
def _apply_destroy(state: GammasphereState, change: Destroy, _: None) -> GammasphereState:
    return leave(state, _checked_card(state, change.target).id)


@CHANGE_CHECKS.register(DrawCards)
def _check_draw(state: GammasphereState, change: DrawCards, _: None) -> Verdict:
    seat = _seat(change.seat)
    if isinstance(seat, Verdict):
        return seat
    if state.table.empty_deck == "lose":  # too few cards lose the game instead (GS-I.5)
        return LEGAL
    return check_deck_holds(state, seat, change.count)


@CHANGE_EFFECTS.register(DrawCards)
def _apply_draw(state: GammasphereState, change: DrawCards, _: None) -> GammasphereState:
    seat = SEATS.index(change.seat)
    return draw_for_effect(state, seat, change.count, f"{change.seat} was made to")


def check_change(state: GammasphereState, change: Change) -> Verdict:
    """Whether the referee's primitive ``change`` fits the position (REF-6.3, GS-9.4 to GS-9.8)."""
    if state.phase == "opening":
        return Verdict.illegal(
            "GS-9.3",
            "no card has been played before both opening hands are drawn; "
            "there is nothing to adjust yet",
        )
    return _CHECKS[type(change)](state, change, None)


def apply_change(state: GammasphereState, change: Change) -> GammasphereState:
    """``state`` after the checked ``change``; a power level brought to zero ends the game."""
    state = _EFFECTS[type(change)](state, change, None)
    if state.phase == "draw" and state.sides[state.active].deck.count == 0:
        state = await_draw(state)  # the awaited draw is now from an empty deck (GS-I.5)
    return state


_CHECKS = CHANGE_CHECKS.handlers
_EFFECTS = CHANGE_EFFECTS.handlers


def kept_in_sight(state: GammasphereState, seat: str, zone: str, card: str) -> GammasphereState:
    """``state`` with the card just moved unseen into ``seat``'s hidden ``zone`` (its
    deck and hand) known as ``card`` to that seat and the referee only (REF-6.6)."""
    index = SEATS.index(seat)
    name = state.cards.canonical(card) or card
    side = kept_private(state.sides[index], zone, name)
    return state if side is None else with_side(state, index, side)

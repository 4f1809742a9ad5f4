"""Deck construction (GS-3, GS-I.1) and the check that every card a seat shows can
come from its deck (GS-3.5): a registered list's cards not yet seen, or, with no
list known, no more copies than construction allows.
"""

from __future__ import annotations

import msgspec

from referee.games.gammasphere.catalog import Card, Cards
from referee.games.gammasphere.model import SEATS, GammasphereState, Side
from referee.kit.decks import Decklist
from referee.kit.names import spelling_hint
from referee.kit.zones import ZoneError
from referee.verdicts import LEGAL, Verdict, Violation

__all__ = [
    "COPY_LIMIT",
    "DECK_LIMITS",
    "MIN_DECK",
    "catalog_card",
    "check_construction",
    "check_deck_holds",
    "check_from_hand",
    "check_shown",
    "hand_candidates",
    "show",
    "take_from_hand",
]

COPY_LIMIT = 4
MIN_DECK = 7
DECK_LIMITS = {"open": (MIN_DECK, None), "40-60": (40, 60)}


def size_problem(size: int, limits: str) -> str | None:
    """Why a deck of ``size`` cards breaks GS-I.1 under ``limits``, or ``None``."""
    low, high = DECK_LIMITS[limits]
    if size < low or (high is not None and size > high):
        span = f"at least {low}" if high is None else f"{low} to {high}"
        return f"a deck holds {span} cards under deck_limits={limits}; this one has {size}"
    return None


def check_construction(cards: Cards, decklist: Decklist, limits: str) -> Verdict:
    """GS-3.1 to GS-3.4 and GS-I.1: every card is in the catalog, at most four copies of
    each entity and event, pylons unlimited, and a size the table's limits allow."""
    problems: list[Violation] = []
    for name, count in decklist.cards.items:
        card = cards.by_name.get(name)
        if card is None:
            hint = spelling_hint(name, cards.canonical(name), cards.by_name)
            problems.append(
                Violation("GS-3.4", f"{name} is not a card of the catalog {cards.title!r}{hint}")
            )
            continue
        if card.is_entity and count > COPY_LIMIT:
            problems.append(
                Violation(
                    "GS-3.1",
                    f"{count} {name}: a deck holds at most {COPY_LIMIT} copies of an entity",
                )
            )
        if card.kind == "event" and count > COPY_LIMIT:
            problems.append(
                Violation(
                    "GS-3.2",
                    f"{count} {name}: a deck holds at most {COPY_LIMIT} copies of an event",
                )
            )
    problem = size_problem(decklist.size, limits)
    if problem:
        problems.append(Violation("GS-I.1", problem))
    return Verdict(tuple(problems))


def catalog_card(state: GammasphereState, name: str) -> Card | Verdict:
    """The catalog's card called ``name`` (in any case), or GS-2.1 when it has none."""
    canonical = state.cards.canonical(name)
    if canonical is None:
        return Verdict.illegal(
            "GS-2.1", f"no card called {name!r} is in the catalog {state.cards.title!r}"
        )
    return state.cards.by_name[canonical]


def check_shown(state: GammasphereState, seat: int, card: Card) -> Verdict:
    """GS-3.5: whether ``seat`` can show one more ``card`` out of a hidden pile."""
    knowledge = state.sides[seat].knowledge
    if knowledge.listed is not None:
        return knowledge.check_seen(card.name, "GS-3.5")
    if card.kind != "pylon" and knowledge.seen.count(card.name) >= COPY_LIMIT:
        rule = "GS-3.2" if card.kind == "event" else "GS-3.1"
        return Verdict.illegal(
            "GS-3.5",
            (
                f"{SEATS[seat]} already shows {COPY_LIMIT} {card.name}; a fifth copy cannot be "
                f"in a deck ({rule})"
            ),
        )
    return LEGAL


def show(own: Side, name: str) -> Side:
    """``own`` with one more ``name`` identified (GS-3.5)."""
    return msgspec.structs.replace(own, knowledge=own.knowledge.with_seen(name))


def check_deck_holds(state: GammasphereState, seat: int, count: int) -> Verdict:
    """GS-5.7: whether ``seat``'s deck holds the ``count`` cards a draw takes from it (the
    turn's draw and an opening hand as entries, a draw an effect causes as an adjustment)."""
    held = state.sides[seat].deck.count
    if held >= count:
        return LEGAL
    return Verdict.illegal(
        "GS-5.7",
        f"{SEATS[seat]}'s deck holds {held} card{'s' if held != 1 else ''}; "
        f"{count} cannot be drawn",
    )


def check_from_hand(state: GammasphereState, seat: int, card: Card) -> Verdict:
    """GS-6.1 and GS-3.5: whether ``seat``'s hand can give up ``card``."""
    hand = state.sides[seat].hand
    who = SEATS[seat]
    if hand.count == 0:
        return Verdict.illegal("GS-6.1", f"{who}'s hand is empty; {card.name} cannot come from it")
    if hand.known.count(card.name):
        return LEGAL
    if hand.unknown == 0:
        return Verdict.illegal(
            "GS-6.1",
            (
                f"every card {who} holds is known ({hand.known.text()}); {card.name} is not one "
                "of them"
            ),
        )
    return check_shown(state, seat, card)


def take_from_hand(state: GammasphereState, seat: int, name: str) -> Side:
    """``seat``'s side after ``name`` leaves the hand face up (checked beforehand)."""
    own = state.sides[seat]
    was_known = own.hand.known.count(name) > 0
    try:
        hand = own.hand.take_known(name)
    except ZoneError as exc:  # pragma: no cover - callers check first
        raise AssertionError(str(exc)) from exc
    own = msgspec.structs.replace(own, hand=hand)
    return own if was_known else show(own, name)


def hand_candidates(state: GammasphereState, seat: int) -> list[Card]:
    """Cards that ``seat``'s hand may hold as far as the referee knows, in catalog order:
    the known ones, and while unknown cards remain, every card GS-3.5 still allows."""
    own = state.sides[seat]
    hand = own.hand
    if hand.count == 0:
        return []
    names = set(hand.known.names())
    if hand.unknown:
        unaccounted = own.knowledge.unaccounted()
        if unaccounted is not None:
            names.update(unaccounted.names())
        else:
            seen = own.knowledge.seen
            names.update(
                c.name
                for c in state.cards.catalog.cards
                if c.kind == "pylon" or seen.count(c.name) < COPY_LIMIT
            )
    return [c for c in state.cards.catalog.cards if c.name in names]

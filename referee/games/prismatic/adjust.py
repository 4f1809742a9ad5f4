"""The referee's primitive changes in Prismatic (PX-15.5), for card text that needs a ruling.

Two primitives of the kit apply:

- ``resource SEAT NAME +N|-N``: ``prisms`` (the stock), a mote colour (``red`` or
  ``R``: the bag), ``pool-red`` (the colour pool), ``palette-red`` or
  ``palette-prisms`` (committed on the palette). Gains come from the supply and
  losses go back to it; nothing falls below zero and the supply is never overdrawn.
- ``move SEAT FROM>TO CARD`` between ``deck``, ``common``, ``discard``,
  ``progress`` and ``creation`` (the last two are SEAT's). A card leaving a player's
  area sheds its commitments as a discard does (motes to SEAT's bag, prisms lost).

Stats, tapping, destroying and unseen draws have no meaning here and are refused.
"""

from __future__ import annotations

import msgspec

from referee.games.prismatic.model import Held, PrismaticState, SeatState
from referee.games.prismatic.motes import COLOUR_NAMES, colour_of
from referee.games.prismatic.position import (
    clear_card,
    locate,
    lose_prisms,
    prisms_short,
    supply_short,
    take_from_deck,
    take_prisms,
    take_supply,
    update,
)
from referee.kit.adjustments import Change, ChangeResource, MoveCard, change_tables, refuse_changes
from referee.kit.multiset import Multiset
from referee.verdicts import LEGAL, Verdict

__all__ = ["CHANGE_CHECKS", "CHANGE_EFFECTS", "apply_change", "check_change"]

CHANGE_CHECKS, CHANGE_EFFECTS = change_tables(PrismaticState, "Prismatic")
refuse_changes(
    (CHANGE_CHECKS, CHANGE_EFFECTS),
    ("stat", "tap", "untap", "destroy", "draw"),
    "REF-6.3",
    "Prismatic adjustments change resources (motes, prisms, pool colours) "
    "or move named cards; stats, tapping, destroying and unseen draws do not apply",
)

ZONES = ("deck", "common", "discard", "progress", "creation")
replace = msgspec.structs.replace


def _resource(name: str) -> tuple[str, str] | None:
    """(``where``, ``what``): where in stock, bag, pool, palette; what a mote letter or prisms."""
    low = name.lower()
    if low == "prisms":
        return "stock", "prisms"
    if low == "palette-prisms":
        return "palette", "prisms"
    for prefix in ("pool-", "palette-"):
        if low.startswith(prefix):
            letter = colour_of(low[len(prefix) :])
            if letter is None or (prefix == "pool-" and letter == "P"):
                return None
            return prefix[:-1], letter
    letter = colour_of(low)
    return ("bag", letter) if letter is not None else None


def _holding(player: SeatState, where: str, what: str) -> int:
    if where == "stock":
        return player.prisms
    if where == "palette":
        return player.palette_prisms if what == "prisms" else player.palette.count(what)
    if where == "pool":
        return player.pool.count(what)
    return player.bag.count(what)


def check_change(state: PrismaticState, change: Change) -> Verdict:
    return _CHECKS[type(change)](state, change, None)


def apply_change(state: PrismaticState, change: Change) -> PrismaticState:
    return _EFFECTS[type(change)](state, change, None)


@CHANGE_CHECKS.register(ChangeResource)
def _check_resource(state: PrismaticState, change: ChangeResource, _: None) -> Verdict:
    if change.seat not in state.active:
        return Verdict.illegal("REF-6.3", f"{change.seat} is not playing this game")
    parsed = _resource(change.resource)
    if parsed is None:
        return Verdict.illegal(
            "PX-15.5",
            f"{change.resource!r} is not a Prismatic resource; use prisms, a colour "
            "(red or R: the bag), pool-COLOUR, palette-COLOUR or palette-prisms",
        )
    where, what = parsed
    player = state.player(change.seat)
    if change.amount < 0:
        held = _holding(player, where, what)
        if held < -change.amount:
            return Verdict.illegal(
                "REF-6.3",
                f"{change.seat} has {held} {change.resource}; {-change.amount} cannot be taken",
            )
        return LEGAL
    if where == "pool":
        return LEGAL
    if what == "prisms":
        if prisms_short(state, change.amount):
            return Verdict.illegal(
                "PX-1.5",
                f"{change.seat} cannot be given {change.amount}: the supply's prisms number "
                f"{state.supply_prisms}",
            )
    elif supply_short(state, Multiset.of({what: change.amount})):
        return Verdict.illegal(
            "PX-1.5",
            f"{change.seat} cannot be given {change.amount} {COLOUR_NAMES[what]}: the "
            f"supply's {COLOUR_NAMES[what]} motes number {state.supply.count(what)}",
        )
    return LEGAL


@CHANGE_CHECKS.register(MoveCard)
def _check_move(state: PrismaticState, change: MoveCard, _: None) -> Verdict:
    if change.seat not in state.active:
        return Verdict.illegal("REF-6.3", f"{change.seat} is not playing this game")
    for zone in (change.source, change.target):
        if zone not in ZONES:
            return Verdict.illegal("PX-15.5", f"{zone!r} is not a zone; use {', '.join(ZONES)}")
    if not change.card:
        return Verdict.illegal("PX-15.5", "every Prismatic card is seen: name the card moved")
    name = state.catalog.card_name(change.card)
    if name is None:
        return Verdict.illegal(
            "PX-15.2", f"no card is called {change.card!r} in this game's cards catalog"
        )
    place = locate(state, name)
    if place.zone != change.source or (
        place.zone in ("progress", "creation") and place.seat != change.seat
    ):
        return Verdict.illegal(
            "REF-6.3",
            f"{name} is {place.words()}, not in {change.seat}'s {change.source}"
            if change.source in ("progress", "creation")
            else f"{name} is {place.words()}, not in the {change.source}",
        )
    if change.target == "common" and len(state.commons) >= 3:
        return Verdict.illegal("REF-6.3", "the common area already holds three cards")
    return LEGAL


@CHANGE_EFFECTS.register(ChangeResource)
def _apply_resource(state: PrismaticState, change: ChangeResource, _: None) -> PrismaticState:
    parsed = _resource(change.resource)
    if parsed is None:
        raise ValueError("parsed is missing: only an entry its check allowed is carried out")
    where, what = parsed
    n = change.amount
    if what == "prisms":
        state = take_prisms(state, n) if n > 0 else lose_prisms(state, -n)
        if where == "stock":
            return update(state, change.seat, lambda p: replace(p, prisms=p.prisms + n))
        return update(state, change.seat, lambda p: replace(p, palette_prisms=p.palette_prisms + n))
    motes = Multiset.of({what: abs(n)})

    def shift(current: Multiset) -> Multiset:
        return current.plus(motes) if n > 0 else current.minus(motes)

    if where != "pool":
        state = (
            take_supply(state, motes) if n > 0 else replace(state, supply=state.supply.plus(motes))
        )
    if where == "pool":
        return update(state, change.seat, lambda p: replace(p, pool=shift(p.pool)))
    if where == "palette":
        return update(state, change.seat, lambda p: replace(p, palette=shift(p.palette)))
    return update(state, change.seat, lambda p: replace(p, bag=shift(p.bag)))


@CHANGE_EFFECTS.register(MoveCard)
def _apply_move(state: PrismaticState, change: MoveCard, _: None) -> PrismaticState:
    name = state.catalog.card_name(change.card or "")
    if name is None:
        raise ValueError("name is missing: only an entry its check allowed is carried out")
    seat = change.seat
    source = change.source
    if source == "deck":
        state = take_from_deck(state, (name,))
    elif source == "common":
        state = replace(state, commons=tuple(c for c in state.commons if c != name))
    elif source == "discard":
        state = replace(state, discard=tuple(c for c in state.discard if c != name))
    else:
        player = state.player(seat)
        held = player.progress_card(name) or player.creation_card(name)
        if held is None:
            raise ValueError("held is missing: only an entry its check allowed is carried out")
        state = update(
            state,
            seat,
            lambda p: replace(
                p,
                progress=tuple(h for h in p.progress if h.name != name),
                creation=tuple(h for h in p.creation if h.name != name),
            ),
        )
        state = clear_card(state, seat, held)
    target = change.target
    if target == "deck":
        return replace(state, deck=tuple(sorted((*state.deck, name))))
    if target == "common":
        return replace(state, commons=(*state.commons, name))
    if target == "discard":
        return replace(state, discard=(*state.discard, name))
    if target == "progress":
        return update(state, seat, lambda p: replace(p, progress=(*p.progress, Held(name))))
    state = update(state, seat, lambda p: replace(p, creation=(*p.creation, Held(name))))
    player = state.player(seat)
    if not player.reached and len(player.creation) >= state.table.goal:
        order = state.reached + 1
        state = update(replace(state, reached=order), seat, lambda p: replace(p, reached=order))
    return state


_CHECKS = CHANGE_CHECKS.handlers
_EFFECTS = CHANGE_EFFECTS.handlers

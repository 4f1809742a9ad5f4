"""Small pure helpers on a position: where a card is, who sits next, and the moves of
motes, prisms and cards between players, the supply, the deck and the discard pile.

Every function returns a new state; nothing here checks a rule (see ``checks``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import msgspec

from referee.games.prismatic.model import SEATS, Held, PrismaticState, SeatState
from referee.games.prismatic.motes import PRISMATIC
from referee.games.prismatic.scoring import standing
from referee.kit.multiset import Multiset

__all__ = [
    "Place",
    "clear_card",
    "drawable",
    "gain_motes",
    "locate",
    "lose_prisms",
    "next_active",
    "prisms_short",
    "remove_from_area",
    "return_motes",
    "spend_motes",
    "supply_short",
    "take_from_deck",
    "take_prisms",
    "take_supply",
    "to_act",
    "update",
]

Zone = Literal["deck", "common", "discard", "progress", "creation", "nowhere"]


class Place(msgspec.Struct, frozen=True, gc=False):
    """Where a card is: its zone and, for a player's area, whose."""

    zone: Zone
    seat: str = ""

    def words(self) -> str:
        if self.zone == "progress":
            return f"in {self.seat}'s progress area"
        if self.zone == "creation":
            return f"in {self.seat}'s creation area"
        if self.zone == "common":
            return "a common card"
        if self.zone == "discard":
            return "in the discard pile"
        if self.zone == "deck":
            return "not yet drawn from the deck"
        return "not a card of this game's catalog"


def locate(state: PrismaticState, name: str) -> Place:
    """The place of the card called ``name`` (the catalog's spelling)."""
    if name in state.commons:
        return Place("common")
    for p in state.players:
        if p.progress_card(name) is not None:
            return Place("progress", p.seat)
        if p.creation_card(name) is not None:
            return Place("creation", p.seat)
    if name in state.discard:
        return Place("discard")
    if name in state.catalog.cards:
        return Place("deck")
    return Place("nowhere")


def update(
    state: PrismaticState, seat: str, change: Callable[[SeatState], SeatState]
) -> PrismaticState:
    """``state`` with ``seat``'s belongings replaced by ``change(old)``."""
    players = list(state.players)
    i = state.index(seat)
    players[i] = change(players[i])
    return msgspec.structs.replace(state, players=tuple(players))


def next_active(state: PrismaticState, seat: str) -> str:
    """The next player still playing clockwise (seat order) after ``seat``."""
    playing = [p.seat for p in state.players if p.active or p.seat == seat]
    order = sorted(playing, key=SEATS.index)
    i = order.index(seat)
    for step in range(1, len(order) + 1):
        candidate = order[(i + step) % len(order)]
        if state.player(candidate).active:
            return candidate
    return seat


def return_motes(state: PrismaticState, seat: str, motes: Multiset) -> PrismaticState:
    """Motes go back into ``seat``'s bag (a return, not a gain: usable at once)."""
    if not motes:
        return state
    return update(state, seat, lambda p: msgspec.structs.replace(p, bag=p.bag.plus(motes)))


def supply_short(state: PrismaticState, motes: Multiset) -> Multiset:
    """What of ``motes`` the supply cannot give (PX-1.5): with components=proxy only
    prismatic motes run out, a colour mote the supply lacks being a proxy (PX-I.29)."""
    short = state.supply.missing(motes)
    if state.table.components == "proxy":
        return Multiset.of({PRISMATIC: short.count(PRISMATIC)})
    return short


def prisms_short(state: PrismaticState, count: int) -> int:
    """How many of ``count`` prisms the supply cannot give (none with components=proxy,
    PX-I.29)."""
    if state.table.components == "proxy":
        return 0
    return max(0, count - state.supply_prisms)


def take_supply(state: PrismaticState, motes: Multiset) -> PrismaticState:
    """``motes`` leave the supply; with components=proxy those it lacks are proxies, and
    it keeps none below zero (PX-I.29)."""
    present = Multiset.of({c: min(n, state.supply.count(c)) for c, n in motes.items})
    taken = present if state.table.components == "proxy" else motes
    return msgspec.structs.replace(state, supply=state.supply.minus(taken))


def take_prisms(state: PrismaticState, count: int) -> PrismaticState:
    """``count`` prisms leave the supply; with components=proxy those it lacks are
    proxies, and it keeps none below zero (PX-I.29)."""
    left = state.supply_prisms - count
    if state.table.components == "proxy":
        left = max(0, left)
    return msgspec.structs.replace(state, supply_prisms=left)


def gain_motes(
    state: PrismaticState, seat: str, motes: Multiset, *, rewarded: bool = False
) -> PrismaticState:
    """Motes come from the supply to ``seat`` (PX-I.3): ``rewarded`` ones (a one-time
    reward, PX-8.4) into the bag at the round's end, others (the board, an addition) into
    it at once; variant gained_motes=next_round holds every gain until the round's end,
    gained_motes=at_once puts every gain in the bag at once."""
    if not motes:
        return state
    state = take_supply(state, motes)
    waits = {"next_round": True, "at_once": False}.get(state.table.gained_motes, rewarded)
    if not waits:
        return return_motes(state, seat, motes)
    return update(
        state, seat, lambda p: msgspec.structs.replace(p, incoming=p.incoming.plus(motes))
    )


def spend_motes(state: PrismaticState, seat: str, motes: Multiset) -> PrismaticState:
    """Motes that paid for a creation or an ability: to the supply (PX-I.1), or back to
    ``seat``'s bag with variant spent_motes=bag."""
    if not motes:
        return state
    if state.table.spent_motes == "bag":
        return return_motes(state, seat, motes)
    return msgspec.structs.replace(state, supply=state.supply.plus(motes))


def lose_prisms(state: PrismaticState, count: int) -> PrismaticState:
    """Prisms spent or lost go back to the supply (PX-1.5)."""
    if not count:
        return state
    return msgspec.structs.replace(state, supply_prisms=state.supply_prisms + count)


def drawable(state: PrismaticState) -> int:
    """How many cards can still be drawn: the deck, and with variant empty_deck=reshuffle
    the discard pile that would be shuffled into it (PX-I.8)."""
    extra = len(state.discard) if state.table.empty_deck == "reshuffle" else 0
    return len(state.deck) + extra


def take_from_deck(state: PrismaticState, names: tuple[str, ...]) -> PrismaticState:
    """``names`` leave the deck; when the deck runs out first and the variant reshuffles,
    the discard pile becomes the deck and the rest come from it (PX-I.8)."""
    deck = list(state.deck)
    discard = state.discard
    later = [name for name in names if name not in deck]
    for name in names:
        if name in deck:
            deck.remove(name)
    if later:
        deck = sorted(discard)
        discard = ()
        for name in later:
            deck.remove(name)
    return msgspec.structs.replace(state, deck=tuple(deck), discard=discard)


def remove_from_area(state: PrismaticState, seat: str, name: str) -> tuple[PrismaticState, Held]:
    """Take the card ``name`` out of ``seat``'s progress area (with its commitments)."""
    player = state.player(seat)
    held = player.progress_card(name)
    if held is None:
        raise ValueError("held is missing: only an entry its check allowed is carried out")
    rest = tuple(h for h in player.progress if h.name != name)
    return update(state, seat, lambda p: msgspec.structs.replace(p, progress=rest)), held


def clear_card(state: PrismaticState, seat: str, held: Held) -> PrismaticState:
    """A card's commitments come off it: motes back to ``seat``'s bag, prisms lost (PX-I.6)."""
    state = return_motes(state, seat, held.motes)
    return lose_prisms(state, held.prisms)


_NOBODY: frozenset[str] = frozenset()


def to_act(state: PrismaticState) -> frozenset[str]:
    """The seats that may make an entry now."""
    step = state.step
    if step in ("deal", "refill"):
        return frozenset((state.starter,))
    if step == "setup":
        return frozenset(p.seat for p in state.players if p.active and not (p.chose and p.kept))
    if step in ("draw", "commit"):
        return frozenset(p.seat for p in state.players if p.active and not p.done)
    if step == "resolve":
        seat = state.resolving
        return frozenset((seat,)) if seat is not None else _NOBODY
    if step == "auction" and state.auction is not None:
        entered = {seat for seat, _ in state.auction.sealed}
        return frozenset(s for s in state.auction.asked if s not in entered)
    if step == "colours":
        unsettled = standing(state).unsettled
        return frozenset((unsettled[0][0],)) if unsettled else _NOBODY
    return _NOBODY

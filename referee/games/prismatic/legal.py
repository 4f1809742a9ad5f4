"""Listing the entries a seat may make now (``referee legal``).

Every listed entry passes ``check``. Two steps have more legal entries than a list
can usefully hold, so their list is a generating set: in step 2 a commitment is
listed for every part of the drawn motes to every own place, prisms one at a time
(a larger commitment is a sum of listed ones); everything else is listed whole.
Chance reports (draws, cards turned up) list every report the known bag or deck
allows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, combinations_with_replacement

from referee.games.prismatic import model
from referee.games.prismatic.checks import check
from referee.games.prismatic.engine import to_act
from referee.games.prismatic.model import (
    PALETTE,
    SEATS,
    ActionDetail,
    PrismaticAction,
    PrismaticState,
    Remove,
    Reward,
    SeatState,
)
from referee.games.prismatic.motes import COLOURS, sort_motes
from referee.games.prismatic.position import drawable
from referee.games.prismatic.scoring import standing
from referee.kit.multiset import Multiset

__all__ = ["legal_actions"]


def sub_multisets(counts: Multiset, size: int | None = None) -> Iterator[tuple[str, ...]]:
    """Every sub-multiset of ``counts`` (of ``size`` elements when given), in canonical order."""
    kinds = sort_motes(counts.names())

    def walk(i: int, left: int | None) -> Iterator[tuple[str, ...]]:
        if i == len(kinds):
            if left is None or left == 0:
                yield ()
            return
        kind = kinds[i]
        top = counts.count(kind) if left is None else min(counts.count(kind), left)
        for n in range(top + 1):
            for rest in walk(i + 1, None if left is None else left - n):
                yield (kind,) * n + rest

    yield from walk(0, size)


def _drawable_cards(state: PrismaticState) -> list[str]:
    cards = list(state.deck)
    if not cards and state.table.empty_deck == "reshuffle":
        cards = sorted(state.discard)
    return cards


def _own_places(state: PrismaticState, seat: str) -> list[str]:
    player = state.player(seat)
    return [PALETTE] + [h.name for h in player.progress] + [h.name for h in player.creation]


def _details(state: PrismaticState, seat: str, kind: str) -> Iterator[ActionDetail]:
    player = state.player(seat)
    details = _DETAILS.get(kind)
    if details is not None:
        yield from details(state, seat, player)


def _pulls(state: PrismaticState, seat: str, player: SeatState) -> Iterator[ActionDetail]:
    if not player.bag:
        yield model.Pull()
    for mote in sort_motes(player.bag.names()):
        yield model.Pull(mote)
        for place in _own_places(state, seat):
            yield model.Pull(mote, place)


def _empties(state: PrismaticState, seat: str, player: SeatState) -> Iterator[ActionDetail]:
    yield model.Empty(PALETTE)
    for other in state.players:
        if other.seat != seat and other.active:
            yield model.Empty(PALETTE, other.seat)
    for p in state.players:
        for held in p.progress + p.creation:
            yield model.Empty(held.name)


def _draws(state: PrismaticState, seat: str, player: SeatState) -> Iterator[ActionDetail]:
    yield model.DrawCard()  # drawing is the player's option (PX-10.3)
    for card in _drawable_cards(state):
        yield model.DrawCard(card, "progress")
        if len(state.commons) < 3:
            yield model.DrawCard(card, "common")
        else:
            for common in state.commons:
                yield model.DrawCard(card, "common", common)


def _discards(state: PrismaticState, seat: str, player: SeatState) -> Iterator[ActionDetail]:
    for card in state.commons + tuple(h.name for h in player.progress):
        yield model.Discard(card)


def _steals(state: PrismaticState, seat: str, player: SeatState) -> Iterator[ActionDetail]:
    yield from (model.Steal(card) for card in state.commons)
    for p in state.players:
        if p.seat != seat:
            yield from (model.Steal(h.name) for h in p.progress)


_DETAILS: dict[str, Callable[[PrismaticState, str, SeatState], Iterator[ActionDetail]]] = {
    "pull": _pulls,
    "empty": _empties,
    "draw": _draws,
    "discard": _discards,
    "steal": _steals,
}
"""The details an action of each kind may take."""


def _pool_choices(state: PrismaticState, seat: str, recipe: Multiset) -> Iterator[tuple[str, ...]]:
    pool = state.player(seat).pool
    usable = Multiset.of({k: min(pool.count(k), recipe.count(k)) for k in pool.names()})
    yield from sub_multisets(usable)


def _resolve(state: PrismaticState, seat: str) -> Iterator[PrismaticAction]:
    player = state.player(seat)
    if state.pending:
        yield from _rewards(state, seat)
        return
    catalog = state.catalog
    for card in [h.name for h in player.progress] + list(state.commons):
        recipe = catalog.cards[card].recipe.motes
        for pool in _pool_choices(state, seat, recipe):
            yield model.Create(card, pool)
    yield from _board_creations(state, seat, player)
    yield from _uses(state, seat, player)
    if state.table.progress_removal == "free":
        yield from (Remove(h.name) for h in player.progress)
    yield model.Pass()


def _rewards(state: PrismaticState, seat: str) -> Iterator[PrismaticAction]:
    """Each pending reward taken, or declined."""
    for effect in dict.fromkeys(state.pending):
        rewards: list[Reward] = []
        if effect.kind == "pool":
            rewards.append(model.TakePool(effect.colour))
        elif effect.kind == "mote":
            rewards.append(model.TakeMote(effect.colour))
        elif effect.kind == "prisms":
            rewards.append(model.TakePrisms(effect.count))
        elif effect.kind == "text":
            rewards.append(model.TakeText())
        else:
            rewards.extend(_details(state, seat, effect.kind))
        yield from (model.Take(r) for r in rewards)
    yield model.Decline()


def _board_creations(
    state: PrismaticState, seat: str, player: SeatState
) -> Iterator[PrismaticAction]:
    catalog = state.catalog
    for ident, method in catalog.methods.items():
        if ident in player.board_used:
            continue
        choices: list[model.BoardDraw | model.Discard | None] = [None]
        if method.effect.kind == "draw2":
            choices = _board_draws(state)
        elif method.effect.kind == "discard":
            choices = [
                model.Discard(c) for c in state.commons + tuple(h.name for h in player.progress)
            ]
        for pool in _pool_choices(state, seat, method.recipe.motes):
            for choice in choices:
                yield model.CreateBoard(ident, pool, choice)


def _board_draws(state: PrismaticState) -> list[model.BoardDraw | model.Discard | None]:
    """What a board method drawing two cards may keep and discard."""
    cards = _drawable_cards(state)
    if drawable(state) < 2:
        return [model.BoardDraw(c) for c in cards] or [model.BoardDraw()]
    if len(state.deck) == 1:  # one from the deck, the other after reshuffling
        return [
            model.BoardDraw(a, b)
            for a in cards + list(state.discard)
            for b in cards + list(state.discard)
            if a != b
        ]
    return [model.BoardDraw(a, b) for a in cards for b in cards if a != b]


def _uses(state: PrismaticState, seat: str, player: SeatState) -> Iterator[PrismaticAction]:
    catalog = state.catalog
    for held in player.creation:
        ability = catalog.cards[held.name].ability
        if ability is None:
            continue
        kind = ability.effect.kind
        if kind in ("pull", "empty", "draw", "discard", "steal"):
            yield from (model.Use(held.name, d) for d in _details(state, seat, kind))
        else:
            yield model.Use(held.name)


def _candidates(state: PrismaticState, seat: str) -> Iterator[PrismaticAction]:
    player = state.player(seat)
    step = _CANDIDATES.get(state.step)
    if step is not None:
        yield from step(state, seat, player)


def _reveals(state: PrismaticState, seat: str, player: SeatState) -> Iterator[PrismaticAction]:
    yield from (model.Reveal(c) for c in _drawable_cards(state))


def _setup(state: PrismaticState, seat: str, player: SeatState) -> Iterator[PrismaticAction]:
    if not player.chose:
        yield from (model.Choose(pair) for pair in combinations_with_replacement(COLOURS, 2))
    if not player.kept:
        cards = state.deck
        yield from (model.Keep(a, b) for a in cards for b in cards if a != b)


def _mote_draws(state: PrismaticState, seat: str, player: SeatState) -> Iterator[PrismaticAction]:
    bag = player.bag or player.committed_motes()
    yield from (model.DrawMotes(m) for m in sub_multisets(bag, min(5, bag.total)))


def _commits(state: PrismaticState, seat: str, player: SeatState) -> Iterator[PrismaticAction]:
    for place in _own_places(state, seat):
        for motes in sub_multisets(player.hand):
            if motes:
                yield model.Commit(motes, 0, place)
        if player.prisms:
            yield model.Commit((), 1, place)
    yield model.Pass()


def _resolutions(state: PrismaticState, seat: str, player: SeatState) -> Iterator[PrismaticAction]:
    yield from _resolve(state, seat)


def _bids(state: PrismaticState, seat: str, player: SeatState) -> Iterator[PrismaticAction]:
    if state.auction is None:
        return
    floor = state.auction.floor
    yield from (model.Bid(n) for n in range(max(floor + 1, 0), player.prisms + 1))
    if floor >= 0 or state.table.opening_forgo == "no_bid":
        yield model.Forgo()  # dropping out, or in a first round no bid (PX-I.32)


def _rankings(state: PrismaticState, seat: str, player: SeatState) -> Iterator[PrismaticAction]:
    unsettled = standing(state).unsettled
    if unsettled:
        yield from (model.Colours(r) for r in _orderings(unsettled[0]))


_CANDIDATES: dict[str, Callable[[PrismaticState, str, SeatState], Iterator[PrismaticAction]]] = {
    "deal": _reveals,
    "refill": _reveals,
    "setup": _setup,
    "draw": _mote_draws,
    "commit": _commits,
    "resolve": _resolutions,
    "auction": _bids,
    "colours": _rankings,
}
"""The entries worth checking in each step."""


def _orderings(seats: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Every ranking of ``seats`` with ties (ordered set partitions)."""
    if not seats:
        yield ()
        return
    for size in range(1, len(seats) + 1):
        for first in combinations(seats, size):
            rest = tuple(s for s in seats if s not in first)
            for tail in _orderings(rest):
                yield (tuple(sorted(first, key=SEATS.index)), *tail)


def legal_actions(state: PrismaticState, seat: str | None = None) -> list[PrismaticAction]:
    """The listed legal entries of ``seat``, or of every seat that may act."""
    seats = sorted(to_act(state), key=SEATS.index)
    if seat is not None:
        seats = [seat] if seat in seats else []
    out: list[PrismaticAction] = []
    for who in seats:
        out.extend(a for a in dict.fromkeys(_candidates(state, who)) if check(state, a, who).legal)
    return out

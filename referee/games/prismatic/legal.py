"""Listing the entries a seat may make now (``referee legal``).

Every listed entry passes ``check``. Two steps have more legal entries than a list
can usefully hold, so their list is a generating set: in step 2 a commitment is
listed for every part of the drawn motes to every own place, prisms one at a time
(a larger commitment is a sum of listed ones); everything else is listed whole.
Chance reports (draws, cards turned up) list every report the known bag or deck
allows.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement

from referee.games.prismatic.checks import check
from referee.games.prismatic.engine import to_act
from referee.games.prismatic.model import (
    PALETTE,
    SEATS,
    ActionDetail,
    Bid,
    BoardDraw,
    Choose,
    Colours,
    Commit,
    Create,
    CreateBoard,
    Decline,
    Discard,
    DrawCard,
    DrawMotes,
    Empty,
    Forgo,
    Keep,
    Pass,
    PrismaticAction,
    PrismaticState,
    Pull,
    Reveal,
    Reward,
    Steal,
    Take,
    TakeMote,
    TakePool,
    TakePrisms,
    TakeText,
    Use,
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
    if kind == "pull":
        if not player.bag:
            yield Pull()
        for mote in sort_motes(player.bag.names()):
            yield Pull(mote)
            for place in _own_places(state, seat):
                yield Pull(mote, place)
    elif kind == "empty":
        yield Empty(PALETTE)
        for other in state.players:
            if other.seat != seat and other.active:
                yield Empty(PALETTE, other.seat)
        for p in state.players:
            for held in p.progress + p.creation:
                yield Empty(held.name)
    elif kind == "draw":
        if not drawable(state):
            yield DrawCard()
        for card in _drawable_cards(state):
            yield DrawCard(card, "progress")
            if len(state.commons) < 3:
                yield DrawCard(card, "common")
            else:
                for common in state.commons:
                    yield DrawCard(card, "common", common)
    elif kind == "discard":
        for card in state.commons + tuple(h.name for h in player.progress):
            yield Discard(card)
    elif kind == "steal":
        yield from (Steal(card) for card in state.commons)
        for p in state.players:
            if p.seat != seat:
                yield from (Steal(h.name) for h in p.progress)


def _pool_choices(state: PrismaticState, seat: str, recipe: Multiset) -> Iterator[tuple[str, ...]]:
    pool = state.player(seat).pool
    usable = Multiset.of({k: min(pool.count(k), recipe.count(k)) for k in pool.names()})
    yield from sub_multisets(usable)


def _resolve(state: PrismaticState, seat: str) -> Iterator[PrismaticAction]:
    player = state.player(seat)
    if state.pending:
        for effect in dict.fromkeys(state.pending):
            rewards: list[Reward] = []
            if effect.kind == "pool":
                rewards.append(TakePool(effect.colour))
            elif effect.kind == "mote":
                rewards.append(TakeMote(effect.colour))
            elif effect.kind == "prisms":
                rewards.append(TakePrisms(effect.count))
            elif effect.kind == "text":
                rewards.append(TakeText())
            else:
                rewards.extend(_details(state, seat, effect.kind))
            yield from (Take(r) for r in rewards)
        yield Decline()
        return
    catalog = state.catalog
    for card in [h.name for h in player.progress] + list(state.commons):
        recipe = catalog.cards[card].recipe.motes
        for pool in _pool_choices(state, seat, recipe):
            yield Create(card, pool)
    for ident, method in catalog.methods.items():
        if ident in player.board_used:
            continue
        choices: list[BoardDraw | Discard | None] = [None]
        if method.effect.kind == "draw2":
            cards = _drawable_cards(state)
            if drawable(state) >= 2:
                choices = [BoardDraw(a, b) for a in cards for b in cards if a != b]
                if len(state.deck) == 1:  # one from the deck, the other after reshuffling
                    choices = [
                        BoardDraw(a, b)
                        for a in cards + list(state.discard)
                        for b in cards + list(state.discard)
                        if a != b
                    ]
            else:
                choices = [BoardDraw(c) for c in cards] or [BoardDraw()]
        elif method.effect.kind == "discard":
            choices = [Discard(c) for c in state.commons + tuple(h.name for h in player.progress)]
        for pool in _pool_choices(state, seat, method.recipe.motes):
            for choice in choices:
                yield CreateBoard(ident, pool, choice)
    for held in player.creation:
        ability = catalog.cards[held.name].ability
        if ability is None:
            continue
        kind = ability.effect.kind
        if kind in ("pull", "empty", "draw", "discard", "steal"):
            yield from (Use(held.name, d) for d in _details(state, seat, kind))
        else:
            yield Use(held.name)
    yield Pass()


def _candidates(state: PrismaticState, seat: str) -> Iterator[PrismaticAction]:
    step = state.step
    player = state.player(seat)
    if step in ("deal", "refill"):
        yield from (Reveal(c) for c in _drawable_cards(state))
    elif step == "setup":
        if not player.chose:
            yield from (Choose(pair) for pair in combinations_with_replacement(COLOURS, 2))
        if not player.kept:
            cards = state.deck
            yield from (Keep(a, b) for a in cards for b in cards if a != b)
    elif step == "draw":
        bag = player.bag or player.committed_motes()
        yield from (DrawMotes(m) for m in sub_multisets(bag, min(5, bag.total)))
    elif step == "commit":
        for place in _own_places(state, seat):
            for motes in sub_multisets(player.hand):
                if motes:
                    yield Commit(motes, 0, place)
            if player.prisms:
                yield Commit((), 1, place)
        yield Pass()
    elif step == "resolve":
        yield from _resolve(state, seat)
    elif step == "auction" and state.auction is not None:
        floor = state.auction.floor
        yield from (Bid(n) for n in range(max(floor + 1, 0), player.prisms + 1))
        if floor >= 0:
            yield Forgo()
    elif step == "colours":
        unsettled = standing(state).unsettled
        if unsettled:
            yield from (Colours(r) for r in _orderings(unsettled[0]))


def _orderings(seats: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Every ranking of ``seats`` with ties (ordered set partitions)."""
    if not seats:
        yield ()
        return
    for size in range(1, len(seats) + 1):
        for first in combinations(seats, size):
            rest = tuple(s for s in seats if s not in first)
            for tail in _orderings(rest):
                yield (tuple(sorted(first, key=SEATS.index)),) + tail


def legal_actions(state: PrismaticState, seat: str | None = None) -> list[PrismaticAction]:
    """The listed legal entries of ``seat``, or of every seat that may act."""
    seats = sorted(to_act(state), key=SEATS.index)
    if seat is not None:
        seats = [seat] if seat in seats else []
    out: list[PrismaticAction] = []
    for who in seats:
        out.extend(a for a in dict.fromkeys(_candidates(state, who)) if check(state, a, who).legal)
    return out

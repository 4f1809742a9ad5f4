"""The order of play: setup, the four steps of a round, the end of the game.

``advance`` is called after every entry and moves the position on through every
step that needs no entry: a simultaneous step closes when every seat still
playing has finished it (REF-1.5), the resolve step when the last player passes,
the round when the commons are full again; then the game-end trigger (PX-11.2),
the starter token (PX-11.3 or the auction, PX-14) and the next round.
"""

from __future__ import annotations

import msgspec

from referee.games.prismatic.model import SEATS, Auction, PrismaticState, SeatState
from referee.games.prismatic.scoring import standing
from referee.games.prismatic.table import drawable, next_active
from referee.kit.multiset import Multiset

__all__ = ["advance", "finish", "to_act", "withdraw"]

_NOBODY: frozenset[str] = frozenset()
EMPTY = Multiset()


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


def _reset(players: tuple[SeatState, ...]) -> tuple[SeatState, ...]:
    return tuple(msgspec.structs.replace(p, done=False) if p.done else p for p in players)


def _resolve_order(state: PrismaticState) -> tuple[str, ...]:
    """PX-5.1: from the starter token's holder, clockwise."""
    start = SEATS.index(state.starter)
    seats = sorted(state.active, key=lambda s: (SEATS.index(s) - start) % len(SEATS))
    return tuple(seats)


def _skip_gone(state: PrismaticState) -> PrismaticState:
    resolver = state.resolver
    while resolver < len(state.order) and not state.player(state.order[resolver]).active:
        resolver += 1
    return (
        msgspec.structs.replace(state, resolver=resolver) if resolver != state.resolver else state
    )


def finish(state: PrismaticState) -> PrismaticState:
    """PX-12.1: committed motes go home to the bags, unused committed prisms to their owners;
    the game is over, or waits for the colours judgement (PX-13.2)."""
    players = []
    for p in state.players:
        bag = p.bag.plus(p.incoming).plus(p.hand).plus(p.committed_motes())
        players.append(
            msgspec.structs.replace(
                p,
                bag=bag,
                incoming=EMPTY,
                hand=EMPTY,
                palette=EMPTY,
                prisms=p.prisms + p.committed_prisms(),
                palette_prisms=0,
                progress=tuple(
                    msgspec.structs.replace(h, motes=EMPTY, prisms=0) for h in p.progress
                ),
                creation=tuple(
                    msgspec.structs.replace(h, motes=EMPTY, prisms=0) for h in p.creation
                ),
                pool=EMPTY,
                done=False,
            )
        )
    done = msgspec.structs.replace(
        state,
        players=tuple(players),
        pending=(),
        pending_card="",
        order=(),
        resolver=0,
        auction=None,
    )
    return msgspec.structs.replace(done, step="colours" if standing(done).unsettled else "over")


def _next_round(state: PrismaticState) -> PrismaticState:
    return msgspec.structs.replace(
        state, step="draw", round=state.round + 1, players=_reset(state.players), auction=None
    )


def _end_round(state: PrismaticState) -> PrismaticState:
    """Step 4 after the refill: gained motes join the bags (PX-I.3), per-round marks clear,
    the game-end trigger is checked (PX-11.2), and the starter token moves on."""
    players = tuple(
        msgspec.structs.replace(
            p,
            bag=p.bag.plus(p.incoming),
            incoming=EMPTY,
            board_used=(),
            abilities_used=(),
            pool=EMPTY,
        )
        for p in state.players
    )
    state = msgspec.structs.replace(state, players=players, order=(), resolver=0)
    if not state.final_round and any(
        len(p.creation) >= state.table.goal for p in players if p.active
    ):
        state = msgspec.structs.replace(state, final_round=state.round + 1)
    if state.table.starter_token == "auction":
        return msgspec.structs.replace(state, step="auction", auction=Auction(asked=state.active))
    return _next_round(msgspec.structs.replace(state, starter=next_active(state, state.starter)))


def close_auction_round(state: PrismaticState) -> PrismaticState:
    """Every asked seat has entered: reveal, then a winner pays, a tie bids again, or the
    token stays (PX-14.2 to PX-14.4, PX-I.9)."""
    auction = state.auction
    assert auction is not None
    standing_bids = dict(auction.standing)
    for seat, amount in auction.sealed:
        if amount < 0 or (auction.floor < 0 and amount == 0):
            standing_bids.pop(seat, None)
        else:
            standing_bids[seat] = amount
    standing_bids = {s: b for s, b in standing_bids.items() if state.player(s).active}
    if not standing_bids:
        return _next_round(state)
    top = max(standing_bids.values())
    leaders = tuple(s for s in SEATS if standing_bids.get(s) == top)
    if len(leaders) == 1:
        (winner,) = leaders
        paid = msgspec.structs.replace(state, supply_prisms=state.supply_prisms + top)
        players = tuple(
            msgspec.structs.replace(p, prisms=p.prisms - top) if p.seat == winner else p
            for p in paid.players
        )
        return _next_round(msgspec.structs.replace(paid, players=players, starter=winner))
    ordered = tuple(sorted(standing_bids.items(), key=lambda kv: SEATS.index(kv[0])))
    return msgspec.structs.replace(
        state, auction=Auction(standing=ordered, asked=leaders, floor=top)
    )


def advance(state: PrismaticState) -> PrismaticState:
    """Move on through every step that is complete."""
    while True:
        step = state.step
        if step == "deal":
            if len(state.commons) < 3 and drawable(state):
                return state
            state = msgspec.structs.replace(state, step="setup")
        elif step == "setup":
            if any(p.active and not (p.chose and p.kept) for p in state.players):
                return state
            state = msgspec.structs.replace(state, step="draw", players=_reset(state.players))
        elif step == "draw":
            if any(p.active and not p.done for p in state.players):
                return state
            state = msgspec.structs.replace(state, step="commit", players=_reset(state.players))
        elif step == "commit":
            if any(p.active and not p.done for p in state.players):
                return state
            state = msgspec.structs.replace(
                state,
                step="resolve",
                players=_reset(state.players),
                order=_resolve_order(state),
                resolver=0,
            )
        elif step == "resolve":
            state = _skip_gone(state)
            if state.resolver < len(state.order):
                return state
            if state.final_round and state.round >= state.final_round:
                return finish(state)
            state = msgspec.structs.replace(state, step="refill")
        elif step == "refill":
            if len(state.commons) < 3 and drawable(state):
                return state
            state = _end_round(state)
        elif step == "auction":
            auction = state.auction
            assert auction is not None
            entered = {seat for seat, _ in auction.sealed}
            if any(s not in entered for s in auction.asked):
                return state
            state = close_auction_round(state)
        elif step == "colours":
            if standing(state).unsettled:
                return state
            state = msgspec.structs.replace(state, step="over")
        else:
            return state


def withdraw(state: PrismaticState, seat: str) -> PrismaticState:
    """PX-I.16: the seat leaves; its cards and motes leave play with it, the token passes on."""
    if state.step == "over":
        return state
    resolving = state.resolving
    players = tuple(
        msgspec.structs.replace(p, active=False, hand=EMPTY, pool=EMPTY) if p.seat == seat else p
        for p in state.players
    )
    state = msgspec.structs.replace(state, players=players, withdrawn=state.withdrawn + (seat,))
    if state.starter == seat:
        state = msgspec.structs.replace(state, starter=next_active(state, seat))
    if resolving == seat:
        state = msgspec.structs.replace(
            state, pending=(), pending_card="", resolver=state.resolver + 1
        )
    if state.auction is not None:
        a = state.auction
        state = msgspec.structs.replace(
            state,
            auction=Auction(
                standing=tuple((s, b) for s, b in a.standing if s != seat),
                asked=tuple(s for s in a.asked if s != seat),
                sealed=tuple((s, b) for s, b in a.sealed if s != seat),
                floor=a.floor,
            ),
        )
    if state.step == "colours":
        state = msgspec.structs.replace(
            state, wearing=tuple((s, w) for s, w in state.wearing if s != seat)
        )
    return advance(state)

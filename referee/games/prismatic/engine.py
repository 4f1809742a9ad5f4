"""Carrying out Prismatic entries and moving the game on: ``apply`` gives the position after
a checked entry (replay calls it on entries checked when they were recorded, so it never
checks), ``to_act`` says who may act, ``advance`` moves the position through every step
that needs no entry, ``outcome`` ranks the players at the end (PX-12.9).

The order of play: a simultaneous step closes when every seat still playing has finished
it (REF-1.5), the resolve step when the last player passes, the round when the commons are
full again; then the game-end trigger (PX-11.2), the starter token (PX-11.3 or the
auction, PX-14) and the next round.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from referee.games.prismatic import model
from referee.games.prismatic.catalog import Effect
from referee.games.prismatic.checks import reward_matches
from referee.games.prismatic.model import (
    PALETTE,
    SEATS,
    Auction,
    Held,
    PrismaticAction,
    PrismaticState,
    Remove,
    SeatState,
)
from referee.games.prismatic.position import (
    clear_card,
    drawable,
    gain_motes,
    locate,
    lose_prisms,
    next_active,
    remove_from_area,
    return_motes,
    spend_motes,
    take_from_deck,
    take_prisms,
    take_supply,
    to_act,
    update,
)
from referee.games.prismatic.scoring import standing
from referee.kit.dispatch import Dispatch
from referee.kit.multiset import Multiset
from referee.outcomes import ONGOING, Outcome, Placing

ENTRY_EFFECTS: Dispatch[PrismaticState, str, PrismaticState] = Dispatch("Prismatic entries")
"""What each kind of Prismatic entry does, by its type."""
DETAIL_EFFECTS: Dispatch[PrismaticState, str, PrismaticState] = Dispatch("action details")
"""What each kind of action detail (pull, empty...) does, by its type."""

__all__ = [
    "add_to",
    "advance",
    "apply",
    "apply_effect",
    "finish",
    "goal_in_reach",
    "outcome",
    "to_act",
    "withdraw",
]

EMPTY = Multiset()


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
    if not state.final_round and (
        any(len(p.creation) >= state.table.goal for p in players if p.active)
        or (state.table.goal_reach == "end" and not goal_in_reach(state))
    ):
        state = msgspec.structs.replace(state, final_round=state.round + 1)
    if state.table.starter_token == "auction":
        return msgspec.structs.replace(state, step="auction", auction=Auction(asked=state.active))
    return _next_round(msgspec.structs.replace(state, starter=next_active(state, state.starter)))


def goal_in_reach(state: PrismaticState) -> bool:
    """PX-I.30: whether some player still in could yet reach the goal, counting every card
    that might still come their way: the common cards, the cards the deck can give (PX-I.8)
    and every progress card in play (their own, or another's to steal)."""
    active = [p for p in state.players if p.active]
    left = len(state.commons) + drawable(state) + sum(len(p.progress) for p in active)
    return any(len(p.creation) + left >= state.table.goal for p in active)


def close_auction_round(state: PrismaticState) -> PrismaticState:
    """Every asked seat has entered: reveal, then a winner pays, a tie bids again, or the
    token stays (PX-14.2 to PX-14.4, PX-I.9)."""
    auction = state.auction
    if auction is None:
        raise ValueError("auction is missing: only an entry its check allowed is carried out")
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
        step = _STEPS.get(state.step)
        if step is None:
            return state
        state, complete = step(state)
        if not complete:
            return state


_Step = tuple[PrismaticState, bool]
"""The state after looking at a step, and whether that step was complete (so the next is
looked at in turn)."""


def _after_deal(state: PrismaticState) -> _Step:
    if len(state.commons) < 3 and drawable(state):
        return state, False
    return msgspec.structs.replace(state, step="setup"), True


def _after_setup(state: PrismaticState) -> _Step:
    if any(p.active and not (p.chose and p.kept) for p in state.players):
        return state, False
    return msgspec.structs.replace(state, step="draw", players=_reset(state.players)), True


def _after_draw(state: PrismaticState) -> _Step:
    if any(p.active and not p.done for p in state.players):
        return state, False
    return msgspec.structs.replace(state, step="commit", players=_reset(state.players)), True


def _after_commit(state: PrismaticState) -> _Step:
    if any(p.active and not p.done for p in state.players):
        return state, False
    return (
        msgspec.structs.replace(
            state,
            step="resolve",
            players=_reset(state.players),
            order=_resolve_order(state),
            resolver=0,
        ),
        True,
    )


def _after_resolve(state: PrismaticState) -> _Step:
    state = _skip_gone(state)
    if state.resolver < len(state.order):
        return state, False
    if state.final_round and state.round >= state.final_round:
        return finish(state), False
    return msgspec.structs.replace(state, step="refill"), True


def _after_refill(state: PrismaticState) -> _Step:
    if len(state.commons) < 3 and drawable(state):
        return state, False
    return _end_round(state), True


def _after_auction(state: PrismaticState) -> _Step:
    auction = state.auction
    if auction is None:
        raise ValueError("auction is missing: only an entry its check allowed is carried out")
    entered = {seat for seat, _ in auction.sealed}
    if any(s not in entered for s in auction.asked):
        return state, False
    return close_auction_round(state), True


def _after_colours(state: PrismaticState) -> _Step:
    if standing(state).unsettled:
        return state, False
    return msgspec.structs.replace(state, step="over"), True


_STEPS: dict[str, Callable[[PrismaticState], _Step]] = {
    "deal": _after_deal,
    "setup": _after_setup,
    "draw": _after_draw,
    "commit": _after_commit,
    "resolve": _after_resolve,
    "refill": _after_refill,
    "auction": _after_auction,
    "colours": _after_colours,
}
"""Each step that can be complete, in the order of a round, then the auction's and the
colours' (any other step, ``over`` say, waits)."""


def withdraw(state: PrismaticState, seat: str) -> PrismaticState:
    """PX-I.16: the seat leaves; its cards and motes leave play with it, the token passes on."""
    if state.step == "over":
        return state
    resolving = state.resolving
    players = tuple(
        msgspec.structs.replace(p, active=False, hand=EMPTY, pool=EMPTY) if p.seat == seat else p
        for p in state.players
    )
    state = msgspec.structs.replace(state, players=players, withdrawn=(*state.withdrawn, seat))
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


replace = msgspec.structs.replace
EMPTY = Multiset()


def _name(state: PrismaticState, text: str) -> str:
    name = state.catalog.card_name(text)
    if name is None:
        raise ValueError("name is missing: only an entry its check allowed is carried out")
    return name


def _with_card(
    cards: tuple[Held, ...], name: str, change: Callable[[Held], Held]
) -> tuple[Held, ...]:
    return tuple(change(h) if h.name == name else h for h in cards)


def add_to(
    state: PrismaticState, seat: str, target: str, motes: Multiset, prisms: int
) -> PrismaticState:
    """Motes and prisms placed on ``seat``'s palette or one of their cards."""
    if target == PALETTE:
        return update(
            state,
            seat,
            lambda p: replace(
                p, palette=p.palette.plus(motes), palette_prisms=p.palette_prisms + prisms
            ),
        )
    name = _name(state, target)

    def put(h: Held) -> Held:
        return replace(h, motes=h.motes.plus(motes), prisms=h.prisms + prisms)

    def change(p: SeatState) -> SeatState:
        if p.progress_card(name) is not None:
            return replace(p, progress=_with_card(p.progress, name, put))
        return replace(p, creation=_with_card(p.creation, name, put))

    return update(state, seat, change)


# -- setup and steps 1-2 ---------------------------------------------------------------------------


@ENTRY_EFFECTS.register(model.Reveal)
def _reveal(state: PrismaticState, action: model.Reveal, seat: str) -> PrismaticState:
    name = _name(state, action.card)
    state = take_from_deck(state, (name,))
    return replace(state, commons=(*state.commons, name))


@ENTRY_EFFECTS.register(model.Choose)
def _choose(state: PrismaticState, action: model.Choose, seat: str) -> PrismaticState:
    motes = Multiset.of(action.motes)
    state = take_supply(state, motes)
    return update(state, seat, lambda p: replace(p, bag=p.bag.plus(motes), chose=True))


@ENTRY_EFFECTS.register(model.Keep)
def _keep(state: PrismaticState, action: model.Keep, seat: str) -> PrismaticState:
    kept, dropped = _name(state, action.keep), _name(state, action.discard)
    state = take_from_deck(state, (kept, dropped))
    state = replace(state, discard=(*state.discard, dropped))
    return update(state, seat, lambda p: replace(p, progress=(*p.progress, Held(kept)), kept=True))


@ENTRY_EFFECTS.register(model.DrawMotes)
def _draw(state: PrismaticState, action: model.DrawMotes, seat: str) -> PrismaticState:
    drawn = Multiset.of(action.motes)

    def change(p: SeatState) -> SeatState:
        if not p.bag:  # PX-3.4: committed motes go back first; prisms stay
            p = replace(
                p,
                bag=p.committed_motes(),
                palette=EMPTY,
                progress=tuple(replace(h, motes=EMPTY) for h in p.progress),
                creation=tuple(replace(h, motes=EMPTY) for h in p.creation),
            )
        return replace(p, bag=p.bag.minus(drawn), hand=drawn, done=True)

    return update(state, seat, change)


@ENTRY_EFFECTS.register(model.Commit)
def _commit(state: PrismaticState, action: model.Commit, seat: str) -> PrismaticState:
    motes = Multiset.of(action.motes)
    state = update(
        state, seat, lambda p: replace(p, hand=p.hand.minus(motes), prisms=p.prisms - action.prisms)
    )
    return add_to(state, seat, action.target, motes, action.prisms)


@ENTRY_EFFECTS.register(model.Pass)
def _pass(state: PrismaticState, action: model.Pass, seat: str) -> PrismaticState:
    if state.step == "commit":  # PX-4.3: uncommitted motes go back to the bag
        return update(
            state, seat, lambda p: replace(p, bag=p.bag.plus(p.hand), hand=EMPTY, done=True)
        )
    state = update(state, seat, lambda p: replace(p, pool=EMPTY))  # PX-6.4
    return replace(state, resolver=state.resolver + 1)


# -- creating --------------------------------------------------------------------------------------


@ENTRY_EFFECTS.register(model.Create)
def _create(state: PrismaticState, action: model.Create, seat: str) -> PrismaticState:
    name = _name(state, action.card)
    spec = state.catalog.cards[name]
    from_pool = Multiset.of(action.pool)
    need = spec.recipe.motes.minus(from_pool)
    player = state.player(seat)
    held = player.progress_card(name)
    if held is not None:
        state, held = remove_from_area(state, seat, name)
        # PX-I.2: what the requirement does not use goes back to its owner
        state = return_motes(state, seat, held.motes.minus(need))
        leftover_prisms = held.prisms - spec.recipe.prisms
        state = update(state, seat, lambda p: replace(p, prisms=p.prisms + leftover_prisms))
    else:
        state = replace(state, commons=tuple(c for c in state.commons if c != name))
        state = update(
            state,
            seat,
            lambda p: replace(
                p,
                palette=p.palette.minus(need),
                palette_prisms=p.palette_prisms - spec.recipe.prisms,
            ),
        )
    state = spend_motes(state, seat, need)
    state = lose_prisms(state, spec.recipe.prisms)
    state = update(
        state,
        seat,
        lambda p: replace(p, pool=p.pool.minus(from_pool), creation=(*p.creation, Held(name))),
    )
    player = state.player(seat)
    if not player.reached and len(player.creation) >= state.table.goal:
        order = state.reached + 1
        state = update(replace(state, reached=order), seat, lambda p: replace(p, reached=order))
    return replace(state, pending=spec.rewards, pending_card=name if spec.rewards else "")


@ENTRY_EFFECTS.register(model.CreateBoard)
def _board(state: PrismaticState, action: model.CreateBoard, seat: str) -> PrismaticState:
    method = state.catalog.methods[action.method]
    from_pool = Multiset.of(action.pool)
    need = method.recipe.motes.minus(from_pool)
    prisms = method.recipe.prisms
    state = update(
        state,
        seat,
        lambda p: replace(
            p,
            palette=p.palette.minus(need),
            palette_prisms=p.palette_prisms - prisms,
            pool=p.pool.minus(from_pool),
            board_used=(*p.board_used, action.method),
        ),
    )
    state = spend_motes(state, seat, need)
    state = lose_prisms(state, prisms)
    choice = action.choice
    if isinstance(choice, model.BoardDraw):
        names = tuple(_name(state, n) for n in (choice.keep, choice.discard) if n)
        state = take_from_deck(state, names)
        if choice.keep:
            kept = _name(state, choice.keep)
            state = update(state, seat, lambda p: replace(p, progress=(*p.progress, Held(kept))))
        if choice.discard:
            state = replace(state, discard=(*state.discard, _name(state, choice.discard)))
        return state
    if isinstance(choice, model.Discard):
        return _discard(state, choice, seat)
    return apply_effect(state, method.effect, seat)


def apply_effect(
    state: PrismaticState, effect: Effect, seat: str, *, rewarded: bool = False
) -> PrismaticState:
    """An addition's gain: a pool colour, a mote from the supply, prisms from the supply;
    ``rewarded`` when a one-time reward gives it (a rewarded mote waits, PX-8.4, PX-I.3)."""
    if effect.kind == "pool":
        return update(state, seat, lambda p: replace(p, pool=p.pool.plus([effect.colour])))
    if effect.kind == "mote":
        return gain_motes(state, seat, Multiset.of([effect.colour]), rewarded=rewarded)
    if effect.kind == "prisms":
        state = take_prisms(state, effect.count)
        return update(state, seat, lambda p: replace(p, prisms=p.prisms + effect.count))
    return state  # free text: the referee's adjustment carries it out (PX-9.7)


@ENTRY_EFFECTS.register(model.Use)
def _use(state: PrismaticState, action: model.Use, seat: str) -> PrismaticState:
    name = _name(state, action.card)
    ability = state.catalog.cards[name].ability
    if ability is None:
        raise ValueError("ability is missing: only an entry its check allowed is carried out")
    if ability.takes == "prism":
        state = update(
            state,
            seat,
            lambda p: replace(
                p, creation=_with_card(p.creation, name, lambda h: replace(h, prisms=h.prisms - 1))
            ),
        )
        state = lose_prisms(state, 1)
    elif ability.takes:
        spent = Multiset.of([ability.takes])
        state = update(
            state,
            seat,
            lambda p: replace(
                p,
                creation=_with_card(
                    p.creation, name, lambda h: replace(h, motes=h.motes.minus(spent))
                ),
            ),
        )
        state = spend_motes(state, seat, spent)
    state = update(state, seat, lambda p: replace(p, abilities_used=(*p.abilities_used, name)))
    if action.detail is not None:
        return _detail(state, action.detail, seat)
    return apply_effect(state, ability.effect, seat)


@ENTRY_EFFECTS.register(model.Take)
def _take(state: PrismaticState, action: model.Take, seat: str) -> PrismaticState:
    pending = list(state.pending)
    index = next(i for i, e in enumerate(pending) if reward_matches(e, action.reward))
    effect = pending.pop(index)
    state = replace(
        state, pending=tuple(pending), pending_card=state.pending_card if pending else ""
    )
    reward = action.reward
    if isinstance(reward, model.Pull | model.Empty | model.DrawCard | model.Discard | model.Steal):
        return _detail(state, reward, seat)
    if isinstance(reward, model.TakeText):
        return state
    return apply_effect(state, effect, seat, rewarded=True)


@ENTRY_EFFECTS.register(model.Decline)
def _decline(state: PrismaticState, action: model.Decline, seat: str) -> PrismaticState:
    return replace(state, pending=(), pending_card="")


# -- actions ---------------------------------------------------------------------------------------


@DETAIL_EFFECTS.register(model.Pull)
def _pull(state: PrismaticState, detail: model.Pull, seat: str) -> PrismaticState:
    if not detail.mote or not detail.to:
        return state  # nothing in the bag, or the mote went straight back
    mote = Multiset.of([detail.mote])
    state = update(state, seat, lambda p: replace(p, bag=p.bag.minus(mote)))
    return add_to(state, seat, detail.to, mote, 0)


@DETAIL_EFFECTS.register(model.Empty)
def _empty(state: PrismaticState, detail: model.Empty, seat: str) -> PrismaticState:
    if detail.target == PALETTE:
        owner = detail.owner or seat
        player = state.player(owner)
        motes, prisms = player.palette, player.palette_prisms
        state = update(state, owner, lambda p: replace(p, palette=EMPTY, palette_prisms=0))
        return lose_prisms(return_motes(state, owner, motes), prisms)
    name = _name(state, detail.target)
    owner = locate(state, name).seat
    player = state.player(owner)
    held = player.progress_card(name) or player.creation_card(name)
    if held is None:
        raise ValueError("held is missing: only an entry its check allowed is carried out")

    def clear(p: SeatState) -> SeatState:
        def bare(h: Held) -> Held:
            return replace(h, motes=EMPTY, prisms=0)

        return replace(
            p,
            progress=_with_card(p.progress, name, bare),
            creation=_with_card(p.creation, name, bare),
        )

    state = update(state, owner, clear)
    return clear_card(state, owner, held)


@DETAIL_EFFECTS.register(model.DrawCard)
def _draw_card(state: PrismaticState, detail: model.DrawCard, seat: str) -> PrismaticState:
    if not detail.card:
        return state
    name = _name(state, detail.card)
    state = take_from_deck(state, (name,))
    if detail.to == "progress":
        return update(state, seat, lambda p: replace(p, progress=(*p.progress, Held(name))))
    if not detail.replace:
        return replace(state, commons=(*state.commons, name))
    dropped = _name(state, detail.replace)
    commons = tuple(name if c == dropped else c for c in state.commons)
    return replace(state, commons=commons, discard=(*state.discard, dropped))


def _lift(state: PrismaticState, name: str, holder: str | None) -> PrismaticState:
    """The card ``name`` taken up: out of the commons, else out of the area of ``holder``
    (of whoever holds it when ``None``), its motes going home to their owner (PX-I.6)."""
    if name in state.commons:
        return replace(state, commons=tuple(c for c in state.commons if c != name))
    owner = locate(state, name).seat if holder is None else holder
    state, held = remove_from_area(state, owner, name)
    return clear_card(state, owner, held)


@DETAIL_EFFECTS.register(model.Discard)
def _discard(state: PrismaticState, detail: model.Discard, seat: str) -> PrismaticState:
    name = _name(state, detail.card)
    state = _lift(state, name, seat)
    return replace(state, discard=(*state.discard, name))


@DETAIL_EFFECTS.register(model.Steal)
def _steal(state: PrismaticState, detail: model.Steal, seat: str) -> PrismaticState:
    name = _name(state, detail.card)
    state = _lift(state, name, None)
    return update(state, seat, lambda p: replace(p, progress=(*p.progress, Held(name))))


@ENTRY_EFFECTS.register(Remove)
def _remove(state: PrismaticState, action: Remove, seat: str) -> PrismaticState:
    """PX-I.23 (progress_removal=free): the card goes to the discard pile as a discarded one
    does, its motes back to the owner's bag and its prisms lost."""
    return _discard(state, model.Discard(action.card), seat)


_DETAILS = DETAIL_EFFECTS.handlers


def _detail(state: PrismaticState, detail: object, seat: str) -> PrismaticState:
    return _DETAILS[type(detail)](state, detail, seat)


# -- auction and colours ---------------------------------------------------------------------------


def _bid(state: PrismaticState, action: model.Bid | model.Forgo, seat: str) -> PrismaticState:
    auction = state.auction
    if auction is None:
        raise ValueError("auction is missing: only an entry its check allowed is carried out")
    amount = action.amount if isinstance(action, model.Bid) else -1
    return replace(state, auction=replace(auction, sealed=(*auction.sealed, (seat, amount))))


ENTRY_EFFECTS.add(model.Bid, _bid)
ENTRY_EFFECTS.add(model.Forgo, _bid)


@ENTRY_EFFECTS.register(model.Colours)
def _colours(state: PrismaticState, action: model.Colours, seat: str) -> PrismaticState:
    positions = tuple(
        (s, rank) for rank, group in enumerate(action.ranking, start=1) for s in group
    )
    return replace(state, wearing=state.wearing + positions)


_APPLY = ENTRY_EFFECTS.handlers


def apply(
    state: PrismaticState, action: PrismaticAction, seat: str | None = None
) -> PrismaticState:
    """The position after ``seat``'s checked entry ``action`` (the one seat to act when none
    is named), moved on through finished steps."""
    if seat is None:
        (seat,) = to_act(state)
    return advance(_APPLY[type(action)](state, action, seat))


def outcome(state: PrismaticState) -> Outcome:
    """PX-12.9: everyone ranked by stars, ties broken by PX-13.1; seats that withdrew below."""
    if state.step != "over":
        return ONGOING
    board = standing(state)
    totals = {line.seat: line.total for line in board.lines}
    placings: list[Placing] = []
    for group in board.groups:
        rank = len(placings) + 1
        placings.extend(Placing(seat, rank, float(totals[seat])) for seat in group)
    for seat in reversed(state.withdrawn):
        placings.append(Placing(seat, len(placings) + 1))
    reason = "final score " + ", ".join(f"{s} {totals[s]}" for g in board.groups for s in g)
    return Outcome.ranked(placings, "PX-12.9", reason, "; ".join(board.notes))

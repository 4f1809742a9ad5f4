"""Applying a checked entry: the new position, with no checks (replay calls this on
entries checked when they were recorded). ``flow.advance`` then moves the game on."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from referee.games.prismatic.catalog import Effect
from referee.games.prismatic.checks import reward_matches
from referee.games.prismatic.flow import advance
from referee.games.prismatic.model import (
    PALETTE,
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
    Held,
    Keep,
    Pass,
    PrismaticAction,
    PrismaticState,
    Pull,
    Reveal,
    SeatState,
    Steal,
    Take,
    TakeText,
    Use,
)
from referee.games.prismatic.table import (
    clear_card,
    gain_motes,
    locate,
    lose_prisms,
    remove_from_area,
    return_motes,
    spend_motes,
    take_from_deck,
    update,
)
from referee.kit.dispatch import Dispatch
from referee.kit.multiset import Multiset

ENTRY_EFFECTS: Dispatch[PrismaticState, str, PrismaticState] = Dispatch(
    "effects of Prismatic entries"
)
"""Effects of prismatic entries, by the type of the entry."""
DETAIL_EFFECTS: Dispatch[PrismaticState, str, PrismaticState] = Dispatch(
    "effects of an action's details"
)
"""Effects of an action's details, by the type of the entry."""
__all__ = ["add_to", "apply", "apply_effect"]

replace = msgspec.structs.replace
EMPTY = Multiset()


def _name(state: PrismaticState, text: str) -> str:
    name = state.catalog.card_name(text)
    assert name is not None, text
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


@ENTRY_EFFECTS.register(Reveal)
def _reveal(state: PrismaticState, action: Reveal, seat: str) -> PrismaticState:
    name = _name(state, action.card)
    state = take_from_deck(state, (name,))
    return replace(state, commons=state.commons + (name,))


@ENTRY_EFFECTS.register(Choose)
def _choose(state: PrismaticState, action: Choose, seat: str) -> PrismaticState:
    motes = Multiset.of(action.motes)
    state = replace(state, supply=state.supply.minus(motes))
    return update(state, seat, lambda p: replace(p, bag=p.bag.plus(motes), chose=True))


@ENTRY_EFFECTS.register(Keep)
def _keep(state: PrismaticState, action: Keep, seat: str) -> PrismaticState:
    kept, dropped = _name(state, action.keep), _name(state, action.discard)
    state = take_from_deck(state, (kept, dropped))
    state = replace(state, discard=state.discard + (dropped,))
    return update(state, seat, lambda p: replace(p, progress=p.progress + (Held(kept),), kept=True))


@ENTRY_EFFECTS.register(DrawMotes)
def _draw(state: PrismaticState, action: DrawMotes, seat: str) -> PrismaticState:
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


@ENTRY_EFFECTS.register(Commit)
def _commit(state: PrismaticState, action: Commit, seat: str) -> PrismaticState:
    motes = Multiset.of(action.motes)
    state = update(
        state, seat, lambda p: replace(p, hand=p.hand.minus(motes), prisms=p.prisms - action.prisms)
    )
    return add_to(state, seat, action.target, motes, action.prisms)


@ENTRY_EFFECTS.register(Pass)
def _pass(state: PrismaticState, action: Pass, seat: str) -> PrismaticState:
    if state.step == "commit":  # PX-4.3: uncommitted motes go back to the bag
        return update(
            state, seat, lambda p: replace(p, bag=p.bag.plus(p.hand), hand=EMPTY, done=True)
        )
    state = update(state, seat, lambda p: replace(p, pool=EMPTY))  # PX-6.4
    return replace(state, resolver=state.resolver + 1)


# -- creating --------------------------------------------------------------------------------------


@ENTRY_EFFECTS.register(Create)
def _create(state: PrismaticState, action: Create, seat: str) -> PrismaticState:
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
        lambda p: replace(p, pool=p.pool.minus(from_pool), creation=p.creation + (Held(name),)),
    )
    player = state.player(seat)
    if not player.reached and len(player.creation) >= state.table.goal:
        order = state.reached + 1
        state = update(replace(state, reached=order), seat, lambda p: replace(p, reached=order))
    return replace(state, pending=spec.rewards, pending_card=name if spec.rewards else "")


@ENTRY_EFFECTS.register(CreateBoard)
def _board(state: PrismaticState, action: CreateBoard, seat: str) -> PrismaticState:
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
            board_used=p.board_used + (action.method,),
        ),
    )
    state = spend_motes(state, seat, need)
    state = lose_prisms(state, prisms)
    choice = action.choice
    if isinstance(choice, BoardDraw):
        names = tuple(_name(state, n) for n in (choice.keep, choice.discard) if n)
        state = take_from_deck(state, names)
        if choice.keep:
            kept = _name(state, choice.keep)
            state = update(state, seat, lambda p: replace(p, progress=p.progress + (Held(kept),)))
        if choice.discard:
            state = replace(state, discard=state.discard + (_name(state, choice.discard),))
        return state
    if isinstance(choice, Discard):
        return _discard(state, choice, seat)
    return apply_effect(state, method.effect, seat)


def apply_effect(state: PrismaticState, effect: Effect, seat: str) -> PrismaticState:
    """An addition's gain: a pool colour, a mote from the supply, prisms from the supply."""
    if effect.kind == "pool":
        return update(state, seat, lambda p: replace(p, pool=p.pool.plus([effect.colour])))
    if effect.kind == "mote":
        return gain_motes(state, seat, Multiset.of([effect.colour]))
    if effect.kind == "prisms":
        state = replace(state, supply_prisms=state.supply_prisms - effect.count)
        return update(state, seat, lambda p: replace(p, prisms=p.prisms + effect.count))
    return state  # free text: the referee's adjustment carries it out (PX-9.7)


@ENTRY_EFFECTS.register(Use)
def _use(state: PrismaticState, action: Use, seat: str) -> PrismaticState:
    name = _name(state, action.card)
    ability = state.catalog.cards[name].ability
    assert ability is not None
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
    state = update(state, seat, lambda p: replace(p, abilities_used=p.abilities_used + (name,)))
    if action.detail is not None:
        return _detail(state, action.detail, seat)
    return apply_effect(state, ability.effect, seat)


@ENTRY_EFFECTS.register(Take)
def _take(state: PrismaticState, action: Take, seat: str) -> PrismaticState:
    pending = list(state.pending)
    index = next(i for i, e in enumerate(pending) if reward_matches(e, action.reward))
    effect = pending.pop(index)
    state = replace(
        state, pending=tuple(pending), pending_card=state.pending_card if pending else ""
    )
    reward = action.reward
    if isinstance(reward, Pull | Empty | DrawCard | Discard | Steal):
        return _detail(state, reward, seat)
    if isinstance(reward, TakeText):
        return state
    return apply_effect(state, effect, seat)


@ENTRY_EFFECTS.register(Decline)
def _decline(state: PrismaticState, action: Decline, seat: str) -> PrismaticState:
    return replace(state, pending=(), pending_card="")


# -- actions ---------------------------------------------------------------------------------------


@DETAIL_EFFECTS.register(Pull)
def _pull(state: PrismaticState, detail: Pull, seat: str) -> PrismaticState:
    if not detail.mote or not detail.to:
        return state  # nothing in the bag, or the mote went straight back
    mote = Multiset.of([detail.mote])
    state = update(state, seat, lambda p: replace(p, bag=p.bag.minus(mote)))
    return add_to(state, seat, detail.to, mote, 0)


@DETAIL_EFFECTS.register(Empty)
def _empty(state: PrismaticState, detail: Empty, seat: str) -> PrismaticState:
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
    assert held is not None

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


@DETAIL_EFFECTS.register(DrawCard)
def _draw_card(state: PrismaticState, detail: DrawCard, seat: str) -> PrismaticState:
    if not detail.card:
        return state
    name = _name(state, detail.card)
    state = take_from_deck(state, (name,))
    if detail.to == "progress":
        return update(state, seat, lambda p: replace(p, progress=p.progress + (Held(name),)))
    if not detail.replace:
        return replace(state, commons=state.commons + (name,))
    dropped = _name(state, detail.replace)
    commons = tuple(name if c == dropped else c for c in state.commons)
    return replace(state, commons=commons, discard=state.discard + (dropped,))


@DETAIL_EFFECTS.register(Discard)
def _discard(state: PrismaticState, detail: Discard, seat: str) -> PrismaticState:
    name = _name(state, detail.card)
    if name in state.commons:
        state = replace(state, commons=tuple(c for c in state.commons if c != name))
    else:
        state, held = remove_from_area(state, seat, name)
        state = clear_card(state, seat, held)
    return replace(state, discard=state.discard + (name,))


@DETAIL_EFFECTS.register(Steal)
def _steal(state: PrismaticState, detail: Steal, seat: str) -> PrismaticState:
    name = _name(state, detail.card)
    if name in state.commons:
        state = replace(state, commons=tuple(c for c in state.commons if c != name))
    else:
        victim = locate(state, name).seat
        state, held = remove_from_area(state, victim, name)
        state = clear_card(state, victim, held)  # PX-I.6: the motes go home to their owner
    return update(state, seat, lambda p: replace(p, progress=p.progress + (Held(name),)))


_DETAILS = DETAIL_EFFECTS.handlers


def _detail(state: PrismaticState, detail: object, seat: str) -> PrismaticState:
    return _DETAILS[type(detail)](state, detail, seat)


# -- auction and colours ---------------------------------------------------------------------------


def _bid(state: PrismaticState, action: Bid | Forgo, seat: str) -> PrismaticState:
    auction = state.auction
    assert auction is not None
    amount = action.amount if isinstance(action, Bid) else -1
    return replace(state, auction=replace(auction, sealed=auction.sealed + ((seat, amount),)))


ENTRY_EFFECTS.add(Bid, _bid)
ENTRY_EFFECTS.add(Forgo, _bid)


@ENTRY_EFFECTS.register(Colours)
def _colours(state: PrismaticState, action: Colours, seat: str) -> PrismaticState:
    positions = tuple(
        (s, rank) for rank, group in enumerate(action.ranking, start=1) for s in group
    )
    return replace(state, wearing=state.wearing + positions)


_APPLY = ENTRY_EFFECTS.handlers


def apply(state: PrismaticState, action: PrismaticAction, seat: str) -> PrismaticState:
    """The position after ``seat``'s checked entry ``action``, moved on through finished steps."""
    return advance(_APPLY[type(action)](state, action, seat))

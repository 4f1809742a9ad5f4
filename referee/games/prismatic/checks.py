"""Checking an entry against the position: legal, needing a ruling, or the clauses it breaks.

The procedure (``referee.procedure``) has already checked that the seat may act now
(REF-1.2); these checks start from the step (PX-15.4) and then the game's own rules.
Every rejection names the clause and says why with the cards and motes involved.
"""

from __future__ import annotations

from referee.errors import quoted
from referee.games.prismatic import model
from referee.games.prismatic.catalog import Effect, Recipe, effect_text
from referee.games.prismatic.model import SEATS, PrismaticAction, PrismaticState, Remove, Reward
from referee.games.prismatic.motes import COLOUR_NAMES, KINDS, PRISMATIC
from referee.games.prismatic.position import drawable, locate, prisms_short, supply_short, to_act
from referee.games.prismatic.scoring import standing
from referee.kit.dispatch import Dispatch
from referee.kit.multiset import Multiset
from referee.procedure import seats_text
from referee.verdicts import LEGAL, Verdict

ENTRY_CHECKS: Dispatch[PrismaticState, str, Verdict] = Dispatch("checks of Prismatic entries")
"""The check of each kind of Prismatic entry, by its type."""
DETAIL_CHECKS: Dispatch[PrismaticState, str, Verdict] = Dispatch("checks of an action's details")
"""The check of each kind of action detail (pull, empty...), by its type."""
__all__ = ["check", "check_entry", "motes_words", "reward_matches"]

STEP_WORDS = {
    "deal": "setup: the common cards are being turned up",
    "setup": "setup: players choose motes and keep a dealt card",
    "draw": "step 1, the draw",
    "commit": "step 2, committing",
    "resolve": "step 3, resolving",
    "refill": "step 4: the common cards are being refilled",
    "auction": "step 4: the starter-token auction",
    "colours": "the end: the colours worn decide a tie",
    "over": "the end of the game",
}
ALLOWED: dict[type, tuple[str, ...]] = {
    model.Reveal: ("deal", "refill"),
    model.Choose: ("setup",),
    model.Keep: ("setup",),
    model.DrawMotes: ("draw",),
    model.Commit: ("commit",),
    model.Pass: ("commit", "resolve"),
    model.Create: ("resolve",),
    model.CreateBoard: ("resolve",),
    model.Use: ("resolve",),
    model.Take: ("resolve",),
    model.Decline: ("resolve",),
    Remove: ("resolve",),
    model.Bid: ("auction",),
    model.Forgo: ("auction",),
    model.Colours: ("colours",),
}


def motes_words(motes: Multiset | tuple[str, ...]) -> str:
    """``2 red, 1 green`` (``no motes`` when empty)."""
    counts = motes if isinstance(motes, Multiset) else Multiset.of(motes)
    parts = [f"{counts.count(k)} {COLOUR_NAMES[k]}" for k in KINDS if counts.count(k)]
    return ", ".join(parts) if parts else "no motes"


def _count(count: int, noun: str) -> str:
    """``1 card``, ``3 cards``: a count in plain words."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _drawn(count: int) -> str:
    """``1 is drawn``, ``5 are drawn``."""
    return f"{count} {'is' if count == 1 else 'are'} drawn"


def _bad(clause: str, reason: str) -> Verdict:
    return Verdict.illegal(clause, reason)


class _UnknownCard(Exception):
    """A card named that the game's cards catalog does not hold (PX-15.2): the entry is
    refused with ``verdict`` wherever in it the card is named (``check_entry`` catches)."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict)
        self.verdict = verdict


def _resolve_name(state: PrismaticState, text: str) -> str:
    """The catalog's name of the card ``text`` names; ``_UnknownCard`` if none."""
    name = state.catalog.card_name(text)
    if name is None:
        raise _UnknownCard(
            _bad("PX-15.2", f"no card is called {quoted(text)} in this game's cards catalog")
        )
    return name


def _cards_from_deck(state: PrismaticState, names: list[str], clause: str = "PX-1.9") -> Verdict:
    """PX-1.9: cards reported drawn must still be in the deck (or, with reshuffling, in the
    discard pile once the deck is spent)."""
    in_deck = [n for n in names if n in state.deck]
    rest = [n for n in names if n not in state.deck]
    if len(set(names)) != len(names):
        return _bad(clause, f"{names[0]} is named twice; each card exists once")
    for name in rest:
        place = locate(state, name)
        reshuffled = (
            state.table.empty_deck == "reshuffle"
            and place.zone == "discard"
            and len(in_deck) == len(state.deck)
        )
        if not reshuffled:
            return _bad(
                clause, f"{name} is {place.words()}; only a card still in the deck can be drawn"
            )
    return LEGAL


def _supply_motes(state: PrismaticState, colour: str, seat: str) -> Verdict:
    if supply_short(state, Multiset.of([colour])):
        return _bad("PX-1.5", f"the supply has no {COLOUR_NAMES[colour]} mote left for {seat}")
    return LEGAL


def _supply_prisms(state: PrismaticState, count: int, seat: str) -> Verdict:
    if prisms_short(state, count):
        return _bad(
            "PX-1.5",
            f"the supply holds {_count(state.supply_prisms, 'prism')}; {seat} cannot gain {count}",
        )
    return LEGAL


def _gain(state: PrismaticState, effect: Effect, seat: str) -> Verdict:
    """Whether the supply can give what ``effect`` gains."""
    if effect.kind == "mote":
        return _supply_motes(state, effect.colour, seat)
    if effect.kind == "prisms":
        return _supply_prisms(state, effect.count, seat)
    return LEGAL


# -- setup and rounds ----------------------------------------------------------------------


@ENTRY_CHECKS.register(model.Reveal)
def _reveal(state: PrismaticState, action: model.Reveal, seat: str) -> Verdict:
    name = _resolve_name(state, action.card)
    clause = "PX-2.2" if state.step == "deal" else "PX-11.1"
    if len(state.commons) >= 3:
        return _bad(clause, "the common area already holds three cards")
    return _cards_from_deck(state, [name])


@ENTRY_CHECKS.register(model.Choose)
def _choose(state: PrismaticState, action: model.Choose, seat: str) -> Verdict:
    player = state.player(seat)
    if player.chose:
        return _bad("PX-2.4", f"{seat} already chose the two extra motes for the bag")
    if len(action.motes) != 2:
        return _bad("PX-2.4", f"each player chooses exactly two motes, not {len(action.motes)}")
    if PRISMATIC in action.motes:
        return _bad("PX-2.4", "a prismatic mote cannot be one of the two chosen at setup")
    need = Multiset.of(action.motes)
    short = supply_short(state, need)
    if short:
        return _bad("PX-1.5", f"the supply cannot give {motes_words(short)} to {seat}")
    return LEGAL


@ENTRY_CHECKS.register(model.Keep)
def _keep(state: PrismaticState, action: model.Keep, seat: str) -> Verdict:
    if state.player(seat).kept:
        return _bad("PX-2.3", f"{seat} already kept a dealt card")
    names: list[str] = []
    for text in (action.keep, action.discard):
        name = _resolve_name(state, text)
        names.append(name)
    if names[0] == names[1]:
        return _bad("PX-2.3", f"two different cards are dealt; {names[0]} is named twice")
    return _cards_from_deck(state, names)


@ENTRY_CHECKS.register(model.DrawMotes)
def _draw(state: PrismaticState, action: model.DrawMotes, seat: str) -> Verdict:
    player = state.player(seat)
    bag = player.bag
    refilled = not bag
    if refilled:
        bag = player.committed_motes()
    expected = min(5, bag.total)
    shown = Multiset.of(action.motes)
    if not bag:
        if shown:
            return _bad(
                "PX-3.4",
                f"{seat} has no motes at all, neither in the bag nor committed, so nothing "
                "is drawn: write 'draw none'",
            )
        return LEGAL
    short = bag.missing(shown)
    where = (
        f"{seat}'s bag was empty, so the {_count(bag.total, 'mote')} committed went back into it "
        "(PX-3.4); "
        if refilled
        else ""
    )
    if short:
        return _bad(
            "PX-3.5",
            f"{where}{seat}'s bag holds {motes_words(bag)}; the draw names "
            f"{motes_words(short)} more than that",
        )
    if shown.total != expected:
        clause = "PX-3.4" if refilled else ("PX-3.2" if bag.total >= 5 else "PX-3.3")
        return _bad(
            clause,
            f"{where}{seat}'s bag holds {_count(bag.total, 'mote')}, so {_drawn(expected)}, "
            f"not {shown.total}",
        )
    return LEGAL


def _own_place(state: PrismaticState, seat: str, target: str, clause: str, what: str) -> Verdict:
    """``target`` is ``palette`` or a card in ``seat``'s progress or creation area; ``what``
    is committed (``motes and prisms``, ``a pulled mote``)."""
    if target == "palette":
        return LEGAL
    name = _resolve_name(state, target)
    place = locate(state, name)
    if place.zone in ("progress", "creation") and place.seat == seat:
        return LEGAL
    if place.zone == "common":
        return _bad(
            "PX-I.4",
            f"{name} is a common card and holds nothing: what is meant for it goes on "
            f"{seat}'s palette",
        )
    return _bad(
        clause,
        f"{name} is {place.words()}; {seat} commits {what} only to their own palette or "
        "their own cards",
    )


@ENTRY_CHECKS.register(model.Commit)
def _commit(state: PrismaticState, action: model.Commit, seat: str) -> Verdict:
    player = state.player(seat)
    motes = Multiset.of(action.motes)
    short = player.hand.missing(motes)
    if short:
        return _bad(
            "PX-4.2",
            f"{seat} drew {motes_words(player.hand)} still uncommitted this round; "
            f"{motes_words(short)} cannot be committed",
        )
    if action.prisms > player.prisms:
        return _bad("PX-4.2", f"{seat} holds {_count(player.prisms, 'prism')}, not {action.prisms}")
    if not motes and not action.prisms:
        return _bad("PX-4.1", "a commitment places at least one mote or prism")
    return _own_place(state, seat, action.target, "PX-4.1", "motes and prisms")


@ENTRY_CHECKS.register(model.Pass)
def _pass(state: PrismaticState, action: model.Pass, seat: str) -> Verdict:
    if state.step == "resolve" and state.pending:
        return _pending_block(state)
    return LEGAL


def _pending_block(state: PrismaticState) -> Verdict:
    left = ", ".join(effect_text(e) for e in state.pending)
    return _bad(
        "PX-8.5",
        f"the rewards of {state.pending_card} are still to be settled ({left}): "
        "take them or decline",
    )


# -- creating ---------------------------------------------------------------------------------


def _payment(
    state: PrismaticState,
    seat: str,
    what: str,
    recipe: Recipe,
    pool: tuple[str, ...],
    motes: Multiset,
    prisms: int,
    source: str,
) -> Verdict:
    """PX-5.4 and PX-6.2: the committed motes and prisms at ``source`` and the pool colours
    named meet ``recipe``."""
    player = state.player(seat)
    from_pool = Multiset.of(pool)
    lacking = player.pool.missing(from_pool)
    if lacking:
        return _bad(
            "PX-6.2",
            f"{seat}'s colour pool holds {motes_words(player.pool)}; "
            f"{motes_words(lacking)} is not in it",
        )
    unneeded = recipe.motes.missing(from_pool)
    if unneeded:
        return _bad(
            "PX-6.2",
            f"{what} needs {recipe.text()}; pool colours "
            f"{motes_words(unneeded)} are not part of it",
        )
    need = recipe.motes.minus(from_pool)
    short = motes.missing(need)
    if short or prisms < recipe.prisms:
        missing = motes_words(short) if short else ""
        if prisms < recipe.prisms:
            gap = recipe.prisms - prisms
            missing = (
                (missing + ", " if missing else "") + f"{gap} prism" + ("s" if gap != 1 else "")
            )
        held = motes_words(motes) + (f" and {_count(prisms, 'prism')}" if prisms else "")
        return _bad(
            "PX-5.4",
            f"{what} needs {recipe.text()}; {seat} has {held} on {source}"
            + (f" and the pool gives {motes_words(from_pool)}" if pool else "")
            + f": short {missing}",
        )
    return LEGAL


@ENTRY_CHECKS.register(model.Create)
def _create(state: PrismaticState, action: model.Create, seat: str) -> Verdict:
    if state.pending:
        return _pending_block(state)
    name = _resolve_name(state, action.card)
    place = locate(state, name)
    spec = state.catalog.cards[name]
    player = state.player(seat)
    if place.zone == "progress" and place.seat == seat:
        held = player.progress_card(name)
        if held is not None:
            return _payment(
                state, seat, name, spec.recipe, action.pool, held.motes, held.prisms, name
            )
    if place.zone == "common":
        return _payment(
            state,
            seat,
            name,
            spec.recipe,
            action.pool,
            player.palette,
            player.palette_prisms,
            f"{seat}'s palette",
        )
    if place.zone == "creation":
        return _bad("PX-5.2", f"{name} is already created ({place.words()})")
    return _bad(
        "PX-5.2",
        f"{name} is {place.words()}; {seat} may create only their own progress cards "
        "and the common cards",
    )


@ENTRY_CHECKS.register(model.CreateBoard)
def _board(state: PrismaticState, action: model.CreateBoard, seat: str) -> Verdict:
    if state.pending:
        return _pending_block(state)
    method = state.catalog.methods.get(action.method)
    if method is None:
        offered = ", ".join(sorted(state.catalog.methods))
        return _bad("PX-7.1", f"the board has no method {action.method}; its methods: {offered}")
    player = state.player(seat)
    if action.method in player.board_used:
        return _bad(
            "PX-7.2",
            f"{seat} already created {method.creation} by method {action.method} this round",
        )
    paid = _payment(
        state,
        seat,
        f"{method.creation} ({action.method})",
        method.recipe,
        action.pool,
        player.palette,
        player.palette_prisms,
        f"{seat}'s palette",
    )
    if not paid:
        return paid
    effect = method.effect
    choice = action.choice
    if effect.kind == "draw2":
        if not isinstance(choice, model.BoardDraw):
            return _bad(
                "PX-7.3", f"{method.creation} draws two cards: add ': keep CARD, discard CARD'"
            )
        return _board_draw(state, choice, seat)
    if effect.kind == "discard":
        if not isinstance(choice, model.Discard):
            return _bad("PX-7.3", f"{method.creation} discards a card: add ': discard CARD'")
        return _discard_reach(state, choice, seat, "PX-7.3")
    if choice is not None:
        return _bad(
            "PX-7.3", f"{method.creation} ({effect_text(effect)}) takes no choice after ':'"
        )
    return _gain(state, effect, seat)


def _board_draw(state: PrismaticState, choice: model.BoardDraw, seat: str) -> Verdict:
    can = min(2, drawable(state))
    names: list[str] = []
    for text in (choice.keep, choice.discard):
        if text:
            name = _resolve_name(state, text)
            names.append(name)
    if len(names) != can:
        return _bad(
            "PX-7.3",
            f"{_count(drawable(state), 'card')} can be drawn, so {_drawn(can)}; the entry "
            f"names {len(names)}",
        )
    return _cards_from_deck(state, names)


# -- abilities and rewards ----------------------------------------------------------------------


@ENTRY_CHECKS.register(model.Use)
def _use(state: PrismaticState, action: model.Use, seat: str) -> Verdict:
    if state.pending:
        return _pending_block(state)
    name = _resolve_name(state, action.card)
    player = state.player(seat)
    held = player.creation_card(name)
    if held is None:
        return _bad(
            "PX-9.1",
            f"{name} is {locate(state, name).words()}; only cards in {seat}'s creation "
            "area have abilities to use",
        )
    spec = state.catalog.cards[name]
    ability = spec.ability
    if ability is None:
        return _bad("PX-9.1", f"{name} has no ability")
    if name in player.abilities_used and (state.table.ability_uses == "once" or not ability.takes):
        return _bad("PX-I.5", f"{seat} already used {name}'s ability this round")
    if ability.takes == "prism":
        if not held.prisms:
            return _bad("PX-9.4", f"{name}'s ability spends a prism committed to it; none is there")
    elif ability.takes and not held.motes.count(ability.takes):
        colour = COLOUR_NAMES[ability.takes]
        if player.pool.count(ability.takes):
            return _bad(
                "PX-9.5",
                f"{name}'s ability spends a {colour} mote committed to it; the {colour} "
                f"in {seat}'s colour pool cannot pay for an ability",
            )
        return _bad(
            "PX-9.3",
            f"{name}'s ability spends a {colour} mote committed to it; it holds "
            f"{motes_words(held.motes)}",
        )
    effect = ability.effect
    if effect.kind in ("pull", "empty", "draw", "discard", "steal"):
        if action.detail is None or _detail_kind(action.detail) != effect.kind:
            return _bad(
                "PX-9.3",
                f"{name}'s ability gives the {effect.kind} action: write "
                f"'use {name}: {effect.kind} ...'",
            )
        return _detail(state, action.detail, seat)
    if action.detail is not None:
        # the clause of the ability's own kind: an addition, or a transformation from a
        # mote or a prism that gives no action
        clause = "PX-9.4" if ability.takes == "prism" else "PX-9.3" if ability.takes else "PX-9.2"
        return _bad(clause, f"{name}'s ability ({effect_text(effect)}) takes no action details")
    if effect.kind == "text":
        return Verdict.ruling(name, "PX-9.7", effect.text)
    return _gain(state, effect, seat)


_DETAIL_KINDS: dict[type, str] = {
    model.Pull: "pull",
    model.Empty: "empty",
    model.DrawCard: "draw",
    model.Discard: "discard",
    model.Steal: "steal",
}


def _detail_kind(detail: object) -> str:
    return _DETAIL_KINDS[type(detail)]


def reward_matches(effect: Effect, reward: Reward) -> bool:
    """Whether taking ``reward`` receives the pending ``effect``."""
    if isinstance(reward, model.TakePool):
        return effect.kind == "pool" and effect.colour == reward.colour
    if isinstance(reward, model.TakeMote):
        return effect.kind == "mote" and effect.colour == reward.colour
    if isinstance(reward, model.TakePrisms):
        return effect.kind == "prisms" and effect.count == reward.count
    if isinstance(reward, model.TakeText):
        return effect.kind == "text"
    return effect.kind == _detail_kind(reward)


@ENTRY_CHECKS.register(model.Take)
def _take(state: PrismaticState, action: model.Take, seat: str) -> Verdict:
    if not state.pending:
        return _bad("PX-8.3", "no one-time reward is waiting to be taken")
    match = next((e for e in state.pending if reward_matches(e, action.reward)), None)
    if match is None:
        left = ", ".join(effect_text(e) for e in state.pending)
        return _bad("PX-8.3", f"{state.pending_card}'s rewards still to take are: {left}")
    if match.kind == "text":
        return Verdict.ruling(state.pending_card, "PX-9.7", match.text)
    if match.kind in ("pull", "empty", "draw", "discard", "steal"):
        if not isinstance(
            action.reward, model.Pull | model.Empty | model.DrawCard | model.Discard | model.Steal
        ):
            return _bad("PX-8.3", f"{effect_text(match)} is taken with its action's details")
        return _detail(state, action.reward, seat)
    return _gain(state, match, seat)


@ENTRY_CHECKS.register(model.Decline)
def _decline(state: PrismaticState, action: model.Decline, seat: str) -> Verdict:
    if not state.pending:
        return _bad("PX-8.3", "no one-time reward is waiting to be declined")
    return LEGAL


@ENTRY_CHECKS.register(Remove)
def _remove(state: PrismaticState, action: Remove, seat: str) -> Verdict:
    """PX-I.23: a free removal of an own progress card, only where the table allows it."""
    if state.pending:
        return _pending_block(state)
    name = _resolve_name(state, action.card)
    if state.table.progress_removal != "free":
        return _bad(
            "PX-I.23",
            "at this table a progress card leaves only through a discard (the Discard action "
            "or the board's Discard One Card); variant progress_removal=free would let "
            f"{seat} remove {name} without one",
        )
    place = locate(state, name)
    if place.zone == "progress" and place.seat == seat:
        return LEGAL
    if place.zone == "creation":
        return _bad("PX-8.6", f"{name} is {place.words()}; created cards cannot be removed")
    return _bad(
        "PX-8.7",
        f"{name} is {place.words()}; {seat} may remove only a card in their own progress area",
    )


# -- actions ---------------------------------------------------------------------------------------


@DETAIL_CHECKS.register(model.Pull)
def _pull(state: PrismaticState, detail: model.Pull, seat: str) -> Verdict:
    bag = state.player(seat).bag
    if not detail.mote:
        if bag:
            return _bad("PX-10.1", f"{seat}'s bag holds {motes_words(bag)}: name the mote pulled")
        return LEGAL
    if not bag:
        return _bad("PX-10.1", f"{seat}'s bag is empty: the pull does nothing ('pull none')")
    if not bag.count(detail.mote):
        return _bad(
            "PX-10.1",
            f"{seat}'s bag holds {motes_words(bag)}; there is no "
            f"{COLOUR_NAMES[detail.mote]} mote to pull",
        )
    if detail.to:
        return _own_place(state, seat, detail.to, "PX-10.1", "a pulled mote")
    return LEGAL


@DETAIL_CHECKS.register(model.Empty)
def _empty(state: PrismaticState, detail: model.Empty, seat: str) -> Verdict:
    anyone = state.table.empty_target == "any"
    if detail.target == "palette":
        owner = detail.owner or seat
        if owner != seat:
            if not anyone:
                return _bad("PX-I.7", f"{seat} may empty only their own palette or cards")
            if owner in state.withdrawn:
                return _bad("PX-I.16", f"{owner} has left the game; no action can reach them")
            if owner not in state.active:
                return _bad("PX-1.1", f"{owner} is not a seat at this table")
        return LEGAL
    name = _resolve_name(state, detail.target)
    place = locate(state, name)
    if detail.owner and place.seat != detail.owner:
        # the notation names no owner for a card (its holder is its owner); an entry (JSON
        # or API) naming another seat's ownership was accepted with the seat ignored
        return _bad("PX-10.2", f"{name} is {place.words()}, not a card of {detail.owner}")
    if place.zone in ("progress", "creation"):
        if place.seat == seat:
            return LEGAL
        if not anyone:
            return _bad(
                "PX-I.7",
                f"{name} is {place.words()}; {seat} may empty only their own palette or cards",
            )
        if place.seat not in state.active:
            return _bad(
                "PX-I.16", f"{place.seat} has left the game; their cards left play with them"
            )
        return LEGAL
    if place.zone == "common":
        return _bad("PX-10.2", f"{name} is a common card: nothing is committed on common cards")
    return _bad("PX-10.2", f"{name} is {place.words()}; nothing is committed to it")


@DETAIL_CHECKS.register(model.DrawCard)
def _draw_card(state: PrismaticState, detail: model.DrawCard, seat: str) -> Verdict:
    if not detail.card:
        # the draw is the player's option (PX-10.3), unless the table made it compulsory
        # (PX-I.28): then only a spent deck leaves no card to take
        left = drawable(state)
        if state.table.draw_action == "compulsory" and left:
            return _bad(
                "PX-I.28",
                "this table plays the draw action as compulsory (variant draw_action="
                f"compulsory) and {_count(left, 'card')} can still be drawn: name the card "
                "drawn and where it goes; a reward's draw may be declined instead",
            )
        return LEGAL
    name = _resolve_name(state, detail.card)
    drawn = _cards_from_deck(state, [name])
    if not drawn:
        return drawn
    if detail.to == "progress" and detail.replace:
        # PX-10.3: only a card going among the common cards may replace one of them; an
        # entry (JSON or API; the notation cannot write it) naming a replaced common while
        # drawing to progress would record a discard that never happens
        return _bad(
            "PX-10.3",
            f"{name} goes to the progress area; only a card drawn to the common area "
            "replaces a common card",
        )
    if detail.to == "common":
        if len(state.commons) < 3:
            if detail.replace:
                return _bad(
                    "PX-10.3",
                    f"the common area has room ({_count(len(state.commons), 'card')}); nothing is "
                    "discarded to add a card",
                )
            return LEGAL
        if not detail.replace:
            return _bad(
                "PX-I.19",
                "the common area holds three cards: discard one of them to add "
                f"{name} there, or draw it to the progress area",
            )
        replaced = _resolve_name(state, detail.replace)
        if replaced not in state.commons:
            return _bad(
                "PX-10.3", f"{replaced} is {locate(state, replaced).words()}, not a common card"
            )
    return LEGAL


@DETAIL_CHECKS.register(model.Discard)
def _discard(state: PrismaticState, detail: model.Discard, seat: str) -> Verdict:
    return _discard_reach(state, detail, seat, "PX-10.4")


def _discard_reach(state: PrismaticState, detail: model.Discard, seat: str, clause: str) -> Verdict:
    """The Discard action (PX-10.4) and the board's discard creation (PX-7.3) reach the same
    cards; a card out of reach breaks ``clause``, the one of the entry made."""
    name = _resolve_name(state, detail.card)
    place = locate(state, name)
    if place.zone == "common" or (place.zone == "progress" and place.seat == seat):
        return LEGAL
    if place.zone == "creation":
        return _bad("PX-8.6", f"{name} is {place.words()}; created cards cannot be removed")
    return _bad(
        clause,
        f"{name} is {place.words()}; {seat} may discard only their own progress cards "
        "or a common card",
    )


@DETAIL_CHECKS.register(model.Steal)
def _steal(state: PrismaticState, detail: model.Steal, seat: str) -> Verdict:
    name = _resolve_name(state, detail.card)
    place = locate(state, name)
    if place.zone == "common":
        return LEGAL
    if place.zone == "progress":
        if place.seat == seat:
            return _bad("PX-10.5", f"{name} is already in {seat}'s own progress area")
        if place.seat not in state.active:
            return _bad(
                "PX-I.16", f"{place.seat} has left the game; their cards left play with them"
            )
        return LEGAL
    if place.zone == "creation":
        return _bad("PX-8.6", f"{name} is {place.words()}; created cards cannot be stolen")
    return _bad(
        "PX-10.5",
        f"{name} is {place.words()}; only another player's progress card or a common "
        "card can be stolen",
    )


_DETAILS = DETAIL_CHECKS.handlers


def _detail(state: PrismaticState, detail: object, seat: str) -> Verdict:
    return _DETAILS[type(detail)](state, detail, seat)


# -- the auction and the colours -------------------------------------------------------------------


@ENTRY_CHECKS.register(model.Bid)
def _bid(state: PrismaticState, action: model.Bid, seat: str) -> Verdict:
    auction = state.auction
    if auction is None:
        return _bad("PX-15.4", "no starter-token auction is open")
    prisms = state.player(seat).prisms
    if action.amount > prisms:
        return _sealed_refusal(
            "PX-14.1",
            f"{seat} holds {_count(prisms, 'prism')} and cannot bid {action.amount}",
            seat,
        )
    if auction.floor >= 0 and action.amount <= auction.floor:
        return _sealed_refusal(
            "PX-14.2",
            f"the tied bids stand at {auction.floor}: raise above it or forgo, not bid "
            f"{action.amount}",
            seat,
        )
    return LEGAL


def _sealed_refusal(clause: str, reason: str, seat: str) -> Verdict:
    """A refused bid is as sealed as a recorded one (PX-14.1): ``reason`` tells its amount,
    so only its seat and the referee read it; the others read the same words for every
    refused sealed entry."""
    return Verdict.illegal(
        clause,
        reason,
        seen_by=seat,
        shown=f"{seat}'s sealed bid was refused; what it was stays sealed",
    )


@ENTRY_CHECKS.register(model.Forgo)
def _forgo(state: PrismaticState, action: model.Forgo, seat: str) -> Verdict:
    auction = state.auction
    if auction is None:
        return _bad("PX-15.4", "no starter-token auction is open")
    if auction.floor < 0 and state.table.opening_forgo == "refuse":
        # PX-I.32, opening_forgo=refuse: PX-I.9 as it read before (games recorded then)
        return _sealed_refusal(
            "PX-I.9", "only a tied bidder forgoes; in the first round 'bid 0' makes no bid", seat
        )
    return LEGAL  # a tied bidder drops out; in a first round it makes no bid (PX-14.4, PX-I.32)


@ENTRY_CHECKS.register(model.Colours)
def _colours(state: PrismaticState, action: model.Colours, seat: str) -> Verdict:
    unsettled = standing(state).unsettled
    if not unsettled:
        return _bad("PX-13.2", "no tie is waiting for the colours judgement")
    group = unsettled[0]
    named = [s for g in action.ranking for s in g]
    if sorted(named) != sorted(group):
        return _bad(
            "PX-13.2",
            f"the colours judgement ranks the tied players {', '.join(group)}, each once; "
            f"the entry names {', '.join(named)}",
        )
    return LEGAL


_CHECKS = ENTRY_CHECKS.handlers


def check_entry(state: PrismaticState, action: PrismaticAction, seat: str) -> Verdict:
    """Whether ``seat`` (already known to be one that may act) may make entry ``action``."""
    allowed = ALLOWED[type(action)]
    if state.step not in allowed:
        return _bad(
            "PX-15.4",
            f"it is {STEP_WORDS[state.step]}; this entry belongs to "
            + " or ".join(STEP_WORDS[s] for s in allowed),
        )
    try:
        return _CHECKS[type(action)](state, action, seat)
    except _UnknownCard as unknown:
        return unknown.verdict


def check(state: PrismaticState, action: PrismaticAction, seat: str | None = None) -> Verdict:
    """Whether ``seat`` (the one seat to act when none is named) may make entry ``action``:
    first that it may act now (REF-1.2), then ``check_entry``."""
    may = to_act(state)
    if seat is None:
        if len(may) != 1:
            return Verdict.illegal(
                "REF-1.2", f"{seats_text(may, SEATS) or 'no seat'} may act now; name the seat"
            )
        (seat,) = may
    elif seat not in may:
        return Verdict.illegal(
            "REF-1.2", f"only {seats_text(may, SEATS) or 'no seat'} may act now, not {seat}"
        )
    return check_entry(state, action, seat)

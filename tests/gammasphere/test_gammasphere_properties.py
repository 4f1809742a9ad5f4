"""Property tests over positions reached by random legal play (Hypothesis).

Random games mix entries drawn from ``legal_actions`` with referee adjustments that
``check_change`` accepts, under random variants and with open, sealed, unregistered
and small decks. Checked: every listed entry passes ``check``; near misses are legal
exactly when listed; notation round-trips; ``apply`` and ``apply_change`` never
mutate their input and keep the invariants (cards are neither made nor lost,
resources never negative, weapons always carried, unique entities once); and no
view shows another seat's secret.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, Literal

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.gammasphere import (
    ACTION_TYPES,
    Activate,
    Attack,
    Construct,
    Discard,
    Draw,
    End,
    GammasphereAction,
    GammasphereState,
    Play,
    Switch,
)
from referee.kit.adjustments import Change, parse_change
from referee.kit.decks import Deck, seal
from referee.rulebook import find_clause
from tests.gammasphere.helpers import DECK, OTHER, RULES, decklist, new_game

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SMALL = decklist(
    "6 Pylon\n2 Gamma Trooper\n1 Rift Scout\n1 Supply Drop\n1 Plasma Blade\n1 Solar Flare"
)
DECK_CHOICES: list[dict[str, Deck]] = [
    {},
    {"p1": DECK, "p2": OTHER},
    {"p1": OTHER},
    {"p2": seal(DECK, "x" * 32)},
    {"p1": SMALL, "p2": SMALL},
]
VARIANT_CHOICES: list[dict[str, str]] = [
    {},
    {"direct_attack": "yes", "defender_loses": "yes", "first_turn_attack": "no"},
    {"attack_taps": "no", "attack_tie": "neither"},
    {"empty_deck": "lose", "first_draw": "no"},
    {"hand_limit": "own", "switch_limit": "once", "building_weapons": "any"},
]
ADJUSTMENTS = [
    "draw {seat} 1",
    "move {seat} deck>hand",
    "move {seat} hand>deck",
    "move {seat} field>hand #{id}",
    "move {seat} field>discard #{id}",
    "move {seat} discard>hand {discard}",
    "move {seat} hand>discard {card}",
    "move {seat} deck>field {card}",
    "stat #{id} level +1",
    "stat #{id} attack -300",
    "stat #{id} defense =0",
    "resource {seat} gas +200",
    "resource {seat} power -1500",
    "resource {seat} jiggawatts +1",
    "tap #{id}",
    "untap #{id}",
    "destroy #{id}",
]


def random_change(state: GammasphereState, rnd: random.Random) -> Change:
    seat = rnd.choice(("p1", "p2"))
    index = ("p1", "p2").index(seat)
    ids = [e.id for e in state.field] or [1]
    discard = state.sides[index].discard or ("Pylon",)
    template = rnd.choice(ADJUSTMENTS)
    return parse_change(
        template.format(
            seat=seat,
            id=rnd.choice(ids),
            discard=rnd.choice(discard),
            card=rnd.choice(state.cards.catalog.cards).name,
        )
    )


def walk(
    seed: int, steps: int, decks: dict[str, Deck], variants: dict[str, str]
) -> Iterator[tuple[GammasphereState, GammasphereAction | Change | None, str | None]]:
    """States of a random game, each with the entry or change that led to it."""
    rnd = random.Random(seed)
    state = new_game(decks, None, **variants)
    yield state, None, None
    for _ in range(steps):
        if RULES.outcome(state).over:
            return
        if rnd.random() < 0.12:
            change = random_change(state, rnd)
            if RULES.check_change(state, change).legal:
                state = RULES.apply_change(state, change)
                yield state, change, None
            continue
        seat = rnd.choice(sorted(RULES.to_act(state)))
        actions = RULES.legal_actions(state, seat)
        assert actions, "an open game always offers an entry"
        ending = End() in actions and rnd.random() < 0.3  # short turns let hands grow past ten
        action = End() if ending else rnd.choice(actions)
        state = RULES.apply(state, action, seat)
        yield state, action, seat


@st.composite
def games(draw: st.DrawFn) -> tuple[int, int, dict[str, Deck], dict[str, str]]:
    return (
        draw(st.integers(0, 2**32 - 1)),
        draw(st.integers(0, 160)),
        draw(st.sampled_from(DECK_CHOICES)),
        draw(st.sampled_from(VARIANT_CHOICES)),
    )


@st.composite
def positions(draw: st.DrawFn) -> GammasphereState:
    seed, steps, decks, variants = draw(games())
    state = new_game(decks, None, **variants)
    # B007 on purpose: the walk's last state is returned
    for state, _, _ in walk(seed, steps, decks, variants):  # noqa: B007
        pass
    return state


def cards_held(state: GammasphereState, index: int) -> int:
    own = state.sides[index]
    return (
        own.hand.count
        + own.deck.count
        + len(own.discard)
        + sum(1 for e in state.field if e.owner == index)
    )


def assert_invariants(state: GammasphereState, sizes: tuple[int, int]) -> None:
    ids = [e.id for e in state.field]
    assert len(set(ids)) == len(ids)
    assert all(0 < i < state.next_id for i in ids)
    for index, own in enumerate(state.sides):
        assert cards_held(state, index) == sizes[index], "cards are neither made nor lost"
        assert min(own.gas, own.power, own.jiggawatts, own.hand.count, own.deck.count) >= 0
        assert own.hand.known.total <= own.hand.count
        assert own.deck.known.total == 0
        if own.knowledge.listed is not None:
            assert own.knowledge.listed.cards.contains(own.knowledge.seen)
    for entity in state.field:
        card = state.cards[entity.card]
        assert entity.kind == card.kind
        if entity.kind == "character":
            assert 1 <= entity.level <= 10
            assert entity.mode in ("attack", "defense")
        else:
            assert entity.mode == ""
        if entity.kind == "weapon":
            carrier = [e for e in state.field if e.id == entity.carrier]
            assert carrier
            assert carrier[0].owner == entity.owner
    uniques = [e.card for e in state.field if state.cards[e.card].unique]
    assert len(set(uniques)) == len(uniques)


@SETTINGS
@given(games())
def test_random_legal_play_keeps_the_invariants_and_never_mutates_its_input(
    game: tuple[int, int, dict[str, Deck], dict[str, str]],
) -> None:
    seed, steps, decks, variants = game
    previous: GammasphereState | None = None
    sizes: tuple[int, int] = (0, 0)
    for state, step, seat in walk(seed, steps, decks, variants):
        if previous is None:
            sizes = (cards_held(state, 0), cards_held(state, 1))
        else:
            snapshot = msgspec.json.encode(msgspec.to_builtins(previous))
            if isinstance(step, ACTION_TYPES):
                assert RULES.check(previous, step, seat).legal
                again = RULES.apply(previous, step, seat)
            else:
                assert step is not None
                again = RULES.apply_change(previous, step)
            assert again == state, "apply is a pure function"
            assert msgspec.json.encode(msgspec.to_builtins(previous)) == snapshot
        assert_invariants(state, sizes)
        out = RULES.outcome(state)
        assert out.over == (RULES.to_act(state) == frozenset())
        if out.over:
            assert out.clause is not None
            assert find_clause(out.clause, "gammasphere")
        previous = state


@SETTINGS
@given(positions())
def test_every_listed_entry_passes_check_and_reads_back_from_its_notation(
    state: GammasphereState,
) -> None:
    for seat in sorted(RULES.to_act(state)):
        listed = RULES.legal_actions(state, seat)
        assert len(set(listed)) == len(listed)
        for action in listed:
            assert RULES.check(state, action, seat).legal, (RULES.notation(action), seat)
            text = RULES.notation(action)
            assert RULES.parse(text) == action
            assert RULES.check(
                state, RULES.parse("  " + text.upper()), seat
            ).legal  # GS-N.2: any case


def near_misses(state: GammasphereState) -> list[GammasphereAction]:
    """Entries of every kind over every card name and field number (plus one unused)."""
    numbers = [e.id for e in state.field] + [state.next_id]
    names = [c.name for c in state.cards.catalog.cards]
    out: list[GammasphereAction] = [Draw(1), Draw(2), Draw(7), End()]
    for name in names:
        out.append(Construct(name))
        out.append(Discard(name))
        modes: tuple[Literal["", "attack", "defense"], ...] = ("", "attack", "defense")
        for mode in modes:
            out.append(Play(name, mode))
            out.extend(Play(name, mode, n) for n in numbers)
    for a in numbers:
        out.extend((Switch(a, "attack"), Switch(a, "defense"), Activate(a), Attack(a, 0)))
        out.extend(Attack(a, t) for t in numbers)
        out.extend(Activate(a, t) for t in numbers)
    return out


def unlisted_spelling(state: GammasphereState, action: GammasphereAction) -> bool:
    """Legal entries ``legal_actions`` leaves out as mere spellings: '(attack)' named
    explicitly (GS-6.6), and a target a free-text effect names for the record (GS-N.3)."""
    if isinstance(action, Play) and action.mode == "attack":
        return True
    if isinstance(action, Play) and action.target:
        card = state.cards.by_name.get(state.cards.canonical(action.card) or "")
        return (
            card is not None and card.kind != "weapon" and card.plays_effect and card.effect is None
        )
    if isinstance(action, Activate) and action.target:
        entity = next((e for e in state.field if e.id == action.entity), None)
        return entity is not None and state.cards[entity.card].effect is None
    return False


@pytest.mark.slow  # a property run of some seconds of CPU: the full suite's side (issue 34 item 8)
@SETTINGS
@given(positions())
def test_near_misses_are_legal_exactly_when_listed(state: GammasphereState) -> None:
    for seat in sorted(RULES.to_act(state)):
        listed = set(RULES.legal_actions(state, seat))
        for action in near_misses(state):
            verdict = RULES.check(state, action, seat)
            if verdict.legal and unlisted_spelling(state, action):
                continue
            assert verdict.legal == (action in listed), (RULES.notation(action), seat, verdict)
            if not verdict.legal:
                violation = verdict.violations[0]
                find_clause(violation.clause, "gammasphere")
                assert violation.reason


@SETTINGS
@given(positions())
def test_no_view_shows_another_seats_secrets(state: GammasphereState) -> None:
    for seat in ("p1", "p2"):
        hidden = RULES.secrets(state, seat)
        for viewer in ("public", "p1", "p2"):
            if viewer == seat:
                continue
            shown = (
                RULES.render(state, viewer)
                + msgspec.json.encode(RULES.observe(state, viewer)).decode()
            )
            assert not [name for name in hidden if name in shown], (seat, viewer)


names = st.sampled_from(
    [c.name for c in new_game().cards.catalog.cards] + ["Hut on 4", "Odd Name Z"]
)
numbers = st.integers(1, 10**6)
ACTIONS: Any = st.one_of(
    st.builds(Draw, st.integers(1, 99)),
    st.builds(
        Play, names, st.sampled_from(["", "attack", "defense"]), st.one_of(st.just(0), numbers)
    ),
    st.builds(Construct, names),
    st.builds(Attack, numbers, st.one_of(st.just(0), numbers)),
    st.builds(Switch, numbers, st.sampled_from(["attack", "defense"])),
    st.builds(Activate, numbers, st.one_of(st.just(0), numbers)),
    st.builds(Discard, names),
    st.just(End()),
)


@settings(max_examples=300, deadline=None)
@given(ACTIONS)
def test_gs_n_1_any_entry_round_trips_through_its_notation(action: GammasphereAction) -> None:
    assert RULES.parse(RULES.notation(action)) == action

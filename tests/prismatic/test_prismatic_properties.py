"""Property tests over positions reached by random legal play (Hypothesis).

Random play starts from a random setup (2-4 players, variant switches) and picks
among the listed legal entries, leaning towards creations so games move on. Each
entry is checked and applied; every position must keep the game's conservation
laws (25 motes of each colour and 5 prismatic, 50 prisms, every catalog card in
exactly one place), and nothing may crash.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.prismatic import PrismaticAction, PrismaticState
from referee.games.prismatic.model import (
    Bid,
    Commit,
    Create,
    CreateBoard,
    DrawMotes,
    Keep,
    Pass,
    Reveal,
    Take,
    Use,
)
from referee.games.prismatic.motes import KINDS
from referee.rulebook import find_clause
from tests.prismatic.helpers import RULES, new

VARIANTS = [
    {},
    {"starter_token": "auction", "components": "proxy"},
    {"spent_motes": "bag", "gained_motes": "at_once", "progress_removal": "free"},
    {
        "ability_uses": "per_commitment",
        "empty_target": "any",
        "empty_deck": "reshuffle",
        "draw_action": "compulsory",
    },
]
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The two walks of whole games are the quick loop's longest tests (some 20 s each): listing the
# legal entries at every step checks every candidate, so they run in the full suite only.
WHOLE_GAMES = pytest.mark.slow


def choose(
    rng: random.Random, state: PrismaticState, seat: str, actions: list[PrismaticAction]
) -> PrismaticAction:
    """A random entry, biased so that games progress: create and take when possible, commit
    most of the hand, pass in step 2 once the hand is empty."""
    if state.step == "resolve":
        for kind, chance in ((Take, 0.9), (Create, 0.9), (CreateBoard, 0.35)):
            makers = [a for a in actions if isinstance(a, kind)]
            if makers and rng.random() < chance:
                return rng.choice(makers)
        users = [a for a in actions if isinstance(a, Use)]
        if users and rng.random() < 0.3:
            return rng.choice(users)
        return Pass() if Pass() in actions and rng.random() < 0.8 else rng.choice(actions)
    if state.step == "commit":
        commits = [a for a in actions if isinstance(a, Commit) and a.motes]
        if rng.random() < 0.7:
            commits = [a for a in commits if a.target == "palette"] or commits
        if commits and rng.random() < 0.9:
            widest = max(len(a.motes) for a in commits)
            return rng.choice(
                [a for a in commits if len(a.motes) == widest and rng.random() < 0.7] or commits
            )
        return Pass() if Pass() in actions else rng.choice(actions)
    return rng.choice(actions)


def walk(seed: int, steps: int) -> Iterator[tuple[PrismaticState, str, PrismaticAction]]:
    """(position, seat, entry) along a random legal game; the final position has seat ''."""
    rng = random.Random(seed)
    players = rng.choice((2, 3, 4))
    state = new(players, goal=3, starter=f"p{rng.randint(1, players)}", **rng.choice(VARIANTS))
    for _ in range(steps):
        if RULES.outcome(state).over:
            break
        seat = rng.choice(sorted(RULES.to_act(state)))
        actions = list(RULES.legal_actions(state, seat))
        assert actions, (state.step, seat)
        action = choose(rng, state, seat, actions)
        yield state, seat, action
        state = RULES.apply(state, action, seat)
    yield state, "", Pass()


def conserved(state: PrismaticState) -> None:
    """25 of each colour, 5 prismatic motes, 50 prisms, each card in exactly one place;
    with components=proxy (PX-I.29) proxies may add colour motes and prisms, never take
    any away, and the supply never falls below zero."""
    proxy = state.table.components == "proxy"
    for kind in KINDS:
        held = sum(
            p.bag.count(kind)
            + p.incoming.count(kind)
            + p.hand.count(kind)
            + p.committed_motes().count(kind)
            for p in state.players
        )
        total = held + state.supply.count(kind)
        if proxy and kind != "P":
            assert total >= 25, kind
        else:
            assert total == (5 if kind == "P" else 25), kind
    prisms = sum(p.prisms + p.committed_prisms() for p in state.players)
    assert state.supply_prisms >= 0
    assert prisms + state.supply_prisms >= 50 if proxy else prisms + state.supply_prisms == 50
    places = list(state.commons) + list(state.discard) + list(state.deck)
    for p in state.players:
        places += [h.name for h in p.progress + p.creation]
    assert sorted(places) == sorted(state.catalog.cards)
    assert len(state.commons) <= 3
    assert all(p.prisms >= 0 and p.palette_prisms >= 0 for p in state.players)
    for p in state.players:
        if p.pool:
            assert state.step == "resolve"
            assert state.resolving == p.seat


@WHOLE_GAMES
@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(20, 320))
def test_px_15_1_random_legal_play_round_trips_and_keeps_the_conservation_laws(
    seed: int, steps: int
) -> None:
    for state, seat, action in walk(seed, steps):
        conserved(state)
        if not seat:
            break
        text = RULES.notation(action)
        assert RULES.parse(text) == action, text
        verdict = RULES.check(state, action, seat)
        assert verdict.legal, (text, verdict)
        snapshot = msgspec.json.encode(state)
        after = RULES.apply(state, action, seat)
        assert msgspec.json.encode(state) == snapshot, "apply changed its input"
        assert after is not state


@WHOLE_GAMES
@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(0, 320))
def test_every_listed_action_passes_check_and_views_never_leak(seed: int, steps: int) -> None:
    *_, (state, _, _) = walk(seed, steps)
    for seat in sorted(RULES.to_act(state)):
        listed = RULES.legal_actions(state, seat)
        assert len(set(listed)) == len(listed)
        for action in listed[:60]:
            assert RULES.check(state, action, seat).legal
    out = RULES.outcome(state)
    if out.over:
        assert RULES.to_act(state) == frozenset()
        assert RULES.legal_actions(state) == []
        find_clause(str(out.clause), "prismatic")
        assert sorted(p.seat for p in out.ranking) == sorted(p.seat for p in state.players)
    for seat in [p.seat for p in state.players]:
        secrets = RULES.secrets(state, seat)
        for viewer in ["public"] + [p.seat for p in state.players if p.seat != seat]:
            shown = RULES.render(state, viewer) + json.dumps(RULES.observe(state, viewer))
            assert not any(s in shown for s in secrets)


@st.composite
def near_misses(draw: st.DrawFn) -> tuple[PrismaticState, str, PrismaticAction]:
    """A random position and a random entry built from its pieces, legal or not."""
    seed = draw(st.integers(0, 2**32 - 1))
    *_, (state, _, _) = walk(seed, draw(st.integers(0, 120)))
    seat = draw(st.sampled_from(sorted(p.seat for p in state.players)))
    cards = sorted(state.catalog.cards)[:12] + list(state.commons)
    motes = st.lists(st.sampled_from(KINDS), max_size=6).map(tuple)
    action = draw(
        st.one_of(
            st.builds(Reveal, st.sampled_from(cards)),
            st.builds(Keep, st.sampled_from(cards), st.sampled_from(cards)),
            motes.map(lambda m: DrawMotes(tuple(sorted(m, key=KINDS.index)))),
            st.builds(
                Commit,
                motes.map(lambda m: tuple(sorted(m, key=KINDS.index))),
                st.integers(0, 3),
                st.sampled_from(["palette", *cards]),
            ),
            st.builds(Create, st.sampled_from(cards)),
            st.builds(CreateBoard, st.sampled_from(sorted(state.catalog.methods))),
            st.builds(Use, st.sampled_from(cards)),
            st.builds(Bid, st.integers(0, 6)),
            st.just(Pass()),
        )
    )
    return state, seat, action


@pytest.mark.slow  # a property run of some seconds of CPU: the full suite's side (issue 34 item 8)
@SETTINGS
@given(near_misses())
def test_checking_any_entry_never_crashes_and_cites_a_real_clause(
    case: tuple[PrismaticState, str, PrismaticAction],
) -> None:
    state, seat, action = case
    verdict = RULES.check(state, action, seat)
    for violation in verdict.violations:
        find_clause(violation.clause, "prismatic")
        assert violation.reason
    if verdict.legal:
        conserved(RULES.apply(state, action, seat))

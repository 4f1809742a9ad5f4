"""Properties over random legal play (hypothesis): every listed entry passes check and reads
back from its notation (CR-N.6), apply never changes its input and keeps the invariants,
and no view shows a seat's secrets to another viewer (CR-3.8)."""

from __future__ import annotations

import json
import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.crystale import CrystaleState
from referee.games.crystale.model import HAND_LIMIT, HIT_BOX
from referee.games.crystale.position import max_hp
from tests.crystale.helpers import RULES, make_setup

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VARIANTS = st.sampled_from(
    [
        {},
        {"counterattack": "always"},
        {"bonus_mp": "within_cap", "start_mp": "zero"},
        {"promotion_hp": "keep_damage", "attack_after_move": "no", "trigger_order": "printed"},
        {"summon_sacrifice": "each", "counter_range": "in_range", "counter_fatigue": "once"},
        {"slot_phase": "promotion", "slot_earning": "again", "zero_strike": "hit"},
    ]
)


def _invariants(state: CrystaleState) -> None:
    tiles = [u.tile for u in state.units.values()]
    assert len(tiles) == len(set(tiles)), "CR-4.4: one unit per tile"
    assert all(uid < state.next_id for uid in state.units), "CR-N.3: ids come from the counter"
    for index, side in enumerate(state.sides):
        assert 0 <= side.mp <= side.mana_pool + side.bonus
        assert 0 <= side.hits <= HIT_BOX
        assert side.pool.count >= 0
        assert side.hand.count >= 0
        assert side.hand.known.total <= side.hand.count
        assert 0 <= side.slots_used <= side.slots_earned <= 3
        if side.knowledge is not None and side.knowledge.listed is not None:
            assert side.knowledge.listed.cards.contains(side.knowledge.seen)
        on_board = sum(1 for u in state.units.values() if u.seat == index)
        assert on_board + side.hand.count + side.pool.count + side.plane.total == 31, (
            "crystals are conserved"
        )
        if state.phase == "main" and state.active == index:
            assert (
                side.hand.count <= HAND_LIMIT + 1 + 3
            )  # at most a pull and slot pulls over the limit
    for unit in state.units.values():
        if not unit.summoner:
            assert 0 < unit.hp <= max_hp(state, unit)


@SETTINGS
@given(seed=st.integers(0, 2**31), variants=VARIANTS, plies=st.integers(10, 250))
def test_random_legal_play(seed: int, variants: dict[str, str], plies: int) -> None:
    rng = random.Random(seed)
    state = RULES.initial_state(make_setup(tiles=None, variants=variants, options={"seed": seed}))  # type: ignore[arg-type]
    for _ in range(plies):
        if RULES.outcome(state).over:
            assert RULES.legal_actions(state) == []
            assert RULES.to_act(state) == frozenset()
            break
        seat = rng.choice(sorted(RULES.to_act(state)))
        actions = list(RULES.legal_actions(state, seat))
        assert actions, RULES.render(state)
        for action in actions:
            assert RULES.check(state, action, seat).legal, RULES.notation(action)
            assert RULES.parse(RULES.notation(action)) == action
        fights = [a for a in actions if type(a).__name__ in ("Attack", "Summon", "Move", "Cast")]
        action = rng.choice(fights) if fights and rng.random() < 0.6 else rng.choice(actions)
        before = msgspec.json.encode(state)
        after = RULES.apply(state, action, seat)
        assert msgspec.json.encode(state) == before, "apply changed its input"
        _invariants(after)
        state = after
    for owner in RULES.seats:
        for viewer in ("public", *[s for s in RULES.seats if s != owner]):
            shown = json.dumps(RULES.observe(state, viewer)) + RULES.render(state, viewer)
            assert not [s for s in RULES.secrets(state, owner) if s in shown]


@SETTINGS
@given(st.text(max_size=40))
def test_cr_n_1_parse_either_reads_or_names_a_notation_clause(text: str) -> None:
    from referee.errors import ActionSyntaxError

    try:
        action = RULES.parse(text)
    except ActionSyntaxError as exc:
        assert exc.clause.startswith("CR-N.")
        return
    assert RULES.parse(RULES.notation(action)) == action

"""Property tests over random reachable positions (Hypothesis).

Besides self-consistency (notation round trip, check versus legal_actions,
immutability) these compare the engine with the independent reference model of
``tests/prizmik/reference.py`` for move generation (PZ-4, PZ-5, PZ-6), every action's
effect and promotion (PZ-7) and the endings (PZ-8, PZ-10.6 to PZ-10.15).
"""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.prizmik import PrizmikAction, PrizmikState
from referee.games.prizmik.engine import count_pieces
from referee.rulebook import find_clause
from tests.prizmik import reference as ref
from tests.prizmik.helpers import RULES, random_states
from tests.prizmik.oracle import agree, table_of

VARIANTS = st.sampled_from(
    [
        {},
        {"fleet_capturable": "no"},
        {"setup_files": "bdf"},
        {"setup_files": "adh", "no_legal_action": "draw"},
        {"far_rank_step": "no", "impossible_test": "files", "quiet_limit": "60"},
        {"waiting_promotion": "yes"},
        {"waiting_promotion": "yes", "far_rank_step": "no", "fleet_capturable": "no"},
    ]
)
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw: st.DrawFn) -> PrizmikState:
    """A position reached by random legal play from a (variant) start."""
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(0, 160))
    variants = draw(VARIANTS)
    return random_states(seed, plies, **variants)[-1]


ACTIONS = st.builds(
    PrizmikAction,
    st.sampled_from(["deploy", "move", "capture"]),
    st.integers(0, 63),
    st.integers(0, 63),
)


@SETTINGS
@given(positions())
def test_pz_9_3_parse_of_notation_round_trips_for_legal_actions(state: PrizmikState) -> None:
    for action in RULES.legal_actions(state):
        text = RULES.notation(action)
        assert text == text.lower()
        assert " " not in text
        assert RULES.parse(text) == action


@pytest.mark.slow  # a property run of some seconds of CPU: the full suite's side (issue 34 item 8)
@SETTINGS
@given(positions(), st.randoms(use_true_random=False))
def test_pz_9_3_case_and_space_tolerance(state: PrizmikState, rnd: random.Random) -> None:
    for action in RULES.legal_actions(state)[:20]:
        text = RULES.notation(action)
        noisy = "".join(
            (ch.upper() if rnd.random() < 0.5 else ch) + (" " * rnd.randint(0, 2)) for ch in text
        )
        assert RULES.parse(" " + noisy) == action


@SETTINGS
@given(positions(), st.lists(ACTIONS, min_size=1, max_size=40))
def test_pz_1_3_check_and_legal_actions_agree(
    state: PrizmikState, candidates: list[PrizmikAction]
) -> None:
    legal = RULES.legal_actions(state)
    assert len(set(legal)) == len(legal)
    for action in legal:
        assert RULES.check(state, action).legal, action
    listed = set(legal)
    for action in candidates:
        verdict = RULES.check(state, action)
        assert verdict.legal == (action in listed), (str(action), verdict)
        if not verdict.legal:
            violation = verdict.violations[0]
            find_clause(violation.clause, "prizmik")  # the clause exists
            assert violation.reason


@SETTINGS
@given(positions())
def test_pz_6_1_engine_agrees_with_the_reference_model(state: PrizmikState) -> None:
    if RULES.outcome(state).over:
        assert RULES.legal_actions(state) == []
        assert RULES.to_move(state) is None
        return
    model = ref.read_line(RULES.position_text(state), table_of(state.variants.as_dict()))
    agree(state, model, "before")
    for text in sorted(ref.actions(model)):
        after = RULES.apply(state, RULES.parse(text))
        agree(after, ref.play(model, text), text)
        assert (after.bases, after.ships, after.fighters) == count_pieces(after.board)


@SETTINGS
@given(positions())
def test_apply_never_mutates_its_input(state: PrizmikState) -> None:
    snapshot = msgspec.json.encode(state)
    board = state.board
    for action in RULES.legal_actions(state)[:15]:
        after = RULES.apply(state, action)
        assert after is not state
        assert after.board != board
    assert msgspec.json.encode(state) == snapshot
    assert state.board is board


@SETTINGS
@given(positions())
def test_outcome_and_to_move_are_consistent(state: PrizmikState) -> None:
    out = RULES.outcome(state)
    if out.over:
        assert RULES.to_move(state) is None
        assert out.clause is not None
        find_clause(out.clause, "prizmik")
    else:
        assert RULES.to_move(state) == state.turn
        assert RULES.legal_actions(state)
    assert RULES.observe(state)["result"] == out.result


@SETTINGS
@given(positions())
def test_pz_1_4_near_misses_are_judged_like_legal_actions_list_them(state: PrizmikState) -> None:
    """Every kind of action from every own piece to every square within two steps."""
    listed = set(RULES.legal_actions(state))
    side_letters = "FBSHX" if state.turn == "red" else "fbshx"
    for o, ch in enumerate(state.board):
        if ch not in side_letters:
            continue
        for t in range(64):
            if max(abs(t % 8 - o % 8), abs(t // 8 - o // 8)) > 2:
                continue
            for kind in ("deploy", "move", "capture"):
                action = PrizmikAction(kind, o, t)
                verdict = RULES.check(state, action)
                assert verdict.legal == (action in listed), (str(action), verdict)

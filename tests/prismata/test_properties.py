"""Properties over random legal play (hypothesis): apply never mutates its input, every listed
action checks legal and round-trips through the notation (PM-N.2), simple actions are legal
exactly when listed, a rejected check changes nothing, and replaying the log from the first
position (and through JSON) rebuilds the same position."""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.contract import Setup
from referee.games.prismata import (
    Block,
    Breach,
    Buy,
    Click,
    End,
    PrismataAction,
    PrismataState,
    Strike,
)
from referee.games.prismata.catalog import load_catalog
from tests.prismata.helpers import PLAYERS, RULES

_DECODE = msgspec.json.Decoder(PrismataState)
_ACTION = msgspec.json.Decoder(RULES.action_type)


def _simple_candidates(state: PrismataState) -> list[PrismataAction]:
    """Actions without choices of consumed units or targets, for the completeness check."""
    cat = load_catalog(state.ruleset)
    out: list[PrismataAction] = [End()]
    for name in state.supply:
        if not cat.units[name].consume:
            out.append(Buy(name))
    for u in state.units.values():
        utype = cat.units[u.kind]
        if u.owner == state.active:
            out.append(Block(u.id))
            ability = utype.click
            if (
                ability is not None
                and not ability.consume
                and ability.target is None
                and not ability.effect.destroy
            ):
                out.append(Click(u.id))
        else:
            out.append(Breach(u.id))
            out.append(Strike(u.id))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    ruleset=st.sampled_from(["prismata/2026-03", "prismata/2020"]),
    size=st.sampled_from([5, 8]),
    picks=st.lists(st.integers(0, 2**16), min_size=20, max_size=160),
)
def test_random_legal_play(seed: int, ruleset: str, size: int, picks: list[int]) -> None:
    setup = RULES.resolve_setup(
        Setup(players=PLAYERS, ruleset=ruleset, options={"seed": seed, "random_size": size})
    )
    first = RULES.initial_state(setup)
    state = first
    log: list[str] = []
    for pick in picks:
        actions = list(RULES.legal_actions(state))
        if not actions:
            assert RULES.outcome(state).over
            break
        for a in actions:
            assert RULES.check(state, a).legal, (RULES.notation(a), RULES.check(state, a))
            text = RULES.notation(a)
            assert RULES.parse(text) == a
            assert _ACTION.decode(msgspec.json.encode(a)) == a
        listed = set(actions)
        for a in _simple_candidates(state):
            assert RULES.check(state, a).legal == (a in listed), RULES.notation(a)
        # make progress: end the phase a quarter of the time when possible
        if pick % 4 == 0 and End() in listed:
            action: PrismataAction = End()
        else:
            action = actions[pick % len(actions)]
        before = msgspec.json.encode(state)
        bogus = Click(state.next_id + 5)
        assert not RULES.check(state, bogus).legal
        nxt = RULES.apply(state, action)
        assert msgspec.json.encode(state) == before, "apply changed its input"
        log.append(RULES.notation(action))
        state = nxt
    replayed = first
    for text in log:
        replayed = RULES.apply(replayed, RULES.parse(text))
    assert replayed == state
    assert _DECODE.decode(msgspec.json.encode(state)) == state
    assert isinstance(RULES.render(state), str)
    assert RULES.observe(state)["to_move"] == RULES.to_move(state)

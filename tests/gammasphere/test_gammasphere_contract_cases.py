"""The contract cases replayed through the pure rules, so a mistake in a script shows here
first: each ``Act`` is legal, each ``Reject`` fails citing its clause and changes nothing,
each ``Adjust`` fits, and each ``OpenDeck`` opens or fails as the case says."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from referee.contract import Player, Setup
from referee.kit.adjustments import parse_adjustment
from referee.kit.decks import Deck, seal
from referee.verdicts import Verdict
from tests.contract.cases import Act, Adjust, ContractCase, OpenDeck, Reject
from tests.gammasphere.contract import CASES
from tests.gammasphere.helpers import RULES


def start(case: ContractCase) -> Any:
    options = {
        k: RULES.setup_fields[[f.key for f in RULES.setup_fields].index(k)].convert(v)
        for k, v in case.options.items()
    }
    setup = RULES.resolve_setup(
        Setup(
            players=tuple(Player(s, n) for s, n in case.players.items()),
            ruleset=case.ruleset,
            variants=dict(case.variants),
            options=options,
        )
    )
    decks: dict[str, Deck] = dict(case.decks)
    for seat, (decklist, salt) in case.sealed.items():
        decks[seat] = seal(decklist, salt)
    for seat, deck in case.decks.items():
        assert RULES.check_deck(setup, seat, deck).legal
    return RULES.initial_state(msgspec.structs.replace(setup, decks=decks)), setup


def seat_of(state: Any, seat: str | None) -> str:
    if seat is not None:
        return seat
    mover = RULES.to_move(state)
    assert mover is not None
    return mover


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_contract_case_plays_as_scripted(case: ContractCase) -> None:
    state, setup = start(case)
    awaiting = False
    for step in case.steps:
        if isinstance(step, Act):
            assert not awaiting, f"a ruling is awaited before {step.text}"
            seat = seat_of(state, step.seat)
            assert seat in RULES.to_act(state), step
            verdict = RULES.check(state, RULES.parse(step.text), seat)
            assert verdict.legal, (step.text, verdict.violations)
            awaiting = bool(verdict.rulings)
            state = RULES.apply(state, RULES.parse(step.text), seat)
        elif isinstance(step, Reject):
            seat = seat_of(state, step.seat)
            verdict = RULES.check(state, RULES.parse(step.text), seat)
            assert not verdict.legal, (
                step,
                verdict,
            )
            assert verdict.violations[0].clause == step.clause, (
                step,
                verdict,
            )
        elif isinstance(step, Adjust):
            assert awaiting or step.changes
            for change in parse_adjustment(step.changes):
                assert RULES.check_change(state, change).legal, (
                    step,
                    RULES.check_change(state, change),
                )
                state = RULES.apply_change(state, change)
            awaiting = False
        else:
            assert isinstance(step, OpenDeck)
            decklist, salt = case.sealed[step.seat]
            knowledge = RULES.deck_knowledge(state, step.seat)
            assert knowledge is not None
            verdict = knowledge.check_open(decklist, salt, "REF-5.3")
            verdict = Verdict(
                verdict.violations + RULES.check_deck(setup, step.seat, decklist).violations
            )
            if step.clause is None:
                assert verdict.legal, verdict
                state = RULES.with_deck_knowledge(state, step.seat, knowledge.opened(decklist))
            else:
                assert verdict.violations[0].clause == step.clause
    assert not awaiting


def test_the_cases_use_every_kind_of_entry_and_step() -> None:
    verbs = {
        RULES.parse(s.text).__class__.__name__ for c in CASES for s in c.steps if isinstance(s, Act)
    }
    assert verbs == {"Draw", "Play", "Construct", "Attack", "Switch", "Activate", "Discard", "End"}
    kinds = {type(s).__name__ for c in CASES for s in c.steps}
    assert kinds == {"Act", "Reject", "Adjust", "OpenDeck"}
    assert any(c.sealed for c in CASES)
    assert any(c.decks for c in CASES)
    assert any(isinstance(c.options.get("catalog"), str) for c in CASES)

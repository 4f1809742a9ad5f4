"""The contract cases hold up under the rules alone: every Act is legal in sequence, every
Reject cites its clause, the adjustment and the sealed opening fit (REF-1.5, REF-5.3, REF-6.3),
and no view shows a seat's secrets to anyone else."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.contract import Player, Setup
from referee.kit.adjustments import parse_adjustment
from referee.kit.decks import Deck, seal
from referee.procedure import judge
from tests.contract.cases import Act, Adjust, ContractCase, OpenDeck, Reject
from tests.crystale.contract import CASES
from tests.crystale.helpers import RULES


def _options(case: ContractCase) -> dict[str, Any]:
    fields = {f.key: f for f in RULES.setup_fields}
    return {key: fields[key].convert(value) for key, value in case.options.items()}


def _leaks(state: Any) -> list[str]:
    found = []
    for owner in RULES.seats:
        for viewer in ("public", *[s for s in RULES.seats if s != owner]):
            shown = json.dumps(RULES.observe(state, viewer)) + RULES.render(state, viewer)
            found += [
                f"{viewer} sees {owner}'s {s}" for s in RULES.secrets(state, owner) if s in shown
            ]
    return found


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_ref_1_5_contract_case_plays_through_the_rules(case: ContractCase) -> None:
    decks: dict[str, Deck] = dict(case.decks)
    decks.update({seat: seal(deck, salt) for seat, (deck, salt) in case.sealed.items()})
    players = tuple(Player(seat, name) for seat, name in case.players.items())
    setup = RULES.resolve_setup(
        Setup(
            players=players,
            ruleset=case.ruleset,
            variants=dict(case.variants),
            options=_options(case),
            decks=decks,
        )
    )
    for seat, deck in case.decks.items():
        assert RULES.check_deck(setup, seat, deck).legal
    state = RULES.initial_state(setup)
    pending = False
    kinds = set()
    for step in case.steps:
        kinds.add(type(step).__name__)
        if isinstance(step, Act | Reject):
            assert not pending, "a ruling is awaited (REF-6.2)"
            judged = judge(RULES, state, step.text, step.seat)
            assert not judged.refused, step
            if isinstance(step, Reject):
                assert step.clause in {v.clause for v in judged.verdict.violations}, (
                    step,
                    judged.verdict,
                )
                continue
            assert judged.verdict.legal, (step, judged.verdict.explain())
            pending = bool(judged.verdict.rulings)
            assert judged.action is not None
            state = RULES.apply(state, judged.action, judged.seat)
        elif isinstance(step, Adjust):
            assert pending
            for change in parse_adjustment(step.changes):
                assert RULES.check_change(state, change).legal, step
                state = RULES.apply_change(state, change)
            pending = False
        else:
            assert isinstance(step, OpenDeck)
            decklist, salt = case.sealed[step.seat]
            knowledge = RULES.deck_knowledge(state, step.seat)
            assert knowledge is not None
            assert knowledge.check_open(decklist, salt, "REF-5.3").legal
            state = RULES.with_deck_knowledge(state, step.seat, knowledge.opened(decklist))
        assert _leaks(state) == []
    assert {"Act", "Reject"} <= kinds
    if case.name == "three hits":
        assert "Adjust" in kinds
        assert RULES.outcome(state).clause == "CR-13.1"
    if case.name == "own catalog forfeit":
        assert RULES.outcome(state).clause == "CR-6.3"

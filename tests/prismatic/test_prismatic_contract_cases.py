"""The contract cases in ``tests/prismatic/contract.py`` play through the shared procedure.

The contract suite runs them through the application layer and the store; this test
runs the same steps through ``referee.procedure.judge`` and the kit's adjustments,
so a broken case shows up here first: every ``Act`` is legal where it stands, every
``Reject`` cites its clause and changes nothing, and a ruling is answered by the
next ``Adjust`` before any other entry (REF-6.2).
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from referee.contract import Player, Setup
from referee.kit.adjustments import parse_adjustment
from referee.procedure import judge
from tests.contract.cases import Act, Adjust, ContractCase, OpenDeck, Reject
from tests.prismatic.contract import CASES
from tests.prismatic.helpers import RULES


def run(case: ContractCase) -> tuple[Any, set[str]]:
    fields = {f.key: f for f in RULES.setup_fields}
    options = {k: fields[k].convert(v) for k, v in case.options.items()}
    setup = RULES.resolve_setup(
        Setup(
            players=tuple(Player(s, n) for s, n in case.players.items()),
            ruleset=case.ruleset,
            variants=dict(case.variants),
            options=options,
        )
    )
    stored = msgspec.json.decode(msgspec.json.encode(setup.options))  # as the store keeps it
    state = RULES.initial_state(msgspec.structs.replace(setup, options=stored))
    kinds: set[str] = set()
    awaiting: str | None = None
    for number, step in enumerate(case.steps, start=1):
        where = f"{case.name}, step {number}: {step}"
        if isinstance(step, Adjust):
            assert awaiting == step.card, where
            for change in parse_adjustment(step.changes):
                assert RULES.check_change(state, change).legal, where
                state = RULES.apply_change(state, change)
            awaiting = None
            kinds.add("adjust")
            continue
        assert not isinstance(step, OpenDeck), "Prismatic registers no decks"
        assert awaiting is None, f"{where}: a ruling on {awaiting} is awaited"
        judged = judge(RULES, state, step.text, step.seat)
        assert not judged.refused, where
        if isinstance(step, Reject):
            assert not judged.verdict.legal, (where, judged.verdict)
            assert judged.verdict.violations[0].clause == step.clause, (where, judged.verdict)
            kinds.add("reject")
            continue
        assert isinstance(step, Act)
        assert judged.verdict.legal, (where, judged.verdict.explain())
        assert judged.action is not None, (where, judged.verdict.explain())
        assert RULES.parse(RULES.notation(judged.action)) == judged.action
        if len(RULES.to_act(state)) > 1:
            kinds.add("simultaneous")
        if judged.verdict.rulings:
            awaiting = judged.verdict.rulings[0].card
        kinds.add(type(judged.action).__name__)
        state = RULES.apply(state, judged.action, judged.seat)
        for viewer in ["public", *case.players]:
            shown = RULES.render(state, viewer) + json.dumps(RULES.observe(state, viewer))
            for seat in case.players:
                if seat != viewer:
                    assert not any(s in shown for s in RULES.secrets(state, seat)), where
    assert awaiting is None
    return state, kinds


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_contract_case_plays_legally_through_the_procedure(case: ContractCase) -> None:
    run(case)


def test_contract_cases_exercise_every_entry_kind() -> None:
    kinds: set[str] = set()
    for case in CASES:
        kinds |= run(case)[1]
    assert kinds >= {
        "Reveal",
        "Choose",
        "Keep",
        "DrawMotes",
        "Commit",
        "Pass",
        "Create",
        "CreateBoard",
        "Use",
        "Take",
        "Decline",
        "Bid",
        "Forgo",
        "Colours",
        "reject",
        "adjust",
        "simultaneous",
    }


def test_the_three_player_case_reaches_the_final_score() -> None:
    state, _ = run(CASES[0])
    out = RULES.outcome(state)
    assert out.over
    assert out.result == "p1>p2>p3"
    assert [p.score for p in out.ranking] == [5.0, 4.0, 3.0]
    rejected = {s.clause for s in CASES[0].steps if isinstance(s, Reject)}
    assert rejected == {"PX-3.5", "PX-5.4", "PX-7.2", "PX-9.5"}


def test_the_colours_case_ends_with_a_shared_place() -> None:
    state, _ = run(CASES[2])
    assert RULES.outcome(state).result == "p1>p3>p2=p4"

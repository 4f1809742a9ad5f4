"""What the Gammasphere contract cases cover together (the contract suite plays each
through the rules alone, ``play_case``, and through the store): every kind of entry and
of step, open and sealed lists, a table's own catalog."""

from __future__ import annotations

from tests.contract.cases import Act
from tests.gammasphere.contract import CASES
from tests.gammasphere.helpers import RULES


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

"""The entry notation (GS-N): every form, its canonical text, and names that hold the marks of
an entry; text as typed and text that is no entry are the contract suite's rows
(tests/contract/test_notation.py)."""

from __future__ import annotations

import pytest

from referee.errors import ActionSyntaxError
from referee.games.gammasphere import Activate, Attack, Construct, Discard, Draw, End, Play, Switch
from tests.gammasphere.helpers import RULES

FORMS = [
    ("draw", Draw(1)),
    ("draw 7", Draw(7)),
    ("play Gamma Trooper", Play("Gamma Trooper")),
    ("play Shale Golem (defense)", Play("Shale Golem", "defense")),
    ("play Shale Golem (attack)", Play("Shale Golem", "attack")),
    ("play Plasma Blade on #4", Play("Plasma Blade", "", 4)),
    ("play Mirror Adept (defense) on #12", Play("Mirror Adept", "defense", 12)),
    ("construct Pylon", Construct("Pylon")),
    ("attack #4 #9", Attack(4, 9)),
    ("attack #4 direct", Attack(4, 0)),
    ("switch #4 defense", Switch(4, "defense")),
    ("switch #4 attack", Switch(4, "attack")),
    ("activate #7", Activate(7)),
    ("activate #7 on #9", Activate(7, 9)),
    ("discard Solar Flare", Discard("Solar Flare")),
    ("end", End()),
]


@pytest.mark.parametrize(("text", "action"), FORMS, ids=[t for t, _ in FORMS])
def test_gs_n_1_every_entry_form_reads_and_writes_back_exactly(text: str, action: object) -> None:
    assert RULES.parse(text) == action
    assert RULES.notation(RULES.parse(text)) == text


@pytest.mark.parametrize("text", ["play Hut #2", "discard Hut (old", "construct Pylon;"])
def test_gs_n_2_names_cannot_hold_the_marks_that_shape_an_entry(text: str) -> None:
    with pytest.raises(ActionSyntaxError) as caught:
        RULES.parse(text)
    assert caught.value.clause == "GS-N.2"


def test_gs_n_2_a_target_is_read_only_after_on_and_a_hash() -> None:
    assert RULES.parse("play Hut on 4") == Play("Hut on 4")
    assert RULES.parse("play Hut on #4") == Play("Hut", "", 4)


def test_gs_n_3_the_mode_comes_before_the_target_in_the_canonical_form() -> None:
    action = Play("Ion Lancer", "defense", 3)
    assert RULES.notation(action) == "play Ion Lancer (defense) on #3"
    assert RULES.parse("play Ion Lancer (defense) on #3") == action


def test_actions_encode_to_json_and_back() -> None:
    import msgspec

    for _, action in FORMS:
        data = msgspec.json.encode(action)
        assert RULES.decode_action(data) == action

"""Notation: reading and writing actions and position strings (PZ-9); text as typed and
text that is no entry are the contract suite's rows (tests/contract/test_notation.py)."""

from __future__ import annotations

import random
import re

import pytest

from referee.contract import Setup
from referee.errors import ActionSyntaxError, SetupError
from referee.games.prizmik import PrizmikAction
from referee.rulebook import load_rulebook
from tests.contract.test_notation import READ_LOOSELY
from tests.prizmik.helpers import PLAYERS, ROOT, RULES, setup, start


def setup_with_position(text: str) -> Setup:
    """A table that starts from the position string ``text``."""
    return Setup(players=PLAYERS, options={"position": text})


@pytest.mark.parametrize(
    ("text", "kind", "origin", "target"),
    [
        ("c1>c2", "deploy", 2, 10),
        ("c2-c4", "move", 10, 26),
        ("c4xd5", "capture", 26, 35),
        ("a1-h8", "move", 0, 63),
        ("h8xa1", "capture", 63, 0),
    ],
)
def test_pz_9_2_signs_name_the_action_kind(text: str, kind: str, origin: int, target: int) -> None:
    action = RULES.parse(text)
    assert action == PrizmikAction(kind, origin, target)  # type: ignore[arg-type]
    assert RULES.notation(action) == text
    assert str(action) == text


def test_pz_9_1_non_text_is_rejected() -> None:
    with pytest.raises(ActionSyntaxError):
        RULES.parse(42)  # type: ignore[arg-type]


def test_pz_9_1_parse_accepts_any_well_formed_action_and_leaves_legality_to_check() -> None:
    action = RULES.parse("a1xh8")
    v = RULES.check(start(), action)
    assert not v.legal
    assert v.violations[0].clause == "PZ-1.4"


def test_pz_9_3_notation_of_a_malformed_action_raises() -> None:
    with pytest.raises(ValueError, match="not a PRIZMIK action"):
        RULES.notation(PrizmikAction("move", 64, 0))
    assert "malformed" in str(PrizmikAction("jump", 1, 2))  # type: ignore[arg-type]


def test_check_explains_out_of_range_squares() -> None:
    v = RULES.check(start(), PrizmikAction("move", 64, 3))
    assert v.violations[0].clause == "PZ-9.1"
    v = RULES.check(start(), PrizmikAction("move", "c2", "c4"))  # type: ignore[arg-type]
    assert v.violations[0].clause == "PZ-9.1"


def test_parse_cache_returns_same_object_repeatedly() -> None:
    """PZ-9.3: text as typed is the same action as its canonical form, the same object."""
    first = RULES.parse(" E2 - e4 ")
    assert RULES.parse(" E2 - e4 ") is first
    assert RULES.parse("e2-e4") is first
    for typed, canonical in READ_LOOSELY["prizmik"].items():
        assert RULES.parse(typed) is RULES.parse(canonical)


def test_every_clause_the_package_names_is_in_the_rulebook() -> None:
    """The shared guard reads only quoted ids; docstrings and reasons cite clauses too
    (``read_position`` names PZ-9.5), and each must exist."""
    package = ROOT / "referee" / "games" / "prizmik"
    named = set()
    for path in package.glob("*.py"):
        named |= set(re.findall(r"PZ-\d+\.\d+", path.read_text(encoding="utf-8")))
    assert "PZ-9.5" in named
    book = load_rulebook("prizmik")
    for clause_id in sorted(named):
        book.get(clause_id)


START_TEXT = "2f1f1f1/8/8/8/8/8/8/2F1F1F1 r 3/3 0 0"


def test_pz_9_5_the_start_as_a_position_string_and_back() -> None:
    state = start()
    assert RULES.position_text(state) == START_TEXT
    assert RULES.read_position(START_TEXT, setup()) == state
    assert RULES.start(setup_with_position(START_TEXT)) == state


def test_pz_9_5_position_strings_round_trip_through_random_games() -> None:
    rng = random.Random(95)
    for variants in ({}, {"fleet_capturable": "no", "quiet_limit": "20"}):
        table = setup(**variants)
        state = RULES.initial_state(table)
        for _ in range(200):
            text = RULES.position_text(state)
            assert RULES.read_position(text, table) == state, text
            actions = RULES.legal_actions(state)
            if not actions:
                break
            state = RULES.apply(state, rng.choice(actions))


def test_pz_9_5_a_position_string_carries_turn_reserves_ply_and_quiet_count() -> None:
    text = "7b/8/3x4/8/8/2S5/8/B6h b 1/0 41 7"
    state = RULES.read_position(text, setup())
    assert state.turn == "blue"
    assert state.reserves == (1, 0)
    assert (state.ply, state.quiet) == (41, 7)
    assert state.board[0] == "B"
    assert state.board[7] == "h"
    assert state.board[18] == "S"
    assert state.board[43] == "x"
    assert state.board[63] == "b"
    assert RULES.position_text(state) == text


@pytest.mark.parametrize(
    "text",
    [
        "2f1f1f2/8/8/8/8/8/8/2F1F1F2 r 3/3 0",  # a field missing
        "2f1f1f2/8/8/8/8/8/2F1F1F2 r 3/3 0 0",  # seven ranks
        "2f1f1f2/8/8/8/8/8/8/2F1F1F1 r 3/3 0 0",  # nine squares on rank 8
        "2f1f1f2/8/8/8/8/8/8/2F1F1F2 g 3/3 0 0",  # no such side
        "2f1f1f2/8/8/8/8/8/8/2F1F1F2 r 3 0 0",  # one reserve count
        "2f1f1f2/8/8/8/8/8/8/2F1F1F2 r -1/3 0 0",  # a negative count
        "2z1f1f2/8/8/8/8/8/8/2F1F1F2 r 3/3 0 0",  # not a piece letter
        "8/8/8/8/8/8/8/8 r 3/3 0 0",  # nobody has a base
        "2f1f1f1/8/8/44/8/8/8/2F1F1F1 r 3/3 0 0",  # one run of empty squares written as two
        "2f1f1f1/8/8/08/8/8/8/2F1F1F1 r 3/3 0 0",  # a run of no squares
        "2f1f1f1/8/8/9/8/8/8/2F1F1F1 r 3/3 0 0",  # a run longer than a rank
        "2f1f1f1/8/8/8/8/8/8/2F1F1F1 r 3/3 0 \u00b2",  # a superscript two, not a number
        "2f1f1f1/8/8/8/8/8/8/2F1F1F1 r \u00b3/3 0 0",  # a superscript three as a reserve
        "2f1f1f1/8/8/8/8/8/8/2F1F1F1 r 3/3 0 \u0663",  # an Arabic-Indic three
        "2f1f1f1/8/8/8/8/8/8/2F1F1F\u00b9 r 3/3 0 0",  # a superscript one as a run
    ],
)
def test_pz_9_5_malformed_position_strings_are_refused(text: str) -> None:
    """PZ-9.5: a string not of the shape is refused with a SetupError naming the clause (never
    another exception); runs of empty squares are single digits 1-8 and the counts are
    written in the digits 0-9."""
    with pytest.raises(SetupError) as refused:
        RULES.read_position(text, setup())
    assert "(PZ-9.5)" in str(refused.value)


def test_pz_9_5_the_example_a_refusal_gives_is_itself_readable() -> None:
    """The reason for a malformed string quotes a model string; that model must be one."""
    with pytest.raises(SetupError) as refused:
        RULES.read_position("nonsense", setup())
    example = re.search(r"'([^']+)'", str(refused.value))
    assert example is not None
    assert RULES.read_position(example.group(1), setup()) == start()

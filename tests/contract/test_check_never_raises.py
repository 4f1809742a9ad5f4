"""No input breaks a game with an exception (issue 22 §2): against every position of every
game's contract cases, any referee adjustment is answered by ``check_change`` with a
verdict (REF-6.3), a change it allows is carried out by ``apply_change``, and any entry
text is read by ``read_entry`` or refused with ``ActionSyntaxError`` and then judged by
``check`` with a verdict."""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import games
from referee.capabilities import AdjustmentRules, adjustments_of
from referee.errors import ActionSyntaxError, AdjustmentSyntaxError
from referee.kit import adjustments
from referee.verdicts import Verdict
from tests.contract.test_contract import CASES, played_once

FUZZ = settings(
    max_examples=int(os.environ.get("REFEREE_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
GAMES = sorted({p.values[0].game for p in CASES if p.values[0] is not None})


@cache
def positions(game: str, folder: Path) -> tuple[list[Any], list[str]]:
    """Every position the game's contract cases pass through (as the contract suite played
    them, once a session), and words seen in them (card names, unit ids, seats), as material
    for changes and entries."""
    states: list[Any] = []
    words: set[str] = set()
    rules = games.load(game)
    for param in CASES:
        case = param.values[0]
        if case is None or case.game != game:
            continue
        states.extend(played_once(case, folder).states)
        for step in case.steps:
            words.update(getattr(step, "text", getattr(step, "changes", "")).split())
    for state in states[:: max(1, len(states) // 8)]:
        for action in list(rules.legal_actions(state))[:40]:
            words.update(rules.notation(action).split())
    names = {w.strip(",;()") for w in words} - {""}
    return states, sorted(names)


SEATS = ["p1", "p2", "p3", "p4", "red", "blue", "nobody"]
ZONES = ["hand", "deck", "discard", "field", "pool", "plane", "common", "progress"]
ZONES += ["creation", "bag", "u1", "u3", "c3", "a1", "nowhere"]
STATS = ["attack", "defense", "level", "hp", "atk", "rank", "water", "fire", "x"]
RESOURCES = ["gas", "power", "jiggawatts", "mp", "hits", "slots", "prisms", "red", "R"]
RESOURCES += ["pool-red", "palette-prisms", "palette-G", "score", "x"]


def changes(names: list[str]) -> st.SearchStrategy[adjustments.Change]:
    name = st.sampled_from(names or ["x"]) | st.sampled_from(["#1", "#2", "#40", "u2", "u40"])
    card = name | st.lists(st.sampled_from(names or ["x"]), min_size=2, max_size=3).map(" ".join)
    seat = st.sampled_from(SEATS)
    zone = st.sampled_from(ZONES)
    amount = st.integers(-5000, 5000)
    return st.one_of(
        st.builds(adjustments.MoveCard, seat, zone, zone, st.none() | card),
        st.builds(adjustments.ChangeStat, name, st.sampled_from(STATS), amount, st.booleans()),
        st.builds(adjustments.ChangeResource, seat, st.sampled_from(RESOURCES), amount),
        st.builds(adjustments.Tap, name),
        st.builds(adjustments.Untap, name),
        st.builds(adjustments.Destroy, name),
        st.builds(adjustments.DrawCards, seat, st.integers(1, 60)),
    )


def _adjustable(
    game: str, tmp_path_factory: pytest.TempPathFactory
) -> tuple[AdjustmentRules[Any], list[Any], list[str]]:
    """The game's adjustment rules (the test skipped for a game that takes none), and the
    positions and names its played games give."""
    rules = adjustments_of(games.load(game))
    if rules is None:
        pytest.skip(f"{game} takes no adjustments (REF-6.3)")
    states, names = positions(game, tmp_path_factory.getbasetemp())
    return rules, states, names


def _checked_in_turn(
    rules: AdjustmentRules[Any], state: Any, changes: Iterable[adjustments.Change]
) -> None:
    """Each change checked, then applied, until one is refused: every check answers a
    verdict, and a refusal names a clause and a reason (no internal error text)."""
    for change in changes:
        verdict = rules.check_change(state, change)
        assert isinstance(verdict, Verdict)
        for violation in verdict.violations:
            assert violation.clause
            assert violation.reason
            assert "tuple.index" not in violation.reason
        if not verdict.legal:
            return
        state = rules.apply_change(state, change)


@pytest.mark.parametrize("game", GAMES)
def test_check_change_answers_every_change_with_a_verdict(
    game: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    rules, states, names = _adjustable(game, tmp_path_factory)
    some_changes = st.lists(changes(names), min_size=1, max_size=3)  # built once, drawn often

    @FUZZ
    @given(st.sampled_from(states), st.data())
    def run(state: Any, data: st.DataObject) -> None:
        _checked_in_turn(rules, state, data.draw(some_changes))

    run()


@pytest.mark.parametrize("game", GAMES)
def test_adjustment_text_is_read_or_refused_and_then_checked(
    game: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    rules, states, names = _adjustable(game, tmp_path_factory)
    word = st.sampled_from(
        [
            "move",
            "stat",
            "resource",
            "tap",
            "untap",
            "destroy",
            "draw",
            ">",
            "+",
            "-",
            "=",
            *SEATS,
            *ZONES,
            *STATS,
            *RESOURCES,
            *names,
            "#1",
            "#40",
            "300",
            "2",
            ";",
        ]
    )

    @FUZZ
    @given(st.sampled_from(states), st.lists(word, min_size=1, max_size=6).map(" ".join))
    def run(state: Any, text: str) -> None:
        try:
            parsed = adjustments.parse_adjustment(text)
        except AdjustmentSyntaxError:
            return
        _checked_in_turn(rules, state, parsed)

    run()


@pytest.mark.parametrize("game", GAMES)
def test_every_entry_is_read_or_refused_and_every_reading_gets_a_verdict(
    game: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    rules = games.load(game)
    states, names = positions(game, tmp_path_factory.getbasetemp())
    word = st.sampled_from(names) | st.text(max_size=8)

    @FUZZ
    @given(st.sampled_from(states), st.lists(word, min_size=1, max_size=5).map(" ".join))
    def run(state: Any, text: str) -> None:
        try:
            action = rules.read_entry(state, text)
        except ActionSyntaxError:
            return
        for seat in [None, *sorted(rules.to_act(state))]:
            if seat is None and len(rules.to_act(state)) != 1:
                continue
            assert isinstance(rules.check(state, action, seat), Verdict)

    run()

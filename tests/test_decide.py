"""The referee's decisions (service.decide) on a game held in memory, with no store: a
command gives the events to write or a refusal, and the game it read is left as it was."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import get_args

import pytest

from events.codec import seal_after
from events.schema import (
    GENESIS_HASH,
    ActionRetracted,
    GameEnded,
    GameEvent,
    PenaltyIssued,
    ResultVoided,
)
from events.view import GameView
from referee.contract import Player
from referee.game.commands import Command
from referee.game.decisions import DECISIONS
from service import InvalidCommandError
from service.decide import CreateGame, End, Penalize, Retract, decide, decide_new_game
from service.procedure import header

WHEN = datetime(2026, 11, 26, tzinfo=UTC)


def nim(heap: int = 10) -> GameView:
    """A Nim game built from its decided events alone."""
    command = CreateGame(
        game="nim",
        players=(Player("first", "Ann"), Player("second", "Ben")),
        options={"heap": heap},
    )
    new = decide_new_game(command, header("nim-decide01", WHEN), lambda: 7)
    return GameView.from_events(seal_after(0, GENESIS_HASH, new))


def fold(view: GameView, new: Sequence[GameEvent]) -> GameView:
    """What an append does to the game, without a store."""
    for event in seal_after(view.version, view.last_hash, new):
        view.fold(event)
    return view


def test_a_decision_gives_unnumbered_events_and_leaves_the_game_as_it_was() -> None:
    view = nim()
    new = decide(view, End(how="resignation", who="Ann", by="ref"), header(view.game_id, WHEN))
    assert [type(e) for e in new] == [GameEnded]
    ended = new[0]
    assert isinstance(ended, GameEnded)
    assert (ended.winner, ended.how, ended.clause, ended.by) == (
        "second",
        "resignation",
        "REF-3.2",
        "ref",
    )
    assert ended.originator_version == 0
    assert ended.timestamp == WHEN
    assert view.version == 1
    assert view.ended is None


def test_a_refusal_names_its_clause_and_writes_nothing() -> None:
    view = nim()
    with pytest.raises(InvalidCommandError) as info:
        decide(view, Retract(reason="misread"), header(view.game_id, WHEN))
    assert info.value.clause == "REF-2.1"
    assert view.version == 1


def test_decisions_follow_each_other_through_the_fold_alone() -> None:
    """REF-7.2 after a declared result: the loss voids the result and ends the game again,
    decided on the game as the previous decisions left it."""
    view = nim()
    fold(
        view,
        decide(
            view,
            Penalize(who="Ben", level="warning", infraction="slow play"),
            header(view.game_id, WHEN),
        ),
    )
    assert isinstance(view.events[-1], PenaltyIssued)
    assert view.ended is None
    fold(view, decide(view, End(how="agreement"), header(view.game_id, WHEN)))
    assert view.ended is not None
    assert view.ended.how == "agreement"
    new = decide(
        view,
        Penalize(who="first", level="game_loss", infraction="marked cards"),
        header(view.game_id, WHEN),
    )
    assert [type(e) for e in new] == [PenaltyIssued, ResultVoided, GameEnded]
    fold(view, new)
    assert view.ended is not None
    assert view.ended.winner == "second"
    with pytest.raises(InvalidCommandError) as info:
        decide(view, Retract(reason="no"), header(view.game_id, WHEN))
    assert info.value.clause == "REF-2.2"  # a declared result stands
    assert not any(isinstance(e, ActionRetracted) for e in view.events)


def test_every_referee_command_has_exactly_one_decision() -> None:
    """The decisions are one table by command type (the kit's idiom): every kind of
    ``Command`` has its decision, and nothing else is in the table."""
    assert DECISIONS.missing(get_args(Command)) == []
    assert set(DECISIONS.handlers) == set(get_args(Command))

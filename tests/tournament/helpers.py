"""What the pure-core tournament tests share: running commands through ``decide`` (or the
hall's ``decide_hall``) and folding their facts, and the clause a refusal names."""

from __future__ import annotations

import pytest

from referee.tournament import Command, Refusal, Tournament, decide, fold
from referee.tournament.hall import HallCommand, decide_hall


def run(state: Tournament, *commands: Command) -> Tournament:
    """``state`` after each command's facts, in turn."""
    for command in commands:
        state = fold(decide(state, command), state)
    return state


def refused(state: Tournament, command: Command) -> str:
    """The clause ``command`` is refused with in ``state`` (it must be refused)."""
    with pytest.raises(Refusal) as caught:
        decide(state, command)
    return caught.value.clause


def run_hall(state: Tournament, *commands: HallCommand) -> Tournament:
    """``state`` after each hall command's facts (EV-10, EV-11), in turn."""
    for command in commands:
        state = fold(decide_hall(state, command), state)
    return state


def refused_hall(state: Tournament, command: HallCommand) -> str:
    """The clause a hall command is refused with in ``state`` (it must be refused)."""
    with pytest.raises(Refusal) as caught:
        decide_hall(state, command)
    return caught.value.clause

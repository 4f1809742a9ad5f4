"""What the pure-core tournament tests share: running commands through ``decide`` (or, for
the hall's commands, ``decide_hall``) and folding their facts, and the clause a refusal names."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from referee.tournament import Command, Refusal, Tournament, decide, fold
from referee.tournament import facts as f
from referee.tournament.hall import HallCommand, decide_hall


def _decided(state: Tournament, command: Command | HallCommand) -> Sequence[f.Fact]:
    if isinstance(command, HallCommand):
        return decide_hall(state, command)
    return decide(state, command)


def run(state: Tournament, *commands: Command | HallCommand) -> Tournament:
    """``state`` after each command's facts, in turn."""
    for command in commands:
        state = fold(_decided(state, command), state)
    return state


def refused(state: Tournament, command: Command | HallCommand) -> str:
    """The clause ``command`` is refused with in ``state`` (it must be refused)."""
    with pytest.raises(Refusal) as caught:
        _decided(state, command)
    return caught.value.clause

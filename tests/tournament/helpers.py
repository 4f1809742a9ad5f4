"""What the pure-core tournament tests share: running commands through ``decide`` (or, for
the hall's commands, ``decide_hall``) and folding their facts, the clause a refusal names,
and an event to start from (its players registered, round 1 paired or not)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from referee.tournament import (
    Command,
    CreateEvent,
    PairNext,
    Refusal,
    Register,
    Settings,
    Tournament,
    decide,
    fold,
)
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


FOUR = ("Ann", "Ben", "Cal", "Dee")


def event(names: Sequence[str] = FOUR, **settings: object) -> Tournament:
    """A PRIZMIK event (``settings`` besides the game) with ``names`` registered in order."""
    created = CreateEvent(settings=Settings(game="prizmik", **settings))  # type: ignore[arg-type]
    return run(run(Tournament(), created), *(Register(name=n) for n in names))


def paired(names: Sequence[str] = FOUR, **settings: object) -> Tournament:
    """``event`` with round 1 paired: of four, Ann v Cal at table 1 and Ben v Dee at table 2."""
    return run(event(names, **settings), PairNext())

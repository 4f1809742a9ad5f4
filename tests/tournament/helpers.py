"""What the pure-core tournament tests share: running commands through ``decide`` (or, for
the hall's commands, ``decide_hall``) and folding their facts, the clause a refusal names,
and an event to start from (its players registered, round 1 paired or not)."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

import pytest
from hypothesis import strategies as st

from referee.tournament import (
    Command,
    CreateEvent,
    PairNext,
    Refusal,
    Register,
    ReportResult,
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


def refusal(state: Tournament, command: Command | HallCommand) -> Refusal:
    """The refusal of ``command`` in ``state`` (it must be refused): its clause and words."""
    with pytest.raises(Refusal) as caught:
        _decided(state, command)
    return caught.value


def refused(state: Tournament, command: Command | HallCommand) -> str:
    """The clause ``command`` is refused with in ``state`` (it must be refused)."""
    return refusal(state, command).clause


FOUR = ("Ann", "Ben", "Cal", "Dee")


def event(names: Sequence[str] = FOUR, **settings: object) -> Tournament:
    """A PRIZMIK event (``settings`` besides the game) with ``names`` registered in order."""
    created = CreateEvent(settings=Settings(game="prizmik", **settings))  # type: ignore[arg-type]
    return run(run(Tournament(), created), *(Register(name=n) for n in names))


def paired(names: Sequence[str] = FOUR, **settings: object) -> Tournament:
    """``event`` with round 1 paired: of four, Ann v Cal at table 1 and Ben v Dee at table 2."""
    return run(event(names, **settings), PairNext())


POD_EIGHT = ("Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal")


def pods_with_a_cut() -> Tournament:
    """Eight players in pods (bo1), one Swiss round and a top-4 cut: round 1 paired."""
    return run(event(POD_EIGHT, pods=True, rounds=1, cut=4, match="bo1"), PairNext())


def pods_cut(state: Tournament) -> Tournament:
    """``pods_with_a_cut`` with each pod of round 1 reported in seat order (EV-7.5) and the
    cut paired: semifinals of two."""
    for pairing in state.rounds[1].pairings:
        assert pairing.table is not None
        order = ",".join(f"{n}:{p}" for n, p in enumerate(pairing.players, start=1))
        state = run(state, ReportResult(round=1, table=pairing.table, slip=order))
    return run(state, PairNext())


T = TypeVar("T")


class Chooser(Protocol):
    """Where the event's random choices come from: hypothesis in the suite, a seeded
    ``random.Random`` in the long hunt."""

    def integer(self, low: int, high: int) -> int: ...

    def choice(self, options: Sequence[T]) -> T: ...


class Seeded:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def choice(self, options: Sequence[T]) -> T:
        return self.rng.choice(options)


class Drawn:
    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def integer(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))

    def choice(self, options: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(options))


def slips(need: int, *, playoff: bool = False) -> list[tuple[int, int, int]]:
    """Every W-L-D slip a match of ``need`` wins allows (EV-3.2, EV-3.3, EV-3.4); a playoff
    slip needs a winner (EV-6.4)."""
    most = 2 * need - 1
    return [
        (a, b, d)
        for a in range(need + 1)
        for b in range(need + 1)
        for d in range(most + 1)
        if not (a == need and b == need) and a + b <= most and not (playoff and a == b)
    ]


def hunt(*plays: Callable[[Chooser], None]) -> None:
    """The long hunt of a reference test, run apart from the suite: ``python -m MODULE N``
    plays N seeded events with each of ``plays`` and names the first seed that diverges."""
    for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 1000):
        for play in plays:
            try:
                play(Seeded(seed))
            except AssertionError:
                print(f"seed {seed} diverges ({play.__name__})")
                raise

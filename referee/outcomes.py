"""How a game stands or ended: ongoing, a winner, a draw, or a ranking of 2-4 seats.

The two-player forms (``win`` with a ``winner``, ``draw``) are the common case and
stay as they were; a multiplayer result is ``ranked`` with a ``ranking`` of
placings (ties share a rank, scores where the game has them) and the tie-break
that decided it. ``placings`` turns any finished outcome into a ranking, so
scoreboards and ratings treat every game alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec

from referee.errors import quoted

__all__ = ["ONGOING", "Outcome", "Placing", "parse_ranking", "ranking_text"]


class Placing(msgspec.Struct, frozen=True, gc=False):
    """One seat's place in a result: rank 1 is best; equal ranks are ties."""

    seat: str
    rank: int
    score: float | None = None


class Outcome(msgspec.Struct, frozen=True, gc=False):
    """Whether a game goes on, and if not who placed where, by which clause.

    ``status`` is ``win`` (one ``winner``, everyone else below), ``draw`` (every
    seat level) or ``ranked`` (an explicit ``ranking``). ``tiebreak`` says which
    rule separated tied scores, when one did.
    """

    status: Literal["ongoing", "win", "draw", "ranked"] = "ongoing"
    winner: str | None = None
    clause: str | None = None
    reason: str = ""
    ranking: tuple[Placing, ...] = ()
    tiebreak: str = ""

    @property
    def over(self) -> bool:
        return self.status != "ongoing"

    @property
    def result(self) -> str:
        """Short result text: ``red``, ``draw``, ``p2>p1=p3`` for a ranking, ``*`` while ongoing."""
        if self.status == "win":
            return str(self.winner)
        if self.status == "draw":
            return "draw"
        if self.status == "ranked":
            return ranking_text(self.ranking)
        return "*"

    def placings(self, seats: Sequence[str]) -> tuple[Placing, ...]:
        """The result as a ranking of ``seats`` (empty while ongoing)."""
        if self.status == "win":
            return tuple(Placing(s, 1 if s == self.winner else 2) for s in seats)
        if self.status == "draw":
            return tuple(Placing(s, 1) for s in seats)
        return self.ranking

    @classmethod
    def ranked(
        cls, ranking: Sequence[Placing], clause: str, reason: str = "", tiebreak: str = ""
    ) -> Outcome:
        """A finished result from a ranking; two seats collapse to ``win`` or ``draw``."""
        ordered = tuple(sorted(ranking, key=lambda p: p.rank))
        firsts = [p.seat for p in ordered if p.rank == ordered[0].rank]
        if len(ordered) == 2 and all(p.score is None for p in ordered) and not tiebreak:
            if len(firsts) == 2:
                return cls("draw", None, clause, reason)
            return cls("win", firsts[0], clause, reason)
        if len(firsts) == len(ordered):
            status: Literal["win", "draw", "ranked"] = "draw" if len(ordered) == 2 else "ranked"
        else:
            status = "ranked"
        winner = firsts[0] if len(firsts) == 1 else None
        return cls(status, winner, clause, reason, ordered, tiebreak)


ONGOING = Outcome()


def ranking_text(ranking: Sequence[Placing]) -> str:
    """``p2>p1=p3``: seats best first, ``=`` between tied seats, ``>`` between ranks."""
    ordered = sorted(ranking, key=lambda p: p.rank)
    parts: list[str] = []
    previous: int | None = None
    for placing in ordered:
        if previous is None:
            parts.append(placing.seat)
        else:
            parts.append(("=" if placing.rank == previous else ">") + placing.seat)
        previous = placing.rank
    return "".join(parts)


def parse_ranking(
    text: str, seats: Sequence[str], withdrawn: Sequence[str] = ()
) -> tuple[Placing, ...]:
    """Read ``p2>p1=p3`` back into placings of ``seats``, every seat exactly once.

    ``withdrawn`` are seats that left the game (REF-3.5): a ranking the procedure wrote
    names them below every seat still playing (``p3>p1>p2`` with p2 withdrawn, REF-3.6),
    so they may follow the others, each alone in its place; they are left out of the
    placings, since the procedure puts them below in the order they left."""
    groups = [[s.strip() for s in group.split("=")] for group in text.split(">")]
    while groups and len(groups[-1]) == 1 and groups[-1][0] in withdrawn:
        groups.pop()
    placings: list[Placing] = []
    for group_index, names in enumerate(groups):
        rank = len(placings) + 1 if group_index else 1
        for name in names:
            if name in withdrawn:
                raise ValueError(
                    f"{name} withdrew from this game; in ranking {quoted(text)} it can only follow "
                    f"every seat still playing ({', '.join(seats)})"
                )
            if name not in seats:
                raise ValueError(
                    f"{quoted(name)} in ranking {quoted(text)} is not a seat: {', '.join(seats)}"
                )
            placings.append(Placing(name, rank))
    named = [p.seat for p in placings]
    if sorted(named) != sorted(seats) or len(set(named)) != len(named):
        raise ValueError(
            f"a ranking names every seat once ({', '.join(seats)}); got {quoted(text)}"
        )
    return tuple(placings)

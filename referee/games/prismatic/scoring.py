"""The score chart (PX-12) and the ranking with its tie-breaks (PX-13).

Scores are counted as the text tallies them at the end: every committed mote is
back in its owner's bag and every unused committed prism back with its owner
(PX-12.1), so during play the chart is what the score would be if the game ended
now. Only players still in the game are compared; a player who withdrew is ranked
below them by the procedure (REF-3.5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from referee.games.prismatic.model import PrismaticState, SeatState
from referee.games.prismatic.motes import PRISMATIC

__all__ = ["CRITERIA", "Facts", "Line", "Standing", "chart", "facts", "standing"]


class Facts(msgspec.Struct, frozen=True, gc=False):
    """What the chart counts for one player."""

    seat: str
    motes: int
    prismatic: int
    prisms: int
    created: int
    hue: int
    sky: int
    craft: int
    in_progress: int
    card_stars: int
    reached: int


class Line(msgspec.Struct, frozen=True, gc=False):
    """One player's chart: stars per line and the total."""

    seat: str
    first: int
    most_motes: int
    most_hue: int
    most_sky: int
    most_craft: int
    prism_stars: int
    card_stars: int
    most_prismatic: int
    progress: int
    total: int
    facts: Facts

    def items(self) -> list[tuple[str, int]]:
        return [
            ("first to the goal", self.first),
            ("most motes", self.most_motes),
            ("most hue cards", self.most_hue),
            ("most sky cards", self.most_sky),
            ("most craft cards", self.most_craft),
            ("a star per 4 prisms", self.prism_stars),
            ("card stars", self.card_stars),
            ("most prismatic motes", self.most_prismatic),
            ("cards left in progress", self.progress),
        ]


def facts(state: PrismaticState, player: SeatState) -> Facts:
    """PX-12.1: the counts after committed motes go home and unused prisms are taken back."""
    motes = player.bag.plus(player.incoming).plus(player.hand).plus(player.committed_motes())
    types = {"hue": 0, "sky": 0, "craft": 0}
    stars = 0
    for held in player.creation:
        spec = state.catalog.cards[held.name]
        types[spec.type] += 1
        stars += spec.stars
    return Facts(
        seat=player.seat,
        motes=motes.total,
        prismatic=motes.count(PRISMATIC),
        prisms=player.prisms + player.committed_prisms(),
        created=len(player.creation),
        hue=types["hue"],
        sky=types["sky"],
        craft=types["craft"],
        in_progress=len(player.progress),
        card_stars=stars,
        reached=player.reached,
    )


def _sole_best(counts: dict[str, int]) -> str | None:
    """The one player with the most, or ``None`` when the most is shared (no star)."""
    best = max(counts.values())
    leaders = [seat for seat, n in counts.items() if n == best]
    return leaders[0] if len(leaders) == 1 else None


def chart(state: PrismaticState) -> list[Line]:
    """Every playing seat's chart line (PX-12.2 to PX-12.8), in seat order."""
    all_facts = [facts(state, p) for p in state.players if p.active]
    if not all_facts:
        return []
    reachers = [f for f in all_facts if f.reached]
    first = min(reachers, key=lambda f: f.reached).seat if reachers else None
    best = {
        key: _sole_best({f.seat: getattr(f, key) for f in all_facts})
        for key in ("motes", "hue", "sky", "craft", "prismatic")
    }
    lines: list[Line] = []
    for f in all_facts:
        parts = (
            1 if f.seat == first else 0,
            1 if best["motes"] == f.seat else 0,
            1 if best["hue"] == f.seat else 0,
            1 if best["sky"] == f.seat else 0,
            1 if best["craft"] == f.seat else 0,
            f.prisms // 4,
            f.card_stars,
            2 if best["prismatic"] == f.seat else 0,
            -f.in_progress,
        )
        lines.append(Line(f.seat, *parts, total=sum(parts), facts=f))
    return lines


Criterion = tuple[str, Callable[[Facts], int]]
_NEVER = 10**6
CRITERIA: tuple[Criterion, ...] = (
    ("most created cards", lambda f: -f.created),
    ("most motes", lambda f: -f.motes),
    ("most prisms", lambda f: -f.prisms),
    ("first to the creation goal", lambda f: f.reached or _NEVER),
)
"""PX-13.1's first four tie-breaks as sort keys (lower is better); the fifth, the
colours the players wear, is the referee's entry (PX-13.2)."""


def _shown(name: str, f: Facts) -> str:
    if name == "most created cards":
        return str(f.created)
    if name == "most motes":
        return str(f.motes)
    if name == "most prisms":
        return str(f.prisms)
    return f"reached {_ordinal(f.reached)}" if f.reached else "not reached"


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


class Standing(msgspec.Struct, frozen=True, gc=False):
    """The ranking as far as the rules and the entries so far settle it.

    ``groups``: seats best first, each group tied after every tie-break applied;
    ``unsettled``: groups that only the colours judgement can split (PX-13.2);
    ``notes``: how each tie was broken, for the outcome and the report."""

    lines: tuple[Line, ...]
    groups: tuple[tuple[str, ...], ...]
    unsettled: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...]


def standing(state: PrismaticState) -> Standing:
    """Rank the playing seats by total, then PX-13.1's tie-breaks in order."""
    lines = chart(state)
    by_seat = {line.seat: line for line in lines}
    wearing = dict(state.wearing)
    groups: list[tuple[str, ...]] = []
    unsettled: list[tuple[str, ...]] = []
    notes: list[str] = []

    def split(seats: list[str], level: int) -> None:
        if len(seats) == 1:
            groups.append(tuple(seats))
            return
        if level < len(CRITERIA):
            name, key = CRITERIA[level]
            values = {s: key(by_seat[s].facts) for s in seats}
            if len(set(values.values())) == 1:
                split(seats, level + 1)
                return
            ordered = sorted(seats, key=lambda s: values[s])
            notes.append(
                f"{_names(seats)} tie on {by_seat[seats[0]].total} stars; {name}: "
                + ", ".join(f"{s} {_shown(name, by_seat[s].facts)}" for s in ordered)
            )
            for value in sorted(set(values.values())):
                split([s for s in ordered if values[s] == value], level + 1)
            return
        if not all(s in wearing for s in seats):
            unsettled.append(tuple(seats))
            groups.append(tuple(seats))
            return
        ordered = sorted(seats, key=lambda s: wearing[s])
        positions = sorted({wearing[s] for s in seats})
        if len(positions) == 1:
            notes.append(f"{_names(seats)} are level on every tie-break and share a place")
        else:
            notes.append(
                f"{_names(seats)} tie through every other tie-break; the colours worn, "
                "as judged at the table: "
                + " > ".join("=".join(s for s in ordered if wearing[s] == pos) for pos in positions)
            )
        for pos in positions:
            groups.append(tuple(s for s in ordered if wearing[s] == pos))

    totals = sorted({line.total for line in lines}, reverse=True)
    for total in totals:
        split([line.seat for line in lines if line.total == total], 0)
    return Standing(tuple(lines), tuple(groups), tuple(unsettled), tuple(notes))


def _names(seats: Sequence[str]) -> str:
    seats = list(seats)
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]

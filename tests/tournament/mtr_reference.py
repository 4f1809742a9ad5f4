"""An independent standings calculator, written from the Magic: The Gathering Tournament
Rules alone (MTR 3.1 and Appendix C, Tiebreaker Explanation), without reading
``referee/tournament/standings.py``. Fractions throughout; nothing is rounded.

What the MTR says, and how it is read here:

* Match points (Appendix C): 3 for a match win, 1 for a drawn match, 0 for a loss; a bye is a
  match win.
* Game points (Appendix C): 3 for each game won, 1 for each drawn game (an unfinished game
  is a drawn game), 0 for a game lost; unplayed games are worth nothing and are not games
  played. A game loss given as a penalty is a game lost (IPG 1.2), so it is already in the
  score a match is reported with; a match loss is a match lost by the games the match needs.
* Byes (Appendix C): a bye is a 2-0 match win (3 match points, 6 game points of 6), and a
  player's byes are ignored when computing their opponents' percentages.
* Match-win percentage: match points over the points possible in the rounds played (3 per
  round played); game-win percentage: game points over 3 per game played. Either is raised
  to the minimum when lower. The MTR prints the minimum as 0.33; ``floor`` chooses it.
* Opponents' match-win (game-win) percentage: the average of the match-win (game-win)
  percentage, each with its minimum, of each opponent the player faced. A player who
  withdrew still counts as an opponent, with the figures of the rounds they played.
* Order (MTR 3.1): match points, then opponents' match-win percentage, then game-win
  percentage, then opponents' game-win percentage.

Where the MTR leaves room, the project's event rulebook chooses, and this module follows it
through a parameter or says so here (so a divergence found against the project is a real
difference of arithmetic, not of reading):

* ``floor`` -- EV-I.1: exactly 1/3 by default; 33/100 is the MTR's printed figure.
* A percentage with nothing to divide by (no round, no game, no opponent) is the floor
  (EV-I.3; the MTR never divides by zero in its examples).
* An intentional draw, or a match not played, is a drawn match with no games (0-0-0,
  EV-3.4): 1 match point, a round played, no game points and no games played.
* A late entry's missed rounds are not played (EV-I.6); with the organiser's choice of
  match losses (EV-2.9, as Magic allows) each missed round is a round played and lost,
  against no one: 0-2 as the mirror of a bye, whatever the match length (EV-I.12), or with
  the variant the games the match needs (``MissedLoss.games``). A penalty's match loss is
  a played match lost by the games the match needs (EV-I.12 too).
* An opponent met twice counts twice (EV-4.5: one entry per match; the MTR's "ignoring the
  rounds of a bye" reads the average per round as well).
* Equal on all four figures: the place is shared (rank = 1 + players strictly ahead,
  EV-4.6) and the list falls back on registration order (EV-I.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

ONE_THIRD = Fraction(1, 3)
PRINTED = Fraction(33, 100)


@dataclass(frozen=True)
class Played:
    """A two-player match: ``first`` won ``first_wins`` games, ``second`` won ``second_wins``,
    and ``draws`` games were drawn (or unfinished)."""

    round: int
    first: str
    second: str
    first_wins: int
    second_wins: int
    draws: int = 0


@dataclass(frozen=True)
class Bye:
    round: int
    player: str


@dataclass(frozen=True)
class MissedLoss:
    """A late entry's match loss for a round missed (EV-2.9), no opponent: lost by ``games``
    games, 2 (0-2) unless the event counts it by the games the match needs (EV-I.12)."""

    round: int
    player: str
    games: int = 2


Outcome = Played | Bye | MissedLoss


@dataclass
class Line:
    """One player's figures: everything is exact."""

    player: str
    order: int
    match_points: int = 0
    rounds: int = 0
    game_points: int = 0
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)
    mw: Fraction = Fraction(0)
    gw: Fraction = Fraction(0)
    omw: Fraction = Fraction(0)
    ogw: Fraction = Fraction(0)
    rank: int = 0

    def key(self) -> tuple[int, Fraction, Fraction, Fraction]:
        return (self.match_points, self.omw, self.gw, self.ogw)


def _percentage(points: int, possible: int, floor: Fraction) -> Fraction:
    if possible == 0:
        return floor
    return max(Fraction(points, possible), floor)


def _average(values: Sequence[Fraction], floor: Fraction) -> Fraction:
    if not values:
        return floor
    return sum(values, Fraction(0)) / len(values)


def standings(
    players: Sequence[str],
    outcomes: Iterable[Outcome],
    *,
    floor: Fraction = ONE_THIRD,
) -> list[Line]:
    """Every player's line, best first. ``players`` in registration order; ``outcomes`` are
    all the rounds counted (a caller wanting the standings after round N passes only those)."""
    lines = {p: Line(player=p, order=i) for i, p in enumerate(players)}
    for outcome in outcomes:
        if isinstance(outcome, Bye):
            line = lines[outcome.player]
            line.rounds += 1
            line.match_points += 3
            line.wins += 1
            line.byes += 1
            line.game_points += 6
            line.games += 2
        elif isinstance(outcome, MissedLoss):
            line = lines[outcome.player]
            line.rounds += 1
            line.losses += 1
            line.games += outcome.games
        else:
            sides = (
                (outcome.first, outcome.second, outcome.first_wins, outcome.second_wins),
                (outcome.second, outcome.first, outcome.second_wins, outcome.first_wins),
            )
            for me, them, mine, theirs in sides:
                line = lines[me]
                line.rounds += 1
                line.opponents.append(them)
                line.games += mine + theirs + outcome.draws
                line.game_points += 3 * mine + outcome.draws
                if mine > theirs:
                    line.wins += 1
                    line.match_points += 3
                elif mine < theirs:
                    line.losses += 1
                else:
                    line.draws += 1
                    line.match_points += 1
    for line in lines.values():
        line.mw = _percentage(line.match_points, 3 * line.rounds, floor)
        line.gw = _percentage(line.game_points, 3 * line.games, floor)
    for line in lines.values():
        line.omw = _average([lines[o].mw for o in line.opponents], floor)
        line.ogw = _average([lines[o].gw for o in line.opponents], floor)
    ordered = sorted(
        lines.values(),
        key=lambda x: (-x.match_points, -x.omw, -x.gw, -x.ogw, x.order),
    )
    for line in ordered:
        line.rank = 1 + sum(1 for other in ordered if other.key() > line.key())
    return ordered

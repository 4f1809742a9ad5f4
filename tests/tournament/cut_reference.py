"""An independent top-N cut and single-elimination playoff, written from the Magic: The
Gathering Tournament Rules and common practice, without reading ``referee/tournament``'s
bracket, playoff or state code. It answers what a scorekeeper would post: who makes the cut,
the bracket, who is listed first (chooses to play or draw), how the bracket goes on, and the
final standings of an event with a cut.

What the texts say, and how it is read here:

* MTR 10.4: after the Swiss rounds a tournament may go on to a single-elimination playoff
  between the top 2, 4, 8 (or another number) of players, paired by the final Swiss
  standings. For eight: 1st v 8th, 2nd v 7th, 3rd v 6th, 4th v 5th; the winners of 1/8 and
  4/5 meet, and those of 2/7 and 3/6; the two winners play the final. For four: 1st v 4th,
  2nd v 3rd. The general bracket is the usual seeding, each seed ``s`` of a bracket of
  ``m`` meeting ``2m + 1 - s`` at every level, so 1 and 2 can meet only in the final
  (``bracket_positions``).
* MTR 2.10 (and the digital rules' 2.9, which says it at more length): a player who drops
  is not paired again; the cut takes the players still in the event (a player who dropped
  before the cut has left it and takes no place in the bracket); a player who drops after the
  cut is not replaced, and in an elimination bracket is treated as taking a match loss for
  every match left, so their next opponent goes through without playing.
* MTR 2.2: in a playoff match the player ranked higher in the Swiss standings chooses to play
  or draw in its first game, so the higher seed is listed first here in every playoff match
  (the project seats the first-listed first, EV-I.10).
* MTR 3.1 and Appendix C: the Swiss standings are the four figures over the Swiss rounds; a
  playoff match is not one of them ("standings after the cut" are the Swiss standings).
* Final standings (the MTR's finish order; every scorekeeping program prints it so): the
  champion first, then the finalist, then the players who went out in the semifinal, then
  the quarterfinal and so on, those who went out in the same playoff round in their Swiss
  order; then every player outside the cut in Swiss order (dropped players included: MTR 2.10
  leaves out of the finish order only a player who dropped before round 1 began).

Where the texts are silent the project's rulebook chooses, and this module takes the same
choice, named here, so a difference found is one of running the bracket, not of reading:

* A cut of N with fewer than N players still in the event seeds those there are; a bracket
  whose size is not a power of two is the next power of two up, the missing lowest seeds
  giving the top seeds byes (EV-6.2) -- a bracket, not a smaller cut.
* Players level on all four figures at the edge of the cut: the Swiss list's order decides
  (registration order, EV-I.2; the MTR has no fifth figure).
* A player dropped during the playoff is out in the next round they would have played; two
  dropped players at one match send nobody through, and the match they would have fed is a
  bye (nobody is promoted, MTR 2.10). When every player left has dropped, no further round
  is paired and nobody is out in it: the last winners stay "through" the round they won.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


def bracket_size(players: int) -> int:
    """The smallest power of two holding ``players`` (at least 2)."""
    size = 2
    while size < players:
        size *= 2
    return size


def bracket_positions(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a bracket of ``size`` (a power of two): pairs of
    neighbours meet in the first round, 1 v size, and the top seeds are spread so the
    sum of the seeds of every first-round match is size + 1 (MTR 10.4's 1-8, 4-5, 2-7, 3-6)."""
    order = [1]
    while len(order) < size:
        width = 2 * len(order)
        order = [s for seed in order for s in (seed, width + 1 - seed)]
    return order


def make_cut(swiss_order: Sequence[str], dropped: set[str], size: int) -> list[str]:
    """The seeds, best first: the top ``size`` of the Swiss standings still in the event."""
    return [p for p in swiss_order if p not in dropped][:size]


@dataclass(frozen=True)
class Match:
    """One playoff match of the model: ``players`` higher seed first; one player is a bye."""

    players: tuple[str, ...]

    @property
    def bye(self) -> bool:
        return len(self.players) == 1


@dataclass
class Playoff:
    """A bracket being played: the seeds and, per playoff round, its matches in bracket
    order (each slot a match, a bye, or ``None`` when nobody came to it), and the winners."""

    seeds: list[str]
    rounds: list[list[Match | None]] = field(default_factory=list)
    winners: list[dict[int, str]] = field(default_factory=list)  # slot -> who went through
    out_in: dict[str, int] = field(default_factory=dict)  # player -> playoff round lost (0-based)

    def seed(self, player: str) -> int:
        return self.seeds.index(player) + 1

    def _match(self, players: Sequence[str | None]) -> Match | None:
        there = sorted((p for p in players if p is not None), key=self.seed)
        return Match(tuple(there)) if there else None

    def first_round(self) -> list[Match | None]:
        size = bracket_size(len(self.seeds))
        order = bracket_positions(size)
        slots = [self.seeds[s - 1] if s <= len(self.seeds) else None for s in order]
        matches = [self._match(slots[i : i + 2]) for i in range(0, size, 2)]
        self.rounds.append(matches)
        return matches

    def next_round(self, dropped: set[str]) -> list[Match | None]:
        """The round after the last, from its winners; a dropped winner is out (MTR 2.10)."""
        last = self.rounds[-1]
        winners = [self.winners[-1].get(slot) for slot in range(len(last))]
        through = [p if p not in dropped else None for p in winners]
        matches = [self._match(through[i : i + 2]) for i in range(0, len(through), 2)]
        if not any(matches):  # nobody left: no round, and nobody is out in one
            return matches
        for who in winners:
            if who is not None and who in dropped:
                self.out_in[who] = len(self.rounds)  # out in the round they would play
        self.rounds.append(matches)
        return matches

    def record(self, slot: int, winner: str) -> None:
        """The match at ``slot`` of the latest round went to ``winner``."""
        while len(self.winners) < len(self.rounds):
            self.winners.append({})
        match = self.rounds[-1][slot]
        assert match is not None
        assert winner in match.players
        self.winners[-1][slot] = winner
        for player in match.players:
            if player != winner:
                self.out_in[player] = len(self.rounds) - 1

    def byes_through(self) -> None:
        """Every bye of the latest round goes through."""
        for slot, match in enumerate(self.rounds[-1]):
            if match is not None and match.bye:
                self.record(slot, match.players[0])

    def champion(self) -> str | None:
        if self.rounds and len(self.rounds[-1]) == 1 and self.winners[-1:]:
            return self.winners[-1].get(0)
        return None

    def _reached(self, player: str) -> tuple[int, bool]:
        """The latest playoff round (0-based) the player is in, and whether they won it; a
        player out through a drop is out in the round they did not come to."""
        if player in self.out_in:
            return self.out_in[player], False
        reached = max(n for n, r in enumerate(self.rounds) for m in r if m and player in m.players)
        won = reached < len(self.winners) and player in self.winners[reached].values()
        return reached, won

    def stage(self, number: int) -> str:
        """A playoff round's name by the players it starts with, byes counted (EV-6.6)."""
        players = 2 * len(self.rounds[number])
        names = {2: "final", 4: "semifinal", 8: "quarterfinal"}
        return names.get(players, f"round of {players}")

    def went(self, player: str) -> str:
        """How far a player of the cut went (EV-6.7)."""
        reached, won = self._reached(player)
        stage = self.stage(reached)
        if won:
            return "champion" if stage == "final" else f"through the {stage}"
        if player not in self.out_in:
            return f"in the {stage}"
        return {"final": "finalist"}.get(stage, f"{stage}ist" if "final" in stage else stage)

    def final_order(self, swiss_order: Sequence[str]) -> list[str]:
        """Everyone's final place: the cut players by how far they went (the round reached,
        won or not; a round still being played counts as reached), those who went as far in
        Swiss order; then the rest in Swiss order."""
        position = {p: i for i, p in enumerate(swiss_order)}

        def how_far(player: str) -> tuple[int, int, int]:
            reached, won = self._reached(player)
            return (-reached, 0 if won else 1, position[player])

        cut = sorted(self.seeds, key=how_far)
        return cut + [p for p in swiss_order if p not in self.seeds]

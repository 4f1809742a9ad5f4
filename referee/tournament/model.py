"""The tournament's value types: settings, entrants, rounds, pairings and results.

Small frozen Structs, so every fact that carries them can be stored and replayed
as it is. A player is known by a stable ``id`` (what pairings, results and
standings name); the display ``name`` is only for people and may be matched
case-insensitively on input. Nothing here computes: slips are read in
``slips``, standings in ``standings``, pairings in ``pairing``.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Iterator, Mapping
from typing import Literal

import msgspec

__all__ = [
    "PLAYOFF_KINDS",
    "Entrant",
    "Format",
    "MatchFormat",
    "Pairing",
    "Placement",
    "PlayoffPlaces",
    "Round",
    "RoundKind",
    "Score",
    "Settings",
    "SwissPlan",
    "TableKey",
    "games_to_win",
    "history_pairings",
]

Format = Literal["swiss", "elimination", "round-robin"]
MatchFormat = Literal["bo1", "bo3", "bo5"]
RoundKind = Literal["swiss", "cut", "elimination", "round-robin", "pods"]
PLAYOFF_KINDS: tuple[RoundKind, ...] = ("cut", "elimination")
Floor = Literal["1/3", "0.33"]
PodPoints = Literal["pairwise", "pod"]
MissedLosses = Literal["0-2", "match"]
PlayoffPlaces = Literal["standing", "shared"]

TableKey = tuple[int, int]
"""A table of a round: ``(round, table)``; a bye is keyed ``(round, -(registration + 1))``."""


def games_to_win(match: MatchFormat) -> int:
    """Games one player needs to take a match: 1, 2 or 3 (EV-3.2)."""
    return {"bo1": 1, "bo3": 2, "bo5": 3}[match]


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """How an event runs, fixed when it is created (EV-1.1).

    ``rounds`` of ``None`` takes the default for the player count
    (``rounds.default_rounds``); ``cut`` of 0 means no top-N playoff; ``floor``
    is the minimum of every percentage (EV-I.1: exact one third unless the
    table chose the printed 0.33); ``pod_points`` chooses how a pod is scored
    (EV-I.7); ``missed_losses`` how many games a late entry's missed round is lost by
    (EV-I.12: unset is 0-2, ``"match"`` the games the match needs); ``playoff_places``
    whether players out in the same playoff round share their final place (EV-I.13).
    """

    game: str
    format: Format = "swiss"
    pods: bool = False
    rounds: int | None = None
    match: MatchFormat = "bo3"
    cut: int = 0
    floor: Floor = "1/3"
    pod_points: PodPoints = "pairwise"
    # the seed of every random choice (round 1's order, so its byes; EV-5.6), recorded at
    # creation; unset on events made before it, whose round 1 follows registration order
    seed: int | msgspec.UnsetType = msgspec.UNSET
    # decklists lock once this round is paired (a late entry's: their first round; EV-2.8);
    # unset: round 1
    deck_deadline: int | msgspec.UnsetType = msgspec.UNSET
    # a late entry's missed round lost 0-2 whatever the match length, or by the games the
    # match needs (EV-I.12); unset: 0-2, and left out of the stored bytes
    missed_losses: MissedLosses | msgspec.UnsetType = msgspec.UNSET
    # the players out in the same playoff round: placed by Swiss standing (an elimination
    # event's: by seed), or sharing their place (EV-I.13); unset: by standing, and left out
    # of the stored bytes
    playoff_places: PlayoffPlaces | msgspec.UnsetType = msgspec.UNSET


class SwissPlan(msgspec.Struct, frozen=True, kw_only=True):
    """The default number of Swiss rounds as fixed when round 1 is paired (EV-1.3, EV-I.14):
    ``rounds`` from the ``players`` taking part in round 1, read in the table as
    ``counted`` (a player with awarded byes counting 2, 4 or 8)."""

    rounds: int
    players: int
    counted: int


class Entrant(msgspec.Struct, frozen=True, kw_only=True):
    """A registered player.

    ``order`` is the registration order (0 first): the last, stable key of
    every ordering (EV-I.2). ``byes`` awards a bye in each of the player's first
    K rounds from ``entry_round`` (EV-2.4); ``table`` is a fixed table kept
    every round (EV-5.7); ``dropped_after`` is the last round the player is in.
    ``player_id``, when given at registration, is the person's id across the house (their
    tokens carry it): the seats of their event games are bound to it (EV-2.2). Unset, it is
    left out of the stored bytes, so registrations made before it read and hash as before.
    """

    id: str
    name: str
    order: int
    rating: int | None = None
    table: int | None = None
    byes: int = 0
    entry_round: int = 1
    dropped_after: int | None = None
    player_id: str | msgspec.UnsetType = msgspec.UNSET
    # a late entry taking match losses for the rounds missed (EV-2.9, EV-I.12)
    late_as_losses: bool | msgspec.UnsetType = msgspec.UNSET

    def active_in(self, round_number: int) -> bool:
        """Whether the player takes part in round ``round_number``."""
        if round_number < self.entry_round:
            return False
        return self.dropped_after is None or round_number <= self.dropped_after

    def awarded_bye_in(self, round_number: int) -> bool:
        return self.entry_round <= round_number < self.entry_round + self.byes


class Pairing(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a round, or a bye.

    ``players`` are ids in order: in a two-player match the first-listed is the
    one a slip's first figure counts for (EV-3.1). A bye has one player,
    ``table`` None and ``bye`` True; in an elimination round it carries the
    player to the next round.
    """

    table: int | None
    players: tuple[str, ...]
    bye: bool = False


class Round(msgspec.Struct, frozen=True, kw_only=True):
    """A paired round: its number, what kind it is, and its tables in order.

    For elimination and cut rounds the order of ``pairings`` is the bracket
    order (byes included), which the next round follows (EV-6.3).
    """

    number: int
    kind: RoundKind
    pairings: tuple[Pairing, ...]

    def table(self, number: int) -> Pairing | None:
        # tables are numbered 1, 2, ... in order in a paired round: look where it should be
        # first (a scan per slip made 5,000 slips quadratic)
        if 0 < number <= len(self.pairings):
            guess = self.pairings[number - 1]
            if guess.table == number:
                return guess
        for pairing in self.pairings:
            if pairing.table == number:
                return pairing
        return None

    def players(self) -> list[str]:
        return [p for pairing in self.pairings for p in pairing.players]


def history_pairings(rounds: Iterable[Round]) -> Iterator[Pairing]:
    """The pairings that make the pairing history (the opponents met, the byes had): every
    round's but a playoff's (a cut or an elimination round). Chained in C: no step of Python
    per pairing (45,000 of them by round 9 of the largest events)."""
    return itertools.chain.from_iterable(r.pairings for r in rounds if r.kind not in PLAYOFF_KINDS)


class Score(msgspec.Struct, frozen=True, gc=False):
    """A two-player match slip ``W-L-D``: games won by the first-listed player,
    by the second, and games drawn (EV-3.1)."""

    wins: int
    losses: int
    draws: int = 0

    @property
    def text(self) -> str:
        return f"{self.wins}-{self.losses}-{self.draws}"

    @property
    def winner(self) -> int | None:
        """0 if the first-listed won the match, 1 the second, None for a drawn match."""
        if self.wins > self.losses:
            return 0
        if self.losses > self.wins:
            return 1
        return None

    def flipped(self) -> Score:
        return Score(self.losses, self.wins, self.draws)


class Placement(msgspec.Struct, frozen=True, gc=False):
    """A pod's finishing order: each player id with its place (1 best, ties share)."""

    places: tuple[tuple[str, int], ...]

    @property
    def text(self) -> str:
        return self.named({})

    def named(self, names: Mapping[str, str]) -> str:
        """``text`` with each player id written as ``names`` has it (``A1>F6=C3``)."""
        ordered = sorted(self.places, key=lambda p: p[1])
        out = names.get(ordered[0][0], ordered[0][0])
        for (_, before), (player, place) in itertools.pairwise(ordered):
            out += ("=" if place == before else ">") + names.get(player, player)
        return out

    def with_last(self, players: frozenset[str]) -> Placement:
        """This order with ``players`` moved below everyone else, sharing the last place
        (EV-I.11: a match loss at a pod table); the others keep their order, each place
        counted again as a slip's is (1 + the players strictly ahead, EV-7.5), so moving the
        second of four last gives 1st, 2nd, 3rd, 4th rather than 1st, 3rd, 4th, 5th."""
        if not players.intersection(who for who, _ in self.places):
            return self
        kept = [(who, place) for who, place in self.places if who not in players]
        ahead = sorted(place for _, place in kept)
        renumbered = [(who, 1 + bisect.bisect_left(ahead, place)) for who, place in kept]
        moved = [(who, len(kept) + 1) for who, _ in self.places if who in players]
        return Placement(tuple(renumbered + moved))

    def counted(self) -> Placement:
        """This order with each place counted as a slip's is (1 + the players strictly
        ahead, EV-7.5): a game's placings ``2, 2, 3`` are a shared first and a third."""
        ahead = sorted(place for _, place in self.places)
        counted = tuple((who, 1 + bisect.bisect_left(ahead, place)) for who, place in self.places)
        return self if counted == self.places else Placement(counted)

    def place_of(self, player: str) -> int:
        for who, place in self.places:
            if who == player:
                return place
        raise KeyError(player)

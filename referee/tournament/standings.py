"""Standings with the MTR Appendix C tie-breakers, in exact fractions.

Order: match points, then opponents' match-win percentage (OMW), game-win
percentage (GW), opponents' game-win percentage (OGW) (EV-4.1), then
registration order as the last, stable key (EV-I.2). Players level on all four
figures share a rank: 1 + the number of players strictly ahead (EV-4.6).

Two ways to the same table:

* ``compute_standings``: from scratch, from every finished table (what a page or
  a late reader calls; ``after_round`` gives the standings after round N);
* ``Standings``: kept up to date one result at a time. Adding or correcting a
  result touches its players and their opponents only: each player's sum of
  opponents' percentages is adjusted by the change, and only touched entries
  are moved in a sorted container, so one update costs what the result touches
  (about rounds² fraction additions and a few log n moves), not the event's
  size. Property tests hold it equal to ``compute_standings``.

Scoring (EV-4.2 to EV-4.5): a match win is 3 points, a drawn match 1, a loss 0;
a bye is a match win (counted among the wins of the record, and in ``byes``) and,
for game figures, a 2-0 win whatever the match length (EV-I.5); it is never an
opponent. MW = points / (3 × rounds played),
GW = game points / (3 × games played), each raised to the floor (1/3, or 33/100
with the 0.33 variant, EV-I.1); OMW and OGW are the means of the opponents'
floored figures, one entry per match played against them. A dropped player keeps
every figure and keeps counting for former opponents. Pods are scored per
EV-7.4/EV-I.7 (see ``pod_contributions``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import repeat
from operator import add, attrgetter, lshift, mul, neg, sub

import msgspec
from sortedcontainers import SortedList  # type: ignore[import-untyped]

from referee.tournament.model import (
    Entrant,
    Placement,
    Score,
    Settings,
    TableKey,
    games_to_win,
)

__all__ = [
    "Contribution",
    "CountedFigures",
    "MatchResult",
    "PlacedCounts",
    "Record",
    "Standing",
    "Standings",
    "StandingsCounts",
    "advanced",
    "compute_standings",
    "contributions",
    "explain",
    "floor_of",
    "fraction_text",
    "ranked",
    "table_of",
]


class MatchResult(msgspec.Struct, frozen=True, kw_only=True):
    """One finished table as the standings see it.

    Two players with a ``score`` (counted for ``players[0]``); a pod with a
    ``placement``; or a ``bye`` for one player. Cut and elimination rounds are
    not fed to the standings (EV-6.5).
    """

    round: int
    players: tuple[str, ...]
    score: Score | None = None
    placement: Placement | None = None
    bye: bool = False
    loss: bool = False  # a late entry's match loss for a round missed (EV-2.9)


class Record(msgspec.Struct, frozen=True, gc=False):
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the standings; percentages are exact fractions written ``n/d``."""

    rank: int
    player: str
    name: str
    points: int
    record: Record
    mw: str
    omw: str
    gw: str
    ogw: str
    dropped_after: int | None = None

    def figures(self) -> tuple[int, Fraction, Fraction, Fraction]:
        """The four ordering figures, as exact values."""
        return (self.points, Fraction(self.omw), Fraction(self.gw), Fraction(self.ogw))


class Contribution(msgspec.Struct, frozen=True, gc=False):
    """What one finished table adds to one player's raw counts."""

    points: int
    possible: int
    game_points: int
    games: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0


def floor_of(settings: Settings) -> Fraction:
    """The minimum of every percentage: 1/3 exactly, or 33/100 (EV-I.1)."""
    return Fraction(33, 100) if settings.floor == "0.33" else Fraction(1, 3)


def fraction_text(value: Fraction) -> str:
    """``n/d`` in lowest terms (``1/1`` for one, ``0/1`` for zero)."""
    return f"{value.numerator}/{value.denominator}"


def contributions(result: MatchResult, settings: Settings) -> dict[str, Contribution]:
    """Each player's share of ``result`` (EV-4.2, EV-4.3, EV-4.4; pods EV-7.4)."""
    if result.bye:
        return {result.players[0]: _bye(settings)}
    if result.loss:  # a round missed, lost with no opponent (EV-2.9)
        return {result.players[0]: _missed(settings)}
    if result.placement is not None:
        return pod_contributions(result.placement, settings)
    assert result.score is not None, "a two-player result needs a score"
    first, second = result.players
    score = result.score
    games = score.wins + score.losses + score.draws
    winner = score.winner
    out: dict[str, Contribution] = {}
    for index, player in enumerate((first, second)):
        won = score.wins if index == 0 else score.losses
        if winner is None:
            points, record = 1, (0, 0, 1)
        elif winner == index:
            points, record = 3, (1, 0, 0)
        else:
            points, record = 0, (0, 1, 0)
        out[player] = Contribution(
            points, 3, 3 * won + score.draws, games, record[0], record[1], record[2]
        )
    return out


def _bye(settings: Settings) -> Contribution:
    if settings.pods:
        per_round = 9 if settings.pod_points == "pairwise" else 3
        return Contribution(per_round, per_round, 3, 1, wins=1, byes=1)
    return Contribution(3, 3, 6, 2, wins=1, byes=1)


def _missed(settings: Settings) -> Contribution:
    """A late entry's round missed, lost with no opponent (EV-2.9, EV-I.12): the mirror of
    a bye, 0-2 in games, or the games the match needs with ``missed_losses="match"``; in a
    pod event, nothing of a bye's points possible and one game (EV-I.7)."""
    if settings.pods:
        per_round = 9 if settings.pod_points == "pairwise" else 3
        return Contribution(0, per_round, 0, 1, losses=1)
    games = games_to_win(settings.match) if settings.missed_losses == "match" else 2
    return Contribution(0, 3, 0, games, losses=1)


def pod_contributions(placement: Placement, settings: Settings) -> dict[str, Contribution]:
    """A pod's shares (EV-7.4, EV-I.7).

    ``pairwise`` (default): a pod is scored as a match against each other
    player: 3 for each one placed below you, 1 for each sharing your place, 0
    for each above; possible is 3 per other player (a 4-pod gives 9/6/3/0).
    ``pod``: 3 for sole first place, 1 for a shared first, 0 otherwise, out of 3.
    Game figures count the pod as one game: sole first 3, shared first 1.
    Record: sole first is a win, shared first a draw, any other place a loss.
    """
    places = dict(placement.places)
    out: dict[str, Contribution] = {}
    for player, place in placement.places:
        firsts = sum(1 for p in places.values() if p == 1)
        if place == 1 and firsts == 1:
            game_points, record = 3, (1, 0, 0)
        elif place == 1:
            game_points, record = 1, (0, 0, 1)
        else:
            game_points, record = 0, (0, 1, 0)
        if settings.pod_points == "pairwise":
            others = [p for who, p in placement.places if who != player]
            points = sum(3 if p > place else 1 if p == place else 0 for p in others)
            possible = 3 * len(others)
        else:
            points, possible = game_points, 3
        out[player] = Contribution(points, possible, game_points, 1, *record)
    return out


def _opponents(result: MatchResult) -> dict[str, list[str]]:
    if result.bye or result.loss:
        return {result.players[0]: []}
    return {p: [q for q in result.players if q != p] for p in result.players}


class _Entry:
    """Mutable raw counts of one player inside ``Standings``."""

    __slots__ = (
        "byes",
        "draws",
        "game_points",
        "games",
        "losses",
        "opp_gw",
        "opp_mw",
        "opponents",
        "points",
        "possible",
        "wins",
    )

    def __init__(self) -> None:
        self.points = 0
        self.possible = 0
        self.game_points = 0
        self.games = 0
        self.wins = self.losses = self.draws = self.byes = 0
        self.opponents: list[str] = []
        self.opp_mw = Fraction(0)
        self.opp_gw = Fraction(0)

    def add(self, c: Contribution, sign: int) -> None:
        _counted(self, c, sign)


def _counted(counts: _Entry | _Tally, c: Contribution, sign: int) -> None:
    """Add ``c`` to ``counts`` (``sign`` -1: take it away)."""
    counts.points += sign * c.points
    counts.possible += sign * c.possible
    counts.game_points += sign * c.game_points
    counts.games += sign * c.games
    counts.wins += sign * c.wins
    counts.losses += sign * c.losses
    counts.draws += sign * c.draws
    counts.byes += sign * c.byes


def _share(points: int, possible: int, floor: Fraction) -> Fraction:
    """points / possible raised to the floor; nothing possible yet gives the floor (EV-I.3)."""
    # compared in integers (the same as comparing the fractions, without their type checks)
    if possible <= 0 or points * floor.denominator <= floor.numerator * possible:
        return floor
    return Fraction(points, possible)


def _mean(total: Fraction, count: int) -> Fraction:
    """``total / count`` (a positive count), made from the terms: ``Fraction``'s division
    checks its operands' types first, which costs more than the division."""
    return Fraction(total.numerator, total.denominator * count)


def _pair(value: Fraction) -> tuple[int, int]:
    return value.numerator, value.denominator


class _Exact:
    """A fraction as its lowest terms, compared exactly: equal when its terms are (lowest
    terms are unique), ordered by cross-multiplying. In a sort key after the fraction's
    float it is asked only when the floats tie, and a tie is equal far more often than not:
    ``Fraction.__eq__`` costs ten times as much (its abstract-class checks)."""

    __slots__ = ("d", "n")

    def __init__(self, n: int, d: int) -> None:
        self.n = n
        self.d = d

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Exact) and self.n == other.n and self.d == other.d

    def __lt__(self, other: _Exact) -> bool:
        return self.n * other.d < other.n * self.d

    def __le__(self, other: _Exact) -> bool:
        return self.n * other.d <= other.n * self.d

    def __gt__(self, other: _Exact) -> bool:
        return self.n * other.d > other.n * self.d

    def __ge__(self, other: _Exact) -> bool:
        return self.n * other.d >= other.n * self.d

    def __hash__(self) -> int:
        return hash((self.n, self.d))


_Key = tuple[int, float, _Exact, float, _Exact, float, _Exact, int]
"""A player's place in ``Standings``' sorted keys: minus points, then minus OMW, GW and
OGW each as a float before the exact fraction (a float is correctly rounded, so its order
agrees with the fraction's, and only tied floats compare the exact fractions), then the
registration order."""


def _sort_key(figures: tuple[int, Fraction, Fraction, Fraction], order: int) -> _Key:
    points, omw, gw, ogw = figures
    o, g, og = omw.numerator, gw.numerator, ogw.numerator
    od, gd, ogd = omw.denominator, gw.denominator, ogw.denominator
    # an int divided by an int is correctly rounded, as float(Fraction) is
    return (
        -points,
        -o / od,
        _Exact(-o, od),
        -g / gd,
        _Exact(-g, gd),
        -og / ogd,
        _Exact(-og, ogd),
        order,
    )


class StandingsCounts(msgspec.Struct, array_like=True, frozen=True):
    """What a ``Standings`` holds, in plain integers (``Standings.counts``): enough to make
    it again (``Standings.restored``) without summing a result or sorting a player, which
    a 10,000-player event's snapshot needs. Rows are in the table's order, best first;
    each fraction is a numerator and denominator in lowest terms."""

    players: list[str]
    counts: list[tuple[int, int, int, int, int, int, int, int]]
    """points, possible, game points, games, wins, losses, draws, byes"""
    opponents: list[list[str]]
    sums: list[tuple[int, int, int, int]]
    """the opponents' MW sum and GW sum"""
    figures: list[tuple[int, int, int, int, int, int, int]]
    """points, OMW, GW, OGW: the sort key's figures"""
    results: list[tuple[tuple[int, int], MatchResult]]


class PlacedCounts(msgspec.Struct, array_like=True, frozen=True):
    """What a ranking reads of ``StandingsCounts`` as a snapshot keeps them: the players,
    their counts and their opponents, each opponent by their place in ``players`` (or past
    them, in ``others``: a name the counts do not rank); the sums and figures and the
    results are kept apart (``CountedFigures``). A reader of 10,000 players' 90,000
    opponents then decodes integers and sums columns by place, where names were decoded,
    hashed and looked up one by one, and decodes no figure it works out again."""

    players: list[str]
    others: list[str]
    """Opponents who are not among ``players`` (none when the counts are a table's own):
    place ``len(players) + k`` is ``others[k]``."""
    counts: list[tuple[int, int, int, int, int, int, int, int]]
    opponents: list[list[int]]

    @classmethod
    def of(cls, counts: StandingsCounts) -> PlacedCounts:
        """``counts`` with their opponents placed (their figures and results left out)."""
        players = counts.players
        place = dict(zip(players, range(len(players)), strict=True))
        others: list[str] = []
        get = place.__getitem__
        try:
            opponents = [list(map(get, met)) for met in counts.opponents]
        except KeyError:  # an opponent the counts do not rank: placed after them
            for name in itertools.chain.from_iterable(counts.opponents):
                if name not in place:
                    place[name] = len(place)
                    others.append(name)
            opponents = [list(map(get, met)) for met in counts.opponents]
        return cls(players=players, others=others, counts=counts.counts, opponents=opponents)

    def named(
        self,
        figured: CountedFigures | None = None,
        results: list[tuple[tuple[int, int], MatchResult]] | None = None,
    ) -> StandingsCounts:
        """These counts with their opponents by name, ``figured``'s sums and figures and
        ``results`` (not given: left empty)."""
        names = [*self.players, *self.others] if self.others else self.players
        get = names.__getitem__
        return StandingsCounts(
            players=self.players,
            counts=self.counts,
            opponents=[list(map(get, met)) for met in self.opponents],
            sums=figured.sums if figured is not None else [],
            figures=figured.figures if figured is not None else [],
            results=results if results is not None else [],
        )


class CountedFigures(msgspec.Struct, array_like=True, frozen=True):
    """The rest of ``StandingsCounts`` but their results, kept apart from ``PlacedCounts``:
    the opponents' sums and the sort key's figures, row by row."""

    sums: list[tuple[int, int, int, int]]
    figures: list[tuple[int, int, int, int, int, int, int]]


class Standings:
    """Standings kept current one result at a time (see the module doc).

    ``record`` adds a finished table, ``correct`` replaces one, ``remove``
    takes one away; ``table()`` lists every player in order, ``row`` one.
    """

    def __init__(self, settings: Settings, entrants: Iterable[Entrant] = ()) -> None:
        self.settings = settings
        self.floor = floor_of(settings)
        self._entrants: dict[str, Entrant] = {}
        self._entries: dict[str, _Entry] = {}
        self._keys: dict[str, _Key] = {}
        # the players a result moved since the keys were last sorted: ``_settle`` gives them
        # their new figures and places before anything is read (a round's end records
        # thousands of results between two reads of the table)
        self._dirty: set[str] = set()
        # each player's figures (and, once shown, their texts) as of the last change that
        # touched them: ``table()`` divides and formats only for the players a change moved
        self._figs: dict[str, tuple[int, Fraction, Fraction, Fraction]] = {}
        self._texts: dict[str, tuple[str, str, str, str]] = {}
        # each player's line as ``table()`` last made it, kept while nothing it shows moved
        # (a change to the player's figures or registration drops it; a new rank replaces
        # it): after one result, most lines are the same objects, so a reader keeping
        # something made from each line can tell which players to make again
        self._lines: dict[str, Standing] = {}
        self._sorted: SortedList = SortedList()
        self._results: dict[TableKey, MatchResult] = {}
        for entrant in entrants:
            self.add_player(entrant)

    @classmethod
    def built(
        cls,
        settings: Settings,
        entrants: Iterable[Entrant],
        results: Mapping[TableKey, MatchResult],
    ) -> Standings:
        """The table after ``results`` (in their order), built in one pass: every count
        summed, then each opponents' sum taken once and the players sorted once. Equal to
        recording the results one by one (property-tested), which re-sorts the players each
        result touches: 80 s for a 10,000-player event in round 4, a second this way."""
        table = cls(settings)
        entries = table._entries
        for entrant in entrants:
            table._entrants[entrant.id] = entrant
            entries.setdefault(entrant.id, _Entry())
        for key, result in results.items():
            shares = contributions(result, settings)
            for player in shares:
                if player not in entries:
                    raise KeyError(f"unknown player {player!r} in a result")
            table._results.pop(key, None)  # a later result for a key replaces it
            table._results[key] = result
        for result in table._results.values():
            for player, share in contributions(result, settings).items():
                entries[player].add(share, +1)
            for player, others in _opponents(result).items():
                entries[player].opponents.extend(others)
        mw = {p: table._mw(e) for p, e in entries.items()}
        gw = {p: table._gw(e) for p, e in entries.items()}
        for entry in entries.values():
            entry.opp_mw = sum((mw[o] for o in entry.opponents), Fraction(0))
            entry.opp_gw = sum((gw[o] for o in entry.opponents), Fraction(0))
        for player in entries:
            figures = table._figures(player)
            table._keys[player] = _sort_key(figures, table._entrants[player].order)
            table._figs[player] = figures
        table._sorted = SortedList(table._keys.values())
        return table

    def counts(self) -> StandingsCounts:
        """Everything this table holds, as plain integers (see ``StandingsCounts``)."""
        self._settle()
        players = self.order()
        rows = [self._entries[p] for p in players]
        figures = [self._figs[p] for p in players]
        return StandingsCounts(
            players=players,
            counts=[
                (e.points, e.possible, e.game_points, e.games, e.wins, e.losses, e.draws, e.byes)
                for e in rows
            ],
            opponents=[list(e.opponents) for e in rows],
            sums=[(*_pair(e.opp_mw), *_pair(e.opp_gw)) for e in rows],
            figures=[(f[0], *_pair(f[1]), *_pair(f[2]), *_pair(f[3])) for f in figures],
            results=list(self._results.items()),
        )

    @classmethod
    def restored(
        cls, settings: Settings, entrants: Iterable[Entrant], counts: StandingsCounts
    ) -> Standings:
        """The table ``counts`` was taken from, for these registrations (the same ones)."""
        table = cls(settings)
        table._entrants = {e.id: e for e in entrants}
        table._results = dict(counts.results)
        keys: list[_Key] = []
        for player, row, opponents, sums, figs in zip(
            counts.players,
            counts.counts,
            counts.opponents,
            counts.sums,
            counts.figures,
            strict=True,
        ):
            entry = _Entry()
            (
                entry.points,
                entry.possible,
                entry.game_points,
                entry.games,
                entry.wins,
                entry.losses,
                entry.draws,
                entry.byes,
            ) = row
            entry.opponents = list(opponents)  # its own: the counts stay as taken
            entry.opp_mw = Fraction(sums[0], sums[1])
            entry.opp_gw = Fraction(sums[2], sums[3])
            table._entries[player] = entry
            omw, gw, ogw = (
                Fraction(figs[1], figs[2]),
                Fraction(figs[3], figs[4]),
                Fraction(figs[5], figs[6]),
            )
            table._figs[player] = (figs[0], omw, gw, ogw)
            key = _sort_key(table._figs[player], table._entrants[player].order)
            table._keys[player] = key
            keys.append(key)
        table._sorted = SortedList(keys)  # already in order: one pass
        return table

    # -- players

    def add_player(self, entrant: Entrant) -> None:
        """Add a registered player (a late entry too) with nothing played."""
        if entrant.id in self._entrants:
            self.update_player(entrant)
            return
        self._entrants[entrant.id] = entrant
        self._entries[entrant.id] = _Entry()
        self._rekey(entrant.id)

    def update_player(self, entrant: Entrant) -> None:
        """Replace a player's registration (a drop, a name fix); figures are unchanged."""
        self._entrants[entrant.id] = entrant
        self._lines.pop(entrant.id, None)

    # -- results

    def record(self, key: TableKey, result: MatchResult) -> None:
        """Add a finished table; a second result for the same key is a correction."""
        if key in self._results:
            self.remove(key)
        self._results[key] = result
        self._apply(result, +1)

    def correct(self, key: TableKey, result: MatchResult) -> None:
        """Replace the result of ``key`` (EV-8.1)."""
        self.record(key, result)

    def remove(self, key: TableKey) -> None:
        """Take a table's result away, as if it had never been reported."""
        result = self._results.pop(key)
        self._apply(result, -1)

    def _mw(self, entry: _Entry) -> Fraction:
        return _share(entry.points, entry.possible, self.floor)

    def _gw(self, entry: _Entry) -> Fraction:
        return _share(entry.game_points, 3 * entry.games, self.floor)

    def _apply(self, result: MatchResult, sign: int) -> None:
        shares = contributions(result, self.settings)
        met = _opponents(result)
        entries = self._entries
        touched: set[str] = set(shares)
        for player in shares:
            if player not in entries:
                raise KeyError(f"unknown player {player!r} in a result")
        if sign < 0:
            # forget the meetings first, at the opponents' figures as they stand
            for player, others in met.items():
                entry = entries[player]
                for other in others:
                    entry.opponents.remove(other)
                    entry.opp_mw -= self._mw(entries[other])
                    entry.opp_gw -= self._gw(entries[other])
        before = {p: (self._mw(entries[p]), self._gw(entries[p])) for p in shares}
        for player, share in shares.items():
            entries[player].add(share, sign)
        for player in shares:
            entry = entries[player]
            d_mw = self._mw(entry) - before[player][0]
            d_gw = self._gw(entry) - before[player][1]
            if not d_mw and not d_gw:
                continue
            for other in entry.opponents:
                opponent = entries[other]
                opponent.opp_mw += d_mw
                opponent.opp_gw += d_gw
                touched.add(other)
        if sign > 0:
            for player, others in met.items():
                entry = entries[player]
                for other in others:
                    entry.opponents.append(other)
                    entry.opp_mw += self._mw(entries[other])
                    entry.opp_gw += self._gw(entries[other])
        self._dirty |= touched  # placed again when next read (``_settle``)

    def _settle(self) -> None:
        """Give every player a result moved since the last read their new figures and place:
        each moved in the sorted keys, or, when many moved (a round's results between two
        reads), every key sorted once."""
        dirty = self._dirty
        if not dirty:
            return
        self._dirty = set()
        if len(dirty) * 4 < len(self._keys):
            for player in dirty:
                self._rekey(player)
            return
        for player in dirty:
            figures = self._figures(player)
            self._keys[player] = _sort_key(figures, self._entrants[player].order)
            self._figs[player] = figures
            self._texts.pop(player, None)
            self._lines.pop(player, None)
        self._sorted = SortedList(self._keys.values())

    def _figures(self, player: str) -> tuple[int, Fraction, Fraction, Fraction]:
        entry = self._entries[player]
        count = len(entry.opponents)
        omw = _mean(entry.opp_mw, count) if count else self.floor
        ogw = _mean(entry.opp_gw, count) if count else self.floor
        return entry.points, omw, self._gw(entry), ogw

    def _rekey(self, player: str) -> None:
        old = self._keys.get(player)
        if old is not None:
            self._sorted.remove(old)
        figures = self._figures(player)
        key = _sort_key(figures, self._entrants[player].order)
        self._keys[player] = key
        self._sorted.add(key)
        self._figs[player] = figures
        self._texts.pop(player, None)
        self._lines.pop(player, None)

    def _shown(self, player: str) -> tuple[str, str, str, str]:
        """The player's MW, OMW, GW and OGW as texts (kept until a change touches them)."""
        texts = self._texts.get(player)
        if texts is None:
            _, omw, gw, ogw = self._figs[player]
            mw = self._mw(self._entries[player])
            texts = (fraction_text(mw), fraction_text(omw), fraction_text(gw), fraction_text(ogw))
            self._texts[player] = texts
        return texts

    # -- reading

    def results(self) -> dict[TableKey, MatchResult]:
        return dict(self._results)

    def rank(self, player: str) -> int:
        self._settle()
        key = self._keys[player]
        return int(self._sorted.bisect_left((*key[:7], -1))) + 1

    def ranking(self) -> list[tuple[str, int]]:
        """Player ids best first, with their points."""
        return [(player, self._figs[player][0]) for player in self.order()]

    def order(self) -> list[str]:
        """Player ids best first."""
        self._settle()
        by_order = {e.order: e.id for e in self._entrants.values()}
        return [by_order[key[7]] for key in self._sorted]

    def row(self, player: str) -> Standing:
        return self._standing(player, self.rank(player))  # settled by ``rank``

    def table(self) -> list[Standing]:
        rows: list[Standing] = []
        previous: tuple[int, str, str, str] | None = None
        rank = 0
        lines = self._lines
        for position, player in enumerate(self.order(), start=1):
            # lowest-terms texts are equal exactly when the fractions are: compare those
            texts = self._shown(player)
            shown = (self._figs[player][0], texts[1], texts[2], texts[3])
            if shown != previous:
                rank, previous = position, shown
            line = lines.get(player)
            if line is None or line.rank != rank:
                line = lines[player] = self._standing(player, rank)
            rows.append(line)
        return rows

    def _standing(self, player: str, rank: int) -> Standing:
        entry = self._entries[player]
        entrant = self._entrants[player]
        mw, omw, gw, ogw = self._shown(player)
        return Standing(
            rank=rank,
            player=player,
            name=entrant.name,
            points=self._figs[player][0],
            record=Record(entry.wins, entry.losses, entry.draws, entry.byes),
            mw=mw,
            omw=omw,
            gw=gw,
            ogw=ogw,
            dropped_after=entrant.dropped_after,
        )

    def explain(self, player: str) -> str:
        return explain(player, self._entrants.values(), self._results.values(), self.settings)


# -- from scratch -----------------------------------------------------------------


class _Tally(msgspec.Struct):
    points: int = 0
    possible: int = 0
    game_points: int = 0
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    opponents: list[str] = []

    def add(self, share: Contribution, opponents: list[str], sign: int = 1) -> None:
        """Count one table's ``share`` (``sign`` -1: take it back, and one meeting with
        each of ``opponents``)."""
        _counted(self, share, sign)
        if sign > 0:
            self.opponents.extend(opponents)
        else:
            for other in opponents:
                self.opponents.remove(other)

    def row(self) -> tuple[int, int, int, int, int, int, int, int]:
        return (
            self.points,
            self.possible,
            self.game_points,
            self.games,
            self.wins,
            self.losses,
            self.draws,
            self.byes,
        )


def _tallies(
    entrants: Iterable[Entrant],
    results: Iterable[MatchResult],
    settings: Settings,
    after_round: int | None,
) -> dict[str, _Tally]:
    tallies = {e.id: _Tally() for e in entrants}
    scored: dict[Score, tuple[Contribution, ...]] = {}  # a handful of distinct slips
    for result in results:
        if after_round is not None and result.round > after_round:
            continue
        players, score = result.players, result.score
        if _two_scored(result) and players[0] != players[1]:
            assert score is not None
            shares = scored.get(score)
            if shares is None:
                shares = scored[score] = tuple(contributions(result, settings).values())
            _tallied(tallies, players[0], shares[0], players[1])
            _tallied(tallies, players[1], shares[1], players[0])
            continue
        met = _opponents(result)
        for player, share in contributions(result, settings).items():
            tallies.setdefault(player, _Tally()).add(share, met[player])
    return tallies


def _two_scored(result: MatchResult) -> bool:
    """A two-player table with a score: its shares depend on the score alone (and the
    event's settings), so ``_tallies`` works them out once per distinct slip."""
    return (
        result.score is not None
        and not result.bye
        and not result.loss
        and result.placement is None
        and len(result.players) == 2
    )


def _tallied(tallies: dict[str, _Tally], player: str, share: Contribution, opponent: str) -> None:
    """``_Tally.add`` of one player's share of a two-player table, inlined (80,000 by round
    9 of a 10,000-player event)."""
    tally = tallies.get(player)
    if tally is None:
        tally = tallies[player] = _Tally()
    tally.points += share.points
    tally.possible += share.possible
    tally.game_points += share.game_points
    tally.games += share.games
    tally.wins += share.wins
    tally.losses += share.losses
    tally.draws += share.draws
    tally.byes += share.byes
    tally.opponents.append(opponent)


class _Figures(msgspec.Struct, frozen=True, gc=False):
    """Every player's figures in integers (``_figured``): OMW, GW and OGW over ``whole``,
    MW and GW (``shares``) and the opponents' sums over ``unit``."""

    lines: dict[str, tuple[int, int, int, int, int, int]]
    """points, OMW, GW, OGW, the opponents' MW sum, their GW sum"""
    shares: dict[str, tuple[tuple[int, int], tuple[int, int]]]
    unit: int
    whole: int


def _figured(tallies: Mapping[str, _Tally], floor: Fraction) -> _Figures:
    """Exact in integers: every MW and GW is a multiple of 1 / ``unit`` (the lcm of their
    denominators, a handful of distinct ones), so an opponents' sum is an integer and a
    mean over n opponents an integer over ``unit * n``; scaled to the lcm of every n, the
    four figures compare as integers (Fractions took 5 s at 10,000 players)."""
    # a handful of distinct (points, possible) pairs: each raised to the floor once
    ratios: dict[tuple[int, int], tuple[int, int]] = {}
    shares = {}
    for player, t in tallies.items():
        mw_key, gw_key = (t.points, t.possible), (t.game_points, 3 * t.games)
        mw = ratios.get(mw_key)
        if mw is None:
            mw = ratios[mw_key] = _ratio(*mw_key, floor)
        gw = ratios.get(gw_key)
        if gw is None:
            gw = ratios[gw_key] = _ratio(*gw_key, floor)
        shares[player] = (mw, gw)
    unit = math.lcm(*{d for _, d in ratios.values()}, floor.denominator)
    scaled = {ratio: ratio[0] * (unit // ratio[1]) for ratio in set(ratios.values())}
    mw_of = {p: scaled[mw] for p, (mw, _) in shares.items()}
    gw_of = {p: scaled[gw] for p, (_, gw) in shares.items()}
    counts = {len(t.opponents) for t in tallies.values()} - {0}
    spread = math.lcm(*counts) if counts else 1
    floor_scaled = floor.numerator * (unit // floor.denominator) * spread
    lines = {}
    mw_get, gw_get = mw_of.__getitem__, gw_of.__getitem__
    for player, tally in tallies.items():
        opponents = tally.opponents
        if opponents:
            opp_mw = sum(map(mw_get, opponents))
            opp_gw = sum(map(gw_get, opponents))
            per = spread // len(opponents)
            omw, ogw = opp_mw * per, opp_gw * per
        else:
            opp_mw = opp_gw = 0
            omw = ogw = floor_scaled
        lines[player] = (tally.points, omw, gw_of[player] * spread, ogw, opp_mw, opp_gw)
    return _Figures(lines=lines, shares=shares, unit=unit, whole=unit * spread)


def compute_standings(
    entrants: Iterable[Entrant],
    results: Iterable[MatchResult],
    settings: Settings,
    *,
    after_round: int | None = None,
) -> list[Standing]:
    """Every player's line, best first, from scratch (``after_round``: as after round N).

    Players who had not entered by ``after_round`` are left out.
    """
    floor = floor_of(settings)
    people = {e.id: e for e in entrants}
    if after_round is not None:
        people = {k: e for k, e in people.items() if e.entry_round <= after_round}
    tallies = _tallies(people.values(), results, settings, after_round)
    figured = _figured(tallies, floor)
    lines = []
    for player, entrant in people.items():
        points, omw, gw_p, ogw, _, _ = figured.lines[player]
        lines.append((points, omw, gw_p, ogw, entrant, tallies[player]))
    lines.sort(key=lambda line: (-line[0], -line[1], -line[2], -line[3], line[4].order))
    whole = figured.whole
    out: list[Standing] = []
    rank = 0
    previous: tuple[int, int, int, int] | None = None
    for position, (points, omw, gw_p, ogw, entrant, tally) in enumerate(lines, start=1):
        if (points, omw, gw_p, ogw) != previous:
            rank, previous = position, (points, omw, gw_p, ogw)
        dropped = entrant.dropped_after
        if after_round is not None and dropped is not None and dropped > after_round:
            dropped = None
        out.append(
            Standing(
                rank=rank,
                player=entrant.id,
                name=entrant.name,
                points=points,
                record=Record(tally.wins, tally.losses, tally.draws, tally.byes),
                mw=_lowest(*figured.shares[entrant.id][0]),
                omw=_lowest(omw, whole),
                gw=_lowest(gw_p, whole),
                ogw=_lowest(ogw, whole),
                dropped_after=dropped,
            )
        )
    return out


def advanced(
    counts: StandingsCounts,
    settings: Settings,
    entrants: Iterable[Entrant],
    changes: Mapping[TableKey, MatchResult | None],
) -> StandingsCounts:
    """``counts`` with each changed table's result set (``None``: taken away) and every
    player of ``entrants`` in them: the counts of ``Standings.restored(counts)`` once each
    change is recorded or removed (property-tested), worked out in one pass in integers.
    What the changes and the players cost, not the results: at 10,000 players in round 9,
    a round's 5,000 results moved onto the 45,000 kept, where ``compute_standings`` sums
    them all. ``counts`` itself when nothing changed."""
    moved = _moved(counts, settings, entrants, changes)
    if moved is None:
        return counts
    people, tallies, results = moved
    figured = _figured(tallies, floor_of(settings))
    order = _ordered(people, figured)
    lines = [figured.lines[p] for p in order]
    unit, whole = figured.unit, figured.whole
    return StandingsCounts(
        players=order,
        counts=[tallies[p].row() for p in order],
        opponents=[tallies[p].opponents for p in order],
        sums=[(*_reduced(line[4], unit), *_reduced(line[5], unit)) for line in lines],
        figures=[
            (
                line[0],
                *_reduced(line[1], whole),
                *_reduced(line[2], whole),
                *_reduced(line[3], whole),
            )
            for line in lines
        ],
        results=list(results.items()),
    )


def ranked(
    counts: StandingsCounts | PlacedCounts,
    settings: Settings,
    entrants: Iterable[Entrant],
    changes: Mapping[TableKey, MatchResult | None],
) -> list[tuple[str, int]]:
    """Every player best first with their points, as ``advanced`` would order them (its
    counts are not built). Of ``counts.results`` only the changed tables' are read: counts
    whose results hold none of those (a pairing after the round's slips) may leave the
    others out (``PlacedCounts`` hold none: the caller knows none of them changed)."""
    people = {e.id: e for e in entrants}
    if isinstance(counts, PlacedCounts):
        placed: PlacedCounts | None = counts
    else:
        kept = counts.results
        changed = bool(kept) and not {key for key, _ in kept}.isdisjoint(changes)
        placed = None if changed else PlacedCounts.of(counts)
    slips = None if placed is None else _ranked_slips(placed, settings, people, changes)
    if slips is not None:
        return slips
    named = counts.named() if isinstance(counts, PlacedCounts) else counts
    moved = _moved(named, settings, people.values(), changes)
    if moved is None:  # nothing changed: the counts' order, with their points
        return [(p, row[0]) for p, row in zip(counts.players, counts.counts, strict=True)]
    people, tallies, _ = moved
    return [(p, tallies[p].points) for p in _ordered(people, _figured(tallies, floor_of(settings)))]


_ORDER = attrgetter("order")


def _ranked_slips(
    counts: PlacedCounts,
    settings: Settings,
    people: Mapping[str, Entrant],
    changes: Mapping[TableKey, MatchResult | None],
) -> list[tuple[str, int]] | None:
    """``ranked`` where every change is a new two-player slip of players the counts hold,
    none of them a table the counts hold a result of, and they hold every player of
    ``people`` (a pairing after a round's slips): worked out in columns of integers, one a
    figure, the players and their opponents by their place in the counts, with no
    ``_Tally`` made, no name looked up but the slips' players, and the passes over 10,000
    players in C (``map``, ``zip``, ``sum``). The same figures as ``_figured`` and the
    same order as ``_ordered``: property-tested against them. ``None``: another case
    (``_moved``'s)."""
    players = counts.players
    index = dict(zip(players, range(len(players)), strict=True))
    if not changes or not players or counts.others or index.keys() != people.keys():
        return None
    columns = list(zip(*counts.counts, strict=True))
    points, possible, game_points, games = (list(column) for column in columns[:4])
    opponents = list(counts.opponents)  # the counts' own lists: a moved one is copied
    find = index.get
    # a handful of distinct slips: each one's eight counts worked out once, unpacked at once
    shared: dict[Score, tuple[int, ...]] = {}
    for result in changes.values():  # ``_two_scored`` inlined: a round's 5,000 slips
        if result is None:
            return None
        score, pair = result.score, result.players
        if score is None or result.bye or result.loss or result.placement is not None:
            return None
        if len(pair) != 2:
            return None
        first, second = pair
        i, j = find(first), find(second)
        if i is None or j is None or i == j:
            return None
        counts_of = shared.get(score)
        if counts_of is None:
            a, b = contributions(result, settings).values()
            counts_of = (a.points, a.possible, a.game_points, a.games)
            counts_of = shared[score] = (*counts_of, b.points, b.possible, b.game_points, b.games)
        p_a, q_a, g_a, n_a, p_b, q_b, g_b, n_b = counts_of
        points[i] += p_a
        possible[i] += q_a
        game_points[i] += g_a
        games[i] += n_a
        points[j] += p_b
        possible[j] += q_b
        game_points[j] += g_b
        games[j] += n_b
        opponents[i] = [*opponents[i], j]
        opponents[j] = [*opponents[j], i]
    floor = floor_of(settings)
    # as ``_figured``: a handful of distinct (points, possible) pairs, each raised once
    mw_pairs = list(zip(points, possible, strict=True))
    gw_pairs = list(zip(game_points, games, strict=True))
    mw_ratio = {pair: _ratio(pair[0], pair[1], floor) for pair in set(mw_pairs)}
    gw_ratio = {pair: _ratio(pair[0], 3 * pair[1], floor) for pair in set(gw_pairs)}
    unit = math.lcm(
        *{d for _, d in mw_ratio.values()}, *{d for _, d in gw_ratio.values()}, floor.denominator
    )
    mw_scaled = {pair: n * (unit // d) for pair, (n, d) in mw_ratio.items()}
    gw_scaled = {pair: n * (unit // d) for pair, (n, d) in gw_ratio.items()}
    mw_column = list(map(mw_scaled.__getitem__, mw_pairs))
    gw_column = list(map(gw_scaled.__getitem__, gw_pairs))
    met = list(map(len, opponents))
    lengths = set(met)
    spread = math.lcm(*(lengths - {0})) if lengths - {0} else 1
    orders = list(map(_ORDER, map(people.__getitem__, players)))
    if len(lengths) == 1 and 0 not in lengths:  # everyone met as many (a Swiss round)
        return _packed_ranking(players, points, mw_column, gw_column, opponents, orders)
    opp_mw = list(map(sum, map(map, repeat(mw_column.__getitem__), opponents)))
    opp_gw = list(map(sum, map(map, repeat(gw_column.__getitem__), opponents)))
    if 0 in lengths:  # a player without an opponent yet stands at the floor
        floor_scaled = floor.numerator * (unit // floor.denominator) * spread
        omw = [s * (spread // n) if n else floor_scaled for s, n in zip(opp_mw, met, strict=True)]
        ogw = [s * (spread // n) if n else floor_scaled for s, n in zip(opp_gw, met, strict=True)]
    else:
        per = {n: spread // n for n in lengths}
        omw = list(map(mul, opp_mw, map(per.__getitem__, met)))
        ogw = list(map(mul, opp_gw, map(per.__getitem__, met)))
    keys = list(
        zip(
            map(neg, points),
            map(neg, omw),
            map(neg, map(mul, gw_column, repeat(spread))),
            map(neg, ogw),
            orders,
            strict=True,
        )
    )
    return [(players[i], points[i]) for i in sorted(range(len(players)), key=keys.__getitem__)]


def _packed_ranking(
    players: Sequence[str],
    points: list[int],
    mw_column: list[int],
    gw_column: list[int],
    opponents: Sequence[Sequence[int]],
    orders: list[int],
) -> list[tuple[str, int]]:
    """``_ranked_slips``' order where every player met as many opponents (so each one's
    OMW and OGW are their opponents' sums over one count: compared as the sums): one
    integer a player, sorted, in place of five-figure tuples compared figure by figure
    (most ties within a score group reach the third or fourth figure). In fields, lowest
    first: the registration order, the opponents' game-win sum, the player's own game
    win share, the opponents' match-win sum, the points; each field wide enough for its
    largest value, so the integers order as the tuples do. The opponents' two sums come
    from one sum a player over a packed column (each opponent's match and game figures
    in their fields), not two."""
    met = len(opponents[0])
    low = min(orders)
    order_bits = (max(orders) - low).bit_length()
    top_gw = max(gw_column)
    ogw_bits = (met * top_gw).bit_length()
    gw_bits = top_gw.bit_length()
    omw_bits = (met * max(mw_column)).bit_length()
    at_gw = order_bits + ogw_bits
    at_mw = at_gw + gw_bits
    at_points = at_mw + omw_bits
    packed = list(
        map(
            add,
            map(lshift, mw_column, repeat(at_mw)),
            map(lshift, gw_column, repeat(order_bits)),
        )
    )
    sums = map(sum, map(map, repeat(packed.__getitem__), opponents))
    own = map(add, map(lshift, points, repeat(at_points)), map(lshift, gw_column, repeat(at_gw)))
    # the figures' fields best first as the smallest, then the registration order
    keys = list(map(sub, map(sub, orders, repeat(low)), map(add, own, sums)))
    return [(players[i], points[i]) for i in sorted(range(len(players)), key=keys.__getitem__)]


def _moved(
    counts: StandingsCounts,
    settings: Settings,
    entrants: Iterable[Entrant],
    changes: Mapping[TableKey, MatchResult | None],
) -> tuple[dict[str, Entrant], dict[str, _Tally], dict[TableKey, MatchResult]] | None:
    """The players, their tallies and the results once ``changes`` are made to ``counts``
    (``None``: they change nothing)."""
    people = {e.id: e for e in entrants}
    # the opponents' lists are the counts' own until a change moves them (then copied
    # first: the counts stay as taken); at 10,000 players a round's results touch half
    tallies = {
        player: _Tally(*row, opponents)
        for player, row, opponents in zip(
            counts.players, counts.counts, counts.opponents, strict=True
        )
    }
    own: set[str] = set()
    changed = False
    for player in people:
        if player not in tallies:
            tallies[player] = _Tally()
            own.add(player)
            changed = True
    results = dict(counts.results)
    scored: dict[Score, tuple[Contribution, ...]] = {}  # a handful of distinct slips
    for key, result in changes.items():
        old = results.pop(key, None)
        if result is not None:
            results[key] = result
        if old == result:
            continue
        changed = True
        if (
            old is None
            and result is not None
            and _slip_added(tallies, own, result, settings, scored)
        ):
            continue
        for before, sign in ((old, -1), (result, 1)):
            if before is None:
                continue
            met = _opponents(before)
            for player, share in contributions(before, settings).items():
                tally = tallies.get(player)
                if tally is None:
                    raise KeyError(f"unknown player {player!r} in a result")
                if player not in own:
                    tally.opponents = list(tally.opponents)
                    own.add(player)
                tally.add(share, met[player], sign)
    return (people, tallies, results) if changed else None


def _slip_added(
    tallies: dict[str, _Tally],
    own: set[str],
    result: MatchResult,
    settings: Settings,
    scored: dict[Score, tuple[Contribution, ...]],
) -> bool:
    """``_moved``'s count of a new two-player slip (a round's 5,000), if ``result`` is one:
    its shares by its score (a handful of distinct slips, as ``_tallies`` counts them), each
    player's opponents copied with the new one (the counts' own lists stay as taken)."""
    if not _two_scored(result) or result.players[0] == result.players[1]:
        return False
    first, second = result.players
    assert result.score is not None
    shares = scored.get(result.score)
    if shares is None:
        shares = scored[result.score] = tuple(contributions(result, settings).values())
    for player in (first, second):
        if player not in tallies:
            raise KeyError(f"unknown player {player!r} in a result")
    for player, share, opponent in ((first, shares[0], second), (second, shares[1], first)):
        tally = tallies[player]
        _counted(tally, share, 1)
        if player in own:
            tally.opponents.append(opponent)
        else:
            tally.opponents = [*tally.opponents, opponent]
            own.add(player)
    return True


def _ordered(people: Mapping[str, Entrant], figured: _Figures) -> list[str]:
    """The players best first: points, OMW, GW, OGW, then registration (EV-4.1, EV-I.2)."""
    keys = {
        p: (-points, -omw, -gw, -ogw, people[p].order)
        for p, (points, omw, gw, ogw, _, _) in figured.lines.items()
    }
    return sorted(keys, key=keys.__getitem__)


def table_of(
    counts: StandingsCounts, settings: Settings, entrants: Iterable[Entrant]
) -> list[Standing]:
    """The table ``Standings.restored(counts).table()`` shows, read off the counts alone
    (their figures are in lowest terms: equal exactly when the fractions are)."""
    floor = floor_of(settings)
    people = {e.id: e for e in entrants}
    out: list[Standing] = []
    rank = 0
    previous: tuple[int, int, int, int, int, int, int] | None = None
    for position, (player, row, figures) in enumerate(
        zip(counts.players, counts.counts, counts.figures, strict=True), start=1
    ):
        if figures != previous:
            rank, previous = position, figures
        entrant = people[player]
        points, omw_n, omw_d, gw_n, gw_d, ogw_n, ogw_d = figures
        out.append(
            Standing(
                rank=rank,
                player=player,
                name=entrant.name,
                points=points,
                record=Record(*row[4:]),
                mw=_lowest(*_ratio(row[0], row[1], floor)),
                omw=f"{omw_n}/{omw_d}",
                gw=f"{gw_n}/{gw_d}",
                ogw=f"{ogw_n}/{ogw_d}",
                dropped_after=entrant.dropped_after,
            )
        )
    return out


def _reduced(numerator: int, denominator: int) -> tuple[int, int]:
    """numerator / denominator in lowest terms (``0/1`` for zero), as ``Fraction`` has it."""
    common = math.gcd(numerator, denominator)
    return numerator // common, denominator // common


def _ratio(points: int, possible: int, floor: Fraction) -> tuple[int, int]:
    """points / possible raised to the floor, as a numerator and a denominator (EV-I.3)."""
    if possible <= 0 or points * floor.denominator < floor.numerator * possible:
        return floor.numerator, floor.denominator
    return points, possible


def _lowest(numerator: int, denominator: int) -> str:
    """``fraction_text`` of numerator / denominator, without making a Fraction."""
    low, high = _reduced(numerator, denominator)
    return f"{low}/{high}"


def explain(
    player: str,
    entrants: Iterable[Entrant],
    results: Iterable[MatchResult],
    settings: Settings,
    *,
    after_round: int | None = None,
) -> str:
    """Every figure of ``player``'s line worked out in words and numbers."""
    floor = floor_of(settings)
    people = {e.id: e for e in entrants}
    tallies = _tallies(people.values(), list(results), settings, after_round)
    if player not in tallies:
        raise KeyError(player)

    def name(p: str) -> str:
        return people[p].name if p in people else p

    def share(points: int, possible: int) -> tuple[Fraction, str]:
        if possible <= 0:
            return floor, f"nothing played yet, so the floor {fraction_text(floor)} is used"
        raw = Fraction(points, possible)
        if raw < floor:
            return floor, (
                f"{points}/{possible} = {fraction_text(raw)}, below the floor, "
                f"so {fraction_text(floor)} is used"
            )
        return raw, f"{points}/{possible} = {fraction_text(raw)}"

    t = tallies[player]
    per = "pod points" if settings.pods else "match points"
    lines = [
        f"{name(player)}: {t.points} {per}; record {t.wins}-{t.losses}-{t.draws} "
        f"with {t.byes} bye(s).",
    ]
    mw, mw_text = share(t.points, t.possible)
    lines.append(f"MW%: {t.points} points of {t.possible} possible: {mw_text}.")
    gw, gw_text = share(t.game_points, 3 * t.games)
    lines.append(f"GW%: {t.game_points} game points of 3 x {t.games} games: {gw_text}.")
    if t.byes:
        lines.append("Byes count in the player's own MW% and GW% but are never an opponent.")
    for label, which in (("OMW%", "MW%"), ("OGW%", "GW%")):
        if not t.opponents:
            lines.append(f"{label}: no opponents yet, so the floor {fraction_text(floor)}.")
            continue
        parts = []
        total = Fraction(0)
        for opponent in t.opponents:
            o = tallies[opponent]
            if which == "MW%":
                value, how = share(o.points, o.possible)
            else:
                value, how = share(o.game_points, 3 * o.games)
            total += value
            parts.append(f"{name(opponent)} {how}")
        mean = total / len(t.opponents)
        lines.append(
            f"{label}: mean of {len(t.opponents)} opponents' {which} ("
            + "; ".join(parts)
            + f"): sum {fraction_text(total)} / {len(t.opponents)} = {fraction_text(mean)}."
        )
    del mw, gw
    return "\n".join(lines)


def standings_from(
    entrants: Sequence[Entrant],
    results: Mapping[TableKey, MatchResult],
    settings: Settings,
) -> Standings:
    """An incremental ``Standings`` loaded with ``results`` (in key order)."""
    standings = Standings(settings, entrants)
    for key in sorted(results):
        standings.record(key, results[key])
    return standings

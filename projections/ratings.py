"""Ratings: Elo for two-seat games, openskill's Plackett-Luce for games of more seats.

A game type is rated by one system throughout, chosen by how many seats it can
have: Elo (start 1500, K = 32) when it is always two, Plackett-Luce (the
maintained ``openskill`` library; the shown rating is its conservative
``ordinal``, mu - 3 sigma) when it can be more, so two-player games of a
multiplayer type are rated on the same scale as the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

ELO_START = 1500.0
ELO_K = 32.0


class Change(NamedTuple):
    """One player's rating before and after one result (mu and sigma for openskill)."""

    player: str
    before: float
    after: float
    mu: float | None = None
    sigma: float | None = None


def placings_points(ranks: Mapping[str, int]) -> dict[str, float]:
    """Points for one result: the share of opponents a seat finished ahead of, ties
    counting half (win 1, draw 0.5, loss 0 with two seats)."""
    seats = list(ranks)
    if len(seats) < 2:
        return {s: 0.0 for s in seats}
    out: dict[str, float] = {}
    for seat in seats:
        beaten = sum(
            1.0 if ranks[seat] < ranks[o] else 0.5 if ranks[seat] == ranks[o] else 0.0
            for o in seats
            if o != seat
        )
        out[seat] = beaten / (len(seats) - 1)
    return out


def system_for(game: str) -> str:
    from referee import games

    try:
        _, highest = games.load(game).player_range()
    except LookupError:
        return "elo"
    return "elo" if highest <= 2 else "openskill"


class Ratings:
    """Players' ratings per game type, updated one result at a time; seeded from the
    stored ratings so only the players of a result are touched."""

    def __init__(self) -> None:
        self._elo: dict[tuple[str, str], list[float]] = {}
        self._skill: dict[tuple[str, str], tuple[Any, int]] = {}
        self._systems: dict[str, str] = {}
        self._model: Any = None

    def system(self, game: str) -> str:
        found = self._systems.get(game)
        if found is None:
            found = self._systems[game] = system_for(game)
        return found

    @property
    def model(self) -> Any:
        if self._model is None:
            from openskill.models import PlackettLuce

            self._model = PlackettLuce()
        return self._model

    def seed(
        self,
        game: str,
        player: str,
        rating: float,
        mu: float | None,
        sigma: float | None,
        games: int,
    ) -> None:
        """Start ``player`` from a known rating (an Elo value, or mu and sigma)."""
        if self.system(game) == "elo":
            self._elo[(game, player)] = [rating, games]
        elif mu is not None and sigma is not None:
            self._skill[(game, player)] = (
                self.model.rating(mu=mu, sigma=sigma, name=player),
                games,
            )

    def rate(self, game: str, ranks: Mapping[str, int]) -> list[Change]:
        """Rate one result (player name -> rank); the changes, in the result's seat order."""
        if self.system(game) == "elo":
            return self._rate_elo(game, ranks)
        return self._rate_skill(game, ranks)

    def _rate_elo(self, game: str, ranks: Mapping[str, int]) -> list[Change]:
        if len(ranks) != 2:
            return []
        (name_a, rank_a), (name_b, rank_b) = ranks.items()
        ra = self._elo.setdefault((game, name_a), [ELO_START, 0])
        rb = self._elo.setdefault((game, name_b), [ELO_START, 0])
        score_a = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
        expected_a = 1.0 / (1.0 + 10 ** ((rb[0] - ra[0]) / 400.0))
        delta = ELO_K * (score_a - expected_a)
        changes = [Change(name_a, ra[0], ra[0] + delta), Change(name_b, rb[0], rb[0] - delta)]
        ra[0] += delta
        rb[0] -= delta
        ra[1] += 1
        rb[1] += 1
        return changes

    def _rate_skill(self, game: str, ranks: Mapping[str, int]) -> list[Change]:
        model = self.model
        names = list(ranks)
        current = [self._skill.get((game, n), (model.rating(name=n), 0)) for n in names]
        rated = model.rate([[r] for r, _ in current], ranks=[ranks[n] for n in names])
        changes = []
        for name, (before, count), (after,) in zip(names, current, rated, strict=True):
            changes.append(Change(name, before.ordinal(), after.ordinal(), after.mu, after.sigma))
            self._skill[(game, name)] = (after, count + 1)
        return changes

    def players(self) -> list[tuple[str, str]]:
        return list(self._elo) + list(self._skill)

    def rows(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [
            {
                "game": g,
                "player": p,
                "system": "elo",
                "rating": r[0],
                "mu": None,
                "sigma": None,
                "games": int(r[1]),
            }
            for (g, p), r in self._elo.items()
        ]
        out += [
            {
                "game": g,
                "player": p,
                "system": "openskill",
                "rating": r.ordinal(),
                "mu": r.mu,
                "sigma": r.sigma,
                "games": n,
            }
            for (g, p), (r, n) in self._skill.items()
        ]
        return out

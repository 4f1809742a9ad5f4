"""An event version's players, indexed once: the read model behind every player's own page.

Built from an event's folded state (``referee.tournament.state.Tournament``) at one
version: each player's id by name (a name exactly, and only a name one player has,
``Tournament.find``) and by house player id, each player's pairings round by round, and
the finished Swiss tables under each of their players. A player's page then costs that
player's rows, not a pass over the whole event (``service.postings.PlayerIndex`` words
the page from it).

Explanations (``Tournament.explain``) are kept in ``memo``, a dict the caller owns and
keeps from one version of the event to the next: an explanation is a function of the
player, the results it reads, the people it names and the event's settings, and it is kept
under exactly those, so after one result only the players who met the two players of that
table get a new one (``explain`` was half of a player page's cost).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.tournament.standings import MatchResult
    from referee.tournament.state import Tournament

__all__ = ["MEMO_AT_MOST", "EventPlayers"]

MEMO_AT_MOST = 50_000
"""Explanations kept at most in one memo; past it the memo starts again."""


class EventPlayers:
    """The players of ``state`` indexed for their own pages (see the module)."""

    def __init__(self, state: Tournament, memo: dict[Any, str] | None = None) -> None:
        self.state = state
        self.memo = memo
        self.names = state.names()
        self._ids: dict[str, str] = {}
        self._house = {e.player_id: e.id for e in state.players.values() if e.player_id}
        for entrant in state.players.values():
            self._ids[entrant.name] = "" if entrant.name in self._ids else entrant.id
        self._paired: dict[str, list[tuple[int, Any]]] = {}
        for number in sorted(state.rounds):
            for pairing in state.rounds[number].pairings:
                for player in pairing.players:
                    self._paired.setdefault(player, []).append((number, pairing))
        self._results: dict[str, list[tuple[int, MatchResult]]] | None = None

    def find(self, name: str) -> str | None:
        """The id of the player named or identified by ``name`` (as ``Tournament.find``)."""
        wanted = " ".join(name.split())
        if wanted in self.state.players:
            return wanted
        if wanted in self._house:
            return self._house[wanted]
        return self._ids.get(wanted) or None

    def paired(self, who: str) -> list[tuple[int, Any]]:
        """The player's pairings, round by round: (round number, pairing)."""
        return self._paired.get(who, [])

    def explanation(self, who: str) -> str:
        """How player ``who``'s figures are computed (``Tournament.explain``, now), from
        their own results and their opponents' only: every line of it is one of those."""
        from referee.tournament.standings import explain  # on use: a page, not every command

        state = self.state
        if state.settings is None:
            return state.explain(who)
        if self._results is None:
            self._results = {}
            for number, result in enumerate(state.match_results().values()):
                for player in result.players:
                    self._results.setdefault(player, []).append((number, result))
        by_player = self._results
        met = {p for _, r in by_player.get(who, []) for p in r.players} | {who}
        relevant = dict(item for p in met for item in by_player.get(p, []))
        people = [state.players[p] for p in met if p in state.players]
        results = [relevant[n] for n in sorted(relevant)]
        if self.memo is None:
            return explain(who, people, results, state.settings)
        key = (who, tuple(sorted(people, key=lambda e: e.id)), tuple(results), state.settings)
        found = self.memo.get(key)
        if found is None:
            if len(self.memo) >= MEMO_AT_MOST:
                self.memo.clear()
            found = self.memo[key] = explain(who, people, results, state.settings)
        return found

"""The playoff as people read it: stage names, the bracket, how far each player went, the
final places, and who plays first in a match's next game.

Pure reads of a folded ``Tournament``: nothing here decides or stores. A single-elimination
round is named by how many players it starts with (EV-6.6): two make the final, four the
semifinal, eight the quarterfinal, more "the round of N". The final places follow
``Tournament.final_ranking`` (EV-I.9; an elimination event's, EV-I.13); ``final_places``
adds, for each player of the playoff, how far they went, so a page can say "semifinalist"
beside the place (EV-6.7).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from referee.tournament.model import PLAYOFF_KINDS, Pairing, Round, Score
from referee.tournament.state import TableState, Tournament

__all__ = [
    "BracketMatch",
    "BracketRound",
    "FinalPlace",
    "bracket",
    "final_places",
    "is_playoff",
    "next_game_order",
    "ordinal",
    "round_label",
    "round_words",
    "stage_name",
]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def is_playoff(rnd: Round) -> bool:
    return rnd.kind in PLAYOFF_KINDS


def _bracket_size(rnd: Round) -> int:
    """The players a bracket round starts with, byes included, up to a power of two."""
    players = len(rnd.players())
    size = 2
    while size < players:
        size *= 2
    return size


def stage_name(players: int) -> str:
    """The name of a single-elimination round starting with ``players`` (EV-6.6)."""
    return {2: "final", 4: "semifinal", 8: "quarterfinal"}.get(players, f"round of {players}")


def round_label(state: Tournament, number: int) -> str:
    """How people call round ``number``: "round 3" for a Swiss, pod or round-robin round,
    the stage for a playoff round ("quarterfinal"), EV-6.6: the first playoff round's size
    halved once a round, so a round with a slot nobody came to (EV-6.9) keeps its name."""
    rnd = state.rounds.get(number)
    if rnd is None or not is_playoff(rnd):
        return f"round {number}"
    earlier = [n for n in state.rounds if n < number and state.rounds[n].kind == rnd.kind]
    first = state.rounds[min(earlier)] if earlier else rnd
    return stage_name(max(2, _bracket_size(first) >> len(earlier)))


def round_words(state: Tournament, number: int) -> str:
    """Round ``number`` as every face names it: ``round 3`` for a Swiss, pod or
    round-robin round, ``semifinal (round 7)`` for a playoff round, never ``round 7`` alone
    (EV-6.6)."""
    label = round_label(state, number)
    return label if label == f"round {number}" else f"{label} (round {number})"


def _winner(state: Tournament, number: int, pairing: Pairing) -> str | None:
    if pairing.bye:
        return pairing.players[0]
    if pairing.table is None:
        return None
    result = state.result(number, pairing.table)
    if isinstance(result, Score) and result.winner is not None:
        return pairing.players[result.winner]
    return None


class BracketMatch(msgspec.Struct, frozen=True, kw_only=True):
    """One match of a bracket round (player ids), its result for the first-listed, and the
    winner once there is one; a bye carries its player through."""

    table: int | None
    players: tuple[str, ...]
    bye: bool
    result: str | None
    winner: str | None


class BracketRound(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    stage: str
    matches: tuple[BracketMatch, ...]


def bracket(state: Tournament) -> list[BracketRound]:
    """The playoff rounds paired so far, in order, each match in bracket order (EV-6.2,
    EV-6.3), named by stage (EV-6.6). Empty before the cut."""
    out: list[BracketRound] = []
    for number in sorted(state.rounds):
        rnd = state.rounds[number]
        if not is_playoff(rnd):
            continue
        matches: list[BracketMatch] = []
        for pairing in rnd.pairings:
            found = (
                state.result(number, pairing.table)
                if pairing.table is not None and not pairing.bye
                else None
            )
            matches.append(
                BracketMatch(
                    table=pairing.table,
                    players=pairing.players,
                    bye=pairing.bye,
                    result=found.text if isinstance(found, Score) else None,
                    winner=_winner(state, number, pairing),
                )
            )
        out.append(
            BracketRound(number=number, stage=round_label(state, number), matches=tuple(matches))
        )
    return out


class FinalPlace(msgspec.Struct, frozen=True, kw_only=True):
    """A player's final place (EV-I.9) and, for the cut, how far they went (EV-6.7):
    "champion", "finalist", "semifinalist", "quarterfinalist", "round of 16", or
    "in the semifinal" while their match is still on."""

    player: str
    place: int
    went: str | None


def _went(state: Tournament, player: str) -> str | None:
    last: tuple[int, Pairing] | None = None
    after: int | None = None  # the playoff round after the player's last, if paired
    for number in sorted(state.rounds):
        rnd = state.rounds[number]
        if not is_playoff(rnd):
            continue
        if last is not None and after is None and last[0] < number:
            after = number
        for pairing in rnd.pairings:
            if player in pairing.players:
                last, after = (number, pairing), None
    if last is None:
        return None
    number, pairing = last
    stage = round_label(state, number)
    winner = _winner(state, number, pairing)
    if winner is None:
        return f"in the {stage}"
    if winner == player:
        if after is None:
            return "champion" if stage == "final" else f"through the {stage}"
        stage = round_label(state, after)  # through, then dropped: out in the next (EV-6.9)
    return {
        "final": "finalist",
        "semifinal": "semifinalist",
        "quarterfinal": "quarterfinalist",
    }.get(stage, stage)


def final_places(state: Tournament, swiss: Iterable[str]) -> list[FinalPlace]:
    """Every player's final place once the playoff has begun (EV-I.9; an elimination
    event's, EV-I.13), with how far each player of the playoff went (EV-6.7); ``swiss`` is
    the player ids in Swiss standing order. Players out in the same playoff round are placed
    by Swiss standing (an elimination event's: by seed), or, with the ``playoff_places``
    variant ``shared``, share the place of the first of them (EV-I.13). Empty before the
    playoff."""
    shared = state.settings is not None and state.settings.playoff_places == "shared"
    out: list[FinalPlace] = []
    previous: tuple[int, int] | None = None
    place = 0
    for n, (player, far) in enumerate(state.playoff_order(swiss), start=1):
        if not (shared and far is not None and far == previous):
            place = n
        previous = far
        went = _went(state, player) if far is not None else None
        out.append(FinalPlace(player=player, place=place, went=went))
    return out


def next_game_order(table: TableState, players: Sequence[str]) -> tuple[str, ...]:
    """The seat order of a two-player match's next game (EV-I.10): the loser of the game
    just played sits first, so plays first; after a drawn game the order stays as it was.
    ``players`` is the order of the game just played; pods and unplayed matches keep it."""
    order = tuple(players)
    if len(order) != 2 or not table.game_results:
        return order
    places = dict(table.game_results[-1][1])
    first, second = order
    if places.get(first) == places.get(second):
        return order
    loser = first if places.get(first, 99) > places.get(second, 99) else second
    return (loser, first if loser == second else second)

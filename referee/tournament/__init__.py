"""Tournaments ("events"): Swiss rounds, pods, cuts, brackets, round robins, standings.

The pure core: no I/O, no clock, no randomness. Every ordering ends on a
documented stable key (registration order), so the same facts always give the
same pairings and standings. The rulebook is ``load_rulebook("event")``
(``EV-`` clauses); ``docs/tournaments.md`` explains the methods and figures.
"""

from __future__ import annotations

from referee.tournament import decisions
from referee.tournament.brackets import (
    bracket_order,
    bracket_seeds,
    next_elimination_round,
    round_robin_round,
    round_robin_schedule,
    seed_bracket,
)
from referee.tournament.decisions import *  # noqa: F403 - as decisions.__all__ lists them
from referee.tournament.errors import Refusal
from referee.tournament.facts import Fact
from referee.tournament.manual import ManualCheck, check_manual
from referee.tournament.model import (
    Entrant,
    Pairing,
    Placement,
    Round,
    Score,
    Settings,
    games_to_win,
)
from referee.tournament.pairing import Seat, assign_tables, pair_swiss, swiss_pairs
from referee.tournament.pods import pair_pods, pod_sizes
from referee.tournament.rounds import DEFAULT_ROUNDS, default_rounds
from referee.tournament.slips import decided, parse_placement, parse_slip
from referee.tournament.standings import (
    MatchResult,
    Standing,
    Standings,
    compute_standings,
    explain,
)
from referee.tournament.state import Tournament, apply, fold

__all__ = [
    "DEFAULT_ROUNDS",
    "Entrant",
    "Fact",
    "ManualCheck",
    "MatchResult",
    "Pairing",
    "Placement",
    "Refusal",
    "Round",
    "Score",
    "Seat",
    "Settings",
    "Standing",
    "Standings",
    "Tournament",
    "apply",
    "assign_tables",
    "bracket_order",
    "bracket_seeds",
    "check_manual",
    "compute_standings",
    "decided",
    "default_rounds",
    "explain",
    "fold",
    "games_to_win",
    "next_elimination_round",
    "pair_pods",
    "pair_swiss",
    "parse_placement",
    "parse_slip",
    "pod_sizes",
    "round_robin_round",
    "round_robin_schedule",
    "seed_bracket",
    "swiss_pairs",
]
__all__ += decisions.__all__

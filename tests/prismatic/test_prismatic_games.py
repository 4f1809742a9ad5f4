"""Replay the whole Prismatic games in fixtures/prismatic/games.

Each game's entries are checked and applied one by one and must end exactly as
recorded; the expected charts were tallied by hand from the rules (see each
file's notes). Together they reach every ending: a clear ranking (PX-12.9, and
PX-1.2's aim: the highest total ranks first), each of the five tie-breaks of
PX-13.1 (created cards, motes, prisms, first to the goal, the colours judgement
of PX-13.2), a shared place, 2, 3 and 4 players, both rulesets and the auction.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.contract import Player, Setup
from referee.games.prismatic import PrismaticState
from referee.games.prismatic.scoring import chart
from tests.prismatic.helpers import FIXTURES, RULES, split
from tests.replays import applied, load_game

GAME_FILES = sorted((FIXTURES / "games").glob("*.json"))


def start(game: dict[str, Any]) -> PrismaticState:
    options = dict(game["options"])
    for key, relative in game["files"].items():
        options[key] = (FIXTURES / relative).read_text()  # as a face passes a file field: its text
    setup = Setup(
        players=tuple(Player(s, n) for s, n in game["players"].items()),
        ruleset=game["ruleset"],
        variants=game["variants"],
        options=options,
    )
    return RULES.initial_state(RULES.resolve_setup(setup))


def replay(game: dict[str, Any]) -> PrismaticState:
    state = start(game)
    for number, entry in enumerate(game["entries"], start=1):
        assert not RULES.outcome(state).over, f"game over before entry {number}"
        seat, text = split(entry)
        assert seat in RULES.to_act(state), (
            f"entry {number} {entry}: {sorted(RULES.to_act(state))} may act"
        )
        state = applied(RULES, state, seat, text, f"entry {number} {entry}")
    return state


def test_fixtures_cover_two_three_and_four_players_and_every_tie_break() -> None:
    games = [load_game(p) for p in GAME_FILES]
    assert {len(g["players"]) for g in games} == {2, 3, 4}
    notes = " ".join(line for g in games for line in g["expected"]["tiebreak"])
    for criterion in (
        "most created cards",
        "most motes",
        "most prisms",
        "first to the creation goal",
        "colours worn",
    ):
        assert criterion in notes, criterion
    assert any(g["variants"].get("starter_token") == "auction" for g in games)
    assert any("=" in g["expected"]["result"] for g in games)
    for game in games:
        assert game["title"]
        assert len(game["notes"]) > 100


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_fixture_game_replays_to_its_hand_tallied_result(path: Path) -> None:
    game = load_game(path)
    state = replay(game)
    expected = game["expected"]
    out = RULES.outcome(state)
    assert (out.status, out.result, out.clause, out.winner) == (
        expected["status"],
        expected["result"],
        expected["clause"],
        expected["winner"],
    )
    assert [[p.seat, p.rank, p.score] for p in out.ranking] == expected["ranking"]
    lines = {line.seat: dict(line.items()) | {"total": line.total} for line in chart(state)}
    assert lines == expected["chart"]
    counts = {
        line.seat: {
            "motes": line.facts.motes,
            "prisms": line.facts.prisms,
            "created": line.facts.created,
        }
        for line in chart(state)
    }
    assert counts == expected["counts"]
    assert out.tiebreak == "; ".join(expected["tiebreak"])
    assert RULES.to_act(state) == frozenset()
    assert RULES.legal_actions(state) == []
    report = RULES.report(state, "score")
    assert not report.data["provisional"]
    assert f"ranking: {expected['result'].replace('>', ' > ')}" in report.text


def test_px_1_2_the_highest_total_ranks_first_in_every_fixture() -> None:
    for path in GAME_FILES:
        game = load_game(path)
        totals = [score for _, _, score in game["expected"]["ranking"]]
        assert totals == sorted(totals, reverse=True), path.stem
        assert game["expected"]["ranking"][0][2] == max(
            c["total"] for c in game["expected"]["chart"].values()
        )

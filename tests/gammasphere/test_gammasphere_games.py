"""Replay the whole example games in fixtures/gammasphere/games.

Each game is checked entry by entry (rejections included) and must end exactly as
recorded, with the final resources, piles and field computed by hand from the
rules text. Together the files reach every ending by rule: a power level at zero
(GS-8.1) by combat and by an adjustment, an empty deck (GS-I.5) and both power
levels at zero (GS-I.15).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from referee.contract import Player, Setup
from referee.games.gammasphere import GammasphereState
from referee.games.gammasphere.position import attack_of, defense_of
from referee.kit.adjustments import parse_adjustment
from referee.kit.decks import Deck, parse_decklist
from tests.gammasphere.helpers import FIXTURES, RULES
from tests.replays import (
    OUTCOME_FIELDS,
    applied,
    assert_ended_as_worked_out,
    game_options,
    load_game,
    worked_game,
)

GAME_FILES = sorted((FIXTURES / "games").glob("*.json"))


def start(game: dict[str, Any]) -> GammasphereState:
    options = game_options(game, FIXTURES)
    setup = RULES.resolve_setup(
        Setup(
            players=tuple(Player(s, n) for s, n in game["players"].items()),
            ruleset=game["ruleset"],
            variants=game["variants"],
            options=options,
        )
    )
    decks: dict[str, Deck] = {}
    for seat, text in game["decks"].items():
        decklist = parse_decklist(text)
        assert RULES.check_deck(setup, seat, decklist).legal
        decks[seat] = decklist
    return RULES.initial_state(msgspec.structs.replace(setup, decks=decks))


def replay(game: dict[str, Any], upto: int | None = None) -> GammasphereState:
    state = start(game)
    for number, entry in enumerate(game["entries"][:upto], 1):
        assert not RULES.outcome(state).over, f"game over before entry {number}"
        if isinstance(entry, dict) and "adjust" in entry:
            for change in parse_adjustment(entry["adjust"]):
                verdict = RULES.check_change(state, change)
                assert verdict.legal, f"entry {number} {entry}: {verdict.violations}"
                state = RULES.apply_change(state, change)
            continue
        if isinstance(entry, dict):
            verdict = RULES.check(state, RULES.parse(entry["reject"]), entry.get("seat"))
            assert not verdict.legal, (
                number,
                verdict,
            )
            assert verdict.violations[0].clause == entry["clause"], (
                number,
                verdict,
            )
            continue
        seat, _, text = entry.rpartition(": ")
        actor = seat or RULES.to_move(state)
        assert actor in RULES.to_act(state), (number, entry)
        state = applied(RULES, state, actor, text, f"entry {number} {entry}")
    return state


def test_at_least_five_fixture_games() -> None:
    assert len(GAME_FILES) >= 5


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_fixture_game_replays_to_its_recorded_result(path: Path) -> None:
    game = worked_game(path)
    state = replay(game)
    assert set(game["expected"]) >= set(OUTCOME_FIELDS)
    assert_ended_as_worked_out(RULES, state, game["expected"])
    for seat, own in zip(("p1", "p2"), state.sides, strict=True):
        final = game["final"][seat]
        assert (own.power, own.gas, own.hand.count, own.deck.count, list(own.discard)) == (
            final["power"],
            final["gas"],
            final["hand"],
            final["deck"],
            final["discard"],
        ), seat
    field = []
    for entity in state.field:
        row: dict[str, Any] = {
            "id": entity.id,
            "card": entity.card,
            "owner": ("p1", "p2")[entity.owner],
            "tapped": entity.tapped,
        }
        expected_row: dict[str, Any] = next((r for r in game["field"] if r["id"] == entity.id), {})
        if "mode" in expected_row:
            row["mode"] = entity.mode
        if "level" in expected_row:
            row["level"] = entity.level
        if "attack" in expected_row:
            row["attack"] = attack_of(state, entity)
        if "defense" in expected_row:
            row["defense"] = defense_of(state, entity)
        if "carrier" in expected_row:
            row["carrier"] = entity.carrier
        field.append(row)
    assert field == game["field"]


def test_fixture_games_cover_every_ending_by_rule() -> None:
    games = [load_game(p) for p in GAME_FILES]
    endings = {(g["expected"]["status"], g["expected"]["clause"]) for g in games}
    assert {("win", "GS-8.1"), ("win", "GS-I.5"), ("draw", "GS-I.15")} <= endings
    assert any(isinstance(e, dict) and "adjust" in e for g in games for e in g["entries"])
    assert any(g["decks"] for g in games)
    assert any("catalog_file" in g for g in games)


def test_gs_7_4_the_first_attack_on_the_wall_by_hand() -> None:
    """Hand-read: entry 13 is #1 Skirmisher (400 + Spear of Dawn 700) against the Bulwark
    Titan #4 in defense mode (9500): nothing is destroyed and p1 drops 8400 to 600."""
    game = load_game(FIXTURES / "games" / "01_attacker_bleeds_against_a_wall.json")
    assert game["entries"][12] == "attack #1 #4"
    before = replay(game, 12)
    after = replay(game, 13)
    assert [e.id for e in before.field] == [e.id for e in after.field]
    assert (before.sides[0].power, after.sides[0].power) == (9000, 600)


def test_gs_i_9_the_defenders_loss_in_the_direct_attack_game_by_hand() -> None:
    """Hand-read: entry 16 is the Lancer with Plasma Blade (2300) against p2's Gamma Trooper in
    attack mode (1200): the Trooper is destroyed and p2 drops 1100, from 7200 to 6100."""
    game = load_game(FIXTURES / "games" / "02_direct_attacks_with_registered_lists.json")
    assert game["entries"][15] == "attack #3 #5"
    before, after = replay(game, 15), replay(game, 16)
    assert (before.sides[1].power, after.sides[1].power) == (7200, 6100)
    assert after.sides[1].discard == ("Gamma Trooper",)

"""Builders for Gammasphere positions and assertions shared by the rule tests.

Positions are reached by real entries wherever that is short (``started`` draws
both opening hands and the first turn's card); ``put`` places a card straight
onto the field when a test needs a board quickly (test scaffolding only: it
bypasses hands and costs on purpose).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec

from referee.contract import Player, Setup
from referee.games.gammasphere import GammasphereAction, GammasphereRules, GammasphereState, Side
from referee.games.gammasphere.position import enter, with_side
from referee.kit.decks import Deck, Decklist, parse_decklist
from referee.verdicts import Verdict

RULES = GammasphereRules()
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "gammasphere"
PLAYERS = (Player("p1", "Ann"), Player("p2", "Ben"))
EXAMPLE_TEXT = (
    resources.files("referee.games.gammasphere") / "catalogs" / "example.toml"
).read_text()

# A legal 40-card list of the example catalog (open limits and 40-60 alike).
DECK_TEXT = """
12 Pylon
4 Gamma Trooper
4 Ion Lancer
3 Shale Golem
1 Vesper the Undying
2 Rift Scout
2 Gas Refinery
4 Plasma Blade
2 Supply Drop
2 Solar Flare
2 Overclock
2 Psionic Lash
"""
DECK = parse_decklist(DECK_TEXT)
# A second list that differs, so each seat has cards the other's list lacks.
OTHER_TEXT = """
14 Pylon
4 Shale Golem
2 Static Medic
2 Mirror Adept
2 Chrono Warden
4 Ember Hound
2 Bastion Wall
1 Signal Tower
3 Aegis Plating
2 Gauss Repeater
2 Sabotage
2 Gamma Trooper
"""
OTHER = parse_decklist(OTHER_TEXT)

DRILLMASTER_CARD = """
[[cards]]
name = "Drillmaster"
kind = "character"
gas = 100
level = 3
attack = 800
defense = 700
attack_mod = 200
defense_mod = 100
text = "On arrival, one own character rises two levels."
effect = { target = "own character", level = 2 }
"""
"""A catalog entry (GS-2): a character whose arrival raises one own character two levels, a
target that may be the arriving card itself where the table allows it (GS-I.33)."""


def decklist(text: str) -> Decklist:
    return parse_decklist(text)


def setup(
    decks: Mapping[str, Deck] | None = None,
    options: Mapping[str, Any] | None = None,
    ruleset: str | None = None,
    **variants: str,
) -> Setup:
    """A resolved two-seat setup on the example catalog unless ``options`` names another."""
    raw = Setup(
        players=PLAYERS, ruleset=ruleset, variants=dict(variants), options=dict(options or {})
    )
    resolved = RULES.resolve_setup(raw)
    return msgspec.structs.replace(resolved, decks=dict(decks or {}))


def new_game(
    decks: Mapping[str, Deck] | None = None,
    options: Mapping[str, Any] | None = None,
    **variants: str,
) -> GammasphereState:
    """The position before the opening hands."""
    return RULES.initial_state(setup(decks, options, **variants))


def act(text: str) -> GammasphereAction:
    return RULES.parse(text)


def verdict(state: GammasphereState, text: str, seat: str | None = None) -> Verdict:
    return RULES.check(state, act(text), seat)


def play(state: GammasphereState, *texts: str, seat: str | None = None) -> GammasphereState:
    """Check then apply each entry, failing on the first that is not legal."""
    for text in texts:
        v = verdict(state, text, seat)
        assert v.legal, f"{text} illegal: {v.violations}"
        state = RULES.apply(state, act(text), seat)
    return state


def opened(
    decks: Mapping[str, Deck] | None = None,
    options: Mapping[str, Any] | None = None,
    **variants: str,
) -> GammasphereState:
    """Both opening hands drawn: the first player's first turn, before its draw."""
    state = new_game(decks, options, **variants)
    state = play(state, "draw 7", seat="p1")
    return play(state, "draw 7", seat="p2")


def started(
    decks: Mapping[str, Deck] | None = None,
    options: Mapping[str, Any] | None = None,
    **variants: str,
) -> GammasphereState:
    """The first player's main phase in turn 1 (its draw made unless GS-I.4 skips it)."""
    state = opened(decks, options, **variants)
    if state.phase == "draw":
        state = play(state, "draw")
    assert state.phase == "main"
    return state


def assert_legal(state: GammasphereState, text: str, seat: str | None = None) -> Verdict:
    v = verdict(state, text, seat)
    assert v.legal, f"{text} should be legal, got {v.violations}"
    return v


def assert_illegal(
    state: GammasphereState, text: str, clause: str, *fragments: str, seat: str | None = None
) -> str:
    """Assert ``text`` is rejected citing ``clause`` first, with every fragment in the reason."""
    v = verdict(state, text, seat)
    assert not v.legal, f"{text} should be illegal"
    first = v.violations[0]
    assert first.clause == clause, f"{text}: expected {clause}, got {first}"
    for fragment in fragments:
        assert fragment in first.reason, f"{fragment!r} not in {first.reason!r}"
    listed = RULES.legal_actions(state, seat)
    assert act(text) not in listed
    return first.reason


def put(
    state: GammasphereState,
    seat: str,
    card: str,
    mode: str = "attack",
    *,
    level: int | None = None,
    tapped: bool = False,
    carrier: int = 0,
) -> tuple[GammasphereState, int]:
    """Scaffolding: ``card`` placed on ``seat``'s side directly;
    returns the state and its number."""
    index = ("p1", "p2").index(seat)
    number = state.next_id
    state = enter(state, index, state.cards[card], mode=mode, carrier=carrier)
    entity = state.field[-1]
    if level is not None or tapped:
        entity = msgspec.structs.replace(
            entity, level=entity.level if level is None else level, tapped=tapped
        )
        state = msgspec.structs.replace(state, field=(*state.field[:-1], entity))
    return state, number


def put_all(state: GammasphereState, seat: str, cards: Iterable[str]) -> GammasphereState:
    for card in cards:
        state, _ = put(state, seat, card)
    return state


def resources_of(state: GammasphereState, seat: str, **values: Any) -> GammasphereState:
    """Scaffolding: set fields of ``seat``'s side
    (``gas``, ``power``, ``jiggawatts``, ``hand``...)."""
    index = ("p1", "p2").index(seat)
    return with_side(state, index, msgspec.structs.replace(state.sides[index], **values))


def side(state: GammasphereState, seat: str) -> Side:
    return state.sides[("p1", "p2").index(seat)]


def entity(state: GammasphereState, number: int) -> Any:
    for e in state.field:
        if e.id == number:
            return e
    return None


def adjust(state: GammasphereState, changes: str) -> GammasphereState:
    """Check and apply an adjustment in kit notation, failing on a change that does not fit."""
    from referee.kit.adjustments import parse_adjustment

    for change in parse_adjustment(changes):
        v = RULES.check_change(state, change)
        assert v.legal, f"{changes}: {v.violations}"
        state = RULES.apply_change(state, change)
    return state


def change_verdict(state: GammasphereState, change: str) -> Verdict:
    from referee.kit.adjustments import parse_change

    return RULES.check_change(state, parse_change(change))

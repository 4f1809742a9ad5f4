"""Catalog files and the game's setup: reading, checking and pinning a table's cards."""

from __future__ import annotations

import json

import msgspec
import pytest

from referee.contract import Setup
from referee.errors import CatalogError, SetupError
from referee.games.gammasphere.catalog import Cards, example_catalog, parse_catalog
from referee.games.gammasphere.rules import EXAMPLE, P3
from tests.gammasphere.helpers import (
    EXAMPLE_TEXT,
    PLAYERS,
    RULES,
    assert_illegal,
    play,
    put,
    setup,
    started,
)

SMALL = """
title = "Two cards"
[[cards]]
name = "Pylon"
kind = "pylon"
[[cards]]
name = "Brass Knight"
kind = "character"
type = "Automaton"
gas = 400
attack = 1500
defense = 1200
level = 4
attack_mod = 250
defense_mod = 100
"""


def card_file(**fields: object) -> str:
    """A one-card TOML catalog with ``fields`` (strings quoted, the rest as TOML values)."""
    lines = ["[[cards]]"]
    for key, value in fields.items():
        if isinstance(value, bool):
            lines.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, str) and not value.startswith("{"):
            lines.append(f"{key} = {json.dumps(value)}")
        else:
            lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


def test_gs_2_1_the_example_catalog_has_every_kind_of_card() -> None:
    kinds = {c.kind for c in example_catalog().cards}
    assert kinds == {"character", "building", "weapon", "pylon", "event"}
    assert "invented" in EXAMPLE_TEXT.splitlines()[3] or "invented" in EXAMPLE_TEXT[:400]


def test_gs_2_1_a_card_the_catalog_does_not_hold_is_rejected() -> None:
    state = started()
    assert_illegal(state, "play Fire Imp", "GS-2.1", "Fire Imp", "Example cards")


def test_gs_2_3_characters_carry_type_attack_defense_level_and_modifiers() -> None:
    brass = parse_catalog(SMALL).cards[1]
    assert (
        brass.type,
        brass.attack,
        brass.defense,
        brass.level,
        brass.attack_mod,
        brass.defense_mod,
    ) == ("Automaton", 1500, 1200, 4, 250, 100)
    with pytest.raises(CatalogError, match="level is 1 to 10"):
        parse_catalog(card_file(name="Giant", kind="character", level=11, attack=1, defense=1))
    with pytest.raises(CatalogError, match="level is 1 to 10"):
        parse_catalog(card_file(name="Nobody", kind="character", attack=1, defense=1))


def test_gs_2_5_buildings_have_no_attack_or_level_in_the_catalog() -> None:
    with pytest.raises(CatalogError, match="a building has no attack"):
        parse_catalog(card_file(name="Tower", kind="building", defense=900, attack=100))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "Sword", "kind": "character", "level": 2, "attack_boost": 100}, "only weapons"),
        ({"name": "Spark", "kind": "event", "unique": True}, "only entities can be unique"),
        (
            {"name": "Spark", "kind": "event", "when": "activated", "text": "x"},
            "event takes effect when played",
        ),
        ({"name": "Hut", "kind": "building", "tap": True}, "belong to activated effects"),
        ({"name": "Hut", "kind": "building", "when": "static"}, "needs its text"),
        ({"name": "Bolt", "kind": "event", "effect": "{ level = 1 }"}, "need an effect.target"),
        (
            {"name": "Bolt", "kind": "event", "effect": '{ target = "character" }'},
            "does nothing to it",
        ),
        ({"name": "Bolt", "kind": "event", "effect": "{ }"}, "does nothing"),
        ({"name": "Bolt", "kind": "event", "gas": -5}, "cannot be negative"),
        ({"name": "Hound", "kind": "character", "level": 1, "speed": 3}, "unknown field"),
        (
            {
                "name": "Edge",
                "kind": "weapon",
                "effect": '{ target = "character", destroy = true }',
            },
            "names its carrier",
        ),
    ],
)
def test_the_catalog_schema_refuses_cards_that_make_no_sense(
    fields: dict[str, object], message: str
) -> None:
    with pytest.raises(CatalogError, match=message):
        parse_catalog(card_file(**fields))


def test_gs_i_16_a_catalog_may_not_price_a_pylon_otherwise() -> None:
    with pytest.raises(CatalogError, match="100 gas"):
        parse_catalog(card_file(name="Cheap Pylon", kind="pylon", gas=50))
    assert parse_catalog(card_file(name="Pylon", kind="pylon", gas=100)).cards[0].gas == 100


def test_gs_n_2_card_names_cannot_hold_the_notation_marks() -> None:
    for bad in ("Hut #2", "Hut (old)", "Hut; Barn"):
        with pytest.raises(CatalogError, match="cannot contain"):
            parse_catalog(card_file(name=bad, kind="building"))
    with pytest.raises(CatalogError, match="listed twice"):
        parse_catalog(SMALL + '[[cards]]\nname = "brass knight"\nkind = "building"\n')


def test_a_json_catalog_reads_like_its_toml_twin_and_pins_the_same_digest() -> None:
    as_json = msgspec.json.encode(msgspec.to_builtins(parse_catalog(SMALL))).decode()
    assert as_json.startswith("{")
    assert Cards.of(parse_catalog(as_json)).digest == Cards.of(parse_catalog(SMALL)).digest
    with pytest.raises(CatalogError, match="not valid TOML"):
        parse_catalog("[[cards]\nname=")


def test_without_a_catalog_the_example_ruleset_is_used_and_its_digest_pinned() -> None:
    done = setup()
    assert done.ruleset == EXAMPLE
    assert "catalog" not in done.options
    assert done.options["catalog_digest"] == Cards.of(example_catalog()).digest
    assert RULES.resolve_setup(done) == done


def test_a_catalog_file_is_stored_as_canonical_builtins_and_resolves_again_the_same() -> None:
    done = setup(options={"catalog": SMALL})
    assert done.ruleset == P3
    stored = done.options["catalog"]
    assert isinstance(stored, dict)
    assert stored["title"] == "Two cards"
    assert done.options["catalog_digest"] == Cards.of(parse_catalog(SMALL)).digest
    assert RULES.resolve_setup(done) == done
    state = RULES.initial_state(done)
    assert state.cards.title == "Two cards"
    assert "Brass Knight" in state.cards.by_name


def test_setup_refuses_a_mismatched_ruleset_catalog_or_digest() -> None:
    with pytest.raises(SetupError, match="give --catalog"):
        RULES.resolve_setup(Setup(players=PLAYERS, ruleset=P3))
    with pytest.raises(SetupError, match="shipped example cards"):
        RULES.resolve_setup(Setup(players=PLAYERS, ruleset=EXAMPLE, options={"catalog": SMALL}))
    with pytest.raises(SetupError, match="not the pinned"):
        RULES.resolve_setup(
            Setup(players=PLAYERS, options={"catalog": SMALL, "catalog_digest": "00ff"})
        )
    with pytest.raises(SetupError, match="not valid TOML"):
        RULES.resolve_setup(Setup(players=PLAYERS, options={"catalog": "[[cards"}))
    with pytest.raises(SetupError, match="level is 1 to 10"):
        RULES.resolve_setup(
            Setup(
                players=PLAYERS,
                options={"catalog": {"cards": [{"name": "X", "kind": "character"}]}},
            )
        )


def test_gs_4_4_and_gs_i_3_the_first_player_is_a_setup_choice_defaulting_to_p1() -> None:
    assert setup().options["first"] == "p1"
    assert setup(options={"first": "p2"}).options["first"] == "p2"
    with pytest.raises(SetupError, match="--first"):
        setup(options={"first": "p3"})


def test_gs_i_2_the_unregistered_deck_size_defaults_to_40_and_obeys_the_limits() -> None:
    assert setup().options["deck_size"] == 40
    assert setup(options={"deck_size": "55"}).options["deck_size"] == 55
    with pytest.raises(SetupError, match="at least 7"):
        setup(options={"deck_size": 6})
    with pytest.raises(SetupError, match="40 to 60"):
        setup(options={"deck_size": 30}, deck_limits="40-60")
    with pytest.raises(SetupError, match="whole number"):
        setup(options={"deck_size": "many"})


def test_read_catalog_and_catalog_rows_list_the_cards() -> None:
    catalog = RULES.read_catalog("cards", SMALL, "small.toml")
    assert [c.name for c in catalog.cards] == ["Pylon", "Brass Knight"]
    with pytest.raises(CatalogError, match=r"small.toml"):
        RULES.read_catalog("cards", SMALL.replace("level = 4", "level = 0"), "small.toml")
    with pytest.raises(CatalogError, match="only 'cards'"):
        RULES.read_catalog("board", SMALL, "x")
    rows = RULES.catalog_rows(setup(), "cards")
    by_name = {r["name"]: r for r in rows}
    assert by_name["Pylon"]["cost"] == "100 gas"
    assert by_name["Ion Lancer"]["cost"] == "500 gas and 1 jiggawatt"
    assert by_name["Gas Refinery"]["refinery"] is True
    assert by_name["Solar Flare"]["structured"] == {"target": "opposing character", "destroy": True}
    assert RULES.catalog_rows(setup(), "board") == []


def test_a_position_string_reads_back_and_is_held_to_the_setups_catalog_and_variants() -> None:
    """A game started from a position (``--from-position``) plays the setup's pinned catalog
    and variants: a position on other cards or other rulings is refused, not played."""
    state = play(started(), "construct Pylon")
    state, trooper = put(state, "p1", "Gamma Trooper")
    state, _ = put(state, "p1", "Plasma Blade", carrier=trooper)
    text = RULES.position_text(state)
    assert RULES.read_position(text, setup()) == state
    given = msgspec.structs.replace(setup(), options={**setup().options, "position": text})
    assert RULES.start(given) == state
    with pytest.raises(SetupError, match="attack_taps=yes"):
        RULES.read_position(text, setup(attack_taps="no"))
    other = json.loads(text)
    other["cards"]["digest"] = "0" * 64
    with pytest.raises(SetupError, match="catalog"):
        RULES.read_position(json.dumps(other), setup())


@pytest.mark.parametrize(
    ("where", "change", "words"),
    [
        (("field", 1), {"card": "Nonesuch"}, "no character of the catalog"),
        (("field", 1), {"level": 11}, "level from 1 to 10 (GS-2.3)"),
        (("field", 1), {"mode": ""}, "needs a mode"),
        (("field", 2), {"carrier": 99}, "not on a character or building (GS-6.7)"),
        (("field", 2), {"carrier": 1}, "not on a character or building (GS-6.7)"),
        (("field", 0), {"level": 3}, "has no mode or level"),
        (("sides", 0), {"gas": -5}, "below zero"),
        ((), {"next_id": 3}, "below #3 (GS-1.3)"),
        ((), {"turn": 0}, "cannot be in the main phase"),
    ],
)
def test_an_impossible_position_is_refused_in_plain_words(
    where: tuple[object, ...], change: dict[str, object], words: str
) -> None:
    """GS-1.3, GS-2.3, GS-6.7: a position the rules cannot reach is refused at reading,
    before any entry could stumble on it."""
    state = play(started(), "construct Pylon")
    state, trooper = put(state, "p1", "Gamma Trooper")
    state, _ = put(state, "p1", "Plasma Blade", carrier=trooper)
    data = json.loads(RULES.position_text(state))
    part = data
    for key in where:
        part = part[key]
    part.update(change)
    with pytest.raises(SetupError, match="not a Gammasphere position") as caught:
        RULES.read_position(json.dumps(data), setup())
    assert words in str(caught.value)


def test_a_position_with_a_unique_entity_twice_or_a_weapon_on_a_foe_is_refused() -> None:
    """GS-6.4, GS-6.5, GS-I.18: two of a unique entity in play, or a weapon on the opponent's
    character where the table keeps weapons to their own side, cannot be reached."""
    state, _ = put(started(), "p1", "Vesper the Undying")
    state, _ = put(state, "p2", "Vesper the Undying")
    with pytest.raises(SetupError, match=r"twice: Vesper the Undying \(GS-6.4, GS-6.5\)"):
        RULES.read_position(RULES.position_text(state), setup())
    state, foe = put(started(), "p2", "Gamma Trooper")
    state, _ = put(state, "p1", "Plasma Blade", carrier=foe)
    with pytest.raises(SetupError, match=r"opponent's #\d+ \(GS-I.18\)"):
        RULES.read_position(RULES.position_text(state), setup())
    state, foe = put(started(weapon_carriers="any"), "p2", "Gamma Trooper")
    state, _ = put(state, "p1", "Plasma Blade", carrier=foe)
    assert RULES.read_position(RULES.position_text(state), setup(weapon_carriers="any")) == state

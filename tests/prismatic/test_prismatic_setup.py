"""Components, catalogs and setup: PX-1, PX-2, PX-15.3 and the setup interpretations."""

from __future__ import annotations

import json

import pytest

from referee.contract import Player, Setup
from referee.errors import CatalogError, SetupError
from referee.games.prismatic.catalog import BoardFile, CardsFile, example_board, example_cards
from tests.prismatic.helpers import (
    RULES,
    act,
    assert_illegal,
    edit,
    ms,
    new,
    play,
    player,
    setup,
    setup_entries,
    started,
)

MINI_CARDS = """
title = "mini"
[[cards]]
name = "A"
type = "hue"
stars = 1
cost = "R"
""" + "".join(
    f'\n[[cards]]\nname = "Card {i}"\ntype = "sky"\ncost = "G G"\nrewards = ["mote G"]\n'
    for i in range(10)
)
MINI_BOARD = """
[[creations]]
key = "one-prism"
name = "Add One Prism"
effect = "prism"
methods = ["R", "G"]
"""


def test_px_1_1_two_to_four_players_in_the_first_seats() -> None:
    assert RULES.seats == ("p1", "p2", "p3", "p4")
    assert RULES.player_range() == (2, 4)
    for n in (2, 3, 4):
        assert [p.seat for p in new(n).players] == [f"p{i + 1}" for i in range(n)]
    with pytest.raises(SetupError):
        RULES.resolve_setup(Setup(players=(Player("p1", "Ann"),)))
    with pytest.raises(SetupError):
        RULES.resolve_setup(Setup(players=(Player("p1", "Ann"), Player("p3", "Cy"))))


def test_px_1_3_px_1_4_supplies_after_setup() -> None:
    """Four bags of 2R 2G 2B 1W 1K plus the chosen C M, Y Y, R K, W B; one prism each."""
    state = started(4)
    supply = state.supply
    assert (supply.count("R"), supply.count("G"), supply.count("B")) == (
        25 - 8 - 1,
        25 - 8,
        25 - 8 - 1,
    )
    assert (supply.count("C"), supply.count("M"), supply.count("Y")) == (24, 24, 23)
    assert (supply.count("W"), supply.count("K"), supply.count("P")) == (25 - 4 - 1, 25 - 4 - 1, 5)
    assert state.supply_prisms == 46
    assert [p.prisms for p in state.players] == [1, 1, 1, 1]


def test_px_1_5_a_gain_the_supply_cannot_cover_is_rejected() -> None:
    state = new(2)
    state = play(state, ["reveal Ember Spark", "reveal Verdant Drop", "reveal Sunset Sky"])
    import msgspec

    state = msgspec.structs.replace(state, supply=state.supply.minus(ms("C" * 24)))
    assert_illegal(state, "p1: choose C C", "PX-1.5", "cannot give 1 cyan")
    act(state, "p1: choose C M")


def test_px_i_29_with_proxies_a_chosen_mote_never_runs_out() -> None:
    """PX-I.29 (components=proxy): the second cyan the supply lacks is a proxy."""
    import msgspec

    state = new(2, components="proxy")
    state = play(state, ["reveal Ember Spark", "reveal Verdant Drop", "reveal Sunset Sky"])
    state = msgspec.structs.replace(state, supply=state.supply.minus(ms("C" * 24)))
    state = act(state, "p1: choose C C")
    assert player(state, "p1").bag.count("C") == 2
    assert state.supply.count("C") == 0


def test_px_1_6_px_8_1_px_8_2_the_example_catalog_has_42_typed_cards() -> None:
    cards = example_cards().cards
    assert len(cards) == 42
    assert len({c.name for c in cards}) == 42
    assert {t: sum(c.type == t for c in cards) for t in ("hue", "sky", "craft")} == {
        "hue": 14,
        "sky": 14,
        "craft": 14,
    }
    catalog = new().catalog
    spec = catalog.cards["Scarlet Bloom"]
    assert (spec.type, spec.stars, spec.recipe.text()) == ("hue", 3, "R R M Y 1 prism")
    assert catalog.card_name("  scarlet   BLOOM ") == "Scarlet Bloom"


def test_px_1_7_the_example_board_lists_the_texts_creations_and_methods() -> None:
    board = example_board().creations
    assert len(board) == 16
    methods = {c.key: len(c.methods) for c in board}
    for key in ("red-mote", "black-mote", "white-mote", "blue-mote", "green-mote"):
        assert methods[key] == 2, key
    assert sum(methods.values()) == 21
    catalog = new().catalog
    assert catalog.methods["red-mote.2"].recipe.text() == "W K"
    assert catalog.methods["three-prisms.1"].effect.count == 3
    assert catalog.methods["draw-cards.1"].effect.kind == "draw2"


def test_px_1_8_the_table_agrees_the_goal_3_5_and_7_being_typical() -> None:
    """The text has the players agree on the goal before play and calls 3, 5 and 7 typical
    (quick, average, long), so another whole number the table agrees on is a goal too."""
    assert new(goal=3).table.goal == 3
    assert new(goal=7).table.goal == 7
    assert new(goal=4).table.goal == 4
    assert RULES.resolve_setup(setup(2, options={"goal": "6"})).options["goal"] == 6
    assert RULES.resolve_setup(setup(2, options={"goal": 1})).options["goal"] == 1
    for bad in ("0", "-2", "five", "2.5"):
        with pytest.raises(SetupError, match=r"PX-1\.8"):
            RULES.resolve_setup(setup(2, options={"goal": bad}))


def test_px_1_9_a_card_already_seen_cannot_be_drawn_again() -> None:
    state = play(new(2), ["reveal Ember Spark"])
    assert_illegal(state, "reveal Ember Spark", "PX-1.9", "a common card")
    assert_illegal(state, "reveal Dragon", "PX-15.2", "no card is called 'Dragon'")
    state = play(
        state, ["reveal Verdant Drop", "reveal Sunset Sky", "p1: keep Noon Blaze, discard Moonrise"]
    )
    assert_illegal(state, "p2: keep Moonrise, discard Eclipse", "PX-1.9", "in the discard pile")
    assert_illegal(state, "p2: keep Noon Blaze, discard Eclipse", "PX-1.9", "in p1's progress area")


def test_px_2_1_px_i_22_starter_is_recorded_and_defaults_to_p1() -> None:
    assert RULES.resolve_setup(setup(3)).options["starter"] == "p1"
    assert new(3, starter="p3").starter == "p3"
    assert RULES.to_act(new(3, starter="p3")) == {"p3"}
    with pytest.raises(SetupError, match="seat at the table"):
        RULES.resolve_setup(setup(2, options={"starter": "p4"}))
    assert RULES.resolve_setup(setup(2)).options["goal"] == 5


def test_px_2_2_px_i_11_the_starter_turns_up_three_common_cards_one_entry_each() -> None:
    state = new(3, starter="p2")
    assert state.step == "deal"
    assert RULES.to_act(state) == {"p2"}
    state = act(state, "p2: reveal Sunset Sky")
    assert state.commons == ("Sunset Sky",)
    assert state.step == "deal"
    state = play(state, ["reveal Ember Spark", "reveal Verdant Drop"])
    assert state.step == "setup"
    assert len(state.deck) == 39
    assert RULES.to_act(state) == {"p1", "p2", "p3"}


def test_px_2_3_keep_one_dealt_card_and_discard_the_other() -> None:
    state = play(new(2), ["reveal Ember Spark", "reveal Verdant Drop", "reveal Sunset Sky"])
    assert_illegal(state, "p1: keep Noon Blaze, discard Noon Blaze", "PX-2.3", "named twice")
    state = act(state, "p1: keep Noon Blaze, discard Moonrise")
    assert [h.name for h in player(state, "p1").progress] == ["Noon Blaze"]
    assert state.discard == ("Moonrise",)
    assert_illegal(state, "p1: keep Eclipse, discard Starfield", "PX-2.3", "already kept")


def test_px_2_4_two_chosen_motes_never_prismatic() -> None:
    state = play(new(2), ["reveal Ember Spark", "reveal Verdant Drop", "reveal Sunset Sky"])
    assert_illegal(state, "p1: choose P R", "PX-2.4", "prismatic")
    state = act(state, "p1: choose Y Y")
    assert player(state, "p1").bag == ms("R R G G B B Y Y W K")
    assert_illegal(state, "p1: choose R R", "PX-2.4", "already chose")


def test_px_2_5_one_prism_and_an_empty_palette_each() -> None:
    state = started(2)
    for p in state.players:
        assert p.prisms == 1
        assert not p.palette
        assert p.palette_prisms == 0


def test_px_2_6_setup_entries_in_any_order_then_round_one() -> None:
    state = play(new(2), ["reveal Ember Spark", "reveal Verdant Drop", "reveal Sunset Sky"])
    state = play(state, ["p2: keep Glass Kiln, discard Eclipse", "p1: choose C M"])
    assert state.step == "setup"
    assert RULES.to_act(state) == {"p1", "p2"}
    state = play(state, ["p1: keep Noon Blaze, discard Moonrise"])
    assert RULES.to_act(state) == {"p2"}
    assert_illegal(state, "p1: choose C M", "REF-1.2")
    state = act(state, "p2: choose Y Y")
    assert (state.step, state.round) == ("draw", 1)


def test_px_15_3_catalog_files_are_checked_and_recorded_in_canonical_form() -> None:
    cards = RULES.read_catalog("cards", MINI_CARDS, "mini.toml")
    assert isinstance(cards, CardsFile)
    assert cards.cards[0].cost == "R"
    assert len(cards.cards) == 11
    board = RULES.read_catalog("board", MINI_BOARD, "board.toml")
    assert isinstance(board, BoardFile)
    assert board.creations[0].methods == ["R", "G"]
    done = RULES.resolve_setup(setup(2, options={"cards": MINI_CARDS, "board": MINI_BOARD}))
    assert done.ruleset == "prismatic/table"
    assert done.options["cards"]["cards"][1]["rewards"] == ["mote G"]
    again = RULES.resolve_setup(setup(2, ruleset="prismatic/table", options=done.options))
    assert again.options == done.options
    as_json = json.dumps(
        {"cards": [{"name": "J", "type": "craft", "cost": "r r", "ability": "red->prism"}]}
    )
    read = RULES.read_catalog("cards", as_json, "j.json")
    assert isinstance(read, CardsFile)
    assert read.cards[0].ability == "R -> prism"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[[cards]]\nname = "A"\ntype = "moon"\ncost = "R"', "hue"),
        ('[[cards]]\nname = "A, B"\ntype = "hue"\ncost = "R"', "may not hold"),
        ('[[cards]]\nname = "Board Game"\ntype = "hue"\ncost = "R"', "may not start"),
        ('[[cards]]\nname = "A"\ntype = "hue"\ncost = "Q"', "card 1 ('A')"),
        ('[[cards]]\nname = "A"\ntype = "hue"\ncost = "R"\nrewards = ["fly"]', "not an icon"),
        ('[[cards]]\nname = "A"\ntype = "hue"\ncost = "R"\nability = "steal"', "needs a mote"),
        (
            '[[cards]]\nname = "A"\ntype = "hue"\ncost = "R"\n[[cards]]\nname = "a"\ntype = '
            '"sky"\ncost = "G"',
            "share",
        ),
        ('[[cards]]\nname = "A"\ntype = "hue"\ncost = "R"\nextra = 1', "extra"),
        ("cards = [", "not valid TOML"),
    ],
)
def test_px_15_3_a_broken_cards_file_names_the_card_and_the_problem(
    text: str, fragment: str
) -> None:
    with pytest.raises(CatalogError) as raised:
        RULES.read_catalog("cards", text, "bad.toml")
    assert "bad.toml" in str(raised.value)
    assert fragment in str(raised.value)


def test_px_15_3_a_broken_board_file_is_refused() -> None:
    with pytest.raises(CatalogError, match="draw 2 keep 1"):
        RULES.read_catalog(
            "board", '[[creations]]\nkey = "x"\nname = "X"\neffect = "steal"\nmethods = ["R"]', "b"
        )
    with pytest.raises(CatalogError, match="key"):
        RULES.read_catalog(
            "board",
            '[[creations]]\nkey = "X Y"\nname = "X"\neffect = "prism"\nmethods = ["R"]',
            "b",
        )
    with pytest.raises(CatalogError, match="reads 'cards' and 'board'"):
        RULES.read_catalog("units", "", "u")


def test_px_i_22_example_ruleset_uses_the_shipped_catalogs_and_table_needs_both() -> None:
    done = RULES.resolve_setup(setup(2))
    assert done.ruleset == "prismatic/example"
    assert len(done.options["cards"]["cards"]) == 42
    with pytest.raises(SetupError, match="needs both"):
        RULES.resolve_setup(setup(2, options={"cards": MINI_CARDS}))
    with pytest.raises(SetupError, match="shipped example"):
        RULES.resolve_setup(setup(2, ruleset="prismatic/example", options={"cards": MINI_CARDS}))
    small = '[[cards]]\nname = "A"\ntype = "hue"\ncost = "R"'
    with pytest.raises(SetupError, match="at least 11"):
        RULES.resolve_setup(setup(4, options={"cards": small, "board": MINI_BOARD}))


def test_catalog_rows_list_cards_and_board_methods() -> None:
    rows = RULES.catalog_rows(setup(2), "board")
    assert {
        "method": "red-mote.2",
        "name": "Add Red Color Mote",
        "effect": "mote R",
        "needs": "W K",
    } in rows
    cards = RULES.catalog_rows(setup(2), "cards")
    assert cards[0]["name"] == "Ember Spark"
    assert len(cards) == 42


def test_px_i_12_seat_order_is_clockwise_for_the_resolve_step() -> None:
    state = started(4, starter="p3")
    for seat in ("p1", "p2", "p3", "p4"):
        state = act(state, f"{seat}: draw R R G G B")
    for seat in ("p1", "p2", "p3", "p4"):
        state = act(state, f"{seat}: pass")
    assert state.step == "resolve"
    assert state.order == ("p3", "p4", "p1", "p2")
    assert RULES.to_act(state) == {"p3"}


def test_setup_entries_helper_covers_every_seat() -> None:
    assert len(setup_entries(4)) == 3 + 8
    assert edit(new(2), "p1", bag="R").players[0].bag == ms("R")

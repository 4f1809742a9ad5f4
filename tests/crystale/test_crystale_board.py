"""The board (CR-4): tiles, adjacency, starting tiles, tile elements and the ATK table."""

from __future__ import annotations

import itertools
import random

import pytest

from referee.errors import SetupError
from referee.games.crystale.board import (
    BEATS,
    ELEMENTS,
    LETTER_OF,
    NEIGHBOURS,
    P1_START,
    P2_START,
    TILE_INDEX,
    TILE_NAMES,
    distance,
    draw_tiles,
    tile_atk_modifier,
)
from tests.crystale.helpers import RULES, fresh, main_phase, make_setup, play, tiles_with


def test_cr_4_1_twenty_nine_tiles_in_rows_of_5_6_7_6_5() -> None:
    assert len(TILE_NAMES) == 29
    rows = [sum(1 for n in TILE_NAMES if n[0] == r) for r in "abcde"]
    assert rows == [5, 6, 7, 6, 5]
    assert TILE_NAMES[:3] == ("a1", "a2", "a3")
    assert TILE_NAMES[-1] == "e5"
    assert TILE_NAMES[11:18] == tuple(f"c{i}" for i in range(1, 8))


def test_cr_4_2_adjacency_on_hexes() -> None:
    assert sorted(TILE_NAMES[t] for t in NEIGHBOURS[TILE_INDEX["c4"]]) == [
        "b3",
        "b4",
        "c3",
        "c5",
        "d3",
        "d4",
    ]
    assert sorted(TILE_NAMES[t] for t in NEIGHBOURS[TILE_INDEX["c1"]]) == ["b1", "c2", "d1"]
    assert sorted(TILE_NAMES[t] for t in NEIGHBOURS[TILE_INDEX["a1"]]) == ["a2", "b1", "b2"]
    assert sorted(TILE_NAMES[t] for t in NEIGHBOURS[TILE_INDEX["d6"]]) == ["c6", "c7", "d5", "e5"]
    assert max(len(n) for n in NEIGHBOURS) == 6
    for a in range(29):  # adjacency is symmetric and distance is a metric on the hexes
        for b in NEIGHBOURS[a]:
            assert a in NEIGHBOURS[b]
    assert distance(TILE_INDEX["c1"], TILE_INDEX["c7"]) == 6
    assert distance(TILE_INDEX["c1"], TILE_INDEX["a1"]) == 2
    assert distance(TILE_INDEX["a1"], TILE_INDEX["e5"]) == 6
    assert distance(TILE_INDEX["c5"], TILE_INDEX["d6"]) == 2


def test_cr_4_3_summoners_start_at_the_ends_of_the_middle_row() -> None:
    state = fresh()
    assert TILE_NAMES[P1_START] == "c1"
    assert TILE_NAMES[P2_START] == "c7"
    assert state.units[1].tile == P1_START
    assert state.units[1].crystal == "Vulkara Emberqueen"
    assert state.units[2].tile == P2_START
    assert state.units[2].summoner


# -- CR-4.6: the tile ATK table, on every element ----------------------------------------
TABLE = {  # tile: (gains 10, loses 5), as crystale-notes.md gives it
    "Fire": ("Fire", "Wind"),
    "Water": ("Water", "Fire"),
    "Earth": ("Earth", "Water"),
    "Thunder": ("Thunder", "Earth"),
    "Wind": ("Wind", "Thunder"),
    "Light": ("Light", "Darkness"),
    "Darkness": ("Darkness", "Light"),
    "Ice": (None, None),
}


@pytest.mark.parametrize("tile", ELEMENTS)
@pytest.mark.parametrize("servant", ELEMENTS)
def test_cr_4_6_tile_atk_on_every_element(tile: str, servant: str) -> None:
    gains, loses = TABLE[tile]
    expected = 10 if servant == gains else -5 if servant == loses else 0
    assert tile_atk_modifier(LETTER_OF[tile], servant) == expected


def test_cr_4_6_beats_cycle_and_ice_is_neutral() -> None:
    # each tile element weakens the element it takes 5 from in the ATK table above
    assert {tile: loses for tile, (_, loses) in TABLE.items() if loses is not None} == BEATS
    cycle = ["Fire", "Wind", "Thunder", "Earth", "Water", "Fire"]
    assert all(BEATS[a] == b for a, b in itertools.pairwise(cycle))
    assert tile_atk_modifier("I", "Ice") == 0


def test_cr_4_6_and_cr_8_10_a_summoned_servant_shows_its_atk_on_its_tile() -> None:
    # Cinderpup (Fire, 20 ATK) summoned on a Fire tile has 30, on a Water tile 15, on Ice 20.
    for letter, atk in (("F", 30), ("W", 15), ("I", 20), ("A", 20)):
        state = play(main_phase(tiles=tiles_with(c2=letter)), "summon Cinderpup @c2")
        unit = state.units[3]
        assert RULES.observe(state)["units"][2]["atk"] == atk, letter
        assert unit.crystal == "Cinderpup"


def test_cr_4_5_tiles_are_read_in_reading_order() -> None:
    setup = make_setup(tiles="fweta/LDIFWE/TALDIFW/ETALDI/FWETA")
    assert setup.options["tiles"] == "FWETALDIFWETALDIFWETALDIFWETA"
    state = RULES.initial_state(setup)
    assert state.tiles[TILE_INDEX["a1"]] == "F"
    assert state.tiles[TILE_INDEX["b1"]] == "L"
    assert state.tiles[TILE_INDEX["c7"]] == "W"
    assert state.tiles[TILE_INDEX["e5"]] == "A"
    assert RULES.observe(state)["tiles"]["c1"] == "Thunder"
    with pytest.raises(SetupError, match="29 element letters"):
        make_setup(tiles="FWX")
    with pytest.raises(SetupError, match="unknown X"):
        make_setup(tiles="X" * 29)


def test_cr_i_1_seeded_layout_is_documented_and_recorded() -> None:
    rng = random.Random(42)
    expected = "".join(rng.choice("FWETALDI") for _ in range(29))
    assert draw_tiles(42) == expected
    setup = make_setup(tiles=None, options={"seed": 42})  # type: ignore[arg-type]
    assert setup.options["tiles"] == expected
    assert setup.options["seed"] == 42
    again = RULES.resolve_setup(setup)  # a stored setup carries both; they agree
    assert again.options == setup.options
    with pytest.raises(SetupError, match="draws tiles"):
        make_setup(tiles="I" * 29, options={"seed": 42})


def test_cr_n_2_tile_names_round_trip() -> None:
    for name in TILE_NAMES:
        assert RULES.notation(RULES.parse(f"move u3 {name.upper()}")) == f"move u3 {name}"


def test_cr_4_7_an_effect_changes_a_tile_and_the_atk_follows() -> None:
    # Scorch Ground (Summoner effect 2) turns d1 into Fire; a Cinderpup there goes from 20 to 30.
    state = play(main_phase(), "summon Cinderpup @d1")
    assert RULES.observe(state)["units"][2]["atk"] == 20
    state = play(state, "use u1 2 @d1")
    assert state.tiles[TILE_INDEX["d1"]] == "F"
    assert RULES.observe(state)["units"][2]["atk"] == 30


def test_cr_4_6_the_reference_model_gives_an_ice_servant_nothing_on_ice() -> None:
    """CR-4.6: the notes' table gives the Ice row no effect at all, so an Ice Servant on an
    Ice tile keeps its printed ATK in the engine and in the independent reference model."""
    import msgspec

    from tests.crystale.reference import Reference, from_engine

    state = play(main_phase(), "summon Cinderpup @c2")  # an all-Ice board
    pup = state.book.crystals["Cinderpup"]
    icy = msgspec.structs.replace(pup, element="Ice")
    reference = Reference({**state.book.crystals, "Cinderpup": icy}, [None, None])
    model = from_engine(state)
    assert reference.atk(model, model.units[3]) == pup.ranks[0].atk == 20
    assert tile_atk_modifier("I", "Ice") == 0


def test_ref_a_game_starts_from_a_position_string_without_tiles_or_a_seed() -> None:
    """A reconstructed game (``new --from-position``, ``legal --position``): Crystale's
    position string carries the board's tiles (CR-4.5), so the setup asks for neither
    ``--tiles`` nor ``--seed``; the game read back lists the same legal entries."""
    from referee.contract import Setup
    from tests.crystale.helpers import PLAYERS, RULES, main_phase

    state = main_phase(tiles=tiles_with(c3="F"))
    text = RULES.position_text(state)
    setup = RULES.resolve_setup(Setup(players=PLAYERS, options={"position": text}))
    assert "tiles" not in setup.options
    again = RULES.start(setup)
    assert again.tiles == state.tiles
    assert RULES.position_text(again) == text
    for seat in RULES.to_act(state):
        assert RULES.legal_actions(again, seat) == RULES.legal_actions(state, seat)

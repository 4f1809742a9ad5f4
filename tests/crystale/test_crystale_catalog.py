"""Crystal catalogs (CR-2) and pool construction (CR-3)."""

from __future__ import annotations

import pytest

from referee.contract import Setup
from referee.errors import CatalogError, SetupError
from referee.games.crystale import CrystaleState
from referee.games.crystale.catalog import example_book, example_text, parse_catalog
from referee.kit.decks import Decklist, SealedDeck
from referee.kit.multiset import Multiset
from tests.crystale.helpers import (
    FIRE_POOL,
    PLAYERS,
    POOLS,
    RULES,
    WATER_POOL,
    judge,
    make_setup,
    play,
    rejected,
)

MINI = """
name = "mini"
[[summoners]]
name = "Zephra"
element = "Lightning"
mana_pool = 100
recharge = 20
[[servants]]
name = "Volt Imp"
element = "Thunder"
cost = 10
ranks = [{ hp = 20, atk = 10 }]
"""


def test_cr_2_1_example_catalog_ships_and_is_recorded_whole() -> None:
    book = example_book()
    assert example_text().startswith("# Crystale example catalog: INVENTED")
    assert {c.kind for c in book.crystals.values()} == {"summoner", "servant", "spell", "god"}
    setup = make_setup()
    assert setup.ruleset == "crystale/example"
    assert setup.options["catalog"]["name"] == "example"
    assert (
        RULES.resolve_setup(setup).options == setup.options
    )  # re-resolving a stored setup changes nothing


def test_cr_2_1_a_tables_own_catalog_is_ruleset_own() -> None:
    setup = RULES.resolve_setup(
        Setup(players=PLAYERS, options={"catalog": MINI, "tiles": "I" * 29})
    )
    assert setup.ruleset == "crystale/own"
    assert isinstance(setup.options["catalog"], dict)
    assert setup.options["catalog"]["name"] == "mini"
    assert RULES.resolve_setup(setup).options == setup.options
    with pytest.raises(SetupError, match="own catalog"):
        RULES.resolve_setup(
            Setup(players=PLAYERS, ruleset="crystale/own", options={"tiles": "I" * 29})
        )
    with pytest.raises(SetupError, match="not valid TOML"):
        RULES.resolve_setup(
            Setup(players=PLAYERS, options={"catalog": "name = [", "tiles": "I" * 29})
        )


def test_cr_2_7_lightning_is_thunder() -> None:
    book = parse_catalog(MINI)
    assert book.crystals["Zephra"].element == "Thunder"
    assert book.crystals["Volt Imp"].element == "Thunder"
    with pytest.raises(CatalogError, match="'Steam' is not an element"):
        parse_catalog(MINI.replace('"Lightning"', '"Steam"'))


def test_cr_2_2_summoner_has_mana_pool_recharge_and_at_most_five_effects() -> None:
    vulkara = example_book().crystals["Vulkara Emberqueen"]
    assert (vulkara.kind, vulkara.mana_pool, vulkara.recharge) == ("summoner", 120, 40)
    effect = '[[summoners.effects]]\ntext = "x"\ncost = 5\n'
    six = MINI.replace("[[servants]]", effect * 6 + "[[servants]]")
    with pytest.raises(CatalogError, match="Zephra has 6 effects; at most 5"):
        parse_catalog(six)
    five = parse_catalog(MINI.replace("[[servants]]", effect * 5 + "[[servants]]"))
    assert len(five.crystals["Zephra"].effects) == 5


def test_cr_2_3_servant_ranks_requirements_effects_and_range() -> None:
    archer = example_book().crystals["Pyrelance Archer"]
    assert [(r.hp, r.atk) for r in archer.ranks] == [(30, 25), (45, 35)]
    assert archer.range == 2
    assert archer.ranks[1].requires
    assert example_book().crystals["Cinderpup"].attack_range == 1
    four = MINI.replace(
        "ranks = [{ hp = 20, atk = 10 }]",
        "ranks = [" + "{ hp = 20, atk = 10, requires = 'x' }, " * 4 + "]",
    )
    with pytest.raises(CatalogError, match="lists 4 ranks"):
        parse_catalog(four)
    no_req = MINI.replace(
        "ranks = [{ hp = 20, atk = 10 }]", "ranks = [{ hp = 20, atk = 10 }, { hp = 30, atk = 20 }]"
    )
    with pytest.raises(CatalogError, match="rank 2 needs its promotion requirement"):
        parse_catalog(no_req)
    effect = '[[servants.effects]]\ntext = "x"\n'
    with pytest.raises(CatalogError, match="Volt Imp has 4 effects; at most 3"):
        parse_catalog(MINI + effect * 4)


def test_cr_2_3_only_servant_effects_come_at_a_higher_rank() -> None:
    """CR-2.3: ranks are a Servant's; a Summoner's or a spell's effect marked for rank 2 could
    never be used (or would be carried out anyway), so the catalog is refused."""
    summoner = MINI.replace(
        "[[servants]]", '[[summoners.effects]]\ntext = "x"\nrank = 2\n[[servants]]'
    )
    with pytest.raises(CatalogError, match=r"Zephra effect 1 comes at rank 2.*CR-2\.3"):
        parse_catalog(summoner)
    spell = '[[spells]]\nname = "Dud"\nelement = "Thunder"\ncost = 1\n'
    with pytest.raises(CatalogError, match=r"Dud effect 1 comes at rank 3"):
        parse_catalog(MINI + spell + '[[spells.effects]]\ntext = "x"\nrank = 3\n')
    ranked = MINI.replace(
        "ranks = [{ hp = 20, atk = 10 }]",
        "ranks = [{ hp = 20, atk = 10 }, { hp = 30, atk = 20, requires = 'x' }]",
    )
    servant = parse_catalog(ranked + '[[servants.effects]]\ntext = "x"\nrank = 2\n')
    assert servant.crystals["Volt Imp"].effects[0].rank == 2


def test_cr_2_4_spells_list_effects_and_may_be_trigger_spells() -> None:
    cinders = example_book().crystals["Twisted Cinders"]
    assert cinders.kind == "spell"
    assert cinders.trigger
    assert len(cinders.effects) == 2
    with pytest.raises(CatalogError, match="spell Dud lists no effects"):
        parse_catalog(
            MINI + '[[spells]]\nname = "Dud"\nelement = "Thunder"\ncost = 1\neffects = []\n'
        )


def test_cr_2_5_god_crystals() -> None:
    god = example_book().crystals["Ignarok the Unbound"]
    assert god.kind == "god"
    assert god.cost == 100
    assert not god.effects[0].structured


def test_cr_2_6_effects_are_structured_or_free_text() -> None:
    book = example_book()
    assert book.crystals["Flame Lance"].effects[0].structured
    assert not book.crystals["Vulkara Emberqueen"].effects[2].structured
    with pytest.raises(CatalogError, match="needs ops or a text"):
        parse_catalog(MINI + "[[servants.effects]]\ncost = 1\n")
    with pytest.raises(CatalogError, match="tile op needs target"):
        parse_catalog(MINI + '[[servants.effects]]\nops = [{ op = "tile", element = "Fire" }]\n')
    with pytest.raises(CatalogError, match="damage op needs a unit target"):
        parse_catalog(MINI + '[[servants.effects]]\nops = [{ op = "damage", amount = 5 }]\n')
    with pytest.raises(CatalogError, match="recharge-phase effect"):
        parse_catalog(MINI + '[[servants.effects]]\ntext = "x"\nphase = "recharge"\ncost = 5\n')


def test_cr_2_6_an_effect_always_in_force_is_printed_text_for_a_ruling() -> None:
    """CR-2.6: no entry uses an effect always in force and the engine never carries one out,
    so steps given for it would silently do nothing: the catalog is refused instead."""
    passive = '[[servants.effects]]\ntext = "+10 ATK"\nphase = "passive"\ntarget = "self"\n'
    assert not parse_catalog(MINI + passive).crystals["Volt Imp"].effects[0].structured
    with pytest.raises(CatalogError, match=r"always in force.*CR-2\.6"):
        parse_catalog(MINI + passive + 'ops = [{ op = "atk", amount = 10 }]\n')


def test_cr_2_1_read_catalog_and_catalog_rows() -> None:
    catalog = RULES.read_catalog("crystals", MINI, "mini.toml")
    assert catalog.name == "mini"
    with pytest.raises(CatalogError, match=r"mini.toml"):
        RULES.read_catalog("crystals", MINI.replace("cost = 10", "cost = -1"), "mini.toml")
    with pytest.raises(CatalogError):
        RULES.read_catalog("cards", MINI, "mini.toml")
    with pytest.raises(CatalogError, match="two crystals are called"):
        parse_catalog(MINI + MINI.split("[[servants]]")[1].join(["[[servants]]", ""]))
    rows = RULES.catalog_rows(make_setup(), "crystals")
    archer = next(r for r in rows if r["name"] == "Pyrelance Archer")
    assert archer["range"] == 2
    assert archer["ranks"] == ["30 HP / 25 ATK", "45 HP / 35 ATK"]


# -- CR-3 pools ----------------------------------------------------------------------------
def _with(pool: Decklist, **changes: int) -> Decklist:
    counts = pool.cards.as_dict()
    for name, count in changes.items():
        counts[name.replace("_", " ")] = count
    return Decklist(Multiset.of({n: c for n, c in counts.items() if c}))


def _clauses(deck: Decklist) -> list[str]:
    return [v.clause for v in RULES.check_deck(make_setup(), "p1", deck).violations]


def test_cr_3_example_pools_are_legal() -> None:
    for seat, deck in POOLS.items():
        assert isinstance(deck, Decklist)
        assert RULES.check_deck(make_setup(), seat, deck).legal
        assert deck.size == 31


def test_cr_3_1_thirty_one_crystals() -> None:
    assert _clauses(_with(FIRE_POOL, Kiln_Surge=2)) == ["CR-3.1"]
    assert _clauses(_with(FIRE_POOL, Molten_Field=3)) == ["CR-3.1"]


def test_cr_3_2_one_element() -> None:
    mixed = _with(FIRE_POOL, Kiln_Surge=2, Tidal_Lash=1)
    verdict = RULES.check_deck(make_setup(), "p1", mixed)
    assert [v.clause for v in verdict.violations] == ["CR-3.2"]
    assert "1 Water" in verdict.violations[0].reason


def test_cr_3_3_four_copies() -> None:
    assert _clauses(_with(FIRE_POOL, Flame_Lance=5, Kiln_Surge=2)) == ["CR-3.3"]


def test_cr_3_4_exactly_one_summoner() -> None:
    none = _with(FIRE_POOL, Vulkara_Emberqueen=0, Kiln_Surge=4)
    assert _clauses(none) == ["CR-3.4"]
    two = _with(FIRE_POOL, Vulkara_Emberqueen=2, Kiln_Surge=2)
    assert _clauses(two) == ["CR-3.4"]


def test_cr_3_5_a_pool_with_eleven_servants_is_refused() -> None:
    eleven = _with(FIRE_POOL, Sootwing_Drake=3, Kiln_Surge=2)
    verdict = RULES.check_deck(make_setup(), "p1", eleven)
    assert [v.clause for v in verdict.violations] == ["CR-3.5"]
    assert verdict.violations[0].reason == "11 Servant crystals; at most 10"


def test_cr_3_6_one_god_crystal() -> None:
    catalog = example_book().builtins()
    catalog["gods"].append(
        {"name": "Pyreheart", "element": "Fire", "cost": 90, "effects": [{"text": "x"}]}
    )
    setup = make_setup(options={"catalog": catalog})
    deck = _with(FIRE_POOL, Pyreheart=1, Kiln_Surge=2)
    assert [v.clause for v in RULES.check_deck(setup, "p1", deck).violations] == ["CR-3.6"]


def test_cr_3_7_crystals_of_the_catalog_spelled_as_the_catalog() -> None:
    deck = _with(FIRE_POOL, Kiln_Surge=2, **{"kiln surge": 1})
    verdict = RULES.check_deck(make_setup(), "p1", deck)
    assert [v.clause for v in verdict.violations] == ["CR-3.7"]
    assert "the catalog spells it 'Kiln Surge'" in verdict.violations[0].reason


def test_cr_3_7_a_misspelt_crystal_is_answered_with_the_closest_names() -> None:
    """A referee's typo in a pool file is answered as a typo in an entry is: did you mean."""
    deck = _with(FIRE_POOL, Kiln_Surge=2, Kiln_Srge=1)
    (violation,) = RULES.check_deck(make_setup(), "p1", deck).violations
    assert violation.clause == "CR-3.7"
    assert violation.reason.endswith(
        "Kiln Srge is not a crystal of the catalog; did you mean Kiln Surge?"
    )


def test_cr_i_21_fewer_than_three_servants_is_refused() -> None:
    few = _with(
        FIRE_POOL,
        Cinderpup=2,
        Pyrelance_Archer=0,
        Magmaback_Golem=0,
        Sootwing_Drake=0,
        Flame_Lance=4,
        Heatwave_Hymn=4,
        Ember_Mending=4,
        Kiln_Surge=4,
        Molten_Field=4,
        Twisted_Cinders=4,
    )
    # the example catalog has too few spells to fill 31 around 2 Servants: both problems are named
    assert few.size == 28
    assert _clauses(few) == ["CR-3.1", "CR-I.21"]


def test_cr_3_8_pools_registered_open_or_sealed() -> None:
    sealed = make_setup(decks={"p1": FIRE_POOL, "p2": SealedDeck("ab" * 32, 31)})
    state = RULES.initial_state(sealed)
    assert RULES.deck_knowledge(state, "p1") is not None
    knowledge = RULES.deck_knowledge(state, "p2")
    assert knowledge is not None
    assert knowledge.listed is None
    assert knowledge.size == 31
    assert 2 not in state.units  # a sealed pool's Summoner is shown in the start step (CR-I.24)
    assert state.sides[1].pool.count == 30
    assert "Vulkara Emberqueen" in RULES.render(state, "public")
    assert "registered pool not yet seen" not in RULES.render(state, "p2").split("p2:")[0]


def test_ref_5_1_no_entry_before_both_pools_are_registered() -> None:
    state = RULES.initial_state(make_setup(decks={"p1": FIRE_POOL}))
    verdict = RULES.check(state, RULES.parse("first p1"), "p1")
    assert verdict.violations[0].clause == "REF-5.1"
    assert "p2's pool is not registered" in verdict.violations[0].reason
    assert WATER_POOL.size == 31


def _sealed_water() -> CrystaleState:
    """p1's Fire pool is open, p2's is sealed; p2 has not yet shown its Summoner."""
    state = RULES.initial_state(
        make_setup(decks={"p1": FIRE_POOL, "p2": SealedDeck("ab" * 32, 31)})
    )
    return play(
        state,
        ("p1", "first p1"),
        ("p1", "pull 6"),
        ("p2", "pull 6"),
        ("p1", "show Pyrelance Archer, Cinderpup, Cinderpup"),
    )


def test_cr_12_3_a_sealed_pool_names_only_crystals_of_its_element() -> None:
    """CR-3.2: a pool is of one element, so a crystal of another element than the ones seen
    from a sealed pool (its Summoner's first of all) cannot come out of it (CR-12.3)."""
    state = play(_sealed_water(), ("p2", "summoner Thalassa Tidecaller"))
    reason = rejected(state, "show Cinderpup, Cinderpup, Cinderpup", "CR-12.3", "p2")
    assert "Fire crystal" in reason
    assert "CR-3.2" in reason
    assert judge(state, "show Reefling, Reefling, Kelpie Skirmisher", "p2").legal
    # the other way round: Water Servants shown first rule out a Fire Summoner
    shown = play(_sealed_water(), ("p2", "show Reefling, Reefling, Kelpie Skirmisher"))
    assert "Water" in rejected(shown, "summoner Vulkara Emberqueen", "CR-12.3", "p2")
    assert judge(shown, "summoner Thalassa Tidecaller", "p2").legal


def test_cr_12_3_a_sealed_pool_shows_no_fifth_copy() -> None:
    """CR-3.3: at most four copies of a crystal, so a fifth seen at once from a sealed pool
    is refused (CR-12.3); the open pool's list already says so."""
    state = play(_sealed_water(), ("p2", "summoner Thalassa Tidecaller"))
    reason = rejected(
        state, "show Reefling, Reefling, Reefling, Reefling, Reefling", "CR-12.3", "p2"
    )
    assert "CR-3.3" in reason
    state = play(
        state,
        ("p2", "show Reefling, Reefling, Reefling, Reefling"),
        "pull",
        "end",  # p1 has no Servant to promote: p2's turn follows at once
    )
    assert "4 copies of Reefling" in rejected(state, "pull Reefling", "CR-12.3")
    assert judge(state, "pull Kelpie Skirmisher").legal


def test_cr_12_3_a_sealed_pool_shows_no_eleventh_servant() -> None:
    """CR-3.5: a pool holds ten Servant crystals at most, so once ten are seen from a sealed
    pool, an eleventh Servant named from it is refused (CR-12.3), a Spell still accepted."""
    from referee.games.crystale.decks import check_named

    state = play(_sealed_water(), ("p2", "summoner Thalassa Tidecaller"))
    knowledge = state.sides[1].knowledge
    assert knowledge is not None
    for name in ["Reefling"] * 4 + ["Kelpie Skirmisher"] * 4 + ["Coral Bastion"] * 1:
        knowledge = knowledge.with_seen(name)
    book = state.book
    assert check_named(book, knowledge, "Harpoon Naiad", "CR-12.3").legal  # the tenth
    knowledge = knowledge.with_seen("Coral Bastion")
    verdict = check_named(book, knowledge, "Harpoon Naiad", "CR-12.3")
    assert not verdict.legal
    assert "CR-3.5" in verdict.violations[0].reason
    assert check_named(book, knowledge, "Tidal Lash", "CR-12.3").legal

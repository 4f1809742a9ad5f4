"""One or more tests per rulebook clause; each test name carries its clause id."""

from __future__ import annotations

import pytest

from referee.contract import Setup
from referee.errors import ActionSyntaxError, SetupError, VariantError
from referee.games.prismata import Buy, Click, End, PrismataRules
from referee.games.prismata.catalog import Res, load_catalog
from referee.games.prismata.rules import draw_random_set
from tests.prismata.helpers import (
    LIVE,
    OLD,
    PLAYERS,
    RULES,
    act,
    new_game,
    reason,
    refused,
    scenario,
    setup,
)

# ---------------------------------------------------------------- PM-1


def test_PM_1_1_p1_moves_first_then_turns_alternate() -> None:
    s = new_game()
    assert RULES.to_move(s) == "p1"
    s = act(s, "end")
    assert RULES.to_move(s) == "p2"
    s = act(s, "end")
    assert RULES.to_move(s) == "p1"
    assert s.turn == 2


def test_PM_1_2_gold_and_green_carry_other_resources_reset() -> None:
    s = scenario(["Wall"], ["Wall"], res1=Res(gold=3, energy=2, blue=1, red=1, green=2))
    s = act(s, "end", "end")
    assert s.active == 0
    assert s.res[0] == Res(gold=3, green=2)


def test_PM_1_3_units_are_named_by_stable_ids() -> None:
    s = scenario(["Drone", "Drone"], ["Drone"], res1=Res(gold=6, energy=2))
    assert "PM-1.3" in refused(s, "click #3")  # the enemy's Drone
    assert "PM-1.3" in refused(s, "click #9")  # no such unit
    s = act(s, "buy Drone")
    assert 4 in s.units
    s = act(s, "sell #4", "buy Drone")
    assert 4 not in s.units
    assert 5 in s.units


def test_PM_1_4_attack_left_opens_the_opponents_turn_with_defense() -> None:
    s = scenario(["Tarsier", "Drone"], ["Wall", "Wall"], res1=Res(attack=1))
    s = act(s, "end")
    assert (s.active, s.phase) == (1, "defense")


# ---------------------------------------------------------------- PM-2


def test_PM_2_1_every_game_offers_the_base_set() -> None:
    s = new_game()
    base = load_catalog(LIVE).base_set
    assert len(base) == 11
    assert list(s.supply)[:11] == list(base)


def test_PM_2_2_random_set_from_seed_is_recorded_and_reproducible() -> None:
    resolved = RULES.resolve_setup(Setup(players=PLAYERS, options={"seed": 42}))
    assert resolved.options["random_size"] == 8
    assert resolved.options["units"] == draw_random_set(LIVE, 8, 42)
    assert len(set(resolved.options["units"])) == 8
    s = RULES.initial_state(resolved)
    assert list(s.random_set) == resolved.options["units"]
    five = RULES.resolve_setup(Setup(players=PLAYERS, options={"seed": 42, "random_size": 5}))
    assert len(five.options["units"]) == 5
    with pytest.raises(SetupError):
        RULES.resolve_setup(Setup(players=PLAYERS, options={"seed": 1, "random_size": 6}))
    # The core draws no random numbers: without a seed or named units it refuses;
    # the application layer draws the seed (``RefereeService(draw_seed=...)``, service/setup.py).
    with pytest.raises(SetupError, match="seed"):
        RULES.resolve_setup(Setup(players=PLAYERS))


def test_PM_2_2_explicit_random_set() -> None:
    resolved = RULES.resolve_setup(setup(["Amporilla", "xaetron"]))
    assert resolved.options["units"] == ["Amporilla", "Xaetron"]


def test_PM_2_3_starting_units() -> None:
    s = new_game()
    kinds = [(u.owner, u.kind) for u in s.units.values()]
    assert kinds.count((0, "Drone")) == 6
    assert kinds.count((0, "Engineer")) == 2
    assert kinds.count((1, "Drone")) == 7
    assert kinds.count((1, "Engineer")) == 2
    assert s.res[0].energy == 2
    assert s.res[1] == Res()
    assert all(u.build == 0 and u.exhaust == 0 for u in s.units.values())


def test_PM_2_4_supply_by_rarity_and_drones() -> None:
    s = new_game(["Apollo", "Husk", "Tesla Coil", "Cryo Ray"])
    assert s.supply_max["Drone"] == (21, 20)
    assert s.supply_max["Engineer"] == (20, 20)
    assert s.supply_max["Wall"] == (10, 10)
    assert s.supply_max["Cryo Ray"] == (10, 10)
    assert s.supply_max["Tesla Coil"] == (4, 4)
    assert s.supply_max["Apollo"] == (1, 1)
    assert new_game(ruleset=OLD).supply_max["Drone"] == (20, 20)
    s = scenario(["Wall"], ["Wall"], res1=Res(gold=40, blue=10, green=10), offer=["Apollo"])
    s = act(s, "buy Apollo")
    assert "PM-2.4" in refused(s, "buy Apollo")


def test_PM_2_4_made_units_use_no_supply() -> None:
    s = scenario(["Wall"], ["Wall"], res1=Res(gold=11, blue=1, green=2), offer=["Tesla Coil"])
    s = act(s, "buy Tesla Coil")
    assert s.supply["Engineer"] == (20, 20)
    assert s.supply["Tesla Coil"] == (3, 4)


def test_PM_2_5_catalog_is_pinned_by_the_ruleset() -> None:
    assert RULES.rulesets[0] == LIVE
    s = new_game(["Tantalum Ray"], ruleset=OLD)
    assert s.ruleset == OLD
    assert load_catalog(OLD).units["Tantalum Ray"].click.health_cost == 2  # type: ignore[union-attr]
    assert load_catalog(LIVE).units["Tantalum Ray"].click.health_cost == 3  # type: ignore[union-attr]
    with pytest.raises(SetupError):
        RULES.initial_state(Setup(players=PLAYERS, ruleset="prismata/1999", options={"units": []}))


# ---------------------------------------------------------------- PM-3


def test_PM_3_1_start_of_turn_resets_energy_blue_red_attack() -> None:
    s = scenario(["Wall"], ["Wall"], res2=Res(gold=1, energy=3, blue=2, red=2, green=1, attack=0))
    s = act(s, "end")
    assert s.res[1] == Res(gold=1, green=1)


def test_PM_3_2_upkeep_lifespan_exhaust_construction_regen() -> None:
    s = scenario(
        ["Wall"],
        [
            ("Doomed Drone", {"lifespan": 1}),
            ("Doomed Drone", {"lifespan": 3}),
            ("Pixie", {"exhaust": 2}),
            ("Wall", {"build": 2}),
            ("Xaetron", {"health": 10}),
        ],
    )
    s = act(s, "end")
    kinds = {u.id: u for u in s.units.values()}
    assert 2 not in kinds  # died of old age
    assert kinds[3].lifespan == 2
    assert kinds[4].exhaust == 1
    assert kinds[4].status == "idle"
    assert kinds[5].build == 1
    assert kinds[6].health == 12  # regenerates 4, capped at 12


def test_PM_3_3_units_finishing_construction_act_this_turn() -> None:
    s = scenario(["Wall"], [("Tarsier", {"build": 1}), ("Drone", {"build": 1})])
    s = act(s, "end")
    assert s.res[1].attack == 1
    assert s.units[3].status == "ready"
    s = act(s, "click #3")
    assert s.res[1].gold == 1


def test_PM_3_4_start_of_turn_effects() -> None:
    s = scenario(["Wall"], ["Gauss Charge", "Chrono Filter", "Engineer", "Gauss Fabricator"])
    s = act(s, "end")
    assert s.res[1].attack == 1
    assert s.res[1].blue == 1
    assert s.res[1].red == 1
    assert s.res[1].energy == 1
    assert 2 not in s.units  # Gauss Charge sacrificed itself
    assert s.units[3].exhaust == 2  # Chrono Filter rests
    cannons = [u for u in s.units.values() if u.kind == "Gauss Cannon"]
    assert len(cannons) == 1
    assert cannons[0].exhaust == 1


def test_PM_3_5_resonate_counts_ready_units_of_the_kind() -> None:
    s = scenario(["Wall"], ["Amporilla", "Tarsier", "Tarsier", ("Tarsier", {"build": 2})])
    s = act(s, "end")
    assert s.res[1].attack == 2 + 2  # two Tarsiers attack, Amporilla gains one per ready Tarsier


# ---------------------------------------------------------------- PM-4


def test_PM_4_1_defense_cannot_end_before_damage_is_absorbed() -> None:
    s = scenario(["Wall"], ["Engineer", "Engineer", "Wall"], res1=Res(attack=2))
    s = act(s, "end")
    assert s.phase == "defense"
    assert "PM-4.1" in refused(s, "end")
    s = act(s, "block #2")
    assert "PM-4.1" in refused(s, "end")
    s = act(s, "block #3", "end")
    assert s.phase == "action"
    assert s.active == 1
    assert "PM-4.1" in refused(s, "block #4")


def test_PM_4_2_who_can_block() -> None:
    s = scenario(
        ["Wall"],
        [
            ("Steelsplitter", {"status": "used"}),
            ("Wall", {"build": 1}),
            ("Wall", {"exhaust": 1}),
            ("Wall", {"chill": 3}),
            "Wall",
            "Tarsier",
        ],
        res1=Res(attack=1),
        active=1,
        phase="defense",
    )
    for uid in (2, 3, 4, 5, 7):
        assert "PM-4.2" in refused(s, f"block #{uid}")
    assert "frozen" in reason(s, "block #5")
    act(s, "block #6")
    assert RULES.observe(s)["defense"] == [3, 3]


def test_PM_4_3_normal_blockers_survive_whole_fragile_keep_damage() -> None:
    s = scenario(["Wall"], ["Wall", "Forcefield"], res1=Res(attack=2), active=1, phase="defense")
    t = act(s, "block #2")
    assert t.units[2].health == 3
    assert t.res[0].attack == 0
    t = act(s, "block #3")
    assert 3 not in t.units  # 2 damage on a 2-health Forcefield
    s = scenario(["Wall"], ["Wall", "Forcefield"], res1=Res(attack=1), active=1, phase="defense")
    t = act(s, "block #3")
    assert t.units[3].health == 1


# ---------------------------------------------------------------- PM-5


def test_PM_5_1_buying_only_in_the_action_phase_and_on_offer() -> None:
    s = scenario(["Wall"], ["Wall"], res1=Res(gold=20, blue=2))
    assert "PM-5.1" in refused(s, "buy Apollo")
    s = act(s, "buy Wall")
    wall = s.units[3]
    assert wall.fresh
    assert wall.build == 0
    d = scenario(["Wall"], ["Wall"], res1=Res(gold=20, blue=2), active=1, phase="defense")
    assert "PM-5.1" in refused(d, "buy Wall")


def test_PM_5_2_costs_must_be_paid() -> None:
    s = scenario(["Wall"], ["Wall"], res1=Res(gold=4, blue=1))
    assert "PM-5.2" in refused(s, "buy Wall")
    s = scenario([("Galvani Drone", {})], ["Wall"])
    assert "PM-5.2" in refused(s, "click #1")


def test_PM_5_3_consumed_units_are_named_and_must_be_ready() -> None:
    s = scenario(["Drone", ("Drone", {"build": 1}), "Wall"], ["Wall"], res1=Res(gold=3, green=2))
    assert "PM-5.3" in refused(s, "buy Forcefield")  # none named
    assert "PM-5.3" in refused(s, "buy Forcefield consume #1")  # not clicked yet
    assert "PM-5.3" in refused(s, "buy Forcefield consume #2")  # under construction
    assert "PM-5.3" in refused(s, "buy Forcefield consume #3")  # wrong kind
    s = act(s, "click #1", "buy Forcefield consume #1")
    assert 1 not in s.units
    assert s.dead[1].cause == "consumed"
    assert "PM-5.3" in refused(s, "buy Forcefield consume #1")  # already consumed


def test_PM_5_4_click_abilities() -> None:
    s = scenario(
        [
            ("Rhino", {"stamina": 1}),
            ("Rhino", {"stamina": 0}),
            ("Cryo Ray", {"health": 0}),
            ("Wall", {"fresh": True}),
        ],
        ["Wall"],
    )
    s = act(s, "click #1")
    assert s.units[1].stamina == 0
    assert s.units[1].status == "used"
    assert s.res[0].attack == 1
    assert "PM-5.4" in refused(s, "click #1")  # once per turn
    assert "stamina" in reason(s, "click #2")
    assert "health" in reason(s, "click #3")
    assert "PM-5.4" in refused(s, "click #4")  # a Wall has no ability
    fresh = scenario([("Rhino", {"status": "idle", "fresh": True})], ["Wall"])
    assert "arrives" in reason(fresh, "click #1")


def test_PM_5_4_health_cost_can_kill() -> None:
    s = scenario([("Cryo Ray", {"health": 1})], ["Wall"])
    s = act(s, "click #1 on #2")
    assert 1 not in s.units
    assert s.dead[1].cause == "health"


def test_PM_5_5_targets_required_or_refused() -> None:
    s = scenario(["Shiver Yeti", "Drone"], ["Wall"])
    assert "PM-5.5" in refused(s, "click #1")
    assert "PM-5.5" in refused(s, "click #2 on #3")
    assert "PM-5.5" in refused(s, "click #1 on #2")  # own unit


def test_PM_5_6_chill_only_on_blockers_and_freezes() -> None:
    s = scenario(["Shiver Yeti", "Shiver Yeti"], ["Wall", "Tarsier", ("Drone", {"status": "used"})])
    assert "PM-5.6" in refused(s, "click #1 on #4")
    assert "PM-5.6" in refused(s, "click #1 on #5")
    s = act(s, "click #1 on #3", "click #2 on #3")
    assert s.units[3].chill == 4
    assert RULES.observe(s)["defense"][1] == 0
    s = act(s, "end")  # p2's turn starts: its chill melts
    assert s.units[3].chill == 0


def test_PM_5_7_snipe_conditions() -> None:
    s = scenario(
        ["Apollo", "Kinetic Driver"],
        ["Wall", ("Xaetron", {"health": 5}), "Animus"],
        res1=Res(gold=5),
    )
    assert "PM-5.7" in refused(s, "click #1 on #4")  # 5 health
    assert "PM-5.7" in refused(s, "click #2 on #3")  # not an Animus, Blastforge or Conduit
    t = act(s, "click #1 on #3")
    assert 3 not in t.units
    t = act(s, "click #2 on #5")
    assert 5 not in t.units
    assert 2 not in t.units


def test_PM_5_7_deadeye_destroys_a_non_blocking_drone() -> None:
    s = scenario(["Deadeye Operative"], ["Drone", ("Drone", {"status": "used"}), "Wall"])
    assert "PM-5.7" in refused(s, "click #1 on #2")
    assert "PM-5.7" in refused(s, "click #1 on #4")
    s = act(s, "click #1 on #3")
    assert 3 not in s.units
    assert s.units[1].stamina == 2


def test_PM_5_8_undo_a_click() -> None:
    s = scenario(
        ["Drone", "Pixie", "Shiver Yeti", "Ebb Turbine", "Drone"], ["Wall"], res1=Res(gold=0)
    )
    s2 = act(s, "click #1", "click #2", "click #3 on #6")
    back = act(s2, "undo #1", "undo #2", "undo #3")
    assert back.res == s.res
    assert back.units[6].chill == 0
    assert all(back.units[i].status == "ready" for i in (1, 2, 3))
    spent = act(s, "click #1", "click #5", "click #4 consume #1")
    assert spent.res[0] == Res(gold=5, energy=1)  # two Drones, then 3 gold and 1 energy
    back = act(spent, "undo #4")
    assert 1 in back.units
    assert back.res[0].energy == 0
    spent = act(s, "click #1", "click #5", "buy Engineer")
    assert "PM-5.8" in refused(spent, "undo #1")


def test_PM_5_9_sell_back_a_purchase() -> None:
    s = scenario(["Drone"], ["Wall"], res1=Res(gold=1, green=1))
    s = act(s, "click #1", "buy Forcefield consume #1")
    back = act(s, "sell #3")
    assert 1 in back.units
    assert 3 not in back.units
    assert back.res[0] == Res(gold=2, green=1)
    assert back.supply["Forcefield"] == (20, 20)
    later = act(s, "end", "end")
    assert "PM-5.9" in refused(later, "sell #3")


def test_PM_5_10_units_under_construction_are_out_of_reach() -> None:
    s = scenario(
        ["Shiver Yeti", "Apollo", "Drone"],
        [("Wall", {"build": 1}), ("Tarsier", {"build": 1})],
        res1=Res(gold=9, blue=1),
    )
    assert "PM-5.6" in refused(s, "click #1 on #4")
    assert "PM-5.7" in refused(s, "click #2 on #5")


def test_PM_5_10_prompt_units_block_at_once_but_click_later() -> None:
    s = scenario(["Wall"], ["Wall"], res1=Res(gold=5, red=1))
    s = act(s, "buy Rhino")
    rhino = s.units[3]
    assert rhino.build == 0
    assert RULES.observe(s)["defense"][0] == 5
    assert "PM-5.4" in refused(s, "click #3")


def test_PM_5_11_made_units_arrive_idle_for_the_named_seat() -> None:
    s = scenario(["Valkyrion"], ["Wall"])
    s = act(s, "click #1")
    barriers = [u for u in s.units.values() if u.kind == "Barrier"]
    assert len(barriers) == 2
    assert all(b.owner == 1 and b.exhaust == 1 and b.status == "idle" for b in barriers)
    assert s.res[0].attack == 4


def test_PM_5_12_spells_act_and_leave() -> None:
    s = scenario(["Wall"], ["Wall"], res1=Res(green=4), offer=["Cluster Bolt"])
    s = act(s, "buy Cluster Bolt")
    charges = [u for u in s.units.values() if u.kind == "Gauss Charge"]
    assert sorted(u.owner for u in charges) == [0, 0, 0, 0, 1]
    assert all(u.build == 1 for u in charges)
    assert not any(u.kind == "Cluster Bolt" for u in s.units.values())


def test_PM_5_13_self_sacrifice_on_click() -> None:
    s = scenario(["Pixie"], ["Wall"])
    s = act(s, "click #1")
    assert 1 not in s.units
    assert s.dead[1].cause == "sacrifice"
    assert s.res[0].attack == 1


# ---------------------------------------------------------------- PM-6


def test_PM_6_1_only_built_frontline_units() -> None:
    s = scenario(
        ["Wall"], ["Wall", ("Galvani Drone", {"build": 1}), "Galvani Drone"], res1=Res(attack=5)
    )
    assert "PM-6.1" in refused(s, "hit #2")
    assert "PM-6.1" in refused(s, "hit #3")
    assert "PM-6.1" in refused(s, "hit #1")
    act(s, "hit #4")


def test_PM_6_2_enough_attack_unless_fragile() -> None:
    s = scenario(["Wall"], ["Shredder"], res1=Res(attack=3))
    assert "PM-6.2" in refused(s, "hit #2")
    s = scenario(["Wall"], ["Shredder"], res1=Res(attack=0))
    assert "PM-6.2" in refused(s, "hit #2")


def test_PM_6_3_frontline_damage() -> None:
    s = scenario(["Wall"], ["Shredder", "Wall"], res1=Res(attack=5))
    s = act(s, "hit #2")
    assert 2 not in s.units
    assert s.res[0].attack == 1


# ---------------------------------------------------------------- PM-7


def test_PM_7_1_overrun_all_blockers() -> None:
    s = scenario(["Wall"], ["Wall", "Engineer", "Tarsier"], res1=Res(attack=5))
    s = act(s, "end")
    assert s.phase == "breach"
    assert 2 not in s.units
    assert 3 not in s.units
    assert s.res[0].attack == 1
    s = scenario(["Wall"], ["Wall", "Engineer"], res1=Res(attack=3))
    s = act(s, "end")
    assert s.phase == "defense"
    assert s.active == 1


def test_PM_7_2_breach_needs_enough_attack_unless_fragile() -> None:
    s = scenario(["Wall"], ["Animus", "Conduit"], res1=Res(attack=1), phase="breach")
    assert "PM-7.2" in refused(s, "breach #2")
    s = act(s, "breach #3")
    assert s.units[3].health == 2
    assert s.res[0].attack == 0


def test_PM_7_3_construction_only_when_nothing_else() -> None:
    s = scenario(
        ["Wall"], [("Animus", {"build": 1}), "Tarsier"], res1=Res(attack=3), phase="breach"
    )
    assert "PM-7.3" in refused(s, "breach #2")
    s = act(s, "breach #3", "breach #2")
    assert not [u for u in s.units.values() if u.owner == 1]


def test_PM_7_4_breach_ends_only_when_nothing_can_be_hit() -> None:
    s = scenario(["Wall"], ["Tarsier", "Animus"], res1=Res(attack=2), phase="breach")
    assert "PM-7.4" in refused(s, "end")
    s = act(s, "breach #2")
    s = act(s, "end")  # one attack left, the Animus needs two
    assert s.active == 1
    assert s.res[0].attack == 0
    assert s.phase == "action"


def test_PM_7_5_unbreach() -> None:
    s = scenario(["Wall"], ["Tarsier", "Conduit"], res1=Res(attack=2), phase="breach")
    t = act(s, "breach #2", "breach #3", "unbreach #3", "unbreach #2")
    assert t.units[2].health == 1
    assert t.units[3].health == 3
    assert t.res[0].attack == 2
    assert "PM-7.5" in refused(s, "unbreach #2")


# ---------------------------------------------------------------- PM-8


def test_PM_8_1_ending_the_turn() -> None:
    s = scenario(["Wall"], ["Wall"])
    s = act(s, "end")
    assert s.turn == 1
    assert s.active == 1
    assert s.phase == "action"


def test_PM_8_2_attack_left_must_be_blocked() -> None:
    s = scenario(["Tarsier"], ["Wall", "Wall"], res1=Res(attack=2))
    s = act(s, "end")
    assert s.phase == "defense"
    assert s.res[0].attack == 2
    s = act(s, "block #2", "end")
    assert s.res[0].attack == 0
    assert s.phase == "action"


# ---------------------------------------------------------------- PM-9


def test_PM_9_1_no_units_left_loses() -> None:
    s = scenario(["Wall"], ["Tarsier"], res1=Res(attack=1))
    s = act(s, "end", "breach #2", "end")
    out = RULES.outcome(s)
    assert out.status == "win"
    assert out.winner == "p1"
    assert out.clause == "PM-9.1"


def test_PM_9_2_both_wiped_out_is_a_draw() -> None:
    s = scenario(["Pixie"], ["Tarsier"])
    s = act(s, "click #1", "end", "breach #2", "end")
    out = RULES.outcome(s)
    assert out.status == "draw"
    assert out.clause == "PM-9.2"


def test_PM_9_3_variant_scores_double_wipeout_for_p2() -> None:
    s = scenario(["Pixie"], ["Tarsier"], wipeout="second_player")
    s = act(s, "click #1", "end", "breach #2", "end")
    out = RULES.outcome(s)
    assert out.winner == "p2"
    assert out.clause == "PM-9.3"
    with pytest.raises(VariantError):
        RULES.resolve_variants({"wipeout": "coin"})


def test_PM_9_4_no_actions_after_the_result() -> None:
    s = scenario(["Wall"], ["Tarsier"], res1=Res(attack=1))
    s = act(s, "end", "breach #2", "end")
    assert RULES.to_move(s) is None
    assert RULES.legal_actions(s) == []
    assert "PM-9.4" in refused(s, "end")


# ---------------------------------------------------------------- PM-N


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly #1",
        "buy",
        "buy Nothing",
        "click",
        "click x",
        "click #1 on",
        "click #1 eat #2",
        "buy Wall consume",
        "end now",
        "block #0",
        "block #1 #2",
        "undo",
    ],
)
def test_PM_N_1_unreadable_text_is_rejected(text: str) -> None:
    with pytest.raises(ActionSyntaxError) as info:
        RULES.parse(text)
    assert info.value.clause == "PM-N.1"


def test_PM_N_2_canonical_round_trip_and_lenient_input() -> None:
    assert RULES.parse("  BUY   vivid drone  CONSUME 3 #5 ") == Buy("Vivid Drone", (3, 5))
    assert RULES.notation(Buy("Vivid Drone", (3, 5))) == "buy Vivid Drone consume #3 #5"
    assert RULES.parse("Click #4 ON 9") == Click(4, 9)
    for text in (
        "buy Wall",
        "click #4 on #9 consume #2",
        "undo #1",
        "sell #2",
        "block #3",
        "hit #4",
        "breach #5",
        "unbreach #6",
        "end",
        "click #7 consume #1 #2",
    ):
        assert RULES.notation(RULES.parse(text)) == text
    assert RULES.parse("end") == End()


# ---------------------------------------------------------------- PM-I


def test_PM_I_1_supply_variant_listed() -> None:
    assert new_game(["Cryo Ray"]).supply_max["Cryo Ray"] == (10, 10)
    assert new_game(["Cryo Ray"], supply="listed").supply_max["Cryo Ray"] == (20, 20)


def test_PM_I_2_bought_makes_construct_clicked_makes_exhaust() -> None:
    s = scenario(
        [("Xaetron", {"health": 12})],
        ["Wall"],
        res1=Res(gold=11, blue=1, green=2),
        offer=["Tesla Coil"],
    )
    s = act(s, "buy Tesla Coil", "click #1")
    engineers = [u for u in s.units.values() if u.kind == "Engineer"]
    charges = [u for u in s.units.values() if u.kind == "Gauss Charge"]
    assert all(u.build == 1 and u.exhaust == 0 for u in engineers)
    assert len(charges) == 5
    assert all(u.exhaust == 1 and u.build == 0 for u in charges)


def test_PM_I_3_zero_health_units_have_one() -> None:
    for name in ("Gauss Charge", "Auric Impulse", "Centrifuge", "Antima Comet"):
        assert load_catalog(LIVE).units[name].health == 1


def test_PM_I_4_unclicked_drones_cannot_be_consumed() -> None:
    s = scenario(["Drone", "Drone"], ["Wall"], res1=Res(gold=2, energy=2), offer=["Vivid Drone"])
    assert "click it first" in reason(s, "buy Vivid Drone consume #1 #2")


def test_PM_I_5_game_decided_at_end_of_turn() -> None:
    s = scenario([("Pixie", {})], ["Wall"], res1=Res(gold=5, blue=1))
    s = act(s, "click #1")
    assert RULES.outcome(s).status == "ongoing"
    s = act(s, "buy Wall", "end")
    assert RULES.outcome(s).status == "ongoing"


def test_PM_I_6_frozen_units_can_be_breached() -> None:
    s = scenario(["Wall"], [("Wall", {"chill": 3}), "Tarsier"], res1=Res(attack=3), phase="breach")
    s = act(s, "breach #2")
    assert 2 not in s.units


def test_PM_I_7_undo_at_start_of_breach_returns_to_action() -> None:
    s = scenario(["Shiver Yeti", "Tarsier"], ["Drone"], res1=Res(attack=1))
    s = act(s, "click #1 on #3", "end")
    assert s.phase == "breach"
    s = act(s, "undo #1")
    assert s.phase == "action"
    assert s.units[3].chill == 0
    s = act(s, "end")
    assert s.phase == "breach"
    assert 3 not in s.units
    t = scenario(["Shiver Yeti", "Tarsier"], ["Drone", "Animus"], res1=Res(attack=3))
    t = act(t, "click #1 on #3", "end", "breach #4")
    assert "PM-5.8" in refused(t, "undo #1")


def test_PM_I_7_a_chill_on_a_unit_killed_in_the_breach_can_be_taken_back() -> None:
    # The wiki's Breach page: a freeze cannot be unassigned after the wipeout unless lethal
    # damage has been assigned to the frozen unit while breaching.
    s = scenario(["Shiver Yeti", "Tarsier"], ["Drone", "Animus"], res1=Res(attack=3))
    s = act(s, "click #1 on #3", "end", "breach #3")
    assert 3 not in s.units
    s = act(s, "undo #1")
    assert s.phase == "breach"
    assert s.units[1].status == "ready"
    assert 3 not in s.units
    # The Drone, unfrozen now, would return as a blocker after the overrun: its damage stands.
    assert "PM-7.5" in refused(s, "unbreach #3")
    s = act(s, "breach #4")
    assert not [u for u in s.units.values() if u.owner == 1]


def test_PM_I_8_doomed_variant() -> None:
    s = scenario(["Wall"], [("Doomed Drone", {"lifespan": 1})], doomed="lose")
    s = act(s, "end")
    assert RULES.outcome(s).winner == "p1"
    s = scenario(["Wall"], [("Doomed Drone", {"lifespan": 1})])
    s = act(s, "end")
    assert RULES.outcome(s).status == "ongoing"


def test_PM_I_9_legal_actions_group_interchangeable_consumption() -> None:
    used = {"status": "used"}
    s = scenario(
        [("Drone", used), ("Drone", used), ("Drone", used), ("Drone", used)],
        ["Wall"],
        res1=Res(gold=2, energy=2),
        offer=["Vivid Drone"],
    )
    buys = [a for a in RULES.legal_actions(s) if isinstance(a, Buy) and a.unit == "Vivid Drone"]
    assert buys == [Buy("Vivid Drone", (1, 2))]


def test_PM_I_10_deadeye_player_names_the_drone() -> None:
    used = {"status": "used"}
    s = scenario(["Deadeye Operative"], [("Drone", used), ("Drone", used)])
    assert 3 not in act(s, "click #1 on #3").units
    assert 2 not in act(s, "click #1 on #2").units


def test_PM_I_11_what_stands_and_snipe_undo() -> None:
    s = scenario(["Apollo"], ["Tarsier", "Wall"])
    s = act(s, "click #1 on #2", "undo #1")
    assert 2 in s.units
    s = scenario(["Wall"], ["Galvani Drone"], res1=Res(attack=1))
    s = act(s, "hit #2")
    assert "PM-7.5" in refused(s, "unbreach #2")


def test_PM_I_12_lifespan_waits_while_exhausted_stamina_per_click() -> None:
    s = scenario(["Wall"], [("Frostbite", {"exhaust": 1, "lifespan": 3, "status": "idle"})])
    s = act(s, "end")
    assert s.units[2].lifespan == 3
    assert s.units[2].exhaust == 0
    r = scenario(["Rhino"], ["Wall"])
    assert act(r, "click #1").units[1].stamina == 1


def test_PM_I_17_variant_lifespan_built_or_always() -> None:
    """PM-I.17: by default (reference) lifespan waits out construction and exhaust; built
    runs it down for an exhausted unit, always for one under construction too."""
    cases = {"reference": (3, 4, True), "built": (2, 4, True), "always": (2, 3, False)}
    for aging, (tired, building, nivo) in cases.items():
        s = scenario(
            ["Wall"],
            [
                ("Frostbite", {"exhaust": 1, "lifespan": 3, "status": "idle"}),
                ("Doomed Drone", {"build": 1, "lifespan": 4}),
                ("Nivo Charge", {"build": 1}),
            ],
            lifespan=aging,
        )
        assert s.units[4].lifespan == 1  # Nivo Charge: lifespan 1, build time 1
        s = act(s, "end")
        assert (s.units[2].lifespan, s.units[3].lifespan) == (tired, building), aging
        assert (4 in s.units) == nivo, aging  # always: dead before it was ever built


def test_PM_I_17_doomed_follows_the_lifespan_variant() -> None:
    """PM-I.8 with PM-I.17: a lifespan-1 unit under construction is doomed only when its
    lifespan runs down while it is built (always)."""
    for aging, over in (("reference", False), ("always", True)):
        s = scenario(
            ["Wall"], [("Doomed Drone", {"lifespan": 1, "build": 1})], doomed="lose", lifespan=aging
        )
        out = RULES.outcome(act(s, "end"))
        assert (out.winner == "p1") == over, aging


def test_PM_I_13_spell_is_gone_after_purchase() -> None:
    s = scenario(["Wall"], ["Wall"], res1=Res(green=4), offer=["Cluster Bolt"])
    s = act(s, "buy Cluster Bolt")
    spell = next(u for u in s.dead.values() if u.kind == "Cluster Bolt")
    assert "PM-5.9" in refused(s, f"sell #{spell.id}")  # no longer in play


def test_PM_I_14_explicit_sets_are_validated() -> None:
    with pytest.raises(SetupError):
        RULES.resolve_setup(setup(["Wall"]))
    with pytest.raises(SetupError):
        RULES.resolve_setup(setup(["Apollo", "apollo"]))
    with pytest.raises(SetupError):
        RULES.resolve_setup(setup(["Nonesuch"]))
    assert RULES.resolve_setup(setup([])).options["units"] == []


def test_PM_I_15_chill_lasts_through_the_defense() -> None:
    s = scenario(["Tatsu Nullifier"], ["Wall", "Wall"], res1=Res(attack=1))
    s = act(s, "click #1 on #2", "end")
    assert s.phase == "defense"
    assert s.active == 1
    assert "PM-4.2" in refused(s, "block #2")  # still frozen while its owner blocks
    s = act(s, "block #3", "end")
    assert s.phase == "action"
    assert s.units[2].chill == 0  # gone at its owner's start of turn


def test_PM_I_16_a_built_unit_too_big_to_damage_still_shields_construction() -> None:
    s = scenario(["Wall"], ["Animus", ("Drone", {"build": 1})], res1=Res(attack=1), phase="breach")
    assert "PM-7.3" in refused(s, "breach #3")  # the Animus (2 health) is still there
    s = act(s, "end")
    assert 3 in s.units
    assert s.active == 1


def test_PM_I_16_variant_overkill_once_no_built_unit_can_be_damaged() -> None:
    # The rules summary's reading: the shield lifts once no other target can take damage.
    s = scenario(
        ["Wall"],
        ["Animus", ("Drone", {"build": 1})],
        res1=Res(attack=1),
        phase="breach",
        overkill="undamageable",
    )
    assert "PM-7.4" in refused(s, "end")  # the Drone under construction can still be hit
    s = act(s, "breach #3")
    assert 3 not in s.units
    assert 2 in s.units
    # A fragile unit can always take damage, so it still shields the construction.
    s = scenario(
        ["Wall"],
        [("Gauss Cannon", {"health": 4}), ("Drone", {"build": 1})],
        res1=Res(attack=1),
        phase="breach",
        overkill="undamageable",
    )
    assert "PM-7.3" in refused(s, "breach #3")


def test_rules_object_is_registered() -> None:
    from referee import games

    assert isinstance(games.load("prismata"), PrismataRules)


def test_render_and_describe_show_the_position() -> None:
    s = scenario(
        [("Wall", {"chill": 1}), ("Tarsier", {"build": 1}), ("Drone", {"status": "used"})],
        [("Conduit", {"health": 2}), ("Pixie", {"exhaust": 1, "status": "idle"})],
        res1=Res(gold=4, attack=2),
    )
    text = RULES.render(s)
    assert "p1 to act, action phase" in text
    assert "p1: gold 4" in text
    assert "attack 2" in text
    assert "Wall x1 (3 hp): #1 (chill 1, blocking)" in text
    assert "#2 (build 1)" in text
    assert "#3 (used)" in text
    assert "#4 (2/3 hp)" in text
    assert "#5 (exhaust 1)" in text
    assert "Supply left (p1/p2): Drone 21/20" in text
    data = RULES.observe(s)
    assert data["to_move"] == "p1"
    assert data["defense"] == [3, 0]
    import json

    json.dumps(data)

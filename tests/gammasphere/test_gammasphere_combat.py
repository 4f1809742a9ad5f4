"""Calculated values and attacks (GS-2.4, GS-7, GS-8.1 and their interpretations)."""

from __future__ import annotations

from referee.games.gammasphere import Attack, GammasphereState
from referee.games.gammasphere.position import attack_of, defense_of
from tests.gammasphere.helpers import (
    RULES,
    assert_illegal,
    entity,
    play,
    put,
    resources_of,
    side,
    started,
)

# Numbers of the rules text's own example (level 5, attack 2000, modifier 300), plus a
# character whose attack a low level would take below zero.
DUEL = """
[[cards]]
name = "Example Knight"
kind = "character"
level = 5
attack = 2000
defense = 1500
attack_mod = 300
defense_mod = 100

[[cards]]
name = "Glass Cannon"
kind = "character"
level = 10
attack = 500
defense = 300
attack_mod = 400
defense_mod = 200

[[cards]]
name = "Spike"
kind = "weapon"
attack_boost = 500
"""


def test_gs_2_4_the_level_changes_attack_and_defense_by_the_modifiers() -> None:
    state = started(options={"catalog": DUEL})
    state, at7 = put(state, "p1", "Example Knight", level=7)
    state, at3 = put(state, "p1", "Example Knight", level=3)
    state, at5 = put(state, "p1", "Example Knight")
    assert [attack_of(state, entity(state, n)) for n in (at7, at3, at5)] == [2600, 1400, 2000]
    assert [defense_of(state, entity(state, n)) for n in (at7, at3, at5)] == [1700, 1300, 1500]


def test_gs_i_14_a_calculated_value_below_zero_counts_as_zero() -> None:
    state = started(options={"catalog": DUEL})
    state, cannon = put(state, "p1", "Glass Cannon", level=1)
    assert (attack_of(state, entity(state, cannon)), defense_of(state, entity(state, cannon))) == (
        0,
        0,
    )


def test_gs_i_14_the_floor_at_zero_applies_to_the_whole_value_weapons_included() -> None:
    state = started(options={"catalog": DUEL})
    state, cannon = put(state, "p1", "Glass Cannon", level=8)  # 500 - 2*400 = -300 by level
    state, _ = put(state, "p1", "Spike", carrier=cannon)
    assert attack_of(state, entity(state, cannon)) == 200  # -300 + 500, not 0 + 500


def test_gs_2_6_weapon_boosts_count_in_battle() -> None:
    state = started()
    state, trooper = put(state, "p1", "Gamma Trooper")
    state, _ = put(state, "p1", "Plasma Blade", carrier=trooper)
    state, golem = put(
        state, "p2", "Shale Golem", "defense", level=2
    )  # defense 2200 - 4*250 = 1200
    assert attack_of(state, entity(state, trooper)) == 1700
    state = play(state, f"attack #{trooper} #{golem}")
    assert entity(state, golem) is None
    assert side(state, "p1").power == 9000


def test_gs_7_1_the_attacker_is_an_own_untapped_character_in_attack_mode() -> None:
    state = started()
    state, guard = put(state, "p1", "Gamma Trooper", "defense")
    state, tired = put(state, "p1", "Gamma Trooper", tapped=True)
    state, wall = put(state, "p1", "Bastion Wall")
    state, foe = put(state, "p2", "Gamma Trooper")
    assert_illegal(state, f"attack #{guard} #{foe}", "GS-7.1", "defense mode")
    assert_illegal(state, f"attack #{tired} #{foe}", "GS-7.1", "tapped")
    assert_illegal(state, f"attack #{wall} #{foe}", "GS-7.1", "only characters attack")
    assert_illegal(state, f"attack #{foe} #{guard}", "GS-7.1", "must be p1's own")
    assert_illegal(state, f"attack #99 #{foe}", "GS-1.3", "#99")


def test_gs_7_2_and_gs_2_5_the_target_is_an_opposing_character_never_a_building() -> None:
    state = started()
    state, mine = put(state, "p1", "Ion Lancer")
    state, other = put(state, "p1", "Gamma Trooper")
    state, wall = put(state, "p2", "Bastion Wall")
    state, pylon = put(state, "p2", "Pylon")
    assert_illegal(state, f"attack #{mine} #{other}", "GS-7.2", "p1's own")
    assert_illegal(state, f"attack #{mine} #{wall}", "GS-7.2", "only characters can be attacked")
    assert_illegal(state, f"attack #{mine} #{pylon}", "GS-7.2", "pylon")
    assert [a for a in RULES.legal_actions(state) if isinstance(a, Attack)] == []


def battle(
    attacker: str, defender: str, mode: str = "attack", **variants: str
) -> tuple[GammasphereState, int, int]:
    """p1's ``attacker`` attacks p2's ``defender`` (in ``mode``), both put on the field in a
    fresh main phase: the position after the attack and the two cards' numbers."""
    state = started(None, None, **variants)
    state, mine = put(state, "p1", attacker)
    state, theirs = put(state, "p2", defender, mode)
    return play(state, f"attack #{mine} #{theirs}"), mine, theirs


def powers(state: GammasphereState) -> tuple[int, int]:
    """p1's and p2's power levels."""
    return side(state, "p1").power, side(state, "p2").power


def test_gs_7_3_a_defender_whose_defense_falls_short_is_destroyed() -> None:
    state, _, trooper = battle("Ion Lancer", "Gamma Trooper", "defense")
    assert entity(state, trooper) is None
    assert side(state, "p2").discard == ("Gamma Trooper",)
    assert powers(state) == (9000, 9000)


def test_gs_7_4_a_stronger_defense_costs_the_attacking_player_the_difference() -> None:
    state, trooper, golem = battle("Gamma Trooper", "Shale Golem", "defense")
    assert entity(state, trooper) is not None
    assert entity(state, golem) is not None
    assert powers(state) == (9000 - 1000, 9000)


def test_gs_7_5_an_attack_mode_defender_with_less_attack_is_destroyed() -> None:
    state, lancer, trooper = battle("Ion Lancer", "Gamma Trooper")
    assert entity(state, trooper) is None
    assert entity(state, lancer) is not None
    assert powers(state) == (9000, 9000)


def test_gs_7_6_a_stronger_attack_mode_defender_destroys_the_attacker_and_costs_the_difference() -> (  # noqa: E501 - the test's name states the rule
    None
):
    state, trooper, lancer = battle("Gamma Trooper", "Ion Lancer")
    assert entity(state, trooper) is None
    assert entity(state, lancer) is not None
    assert side(state, "p1").discard == ("Gamma Trooper",)
    assert powers(state) == (9000 - 600, 9000)


def test_gs_i_8_equal_defense_changes_nothing() -> None:
    state = started()
    state, trooper = put(state, "p1", "Gamma Trooper")
    state, golem = put(state, "p2", "Shale Golem", "defense", level=2)
    assert defense_of(state, entity(state, golem)) == 1200
    after = play(state, f"attack #{trooper} #{golem}")
    assert [e.id for e in after.field] == [trooper, golem]
    assert powers(after) == (9000, 9000)


def test_gs_i_8_equal_attacks_destroy_both_by_default_or_neither_by_variant() -> None:
    for variant, survivors in (("both", []), ("neither", [1, 2])):
        state, _, _ = battle("Gamma Trooper", "Gamma Trooper", attack_tie=variant)
        assert [e.id for e in state.field] == survivors
        assert powers(state) == (9000, 9000)


def test_gs_i_9_the_defending_player_loses_nothing_unless_the_table_chooses_otherwise() -> None:
    for variant, power in (("no", 9000), ("yes", 9000 - 600)):
        state, _, _ = battle("Ion Lancer", "Gamma Trooper", defender_loses=variant)
        assert powers(state) == (9000, power)


def test_gs_i_10_no_direct_attacks_by_default() -> None:
    state = started()
    state, lancer = put(state, "p1", "Ion Lancer")
    assert_illegal(state, f"attack #{lancer} direct", "GS-I.10", "no direct attacks")
    assert Attack(lancer, 0) not in RULES.legal_actions(state)


def test_gs_i_10_a_table_may_allow_direct_attacks_on_a_player_without_characters() -> None:
    state = started(direct_attack="yes")
    state, lancer = put(state, "p1", "Ion Lancer")
    state, wall = put(state, "p2", "Bastion Wall")
    assert Attack(lancer, 0) in RULES.legal_actions(state)
    state = play(state, f"attack #{lancer} direct")
    assert side(state, "p2").power == 9000 - 1800
    state, foe = put(state, "p2", "Rift Scout")
    state, other = put(state, "p1", "Gamma Trooper")
    assert_illegal(state, f"attack #{other} direct", "GS-I.10", f"#{foe} Rift Scout")
    assert wall == 2


def test_gs_i_31_by_default_the_first_player_may_attack_in_the_first_turn() -> None:
    """The page lets a player attack in the main phase of every turn, the first included."""
    state = started(direct_attack="yes")
    assert state.turn == 1
    state, lancer = put(state, "p1", "Ion Lancer")
    assert Attack(lancer, 0) in RULES.legal_actions(state)
    state = play(state, f"attack #{lancer} direct")
    assert side(state, "p2").power == 9000 - 1800


def test_gs_i_31_a_table_may_play_yu_gi_ohs_limit_of_no_attack_in_the_first_turn() -> None:
    state = started(direct_attack="yes", first_turn_attack="no")
    state, lancer = put(state, "p1", "Ion Lancer")
    state, foe = put(state, "p2", "Gamma Trooper")
    for text in (f"attack #{lancer} #{foe}", f"attack #{lancer} direct"):
        assert_illegal(
            state, text, "GS-I.31", "first_turn_attack=no", "nobody attacks in the game's first"
        )
    assert not any(isinstance(a, Attack) for a in RULES.legal_actions(state))
    state = play(state, f"switch #{lancer} defense", "end", "draw")  # only the first turn
    assert (state.turn, RULES.to_move(state)) == (2, "p2")
    assert Attack(foe, lancer) in RULES.legal_actions(state)
    state = play(state, f"attack #{foe} #{lancer}")
    assert entity(state, foe).tapped


def test_gs_i_7_attacking_taps_the_attacker_by_default() -> None:
    state = started()
    state, lancer = put(state, "p1", "Ion Lancer")
    state, first = put(state, "p2", "Rift Scout")
    state, second = put(state, "p2", "Rift Scout")
    state = play(state, f"attack #{lancer} #{first}")
    assert entity(state, lancer).tapped
    assert_illegal(state, f"attack #{lancer} #{second}", "GS-7.1", "tapped")


def test_gs_i_7_a_table_may_leave_the_attacker_untapped() -> None:
    state = started(attack_taps="no")
    state, lancer = put(state, "p1", "Ion Lancer")
    state, first = put(state, "p2", "Rift Scout")
    state, second = put(state, "p2", "Rift Scout")
    state = play(state, f"attack #{lancer} #{first}", f"attack #{lancer} #{second}")
    assert not entity(state, lancer).tapped
    assert len(state.field) == 1


def test_gs_i_12_weapons_go_to_the_discard_pile_with_their_carrier() -> None:
    state = started()
    state, trooper = put(state, "p2", "Gamma Trooper")
    state, blade = put(state, "p2", "Plasma Blade", carrier=trooper)
    state, golem = put(state, "p1", "Vesper the Undying")
    state = play(state, f"attack #{golem} #{trooper}")
    assert entity(state, blade) is None
    assert side(state, "p2").discard == ("Plasma Blade", "Gamma Trooper")


def test_gs_8_1_and_gs_i_15_a_power_level_falls_to_zero_not_below_and_that_player_loses() -> None:
    state = started()
    state = resources_of(state, "p1", power=400)
    state, trooper = put(state, "p1", "Gamma Trooper")
    state, golem = put(state, "p2", "Shale Golem", "defense")
    state = play(state, f"attack #{trooper} #{golem}")
    assert side(state, "p1").power == 0
    out = RULES.outcome(state)
    assert (out.status, out.winner, out.clause) == ("win", "p2", "GS-8.1")
    assert out.reason == "p1's power level reached 0"
    assert RULES.to_act(state) == frozenset()
    assert RULES.legal_actions(state) == []


def test_gs_i_13_a_tapped_character_can_still_be_attacked_and_defend() -> None:
    state = started()
    state, lancer = put(state, "p1", "Ion Lancer")
    state, medic = put(state, "p2", "Static Medic", "defense", tapped=True)
    state = play(state, f"attack #{lancer} #{medic}")
    assert entity(state, medic) is None

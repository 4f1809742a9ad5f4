"""The Main phase: summons, sacrifices, MP, spells and effects (CR-7, CR-11.1)."""

from __future__ import annotations

from tests.crystale.helpers import REEFLING_TURN, RULES, judge, main_phase, play, rejected, unit_at


def test_cr_7_1_main_phase_entries_in_any_order() -> None:
    state = play(
        main_phase(),
        "move u1 c2",
        "cast Kiln Surge",
        "summon Cinderpup @c3",
        "move u3 c4",
        "use u1 1 @u3",
    )
    assert state.phase == "main"
    assert unit_at(state, "c4").id == 3


def test_cr_7_2_summon_from_hand_next_to_the_summoner_at_rank_1() -> None:
    state = play(main_phase(), "summon Cinderpup @b1")
    unit = state.units[3]
    assert (unit.crystal, unit.rank, unit.hp, unit.seat) == ("Cinderpup", 1, 40, 0)
    assert state.sides[0].mp == 100
    assert state.sides[0].hand.count == 6
    assert state.next_id == 4


def test_cr_7_2_summon_not_adjacent_is_refused() -> None:
    reason = rejected(main_phase(), "summon Cinderpup @c3", "CR-7.2")
    assert reason == "c3 is not next to p1's Summoner on c1; free tiles next to it: b1, c2, d1"
    assert rejected(main_phase(), "summon Cinderpup @c1", "CR-7.2") == (
        "c1 is the tile of p1's Summoner itself; a Servant is summoned next to it; "
        "free tiles next to it: b1, c2, d1"
    )
    assert "Flame Lance is a spell" in rejected(main_phase(), "summon Flame Lance @c2", "CR-7.2")


def test_cr_4_4_summon_onto_an_occupied_tile_is_refused() -> None:
    state = play(main_phase(), "summon Cinderpup @c2", "move u3 b1")
    state = play(state, "move u1 c2")
    state = play(state, "end", "done", "pull", "end", "pull")
    assert rejected(state, "summon Cinderpup @b1", "CR-4.4") == "b1 holds u3 (Cinderpup)"


def test_cr_7_3_a_second_summon_or_a_sacrifice_after_a_summon_is_refused() -> None:
    state = play(main_phase(), "summon Cinderpup @c2")
    assert "already summoned or sacrificed" in rejected(state, "summon Cinderpup @d1", "CR-7.3")
    rejected(state, "sacrifice u3", "CR-7.3")


def test_cr_7_4_sacrifice_sends_a_servant_to_the_higher_plane() -> None:
    state = play(main_phase(), "summon Cinderpup @c2", "end", "done", "pull", "end", "pull")
    rejected(state, "sacrifice u1", "CR-7.4")
    rejected(state, "sacrifice u2", "CR-7.4")
    state = play(state, "sacrifice u3")
    assert 3 not in state.units
    assert state.sides[0].plane.as_dict() == {"Cinderpup": 1}
    rejected(state, "summon Cinderpup @c2", "CR-7.3")


def test_cr_7_5_short_of_mp_is_refused() -> None:
    state = play(
        main_phase(), "cast Flame Lance @u2", "cast Flame Lance @u2", "cast Molten Field @c3"
    )
    assert state.sides[0].mp == 35
    assert (
        rejected(state, "summon Magmaback Golem @c2", "CR-7.5")
        == "Magmaback Golem costs 50 MP; p1 has 35"
    )
    assert "costs 40 MP" in rejected(state, "use u1 2 @c4", "CR-7.5")
    assert judge(state, "summon Pyrelance Archer @c2").legal


def test_cr_7_6_spells_cast_in_printed_order_then_to_the_higher_plane() -> None:
    state = play(main_phase(), "summon Cinderpup @c2", "cast Heatwave Hymn @u3")
    assert state.units[3].atk_turn == 15
    assert state.sides[0].plane.as_dict() == {"Heatwave Hymn": 1}
    assert state.sides[0].mp == 80
    assert "it is summoned, not cast" in rejected(state, "cast Cinderpup", "CR-7.6")
    assert "placed at the start" in rejected(state, "cast Vulkara Emberqueen", "CR-7.6")


def test_cr_7_7_and_cr_i_12_a_trigger_spell_resolves_last_to_first() -> None:
    # Twisted Cinders prints: heal 20, then 20 damage. Reversed, a full-HP Reefling takes
    # 20 and is healed back to 40; in printed order the heal is wasted and it ends at 20.
    base = play(main_phase(), *REEFLING_TURN)
    reversed_state = play(base, "cast Twisted Cinders @u3 @u3")
    assert reversed_state.units[3].hp == 40
    printed = play(
        main_phase(variants={"trigger_order": "printed"}),
        *REEFLING_TURN,
        "cast Twisted Cinders @u3 @u3",
    )
    assert printed.units[3].hp == 20


def test_cr_7_8_summoner_effects_any_number_of_times() -> None:
    state = play(main_phase(), "summon Cinderpup @c2", "use u1 1 @u3", "use u1 1 @u3")
    assert state.units[3].atk_turn == 20
    assert state.sides[0].mp == 40
    assert "has 3 effect(s); there is no effect 4" in rejected(state, "use u1 4", "CR-7.8")
    # the opponent's Summoner: a Summoner's effects are its own player's (CR-7.8), not CR-7.9
    assert "belongs to p2" in rejected(state, "use u2 1", "CR-7.8")


def test_cr_7_9_one_effect_per_servant_per_turn() -> None:
    state = play(
        main_phase(),
        *REEFLING_TURN,
        "summon Cinderpup @c2",
        "use u4 1 @u3",
    )
    assert state.units[3].hp == 30
    assert state.sides[0].mp == 90
    assert "already used an effect" in rejected(state, "use u4 1 @u3", "CR-7.9")
    assert "belongs to p2" in rejected(state, "use u3 1 @u4", "CR-7.9")
    golem = play(main_phase(), "summon Magmaback Golem @c2")
    assert "acts by itself in the Recharge phase" in rejected(golem, "use u3 1", "CR-7.9")


def test_cr_7_10_targets_in_printed_order_of_the_right_kind() -> None:
    state = play(main_phase(), "summon Cinderpup @c2")
    assert "takes 1 target(s) (enemy); 0 given" in rejected(state, "cast Flame Lance", "CR-7.10")
    assert "is p1's own" in rejected(state, "cast Flame Lance @u3", "CR-7.10")
    assert "belongs to p2" in rejected(state, "cast Heatwave Hymn @u2", "CR-7.10")
    assert "works on Servants" in rejected(state, "cast Ember Mending @u1", "CR-7.10")
    assert "targets a tile; u3 is a unit" in rejected(state, "cast Molten Field @u3", "CR-7.10")
    assert "not on the board" in rejected(state, "cast Flame Lance @u9", "CR-7.10")


def test_cr_11_1_free_text_effects_are_legal_and_need_a_ruling() -> None:
    state = play(main_phase(), "summon Cinderpup @c2")
    verdict = judge(state, "use u1 3 @u3")
    assert verdict.legal
    assert verdict.status == "ruling"
    (ruling,) = verdict.rulings
    assert ruling.card == "Vulkara Emberqueen"
    assert ruling.clause == "CR-11.1"
    assert "first attack on a chosen allied Servant" in ruling.text
    assert "u3" in ruling.text
    after = play(state, "use u1 3 @u3")
    assert after.sides[0].mp == 80  # the price is still paid


def test_cr_i_13_and_cr_i_14_god_crystals_are_cast_and_go_to_the_higher_plane() -> None:
    state = main_phase()
    verdict = judge(state, "cast Ignarok the Unbound")
    assert verdict.legal
    assert verdict.rulings[0].card == "Ignarok the Unbound"
    after = play(state, "cast Ignarok the Unbound")
    assert after.sides[0].plane.as_dict() == {"Ignarok the Unbound": 1}
    assert after.sides[0].mp == 20


def test_cr_i_11_a_summon_by_an_effect_is_an_adjustment_and_keeps_the_turns_summon() -> None:
    state = main_phase()
    for change in (RULES.parse("summon Cinderpup @c2"),):
        assert RULES.notation(change) == "summon Cinderpup @c2"
    from referee.kit.adjustments import parse_change

    after = RULES.apply_change(state, parse_change("move p1 hand>c4 Sootwing Drake"))
    assert unit_at(after, "c4").crystal == "Sootwing Drake"
    assert after.sides[0].hand.count == 6
    assert judge(after, "summon Cinderpup @c2").legal


def test_cr_i_27_summon_and_sacrifice_each_variant() -> None:
    """CR-I.27: by default a turn has one summon or one sacrifice; a table ruling each allows
    one of both, each once; a fatigued Servant may still be sacrificed."""
    turn = ("summon Cinderpup @c2", "end", "done", "pull", "end", "pull")
    state = play(main_phase(), *turn, "summon Cinderpup @d1")
    assert "already summoned or sacrificed" in rejected(state, "sacrifice u3", "CR-7.3")
    state = play(main_phase(variants={"summon_sacrifice": "each"}), *turn)
    state = play(state, "summon Cinderpup @d1", "sacrifice u3")
    assert 3 not in state.units
    assert state.sides[0].summoned
    assert state.sides[0].sacrificed
    assert "already sacrificed" in rejected(state, "sacrifice u4", "CR-7.3")
    state = play(state, "move u1 c2")
    assert "already summoned a Servant" in rejected(state, "summon Cinderpup @c1", "CR-7.3")
    state = play(state, "end", "done", "pull", "end", "pull")
    assert not state.sides[0].summoned
    assert not state.sides[0].sacrificed
    assert judge(state, "sacrifice u4").legal


def test_cr_i_34_an_effect_reaches_a_target_out_of_attack_range() -> None:
    """CR-I.34: only attacks have a range; the Cinderpup's Blaze Nip (an enemy unit) reaches
    p2's Summoner six tiles off, which its attack (range 1) cannot."""
    state = play(main_phase(), "summon Cinderpup @c2")
    rejected(state, "attack u3 u2", "CR-8.3")
    state = play(state, "use u3 1 @u2")
    assert state.sides[1].hits == 2

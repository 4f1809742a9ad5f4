"""Promotion slots (CR-9), the End and Promotion phases (CR-10)."""

from __future__ import annotations

from referee.games.crystale import CrystaleState
from referee.kit.adjustments import parse_adjustment
from tests.crystale.helpers import RULES, judge, main_phase, play, rejected


def adjust(state: CrystaleState, text: str) -> CrystaleState:
    for change in parse_adjustment(text):
        verdict = RULES.check_change(state, change)
        assert verdict.legal, verdict.explain()
        state = RULES.apply_change(state, change)
    return state


def with_plane(servants: int) -> CrystaleState:
    """p1 in its Main phase with ``servants`` Servants moved from hand to the Higher Plane."""
    state = main_phase()
    names = [
        "Cinderpup",
        "Cinderpup",
        "Pyrelance Archer",
        "Cinderpup",
        "Cinderpup",
        "Magmaback Golem",
        "Magmaback Golem",
    ][:servants]
    return adjust(state, "; ".join(f"move p1 hand>plane {n}" for n in names)) if names else state


def test_cr_9_1_slots_at_two_four_and_seven_servants() -> None:
    assert [with_plane(n).sides[0].slots_earned for n in range(8)] == [0, 0, 1, 1, 2, 2, 2, 3]
    spells = adjust(main_phase(), "move p1 hand>plane Flame Lance; move p1 hand>plane Kiln Surge")
    assert spells.sides[0].slots_earned == 0  # only Servants count
    reason = rejected(with_plane(1), "slot mp", "CR-9.1")
    assert (
        reason == "p1 has no unused promotion slot: its Higher Plane holds 1 Servant(s); the "
        "next slot comes at 2"
    )


def test_cr_9_2_a_fourth_promotion_slot_is_refused() -> None:
    state = play(with_plane(7), "slot mp", "slot mp", "slot mp")
    side = state.sides[0]
    assert (side.slots_earned, side.slots_used) == (3, 3)
    assert (
        rejected(state, "slot mp", "CR-9.2") == "p1 already used all 3 promotion slots of the match"
    )
    assert not RULES.check_change(state, parse_adjustment("resource p1 slots +1")[0]).legal


def test_cr_9_3_a_slot_promotes_ignoring_requirements_the_same_turn() -> None:
    state = play(with_plane(2), "summon Cinderpup @c2", "slot promote u3")
    unit = state.units[3]
    assert (unit.rank, unit.hp) == (2, 60)
    assert RULES.observe(state)["units"][2]["atk"] == 30
    assert state.sides[0].slots_used == 1
    rejected(state, "slot promote u1", "CR-9.1")


def test_cr_9_4_and_cr_i_18_a_slot_takes_a_reported_servant_from_the_pool() -> None:
    state = with_plane(2)
    assert "the slot takes a Servant" in rejected(state, "slot servant Flame Lance", "CR-9.4")
    after = play(state, "slot servant Sootwing Drake")
    side = after.sides[0]
    assert side.hand.known.count("Sootwing Drake") == 1
    assert side.pool.count == state.sides[0].pool.count - 1
    assert side.knowledge is not None
    assert side.knowledge.seen.count("Sootwing Drake") == 1
    rejected(after, "slot servant Sootwing Drake", "CR-9.1")  # the one slot is spent


def test_cr_i_18_a_table_may_put_a_slots_servant_onto_the_board() -> None:
    """CR-I.18 (slot_servant=board): the slot's Servant is placed on a free tile next to the
    Summoner; the entry asks for that placement, carried out as an adjustment (CR-11.2),
    with no MP paid and the turn's own summon kept (CR-7.3)."""
    state = adjust(
        main_phase(variants={"slot_servant": "board"}),
        "move p1 hand>plane Cinderpup; move p1 hand>plane Cinderpup",
    )
    verdict = judge(state, "slot servant Sootwing Drake")
    assert verdict.legal
    assert [r.clause for r in verdict.rulings] == ["CR-I.18"]
    assert "next to p1's Summoner" in verdict.rulings[0].text
    mp = state.sides[0].mp
    after = adjust(play(state, "slot servant Sootwing Drake"), "move p1 hand>c2 Sootwing Drake")
    assert after.units[3].crystal == "Sootwing Drake"
    assert after.sides[0].mp == mp
    assert not after.sides[0].summoned
    by_default = judge(with_plane(2), "slot servant Sootwing Drake")  # into the hand
    assert by_default.legal
    assert by_default.rulings == ()


def test_cr_9_5_a_slot_regains_the_recharge_within_the_limit() -> None:
    state = play(with_plane(2), "cast Flame Lance @u2", "cast Flame Lance @u2", "slot mp")
    assert state.sides[0].mp == 60 + 40
    full = play(with_plane(2), "slot mp")
    assert full.sides[0].mp == 120


def test_cr_9_6_promotion_takes_the_next_ranks_stats_and_stops_at_the_top() -> None:
    state = play(with_plane(4), "summon Pyrelance Archer @c2", "slot promote u3")
    assert (state.units[3].rank, state.units[3].hp) == (2, 45)
    assert "top rank 2" in rejected(state, "slot promote u3", "CR-9.6")


def test_cr_i_10_promotion_and_damage_already_taken() -> None:
    for variant, hp in (("full", 60), ("keep_damage", 50)):
        state = main_phase(variants={"promotion_hp": variant})
        state = adjust(state, "move p1 hand>plane Cinderpup; move p1 hand>plane Cinderpup")
        state = play(state, "summon Pyrelance Archer @c2")
        state = adjust(state, "move p1 hand>c3 Cinderpup; stat u4 hp -10")
        state = play(state, "slot promote u4")
        assert state.units[4].hp == hp, variant


def test_cr_i_17_slots_are_kept_and_not_earned_twice() -> None:
    state = play(with_plane(2), "end")
    state = play(state, "pull", "end", "pull")
    assert state.sides[0].slots_earned - state.sides[0].slots_used == 1  # kept into a later turn
    state = adjust(state, "move p1 plane>pool Cinderpup; move p1 plane>pool Cinderpup")
    state = adjust(state, "move p1 hand>plane Pyrelance Archer; move p1 pool>plane Cinderpup")
    assert state.sides[0].slots_earned == 1  # reaching 2 again earns nothing new
    rejected(play(state, "end"), "slot mp", "CR-1.3")
    assert "slot" in RULES.rulebook().get("CR-I.17").text


def test_cr_10_1_end_of_turn_effects_stop() -> None:
    state = play(main_phase(), "summon Cinderpup @c2", "cast Heatwave Hymn @u3", "end")
    assert state.units[3].atk_turn == 0
    assert state.phase == "promotion"


def test_cr_10_2_hand_limit_of_nine() -> None:
    state = main_phase()
    state = adjust(state, "draw p1 3")  # 10 crystals in hand
    state = play(state, "end")
    assert state.phase == "discard"
    assert RULES.to_act(state) == frozenset({"p1"})
    assert "moves exactly 1" in rejected(state, "discard Flame Lance, Kiln Surge", "CR-10.2")
    rejected(state, "discard Tidal Lash", "CR-12.3")
    state = play(state, "discard Cinderpup")
    side = state.sides[0]
    assert side.hand.count == 9
    assert side.plane.as_dict() == {"Cinderpup": 1}
    assert state.active == 1
    assert state.phase == "pull"


def test_cr_10_3_and_cr_i_19_promotion_phase_asks_the_referee_to_confirm() -> None:
    state = play(main_phase(), "summon Cinderpup @c2", "end")
    verdict = judge(state, "promote u3")
    assert verdict.legal
    assert verdict.rulings[0].clause == "CR-10.3"
    assert "Defeat an enemy Servant" in verdict.rulings[0].text
    state = play(state, "promote u3")
    assert (state.units[3].rank, state.units[3].hp) == (2, 60)
    assert "already promoted" in rejected(state, "promote u3", "CR-I.19")
    rejected(state, "promote u1", "CR-10.3")
    state = play(state, "done")
    assert state.active == 1


def _slot_in_the_end_phase(**kwargs: object) -> CrystaleState:
    """p1's Promotion phase after a slot was earned in the End phase: one Servant already in
    the Higher Plane, a Cinderpup (rank 1 of 3) on the board and ten crystals in hand, so the
    hand limit sends a second Servant to the Higher Plane."""
    state = adjust(main_phase(**kwargs), "move p1 hand>plane Cinderpup")
    state = adjust(play(state, "summon Cinderpup @c2"), "draw p1 5")
    state = play(state, "end", "discard Pyrelance Archer")
    assert state.phase == "promotion"
    assert (state.sides[0].slots_earned, state.sides[0].slots_used) == (1, 0)
    return state


def test_cr_i_31_a_slot_earned_in_the_end_phase_waits_for_the_main_phase() -> None:
    """CR-I.31 (main, the default): slots are used in the Main phase, so one earned by the hand
    limit waits for the player's next Main phase."""
    state = _slot_in_the_end_phase()
    reason = rejected(state, "slot promote u3", "CR-I.31")
    assert "Main phase" in reason
    state = play(state, "done", "pull", "end", "pull")
    assert judge(state, "slot promote u3").legal


def test_cr_i_31_a_table_may_promote_with_it_in_the_same_turn() -> None:
    """CR-I.31 (promotion): the slot promotes in that turn's Promotion phase, counting as the
    Servant's one promotion there (CR-I.19); a slot's Servant or MP still waits for the Main
    phase."""
    state = _slot_in_the_end_phase(variants={"slot_phase": "promotion"})
    assert "Main phase" in rejected(state, "slot mp", "CR-I.31")
    assert "Main phase" in rejected(state, "slot servant Sootwing Drake", "CR-I.31")
    assert any(a == RULES.parse("slot promote u3") for a in RULES.legal_actions(state))
    state = play(state, "slot promote u3")
    assert (state.units[3].rank, state.units[3].hp) == (2, 60)
    assert state.sides[0].slots_used == 1
    assert state.phase == "promotion"
    assert "already promoted" in rejected(state, "promote u3", "CR-I.19")


def test_cr_i_32_a_table_may_earn_slots_again_after_a_reshuffle() -> None:
    """CR-I.32 (again): a Higher Plane emptied by a reshuffle earns a slot again when its
    Servants climb back to 2, 4 and 7, still no more than three slots a match (CR-9.2); by
    default (once) each count earns only the first time (CR-I.17)."""
    back = "move p1 plane>pool Cinderpup; move p1 plane>pool Cinderpup"
    again = "move p1 hand>plane Pyrelance Archer; move p1 pool>plane Cinderpup"
    for variant, earned in (("once", 1), ("again", 2)):
        state = (
            with_plane(2) if variant == "once" else main_phase(variants={"slot_earning": variant})
        )
        if variant == "again":
            state = adjust(state, "move p1 hand>plane Cinderpup; move p1 hand>plane Cinderpup")
        assert state.sides[0].slots_earned == 1
        state = adjust(adjust(state, back), again)
        assert state.sides[0].slots_earned == earned, variant
    # three a match: a fourth climb past a count earns nothing
    state = main_phase(variants={"slot_earning": "again"})
    for _ in range(2):
        state = adjust(state, "move p1 hand>plane Cinderpup; move p1 hand>plane Cinderpup")
        state = adjust(state, back)
    state = adjust(state, "draw p1 2; move p1 hand>plane Cinderpup; move p1 hand>plane Cinderpup")
    assert state.sides[0].slots_earned == 3
    state = adjust(
        state, back + "; move p1 hand>plane Magmaback Golem; move p1 pool>plane Cinderpup"
    )
    assert state.sides[0].slots_earned == 3


def test_cr_i_33_the_hand_limit_is_the_turn_players() -> None:
    """CR-I.33: p2 holding ten crystals when p1's turn ends keeps them until its own End
    phase, where it moves the two over nine (after its pull) to the Higher Plane (CR-10.2)."""
    state = adjust(main_phase(), "draw p2 4")
    assert state.sides[1].hand.count == 10
    state = play(state, "end")
    assert (state.active, state.phase) == (1, "pull")
    state = play(state, "pull", "end")
    assert state.phase == "discard"
    assert RULES.to_act(state) == frozenset({"p2"})
    assert "moves exactly 2" in rejected(state, "discard Reefling", "CR-10.2")

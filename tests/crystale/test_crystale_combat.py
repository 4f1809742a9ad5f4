"""Movement and attacks (CR-8), hits and the end by hits (CR-13.1)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from referee.games.crystale import CrystaleState
from tests.crystale.helpers import (
    REEFLING_REPLY,
    REEFLING_TURN,
    RULES,
    judge,
    main_phase,
    play,
    rejected,
    tiles_with,
    unit_at,
)

# p1 summons an Archer (range 2) and p2 a Reefling; after two turns they face each other.
FACE_OFF = (
    "summon Pyrelance Archer @c2",
    "move u3 c3",
    "end",
    "done",
    "pull",
    "summon Reefling @c6",
    "move u4 c5",
    "end",
    "done",
    "pull",
)


ARCHER_MARCH = (
    "summon Pyrelance Archer @c2",
    "move u3 c3",
    "end",
    "done",
    "pull",
    "end",
    "pull",
    "move u3 c4",
    "end",
    "done",
    "pull",
)
"""p1's Archer summoned and marched to c4 over two turns; p1 to act again."""


def face_off(**kwargs: Any) -> CrystaleState:
    return play(main_phase(**kwargs), *FACE_OFF)


def test_cr_8_1_one_adjacent_tile_once_a_turn() -> None:
    state = play(main_phase(), "summon Cinderpup @c2")
    assert "2 tiles from u3" in rejected(state, "move u3 c4", "CR-8.1")
    rejected(state, "move u3 c2", "CR-8.1")
    state = play(state, "move u3 c3")
    assert "already moved" in rejected(state, "move u3 c4", "CR-8.1")
    assert "belongs to p2" in rejected(state, "move u2 c6", "CR-8.1")


def test_cr_8_2_a_move_into_or_through_a_unit_is_refused() -> None:
    state = play(main_phase(), "summon Cinderpup @c2")
    reason = rejected(state, "move u1 c2", "CR-8.2")
    assert (
        reason == "c2 holds u3 (Cinderpup); u1 (Vulkara Emberqueen) cannot move onto or through it"
    )


def test_cr_i_15_summoners_move_and_summon_from_their_new_tile() -> None:
    state = play(main_phase(), "move u1 c2")
    assert state.units[1].tile == 12
    assert judge(state, "summon Cinderpup @b2").legal
    assert unit_at(state, "c1") is None
    assert judge(state, "summon Cinderpup @c1").legal


def test_cr_i_16_a_new_servant_moves_and_attacks_at_once() -> None:
    state = play(
        main_phase(),
        *REEFLING_TURN,
        "move u1 c2",
        "end",
        "pull",
        "move u3 c5",
        "end",
        "done",
        "pull",
        "move u1 c3",
        "end",
        "pull",
        "move u3 c4",
        "end",
        "done",
        "pull",
    )
    state = play(state, "summon Cinderpup @d3", "attack u4 u3", ("p2", "hold"))
    assert state.units[3].hp == 20


def test_cr_8_3_attack_in_range_only() -> None:
    state = play(
        main_phase(),
        "summon Cinderpup @c2",
        *REEFLING_REPLY,
        "pull",
    )
    reason = rejected(state, "attack u3 u4", "CR-8.3")
    assert reason == "u4 (Reefling) on c6 is 4 tiles from u3 (Cinderpup) on c2; its range is 1"
    assert "own unit" in rejected(state, "attack u3 u1", "CR-8.3")
    rejected(state, "attack u3 u9", "CR-8.3")


def test_cr_i_3_printed_range_and_default_range_1_not_blocked() -> None:
    state = face_off()  # p1's turn 3: Archer on c3, Reefling on c5, distance 2
    assert judge(state, "attack u3 u4").legal  # range 2, nothing between blocks it
    assert RULES.observe(state)["units"][2]["crystal"] == "Pyrelance Archer"


def test_cr_8_4_attacker_strikes_first() -> None:
    state = play(face_off(), "attack u3 u4")
    assert state.units[4].hp == 15  # 40 - 25
    assert state.units[3].hp == 30  # the Reefling has not struck back yet


def test_cr_8_5_zero_hp_goes_to_the_higher_plane() -> None:
    state = play(face_off(), "attack u3 u4", ("p2", "hold"), "cast Flame Lance @u4")
    assert 4 not in state.units
    assert state.sides[1].plane.as_dict() == {"Reefling": 1}


def test_cr_8_7_and_cr_i_9_the_defender_chooses_a_counterattack() -> None:
    state = play(face_off(), "move u3 c4", "attack u3 u4")
    assert state.phase == "counter"
    assert RULES.to_act(state) == frozenset({"p2"})
    assert "first decides whether to counterattack" in rejected(state, "end", "CR-8.7", "p2")
    countered = play(state, ("p2", "counter"))
    assert countered.units[3].hp == 10
    assert countered.phase == "main"
    held = play(state, ("p2", "hold"))
    assert held.units[3].hp == 30
    rejected(held, "counter", "CR-8.7")


def test_cr_i_9_always_counterattack_variant() -> None:
    state = play(face_off(variants={"counterattack": "always"}), "move u3 c4", "attack u3 u4")
    assert state.phase == "main"
    assert state.units[3].hp == 10


def _archer_beside_summoner(*first: str, variants: dict[str, str] | None = None) -> CrystaleState:
    """The Archer marched next to p2's Summoner (``first``: the entries made before the turn
    that brings it there)."""
    return play(main_phase(variants=variants), *ARCHER_MARCH, *first, "end", "pull", "move u3 c5")


def test_cr_8_6_and_cr_i_4_a_hit_takes_one_from_the_hit_box() -> None:
    state = play(_archer_beside_summoner(), "attack u3 u2")
    assert state.sides[1].hits == 2  # one hit, whatever the ATK
    assert state.phase == "main"  # a Summoner never counterattacks


def _archer_at_zero_atk(variants: dict[str, str] | None = None) -> CrystaleState:
    """The Archer marched next to p2's Summoner, its ATK brought to 0 by an adjustment."""
    from referee.kit.adjustments import parse_change

    state = _archer_beside_summoner("use u2 1 @u3", variants=variants)
    state = RULES.apply_change(state, parse_change("stat u3 atk -30"))
    assert RULES.observe(state)["units"][2]["atk"] == 0
    return state


def test_cr_i_4_a_strike_with_zero_atk_is_no_hit() -> None:
    state = play(_archer_at_zero_atk(), "attack u3 u2")
    assert state.sides[1].hits == 3


def test_cr_i_35_a_table_may_count_a_zero_atk_strike_as_a_hit() -> None:
    """CR-I.35 (zero_strike=hit): an attack that reaches a Summoner is one hit even with
    0 ATK; the default (no_hit, CR-I.4) leaves the hit box full."""
    for variant, hits in (("no_hit", 3), ("hit", 2)):
        state = _archer_at_zero_atk({"zero_strike": variant})
        assert RULES.observe(state)["variants"]["zero_strike"] == variant
        state = play(state, "attack u3 u2")
        assert state.sides[1].hits == hits, variant
        assert state.phase == "main"  # a Summoner never strikes back


def test_cr_8_8_summoners_do_not_attack() -> None:
    assert "has no ATK" in rejected(main_phase(), "attack u1 u2", "CR-8.8")


def test_cr_8_9_fatigue_after_attacking() -> None:
    state = play(face_off(), "attack u3 u4", ("p2", "hold"))
    assert "fatigued" in rejected(state, "attack u3 u4", "CR-8.9")
    assert "cannot move" in rejected(state, "move u3 c4", "CR-8.9")
    assert "fatigued" in rejected(state, "use u3 1", "CR-8.9")
    state = play(state, "end", "done", "pull", "end", "done", "pull")
    assert judge(state, "move u3 c4").legal


def test_cr_i_8_attack_after_move_variant() -> None:
    assert judge(play(face_off(), "move u3 c4"), "attack u3 u4").legal
    state = play(face_off(variants={"attack_after_move": "no"}), "move u3 c4")
    rejected(state, "attack u3 u4", "CR-I.8")


def test_cr_8_10_atk_as_it_stands_on_its_tile() -> None:
    # Archer (Fire, 25) on a Fire tile strikes for 35; Reefling (Water) on Water counters for 30.
    state = play(face_off(tiles=tiles_with(c4="F", c5="W")), "move u3 c4", "attack u3 u4")
    assert state.units[4].hp == 5
    state = play(state, ("p2", "counter"))
    assert 3 not in state.units  # 30 - 30
    assert state.sides[0].plane.as_dict() == {"Pyrelance Archer": 1}


def test_cr_i_20_heal_never_above_the_rank_hp_and_atk_changes_end_with_the_turn() -> None:
    state = play(face_off(), "attack u3 u4", ("p2", "hold"), "end", "done", "pull", "use u2 2 @u4")
    assert state.units[4].hp == 35  # 15 + 20
    state = play(state, "end", "done", "pull", "end", "done", "pull", "use u2 2 @u4")
    assert state.units[4].hp == 40  # capped at rank 1's 40
    state = play(state, "use u2 1 @u3")
    assert state.units[3].atk_turn == -10
    state = play(state, "end")
    assert state.units[3].atk_turn == 0


def test_cr_13_1_the_third_hit_ends_the_battle() -> None:
    state = play(main_phase(), "cast Flame Lance @u2", "cast Flame Lance @u2")
    assert state.sides[1].hits == 1
    assert not RULES.outcome(state).over
    state = play(state, "cast Flame Lance @u2")
    out = RULES.outcome(state)
    assert (out.status, out.winner, out.clause) == ("win", "p1", "CR-13.1")
    assert RULES.to_act(state) == frozenset()
    assert RULES.legal_actions(state) == []


def _two_attackers(**kwargs: Any) -> tuple[CrystaleState, int]:
    """The face-off with a second p1 Servant beside the Reefling, after the Archer's attack
    (not struck back): the position and the second Servant's number."""
    from referee.games.crystale.board import TILE_INDEX
    from referee.games.crystale.model import Unit
    from referee.games.crystale.position import with_unit

    state = face_off(**kwargs)
    pup = Unit(state.next_id, 0, "Cinderpup", TILE_INDEX["c4"], hp=40)
    state = with_unit(state, pup)
    state = play(state, "attack u3 u4", ("p2", "hold"))  # the Reefling does not strike back
    assert state.phase == "main"
    return state, pup.id


def test_cr_i_26_every_servant_attacks_once_a_turn() -> None:
    """CR-I.26: fatigue stops the Servant that attacked, not the player's other Servants."""
    state, pup = _two_attackers()
    assert judge(state, f"attack u{pup} u4").legal
    assert "fatigued" in rejected(state, "attack u3 u4", "CR-8.9")
    assert judge(state, "sacrifice u3").legal  # CR-I.27: fatigue does not stop a sacrifice


def test_cr_i_26_a_table_may_allow_one_attack_a_turn() -> None:
    """CR-I.26 one: the player's one attack is made; another Servant makes none this turn,
    and the next turn the player attacks again."""
    state, pup = _two_attackers(variants={"attacks": "one"})
    assert "one attack a turn" in rejected(state, f"attack u{pup} u4", "CR-I.26")
    assert RULES.observe(state)["seats"]["p1"]["attacked_this_turn"] is True
    state = play(state, "end", "done", "pull", "end", "done", "pull")
    assert judge(state, f"attack u{pup} u4").legal


def test_cr_i_28_a_defender_strikes_back_whatever_the_distance() -> None:
    """CR-I.28 (any, the default): the battle chapter names only two conditions for a
    counterattack, a Servant defender and HP left, so the Reefling (range 1) struck by the
    Archer from two tiles away may still strike back; its player is asked (CR-I.9)."""
    state = play(face_off(), "attack u3 u4")
    assert state.units[4].hp == 15  # it survived the Archer's 25
    assert state.phase == "counter"
    assert state.counter == (3, 4)
    assert RULES.to_act(state) == frozenset({"p2"})
    assert play(state, ("p2", "counter")).units[3].hp == 10  # 30 - the Reefling's 20
    state = play(face_off(variants={"counterattack": "always"}), "attack u3 u4")
    assert state.phase == "main"
    assert state.units[3].hp == 10


def test_cr_i_28_in_range_variant_keeps_a_far_defender_silent() -> None:
    """CR-I.28 (in_range): the table may require the attacker within the defender's own
    range; the Reefling two tiles off then neither strikes back nor is asked."""
    state = play(face_off(variants={"counter_range": "in_range"}), "attack u3 u4")
    assert state.phase == "main"
    assert state.counter is None
    assert state.units[3].hp == 30
    state = play(face_off(variants={"counter_range": "in_range"}), "move u3 c4", "attack u3 u4")
    assert state.phase == "counter"  # next to it, the Reefling is in its own range


def _two_strikes(**kwargs: Any) -> CrystaleState:
    """The Archer attacks the Reefling from c4 and the Reefling strikes back (counter);
    then a second p1 Servant next to it attacks it."""
    from referee.games.crystale.board import TILE_INDEX
    from referee.games.crystale.model import Unit
    from referee.games.crystale.position import with_unit

    state = play(face_off(**kwargs), "move u3 c4", "attack u3 u4")
    if state.phase == "counter":
        state = play(state, ("p2", "counter"))
    pup = Unit(state.next_id, 0, "Cinderpup", TILE_INDEX["b5"], hp=40)
    state = replace(with_unit(state, pup), next_id=state.next_id + 1)
    state = with_unit(state, replace(state.units[4], hp=40))  # whole again: it survives
    return play(state, f"attack u{pup.id} u4")


def test_cr_i_29_a_defender_strikes_back_at_every_attack_it_survives() -> None:
    """CR-I.29 (again, the default): striking back leaves the Reefling unfatigued, so the
    second attack of the turn asks again; under once it was fatigued and does not."""
    state = _two_strikes(variants={"counterattack": "always"})
    assert state.phase == "main"
    assert not state.units[4].attacked
    assert state.units[5].hp == 40 - 20  # struck back twice: the Archer and the Cinderpup
    assert _two_strikes().phase == "counter"
    once = _two_strikes(variants={"counter_fatigue": "once"})
    assert once.units[4].attacked  # fatigued by its first counterattack
    assert once.phase == "main"
    assert once.units[5].hp == 40
    once = _two_strikes(variants={"counter_fatigue": "once", "counterattack": "always"})
    assert once.units[5].hp == 40
    # its own turn refreshes it (CR-8.9)
    assert not play(once, "end", "done", "pull").units[4].attacked


def test_cr_13_1_the_battle_ends_at_the_step_that_empties_a_hit_box() -> None:
    """CR-13.1: a spell whose first step takes p2's last hit wins for p1 there; its later step
    on p1's own Summoner (one hit left too) no longer happens."""
    from referee.games.crystale.catalog import example_book
    from referee.games.crystale.position import with_side

    catalog = example_book().builtins()
    lance = next(s for s in catalog["spells"] if s["name"] == "Flame Lance")
    lance["effects"].append(
        {
            "text": "Deal 10 damage to your Summoner.",
            "target": "self",
            "ops": [{"op": "damage", "amount": 10}],
        }
    )
    state = main_phase(options={"catalog": catalog})
    for seat in (0, 1):
        state = with_side(state, seat, replace(state.sides[seat], hits=1))
    state = play(state, "cast Flame Lance @u2")
    assert (state.sides[0].hits, state.sides[1].hits) == (1, 0)
    assert RULES.outcome(state).winner == "p1"
    assert RULES.outcome(state).clause == "CR-13.1"


def test_cr_i_4_one_damage_effect_takes_one_hit_however_many_steps() -> None:
    """CR-I.4: a structured damage effect on a Summoner is one hit; an effect printing two
    damage steps against the Summoner still takes one, not two."""
    from referee.games.crystale.catalog import example_book

    catalog = example_book().builtins()
    lance = next(s for s in catalog["spells"] if s["name"] == "Flame Lance")
    lance["effects"][0]["ops"].append({"op": "damage", "amount": 10})
    state = play(main_phase(options={"catalog": catalog}), "cast Flame Lance @u2")
    assert state.sides[1].hits == 2
    # two damage effects are two hits (one each)
    lance["effects"].append(dict(lance["effects"][0]))
    state = play(main_phase(options={"catalog": catalog}), "cast Flame Lance @u2 @u2")
    assert state.sides[1].hits == 1


def test_cr_8_9_and_cr_10_1_fatigue_ends_in_the_end_phase() -> None:
    """CR-8.9: fatigue lasts to the end of the turn, and CR-10.1 ends such effects in the End
    phase, so in the Promotion phase that follows the Archer no longer shows as fatigued."""
    state = play(face_off(), "attack u3 u4", ("p2", "hold"))
    assert state.units[3].attacked
    state = play(state, "end")
    assert state.phase == "promotion"
    assert not state.units[3].attacked
    archer = next(u for u in RULES.observe(state, "public")["units"] if u["id"] == "u3")
    assert archer["fatigued"] is False

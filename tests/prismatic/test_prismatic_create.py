"""Step 3 creations: play cards, the colour pool, the board and rewards (PX-5 to PX-8)."""

from __future__ import annotations

import msgspec

from referee.games.prismatic.model import Pass
from tests.prismatic.helpers import (
    RULES,
    act,
    assert_illegal,
    edit,
    ms,
    play,
    player,
    resolving,
    started,
    table,
)


def test_px_5_1_resolve_from_the_starter_clockwise_each_ending_with_pass() -> None:
    state = started(3, starter="p2")
    state = play(state, [f"{s}: draw R R G G B" for s in ("p1", "p2", "p3")])
    state = play(state, [f"{s}: pass" for s in ("p3", "p1", "p2")])
    assert state.order == ("p2", "p3", "p1")
    assert RULES.to_act(state) == {"p2"}
    assert_illegal(state, "p1: pass", "REF-1.2")
    state = act(state, "p2: pass")
    assert RULES.to_act(state) == {"p3"}
    state = play(state, ["p3: pass", "p1: pass"])
    assert (state.round, state.starter) == (2, "p3")


def test_px_5_2_own_progress_cards_and_common_cards_only() -> None:
    state = table(palette="R R", progress=[("Noon Blaze", "R Y", 0)])
    act(state, "p1: create Noon Blaze")
    act(state, "p1: create Ember Spark")
    assert_illegal(state, "p1: create Glass Kiln", "PX-5.2", "in p2's progress area")
    assert_illegal(state, "p1: create Eclipse", "PX-5.2", "discard pile")
    assert_illegal(state, "p1: create Comet Trail", "PX-5.2", "not yet drawn")
    state = act(state, "p1: create Noon Blaze")
    state = act(state, "p1: decline")
    assert_illegal(state, "p1: create Noon Blaze", "PX-5.2", "already created")


def test_px_5_3_progress_cards_pay_from_the_card_commons_from_the_palette() -> None:
    state = table(palette="R Y", progress=[("Noon Blaze", "R", 0)])
    assert_illegal(
        state, "p1: create Noon Blaze", "PX-5.4", "has 1 red on Noon Blaze", "short 1 yellow"
    )
    state = table(palette="G", progress=[("Noon Blaze", "R Y", 0)])
    assert_illegal(state, "p1: create Verdant Drop", "PX-5.4", "on p1's palette", "short 1 green")


def test_px_5_4_a_creation_short_of_its_requirement_names_what_is_missing() -> None:
    state = table(palette="R R M Y", palette_prisms=0)
    state = msgspec.structs.replace(state, commons=(*state.commons[:2], "Scarlet Bloom"))
    reason = assert_illegal(
        state, "p1: create Scarlet Bloom", "PX-5.4", "needs R R M Y 1 prism", "short 1 prism"
    )
    assert "2 red, 1 magenta, 1 yellow" in reason
    state = edit(state, "p1", palette_prisms=1)
    state = act(state, "p1: create Scarlet Bloom")
    p1 = player(state, "p1")
    assert not p1.palette
    assert p1.palette_prisms == 0
    assert [h.name for h in p1.creation] == ["Scarlet Bloom"]


def test_px_5_5_px_9_6_nothing_forces_a_creation_or_an_ability() -> None:
    state = table(palette="R R", creation=["Ember Spark"])
    assert Pass() in RULES.legal_actions(state, "p1")
    state = act(state, "p1: pass")
    assert player(state, "p1").palette == ms("R R")


def test_px_5_6_px_i_1_a_created_card_moves_and_its_payment_goes_to_the_supply() -> None:
    state = table(palette="R R G")
    supply_before = state.supply
    state = act(state, "p1: create Ember Spark")
    assert "Ember Spark" not in state.commons
    assert [h.name for h in player(state, "p1").creation] == ["Ember Spark"]
    assert player(state, "p1").palette == ms("G")
    assert state.supply == supply_before.plus(ms("R R"))


def test_px_i_1_variant_spent_motes_bag_returns_the_payment_to_the_bag() -> None:
    state = table(variants={"spent_motes": "bag"}, palette="R R", bag="")
    supply_before = state.supply
    state = act(state, "p1: create Ember Spark")
    assert player(state, "p1").bag == ms("R R")
    assert state.supply == supply_before


def test_px_i_2_surplus_on_a_created_progress_card_returns_to_its_owner() -> None:
    state = table(bag="", prisms=0, progress=[("Noon Blaze", "R R Y C", 2)])
    state = act(state, "p1: create Noon Blaze")
    p1 = player(state, "p1")
    assert p1.bag == ms("R C")
    assert p1.prisms == 2
    assert p1.creation[0].motes == ms()
    assert p1.creation[0].prisms == 0


def test_px_6_1_px_6_2_pool_colours_pay_once_for_a_creation() -> None:
    state = table(palette="R", pool="R Y")
    assert_illegal(state, "p1: create Ember Spark, pool Y", "PX-6.2", "are not part of it")
    assert_illegal(state, "p1: create Ember Spark, pool R R", "PX-6.2", "1 red is not in it")
    state = act(state, "p1: create Ember Spark, pool R")
    assert player(state, "p1").pool == ms("Y")
    assert not player(state, "p1").palette


def test_px_6_3_pool_colours_need_no_commitment() -> None:
    state = table(palette="", pool="R R")
    state = act(state, "p1: create Ember Spark, pool R R")
    assert player(state, "p1").creation[0].name == "Ember Spark"


def test_px_6_4_the_pool_is_lost_when_the_turn_ends() -> None:
    state = table(pool="C M")
    state = act(state, "p1: pass")
    assert not player(state, "p1").pool


def test_px_i_13_the_same_colour_added_twice_pays_twice() -> None:
    state = table(palette="R M Y", creation=[("Scarlet Bloom", "", 1)])
    state = play(
        state, ["p1: create Sunset Sky", "p1: take pool R", "p1: decline", "p1: use Scarlet Bloom"]
    )
    assert player(state, "p1").pool == ms("R R")
    assert not player(state, "p1").palette
    state = act(state, "p1: create Ember Spark, pool R R")
    assert not player(state, "p1").pool


def test_px_i_14_a_prismatic_mote_pays_only_for_a_prismatic_requirement() -> None:
    state = table(palette="P R")
    assert_illegal(state, "p1: create Ember Spark", "PX-5.4", "short 1 red")
    state = msgspec.structs.replace(state, commons=("Prism Heart", *state.commons[1:]))
    state = edit(state, "p1", palette="R G B P")
    act(state, "p1: create Prism Heart")
    assert_illegal(
        edit(state, "p1", palette="R G B R"),
        "p1: create Prism Heart",
        "PX-5.4",
        "short 1 prismatic",
    )


def test_px_i_4_the_first_in_resolve_order_takes_a_contested_common_card() -> None:
    state = edit(edit(started(2), "p1", palette="R R"), "p2", palette="R R")
    state = resolving(state, "p1")
    state = play(state, ["p1: create Ember Spark", "p1: decline", "p1: pass"])
    assert_illegal(state, "p2: create Ember Spark", "PX-5.2", "in p1's creation area")
    assert player(state, "p2").palette == ms("R R")


def test_px_7_1_board_methods_are_paid_from_the_palette() -> None:
    state = table(palette="W K Y")
    assert_illegal(state, "p1: create board red-mote.3", "PX-7.1", "no method red-mote.3")
    assert_illegal(
        state,
        "p1: create board red-mote.1",
        "PX-5.4",
        "Add Red Color Mote (red-mote.1)",
        "short 1 magenta",
    )
    reds = player(state, "p1").bag.count("R")
    state = act(state, "p1: create board red-mote.2")
    assert player(state, "p1").palette == ms("Y")
    assert player(state, "p1").bag.count("R") == reds + 1  # into the bag at once (PX-I.3)


def test_px_7_2_each_method_once_a_round_but_both_methods_of_a_creation() -> None:
    state = table(palette="W K W K Y M", bag="")
    state = act(state, "p1: create board red-mote.2")
    assert_illegal(
        state, "p1: create board red-mote.2", "PX-7.2", "already created Add Red Color Mote"
    )
    state = act(state, "p1: create board red-mote.1")
    assert player(state, "p1").bag == ms("R R")
    state = play(state, ["p1: pass", "p2: pass", "p3: pass"])
    assert not player(state, "p1").board_used


def test_px_7_3_board_effects() -> None:
    state = table(palette="R G C W K K K R B", prisms=0)
    state = act(state, "p1: create board yellow-pool.1")
    assert player(state, "p1").pool == ms("Y")
    state = act(state, "p1: create board one-prism.1")
    assert player(state, "p1").prisms == 1
    assert_illegal(state, "p1: create board draw-cards.1", "PX-7.3", "keep CARD, discard CARD")
    assert_illegal(
        state, "p1: create board draw-cards.1: keep Comet Trail", "PX-7.3", "so 2 are drawn"
    )
    assert_illegal(
        state,
        "p1: create board draw-cards.1: keep Comet Trail, discard Eclipse",
        "PX-1.9",
        "discard pile",
    )
    state = act(state, "p1: create board draw-cards.1: keep Comet Trail, discard Chroma Lab")
    p1 = player(state, "p1")
    assert [h.name for h in p1.progress] == ["Noon Blaze", "Comet Trail"]
    assert state.discard[-1] == "Chroma Lab"
    assert "Comet Trail" not in state.deck
    assert "Chroma Lab" not in state.deck
    assert player(state, "p1").palette == ms("R B K")
    assert_illegal(
        state, "p1: create board discard-card.1: discard Glass Kiln", "PX-7.3", "p2's progress"
    )
    state = edit(state, "p1", progress=[("Noon Blaze", "R Y", 1), "Comet Trail"])
    state = act(state, "p1: create board discard-card.1: discard Noon Blaze")
    assert [h.name for h in player(state, "p1").progress] == ["Comet Trail"]
    assert player(state, "p1").bag.count("Y") == 1
    assert state.discard[-1] == "Noon Blaze"


def test_px_7_3_px_1_5_a_board_gain_from_an_empty_supply_is_rejected() -> None:
    state = table(palette="R G B W K")
    state = msgspec.structs.replace(state, supply_prisms=2)
    assert_illegal(state, "p1: create board three-prisms.1", "PX-1.5", "holds 2 prisms")
    state = msgspec.structs.replace(state, supply_prisms=3)
    state = act(state, "p1: create board three-prisms.1")
    assert player(state, "p1").prisms == 4
    assert state.supply_prisms == 0


def test_px_i_29_a_table_may_proxy_motes_and_prisms_the_supply_lacks() -> None:
    """PX-I.29 (components=proxy): a gain the supply cannot cover is paid with proxies, the
    supply staying at zero; the five prismatic motes still run out (PX-1.5)."""
    proxy = {"components": "proxy"}
    state = table(palette="R G B W K Y M", variants=proxy)
    reds = ms("R" * state.supply.count("R"))
    state = msgspec.structs.replace(state, supply_prisms=2, supply=state.supply.minus(reds))
    state = act(state, "p1: create board three-prisms.1")
    assert player(state, "p1").prisms == 4
    assert state.supply_prisms == 0
    bag_reds = player(state, "p1").bag.count("R")
    state = act(state, "p1: create board red-mote.1")
    assert player(state, "p1").bag.count("R") == bag_reds + 1
    assert state.supply.count("R") == 0
    # the prismatic motes are not proxied
    state = table(palette="R G B C M Y", variants=proxy)
    state = msgspec.structs.replace(state, supply=state.supply.minus(ms("P" * 5)))
    assert_illegal(state, "p1: create board prismatic-mote.1", "PX-1.5", "no prismatic mote")


def test_px_7_4_board_creations_do_not_count_towards_the_goal() -> None:
    state = resolving(edit(started(3, goal=3), "p1", palette="W K C W"), "p1")
    state = play(state, ["p1: create board red-mote.2", "p1: create board one-prism.1"])
    assert not player(state, "p1").creation
    assert not player(state, "p1").reached


def test_px_8_3_rewards_in_any_order_each_once_any_declined() -> None:
    state = table(palette="R M Y")
    state = act(state, "p1: create Sunset Sky")
    assert [e.kind for e in state.pending] == [
        "pool",
        "prisms",
    ]
    assert state.pending_card == "Sunset Sky"
    assert_illegal(state, "p1: take mote R", "PX-8.3", "pool R, prism")
    state = act(state, "p1: take prism")
    assert_illegal(state, "p1: take prism", "PX-8.3", "pool R")
    state = act(state, "p1: decline")
    assert not state.pending
    assert player(state, "p1").prisms == 2
    assert not player(state, "p1").pool
    assert_illegal(state, "p1: decline", "PX-8.3", "no one-time reward")
    assert_illegal(state, "p1: take prism", "PX-8.3", "no one-time reward")


def test_px_8_4_px_i_3_rewarded_motes_wait_until_the_round_ends() -> None:
    state = table(palette="R R", bag="")
    state = act(state, "p1: create Ember Spark")
    state = act(state, "p1: take mote R")
    p1 = player(state, "p1")
    assert p1.incoming == ms("R")
    assert not p1.bag
    state = play(state, ["p1: pass", "p2: pass", "p3: pass"])
    assert state.step == "refill"
    assert player(state, "p1").incoming == ms("R")
    state = act(state, "p1: reveal Comet Trail")
    assert player(state, "p1").bag == ms("R")
    assert not player(state, "p1").incoming


def test_px_i_3_variant_at_once_puts_gained_motes_straight_in_the_bag() -> None:
    state = table(variants={"gained_motes": "at_once"}, palette="R R", bag="")
    state = play(state, ["p1: create Ember Spark", "p1: take mote R"])
    assert player(state, "p1").bag == ms("R")


def test_px_8_5_px_i_18_rewards_are_settled_before_any_other_entry() -> None:
    state = table(palette="R M Y R R")
    state = act(state, "p1: create Sunset Sky")
    assert_illegal(state, "p1: pass", "PX-8.5", "Sunset Sky", "take them or decline")
    assert_illegal(state, "p1: create Ember Spark", "PX-8.5")
    assert_illegal(state, "p1: create board red-mote.2", "PX-8.5")
    state = play(state, ["p1: take pool R", "p1: take prism"])
    assert not state.pending
    assert player(state, "p1").pool == ms("R")
    state = act(state, "p1: create Ember Spark, pool R")
    assert state.pending_card == "Ember Spark"


def test_px_8_6_created_cards_cannot_be_discarded_or_stolen() -> None:
    state = edit(table(palette="K"), "p2", creation=["Glass Kiln"], progress=[])
    state = edit(state, "p1", creation=["Indigo Pulse"])
    assert_illegal(state, "p1: create board discard-card.1: discard Indigo Pulse", "PX-8.6")


def test_px_8_7_progress_cards_cost_a_star_each_at_the_end() -> None:
    from referee.games.prismatic.scoring import chart

    state = edit(started(2), "p1", progress=["Noon Blaze", "Comet Trail"])
    line = next(line for line in chart(state) if line.seat == "p1")
    assert line.progress == -2


def test_px_i_17_the_goal_is_reached_at_the_creation_that_fills_it() -> None:
    state = resolving(
        edit(started(3, goal=3), "p2", palette="R R", creation=["Glass Kiln", "Dye Vat"]), "p2"
    )
    state = act(state, "p2: create Ember Spark")
    assert player(state, "p2").reached == 1
    assert state.reached == 1


def test_px_i_24_a_pool_reward_stays_in_the_pool_for_the_rest_of_the_turn() -> None:
    """Sunset Sky rewards pool R and a prism: the red stays in the pool while the prism is
    taken, and pays for a board creation after that; the pool is still lost at the pass."""
    state = table(palette="R M Y G")
    state = play(state, ["p1: create Sunset Sky", "p1: take pool R", "p1: take prism"])
    assert player(state, "p1").pool == ms("R")
    state = act(state, "p1: create board yellow-pool.1, pool R")
    p1 = player(state, "p1")
    assert p1.pool == ms("Y")
    assert not p1.palette
    state = act(state, "p1: pass")
    assert not player(state, "p1").pool

"""The start of the game and the course of a turn (GS-1, GS-4, GS-5 and their interpretations)."""

from __future__ import annotations

import msgspec

from referee.games.gammasphere import Discard, Draw, End
from tests.gammasphere.helpers import (
    DECK,
    RULES,
    act,
    assert_illegal,
    assert_legal,
    decklist,
    new_game,
    opened,
    play,
    put,
    resources_of,
    side,
    started,
)


def test_gs_1_1_two_seats_p1_and_p2() -> None:
    assert RULES.seats == ("p1", "p2")
    assert RULES.player_range() == (2, 2)


def test_gs_4_1_and_gs_4_2_each_player_starts_with_3000_gas_and_power_level_9000() -> None:
    state = new_game()
    for seat in ("p1", "p2"):
        assert (side(state, seat).gas, side(state, seat).power) == (3000, 9000)
        assert side(state, seat).hand.count == 0


def test_gs_4_3_both_seats_draw_seven_in_either_order_as_one_step() -> None:
    state = new_game({"p1": DECK})
    assert RULES.to_act(state) == frozenset({"p1", "p2"})
    assert RULES.to_move(state) is None
    assert RULES.legal_actions(state, "p2") == [Draw(7)]
    state = play(state, "draw 7", seat="p2")
    assert RULES.to_act(state) == frozenset({"p1"})
    assert_illegal(state, "draw 7", "GS-4.3", "already", seat="p2")
    assert_illegal(state, "draw 6", "GS-4.3", "7 cards, not 6", seat="p1")
    assert_illegal(state, "end", "GS-4.3", "p1 still to draw", seat="p1")
    assert_illegal(state, "play Gamma Trooper", "GS-4.3", seat="p1")
    state = play(state, "draw 7", seat="p1")
    assert (side(state, "p1").hand.count, side(state, "p1").deck.count) == (7, 33)
    assert (side(state, "p2").hand.count, side(state, "p2").deck.count) == (7, 33)
    assert state.turn == 1
    assert state.phase == "draw"
    assert RULES.to_act(state) == frozenset({"p1"})


def test_gs_4_4_the_recorded_first_player_takes_the_first_turn_and_turns_alternate() -> None:
    state = opened(options={"first": "p2"})
    assert RULES.to_move(state) == "p2"
    state = play(state, "draw", "end")
    assert RULES.to_move(state) == "p1"
    assert state.turn == 2
    state = play(state, "draw", "end")
    assert RULES.to_move(state) == "p2"
    assert state.turn == 3


def test_gs_5_1_the_turn_opens_with_a_one_card_draw_and_nothing_before_it() -> None:
    state = opened()
    assert RULES.legal_actions(state) == [Draw(1)]
    assert_illegal(state, "play Gamma Trooper", "GS-5.1", "begins with the draw")
    assert_illegal(state, "end", "GS-5.1")
    assert_illegal(state, "draw 2", "GS-5.1", "one card, not 2")
    state = play(state, "draw")
    assert side(state, "p1").hand.count == 8
    assert side(state, "p1").deck.count == 32
    assert_illegal(state, "draw", "GS-5.1", "adjustment", "draw p1 N")


def test_gs_5_2_income_is_300_plus_300_per_refinery_after_the_draw() -> None:
    state = opened()
    state, _ = put(state, "p1", "Gas Refinery")
    state, _ = put(state, "p1", "Gas Refinery")
    state, _ = put(state, "p2", "Gas Refinery")
    assert side(state, "p1").gas == 3000
    state = play(state, "draw")
    assert side(state, "p1").gas == 3000 + 300 + 2 * 300
    state = play(state, "end", "draw")
    assert side(state, "p2").gas == 3000 + 300 + 300


def test_gs_2_10_and_gs_i_11_a_refinery_counts_by_its_catalog_flag_tapped_or_not() -> None:
    state = opened()
    state, number = put(state, "p1", "Gas Refinery", tapped=True)
    state, _ = put(state, "p1", "Bastion Wall")  # a building, but not a Refinery
    state = play(state, "draw")
    assert side(state, "p1").gas == 3000 + 600
    assert state.cards["Gas Refinery"].refinery
    assert not state.cards["Bastion Wall"].refinery
    assert number == 1


def test_gs_5_3_and_gs_i_6_pylons_and_all_other_cards_untap_when_their_turn_begins() -> None:
    state = started()
    state, pylon = put(state, "p1", "Pylon", tapped=True)
    state, trooper = put(state, "p1", "Gamma Trooper", tapped=True)
    state, foe = put(state, "p2", "Pylon", tapped=True)
    state = play(state, "end")
    tapped = {e.id: e.tapped for e in state.field}
    assert tapped == {pylon: True, trooper: True, foe: False}  # p2's turn began: only p2's untap
    state = play(state, "draw", "end")
    assert not any(e.tapped for e in state.field if e.owner == 0)


def test_gs_5_4_the_main_phase_allows_any_number_of_plays_in_any_order() -> None:
    state = started({"p1": DECK})
    state = play(
        state,
        "construct Pylon",
        "play Gamma Trooper",
        "construct Pylon",
        "play Rift Scout (defense)",
        "switch #2 defense",
        "switch #2 attack",
    )
    assert [e.card for e in state.field] == ["Pylon", "Gamma Trooper", "Pylon", "Rift Scout"]


def test_gs_5_5_end_passes_the_turn_to_the_opponent() -> None:
    state = started()
    assert End() in RULES.legal_actions(state)
    state = play(state, "end")
    assert (state.active, state.phase, state.turn) == (1, "draw", 2)


def test_gs_5_6_a_turn_ending_above_ten_cards_discards_named_cards_down_to_ten() -> None:
    state = started({"p1": DECK})
    state = msgspec.structs.replace(
        state,
        sides=(
            msgspec.structs.replace(side(state, "p1"), hand=side(state, "p1").hand.put_unseen(4)),
            side(state, "p2"),
        ),
    )
    assert side(state, "p1").hand.count == 12
    assert_illegal(state, "discard Pylon", "GS-5.6", "only when a turn ends")
    state = play(state, "end")
    assert state.phase == "discard"
    assert RULES.to_move(state) == "p1"
    assert_illegal(state, "end", "GS-5.6", "holds 12 cards")
    assert_illegal(state, "play Gamma Trooper", "GS-5.6", "discard down to 10")
    assert_illegal(state, "draw", "GS-5.6")
    assert Discard("Solar Flare") in RULES.legal_actions(state)
    state = play(state, "discard Solar Flare")
    assert state.phase == "discard"
    assert side(state, "p1").hand.count == 11
    state = play(state, "discard pylon")
    assert side(state, "p1").discard == ("Solar Flare", "Pylon")
    assert (state.active, state.phase) == (1, "draw")


def test_gs_5_6_every_hand_above_ten_at_the_end_of_a_turn_discards_in_either_order() -> None:
    from tests.gammasphere.helpers import adjust

    state = started()
    state = adjust(state, "draw p2 4; draw p1 3")  # an effect made both draw in p1's turn
    assert (side(state, "p1").hand.count, side(state, "p2").hand.count) == (11, 11)
    state = play(state, "end")
    assert state.phase == "discard"
    assert RULES.to_act(state) == frozenset({"p1", "p2"})
    assert "Turn 1 is over: p1 and p2 to discard down to 10" in RULES.render(state, "public")
    assert_illegal(state, "end", "GS-5.6", "p1 holds 11 cards and p2 holds 11 cards", seat="p1")
    assert_illegal(state, "play Gamma Trooper", "GS-5.6", "discard down to 10 first", seat="p2")
    state = play(state, "discard Shale Golem", seat="p2")
    assert RULES.to_act(state) == frozenset({"p1"})
    assert_illegal(state, "discard Pylon", "GS-5.6", "p2 holds 10", seat="p2")
    state = play(state, "discard Pylon", seat="p1")
    assert (state.active, state.phase, side(state, "p2").discard) == (1, "draw", ("Shale Golem",))


def test_gs_5_6_a_discard_step_left_at_ten_by_an_adjustment_may_end() -> None:
    state = started()
    state = msgspec.structs.replace(state, phase="discard")
    assert RULES.legal_actions(state) == [End()]
    reason = assert_illegal(state, "play Gamma Trooper", "GS-5.6", "the turn is over", "'end'")
    assert " and :" not in reason
    state = play(state, "end")
    assert state.active == 1


def test_gs_i_29_a_table_may_count_only_the_hand_of_the_player_whose_turn_ends() -> None:
    from tests.gammasphere.helpers import adjust

    state = started(hand_limit="own")
    state = adjust(state, "draw p2 4")  # an effect made the opponent draw in p1's turn
    assert (side(state, "p1").hand.count, side(state, "p2").hand.count) == (8, 11)
    state = play(state, "end")  # p2's eleven cards do not hold up the end of p1's turn
    assert (state.active, state.phase) == (1, "draw")
    state = adjust(state, "draw p1 3")
    state = play(state, "draw", "end")  # p2 now ends a turn of its own holding twelve
    assert (state.phase, RULES.to_act(state)) == ("discard", frozenset({"p2"}))
    assert "Turn 2 is over: p2 to discard down to 10" in RULES.render(state, "public")
    assert side(state, "p1").hand.count == 11
    assert_illegal(state, "discard Pylon", "GS-I.29", "hand_limit=own", "p1 holds 11", seat="p1")
    state = play(state, "discard Pylon", "discard Pylon", seat="p2")
    assert (state.active, state.phase, side(state, "p1").hand.count) == (0, "draw", 11)


def test_gs_i_30_there_is_no_mulligan() -> None:
    import pytest

    from referee.errors import ActionSyntaxError

    with pytest.raises(ActionSyntaxError):
        RULES.parse("mulligan")
    state = new_game()
    state = play(state, "draw 7", seat="p1")
    assert_illegal(state, "draw 7", "GS-4.3", "already", seat="p1")
    state = play(state, "draw 7", seat="p2")
    assert_illegal(state, "draw 7", "GS-5.1", "one card, not 7")
    assert RULES.observe(state)["variants"]["hand_limit"] == "every"


def test_gs_5_7_no_draw_takes_more_than_the_deck_holds() -> None:
    small = decklist("7 Pylon\n1 Gamma Trooper")
    state = new_game({"p1": small})
    state = play(state, "draw 7", seat="p1")
    state = play(state, "draw 7", seat="p2")
    assert side(state, "p1").deck.count == 1
    assert_illegal(state, "draw 2", "GS-5.7", "holds 1 card; 2 cannot be drawn")


def test_gs_i_2_an_unregistered_deck_counts_deck_size_cards() -> None:
    state = new_game(options={"deck_size": 9}, decks={"p2": DECK})
    assert side(state, "p1").deck.count == 9
    assert not side(state, "p1").registered
    assert side(state, "p2").deck.count == 40
    assert side(state, "p2").registered
    assert RULES.deck_knowledge(state, "p1") is None
    assert RULES.deck_knowledge(state, "p2") is not None


def test_gs_i_4_by_default_the_first_player_draws_in_the_first_turn_holding_eight() -> None:
    state = started()
    assert side(state, "p1").hand.count == 8
    assert side(state, "p1").gas == 3300


def test_gs_i_4_the_table_may_skip_the_first_players_first_draw() -> None:
    state = opened(first_draw="no")
    assert state.phase == "main"
    assert side(state, "p1").hand.count == 7
    assert side(state, "p1").gas == 3300  # the income is still gained
    assert_illegal(state, "draw", "GS-5.1")
    state = play(state, "end")
    assert state.phase == "draw"  # p2 draws as usual
    state = play(state, "draw", "end")
    assert state.phase == "draw"  # and so does p1 from the second turn on


def test_gs_i_5_an_empty_deck_skips_the_draw_by_default() -> None:
    state = opened({"p1": decklist("8 Pylon")})
    state = play(state, "draw")
    assert side(state, "p1").deck.count == 0
    state = play(state, "end", "draw", "end")
    assert state.phase == "main"
    assert RULES.to_move(state) == "p1"
    assert side(state, "p1").gas == 3000 + 300 + 300
    assert not RULES.outcome(state).over


def test_gs_i_5_the_table_may_rule_that_an_empty_deck_loses() -> None:
    state = opened({"p1": decklist("8 Pylon")}, empty_deck="lose")
    state = play(state, "draw", "end", "draw", "end")
    out = RULES.outcome(state)
    assert (out.winner, out.clause) == ("p2", "GS-I.5")
    assert "empty deck" in out.reason
    assert RULES.to_act(state) == frozenset()
    assert RULES.legal_actions(state) == []


def test_gs_i_21_the_jiggawatt_pool_is_spent_first_and_lapses_when_the_turn_ends() -> None:
    state = started({"p1": DECK})
    state, pylon = put(state, "p1", "Pylon")
    state = resources_of(state, "p1", jiggawatts=1)
    state = play(state, "play Ion Lancer")
    assert side(state, "p1").jiggawatts == 0
    assert not next(e for e in state.field if e.id == pylon).tapped
    state = resources_of(state, "p1", jiggawatts=2)
    state = play(state, "end")
    assert side(state, "p1").jiggawatts == 0


def test_gs_1_4_and_gs_i_25_only_the_player_to_act_makes_entries_in_their_own_main_phase() -> None:
    state = started()
    assert RULES.to_act(state) == frozenset({"p1"})
    assert RULES.legal_actions(state, "p2") == []
    state = play(state, "end")
    assert RULES.to_act(state) == frozenset({"p2"})
    assert_illegal(state, "play Gamma Trooper", "GS-5.1")


def test_gs_1_4_the_seat_whose_turn_it_is_not_can_neither_end_it_nor_act_in_it() -> None:
    """check itself refuses an entry by the other seat, not only the procedure (REF-1.2)."""
    state = opened({"p1": DECK})
    assert_illegal(state, "draw", "GS-1.4", "it is p1's turn, not p2's", seat="p2")
    state = play(state, "draw")
    assert state.phase == "main"
    assert_illegal(
        state, "end", "GS-1.4", "it is p1's turn, not p2's", "p2 cannot end it", seat="p2"
    )
    assert_illegal(state, "play Gamma Trooper", "GS-1.4", "not p2's", seat="p2")
    assert_legal(state, "end", seat="p1")
    left = msgspec.structs.replace(state, phase="discard")  # hands at ten: only 'end' is left
    assert_illegal(left, "end", "GS-1.4", "p2 cannot end it", seat="p2")
    state = play(state, "end", seat="p1")
    assert_illegal(state, "draw", "GS-1.4", "it is p2's turn, not p1's", seat="p1")
    assert_legal(state, "draw", seat="p2")


def test_the_draw_entry_is_one_action_in_every_phase() -> None:
    assert act("draw") == Draw(1)
    assert act("DRAW 7") == Draw(7)
    state = opened()
    assert_legal(state, "draw")


def test_gs_8_2_resignation_and_adjudication_are_the_procedures_not_entries() -> None:
    import pytest

    from referee.errors import ActionSyntaxError
    from referee.rulebook import find_clause

    text = find_clause("GS-8.2", "gammasphere").text
    for ref in ("REF-3.2", "REF-3.4"):
        assert ref in text
        assert find_clause(ref).id == ref
    with pytest.raises(ActionSyntaxError):
        RULES.parse("resign")
    # two seats: the game has no withdrawals, so a resignation ends it (REF-3.5)
    from referee.capabilities import withdrawals_of

    assert withdrawals_of(RULES) is None

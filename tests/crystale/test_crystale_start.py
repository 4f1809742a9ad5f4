"""Starting the battle (CR-5) and the turn order (CR-1)."""

from __future__ import annotations

from referee.kit.decks import SealedDeck, commitment
from tests.crystale.helpers import (
    FIRE_POOL,
    OPENING,
    RULES,
    WATER_POOL,
    fresh,
    judge,
    make_setup,
    play,
    rejected,
    started,
)


def test_cr_1_1_two_seats_each_with_a_summoner() -> None:
    state = fresh()
    assert RULES.seats == ("p1", "p2")
    assert [u.crystal for u in state.units.values() if u.summoner] == [
        "Vulkara Emberqueen",
        "Thalassa Tidecaller",
    ]
    assert [s.hits for s in state.sides] == [3, 3]


def test_cr_5_5_the_start_is_a_step_for_both_seats() -> None:
    state = fresh()
    assert RULES.to_act(state) == frozenset({"p1", "p2"})
    assert RULES.to_move(state) is None
    state = play(
        state, ("p1", "pull 6"), ("p2", "pull 6"), ("p2", "show Reefling, Reefling, Coral Bastion")
    )
    assert RULES.to_act(state) == frozenset({"p1", "p2"})  # the first player is not chosen yet
    state = play(state, ("p1", "first p2"))
    assert RULES.to_act(state) == frozenset({"p1"})  # only p1's opening is left
    state = play(state, ("p1", "show Cinderpup, Cinderpup, Magmaback Golem"))
    assert state.phase == "pull"
    assert state.turn == 1
    assert RULES.to_act(state) == frozenset({"p2"})


def test_cr_5_1_and_cr_i_2_the_rps_winner_names_the_first_player_once() -> None:
    state = play(fresh(), ("p2", "first p2"))
    assert state.first == 1
    reason = rejected(state, "first p1", "CR-5.1", "p1")
    assert "p2 was already chosen" in reason


def test_cr_5_2_opening_hand_of_six_unseen() -> None:
    state = play(fresh(), ("p1", "pull 6"))
    side = state.sides[0]
    assert (side.hand.count, side.pool.count, side.hand.unknown) == (6, 24, 6)
    rejected(state, "pull 6", "CR-5.2", "p1")
    rejected(fresh(), "pull 5", "CR-5.2", "p1")
    rejected(fresh(), "pull Cinderpup", "CR-5.2", "p1")


def test_cr_5_3_three_servants_shown_from_the_opening_hand() -> None:
    state = play(fresh(), ("p1", "pull 6"))
    assert "pull 6 first" in rejected(
        fresh(), "show Cinderpup, Cinderpup, Cinderpup", "CR-5.3", "p1"
    )
    assert "at least 3 Servants" in rejected(state, "show Cinderpup, Cinderpup", "CR-5.3", "p1")
    assert "Flame Lance is a spell" in rejected(
        state, "show Cinderpup, Cinderpup, Flame Lance", "CR-5.3", "p1"
    )
    rejected(state, "show Cinderpup, Cinderpup, Cinderpup, Cinderpup, Cinderpup", "CR-12.3", "p1")
    state = play(state, ("p1", "show cinderpup, Cinderpup, Sootwing Drake"))
    side = state.sides[0]
    assert side.shown
    assert side.hand.count == 6
    assert side.hand.known.as_dict() == {"Cinderpup": 2, "Sootwing Drake": 1}
    assert side.knowledge is not None
    assert side.knowledge.seen.count("Cinderpup") == 2
    rejected(state, "show Cinderpup, Cinderpup, Sootwing Drake", "CR-5.3", "p1")


def test_cr_i_5_mulligan_returns_an_unshown_hand() -> None:
    state = play(fresh(), ("p1", "pull 6"))
    state = play(state, ("p1", "mulligan"))
    assert (state.sides[0].hand.count, state.sides[0].pool.count) == (0, 30)
    rejected(state, "mulligan", "CR-I.5", "p1")
    state = play(state, ("p1", "pull 6"), ("p1", "show Cinderpup, Cinderpup, Cinderpup"))
    rejected(state, "mulligan", "CR-I.5", "p1")


def test_cr_5_4_and_cr_i_6_the_second_players_bonus_may_exceed_the_mana_pool() -> None:
    state = started()
    p2 = state.sides[1]
    assert (p2.mp, p2.mana_pool, p2.bonus) == (160, 140, 20)
    assert state.sides[0].mp == 120
    assert state.sides[0].bonus == 0
    # p2's first pull cannot refill above 160, and spending 20 ends the bonus for good
    state = play(state, "pull", "end", "pull")
    assert state.sides[1].mp == 160
    state = play(state, "summon Reefling @c6")
    assert (state.sides[1].mp, state.sides[1].bonus) == (140, 0)
    state = play(state, "end", "done", "pull", "end", "pull")
    assert state.sides[1].mp == 140  # back to the printed Mana Pool


def test_cr_i_6_within_cap_variant() -> None:
    p2 = started(variants={"bonus_mp": "within_cap"}).sides[1]
    assert (p2.mp, p2.bonus) == (140, 0)


def test_cr_i_7_start_mp_variant() -> None:
    state = started(variants={"start_mp": "zero"})
    assert [s.mp for s in state.sides] == [0, 20]
    state = play(state, "pull")
    assert state.sides[0].mp == 40  # Recharge 40


def test_cr_i_24_a_sealed_pool_shows_its_summoner_in_the_start_step() -> None:
    salt = "s" * 32
    sealed = SealedDeck(commitment(WATER_POOL, salt), 31)
    state = RULES.initial_state(make_setup(decks={"p1": FIRE_POOL, "p2": sealed}))
    assert 2 not in state.units
    assert RULES.to_act(state) == frozenset({"p1", "p2"})
    assert "is a servant crystal" in rejected(state, "summoner Reefling", "CR-I.24", "p2")
    rejected(state, "summoner Zed", "CR-12.3", "p2")
    state = play(state, ("p2", "summoner Thalassa Tidecaller"))
    assert state.units[2].crystal == "Thalassa Tidecaller"
    assert state.units[2].tile == 17
    assert state.sides[1].mp == 140
    rejected(state, "summoner Thalassa Tidecaller", "CR-I.24", "p2")
    state = play(state, *OPENING)
    assert state.phase == "pull"
    knowledge = RULES.deck_knowledge(state, "p2")
    assert knowledge is not None
    assert knowledge.check_open(WATER_POOL, salt, "REF-5.3").legal
    opened = RULES.with_deck_knowledge(state, "p2", knowledge.opened(WATER_POOL))
    assert opened.sides[1].knowledge is not None
    assert opened.sides[1].knowledge.listed == WATER_POOL


def test_cr_1_2_whole_turns_alternate() -> None:
    state = started()
    assert RULES.to_act(state) == frozenset({"p1"})
    state = play(state, "pull", "end")  # no Servant that could promote: no Promotion phase
    assert (state.active, state.turn, state.phase) == (1, 2, "pull")
    assert RULES.to_act(state) == frozenset({"p2"})
    state = play(state, "pull", "summon Reefling @c6", "end")
    assert state.phase == "promotion"
    state = play(state, "done")
    assert (state.active, state.turn) == (0, 3)


def test_cr_1_3_entries_belong_to_their_phase() -> None:
    state = started()
    assert "it is the Pull phase" in rejected(state, "summon Cinderpup @c2", "CR-1.3")
    rejected(state, "end", "CR-1.3")
    rejected(state, "promote u1", "CR-1.3")
    state = play(state, "pull")
    rejected(state, "pull", "CR-1.3")
    rejected(state, "done", "CR-1.3")
    rejected(state, "discard Flame Lance", "CR-1.3")
    assert judge(state, "end").legal


def test_cr_i_30_the_first_turn_is_a_whole_turn() -> None:
    """CR-I.30: turn 1 has no exceptions: p1 pulls (CR-6.1), recharges within its Mana Pool
    (CR-6.4), then summons, moves and casts like in any turn."""
    state = started()
    assert (state.turn, state.active, state.phase) == (1, 0, "pull")
    before = state.sides[0]
    state = play(state, "pull")
    side = state.sides[0]
    assert (side.hand.count, side.pool.count) == (before.hand.count + 1, before.pool.count - 1)
    assert side.mp == side.mana_pool
    state = play(state, "summon Cinderpup @c2", "move u3 c3", "move u1 b1")
    assert state.phase == "main"
    assert judge(state, "end").legal

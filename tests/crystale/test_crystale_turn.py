"""Pull and Recharge (CR-6), what the referee knows (CR-12) and forfeits (CR-13.2)."""

from __future__ import annotations

import msgspec

from referee.games.crystale import CrystaleState
from referee.kit.multiset import Multiset
from tests.crystale.helpers import REEFLING_REPLY, RULES, judge, play, rejected, started


def _pool(
    state: CrystaleState,
    seat: int,
    count: int,
    plane: dict[str, int] | None = None,
    mp: int | None = None,
) -> CrystaleState:
    """``state`` with seat's pool count (and Higher Plane, MP) set, for positions hard to reach."""
    side = state.sides[seat]
    side = msgspec.structs.replace(
        side,
        pool=msgspec.structs.replace(side.pool, count=count),
        plane=Multiset.of(plane or {}),
        mp=side.mp if mp is None else mp,
    )
    sides = (side, state.sides[1]) if seat == 0 else (state.sides[0], side)
    return msgspec.structs.replace(state, sides=sides)


def test_cr_6_1_pull_one_crystal() -> None:
    state = started()
    after = play(state, "pull")
    assert (after.sides[0].hand.count, after.sides[0].pool.count) == (7, 23)
    assert after.phase == "main"
    rejected(state, "pull 2", "CR-6.1")


def test_cr_6_4_recharge_never_above_the_mana_pool() -> None:
    state = play(started(), "pull", "summon Pyrelance Archer @c2", "cast Kiln Surge", "end", "done")
    # 120 - 30 - 10 + 30 (Kiln Surge, capped at 120) = 110
    assert state.sides[0].mp == 110
    state = play(state, "pull", "end", "pull", "end", "done", "pull")
    assert state.sides[0].mp == 120  # 110 + 40 is capped at the Mana Pool


def test_cr_6_5_and_cr_i_23_rest_heals_in_the_recharge_phase_with_the_pull() -> None:
    state = play(
        started(),
        "pull",
        "summon Magmaback Golem @c2",
        *REEFLING_REPLY,
    )
    golem = state.units[3]
    state = msgspec.structs.replace(
        state, units={**state.units, 3: msgspec.structs.replace(golem, hp=50)}
    )
    verdict = judge(state, "pull")
    assert verdict.legal
    assert not verdict.rulings
    after = play(state, "pull")
    assert after.units[3].hp == 70  # 50 + 20, and MP recharged in the same entry
    assert after.sides[0].mp == 110  # 120 - 50 + 40


def test_cr_6_2_reshuffle_an_empty_pool() -> None:
    state = _pool(started(), 0, 0, {"Cinderpup": 1, "Flame Lance": 2}, mp=120)
    rejected(state, "pull", "CR-6.2")
    rejected(started(), "reshuffle", "CR-6.2")
    state = play(state, "reshuffle")
    side = state.sides[0]
    assert (side.hits, side.mp, side.pool.count, side.plane.total) == (2, 70, 3, 0)
    assert side.knowledge is not None
    state = play(state, "pull")
    assert state.sides[0].pool.count == 2
    assert state.sides[0].mp == 110


def test_cr_6_2_and_cr_13_1_paying_the_last_hit_for_a_reshuffle_ends_the_battle() -> None:
    """One hit left is still a hit to pay with: the reshuffle is made, the hit box is then
    empty and the battle ends by CR-13.1, not as a forfeit (CR-6.3 is for too little MP)."""
    state = _pool(started(), 0, 0, {"Flame Lance": 1}, mp=120)
    side = msgspec.structs.replace(state.sides[0], hits=1)
    state = msgspec.structs.replace(state, sides=(side, state.sides[1]))
    assert RULES.outcome(state).status != "win"
    state = play(state, "reshuffle")
    assert (state.sides[0].hits, state.sides[0].mp) == (0, 70)
    out = RULES.outcome(state)
    assert (out.status, out.winner, out.clause) == ("win", "p2", "CR-13.1")


def test_cr_6_3_forfeit_when_the_reshuffle_cannot_be_paid() -> None:
    state = play(started(), "pull", "end")
    state = _pool(state, 0, 0, {"Flame Lance": 1}, mp=40)
    state = play(state, "pull", "end")  # p1's turn begins with an empty pool and 40 MP
    out = RULES.outcome(state)
    assert (out.status, out.winner, out.clause) == ("win", "p2", "CR-6.3")
    assert "40 MP" in out.reason
    assert RULES.to_act(state) == frozenset()


def test_cr_13_2_and_cr_i_22_nothing_left_to_pull_forfeits() -> None:
    state = play(started(), "pull", "end")
    state = _pool(state, 0, 0, {}, mp=120)
    state = play(state, "pull", "end")
    out = RULES.outcome(state)
    assert (out.winner, out.clause) == ("p2", "CR-I.22")
    assert judge(state, "pull", "p1").violations[0].clause == "REF-1.3"


def test_cr_12_1_hands_and_pools_are_counts() -> None:
    state = play(started(), "pull")
    side = state.sides[0]
    assert side.hand.count == 7
    assert side.hand.unknown == 4
    data = RULES.observe(state, "public")["seats"]["p1"]
    assert data["hand"] == 7
    assert data["pool"] == 23
    assert data["hand_known"] == {"Cinderpup": 2, "Pyrelance Archer": 1}


def test_cr_12_2_pulls_checked_against_the_pool_count() -> None:
    state = _pool(started(), 0, 0, {"Flame Lance": 1})
    assert "pool is empty" in rejected(state, "pull Flame Lance", "CR-6.2")
    fresh_state = started()
    rejected(_pool(fresh_state, 0, 1), "slot mp", "CR-1.3")


def test_cr_12_3_a_named_crystal_must_be_unaccounted_for() -> None:
    state = play(started(), "pull")
    assert "not in p1's registered list" in rejected(state, "cast Tidal Lash @u2", "CR-12.3")
    assert "no crystal called" in rejected(state, "cast Fireball @u2", "CR-12.3")
    # four Cinderpups: two shown, and the other two may be named from the unknown part of the hand
    state = play(state, "summon Cinderpup @c2", "end", "done", "pull", "end", "pull")
    state = msgspec.structs.replace(
        state, sides=(msgspec.structs.replace(state.sides[0], summoned=False), state.sides[1])
    )
    assert judge(state, "summon Cinderpup @d1").legal


def test_cr_i_25_a_pull_seen_by_the_table() -> None:
    state = play(started(), "pull Flame Lance")
    side = state.sides[0]
    assert side.hand.known.count("Flame Lance") == 1
    assert side.knowledge is not None
    assert side.knowledge.seen.count("Flame Lance") == 1
    state = play(state, "end", "pull", "end")
    assert "Vulkara Emberqueen is a Summoner" in rejected(
        state, "pull Vulkara Emberqueen", "CR-12.3"
    )
    for _ in range(3):
        state = play(state, "pull Flame Lance", "end")
        if state.phase == "discard":
            state = play(state, "discard Kiln Surge")
        state = play(state, "pull", "end")
        if state.phase == "discard":
            state = play(state, "discard Tidal Lash")
    assert "all 4 copies already seen" in rejected(state, "pull Flame Lance", "CR-12.3")


def test_cr_12_4_shuffled_crystals_are_hidden_again() -> None:
    state = play(started(), "pull Flame Lance", "cast Flame Lance @u2")
    assert state.sides[0].plane.as_dict() == {"Flame Lance": 1}
    knowledge = state.sides[0].knowledge
    assert knowledge is not None
    assert knowledge.seen.count("Flame Lance") == 1
    state = _pool(state, 0, 0, {"Flame Lance": 1})
    state = play(state, "end", "pull", "end", "reshuffle")
    assert state.sides[0].pool.known.as_dict() == {"Flame Lance": 1}  # all the pool holds
    state = play(state, "pull")
    knowledge = state.sides[0].knowledge
    assert knowledge is not None
    assert knowledge.seen.count("Flame Lance") == 0


def test_cr_12_4_a_reshuffled_pool_holds_only_what_left_the_higher_plane() -> None:
    """CR-12.4 (and REF-1.6): everyone saw the Higher Plane go into the empty pool, so a
    crystal named out of it before an unseen pull must be one of those."""
    state = _pool(started(), 0, 0, {"Cinderpup": 1, "Flame Lance": 2}, mp=120)
    state = play(state, "reshuffle")
    reason = rejected(state, "pull Kiln Surge", "CR-12.3")
    assert reason == (
        "p1's pool holds only the crystals shuffled into it (1 Cinderpup, 2 Flame Lance); "
        "Kiln Surge is not one of them"
    )
    after = play(state, "pull Flame Lance")
    assert after.sides[0].hand.known.count("Flame Lance") == 1
    assert after.sides[0].pool.known.as_dict() == {"Cinderpup": 1, "Flame Lance": 1}
    # an unseen pull may have taken any of them: the pool is a plain count again
    after = play(state, "pull", "end", "pull", "end")
    assert after.sides[0].pool.known.total == 0
    assert judge(after, "pull Kiln Surge").legal


def test_cr_12_4_crystals_put_back_unseen_leave_what_the_hand_was_known_to_hold() -> None:
    """A shown Servant may be among crystals put back into the pool unseen (an adjustment,
    CR-11.2): it is unaccounted for again, so it may be named when it comes out."""
    from tests.crystale.test_crystale_promotion import adjust

    state = play(started(), "pull")  # the hand shows two Cinderpups
    state = adjust(state, "move p1 hand>pool; move p1 hand>plane Cinderpup")
    side = state.sides[0]
    assert side.hand.known.total == 0
    assert side.knowledge is not None
    assert side.knowledge.seen.count("Cinderpup") == 1  # the one in the Higher Plane
    state = adjust(state, "move p1 hand>plane Cinderpup; move p1 hand>plane Cinderpup")
    assert judge(state, "summon Cinderpup @c2").legal  # the fourth may still be in the hand


def test_cr_i_36_knowledge_stays_keeps_a_reshuffled_pool_a_plain_count() -> None:
    """CR-I.36, knowledge=stays (games recorded before it): the Higher Plane shuffled into
    the pool is unaccounted for like any crystal, so a pull may name one not among it."""
    state = _pool(started(variants={"knowledge": "stays"}), 0, 0, {"Cinderpup": 1}, mp=120)
    before = state.sides[0].knowledge
    state = play(state, "reshuffle")
    assert state.sides[0].pool.known.total == 0
    knowledge = state.sides[0].knowledge
    assert before is not None
    assert knowledge is not None
    # the Cinderpup that went in is unaccounted for again (CR-12.4)
    assert knowledge.seen.count("Cinderpup") == before.seen.count("Cinderpup") - 1
    after = play(state, "pull Kiln Surge")
    assert after.sides[0].hand.known.count("Kiln Surge") == 1


def test_cr_i_36_knowledge_stays_keeps_a_hands_shown_crystals_seen() -> None:
    """CR-I.36, knowledge=stays: crystals known in a hand stay counted as seen after
    crystals leave it unseen, so a copy named beyond them is one too many (CR-12.3)."""
    from tests.crystale.test_crystale_promotion import adjust

    state = play(started(variants={"knowledge": "stays"}), "pull")  # two Cinderpups shown
    state = adjust(state, "move p1 hand>pool; move p1 hand>plane Cinderpup")
    knowledge = state.sides[0].knowledge
    assert knowledge is not None
    assert knowledge.seen.count("Cinderpup") == 3  # the two shown still count
    state = adjust(state, "move p1 hand>plane Cinderpup")
    rejected(state, "summon Cinderpup @c2", "CR-12.3")

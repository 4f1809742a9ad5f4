"""The end of a round (PX-11), scoring (PX-12), ties (PX-13), the auction (PX-14) and
withdrawal, with their interpretations."""

from __future__ import annotations

import msgspec
import pytest

from referee.games.prismatic.engine import finish
from referee.games.prismatic.model import PrismaticState
from referee.games.prismatic.scoring import chart, standing
from tests.prismatic.helpers import (
    RULES,
    THREE,
    act,
    assert_illegal,
    auction_table,
    edit,
    ms,
    pass_round,
    play,
    player,
    resolving,
    scored,
    started,
    table,
)


def test_px_11_1_the_starter_refills_the_commons_one_card_each() -> None:
    state = table(palette="R R G G")
    state = play(
        state,
        [
            "p1: create Ember Spark",
            "p1: decline",
            "p1: create Verdant Drop",
            "p1: decline",
            "p1: pass",
            "p2: pass",
            "p3: pass",
        ],
    )
    assert state.step == "refill"
    assert RULES.to_act(state) == {"p1"}
    assert len(state.commons) == 1
    assert_illegal(state, "p2: reveal Comet Trail", "REF-1.2")
    assert_illegal(state, "p1: reveal Glass Kiln", "PX-1.9", "p2's progress area")
    state = act(state, "p1: reveal Comet Trail")
    assert state.step == "refill"
    state = act(state, "p1: reveal Chroma Lab")
    assert state.commons == ("Sunset Sky", "Comet Trail", "Chroma Lab")
    assert (state.step, state.round, state.starter) == ("draw", 2, "p2")


def test_px_11_1_px_i_8_refills_stop_when_the_deck_is_spent() -> None:
    state = table(2, palette="R R")
    state = msgspec.structs.replace(state, deck=("Comet Trail",))
    state = play(state, ["p1: create Ember Spark", "p1: decline", "p1: pass", "p2: pass"])
    assert state.step == "refill"
    state = act(state, "p1: reveal Comet Trail")
    assert state.step == "draw"
    assert len(state.commons) == 3
    state = resolving(edit(state, "p2", palette="G G"), "p2", ("p2", "p1"))
    state = play(state, ["p2: create Verdant Drop", "p2: decline", "p2: pass", "p1: pass"])
    assert state.step == "draw"
    assert len(state.commons) == 2


def test_px_11_2_reaching_the_goal_triggers_exactly_one_more_round() -> None:
    state = resolving(
        edit(started(2, goal=3), "p2", palette="R R", creation=["Glass Kiln", "Dye Vat"]),
        "p2",
        ("p1", "p2"),
    )
    state = play(
        state, ["p2: create Ember Spark", "p2: decline", "p2: pass", "p1: reveal Comet Trail"]
    )
    assert state.final_round == 2
    assert state.round == 2
    assert state.step == "draw"
    state = pass_round(state)
    assert state.step == "over"
    assert RULES.outcome(state).over


def test_px_11_3_the_starter_token_moves_clockwise_each_round() -> None:
    state = started(3, starter="p3")
    state = pass_round(state)
    assert state.starter == "p1"
    assert state.order == ()
    state = pass_round(state)
    assert state.starter == "p2"


def test_px_i_15_no_refill_after_the_final_round() -> None:
    state = started(2, goal=3)
    state = msgspec.structs.replace(state, final_round=1)
    state = resolving(edit(state, "p1", palette="R R"), "p1")
    state = play(state, ["p1: create Ember Spark", "p1: decline", "p1: pass", "p2: pass"])
    assert state.step == "over"
    assert len(state.commons) == 2


def by_seat(state: PrismaticState) -> dict[str, dict[str, int]]:
    return {line.seat: dict(line.items()) | {"total": line.total} for line in chart(state)}


def test_px_12_chart_by_hand() -> None:
    """By hand: motes p1 6+1+2=9, p2 9, p3 4 (tied top: no star); prismatic p1 1, p2 2; hue p1 1,
    p2 2, p3 0; sky 1, 1, 0 (tied: none); craft 1, 0, 2; prisms 7, 3, 8; card stars 1+2+1=4,
    1+1+2=4, 1+2=3; p1 has one card in progress; p2 reached the goal first."""
    lines = by_seat(scored(**THREE))
    assert lines["p1"] == {
        "first to the goal": 0,
        "most motes": 0,
        "most hue cards": 0,
        "most sky cards": 0,
        "most craft cards": 0,
        "a star per 4 prisms": 1,
        "card stars": 4,
        "most prismatic motes": 0,
        "cards left in progress": -1,
        "total": 4,
    }
    assert lines["p2"]["total"] == 1 + 1 + 4 + 2 == 8
    assert lines["p3"]["total"] == 1 + 2 + 3 == 6


def test_px_12_1_committed_motes_and_unused_prisms_return_at_the_end() -> None:
    state = finish(scored(**THREE))
    p1 = player(state, "p1")
    assert p1.bag == ms("R R R G G G B W P")
    assert p1.prisms == 7
    assert not p1.palette
    assert not p1.incoming


def test_px_12_2_one_star_for_the_first_to_the_goal() -> None:
    assert by_seat(scored(**THREE))["p2"]["first to the goal"] == 1
    assert by_seat(scored(**THREE))["p1"]["first to the goal"] == 0


def test_px_12_3_px_i_10_most_motes_counts_every_mote_and_a_tie_earns_nothing() -> None:
    assert [line.facts.motes for line in chart(scored(**THREE))] == [9, 9, 4]
    assert all(line.most_motes == 0 for line in chart(scored(**THREE)))
    three = dict(THREE, p3={**THREE["p3"], "bag": "R G B K W W W W W W"})
    assert by_seat(scored(**three))["p3"]["most motes"] == 1


def test_px_12_4_most_of_each_type_and_ties_earn_nothing() -> None:
    lines = by_seat(scored(**THREE))
    assert [lines[s]["most hue cards"] for s in ("p1", "p2", "p3")] == [0, 1, 0]
    assert [lines[s]["most sky cards"] for s in ("p1", "p2", "p3")] == [0, 0, 0]
    assert [lines[s]["most craft cards"] for s in ("p1", "p2", "p3")] == [0, 0, 1]


def test_px_12_5_a_star_per_four_prisms() -> None:
    lines = by_seat(scored(**THREE))
    assert [lines[s]["a star per 4 prisms"] for s in ("p1", "p2", "p3")] == [1, 0, 2]


def test_px_12_6_card_stars() -> None:
    assert [by_seat(scored(**THREE))[s]["card stars"] for s in ("p1", "p2", "p3")] == [4, 4, 3]


def test_px_12_7_two_stars_for_the_most_prismatic_motes() -> None:
    assert [by_seat(scored(**THREE))[s]["most prismatic motes"] for s in ("p1", "p2", "p3")] == [
        0,
        2,
        0,
    ]
    tied = dict(THREE, p1={**THREE["p1"], "bag": "R R G B P P"})
    assert all(v["most prismatic motes"] == 0 for v in by_seat(scored(**tied)).values())


def test_px_12_8_each_progress_card_costs_a_star() -> None:
    assert by_seat(scored(**THREE))["p1"]["cards left in progress"] == -1


def test_px_12_9_the_outcome_ranks_everyone_with_scores() -> None:
    state = finish(scored(**THREE))
    out = RULES.outcome(state)
    assert out.status == "ranked"
    assert out.clause == "PX-12.9"
    assert out.result == "p2>p3>p1"
    assert [(p.seat, p.rank, p.score) for p in out.ranking] == [
        ("p2", 1, 8.0),
        ("p3", 2, 6.0),
        ("p1", 3, 4.0),
    ]
    assert out.winner == "p2"
    assert out.tiebreak == ""


def level(**extra: dict[str, object]) -> PrismaticState:
    """Two players on the same 2 stars (a 2-star card each) unless ``extra`` changes them."""
    base: dict[str, dict[str, object]] = {
        "p1": {"bag": "R R G", "prisms": 1, "creation": ["Sunset Sky"], "progress": []},
        "p2": {"bag": "R R G", "prisms": 1, "creation": ["Starfield"], "progress": []},
    }
    for seat, fields in extra.items():
        base[seat] = {**base[seat], **fields}
    return finish(scored(**base))


def test_px_13_1_created_cards_break_the_tie_first() -> None:
    """By hand: p2 has Starfield (sky, 2), Paint Brushes (craft, 0), Violet Hush (hue, 0): 2 card
    stars + most hue + most craft = 4, minus 2 cards in progress = 2, level with p1's Sunset Sky."""
    state = level(
        p2={
            "creation": ["Starfield", "Paint Brushes", "Violet Hush"],
            "progress": ["Noon Blaze", "Moonrise"],
        }
    )
    assert [line.total for line in chart(state)] == [2, 2]
    out = RULES.outcome(state)
    assert out.result == "p2>p1"
    assert "most created cards: p2 3, p1 1" in out.tiebreak


def test_px_13_1_then_motes_then_prisms() -> None:
    """p1's extra mote earns the most-motes star, which a card in progress takes back."""
    state = level(p1={"bag": "R R G W", "progress": ["Noon Blaze"]})
    assert [line.total for line in chart(state)] == [2, 2]
    out = RULES.outcome(state)
    assert out.result == "p1>p2"
    assert "most motes: p1 4, p2 3" in out.tiebreak
    out = RULES.outcome(level(p2={"prisms": 3}))
    assert out.result == "p2>p1"
    assert "most prisms: p2 3, p1 1" in out.tiebreak


def test_px_13_1_then_the_first_to_reach_the_goal() -> None:
    """p2's first-to-goal star is offset by a card in progress; the tie-break then prefers p2."""
    state = level(p1={"reached": 2}, p2={"reached": 1, "progress": ["Noon Blaze"]})
    assert [line.total for line in chart(state)] == [2, 2]
    out = RULES.outcome(state)
    assert out.result == "p2>p1"
    assert "first to the creation goal: p2 reached 1st, p1 reached 2nd" in out.tiebreak
    out = RULES.outcome(level(p1={"reached": 1, "progress": ["Noon Blaze"]}))
    assert out.result == "p1>p2"
    assert "p2 not reached" in out.tiebreak


def test_px_13_1_px_12_2_a_goal_star_can_separate_before_tie_breaks() -> None:
    state = level(p1={"reached": 1}, p2={"reached": 2})
    assert [line.total for line in chart(state)] == [3, 2]


def test_px_13_2_px_i_15_the_colours_judgement_is_the_referees_entry() -> None:
    state = level()
    assert state.step == "colours"
    assert not RULES.outcome(state).over
    assert RULES.to_act(state) == {"p1"}
    assert_illegal(state, "p1: colours p1>p3", "PX-13.2", "ranks the tied players p1, p2")
    done = act(state, "p1: colours p2>p1")
    out = RULES.outcome(done)
    assert done.step == "over"
    assert out.result == "p2>p1"
    assert "colours worn" in out.tiebreak
    shared = RULES.outcome(act(state, "p1: colours p1=p2"))
    assert shared.status == "draw"
    assert [p.rank for p in shared.ranking] == [1, 1]
    assert "share a place" in shared.tiebreak


def test_px_13_2_every_tied_group_is_judged_in_turn() -> None:
    """Sunset Sky and Starfield (sky, 2 stars) for p1 and p2, Moonrise and Noon Blaze (sky, 1 star)
    for p3 and p4: every count level, so 2, 2, 1, 1 and two groups to judge."""
    cards = {"p1": "Sunset Sky", "p2": "Starfield", "p3": "Moonrise", "p4": "Noon Blaze"}
    base = {s: {"bag": "R", "prisms": 0, "creation": [c], "progress": []} for s, c in cards.items()}
    state = finish(scored(**base))
    assert standing(state).unsettled == (("p1", "p2"), ("p3", "p4"))
    state = act(state, "p1: colours p2>p1")
    assert RULES.to_act(state) == {"p3"}
    state = act(state, "p3: colours p4>p3")
    assert RULES.outcome(state).result == "p2>p1>p4>p3"


def test_px_14_1_px_14_3_sealed_bids_the_highest_pays() -> None:
    state = auction_table(p1=3, p2=2, p3=5)
    assert state.step == "auction"
    assert RULES.to_act(state) == {"p1", "p2", "p3"}
    assert_illegal(state, "p1: bid 4", "PX-14.1", "holds 3 prisms")
    state = play(state, ["p1: bid 2", "p3: bid 3"])
    assert RULES.shown_notation(RULES.parse("bid 2"), "p1", "p2") == "sealed bid"
    assert RULES.shown_notation(RULES.parse("bid 2"), "p1", "p1") == "bid 2"
    state = act(state, "p2: bid 0")
    assert (state.starter, state.step, state.round) == ("p3", "draw", 2)
    assert [player(state, s).prisms for s in ("p1", "p2", "p3")] == [3, 2, 2]


def test_px_14_2_px_i_9_tied_bidders_raise_or_forgo() -> None:
    state = auction_table(p1=3, p2=2, p3=5)
    state = play(state, ["p1: bid 2", "p2: bid 1", "p3: bid 2"])
    assert state.step == "auction"
    assert RULES.to_act(state) == {"p1", "p3"}
    assert_illegal(state, "p1: bid 2", "PX-14.2", "raise above it")
    state = play(state, ["p1: bid 3", "p3: bid 3"])
    assert RULES.to_act(state) == {"p1", "p3"}
    assert state.auction is not None
    assert state.auction.floor == 3
    assert_illegal(state, "p1: bid 4", "PX-14.1")
    state = play(state, ["p1: forgo", "p3: forgo"])
    assert (state.starter, state.step) == ("p2", "draw")
    assert [player(state, s).prisms for s in ("p1", "p2", "p3")] == [3, 1, 5]


def test_px_14_4_px_i_9_no_bids_keeps_the_token() -> None:
    state = auction_table()
    state = play(state, ["p1: forgo", "p2: bid 0", "p3: bid 0"])
    assert (state.starter, state.step) == ("p2", "draw")


def test_px_i_16_a_withdrawn_player_is_skipped_and_ranked_below() -> None:
    state = started(3, starter="p2")
    left = RULES.withdraw(state, "p2")
    assert left is not None
    state = left
    assert state.starter == "p3"
    assert RULES.to_act(state) == {"p1", "p3"}
    state = play(state, ["p1: draw R R G G B", "p3: draw R R G G B", "p1: pass", "p3: pass"])
    assert state.order == ("p3", "p1")
    state = edit(state, "p1", progress=[("Noon Blaze", "R Y", 0)])
    state = act(state, "p3: pass")
    state = resolving(edit(state, "p1", creation=[("Comet Trail", "C", 0)]), "p1", ("p3", "p1"))
    assert_illegal(state, "p1: use Comet Trail: steal Glass Kiln", "PX-I.16", "left the game")
    anyone = msgspec.structs.replace(
        edit(state, "p1", creation=[("Storm Front", "B", 0)]),
        table=msgspec.structs.replace(state.table, empty_target="any"),
    )
    for target in ("palette of p2", "Glass Kiln"):
        assert_illegal(anyone, f"p1: use Storm Front: empty {target}", "PX-I.16", "left the game")
    assert_illegal(anyone, "p1: use Storm Front: empty palette of p4", "PX-1.1", "not a seat")
    done = finish(state)
    assert [line.seat for line in chart(done)] == ["p1", "p3"]
    done = act(done, "p1: colours p3>p1") if done.step == "colours" else done
    assert RULES.outcome(done).ranking[-1].seat == "p2"
    assert RULES.outcome(done).ranking[-1].score is None


@pytest.mark.parametrize("seat", ["p1", "p2"])
def test_px_i_16_withdrawal_of_the_resolving_player_moves_the_turn_on(seat: str) -> None:
    state = resolving(started(3), "p1")
    after = RULES.withdraw(state, seat)
    assert after is not None
    assert RULES.to_act(after) == ({"p2"} if seat == "p1" else {"p1"})
    assert after.withdrawn == (seat,)


def test_px_i_17_first_to_goal_among_players_still_playing() -> None:
    state = scored(p1={"reached": 1}, p2={"reached": 2}, p3={})
    left = RULES.withdraw(state, "p1")
    assert left is not None
    lines = by_seat(left)
    assert lines["p2"]["first to the goal"] == 1
    assert "p1" not in lines


def test_px_i_26_prisms_gained_in_step_3_may_be_bid_in_that_rounds_auction() -> None:
    """p1 holds no prism until Sunset Sky's reward in step 3; the auction at the end of the
    same round takes it as p1's bid."""
    state = started(3, starter="p2", starter_token="auction")
    for seat in ("p1", "p2", "p3"):
        state = act(state, f"{seat}: draw R R G G B")
    state = play(state, ["p1: pass", "p2: pass", "p3: pass", "p2: pass", "p3: pass"])
    state = edit(state, "p1", palette=ms("R M Y"), prisms=0)
    state = play(state, ["p1: create Sunset Sky", "p1: take prism", "p1: decline", "p1: pass"])
    state = act(state, "p2: reveal Comet Trail")
    assert state.step == "auction"
    assert player(state, "p1").prisms == 1
    state = play(state, ["p1: bid 1", "p2: bid 0", "p3: bid 0"])
    assert (state.starter, player(state, "p1").prisms) == ("p1", 0)


def test_px_i_26_committed_prisms_are_no_part_of_a_bid() -> None:
    state = edit(auction_table(p1=1), "p1", palette_prisms=2, progress=[("Noon Blaze", "", 3)])
    assert_illegal(state, "p1: bid 2", "PX-14.1", "holds 1 prism and cannot bid 2")
    state = play(state, ["p1: bid 1", "p2: bid 0", "p3: bid 0"])
    p1 = player(state, "p1")
    assert (state.starter, p1.prisms, p1.palette_prisms, p1.progress[0].prisms) == ("p1", 0, 2, 3)

"""Rule-by-rule audit findings: cases the random hunts cannot reach (a pull right after a
gain, sealed refusals), each test citing the clause it checks."""

from __future__ import annotations

import msgspec
import pytest

from referee.games.prismatic import PrismaticState
from referee.games.prismatic.scoring import standing
from tests.prismatic.helpers import (
    RULES,
    act,
    assert_illegal,
    auction_table,
    edit,
    ms,
    pass_round,
    play,
    player,
    started,
    table,
)

PULL = ("Indigo Pulse", "K", 0)  # ability K -> pull


def test_px_7_3_px_i_3_a_board_mote_is_in_the_bag_at_once() -> None:
    """The board's mote creations put the mote into the bag (PX-7.3, PX-I.3): a pull later in
    the same turn may draw it. Only rewarded motes wait for the round's end (PX-8.4)."""
    state = table(palette="W K", bag="", creation=[PULL])
    state = act(state, "p1: create board red-mote.2")
    p1 = player(state, "p1")
    assert (p1.bag, p1.incoming) == (ms("R"), ms())
    state = act(state, "p1: use Indigo Pulse: pull R to palette")
    assert player(state, "p1").palette == ms("R")


def test_px_9_2_px_i_3_an_added_mote_is_in_the_bag_at_once() -> None:
    """An addition's mote goes into the bag (PX-9.2), so a pull may find it at once."""
    state = table(bag="", creation=["Violet Hush", PULL])
    state = act(state, "p1: use Violet Hush")
    assert player(state, "p1").bag == ms("M")
    act(state, "p1: use Indigo Pulse: pull M back")


def test_px_8_4_px_i_3_a_rewarded_mote_still_waits() -> None:
    """A rewarded mote is not available in the round it is received (PX-8.4): a pull cannot
    draw it, and it joins the bag when the round ends."""
    state = table(bag="", progress=[("Violet Hush", "B M", 0)], creation=[PULL])
    state = play(state, ["p1: create Violet Hush", "p1: take mote M", "p1: decline"])
    p1 = player(state, "p1")
    assert (p1.bag, p1.incoming) == (ms(), ms("M"))
    assert_illegal(state, "p1: use Indigo Pulse: pull M back", "PX-10.1", "bag is empty")


@pytest.mark.parametrize(
    ("variant", "bag", "incoming"), [("next_round", "", "R"), ("at_once", "R", "")]
)
def test_px_i_3_variants_treat_every_gain_alike(variant: str, bag: str, incoming: str) -> None:
    """gained_motes=next_round holds every gain until the round ends; at_once puts every gain,
    rewarded ones included, straight into the bag."""
    board = table(variants={"gained_motes": variant}, palette="W K", bag="")
    board = act(board, "p1: create board red-mote.2")
    reward = table(variants={"gained_motes": variant}, palette="R R", bag="")
    reward = play(reward, ["p1: create Ember Spark", "p1: take mote R"])
    for state in (board, reward):
        p1 = player(state, "p1")
        assert (p1.bag, p1.incoming) == (ms(bag), ms(incoming))


def test_px_14_4_px_i_9_forgoing_the_first_round_is_making_no_bid() -> None:
    """The token stays when nobody bids or all forgo (PX-14.4): in the first round a forgo is
    no bid, like bid 0, so the sealed entry is not refused (a refusal would tell everyone
    what it was)."""
    state = auction_table()
    state = play(state, ["p1: forgo", "p2: bid 0", "p3: forgo"])
    assert (state.starter, state.step) == ("p2", "draw")
    state = auction_table(p1=3, p2=2, p3=5)
    state = play(state, ["p1: forgo", "p2: bid 1", "p3: bid 0"])
    assert (state.starter, player(state, "p2").prisms) == ("p2", 1)


def test_px_i_32_opening_forgo_refuse_keeps_the_reading_before_it() -> None:
    """Variant opening_forgo=refuse (what a game recorded before PX-I.32 plays): only a tied
    bidder forgoes, so a first-round forgo is refused under PX-I.9 and not listed; once bids
    tie, forgo is a tied bidder's way out as before."""
    state = auction_table("refuse", p1=3, p2=2, p3=5)
    assert_illegal(state, "p1: forgo", "PX-I.9", "bid 0")
    assert all(RULES.notation(a) != "forgo" for a in RULES.legal_actions(state, "p1"))
    state = play(state, ["p1: bid 2", "p2: bid 1", "p3: bid 2"])
    assert "forgo" in {RULES.notation(a) for a in RULES.legal_actions(state, "p1")}
    state = play(state, ["p1: forgo", "p3: forgo"])
    assert (state.starter, state.step) == ("p2", "draw")


def test_px_14_1_px_14_2_a_refused_sealed_bid_reads_alike_for_the_others() -> None:
    """A tied bidder's bid that does not raise is refused (PX-14.2); the reason, which tells
    what the sealed bid was, is for its seat and the referee: the others read that a sealed
    entry was refused, and nothing of its amount."""
    state = auction_table(p1=3, p2=2, p3=5)
    state = play(state, ["p1: bid 2", "p2: bid 1", "p3: bid 2"])
    verdict = RULES.check(state, RULES.parse("bid 1"), "p1")
    (whole,) = verdict.violations
    assert (whole.clause, whole.seen_by) == ("PX-14.2", "p1")
    assert "raise above" in whole.reason
    for viewer in ("p2", "p3", "public"):
        (shown,) = verdict.for_viewer(viewer).violations
        assert "raise" not in shown.reason
        assert "bid 1" not in shown.reason
        assert shown.reason == "p1's sealed bid was refused; what it was stays sealed"
    too_many = RULES.check(state, RULES.parse("bid 4"), "p1")
    assert too_many.for_viewer("p2").violations[0].reason == shown.reason


def _spent(goal: int, p1_progress: tuple[str, ...] = ()) -> PrismaticState:
    """Round 1, step 1, two players, goal ``goal``: the deck and the commons spent, p1 with
    two created cards (and ``p1_progress``), p2 with one."""
    state = started(2, goal=goal)
    state = msgspec.structs.replace(state, deck=(), commons=())
    state = edit(state, "p1", creation=["Ember Spark", "Noon Blaze"], progress=list(p1_progress))
    return edit(state, "p2", creation=["Glass Kiln"], progress=[], bag="")


def _pass_round(state: PrismaticState) -> PrismaticState:
    """``pass_round``, each seat drawing the first five motes of its bag (none from an empty
    bag)."""
    draws = {seat: " ".join(list(player(state, seat).bag)[:5]) for seat in state.active}
    return pass_round(state, {seat: shown or "none" for seat, shown in draws.items()})


def test_px_i_30_an_unreachable_goal_triggers_the_end() -> None:
    """With the deck and the commons spent and no progress card left, nobody can reach a goal
    of 3 any more: the end check triggers the end as the goal would (PX-11.2, PX-I.30), one
    last round is played and the chart is tallied with no star for reaching the goal."""
    state = _pass_round(_spent(goal=3))
    assert state.final_round == 2
    state = _pass_round(state)
    assert state.step == "over"
    assert all(line.first == 0 for line in standing(state).lines)


def test_px_i_30_goal_reach_play_on_ends_only_at_a_reached_goal() -> None:
    """Variant goal_reach=play_on (the rules a game recorded before PX-I.30 keeps): the goal
    is out of reach, and play goes on all the same."""
    spent = _spent(goal=3)
    spent = msgspec.structs.replace(
        spent, table=msgspec.structs.replace(spent.table, goal_reach="play_on")
    )
    state = _pass_round(spent)
    assert (state.final_round, state.step, state.round) == (0, "draw", 2)


def test_px_i_30_a_goal_still_in_reach_plays_on() -> None:
    """One progress card left is enough for p1 to reach 3 in principle: play goes on."""
    state = _pass_round(_spent(goal=3, p1_progress=("Moonrise",)))
    assert (state.final_round, state.step, state.round) == (0, "draw", 2)


def test_px_1_8_px_i_30_a_goal_beyond_the_catalog_is_refused_at_setup() -> None:
    """The example catalog holds 42 play cards: a goal of 42 may be agreed, 43 never reached."""
    from referee.errors import SetupError
    from tests.prismatic.helpers import setup

    assert RULES.resolve_setup(setup(2, options={"goal": "42"})).options["goal"] == 42
    with pytest.raises(SetupError, match="never be reached with the 42 cards"):
        RULES.resolve_setup(setup(2, options={"goal": "43"}))


@pytest.mark.parametrize("viewer", ["p2", "p3", "public"])
def test_px_i_31_a_commitment_is_seen_by_all_before_the_step_ends(viewer: str) -> None:
    """Step 2 is simultaneous but open (PX-I.31): p1's commitment shows in every view while
    p2 and p3 are still committing."""
    state = started(3)
    for seat in ("p1", "p2", "p3"):
        state = act(state, f"{seat}: draw R R G G B")
    state = act(state, "p1: commit R G 1 prism to palette")
    assert RULES.to_act(state) == {"p1", "p2", "p3"}
    seen = RULES.observe(state, viewer)["players"]["p1"]
    assert seen["palette"] == {"motes": {"R": 1, "G": 1}, "prisms": 1}
    assert RULES.shown_notation(RULES.parse("commit R G 1 prism to palette"), "p1", viewer) == (
        "commit R G 1 prism to palette"
    )


def test_px_i_9_px_i_15_the_auction_comes_before_the_final_round_not_after_it() -> None:
    """The round that reaches the goal still ends with the starter-token auction (PX-I.9), so
    its winner starts the final round and pays; the final round ends at its last pass, with
    no auction (PX-I.15)."""
    state = table(variants={"starter_token": "auction"}, palette="R R", prisms=2)
    state = msgspec.structs.replace(state, table=msgspec.structs.replace(state.table, goal=1))
    state = play(state, ["p1: create Ember Spark", "p1: decline", "p1: pass"])
    state = play(state, ["p2: pass", "p3: pass", "p1: reveal Comet Trail"])
    assert (state.step, state.final_round) == ("auction", 2)
    state = play(state, ["p1: bid 2", "p2: bid 0", "p3: forgo"])
    assert (state.starter, state.round, player(state, "p1").prisms) == ("p1", 2, 0)
    state = pass_round(state)  # p2 and p3 level on everything: the colours judgement is next
    assert (state.step, state.auction, player(state, "p1").prisms) == ("colours", None, 0)

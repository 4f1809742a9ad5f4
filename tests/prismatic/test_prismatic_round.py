"""Steps 1 and 2: the simultaneous draw and commit (PX-3, PX-4), and entries out of step."""

from __future__ import annotations

from tests.prismatic.helpers import RULES, act, assert_illegal, edit, ms, play, player, started


def test_px_3_1_a_round_runs_draw_commit_resolve_end() -> None:
    state = started(2)
    steps = [state.step]
    state = play(state, ["p1: draw R R G G B", "p2: draw R R G G B"])
    steps.append(state.step)
    state = play(state, ["p1: pass", "p2: pass"])
    steps.append(state.step)
    state = play(state, ["p1: pass", "p2: pass"])
    assert steps == ["draw", "commit", "resolve"]
    assert (state.step, state.round, state.starter) == ("draw", 2, "p2")


def test_px_3_2_ref_1_5_draws_are_simultaneous_and_accepted_in_any_order() -> None:
    state = started(3)
    assert RULES.to_act(state) == {"p1", "p2", "p3"}
    state = act(state, "p3: draw R R R K K")
    assert RULES.to_act(state) == {"p1", "p2"}
    assert state.step == "draw"
    assert_illegal(state, "p3: draw G G B B W", "REF-1.2")
    state = act(state, "p1: draw C M W K B")
    assert player(state, "p1").hand == ms("B C M W K")
    assert player(state, "p1").bag == ms("R R G G B")
    state = act(state, "p2: draw Y Y R R G")
    assert state.step == "commit"


def test_px_3_2_five_motes_are_drawn_from_a_full_bag() -> None:
    state = started(2)
    assert_illegal(state, "p1: draw R R G G", "PX-3.2", "holds 10 motes, so 5 are drawn, not 4")
    assert_illegal(state, "p1: draw R R G G B B", "PX-3.2", "not 6")


def test_px_3_3_a_short_bag_is_drawn_empty() -> None:
    state = edit(started(2), "p1", bag="R G W")
    assert_illegal(state, "p1: draw R G", "PX-3.3", "holds 3 motes, so 3 are drawn")
    state = act(state, "p1: draw R G W")
    assert not player(state, "p1").bag
    assert player(state, "p1").hand == ms("R G W")


def test_px_3_4_an_empty_bag_takes_back_committed_motes_first_but_not_prisms() -> None:
    state = edit(
        started(2),
        "p1",
        bag="",
        palette="R R",
        palette_prisms=2,
        progress=[("Noon Blaze", "Y", 1)],
        creation=[("Glass Kiln", "R G", 0)],
    )
    assert_illegal(state, "p1: draw R R R G", "PX-3.4", "went back into it", "so 5 are drawn")
    state = act(state, "p1: draw R R R G Y")
    p1 = player(state, "p1")
    assert p1.hand == ms("R R R G Y")
    assert not p1.bag
    assert not p1.palette
    assert p1.palette_prisms == 2
    assert p1.progress[0].prisms == 1
    assert not p1.progress[0].motes
    assert not p1.creation[0].motes


def test_px_3_4_px_i_21_a_player_with_no_motes_draws_none() -> None:
    # PX-3.4 covers a player with no motes at all (it used to cite PX-3.5 and speak of
    # "the 0 motes committed" going back into the bag)
    state = edit(started(2), "p1", bag="", progress=[("Noon Blaze", "", 1)])
    reason = assert_illegal(state, "p1: draw R", "PX-3.4", "no motes at all", "'draw none'")
    assert "0 motes" not in reason
    state = act(state, "p1: draw none")
    assert player(state, "p1").done
    assert_illegal(started(2), "p1: draw none", "PX-3.2", "not 0")


def test_px_3_5_a_draw_naming_motes_the_bag_lacks_is_rejected() -> None:
    """The reason says how many the draw names beyond the bag: 'holds 2 red; cannot give 1
    red' for a draw of three red read to a referee as if the bag lacked a red it holds."""
    state = started(2)
    assert_illegal(
        state, "p1: draw Y R R G G", "PX-3.5", "holds 2 red", "names 1 yellow more than that"
    )
    assert_illegal(state, "p1: draw R R R G G", "PX-3.5", "names 1 red more than that")


def test_px_4_1_commit_to_own_palette_progress_and_creation_cards_then_pass() -> None:
    state = edit(started(2), "p1", creation=["Glass Kiln"])
    state = play(state, ["p1: draw R R C M W", "p2: draw R R G G B"])
    state = play(
        state,
        [
            "p1: commit R 1 prism to palette",
            "p1: commit C to Noon Blaze",
            "p1: commit R to Glass Kiln",
        ],
    )
    p1 = player(state, "p1")
    assert (p1.palette, p1.palette_prisms, p1.prisms) == (ms("R"), 1, 0)
    assert p1.progress[0].motes == ms("C")
    assert p1.creation[0].motes == ms("R")
    assert p1.hand == ms("M W")
    assert RULES.to_act(state) == {"p1", "p2"}
    state = act(state, "p1: pass")
    assert RULES.to_act(state) == {"p2"}


def test_px_4_1_nothing_goes_to_another_players_cards() -> None:
    state = play(started(2), ["p1: draw R R C M W", "p2: draw R R G G B"])
    assert_illegal(state, "p1: commit R to Glass Kiln", "PX-4.1", "in p2's progress area")
    assert_illegal(state, "p1: commit R to Eclipse", "PX-4.1", "discard pile")
    assert_illegal(state, "p1: commit R to Nowhere Card", "PX-15.2")


def test_px_4_2_only_drawn_motes_and_held_prisms() -> None:
    state = play(started(2), ["p1: draw R R C M W", "p2: draw R R G G B"])
    assert_illegal(state, "p1: commit G to palette", "PX-4.2", "cannot be committed")
    assert_illegal(state, "p1: commit R R R to palette", "PX-4.2", "1 red")
    assert_illegal(state, "p1: commit 2 prisms to palette", "PX-4.2", "holds 1 prism, not 2")
    state = act(state, "p1: commit R R to palette")
    assert_illegal(state, "p1: commit R to palette", "PX-4.2", "cannot be committed")


def test_px_4_3_uncommitted_motes_go_back_to_the_bag_on_pass() -> None:
    state = play(
        started(2), ["p1: draw R R C M W", "p2: draw R R G G B", "p1: commit R to palette"]
    )
    bag_before = player(state, "p1").bag
    state = act(state, "p1: pass")
    assert player(state, "p1").bag == bag_before.plus(ms("R C M W"))
    assert not player(state, "p1").hand


def test_px_4_4_commitments_stay_into_later_rounds() -> None:
    state = play(
        started(2),
        [
            "p1: draw R R C M W",
            "p2: draw R R G G B",
            "p1: commit R C to Noon Blaze",
            "p1: commit M to palette",
            "p1: pass",
            "p2: pass",
            "p1: pass",
            "p2: pass",
        ],
    )
    assert state.round == 2
    p1 = player(state, "p1")
    assert p1.progress[0].motes == ms("R C")
    assert p1.palette == ms("M")


def test_px_i_4_commitments_for_a_common_card_go_on_the_palette() -> None:
    state = play(started(2), ["p1: draw R R C M W", "p2: draw R R G G B"])
    assert_illegal(
        state,
        "p1: commit R to Ember Spark",
        "PX-I.4",
        "common card and holds nothing: what is meant for it goes on p1's palette",
    )
    assert_illegal(
        state, "p1: commit R to Glass Kiln", "PX-4.1", "commits motes and prisms only to their own"
    )


def test_px_i_20_any_mote_may_go_on_any_own_card() -> None:
    state = edit(started(2), "p1", creation=["Glass Kiln"])
    state = play(state, ["p1: draw R R C M W", "p2: draw R R G G B"])
    state = act(state, "p1: commit W to Glass Kiln")  # Glass Kiln's ability takes red only
    state = act(state, "p1: commit M to Noon Blaze")  # Noon Blaze needs R Y
    assert player(state, "p1").creation[0].motes == ms("W")


def test_px_15_4_an_entry_belongs_to_its_step() -> None:
    state = started(2)
    assert_illegal(
        state, "p1: commit R to palette", "PX-15.4", "step 1, the draw", "step 2, committing"
    )
    assert_illegal(state, "p1: create Ember Spark", "PX-15.4", "step 3, resolving")
    assert_illegal(state, "p1: pass", "PX-15.4")
    assert_illegal(state, "p1: bid 1", "PX-15.4", "auction")
    state = play(state, ["p1: draw R R C M W", "p2: draw R R G G B"])
    assert_illegal(state, "p1: draw R R G G B", "PX-15.4", "step 2")
    assert_illegal(state, "p1: reveal Eclipse", "PX-15.4", "refilled")
    assert_illegal(state, "p1: colours p1>p2", "PX-15.4")

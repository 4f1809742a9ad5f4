"""Rule-by-rule audit findings: cases the random hunts cannot reach (a pull right after a
gain, sealed refusals), each test citing the clause it checks."""

from __future__ import annotations

import pytest

from tests.prismatic.helpers import act, assert_illegal, ms, play, player, table

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

"""Perft: counts of legal action sequences, the engine against the independent reference.

``fixtures/prizmik/perft.json`` holds counts from position lines (PZ-9.5) under the
table's variants: the start under every table of ``oracle.TABLES`` and a score of positions
chosen for what they exercise (each entry says what), all counted by the reference model
``tests/prizmik/reference.py``, which imports nothing of the project
(``python -m tests.prizmik.build_fixtures`` writes the file). Each test counts again with
the reference and with the engine through its public API (``read_position``,
``legal_actions``, ``apply``) and wants both to equal the table; when the engine is off it
names the first line of play where the two part ways. Counts of more than
``FAST_LEAVES`` leaves take seconds in the reference and are marked slow.

Hand check of the opening (default files c, e, g; PZ-3.3, PZ-4.1, PZ-10.1):

* Depth 1 = 9. Red's only pieces are the full fleets on c1, e1 and g1. A full
  fleet cannot move (PZ-5.1) or capture (PZ-10.9); it deploys one step left,
  right or forward (PZ-4.1, PZ-10.12), and all of b1, d1, c2, d1, f1, e2, f1,
  h1, g2 are empty: 3 fleets x 3 squares = 9 (d1 and f1 appear twice, once
  from each neighbouring fleet, as different actions).
* Depth 2 = 81. Whatever red did, only rank 2 or less changed, so each of
  blue's three fleets on rank 8 still has its three empty targets: 9 x 9.
* Depth 3 = 1071 = 9 x 119. Blue's first action never touches red's pieces, so
  depth 3 is 9 times the sum, over red's nine openings, of red's action count
  afterwards. After c1>c2: the stack on c2 has 7 empty neighbours (all but c1),
  3 two-step moves (a2, e2, c4; the way back is off the board), 3 fighter
  deploys (b2, d2, c3; c1 is taken), plus 3 + 3 deploys from e1 and g1 = 19.
  Likewise e1>e2 gives 19; g1>g2 gives 18 (only e2 and g4 as two-step moves,
  since the board ends at the h-file). c1>b1 gives 13 (b1 stack: 4 steps, 1
  jump to b3, 2 deploys a1/b2; fleets 3 + 3). c1>d1, e1>d1, e1>f1, g1>f1 and
  g1>h1 give 10 each (the stack is hemmed in on rank 1 and one fleet loses a
  target). 19 + 19 + 18 + 13 + 5 x 10 = 119.
* Depth 4 = 14161 = 119 x 119, since after two actions each neither side can
  reach the other (red stays on ranks 1-4, blue on ranks 5-8).

With setup_files=abc the fleets crowd each other: a1 can only go forward (b1
is occupied), b1 only forward (a1 and c1 are occupied), c1 to d1 or c2: depth 1
is 1 + 1 + 2 = 4, and depth 2 is 4 x 4 = 16. With setup_files=bdf every fleet
again has three free targets: 9 and 81.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.games.prizmik import PrizmikState
from tests.prizmik import reference as ref
from tests.prizmik.helpers import RULES, setup, start
from tests.prizmik.oracle import (
    TABLES,
    divergence,
    engine_perft,
    perft_table,
    reference_perft,
    start_name,
    table_of,
)

POSITIONS = perft_table()
FAST_LEAVES = 20_000
"""Counts up to this many leaves take the reference well under a second; more, seconds."""


def both(entry: dict[str, Any]) -> tuple[PrizmikState, ref.Position]:
    """The entry's position as the engine reads it and as the reference does."""
    variants = entry["variants"]
    state = RULES.read_position(entry["line"], setup(**variants))
    return state, ref.read_line(entry["line"], table_of(variants))


def cases() -> list[Any]:
    """One case per stored count, the costly ones marked slow."""
    out = []
    for name, entry in POSITIONS.items():
        for depth, count in entry["perft"].items():
            marks = [pytest.mark.slow] if count > FAST_LEAVES else []
            out.append(pytest.param(name, int(depth), id=f"{name}-{depth}", marks=marks))
    return out


@pytest.mark.parametrize(("name", "depth"), cases())
def test_pz_9_5_engine_perft_matches_the_reference(name: str, depth: int) -> None:
    """PZ-4 to PZ-8 and PZ-10 through counts: the reference's count, counted again, is the
    table's, and the engine's is too."""
    entry = POSITIONS[name]
    expected = entry["perft"][str(depth)]
    state, model = both(entry)
    assert reference_perft(model, depth) == expected, "the table is stale: rebuild it"
    if engine_perft(state, depth) != expected:
        pytest.fail(f"{name} depth {depth}: {divergence(state, model, depth)}")


def test_pz_3_every_table_s_start_is_in_the_perft_table() -> None:
    """The table's start lines are the engine's starts (PZ-3.3, PZ-10.1), under every
    variant set of the differential tests, and every PZ-10 variant switch has an entry away
    from its default."""
    for variants in TABLES:
        entry = POSITIONS[start_name(variants)]
        assert RULES.position_text(start(**variants)) == entry["line"]
    switched = {k for entry in POSITIONS.values() for k in entry["variants"]}
    assert switched == {o.key for o in RULES.variant_options}


def test_a_divergence_names_the_line_of_play_where_the_counts_part() -> None:
    """The failure message of a perft test points at a line of play: here the engine under
    far_rank_step=yes against the reference under far_rank_step=no (PZ-10.5), which part
    when red's fighter steps from a8 to b8."""
    entry = POSITIONS["far-rank step"]
    state = both(entry)[0]
    model = ref.read_line(entry["line"], table_of({"far_rank_step": "no"}))
    assert engine_perft(state, 2) != reference_perft(model, 2)
    found = divergence(state, model, 2)
    assert found is not None
    assert found.startswith("a8-b8, then engine ")


@pytest.mark.parametrize("variants", TABLES, ids=lambda v: ",".join(v.values()) or "default")
def test_pz_10_every_position_under_every_table_two_deep(variants: dict[str, str]) -> None:
    """Every position of the table under every variant set, two actions deep, engine against
    the reference (the table stores each under one or two sets only)."""
    for entry in POSITIONS.values():
        state, model = both({**entry, "variants": {**entry["variants"], **variants}})
        found = divergence(state, model, 2)
        assert found is None, f"{entry['name']} under {variants}: {found}"


def test_pz_4_1_perft_hand_counts_match_the_table() -> None:
    assert POSITIONS["start"]["perft"]["1"] == 9
    assert POSITIONS["start"]["perft"]["2"] == 81
    assert POSITIONS["start"]["perft"]["3"] == 9 * 119
    assert POSITIONS["start"]["perft"]["4"] == 119 * 119
    assert POSITIONS["start setup_files=abc"]["perft"]["1"] == 4
    assert POSITIONS["start setup_files=abc"]["perft"]["2"] == 16
    bdf = POSITIONS["start setup_files=bdf fleet_capturable=no waiting_promotion=yes"]
    assert bdf["perft"]["1"] == 9
    assert bdf["perft"]["2"] == 81


def test_pz_4_1_red_action_counts_after_each_opening() -> None:
    """The per-opening counts used in the hand check above, by the reference."""
    counts = {}
    for opening in sorted(ref.actions(ref.start())):
        after = ref.play(ref.start(), opening)
        reply = sorted(ref.actions(after))[0]
        counts[opening] = len(ref.actions(ref.play(after, reply)))
    assert counts == {
        "c1>b1": 13,
        "c1>d1": 10,
        "c1>c2": 19,
        "e1>d1": 10,
        "e1>f1": 10,
        "e1>e2": 19,
        "g1>f1": 10,
        "g1>h1": 10,
        "g1>g2": 18,
    }


def test_pz_6_1_the_tactical_positions_hold_every_kind_of_action() -> None:
    """Deploys, moves and captures are all legal there (PZ-4, PZ-5, PZ-6), so its counts
    test all three."""
    for turn in ("red", "blue"):
        model = both(POSITIONS[f"tactical, {turn} to act"])[1]
        assert {t[2] for t in ref.actions(model)} == {">", "-", "x"}


def test_pz_8_the_ending_positions_end_as_their_entries_say() -> None:
    """The positions chosen near an ending do reach it within their stored depth, so their
    counts test the ending and not only the moves (PZ-8.1, PZ-8.2, PZ-10.6, PZ-10.11,
    PZ-10.13), and the two read as over count nothing (PZ-10.16, PZ-10.8)."""
    reached = {
        "last base": ("d7xd8", ("win", "red", "PZ-8.1")),
        "last ship": ("f4xe4", ("win", "blue", "PZ-8.2")),
        "no legal action": ("c7-b7", ("win", "blue", "PZ-10.6")),
        "no legal action, no_legal_action=draw": ("c7-b7", ("draw", None, "PZ-10.6")),
        "closed files, impossible_test=files": ("f4xe4", ("draw", None, "PZ-10.13")),
        "closed files": ("f4xe4", None),
    }
    for name, (text, ended) in reached.items():
        assert ref.play(both(POSITIONS[name])[1], text).ended == ended, name
    quiet = both(POSITIONS["mid-game, quiet limit two actions away"])[1]
    quiet = ref.play(ref.play(quiet, "a7-a6"), "c5-b5")
    assert quiet.ended == ("draw", None, "PZ-10.11")
    assert both(POSITIONS["over when read: no base"])[1].ended == ("win", "red", "PZ-8.1")
    drawn = both(POSITIONS["over when read: neither can take a base"])[1]
    assert drawn.ended == ("draw", None, "PZ-10.8")


def test_pz_7_the_promotion_positions_promote_as_their_entries_say() -> None:
    """Promotion by a move, a capture and a deploy (PZ-7.1), along the far rank only by
    default (PZ-10.5) and by a waiting fighter only under waiting_promotion=yes (PZ-10.15)."""

    red = "promotions, red to act"
    for text in ("d7-d8", "d7xe8", "a7>a8"):
        after = ref.play(both(POSITIONS[red])[1], text)
        assert after.reserves == (1, 1), text
    blue = "promotions, blue to act"
    for text in ("e2-d1", "h2>h1"):
        assert ref.play(both(POSITIONS[blue])[1], text).reserves == (2, 0), text
    assert ref.play(both(POSITIONS["far-rank step"])[1], "a8-b8").reserves == (0, 1)
    step_no = "far-rank step, far_rank_step=no"
    assert ref.play(both(POSITIONS[step_no])[1], "a8-b8").reserves == (1, 1)
    waiting = both(POSITIONS["waiting fighters, waiting_promotion=yes"])[1]
    after = ref.play(waiting, "d1-d2")  # red's own ship leaves d1: d8 comes home
    assert (after.reserves, after.pieces[(3, 1)], (3, 8) in after.pieces) == (
        (1, 2),
        ("red", "fleet"),
        False,
    )
    after = ref.play(ref.play(waiting, "c1>b1"), "e1-e2")  # blue's ship leaves e1: e8 too
    assert (after.reserves, after.pieces[(4, 1)]) == ((1, 2), ("red", "fleet"))
    assert ref.play(both(POSITIONS["waiting fighters"])[1], "d1-d2").reserves == (2, 2)

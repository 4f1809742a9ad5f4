"""Seats, setup, variants and presentation of PRIZMIK (PZ-1, PZ-2.1, PZ-3, PZ-10.1)."""

from __future__ import annotations

import json

import msgspec
import pytest

from referee.contract import Player, Setup
from referee.errors import SetupError, VariantError
from referee.games.prizmik import PrizmikState
from tests.prizmik.helpers import RULES, act, play, pos, setup, square, start


def test_pz_1_1_two_seats_red_and_blue() -> None:
    assert RULES.seats == ("red", "blue")
    assert RULES.rulesets == ("prizmik/1",)
    with pytest.raises(SetupError):
        RULES.resolve_setup(Setup(players=(Player(seat="red", name="a"),)))
    with pytest.raises(SetupError):
        RULES.resolve_setup(
            Setup(players=(Player(seat="red", name="a"), Player(seat="green", name="b")))
        )


def test_pz_1_2_red_acts_first_then_turns_alternate() -> None:
    state = start()
    assert RULES.to_move(state) == "red"
    state = play(state, ["c1>c2"])
    assert RULES.to_move(state) == "blue"
    assert state.ply == 1
    state = play(state, ["c8>c7"])
    assert RULES.to_move(state) == "red"
    assert state.ply == 2


def test_pz_1_2_blue_cannot_act_on_reds_turn() -> None:
    v = RULES.check(start(), act("c8>c7"))
    assert not v.legal
    assert v.violations[0].clause == "PZ-1.4"


def test_pz_2_1_each_player_owns_six_of_each_shape() -> None:
    state = start()
    for side, letter in ((0, "F"), (1, "f")):
        fleets = state.board.count(letter)
        # every full fleet holds one base, one ship and one fighter
        assert fleets + state.reserves[side] == 6
        assert state.bases[side] == 3
        assert state.ships[side] == 3
        assert state.fighters[side] == 0


def test_pz_3_1_squares_are_named_a1_to_h8() -> None:
    names = [RULES.notation(act(f"a1-{f}{r}")).split("-")[1] for r in "18" for f in "ah"]
    assert names == ["a1", "h1", "a8", "h8"]
    assert act("a1-h8").origin == 0
    assert act("a1-h8").target == 63


def test_pz_3_2_forward_is_toward_the_opponent_for_each_side() -> None:
    red = {RULES.notation(a) for a in RULES.legal_actions(start())}
    assert "c1>c2" in red
    assert "c1>c0" not in red
    blue_state = play(start(), ["e1>e2"])
    blue = {RULES.notation(a) for a in RULES.legal_actions(blue_state)}
    assert "c8>c7" in blue
    assert not any(t.endswith("9") for t in blue)


def test_pz_3_3_and_pz_10_1_three_full_fleets_on_files_c_e_g() -> None:
    state = start()
    assert state.board[:8] == "..F.F.F."
    assert state.board[56:] == "..f.f.f."
    assert set(state.board[8:56]) == {"."}
    assert RULES.observe(state)["board"] == {
        "c1": "red full fleet",
        "e1": "red full fleet",
        "g1": "red full fleet",
        "c8": "blue full fleet",
        "e8": "blue full fleet",
        "g8": "blue full fleet",
    }


def test_pz_3_4_three_reserve_fleets_each_off_the_board() -> None:
    state = start()
    assert state.reserves == (3, 3)
    assert state.board.count("F") == 3


def test_pz_10_1_variant_setup_files_moves_the_starting_fleets() -> None:
    state = start(setup_files="bdf")
    assert state.board[:8] == ".F.F.F.."
    assert state.board[56:] == ".f.f.f.."
    assert state.variants.setup_files == "bdf"


@pytest.mark.parametrize("raw", ["GCE", "g,c,e", " e c g "])
def test_pz_10_1_setup_files_is_normalised(raw: str) -> None:
    assert RULES.resolve_variants({"setup_files": raw})["setup_files"] == "ceg"


@pytest.mark.parametrize("bad", ["ce", "cegh", "cce", "cei", "c1e", ""])
def test_pz_10_1_setup_files_rejects_bad_values(bad: str) -> None:
    with pytest.raises(VariantError, match=r"\(PZ-10\.1\)"):
        RULES.resolve_variants({"setup_files": bad})
    with pytest.raises(VariantError):
        start(setup_files=bad)


def test_variants_defaults_and_validation() -> None:
    assert RULES.resolve_variants({}) == {
        "setup_files": "ceg",
        "fleet_capturable": "yes",
        "no_legal_action": "loss",
        "quiet_limit": "off",
        "far_rank_step": "yes",
        "impossible_test": "pieces",
        "waiting_promotion": "no",
    }
    with pytest.raises(VariantError, match=r"yes, no \(PZ-10\.3\)"):
        RULES.resolve_variants({"fleet_capturable": "maybe"})
    with pytest.raises(VariantError, match=r"\(PZ-10\.6\)"):
        RULES.resolve_variants({"no_legal_action": "pass"})
    with pytest.raises(VariantError, match=r"\(PZ-10\.11\)"):
        RULES.resolve_variants({"quiet_limit": "-3"})
    with pytest.raises(VariantError):
        RULES.resolve_variants({"no_such_switch": "1"})
    assert RULES.resolve_variants({"quiet_limit": "040"})["quiet_limit"] == "40"
    with pytest.raises(VariantError, match=r"1 to .*\(PZ-10\.11\)"):  # 0 is no limit: say off
        RULES.resolve_variants({"quiet_limit": "0"})
    assert RULES.resolve_variants({"quiet_limit": "OFF"})["quiet_limit"] == "off"


def test_resolved_setup_round_trips_through_the_state() -> None:
    resolved = RULES.resolve_setup(
        Setup(
            players=(Player(seat="blue", name="b"), Player(seat="red", name="r")),
            variants={"setup_files": "fdb", "fleet_capturable": "no"},
        )
    )
    assert [p.seat for p in resolved.players] == ["red", "blue"]
    state = RULES.initial_state(resolved)
    assert state.variants.as_dict() == resolved.variants
    assert state.variants.fleet_capturable is False


def test_unknown_ruleset_is_refused() -> None:
    with pytest.raises(SetupError):
        RULES.initial_state(
            Setup(
                players=(Player(seat="red", name="r"), Player(seat="blue", name="b")),
                ruleset="prizmik/9",
            )
        )


def test_state_and_action_survive_json() -> None:
    state = play(start(), ["c1>c2", "e8>e7", "c2>c3"])
    data = msgspec.json.encode(state)
    assert msgspec.json.decode(data, type=PrizmikState) == state
    action = act("c2-c4")
    assert json.loads(msgspec.json.encode(action)) == {"kind": "move", "origin": 10, "target": 26}
    assert str(action) == "c2-c4"


def test_render_draws_labels_legend_reserves_and_turn() -> None:
    text = RULES.render(start())
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefgh")
    assert lines[1].split() == ["8", ".", ".", "f", ".", "f", ".", "f", ".", "8"]
    assert lines[8].split() == ["1", ".", ".", "F", ".", "F", ".", "F", ".", "1"]
    assert "F full fleet" in text
    assert "X lone fighter" in text
    assert "H lone ship" in text
    assert "Reserve fleets: red 3, blue 3" in text
    assert "Ply 0." in text
    assert "to move" not in text
    assert "\x1b" not in text


def test_render_shows_result_and_changed_variants() -> None:
    state = pos({"c1": "B", "d2": "S", "c8": "b", "e8": "s"}, fleet_capturable="no")
    text = RULES.render(play(state, ["d2-d3"]))
    assert "Ply 1." in text
    assert "fleet_capturable=no" in text
    won = play(pos({"e1": "B", "a3": "S", "d8": "b", "e2": "s"}), ["a3-a4", "e2xe1"])
    text = RULES.render(won)
    assert "Result: blue wins by PZ-8.1" in text
    assert "Ply 2" in text


def test_describe_is_json_ready() -> None:
    state = play(start(), ["c1>c2"])
    data = RULES.observe(state)
    json.dumps(data)
    assert data["to_move"] == "blue"
    assert data["ply"] == 1
    assert data["reserves"] == {"red": 3, "blue": 3}
    assert data["board"]["c1"] == "red base"
    assert data["board"]["c2"] == "red ship stack"
    assert data["variants"]["setup_files"] == "ceg"
    assert data["result"] == "*"


def test_position_builder_rejects_bad_input() -> None:
    """Every refusal of a hand-built position names the clause it breaks."""
    with pytest.raises(SetupError, match=r"\(PZ-3\.1\)"):
        pos({"z9": "F"})
    with pytest.raises(SetupError, match=r"\(PZ-9\.5\)"):
        pos({"c1": "Q"})
    with pytest.raises(SetupError, match=r"\(PZ-9\.5\)"):
        pos("........\n........")
    with pytest.raises(SetupError, match=r"\(PZ-1\.1\)"):
        pos({"c1": "F"}, turn="green")
    with pytest.raises(SetupError, match=r"\(PZ-9\.5\)"):
        pos({"c2": "H", "c7": "x"})  # nobody has a base
    with pytest.raises(SetupError, match=r"\(PZ-3\.4\)"):
        pos({"c1": "F", "c8": "f"}, reserves=(-1, 3))
    diagram = pos(
        """
        8 . . f . . . . .
        7 . . . . . . . .
        6 . . . . . . . .
        5 . . . . . . . .
        4 . . . . . . . .
        3 . . . . . . . .
        2 . . . . . . . .
        1 . . F . . . . .
          a b c d e f g h
        """
    )
    assert square(diagram, "c1") == "F"
    assert square(diagram, "c8") == "f"


# -- PZ-2.1 / PZ-3.4: no position holds more pieces than the box -------------------------


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("2f1f1f1/8/8/8/8/8/8/2F1F1F1 r 3/3 0 0", "the start: 3 fleets out, 3 in reserve"),
        ("2f1f1f1/8/8/8/8/8/8/FFFFFF2 r 0/3 0 0", "all six red fleets on the board"),
        ("2f1f1f1/8/8/8/XXXX4/HHHH4/8/BBBBFF2 r 0/3 0 0", "six of each, mostly lone"),
        ("4b3/8/8/8/8/8/2SS4/2F1F1F1 r 1/0 0 0", "six fighters, two in stacks, one reserve"),
    ],
)
def test_pz_2_1_a_position_within_the_pieces_provided_is_read(text: str, why: str) -> None:
    state = RULES.read_position(text, setup())
    assert RULES.position_text(state) == text, why


@pytest.mark.parametrize(
    ("text", "clause", "fragment"),
    [
        # seven bases: lone bases and fleets on the board, reserves counted as fleets
        ("2f1f1f1/8/8/8/8/8/8/BBBBBBB1 r 0/3 0 0", "PZ-2.1", "red would have 7 bases"),
        ("2f1f1f1/8/8/8/8/8/8/FFFF4 r 3/3 0 0", "PZ-2.1", "red would have 7 bases"),
        # seven ships: lone ships and ships nested in stacks and fleets
        ("2f1f1f1/8/8/8/8/8/HHHHHH2/2F5 r 0/3 0 0", "PZ-2.1", "red would have 7 ships"),
        ("2f1f1f1/8/8/8/8/8/SSSS4/2F1F3 r 1/3 0 0", "PZ-2.1", "red would have 7 ships"),
        # seven fighters: lone fighters and fighters nested in stacks and fleets
        ("2f1f1f1/8/8/8/8/8/XXXX4/2F1F1F1 r 0/3 0 0", "PZ-2.1", "red would have 7 fighters"),
        ("2f1f1f1/8/8/8/8/X7/X7/2F1F1F1 r 3/3 0 0", "PZ-2.1", "red would have 8 fighters"),
        # blue is counted the same way
        ("2f1f1f1/xxxxxxx1/8/8/8/8/8/2F1F1F1 r 3/0 0 0", "PZ-2.1", "blue would have 10 fighters"),
        # more than the three reserve fleets, even with nothing else out
        ("4b3/8/8/8/8/8/8/4B3 r 4/0 0 0", "PZ-3.4", "red is given 4 reserve fleets"),
        ("4b3/8/8/8/8/8/8/4B3 b 0/9 0 0", "PZ-3.4", "blue is given 9 reserve fleets"),
    ],
)
def test_pz_2_1_a_position_string_with_more_pieces_than_provided_is_refused(
    text: str, clause: str, fragment: str
) -> None:
    with pytest.raises(SetupError) as refused:
        RULES.read_position(text, setup())
    assert f"({clause})" in str(refused.value)
    assert fragment in str(refused.value)


def test_pz_2_1_a_hand_built_position_with_more_pieces_than_provided_is_refused() -> None:
    legal = {"e8": "b", "a1": "F", "b1": "F", "c1": "F", "a2": "X", "b2": "X", "c2": "X"}
    assert pos(legal, reserves=(0, 0)).fighters == (3, 0)
    with pytest.raises(SetupError, match=r"red would have 7 fighters .*\(PZ-2\.1\)"):
        pos({**legal, "d2": "S"}, reserves=(0, 0))
    with pytest.raises(SetupError, match=r"red would have 7 bases .*\(PZ-2\.1\)"):
        pos({**legal, "d1": "F"}, reserves=(3, 0))
    with pytest.raises(SetupError, match=r"blue is given 4 reserve fleets.*\(PZ-3\.4\)"):
        pos(legal, reserves=(0, 4))

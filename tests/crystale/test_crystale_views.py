"""What each viewer sees (render, observe, secrets): no view leaks another seat's pool."""

from __future__ import annotations

import json

from tests.crystale.helpers import RULES, fresh, main_phase, play


def _all_views(state: object) -> dict[str, str]:
    return {
        viewer: RULES.render(state, viewer) + json.dumps(RULES.observe(state, viewer))  # type: ignore[arg-type]
        for viewer in ("referee", "public", "p1", "p2")
    }


def test_cr_3_8_no_view_leaks_another_seats_unaccounted_crystals() -> None:
    state = play(main_phase(), "summon Cinderpup @c2", "cast Flame Lance @u2")
    views = _all_views(state)
    for seat in ("p1", "p2"):
        secrets = RULES.secrets(state, seat)
        assert secrets, seat
        for viewer, text in views.items():
            if viewer in ("referee", seat):
                assert all(s in text for s in secrets)
            else:
                assert not [s for s in secrets if s in text], (seat, viewer)
    assert "Kiln Surge" in RULES.secrets(state, "p1")
    assert "Flame Lance" not in RULES.secrets(state, "p1")


def test_cr_12_1_render_draws_the_hex_board_with_hp_and_atk_on_the_tile() -> None:
    state = play(main_phase(tiles="I" * 12 + "F" + "I" * 16), "summon Cinderpup @c2")
    text = RULES.render(state, "public")
    lines = text.splitlines()
    assert lines[0].startswith("            a1:I")
    assert lines[4].startswith("c1:I        c2:F")
    assert "+u3 40/30" in lines[5]
    assert "-u2 3hit" in lines[5]
    assert (
        "u3 p1 Cinderpup (Fire) rank 1 on c2 (Fire tile): HP 40/40, ATK 30 (20 base, +10 tile)"
        in text
    )
    assert "p2: Thalassa Tidecaller: MP 160/140 (+20 bonus)" in text
    assert text.splitlines()[-1] == "Turn 1: p1, Main phase"


def test_observe_reports_the_position_as_data() -> None:
    data = RULES.observe(fresh(), "p1")
    assert data["phase"] == "start"
    assert data["result"] == "*"
    assert data["seats"]["p1"]["registered"]["list"]["Cinderpup"] == 4
    assert "list" not in data["seats"]["p2"]["registered"]
    assert len(data["tiles"]) == 29


def test_cr_12_5_the_public_sees_whether_each_seat_summoned_this_turn() -> None:
    """CR-12.5: a seat's one summon or sacrifice of the turn happened on the board, so every
    viewer sees it for both seats; the rulebook names it among what the public sees."""
    from referee.rulebook import find_clause
    from tests.crystale.helpers import RULES as CRYSTALE
    from tests.crystale.helpers import started

    state = started()
    public = CRYSTALE.observe(state, "public")
    assert {seat: "summoned_this_turn" in data for seat, data in public["seats"].items()} == {
        "p1": True,
        "p2": True,
    }
    assert "summoned_this_turn" in find_clause("CR-12.5", "crystale").text


def test_cr_3_8_a_rejected_entrys_reason_hides_its_crystal_in_a_mirror_match() -> None:
    """CR-3.8: a crystal the actor names in a rejected entry and that is still hidden in its
    pool is kept from the other seat and the public, even when the other seat registered the
    same crystal: that seat knows the crystal exists, not that the actor reached for it."""
    from tests.crystale.helpers import FIRE_POOL, OPENING, judge

    def rejection(decks: object) -> object:
        opening = list(OPENING)
        if decks is not None:
            opening[-1] = ("p2", "show Cinderpup, Cinderpup, Pyrelance Archer")
        state = play(fresh(decks=decks), *opening, "pull")
        (violation,) = judge(state, "cast Sootwing Drake").violations
        return violation

    for decks in (None, {"p1": FIRE_POOL, "p2": FIRE_POOL}):
        violation = rejection(decks)
        assert violation.clause == "CR-7.6"  # type: ignore[attr-defined]
        for viewer in ("p2", "public"):
            seen = violation.for_viewer(viewer).reason  # type: ignore[attr-defined]
            assert "Sootwing Drake" not in seen, (decks is not None, viewer, seen)
        assert "Sootwing Drake" in violation.for_viewer("p1").reason  # type: ignore[attr-defined]


def test_cr_12_5_every_viewer_sees_whether_a_summoner_moved_this_turn() -> None:
    """CR-12.5: whether a unit moved this turn is public, and a Summoner is a unit that moves
    once a turn (CR-I.15), so its move shows like a Servant's."""
    state = play(main_phase(), "move u1 c2")
    for viewer in ("public", "p2"):
        units = {u["id"]: u for u in RULES.observe(state, viewer)["units"]}
        assert (units["u1"]["moved"], units["u2"]["moved"]) == (True, False)

"""Views, the score report, sealed bids and the referee's adjustments (PX-15.5, PX-15.6, PX-9.7)."""

from __future__ import annotations

import json

import msgspec
import pytest

from referee.kit.adjustments import parse_adjustment
from tests.prismatic.helpers import (
    RULES,
    THREE,
    act,
    auction_table,
    edit,
    ms,
    play,
    player,
    resolving,
    scored,
    started,
    started_with,
    verdict,
)

VIEWERS = ("referee", "public", "p1", "p2", "p3")


def test_observe_is_json_ready_and_shows_the_table() -> None:
    state = play(started(3), ["p1: draw R R G G B"])
    data = RULES.observe(state, "public")
    json.dumps(data)
    assert data["step"] == "draw"
    assert data["to_act"] == ["p2", "p3"]
    assert data["players"]["p1"]["drawn"] == {"R": 2, "G": 2, "B": 1}
    assert data["players"]["p1"]["progress"] == [{"card": "Noon Blaze", "motes": {}, "prisms": 0}]
    assert data["commons"] == ["Ember Spark", "Verdant Drop", "Sunset Sky"]
    assert data["deck"] == 33
    assert "deck_cards" in RULES.observe(state, "referee")
    assert "deck_cards" not in data
    assert data["result"] == "*"


def test_render_draws_bags_commitments_areas_pool_and_whose_turn() -> None:
    state = resolving(
        edit(started(3), "p1", palette="R R", pool="Y", creation=["Glass Kiln"]), "p1"
    )
    text = RULES.render(state, "public")
    assert "round 1: step 3: resolve" in text
    assert "to act: p1" in text
    assert "palette: R R" in text
    assert "colour pool: Y" in text
    assert (
        "Glass Kiln [craft, 1 star, needs R K; rewards prism; ability R -> prism] holding nothing"
        in text
    )
    assert "Supply: R18" in text


def test_sealed_bids_are_secret_until_the_round_is_complete() -> None:
    state = auction_table(p1=3, p2=2, p3=5)
    state = act(state, "p1: bid 2")
    secret = RULES.secrets(state, "p1")
    assert secret == {"p1 sealed a bid of 2 prisms"}
    for viewer in ("p1", "referee"):
        assert "p1 sealed a bid of 2 prisms" in RULES.render(state, viewer)
        assert "p1 sealed a bid of 2 prisms" in json.dumps(RULES.observe(state, viewer))
    for viewer in ("public", "p2", "p3"):
        for shown in (RULES.render(state, viewer), json.dumps(RULES.observe(state, viewer))):
            assert not any(s in shown for s in secret), viewer
        assert "bids sealed by: p1" in RULES.render(state, viewer)
    state = play(state, ["p2: bid 2", "p3: bid 1"])
    assert RULES.secrets(state, "p1") == frozenset()
    assert "tied bids standing: p1 2, p2 2" in RULES.render(state, "public")


def test_no_secrets_outside_the_auction() -> None:
    state = started(3)
    assert all(RULES.secrets(state, s) == frozenset() for s in ("p1", "p2", "p3"))


def test_px_15_6_score_report_shows_each_line_and_the_ranking() -> None:
    report = RULES.report(scored(**THREE), "score")
    assert report.name == "score"
    assert "if the game ended now" in report.title
    lines = report.text.splitlines()
    assert lines[0].split() == ["p1", "p2", "p3"]
    assert lines[1].split()[-3:] == ["0", "1", "0"]
    assert lines[1].startswith("first to the goal")
    assert any(
        line.startswith("most prismatic motes") and line.split()[-3:] == ["0", "2", "0"]
        for line in lines
    )
    assert any(line.startswith("total") and line.split()[-3:] == ["4", "8", "6"] for line in lines)
    assert "ranking: p2 > p3 > p1" in report.text
    assert report.data["players"]["p2"]["total"] == 8
    assert report.data["ranking"][0] == {"seat": "p2", "rank": 1, "tied": False}
    json.dumps(report.data)
    with pytest.raises(LookupError, match="score"):
        RULES.report(scored(**THREE), "bank")


def test_px_9_7_px_15_5_a_ruling_is_carried_out_by_resource_changes() -> None:
    state = resolving(edit(started(3), "p1", creation=["Eclipse"], palette="R G", bag=""), "p1")
    assert verdict(state, "p1: use Eclipse").needs_ruling
    state = act(state, "p1: use Eclipse")
    supply = state.supply
    for change in parse_adjustment("resource p1 palette-red -1; resource p1 red +1"):
        assert RULES.check_change(state, change).legal, change
        state = RULES.apply_change(state, change)
    p1 = player(state, "p1")
    assert p1.palette == ms("G")
    assert p1.bag == ms("R")
    assert state.supply == supply


@pytest.mark.parametrize(
    ("text", "clause", "fragment"),
    [
        ("resource p1 prisms -5", "REF-6.3", "has 1 prisms"),
        ("resource p1 gold +1", "PX-15.5", "not a Prismatic resource"),
        ("resource p1 pool-prismatic +1", "PX-15.5", "not a Prismatic resource"),
        ("resource p9 prisms +1", "REF-6.3", "not playing"),
        ("move p1 hand>progress Comet Trail", "PX-15.5", "not a zone"),
        ("move p1 deck>progress", "PX-15.5", "name the card"),
        ("move p1 deck>progress Ember Spark", "REF-6.3", "a common card, not in the deck"),
        ("move p1 progress>discard Glass Kiln", "REF-6.3", "not in p1's progress"),
        ("move p1 deck>common Comet Trail", "REF-6.3", "already holds three"),
        ("move p1 deck>progress Dragon", "PX-15.2", "Dragon"),
        ("stat #1 attack +1", "REF-6.3", "stats"),
        ("draw p1 2", "REF-6.3", "unseen draws"),
    ],
)
def test_px_15_5_changes_that_do_not_fit_are_refused(text: str, clause: str, fragment: str) -> None:
    (change,) = parse_adjustment(text)
    v = RULES.check_change(started(3), change)
    assert not v.legal
    assert v.violations[0].clause == clause
    assert fragment in v.violations[0].reason


def test_px_1_5_px_15_5_an_adjustment_cannot_overdraw_the_supply() -> None:
    state = msgspec.structs.replace(started(3), supply_prisms=1)
    (change,) = parse_adjustment("resource p2 prisms +2")
    (refused,) = RULES.check_change(state, change).violations
    assert (refused.clause, refused.reason) == (
        "PX-1.5",
        "p2 cannot be given 2: the supply's prisms number 1",
    )
    cyan = ms("C" * state.supply.count("C"))
    state = msgspec.structs.replace(state, supply=state.supply.minus(cyan))
    (change,) = parse_adjustment("resource p2 cyan +1")
    (refused,) = RULES.check_change(state, change).violations
    assert refused.reason == "p2 cannot be given 1 cyan: the supply's cyan motes number 0"


def test_px_i_29_with_proxies_an_adjustment_may_give_what_the_supply_lacks() -> None:
    """PX-I.29 (components=proxy): the prisms past the supply's one are proxies; the
    supply stays at zero and takes back what is lost."""
    state = msgspec.structs.replace(started_with(3, {"components": "proxy"}), supply_prisms=1)
    (change,) = parse_adjustment("resource p2 prisms +2")
    assert RULES.check_change(state, change).legal
    state = RULES.apply_change(state, change)
    assert (state.player("p2").prisms, state.supply_prisms) == (3, 0)
    (back,) = parse_adjustment("resource p2 prisms -1")
    assert RULES.apply_change(state, back).supply_prisms == 1


def test_px_15_5_moving_cards() -> None:
    state = edit(started(3), "p1", progress=[("Noon Blaze", "R", 1)], bag="")
    for text in (
        "move p1 progress>discard Noon Blaze",
        "move p1 deck>progress Comet Trail",
        "move p1 discard>creation Eclipse",
    ):
        (change,) = parse_adjustment(text)
        assert RULES.check_change(state, change).legal, text
        state = RULES.apply_change(state, change)
    p1 = player(state, "p1")
    assert [h.name for h in p1.progress] == ["Comet Trail"]
    assert [h.name for h in p1.creation] == ["Eclipse"]
    assert p1.bag == ms("R")
    assert "Noon Blaze" in state.discard
    assert "Comet Trail" not in state.deck


@pytest.mark.parametrize("viewer", VIEWERS)
def test_every_viewer_sees_the_same_open_table(viewer: str) -> None:
    state = play(started(3), ["p1: draw R R G G B"])
    assert RULES.observe(state, viewer)["players"] == RULES.observe(state, "public")["players"]


def test_px_14_1_ref_1_2_a_sealed_bid_out_of_turn_is_not_quoted_to_others() -> None:
    """A bid entered while another seat is to act is refused (REF-1.2); the reason quotes
    the entry for its seat and the referee only, as the record shows it to everyone else."""
    from referee.procedure import judge

    state = started(3, starter="p2", starter_token="auction")
    state = play(state, [f"{seat}: draw R R G G B" for seat in ("p1", "p2", "p3")])
    while len(RULES.to_act(state)) != 1:  # commitments are made together; passes in turn
        state = act(state, f"{sorted(RULES.to_act(state))[0]}: pass")
    (mover,) = RULES.to_act(state)
    actor = next(seat for seat in ("p1", "p2", "p3") if seat != mover)
    verdict = judge(RULES, state, "bid 2", actor).verdict
    (whole,) = verdict.violations
    assert whole.clause == "REF-1.2"
    assert "'bid 2'" in whole.reason
    (shown,) = verdict.for_viewer(mover).violations
    assert "bid 2" not in shown.reason
    assert "'sealed bid' was not recorded" in shown.reason
    assert verdict.for_viewer(actor).violations == (whole,)
    # an entry anyone may see is quoted to everyone
    (plain,) = judge(RULES, state, "pass", actor).verdict.for_viewer(mover).violations
    assert "'pass' was not recorded" in plain.reason


def test_px_14_1_a_stored_refusal_quoting_a_sealed_bid_is_redacted() -> None:
    """A refusal stored before its reason had readers quotes the bid it refused: every
    viewer but its seat and the referee reads the entry as the record shows it."""
    from events.records import redact
    from events.schema import ActionRejected
    from referee.verdicts import Violation
    from tests.stored import stored_rejection

    turn = Violation("REF-1.2", "it is p1's turn, not p2's; 'bid 3' was not recorded")
    old = stored_rejection("prismatic-x", 13, 12, "p2", "bid 3", turn)
    for viewer in ("public", "p1"):
        seen = redact(old, viewer, RULES)
        assert isinstance(seen, ActionRejected)
        assert seen.text == "sealed bid"
        assert "3" not in seen.violations[0].reason
        assert seen.violations[0].reason.endswith("'sealed bid' was not recorded")
    assert redact(old, "p2", RULES) == old


def test_px_14_1_still_sealed_while_the_round_is_open() -> None:
    """The latest bid of each seat that has bid is sealed while its round is open; once
    every bid is in, none is (PX-14.1)."""
    state = auction_table(p1=3, p2=2, p3=5)
    assert RULES.seals_entries
    assert RULES.still_sealed(state) == {}
    state = play(state, ["p1: bid 2", "p3: bid 2"])
    assert RULES.still_sealed(state) == {"p1": 1, "p3": 1}
    state = act(state, "p2: bid 1")  # a tie between p1 and p3: they bid again
    assert state.step == "auction"
    assert RULES.still_sealed(state) == {}
    state = act(state, "p1: forgo")
    assert RULES.still_sealed(state) == {"p1": 1}


@pytest.mark.parametrize("viewer", VIEWERS)
def test_px_i_25_discarded_cards_are_face_up_for_every_viewer(viewer: str) -> None:
    """The card each player dropped at setup is named in the entry and the discard pile that
    every viewer sees; only the deck's order stays unknown (the referee alone has its list)."""
    state = started(3)
    keep = RULES.parse("keep Noon Blaze, discard Moonrise")
    assert RULES.shown_notation(keep, "p1", viewer) == "keep Noon Blaze, discard Moonrise"
    seen = RULES.observe(state, viewer)
    assert {"Moonrise", "Eclipse", "Starfield"} <= set(seen["discard"])
    assert ("deck_cards" in seen) == (viewer == "referee")


def test_px_i_17_the_drawing_shows_the_order_of_reaching_the_goal_not_a_round() -> None:
    """``reached_goal`` is the order in which players reached the goal (PX-I.17): p2 reached
    it first, in round 3, and the drawing must not say round 1."""
    from referee import drawings

    state = msgspec.structs.replace(edit(started(3), "p2", reached=1), round=3, reached=1)
    svg = drawings.draw(
        "prismatic",
        RULES.observe(state, "public"),
        viewer="public",
        players={"p1": "Ann", "p2": "Ben", "p3": "Cy"},
    )
    assert "reached the goal 1st" in svg
    assert "reached in round" not in svg

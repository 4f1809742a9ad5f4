"""Games recorded before a rules default changed keep the rules they were recorded under.

``fixtures/legacy-rules/`` holds a store, text exports and ``show --json`` views written by
the code of commit 44eb385 (see its README): a Gammasphere card refused for want of a target
(GS-I.32 since made ``no_target=play`` the default), a Prismatic goal above the catalog's
cards (PX-I.30 since refuses it and ends a game whose goal is out of reach) and a PRIZMIK game
started from a position string with two runs of empty squares side by side (PZ-9.5 since
refuses it); a Prismatic auction whose first-round forgo was refused (PX-I.32 since makes it no
bid) and a Prismata breach that hit a fragile unit twice, took its damage back and was refused
the undo of a click (PM-I.23 since counts the unit once, which allows it); a Gammasphere
character refused its own number as its arrival effect's target under GS-1.3 (GS-I.33 since
states that reading, and its refusal still cites GS-1.3). A Crystale game written by the
code of commit aa5b1af^ pulls a crystal by name out of a pool just refilled by a reshuffle,
though the Higher Plane shuffled in lacked it, and was refused a fifth Cinderpup after two
shown ones went back unseen (CR-I.36 since has what the referee knows follow crystals out
of sight, which refuses the first and allows the second). A game's creation
event holds every variant switch of its time, so a switch it lacks was offered only later: it
plays the switch's ``absent`` value, the rules of that time, and so does a position string the
game started from (its ``table`` lacks the switch too).
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from events.store import GameStore
from referee import games
from service import RefereeService
from tests.stored import service_over_a_copy

OLD = Path(__file__).resolve().parent.parent / "fixtures" / "legacy-rules"
DUEL, GOAL, POSITION = "gammasphere-as83muvr", "prismatic-72bqwetm", "prizmik-dsx7xshq"
AUCTION, BREACH, ARRIVAL = "prismatic-tfjdwf55", "prismata-k73mzt4b", "gammasphere-2vmaduck"
RESHUFFLE = "crystale-rg3t5kcm"
GAMES = (DUEL, GOAL, POSITION, AUCTION, BREACH, ARRIVAL, RESHUFFLE)
ADDED_SINCE = {
    "no_target",
    "self_target",
    "weapon_carriers",
    "goal_reach",
    "waiting_promotion",
    "opening_forgo",
    "breach",
    "health_cost",
    "made",
    "breach_tally",
    "attacks",
    "knowledge",
    "attacked_this_turn",
}


@pytest.fixture
def old(tmp_path: Path) -> RefereeService:
    return service_over_a_copy(OLD / "store.db", tmp_path)


def shown_then(game_id: str) -> object:
    return json.loads((OLD / f"{game_id}.show.json").read_text())["position"]


def legal_then(game_id: str) -> list[str]:
    actions: list[str] = json.loads((OLD / f"{game_id}.legal.json").read_text())["actions"]
    return actions


def shown_now(svc: RefereeService, game_id: str) -> object:
    """Today's position without the switches (and a Crystale seat's fields) added since:
    the old code showed none."""
    position = json.loads(msgspec.json.encode(svc.position(game_id).position))
    for field in ("variants", "table"):
        if isinstance(position.get(field), dict):
            position[field] = {k: v for k, v in position[field].items() if k not in ADDED_SINCE}
    seats = position.get("seats")
    if isinstance(seats, dict):
        for seat, shown in seats.items():
            if isinstance(shown, dict):
                seats[seat] = {k: v for k, v in shown.items() if k not in ADDED_SINCE}
    return position


def test_old_games_replay_to_the_positions_the_old_code_showed(old: RefereeService) -> None:
    for game_id in GAMES:
        assert shown_now(old, game_id) == shown_then(game_id), game_id


def test_a_switch_offered_since_plays_the_rules_of_the_record(old: RefereeService) -> None:
    """GS-I.32 and PX-I.30: the record lacks the switch, so it plays the earlier rules."""
    assert old.load(DUEL).setup.variants["no_target"] == "refuse"
    assert old.load(GOAL).setup.variants["goal_reach"] == "play_on"
    # PZ-10.15: waiting_promotion's default (no) is the rule the record was played under
    assert old.load(POSITION).setup.variants["waiting_promotion"] == "no"
    fresh = games.load("gammasphere").recorded_variants(
        games.load("gammasphere").resolve_variants({})
    )
    assert fresh["no_target"] == "play"  # a game recorded today holds its switch
    # PX-I.32 and PM-I.23: the first-round forgo refused, the breach counted by entries
    assert old.load(AUCTION).setup.variants["opening_forgo"] == "refuse"
    assert old.load(AUCTION).state.table.opening_forgo == "refuse"
    assert old.load(BREACH).setup.variants["breach_tally"] == "entries"
    # the Prismata game started from a position string whose table lacks the switch
    assert old.load(BREACH).state.table.breach_tally == "entries"
    # CR-I.36: what the referee knew stayed where it was as crystals went out of sight
    assert old.load(RESHUFFLE).setup.variants["knowledge"] == "stays"
    assert old.load(RESHUFFLE).state.table.knowledge == "stays"
    crystale = games.load("crystale")
    assert crystale.recorded_variants(crystale.resolve_variants({}))["knowledge"] == "follows"


def test_a_switch_whose_default_changed_later_plays_the_rules_before_it() -> None:
    """CR-I.28: counter_range came in (28 Nov, a037e56) with in_range, the range condition
    counterattacks had until then, as its default; the default became any the next day
    (f7b7a0a). A game recorded before the switch lacks it and was played in range."""
    crystale = games.load("crystale")
    recorded = crystale.recorded_variants({})
    assert recorded["counter_range"] == "in_range"
    assert crystale.resolve_variants({})["counter_range"] == "any"


def test_an_old_store_verifies_intact(old: RefereeService) -> None:
    report = old.verify()
    assert report.games == len(GAMES)
    assert report.bad == 0, [r.findings for r in report.reports if not r.ok]


def test_an_old_open_game_goes_on_under_its_own_rules(old: RefereeService) -> None:
    """GS-I.32: the card still has nothing to aim at and is refused as it was (GS-9.1)."""
    result = old.record(DUEL, "play Duelist")
    assert not result.accepted
    assert [v.clause for v in result.violations] == ["GS-9.1"]
    legal = json.loads((OLD / f"{DUEL}.legal.json").read_text())
    assert "Duelist" not in json.dumps(legal)
    assert old.record(POSITION, "e8>e7").accepted
    for game_id in (AUCTION, BREACH, ARRIVAL, RESHUFFLE):
        assert old.legal(game_id).actions == legal_then(game_id), game_id
    # PX-I.32: p3's first-round forgo is refused as p1's was when the game was recorded
    forgo = old.record(AUCTION, "p3: forgo")
    assert [v.clause for v in forgo.violations] == ["PX-I.9"]
    # a forgo is as sealed as a bid (PX-14.1): the others read neither its clause nor why
    seen = [v.for_viewer("p1") for v in forgo.violations]
    assert [v.clause for v in seen] == ["PX-I"]
    assert "forgo" not in seen[0].reason
    assert "tied" not in seen[0].reason
    # PM-I.23: the fragile unit hit twice still counts, so the click stands (PM-5.8)
    undo = old.record(BREACH, "undo #1")
    assert [v.clause for v in undo.violations] == ["PM-5.8"]
    # GS-I.33: the number an arriving character takes is not on the field (GS-1.3)
    itself = old.record(ARRIVAL, "play Drillmaster on #2")
    assert [v.clause for v in itself.violations] == ["GS-1.3"]
    assert old.verify().bad == 0


def test_old_text_exports_import_to_the_same_positions(tmp_path: Path) -> None:
    fresh = RefereeService(GameStore(tmp_path / "texts.db"))
    report = fresh.import_files([OLD / f"{g}.txt" for g in GAMES])
    assert [f.status for f in report.files] == ["imported"] * len(GAMES), report.files
    for game_id in GAMES:
        assert shown_now(fresh, game_id) == shown_then(game_id), game_id
    assert fresh.verify().bad == 0


@pytest.mark.parametrize(
    ("chosen", "played"), [({}, "units"), ({"breach_tally": "entries"}, "entries")]
)
def test_a_position_given_today_without_a_switch_plays_the_games_switch(
    tmp_path: Path, chosen: dict[str, str], played: str
) -> None:
    """PM-I.23: a position string a table gives today may lack a switch offered since its
    form was first written; the game plays the switch it was created with (today's default
    or the table's choice), written into the stored string, so replaying it (which reads a
    string lacking the switch as a record older than it) plays the same rules."""
    svc = RefereeService(GameStore(tmp_path / "given.db"))
    rules = games.load("prismata")
    start = json.loads(
        rules.position_text(
            svc.load(svc.create_game("prismata", {"p1": "A", "p2": "B"}).game_id).state
        )
    )
    del start["table"]["breach_tally"]
    given = svc.create_game(
        "prismata", {"p1": "A", "p2": "B"}, variants=chosen, options={"position": json.dumps(start)}
    ).game_id
    assert svc.load(given).state.table.breach_tally == played
    assert svc.verify().bad == 0


def test_an_old_pull_out_of_a_reshuffled_pool_stands_where_a_new_game_refuses_it(
    old: RefereeService, tmp_path: Path
) -> None:
    """CR-I.36: the old Crystale record pulled Kiln Surge out of a pool refilled with a
    Flame Lance and two Cinderpups, and was refused a fifth Cinderpup after the two shown
    ones went back unseen; it replays so (verify finds both as recorded), while a game
    created today, played the same way, is refused the pull (CR-12.3, CR-12.4) and allowed
    the summon."""
    recorded = old.load(RESHUFFLE)
    assert recorded.state.sides[0].hand.known.as_dict() == {"Kiln Surge": 1}
    assert old.verify().bad == 0
    svc = RefereeService(GameStore(tmp_path / "today.db"))
    setup = recorded.setup
    game = svc.create_game(
        "crystale",
        {"p1": "Ann", "p2": "Ben"},
        options={"seed": setup.options["seed"]},
        decks=setup.decks,
    ).game_id
    assert svc.load(game).setup.variants["knowledge"] == "follows"
    for entry in (
        "p2: first p1",
        "p1: pull 6",
        "p2: pull 6",
        "p1: show Pyrelance Archer, Cinderpup, Cinderpup",
        "p2: show Reefling, Kelpie Skirmisher, Reefling",
        "p1: pull Flame Lance",
        "p1: cast Flame Lance @u2",
    ):
        assert svc.record(game, entry).accepted, entry
    svc.adjust(
        game,
        "move p1 hand>pool; move p1 hand>plane Cinderpup; move p1 hand>plane Cinderpup",
        card="",
        reason="a correction",
    )
    # the two shown Cinderpups may have gone back to the pool: not a fifth copy today
    assert svc.record(game, "p1: summon Cinderpup @c2", dry_run=True).accepted
    for entry in ("p1: end", "p2: pull", "p2: end"):
        assert svc.record(game, entry).accepted, entry
    svc.adjust(game, "draw p1 24", card="", reason="a correction")
    assert svc.record(game, "p1: reshuffle").accepted
    pull = svc.record(game, "p1: pull Kiln Surge")
    assert [v.clause for v in pull.violations] == ["CR-12.3"]
    assert "Kiln Surge is not one of them" in pull.violations[0].reason
    assert svc.record(game, "p1: pull Flame Lance").accepted
    assert svc.verify().bad == 0

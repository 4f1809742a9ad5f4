"""The referee procedure shared by every game (REF- clauses), through the application layer,
on the test games Nim (two seats) and Tribute (three seats, decks, rulings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.schema import (
    ActionRetracted,
    AdjustmentRecorded,
    PenaltyIssued,
    RulingRequested,
    SeatWithdrawn,
)
from events.store import GameStore
from referee.kit.decks import parse_decklist, seal
from service import InvalidCommandError, RefereeService, RefusedError, UnreadableEntryError

SALT = "procedure-salt-0123456789-0123456789"
THREE = {"p1": "Ann", "p2": "Ben", "p3": "Cy"}


@pytest.fixture
def svc(db_path: Path) -> RefereeService:
    return RefereeService(GameStore(db_path), draw_seed=lambda: 7)


def tribute(svc: RefereeService, players: dict[str, str] = THREE, **decks: str) -> str:
    lists = {seat: parse_decklist(text) for seat, text in decks.items()} or {
        "p1": parse_decklist("2 Ace\n1 Joker"),
        "p2": parse_decklist("2 King"),
        "p3": parse_decklist("2 Jack"),
    }
    return svc.create_game("tribute", players, decks=lists).game_id


def test_ref_1_5_simultaneous_step_takes_entries_in_any_order_and_needs_a_seat(
    svc: RefereeService,
) -> None:
    game = tribute(svc)
    assert svc.position(game).to_act == ["p1", "p2", "p3"]
    with pytest.raises(InvalidCommandError) as info:
        svc.record(game, "draw 2")  # several may act: name the seat
    assert info.value.clause == "REF-1.2"
    assert svc.record(game, "draw 2", actor="Cy").accepted  # a player's name names the seat
    assert svc.position(game).to_act == ["p1", "p2"]
    assert svc.record(game, "draw 2", actor="p2").accepted
    rejected = svc.record(game, "draw 2", actor="p3")  # p3 already drew
    assert not rejected.accepted
    assert rejected.violations[0].clause == "REF-1.2"
    assert svc.record(game, "draw 2", actor="p1").accepted
    assert svc.position(game).to_act == ["p1"]  # the step closed; play goes in seat order


def test_ref_1_6_an_impossible_report_is_rejected(svc: RefereeService) -> None:
    game = tribute(svc, p1="1 Ace\n1 Jack", p2="2 King")
    result = svc.record(game, "draw 2", actor="p1")
    assert result.accepted
    result = svc.record(game, "draw 3", actor="p2")
    assert not result.accepted
    assert result.violations[0].clause == "TR-2.1"
    assert "holds 2 cards" in result.violations[0].reason


def test_ref_1_1_dry_run_stores_nothing(svc: RefereeService) -> None:
    game = tribute(svc)
    before = svc.store.rows(game)
    assert svc.record(game, "draw 2", actor="p1", dry_run=True).status == "legal"
    assert svc.record(game, "draw 5", actor="p1", dry_run=True).status == "illegal"
    with pytest.raises(UnreadableEntryError):
        svc.record(game, "shuffle", actor="p1", dry_run=True)
    assert svc.store.rows(game) == before


def _play_round(svc: RefereeService, game: str) -> None:
    for seat in ("p1", "p2", "p3"):
        svc.record(game, "draw 2", actor=seat)


def test_ref_2_3_backup_retracts_every_later_action_newest_first(svc: RefereeService) -> None:
    game = tribute(svc)
    _play_round(svc, game)
    svc.record(game, "play Ace")
    result = svc.backup(game, 1, "the draw was misreported")
    assert result.retracted == [4, 3, 2]
    view = svc.load(game)
    assert view.ply == 1
    assert [type(e) for e in view.events[-3:]] == [ActionRetracted] * 3
    assert all(e.reason.startswith("backup to action 1:") for e in view.events[-3:])  # type: ignore[attr-defined]
    with pytest.raises(InvalidCommandError) as info:
        svc.backup(game, 1, "again")
    assert info.value.clause == "REF-2.3"


def test_ref_6_1_to_6_4_a_card_that_needs_a_ruling(svc: RefereeService) -> None:
    game = tribute(svc)
    _play_round(svc, game)
    result = svc.record(game, "play Joker")
    assert result.accepted
    assert result.rulings[0].card == "Joker"
    assert result.rulings[0].clause == "TR-2.3"
    assert isinstance(svc.load(game).events[-1], RulingRequested)
    with pytest.raises(InvalidCommandError) as info:  # REF-6.2: the ruling comes first
        svc.record(game, "play King")
    assert info.value.clause == "REF-6.2"
    with pytest.raises(InvalidCommandError) as info:  # REF-6.3: a change must fit
        svc.adjust(game, "resource p1 score -5", card="Joker", reason="a penalty of five")
    assert info.value.clause == "REF-6.3"
    svc.adjust(game, "resource p1 score +4", card="Joker", reason="the table ruled four")
    view = svc.load(game)
    assert not view.pending
    assert view.state.of("p1").score == 4
    assert isinstance(view.events[-1], AdjustmentRecorded)
    assert view.events[-1].resolves == 9
    assert svc.record(game, "play King").accepted
    audit = svc.audit(game)
    assert [a["card"] for a in audit["adjustments"]] == ["Joker"]  # REF-6.4: the audit lists it
    assert audit["rulings_needed"][0]["cards"] == ["Joker"]


def test_ref_2_4_retracting_an_action_takes_its_adjustment_back(svc: RefereeService) -> None:
    game = tribute(svc)
    _play_round(svc, game)
    svc.record(game, "play Joker")
    svc.adjust(game, "resource p1 score +4", card="Joker", reason="four")
    svc.retract(game, "the Joker was played by mistake")
    view = svc.load(game)
    assert view.state.of("p1").score == 0
    assert not view.pending
    assert svc.verify(game).bad == 0


def test_ref_6_2_an_awaited_ruling_lapses_with_its_action(svc: RefereeService) -> None:
    game = tribute(svc)
    _play_round(svc, game)
    svc.record(game, "play Joker")
    svc.retract(game, "wrong card")
    assert not svc.load(game).pending
    assert svc.record(game, "play Ace").accepted


def test_ref_3_5_a_resignation_with_three_seats_withdraws_and_play_goes_on(
    svc: RefereeService,
) -> None:
    game = tribute(svc)
    svc.record(game, "draw 2", actor="p1")
    written = svc.end(game, "resignation", who="Ben")
    assert written.ended is None
    assert isinstance(svc.load(game).events[-1], SeatWithdrawn)
    assert svc.position(game).to_act == ["p3"]
    assert svc.position(game).withdrawn == ["p2"]
    with pytest.raises(InvalidCommandError) as info:
        svc.retract(game, "undo the draw")  # not back past a withdrawal
    assert info.value.clause == "REF-3.5"
    svc.record(game, "draw 2", actor="p3")
    written = svc.end(game, "resignation", who="p3")  # one seat left: it wins
    assert written.ended is not None
    assert written.ended.result == "p1>p3>p2"
    assert [(p.seat, p.rank) for p in written.ended.ranking] == [("p1", 1), ("p3", 2), ("p2", 3)]


def test_ref_3_6_a_ranking_is_adjudicated_whole(svc: RefereeService) -> None:
    game = tribute(svc)
    with pytest.raises(InvalidCommandError) as info:
        svc.end(game, "adjudication", who="p1", reason="time")
    assert info.value.clause == "REF-3.6"
    with pytest.raises(InvalidCommandError):
        svc.end(game, "adjudication", ranking="p1>p2", reason="time")  # every seat playing
    written = svc.end(game, "adjudication", ranking="p2>p1=p3", reason="time ran out")
    assert written.ended is not None
    assert written.ended.result == "p2>p1=p3"
    assert written.ended.winner == "p2"


def test_ref_7_penalties(svc: RefereeService) -> None:
    two = svc.create_game("nim", {"first": "Ann", "second": "Ben"}).game_id
    svc.penalty(two, "Ann", "warning", "slow play")
    assert svc.load(two).ended is None
    assert isinstance(svc.load(two).events[-1], PenaltyIssued)
    written = svc.penalty(two, "Ben", "game_loss", "marked cards", reason="second offence")
    assert written.ended is not None
    assert written.ended.winner == "first"
    assert written.ended.how == "penalty"
    with pytest.raises(InvalidCommandError):
        svc.retract(two, "no")  # a declared result stands (REF-2.2)
    three = tribute(svc)
    written = svc.penalty(three, "p1", "disqualification", "collusion")
    assert written.ended is None
    assert svc.position(three).withdrawn == ["p1"]
    finished = svc.create_game(
        "nim", {"first": "Ann", "second": "Ben"}, options={"heap": 1}
    ).game_id
    svc.record(finished, "t1")  # first wins by rule...
    written = svc.penalty(
        finished, "first", "game_loss", "drew extra cards"
    )  # ...then loses by penalty
    assert written.ended is not None
    assert written.ended.winner == "second"
    assert svc.verify(finished).bad == 0


def test_ref_5_1_decks_are_checked_and_registered_before_play(svc: RefereeService) -> None:
    with pytest.raises(InvalidCommandError) as info:
        svc.create_game("tribute", THREE, decks={"p1": parse_decklist("3 Ace")})
    assert info.value.clause == "TR-1.1"
    assert "at most 2 copies" in str(info.value)
    game = svc.create_game("tribute", THREE).game_id
    svc.register_deck(game, "p1", parse_decklist("2 Ace"))
    svc.register_deck(game, "p1", parse_decklist("1 Ace\n1 King"))  # corrected before play
    assert svc.load(game).state.of("p1").deck == 2
    svc.record(game, "draw 2", actor="p1")
    with pytest.raises(InvalidCommandError) as info:
        svc.register_deck(game, "p2", parse_decklist("2 King"))
    assert info.value.clause == "REF-5.1"
    with pytest.raises(InvalidCommandError):
        svc.register_deck(
            svc.create_game("nim", {"first": "A", "second": "B"}).game_id,
            "A",
            parse_decklist("2 Ace"),
        )


def test_ref_5_2_to_5_4_a_sealed_list_is_opened_and_then_binds(svc: RefereeService) -> None:
    decklist = parse_decklist("2 King")
    sealed = seal(decklist, SALT)
    game = svc.create_game(
        "tribute", {"p1": "Ann", "p2": "Ben"}, decks={"p1": parse_decklist("2 Ace"), "p2": sealed}
    ).game_id
    assert "King" not in str(svc.log(game, viewer="p1"))
    assert "King" not in str(svc.log(game))
    svc.record(game, "draw 2", actor="p1")
    svc.record(game, "draw 2", actor="p2")
    svc.record(game, "play Ace")
    wrong = svc.open_deck(game, "p2", parse_decklist("2 King"), "not-the-salt-at-all")
    assert not wrong.accepted
    assert wrong.violations[0].clause == "REF-5.3"
    opened = svc.open_deck(game, "p2", decklist, SALT)
    assert opened.accepted
    result = svc.record(game, "play Jack")
    assert not result.accepted
    assert result.violations[0].clause == "REF-5.4"
    assert "King" not in str(svc.log(game, viewer="p1"))
    assert "King" in str(svc.log(game))
    assert svc.verify(game).bad == 0


def test_viewers_are_referee_public_or_a_seat(svc: RefereeService) -> None:
    game = tribute(svc)
    assert svc.position(game, viewer="public").viewer == "public"
    assert svc.position(game, viewer="Ann").viewer == "p1"
    with pytest.raises(RefusedError):
        svc.position(game, viewer="Zed")
    seen_by_ben = svc.position(game, viewer="Ben").position["seats"]
    assert "list" in seen_by_ben["p2"]
    assert "list" not in seen_by_ben["p1"]["list"]


def test_ref_1_2_says_who_decides_a_pending_decision_and_when() -> None:
    """REF-1.2: a decision the rules hand to another seat mid-turn (a counterattack) is that
    seat's alone until made; the turn's seat goes on after it."""
    from referee.rulebook import find_clause

    text = find_clause("REF-1.2").text
    assert "strike back" in text
    assert "alone may act until it has made the decision" in text


def _table_4_with_30_minutes(svc: RefereeService) -> str:
    return svc.create_game(
        "prizmik", {"red": "Ann", "blue": "Ben"}, meta={"table": "4", "time_limit": "30"}
    ).game_id


def _imported(record: str, tmp_path: Path) -> tuple[RefereeService, str]:
    """``record`` imported as a new game into a store of its own: that store and the game."""
    path = tmp_path / "record.txt"
    path.write_text(record)
    other = RefereeService(GameStore(tmp_path / "other.db"))
    (outcome,) = other.import_files([path], as_new=True).files
    assert outcome.status == "imported", outcome.detail
    assert outcome.game_id is not None
    return other, outcome.game_id


def test_ref_10_1_a_games_time_limit_is_set_later_and_the_latest_counts(
    svc: RefereeService, tmp_path: Path
) -> None:
    """REF-10.1: an open game outside an event takes a new limit (1 to 1440 minutes), the
    latest counts; an ended game and a game of an event are refused; the change is an
    event that a text record carries and an import replays."""
    game = _table_4_with_30_minutes(svc)
    written = svc.time_limit(game, 45, reason="slow  start", by="Rita")
    assert written.summaries == ["time limit set to 45 minutes (slow start)"]
    assert svc.load(game).time_limit == 45
    for bad in (0, 1441):
        with pytest.raises(InvalidCommandError, match=r"REF-10.1"):
            svc.time_limit(game, bad)
    record = "\n".join(svc.export([game], "text"))
    assert '{time-limit 45: "slow start"}' in record
    other, imported = _imported(record, tmp_path)
    assert other.load(imported).time_limit == 45
    svc.end(game, "resignation", who="blue")
    with pytest.raises(InvalidCommandError, match=r"REF-10.1.*has ended"):
        svc.time_limit(game, 60)
    from_event = svc.create_game("prizmik", {"red": "Cal", "blue": "Dee"}, meta={"event": "ev-x"})
    with pytest.raises(InvalidCommandError, match=r"REF-10.1.*round clock"):
        svc.time_limit(from_event.game_id, 60)


def test_ref_10_1_the_limit_a_game_has_is_refused_but_a_record_repeating_it_imports(
    svc: RefereeService, tmp_path: Path
) -> None:
    """REF-10.1: the limit the game already has (its created label, else its latest) is
    refused, nothing stored; a stored record that repeats a limit still imports as it is."""
    game = _table_4_with_30_minutes(svc)
    with pytest.raises(InvalidCommandError, match=r"REF-10.1.*already 30 minutes: nothing chan"):
        svc.time_limit(game, 30)
    svc.time_limit(game, 45, reason="slow")
    version = svc.load(game).version
    with pytest.raises(InvalidCommandError, match=r"REF-10.1.*already 45 minutes"):
        svc.time_limit(game, 45, reason="again")
    assert svc.load(game).version == version
    line = '{time-limit 45: "slow"}'
    record = "\n".join(svc.export([game], "text"))
    assert record.count(line) == 1
    other, imported = _imported(record.replace(line, f"{line}\n{line}"), tmp_path)
    assert other.load(imported).time_limit == 45
    assert "\n".join(other.export([imported], "text")).count(line) == 2


def test_ref_10_1_the_limit_a_game_was_created_with_survives_its_text_record(
    svc: RefereeService, tmp_path: Path
) -> None:
    """REF-10.1: a game created with a time limit keeps it through export and import (the
    record's ``TimeLimit`` tag); the record left the label out, so the import lost it."""
    game = _table_4_with_30_minutes(svc)
    record = "\n".join(svc.export([game], "text"))
    assert '[TimeLimit "30"]' in record
    other, imported = _imported(record, tmp_path)
    with pytest.raises(InvalidCommandError, match=r"REF-10.1.*already 30 minutes"):
        other.time_limit(imported, 30)
    assert "\n".join(other.export([imported], "text")).count('[TimeLimit "30"]') == 1


# -- REF-7.3: withdrawing a penalty (issue 30) ------------------------------------------------


def test_ref_7_3_a_withdrawn_game_loss_voids_the_result_it_declared(svc: RefereeService) -> None:
    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}).game_id
    issued = svc.penalty(game, "Ben", "game_loss", "marked cards")
    assert issued.ended is not None
    assert issued.ended.winner == "first"
    penalty_event = issued.events[0]
    written = svc.withdraw_penalty(game, penalty_event, reason="the wrong player", by="Hera")
    # the withdrawal and the voided result, each a new event; the penalty itself unchanged
    assert written.summaries == [
        f"penalty of event {penalty_event} withdrawn: the wrong player",
        f"result of event {issued.events[-1]} voided: penalty of event {penalty_event} withdrawn",
    ]
    view = svc.load(game)
    assert view.ended is None
    assert view.penalties == []
    assert isinstance(view.event(penalty_event), PenaltyIssued)
    assert svc.verify(game).bad == 0
    svc.record(game, "t1")  # the game goes on
    with pytest.raises(InvalidCommandError) as again:
        svc.withdraw_penalty(game, penalty_event, reason="twice")
    assert again.value.clause == "REF-7.3"
    assert "already withdrawn" in str(again.value)


def test_ref_7_3_a_loss_found_after_the_result_withdrawn_declares_that_result_again(
    svc: RefereeService,
) -> None:
    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}, options={"heap": 1}).game_id
    svc.record(game, "t1")  # first wins by rule
    before = svc.load(game).ended
    assert before is not None
    assert before.winner == "first"
    issued = svc.penalty(game, "first", "game_loss", "drew extra cards")
    assert issued.ended is not None
    assert issued.ended.winner == "second"
    written = svc.withdraw_penalty(game, issued.events[0], reason="the count was right")
    after = svc.load(game).ended
    assert after is not None
    assert (after.winner, after.how, after.clause) == (
        "first",
        before.how,
        before.clause,
    )
    assert written.ended is not None
    assert written.ended.winner == "first"
    assert svc.verify(game).bad == 0


def test_ref_7_3_a_withdrawn_warning_no_longer_counts_toward_an_upgrade(
    svc: RefereeService,
) -> None:
    from service.toolkit import penalty_advice, toolkit

    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}).game_id
    first = svc.penalty(game, "Ann", "warning", "slow-play")
    second = svc.penalty(game, "Ben", "warning", "slow-play")
    advice = penalty_advice(svc.load(game), "first", "slow-play")
    assert advice is not None
    assert advice.earlier == 1
    assert advice.upgrade
    svc.withdraw_penalty(game, first.events[0], reason="it was the other player")
    view = svc.load(game)
    advice = penalty_advice(view, "first", "slow-play")
    assert advice is not None
    assert advice.earlier == 0
    assert not advice.upgrade
    assert [p.event for p in toolkit(view).penalties] == [second.events[0]]
    assert view.ended is None


def test_ref_7_3_refusals_name_the_clause(svc: RefereeService) -> None:
    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}).game_id
    svc.record(game, "t1")
    issued = svc.penalty(game, "Ann", "warning", "slow-play")
    for number, reason, words in (
        (2, "x", "event 2 is not a penalty"),
        (99, "x", "event 99 is not a penalty"),
        (issued.events[0], "  ", "needs the head referee's reason"),
    ):
        with pytest.raises(InvalidCommandError) as refused:
            svc.withdraw_penalty(game, number, reason=reason)
        assert refused.value.clause == "REF-7.3"
        assert words in str(refused.value)
    # a seat a disqualification withdrew while the others played on cannot come back
    three = tribute(svc)
    dq = svc.penalty(three, "p1", "disqualification", "collusion")
    with pytest.raises(InvalidCommandError) as stays:
        svc.withdraw_penalty(three, dq.events[0], reason="mistaken")
    assert stays.value.clause == "REF-7.3"
    assert "adjudicate" in str(stays.value)
    assert len(svc.load(game).events) == 3  # nothing stored by any refusal


def test_ref_7_3_a_withdrawal_survives_the_text_record(svc: RefereeService) -> None:
    from events.interchange.text import parse_text
    from events.schema import PenaltyWithdrawn, ResultVoided
    from service.interchange import replay_text

    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}).game_id
    issued = svc.penalty(game, "Ben", "game_loss", "marked cards")
    svc.withdraw_penalty(game, issued.events[0], reason='wrong "player"')
    text = "".join(svc.export([game], "text"))
    assert f'{{penalty-withdrawn {issued.events[0]}: "wrong \\"player\\""}}' in text
    events = replay_text(parse_text(text, "record.txt"), "record.txt")
    kinds = [type(e).__name__ for e in events]
    assert kinds[-2:] == [PenaltyWithdrawn.__name__, ResultVoided.__name__]
    assert [type(e).__name__ for e in svc.load(game).events] == kinds


def test_ref_6_5_an_adjustment_names_a_card_of_the_catalog_or_none(
    svc: RefereeService,
) -> None:
    from tests.gammasphere.helpers import DECK, OTHER

    decks = {"p1": DECK, "p2": OTHER}
    game = svc.create_game("gammasphere", {"p1": "Ann", "p2": "Ben"}, decks=decks).game_id
    svc.record(game, "p1: draw 7")
    svc.record(game, "p2: draw 7")
    with pytest.raises(InvalidCommandError) as refused:
        svc.adjust(game, "resource p1 gas +1", card="not a card", reason="miscounted")
    assert refused.value.clause == "REF-6.5"
    assert "not a card" in str(refused.value)
    fixed = svc.adjust(game, "resource p1 gas +1", card="", reason="miscounted the gas")
    assert fixed.summaries[0].startswith("position corrected: ")
    named = svc.adjust(game, "resource p1 gas -1", card="gamma trooper", reason="its effect")
    assert named.summaries[0].startswith("adjustment for Gamma Trooper: ")  # the catalog's name


def test_ref_7_3_a_withdrawn_penalty_leaves_the_referees_queue(svc: RefereeService) -> None:
    game = svc.create_game("nim", {"first": "Ann", "second": "Ben"}, meta={"table": "3"}).game_id
    first = svc.penalty(game, "Ann", "warning", "slow-play")
    svc.penalty(game, "Ben", "warning", "slow-play")
    assert len(svc.queue().penalties) == 2
    svc.withdraw_penalty(game, first.events[0], reason="the wrong player")
    assert [i.event for i in svc.queue().penalties] == [first.events[0] + 1]

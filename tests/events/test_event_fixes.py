"""Fixing an event's mistakes in place, through the command line and the service (issue 29,
sections 2-4): re-pairing with the engine, undoing a round, undrop, changing the rounds or
the cut, void games that refuse entries, the end with nothing left open, slips that agree
with the games, penalties that reach the match and their withdrawal, the seeded round 1
and its posting, decklists until the deadline, late entries with losses. Each refusal is
one line naming its clause, exit 2, nothing stored."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

from events.schema import GameCreated, GameEnded, PenaltyIssued
from events.tournament import fold_stored, to_stored
from referee.tournament import CorrectResult, PairNext, Refusal, ReportResult, Score, decide, fold
from referee.tournament import facts as f
from referee.tournament.fixing import ChangeSettings, decide_fix
from service.app import RefereeService, open_service
from service.event_judge import EventJudgement, judge_event
from service.tournaments import EventRefusedError
from tests.events.recorded import Recorded
from tests.events.test_event_cli import as_json, call, ok, refused
from tests.gammasphere.helpers import DECK_TEXT, OTHER_TEXT
from tests.tournament.helpers import event as pure_event

EIGHT = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]


def new_event(db: Path, *args: str, names: list[str] = EIGHT) -> str:
    event = ok(db, "event", "new", "Fixes", "--game", "gammasphere", *args).splitlines()[-1]
    ok(db, "event", "register", event, *[a for n in names for a in ("--player", n)])
    return event


def games_of(db: Path, event: str) -> dict[int, list[str]]:
    return {row["table"]: row["games"] for row in as_json(db, "event", "pairings", event)}


def last_event(db: Path, game: str) -> Any:
    with open_service(db) as svc:
        return svc.store.events(game)[-1]


def test_ev_5_12_repair_by_the_engine_keeps_results_and_shows_what_moved(tmp_path: Path) -> None:
    """EV-5.12: `event repair EVENT --reason` re-pairs the open round with the engine: the
    table with a result keeps it (said), the moves are listed, the replaced tables' games
    are closed as void and refuse entries (EV-3.9, `referee act` exit 2)."""
    db = tmp_path / "s.db"
    event = new_event(db, "--seed", "5")
    ok(db, "event", "drop", event, "Hal", "--reason", "signed out by mistake")
    ok(db, "event", "pair", event)
    before = games_of(db, event)
    ok(db, "event", "result", event, "1=2-0-0")
    ok(db, "event", "undrop", event, "Hal", "--reason", "Hal is here")
    out = ok(db, "event", "repair", event, "--reason", "Hal is back")
    assert "kept with their result: table 1" in out
    assert "moved: Hal: bye" not in out
    assert "moved: Hal: not paired -> table" in out
    after = games_of(db, event)
    assert after[1] == before[1]  # the kept table keeps its games
    replaced = [g for t, gs in before.items() if t is not None and t != 1 for g in gs]
    for game in replaced:
        closing = last_event(db, game)
        assert isinstance(closing, GameEnded)
        assert closing.how == "void"
        code, _, err = call(db, "act", game, "end")
        assert code == 2
        assert "REF-1.3" in err
        assert "void" in err
    audit = as_json(db, "event", "audit", event)["entries"]
    # the slip of table 1 closed its open game (EV-3.9); then the undrop and the re-pairing
    assert [e["what"] for e in audit] == ["drop", "games voided", "undrop", "pairing changed"]


def test_ev_5_12_ev_1_5_ev_9_1_a_command_that_changes_nothing_stores_nothing(
    tmp_path: Path,
) -> None:
    """EV-5.12, EV-1.5, EV-9.1: a re-pairing that moves no one, the rounds the event already
    plays, the round length it already has: each refused with its clause, exit 2, the store
    exactly as it was (no fact that changes nothing in the log or the audit)."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "3", names=EIGHT[:4])
    ok(db, "event", "pair", event)
    assert "nothing changed" in refused(db, "EV-5.12", "event", "repair", event, "--reason", "x")
    refused(db, "EV-1.5", "event", "change", event, "--rounds", "3", "--reason", "same")
    refused(db, "EV-9.1", "event", "length", event, "50")
    assert as_json(db, "event", "audit", event)["entries"] == []


def test_ev_5_11_a_manual_pairing_needs_a_reason_and_a_repair_makes_no_false_rematch(
    tmp_path: Path,
) -> None:
    """EV-5.11: `event pair --manual` without --reason is refused; EV-5.4: a manual
    re-pairing that gives the same tables in another order reports no rematch."""
    db = tmp_path / "s.db"
    event = new_event(db, names=EIGHT[:4])
    spec = tmp_path / "hand.json"
    spec.write_text(json.dumps({"pairs": [["Ann", "Ben"], ["Cal", "Dee"]]}))
    refused(db, "EV-5.11", "event", "pair", event, "--manual", str(spec))
    ok(db, "event", "pair", event, "--manual", str(spec), "--reason", "a family asked")
    spec.write_text(json.dumps({"pairs": [["Cal", "Dee"], ["Ben", "Ann"]]}))
    ok(db, "event", "repair", event, "--manual", str(spec), "--reason", "seat swap")
    changed = as_json(db, "event", "audit", event)["entries"][-1]
    assert changed["what"] == "pairing changed"
    assert changed["warnings"] == []


def test_ev_5_13_undo_round_and_pair_again(tmp_path: Path) -> None:
    """EV-5.13: undo-round takes the round back before its first result; its games are
    void, not deleted; refused once a table has a result."""
    db = tmp_path / "s.db"
    event = new_event(db)
    ok(db, "event", "pair", event)
    games = [g for gs in games_of(db, event).values() for g in gs]
    done = as_json(db, "event", "undo-round", event, "--reason", "wrong player list")
    assert done["round"] == 1
    assert sorted(done["voided"]) == sorted(games)
    assert as_json(db, "event", "show", event)["current_round"] == 0
    with open_service(db) as svc:
        assert all(svc.store.events(g) for g in games)  # kept in the history
    ok(db, "event", "pair", event)
    ok(db, "event", "result", event, "2=2-0-0")
    refused(db, "EV-5.13", "event", "undo-round", event, "--reason", "too late")


def test_ev_1_5_change_rounds_and_cut_until_past(tmp_path: Path) -> None:
    """EV-1.5: `event change` sets the Swiss rounds or cut with a reason; refused below
    the rounds paired, and once the cut is made."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "3", names=EIGHT[:4])
    ok(db, "event", "pair", event)
    refused(db, "EV-1.5", "event", "change", event, "--reason", "nothing given")
    info = as_json(db, "event", "change", event, "--rounds", "1", "--cut", "2", "--reason", "late")
    assert (info["rounds"], info["cut"]) == (1, 2)
    ok(db, "event", "result", event, "1=2-0-0", "2=0-2-0")
    ok(db, "event", "pair", event)  # the cut
    refused(db, "EV-1.5", "event", "change", event, "--rounds", "3", "--reason", "more")


def test_ev_1_4_end_refuses_with_open_games_or_voids_them(tmp_path: Path) -> None:
    """EV-1.4: `event end` names the event's open games; --void-open closes them as void,
    recorded in the audit; nothing is left open."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "1", names=EIGHT[:2])
    ok(db, "event", "pair", event)
    (second,) = games_of(db, event)[1]
    _slip_as_older_stores_kept_it(db, event)  # the table decided, its game left open
    err = refused(db, "EV-1.4", "event", "end", event)
    assert second in err
    out = ok(db, "event", "end", event, "--void-open", "--reason", "hall closing")
    assert f"closed as void: {second}" in out
    closing = last_event(db, second)
    assert isinstance(closing, GameEnded)
    assert closing.how == "void"
    assert as_json(db, "event", "audit", event)["entries"][-1]["what"] == "games voided"


def test_ev_3_10_a_slip_disagreeing_with_a_game_is_refused_naming_it(tmp_path: Path) -> None:
    """EV-3.10: game 1 was won by the first-listed player: a 0-2 slip is refused naming the
    game; a 2-1 slip is taken and the open game 2 is closed as void (EV-3.9); a later end
    of that game is refused (REF-1.3), never silently set aside."""
    db = tmp_path / "s.db"
    event = new_event(db, names=EIGHT[:2])
    ok(db, "event", "pair", event)
    (first,) = games_of(db, event)[1]
    with open_service(db) as svc:
        svc.end(first, "resignation", who="p2")
    second = games_of(db, event)[1][1]
    err = refused(db, "EV-3.10", "event", "result", event, "1=0-2-0")
    assert first in err
    ok(db, "event", "result", event, "1=2-1-0")
    assert last_event(db, second).how == "void"
    with open_service(db) as svc, pytest.raises(Exception, match=r"REF-1.3"):
        svc.end(second, "resignation", who="p1")


def test_a_game_result_after_its_match_is_decided_is_refused(tmp_path: Path) -> None:
    """EV-3.7, EV-3.9: a game of the event that ends when its match cannot take it (here
    the game of a replaced pairing that was never closed in its stream, as older stores
    left them) is refused with its clause, not stored beside the match."""
    db = tmp_path / "s.db"
    event = new_event(db, names=EIGHT[:2])
    ok(db, "event", "pair", event)
    (game,) = games_of(db, event)[1]
    _slip_as_older_stores_kept_it(db, event)
    with open_service(db) as svc:
        assert last_event(db, game).__class__.__name__ != "GameEnded"  # a stray open game
        with pytest.raises(EventRefusedError, match=r"EV-3.7"):
            svc.end(game, "resignation", who="p1")
        assert not isinstance(svc.store.events(game)[-1], GameEnded)


def _slip_as_older_stores_kept_it(db: Path, event: str) -> None:
    """Table 1 of round 1 reported 2-0 the way stores did before EV-3.9: the slip alone,
    the table's open game left open in its stream."""
    from referee.tournament import facts as f
    from referee.tournament.model import Score

    with open_service(db) as svc:
        events = svc.parts.events
        events._append(events._event(event), [f.MatchReported(round=1, table=1, score=Score(2, 0))])


def test_ev_8_2_correct_defaults_to_the_open_round(tmp_path: Path) -> None:
    """EV-8.1: `event correct` without --round corrects the open round."""
    db = tmp_path / "s.db"
    event = new_event(db, names=EIGHT[:4])
    ok(db, "event", "pair", event)
    ok(db, "event", "result", event, "1=2-0-0", "2=2-0-0")
    ok(db, "event", "pair", event)
    ok(db, "event", "result", event, "1=2-0-0")
    out = ok(db, "event", "correct", event, "1=0-2-0", "--reason", "slip swapped")
    assert out.startswith("round 2 1=0-2-0 corrected")
    refused(db, "EV-8.2", "event", "correct", event, "2=0-2-0", "--reason", "not reported")


def test_ev_8_6_a_game_loss_ends_the_players_game_and_is_withdrawn(tmp_path: Path) -> None:
    """EV-8.6: `event penalty` with a game loss ends that player's open game as a loss (a
    game penalty naming the event's), the match counts it; the head may choose another
    penalty, the IPG's suggestion shown; EV-8.7: a withdrawal needs the result without it."""
    db = tmp_path / "s.db"
    event = new_event(db, "--seed", "1", names=EIGHT[:2])
    ok(db, "event", "pair", event)
    (game,) = games_of(db, event)[1]
    players = as_json(db, "event", "pairings", event)[0]["players"]
    loser = players[0]
    out = ok(db, "event", "penalty", event, loser, "tardiness")
    assert f"{loser}: game-loss (penalty 1)" in out
    assert "the IPG suggests: game-loss" in out
    assert f"game {game} ended as a loss for {loser}" in out
    stream = _events(db, game)
    issued = next(e for e in stream if isinstance(e, PenaltyIssued))
    assert "event penalty 1" in issued.reason
    assert isinstance(stream[-1], GameEnded)
    assert stream[-1].how == "penalty"
    assert len(games_of(db, event)[1]) == 2  # the match goes on: game 2 was created
    chosen = as_json(db, "event", "penalty", event, loser, "slow-play", "--penalty", "match-loss")
    assert (chosen["penalty"], chosen["suggested"]) == ("match-loss", "warning")
    state = as_json(db, "event", "pairings", event)
    assert state[0]["games"]  # decided now: the open game 2 closed as void
    assert last_event(db, games_of(db, event)[1][1]).how == "void"
    refused(db, "EV-8.7", "event", "penalty", event, "withdraw", "2", "--reason", "misjudged")
    ok(db, "event", "penalty", event, "withdraw", "2", "--reason", "misjudged", "--result", "0-1-0")
    refused(db, "EV-8.7", "event", "penalty", event, "withdraw", "2", "--reason", "again")
    code, _, err = call(db, "event", "penalty", event, loser, "slow-play", "--penalty", "ban")
    assert code == 2
    assert "--penalty" in err


def _events(db: Path, game: str) -> list[Any]:
    with open_service(db) as svc:
        return list(svc.store.events(game))


def test_ev_8_7_a_withdrawn_disqualification_returns_the_player(tmp_path: Path) -> None:
    """EV-8.6: a DQ drops the player; EV-8.7: withdrawn with a reason, they are back."""
    db = tmp_path / "s.db"
    event = new_event(db, names=EIGHT[:4])
    out = ok(db, "event", "penalty", event, "Ann", "cheating")
    assert "Ann is dropped" in out
    refused(db, "EV-2.7", "event", "undrop", event, "Ann", "--reason", "mistake")
    ok(db, "event", "penalty", event, "withdraw", "1", "--reason", "wrong Ann")
    assert as_json(db, "event", "show", event)["active"] == 4


def test_ev_5_6_round_1_is_drawn_from_the_recorded_seed_and_posted(tmp_path: Path) -> None:
    """EV-5.6: `event new --seed` records the seed; round 1 follows its draw (the same in
    another store); the round-1 posting carries it and verify redoes the draw."""
    from service.postings import make_posting, verify_posting
    from service.seal import create_key

    db, other = tmp_path / "a.db", tmp_path / "b.db"
    event = new_event(db, "--seed", "1234", names=EIGHT[:7])
    again = new_event(other, "--seed", "1234", names=EIGHT[:7])
    assert as_json(db, "event", "pair", event)
    assert as_json(other, "event", "pair", again)
    tables = [(r["table"], r["players"]) for r in as_json(db, "event", "pairings", event)]
    again_tables = [(r["table"], r["players"]) for r in as_json(other, "event", "pairings", again)]
    assert tables == again_tables
    draw = as_json(db, "event", "draw", event)
    assert draw["seed"] == 1234
    bye = next(r for r in as_json(db, "event", "pairings", event) if r["bye"])
    assert bye["players"] == [draw["order"][-1]["name"]]  # the last drawn has the bye
    key = tmp_path / "seal.pem"
    public = create_key(key)
    with open_service(db) as svc:
        posting, _ = make_posting(svc.store, event, "pairings", 1, key=key)
        assert posting.seed == 1234
        report = verify_posting(svc.store, event, posting, public)
        assert report.ok
        assert any(c.name == "draw" and c.ok for c in report.checks)
        posting.seed = 99
        forged = verify_posting(svc.store, event, posting, public)
        assert not forged.ok
        assert any(c.name == "draw" and not c.ok for c in forged.checks)
    unseeded = open_service(tmp_path / "c.db", create=True)
    drawn = unseeded.event_new("Any", "prizmik")
    assert isinstance(unseeded.event_state(drawn.event_id).settings.seed, int)  # type: ignore[union-attr]


def test_ev_2_8_decklists_until_the_deadline_with_the_games_deck_size(tmp_path: Path) -> None:
    """EV-2.8: a list is attached or replaced after registration until the player's first
    round is paired, then locked; a list of another size than the games' deck size is
    refused, and so is the list the player already has (compared by digest); pairing warns
    about a player without a list."""
    db = tmp_path / "s.db"
    event = new_event(db, names=EIGHT[:2])
    deck = tmp_path / "deck.txt"
    deck.write_text(DECK_TEXT)
    short = tmp_path / "short.txt"
    short.write_text("4 Gamma Trooper\n6 Pylon\n")
    other = tmp_path / "other.txt"
    other.write_text(OTHER_TEXT)
    reordered = tmp_path / "reordered.txt"  # the same list, typed in another order
    reordered.write_text("\n".join(reversed(OTHER_TEXT.strip().splitlines())) + "\n")
    assert "40 cards" in ok(db, "event", "deck", event, "Ann", "--deck", str(deck))
    ok(db, "event", "deck", event, "Ann", "--deck", str(other))  # replaced
    # the list Ann already has, as typed or in another order: nothing changes, nothing stored
    for same in (other, reordered):
        err = refused(db, "EV-2.8", "event", "deck", event, "Ann", "--deck", str(same))
        assert "Ann already has this decklist" in err, err
    ok(db, "event", "deck", event, "Ann", "--deck", str(deck))  # back to the first list
    refused(db, "EV-2.8", "event", "deck", event, "Ben", "--deck", str(short))
    code, _, err = call(db, "event", "pair", event)
    assert code == 0
    assert "warning: Ben has no decklist (EV-2.8)" in err
    assert "Ann has no decklist" not in err
    refused(db, "EV-2.8", "event", "deck", event, "Ann", "--deck", str(deck))
    code, _, err = call(db, "event", "register", event, "--player", "Cal", "--deck", str(short))
    assert code == 2
    assert "EV-2.8" in err


def test_ev_2_8_pairing_names_a_missing_list_once_when_it_locks(tmp_path: Path) -> None:
    """EV-2.8: a pairing warns of the players whose list it locked without one; a later
    pairing names them no more (the organizer's walk: every player at every pairing), only
    a late entry whose own first round it is; the desk's list before pairing names those
    who may still hand one in."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "3", names=EIGHT[:4])
    deck = tmp_path / "deck.txt"
    deck.write_text(DECK_TEXT)
    ok(db, "event", "deck", event, "Ann", "--deck", str(deck))
    code, _, err = call(db, "event", "pair", event)
    assert code == 0
    assert err.count("has no decklist") == 3, err
    ok(db, "event", "result", event, "1=2-0-0", "2=2-0-0")
    ok(db, "event", "register", event, "--player", "Eve")  # a late entry: round 2 locks hers
    with open_service(db) as svc:
        assert svc.event_missing_decks(event, unlocked=True) == ["Eve"]
    code, _, err = call(db, "event", "pair", event)
    assert code == 0
    assert err.strip() == "warning: Eve has no decklist (EV-2.8)", err
    with open_service(db) as svc:
        assert svc.event_missing_decks(event) == ["Eve"]  # the slips of round 2
        assert svc.event_missing_decks(event, unlocked=True) == []
    ok(db, "event", "result", event, *[f"{n}=2-0-0" for n in (1, 2)])
    code, _, err = call(db, "event", "pair", event)
    assert code == 0
    assert "decklist" not in err, err


def test_a_decklist_is_given_as_one_file_or_one_seal(tmp_path: Path) -> None:
    """EV-2.8's list is --deck FILE or --sealed COMMIT:SIZE: ``event register`` takes at most
    one of them, ``event deck`` exactly one; otherwise one line, exit 2, nothing stored."""
    db = tmp_path / "s.db"
    event = new_event(db, names=EIGHT[:2])
    deck = tmp_path / "deck.txt"
    deck.write_text(DECK_TEXT)
    both = ("--deck", str(deck), "--sealed", "ab12:40")
    refused(db, "COMMIT:SIZE, not both", "event", "register", event, "--player", "Cal", *both)
    for given in ((), both):
        refused(db, "COMMIT:SIZE (one of them)", "event", "deck", event, "Ann", *given)


def test_ev_2_9_late_entry_with_losses_and_the_default_in_help(tmp_path: Path) -> None:
    """EV-2.9: `register --late-as-losses` gives a late entry a 0-2 loss per missed round;
    the default (no losses, EV-I.6) is in --help."""
    db = tmp_path / "s.db"
    event = new_event(db, names=EIGHT[:2])
    ok(db, "event", "pair", event)
    ok(db, "event", "result", event, "1=2-0-0")
    ok(db, "event", "register", event, "--player", "Cal", "--late-as-losses")
    rows = {r["player"]: r for r in as_json(db, "event", "standings", event)}
    assert rows["Cal"]["record"]["losses"] == 1
    assert rows["Cal"]["points"] == 0
    code, out, _ = call(db, "event", "register", "--help")
    assert code == 0
    assert "--late-as-losses" in out
    assert "EV-I.6" in out


def test_the_service_refuses_a_fix_with_nothing_stored(tmp_path: Path) -> None:
    """Every fix refused by the core stores nothing (EV-5.13 on an event with no round)."""
    svc: RefereeService = open_service(tmp_path / "s.db", create=True)
    event = svc.event_new("E", "prizmik").event_id
    version = svc.event_info(event).version
    with pytest.raises(EventRefusedError, match=r"EV-5.13"):
        svc.event_undo_round(event, reason="nothing")
    assert svc.event_info(event).version == version


def test_ev_8_6_a_game_loss_between_rounds_ends_the_next_game(tmp_path: Path) -> None:
    """EV-8.6 (IPG 1.2): a game loss given after the player's match ended ends their first
    game of the next round as a loss when it is paired; the audit says where it applied."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "2", names=EIGHT[:2])
    ok(db, "event", "pair", event)
    ok(db, "event", "result", event, "1=2-0-0")
    out = ok(db, "event", "penalty", event, "Ann", "tardiness")
    assert "it ends their next game" in out
    ok(db, "event", "pair", event)
    first = games_of(db, event)[1][0]
    stream = _events(db, first)
    assert isinstance(stream[-1], GameEnded)
    assert stream[-1].how == "penalty"
    assert len(games_of(db, event)[1]) == 2  # game 2 of round 2 is under way
    applied = as_json(db, "event", "audit", event)["entries"][-1]
    assert applied["what"] == "penalty applied"
    assert applied["game"] == first


@pytest.mark.slow
def test_a_16_player_event_with_its_mistakes_fixed_leaves_nothing_open(tmp_path: Path) -> None:
    """The issue's event: 16 players of Gammasphere, best of 3, five Swiss rounds and a top-8
    cut, with a late entry (with losses), a drop and an undrop, a round undone, a manual
    re-pairing (no false rematch), a correction, a game loss and games played at two
    tables. After `event end` no game of the event is open (EV-1.4, EV-3.9)."""
    db = tmp_path / "s.db"
    names = [f"Player {n:02d}" for n in range(1, 17)]
    event = new_event(db, "--seed", "29", "--rounds", "5", "--cut", "8", names=names)
    ok(db, "event", "pair", event)
    ok(db, "event", "undo-round", event, "--reason", "pairings posted too early")
    ok(db, "event", "pair", event)
    for number in range(1, 6):
        rows = as_json(db, "event", "pairings", event)
        tables = [r for r in rows if r["table"] is not None]
        if number == 2:  # the head swaps two tables' opponents by hand
            pairs = [r["players"] for r in tables]
            pairs[0], pairs[1] = [pairs[0][0], pairs[1][1]], [pairs[1][0], pairs[0][1]]
            spec = tmp_path / "r2.json"
            byes = [r["players"][0] for r in rows if r["bye"]]
            spec.write_text(json.dumps({"pairs": pairs, "byes": byes}))
            ok(db, "event", "repair", event, "--manual", str(spec), "--reason", "seat swap")
            tables = [r for r in as_json(db, "event", "pairings", event) if r["table"]]
        played = tables[:2]  # two tables play their games in the referee
        with open_service(db) as svc:
            for row in played:
                svc.end(row["games"][0], "resignation", who="p2")
        if number == 3:
            ok(db, "event", "penalty", event, played[0]["players"][1], "tardiness")
        with open_service(db) as svc:
            for row in played:  # the first-listed wins game 2 (or the game loss did)
                (now,) = [r for r in svc.event_pairings(event) if r.table == row["table"]]
                if (
                    len(now.games) > 1
                    and svc.event_state(event).result(number, row["table"]) is None
                ):
                    # the loser of game 1 sits first in game 2 (EV-I.10) and resigns it
                    svc.end(now.games[-1], "resignation", who="p1")
        slips = [f"{r['table']}=2-1-0" for r in tables[2:]]
        ok(db, "event", "result", event, *slips)
        if number == 1:
            ok(db, "event", "drop", event, "Player 16")
            ok(db, "event", "undrop", event, "Player 16", "--reason", "dropped by mistake")
            ok(db, "event", "register", event, "--player", "Late Lou", "--late-as-losses")
            ok(db, "event", "correct", event, f"{tables[-1]['table']}=1-2-0", "--reason", "swap")
        ok(db, "event", "pair", event)
    audit = as_json(db, "event", "audit", event)["entries"]
    assert not any("EV-5.4" in " ".join(e.get("warnings", [])) for e in audit)
    while (
        as_json(db, "event", "show", event)["open_round"] is not None
        or not as_json(db, "event", "show", event)["ended"]
    ):
        rows = [r for r in as_json(db, "event", "pairings", event) if r["table"] is not None]
        ok(db, "event", "result", event, *[f"{r['table']}=2-0-0" for r in rows])
        code, _, err = call(db, "event", "pair", event)
        if code != 0:
            assert "EV-6.3" in err  # the bracket is finished
            ok(db, "event", "end", event)
    with open_service(db) as svc:
        created = {
            g: svc.store.events(g)[0] for g in svc.store.game_ids() if not g.startswith("ev-")
        }
        mine = [
            g
            for g, first in created.items()
            if isinstance(first, GameCreated) and first.meta.get("event") == event
        ]
        assert mine
        assert all(isinstance(svc.store.events(g)[-1], GameEnded) for g in mine)
    standings = as_json(db, "event", "standings", event)
    lou = next(r for r in standings if r["player"] == "Late Lou")
    assert lou["record"]["losses"] >= 1


def test_ev_5_13_a_posting_names_the_undo_of_its_round(tmp_path: Path) -> None:
    """EV-5.13: a round-1 pairings posting still holds after the round is undone (the facts
    under it are intact), and its report names the undo with its reason."""
    from service.postings import make_posting, verify_posting
    from service.seal import create_key

    db = tmp_path / "s.db"
    event = new_event(db, "--seed", "3", names=EIGHT[:4])
    ok(db, "event", "pair", event)
    key = tmp_path / "seal.pem"
    public = create_key(key)
    with open_service(db) as svc:
        posting, _ = make_posting(svc.store, event, "pairings", 1, key=key)
    ok(db, "event", "undo-round", event, "--reason", "the wrong list was posted")
    with open_service(db) as svc:
        report = verify_posting(svc.store, event, posting, public)
    assert report.ok
    assert [(c.what, c.reason) for c in report.corrections] == [
        ("round 1 undone", "the wrong list was posted")
    ]


def test_ev_5_13_undoing_a_round_takes_its_bye_out_of_the_standings(tmp_path: Path) -> None:
    """EV-5.13, EV-2.7: the live standings drop an undone round's bye and show an undropped
    player back, exactly as the standings recomputed from the facts."""
    svc: RefereeService = open_service(tmp_path / "s.db", create=True)
    event = svc.event_new("Bye", "prizmik", seed=4).event_id
    svc.event_register(event, ["Ann", "Ben", "Cal"])
    svc.event_drop(event, "Cal")
    svc.event_undrop(event, "Cal", reason="still here")
    svc.event_pair(event)
    assert sorted(row.points for row in svc.event_standings(event)) == [0, 0, 3]
    svc.event_undo_round(event, reason="wrong table numbers")
    live = svc.event_standings(event)
    assert [row.points for row in live] == [0, 0, 0]
    assert all(row.dropped_after is None for row in live)
    fresh = [(s.name, s.points) for s in svc.event_state(event).standings()]
    assert [(row.player, row.points) for row in live] == fresh


def test_ev_5_12_ev_1_5_a_record_holding_a_change_of_nothing_still_imports() -> None:
    """EV-5.12, EV-1.5, EV-8.1: a record stored before a change of nothing was refused (a
    re-pairing that moved no one, the rounds the event already played, a correction to the
    result the table had) is judged as it was stored, so an earlier export imports and
    replays unchanged."""
    state = pure_event(("Ann", "Ben", "Cal", "Dee"), rounds=3)
    created = [f.EventCreated(settings=state.settings)] if state.settings else []
    facts: list[f.Fact] = [*created]
    for name in ("Ann", "Ben", "Cal", "Dee"):
        facts.append(f.PlayerRegistered(player=state.players[state.find(name) or ""]))
    facts.extend(decide(state, PairNext()))
    paired = fold(facts)
    facts.append(f.PairingChanged(round=paired.rounds[1], reason="check", by="HJ"))
    facts.append(f.SettingsChanged(rounds=3, cut=None, reason="same", by="HJ"))
    with pytest.raises(Refusal, match=r"EV-1\.5"):
        decide_fix(paired, ChangeSettings(rounds=3, reason="same"))  # refused live now
    reported = decide(paired, ReportResult(round=1, table=1, slip="2-1-0"))
    facts.extend(reported)
    same = CorrectResult(round=1, table=1, slip="2-1-0", reason="same", by="HJ")
    with pytest.raises(Refusal, match=r"EV-8\.1"):
        decide(fold(reported, paired), same)  # refused live now
    facts.append(f.ResultCorrected(round=1, table=1, reason="same", by="HJ", score=Score(2, 1)))
    when = datetime(2026, 11, 28, tzinfo=UTC)
    header = {"originator_id": "ev-nothing1", "timestamp": when, "prev_hash": "", "hash": ""}
    stored = [
        to_stored(fact, {**header, "originator_version": n}) for n, fact in enumerate(facts, 1)
    ]
    judge_event(stored)  # raises EventJudgement if a stored fact would be refused
    assert fold_stored(stored).rounds == paired.rounds


def test_ev_6_8_a_record_seating_the_lower_seed_first_still_imports() -> None:
    """EV-6.8: a playoff round stored before the better seed was listed first (seed 4
    before seed 3 in the final) is judged as it was stored, so an earlier export imports
    and replays unchanged; the same round with another player in it is still refused."""
    event = Recorded(pure_event(("Ann", "Ben", "Cal", "Dee"), rounds=1, cut=4))
    for _ in range(2):  # the Swiss round, then the semifinal: the second-listed wins
        event.step(PairNext())
        now = event.state.current_round
        for pairing in event.state.rounds[now].pairings:
            event.step(ReportResult(round=now, table=pairing.table or 0, slip="0-2-0"))
    event.step(PairNext())
    state = event.state
    final = state.rounds[3]
    seed = {p: n for n, p in enumerate(state.cut, start=1)}
    assert [seed[p] for p in final.pairings[0].players] == [3, 4]  # EV-6.8 now
    swapped = msgspec.structs.replace(
        final,
        pairings=(
            msgspec.structs.replace(final.pairings[0], players=final.pairings[0].players[::-1]),
        ),
    )

    def stored(last: f.Fact) -> list[Any]:
        return event.stored("ev-seated1", [*event.facts[:-1], last])

    judge_event(stored(f.RoundPaired(round=swapped)))
    assert fold_stored(stored(f.RoundPaired(round=swapped))).rounds[3] == swapped
    other = msgspec.structs.replace(
        final,
        pairings=(
            msgspec.structs.replace(final.pairings[0], players=(state.cut[0], state.cut[3])),
        ),
    )
    with pytest.raises(EventJudgement):
        judge_event(stored(f.RoundPaired(round=other)))


def test_ev_3_10_ev_6_4_pod_slips_stored_before_they_were_refused_still_import() -> None:
    """EV-3.10, EV-6.4 (pods): a record stored before a pod's slip had to place a player
    with a game loss there last, and before a pod event's playoff was read as matches (a
    semifinal in places), is judged as it was stored, so an earlier export imports; the
    same slips are refused live."""
    from referee.tournament import LinkGame, Placement, RecordPenalty

    names = ("Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal")
    event = Recorded(pure_event(names, pods=True, rounds=1, cut=4, match="bo1"))
    event.step(PairNext())
    players = event.state.players
    pods = [p for p in event.state.rounds[1].pairings if p.table is not None]
    event.step(LinkGame(round=1, table=pods[0].table or 0, game="g1"))
    late = pods[0].players[0]
    event.step(RecordPenalty(player=players[late].name, infraction="tardiness"))
    ahead = ",".join(f"{n}:{players[p].name}" for n, p in enumerate(pods[0].players, 1))
    with pytest.raises(Refusal, match=r"EV-3\.10"):
        decide(event.state, ReportResult(round=1, table=pods[0].table or 0, slip=ahead))  # live
    for pod in pods:  # the late player first at their pod, as a slip of then allowed
        event.append(
            f.MatchReported(
                round=1,
                table=pod.table or 0,
                placement=Placement(tuple((p, n) for n, p in enumerate(pod.players, 1))),
            )
        )
    event.step(PairNext())  # the semifinals: matches of two
    first, second = event.state.rounds[2].pairings[0].players
    places = Placement(((first, 1), (second, 2)))
    named = f"1:{players[first].name},2:{players[second].name}"
    with pytest.raises(Refusal, match=r"EV-3\.1"):
        decide(event.state, ReportResult(round=2, table=1, slip=named))  # live: W-L-D
    event.facts.append(f.MatchReported(round=2, table=1, placement=places))
    stored = event.stored("ev-podslip")
    judge_event(stored)  # raises EventJudgement if a stored fact would be refused
    assert fold_stored(stored).result(2, 1) == places


def test_ev_i_15_pods_decided_by_games_before_it_still_import() -> None:
    """EV-I.15, EV-8.1: a record whose pod of two was decided by its linked games (then a
    2-1 match, W-L-D in the standings) and then corrected to the slip with the same winner
    (then a change, now the result it already has), and whose pod of three's game placed
    2, 2, 3, is judged as it was stored: the facts are the same, and the tables now give
    the places their slips would."""
    from referee.tournament import LinkGame, Placement, RecordGameResult

    names = ("Ann", "Ben", "Cal", "Dee", "Eve")
    event = Recorded(pure_event(names, pods=True, rounds=1))
    event.step(PairNext())
    three, two = (p.players for p in event.state.rounds[1].pairings)
    a, b = two
    for name, game in (("g1", {a: 1, b: 2}), ("g2", {a: 2, b: 1}), ("g3", {a: 1, b: 2})):
        event.step(LinkGame(round=1, table=2, game=name))
        event.step(RecordGameResult(game=name, placings=game))
    places = Placement(((a, 1), (b, 2)))
    corrected = f.ResultCorrected(round=1, table=2, placement=places, reason="slip", by="")
    event.append(corrected)
    event.step(LinkGame(round=1, table=1, game="g4"))
    event.step(RecordGameResult(game="g4", placings=dict(zip(three, (2, 2, 3), strict=True))))
    stored = event.stored("ev-podgames")
    judge_event(stored)  # raises EventJudgement if a stored fact would be refused
    state = fold_stored(stored)
    assert state.result(1, 2) == places
    found = state.result(1, 1)
    assert isinstance(found, Placement)
    assert sorted(place for _, place in found.places) == [1, 1, 3]

"""The event service on its own: event decklists reach every game of the player
(a sealed list stays sealed), a best-of-3 played out game by game decides its match
(EV-3.8), and pairing stores the round and its games in one transaction."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from events.schema import DeckRegistered, GameCreated
from referee.contract import Setup
from referee.kit.decks import SealedDeck
from referee.tournament import facts as f
from service.app import RefereeService, open_service
from service.errors import RefusedError
from service.tournaments import EventRefusedError
from tests.gammasphere.helpers import DECK, OTHER


@pytest.fixture
def svc(tmp_path: Path) -> RefereeService:
    return open_service(tmp_path / "store.db", create=True)


def test_event_decklists_are_used_by_every_game_and_sealed_stays_sealed(
    svc: RefereeService,
) -> None:
    event = svc.event_new("Decks", "gammasphere", rounds=2).event_id
    sealed, _salt = svc.seal_decklist(OTHER)
    svc.event_register(event, ["Ann"], deck=DECK)
    svc.event_register(event, ["Ben"], deck=sealed)
    (table,) = svc.event_pair(event)
    stream = svc.store.events(table.games[0])
    created = stream[0]
    assert isinstance(created, GameCreated)
    assert created.meta["event"] == event
    assert created.meta["round"] == "1"
    names = {p.seat: p.name for p in created.players}  # round 1 is drawn (EV-5.6)
    decks = {names[e.seat]: e.deck for e in stream if isinstance(e, DeckRegistered)}
    assert decks["Ann"] == DECK
    assert isinstance(decks["Ben"], SealedDeck)
    assert decks["Ben"].commitment
    log = [line.text for line in svc.event_log(event)]
    assert any("sealed list" in text for text in log)


def test_a_refused_event_decklist_stores_nothing(svc: RefereeService) -> None:
    # an illegal list is refused by the clause of decklists (EV-2.8), not of names (EV-2.2)
    event = svc.event_new("Decks", "gammasphere").event_id
    version = svc.event_info(event).version
    with pytest.raises(EventRefusedError, match=r"EV-2.8: the event decklist is refused"):
        svc.event_register(event, ["Ann"], deck=SealedDeck(commitment="ab" * 32, size=1))
    assert svc.event_info(event).version == version


def test_a_best_of_three_played_game_by_game_decides_its_match(svc: RefereeService) -> None:
    # seed 1 draws Ann first (EV-5.6: sha256 of "1:1:p1" sorts before "1:1:p2")
    event = svc.event_new("Bo3", "gammasphere", rounds=1, seed=1).event_id
    svc.event_register(event, ["Ann", "Ben"])
    (table,) = svc.event_pair(event)
    svc.end(table.games[0], "resignation", who="p1")  # Ben wins game 1
    (table,) = svc.event_pairings(event)
    assert len(table.games) == 2  # game 2 created when game 1 ended
    svc.end(table.games[1], "resignation", who="p2")  # Ann wins game 2
    third = svc.event_pairings(event)[0].games[2]
    assert svc.load(third).created.players[0].name == "Ben"  # Ben lost game 2: he sits first
    svc.end(third, "agreement")  # game 3 drawn (EV-I.10: the loser of a game sits first)
    (table,) = svc.event_pairings(event)
    assert len(table.games) == 4  # 1-1-1 decides nothing yet: a fourth game (EV-3.2)
    assert svc.load(table.games[3]).created.players[0].name == "Ben"  # a draw keeps the seats
    svc.end(table.games[3], "resignation", who="p2")  # Ann resigns game 4
    assert svc.event_state(event).result(1, 1) is not None
    ann, ben = sorted(svc.event_standings(event), key=lambda s: s.player)
    assert (ann.record.losses, ben.record.wins) == (1, 1)
    assert ben.gw == "7/12"  # 2 wins and a draw of 4 games: (6 + 1) / 12
    with pytest.raises(EventRefusedError, match=r"EV-3.7"):
        svc.event_result(event, ["1=2-0-0"])


def test_pairing_stores_round_and_games_in_one_transaction(svc: RefereeService) -> None:
    event = svc.event_new("Atomic", "gammasphere").event_id
    svc.event_register(event, [f"P{n}" for n in range(8)])
    before = set(svc.store.game_ids())

    def broken(*_: object) -> None:
        raise OSError("the disk is full")

    original = svc.store.app.save
    svc.store.app.save = broken  # type: ignore[method-assign,assignment]
    with pytest.raises(OSError, match="the disk is full"):
        svc.event_pair(event)
    svc.store.app.save = original  # type: ignore[method-assign]
    assert set(svc.store.game_ids()) == before
    assert svc.event_info(event).current_round == 0
    assert len(svc.event_pair(event)) == 4


def test_a_fact_a_write_foresaw_but_did_not_store_is_never_folded(svc: RefereeService) -> None:
    """A write applies its facts before storing them, and the fold of the stored facts takes
    the states it foresaw (a round's pairing is applied once); a stored fact other than the
    foreseen one is applied afresh (EV-2.6: only the player who dropped is dropped)."""
    event = svc.event_new("Foreseen", "gammasphere").event_id
    svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    svc.event_pair(event)
    loaded = svc.parts.events._event(event)
    state = loaded.state
    ann, ben = state.find("Ann"), state.find("Ben")
    assert ann is not None
    assert ben is not None
    loaded.applied(state, f.PlayerDropped(player=ben, after_round=1, reason="foreseen only"))
    svc.event_drop(event, "Ann", reason="stored")
    after = svc.event_state(event)
    assert after.players[ann].dropped_after == 1
    assert after.players[ben].dropped_after is None
    assert after == open_service(svc.store.path or "").event_state(event)  # the log's fold


def test_a_disqualification_drops_the_player_and_repeats_are_upgraded(
    svc: RefereeService,
) -> None:
    """EV-8.4 (IPG upgrades across the event); a disqualified player loses the match in
    progress and leaves (EV-8.6, IPG 1.1 and 1.4)."""
    event = svc.event_new("Penalties", "gammasphere").event_id
    svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    svc.event_pair(event)
    assert svc.event_penalize(event, "Ann", "deck-problem").penalty == "warning"
    assert svc.event_penalize(event, "Ann", "deck-problem").penalty == "game-loss"  # the second
    assert svc.event_penalize(event, "Ben", "cheating").penalty == "disqualification"
    (ben,) = [s for s in svc.event_standings(event) if s.player == "Ben"]
    assert ben.dropped_after == 1
    whats = [e["what"] for e in svc.event_audit(event)["entries"]]
    # the game loss ended Ann's game at once, which the audit also shows (EV-8.6); Ben's
    # disqualification lost his match, voiding its open game, before the drop
    assert whats == [
        "penalty",
        "penalty",
        "penalty applied",
        "penalty",
        "games voided",
        "penalty applied",
        "drop",
    ]
    assert ben.record.losses == 1


def test_a_games_end_and_its_match_update_are_one_write(
    svc: RefereeService, tmp_path: Path
) -> None:
    """A crash after the first write of a game's end never leaves a finished game whose
    match did not hear of it (EV-3.8): the end, the match's result and the next game
    are stored in one transaction."""
    event = svc.event_new("One write", "gammasphere", rounds=1).event_id
    svc.event_register(event, ["Ann", "Ben"])
    (table,) = svc.event_pair(event)
    first = table.games[0]
    original = svc.store.app.save
    calls: list[int] = []

    def crash_after_first_write(*batches: Any) -> object:
        calls.append(len({e.originator_id for b in batches for e in b.collect_events()}))
        if len(calls) > 1:
            raise OSError("the process died here")
        return original(*batches)

    svc.store.app.save = crash_after_first_write  # type: ignore[method-assign,assignment]
    try:
        svc.end(first, "resignation", who="p1")
    finally:
        svc.store.app.save = original  # type: ignore[method-assign]
    assert calls == [3]  # one save holds the game, the event, the match's second game
    reread = open_service(tmp_path / "store.db")
    assert reread.load(first).ended is not None
    state = reread.event_state(event)
    assert [g for g, _ in state.tables[(1, 1)].game_results] == [first]
    assert len(reread.event_pairings(event)[0].games) == 2


def test_a_failed_write_of_a_games_end_stores_neither(svc: RefereeService, tmp_path: Path) -> None:
    event = svc.event_new("Nothing", "gammasphere", rounds=1).event_id
    svc.event_register(event, ["Ann", "Ben"])
    (table,) = svc.event_pair(event)
    version = svc.event_info(event).version

    def broken(*_: object) -> None:
        raise OSError("the disk is full")

    original = svc.store.app.save
    svc.store.app.save = broken  # type: ignore[method-assign,assignment]
    with pytest.raises(OSError, match="the disk is full"):
        svc.end(table.games[0], "resignation", who="p1")
    svc.store.app.save = original  # type: ignore[method-assign]
    assert svc.load(table.games[0]).ended is None
    assert open_service(tmp_path / "store.db").event_info(event).version == version


def test_voiding_a_counted_games_result_is_refused_with_event_correct(
    svc: RefereeService,
) -> None:
    """EV-8.5: a game loss found after a counted result would void it inside the game;
    refused, naming 'event correct'; nothing stored in the game or the event."""
    event = svc.event_new("Void", "gammasphere", rounds=1).event_id
    svc.event_register(event, ["Ann", "Ben"])
    (table,) = svc.event_pair(event)
    first = table.games[0]
    svc.end(first, "resignation", who="p1")
    game_version = svc.load(first).version
    event_version = svc.event_info(event).version
    with pytest.raises(RefusedError, match=r"EV-8\.5.*referee event correct"):
        svc.penalty(first, "p2", "game_loss", "drawing extra cards")
    assert svc.load(first).version == game_version
    assert svc.event_info(event).version == event_version


def test_pairing_resolves_a_games_setup_once_per_round_not_per_table(
    svc: RefereeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pairing a 2,048-player round spent a tenth of its time resolving the same setup
    1,024 times: the defaults resolving adds are reused, and every game still has them."""
    from referee.games.gammasphere.rules import GammasphereRules

    event = svc.event_new("Setups", "gammasphere", rounds=1).event_id
    svc.event_register(event, [f"P{n}" for n in range(16)])
    calls: list[int] = []
    original = GammasphereRules.resolve_setup

    def counted(self: GammasphereRules, setup: Setup) -> Setup:
        calls.append(1)
        return original(self, setup)

    monkeypatch.setattr(GammasphereRules, "resolve_setup", counted)
    rows = svc.event_pair(event)
    assert len(rows) == 8
    assert len(calls) <= 2
    created = [svc.store.events(r.games[0])[0] for r in rows]
    first = created[0]
    assert isinstance(first, GameCreated)
    expected = original(GammasphereRules(), Setup(players=first.players, options={})).options
    for game in created:
        assert isinstance(game, GameCreated)
        assert game.options == expected  # catalog digest, first seat, deck size: all there
    ids = [r.games[0] for r in rows]
    assert len(set(ids)) == 8
    assert all(re.fullmatch(r"gammasphere-[23456789a-hjkmnp-z]{8}", g) for g in ids)


def test_standings_after_the_cut_show_the_final_ranking(svc: RefereeService) -> None:
    """EV-I.9: once the cut is made each row has its final place; the champion is 1st
    whatever its Swiss rank, and the Swiss ranks stay (EV-6.5)."""
    event = svc.event_new("Cut", "gammasphere", rounds=2, cut=4).event_id
    svc.event_register(event, [f"P{n}" for n in range(8)])
    for _ in range(2):
        rows = svc.event_pair(event)
        svc.event_result(event, [f"{r.table}=2-1-0" for r in rows if not r.bye])
    assert all(r.final_rank is None for r in svc.event_standings(event))
    swiss = svc.event_standings(event)
    for _ in range(2):  # semi-finals, then the final: the lower seed wins each match
        rows = svc.event_pair(event)
        svc.event_result(event, [f"{r.table}=0-2-0" for r in rows if not r.bye])
    champion = rows[0].players[1]
    after = svc.event_standings(event)
    assert sorted((r.player, r.rank) for r in after) == sorted((r.player, r.rank) for r in swiss)
    assert [r.final_rank for r in after] == list(range(1, 9))  # listed in final order (EV-6.7)
    assert [r.went for r in after[:4]] == ["champion", "finalist", "semifinalist", "semifinalist"]
    final = {r.player: r.final_rank or 0 for r in after}
    assert final[champion] == 1
    assert final[rows[0].players[0]] == 2
    assert sorted(final.values()) == list(range(1, 9))
    assert {final[r.player] for r in swiss[4:]} == {5, 6, 7, 8}


def test_a_match_loss_at_a_pod_places_the_player_last_in_the_standings(
    svc: RefereeService, tmp_path: Path
) -> None:
    """EV-I.11 (EV-8.6 at a pod table): the match loss is applied at the pod and the slip
    reported after it counts with the player last; the standings kept up to date agree with
    those built afresh, before and after the penalty is withdrawn (EV-8.7)."""
    event = svc.event_new("Pod", "prismatic", pods=True).event_id
    svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    svc.event_pair(event)
    assert [s.points for s in svc.event_standings(event)] == [0, 0, 0, 0]  # kept from here
    done = svc.event_penalize(event, "Ben", "outside-assistance")
    assert done.penalty == "match-loss"
    svc.event_result(event, ["1=Ben>Ann>Cal>Dee"])  # the slip as the pod finished
    points = {s.player: s.points for s in svc.event_standings(event)}
    assert points == {"Ann": 9, "Cal": 6, "Dee": 3, "Ben": 0}
    fresh = open_service(tmp_path / "store.db")
    assert {s.player: s.points for s in fresh.event_standings(event)} == points
    svc.event_penalty_withdraw(event, 1, reason="it was Cal's phone")
    back = {s.player: s.points for s in svc.event_standings(event)}
    assert back == {"Ben": 9, "Ann": 6, "Cal": 3, "Dee": 0}
    fresh = open_service(tmp_path / "store.db")
    assert {s.player: s.points for s in fresh.event_standings(event)} == back


def test_a_penalty_at_a_pod_says_where_it_took_effect(svc: RefereeService) -> None:
    """EV-8.6, EV-I.11: a match loss given while the player's pod is playing places them
    last there; the head referee was told "has no match in progress: it decides their
    next match". A slip refused once the pod's result stands names the players, not their
    ids (EV-3.6)."""
    event = svc.event_new("Pod", "prismatic", pods=True, seed=3).event_id
    svc.event_register(event, ["Ann", "Ben", "Cal"])
    svc.event_pair(event)
    done = svc.event_penalize(event, "Ben", "outside-assistance")
    assert done.penalty == "match-loss"
    assert done.effect == "round 1 table 1: Ben is placed last in the pod (EV-I.11)"
    cheat = svc.event_penalize(event, "Cal", "cheating")
    assert cheat.effect == "round 1 table 1: Cal is placed last in the pod (EV-I.11), and dropped"
    svc.event_result(event, ["1=1:Ann,2:Ben,3:Cal"])
    with pytest.raises(EventRefusedError, match=r"already reported \(Ann>Ben>Cal\)"):
        svc.event_result(event, ["1=1:Ann,2:Cal,3:Ben"])
    said = svc.event_penalty_withdraw(event, 2, reason="misjudged")  # EV-8.7: Cal returns
    assert "undropped: Cal (penalty 2 withdrawn: misjudged)" in said, said


def test_the_desk_lists_a_pod_match_loss_as_placing_the_player_last(
    svc: RefereeService,
) -> None:
    """EV-I.11, EV-8.6: the penalties' list (the desk's) said "match lost" for a match loss
    at a pod, where the player is placed last and the others play on; a two-player
    match's still reads "match lost"."""
    from service.postings import penalty_lines

    event = svc.event_new("Pod", "prismatic", pods=True, seed=3).event_id
    svc.event_register(event, ["Ann", "Ben", "Cal"])
    svc.event_pair(event)
    svc.event_penalize(event, "Ben", "outside-assistance")
    [line] = penalty_lines(svc.event_state(event))
    assert line.effect == "round 1 table 1: placed last in the pod", line
    two = svc.event_new("Two", "prismatic", seed=3).event_id
    svc.event_register(two, ["Ann", "Ben"])
    svc.event_pair(two)
    svc.event_penalize(two, "Ben", "outside-assistance")
    [line] = penalty_lines(svc.event_state(two))
    assert line.effect == "round 1 table 1: match lost", line


def test_a_round_mark_stored_before_it_named_its_recorder_folds_and_verifies(
    tmp_path: Path,
) -> None:
    """EV-5.10: a round mark of the shape stored before marks said who made them
    (``{"round": 1}``, no ``by``) decodes with ``by`` unset, is still canonical and hashes
    to its own stored hash, folds (the round is started), verifies, and its log line names
    no one; the next mark, made with a name, stores and shows it."""
    import hashlib

    import msgspec

    from events.codec import decode, event_hash, is_canonical, own_hash
    from events.tournament import TournamentEvent, to_fact

    store = tmp_path / "store.db"
    with open_service(store, create=True) as svc:
        event = svc.event_new("Old", "gammasphere", rounds=2, seed=1).event_id
        svc.event_register(event, ["Ann", "Ben"])
        svc.event_pair(event)
        last = svc.store.last_row(event)
        assert last is not None
        number, topic, state = last
        # the stored class of that time, written as its code wrote it
        old_class = msgspec.defstruct(
            "EventRoundStarted",
            [("round", int)],
            bases=(TournamentEvent,),
            frozen=True,
            kw_only=True,
        )
        old = old_class(
            originator_id=event,
            originator_version=number + 1,
            timestamp=decode(topic, state).timestamp,
            prev_hash=own_hash(state),
            round=1,
        )
        started = "referee.event.RoundStarted.v1"
        sealed = hashlib.sha256(started.encode() + b"\n" + msgspec.json.encode(old)).hexdigest()
        stored = msgspec.json.encode(msgspec.structs.replace(old, hash=sealed))
        assert b'"by"' not in stored
        svc.store.insert_rows([(event, [(number + 1, started, stored)])])

    read = decode(started, stored)
    fact = to_fact(read)
    assert isinstance(fact, f.RoundStarted)
    assert fact.by is msgspec.UNSET
    assert is_canonical(started, stored)  # today's class encodes it to the same bytes
    assert event_hash(read) == sealed
    with open_service(store) as svc:
        assert svc.store.last_row(event) == (number + 1, started, stored)  # as stored
        assert 1 in svc.event_state(event).started
        assert svc.event_log(event)[-1].text == "round 1 started"
        report = svc.verify()
        assert report.bad == 0, [r.findings for r in report.reports if not r.ok]
        svc.event_result(event, ["1=2-0-0"])
        svc.event_round(event, "end", by="Zed")
        (_, _, ended) = svc.store.last_row(event) or (0, "", b"")
        assert ended.endswith(b'"round":1,"by":"Zed"}')
        assert svc.event_log(event)[-1].text == "round 1 ended by Zed"
        assert 1 in svc.event_state(event).ended_rounds
        report = svc.verify()
        assert report.bad == 0, [r.findings for r in report.reports if not r.ok]


def test_ev_2_3_the_named_audit_lists_late_entries_in_one_reading_of_the_log(
    svc: RefereeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """EV-2.3: a player registered after round 1 was paired is a late entry, listed in the
    named audit where it was stored, among the other entries (a drop, a penalty), named as
    the event names them (two players called Ann: each with their id), with the match
    losses counted for the rounds missed where the head asked for them (EV-2.9). The event's log is
    read once for it, and the answer is what the audit and a second reading of the log for
    the late entries made before."""
    from events.codec import decode
    from events.tournament import to_fact
    from service.eventprint import people

    event = svc.event_new("Late", "gammasphere", rounds=3).event_id
    svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    svc.event_pair(event)
    svc.event_register(event, ["Ann"], allow_similar=True)  # a late entry sharing a name
    svc.event_drop(event, "Cal", reason="ill")
    svc.event_penalize(event, "Ben", "deck-problem")
    svc.event_register(event, ["Eve"], late_as_losses=True)  # counted a loss a round missed
    state = svc.event_state(event)
    names = people(state)
    before: dict[str, Any] = svc.event_audit(event)  # the old two readings, as they were
    rows = svc.store.rows(event)
    late: list[dict[str, Any]] = []
    for number, topic, stored in rows:
        fact = to_fact(decode(topic, stored))
        if isinstance(fact, f.PlayerRegistered) and fact.player.entry_round > 1:
            late.append(
                {
                    "event": number,
                    "what": "late entry",
                    "player": names.get(fact.player.id, fact.player.name),
                    "round": fact.player.entry_round,
                }
            )
            if fact.player.late_as_losses is True:  # EV-2.9
                late[-1]["match_losses"] = fact.player.entry_round - 1
    assert len(late) == 2
    assert "match_losses" not in late[0]
    assert late[1]["match_losses"] == 1
    assert late[0]["player"] != "Ann"  # one of two Anns: named with the id
    assert str(late[0]["player"]).startswith("Ann")
    read: list[str] = []
    real = svc.store.rows

    def counted(stream: str, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs:  # the whole log (not the cached fold's catching up)
            read.append(stream)
        return real(stream, *args, **kwargs)

    monkeypatch.setattr(svc.store, "rows", counted)
    named = svc.event_audit_named(event)
    assert read == [event]  # once, for the audit and its late entries
    entries = named["entries"]
    assert [e for e in entries if e["what"] == "late entry"] == late
    assert [e["event"] for e in entries] == sorted(e["event"] for e in entries)
    others = [e for e in entries if e["what"] != "late entry"]
    assert [e["what"] for e in others] == [e["what"] for e in before["entries"]]
    assert len(entries) == len(before["entries"]) + 2


def test_a_record_started_after_its_round_ended_still_imports_and_verifies(
    tmp_path: Path,
) -> None:
    """EV-5.10: a start mark stored after its round's end, as the rules took it before such
    a mark was refused, is kept: the event verifies, its export imports into another store
    (the import's judge re-decides the mark as stored, not as a live command) and verifies
    there, with the same log."""
    from service.interchange import export_records, import_records

    store = tmp_path / "store.db"
    with open_service(store, create=True) as svc:
        event = svc.event_new("Late mark", "gammasphere", rounds=2, seed=1).event_id
        svc.event_register(event, ["Ann", "Ben"])
        svc.event_pair(event)
        svc.event_result(event, ["1=2-0-0"])
        svc.event_round(event, "end", by="Zed")
        with pytest.raises(EventRefusedError, match=r"EV-5\.10: round 1 has already ended"):
            svc.event_round(event, "start", 1, by="Zed")  # refused live now
        events = svc.parts.events
        events._append(events._event(event), [f.RoundStarted(round=1, by="Zed")])  # as of old
        log = [line.text for line in svc.event_log(event)]
        assert log[-2:] == ["round 1 ended by Zed", "round 1 started by Zed"]
        assert svc.verify().bad == 0
        record = tmp_path / "late.jsonl"
        record.write_text("".join(export_records(svc.store, [event], "jsonl")))
    with open_service(tmp_path / "copy.db", create=True) as other:
        report = import_records(other.store, [str(record)], workers=1)
        assert [o.detail for o in report.refused] == []
        assert len(report.imported) == 1
        assert [line.text for line in other.event_log(event)] == log
        assert other.verify().bad == 0
        assert 1 in other.event_state(event).started

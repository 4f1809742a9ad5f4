"""An organizer's and scorekeeper's walk through events (MTR practice, docs/tournaments.md):
what the walk found wrong, each refusal one line naming its EV clause, exit 2, nothing
stored."""

from __future__ import annotations

import json
from pathlib import Path

from tests.events.test_event_cli import as_json, call, ok, refused, store_rows

FOUR = ["Ann", "Ben", "Cal", "Dee"]


def new_event(db: Path, *args: str, names: list[str] = FOUR) -> str:
    event = ok(db, "event", "new", "Walk", "--game", "gammasphere", *args).splitlines()[-1]
    ok(db, "event", "register", event, *[a for n in names for a in ("--player", n)])
    return event


def test_ev_1_5_a_change_keeps_the_bounds_event_new_keeps(tmp_path: Path) -> None:
    """EV-1.5 (docs: rounds 1-20, a cut 0 or a power of two up to 64, one set of bounds for
    every door): `event change` cannot set 50 rounds or a top-3 or top-1024 cut that
    `event new` refuses; refused naming EV-1.5, nothing stored."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "3", "--cut", "2")
    for option in (["--rounds", "50"], ["--cut", "3"], ["--cut", "1024"], ["--cut", "12"]):
        refused(db, "EV-1.5", "event", "change", event, *option, "--reason", "walk")
    info = as_json(db, "event", "show", event)
    assert (info["rounds"], info["cut"]) == (3, 2)


def test_ev_1_1_event_new_bounds_name_their_clause(tmp_path: Path) -> None:
    """EV-1.1: `event new` with 50 rounds or a top-3 cut is refused in one line naming the
    clause (every refusal names its EV clause), nothing stored."""
    db = tmp_path / "s.db"
    new_event(db)
    for option in (["--rounds", "50"], ["--cut", "3"]):
        refused(db, "EV-1.1", "event", "new", "X", "--game", "gammasphere", *option)


def test_ev_5_12_an_engine_repair_after_a_result_exports_and_imports(tmp_path: Path) -> None:
    """EV-5.12 (docs: "Once some tables have results, re-pair the rest with the engine"):
    an event re-paired by the engine after a table's result is exported and imported into a
    fresh store with the same standings; the import judged the re-pairing as a hand pairing
    of a round with results and refused the whole record."""
    db, fresh = tmp_path / "s.db", tmp_path / "fresh.db"
    names = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]
    event = new_event(db, "--seed", "5", "--rounds", "2", names=names)
    ok(db, "event", "drop", event, "Hal", "--reason", "signed out by mistake")
    ok(db, "event", "pair", event)
    ok(db, "event", "result", event, "1=2-0-0")
    ok(db, "event", "undrop", event, "Hal", "--reason", "Hal is here")
    assert "kept with their result: table 1" in ok(
        db, "event", "repair", event, "--reason", "Hal is back"
    )
    ok(db, "event", "result", event, "2=2-1-0", "3=0-2-0", "4=1-1-1")
    record = tmp_path / "ev.jsonl"
    ok(db, "event", "export", event, "-o", str(record))
    ok(fresh, "import", str(record))
    assert as_json(fresh, "event", "standings", event) == as_json(db, "event", "standings", event)


def test_ev_8_7_withdraw_takes_a_number_and_says_its_clause(tmp_path: Path) -> None:
    """EV-8.7: `event penalty EVENT withdraw N` with N not a penalty's number (a word, a
    full-width digit) is refused in one line naming EV-8.7, nothing stored."""
    db = tmp_path / "s.db"
    event = new_event(db)
    ok(db, "event", "pair", event)
    ok(db, "event", "penalty", event, "Ann", "looking-at-extra-cards")
    for number in ("abc", "\uff11"):
        refused(db, "EV-8.7", "event", "penalty", event, "withdraw", number, "--reason", "x")


def test_one_event_is_not_another_a_copied_event_links_no_other_events_games(
    tmp_path: Path,
) -> None:
    """Issue 31 (one event is not another): `referee import --as-new` of an event record
    into the store holding the event made a copy whose tables named the original event's
    games (read and played there), under an id `event list` did not show. An event record
    is refused as a copy, naming why; nothing is stored, the original is untouched."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "2")
    ok(db, "event", "pair", event)
    record = tmp_path / "ev.jsonl"
    ok(db, "event", "export", event, "-o", str(record))
    before = store_rows(db)
    code, out, err = call(db, "import", "--as-new", str(record))
    assert code == 2, (out, err)
    assert "Traceback" not in err
    assert "event" in err
    assert store_rows(db) == before
    assert [e["event_id"] for e in as_json(db, "event", "list")] == [event]


def test_one_event_is_not_another_an_imported_event_links_no_other_events_game(
    tmp_path: Path,
) -> None:
    """Issue 31 (imports are judged; one event is not another): an event record, re-hashed,
    whose table names a game the store holds for another event imported, and that event's
    game was then listed at its table. Refused naming the game; nothing stored."""
    db = tmp_path / "s.db"
    first = new_event(db, "--rounds", "2", "--seed", "1")
    other = new_event(db, "--rounds", "2", "--seed", "2")
    for event in (first, other):
        ok(db, "event", "pair", event)
    theirs = as_json(db, "event", "pairings", other)[0]["games"][0]
    record = tmp_path / "ev.jsonl"
    ok(db, "event", "export", first, "-o", str(record))
    forged = tmp_path / "forged.jsonl"
    forged.write_text(_relinked(record, "ev-forged0001", theirs))
    before = store_rows(db)
    code, out, err = call(db, "import", str(forged))
    assert code == 2, (out, err)
    assert theirs in err
    assert "Traceback" not in err
    assert store_rows(db) == before


def _relinked(record: Path, new_id: str, game: str) -> str:
    """``record`` under ``new_id``, its first linked game replaced by ``game``, re-sealed."""
    import json

    import msgspec

    from events.codec import encode, seal_after
    from events.interchange.jsonl import read_jsonl
    from events.schema import GENESIS_HASH, KIND_OF_TOPIC, TOPIC_OF

    rows = read_jsonl(record.read_text().splitlines(), str(record))
    events = []
    for _, event, _, _ in rows:
        event = msgspec.structs.replace(event, originator_id=new_id, hash="", prev_hash="")
        if type(event).__name__ == "EventGameLinked" and game:
            event = msgspec.structs.replace(event, game=game)
            game = ""
        events.append(event)
    sealed = seal_after(0, GENESIS_HASH, events)
    header = {"format": "referee-jsonl/1", "game_id": new_id, "game": ""}
    lines = [json.dumps({**header, "events": len(sealed), "last_hash": sealed[-1].hash})]
    for event in sealed:
        topic = TOPIC_OF[type(event)]
        body = encode(event).decode()[1:]
        lines.append(f'{{"kind":"{KIND_OF_TOPIC[topic]}","topic":"{topic}",' + body)
    return "\n".join(lines) + "\n"


def test_ev_6_6_the_audit_calls_playoff_rounds_by_their_stage(tmp_path: Path) -> None:
    """EV-6.6 (docs: `event log` and `event audit` call playoff rounds by their stage): the
    audit's closed games and a correction in the final name "final (round 2)", as the log
    does, not "round 2" alone."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "1", "--cut", "2", "--seed", "4")
    ok(db, "event", "pair", event)
    ok(db, "event", "result", event, "1=2-0-0", "2=0-2-0")
    ok(db, "event", "pair", event)  # the cut: the final
    ok(db, "event", "result", event, "1=2-0-0")
    ok(db, "event", "correct", event, "1=2-1-0", "--reason", "a game was missed")
    entries = as_json(db, "event", "audit", event)["entries"]
    voided = [e for e in entries if e["what"] == "games voided" and "(round 2)" in e["reason"]]
    assert voided
    assert all(e["reason"].startswith("final (round 2) table 1") for e in voided)
    corrected = [e for e in entries if e["what"] == "result corrected"]
    assert [e.get("stage") for e in corrected] == ["final (round 2)"]
    text = ok(db, "event", "audit", event)
    assert "round 2 table" not in text.replace("final (round 2) table", "")


def test_ev_8_6_ev_1_1_an_unknown_penalty_or_game_names_the_clause(tmp_path: Path) -> None:
    """EV-8.6 (the head referee chooses among the IPG's penalties) and EV-1.1 (an event names
    its game): `event penalty ... --penalty death` and `event new --game nope` are refused in
    one line naming the clause, nothing stored."""
    db = tmp_path / "s.db"
    event = new_event(db)
    ok(db, "event", "pair", event)
    refused(db, "EV-8.6", "event", "penalty", event, "Ann", "tardiness", "--penalty", "death")
    refused(db, "EV-1.1", "event", "new", "X", "--game", "nope")


def test_ev_5_11_a_reason_without_a_pairing_by_hand_is_refused(tmp_path: Path) -> None:
    """EV-5.11: the reason belongs to a pairing by hand; given to the engine's pairing it
    would be kept nowhere, so it is refused (exit 2, nothing stored) rather than dropped."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "3")
    before = store_rows(db)
    refused(db, "EV-5.11", "event", "pair", event, "--reason", "travel byes")
    assert store_rows(db) == before
    assert "Ann" in ok(db, "event", "pair", event)


def test_ev_i_6_a_late_entry_is_not_explained_in_a_round_before_their_entry(
    tmp_path: Path,
) -> None:
    """EV-I.6: the standings after round 1 leave out a player who entered in round 2, so
    explaining that player's line after round 1 is refused (exit 2) rather than showing
    figures of a line that is not there; after round 2 it is explained."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "3")
    ok(db, "event", "pair", event)
    ok(db, "event", "result", event, "1=2-0-0", "2=2-1-0")
    ok(db, "event", "register", event, "--player", "Ora")
    ok(db, "event", "pair", event)
    refused(db, "EV-I.6", "event", "standings", event, "--round", "1", "--explain", "Ora")
    assert "Ora" not in ok(db, "event", "standings", event, "--round", "1")
    assert "Ora" in ok(db, "event", "standings", event, "--explain", "Ora")


def test_ev_8_3_event_correct_says_the_later_round_keeps_its_pairings(tmp_path: Path) -> None:
    """EV-8.3, EV-5.12 (docs/hall.md, the desk's *correct a result*): correcting round 1 once
    round 2 is paired says on the command line, as the desk does, that the standings use it,
    that round 2 keeps its pairings and how to pair round 2 again; a correction of the
    latest round says nothing more."""
    db = tmp_path / "s.db"
    event = new_event(db, "--seed", "3", "--rounds", "3")
    ok(db, "event", "pair", event)
    ok(db, "event", "result", event, "1=2-0-0", "2=2-1-0")
    ok(db, "event", "pair", event)
    said = ok(db, "event", "correct", event, "1=0-2-0", "--round", "1", "--reason", "swapped")
    assert said.strip() == (
        "round 1 1=0-2-0 corrected; the standings use it; round 2, paired before it, keeps "
        "its pairings (EV-8.3); to pair round 2 again from the corrected standings, re-pair "
        "it (EV-5.12)"
    ), said
    ok(db, "event", "result", event, "1=2-0-0", "2=2-0-0")
    said = ok(db, "event", "correct", event, "2=0-2-0", "--reason", "swapped")
    assert said.strip() == "round 2 2=0-2-0 corrected", said


def test_ev_5_4_pairing_by_hand_says_its_rematches_at_once(tmp_path: Path) -> None:
    """EV-5.11, EV-5.12, EV-5.4: a pairing or re-pairing by hand that seats players who have
    met is recorded with a warning for the audit; the command now says each warning too,
    on standard error (standard output keeps the pairings, or the JSON), so the head judge
    hears of a rematch when pairing, not later from the audit. The engine's pairing (no
    warning) says none."""
    db = tmp_path / "s.db"
    event = new_event(db, "--seed", "3", "--rounds", "3")
    ok(db, "event", "pair", event)
    first = as_json(db, "event", "pairings", event)
    ok(db, "event", "result", event, "1=2-0-0", "2=2-1-0")
    again = tmp_path / "again.json"
    again.write_text(json.dumps({"pairs": [row["players"] for row in first]}))
    code, out, err = call(db, "event", "pair", event, "--manual", str(again), "--reason", "walk")
    assert code == 0, err
    a, b = first[0]["players"]
    c, d = first[1]["players"]
    assert err.splitlines() == [
        f"warning: EV-5.4: table 1: {a} and {b} have met before",
        f"warning: EV-5.4: table 2: {c} and {d} have met before",
    ], err
    crossed = tmp_path / "crossed.json"
    crossed.write_text(json.dumps({"pairs": [[a, c], [b, d]]}))
    code, out, err = call(
        db, "event", "repair", event, "--manual", str(crossed), "--reason", "no rematch", "--json"
    )
    assert code == 0, err
    assert err == "", err
    assert json.loads(out)["moved"]
    code, out, err = call(
        db, "event", "repair", event, "--manual", str(again), "--reason", "back", "--json"
    )
    assert code == 0, err
    assert err.count("warning: EV-5.4") == 2, err
    json.loads(out)


def test_ev_3_1_a_slip_without_its_result_teaches_the_pod_form_that_needs_no_quotes(
    tmp_path: Path,
) -> None:
    """EV-3.1, EV-7.5: `event result EV 9` is refused in one line showing a slip; for a pod
    it shows the place:name form (`1:Ann,2:Ben`), which a shell takes as it is, not the
    older `Ann>Ben`, whose `>` a shell takes for a redirection (docs/tournaments.md)."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "3")
    ok(db, "event", "pair", event)
    said = refused(db, "EV-3.1", "event", "result", event, "9")
    assert "TABLE=1:Ann,2:Ben" in said, said
    assert ">" not in said, said


def test_ev_7_1_event_show_says_a_pod_event_is_played_in_pods(tmp_path: Path) -> None:
    """EV-1.1, EV-7.1: `event show` names how the event runs; a pod event's first line said
    `prismatic swiss, bo1` as a two-player Swiss would, where the pages say *Swiss pods*."""
    db = tmp_path / "s.db"
    pods = ok(db, "event", "new", "Pods", "--game", "prismatic", "--pods").splitlines()[-1]
    assert (
        ok(db, "event", "show", pods).splitlines()[0] == f"Pods ({pods}): prismatic swiss pods, bo3"
    )
    two = ok(db, "event", "new", "Two", "--game", "prismatic").splitlines()[-1]
    assert ok(db, "event", "show", two).splitlines()[0] == f"Two ({two}): prismatic swiss, bo3"

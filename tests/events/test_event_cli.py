"""Events end to end through the command line (issue 20, section 5): a 64-player
Gammasphere Swiss of 6 best-of-3 rounds with a top-8 cut, and a 13-player Prismatic
pod event of 4 rounds, with drops, a late entry, byes, a corrected result and a
manual re-pairing; verify and a signed checkpoint cover the event; export and
import give the same standings; bad input is one line, exit 2, nothing stored."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()

REFUSED = 2  # cli.face.EXIT_USAGE: refused, nothing stored


def call(db: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", str(db), "--referee", "Hana", *args])
    return result.exit_code, result.stdout, result.stderr


def ok(db: Path, *args: str) -> str:
    code, out, err = call(db, *args)
    assert code == 0, f"{args}: {err}"
    return out


def as_json(db: Path, *args: str) -> Any:
    return json.loads(ok(db, *args, "--json"))


def new_event(db: Path, name: str, game: str, *options: str) -> str:
    """``event new``: the id it prints on its last line."""
    return ok(db, "event", "new", name, "--game", game, *options).strip().splitlines()[-1]


def register(db: Path, event: str, *names: str) -> None:
    """``event register`` of ``names`` (a --player each)."""
    ok(db, "event", "register", event, *[a for n in names for a in ("--player", n)])


def correct(db: Path, event: str, round_number: int, slip: str, reason: str) -> None:
    """``event correct``: round ``round_number``'s result corrected to ``slip``, for ``reason``."""
    ok(db, "event", "correct", event, "--round", str(round_number), slip, "--reason", reason)


def store_rows(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT originator_id, originator_version, topic, state FROM stored_events "
            "ORDER BY originator_id, originator_version"
        ).fetchall()


def refused(db: Path, clause: str, *args: str) -> str:
    """The command is refused with one line naming ``clause``, and the store is unchanged."""
    before = store_rows(db)
    code, out, err = call(db, *args)
    assert code == REFUSED, (args, out, err)
    assert err.count("\n") == 1, err
    assert err.startswith("error: "), err
    assert clause in err, err
    assert "Traceback" not in err
    assert store_rows(db) == before
    return err


def slip_for(table: int, round_number: int) -> str:
    """A varied but fixed best-of-3 slip (unfinished and drawn matches included, EV-3.3)."""
    choices = ["2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1", "1-0-0", "2-0-1", "0-0-3"]
    return f"{table}={choices[(table * 7 + round_number * 3) % len(choices)]}"


def check_standings_shape(rows: list[dict[str, Any]]) -> None:
    """Rank order, rank = 1 + players strictly ahead, percentages exact and floored."""
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    for position, row in enumerate(rows):
        ahead = sum(
            1
            for other in rows[:position]
            if (other["points"], Fraction(other["omw"]), Fraction(other["gw"]))
            != (row["points"], Fraction(row["omw"]), Fraction(row["gw"]))
            or Fraction(other["ogw"]) != Fraction(row["ogw"])
        )
        assert row["rank"] == 1 + ahead
        for key in ("mw", "omw", "gw", "ogw"):
            assert Fraction(row[key]) >= Fraction(1, 3)  # EV-I.1: floored at exactly 1/3
        record = row["record"]
        assert row["points"] == 3 * record["wins"] + record["draws"]  # EV-4.2, a bye a win


def test_gammasphere_swiss_64_players_six_rounds_and_a_top_8_cut(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    event = new_event(
        db, "Friday Open", "gammasphere", "--rounds", "6", "--match", "bo3", "--cut", "8"
    )
    assert event.startswith("ev-")
    assert len(event) == 11
    names = [f"Player {n:02}" for n in range(1, 64)]
    register(db, event, *names[:-1])
    ok(db, "event", "register", event, "--player", names[-1], "--bye", "1")  # EV-2.4

    # -- round 1: paired, the awarded bye is a bye; every table has one game
    rows = as_json(db, "event", "pair", event)
    byes = [r for r in rows if r["bye"]]
    assert [b["players"] for b in byes] == [["Player 63"]]
    assert byes[0]["table"] is None
    tables = [r for r in rows if not r["bye"]]
    assert len(tables) == 31
    assert all(len(r["games"]) == 1 for r in tables)
    assert sorted(p for r in rows for p in r["players"]) == sorted(names)
    posted = as_json(db, "event", "pairings", event)
    assert all(r.pop("round") == 1 and r.pop("stage") == "round 1" for r in posted)
    assert posted == rows  # 'pairings --json' carries the round (issue 29)

    # a late entry after round 1 is paired (EV-2.3); then round 1's bad input
    register(db, event, "Late Lou")
    refused(db, "EV-5.10", "event", "pair", event)  # pairing while a round is open
    refused(db, "EV-3.5", "event", "result", event, "99=2-0-0")  # no such table
    refused(db, "EV-2.1", "event", "drop", event, "Nobody")  # unknown player
    refused(db, "EV-3.2", "event", "result", event, "1=3-0-0")  # not a best-of-3 slip

    # table 1 is played out move by move: its games decide the match (EV-3.8)
    first_game = tables[0]["games"][0]
    ok(db, "end", first_game, "--resign", "p2")
    second = as_json(db, "event", "pairings", event)[0]["games"]
    assert len(second) == 2  # the next game is created when the previous one ends
    # the loser of game 1 sits first in game 2 (EV-I.10): the first-listed player is p2 now
    ok(db, "end", second[1], "--resign", "p1")
    refused(db, "EV-3.7", "event", "result", event, "1=2-0-0")  # decided by its games
    slips = [slip_for(r["table"], 1) for r in tables[1:]]
    ok(db, "event", "result", event, *slips)
    refused(db, "EV-3.6", "event", "result", event, slips[0])  # a second result

    # -- rounds 2 to 6, with drops, a correction and a manual re-pairing
    for number in range(2, 7):
        rows = as_json(db, "event", "pair", event)
        if number == 2:
            assert "Late Lou" in {p for r in rows for p in r["players"]}
        if number == 3:
            # the head judge swaps two tables' second players before any result
            pairs = [r["players"] for r in rows if not r["bye"]]
            pairs[0][1], pairs[1][1] = pairs[1][1], pairs[0][1]
            spec = {"pairs": pairs, "byes": [r["players"][0] for r in rows if r["bye"]]}
            manual = tmp_path / "repair.json"
            manual.write_text(json.dumps(spec))
            ok(
                db,
                "event",
                "repair",
                event,
                "--manual",
                str(manual),
                "--reason",
                "table 1 and 2 were seated wrongly",
            )
            rows = as_json(db, "event", "pairings", event)
            assert [r["players"] for r in rows if not r["bye"]][:2] == pairs[:2]
        slips = [slip_for(r["table"], number) for r in rows if not r["bye"]]
        ok(db, "event", "result", event, *slips)
        if number == 2:
            # a name is matched exactly (issue 31): "player 07" is nobody
            refused(db, "EV-2.1", "event", "drop", event, "player 07")
            ok(db, "event", "drop", event, "Player 07", "--reason", "went home")
            refused(db, "EV-2.6", "event", "drop", event, "Player 07")  # dropped already
            correct(db, event, 2, "3=0-2-0", "the slip was filled in the wrong way round")
        if number == 4:
            ok(db, "event", "drop", event, "Player 11")

    standings = as_json(db, "event", "standings", event)
    check_standings_shape(standings)
    assert len(standings) == 64
    dropped = {r["player"]: r.get("dropped_after") for r in standings}
    assert dropped["Player 07"] == 2
    assert dropped["Player 11"] == 4
    after_2 = as_json(db, "event", "standings", event, "--round", "2")
    assert all(
        r["record"]["wins"] + r["record"]["losses"] + r["record"]["draws"] <= 2 for r in after_2
    )
    corrected = [
        e
        for e in as_json(db, "event", "audit", event)["entries"]
        if e["what"] == "result corrected"
    ]
    assert corrected
    assert corrected[0]["by"] == "Hana"
    assert "wrong way" in corrected[0]["reason"]
    explained = ok(db, "event", "standings", event, "--explain", "Player 01")
    assert "Player 01" in explained or "p1" in explained

    # -- the top-8 cut, seeded by the standings (EV-6.1, EV-6.2)
    top = [r["player"] for r in standings if r.get("dropped_after") is None][:8]
    quarter = as_json(db, "event", "pair", event)
    assert quarter[0]["players"] == [top[0], top[7]]
    refused(db, "EV-6.4", "event", "result", event, "1=1-1-0")  # a playoff needs a winner
    ok(db, "event", "result", event, *[f"{r['table']}=2-0-0" for r in quarter])
    semis = as_json(db, "event", "pair", event)
    assert len(semis) == 2
    ok(db, "event", "result", event, "1=2-1-0", "2=0-2-0")
    final = as_json(db, "event", "pair", event)
    assert len(final) == 1
    ok(db, "event", "result", event, "1=2-0-0")
    refused(db, "EV-6.3", "event", "pair", event)
    ok(db, "event", "end", event)
    assert as_json(db, "event", "show", event)["ended"] is True
    # the Swiss standings are untouched by the playoff (EV-6.5); the final ranking (EV-I.9)
    # puts the champion first and the rest of the cut after it
    ended = as_json(db, "event", "standings", event)
    swiss_rows = sorted(
        ended, key=lambda r: (r["rank"], [s["player"] for s in standings].index(r["player"]))
    )
    assert [
        {k: v for k, v in r.items() if k not in ("final_rank", "went")} for r in swiss_rows
    ] == [{k: v for k, v in r.items() if k != "final_rank"} for r in standings]
    assert [r["final_rank"] for r in ended] == list(range(1, 65))  # final order (EV-6.7)
    champion = final[0]["players"][0]  # 1=2-0-0: the first-listed player won
    places = {r["player"]: r["final_rank"] for r in ended}
    assert places[champion] == 1
    assert places[final[0]["players"][1]] == 2
    assert sorted(places.values()) == list(range(1, 65))
    assert all(places[p] <= 8 for p in top)

    # -- verify and a checkpoint cover the event's stream
    code, out, err = call(db, "verify")
    assert code == 0, err
    assert "intact" in out, err
    key = tmp_path / "key.pem"
    public = ok(db, "seal", "--new-key", str(key)).strip().splitlines()[-1]
    checkpoint = ok(db, "seal", "--key", str(key)).strip()
    ok(db, "verify", "--checkpoint", checkpoint, "--public-key", public)

    # -- export and re-import: the same standings and pairings
    record = tmp_path / "event.jsonl"
    ok(db, "event", "export", event, "-o", str(record))
    other = tmp_path / "copy.db"
    ok(other, "import", str(record))
    assert as_json(other, "event", "standings", event) == ended
    assert as_json(other, "event", "pairings", event, "--round", "3") == as_json(
        db, "event", "pairings", event, "--round", "3"
    )


def test_a_tampered_event_stream_fails_verify(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    event = new_event(db, "Small", "gammasphere")
    register(db, event, "Ann", "Ben")
    with sqlite3.connect(db) as conn:
        (state,) = conn.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = 2",
            (event,),
        ).fetchone()
        conn.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 2",
            (bytes(state).replace(b"Ann", b"Amy"), event),
        )
    code, out, _ = call(db, "verify")
    assert code == 1
    assert event in out


def test_verify_counts_games_and_events_apart(tmp_path: Path) -> None:
    """One event of two players paired: one game and one event, not two games."""
    db = tmp_path / "store.db"
    event = new_event(db, "Small", "gammasphere")
    register(db, event, "Ann", "Ben")
    ok(db, "event", "pair", event)
    code, out, _ = call(db, "verify")
    assert code == 0
    assert "verified 1 game and 1 event (" in out
    report = as_json(db, "verify")
    assert (report["games"], report["tournaments"]) == (1, 1)


def test_verify_names_a_row_stored_as_text_as_damaged(tmp_path: Path) -> None:
    """A state written as text (outside the store) is one finding naming the event, not
    a traceback; verify exits 1."""
    db = tmp_path / "store.db"
    event = new_event(db, "Small", "gammasphere")
    register(db, event, "Ann", "Ben")
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE stored_events SET state = CAST(state AS TEXT) "
            "WHERE originator_id = ? AND originator_version = 2",
            (event,),
        )
    code, out, err = call(db, "verify")
    assert code == 1
    assert "Traceback" not in out + err
    assert f"{event}: 1 problem" in out
    assert "event 2: damaged: its stored state is text, not bytes" in out


def placement(players: list[str], shift: int) -> str:
    order = players[shift % len(players) :] + players[: shift % len(players)]
    if len(order) == 4 and shift % 3 == 0:
        return f"{order[0]}>{order[1]}={order[2]}>{order[3]}"  # a shared place
    return ">".join(order)


def test_prismatic_pods_13_players_four_rounds(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    event = new_event(db, "Pod night", "prismatic", "--pods", "--rounds", "4", "--match", "bo1")
    names = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea"]
    register(db, event, *names)
    ok(db, "event", "register", event, "--player", "Max", "--bye", "1")

    rows = as_json(db, "event", "pair", event)
    pods = [r for r in rows if not r["bye"]]
    assert [len(p["players"]) for p in pods] == [4, 4, 4]  # 12 to seat: fours (EV-7.2)
    assert [r["players"] for r in rows if r["bye"]] == [["Max"]]
    assert all(len(p["games"]) == 1 for p in pods)
    refused(db, "EV-7.3", "event", "result", event, "1=Ann>Nobody")
    ok(db, "event", "result", event, *[f"{p['table']}={placement(p['players'], 0)}" for p in pods])
    ok(db, "event", "register", event, "--player", "Ned")  # a late entry
    for number in range(2, 5):
        rows = as_json(db, "event", "pair", event)
        pods = [r for r in rows if not r["bye"]]
        if number == 2:
            assert sorted(len(p["players"]) for p in pods) == [3, 3, 4, 4]  # 14 = 4+4+3+3
            spec = {"pods": [p["players"] for p in reversed(pods)]}
            manual = tmp_path / "pods.json"
            manual.write_text(json.dumps(spec))
            ok(db, "event", "repair", event, "--manual", str(manual), "--reason", "a table broke")
            pods = [r for r in as_json(db, "event", "pairings", event) if not r["bye"]]
            assert [p["players"] for p in pods] == spec["pods"]
        slips = [f"{p['table']}={placement(p['players'], number)}" for p in pods]
        ok(db, "event", "result", event, *slips)
        if number == 2:
            ok(db, "event", "drop", event, "Gus")
            first = pods[0]["players"]
            correct(db, event, 2, f"{pods[0]['table']}={'>'.join(reversed(first))}", "misheard")
    standings = as_json(db, "event", "standings", event)
    assert len(standings) == 14
    assert [r["rank"] for r in standings] == sorted(r["rank"] for r in standings)
    assert {r["player"]: r.get("dropped_after") for r in standings}["Gus"] == 2
    code, _out, _ = call(db, "verify")
    assert code == 0
    record = tmp_path / "pods.jsonl"
    ok(db, "event", "export", event, "-o", str(record))
    other = tmp_path / "copy.db"
    ok(other, "import", str(record))
    assert as_json(other, "event", "standings", event) == standings


def test_reads_refuse_unknown_events_and_rounds(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    event = new_event(db, "X", "gammasphere")
    assert [e["event_id"] for e in as_json(db, "event", "list")] == [event]
    code, _, err = call(db, "event", "standings", "ev-nothere")
    assert code == REFUSED
    assert err.count("\n") == 1
    assert "no event" in err
    refused(db, "EV-5.1", "event", "pairings", event, "--round", "3")
    refused(db, "EV-3.5", "event", "result", event, "1=2-0-0")
    refused(db, "EV-1.2", "event", "new", "Y", "--game", "gammasphere", "--match", "bo7")
    code, _, err = call(db, "event", "new", "Y", "--game", "nosuchgame")
    assert code == REFUSED
    assert err.count("\n") == 1


def test_a_round_paired_by_hand_with_two_byes_is_audited(tmp_path: Path) -> None:
    """EV-5.11: a manual FILE pairs every active player once and may give several byes;
    its reason is in the audit; an unknown name is refused with nothing stored."""
    db = tmp_path / "store.db"
    event = new_event(db, "Hand", "gammasphere")
    names = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay"]
    register(db, event, *names)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"pairs": [["Ann", "Zed"], ["Cal", "Dee"]], "byes": ["Eve", "Fay"]}))
    refused(db, "EV-2.1", "event", "pair", event, "--manual", str(bad), "--reason", "x")
    manual = tmp_path / "hand.json"
    manual.write_text(
        json.dumps({"pairs": [["Ann", "Ben"], ["Cal", "Dee"]], "byes": ["Eve", "Fay"]})
    )
    rows = as_json(db, "event", "pair", event, "--manual", str(manual), "--reason", "travel byes")
    ok(db, "event", "start-round", event)
    refused(db, "EV-5.10", "event", "start-round", event)  # started already
    refused(db, "EV-5.10", "event", "end-round", event)  # tables still to report
    ok(db, "event", "result", event, "1=2-0-0", "2=0-2-0")
    ok(db, "event", "end-round", event)
    # EV-5.10: no start mark after the end, one line naming why, nothing stored
    assert "round 1 has already ended" in refused(db, "EV-5.10", "event", "start-round", event)
    log = as_json(db, "event", "log", event)
    kinds = [line["kind"] for line in log]
    # the slips decided the tables: their open games were closed as void with them (EV-3.9)
    assert kinds[-3:] == ["match-reported", "games-voided", "round-ended"]
    assert "round-started" in kinds
    # each mark names who made it: the --referee name (EV-5.10)
    texts = [line["text"] for line in log]
    assert "round 1 started by Hana" in texts
    assert texts[-1] == "round 1 ended by Hana"
    assert [r["players"] for r in rows] == [["Ann", "Ben"], ["Cal", "Dee"], ["Eve"], ["Fay"]]
    assert [r["bye"] for r in rows] == [False, False, True, True]
    entries = as_json(db, "event", "audit", event)["entries"]
    assert entries[0]["what"] == "manual pairing"
    assert entries[0]["reason"] == "travel byes"
    assert entries[0]["by"] == "Hana"  # who paired by hand, as a re-pairing names them
    assert any(t.startswith("round 1 (swiss) paired by hand by Hana (travel byes)") for t in texts)


def test_ev_2_2_register_with_a_player_id(tmp_path: Path) -> None:
    """``--player-id`` binds registrations to the people's ids across the house, in the
    order of ``--player`` (issue 31: several in one call; a player past them gets a new
    id); a malformed id, more ids than players, or one already registered is refused
    with one line naming EV-2.2 and nothing stored."""
    db = tmp_path / "ev.db"
    event = new_event(db, "Small", "prizmik")
    ok(db, "event", "register", event, "--player", "Ann Lee", "--player-id", "ann-7")
    refused(db, "EV-2.2", "event", "register", event, "--player", "Bo", "--player-id", "Not Ok")
    both = ("--player", "Bo", "--player-id", "bo-1", "--player-id", "cy-1")
    refused(db, "EV-2.2", "event", "register", event, *both)
    refused(db, "EV-2.2", "event", "register", event, "--player", "Al", "--player-id", "ann-7")
    register(db, event, "Bo")
    (table,) = as_json(db, "event", "pair", event)
    (game,) = table["games"]
    players = as_json(db, "log", game)[0]["players"]  # the game's creation
    ids = sorted((p["name"], p.get("id", "")) for p in players)
    assert ids[0] == ("Ann Lee", "ann-7")
    assert ids[1][0] == "Bo"
    assert ids[1][1].startswith("pl-")


def test_result_says_how_many_slips_were_recorded(tmp_path: Path) -> None:
    # one slip printed "2 result(s) recorded": the count was of the facts stored (the
    # result and its table's games closed as void, EV-3.9), not of the slips
    db = tmp_path / "store.db"
    event = new_event(db, "Count", "gammasphere")
    names = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay"]
    register(db, event, *names)
    ok(db, "event", "pair", event)
    assert ok(db, "event", "result", event, "1=2-0-0").strip() == "1 result recorded"
    assert ok(db, "event", "result", event, "2=0-2-0", "3=2-1-0").strip() == "2 results recorded"


def test_output_options_that_cannot_go_together_are_refused(tmp_path: Path) -> None:
    # `standings --csv --json` printed JSON and `pairings --key K` printed the table and
    # sealed nothing: an option was dropped without a word
    db = tmp_path / "store.db"
    event = new_event(db, "Out", "gammasphere")
    register(db, event, "Ann", "Ben")
    ok(db, "event", "pair", event)
    key = tmp_path / "seal.pem"
    ok(db, "seal", "--new-key", str(key))
    before = store_rows(db)
    for args, said in (
        (["pairings", event, "--key", str(key)], "--key seals a --posting"),
        (["standings", event, "--csv", "--json"], "--json and --csv"),
        (["pairings", event, "--csv", "--posting"], "--csv and --posting"),
        (["standings", event, "--explain", "Ann", "--csv"], "--csv and --explain"),
    ):
        code, _, err = call(db, "event", *args)
        assert code == REFUSED, args
        assert said in err
        assert len(err.strip().splitlines()) == 1
    assert store_rows(db) == before
    assert json.loads(ok(db, "event", "standings", event, "--explain", "Ann", "--json"))
    assert ok(db, "event", "standings", event, "--csv").startswith("final")


def test_a_name_given_twice_in_one_registration_is_not_called_already_registered(
    tmp_path: Path,
) -> None:
    # `register --player Bob --player Bob` said "'Bob' looks like 'Bob', already in this
    # event" while no Bob was registered (all or none: nothing was)
    db = tmp_path / "store.db"
    event = new_event(db, "Twice", "gammasphere")
    err = refused(db, "EV-2.2", "event", "register", event, "--player", "Bob", "--player", "Bob")
    assert "given earlier in this registration (the same name)" in err
    assert "already in this event" not in err
    register(db, event, "Ann")
    err = refused(db, "EV-2.2", "event", "register", event, "--player", "ann")
    assert "'Ann' (p1), already in this event (the same letters in another case" in err


def test_an_elimination_events_bracket_names_its_seeds(tmp_path: Path) -> None:
    # an elimination event (no cut) printed "El · top 0 playoff" and every seed as (0)
    db = tmp_path / "store.db"
    event = new_event(db, "El", "prizmik", "--format", "elimination")
    register(db, event, "Ann", "Ben", "Cal")
    paired = as_json(db, "event", "pair", event)
    text = ok(db, "event", "bracket", event)
    assert text.splitlines()[0] == "El · single elimination"
    assert "(0)" not in text
    seeds = {
        side["player"]: side["seed"]
        for rnd in as_json(db, "event", "bracket", event)["rounds"]
        for match in rnd["matches"]
        for side in match["players"]
    }
    assert sorted(seeds.values()) == [1, 2, 3]
    bye = next(row["players"][0] for row in paired if row["bye"])
    assert seeds[bye] == 1  # the top seed has the bye (EV-6.2)


def test_an_elimination_event_ends_with_final_places(tmp_path: Path) -> None:
    # EV-I.13: an elimination event's standings had no final place at all; now the champion,
    # the finalist, then the semifinal losers by seed, in --json and in text
    db = tmp_path / "store.db"
    event = ok(db, "event", "new", "El", "--game", "prizmik", "--format", "elimination")
    event = event.strip().splitlines()[-1]
    ok(db, "event", "register", event, *(a for n in "ABCD" for a in ("--player", f"P{n}")))
    assert all(r.get("final_rank") is None for r in as_json(db, "event", "standings", event))
    ok(db, "event", "pair", event)
    seed = {
        side["player"]: side["seed"]
        for rnd in as_json(db, "event", "bracket", event)["rounds"]
        for match in rnd["matches"]
        for side in match["players"]
    }
    ok(db, "event", "result", event, "1=2-0-0", "2=0-2-0")  # seed 1 wins, seed 3 wins
    ok(db, "event", "pair", event)
    ok(db, "event", "result", event, "1=0-2-0")  # the final: the second-listed, seed 3, wins
    ok(db, "event", "end", event)
    rows = as_json(db, "event", "standings", event)
    by_seed = sorted(seed, key=seed.__getitem__)
    assert [(r["player"], r["final_rank"], r["went"]) for r in rows] == [
        (by_seed[2], 1, "champion"),
        (by_seed[0], 2, "finalist"),
        (by_seed[1], 3, "semifinalist"),  # the semifinal losers by seed: 2 before 4
        (by_seed[3], 4, "semifinalist"),
    ]
    text = ok(db, "event", "standings", event)
    assert "final standings" in text.splitlines()[0]
    assert f"{by_seed[2]}" in text.splitlines()[2]
    assert "(champion)" in text.splitlines()[2]


def test_event_export_never_replaces_the_store(tmp_path: Path) -> None:
    # `event export EV -o referee.db` wrote the event's record over the whole store
    db = tmp_path / "store.db"
    event = new_event(db, "Keep", "gammasphere")
    before = store_rows(db)
    code, _, err = call(db, "event", "export", event, "-o", str(db))
    assert code == REFUSED
    assert "is a SQLite database" in err
    assert store_rows(db) == before
    out = tmp_path / "keep.jsonl"
    ok(db, "event", "export", event, "-o", str(out))
    assert event in out.read_text()


def test_event_new_and_the_event_reads_with_json_print_one_json_document(tmp_path: Path) -> None:
    """``--json`` is for scripts: the whole output is one JSON document (``event new`` printed
    its id on a line after the JSON, which no JSON reader takes)."""
    db = tmp_path / "e.db"
    made = as_json(db, "event", "new", "Cup", "--game", "prizmik", "--rounds", "1")
    event = made["event_id"]
    assert event.startswith("ev-")
    register(db, event, "Ann", "Ben")
    for read in ("pair", "show", "standings", "pairings"):
        assert as_json(db, "event", read, event) is not None, read


def test_long_lived_leaves_what_it_made_in_the_oldest_generation() -> None:
    """``event pair``'s ``long_lived``: no collection inside; on leaving, what is still
    tracked is in the oldest generation (no young collection scans it again), none frozen,
    and collection is as it was (on, or off)."""
    import gc

    from cli.face import long_lived

    class Kept:
        pass

    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            with long_lived():
                assert not gc.isenabled()
                kept = [Kept() for _ in range(100)]
                cycle: list[Any] = []
                cycle.append(cycle)
            assert gc.isenabled() is enabled
            assert gc.get_freeze_count() == 0
            oldest = {id(x) for x in gc.get_objects(generation=2)}
            assert id(kept) in oldest
            assert all(id(x) in oldest for x in kept)
            del cycle
            assert gc.collect() >= 1  # left for a full collection, not leaked
    finally:
        (gc.enable if was else gc.disable)()

"""Ratings from the command line (EV-2.11, EV-5.6): `event register --rating` and a roster
file, round 1 seeded by them as the draw lists them, a rating corrected before round 1,
each refusal one line naming its clause with nothing stored."""

from __future__ import annotations

from pathlib import Path

from tests.events.test_event_cli import as_json, new_event, ok, refused


def _players(db: Path, event: str, *pairs: tuple[str, int | None]) -> None:
    args: list[str] = []
    for name, rating in pairs:
        args += ["--player", name] + (["--rating", str(rating)] if rating is not None else [])
    ok(db, "event", "register", event, *args)


def test_ev_5_6_round_1_is_seeded_by_the_ratings_given_on_the_command_line(
    tmp_path: Path,
) -> None:
    """EV-5.6: ratings given with `--rating` (once per `--player`) and in a roster file
    (name,rating rows; a name with a comma quoted) seed round 1, highest first: 1 v n/2+1,
    the unrated after the rated, the lowest taking the bye; `event draw` lists them in that
    order with their ratings; the registration and `event players` print each rating."""
    db = tmp_path / "s.db"
    event = new_event(db, "Seeded", "gammasphere", "--seed", "7", "--rounds", "2")
    roster = tmp_path / "roster.csv"
    roster.write_text('name,rating\n"Smith, Jo",2100\nCal,\nDee,1800\n', encoding="utf-8")
    said = ok(
        db, "event", "register", event, "--player", "Ann", "--rating", "1500",
        "--player", "Eve", "--players", str(roster),
    )  # fmt: skip
    assert "Ann (p1, player id " in said
    assert ", rating 1500)" in said
    assert ", rating 2100)" in said
    listed = as_json(db, "event", "players", event)
    assert [(p["name"], p["rating"]) for p in listed] == [
        ("Ann", 1500),
        ("Eve", None),
        ("Smith, Jo", 2100),
        ("Cal", None),
        ("Dee", 1800),
    ]
    assert "Smith, Jo                 2100  pl-" in ok(db, "event", "players", event)
    draw = as_json(db, "event", "draw", event)
    assert [(line["name"], line["rating"]) for line in draw["order"][:3]] == [
        ("Smith, Jo", 2100),
        ("Dee", 1800),
        ("Ann", 1500),
    ]
    assert {line["name"] for line in draw["order"][3:]} == {"Eve", "Cal"}
    assert "highest first" in draw["rule"]
    ok(db, "event", "pair", event)
    tables = as_json(db, "event", "pairings", event)
    seeded = [line["name"] for line in draw["order"]]
    assert [t["players"] for t in tables if not t["bye"]] == [
        [seeded[0], seeded[2]],
        [seeded[1], seeded[3]],
    ]
    assert next(t for t in tables if t["bye"])["players"] == [seeded[4]]


def test_ev_2_11_ratings_out_of_bounds_are_refused_naming_the_clause(tmp_path: Path) -> None:
    """EV-2.11: a rating below 0 or above 9,999, more ratings than players, a roster row
    whose rating is not a whole number: refused in one line naming EV-2.11, nothing
    stored."""
    db = tmp_path / "s.db"
    event = new_event(db, "Bounds", "gammasphere")
    err = refused(db, "EV-2.11", "event", "register", event, "--player", "Zed", "--rating", "10000")
    assert "Zed's rating is a whole number from 0 to 9,999, not 10,000" in err
    refused(db, "EV-2.11", "event", "register", event, "--player", "Zed", "--rating", "-1")
    refused(
        db, "EV-2.11", "event", "register", event, "--player", "Zed",
        "--rating", "1", "--rating", "2",
    )  # fmt: skip
    roster = tmp_path / "r.csv"
    roster.write_text("Ann,1500\nBen,fifteen\n", encoding="utf-8")
    err = refused(db, "EV-2.11", "event", "register", event, "--players", str(roster))
    assert "the rating of row 2 (Ben)" in err
    assert as_json(db, "event", "show", event)["players"] == 0


def test_ev_2_11_a_rating_is_corrected_until_round_1_and_the_record_imports(
    tmp_path: Path,
) -> None:
    """EV-2.11: `event rating EVENT NAME N --reason` corrects a rating before round 1 (in
    the log and the audit), `-` takes it away; the rating already held, a word, and any
    correction once round 1 is paired are refused naming the clause; the event's record
    (with the correction) imports into a fresh store, judged, with the same round 1."""
    db, fresh = tmp_path / "s.db", tmp_path / "fresh.db"
    event = new_event(db, "Fix", "gammasphere", "--seed", "3", "--rounds", "1")
    _players(db, event, ("Ann", 1500), ("Ben", 1600), ("Cal", 1700), ("Dee", 1800))
    assert ok(db, "event", "rating", event, "Ann", "1900", "--reason", "typed 1500") == (
        "Ann: rating 1900\n"
    )
    assert ok(db, "event", "rating", event, "Dee", "-", "--reason", "unrated") == "Dee: no rating\n"
    refused(db, "EV-2.11", "event", "rating", event, "Ann", "1900", "--reason", "again")
    refused(db, "EV-2.11", "event", "rating", event, "Ann", "high", "--reason", "x")
    refused(db, "EV-2.1", "event", "rating", event, "Zed", "1", "--reason", "x")
    assert "rating corrected: Ann now 1900 (typed 1500)" in ok(db, "event", "log", event)
    audit = as_json(db, "event", "audit", event)["entries"]
    assert {"what": "rating corrected", "player": "Ann", "rating": 1900}.items() <= next(
        e for e in audit if e["what"] == "rating corrected"
    ).items()
    ok(db, "event", "pair", event)
    tables = as_json(db, "event", "pairings", event)
    assert [t["players"] for t in tables] == [["Ann", "Ben"], ["Cal", "Dee"]]
    refused(db, "EV-2.11", "event", "rating", event, "Ann", "1500", "--reason", "late")
    record = tmp_path / "ev.jsonl"
    ok(db, "event", "export", event, "-o", str(record))
    ok(fresh, "import", str(record))
    assert as_json(fresh, "event", "pairings", event) == tables

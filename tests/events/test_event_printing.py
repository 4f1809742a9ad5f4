"""Reading and printing an event (issue 29, section 5): people named in the log and the audit
(with their id where two share a name), late entries in the audit, pairings with points and
results, CSV, pods in places and the safe pod slip on the command line (EV-7.5)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import immutables
import msgspec
import pytest
from typer.testing import CliRunner

from cli.main import app
from referee.tournament.model import Entrant
from referee.tournament.state import Tournament
from service.app import RefereeService, open_service
from service.eventprint import _namer, pairings_csv, people, standings_csv

runner = CliRunner()


@pytest.fixture
def svc(tmp_path: Path) -> RefereeService:
    return open_service(tmp_path / "store.db", create=True)


def test_two_players_of_one_name_are_told_apart_by_their_id() -> None:
    """Names are unique in an event today (EV-2.2), but an event imported from elsewhere
    may hold two of one name: each is then printed with their id."""
    players = {
        "p1": Entrant(id="p1", name="Ann", order=0),
        "p2": Entrant(id="p2", name="ann", order=1),
        "p3": Entrant(id="p3", name="Ben", order=2),
    }
    named = people(Tournament(players=immutables.Map(players)))
    assert named == {"p1": "Ann (p1)", "p2": "ann (p2)", "p3": "Ben"}


def test_the_log_names_people(svc: RefereeService) -> None:
    event = svc.event_new("Names", "prizmik", rounds=2).event_id
    svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    svc.event_pair(event)
    svc.event_drop(event, "Ben", reason="went home")
    log = [line.text for line in svc.event_log_named(event)]
    assert "dropped: Ben after round 1 (went home)" in log
    assert "registered: Ann (p1)" in log  # where a name meets its id, kept
    audit = svc.event_audit_named(event)["entries"]
    assert [e["player"] for e in audit if e["what"] == "drop"] == ["Ben"]


def test_the_audit_names_the_players_of_a_warning_and_lists_late_entries(
    svc: RefereeService,
) -> None:
    """EV-5.11: a manual pairing's rematch warning names the players, not their ids."""
    event = svc.event_new("Audit", "prizmik", rounds=3).event_id
    svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    rows = svc.event_pair(event)
    svc.event_register(event, ["Eve"])  # a late entry (EV-2.3)
    svc.event_result(event, [f"{r.table}=1-0-0" for r in rows if not r.bye])
    again = [r.players for r in rows if not r.bye]
    svc.event_pair(event, manual={"pairs": again, "byes": ["Eve"]}, reason="the same tables")
    entries = [  # a slip closes its table's open game: those are listed too (EV-3.9)
        e for e in svc.event_audit_named(event)["entries"] if e["what"] != "games voided"
    ]
    assert [e["what"] for e in entries] == ["late entry", "manual pairing"]
    assert entries[0]["player"] == "Eve"
    assert entries[0]["round"] == 2
    warning = " ".join(entries[1]["warnings"])
    assert "EV-5.4" in warning
    assert again[0][0] in warning
    assert "p1" not in warning


def test_a_pairings_sheet_has_points_going_in_and_results(svc: RefereeService) -> None:
    event = svc.event_new("Sheet", "prizmik", rounds=3).event_id
    svc.event_register(event, ["Ann", "Ben", "Cal", "Dee", "Eve"])
    rows = svc.event_pair(event)
    svc.event_result(event, [f"{r.table}=1-0-0" for r in rows if not r.bye])
    svc.event_pair(event)
    sheet = svc.event_pairing_sheet(event)
    assert (sheet.name, sheet.round, sheet.stage) == ("Sheet", 2, "round 2")
    points = {seat.player: seat.points for line in sheet.lines for seat in line.seats}
    assert sorted(points.values()) == [0, 0, 3, 3, 3]  # two winners and a bye: 3 each
    first = svc.event_pairing_sheet(event, 1)
    winner = first.lines[0].seats[0]
    assert winner.result == "won 1-0-0"
    assert first.lines[0].seats[1].result == "lost 0-1-0"
    assert first.lines[-1].bye
    assert first.lines[-1].seats[0].result == "bye"
    table = list(csv.reader(io.StringIO(pairings_csv(first, by_name=True))))
    assert [row[3] for row in table[1:]] == ["Ann", "Ben", "Cal", "Dee", "Eve"]
    assert {row[2] for row in table[1:]} >= {"bye", "1", "2"}
    rows_out = list(csv.DictReader(io.StringIO(standings_csv(svc.event_standings(event)))))
    assert len(rows_out) == 5
    assert rows_out[0]["final_place"] == ""
    assert rows_out[0]["omw"]


def test_pods_report_and_print_in_places(tmp_path: Path) -> None:
    """EV-7.5 on the command line: 3=1:Ann,2:Ben,... needs no quotes; the older form still
    reads; pairings and standings show places (1st, 2nd), not W-L-D; no 'bo3' for pods."""
    db = str(tmp_path / "pods.db")

    def ok(*args: str) -> str:
        result = runner.invoke(app, ["--db", db, *args])
        assert result.exit_code == 0, result.stderr
        return result.stdout

    made = ok("event", "new", "Pods", "--game", "prismatic", "--pods", "--rounds", "2")
    event = made.strip().splitlines()[-1]
    ok(
        "event",
        "register",
        event,
        *[a for n in ("Ed", "Di", "Flo", "Gil") for a in ("--player", n)],
    )
    (pod,) = json.loads(ok("event", "pair", event, "--json"))
    a, b, c, d = pod["players"]
    ok("event", "result", event, f"1=1:{a},2:{b},2:{c},4:{d}")
    text = ok("event", "pairings", event).splitlines()
    assert text[0] == "Pods · round 1 · pairings by table"
    assert f"1st {a}, 2nd {b}, 2nd {c}, 4th {d}" in text[1]
    standings = ok("event", "standings", event).splitlines()
    assert "places" in standings[1]
    assert "W-L-D" not in standings[1]
    assert any(line.split()[1] == b and "2nd" in line for line in standings[2:])
    ok("event", "pair", event)
    ok("event", "result", event, f"1={d}>{c}={b}>{a}")  # the older form, quoted by a shell
    assert f"1st {d}, 2nd {c}, 2nd {b}, 4th {a}" in ok("event", "pairings", event)
    helped = runner.invoke(app, ["event", "result", "--help"]).stdout
    assert "1:Ann,2:Ben,2:Cal" in helped


def test_the_bracket_over_http(client: Any, tokens: Any, store: str) -> None:
    """EV-6.1: no bracket before the cut (a problem naming the clause); EV-6.6: after it,
    the stages by name, as 'event bracket --json'."""
    from tests.web.conftest import auth

    with open_service(store) as svc:
        event = svc.event_new("Cut", "gammasphere", rounds=1, cut=4).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
        rows = svc.event_pair(event)
        svc.event_result(event, [f"{r.table}=2-0-0" for r in rows])
    head = auth(tokens["head"])
    early = client.get(f"/api/events/{event}/bracket", headers=head)
    assert early.status_code == 400
    assert "EV-6.1" in early.text
    with open_service(store) as svc:
        svc.event_pair(event)
        svc.event_result(event, ["1=2-0-0", "2=0-2-0"])
        svc.event_pair(event)
        svc.event_result(event, ["1=2-1-0"])
        wanted = msgspec.to_builtins(svc.event_bracket(event))
    answer = client.get(f"/api/events/{event}/bracket", headers=head)
    assert answer.status_code == 200
    assert answer.json() == wanted
    assert [r["stage"] for r in wanted["rounds"]] == ["semifinal", "final"]
    assert wanted["champion"] == wanted["rounds"][1]["matches"][0]["players"][0]["player"]
    page = client.get(f"/events/{event}/bracket", headers=head).text
    assert "Champion: <b>" in page
    assert 'data-stage="final"' in page


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_kept_text_in_the_csv(
    svc: RefereeService,
) -> None:
    # a player registered as '=HYPERLINK("http://x","prize")' came out of --csv as that
    # formula, run by the spreadsheet the organizer opened it in
    event = svc.event_new("Cells", "prizmik", rounds=1).event_id
    svc.event_register(event, ['=HYPERLINK("http://x","prize")', "+Ben", "Cal", "Dee"])
    svc.event_pair(event)
    sheet = svc.event_pairing_sheet(event, None)
    table = list(csv.DictReader(io.StringIO(pairings_csv(sheet))))
    cells = [row["player"] for row in table] + [row["opponents"] for row in table]
    assert '\'=HYPERLINK("http://x","prize")' in cells
    assert "'+Ben" in cells
    assert "Cal" in cells
    assert not [c for c in cells if c[:1] in "=+-@"]
    standings = list(csv.DictReader(io.StringIO(standings_csv(svc.event_standings(event)))))
    assert not [r["player"] for r in standings if r["player"][:1] in "=+-@"]
    assert {r["player"] for r in standings} >= {"'+Ben", "Cal"}


def _alternation(text: str, names: dict[str, str]) -> str:
    """How ids were named before ``_namer``: one alternation of every id, longest first."""
    ids = sorted(names, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in ids) + r")(?![\w-])")
    return pattern.sub(lambda m: names[m.group(1)], text)


@pytest.mark.parametrize(
    "names",
    [
        {"p1": "Ann", "p10": "Ben", "p1-x": "Cal"},
        {"p1": "Ann", "p.2": "Dee", "p 3": "Eve (p 3)", "p3": "Fay"},
        {},
    ],
)
def test_ids_are_named_as_the_one_alternation_named_them(names: dict[str, str]) -> None:
    """The log's and the audit's people (``people``): each whole id becomes the name, as the
    single alternation of every id did, found as a whole word now (the audit of a
    10,000-player event took minutes compiling and trying that alternation per line)."""
    texts = [
        "p1 beat p10; p1-x drew p1x, xp1, p1_ and -p1",
        "p.2 v p 3 (p3), p.2x, p 30, [p1]",
        "dropped: p10 (penalty 2 withdrawn: p1 was late)",
        "",
    ]
    named = _namer(names)
    for text in texts:
        assert named(text) == (_alternation(text, names) if names else text)
    if names.get("p10") == "Ben":
        assert named(texts[0]) == "Ann beat Ben; Cal drew p1x, xp1, p1_ and -p1"

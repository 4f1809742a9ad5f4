"""``referee call``, ``referee calls`` and ``referee event reports`` (EV-10, EV-11), driven
in-process: each step stored with who, refusals in one line naming their clause (exit 2,
nothing stored), ``--json`` on the reads."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app
from service.app import open_service

runner = CliRunner()


def run(db: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", str(db), "--referee", "Rita", *args])
    return result.exit_code, result.stdout, result.stderr


def paired(db: Path) -> str:
    with open_service(db, create=True) as svc:
        # seed 5 draws two or four players in registration order (EV-5.6)
        event = svc.event_new("Hall Open", "prizmik", rounds=3, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben"])
        svc.event_pair(event)
    return event


def test_ev_10_a_call_from_the_command_line_is_claimed_escalated_and_resolved(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.db"
    event = paired(db)
    code, out, err = run(db, "call", "1", "--reason", "deck check")
    assert code == 0, err
    assert "call 1 · round 1 table 1 (Ann v Ben) · by Rita · open" in out
    code, _, err = run(db, "call", "1")
    assert code == 2
    assert "EV-10.3" in err
    code, _, err = run(db, "call", "9", "--event", event)
    assert code == 2
    assert err.count("\n") == 1
    code, out, _ = run(db, "calls", "--json")
    (row,) = json.loads(out)
    assert (row["call"], row["table"], row["by"], row["status"], row["holder"]) == (
        1,
        1,
        "Rita",
        "open",
        "",
    )
    assert run(db, "call", "claim", "1")[0] == 0
    code, out, _ = run(db, "call", "escalate", "1", "--reason", "an appeal")
    assert code == 0
    assert "escalated" in out
    code, _, err = run(db, "call", "resolve", "1")
    assert code == 2
    assert "EV-10.6" in err
    code, out, _ = run(db, "call", "resolve", "1", "--note", "rewound two moves")
    assert code == 0
    assert "resolved" in out
    assert "rewound two moves" in out
    assert run(db, "calls")[1].strip() == "no judge call waits"
    code, out, _ = run(db, "calls", "--all", "--json")
    assert json.loads(out)[0]["note"] == "rewound two moves"
    with open_service(db) as svc:
        kinds = [line.kind for line in svc.event_log(event)][-4:]
    assert kinds == ["judge-called", "call-claimed", "call-escalated", "call-resolved"]


def test_a_call_by_game_goes_to_its_table_and_bad_input_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    event = paired(db)
    with open_service(db) as svc:
        (table,) = svc.event_pairings(event)
    code, out, err = run(db, "call", "--game", table.games[0], "--json")
    assert code == 0, err
    assert json.loads(out)["game"] == table.games[0]
    assert json.loads(out)["table"] == 1
    for args, words in [
        (("call",), "say which table"),
        (("call", "two"), "not a table number"),
        (("call", "claim"), "say which call"),
        (("call", "1", "--reason", "x" * 201), "EV-10.1"),
    ]:
        code, _, err = run(db, *args)
        assert code == 2, (args, err)
        assert words in err, (args, err)
        assert err.count("\n") == 1, (args, err)


def test_ev_11_staff_see_the_reports_waiting(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    event = paired(db)
    assert run(db, "event", "reports", event)[1].strip() == "no report waits"
    with open_service(db) as svc:
        svc.event_report(event, "Ann", "2-0")
        svc.event_report(event, "Ben", "2-1")  # he says he won: a disagreement (EV-11.5)
    code, out, _ = run(db, "event", "reports", event, "--json")
    assert code == 0, out
    rows = json.loads(out)
    assert [(r["report"], r["player"], r["result"], r["status"]) for r in rows] == [
        (1, "Ann", "2-0-0", "disputed"),
        (2, "Ben", "2-1-0", "pending"),
    ]
    _, out, _ = run(db, "event", "reports", event)
    assert "Ann reports 2-0-0 (slip 2-0-0) · disputed by Ben" in out
    assert run(db, "event", "result", event, "1=2-1")[0] == 0
    assert run(db, "event", "reports", event)[1].strip() == "no report waits"
    code, out, _ = run(db, "event", "reports", event, "--all", "--json")
    assert code == 0, out
    assert {r["status"] for r in json.loads(out)} == {"superseded"}

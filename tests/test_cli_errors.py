"""How the referee command refuses: one line naming the clause and why, exit 2, the store
unchanged; under ``--json`` that line is one JSON object (toy game Nim, and a three-seat
Prismatic game for a seat that withdrew)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from referee.errors import QUOTED_LENGTH, quoted
from tests.test_cli import call, done, new_game

ROOT = Path(__file__).resolve().parent.parent


def json_refusal(db: Path, *args: str) -> dict[str, Any]:
    """The JSON object a command given ``--json`` refuses with: exit 2, nothing on standard
    output, the object on the last line of standard error."""
    code, out, err = call(db, *args, "--json")
    assert code == 2, err
    assert out == ""
    error = json.loads(err.splitlines()[-1])
    assert isinstance(error, dict)
    return error


def test_a_refusal_under_json_is_one_json_object_naming_the_clause(db_path: Path) -> None:
    game = new_game(db_path)
    error = json_refusal(db_path, "show", game, "--as", "green")
    assert error["clause"] == "REF-1.7"
    assert error["reason"].startswith("'green' is not a viewer of this game")
    assert error["error"] == f"REF-1.7: {error['reason']}"
    assert error["exit"] == 2
    # text mode is as it was: one plain line
    code, out, err = call(db_path, "show", game, "--as", "green")
    assert (code, out) == (2, "")
    assert err == f"error: {error['error']}\n"


def test_every_refusal_under_json_is_json_with_or_without_a_clause(db_path: Path) -> None:
    game = new_game(db_path)
    before = done(db_path, "log", game, "--json")
    unreadable = json_refusal(db_path, "act", game, "clear the board")
    assert unreadable["clause"] == "NIM-0.1"
    assert unreadable["error"].startswith("not an action of this game (NIM-0.1)")
    unknown = json_refusal(db_path, "show", "nim-nosuchgame")
    assert unknown["clause"] is None
    assert unknown["reason"] == unknown["error"]
    assert "no game" in unknown["error"]
    usage = json_refusal(db_path, "end", game, "--draw", "--resign", "first")
    assert usage["clause"] is None
    assert "exactly one of" in usage["reason"]
    assert done(db_path, "log", game, "--json") == before  # nothing was stored


def test_a_usage_error_under_json_is_json_from_the_installed_command(db_path: Path) -> None:
    """Click's own refusals (a value of the wrong kind) come through ``cli.main.run``."""
    game = new_game(db_path)
    line = ["--db", str(db_path), "show", game, "--json", "--at", "x"]
    ran = subprocess.run(
        [sys.executable, "-m", "cli.main", *line],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 2
    assert ran.stdout == ""
    error = json.loads(ran.stderr.splitlines()[-1])
    assert error["exit"] == 2
    assert "'x' is not a valid int" in error["error"]
    assert error["clause"] is None


def test_ref_1_7_a_name_that_is_no_seat_or_viewer_names_the_clause_and_the_choices(
    db_path: Path,
) -> None:
    game = new_game(db_path)
    before = done(db_path, "log", game, "--json")
    code, _, err = call(db_path, "end", game, "--resign", "purple")
    assert code == 2
    assert err == (
        "error: REF-1.7: 'purple' is not a seat or player of this game; choose one of: "
        "first (Ann), second (Ben)\n"
    )
    code, _, err = call(db_path, "show", game, "--as", "green")
    assert code == 2
    assert err == (
        "error: REF-1.7: 'green' is not a viewer of this game; choose one of: referee, "
        "public, first (Ann), second (Ben)\n"
    )
    code, _, err = call(db_path, "act", game, "t1", "--by", "third")
    assert code == 2
    assert "REF-1.7: 'third' is not a seat or player" in err
    assert done(db_path, "log", game, "--json") == before


def test_ref_3_5_a_seat_that_withdrew_is_told_so_and_nothing_is_stored(db_path: Path) -> None:
    code, out, err = call(
        db_path, "new", "prismatic", "-p", "p1=Ann", "-p", "p2=Ben", "-p", "p3=Cy"
    )
    assert code == 0, err
    game = out.strip()
    assert "p2 withdrew" in done(db_path, "end", game, "--resign", "p2")
    before = done(db_path, "log", game, "--json")
    for args in (("reveal Amber Gleam", "--by", "p2"), ("p2: reveal Amber Gleam",)):
        code, out, err = call(db_path, "act", game, *args)
        assert (code, out) == (2, ""), err
        assert err == (
            "error: REF-3.5: p2 withdrew from this game (resigned, event 2) and takes no "
            "further action; nothing was stored\n"
        )
    error = json_refusal(db_path, "act", game, "reveal Amber Gleam", "--by", "Ben")
    assert error["clause"] == "REF-3.5"
    assert done(db_path, "log", game, "--json") == before
    # a seat still playing out of turn is rejected under REF-1.2, as before
    code, _, err = call(db_path, "act", game, "reveal Amber Gleam", "--by", "p3")
    assert code == 1
    assert "REF-1.2" in err


def test_an_over_long_entry_is_quoted_back_cut_to_its_first_characters(db_path: Path) -> None:
    game = new_game(db_path)
    unreadable = "x" * 300  # refused, exit 2
    code, _, err = call(db_path, "act", game, unreadable)
    assert code == 2
    assert f"{unreadable[:QUOTED_LENGTH]!r}… (300 characters)" in err
    assert "x" * (QUOTED_LENGTH + 1) not in err
    assert len(err) < 300
    illegal = "t" + "9" * 299  # read as an entry, rejected (exit 1)
    code, _, err = call(db_path, "act", game, illegal)
    assert code == 1
    heading = err.splitlines()[0]  # the rule's own reason may name the number taken
    assert (
        heading
        == f"rejected {illegal[:QUOTED_LENGTH]!r}… (300 characters) (kept as evidence, event 2):"
    )
    code, _, err = call(db_path, "act", game, "x" * 5000, "--json")
    assert code == 2
    assert len(err) < 600
    assert "… (5000 characters)" in json.loads(err)["reason"]


def test_quoted_cuts_only_what_is_longer_than_the_limit() -> None:
    assert quoted("t3") == "'t3'"
    assert quoted("a" * QUOTED_LENGTH) == repr("a" * QUOTED_LENGTH)
    assert quoted("a" * (QUOTED_LENGTH + 1)) == (
        f"{'a' * QUOTED_LENGTH!r}… ({QUOTED_LENGTH + 1} characters)"
    )

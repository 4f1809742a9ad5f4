"""A referee's first hour, second pass (issue 24): each reproduction a new user hit, through
the command line (CliRunner) or ``referee table`` in a real terminal (pexpect)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from tests.terminal import spawn_table

ROOT = Path(__file__).resolve().parent.parent


def call(db: Path, *args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["--db", str(db), "--referee", "Rita", *args], input=input)
    return result.exit_code, result.stdout, result.stderr


def rows(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0])


# -- 1. the shipped catalogs are listed, as the README says ------------------------------


@pytest.mark.parametrize(
    ("game", "known"),
    [
        ("gammasphere", "Gamma Trooper"),
        ("crystale", "Cinderpup"),
        ("prismatic", "Ember Spark"),
        ("prismata", "Animus"),
    ],
)
def test_catalog_show_lists_every_card_games_shipped_catalog(game: str, known: str) -> None:
    result = CliRunner().invoke(app, ["catalog", "show", game])
    assert result.exit_code == 0, result.stderr
    assert any(line.startswith(f"{known}: ") for line in result.stdout.splitlines())
    as_json = CliRunner().invoke(app, ["catalog", "show", game, "--json"])
    assert known in [row["name"] for row in json.loads(as_json.stdout)]


def test_catalog_show_of_a_ruleset_without_a_shipped_catalog_says_what_to_give() -> None:
    result = CliRunner().invoke(
        app, ["catalog", "show", "gammasphere", "--ruleset", "gammasphere/p3"]
    )
    assert result.exit_code == 2
    assert "--catalog FILE" in result.stderr


# -- 2. an entry after the end is refused with exit 2, nothing stored (REF-1.3) -----------


def prizmik(db: Path) -> str:
    code, out, err = call(db, "new", "prizmik", "-p", "red=Alice", "-p", "blue=Bob")
    assert code == 0, err
    return out.strip()


@pytest.mark.parametrize("extra", [[], ["--dry-run"], ["--json"]])
def test_ref_1_3_an_entry_after_the_end_is_refused_and_stores_nothing(
    db_path: Path, extra: list[str]
) -> None:
    game = prizmik(db_path)
    assert call(db_path, "end", game, "--resign", "blue")[0] == 0
    before = rows(db_path)
    code, _, err = call(db_path, "act", game, "e1>e2", *extra)
    assert code == 2
    assert "REF-1.3" in err
    assert "game is over" in err
    assert "nothing was stored" in err
    assert len(err.strip().splitlines()) == 1
    assert rows(db_path) == before


# -- 3. 'SEAT: ENTRY', the table's form, on the command line too (REF-1.2) -----------------


def prismatic(db: Path) -> str:
    code, out, err = call(db, "new", "prismatic", "-p", "p1=Ann", "-p", "p2=Ben", "--goal", "5")
    assert code == 0, err
    return out.strip()


def test_ref_1_2_act_takes_the_tables_seat_form(db_path: Path) -> None:
    game = prismatic(db_path)
    code, out, err = call(db_path, "act", game, "p1: reveal Ember Spark")
    assert code == 0, err
    assert "recorded reveal Ember Spark by p1" in out, err
    code, out, err = call(db_path, "act", game, "Ann: reveal Cobalt Tear", "--by", "p1", "--json")
    assert code == 0, err
    assert json.loads(out)["seat"] == "p1", err
    _, out, _ = call(db_path, "log", game, "--json")
    assert [e.get("notation") for e in json.loads(out)][1:] == [
        "reveal Ember Spark",
        "reveal Cobalt Tear",
    ]


def test_ref_1_2_a_seat_named_twice_two_ways_is_refused(db_path: Path) -> None:
    game = prismatic(db_path)
    before = rows(db_path)
    code, _, err = call(db_path, "act", game, "p2: reveal Ember Spark", "--by", "p1")
    assert code == 2
    assert "REF-1.2" in err
    assert "p2" in err
    assert "p1" in err
    assert rows(db_path) == before


def test_a_colon_inside_an_entry_is_not_a_seat(db_path: Path) -> None:
    game = prismatic(db_path)
    code, _, err = call(db_path, "act", game, "use Ember Spark: pull R to palette")
    assert code in (1, 2)
    assert "is not a seat" not in err
    assert "names" not in err


# -- 4. 'legal' for a card game: one option a line, grouped by kind -----------------------


def gammasphere(db: Path) -> str:
    from tests.gammasphere.helpers import DECK_TEXT, OTHER_TEXT

    (db.parent / "ann.txt").write_text(DECK_TEXT)
    (db.parent / "ben.txt").write_text(OTHER_TEXT)
    code, out, err = call(
        db,
        "new",
        "gammasphere",
        *("-p", "p1=Ann", "-p", "p2=Ben"),
        *("--deck", f"p1={db.parent / 'ann.txt'}", "--deck", f"p2={db.parent / 'ben.txt'}"),
    )
    assert code == 0, err
    return out.strip()


def test_legal_for_a_card_game_lists_one_option_a_line_grouped_by_kind(db_path: Path) -> None:
    game = gammasphere(db_path)
    for entry in ("p2: draw 7", "p1: draw 7", "draw", "play Gamma Trooper"):
        assert call(db_path, "act", game, entry)[0] == 0, entry
    code, out, _ = call(db_path, "legal", game)
    lines = out.splitlines()
    assert code == 0
    assert lines[0].endswith("legal entries for p1:")
    assert max(len(line) for line in lines) < 60  # no line hundreds of characters long
    play = lines.index(next(line for line in lines if line.startswith("play (")))
    assert lines[play + 1] == "  play Gamma Trooper"
    assert "switch (1):" in lines
    assert "  switch #1 defense" in lines
    assert lines[-1] == "end"
    _, as_json, _ = call(db_path, "legal", game, "--json")
    actions = json.loads(as_json)["actions"]  # unchanged: the flat list
    assert "play Gamma Trooper" in actions
    assert actions[-1] == "end"
    assert sorted(line.strip() for line in lines[1:] if not line.endswith(":")) == sorted(actions)


def test_legal_keeps_short_notation_on_one_line(db_path: Path) -> None:
    game = prizmik(db_path)
    code, out, _ = call(db_path, "legal", game)
    assert code == 0
    assert len(out.splitlines()) == 2
    assert "e1>e2 " in out.splitlines()[1]


# -- 5. tab completion at the table past the first word (pexpect) -------------------------

pexpect = pytest.importorskip("pexpect")
FIXTURES = ROOT / "fixtures"


def test_table_completes_card_names_of_several_words(db_path: Path) -> None:
    game = gammasphere(db_path)
    for entry in ("p2: draw 7", "p1: draw 7", "draw"):
        assert call(db_path, "act", game, entry)[0] == 0, entry
    child = spawn_table(db_path, game, columns=200)
    child.send("play Shale G\t")  # the second word of the name completes to the end
    child.expect("olem")  # the terminal echoes what the completion added
    child.send(" (def\t")
    child.expect(r"ense\)")
    child.sendline("")
    child.expect(r"recorded play Shale Golem \(defense\) by p1")
    child.expect(f"{game}> ")
    child.send("p1: sw\t")  # after the seat, entries complete too
    child.expect("itch #1 ")
    child.sendcontrol("u")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_table_completes_the_square_after_a_piece(db_path: Path) -> None:
    pools = FIXTURES / "crystale" / "pools"
    code, out, err = call(
        db_path,
        "new",
        "crystale",
        *("-p", "p1=Ann", "-p", "p2=Ben"),
        *("--pool", f"p1={pools / 'fire.txt'}", "--pool", f"p2={pools / 'water.txt'}"),
        *("--tiles", "IIIIIIIIIIIIIFIWIIIIIIEIIIIII"),
    )
    assert code == 0, err
    game = out.strip()
    opening = [
        ("p2", "first p1"),
        ("p1", "pull 6"),
        ("p2", "pull 6"),
        ("p2", "mulligan"),
        ("p2", "pull 6"),
        ("p1", "show Pyrelance Archer, Cinderpup, Cinderpup"),
        ("p2", "show Reefling, Kelpie Skirmisher, Reefling"),
        ("p1", "pull"),
        ("p1", "summon Pyrelance Archer @c2"),
    ]
    for seat, entry in opening:
        assert call(db_path, "act", game, entry, "--by", seat)[0] == 0, entry
    _, legal, _ = call(db_path, "legal", game, "--json")
    squares = [a.split()[2] for a in json.loads(legal)["actions"] if a.startswith("move u3 ")]
    assert "c3" in squares
    child = spawn_table(db_path, game, columns=200)
    child.send("move u3 \t\t")  # two tabs list the squares the piece may go to
    for square in squares:
        child.expect(square)
    child.send("c3")
    child.sendline("")
    child.expect("recorded move u3 c3 by p1")
    child.expect(f"{game}> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


# -- 6. records: rejection reasons as plain text; a withdrawn seat's game round-trips -------


def test_text_record_writes_rejection_reasons_as_plain_text_and_reads_them_back(
    db_path: Path, tmp_path: Path
) -> None:
    game = gammasphere(db_path)
    for entry in ("p2: draw 7", "p1: draw 7", "draw"):
        assert call(db_path, "act", game, entry)[0] == 0, entry
    assert call(db_path, "act", game, "play Pylon")[0] == 1  # GS-6.8: construct a pylon
    record = tmp_path / "game.txt"
    assert call(db_path, "export", game, "--format", "text", "-o", str(record))[0] == 0
    (line,) = [x for x in record.read_text().splitlines() if x.startswith("{rejected")]
    assert line.endswith(": GS-6.8 \"Pylon is a pylon: construct it with 'construct Pylon'\"}")
    assert '\\"' not in line
    assert "[[" not in line
    code, out, err = call(tmp_path / "other.db", "import", str(record))
    assert code == 0, err
    assert "imported 1 game (" in out + err, err
    # a record written before keeps its JSON-in-a-string form readable
    older = record.read_text().replace(
        line.split(": ", 1)[1],
        json.dumps(json.dumps([["GS-6.8", "Pylon is a pylon"]])) + "}",
    )
    record.write_text(older)
    code, out, err = call(tmp_path / "third.db", "import", str(record))
    assert code == 0, err
    assert "imported 1 game (" in out + err, err


def test_a_prismatic_game_where_a_seat_withdrew_exports_and_reimports(
    db_path: Path, tmp_path: Path
) -> None:
    code, out, _ = call(
        db_path, "new", "prismatic", "-p", "p1=Ann", "-p", "p2=Ben", "-p", "p3=Cy", "--goal", "5"
    )
    game = out.strip()
    assert call(db_path, "end", game, "--resign", "p3")[0] == 0  # withdraws (REF-3.5)
    assert call(db_path, "end", game, "--resign", "p2")[0] == 0  # ends the game
    record = tmp_path / "game.txt"
    assert call(db_path, "export", game, "--format", "text", "-o", str(record))[0] == 0
    assert '[Result "p1>p2>p3"]' in record.read_text()
    code, out, err = call(tmp_path / "other.db", "import", str(record))
    assert code == 0, err
    assert "imported 1 game (" in out + err, err
    _, shown, _ = call(tmp_path / "other.db", "show", game, "--json")
    assert "p1>p2>p3" in json.dumps(json.loads(shown))


# -- 7. a dispute's messages say its number --------------------------------------------------


def test_a_dispute_opened_at_the_table_says_its_number(db_path: Path) -> None:
    game = prizmik(db_path)
    assert call(db_path, "act", game, "e1>e2")[0] == 0
    code, out, _ = call(db_path, "dispute", game, "--event", "2", "--by", "Bob", "--claim", "x")
    assert code == 0
    assert out.startswith("dispute 1 on event 2 by Bob")
    code, out, _ = call(db_path, "table", game, input="dispute 2 Bob it was e3\nquit\n")
    assert code == 0
    assert "dispute 2 on event 2 by Bob: it was e3 (event 4)" in out


# -- 9. getting started: the decklist format where a user looks ------------------------------


def test_new_help_documents_the_decklist_format_and_names_the_examples() -> None:
    result = CliRunner().invoke(app, ["new", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "one card a line" in result.stdout
    assert "fixtures/gammasphere/decks/" in result.stdout
    readme = (ROOT / "README.md").read_text()
    for named in ("fixtures/gammasphere/decks/ann.txt", "fixtures/crystale/pools/fire.txt"):
        assert named in readme
        assert (ROOT / named).is_file()
    assert "chromium" in readme


# -- 8. Prismatic's table: a compact line after each entry, 'board' for the whole ---------


def test_prismatic_table_answers_an_entry_with_a_compact_line(db_path: Path) -> None:
    game = prismatic(db_path)
    code, out, _ = call(
        db_path, "table", game, input="reveal Ember Spark\nreveal Cobalt Tear\nboard\nquit\n"
    )
    assert code == 0
    after_first = out.split("recorded reveal Ember Spark by p1", 1)[1]
    between = after_first.split("recorded reveal Cobalt Tear by p1", 1)[0]
    # '(event 2)' ends the entry's line; then one compact line, not the 20-line board
    assert len(between.strip().splitlines()) == 2
    assert "last: p1 reveal Ember Spark" in between
    assert "'board' shows the whole" in between
    whole = out.rsplit("'board' shows the whole", 1)[1]
    assert "Common cards:" in whole
    assert "Cobalt Tear [hue" in whole


def test_a_short_board_is_still_redrawn_after_each_entry(db_path: Path) -> None:
    game = prizmik(db_path)
    _, out, _ = call(db_path, "table", game, input="e1>e2\nquit\n")
    assert out.count("Reserve fleets") == 2  # before and after the entry


def test_the_public_text_record_shows_a_registration_by_its_size_and_reads_back(
    db_path: Path, tmp_path: Path
) -> None:
    from events.interchange.text import DeckLine, parse_text
    from referee.kit.decks import SealedDeck

    game = gammasphere(db_path)
    record = tmp_path / "public.txt"
    code, _, err = call(
        db_path, "export", game, "--format", "text", "--as", "public", "-o", str(record)
    )
    assert code == 0, err
    text = record.read_text()
    assert '{deck "p1" hidden 40}' in text
    assert 'sealed ""' not in text
    assert "Gamma Trooper" not in text  # the registered list stays hidden
    decks = [line for _, _, line in parse_text(text, "public.txt").lines]
    assert decks == [DeckLine("p1", SealedDeck("", 40)), DeckLine("p2", SealedDeck("", 40))]

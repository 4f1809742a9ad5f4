"""The referee command, driven in-process (toy game Nim)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cli.main import COMMANDS, app, app_for, command_name, command_word, group_name

runner = CliRunner()


def call(db: Path, *args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", str(db), "--referee", "Rita", *args], input=input)
    return result.exit_code, result.stdout, result.stderr


def done(db: Path, *args: str) -> str:
    """What a command that succeeds prints."""
    code, out, err = call(db, *args)
    assert code == 0, err
    return out


def refused(db: Path, *args: str) -> str:
    """Why a command is refused (exit 2, a usage error or a refused correction)."""
    code, out, err = call(db, *args)
    assert code == 2, out
    return err


def new_game(db: Path, heap: int = 10) -> str:
    code, out, err = call(
        db, "new", "nim", "--player", "first=Ann", "--player", "second=Ben", "--heap", str(heap)
    )
    assert code == 0, err
    game_id = out.strip()
    assert game_id.startswith("nim-")
    assert "\n" not in game_id
    return game_id


def test_new_act_show_log(db_path: Path) -> None:
    game = new_game(db_path)
    code, out, _ = call(db_path, "act", game, "t3")
    assert code == 0
    assert "recorded t3" in out
    code, _, err = call(db_path, "act", game, "t9")
    assert code == 1
    assert "NIM-1.1" in err
    code, out, _ = call(db_path, "show", game, "--json")
    data = json.loads(out)
    assert data["position"]["left"] == 7
    assert data["to_move"] == "second"
    assert data["at"] == 1
    code, out, _ = call(db_path, "show", game, "--at", "0", "--json")
    assert json.loads(out)["position"]["left"] == 10
    code, out, _ = call(db_path, "log", game, "--json")
    kinds = [e["kind"] for e in json.loads(out)]
    assert kinds == ["created", "action", "rejected"]
    assert json.loads(out)[1]["recorded_by"] == "Rita"


def test_act_json_reports_rejection(db_path: Path) -> None:
    game = new_game(db_path)
    code, out, _ = call(db_path, "act", game, "t0", "--json")
    data = json.loads(out)
    assert code == 1
    assert data["accepted"] is False
    assert data["violations"][0]["clause"] == "NIM-1.1"


def test_undo_end_and_games(db_path: Path) -> None:
    game = new_game(db_path, heap=5)
    call(db_path, "act", game, "t2")
    assert "retracted action 1" in done(db_path, "undo", game, "--reason", "wrong heap")
    assert "REF-2.1" in refused(db_path, "undo", game, "--reason", "again")
    assert "first wins" in done(db_path, "end", game, "--resign", "second")
    (summary,) = json.loads(done(db_path, "games", "--json"))
    assert summary["result"] == "first"
    assert summary["how"] == "resignation"


def test_legal_lists_actions(db_path: Path) -> None:
    game = new_game(db_path, heap=2)
    _, out, _ = call(db_path, "legal", game, "--json")
    data = json.loads(out)
    assert data["to_move"] == "first"
    assert data["to_act"] == ["first"]
    assert data["actions"] == ["t1", "t2"]


def test_rules_lists_and_shows_procedure_clauses() -> None:
    result = runner.invoke(app, ["rules", "procedure", "REF-2.1"])
    assert result.exit_code == 0
    assert "Retraction" in result.stdout
    result = runner.invoke(app, ["rules", "procedure", "--json"])
    ids = [c["id"] for c in json.loads(result.stdout)["clauses"]]
    assert "REF-1.3" in ids
    result = runner.invoke(app, ["rules", "procedure", "REF-99"])
    assert result.exit_code == 2
    assert "no clause" in result.stderr


def test_unknown_game_and_bad_player_are_usage_errors(db_path: Path) -> None:
    code, _, err = call(db_path, "new", "chess", "--player", "white=A")
    assert code == 2
    assert "unknown game" in err
    code, _, err = call(db_path, "new", "nim", "--player", "first=A")
    assert code == 2
    assert "second" in err
    code, _, err = call(db_path, "show", "nothing-here")
    assert code == 2
    assert "no store here" in err
    new_game(db_path)
    code, _, err = call(db_path, "show", "nothing-here")
    assert code == 2
    assert "no game" in err


def test_export_import_verify(db_path: Path, tmp_path: Path) -> None:
    game = new_game(db_path, heap=4)
    for text in ("t1", "t3"):
        call(db_path, "act", game, text)
    out_file = tmp_path / "g.jsonl"
    code, _, _ = call(db_path, "export", game, "-o", str(out_file))
    assert code == 0
    other = tmp_path / "other.db"
    code, out, err = call(other, "import", str(out_file))
    assert code == 0, err
    assert out.strip() == game, err
    # the count agrees with its noun: it was "imported 1 games (3 events)"
    assert err.splitlines()[-1] == "imported 1 game (4 events), skipped 0, refused 0", err
    code, out, _ = call(other, "verify")
    assert code == 0
    assert "all intact" in out
    code, out, err = call(other, "import", str(out_file))  # a second run skips what is there
    assert code == 0
    assert "already in the store" in err
    assert "skipped 1" in err
    code, out, _ = call(db_path, "export", game, "--format", "text")
    assert out.startswith("[Format")
    code, _, err = call(tmp_path / "third.db", "import", str(out_file), "--as-new")
    assert code == 0, err
    code, _, err = call(tmp_path / "third.db", "import", str(out_file), "--as-new", str(out_file))
    assert code == 0, err
    assert err.splitlines()[-1] == "imported 2 games (8 events), skipped 0, refused 0", err


def test_table_loop_records_and_undoes(db_path: Path) -> None:
    game = new_game(db_path, heap=6)
    code, out, _ = call(db_path, "table", game, input="t2\nt5\nundo misheard\nlegal\nt1\nquit\n")
    assert code == 0
    assert "recorded t2" in out
    assert "rejected 't5'" in out
    assert "retracted action 1" in out
    code, out, _ = call(db_path, "show", game, "--json")
    assert json.loads(out)["position"]["left"] == 5


def test_table_folds_the_game_once_and_reads_only_what_is_new(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table session keeps its game folded: each entry and each redraw reads only the
    events stored since (one fold of the whole game for the session, not two per entry),
    and an undo, which rewrites nothing, is folded in like any other event."""
    from events.store import GameStore

    game = new_game(db_path, heap=20)
    loads: list[str] = []
    load = GameStore.load

    def counted(self: GameStore, game_id: str, **kwargs: Any) -> Any:
        loads.append(game_id)
        return load(self, game_id, **kwargs)

    monkeypatch.setattr(GameStore, "load", counted)
    typed = "t1\nt2\nt3\nt9\nundo misheard\nt3\nt1\nquit\n"
    code, out, _ = call(db_path, "table", game, input=typed)
    assert code == 0
    assert out.count("recorded ") == 5
    assert "rejected 't9'" in out
    assert loads == [game]
    monkeypatch.undo()
    shown = json.loads(call(db_path, "show", game, "--json")[1])
    assert shown["position"]["left"] == 20 - 1 - 2 - 3 - 1  # t3 undone, then t3 and t1


def test_table_agree_records_a_draw_and_agree_with_words_stores_nothing(db_path: Path) -> None:
    game = new_game(db_path, heap=6)
    code, out, _ = call(db_path, "table", game, input="agree now\nquit\n")
    assert code == 0
    assert "agree takes nothing more" in out
    assert len(json.loads(call(db_path, "log", game, "--json")[1])) == 1  # the creation alone
    code, out, _ = call(db_path, "table", game, input="agree\n")
    assert code == 0
    shown = json.loads(call(db_path, "show", game, "--json")[1])
    assert shown["result"] == "draw"
    assert shown["to_move"] is None


def test_ref_2_2_the_table_says_how_an_ended_game_can_be_reopened(db_path: Path) -> None:
    """A resignation is not corrected by 'undo' (REF-2.2): the table must not tell the
    referee it is; a result reached by rule is (the last action retracted)."""
    resigned = new_game(db_path, heap=6)
    code, out, _ = call(db_path, "table", resigned, input="resign second\n")
    assert code == 0
    assert "only a ruling on a dispute can set that result aside (REF-2.2, REF-4.5)" in out
    assert "'referee undo'" not in out
    refused(db_path, "undo", resigned, "--reason", "resigned by mistake")
    by_rule = new_game(db_path, heap=3)
    code, out, _ = call(db_path, "table", by_rule, input="t3\n")
    assert code == 0
    assert "'referee undo' or a dispute can reopen it (REF-2.2)" in out
    done(db_path, "undo", by_rule, "--reason", "it was t2")


def test_gs_3_4_a_refused_decklist_names_each_clause_once(db_path: Path, tmp_path: Path) -> None:
    """'GS-3.4: p1's decklist breaks the construction rules: GS-3.4: ...' said it twice; a
    second clause still names itself."""
    deck = tmp_path / "deck.txt"
    deck.write_text("5 Gamma Trooper\n2 Ion Lancr\n33 Pylon\n")
    err = refused(
        db_path, "new", "gammasphere", "-p", "p1=Ann", "-p", "p2=Ben", "--deck", f"p1={deck}"
    )
    assert err.startswith(
        "error: GS-3.1: p1's decklist breaks the construction rules: 5 Gamma Trooper: a deck "
        "holds at most 4 copies of an entity; GS-3.4: Ion Lancr is not a card"
    ), err
    assert err.count("GS-3.1") == 1


def test_dispute_rule_appeal_audit_scoreboard(db_path: Path) -> None:
    game = new_game(db_path, heap=3)
    call(db_path, "act", game, "t4")  # rejected: event 2
    code, out, _ = call(
        db_path, "dispute", game, "--event", "2", "--by", "Ann", "--claim", "four is fine"
    )
    assert code == 0
    assert "dispute 1 on event 2 by Ann" in out
    code, out, err = call(
        db_path, "rule", game, "1", "--uphold", "--clause", "NIM-1.1", "--reason", "max 3"
    )
    assert code == 0, err
    code, _, _ = call(db_path, "appeal", game, "1", "--by", "Ann", "--grounds", "unfair")
    assert code == 0
    code, out, _ = call(
        db_path,
        "rule",
        game,
        "1",
        "--uphold",
        "--clause",
        "NIM-1.1",
        "--reason",
        "final",
        "--final",
        "--by",
        "Head",
    )
    assert code == 0
    code, out, _ = call(db_path, "audit", game, "--format", "json")
    (item,) = json.loads(out)["disputes"]
    assert item["status"] == "closed"
    assert item["engine_now"]["violations"][0]["clause"] == "NIM-1.1"
    code, out, _ = call(db_path, "audit", game)
    assert "Dispute 1" in out
    assert "four is fine" in out
    call(db_path, "act", game, "t3")
    code, out, _ = call(db_path, "scoreboard", "--json")
    rows = {r["player"]: r for r in json.loads(out)}
    assert rows["Ann"]["won"] == 1
    assert rows["Ben"]["lost"] == 1
    code, out, _ = call(db_path, "scoreboard", "--rebuild")
    assert code == 0
    assert "Ann" in out


def test_replay_standing_line_and_session(db_path: Path) -> None:
    game = new_game(db_path, heap=9)
    for text in ("t2", "t5", "t3", "t1"):
        call(db_path, "act", game, text)  # t5 rejected
    call(db_path, "undo", game, "--reason", "misheard")
    call(db_path, "act", game, "t2")
    code, out, _ = call(db_path, "replay", game, "--json")
    frames = json.loads(out)
    assert [f["ply"] for f in frames] == [0, 1, 2, 3]  # the starting position first
    assert [f["position"]["left"] for f in frames] == [9, 7, 4, 2]
    assert any("rejected 't5'" in n for n in frames[2]["notes"])
    assert any("retracted action 3" in n for n in frames[3]["notes"])
    code, out, _ = call(db_path, "replay", game, "--session", "--json")
    session = json.loads(out)
    assert [f["ply"] for f in session] == [1, 2, 3, 2, 3]  # the retraction is a frame of its own
    code, out, _ = call(db_path, "replay", game, "--from", "2", "--to", "2")
    assert code == 0
    assert "2. second t3" in out
    assert "1. first t2" not in out


def test_seats_can_be_named_by_player(db_path: Path) -> None:
    game = new_game(db_path, heap=5)
    code, _, err = call(db_path, "act", game, "t1", "--by", "ben")
    assert code == 1
    assert "REF-1.2" in err
    done(db_path, "act", game, "t1", "--by", "Ann")
    refusal = refused(db_path, "end", game, "--resign", "Zed")
    assert "'Zed' is not a seat or player of this game" in refusal
    assert "first wins" in done(db_path, "end", game, "--resign", "Ben")


def test_a_command_line_builds_only_the_command_it_names(db_path: Path) -> None:
    """``referee`` builds only the named command (typer inspects every command it is given
    before running one); the help and words that are not commands get the whole app."""
    assert command_word(["--db", "x.db", "--referee", "Rita", "act", "g", "e1>e2"]) == "act"
    assert command_word(["--db=x.db", "show", "g"]) == "show"
    assert command_word(["--help"]) is None
    assert command_word([]) is None
    slim = app_for(["--db", "x.db", "act", "g", "e1>e2"])
    assert slim is not app
    assert [c.callback for c in slim.registered_commands] == [
        c.callback
        for c in app.registered_commands
        if c.callback is not None and c.callback.__name__ == "act"
    ]
    assert [g.name for g in app_for(["deck", "seal", "f"]).registered_groups] == ["deck"]
    assert app_for(["-h"]) is app
    assert app_for(["ac", "g"]) is app
    runner = CliRunner()
    game = runner.invoke(
        app, ["--db", str(db_path), "new", "prizmik", "-p", "red=A", "-p", "blue=B"]
    ).stdout.strip()
    line = [
        "--db",
        str(db_path),
        "--referee",
        "Rita",
        "act",
        game,
        "a1-b1",
    ]  # rejected: kept each time
    whole = runner.invoke(app, line)
    alone = runner.invoke(app_for(line), line)
    assert whole.exit_code == alone.exit_code == 1
    assert "PZ-" in whole.output
    assert alone.output.replace("event 3", "event 2") == whole.output
    assert (
        runner.invoke(app_for(["act", "--help"]), ["act", "--help"]).stdout
        == runner.invoke(app, ["act", "--help"]).stdout
    )


def test_each_command_imports_the_modules_that_make_it() -> None:
    """``COMMANDS`` names every command and group of the whole application, and a command
    line imports only its modules: a command's own; a group's with every module that adds
    commands to it, which are then listed as the whole application lists them (each in a
    fresh process, as a command starts)."""
    commands = {command_name(c): c for c in app.registered_commands}
    groups = {name: g for g in app.registered_groups if (name := group_name(g)) is not None}
    assert len(groups) == len(app.registered_groups)
    assert sorted(COMMANDS) == sorted([*commands, *groups])
    for word, command in commands.items():
        assert command.callback is not None
        assert command.callback.__module__ in {f"cli.{m}" for m in COMMANDS[word]}, word
    whole = typer.main.get_command(app)
    assert isinstance(whole, typer.core.TyperGroup)
    listing = (
        "import sys, typer; from cli.main import app_for\n"
        "line = sys.argv[1:]\n"
        "made = typer.main.get_command(app_for(line)).commands[line[0]]\n"
        "print(' '.join(getattr(made, 'commands', {})))\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('cli'))))"
    )
    lines = [[word, "--help"] for word in groups] + [["act", "g", "e1>e2"]]
    alone = [
        subprocess.Popen([sys.executable, "-c", listing, *line], stdout=subprocess.PIPE, text=True)
        for line in lines
    ]
    for line, process in zip(lines, alone, strict=True):
        out, _ = process.communicate(timeout=120)
        names, modules = out.split("\n")[:2]
        assert names.split() == list(getattr(whole.commands[line[0]], "commands", {})), line
        if line[0] == "act":
            assert modules.split() == ["cli", "cli.face", "cli.main", "cli.play"]


def test_a_refused_new_leaves_no_store_behind(tmp_path: Path) -> None:
    """Bad input leaves the store exactly as it was: where there was none, none appears;
    where one holds games, it keeps them."""
    db = tmp_path / "fresh.db"
    bad = ("new", "nim", "--player", "first=Ann", "--player", "second=Ben", "--player-id")
    code, _, err = call(db, *bad, "first=Not An Id!")
    assert code == 2
    assert "player id" in err
    assert list(tmp_path.iterdir()) == []
    game = new_game(db)
    code, _, _ = call(db, *bad, "first=Not An Id!")
    assert code == 2
    assert db.exists()
    code, out, _ = call(db, "games", "--json")
    assert [g["game_id"] for g in json.loads(out)] == [game]


def test_ref_7_3_referee_penalty_withdraw_and_penalty_as_before(db_path: Path) -> None:
    """``referee penalty GAME WHO LEVEL`` issues as it always did; ``referee penalty
    withdraw GAME N --reason`` withdraws (REF-7.3); a refusal is one line, exit 2."""
    game = new_game(db_path)
    code, out, err = call(
        db_path, "penalty", game, "Ben", "game-loss", "--infraction", "marked cards"
    )
    assert code == 0, err
    assert "event 2: penalty: game loss for second" in out, err
    code, out, err = call(db_path, "penalty", "withdraw", game, "2", "--reason", "wrong player")
    assert code == 0, err
    assert "penalty of event 2 withdrawn: wrong player" in out, err
    assert "result of event 3 voided" in out
    code, _, err = call(db_path, "penalty", "withdraw", game, "2", "--reason", "again")
    assert code == 2
    assert "REF-7.3" in err
    assert "Traceback" not in err
    code, out, _ = call(db_path, "penalty", "withdraw", "--help")
    assert code == 0
    assert "--reason" in out
    code, out, _ = call(db_path, "log", game, "--json")
    assert code == 0
    assert "penalty of event 2 withdrawn" in out


def test_verify_refuses_a_key_that_is_not_a_public_key(db_path: Path, tmp_path: Path) -> None:
    # 'verify --checkpoint C --public-key seal.pem' (the private key's file) said
    # "checkpoint broken" with exit 1, as if the store had been tampered with
    game = new_game(db_path)
    done(db_path, "act", game, "t3")
    key = tmp_path / "seal.pem"
    public = done(db_path, "seal", "--new-key", str(key)).strip().splitlines()[-1]
    checkpoint = done(db_path, "seal", "--key", str(key)).strip()
    for given, said in ((str(key), "holds a private key"), ("zzzz", "is not a public key")):
        code, out, err = call(db_path, "verify", "--checkpoint", checkpoint, "--public-key", given)
        assert code == 2, out
        assert said in err
        assert "broken" not in out
        assert len(err.strip().splitlines()) == 1
    out = done(db_path, "verify", "--checkpoint", checkpoint, "--public-key", public)
    assert "signature verified" in out


def test_seal_refuses_a_key_path_that_is_no_key_in_one_line(db_path: Path, tmp_path: Path) -> None:
    # a mistyped --key printed a warning about the (missing) file's folder, then the error;
    # a text file gave the crypto library's message with a link: one line each now
    new_game(db_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a key\n")
    for given, said in (
        (tmp_path / "missing.pem", "no such file"),
        (tmp_path, "a folder"),
        (notes, "not a seal key"),
    ):
        err = refused(db_path, "seal", "--key", str(given))
        assert said in err
        assert "warning" not in err
        assert len(err.strip().splitlines()) == 1


def test_an_empty_file_is_no_store_and_a_read_leaves_it_empty(db_path: Path) -> None:
    # `referee games` on a file of no bytes (a `touch`, a failed copy) wrote a store's
    # schema into it and said "no games yet": a read command changed the file
    db_path.write_bytes(b"")
    for args in (["games"], ["verify"], ["show", "nothing-here"], ["event", "list"]):
        err = refused(db_path, *args)
        assert "an empty file, not a store" in err
        assert len(err.strip().splitlines()) == 1
        assert db_path.read_bytes() == b""
    new_game(db_path)  # a command that makes a store may make it there
    assert done(db_path, "games").strip()


def _leaf_commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    if hasattr(command, "commands"):
        return [
            leaf
            for name, sub in sorted(command.commands.items())
            for leaf in _leaf_commands(sub, (*path, name))
        ]
    return [(path, command)]


def test_every_commands_help_teaches_with_an_example_that_parses() -> None:
    # forty-odd commands' --help said what they do but showed no command line to copy;
    # each now ends with an example, and its options are the command's own
    import re
    import shlex

    root = typer.main.get_command(app)
    global_options = {"--db", "--referee", "--server", "--token", "--offline-store"}
    lacking = []
    for path, command in _leaf_commands(root):
        lines = [
            re.sub(r" --(db|referee|server|token) \S+", "", line.strip())
            for line in (command.help or "").splitlines()
            if line.strip().startswith(("referee ", "ev=$(referee ", "id=$(referee "))
        ]
        mine = [line for line in lines if f"referee {' '.join(path)}" in line]
        if not mine:
            lacking.append(" ".join(path))
            continue
        options = {o for p in command.params for o in (*p.opts, *p.secondary_opts)}
        for line in mine:
            words = shlex.split(line.split(f"referee {' '.join(path)}", 1)[1], comments=True)
            words = words[: next((i for i, w in enumerate(words) if w in (">", "|")), None)]
            unknown = [w for w in words if w.startswith("--") and w not in options]
            assert not [w for w in unknown if w not in global_options], (path, line)
    assert lacking == [], " | ".join(lacking)


def test_a_seat_given_twice_is_refused_not_replaced(db_path: Path) -> None:
    # `new nim --player first=Ann --player first=Cy --player second=Ben` started a game
    # with Cy in the first seat: Ann was dropped without a word
    err = refused(
        db_path,
        "new",
        "nim",
        "--player",
        "first=Ann",
        "--player",
        "first=Cy",
        "--player",
        "second=Ben",
    )
    assert "--player gives first twice ('Ann' and 'Cy')" in err
    assert len(err.strip().splitlines()) == 1
    assert not db_path.exists()


def test_games_since_takes_a_date_or_an_iso_time_only(db_path: Path) -> None:
    # `games --since yesterday` was compared as text with the start times: no game
    # matched and the listing said "no games match", exit 0
    game = new_game(db_path)
    err = refused(db_path, "games", "--since", "yesterday")
    assert "--since is a date (2026-11-23) or an ISO time" in err
    assert len(err.strip().splitlines()) == 1
    assert game in done(db_path, "games", "--since", "2000-01-01")
    assert game in done(db_path, "games", "--since", "2000-01-01T10:00:00+02:00")
    assert done(db_path, "games", "--since", "2999-01-01").strip() == "no games match"


def _stored_events(db: Path) -> list[tuple[Any, ...]]:
    import sqlite3

    with sqlite3.connect(db) as con:
        return con.execute("SELECT * FROM stored_events ORDER BY rowid").fetchall()


def test_an_export_never_replaces_the_store_or_another_database(db_path: Path) -> None:
    # `export --all -o referee.db` wrote the JSONL record over the store: every game gone
    game = new_game(db_path)
    done(db_path, "act", game, "t3")
    stored = _stored_events(db_path)
    for args in (["--all"], [game], [game, "--format", "text"]):
        err = refused(db_path, "export", *args, "-o", str(db_path))
        assert "is a SQLite database" in err
        assert len(err.strip().splitlines()) == 1
    assert _stored_events(db_path) == stored
    assert "t3" in done(db_path, "log", game)
    out = db_path.parent / "record.jsonl"
    for _ in range(2):  # an earlier export is written again
        done(db_path, "export", "--all", "-o", str(out))
    assert game in out.read_text()


def test_a_damaged_stored_event_is_named_as_damage_in_one_line(db_path: Path) -> None:
    # a stored event's bytes garbled on disk: the reads said only "error: JSON is malformed:
    # invalid character (byte 0)", as if the command's own input were wrong
    import sqlite3

    game = new_game(db_path)
    done(db_path, "act", game, "t3")
    with sqlite3.connect(db_path) as con:
        con.execute(
            "UPDATE stored_events SET state = X'00ff00ff' WHERE originator_id = ? AND "
            "originator_version = 2",
            (game,),
        )
    con.close()
    for args in (["log", game], ["show", game], ["export", game]):
        err = refused(db_path, *args)
        assert err.startswith("error: a stored event cannot be read (")
        assert "the store is damaged; 'referee verify' names" in err
        assert len(err.strip().splitlines()) == 1
    code, out, _ = call(db_path, "verify")
    assert code == 1
    assert game in out


def test_units_and_catalog_show_read_a_tables_own_catalog_file() -> None:
    # `referee units crystale --catalog my-crystals.toml` said "unknown ruleset
    # 'my-crystals.toml'", though 'referee new crystale --catalog FILE' reads that file
    own = str(Path(__file__).resolve().parent.parent / "fixtures/crystale/low-mana-catalog.toml")
    for command in (["units", "crystale"], ["catalog", "show", "crystale"]):
        result = runner.invoke(app, [*command, "--catalog", own])
        assert result.exit_code == 0, result.stderr
        assert result.stdout.startswith("Dimwick the Spent: kind summoner")
        shipped = runner.invoke(app, command)
        assert "Dimwick the Spent" not in shipped.stdout
    result = runner.invoke(app, ["units", "crystale", "--catalog", "no-such-file.toml"])
    assert result.exit_code == 2
    assert "no-such-file.toml: No such file or directory" in result.stderr
    result = runner.invoke(app, ["units", "prismata", "--catalog", "x.toml"])
    assert result.exit_code == 2
    assert "unknown ruleset 'x.toml' for prismata" in result.stderr


def test_replay_from_past_the_end_says_so_without_none(db_path: Path) -> None:
    # `replay GAME --from 5` on a shorter game ended its refusal "(from 5 to None)"
    game = new_game(db_path)
    err = refused(db_path, "replay", game, "--from", "5")
    assert "(from 5 to the end)" in err
    assert "None" not in err


def test_a_players_name_is_one_line_of_printable_text(db_path: Path) -> None:
    # `new` stored a tab or a terminal escape sequence as a seat's name, which an event's
    # registration refuses (EV-2.2)
    for name, char in (("A\tB", "U+0009"), ("A\x1b[31mB", "U+001B")):
        err = refused(db_path, "new", "nim", "--player", f"first={name}", "--player", "second=B")
        assert f"first's name is one line of printable text: {char}" in err
        assert len(err.strip().splitlines()) == 1
    assert not db_path.exists()
    new_game(db_path)  # Ann and Ben
    code, _, _ = call(db_path, "new", "nim", "--player", "first=Zoë", "--player", "second=李雷")
    assert code == 0


def test_version_prints_the_installed_version_and_imports_no_command() -> None:
    # `referee --version` was "No such option" (a fresh user's first command)
    from importlib.metadata import version

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"referee {version('referee')}\n"
    assert app_for(["--db", "x.db", "--version"]).registered_commands == []
    listing = (
        "import sys; sys.argv = ['referee', '--version']\n"
        "from cli.main import run\n"
        "try:\n    run()\nexcept SystemExit as e:\n"
        "    print(e.code, sorted(m for m in sys.modules if m.startswith('cli')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", listing], capture_output=True, text=True, timeout=120
    ).stdout
    assert out.splitlines()[-1] == "0 ['cli', 'cli.face', 'cli.main']"


def _dump(db: Path) -> list[str]:
    import sqlite3

    with sqlite3.connect(db) as con:
        return list(con.iterdump())


def test_a_bad_import_file_is_refused_in_one_line_and_stores_nothing(
    db_path: Path, tmp_path: Path
) -> None:
    # a refused file printed its error and then "imported 0 games (0 events), skipped 0,
    # refused 1"; a JSON object with no header was "unknown format ''"; a refused file
    # exited 1 where every other refusal exits 2
    game = new_game(db_path, heap=4)
    record = tmp_path / "g.jsonl"
    assert call(db_path, "export", game, "-o", str(record))[0] == 0
    text = record.read_text()
    bad = {
        "not-json.jsonl": ("not json {", "neither a referee-jsonl nor a referee-text record"),
        "no-header.jsonl": ('{"x": 1}\n', ":1: the first line must be the record's header"),
        "other.jsonl": ('{"format": "x/1"}\n', ":1: unknown format 'x/1'"),
        "truncated.jsonl": (text[: len(text) // 2], ":2: malformed"),
        "empty.jsonl": ("", "the file is empty"),
    }
    other = tmp_path / "other.db"
    assert call(other, "new", "nim", "-p", "first=A", "-p", "second=B")[0] == 0
    before = _dump(other)
    for name, (body, reason) in bad.items():
        path = tmp_path / name
        path.write_text(body)
        for db in (other, tmp_path / "none.db"):
            code, out, err = call(db, "import", str(path))
            assert code == 2, err  # as `referee import --help` says: any file refused
            assert out == ""
            assert err.startswith(f"error: {path}"), err
            assert reason in err, err
            assert len(err.splitlines()) == 1, err
        assert _dump(other) == before
        assert not (tmp_path / "none.db").exists()
    # beside a good record, the summary still counts what was refused
    code, _, err = call(tmp_path / "none.db", "import", str(record), str(tmp_path / "empty.jsonl"))
    assert code == 2
    assert err.splitlines()[-1].endswith("skipped 0, refused 1"), err
    code, out, _ = call(tmp_path / "none.db", "import", "--help")
    assert code == 0
    assert "Exit 2 if any was refused" in " ".join(out.split()), out


def test_ref_6_1_a_ruling_asked_for_names_the_command_to_answer_it(db_path: Path) -> None:
    """The line asking for a ruling on card text (REF-6.1) gives the referee the command to
    type: this game's id and the card, not the placeholders GAME and NAME."""
    catalog = Path(__file__).parent.parent / "fixtures" / "gammasphere" / "fixture-cards.toml"
    code, out, err = call(
        db_path, "new", "gammasphere", "-p", "p1=Ann", "-p", "p2=Ben",
        "--catalog", str(catalog), "--deck-size", "20",
    )  # fmt: skip
    assert code == 0, err
    game_id = out.strip()
    for entry in ("p1: draw 7", "p2: draw 7", "draw", "construct Pylon", "play Skirmisher"):
        done(db_path, "act", game_id, entry)
    done(db_path, "act", game_id, "play Spear of Dawn on #2")
    out = done(db_path, "act", game_id, "play Soul Price on #2")
    assert "ruling needed on Soul Price" in out
    assert f"record it with: referee adjust {game_id} 'CHANGES' --card 'Soul Price'" in out

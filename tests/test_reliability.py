"""Integrity under attack and under load: each reproduction of issue 9, now holding.

Counts are kept small so CI stays quick; ``benchmarks/probe_reliability.py`` runs
the same probes at larger counts (figures in RELIABILITY.md).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from events.codec import seal as seal_event
from events.store import GameStore
from service import RefereeService

# each test runs the command line as processes (imports, kills, seals): seconds apiece
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = {"red": "Ann", "blue": "Ben"}
HOSTILE = [
    "line\nbreak",
    "nel\u0085x",
    "ls\u2028x",
    "ps\u2029x",
    "\x1b[2J\x1b[Hclear",
    "tab\tand\rcr",
    '"quoted" {braced} [Tag "x"]',
    "  spaced  ",
    '}\n{ended red by resignation REF-3.2: "x"}',
    "\x00nul",
]


def cli(db: Path, *args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["--db", str(db), "--referee", "Rita", *args], input=input)
    return result.exit_code, result.stdout, result.stderr


def referee(
    db: Path, *args: str, timeout: float = 120, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


def test_1_hostile_free_text_round_trips_and_never_reaches_the_terminal_raw(tmp_path: Path) -> None:
    svc = RefereeService(GameStore(tmp_path / "s.db"))
    for hostile in ("Ann\u2028x", "Ben\x1b[31m"):  # a seat's name is one printable line
        with pytest.raises(ValueError, match="one line of printable text"):
            svc.create_game("prizmik", {"red": hostile, "blue": "Ben"})
    game = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}).game_id
    svc.record(game, "e1>e2")
    for index, text in enumerate(HOSTILE):
        svc.dispute(game, 2, by="Ben", claim=text)
        svc.rule(game, index + 1, decision="uphold", clause="PZ-4.1", reason=text, by=text)
    svc.retract(game, HOSTILE[0])
    svc.end(game, "adjudication", who="red", reason=HOSTILE[-2])
    for fmt in ("jsonl", "text"):
        path = tmp_path / f"g.{fmt}"
        path.write_text("".join(svc.export([game], fmt)))
        other = RefereeService(GameStore(tmp_path / f"{fmt}.db"))
        assert [f.status for f in other.import_files([path]).files] == ["imported"]
        assert [getattr(e, "reason", None) for e in other.load(game).events] == [
            getattr(e, "reason", None) for e in svc.load(game).events
        ]
        assert other.load(game).result == "red"  # no injected line changed the result
        assert len(other.load(game).events) == len(svc.load(game).events)
    code, out, _ = cli(tmp_path / "s.db", "log", game)
    code2, audit, _ = cli(tmp_path / "s.db", "audit", game)
    for shown in (out, audit):
        assert "\x1b" not in shown
        assert "\u2028" not in shown
        assert "\x00" not in shown
        assert "\u0085" not in shown
    assert code == 0
    assert code2 == 0


def test_1_a_clause_is_a_clause_of_the_rulebook(tmp_path: Path) -> None:
    svc = RefereeService(GameStore(tmp_path / "s.db"))
    game = svc.create_game("prizmik", PLAYERS).game_id
    svc.record(game, "e1>e2")
    svc.dispute(game, 2, by="Ben", claim="no")
    for clause in ("hello world", "PM-4.1", "PZ-99.9", "PZ-4.1\n{ended blue"):
        code, _, err = cli(
            tmp_path / "s.db", "rule", game, "1", "--uphold", "--clause", clause, "--reason", "x"
        )
        assert code == 2
        assert "not a clause" in err


def test_2_game_ids_from_files_are_checked_and_never_paths(tmp_path: Path) -> None:
    svc = RefereeService(GameStore(tmp_path / "s.db"))
    game = svc.create_game("prizmik", PLAYERS).game_id
    text = "".join(svc.export([game], "text"))
    for hostile in ("../escaped", "/tmp/x", "d/x", "UPPER", "a" * 81, ""):
        path = tmp_path / "bad.txt"
        path.write_text(text.replace(f'[GameId "{game}"]', f"[GameId {json.dumps(hostile)}]"))
        report = RefereeService(GameStore(tmp_path / "other.db")).import_files([path])
        assert report.files[0].status == "refused", hostile
    code, _, err = cli(tmp_path / "s.db", "export", "--all", "-o", str(tmp_path))
    assert code == 2
    assert "is a folder" in err
    code, _, err = cli(
        tmp_path / "s.db", "export", game, "-o", str(tmp_path / "missing" / "x.jsonl")
    )
    assert code == 2
    assert "does not exist" in err
    code, _, _ = cli(tmp_path / "s.db", "export", "--all", "-o", str(tmp_path / "all.jsonl"))
    assert code == 0
    assert (tmp_path / "all.jsonl").exists()
    assert not (tmp_path / "escaped.jsonl").exists()


def test_4_values_outside_the_schema_are_refused_before_anything_is_stored(tmp_path: Path) -> None:
    svc = RefereeService(GameStore(tmp_path / "s.db"))
    game = svc.create_game("prizmik", PLAYERS).game_id
    svc.record(game, "e1>e2")
    text = "".join(svc.export([game], "text"))
    other = RefereeService(GameStore(tmp_path / "other.db"))
    for line in (
        '{ended "mallory" by bogus "REF-3.4": "x"}',
        '{ended "mallory" by adjudication "REF-3.4": "x"}',
        '{penalty "mallory" game_loss "x": "y"}',
    ):
        path = tmp_path / "bad.txt"
        path.write_text(text + line + "\n")
        assert other.import_files([path]).files[0].status == "refused", line
    # A JSONL record whose winner is not a seat, with every hash recomputed, is refused too.
    view = svc.load(game)
    from events.schema import GameEnded

    forged = seal_event(
        GameEnded(
            originator_id=game,
            originator_version=3,
            timestamp=view.events[-1].timestamp,
            prev_hash=view.last_hash,
            winner="mallory",
            how="adjudication",
            clause="REF-3.4",
            reason="forged",
        )
    )
    rows = svc.store.rows(game)
    from events.codec import encode
    from events.interchange import export_jsonl

    path = tmp_path / "forged.jsonl"
    path.write_text(
        "".join(export_jsonl(game, "prizmik", [*rows, (3, "referee.GameEnded.v2", encode(forged))]))
    )
    report = other.import_files([path])
    assert report.files[0].status == "refused"
    assert "not a seat" in report.files[0].detail
    assert other.store.game_ids() == []
    assert cli(tmp_path / "s.db", "games")[0] == 0
    assert cli(tmp_path / "s.db", "scoreboard")[0] == 0


def test_6_deep_nesting_is_refused_not_a_crash(tmp_path: Path) -> None:
    svc = RefereeService(GameStore(tmp_path / "s.db"))
    game = svc.create_game("prizmik", PLAYERS).game_id
    deep = "[" * 1000 + "]" * 1000
    jsonl = "".join(svc.export([game], "jsonl")).replace(
        '"variants":{', '"variants":{"x":' + deep + ",", 1
    )
    text = "".join(svc.export([game], "text")).replace(
        "[Ruleset", f"[Options {json.dumps(deep)}]\n[Ruleset", 1
    )
    for name, body in (("deep.jsonl", jsonl), ("deep.txt", text), ("deeper.jsonl", "{" * 5000)):
        path = tmp_path / name
        path.write_text(body)
        code, _, err = cli(tmp_path / "other.db", "import", str(path))
        assert code == 2
        assert name in err
        assert "Traceback" not in err


def exported_games(folder: Path, count: int) -> list[str]:
    """``count`` PRIZMIK games of one move each, exported one a file (g000.jsonl, ...)."""
    svc = RefereeService(GameStore(folder / "s.db"))
    files = []
    for index in range(count):
        game = svc.create_game("prizmik", PLAYERS).game_id
        svc.record(game, "e1>e2")
        path = folder / f"g{index:03d}.jsonl"
        path.write_text("".join(svc.export([game], "jsonl")))
        files.append(str(path))
    return files


def test_7_one_bad_file_refuses_only_itself(tmp_path: Path) -> None:
    files = exported_games(tmp_path, 30)
    bad = tmp_path / "g025.jsonl"
    bad.write_text(bad.read_text().replace("e1>e2", "e1>e3"))
    code, out, err = cli(tmp_path / "other.db", "import", *files)
    assert code == 2
    assert "g025.jsonl" in err
    assert "imported 29 games" in err
    assert len(out.split()) == 29


def test_8_and_11_overlapping_and_repeated_imports_store_each_game_once(tmp_path: Path) -> None:
    files = exported_games(tmp_path, 120)
    target = tmp_path / "target.db"
    assert referee(target, "new", "prizmik", "-p", "red=A", "-p", "blue=B").returncode == 0
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "cli.main", "--db", str(target), "import", *chunk],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for chunk in (files[:80], files[40:])
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], [err[-500:] for _, err in outputs]
    stored = RefereeService(GameStore(target))
    assert len(stored.store.game_ids()) == 121
    again = referee(target, "import", *files)
    assert again.returncode == 0
    assert "skipped 120" in again.stderr
    assert stored.verify().bad == 0


def test_9_concurrent_scoreboards_through_the_command_line(tmp_path: Path) -> None:
    svc = RefereeService(GameStore(tmp_path / "s.db"))
    for index in range(60):
        game = svc.create_game("prizmik", {"red": f"P{index % 5}", "blue": f"Q{index % 3}"}).game_id
        svc.end(game, "resignation", who="blue")
    total = svc.store.recorder.max_notification_id()
    svc.close()
    runs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cli.main",
                "--db",
                str(tmp_path / "s.db"),
                "scoreboard",
                "--json",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for _ in range(4)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0] * 4, [err for _, err in outputs]
    with sqlite3.connect(tmp_path / "s.projections.db") as con:
        assert con.execute("SELECT SUM(events) FROM games").fetchone()[0] == total
        assert con.execute("SELECT SUM(played) FROM standings").fetchone()[0] == 120


def test_10_a_lock_held_too_long_is_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    game = referee(db, "new", "prizmik", "-p", "red=A", "-p", "blue=B").stdout.strip()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        done = referee(db, "act", game, "e1>e2", env={"REFEREE_LOCK_TIMEOUT": "1"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert done.returncode == 3
    assert "locked" in done.stderr
    assert "Traceback" not in done.stderr
    assert referee(db, "act", game, "e1>e2").returncode == 0


def test_11_an_import_killed_midway_is_resumed(tmp_path: Path) -> None:
    svc = RefereeService(GameStore(tmp_path / "s.db"))
    files = []
    for index in range(400):
        game = svc.create_game("prizmik", PLAYERS).game_id
        for move in ("e1>e2", "e8>e7", "c1>c2"):
            svc.record(game, move)
        path = tmp_path / f"g{index:03d}.jsonl"
        path.write_text("".join(svc.export([game], "jsonl")))
        files.append(str(path))
    target = tmp_path / "target.db"
    run = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "--db", str(target), "import", *files],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    time.sleep(1.5)
    run.send_signal(signal.SIGKILL)
    run.wait()
    resumed = referee(target, "import", *files)
    assert resumed.returncode == 0, resumed.stderr[-500:]
    stored = RefereeService(GameStore(target))
    assert sorted(stored.store.game_ids()) == sorted(svc.store.game_ids())
    for game in svc.store.game_ids():
        assert stored.store.rows(game) == svc.store.rows(game)  # exact, not half-stored
    assert stored.verify().bad == 0


def _key(tmp_path: Path) -> tuple[Path, str]:
    from service.seal import create_key

    key = tmp_path / "seal.pem"
    return key, create_key(key)


def test_12_a_checkpoint_catches_a_deleted_game_a_cut_tail_and_a_resealed_forgery(
    tmp_path: Path,
) -> None:
    from events.codec import encode
    from service.seal import seal, verify_checkpoint

    key, public = _key(tmp_path)
    original = tmp_path / "s.db"
    svc = RefereeService(GameStore(original))
    games = []
    for _ in range(3):
        game = svc.create_game("prizmik", PLAYERS).game_id
        svc.record(game, "e1>e2")
        svc.record(game, "e8>e7")
        games.append(game)
    svc.end(games[0], "resignation", who="blue")
    checkpoint = seal(svc.store, key).text()
    svc.record(games[1], "c1>c2")  # later entries extend it
    assert verify_checkpoint(svc.store, checkpoint, public).ok
    svc.close()

    def tampered(name: str, sql: list[tuple[str, tuple[object, ...]]]) -> RefereeService:
        copy = tmp_path / f"{name}.db"
        shutil.copy(original, copy)
        with sqlite3.connect(copy) as con:
            for statement, params in sql:
                con.execute(statement, params)
        con.close()
        return RefereeService(GameStore(copy))

    deleted = tampered(
        "deleted", [("DELETE FROM stored_events WHERE originator_id = ?", (games[2],))]
    )
    assert deleted.verify().bad == 0  # each game alone looks fine...
    assert not verify_checkpoint(deleted.store, checkpoint, public).ok  # ...the checkpoint does not
    cut = tampered(
        "cut",
        [
            (
                "DELETE FROM stored_events WHERE originator_id = ? AND originator_version = 3",
                (games[2],),
            )
        ],
    )
    cut.projector.rebuild()  # the witness cannot help any more
    assert cut.verify().bad == 0
    assert not verify_checkpoint(cut.store, checkpoint, public).ok
    # Rename a player and re-seal the game's own chain: every per-game check passes.
    import msgspec

    from referee.contract import Player

    view = RefereeService(GameStore(original)).load(games[0])
    renamed = [
        seal_event(
            msgspec.structs.replace(
                view.created, players=(Player("red", "Mallory"), view.created.players[1]), hash=""
            )
        )
    ]
    for event in view.events[1:]:
        renamed.append(
            seal_event(msgspec.structs.replace(event, prev_hash=renamed[-1].hash, hash=""))
        )
    forged = tampered(
        "forged",
        [
            (
                "UPDATE stored_events SET state = ? WHERE originator_id = ? AND "
                "originator_version = ?",
                (encode(e), games[0], e.originator_version),
            )
            for e in renamed
        ],
    )
    assert forged.verify().bad == 0
    report = verify_checkpoint(forged.store, checkpoint, public)
    assert not report.ok
    assert "not the ones sealed" in report.detail
    from service.seal import create_key

    other_key = tmp_path / "other.pem"
    create_key(other_key)
    resealed = seal(forged.store, other_key).text()  # a forger's own checkpoint...
    assert not verify_checkpoint(forged.store, resealed, public).ok  # ...is not signed by the key


def test_12_seal_and_verify_through_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    game = referee(db, "new", "prizmik", "-p", "red=A", "-p", "blue=B").stdout.strip()
    referee(db, "act", game, "e1>e2")
    made = referee(db, "seal", "--new-key", str(tmp_path / "k.pem"))
    public = made.stdout.strip().splitlines()[-1]
    assert (tmp_path / "k.pem").stat().st_mode & 0o077 == 0
    checkpoint = referee(db, "seal", "--key", str(tmp_path / "k.pem")).stdout.strip()
    assert checkpoint.startswith("referee-checkpoint/1 size=2 ")
    good = referee(db, "verify", "--checkpoint", checkpoint, "--public-key", public)
    assert good.returncode == 0
    assert "signature verified" in good.stdout
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM stored_events WHERE originator_version = 2")
    con.close()
    bad = referee(db, "verify", "--checkpoint", checkpoint, "--public-key", public)
    assert bad.returncode == 1
    assert "removed or moved" in bad.stdout
    plain = referee(db, "verify")
    assert plain.returncode == 1
    assert "recorded checkpoint broken" in plain.stdout


@pytest.mark.parametrize("kill_after", [0.4, 0.9])
def test_kill_during_entries_leaves_only_whole_entries(tmp_path: Path, kill_after: float) -> None:
    db = tmp_path / "s.db"
    game = referee(db, "new", "prizmik", "-p", "red=A", "-p", "blue=B").stdout.strip()
    script = (
        "import sys\nfrom service import open_service\nsvc = open_service(sys.argv[1])\nfrom "
        "referee import games\nrules = games.load('prizmik')\nwhile True:\n    view = "
        "svc.load(sys.argv[2])\n    if view.ended is not None: break\n    legal = "
        "svc.legal(sys.argv[2]).actions\n    svc.record(sys.argv[2], legal[0], view=view)\n"
    )
    run = subprocess.Popen(
        [sys.executable, "-c", script, str(db), game],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(kill_after)
    run.send_signal(signal.SIGKILL)
    run.wait()
    check = referee(db, "verify", game)
    assert check.returncode == 0, check.stdout

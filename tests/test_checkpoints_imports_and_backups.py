"""Checkpoints, imported adjustments, public lists, seal keys and store backups: the
reproductions of issue 22's second pass from outside, each now holding.

s1: checkpoints prove the stored bytes; s2: imported adjustments are judged like live
ones; s3: what the public sees of a list; s4: a seal key's care; s5: a store backup
verifies against its checkpoints. RELIABILITY.md maps each reproduction to its test here.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from events.schema import ActionRejected
from tests.gammasphere.helpers import DECK_TEXT

ROOT = Path(__file__).resolve().parent.parent


# each test runs the command line as processes (imports, kills, seals): seconds apiece
pytestmark = pytest.mark.slow


def referee(
    db: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "--db", str(db), *args],
        capture_output=True,
        stdin=subprocess.DEVNULL,  # no terminal: a passphrase comes from the environment
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


def _sealed_game(tmp_path: Path) -> tuple[Path, str, str]:
    """A one-move PRIZMIK game, sealed with a new key: (store, public key, checkpoint)."""
    db = tmp_path / "s.db"
    game = referee(db, "new", "prizmik", "-p", "red=A", "-p", "blue=B").stdout.strip()
    assert referee(db, "act", game, "e1>e2").returncode == 0
    public = (
        referee(db, "seal", "--new-key", str(tmp_path / "k.pem")).stdout.strip().splitlines()[-1]
    )
    checkpoint = referee(db, "seal", "--key", str(tmp_path / "k.pem")).stdout.strip()
    return db, public, checkpoint


def _edit_first_event(db: Path, old: bytes, new: bytes) -> None:
    """Change the stored bytes of the store's first event, its hash field untouched."""
    with sqlite3.connect(db) as con:
        (state,) = con.execute("SELECT state FROM stored_events WHERE rowid = 1").fetchone()
        edited = bytes(state).replace(old, new, 1)
        assert edited != bytes(state)
        con.execute("UPDATE stored_events SET state = ? WHERE rowid = 1", (edited,))
    con.close()


def test_s1_a_checkpoint_breaks_when_stored_bytes_change_under_an_untouched_hash(
    tmp_path: Path,
) -> None:
    db, public, checkpoint = _sealed_game(tmp_path)
    assert referee(db, "verify", "--checkpoint", checkpoint, "--public-key", public).returncode == 0
    _edit_first_event(db, b'"name":"A"', b'"name":"M"')
    held = referee(db, "verify", "--checkpoint", checkpoint, "--public-key", public)
    assert held.returncode == 1, held.stdout
    assert "checkpoint broken" in held.stdout
    assert "not the ones sealed" in held.stdout


def test_s1_plain_verify_does_not_claim_what_a_keyless_check_cannot_prove(tmp_path: Path) -> None:
    db, _, _ = _sealed_game(tmp_path)
    plain = referee(db, "verify")
    assert plain.returncode == 0
    assert "the store extends" not in plain.stdout
    assert "checked without a key" in plain.stdout
    assert "--checkpoint" in plain.stdout


def test_s1_a_store_never_sealed_says_what_a_plain_verify_cannot_see(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    game = referee(db, "new", "prizmik", "-p", "red=A", "-p", "blue=B").stdout.strip()
    assert referee(db, "act", game, "e1>e2").returncode == 0
    plain = referee(db, "verify")
    assert plain.returncode == 0
    assert "never sealed" in plain.stdout
    assert "deleted game" in plain.stdout
    assert "cut tail" in plain.stdout


def test_s1_a_public_key_in_upper_case_hex_is_the_same_key(tmp_path: Path) -> None:
    db, public, checkpoint = _sealed_game(tmp_path)
    held = referee(db, "verify", "--checkpoint", checkpoint, "--public-key", public.upper())
    assert held.returncode == 0, held.stdout
    assert "signature verified" in held.stdout, held.stdout


# -- section 2: imported adjustments are judged like live ones -------------------


def _gammasphere_game(tmp_path: Path, db: Path, *more: str) -> str:
    """A new Gammasphere game for Ann (p1, the example list, open) and Ben, in ``db``."""
    (tmp_path / "list.txt").write_text(DECK_TEXT)
    return referee(
        db,
        "new",
        "gammasphere",
        "-p",
        "p1=Ann",
        "-p",
        "p2=Ben",
        "--deck",
        f"p1={tmp_path / 'list.txt'}",
        *more,
    ).stdout.strip()


def _forged_adjustment(tmp_path: Path, changes: str, name: str) -> Path:
    """A Gammasphere record whose last event is an adjustment changed to ``changes``,
    every hash recomputed, as someone editing an export would."""
    import msgspec

    from events.codec import encode
    from events.codec import seal as seal_event
    from events.interchange import read_jsonl
    from events.interchange.jsonl import export_jsonl
    from events.schema import TOPIC_OF
    from referee.kit.adjustments import adjustment_notation, parse_adjustment

    db = tmp_path / f"{name}.db"
    game = _gammasphere_game(tmp_path, db)
    for seat in ("p1", "p2"):
        assert referee(db, "act", game, "draw 7", "--by", seat).returncode == 0
    done = referee(
        db,
        "--referee",
        "Rita",
        "adjust",
        game,
        "move p1 deck>hand Pylon",
        "--card",
        "Supply Drop",
        "--reason",
        "ruled",
    )
    assert done.returncode == 0, done.stderr
    text = referee(db, "export", game, "--format", "jsonl").stdout
    events = [event for _, event, _, _ in read_jsonl(text.split("\n"), "x")]
    parsed = parse_adjustment(changes)
    events[-1] = msgspec.structs.replace(
        events[-1],
        changes=parsed,
        notation=adjustment_notation(parsed),
    )
    for i in range(1, len(events)):
        events[i] = seal_event(
            msgspec.structs.replace(events[i], prev_hash=events[i - 1].hash, hash="")
        )
    rows = [(e.originator_version, TOPIC_OF[type(e)], encode(e)) for e in events]
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(export_jsonl(game, "gammasphere", rows)))
    return path


FORGED = {
    "not-listed": ("move p1 deck>hand Static Medic", "GS-3.5"),
    "fifth-copy": (
        "move p1 deck>hand Vesper the Undying; move p1 deck>hand Vesper the Undying",
        "GS-3.5",
    ),
    "empty-discard": ("move p1 discard>hand Pylon", "GS-9.4"),
    "no-such-card": ("stat #40 attack +300", "GS-1.3"),
}


def test_s2_imported_adjustments_are_refused_with_their_clause_and_the_run_goes_on(
    tmp_path: Path,
) -> None:
    paths = {}
    for name, (changes, _) in FORGED.items():
        paths[name] = _forged_adjustment(tmp_path, changes, name)
    good = tmp_path / "good.jsonl"
    source = _forged_adjustment(tmp_path, "move p1 deck>hand Pylon", "good")
    good.write_text(source.read_text())
    target = tmp_path / "target.db"
    run = referee(target, "import", *map(str, paths.values()), str(good))
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert "tuple.index" not in run.stdout + run.stderr
    out = run.stdout + run.stderr
    for name, path in paths.items():
        clause = FORGED[name][1]
        line = next(line for line in out.splitlines() if path.name in line)
        assert clause in line, line
    from events.store import GameStore

    stored = GameStore(target)
    assert len(stored.game_ids()) == 1  # only the good record was stored
    stored.close()


def test_s2_import_cites_the_clause_live_adjust_cites_for_the_same_change(
    tmp_path: Path,
) -> None:
    """The same change, entered live and imported, is refused under the same clause."""
    change = "stat #1 attack +300"
    path = _forged_adjustment(tmp_path, change, "same")
    game = path.read_text().split('"game_id": "')[1].split('"')[0]
    live = referee(
        tmp_path / "same.db",
        "--referee",
        "Rita",
        "adjust",
        game,
        change,
        "--card",
        "Supply Drop",  # the record's card: a name outside the catalog is REF-6.5's refusal
        "--reason",
        "r",
    )
    assert live.returncode == 2, live.stderr
    assert live.stderr.startswith("error: GS-"), live.stderr
    clause = live.stderr.split(":")[1].strip()
    run = referee(tmp_path / "other.db", "import", str(path))
    assert run.returncode == 2, run.stdout + run.stderr  # refused, as the live command is
    assert clause in run.stdout + run.stderr, run.stdout + run.stderr


def test_s2_a_store_holding_an_unfit_adjustment_names_it_and_does_not_crash(
    tmp_path: Path,
) -> None:
    path = _forged_adjustment(tmp_path, "stat #40 attack +300", "stored")
    db = tmp_path / "stored.db"
    game = path.read_text().split('"game_id": "')[1].split('"')[0]
    # Stored straight into the database, as someone who can write the store would.
    source = tmp_path / "stored.db"
    with sqlite3.connect(source) as con:
        from events.interchange import read_jsonl

        last = read_jsonl(path.read_text().split("\n"), "x")[-1]
        _, event, _topic, state = last
        con.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (state, game, event.originator_version),
        )
    con.close()
    for command in (["verify", game], ["show", game], ["log", game]):
        run = referee(db, *command)
        assert "Traceback" not in run.stderr, run.stderr
        assert run.returncode in (1, 2), (command, run.returncode)
        assert "GS-1.3" in run.stdout + run.stderr, (command, run.stdout, run.stderr)


# -- section 3: what the public reads of a list -----------------------------------


def test_s3_an_old_rejection_without_readers_is_kept_from_other_viewers() -> None:
    """Reasons stored before ``seen_by`` existed: worded from a registered list, they are
    shown whole to their seat and the referee only (GS-1.2)."""
    from events.records import redact
    from events.schema import ActionRejected
    from referee.verdicts import Violation
    from tests.stored import stored_rejection

    seen = Violation(
        "GS-3.5", "p1's registered list has 2 Gamma Trooper; all 2 copies already seen"
    )
    old = stored_rejection("gammasphere-x", 9, 3, "p1", "play Gamma Trooper", seen)
    public = redact(old, "public")
    assert isinstance(public, ActionRejected)
    assert "registered list has" not in public.violations[0].reason
    # which clause of the section it broke is the seat's too (a PX-14.1 bid was too big)
    assert (public.violations[0].clause, public.violations[0].reason) == (
        "GS-3",
        "the entry breaks GS-3",
    )
    other_seat = redact(old, "p2")
    assert isinstance(other_seat, ActionRejected)
    assert "Gamma Trooper" not in other_seat.violations[0].reason
    own = redact(old, "p1")
    assert isinstance(own, ActionRejected)
    assert own.violations[0].reason == old.violations[0].reason
    plain = msgspec_replace_reason(old, "e1 is not adjacent to e5")
    assert redact(plain, "public") == plain  # a reason from public facts stays whole


def msgspec_replace_reason(event: ActionRejected, reason: str) -> ActionRejected:
    import msgspec

    from referee.verdicts import Violation

    return msgspec.structs.replace(event, violations=(Violation("GS-4.1", reason),))


def test_s3_the_public_export_and_log_show_an_open_list_by_size_and_a_sealed_one_by_commitment(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.db"
    (tmp_path / "list.txt").write_text(DECK_TEXT)
    sealed = referee(db, "deck", "seal", str(tmp_path / "list.txt"), "--json").stdout
    import json

    seal = json.loads(sealed)
    game = _gammasphere_game(tmp_path, db, "--sealed", f"p2={seal['register']}")
    text = referee(db, "export", game, "--format", "text", "--as", "public").stdout
    assert 'sealed "" 40' not in text
    assert '{deck "p1" hidden 40}' in text  # the list withheld, its size public
    assert seal["commitment"] in text  # the commitment published: anyone can check an opening
    log = referee(db, "log", game, "--as", "public").stdout
    assert seal["commitment"] in log
    opened = referee(
        db,
        "--referee",
        "Rita",
        "deck",
        "open",
        game,
        "p2",
        str(tmp_path / "list.txt"),
        "--salt",
        seal["salt"],
    )
    assert opened.returncode == 0, opened.stderr
    public_log = referee(db, "log", game, "--as", "public").stdout
    assert "opened (0 cards)" not in public_log
    assert "sealed list opened" in public_log
    assert "opened (40 cards)" in referee(db, "log", game, "--as", "p2").stdout


# -- section 5: backups that restore ------------------------------------------------


def test_s5_a_restored_store_verifies_against_its_last_published_checkpoint(
    tmp_path: Path,
) -> None:
    db, public, _ = _sealed_game(tmp_path)
    # games interleaved, as several clients write them, then sealed again
    first = referee(db, "new", "prizmik", "-p", "red=C", "-p", "blue=D").stdout.strip()
    second = referee(db, "new", "prizmik", "-p", "red=E", "-p", "blue=F").stdout.strip()
    for game, move in ((first, "e1>e2"), (second, "e1>e2"), (first, "e8>e7")):
        assert referee(db, "act", game, move).returncode == 0
    checkpoint = referee(db, "seal", "--key", str(tmp_path / "k.pem")).stdout.strip()
    backup = tmp_path / "backup.db"
    made = referee(db, "store", "backup", str(backup))
    assert made.returncode == 0, made.stderr
    assert "backed up 7 events" in made.stdout, made.stderr
    assert referee(db, "store", "backup", str(backup)).returncode == 2  # never overwritten
    restored = tmp_path / "restored.db"
    assert referee(restored, "store", "restore", str(backup)).returncode == 0
    held = referee(restored, "verify", "--checkpoint", checkpoint, "--public-key", public)
    assert held.returncode == 0, held.stdout
    assert "signature verified" in held.stdout, held.stdout
    plain = referee(restored, "verify")
    assert plain.returncode == 0
    assert "2 recorded checkpoints" in plain.stdout
    assert referee(restored, "store", "restore", str(backup)).returncode == 2  # no overwrite


def test_s5_the_game_backup_and_the_store_backup_are_told_apart_in_help(tmp_path: Path) -> None:
    helped = referee(tmp_path / "none.db", "--help").stdout
    game_line = next(line for line in helped.splitlines() if line.strip().startswith("backup"))
    store_line = next(line for line in helped.splitlines() if line.strip().startswith("store"))
    assert "game" in game_line
    assert "store" in store_line


# -- section 4: keys -------------------------------------------------------------------


def test_s4_a_key_beside_the_store_or_readable_by_all_is_warned_of(tmp_path: Path) -> None:
    db, _, _ = _sealed_game(tmp_path)
    beside = referee(db, "seal", "--key", str(tmp_path / "k.pem"))
    assert beside.returncode == 0
    assert "inside the store's folder" in beside.stderr
    away = tmp_path / "keys"
    away.mkdir()
    key = away / "k.pem"
    key.write_bytes((tmp_path / "k.pem").read_bytes())
    key.chmod(0o644)
    db2 = tmp_path / "store" / "s.db"
    db2.parent.mkdir()
    (tmp_path / "store" / "s.db").write_bytes(db.read_bytes())
    loose = referee(db2, "seal", "--key", str(key))
    assert loose.returncode == 0, loose.stderr
    assert "readable by others" in loose.stderr, loose.stderr
    assert "inside the store's folder" not in loose.stderr
    key.chmod(0o600)
    quiet = referee(db2, "seal", "--key", str(key))
    assert quiet.returncode == 0, quiet.stderr
    assert "warning" not in quiet.stderr, quiet.stderr


def test_s4_an_encrypted_key_is_used_with_its_passphrase_from_the_environment(
    tmp_path: Path,
) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    key = tmp_path / "enc.pem"
    key.write_bytes(
        private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"correct horse"),
        )
    )
    key.chmod(0o600)
    public = (
        private.public_key()
        .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        .hex()
    )
    db, _, _ = _sealed_game(tmp_path)
    without = referee(db, "seal", "--key", str(key))
    assert without.returncode == 2
    assert "REFEREE_KEY_PASSPHRASE" in without.stderr
    assert "Traceback" not in without.stderr
    wrong = referee(db, "seal", "--key", str(key), env={"REFEREE_KEY_PASSPHRASE": "nope"})
    assert wrong.returncode != 0
    assert "Traceback" not in wrong.stderr
    made = referee(db, "seal", "--key", str(key), env={"REFEREE_KEY_PASSPHRASE": "correct horse"})
    assert made.returncode == 0, made.stderr
    held = referee(db, "verify", "--checkpoint", made.stdout.strip(), "--public-key", public)
    assert held.returncode == 0
    assert "signature verified" in held.stdout

"""Issue 22, the second pass from outside: each reproduction, now holding.

Section 1 (checkpoints that prove the stored bytes), section 2 (imported
adjustments judged like live ones), section 3 (what the public sees of a list).
RELIABILITY.md maps each reproduction to its test here.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def referee(
    db: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "--db", str(db), *args],
        capture_output=True,
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
    assert "checkpoint broken" in held.stdout and "not the ones sealed" in held.stdout


def test_s1_plain_verify_does_not_claim_what_a_keyless_check_cannot_prove(tmp_path: Path) -> None:
    db, _, _ = _sealed_game(tmp_path)
    plain = referee(db, "verify")
    assert plain.returncode == 0
    assert "the store extends" not in plain.stdout
    assert "checked without a key" in plain.stdout and "--checkpoint" in plain.stdout


def test_s1_a_store_never_sealed_says_what_a_plain_verify_cannot_see(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    game = referee(db, "new", "prizmik", "-p", "red=A", "-p", "blue=B").stdout.strip()
    assert referee(db, "act", game, "e1>e2").returncode == 0
    plain = referee(db, "verify")
    assert plain.returncode == 0
    assert "never sealed" in plain.stdout and "deleted game" in plain.stdout
    assert "cut tail" in plain.stdout


def test_s1_a_public_key_in_upper_case_hex_is_the_same_key(tmp_path: Path) -> None:
    db, public, checkpoint = _sealed_game(tmp_path)
    held = referee(db, "verify", "--checkpoint", checkpoint, "--public-key", public.upper())
    assert held.returncode == 0 and "signature verified" in held.stdout, held.stdout

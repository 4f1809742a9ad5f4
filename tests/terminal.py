"""`referee table` in a real terminal, for the tests that type at it (pexpect).

A test module using it first calls ``pytest.importorskip("pexpect")``, so a machine without
pexpect skips those tests, saying why, instead of failing to import."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def spawn_table(db: Path, game: str, columns: int = 120) -> Any:
    """``referee --db DB table GAME`` under a dumb terminal ``columns`` wide, once its prompt
    is shown (the pexpect child, to send lines to and expect answers from)."""
    pexpect: Any = importlib.import_module("pexpect")  # no type stubs
    env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": str(columns)}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cli.main", "--db", str(db), "table", game],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=20,
    )
    child.expect(f"{game}> ")
    return child

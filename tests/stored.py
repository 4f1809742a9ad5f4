"""Records stored long ago, for the tests of what today's code reads of them: facts built by
hand as the store holds them (a rejection stored before its reasons had readers), and a
service over a copy of a store that older code wrote (kept under ``fixtures/``)."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from events.schema import ActionRejected
from events.store import GameStore
from referee.verdicts import Violation
from service import RefereeService

STORED_AT = datetime(2026, 1, 1, tzinfo=UTC)


def stored_rejection(
    stream: str, version: int, seq: int, actor: str, text: str, *violations: Violation
) -> ActionRejected:
    """Stream ``stream``'s event ``version``: the entry ``text`` by ``actor`` refused for
    ``violations`` as action ``seq``, stored on ``STORED_AT`` (its hashes left empty)."""
    return ActionRejected(
        originator_id=stream,
        originator_version=version,
        timestamp=STORED_AT,
        prev_hash="",
        seq=seq,
        actor=actor,
        text=text,
        violations=violations,
    )


def service_over_a_copy(store_file: Path, tmp_path: Path) -> RefereeService:
    """A service over a copy of ``store_file`` in ``tmp_path``: the tests may write to it
    (a game goes on, an import) while the fixture stays as the older code left it."""
    path = tmp_path / "old.db"
    shutil.copy(store_file, path)
    return RefereeService(GameStore(path))

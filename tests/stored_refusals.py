"""A refusal as a record written before reasons had readers stores it, for the tests of
what each viewer reads of it (``events.records.redact``)."""

from __future__ import annotations

from datetime import UTC, datetime

from events.schema import ActionRejected
from referee.verdicts import Violation

WRITTEN = datetime(2026, 1, 1, tzinfo=UTC)


def stored_refusal(
    stream: str, version: int, seq: int, actor: str, text: str, *violations: Violation
) -> ActionRejected:
    """The ``ActionRejected`` event number ``version`` of ``stream``: ``actor``'s entry
    ``text``, which would have been action ``seq``, refused for ``violations``."""
    return ActionRejected(
        originator_id=stream,
        originator_version=version,
        timestamp=WRITTEN,
        prev_hash="",
        seq=seq,
        actor=actor,
        text=text,
        violations=violations,
    )

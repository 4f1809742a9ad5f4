"""Facts built by hand as the store holds them, for the tests of what a viewer reads of a
record stored long ago (a rejection stored before its reasons had readers)."""

from __future__ import annotations

from datetime import UTC, datetime

from events.schema import ActionRejected
from referee.verdicts import Violation

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

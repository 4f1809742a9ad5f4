"""What the games' tests of names as typed share (tests/<game>/test_<game>_names.py): a
name the catalog does not hold makes no entry."""

from __future__ import annotations

from typing import Any

from referee.procedure import judge


def assert_no_such_name(
    rules: Any, state: Any, text: str, seat: str | None, clause: str, closest: str
) -> None:
    """``text`` names something the catalog does not hold: it is unreadable (nothing is
    stored), refused citing the naming ``clause`` alone, with ``closest`` suggested."""
    judged = judge(rules, state, text, seat)
    assert not judged.readable
    (violation,) = judged.verdict.violations
    assert violation.clause == clause
    assert f"did you mean {closest}?" in violation.reason

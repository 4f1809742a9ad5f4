"""The one error the tournament core raises on purpose: a refusal naming its clause.

A refusal changes nothing; it carries the ``EV-`` clause it applies and a reason
in plain words, like a game's rejected entry (``referee.verdicts.Violation``).
"""

from __future__ import annotations

from referee.errors import CitedError
from referee.verdicts import Violation

__all__ = ["Refusal", "unpaired"]


class Refusal(CitedError, ValueError):
    """A command, slip or pairing the tournament rules do not allow."""

    @property
    def violation(self) -> Violation:
        return Violation(self.clause, self.reason)


def unpaired(number: int) -> str:
    """Why round ``number`` has no pairings: "round 0 has not been paired" was said of an
    event that has paired none (round 0 is the current round before round 1)."""
    return "no round has been paired yet" if number < 1 else f"round {number} has not been paired"

"""What checking an entry can say: legal, illegal (with the clauses broken), or legal but
needing a referee's ruling on an effect the rules cannot compute.

Pure values, imported by the contract and by the errors module alike, so neither
needs the other.
"""

from __future__ import annotations

import msgspec

__all__ = ["LEGAL", "RulingNeeded", "Verdict", "Violation"]


class Violation(msgspec.Struct, frozen=True, gc=False):
    """One broken clause: its id and a plain-words reason naming pieces and squares."""

    clause: str
    reason: str


class RulingNeeded(msgspec.Struct, frozen=True, gc=False):
    """An effect the engine cannot carry out itself: a card's free text, say.

    ``card`` names what carries the effect, ``clause`` is the game's clause that
    hands such effects to the referee, ``text`` is the effect as printed.
    """

    card: str
    clause: str
    text: str


class Verdict(msgspec.Struct, frozen=True, gc=False):
    """The result of checking an entry.

    Three answers: *illegal* when there are violations; *needs a ruling* when the
    entry is legal but carries effects the rules cannot compute (``rulings``); and
    *legal* otherwise. Truthiness means "may be recorded".
    """

    violations: tuple[Violation, ...] = ()
    rulings: tuple[RulingNeeded, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def needs_ruling(self) -> bool:
        return not self.violations and bool(self.rulings)

    @property
    def status(self) -> str:
        """``legal``, ``illegal`` or ``ruling``."""
        if self.violations:
            return "illegal"
        return "ruling" if self.rulings else "legal"

    def __bool__(self) -> bool:
        return not self.violations

    @classmethod
    def illegal(cls, clause: str, reason: str) -> Verdict:
        return cls((Violation(clause, reason),))

    @classmethod
    def ruling(cls, card: str, clause: str, text: str) -> Verdict:
        return cls((), (RulingNeeded(card, clause, text),))

    def explain(self) -> str:
        """Every violation on one line each, as ``CLAUSE: reason``."""
        return "\n".join(f"{v.clause}: {v.reason}" for v in self.violations)


LEGAL = Verdict()

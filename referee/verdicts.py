"""What checking an entry can say: legal, illegal (with the clauses broken), or legal but
needing a referee's ruling on an effect the rules cannot compute.

Pure values, imported by the contract and by the errors module alike, so neither
needs the other.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import msgspec

from referee.viewers import REFEREE, Viewer

__all__ = ["LEGAL", "RulingNeeded", "Verdict", "Violation", "clause_section"]


class Violation(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """One broken clause: its id and a plain-words reason naming pieces and squares.

    A reason worded from hidden knowledge (a seat's registered list, its hand) is for
    ``seen_by`` (that seat) and the referee alone; everyone else reads ``shown``, the
    same refusal in plain words without the hidden names or counts, under the section of
    the clause broken (``clause_section``): which of a section's clauses was broken tells as
    much as the reason (a sealed bid refused under PX-14.1 was too big, under PX-14.2 too
    small), so the others read the same section for each. ``seen_by`` of
    ``None`` means anyone may read the reason. Both are left out of the stored bytes
    when unset, so violations recorded before they existed read and hash as before.
    """

    clause: str
    reason: str
    seen_by: str | None = None
    shown: str = ""

    def for_viewer(self, viewer: Viewer) -> Violation:
        """The violation as ``viewer`` may read it: whole for its seat and the referee,
        ``shown`` in place of the reason, under the clause's section, for everyone else."""
        if self.seen_by is None or viewer in (REFEREE, self.seen_by):
            return self
        return Violation(
            clause_section(self.clause), self.shown or "the reason concerns hidden information"
        )


def clause_section(clause: str) -> str:
    """The section a numbered clause is in (``PX-14.2`` -> ``PX-14``); a clause that is a
    section already is its own."""
    section, dot, _ = clause.rpartition(".")
    return section if dot and "-" in section else clause


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
    def illegal(
        cls, clause: str, reason: str, *, seen_by: str | None = None, shown: str = ""
    ) -> Verdict:
        """One violation; ``seen_by`` and ``shown`` when the reason tells hidden knowledge."""
        return cls((Violation(clause, reason, seen_by, shown),))

    @classmethod
    def ruling(cls, card: str, clause: str, text: str) -> Verdict:
        return cls((), (RulingNeeded(card, clause, text),))

    def for_viewer(self, viewer: Viewer) -> Verdict:
        """The verdict with every violation as ``viewer`` may read it."""
        if all(v.seen_by is None for v in self.violations):
            return self
        return Verdict(tuple(v.for_viewer(viewer) for v in self.violations), self.rulings)

    def concealing(self, secrets: Mapping[str, Collection[str]]) -> Verdict:
        """The verdict with every reason that names a secret (``secrets``: each seat's
        hidden names, as ``GameRules.secrets`` gives them) kept for that seat and the
        referee; everyone else reads the reason with those names replaced by
        "a hidden card". A reason already marked with ``seen_by`` is left as it is."""
        if not self.violations:
            return self
        changed = False
        violations = []
        for violation in self.violations:
            owners = (
                []
                if violation.seen_by is not None
                else [
                    seat
                    for seat, names in secrets.items()
                    if any(name in violation.reason for name in names)
                ]
            )
            if not owners:
                violations.append(violation)
                continue
            shown = violation.reason
            for seat in owners:
                for name in sorted(secrets[seat], key=len, reverse=True):
                    shown = shown.replace(name, "a hidden card")
            seen_by = owners[0] if len(owners) == 1 else REFEREE
            violations.append(Violation(violation.clause, violation.reason, seen_by, shown))
            changed = True
        return Verdict(tuple(violations), self.rulings) if changed else self

    def explain(self) -> str:
        """Every violation on one line each, as ``CLAUSE: reason``."""
        return "\n".join(f"{v.clause}: {v.reason}" for v in self.violations)


LEGAL = Verdict()

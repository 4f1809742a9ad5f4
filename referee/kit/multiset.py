"""``Multiset``: an immutable count of named things (cards in a list, motes in a bag).

The building block of what the referee knows about hidden places: a bag's
contents, a decklist, the cards of a list already seen. Sorted by name, so equal
multisets encode to equal bytes (decklists are hashed when sealed).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

import msgspec

__all__ = ["Multiset"]


class Multiset(msgspec.Struct, frozen=True, gc=False, array_like=True):
    """Counts of names, each above zero, sorted by name."""

    items: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, things: Iterable[str] | Mapping[str, int]) -> Multiset:
        """From names (``["R", "R", "G"]``) or a mapping of counts (``{"R": 2}``)."""
        counts: dict[str, int] = {}
        if isinstance(things, Mapping):
            for name, count in things.items():
                if count < 0:
                    raise ValueError(f"a count cannot be negative ({name}: {count})")
                if count:
                    counts[name] = counts.get(name, 0) + int(count)
        else:
            for name in things:
                counts[name] = counts.get(name, 0) + 1
        return cls(tuple(sorted(counts.items())))

    # -- reading ------------------------------------------------------------
    def count(self, name: str) -> int:
        for item, count in self.items:
            if item == name:
                return count
        return 0

    @property
    def total(self) -> int:
        return sum(count for _, count in self.items)

    def names(self) -> list[str]:
        return [name for name, _ in self.items]

    def __iter__(self) -> Iterator[str]:
        """Every element, repeated by its count."""
        for name, count in self.items:
            for _ in range(count):
                yield name

    def __len__(self) -> int:
        return self.total

    def __bool__(self) -> bool:
        return bool(self.items)

    def as_dict(self) -> dict[str, int]:
        return dict(self.items)

    def contains(self, other: Multiset) -> bool:
        """Whether every element of ``other`` is here (with its count)."""
        mine = self.as_dict()
        return all(mine.get(name, 0) >= count for name, count in other.items)

    def missing(self, other: Multiset) -> Multiset:
        """What of ``other`` is not here."""
        mine = self.as_dict()
        return Multiset.of({n: c - mine.get(n, 0) for n, c in other.items if c > mine.get(n, 0)})

    # -- changing (new values) ---------------------------------------------
    def plus(self, other: Multiset | Iterable[str]) -> Multiset:
        counts = self.as_dict()
        extra = other if isinstance(other, Multiset) else Multiset.of(other)
        for name, count in extra.items:
            counts[name] = counts.get(name, 0) + count
        return Multiset.of(counts)

    def minus(self, other: Multiset | Iterable[str]) -> Multiset:
        """Remove ``other``; raises ``ValueError`` naming what is not here."""
        taken = other if isinstance(other, Multiset) else Multiset.of(other)
        short = self.missing(taken)
        if short:
            raise ValueError(f"not there: {short.text()}")
        counts = self.as_dict()
        for name, count in taken.items:
            counts[name] -= count
        return Multiset.of(counts)

    def text(self) -> str:
        """``2 Fire Imp, 1 Water Sprite`` (``nothing`` when empty)."""
        return ", ".join(f"{count} {name}" for name, count in self.items) or "nothing"

    def __add__(self, other: Multiset) -> Multiset:
        return self.plus(other)

    def __sub__(self, other: Multiset) -> Multiset:
        return self.minus(other)

"""``Deferred``: a read-only map whose later part is made when it is first needed.

The ledger's maps (``events.schema.TOPICS``, ``TOPIC_OF``, ``KINDS``) hold a game's
types, made at import, and an event's (tournament's) stored types, which are made from
the tournament facts: reading those facts imports the tournament package, which a
one-game command never uses. A ``Deferred`` answers for the first part at once and makes
the second the first time it is asked for one of its entries; when the second part's
keys are known beforehand (the tournament topics are strings), asking for a key,
iterating or counting makes nothing either. It is a complete ``Mapping`` at every
moment: nothing reads a map that is missing entries not yet made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

__all__ = ["Deferred"]

_ABSENT = object()

K = TypeVar("K")
V = TypeVar("V")


class Deferred(Mapping[K, V]):
    """``eager`` and, made by ``later()`` when first needed, more entries (``keys``: theirs,
    when known beforehand). ``later`` is called at most once."""

    __slots__ = ("_eager", "_keys", "_later", "_made")

    def __init__(
        self,
        eager: Mapping[K, V],
        later: Callable[[], Mapping[K, V]],
        *,
        keys: tuple[K, ...] | None = None,
    ) -> None:
        self._eager = dict(eager)
        self._later = later
        self._keys = None if keys is None else dict.fromkeys(keys)  # ordered, and quick to ask
        self._made: Mapping[K, V] | None = None

    def _rest(self) -> Mapping[K, V]:
        made = self._made
        if made is None:
            made = self._made = self._later()
            if self._keys is not None and list(made) != list(self._keys):
                raise RuntimeError("a deferred map made other keys than it declared")
        return made

    def __getitem__(self, key: K) -> V:
        found = self._eager.get(key, _ABSENT)
        if found is not _ABSENT:
            return found  # type: ignore[return-value]
        if self._keys is not None and key not in self._keys:
            raise KeyError(key)  # none of the later part's either: nothing to make
        # the later part's (a tournament event's topic: 10,000 asked by a pairing's seal
        # and store) without a KeyError caught first
        return self._rest()[key]

    def __contains__(self, key: object) -> bool:
        if key in self._eager:
            return True
        return key in (self._keys if self._keys is not None else self._rest())

    def __iter__(self) -> Iterator[K]:
        yield from self._eager
        yield from (self._keys if self._keys is not None and self._made is None else self._rest())

    def __len__(self) -> int:
        return len(self._eager) + len(self._keys if self._keys is not None else self._rest())

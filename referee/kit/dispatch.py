"""A typed table from the type of an entry to the function that handles it: the one way
every game goes from an entry to its check and to its effect.

Games check and carry out entries by their type. A ``dict`` from type to function is
the fastest way there, but a plain one cannot say that the function for ``Bid``
takes a ``Bid``. ``Dispatch.register`` ties the two when the table is built (the
handler's second parameter must accept the registered type, checked by mypy), and
the lookup stays one dict access: ``handlers[type(action)](state, action, extra)``.

Each game declares its tables once, beside the handlers: ``ENTRY_CHECKS`` in its
``checks`` module (``(state, entry, extra) -> Verdict``) and ``ENTRY_EFFECTS`` in its
``engine`` (``(state, entry, extra) -> state``), one decorated function per entry type;
the contract suite (``tests/contract/test_game_kit.py``) holds every built-in game to
tables that cover its whole action union. A game taking the referee's adjustments declares
``CHANGE_CHECKS`` and ``CHANGE_EFFECTS`` in its ``adjust`` module the same way, one per kind
of primitive change (``referee.kit.adjustments``). A game whose entries are all one struct
telling its kinds apart by a ``kind`` field (PRIZMIK's ``deploy``, ``move`` and
``capture``) registers its handlers by that kind with ``Dispatch.tagged`` and looks
them up with ``handlers[entry.kind]``. The referee's own commands on a game are decided
the same way (``referee.game.decisions.DECISIONS``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

__all__ = ["Dispatch"]

StateT = TypeVar("StateT")
ExtraT = TypeVar("ExtraT")
ResultT = TypeVar("ResultT")
EntryT = TypeVar("EntryT")
_Handler = TypeVar("_Handler", bound=Callable[..., Any])


class Dispatch(Generic[StateT, ExtraT, ResultT]):
    """Handlers ``(state, entry, extra) -> result`` by the entry's type; ``extra`` is what
    every handler also needs (the seat making the entry, say)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.handlers: dict[type | str, Callable[[StateT, Any, ExtraT], ResultT]] = {}

    def register(
        self, kind: type[EntryT]
    ) -> Callable[
        [Callable[[StateT, EntryT, ExtraT], ResultT]], Callable[[StateT, EntryT, ExtraT], ResultT]
    ]:
        """Decorate the handler of entries of type ``kind``."""
        return self._decorator(kind)

    def tagged(
        self, tag: str
    ) -> Callable[
        [Callable[[StateT, Any, ExtraT], ResultT]], Callable[[StateT, Any, ExtraT], ResultT]
    ]:
        """Decorate the handler of entries whose ``kind`` field is ``tag`` (for a game whose
        entries are one struct type; look it up with ``handlers[entry.kind]``)."""
        return self._decorator(tag)

    def _decorator(self, key: type | str) -> Callable[[_Handler], _Handler]:
        """A decorator that makes its function the handler for ``key`` and returns it."""

        def decorate(handler: _Handler) -> _Handler:
            self._put(key, handler)
            return handler

        return decorate

    def add(self, kind: type[EntryT], handler: Callable[[StateT, EntryT, ExtraT], ResultT]) -> None:
        """Make ``handler`` the one for entries of type ``kind`` (one handler may serve
        several types: add it once for each)."""
        self._put(kind, handler)

    def _put(self, key: type | str, handler: Callable[[StateT, Any, ExtraT], ResultT]) -> None:
        if key in self.handlers:
            name = key if isinstance(key, str) else key.__name__
            raise ValueError(f"{self.what}: {name} is handled twice")
        self.handlers[key] = handler

    def missing(self, keys: Iterable[type | str]) -> list[str]:
        """The names of ``keys`` (entry types or kinds) that have no handler here."""
        return [
            key if isinstance(key, str) else key.__name__
            for key in keys
            if key not in self.handlers
        ]

    def __call__(self, state: StateT, entry: object, extra: ExtraT) -> ResultT:
        """The result of the handler for ``entry``'s type (``KeyError`` for an unknown type)."""
        return self.handlers[type(entry)](state, entry, extra)

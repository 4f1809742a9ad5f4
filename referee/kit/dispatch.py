"""A typed table from the type of an entry to the function that handles it.

Games check and carry out entries by their type. A ``dict`` from type to function is
the fastest way there, but a plain one cannot say that the function for ``Bid``
takes a ``Bid``. ``Dispatch.register`` ties the two when the table is built (the
handler's second parameter must accept the registered type, checked by mypy), and
the lookup stays one dict access: ``handlers[type(action)](state, action, extra)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["Dispatch"]

StateT = TypeVar("StateT")
ExtraT = TypeVar("ExtraT")
ResultT = TypeVar("ResultT")
EntryT = TypeVar("EntryT")


class Dispatch(Generic[StateT, ExtraT, ResultT]):
    """Handlers ``(state, entry, extra) -> result`` by the entry's type; ``extra`` is what
    every handler also needs (the seat making the entry, say)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.handlers: dict[type, Callable[[StateT, Any, ExtraT], ResultT]] = {}

    def register(
        self, kind: type[EntryT]
    ) -> Callable[
        [Callable[[StateT, EntryT, ExtraT], ResultT]], Callable[[StateT, EntryT, ExtraT], ResultT]
    ]:
        """Decorate the handler of entries of type ``kind``."""

        def decorate(
            handler: Callable[[StateT, EntryT, ExtraT], ResultT],
        ) -> Callable[[StateT, EntryT, ExtraT], ResultT]:
            self.add(kind, handler)
            return handler

        return decorate

    def add(self, kind: type[EntryT], handler: Callable[[StateT, EntryT, ExtraT], ResultT]) -> None:
        """Make ``handler`` the one for entries of type ``kind`` (one handler may serve
        several types: add it once for each)."""
        if kind in self.handlers:
            raise ValueError(f"{self.what}: {kind.__name__} is handled twice")
        self.handlers[kind] = handler

    def __call__(self, state: StateT, entry: object, extra: ExtraT) -> ResultT:
        """The result of the handler for ``entry``'s type (``KeyError`` for an unknown type)."""
        return self.handlers[type(entry)](state, entry, extra)

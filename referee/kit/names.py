"""Names of cards and units as a table types them: matched to the catalog's spelling, and
a name the catalog does not hold answered with its closest names ("did you mean ...?"),
as git and python-chess answer a mistyped command or move.

An entry naming something the game does not have is not an entry of the game at all:
the games raise ``ActionSyntaxError`` with the notation clause, so nothing is stored
(REF-1.1). A name the catalog holds but that cannot be played now stays a rejection.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import msgspec

__all__ = ["UnknownNameError", "canonical_names", "did_you_mean", "spelling_hint"]

StructT = TypeVar("StructT", bound=msgspec.Struct)


class UnknownNameError(LookupError):
    """A name the catalog does not hold (``name``, as typed)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def did_you_mean(name: str, names: Iterable[str], most: int = 3) -> str:
    """``"; did you mean X?"`` (or ``X or Y``) for the names closest to ``name``, or ``""``."""
    import difflib  # only a refused name pays for it

    folded: dict[str, str] = {}
    for candidate in names:
        folded.setdefault(candidate.casefold(), candidate)
    wanted = " ".join(name.split()).casefold()
    close = difflib.get_close_matches(wanted, list(folded), n=most, cutoff=0.6)
    if not close:
        return ""
    return "; did you mean " + " or ".join(folded[c] for c in close) + "?"


def spelling_hint(name: str, spelt: str | None, names: Iterable[str]) -> str:
    """What a refusal of ``name`` adds: ``"; the catalog spells it 'X'"`` when the catalog
    holds it in another spelling (``spelt``, its own), else the closest of ``names``
    (``did_you_mean``)."""
    if spelt is not None:
        return f"; the catalog spells it {spelt!r}"
    return did_you_mean(name, names)


def canonical_names(
    action: StructT,
    fields: Mapping[type, tuple[str, ...]],
    spelling: Callable[[str], str | None],
    keep: frozenset[str] = frozenset({""}),
) -> StructT:
    """``action`` with every name in ``fields`` (per struct type: fields holding a name or a
    tuple of names; nested structs are followed) in the catalog's spelling.

    ``spelling`` gives the catalog's spelling of a typed name or ``None``; values in
    ``keep`` (empty, ``palette``...) are not names. Raises ``UnknownNameError``."""
    changes: dict[str, Any] = {}
    named = fields.get(type(action), ())
    for field in msgspec.structs.fields(action):
        value = getattr(action, field.name)
        if field.name in named:
            if isinstance(value, str):
                new: Any = _spelt(value, spelling, keep)
            elif isinstance(value, tuple):
                new = tuple(_spelt(v, spelling, keep) for v in value)
            else:
                continue
        elif isinstance(value, msgspec.Struct):
            new = canonical_names(value, fields, spelling, keep)
        else:
            continue
        if new != value:
            changes[field.name] = new
    return msgspec.structs.replace(action, **changes) if changes else action


def _spelt(value: str, spelling: Callable[[str], str | None], keep: frozenset[str]) -> str:
    if value in keep:
        return value
    spelt = spelling(value)
    if spelt is None:
        raise UnknownNameError(value)
    return spelt

"""Reading and writing PRIZMIK actions (PZ-9).

Every syntactically valid action (64 origins x 3 separators x 64 targets) is
built once at import and interned: ``parse`` of canonical text is one dict
look-up and returns a shared frozen object, and move generation hands out the
same objects. Non-canonical text (upper case, spaces) is normalised once and
then remembered in a bounded cache.
"""

from __future__ import annotations

import re
from typing import Final

from referee.errors import ActionSyntaxError
from referee.games.prizmik.board import SQUARE_INDEX, SQUARE_NAMES
from referee.games.prizmik.model import SEPARATORS, ActionKind, PrizmikAction

__all__ = ["ACTIONS", "NOTATION_CLAUSE", "action", "notation", "parse"]

NOTATION_CLAUSE: Final = "PZ-9.1"
"""The clause named when text cannot be read as an action."""

_KINDS: Final[tuple[ActionKind, ...]] = ("deploy", "move", "capture")
_KIND_OF_SEPARATOR: Final[dict[str, ActionKind]] = {SEPARATORS[k]: k for k in _KINDS}

ACTIONS: Final[dict[tuple[str, int, int], PrizmikAction]] = {
    (kind, o, t): PrizmikAction(kind, o, t) for kind in _KINDS for o in range(64) for t in range(64)
}
"""Every well-formed action, keyed by ``(kind, origin, target)``."""

_CANONICAL: Final[dict[str, PrizmikAction]] = {
    f"{SQUARE_NAMES[a.origin]}{SEPARATORS[a.kind]}{SQUARE_NAMES[a.target]}": a
    for a in ACTIONS.values()
}

_CACHE: dict[str, PrizmikAction] = dict(_CANONICAL)
_CACHE_LIMIT: Final = len(_CANONICAL) + 50_000

_SPACES: Final = re.compile(r"\s+")


def action(kind: ActionKind, origin: str | int, target: str | int) -> PrizmikAction:
    """The interned action for ``kind`` between two squares given by name or index."""
    o = SQUARE_INDEX[origin] if isinstance(origin, str) else origin
    t = SQUARE_INDEX[target] if isinstance(target, str) else target
    return ACTIONS[(kind, o, t)]


def notation(act: PrizmikAction) -> str:
    """Canonical text of ``act``: lower case, no spaces (PZ-9.3)."""
    try:
        return f"{SQUARE_NAMES[act.origin]}{SEPARATORS[act.kind]}{SQUARE_NAMES[act.target]}"
    except (IndexError, KeyError, TypeError) as exc:
        raise ValueError(f"not a PRIZMIK action: {act!r}") from exc


def parse(text: str) -> PrizmikAction:
    """Read an action, ignoring case and spaces; raise ``ActionSyntaxError`` (PZ-9.1)."""
    try:
        return _CACHE[text]
    except (KeyError, TypeError):
        pass
    act = _parse_slow(text)
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
        _CACHE.update(_CANONICAL)
    _CACHE[text] = act
    return act


def _parse_slow(text: object) -> PrizmikAction:
    """Normalise ``text`` and read it, explaining precisely what is wrong if it fails."""
    if not isinstance(text, str):
        raise ActionSyntaxError(repr(text), "an action must be text", NOTATION_CLAUSE)
    compact = _SPACES.sub("", text).lower()
    found = _CANONICAL.get(compact)
    if found is not None:
        return found
    if not compact:
        raise ActionSyntaxError(text, "the text is empty", NOTATION_CLAUSE)
    # Find the separator to give a useful reason. A square is a letter and a
    # digit, so a separator sits at index 2 of well-formed text; 'x' doubles as
    # a letter, which is why we look at that position rather than search.
    if len(compact) != 5:
        raise ActionSyntaxError(
            text,
            "expected an origin square, one of the signs > - x, and a target square, "
            "such as c1>c2, c2-c4 or c4xd5",
            NOTATION_CLAUSE,
        )
    origin, sep, target = compact[:2], compact[2], compact[3:]
    for label, sq in (("origin", origin), ("target", target)):
        if sq not in SQUARE_INDEX:
            raise ActionSyntaxError(
                text,
                f"the {label} {sq!r} is not a square: use a file a-h and a rank 1-8, such as c2",
                NOTATION_CLAUSE,
            )
    if sep not in _KIND_OF_SEPARATOR:
        raise ActionSyntaxError(
            text,
            f"{sep!r} is not an action sign: use > to deploy, - to move or x to capture",
            NOTATION_CLAUSE,
        )
    # Every combination of two valid squares and a valid sign is canonical,
    # so reaching this line means the tables above are inconsistent.
    raise AssertionError(f"unreachable: {compact!r}")  # pragma: no cover

"""Hiding names from viewers who may not see them: the text of a rejected entry that
names cards out of a hidden zone (a hand, a sealed pool).

A rejected entry changes nothing, so a card it names never left its hidden zone: the
other seats and the public read the entry with those names replaced.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

import msgspec

__all__ = ["HIDDEN_NAME", "masked_text", "names_in", "secrets_for_reasons"]

HIDDEN_NAME = "(hidden)"


def masked_text(
    text: str,
    parse: Callable[[str], Any],
    notation: Callable[[Any], str],
    fields: Collection[str],
) -> str:
    """``text`` read as an entry with every name in one of ``fields`` (a name, or a tuple
    of names) replaced by ``HIDDEN_NAME``; ``text`` itself when it names nothing there
    or cannot be read (text that is no entry is never stored, REF-1.1)."""
    try:
        action = parse(text)
    except ValueError:
        return text
    changes: dict[str, Any] = {}
    for name in msgspec.structs.fields(action):
        if name.name not in fields:
            continue
        value = getattr(action, name.name)
        if isinstance(value, str):
            changes[name.name] = HIDDEN_NAME
        elif isinstance(value, tuple) and value:
            changes[name.name] = tuple(HIDDEN_NAME for _ in value)
    if not changes:
        return text
    return notation(msgspec.structs.replace(action, **changes))


def names_in(action: Any, fields: Collection[str]) -> frozenset[str]:
    """The names an entry gives in ``fields`` (a name, or a tuple of names)."""
    found: set[str] = set()
    for name in fields:
        value = getattr(action, name, None)
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, tuple):
            found.update(v for v in value if isinstance(v, str))
    return frozenset(found)


def secrets_for_reasons(
    secrets: Mapping[str, frozenset[str]], actor: str | None, typed: frozenset[str]
) -> dict[str, frozenset[str]]:
    """Whose eyes a rejection's reasons are for, by the names they contain: each seat's
    own secrets, except that a secret the actor typed itself is the actor's to read
    (it typed the name; the others read the reason without it)."""
    if actor is None:
        return dict(secrets)
    typed_secrets = frozenset(n for names in secrets.values() for n in names if n in typed)
    found = {seat: names - typed for seat, names in secrets.items() if seat != actor}
    found[actor] = secrets.get(actor, frozenset()) | typed_secrets
    return found

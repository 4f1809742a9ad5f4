"""The one door of the decisions for a write to an existing game.

``decision(view, command, base)`` judges an entry by ``referee.game.entries`` or decides a
command by ``referee.game.decisions`` (loaded when a command first comes: a process that
only records an entry, ``referee act``, never loads them). The write's terms (the version
its writer saw, HTTP ``If-Match``, and its idempotency key) are not the command's: the
write pipeline checks them once, before it asks here (``service.pipeline.check_terms``),
the key looked for in the game by ``key_stored``. Pure, as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.game.entries import decide_entry
from referee.game.entry import Decision, EntryCommand

if TYPE_CHECKING:
    from referee.game.commands import Command, Write
    from referee.game.facts import GameEvent
    from referee.game.view import FoldedGame

__all__ = ["decide", "decision", "key_stored"]


def decision(view: FoldedGame, command: Write, base: Mapping[str, Any]) -> Decision:
    """What ``command`` writes to the game ``view`` after its last fact, or a refusal
    (raised): the procedure's and the rules'."""
    if isinstance(command, EntryCommand):
        return decide_entry(view, command, base)
    from referee.game.decisions import decide_command

    return Decision(new=decide_command(view, command, base))


def decide(view: FoldedGame, command: Command, base: Mapping[str, Any]) -> list[GameEvent]:
    """The facts a referee's ``command`` writes to ``view`` (``decision``'s, for callers
    that want only them: a record's import, the tests)."""
    return decision(view, command, base).new


def key_stored(view: FoldedGame, key: str, *, token: str) -> int | None:
    """The number of the game's last event stored with the idempotency key ``key`` by the
    token ``token`` (its ``write_key``, or a judge call's own ``idempotency_key``), if any:
    a write sent again, answered as the first (``service.pipeline``), or, inside an event's
    write, refused (``RepeatedWriteError``, HTTP 409). Asked of the view's ``KeyIndex``
    (made on the first ask): the events read are those folded since the last ask."""
    index = view.keys
    if index is None:
        from referee.game.view import KeyIndex  # a keyed write's only: ``act`` loads none

        index = view.keys = KeyIndex()
    return index.caught_up(view.events).get((key, token))

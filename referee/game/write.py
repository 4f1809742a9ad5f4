"""The one door of the decisions for a write to an existing game.

``decision(view, command, base)`` checks the version the writer saw
(``expected_version``, HTTP ``If-Match``): the only place that check is made, for an
entry or a referee's command, from the command line or the server's group commit; and,
for a command stored with its writer's idempotency key (a judge call, REF-11), that no
event of the game holds that key from the same token (``check_key``).
Then an entry is judged by ``referee.game.entries`` and a command decided by
``referee.game.decisions`` (loaded when a command first comes: a process that only
records an entry, ``referee act``, never loads them). Pure, as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.errors import RepeatedWriteError, StaleVersionError
from referee.game.entries import decide_entry
from referee.game.entry import Decision, EntryCommand, Versioned

if TYPE_CHECKING:
    from referee.game.commands import Command, Write
    from referee.game.facts import GameEvent
    from referee.game.view import FoldedGame

__all__ = ["check_key", "check_version", "decide", "decision"]


def decision(view: FoldedGame, command: Write, base: Mapping[str, Any]) -> Decision:
    """What ``command`` writes to the game ``view`` after its last fact, or a refusal
    (raised): a stale ``expected_version`` first, then the procedure's and the rules'."""
    if isinstance(command, Versioned):
        check_version(view, command.expected_version)
        key = getattr(command, "idempotency_key", "")
        if key:
            check_key(view, key, base.get("token_id", ""))
    if isinstance(command, EntryCommand):
        return decide_entry(view, command, base)
    from referee.game.decisions import decide_command

    return Decision(new=decide_command(view, command, base))


def decide(view: FoldedGame, command: Command, base: Mapping[str, Any]) -> list[GameEvent]:
    """The facts a referee's ``command`` writes to ``view`` (``decision``'s, for callers
    that want only them: a record's import, the tests)."""
    return decision(view, command, base).new


def check_version(view: FoldedGame, expected: int | None) -> None:
    """Refuse a write made on a version of the game other than the one stored."""
    if expected is not None and expected != view.version:
        raise StaleVersionError(view.game_id, expected, view.version)


def check_key(view: FoldedGame, key: str, token: str) -> None:
    """Refuse a write sent again with the idempotency key of one already stored in the
    game by the same token (``RepeatedWriteError``, HTTP 409: nothing stored twice)."""
    for number in range(view.version, 0, -1):
        event = view.event(number)
        stored = getattr(event, "idempotency_key", None)
        if stored == key and event.token == token:
            raise RepeatedWriteError(view.game_id, key, number)

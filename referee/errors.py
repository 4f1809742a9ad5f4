"""Exceptions raised by the pure rules core.

Each subclasses the built-in that fits it, so callers may catch ``ValueError`` or
``LookupError`` without knowing this package.
"""

from __future__ import annotations

from referee.verdicts import Verdict

QUOTED_LENGTH = 80
"""The most of a user's text an error quotes back (``quoted``)."""


def quoted(text: str) -> str:
    """``text`` quoted as an error quotes an entry back (Python's ``repr``): its first
    ``QUOTED_LENGTH`` characters and an ellipsis when it is longer, with its length, so a
    pasted page answers one readable line, not the page again."""
    if len(text) <= QUOTED_LENGTH:
        return repr(text)
    return f"{text[:QUOTED_LENGTH]!r}… ({len(text)} characters)"


class RefereeError(Exception):
    """Base class of every error this project raises on purpose."""


class CitedError(RefereeError):
    """An error that names the clause it applies (``clause``) and why, in plain words
    (``reason``); its message is ``clause: reason`` unless it says more (``message``)."""

    def __init__(self, clause: str, reason: str, message: str | None = None) -> None:
        super().__init__(message if message is not None else f"{clause}: {reason}")
        self.clause = clause
        self.reason = reason


class ActionSyntaxError(CitedError, ValueError):
    """Text that is not an action in the game's notation.

    ``clause`` names the notation clause of the game's rulebook, so a rejection
    of unparseable text can be recorded like any other rejection.
    """

    def __init__(self, text: str, reason: str, clause: str) -> None:
        super().__init__(clause, reason, f"{clause}: cannot read {quoted(text)}: {reason}")
        self.text = text


class IllegalActionError(RefereeError, ValueError):
    """An action that breaks one or more clauses; carries the verdict."""

    def __init__(self, verdict: Verdict, text: str = "") -> None:
        self.verdict = verdict
        self.text = text
        lines = "; ".join(f"{v.clause}: {v.reason}" for v in verdict.violations)
        super().__init__(
            f"illegal action {quoted(text)}: {lines}" if text else f"illegal action: {lines}"
        )


class UnknownGameError(RefereeError, LookupError):
    """No game of that name is registered."""


class VariantError(RefereeError, ValueError):
    """A variant key or value that the game does not offer."""


class SetupError(RefereeError, ValueError):
    """A setup that cannot start a game (wrong seats, unknown ruleset, ...)."""


class UnknownClauseError(RefereeError, LookupError):
    """A clause id that the rulebook does not contain."""


class CatalogError(RefereeError, ValueError):
    """A card catalog that cannot be read or breaks the catalog schema."""


class DeckError(RefereeError, ValueError):
    """A decklist that cannot be read, or a sealed list that does not open."""


class AdjustmentSyntaxError(RefereeError, ValueError):
    """Text that is not a referee adjustment in the kit's notation; the message names the
    clause that lists the primitive changes (REF-6.3), as every refusal names its clause."""

    def __init__(self, reason: str, clause: str = "REF-6.3") -> None:
        super().__init__(f"{clause}: {reason}")
        self.reason = reason
        self.clause = clause


# -- the refusals of the referee's decisions on a game (referee.game): nothing was stored


class RefusedError(RefereeError, ValueError):
    """A command that cannot be carried out as given. Nothing was stored."""


class InvalidCommandError(CitedError, RefusedError):
    """A command the referee procedure does not allow in this state (retracting with
    nothing to retract, ruling twice, ...); names the procedure clause."""


class UnknownSeatError(CitedError, RefusedError):
    """A name that is no seat, player or viewer of the game, or that fits two players
    (REF-1.7): refused; the reason lists the choices."""


class UnreadableEntryError(CitedError, RefusedError):
    """Text that is not an action of the game (REF-1.1): refused, not kept as evidence."""

    def __init__(self, text: str, clause: str, reason: str) -> None:
        said = f"not an action of this game ({clause}): {reason}; nothing was stored"
        super().__init__(clause, reason, said)
        self.text = text


class KeyedWriteError(RefereeError):
    """A write whose idempotency key (HTTP ``Idempotency-Key``) a write already stored
    holds: the stream, the key, and the number of the event that holds it."""

    def __init__(self, stream: str, key: str, event: int, message: str) -> None:
        super().__init__(message)
        self.stream = stream
        self.key = key
        self.event = event


class RepeatedWriteError(KeyedWriteError, RuntimeError):
    """A write sent again with the idempotency key of a write already stored (HTTP
    ``Idempotency-Key``): it is not carried out a second time; nothing was stored."""

    def __init__(self, stream: str, key: str, event: int) -> None:
        said = f"the write with idempotency key {key!r} was stored already (event {event} of "
        super().__init__(stream, key, event, f"{said}{stream}); nothing was stored again")


class KeyReusedError(KeyedWriteError, ValueError):
    """A write sent with the idempotency key of a write already stored, but asking for
    something else (another command, other values: HTTP 422 ``idempotency-key-reused``):
    a key names one request; nothing was stored."""

    def __init__(self, stream: str, key: str, event: int) -> None:
        said = f"idempotency key {key!r} was sent before with a different request (stored as "
        super().__init__(
            stream, key, event, f"{said}event {event} of {stream}); nothing was stored"
        )


class StaleVersionError(RefereeError, RuntimeError):
    """The caller saw an older version of the game (or, with ``stream``, of an event) than
    the store holds (HTTP ``If-Match``)."""

    def __init__(self, game_id: str, expected: int, actual: int, *, stream: str = "game") -> None:
        super().__init__(
            f"game {game_id} is at event {actual}, not {expected}: look again before entering"
            if stream == "game"
            else f"{stream} {game_id} is at version {actual}, not {expected}: look again "
            "before writing; nothing was stored"
        )
        self.expected = expected
        self.actual = actual

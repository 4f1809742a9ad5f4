"""The page forms' keys: a form sent twice (a reload, a double click, the back
button's copy) is carried out once, and its outcome shown after its redirect
(``web.formkeys``: post/redirect/get).

An API write's ``Idempotency-Key`` is not kept here: the write pipeline stores it with
the write's first event, in the game's or the event's own log, and finds it there
(``service.pipeline.stage``, ``check_terms``), whichever process a retry reaches. A
form's key is kept here because what the page shows after the redirect is the form's
outcome in words (what happened, or the refusal with the values sent), which no log
holds.

A form's key is claimed with one ``INSERT ... ON CONFLICT DO NOTHING`` in the store's
side tables (shared by every process of a store), so exactly one post per (token, key)
runs the form's action; its outcome is saved under the key, and every repeat gets that
outcome. A repeat that arrives while the first is still running waits for it; a key
reused with other values is refused. An action that failed with a server fault (5xx)
releases its key, so the repeat runs again.

The claim and the action's append are two transactions: should a process die between
them, the key stays claimed and its repeats are told the outcome is unknown instead of
running the action a second time.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any, Literal

import msgspec

from service.sidedb import SideDB

__all__ = ["Claim", "IdempotencyStore", "fingerprint"]

_SCHEMA = (
    (
        "CREATE TABLE IF NOT EXISTS referee_idempotency (principal TEXT NOT NULL, idem_key TEXT "
        "NOT NULL, fingerprint TEXT NOT NULL, state TEXT NOT NULL, status INTEGER NOT NULL "
        "DEFAULT 0, headers TEXT NOT NULL DEFAULT '{}', body TEXT NOT NULL DEFAULT '', created "
        "DOUBLE PRECISION NOT NULL, PRIMARY KEY (principal, idem_key))"
    ),
)

KEEP_SECONDS = 24 * 3600


def fingerprint(method: str, path: str, body: bytes) -> str:
    """What makes two requests "the same request" for a key."""
    digest = hashlib.sha256()
    for part in (method.upper().encode(), path.encode(), body):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


class Claim(msgspec.Struct, kw_only=True):
    """What a claim found: ``new`` (run the command), ``done`` (send the saved answer),
    ``pending`` (another request with the key is still running), ``mismatch`` (the key
    was used for a different request)."""

    state: Literal["new", "done", "pending", "mismatch"]
    status: int = 0
    body: str = ""
    age: float = 0.0


class IdempotencyStore:
    """Claims and answers by (principal, key) in the store's side tables."""

    def __init__(self, db: SideDB) -> None:
        self.db = db
        db.script(_SCHEMA)
        self._last_purge = 0.0

    def claim(self, principal: str, key: str, print_: str) -> Claim:
        """Claim ``key`` for this request, or say what became of the request that has it."""
        now = time.time()
        self._purge(now)
        inserted, _ = self.db.execute(
            "INSERT INTO referee_idempotency (principal, idem_key, fingerprint, state, created) "
            "VALUES (?, ?, ?, 'pending', ?) ON CONFLICT DO NOTHING",
            (principal, key, print_, now),
        )
        if inserted == 1:
            return Claim(state="new")
        return self.look(principal, key, print_)

    def look(self, principal: str, key: str, print_: str) -> Claim:
        _, rows = self.db.execute(
            "SELECT fingerprint, state, status, body, created FROM referee_idempotency "
            "WHERE principal = ? AND idem_key = ?",
            (principal, key),
        )
        if not rows:  # released meanwhile: the caller claims again
            return Claim(state="pending", age=0.0)
        stored, state, status, body, created = rows[0]
        if stored != print_:
            return Claim(state="mismatch")
        if state == "done":
            return _done(status, body, created)
        return Claim(state="pending", age=time.time() - float(created))

    def answer(self, principal: str, key: str) -> Claim | None:
        """The saved answer under ``key`` whatever request made it (``None`` while it runs,
        or when there is none): what a page shows after a form's redirect (``web.formkeys``)."""
        _, rows = self.db.execute(
            "SELECT state, status, body, created FROM referee_idempotency "
            "WHERE principal = ? AND idem_key = ?",
            (principal, key),
        )
        if not rows or rows[0][0] != "done":
            return None
        _, status, body, created = rows[0]
        return _done(status, body, created)

    def finish(self, principal: str, key: str, status: int, body: str) -> None:
        """Save the outcome to show every repeat. (The table's ``headers`` column is the
        HTTP answers' it kept before a game's write kept its key in its own log: left at
        its default, so every store's table reads as it did.)"""
        self.db.execute(
            "UPDATE referee_idempotency SET state = 'done', status = ?, body = ? "
            "WHERE principal = ? AND idem_key = ?",
            (status, body, principal, key),
        )

    def release(self, principal: str, key: str) -> None:
        """Forget a claim whose command stored nothing, so a retry runs it again."""
        self.db.execute(
            "DELETE FROM referee_idempotency WHERE principal = ? AND idem_key = ? AND state = "
            "'pending'",
            (principal, key),
        )

    def _purge(self, now: float) -> None:
        if now - self._last_purge < 600:
            return
        self._last_purge = now
        self.db.execute("DELETE FROM referee_idempotency WHERE created < ?", (now - KEEP_SECONDS,))


def _done(status: Any, body: Any, created: Any) -> Claim:
    """The saved answer of a finished request, from its row's columns."""
    return Claim(
        state="done",
        status=int(status),
        body=str(body),
        age=time.time() - float(created),
    )

"""Page forms that are safe to reload (post/redirect/get with an idempotency key).

Every page form carries a hidden ``idem`` field, a fresh key made when the page is
rendered (``new_key``). Posting it runs the form's action once per (token, key), through
the API's idempotency store (``service.idempotency``, under ``form:KEY``): a reload of
the post, a double click or a form sent again from the back button's copy of the page
finds the key done and records nothing more; the same key with other values is refused.
The post then answers ``303 See Other`` to the page with ``?said=KEY``, and the page
shows the saved outcome (what happened, or the refusal with its clause and the values
sent, to correct them) for ``FLASH_SECONDS``: no cookie and no script needed.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from litestar import Request

from service.access import Principal
from service.idempotency import fingerprint
from web.context import Web

__all__ = ["FIELD", "FLASH_SECONDS", "Outcome", "new_key", "note", "once", "said"]

FIELD = "idem"
"""The hidden field's name in every page form."""
FLASH_SECONDS = 600.0
"""How long the page shows a form's outcome after its redirect (a later reload shows none)."""
_PREFIX = "form:"  # page forms' keys apart from the API's keys of the same token
_WAIT = 5.0


class Outcome:
    """What a form did: ``ok``, one line for people, the HTTP status it stands for, and
    the values sent (kept on a refusal, so the page can show them again)."""

    def __init__(
        self,
        ok: bool,
        message: str,
        status: int = 200,
        form: Mapping[str, str] | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> None:
        self.ok = ok
        self.message = message
        self.status = status
        self.form = dict(form or {})
        self.data = dict(data or {})
        """What else the page shows after the redirect (a posting check's answer), as JSON."""
        self.key = ""
        """The key the outcome is kept under (its redirect's ``?said=``)."""

    def saved(self) -> str:
        kept = {"ok": self.ok, "message": self.message, "status": self.status, "form": self.form}
        if self.data:  # left out when empty: the outcomes kept before it read the same
            kept["data"] = self.data
        return json.dumps(kept)

    @classmethod
    def load(cls, body: str, key: str = "") -> Outcome:
        data = json.loads(body)
        outcome = cls(
            bool(data["ok"]),
            str(data["message"]),
            int(data["status"]),
            data["form"],
            data.get("data"),
        )
        outcome.key = key
        return outcome


def new_key() -> str:
    """A fresh key for one rendered form."""
    return secrets.token_urlsafe(16)


def valid_key(key: str) -> bool:
    return 0 < len(key) <= 200 and key.isprintable()


async def once(
    web: Web,
    who: Principal,
    path: str,
    form: Mapping[str, str],
    key: str,
    run: Callable[[], Awaitable[Outcome]],
) -> Outcome:
    """``run`` the form's action once for ``key``; a repeat gets the first outcome."""
    body = json.dumps(sorted(form.items())).encode()
    print_ = fingerprint("POST", path, body)
    stored = _PREFIX + key
    claim = await web.run(web.keys.claim, who.token_id, stored, print_)
    waited = 0.0
    while claim.state == "pending" and waited < _WAIT:  # the first click is still running
        await asyncio.sleep(0.05)
        waited += 0.05
        claim = await web.run(web.keys.claim, who.token_id, stored, print_)
    if claim.state == "done":
        return Outcome.load(claim.body, key)
    if claim.state == "mismatch":
        return await note(
            web,
            who,
            Outcome(
                False,
                "this form was sent before with other values, and that was carried out; "
                "nothing more was recorded: send it again from the page as it is now",
                422,
                form,
            ),
        )
    if claim.state == "pending":
        return await note(
            web,
            who,
            Outcome(
                False,
                "this form is still being carried out; reload the page in a moment to see "
                "what happened (nothing was recorded twice)",
                409,
            ),
        )
    try:
        outcome = await run()
    except BaseException:
        await web.run(web.keys.release, who.token_id, stored)
        raise
    if outcome.status >= 500:
        await web.run(web.keys.release, who.token_id, stored)
        return outcome
    await web.run(web.keys.finish, who.token_id, stored, outcome.status, outcome.saved())
    outcome.key = key
    return outcome


async def note(web: Web, who: Principal, outcome: Outcome) -> Outcome:
    """Keep an outcome that stored nothing under a key of its own, for its redirect: a
    refusal that must leave the form's own key free (a hall form, ``web.calls_pages``), a
    posting's check (nothing to carry out once), or a key sent before with other values."""
    outcome.key = new_key()
    stored = _PREFIX + outcome.key
    await web.run(web.keys.claim, who.token_id, stored, "")
    await web.run(web.keys.finish, who.token_id, stored, outcome.status, outcome.saved())
    return outcome


async def said(web: Web, who: Principal, key: str | None) -> Outcome | None:
    """The outcome a redirect's ``?said=KEY`` names, while it is fresh."""
    if not key or not valid_key(key):
        return None
    claim = await web.run(web.keys.answer, who.token_id, _PREFIX + key)
    if claim is None or claim.age > FLASH_SECONDS:
        return None
    try:
        return Outcome.load(claim.body)
    except (ValueError, KeyError, TypeError):
        return None


async def posted(request: Request[Any, Any, Any]) -> tuple[dict[str, str], str]:
    """A page form's fields, and its key taken out of them (a fresh one for a form without
    one, a script's: carried out once all the same)."""
    data = await request.form()
    form = {str(k): str(v) for k, v in data.items()}
    key = form.pop(FIELD, "").strip()
    return form, key if valid_key(key) else new_key()


def key_field() -> dict[str, Any]:
    """What a template needs to give each form its key: ``idem()`` makes one."""
    return {"idem": new_key, "idem_field": FIELD}

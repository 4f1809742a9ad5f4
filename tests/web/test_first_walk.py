"""Defects found walking the hall's pages and API as an organizer and a head referee for the
first time (docs/server.md, docs/hall.md, docs/forms.md): each test failed before its fix."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from tests.web.conftest import Tokens, auth

Client = TestClient[Litestar]


def test_the_sign_in_form_counts_wrong_tokens_like_the_api(client: Client, tokens: Tokens) -> None:
    """docs/server.md, Bounds: past 20 wrong tokens within 10 s from one address a wrong token
    is answered 429 with Retry-After. The sign-in form took wrong tokens without end, a way
    around the limit; a valid token is still let in."""
    codes = [
        client.post("/login", data={"token": f"rf_guessguess_{n}"}, follow_redirects=False)
        for n in range(25)
    ]
    assert codes[0].status_code == 401
    refused = codes[-1]
    assert refused.status_code == 429, [c.status_code for c in codes]
    assert "retry-after" in refused.headers
    assert "Traceback" not in refused.text
    assert "rf_guessguess" not in refused.text
    assert refused.headers["content-type"].startswith("text/html")
    # the API from the same address is over the limit too: one count, not one per door
    api = client.get("/api/whoami", headers=auth("rf_guessguess_api"))
    assert api.status_code == 429
    signed = client.post("/login", data={"token": tokens["head"]}, follow_redirects=False)
    assert signed.status_code == 303

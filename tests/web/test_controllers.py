"""The API in Litestar's own terms (issue 34 item 3): guards settle who asks and whether the
role may before a body is read, handlers are given what they need by injection, and the
answers say what the OpenAPI document says they do."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Tokens, auth

Client = Any


def _game(client: Client, tokens: Tokens) -> str:
    made = client.post(
        "/api/games",
        json={"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}},
        headers=auth(tokens["head"]),
    )
    assert made.status_code == 201, made.text
    return str(made.json()["game_id"])


def test_options_lists_every_method_of_the_path(client: Client) -> None:
    """``Allow`` names every method the document gives the path, not only the first
    handler's (Litestar's own answer kept the first registration's methods)."""
    assert client.options("/api/games").headers["allow"] == "GET, OPTIONS, POST"
    assert client.options("/api/events/x/calls").headers["allow"] == "GET, OPTIONS, POST"


def test_a_write_is_refused_for_its_caller_before_its_body_is_read(
    client: Client, tokens: Tokens
) -> None:
    """REF-3.2 (who may do what): no token is 401, a role that may not is 403, whatever the
    body says; the body's own faults are answered only to a caller who may write."""
    game = _game(client, tokens)
    garbage = {"content": b"{not json", "headers": {"content-type": "application/json"}}
    assert client.post(f"/api/games/{game}/penalties", **garbage).status_code == 401
    refused = client.post(
        f"/api/games/{game}/penalties",
        content=b"{not json",
        headers=auth(tokens["ann"], **{"content-type": "application/json"}),
    )
    assert refused.status_code == 403, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    malformed = client.post(
        f"/api/games/{game}/penalties",
        content=b"{not json",
        headers=auth(tokens["head"], **{"content-type": "application/json"}),
    )
    assert malformed.status_code == 400


def test_a_body_field_named_like_an_injected_value_is_checked_as_the_body(
    client: Client, tokens: Tokens
) -> None:
    """An end's ``who`` past its bound is the body's fault (422), never a server error: the
    injected caller is named ``caller`` so that no body field shares a dependency's name."""
    game = _game(client, tokens)
    ended = client.post(
        f"/api/games/{game}/end",
        json={"how": "resignation", "who": "x" * 5000},
        headers=auth(tokens["head"]),
    )
    assert ended.status_code == 422, ended.text


def test_the_text_export_has_one_charset(client: Client, tokens: Tokens) -> None:
    game = _game(client, tokens)
    text = client.get(f"/api/games/{game}/export", headers=auth(tokens["head"]))
    assert text.headers["content-type"] == "text/plain; charset=utf-8"
    html = client.get(f"/api/games/{game}/export?format=html", headers=auth(tokens["head"]))
    assert html.headers["content-type"] == "text/html; charset=utf-8"


def test_every_write_route_documents_if_match_and_idempotency_key(client: Client) -> None:
    """Issue 34 item 1: ``If-Match`` and ``Idempotency-Key`` on every write route, the event
    routes too, and the document says so (both come with the injected ``writer``); a POST that
    stores nothing (a check, a posting verified) takes neither."""
    paths = client.get("/schema/openapi.json").json()["paths"]
    stores_nothing = {"/api/games/{game_id}/check", "/api/events/{event_id}/postings/verify"}
    imports = {"/api/imports"}  # a whole record, as a file: its own bookkeeping
    writes = sorted(
        set(p for p, item in paths.items() if "post" in item) - stores_nothing - imports
    )
    assert len(writes) >= 40
    for path in writes:
        headers = {
            p["name"] for p in paths[path]["post"].get("parameters", []) if p["in"] == "header"
        }
        assert headers == {"If-Match", "Idempotency-Key"}, path
    for path in stores_nothing:
        assert "parameters" not in paths[path]["post"] or all(
            p["in"] != "header" for p in paths[path]["post"]["parameters"]
        )


def test_a_page_form_is_refused_for_its_caller_before_it_is_read(
    client: Client, tokens: Tokens
) -> None:
    """REF-3.2 on the pages too: a player's penalty form is refused (403) by the route's guard
    whatever it carries, before it is read or its key kept; a page asked without a token
    answers with the sign-in page, which comes back to it."""
    game = _game(client, tokens)
    form = {"content-type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"}
    sent = client.post(
        f"/games/{game}/do/penalty",
        content=b"idem=k1&seat=%%%",
        headers=auth(tokens["ann"], **form),
    )
    assert sent.status_code == 403, sent.text
    nobody = client.get(f"/games/{game}/dossier", follow_redirects=False)
    assert nobody.status_code == 303
    assert nobody.headers["location"] == f"/login?next=/games/{game}/dossier"
    assert client.get(f"/games/{game}/dossier", headers=auth(tokens["ann"])).status_code == 403

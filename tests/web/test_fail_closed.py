"""The HTTP face's writes fail closed (issue 34 item 1): every write the server makes is its
request's caller's, authorized by the write pipeline's first stage, never the command line's
``LOCAL`` head. The ASGI layer marks each request's context a server's
(``service.pipeline.serving``) and the one authentication names its caller
(``Web.principal``: ``identified``); a write in a request that named nobody is refused
(403, nothing stored), and one whose handler forgot to hand over its caller is made by the
token's holder, whose role the pipeline asks (REF-3.2), not by the head."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar, Request, post
from litestar.params import FromPath
from litestar.routes import HTTPRoute
from litestar.testing import TestClient

from service.app import open_service
from tests.web.conftest import PLAYERS, Tokens, auth, make_event
from web.app import ServeConfig, create_app
from web.context import web_of

AnyRequest = Request[Any, Any, Any]

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
PUBLIC_WRITES = {"/login", "/logout"}  # signing in and out: the browser's cookie, no store write


@post("/test/forgot/{event_id:str}/drop", opt={"public": True}, status_code=201)
async def forgot_everything(request: AnyRequest, event_id: FromPath[str]) -> dict[str, int]:
    """A handler that neither authenticates nor hands its write a caller."""
    web = web_of(request)
    dropped = await web.run_write(web.svc.event_drop, event_id, PLAYERS[-2], reason="ill")
    return {"dropped": dropped.after_round}


@post("/test/forgot/{event_id:str}/pair-inline", opt={"public": True}, status_code=201)
async def forgot_inline(request: AnyRequest, event_id: FromPath[str]) -> dict[str, int]:
    """The same, off the writer (a service call run inline or on the pool)."""
    web = web_of(request)
    await web.run(web.svc.event_pair, event_id)
    return {"paired": 1}


@post("/test/forgot-game/{game_id:str}", opt={"public": True}, status_code=201)
async def forgot_game(request: AnyRequest, game_id: FromPath[str]) -> dict[str, int]:
    """A game's write from a handler that names no caller."""
    web = web_of(request)
    result = await web.run_write(web.svc.time_limit, game_id, 30, reason="the hall's")
    return {"version": result.version}


@post("/test/authenticated/{event_id:str}/drop", opt={"public": True}, status_code=201)
async def forgot_as_caller(request: AnyRequest, event_id: FromPath[str]) -> dict[str, int]:
    """A handler that authenticates but hands its write no caller (no ``as_caller``)."""
    web = web_of(request)
    web.principal(request)
    dropped = await web.run_write(web.svc.event_drop, event_id, PLAYERS[-1], reason="ill")
    return {"dropped": dropped.after_round}


@pytest.fixture
def app(store: str, tokens: Tokens) -> Litestar:
    made = create_app(ServeConfig(store=store, poll_interval=0.05))
    for handler in (forgot_everything, forgot_inline, forgot_game, forgot_as_caller):
        made.register(handler)
    return made


def _version(store: str, event_id: FromPath[str]) -> int:
    with open_service(Path(store)) as svc:
        return svc.event_version(event_id)


def test_a_write_in_a_request_that_named_no_caller_is_refused(
    app: Litestar, store: str, tokens: Tokens
) -> None:
    with TestClient(app) as client:
        event_id = make_event(client, tokens["head"])
        before = _version(store, event_id)
        for path in (f"/test/forgot/{event_id}/drop", f"/test/forgot/{event_id}/pair-inline"):
            answer = client.post(path, headers={"Accept": "application/json"})
            assert answer.status_code == 403, answer.text
            assert "no caller" in answer.json()["detail"]
        assert _version(store, event_id) == before  # nothing stored, not a head's write
        made = client.post(
            "/api/games",
            json={"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}},
            headers=auth(tokens["head"]),
        )
        assert made.status_code == 201, made.text
        game_id = made.json()["game_id"]
        answer = client.post(f"/test/forgot-game/{game_id}")
        assert answer.status_code == 403, answer.text
        with open_service(Path(store)) as svc:
            assert svc.load(game_id).version == made.json()["version"]


def test_a_write_whose_handler_forgot_its_caller_is_the_token_holder_s(
    app: Litestar, store: str, tokens: Tokens
) -> None:
    """A player's token drops no player (REF-3.2) even through a handler that did not hand
    the write its caller: the request's authenticated caller is the write's."""
    with TestClient(app) as client:
        event_id = make_event(client, tokens["head"])
        before = _version(store, event_id)
        answer = client.post(f"/test/authenticated/{event_id}/drop", headers=auth(tokens["ann"]))
        assert answer.status_code == 403, answer.text
        assert "may not enter" in answer.json()["detail"]
        assert _version(store, event_id) == before
        answer = client.post(f"/test/authenticated/{event_id}/drop", headers=auth(tokens["head"]))
        assert answer.status_code == 201, answer.text
        assert _version(store, event_id) > before


def _write_routes(app: Litestar) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for route in app.routes:
        if isinstance(route, HTTPRoute) and not route.path.startswith("/test/"):
            for method in sorted(route.methods & WRITES):
                if route.path not in PUBLIC_WRITES:
                    found.append((str(method), route.path))
    return found


def test_every_write_route_asks_for_a_token_before_anything_else(
    client: TestClient[Litestar],
) -> None:
    """Without a token every write route answers 401 (a page's form: the sign-in page's
    redirect), whatever its body: none of them writes as anybody."""
    app = client.app
    routes = _write_routes(app)
    assert len(routes) > 40
    for method, template in routes:
        path = re.sub(r"\{answer:str\}", "confirm", template)
        path = re.sub(r"\{\w+:int\}", "1", path)
        path = re.sub(r"\{\w+:\w+\}", "x", path)
        answer = client.request(method, path, json={}, follow_redirects=False)
        if answer.status_code == 303:
            assert answer.headers["location"].startswith("/login?next="), (method, template)
        else:
            assert answer.status_code == 401, (method, template, answer.text)


def test_every_write_in_the_openapi_document_declares_401_and_403(
    client: TestClient[Litestar],
) -> None:
    document = client.get("/schema/openapi.json").json()
    writes = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method.upper() not in WRITES or path in PUBLIC_WRITES:
                continue
            writes += 1
            assert {"401", "403"} <= set(operation["responses"]), (method, path)
    assert writes > 30

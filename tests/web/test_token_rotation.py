"""``referee token rotate`` (issue 22, section 6): a new secret for the same holder,
role and id; the old secret is refused at once, over HTTP and on the command line."""

from __future__ import annotations

import json

from litestar import Litestar
from litestar.testing import TestClient
from typer.testing import CliRunner

from cli.main import app
from tests.web.conftest import Tokens, auth
from web.app import ServeConfig, create_app

Client = TestClient[Litestar]


def rotate(store: str, token_id: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["token", "rotate", token_id, "--store", store, "--json"])
    return result.exit_code, result.stdout, result.stderr


def test_rotate_refuses_the_old_secret_and_keeps_the_holder(store: str, tokens: Tokens) -> None:
    old = tokens["table1"]
    token_id = old.split("_")[1]
    code, out, err = rotate(store, token_id)
    assert code == 0, err
    answer = json.loads(out)
    new = answer["token"]
    assert answer["token_id"] == token_id
    assert new.startswith(f"rf_{token_id}_")
    assert new != old

    # A server started now; one already running refuses the old secret on its next
    # request too (tests/web/test_identities.py, as for revoke).
    client: Client
    with TestClient(create_app(ServeConfig(store=store))) as client:
        _check_old_refused_new_accepted(client, store, token_id, old, new)


def _check_old_refused_new_accepted(
    client: Client, store: str, token_id: str, old: str, new: str
) -> None:
    refused = client.get("/api/games", headers=auth(old))
    assert refused.status_code == 401, refused.text
    assert refused.headers["content-type"].startswith("application/problem+json")

    body = {"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}, "meta": {"table": "1"}}
    made = client.post("/api/games", json=body, headers=auth(new))
    assert made.status_code == 201, made.text  # still a table referee of table 1
    listed = CliRunner().invoke(app, ["token", "list", "--store", store, "--json"])
    row = next(r for r in json.loads(listed.stdout) if r["token_id"] == token_id)
    assert (row["role"], row["name"], row["tables"], row["revoked"]) == (
        "table",
        "Tom",
        ["1"],
        False,
    )


def test_rotate_refuses_an_unknown_or_revoked_token_with_one_line(
    store: str, tokens: Tokens
) -> None:
    code, out, err = rotate(store, "nosuchid")
    assert code != 0
    assert out == ""
    assert "no live token 'nosuchid'" in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1

    token_id = tokens["ann"].split("_")[1]
    revoked = CliRunner().invoke(app, ["token", "revoke", token_id, "--store", store])
    assert revoked.exit_code == 0, revoked.stderr
    code, out, err = rotate(store, token_id)
    assert code != 0
    assert "no live token" in err

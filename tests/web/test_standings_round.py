"""The standings after round N through every door (EV-4.1): ``GET .../standings?round=N``
(the API and the page) and ``referee event standings --round N`` accept the same rounds and
refuse the same ones,
each refusal one line naming EV-4.1 (the service's one check, not the command line's
option parser)."""

from __future__ import annotations

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from typer.testing import CliRunner

from cli.main import app
from tests.web.conftest import Tokens, auth, event_of_five

Client = TestClient[Litestar]


@pytest.mark.parametrize(
    ("round_number", "refusal"),
    [
        (-1, "EV-4.1: there is no round -1: rounds are numbered from 1"),
        (0, "EV-4.1: there is no round 0: rounds are numbered from 1"),
        (2, "EV-4.1: round 2 has not been paired"),
        (1, None),
    ],
)
def test_ev_4_1_the_api_and_the_command_line_refuse_the_same_rounds(
    client: Client, tokens: Tokens, store: str, round_number: int, refusal: str | None
) -> None:
    event = event_of_five(store, "Spring Open")
    reader = auth(tokens["public"])
    http = client.get(f"/api/events/{event}/standings?round={round_number}", headers=reader)
    runner = CliRunner()
    cli = runner.invoke(
        app, ["--db", store, "event", "standings", event, "--round", str(round_number)]
    )
    explained = runner.invoke(
        app,
        [
            "--db",
            store,
            "event",
            "standings",
            event,
            "--round",
            str(round_number),
            "--explain",
            "Ann",
        ],
    )
    if refusal is None:
        assert http.status_code == 200, http.text
        assert len(http.json()) == 5, http.json()
        page = client.get(f"/events/{event}/standings?round={round_number}", headers=reader)
        assert page.status_code == 200, page.text
        assert cli.exit_code == 0, cli.output
        assert explained.exit_code == 0, explained.output
        return
    assert http.status_code == 400, http.text
    assert http.json()["detail"] == refusal, http.json()
    page = client.get(f"/events/{event}/standings?round={round_number}", headers=reader)
    assert page.status_code == 400, page.text
    assert refusal in page.text, page.text
    for answer in (cli, explained):
        assert answer.exit_code != 0
        lines = answer.output.strip().splitlines()
        assert lines == [f"error: {refusal}"], answer.output

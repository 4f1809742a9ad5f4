"""The OpenAPI document tells the truth (issue 34 item 3): a property-based run generated
from the document itself (schemathesis) against a real ``referee serve``, with a fixed
seed, finds no answer the document does not describe: no undocumented status or content
type, no server error, no route that takes what its schema refuses, no public route
documented as needing a token, no protected one answering without it, and ``Allow``
listing exactly the documented methods.

Every check runs but ``positive_data_acceptance``: input the schema allows is often refused
on its meaning (a game type that does not exist, a seat the game lacks), which is the
referee's job, not the document's. ``negative_data_rejection`` counts 413 as a refusal: a
body past the server's limit is refused before it is read.

The live streams (server-sent events) are left out: a stream does not end, so a generated
request to one would wait for ever; their documented type is checked below instead.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.web.conftest import Server, Tokens

pytestmark = pytest.mark.slow  # ~1,500 generated requests: ~20 s (~45 s on a loaded machine)

STREAMS = r"^/api/(games/\{game_id\}/events|queue/events|live|events/\{event_id\}/live)$"

CONFIG = """
[checks]
positive_data_acceptance.enabled = false

[checks.negative_data_rejection]
expected-statuses = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428, 429]
"""


def _schemathesis() -> list[str]:
    found = shutil.which("st", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("schemathesis is not installed (the 'test' extras)")
    return [found]


def test_a_run_generated_from_the_document_finds_nothing_it_does_not_describe(
    store: str, tokens: Tokens, serve: Callable[..., Server], tmp_path: Path
) -> None:
    command = _schemathesis()
    server = serve(store)
    config = tmp_path / "schemathesis.toml"
    config.write_text(CONFIG)
    run = subprocess.run(
        [
            *command,
            "--config-file",
            str(config),
            "--no-color",
            "run",
            f"{server.base}/schema/openapi.json",
            "--seed",
            "1",
            "--max-examples",
            "3",
            "--workers",
            "1",
            "--header",
            f"Authorization: Bearer {tokens['head']}",
            "--exclude-path-regex",
            STREAMS,
            "--request-timeout",
            "20",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_the_document_says_what_the_streams_health_and_export_answer(
    store: str, tokens: Tokens, serve: Callable[..., Server]
) -> None:
    """What the run cannot ask (the streams) or asks only one way: the streams are
    ``text/event-stream``, the health check needs no token, the export answers in its three
    formats, and every error is a problem document."""
    server = serve(store)
    doc = httpx.get(f"{server.base}/schema/openapi.json", timeout=30).json()
    paths = doc["paths"]
    for stream in ("/api/live", "/api/queue/events", "/api/games/{game_id}/events"):
        assert list(paths[stream]["get"]["responses"]["200"]["content"]) == ["text/event-stream"]
    assert paths["/api/health"]["get"]["security"] == [{}]
    export = paths["/api/games/{game_id}/export"]["get"]["responses"]
    assert set(export["200"]["content"]) == {"text/plain", "application/x-ndjson", "text/html"}
    for item in paths.values():
        for operation in item.values():
            for status, answer in operation["responses"].items():
                if status[0] in "45":
                    assert list(answer["content"]) == ["application/problem+json"]
    created = paths["/api/games"]["post"]["responses"]["201"]["links"]
    assert any(
        link["parameters"] == {"game_id": "$response.body#/game_id"} for link in created.values()
    )

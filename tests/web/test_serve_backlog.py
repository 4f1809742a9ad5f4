"""``referee serve --backlog``: the listen queue a hall's round start needs (issue 32 goal
5). With uvicorn's default of 2048, 4,000 phones connecting together overflowed it and the
phones refused waited out their SYN retransmits (1, 3, 7 s): BENCHMARKS.md, "Round start,
the stall"."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable

import pytest

from cli.serve import BACKLOG, somaxconn
from tests.web.conftest import Server, referee_run


def _listen_queue(port: int) -> int:
    """The listen queue's size the system gives the socket on ``port`` (``ss``'s Send-Q)."""
    found = subprocess.run(
        ["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(found[2])


@pytest.mark.skipif(shutil.which("ss") is None or somaxconn() is None, reason="Linux ss")
def test_serve_listens_with_the_backlog_asked_for_within_the_system_cap(
    serve: Callable[..., Server], store: str
) -> None:
    cap = somaxconn()
    assert cap is not None
    asked = min(3000, cap)
    server = serve(store, "--backlog", str(asked))
    assert _listen_queue(server.port) == asked
    server.stop()
    server = serve(store)  # the default: a hall of 4,000 phones, not uvicorn's 2048
    assert BACKLOG == 4096
    assert _listen_queue(server.port) == min(BACKLOG, cap)
    if cap < BACKLOG:
        assert "net.core.somaxconn" in server.log.read_text()


def test_serve_refuses_a_backlog_below_one_and_documents_it(store: str) -> None:
    done = referee_run("serve", "--store", store, "--backlog", "0")
    assert done.returncode == 2
    assert "--backlog" in done.stderr
    assert "Traceback" not in done.stderr
    shown = referee_run(
        "serve", "--help", env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "TERM": "dumb"}
    ).stdout
    assert "--backlog" in shown
    assert "4096" in shown

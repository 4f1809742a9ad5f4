"""Issue 22, section 6: slow clients. A client that sends its headers a byte at a time
(slowloris), or its body, or nothing at all, is cut off by ``referee serve`` after its
deadline while others are served; a large import runs off the event loop."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx

from service.app import open_service
from tests.web.conftest import Server, ThreadServer, Tokens, auth

DEADLINE = "1"  # seconds, for these tests; the default is 10 (headers) and 60 (body)
# how long the slow client would keep going if nobody cut it off: the server's 1 s deadline
# must end it in under half of that, a bound a loaded machine stays far inside
PATIENCE = 30.0


def _dribble(port: int, head: bytes, drip: bytes) -> tuple[float, bytes]:
    """Send ``head`` at once, then ``drip`` a byte every 0.1 s; return how long until the
    server closed the connection (``PATIENCE`` if it never did) and what it answered."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(0.1)
    started = time.monotonic()
    answer = b""
    try:
        if head:
            sock.sendall(head)
        for byte in (drip * 1000)[: int(PATIENCE / 0.1)]:
            try:
                chunk = sock.recv(4096)
            except TimeoutError:
                chunk = None
            except ConnectionResetError:  # closed by the server with our bytes unread
                return time.monotonic() - started, answer
            if chunk is not None:
                answer += chunk
                if not chunk:  # closed by the server
                    return time.monotonic() - started, answer
                continue
            try:
                sock.send(bytes([byte]))
            except OSError:  # reset by the server
                return time.monotonic() - started, answer
        return PATIENCE, answer
    finally:
        sock.close()


def _served_meanwhile(base: str, token: str, slow: Callable[[], Any]) -> tuple[Any, int]:
    """Run ``slow`` on a thread and, while it runs, make a normal request."""
    result: list[Any] = []
    worker = threading.Thread(target=lambda: result.append(slow()))
    worker.start()
    time.sleep(0.3)
    status = httpx.get(f"{base}/api/games", headers=auth(token), timeout=5).status_code
    worker.join(PATIENCE + 5)
    return result[0], status


def test_a_slowloris_sending_headers_byte_by_byte_is_cut_off_and_others_are_served(
    serve: Callable[..., Server], store: str, tokens: Tokens
) -> None:
    server = serve(store, "--header-timeout", DEADLINE, "--body-timeout", DEADLINE)
    head = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    (took, answer), status = _served_meanwhile(
        server.base, tokens["head"], lambda: _dribble(server.port, head, b"X-Slow: aaaa")
    )
    assert status == 200  # another client is answered while the slow one hangs on
    assert took < PATIENCE / 2, f"the slow client was held {took:.1f} s"
    assert answer.startswith(b"HTTP/1.1 408"), answer


def test_a_connection_that_sends_nothing_is_closed(
    serve: Callable[..., Server], store: str
) -> None:
    server = serve(store, "--header-timeout", DEADLINE, "--body-timeout", DEADLINE)
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.settimeout(PATIENCE)
    started = time.monotonic()
    try:
        answer = sock.recv(4096)
        while answer and not answer.endswith(b"\n"):
            answer += sock.recv(4096)
        closed = sock.recv(4096) if answer else b""
    finally:
        sock.close()
    assert time.monotonic() - started < PATIENCE / 2
    assert answer.startswith(b"HTTP/1.1 408")
    assert closed == b""


def test_a_body_sent_byte_by_byte_is_cut_off_and_nothing_is_stored(
    serve: Callable[..., Server], store: str, tokens: Tokens
) -> None:
    server = serve(store, "--header-timeout", DEADLINE, "--body-timeout", DEADLINE)
    body = b'{"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}}'
    head = (
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Authorization: Bearer " + tokens["head"].encode() + b"\r\n"
        b"Content-Length: " + str(len(body) + 500).encode() + b"\r\n\r\n"
    )
    took, answer = _dribble(server.port, head, body + b" " * 500)
    assert took < PATIENCE / 2, f"the slow body was waited for {took:.1f} s"
    assert not answer.startswith(b"HTTP/1.1 201"), answer
    svc = open_service(store)
    try:
        assert svc.verify().games == 0  # no game was started
    finally:
        svc.close()


def test_serve_refuses_a_deadline_that_is_not_positive(
    serve: Callable[..., Server], store: str
) -> None:
    from tests.web.conftest import referee_run

    done = referee_run("serve", "--store", store, "--header-timeout", "0")
    assert done.returncode == 2
    assert "--header-timeout" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_import_is_parsed_and_stored_off_the_event_loop(
    live_server: ThreadServer, tokens: Tokens
) -> None:
    """Service calls run on the event loop on SQLite (``threads=0``): an import, whose
    work grows with its body (up to 64 MiB), runs on a thread of its own, so other
    tables' requests are answered meanwhile."""
    web = live_server.app.state["web"]
    assert web.config.threads == 0
    ran_on: list[int] = []
    real = web.svc.import_files

    def spy(*args: Any, **kwargs: Any) -> Any:
        ran_on.append(threading.get_ident())
        return real(*args, **kwargs)

    web.svc.import_files = spy
    game = httpx.post(
        f"{live_server.base}/api/games",
        json={"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}},
        headers=auth(tokens["head"]),
    ).json()["game_id"]
    record = httpx.get(
        f"{live_server.base}/api/games/{game}/export?format=jsonl", headers=auth(tokens["head"])
    )
    assert record.status_code == 200, record.text
    done = httpx.post(
        f"{live_server.base}/api/imports", content=record.content, headers=auth(tokens["head"])
    )
    assert done.status_code == 200, done.text
    assert ran_on
    assert ran_on[0] != live_server.thread.ident

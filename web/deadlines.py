"""Read deadlines for slow clients: the HTTP protocol ``referee serve`` runs.

uvicorn closes a connection idle between requests (``timeout_keep_alive``) but sets
no limit on how long a request's headers or body may take to arrive: a client that
sends its headers a byte at a time (slowloris) holds its connection, and its
request's place, for as long as it likes. ``DeadlineProtocol`` is uvicorn's
httptools protocol with two deadlines (issue 22, section 6):

- the headers of a request must be complete within ``header_timeout`` seconds of
  the connection opening or of the previous response (else ``408``, and closed);
- its body within ``body_timeout`` seconds of its headers (else closed: the
  handler reading it sees the client gone and stores nothing).

The deadlines come from ``REFEREE_HEADER_TIMEOUT`` and ``REFEREE_BODY_TIMEOUT``
(seconds), which ``referee serve --header-timeout/--body-timeout`` set for every
worker. A reverse proxy in front (docs/server.md, "TLS and slow clients") still helps:
it holds slow clients off the server altogether.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["BODY_TIMEOUT", "HEADER_TIMEOUT", "DeadlineProtocol"]

HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 60.0
_408 = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 36\r\nconnection: close\r\n\r\nthe request did not arrive in time.\n"
)


def _seconds(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


class DeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a header deadline and a body deadline."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = _seconds("REFEREE_HEADER_TIMEOUT", HEADER_TIMEOUT)
        self.body_timeout = _seconds("REFEREE_BODY_TIMEOUT", BODY_TIMEOUT)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        """The request did not arrive in time: answer 408 unless a response has begun,
        and close (a handler waiting for the body then sees the client gone)."""
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
            self.transport.write(_408)
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_headers_complete(self) -> None:
        self._arm(self.body_timeout)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()  # the whole request is in; the handler's own time is not limited
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline:
            self._arm(self.header_timeout)  # the next request's headers, on this connection

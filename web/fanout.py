"""Live streams of an event's pages, fanned out: one message per change, the same bytes for
every subscriber (issue 23 section 2).

A stream that waited on the hub by itself woke on every write to any game of the store and
built and encoded its own message: with 2,000 phones following a standings page that is
2,000 wakings per write and 2,000 encodings per change. Here one ``Feed`` per followed event
waits on the hub, and when the event moves it reads what the message says once, encodes it
once (``moved``, id: the event's newest fact, data: ``{"version": N, "round": R}``) and
wakes every subscriber, which writes those same bytes. A keep-alive comment is one shared
message too. A subscriber that falls behind skips to the newest message: each says where the
event is now, so the newest is all a page needs (it reads itself again, from the shared cache
of ``web.eventcache``). The feed stops when its last subscriber leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec

from web.hub import Hub

__all__ = ["Feed", "Feeds", "feeds_of", "moved_message"]

KEEP_ALIVE = b": keep-alive\n\n"
KEEP_ALIVE_SECONDS = 15.0
"""How long an event's stream waits for a change before it sends a keep-alive (and looks
again at the newest version the hub has noted, say by a page read meanwhile)."""

Moved = Callable[[str, int, int], None]


def moved_message(version: int, round_number: int) -> bytes:
    """The one encoded message of a change (server-sent events wire format)."""
    data = msgspec.json.encode({"version": version, "round": round_number}).decode()
    return f"event: moved\nid: {version}\ndata: {data}\n\n".encode()


class Feed:
    """One event's stream: the newest message, a count of keep-alives, and waiting for them."""

    def __init__(
        self,
        hub: Hub,
        event_id: str,
        describe: Callable[[int], Awaitable[int]],
        *,
        keep_alive: float | None = None,
    ) -> None:
        self.hub = hub
        self.event_id = event_id
        self.describe = describe
        self.keep_alive = KEEP_ALIVE_SECONDS if keep_alive is None else keep_alive
        self.version = 0
        self.message = b""
        self.pulses = 0
        self.seq = 0
        self.subscribers = 0
        self.encoded = 0
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        self.moved: Moved | None = None

    def start(self, version: int) -> None:
        """Start following from ``version`` (the event as its first subscriber found it)."""
        if self._task is None:
            self._task = asyncio.create_task(self._follow(version))

    async def _publish(self, version: int) -> None:
        round_number = await self.describe(version)
        previous, self.version = self.version, version
        self.message = moved_message(version, round_number)
        self.encoded += 1
        self._wake()
        if previous and self.moved is not None:
            self.moved(self.event_id, previous, version)

    def _wake(self) -> None:
        self.seq += 1
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def _follow(self, version: int) -> None:
        with contextlib.suppress(Exception):
            await self._publish(version)
        while not self._stopped and not self.hub.closing:
            moved = await self.hub.wait_game(self.event_id, self.version, self.keep_alive)
            if self._stopped or self.hub.closing:
                break
            if moved:
                try:
                    await self._publish(self.hub.versions.get(self.event_id, self.version))
                except Exception:
                    await asyncio.sleep(self.hub.interval)
            else:
                self.pulses += 1
                self._wake()
        self._wake()  # the subscribers see the end

    def stop(self) -> None:
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
        self._wake()

    async def subscribe(self, after: int) -> AsyncIterator[bytes]:
        """The messages for one subscriber that has seen the event up to ``after``: the
        newest at once if the event is past it, then each change (or keep-alive). A
        subscriber that was busy when messages came gets the newest one only."""
        seen, pulses = self.seq, self.pulses
        while True:
            if self.version > after and self.message:
                after = self.version
                yield self.message
            elif self.pulses != pulses:
                pulses = self.pulses
                yield KEEP_ALIVE
            if self._stopped or self.hub.closing:
                return
            if self.seq == seen:
                await self._changed.wait()
            seen = self.seq


class Feeds:
    """The feeds of one server, one per followed event, stopped when nobody follows."""

    def __init__(self, hub: Hub, describe: Callable[[str, int], Awaitable[int]]) -> None:
        self.hub = hub
        self.describe = describe
        self.moved: Moved | None = None
        """Called with (event id, the version announced before, the new one) after each
        change is announced (``web.eventpages`` makes the pages about to be read again)."""
        self._feeds: dict[str, Feed] = {}

    async def stream(self, event_id: str, version: int, after: int) -> AsyncIterator[bytes]:
        """Follow ``event_id`` (found at ``version``) for a subscriber that saw ``after``."""
        feed = self._feeds.get(event_id)
        if feed is None:

            async def describe(v: int) -> int:
                return await self.describe(event_id, v)

            feed = self._feeds[event_id] = Feed(self.hub, event_id, describe)
            feed.moved = self.moved
        feed.subscribers += 1
        try:
            feed.start(version)
            async for message in feed.subscribe(after):
                yield message
        finally:
            feed.subscribers -= 1
            if feed.subscribers == 0 and self._feeds.get(event_id) is feed:
                del self._feeds[event_id]
                feed.stop()

    def feed(self, event_id: str) -> Feed | None:
        return self._feeds.get(event_id)


_feeds: weakref.WeakKeyDictionary[Any, Feeds] = weakref.WeakKeyDictionary()


def feeds_of(web: Any) -> Feeds:
    """The feeds of one server (``web``: its ``Web``), made on first use."""
    found = _feeds.get(web)
    if found is None:

        async def describe(event_id: str, version: int) -> int:
            info = await web.run(web.svc.event_info, event_id)
            return int(info.current_round)

        found = _feeds[web] = Feeds(web.hub, describe)
    return found

"""Waking live streams when the store changes, whichever process wrote.

One task per server process follows the store's notification log (a query
after each local write, and every ``interval`` seconds for writes by other
processes or the command line) and notes the newest event number of every game
and the newest notification id. Where the store announces its appends (PostgreSQL's
LISTEN/NOTIFY: ``NoticeLog.watch``), a write by another process (another
``--workers`` process) is read as soon as it is heard, not at the next interval,
and until it is read the hub vouches for no version (``known_version``): a phone
told of a change by one process's stream and reading its page again from another
gets the new page, not the one before. A stream waits until the game it follows has
moved past what it last sent, then reads the new events from the store itself,
so a stream never depends on a message reaching it: after a reconnect it reads
from its ``Last-Event-ID`` the same way.

When the server is asked to stop, the hub ends every stream at once: a browser
keeps a stream open for ever, and the server would otherwise wait for it until
its graceful-shutdown limit and then cancel it mid-write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from service.api import Notice, NoticeLog

__all__ = ["Hub"]

log = logging.getLogger("referee.web.hub")

Runner = Callable[..., Awaitable[Any]]


class Hub:
    """The newest event per game and the newest notification id, and waiting for them."""

    def __init__(
        self, notices: NoticeLog, run: Runner, *, interval: float = 0.25, min_gap: float = 0.02
    ) -> None:
        self.notices = notices
        self.run = run
        self.interval = interval
        self.min_gap = min_gap
        self.versions: dict[str, int] = {}
        self.last_id = 0
        self._changed = asyncio.Event()
        self._poke = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.closing = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unread_write = True  # a write of this process the log has not been read past
        self._read_at = float("-inf")
        self.writes = 0  # writes of this process so far (pokes)
        self._read: dict[str, tuple[float, int]] = {}  # stream -> read_mark of its own read
        self.heard = 0  # appends announced by the store so far (any process's; a thread adds)
        self._read_heard = 0  # ``heard`` when the last complete read of the log began
        self._unwatch: Callable[[], None] | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.last_id = await self.run(self.notices.last)
        self._unwatch = await self.run(self.notices.watch, self._heard)
        self._task = asyncio.create_task(self._follow())

    @property
    def watching(self) -> bool:
        """Whether the store announces every process's appends to this hub."""
        return self._unwatch is not None

    def _heard(self) -> None:
        """The store announced an append (on the watching thread): not fresh until read."""
        self.heard += 1
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._poke.set)

    def _changes(self) -> int:
        """Writes of this process and appends announced: a reading taken before the
        count moved may be older than a change."""
        return self.writes + self.heard

    async def stop(self) -> None:
        self._stopping = True
        self._poke.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._unwatch is not None:
            unwatch, self._unwatch = self._unwatch, None
            await self.run(unwatch)

    def close_streams(self) -> None:
        """End every live stream: each returns from its wait and stops."""
        self.closing = True
        self._wake()

    def close_streams_soon(self) -> None:
        """``close_streams`` from any thread (or a signal handler): run on the hub's loop."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.close_streams)

    def close_streams_on_exit_signals(self) -> None:
        """Chain ``close_streams`` before the server's own SIGINT and SIGTERM handlers.

        Called once the server has installed them (at application start-up); only
        the main thread may, so a server run on another thread (tests) is left as is."""
        if threading.current_thread() is not threading.main_thread():
            return
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous = signal.getsignal(sig)
            if not callable(previous):
                continue

            def handler(number: int, frame: Any, previous: Callable[..., Any] = previous) -> None:
                self.close_streams_soon()
                previous(number, frame)

            signal.signal(sig, handler)

    def poke(self) -> None:
        """A write of this process: read the log now rather than at the next interval."""
        self._unread_write = True
        self.writes += 1
        self._poke.set()

    def known_version(self, game_id: str) -> int | None:
        """The stream's newest event as the hub knows it, when that is as fresh as the hub
        can be: no write of this process, and no append the store announced, is waiting
        to be read, and the log was read within two intervals (a write by another process
        the store does not announce shows within that). ``None`` otherwise, or when the
        hub has not seen the stream: then ask the store (and ``note`` it)."""
        if self._loop is None:
            return None
        now = self._loop.time()
        if (
            self._unread_write
            or self.heard != self._read_heard
            or now - self._read_at > 2 * self.interval
        ):
            # the stream's own read from the store vouches as a read of the log would
            read = self._read.get(game_id)
            if read is None or read[1] != self._changes() or now - read[0] > 2 * self.interval:
                return None
        return self.versions.get(game_id)

    def note(self, game_id: str, version: int, *, asked: tuple[float, int] | None = None) -> None:
        """A stream's newest event as read from the store (the hub keeps the larger).
        ``asked``: ``read_mark()`` taken before that read; then the version is vouched for
        as long as a read of the log is, unless this process writes meanwhile."""
        if version > self.versions.get(game_id, 0):
            self.versions[game_id] = version
        if asked is not None and asked[1] == self._changes():
            if len(self._read) > 100_000:
                self._read.clear()
            self._read[game_id] = asked

    def read_mark(self) -> tuple[float, int] | None:
        """When a read of the store starts, and how many writes of this process and appends
        announced came before it (for ``note``); ``None`` before the hub has started."""
        return None if self._loop is None else (self._loop.time(), self._changes())

    async def _follow(self) -> None:
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation
        # that arrives as its inner wait completes, and the task would never stop.
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.interval):
                    await self._poke.wait()
            self._poke.clear()
            unread = self._unread_write
            self._unread_write = False  # a poke from here on is read next time
            heard = self.heard  # an append heard from here on is read next time
            try:
                while True:
                    batch: list[Notice] = await self.run(self.notices.after, self.last_id, 2000)
                    self._note(batch)
                    if len(batch) < 2000:
                        break
                self._read_heard = heard
                if self._loop is not None:
                    self._read_at = self._loop.time()
            except Exception:
                self._unread_write = self._unread_write or unread
                log.exception("reading the notification log failed; trying again")
                await asyncio.sleep(self.interval)
            await asyncio.sleep(self.min_gap)

    def _note(self, batch: list[Notice]) -> None:
        if not batch:
            return
        for notice in batch:
            if notice.version > self.versions.get(notice.game_id, 0):
                self.versions[notice.game_id] = notice.version
            self.last_id = max(self.last_id, notice.id)
        self._wake()

    def _wake(self) -> None:
        """Wake every waiting stream (each waits on the event of its time; a new one follows)."""
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def wait_game(self, game_id: str, version: int, timeout: float) -> bool:
        """Wait until game ``game_id`` has an event after ``version`` (``False`` on timeout)."""
        return await self._wait(lambda: self.versions.get(game_id, 0) > version, timeout)

    async def wait_log(self, after: int, timeout: float) -> bool:
        """Wait until the notification log has an entry after ``after`` (``False`` on timeout)."""
        return await self._wait(lambda: self.last_id > after, timeout)

    async def _wait(self, ready: Callable[[], bool], timeout: float) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not ready() and not self.closing:
            left = deadline - loop.time()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                return ready()
        return True

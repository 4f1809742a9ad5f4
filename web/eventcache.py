"""The event pages and their JSON twins computed once per event version, shared by every
reader (issue 23 section 2: when a round's pairings go up, every phone in the hall asks for
the same pages within seconds).

An answer is cached in the server process under (event id, event version, viewer kind,
path and query, and for the posting pages the newest checkpoint): the first reader of a
version computes it, every reader arriving meanwhile awaits that same computation, and
every later reader gets the stored bytes. A new fact of the event is a new version, so a
new key; the older versions' entries are dropped when a newer one is first seen.

Viewer kinds (``public``, ``player``, ``referee``) never share an entry, so a page computed
for one kind is never handed to another, even where the pages show the same rows today.
The one part of an HTML page that names its viewer (the header: who is signed in, the
queue link) is not in the shared bytes: the page is stored split around it, and each
answer puts the viewer's header (rendered once per token) between the two halves.

Each entry also keeps its gzip form, compressed once. The two halves are deflated as
independent, byte-aligned pieces (a full flush ends the first, the last piece ends the
stream) so that a viewer's header, deflated once per viewer, can be put between them and
the result is one valid gzip stream (RFC 1951 blocks may be concatenated at a full flush;
the trailer's CRC-32 is carried over the parts). Litestar's ``CompressionConfig`` would
compress every answer again for every reader, which is the cost this module exists to
avoid, so it is not used for these answers.

An answer carries a strong ``ETag`` made of its key and the viewer's header (and the
coding: the gzip bytes are another representation); ``If-None-Match`` with it is answered
``304`` with no body and nothing computed.

An answer that shows the time as well as the event (the round clock's figures while it
runs) is kept until a moment of the service's clock (``Rendered.until``): a reader asking
at or after it (``get``/``peek`` given ``now``) gets a new answer, with a new tag.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import struct
import weakref
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Final, TypeVar

from litestar import Request, Response

from service.access import Principal

__all__ = [
    "SLOT",
    "EventCache",
    "Piece",
    "Pieces",
    "Rendered",
    "accepts_gzip",
    "answer",
    "cache_of",
    "rendered",
    "respond",
    "view_kind",
]

T = TypeVar("T")

SLOT: Final = f"<!--viewer-{secrets.token_hex(12)}-->"
"""Where the viewer's header goes in a shared page (unguessable, so no content can hold it)."""

GZIP_MIN: Final = 1024
"""Smaller answers are sent as they are: gzip would save little and cost a header."""

_GZIP_HEADER: Final = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


def view_kind(who: Principal) -> str:
    """The kind of viewer whose answers may be shared: the public, players, referees."""
    if who.role == "public":
        return "public"
    if who.role == "player":
        return "player"
    return "referee"


def _deflate(data: bytes, *, last: bool) -> bytes:
    """``data`` as raw deflate blocks of their own (no reference to anything before).

    The window is no larger than ``data`` needs (a reader's 32 KB window reads any smaller
    one) and the hash table shrinks with it: setting up zlib's full-size state costs ~150 us,
    more than deflating a player's page or a viewer's header (~10-60 us with state to fit)."""
    bits = max(9, min(15, len(data).bit_length()))
    compressor = zlib.compressobj(6, zlib.DEFLATED, -bits, max(1, bits - 7))
    return compressor.compress(data) + compressor.flush(
        zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH
    )


class Rendered:
    """One cached answer: its bytes around the viewer's slot, their gzip pieces, its tag."""

    __slots__ = (
        "crc_head",
        "gz_head",
        "gz_tail",
        "head",
        "media",
        "size",
        "tag",
        "tail",
        "until",
    )

    def __init__(self, body: str | bytes, media: str, tag: str) -> None:
        data = body.encode() if isinstance(body, str) else body
        head, found, tail = data.partition(SLOT.encode())
        if not found:
            head, tail = data, b""
        self.head = head
        self.tail = tail
        self.media = media
        self.tag = tag
        self.size = len(head) + len(tail)
        self.until: datetime | None = None
        """Kept until this moment of the service's clock (``None``: for its key's life)."""
        self.gz_head: bytes | None = None
        self.gz_tail = b""
        self.crc_head = 0
        if self.size >= GZIP_MIN:
            self.gz_head = _GZIP_HEADER + _deflate(head, last=False)
            self.gz_tail = _deflate(tail, last=True)
            self.crc_head = zlib.crc32(head)

    @classmethod
    def joined(cls, pieces: Pieces, media: str, tag: str) -> Rendered:
        """The answer made of ``pieces``: the same bytes as ``Rendered`` of the pieces'
        bytes joined, and a gzip form that inflates to them (nothing compressed here)."""
        self = cls.__new__(cls)
        self.head = b"".join(p.data for p in pieces.head)
        self.tail = b"".join(p.data for p in pieces.tail)
        self.media = media
        self.tag = tag
        self.size = len(self.head) + len(self.tail)
        self.until = None
        self.gz_head = None
        self.gz_tail = b""
        self.crc_head = 0
        if self.size >= GZIP_MIN:
            self.gz_head = _GZIP_HEADER + b"".join(p.deflated for p in pieces.head)
            self.gz_tail = b"".join(p.deflated for p in pieces.tail)
            self.crc_head = zlib.crc32(self.head)
        return self

    @property
    def weight(self) -> int:
        """The bytes it holds."""
        return self.size + len(self.gz_head or b"") + len(self.gz_tail)

    def body(self, slot: bytes) -> bytes:
        return self.head + slot + self.tail

    def gzipped(self, slot: bytes, slot_deflated: bytes) -> bytes:
        assert self.gz_head is not None
        crc = zlib.crc32(self.tail, zlib.crc32(slot, self.crc_head))
        size = (self.size + len(slot)) & 0xFFFFFFFF
        return b"".join((self.gz_head, slot_deflated, self.gz_tail, struct.pack("<II", crc, size)))


class Piece:
    """Bytes of a page shared by many answers, and their deflated form (computed once): a
    player's page is put together from the version's frame and the player's own part, each
    kept for as long as it stays the same (``Pieces``)."""

    __slots__ = ("data", "deflated", "last")

    def __init__(self, data: bytes, *, last: bool = False) -> None:
        self.data = data
        self.last = last
        self.deflated = _deflate(data, last=last) if data or last else b""


class Pieces:
    """A page as pieces: ``head`` before the viewer's slot, ``tail`` after it; the last
    piece of ``tail`` is deflated as the end of the stream (``Piece(..., last=True)``).
    Its bytes are the pieces' bytes joined, and its gzip form the pieces' deflated forms
    joined (each is a byte-aligned run of blocks of its own, as ``Rendered``'s halves)."""

    __slots__ = ("head", "tail")

    def __init__(self, head: list[Piece], tail: list[Piece]) -> None:
        assert tail
        assert tail[-1].last
        assert not any(p.last for p in [*head, *tail[:-1]])
        self.head = head
        self.tail = tail


def rendered(key: tuple[Any, ...], body: str | bytes | Pieces, media: str) -> Rendered:
    """A ``Rendered`` for ``key`` (its tag is the key's digest, with the version readable)."""
    digest = hashlib.blake2b(repr(key).encode(), digest_size=9).hexdigest()
    tag = f"v{key[1]}-{digest}"
    if isinstance(body, Pieces):
        return Rendered.joined(body, media, tag)
    return Rendered(body, media, tag)


class EventCache:
    """Values computed once per key, shared by every caller; keys start (event id, version).

    ``get`` runs ``compute`` for the first caller of a key, lets callers arriving while it
    runs await the same result, and keeps it; a failure is not kept (each later caller tries
    again). At most ``capacity`` values, and answers of at most ``budget`` bytes in all, are
    kept, the least recently used dropped first."""

    def __init__(self, capacity: int = 8192, budget: int = 128 * 1024 * 1024) -> None:
        self.capacity = capacity
        self.budget = budget
        self.held = 0
        self._values: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._pending: dict[tuple[Any, ...], asyncio.Future[Any]] = {}
        self._newest: dict[str, int] = {}
        self._slots: OrderedDict[Principal, tuple[bytes, str]] = OrderedDict()
        self._deflated: dict[bytes, bytes] = {}
        self._pieces: dict[Any, Piece] = {}
        self._memos: dict[str, dict[Any, Any]] = {}
        self._followed: dict[str, dict[tuple[str, str, str], int]] = {}
        self.computed = 0

    def seen(self, event_id: str, version: int) -> None:
        """Note the event's newest version; drop what was kept for older ones."""
        if version <= self._newest.get(event_id, 0):
            return
        self._newest[event_id] = version
        stale = [k for k in self._values if k[0] == event_id and k[1] < version]
        for key in stale:
            self._drop(key)

    def _drop(self, key: tuple[Any, ...]) -> None:
        value = self._values.pop(key)
        if isinstance(value, Rendered):
            self.held -= value.weight

    def _kept(self, key: tuple[Any, ...], now: datetime | None) -> tuple[Any, ...]:
        """``(value,)`` kept for ``key``, or ``()``: nothing, or an answer kept until
        ``now`` or before (then it is dropped)."""
        if key not in self._values:
            return ()
        value = self._values[key]
        if (
            now is not None
            and isinstance(value, Rendered)
            and value.until is not None
            and now >= value.until
        ):
            self._drop(key)
            return ()
        self._values.move_to_end(key)
        return (value,)

    def peek(self, key: tuple[Any, ...], *, now: datetime | None = None) -> Any | None:
        """The value kept for ``key``, or ``None`` (nothing is computed); an answer kept
        until ``now`` or before is not given."""
        self.seen(key[0], key[1])
        kept = self._kept(key, now)
        return kept[0] if kept else None

    async def get(
        self,
        key: tuple[Any, ...],
        compute: Callable[[], Awaitable[T]],
        *,
        now: datetime | None = None,
    ) -> T:
        """The value kept for ``key``, else ``compute``'s (see the class); ``now``: an
        answer kept until then or before is computed again."""
        self.seen(key[0], key[1])
        kept = self._kept(key, now)
        if kept:
            value: T = kept[0]
            return value
        waiting = self._pending.get(key)
        if waiting is not None:
            try:
                shared: T = await asyncio.shield(waiting)
            except asyncio.CancelledError:
                if not waiting.cancelled():
                    raise  # this caller was cancelled, not the computation
                return await self.get(key, compute, now=now)  # its first caller went away
            return shared
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            value = await compute()
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self._pending.pop(key, None)
        self.computed += 1
        future.set_result(value)
        if key[1] >= self._newest.get(key[0], 0) and key not in self._values:
            self._values[key] = value
            if isinstance(value, Rendered):
                self.held += value.weight
            while self._values and (len(self._values) > self.capacity or self.held > self.budget):
                self._drop(next(iter(self._values)))
        return value

    def slot(self, who: Principal, render: Callable[[Principal], str]) -> tuple[bytes, str]:
        """The viewer's header and its tag, rendered once per token."""
        found = self._slots.get(who)
        if found is None:
            data = render(who).encode()
            found = (data, hashlib.blake2b(data, digest_size=6).hexdigest())
            self._slots[who] = found
            if len(self._slots) > 20_000:
                self._slots.popitem(last=False)
        return found

    def piece(self, key: Any, make: Callable[[], str]) -> Piece:
        """The piece kept under ``key`` (a value naming everything its bytes show), made by
        ``make`` the first time. Pieces outlive versions: a player's part of their page,
        unchanged by a result elsewhere, is neither rendered nor compressed again."""
        found = self._pieces.get(key)
        if found is None:
            if len(self._pieces) >= 20_000:
                self._pieces.clear()
            found = self._pieces[key] = Piece(make().encode())
        return found

    def follow(self, event_id: str, tail: tuple[str, str, str]) -> None:
        """A player page was read (``tail``: viewer kind, path, player) at the event's newest
        version: ``web.eventpages.prepare_player_pages`` makes it for the next one."""
        found = self._followed.get(event_id)
        if found is None:
            found = self._followed[event_id] = {}
        elif len(found) >= 20_000 and tail not in found:
            found.clear()
        found[tail] = self._newest.get(event_id, 0)

    def followed(self, event_id: str) -> dict[tuple[str, str, str], int]:
        """The player pages read, and the version each was last read at."""
        return self._followed.get(event_id, {})

    def newest(self, event_id: str) -> int:
        """The event's newest version seen (0 before any)."""
        return self._newest.get(event_id, 0)

    def memo(self, event_id: str) -> dict[Any, Any]:
        """A dict kept for one event across its versions (``PlayerIndex``'s explanations)."""
        found = self._memos.get(event_id)
        if found is None:
            found = self._memos[event_id] = {}
        return found

    def deflated(self, slot: bytes) -> bytes:
        found = self._deflated.get(slot)
        if found is None:
            if len(self._deflated) > 20_000:
                self._deflated.clear()
            found = self._deflated[slot] = _deflate(slot, last=False) if slot else b""
        return found


_caches: weakref.WeakKeyDictionary[Any, EventCache] = weakref.WeakKeyDictionary()


def cache_of(owner: Any) -> EventCache:
    """The cache of one server (``owner``: its ``Web``), made on first use."""
    found = _caches.get(owner)
    if found is None:
        found = _caches[owner] = EventCache()
    return found


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header value takes gzip."""
    for part in header.lower().split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip() in ("gzip", "*"):
            q = params.strip()
            return not (q.startswith("q=") and float(q[2:] or 0) == 0.0)
    return False


def answer(
    entry: Rendered,
    *,
    accept_encoding: str,
    if_none_match: str | None,
    cache: EventCache | None = None,
    slot: tuple[bytes, str] = (b"", ""),
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of the answer for ``entry`` with the viewer's ``slot``: 304
    when the client holds it, else its bytes, gzipped when the client accepts gzip and the
    answer is not tiny. Shared by ``respond`` and the fast path (``web.fastpath``), so both
    answer the same."""
    data, slot_tag = slot
    gz = entry.gz_head is not None and accepts_gzip(accept_encoding)
    tag = f'"{entry.tag}{"-" + slot_tag if slot_tag else ""}{"-gz" if gz else ""}"'
    out = {
        "ETag": tag,
        "Cache-Control": "private, no-cache",
        "Vary": "Accept-Encoding, Authorization, Cookie",
        **(headers or {}),
    }
    held = if_none_match
    if held is not None and (held.strip() == "*" or tag in [t.strip() for t in held.split(",")]):
        return 304, out, b""
    if gz:
        assert cache is not None or not data
        deflated = cache.deflated(data) if cache is not None else b""
        out["Content-Encoding"] = "gzip"
        return 200, out, entry.gzipped(data, deflated)
    return 200, out, entry.body(data)


def respond(
    request: Request[Any, Any, Any],
    entry: Rendered,
    *,
    cache: EventCache | None = None,
    slot: tuple[bytes, str] = (b"", ""),
    headers: dict[str, str] | None = None,
) -> Response[bytes]:
    """``answer`` as a Litestar response."""
    status, out, body = answer(
        entry,
        accept_encoding=request.headers.get("accept-encoding", ""),
        if_none_match=request.headers.get("if-none-match"),
        cache=cache,
        slot=slot,
        headers=headers,
    )
    return Response(content=body, status_code=status, headers=out, media_type=entry.media)

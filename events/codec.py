"""Encoding events to bytes and back, hashing them, and the eventsourcing mapper.

The library's default mapper reads ``__dict__``, which msgspec Structs lack, so
``MsgspecMapper`` encodes each event whole (including its id and number, so a
row moved to another position no longer matches its own content) and decodes
with a typed decoder chosen by topic. Compression and encryption, when the
application is configured with them, are applied here as the library would.

Older topics (``LEGACY_TOPICS``) are decoded with their own class and then
upcast to today's class. An event's hash is always computed over the bytes it
was stored with (``stored_hash``), never over a re-encoding, so upcasting never
disturbs the hash chain; ``event_hash`` seals new events.
"""

from __future__ import annotations

import hashlib
from collections import ChainMap
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from operator import is_
from typing import Any

import msgspec
from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent

from events.schema import LEGACY_TOPICS, TOPIC_OF, TOPICS, GameCreated, GameEnded, GameEvent

__all__ = [
    "JsonTemplate",
    "MsgspecMapper",
    "Sealed",
    "decode",
    "decode_exact",
    "decode_rows",
    "encode",
    "event_hash",
    "is_canonical",
    "known_topic",
    "own_hash",
    "plain_text",
    "seal",
    "seal_after",
    "stored_hash",
    "upcast",
]

_encoder = msgspec.json.Encoder()
_CLASSES: Mapping[str, type[GameEvent]] = ChainMap(TOPICS, LEGACY_TOPICS)  # type: ignore[arg-type]


class _Decoders(dict[str, "msgspec.json.Decoder[Any]"]):
    """A typed decoder per topic, made when the topic is first decoded: making one reads
    its class's annotations, and the ledger's eighty topics (a game's and an event's) made
    at import were a twentieth of a one-game command (``referee act`` decodes four or five
    of them). A topic of no class is ``MapperDeserialisationError``."""

    def __missing__(self, topic: str) -> msgspec.json.Decoder[Any]:
        cls = _CLASSES.get(topic)
        if cls is None:
            raise MapperDeserialisationError(f"unknown event topic {topic!r}")
        decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(cls)
        self[topic] = decoder
        return decoder


_decoders = _Decoders()


def _same_fields(new: type[GameEvent]) -> Callable[[GameEvent], GameEvent]:
    """An upcaster for a new version that only adds fields with defaults."""

    def upcast(event: GameEvent) -> GameEvent:
        return new(**{f: getattr(event, f) for f in event.__struct_fields__})

    return upcast


UPCASTERS: dict[str, Callable[[GameEvent], GameEvent]] = {
    "referee.GameCreated.v1": _same_fields(GameCreated),  # v2 adds tournament labels (meta)
    "referee.GameEnded.v1": _same_fields(GameEnded),  # v2 adds rankings and tie-breaks
}
"""Old topic -> function from the event decoded with its own class to today's class."""


def known_topic(topic: str) -> bool:
    return topic in _CLASSES


def encode(event: GameEvent) -> bytes:
    return _encoder.encode(event)


def decode_exact(topic: str, data: bytes) -> GameEvent:
    """Decode stored bytes with the class of their own topic (no upcasting)."""
    event: GameEvent = _decoders[topic].decode(data)
    return event


def upcast(topic: str, event: GameEvent) -> GameEvent:
    """An event decoded with its own topic's class, as today's class."""
    upcaster = UPCASTERS.get(topic)
    return upcaster(event) if upcaster is not None else event


def decode(topic: str, data: bytes) -> GameEvent:
    """Decode stored bytes of ``topic`` into today's event class, upcasting old topics."""
    # inlined: every load decodes every event of the game
    event: GameEvent = _decoders[topic].decode(data)
    upcaster = UPCASTERS.get(topic)
    return upcaster(event) if upcaster is not None else event


def decode_rows(rows: Iterable[tuple[int, str, bytes]]) -> list[GameEvent]:
    """``decode`` of each stored row's topic and bytes, in order: inlined, since a load
    decodes every event of the game (one frame less per event)."""
    decoders, upcasters = _decoders, UPCASTERS
    events: list[GameEvent] = []
    append = events.append
    for _, topic, data in rows:
        event = decoders[topic].decode(data)
        upcaster = upcasters.get(topic)
        append(event if upcaster is None else upcaster(event))
    return events


def is_canonical(topic: str, data: bytes) -> bool:
    """Whether ``data`` is exactly how its own class encodes it (no extra fields,
    no other spacing or order): only canonical bytes are stored."""
    try:
        return _encoder.encode(decode_exact(topic, data)) == data
    except (
        msgspec.DecodeError,
        msgspec.ValidationError,
        MapperDeserialisationError,
        RecursionError,
    ):
        return False


def event_hash(event: GameEvent) -> str:
    """SHA-256 over today's topic and the event encoded with an empty ``hash`` field."""
    # a new event's hash is still empty (a pairing seals 15,000: no copy made to empty it)
    body = _encoder.encode(event if event.hash == "" else msgspec.structs.replace(event, hash=""))
    return hashlib.sha256(TOPIC_OF[type(event)].encode() + b"\n" + body).hexdigest()


_TOPIC_PREFIX = {topic: topic.encode() + b"\n" for topic in _CLASSES}


class _HashOnly(msgspec.Struct):
    hash: str = ""


_hash_only = msgspec.json.Decoder(_HashOnly)
OWN_HASH = _hash_only
"""Decodes only the ``hash`` field of stored JSON (``own_hash``: for a loop that inlines it)."""
TOPIC_PREFIX: Mapping[str, bytes] = _TOPIC_PREFIX
"""Each known topic and a newline, what ``stored_hash`` hashes first (for a loop inlining it)."""


def own_hash(state: bytes) -> str:
    """An event's own ``hash`` field read from its stored JSON without decoding the rest
    (every topic, older ones included, has it); "" when the bytes are not JSON."""
    try:
        return _hash_only.decode(state).hash
    except msgspec.DecodeError:
        return ""


def stored_hash(topic: str, state: bytes, own_hash: str) -> str:
    """An event's hash computed from the bytes it was stored with.

    The common fields are encoded first, so the first ``"hash":"..."`` in the
    bytes is the event's own hash field; blanking it gives the hashed body."""
    digest = hashlib.sha256(_TOPIC_PREFIX.get(topic) or topic.encode() + b"\n")
    digest.update(state.replace(b'"hash":"' + own_hash.encode() + b'"', b'"hash":""', 1))
    return digest.hexdigest()


def bytes_hash(topic: str, state: bytes) -> str:
    """An event's hash recomputed from its stored bytes alone (its own field is only
    located, never trusted): what a checkpoint chains, so it proves the bytes."""
    return stored_hash(topic, state, own_hash(state))


def seal(event: GameEvent) -> GameEvent:
    """Return ``event`` with its own hash filled in."""
    return msgspec.structs.replace(event, hash=event_hash(event))


class Sealed(list[GameEvent]):
    """``seal_after``'s events, with the JSON each was sealed as (``states``: the bytes the
    store's mapper would encode it to, made from the body its hash was taken over, so a
    bulk insert does not encode each event a second time: a pairing's 10,000)."""

    __slots__ = ("_kept", "states")

    def __init__(self, events: list[GameEvent], states: list[bytes]) -> None:
        list.__init__(self, events)  # not through ``super()``: a round's 5,000 streams
        self._kept = tuple(events)
        self.states = states

    @classmethod
    def one(cls, event: GameEvent, state: bytes) -> Sealed:
        """``Sealed([event], [state])``, made without a call of ``__init__`` (a round's
        5,000 new games are a stream of one event each)."""
        made = cls.__new__(cls)
        made.append(event)
        made._kept = (event,)
        made.states = [state]
        return made

    def kept_states(self) -> list[bytes] | None:
        """The sealed bytes of these events, while the list holds the events sealed (a
        list changed since answers ``None``: encode them)."""
        kept = self._kept
        if len(self) == len(kept) and all(map(is_, self, kept)):  # each the very event
            return self.states
        return None


_OWN_HASH_EMPTY = b'"hash":""'
_PREFIX_OF: dict[type[GameEvent], bytes] = {}


def seal_after(version: int, prev: str, new_events: Sequence[GameEvent]) -> list[GameEvent]:
    """``new_events`` numbered after ``version``, chained after the hash ``prev`` and
    sealed: what an append stores, for a caller that holds a game in memory (an import
    replaying a record). Each is encoded once: the bytes its hash is taken over (its own
    ``hash`` empty) become the stored bytes with the hash written into that field, the
    first ``"hash":`` of the JSON (the common fields come first: ``stored_hash``); the
    list is a ``Sealed``, which keeps them. A ``Sealed`` already numbered after
    ``version`` and chained after ``prev`` (a round's new game, sealed by its
    ``JsonTemplate``) is that list itself: nothing is sealed twice."""
    if (
        isinstance(new_events, Sealed)
        and new_events
        and new_events.kept_states() is not None
        and new_events[0].originator_version == version + 1
        and new_events[0].prev_hash == prev
    ):
        return new_events
    sealed: list[GameEvent] = []
    states: list[bytes] = []
    replace, encode_, sha256 = msgspec.structs.replace, _encoder.encode, hashlib.sha256
    prefixes = _PREFIX_OF
    for number, event in enumerate(new_events, start=version + 1):
        if event.originator_version != number or event.prev_hash != prev or event.hash:
            event = replace(event, originator_version=number, prev_hash=prev, hash="")
        # else made numbered and chained already (a round's new games): not copied
        body = encode_(event)
        kind = type(event)
        prefix = prefixes.get(kind)
        if prefix is None:
            prefix = prefixes[kind] = TOPIC_OF[kind].encode() + b"\n"
        prev = sha256(prefix + body).hexdigest()
        sealed.append(replace(event, hash=prev))
        states.append(body.replace(_OWN_HASH_EMPTY, b'"hash":"' + prev.encode() + b'"', 1))
    return Sealed(sealed, states)


def plain_text(text: str) -> bool:
    """Whether ``text`` is encoded in JSON as itself between quotes: no quote, no
    backslash and only printable characters (the encoder escapes the control characters
    and refuses a lone surrogate; a few other unprintable ones answer ``False`` too, which
    only sends them the encoder's way). What a ``JsonTemplate`` may paste in as it is."""
    return text.isprintable() and '"' not in text and "\\" not in text


class JsonTemplate:
    """The stored JSON of events alike but for a few fields, as the encoder writes them,
    with those fields' places left open: a round's 5,000 new games differ only in their
    ids, time, players, seeds and table, and each encoded whole was a tenth of sealing it.
    Made from a ``sample`` holding a placeholder string in each open field (``of``);
    ``sealed`` fills them and seals the bytes as ``seal_after`` does (a loop making
    thousands inlines it: ``parts``, ``prefix``). A template is only as good as its
    placeholders: a caller checks a filled one against the encoder once (``matches``)
    before trusting the rest."""

    __slots__ = ("parts", "prefix")

    def __init__(self, pieces: Sequence[str], prefix: bytes) -> None:
        parts: list[str] = []
        for piece in pieces:
            parts += (piece, "")
        self.parts = parts[:-1]  # the fixed pieces, a field's place between each two
        self.prefix = prefix  # the topic's line the hash is taken over first

    @classmethod
    def of(
        cls, sample: GameEvent, slots: Sequence[str], raw: Container[str] = ()
    ) -> JsonTemplate | None:
        """The template of events like ``sample`` (its own hash emptied) whose string
        fields ``slots`` (placeholders, each found once in the JSON, in this order) are
        left open: a placeholder in ``raw`` stands for any JSON value (its quotes go too:
        a time, a seed), the others for text ``plain_text`` accepts. ``None`` when a
        placeholder is not found once, or not in this order."""
        body = _encoder.encode(msgspec.structs.replace(sample, hash="")).decode()
        pieces: list[str] = []
        at = 0
        for slot in slots:
            quoted = f'"{slot}"'
            found = body.find(quoted, at)
            if _encoder.encode(slot) != quoted.encode() or found < 0 or body.count(quoted) != 1:
                return None
            if slot in raw:
                pieces.append(body[at:found])
                at = found + len(quoted)
            else:
                pieces.append(body[at : found + 1])
                at = found + len(quoted) - 1
        pieces.append(body[at:])
        return cls(pieces, TOPIC_OF[type(sample)].encode() + b"\n")

    def sealed(self, fills: tuple[str, ...]) -> tuple[str, bytes]:
        """The hash and the stored bytes of the event (numbered, chained, hashed as the
        sample was) whose open fields hold ``fills``, in the slots' order: text the
        caller made sure is ``plain_text``, or JSON for a ``raw`` slot."""
        parts = self.parts[:]
        parts[1::2] = fills
        body = "".join(parts).encode()
        digest = hashlib.sha256(self.prefix + body).hexdigest()
        return digest, body.replace(_OWN_HASH_EMPTY, b'"hash":"' + digest.encode() + b'"', 1)

    @staticmethod
    def matches(event: GameEvent, state: bytes) -> bool:
        """Whether ``event`` (sealed) and ``state`` are what ``seal_after`` makes of it."""
        unsealed = msgspec.structs.replace(event, hash="")
        sealed = seal_after(event.originator_version - 1, event.prev_hash, [unsealed])
        return isinstance(sealed, Sealed) and sealed == [event] and sealed.states == [state]


class MsgspecMapper(Mapper[str]):
    """Maps msgspec event Structs to stored events and back."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        state = _encoder.encode(domain_event)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=TOPIC_OF[type(domain_event)],
            state=state,
        )

    @property
    def plain(self) -> bool:
        """Whether stored states are the events' JSON as it is (no cipher, no compression)."""
        return self.cipher is None and self.compressor is None

    def plain_state(self, stored_event: StoredEvent) -> bytes:
        """The event's JSON bytes as they were encoded (decrypted, decompressed)."""
        state = stored_event.state
        if isinstance(state, str):  # a row edited by hand in SQL may come back as text
            state = state.encode()
        if self.cipher:
            state = self.cipher.decrypt(state)
        if self.compressor:
            state = self.compressor.decompress(state)
        return state

    def stored_row(self, topic: str, plain: bytes) -> bytes:
        """What to store for the plain JSON ``plain`` (compressed, encrypted as configured)."""
        state = plain
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return state

    @staticmethod
    def decode_row(topic: str, state: bytes) -> GameEvent:
        """Decode plain (unencrypted, uncompressed) event JSON of ``topic``."""
        return decode(topic, state)

    def to_game_event(self, stored_event: StoredEvent) -> GameEvent:
        """``to_domain_event`` with its real type."""
        event: GameEvent = self.to_domain_event(stored_event)
        return event

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        try:
            return decode(stored_event.topic, self.plain_state(stored_event))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise MapperDeserialisationError(
                f"cannot decode event {stored_event.originator_id}#"
                f"{stored_event.originator_version} ({stored_event.topic}): {exc}"
            ) from exc

"""Encoding events to bytes and back, hashing them, and the eventsourcing mapper.

The library's default mapper reads ``__dict__``, which msgspec Structs lack, so
``MsgspecMapper`` encodes each event whole (including its id and number, so a
row moved to another position no longer matches its own content) and decodes
with a typed decoder chosen by topic. Compression and encryption, when the
application is configured with them, are applied here as the library would.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import msgspec
from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent

from events.schema import TOPIC_OF, TOPICS, GameEvent

_encoder = msgspec.json.Encoder()
_decoders: dict[str, msgspec.json.Decoder[Any]] = {
    topic: msgspec.json.Decoder(cls) for topic, cls in TOPICS.items()
}
# Upcasters: old topic -> (new topic, function on the decoded JSON object).
UPCASTERS: dict[str, tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = {}


def encode(event: GameEvent) -> bytes:
    return _encoder.encode(event)


def decode(topic: str, data: bytes) -> GameEvent:
    """Decode stored bytes of ``topic``, upcasting older topics first."""
    decoder = _decoders.get(topic)
    if decoder is not None:
        event: GameEvent = decoder.decode(data)
        return event
    if topic in UPCASTERS:
        obj = msgspec.json.decode(data)
        while topic in UPCASTERS:
            topic, upcast = UPCASTERS[topic]
            obj = upcast(obj)
        converted: GameEvent = msgspec.convert(obj, TOPICS[topic])
        return converted
    raise MapperDeserialisationError(f"unknown event topic {topic!r}")


def event_hash(event: GameEvent) -> str:
    """SHA-256 over the topic and the event encoded with an empty ``hash`` field."""
    body = _encoder.encode(msgspec.structs.replace(event, hash=""))
    return hashlib.sha256(TOPIC_OF[type(event)].encode() + b"\n" + body).hexdigest()


def seal(event: GameEvent) -> GameEvent:
    """Return ``event`` with its own hash filled in."""
    return msgspec.structs.replace(event, hash=event_hash(event))


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

    @staticmethod
    def decode_row(topic: str, state: bytes) -> GameEvent:
        """Decode plain (unencrypted, uncompressed) event JSON of ``topic``."""
        return decode(topic, state)

    def to_game_event(self, stored_event: StoredEvent) -> GameEvent:
        """``to_domain_event`` with its real type."""
        event: GameEvent = self.to_domain_event(stored_event)
        return event

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        state = stored_event.state
        try:
            if self.cipher:
                state = self.cipher.decrypt(state)
            if self.compressor:
                state = self.compressor.decompress(state)
            return decode(stored_event.topic, state)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise MapperDeserialisationError(
                f"cannot decode event {stored_event.originator_id}#"
                f"{stored_event.originator_version} ({stored_event.topic}): {exc}"
            ) from exc

"""``referee-jsonl/1``: the interchange format, every event exactly as stored.

Line 1 is a header: ``{"format": "referee-jsonl/1", "game_id": ..., "game": ...,
"events": N, "last_hash": ...}``. Each further line is one stored event: the
event's stored JSON with ``kind`` and ``topic`` put in front. Reading a file
recovers the stored bytes exactly and hashes them as they are, so a changed
byte, a missing, moved or extra line, and a file cut short (the header declares
the count and the last hash) are all refused with the line that shows it. Only
the canonical encoding of each event is accepted, so what is stored re-exports
byte for byte.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator

import msgspec

from events.codec import decode_exact, encode, known_topic, own_hash, stored_hash, upcast
from events.interchange.errors import ImportFileError, check_game_id
from events.schema import GENESIS_HASH, KIND_OF_TOPIC, GameCreated, GameEvent
from events.tournament import TournamentEvent

__all__ = ["JSONL_FORMAT", "export_jsonl", "read_jsonl"]

JSONL_FORMAT = "referee-jsonl/1"

_LINE_PREFIX = re.compile(r'\{"kind":"[a-z-]+","topic":"([A-Za-z0-9_.]+)",')


class _Head(msgspec.Struct):
    format: str = ""
    game_id: str = ""
    game: str = ""
    events: int | None = None
    last_hash: str | None = None


_head_decoder = msgspec.json.Decoder(_Head)


def export_jsonl(
    game_id: str,
    game: str,
    rows: Iterable[tuple[int, str, bytes]],
    *,
    head: tuple[int, str, bytes] | None = None,
) -> Iterator[str]:
    """The record's lines (each ending in a newline) from a game's stored rows.

    With ``head`` (the game's last stored row, numbered by its count), ``rows`` may be
    a stream read as the lines are written; without it they are all read first."""
    if head is None:
        rows = list(rows)
        head = rows[-1] if rows else None
        count = len(rows)
    else:
        count = head[0]
    last_hash = own_hash(head[2]) if head else GENESIS_HASH
    header = {
        "format": JSONL_FORMAT,
        "game_id": game_id,
        "game": game,
        "events": count,
        "last_hash": last_hash,
    }
    yield json.dumps(header) + "\n"
    for _, topic, state in rows:
        kind = KIND_OF_TOPIC[topic]
        yield f'{{"kind":"{kind}","topic":"{topic}",' + state[1:].decode() + "\n"


def _event_line(line: str, number: int, source: str) -> tuple[str, GameEvent, bytes]:
    match = _LINE_PREFIX.match(line)
    if match is None:
        raise ImportFileError(
            source, number, "not an event line as exported (kind, topic, then the stored event)"
        )
    topic = match.group(1)
    if not known_topic(topic):
        raise ImportFileError(source, number, f"unknown event topic {topic!r}")
    state = ("{" + line[match.end() :]).encode()
    try:
        exact = decode_exact(topic, state)
    except RecursionError:
        raise ImportFileError(source, number, "nested too deeply to be an event") from None
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ImportFileError(source, number, f"malformed {topic} event: {exc}") from None
    if encode(exact) != state:
        raise ImportFileError(
            source,
            number,
            "the event is not in its canonical encoding (edited or written by another tool?)",
        )
    event = upcast(topic, exact)
    if stored_hash(topic, state, event.hash) != event.hash:
        raise ImportFileError(
            source, number, "the event's contents do not match its hash (edited?)"
        )
    return topic, event, state


def read_jsonl(lines: Iterable[str], source: str) -> list[tuple[int, GameEvent, str, bytes]]:
    """(line number, event, topic, stored bytes) of every event, the chain and the
    header's count and last hash checked."""
    out: list[tuple[int, GameEvent, str, bytes]] = []
    head: _Head | None = None
    prev = GENESIS_HASH
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        if head is None:
            try:
                head = _head_decoder.decode(line)
                if not head.format:  # a JSON object, but no record's header
                    raise msgspec.ValidationError
            except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
                raise ImportFileError(
                    source,
                    number,
                    "the first line must be the record's header "
                    f'({{"format": "{JSONL_FORMAT}", ...}})',
                ) from None
            if head.format != JSONL_FORMAT:
                raise ImportFileError(
                    source, number, f"unknown format {head.format!r}; expected {JSONL_FORMAT}"
                )
            continue
        topic, event, state = _event_line(line, number, source)
        if event.prev_hash != prev:
            raise ImportFileError(
                source,
                number,
                "the event does not follow the one before it "
                "(an event was removed, moved or edited)",
            )
        expected = len(out) + 1
        if event.originator_version != expected:
            raise ImportFileError(
                source, number, f"event numbered {event.originator_version}; expected {expected}"
            )
        if out and event.originator_id != out[0][1].originator_id:
            raise ImportFileError(source, number, "the file mixes events of different games")
        prev = event.hash
        out.append((number, event, topic, state))
    if head is None or not out:
        raise ImportFileError(source, None, "no events in the file")
    first = out[0][1]
    tournament = isinstance(first, TournamentEvent) and type(first).__name__ == "EventCreated"
    if not isinstance(first, GameCreated) and not tournament:
        raise ImportFileError(
            source, out[0][0], "the first event must be the game's (or event's) creation"
        )
    check_game_id(first.originator_id, source, out[0][0])
    if head.game_id and head.game_id != first.originator_id:
        raise ImportFileError(
            source, 1, f"the header names game {head.game_id!r}, the events {first.originator_id!r}"
        )
    if head.events is not None and head.events != len(out):
        raise ImportFileError(
            source,
            None,
            f"the header declares {head.events} events but the file holds {len(out)} (cut short?)",
        )
    if head.last_hash is not None and head.last_hash != prev:
        raise ImportFileError(
            source, None, "the last event is not the one the header declares (cut short?)"
        )
    return out

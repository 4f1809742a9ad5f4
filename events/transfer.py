"""Getting games out of the store and back in.

Two formats:

``referee-jsonl/1`` (the interchange format): line 1 is a header object
``{"format": "referee-jsonl/1", "game_id": ..., "game": ..., "events": N}``;
every following line is one event exactly as stored (its fields, plus ``kind``
and ``topic``). Importing it reproduces the game event for event, hashes and
times included.

``referee-text/1``: a human-readable record in the spirit of PGN: ``[Tag "value"]``
header lines, then one line per standing action (``12. red c4xd5``), with
rejections, corrections, disputes, rulings and the result as ``{...}`` comment
lines. Importing it rebuilds the same sequence of decisions, with new times.

Import checks every action again as if it were played now; a file is taken
whole or not at all, and an error names the file, the line, the clause and the
reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, cast

import msgspec

from events.codec import _decoders, event_hash, seal
from events.integrity import GameReport, _hash_from_stored, _recheck_decisions
from events.records import event_record
from events.replay import GameView, judge
from events.schema import (
    GENESIS_HASH,
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    GameCreated,
    GameEnded,
    GameEvent,
    ResultVoided,
)
from referee import games
from referee.core import Player, Setup

JSONL_FORMAT = "referee-jsonl/1"
TEXT_FORMAT = "referee-text/1"


class ImportFileError(ValueError):
    """A file that cannot be imported; names the file, line, clause and reason."""

    def __init__(self, source: str, line: int | None, reason: str, clause: str | None = None) -> None:
        where = f"{source}:{line}" if line is not None else source
        text = f"{where}: {clause + ': ' if clause else ''}{reason}"
        super().__init__(text)
        self.source = source
        self.line = line
        self.clause = clause
        self.reason = reason


class _Head(msgspec.Struct):
    topic: str = ""
    format: str = ""


_head_decoder = msgspec.json.Decoder(_Head)


# -- JSONL ----------------------------------------------------------------------


def export_jsonl(events: Sequence[GameEvent]) -> str:
    first = events[0]
    header = {"format": JSONL_FORMAT, "game_id": first.originator_id,
              "game": getattr(first, "game", None), "events": len(events)}
    lines = [json.dumps(header)]
    lines.extend(msgspec.json.encode(event_record(e)).decode() for e in events)
    return "\n".join(lines) + "\n"


_LINE_PREFIX = re.compile(r'\{"kind":"[a-z]+","topic":"([A-Za-z0-9_.]+)",')


def read_jsonl(text: str, source: str) -> list[tuple[int, GameEvent]]:
    """Decode a JSONL export into (line number, event) pairs, checking hashes and links."""
    return [(number, event) for number, event, _ in read_jsonl_stored(text, source)]


def _decode_line(line: str, number: int, source: str) -> tuple[GameEvent, bytes] | None:
    """One event line as (event, its stored bytes), or None for the header line.

    An exported line is the stored bytes with ``kind`` and ``topic`` in front, so
    the stored bytes are recovered exactly and hashed as they are. A line in
    any other layout (edited by hand, other JSON spacing) is decoded generally
    and hashed in its canonical encoding."""
    match = _LINE_PREFIX.match(line)
    if match is not None:
        decoder = _decoders.get(match.group(1))
        if decoder is not None:
            state = ("{" + line[match.end():]).encode()
            try:
                event: GameEvent = decoder.decode(state)
            except (msgspec.DecodeError, msgspec.ValidationError):
                pass
            else:
                if _hash_from_stored(match.group(1), state, event.hash) == event.hash:
                    return event, state
    try:
        head = _head_decoder.decode(line)
    except msgspec.DecodeError as exc:
        raise ImportFileError(source, number, f"not a JSON object: {exc}") from None
    if head.format:
        if head.format != JSONL_FORMAT:
            raise ImportFileError(source, number, f"unknown format {head.format!r}; expected {JSONL_FORMAT}")
        return None
    decoder = _decoders.get(head.topic)
    if decoder is None:
        raise ImportFileError(source, number, f"unknown event topic {head.topic!r}")
    try:
        event = decoder.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ImportFileError(source, number, f"malformed {head.topic} event: {exc}") from None
    if event.hash != event_hash(event):
        raise ImportFileError(source, number, "the event's contents do not match its hash (edited?)")
    return event, msgspec.json.encode(event)


def read_jsonl_stored(text: str, source: str) -> list[tuple[int, GameEvent, bytes]]:
    """Like ``read_jsonl``, keeping each event's stored bytes for a bulk insert."""
    out: list[tuple[int, GameEvent, bytes]] = []
    prev = GENESIS_HASH
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        decoded = _decode_line(line, number, source)
        if decoded is None:
            continue
        event, state = decoded
        if event.prev_hash != prev:
            raise ImportFileError(source, number, "the event does not follow the one before it "
                                                  "(an event was removed, moved or edited)")
        expected = len(out) + 1
        if event.originator_version != expected:
            raise ImportFileError(source, number, f"event numbered {event.originator_version}; expected {expected}")
        if out and event.originator_id != out[0][1].originator_id:
            raise ImportFileError(source, number, "the file mixes events of different games")
        prev = event.hash
        out.append((number, event, state))
    if not out:
        raise ImportFileError(source, None, "no events in the file")
    if not isinstance(out[0][1], GameCreated):
        raise ImportFileError(source, out[0][0], "the first event must be the game's creation")
    return out


def recheck(numbered: Sequence[tuple[int, GameEvent]], source: str) -> None:
    """Re-check every decision of the file; raise at the first that does not hold."""
    events = [e for _, e in numbered]
    try:
        games.load(events[0].game)  # type: ignore[attr-defined]
    except LookupError as exc:
        raise ImportFileError(source, numbered[0][0], str(exc)) from None
    report = GameReport(game_id=events[0].originator_id, events=len(events))
    _recheck_decisions(events, report)
    if report.findings:
        finding = report.findings[0]
        line_of = {e.originator_version: n for n, e in numbered}
        line = line_of.get(finding.event) if finding.event is not None else None
        clause_match = re.search(r"\b([A-Z]{2,4}-\d+(?:\.\d+)*)\b", finding.detail)
        raise ImportFileError(source, line, finding.detail, clause_match.group(1) if clause_match else None)


def renumber(events: Sequence[GameEvent], game_id: str, note: str | None) -> list[GameEvent]:
    """Copy a game's events under a new id, re-sealing the hash chain."""
    out: list[GameEvent] = []
    prev = GENESIS_HASH
    for event in events:
        changes: dict[str, Any] = {"originator_id": game_id, "prev_hash": prev}
        if isinstance(event, GameCreated):
            changes["imported_from"] = note
        event = seal(msgspec.structs.replace(event, **changes))
        prev = event.hash
        out.append(event)
    return out


# -- text -----------------------------------------------------------------------


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def export_text(view: GameView) -> str:
    created = view.created
    tags: list[tuple[str, str]] = [
        ("Format", TEXT_FORMAT),
        ("Game", created.game),
        ("GameId", created.originator_id),
        ("Ruleset", created.ruleset),
        ("Variants", ", ".join(f"{k}={v}" for k, v in created.variants.items())),
    ]
    tags += [(f"Player:{p.seat}", p.name) for p in created.players]
    tags += [("Date", created.timestamp.strftime("%Y-%m-%dT%H:%M:%SZ")), ("Result", view.result)]
    if view.ended is not None:
        tags.append(("Termination", f"{view.ended.how} {view.ended.clause}"))
    if created.options:
        tags.append(("Options", json.dumps(created.options, sort_keys=True)))
    lines = [f"[{k} {_q(v)}]" for k, v in tags]
    lines.append("")
    for event in view.events[1:]:
        lines.append(_text_line(event))
    return "\n".join(lines) + "\n"


def _text_line(event: GameEvent) -> str:
    if isinstance(event, ActionRecorded):
        return f"{event.seq}. {event.actor} {event.notation}"
    if isinstance(event, ActionRejected):
        why = "; ".join(f"{v.clause} {v.reason}" for v in event.violations)
        return f"{{rejected {_q(event.text)} by {event.actor} for {event.seq}: {why}}}"
    if isinstance(event, ActionRetracted):
        return f"{{retracted {event.seq}: {_q(event.reason)}}}"
    if isinstance(event, GameEnded):
        winner = event.winner or "draw"
        return f"{{ended {winner} by {event.how} {event.clause}: {_q(event.reason)}}}"
    if isinstance(event, ResultVoided):
        return f"{{voided {event.event}: {_q(event.reason)}}}"
    if isinstance(event, DisputeOpened):
        return f"{{dispute {event.dispute} on event {event.event} by {_q(event.by)}: {_q(event.claim)}}}"
    if isinstance(event, DisputeRuled):
        return (f"{{ruling {event.dispute} {event.level} {event.decision} {event.clause} by {_q(event.by)}: "
                f"{_q(event.reason)}}}")
    if isinstance(event, DisputeAppealed):
        return f"{{appeal {event.dispute} by {_q(event.by)}: {_q(event.grounds)}}}"
    raise TypeError(type(event).__name__)


_TAG = re.compile(r'^\[(\S+) (".*")\]$')
_MOVE = re.compile(r"^(\d+)\.\s*(.+)$")
_STR = r'("(?:[^"\\]|\\.)*")'
_COMMENTS = {
    "rejected": re.compile(r"^\{rejected " + _STR + r" by (\S+) for (\d+): (.*)\}$"),
    "retracted": re.compile(r"^\{retracted (\d+): " + _STR + r"\}$"),
    "ended": re.compile(r"^\{ended (\S+) by (\S+) (\S+): " + _STR + r"\}$"),
    "dispute": re.compile(r"^\{dispute (\d+) on event (\d+) by " + _STR + ": " + _STR + r"\}$"),
    "ruling": re.compile(r"^\{ruling (\d+) (\S+) (\S+) (\S+) by " + _STR + ": " + _STR + r"\}$"),
    "appeal": re.compile(r"^\{appeal (\d+) by " + _STR + ": " + _STR + r"\}$"),
    "voided": re.compile(r"^\{voided (\d+): " + _STR + r"\}$"),
}


def read_text(text: str, source: str, *, by: str = "") -> list[tuple[int, GameEvent]]:
    """Rebuild a game's events from a text record, judging every entry as it goes."""
    tags: dict[str, str] = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index].strip()
        match = _TAG.match(line)
        if match:
            tags[match.group(1)] = json.loads(match.group(2))
        elif line:
            break
        index += 1
    for needed in ("Game", "GameId", "Ruleset"):
        if needed not in tags:
            raise ImportFileError(source, None, f"missing [{needed} ...] tag")
    if tags.get("Format", TEXT_FORMAT) != TEXT_FORMAT:
        raise ImportFileError(source, 1, f"unknown format {tags['Format']!r}")
    try:
        rules = games.load(tags["Game"])
        players = tuple(Player(k.split(":", 1)[1], v) for k, v in tags.items() if k.startswith("Player:"))
        variants = dict(
            pair.split("=", 1) for pair in (p.strip() for p in tags.get("Variants", "").split(",")) if pair
        )
        setup = rules.resolve_setup(Setup(players=players, ruleset=tags["Ruleset"], variants=variants,
                                          options=json.loads(tags.get("Options", "{}"))))
        rules.initial_state(setup)
    except (ValueError, LookupError) as exc:
        raise ImportFileError(source, None, f"cannot set the game up: {exc}") from None
    try:
        when = datetime.strptime(tags.get("Date", ""), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError:
        when = datetime.now(UTC)
    game_id = tags["GameId"]
    base: dict[str, Any] = {"originator_id": game_id, "originator_version": 0, "timestamp": when, "prev_hash": ""}
    view = GameView(GameCreated(**base, game=rules.name, ruleset=str(setup.ruleset), variants=setup.variants,
                                players=setup.players, options=setup.options, created_by=by))
    out: list[tuple[int, GameEvent]] = [(1, _chain(view.events[0], None))]
    view.events[0] = out[0][1]
    for number in range(index + 1, len(lines) + 1):
        line = lines[number - 1].strip()
        if not line:
            continue
        event = _text_event(line, number, source, view, base, by)
        event = _chain(event, out[-1][1])
        view.fold(event)
        out.append((number, event))
    return out


def _chain(event: GameEvent, prev: GameEvent | None) -> GameEvent:
    return seal(msgspec.structs.replace(
        event,
        originator_version=prev.originator_version + 1 if prev else 1,
        prev_hash=prev.hash if prev else GENESIS_HASH,
    ))


def _text_event(line: str, number: int, source: str, view: GameView, base: dict[str, Any], by: str) -> GameEvent:
    rules = view.rules
    move = _MOVE.match(line)
    if move:
        seq, rest = int(move.group(1)), move.group(2).strip()
        first, _, after = rest.partition(" ")
        if first in rules.seats and after.strip():  # "12. red c4xd5"; the seat may be left out
            actor, text = first, after.strip()
        else:
            actor, text = str(rules.to_move(view.state)), rest
        if seq != view.ply + 1:
            raise ImportFileError(source, number, f"action numbered {seq}; the game is at action {view.ply + 1}")
        action, verdict = judge(view, text, actor)
        if not verdict.legal:
            v = verdict.violations[0]
            raise ImportFileError(source, number, f"{text!r}: {v.reason}", v.clause)
        return ActionRecorded(**base, seq=seq, actor=actor, action=msgspec.Raw(msgspec.json.encode(action)),
                              notation=rules.notation(action), recorded_by=by)
    for kind, pattern in _COMMENTS.items():
        m = pattern.match(line)
        if not m:
            continue
        g = m.groups()
        if kind == "rejected":
            text, actor, seq = json.loads(g[0]), g[1], int(g[2])
            _, verdict = judge(view, text, None if actor == "None" else actor)
            if verdict.legal:
                raise ImportFileError(source, number, f"{text!r} was rejected, but the rules accept it now")
            return ActionRejected(**base, seq=seq, actor=None if actor == "None" else actor, text=text,
                                  violations=verdict.violations, recorded_by=by)
        if kind == "retracted":
            if not view.standing or view.standing[-1].seq != int(g[0]):
                raise ImportFileError(source, number, f"action {g[0]} is not the latest standing action",
                                      "REF-2.1")
            last = view.standing[-1]
            return ActionRetracted(**base, seq=last.seq, event=last.originator_version,
                                   reason=json.loads(g[1]), by=by)
        if kind == "ended":
            winner = None if g[0] == "draw" else g[0]
            if g[1] == "rule":
                outcome = rules.outcome(view.state)
                if not outcome.over or outcome.winner != winner:
                    raise ImportFileError(source, number, f"the rules do not end the game with {g[0]} here",
                                          g[2])
            return GameEnded(**base, winner=winner, how=cast(Any, g[1]), clause=g[2], reason=json.loads(g[3]), by=by)
        if kind == "dispute":
            return DisputeOpened(**base, dispute=int(g[0]), event=int(g[1]), by=json.loads(g[2]),
                                 claim=json.loads(g[3]))
        if kind == "ruling":
            return DisputeRuled(**base, dispute=int(g[0]), level=cast(Any, g[1]), decision=cast(Any, g[2]), clause=g[3],
                                by=json.loads(g[4]), reason=json.loads(g[5]))
        if kind == "voided":
            if view.ended is None:
                raise ImportFileError(source, number, "there is no result to void here", "REF-4.5")
            return ResultVoided(**base, event=view.ended.originator_version, reason=json.loads(g[1]), by=by)
        return DisputeAppealed(**base, dispute=int(g[0]), by=json.loads(g[1]), grounds=json.loads(g[2]))
    raise ImportFileError(source, number, f"cannot read this line: {line!r}")


def _read_checked(text: str, source: str, by: str) -> list[tuple[int, GameEvent, bytes | None]]:
    """(line, event, stored bytes or None) of a record in either format, every decision re-checked."""
    try:
        kind = sniff_format(text)
    except ValueError as exc:
        raise ImportFileError(source, 1, str(exc)) from None
    rows: list[tuple[int, GameEvent, bytes | None]]
    if kind == "jsonl":
        rows = list(read_jsonl_stored(text, source))
    else:
        rows = [(n, e, None) for n, e in read_text(text, source, by=by)]
    recheck([(n, e) for n, e, _ in rows], source)
    return rows


def read_for_import(text: str, source: str, *, by: str = "") -> tuple[list[GameEvent], list[bytes] | None]:
    """Events of a record, re-checked, with their stored bytes when the file carries them."""
    rows = _read_checked(text, source, by)
    states = [b for _, _, b in rows if b is not None]
    return [e for _, e, _ in rows], states if len(states) == len(rows) else None


def sniff_format(text: str) -> str:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return "jsonl"
    if stripped.startswith("["):
        return "text"
    raise ValueError("neither a referee-jsonl nor a referee-text record")


def read_any(text: str, source: str, *, by: str = "") -> list[tuple[int, GameEvent]]:
    """Read a record in either format; every decision is re-checked."""
    return [(n, e) for n, e, _ in _read_checked(text, source, by)]


__all__ = ["ImportFileError", "export_jsonl", "export_text", "read_any", "read_for_import", "read_jsonl",
           "read_jsonl_stored", "read_text", "recheck", "renumber"]

"""Sealed PRIZMIK games built without the service, for tests and benchmarks that fill a
store in bulk (the replication drill, ``benchmarks/bench_scale.py`` and its neighbours):
random legal lines of play, a game's events over one of them, and the rows the store
holds for a stream, sealed and chained as ``GameStore`` seals them."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import msgspec

from events.codec import encode, seal
from events.schema import (
    GENESIS_HASH,
    TOPIC_OF,
    ActionRecorded,
    GameCreated,
    GameEnded,
    GameEvent,
)
from referee import games
from referee.contract import Player, Setup

Line = list[tuple[str, str, bytes]]
"""A line of play: each action's seat, notation and JSON."""


def prizmik_line(plies: int, rng: random.Random) -> Line | None:
    """A random legal PRIZMIK line of ``plies`` actions that does not end the game, or
    ``None`` when this attempt ran out of such actions first."""
    rules = games.load("prizmik")
    setup = rules.resolve_setup(Setup(players=(Player("red", "a"), Player("blue", "b"))))
    state = rules.initial_state(setup)
    line: Line = []
    for _ in range(plies):
        options = list(rules.legal_actions(state))
        rng.shuffle(options)
        for action in options:
            after = rules.apply(state, action)
            if not rules.outcome(after).over:
                break
        else:
            return None
        line.append((state.turn, rules.notation(action), msgspec.json.encode(action)))
        state = after
    return line


def pool_of_lines(count: int, plies: int, rng: random.Random) -> list[Line]:
    """``count`` random legal lines of ``plies`` actions each."""
    lines: list[Line] = []
    while len(lines) < count:
        line = prizmik_line(plies, rng)
        if line is not None:
            lines.append(line)
    return lines


def stream_base(game_id: str, when: datetime) -> dict[str, Any]:
    """The fields every event of a new stream starts with (its chain is filled when sealed)."""
    return {"originator_id": game_id, "originator_version": 0, "timestamp": when, "prev_hash": ""}


def random_game_id(rng: random.Random) -> str:
    return f"prizmik-{uuid.UUID(int=rng.getrandbits(128)).hex[:10]}"


def recorded(
    base: dict[str, Any], seq: int, step: tuple[str, str, bytes], by: str
) -> ActionRecorded:
    """The ``seq``-th action of a game, ``step`` of a line (seat, notation, action JSON)."""
    seat, notation, action = step
    return ActionRecorded(
        **base, seq=seq, actor=seat, action=msgspec.Raw(action), notation=notation, recorded_by=by
    )


def prizmik_game(
    base: dict[str, Any], names: Sequence[str], line: Iterable[tuple[str, str, bytes]], by: str
) -> list[GameEvent]:
    """A PRIZMIK game between ``names`` (red, blue) with the actions of ``line``, recorded
    by ``by``; ``base`` holds the stream's id, time and placeholders for its chain."""
    red, blue = names
    events: list[GameEvent] = [
        GameCreated(
            **base,
            game="prizmik",
            ruleset="prizmik/1",
            variants=games.load("prizmik").resolve_variants({}),
            players=(Player("red", red), Player("blue", blue)),
            created_by=by,
        )
    ]
    events.extend(recorded(base, seq, step, by) for seq, step in enumerate(line, start=1))
    return events


def sealed_rows(events: Iterable[GameEvent]) -> list[tuple[int, str, bytes]]:
    """A stream's rows (version, topic, body), each event sealed and chained to the last."""
    rows = []
    prev = GENESIS_HASH
    for number, event in enumerate(events, start=1):
        sealed = seal(msgspec.structs.replace(event, originator_version=number, prev_hash=prev))
        prev = sealed.hash
        rows.append((number, TOPIC_OF[type(sealed)], encode(sealed)))
    return rows


def sealed_game(
    game_id: str,
    when: datetime,
    names: Sequence[str],
    line: Line,
    by: str,
    winner: str | None,
) -> list[tuple[int, str, bytes]]:
    """The rows of a PRIZMIK game ``game_id`` over ``line``, ended by a resignation won by
    the seat ``winner`` (``None``: still open), all recorded by ``by``."""
    base = stream_base(game_id, when)
    events = prizmik_game(base, names, line, by)
    if winner is not None:
        ended = GameEnded(**base, winner=winner, how="resignation", clause="REF-3.2", reason=by)
        events.append(ended)
    return sealed_rows(events)

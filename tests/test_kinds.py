"""One registration per event type (events.kinds, issue 19 section 3): every type the
store writes has its summary, its text form and its fold in one place, and the three
readers (records, the text record, the view) find them there."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest

from events.interchange.text import entry_text
from events.kinds import Kind, ReplayError, kind_of_event, register, registered_types
from events.records import event_summary
from events.schema import TOPICS, ActionRecorded, GameCreated, GameEvent, PenaltyIssued
from events.tournament import TournamentEvent
from events.view import GameView
from referee.contract import Player

WHEN = datetime(2026, 1, 1, tzinfo=UTC)
GAME_TYPES = {cls for cls in TOPICS.values() if not issubclass(cls, TournamentEvent)}
"""The game streams' types (an event's own stream, events.tournament, words its own)."""


class Unregistered(GameEvent, frozen=True, kw_only=True):
    """A type nobody registered."""


def _fields(version: int) -> dict[str, Any]:
    return {
        "originator_id": "nim-kinds-1",
        "originator_version": version,
        "timestamp": WHEN,
        "prev_hash": "",
    }


def _created() -> GameCreated:
    return GameCreated(
        **_fields(1),
        game="nim",
        ruleset="nim/1",
        variants={},
        players=(Player(seat="first", name="Ann"), Player(seat="second", name="Ben")),
    )


def test_every_type_the_store_writes_is_registered_once() -> None:
    assert registered_types() >= GAME_TYPES
    with pytest.raises(ValueError, match="registered already"):
        register(Kind(PenaltyIssued, lambda e: "", lambda e: None, None))


def test_the_readers_use_the_registration() -> None:
    """A penalty reads, writes and folds as its one registration says."""
    penalty = PenaltyIssued(
        **_fields(2), seat="first", penalty="warning", infraction="slow play", reason="again"
    )
    kind = kind_of_event(penalty)
    assert kind is not None
    assert kind.cls is PenaltyIssued
    assert event_summary(penalty) == kind.summary(penalty)
    assert event_summary(penalty) == "penalty: warning for first: slow play (again)"
    assert entry_text(penalty) == kind.text(penalty)
    assert entry_text(penalty) == '{penalty "first" warning "slow play": "again"}'
    view = GameView(_created())
    view.fold(penalty)
    assert view.penalties == [penalty]
    assert view.events[-1] is penalty


def test_a_type_with_no_registration_is_refused_by_each_reader() -> None:
    stray = Unregistered(**_fields(2))
    assert event_summary(stray) == "Unregistered"
    with pytest.raises(TypeError):
        entry_text(stray)
    with pytest.raises(ReplayError, match="cannot fold event of type Unregistered"):
        GameView(_created()).fold(stray)


def test_only_the_action_is_folded_inline_by_the_view() -> None:
    """The one registration without a fold: a recorded action, the replay's hot path."""
    action = ActionRecorded(
        **_fields(2), seq=1, actor="first", action=msgspec.Raw(b'{"count":1}'), notation="1"
    )
    kind = kind_of_event(action)
    assert kind is not None
    assert kind.fold is None
    assert [cls.__name__ for cls in GAME_TYPES if _fold_of(cls) is None] == ["ActionRecorded"]


def _fold_of(cls: type[GameEvent]) -> Any:
    from events import kinds

    return kinds._KINDS[cls].fold


def test_every_kind_name_is_one_types_alone() -> None:
    """A kind name is what logs, exports and the live streams (``event:`` of a server-sent
    event) call a type: a game event and an event (tournament) fact never share one."""
    from collections import Counter

    from events.schema import KINDS

    shared = [name for name, count in Counter(KINDS.values()).items() if count > 1]
    assert shared == []

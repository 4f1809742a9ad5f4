"""An event run through the pure core and kept as a stored record would hold it: what the
tests of the import's judge (``service.event_judge``) share, to build a record made by an
earlier version of the rules (a fact changed or appended by hand) and judge it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from events.tournament import to_stored
from referee.tournament import Tournament, decide, fold
from referee.tournament import facts as f


class Recorded:
    """``state`` (an event made by ``tests.tournament.helpers.event``) and every fact from
    its creation: its settings, its players in order, then what each ``step`` decides."""

    def __init__(self, state: Tournament) -> None:
        self.state = state
        self.facts: list[f.Fact] = (
            [f.EventCreated(settings=state.settings)] if state.settings else []
        )
        self.facts += [
            f.PlayerRegistered(player=e)
            for e in sorted(state.players.values(), key=lambda e: e.order)
        ]

    def step(self, command: Any) -> None:
        """``command`` decided on the event as it stands, its facts kept and folded."""
        self.append(*decide(self.state, command))

    def append(self, *facts: f.Fact) -> None:
        """``facts`` kept and folded as they are (one an earlier version would have made)."""
        self.facts.extend(facts)
        self.state = fold(facts, self.state)

    def stored(self, event_id: str, facts: Sequence[f.Fact] | None = None) -> list[Any]:
        """``facts`` (else the kept ones) as the stored events of ``event_id``, numbered
        from 1, for ``judge_event`` and ``fold_stored``."""
        when = datetime(2026, 11, 29, tzinfo=UTC)
        header = {"originator_id": event_id, "timestamp": when, "prev_hash": "", "hash": ""}
        record = self.facts if facts is None else facts
        return [to_stored(x, {**header, "originator_version": n}) for n, x in enumerate(record, 1)]

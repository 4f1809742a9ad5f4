"""Properties of the store over random legal PRIZMIK games (hypothesis).

- rebuilding a game from the store equals the state reached live;
- a rejected action leaves the position and every stored row as they were
  (only the rejection itself is added);
- export then import gives the same game, event for event;
- retracting then replaying gives the same positions as never having played.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.schema import ActionRejected
from events.store import GameStore
from referee import games
from referee.contract import Player
from service import RefereeService

RULES = games.load("prizmik")
PLAYERS = [Player("red", "Alice"), Player("blue", "Bob")]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def fresh_store() -> RefereeService:
    return RefereeService(GameStore(Path(tempfile.mkdtemp()) / "prop.db"))


def play_random(data: st.DataObject, max_actions: int) -> tuple[RefereeService, str, list[Any]]:
    """A fresh store with a game of random legal actions played through it: the store, the
    game's id and its live states."""
    store = fresh_store()
    view = store.create_game("prizmik", PLAYERS)
    return store, view.game_id, played(store, view, RULES, data, max_actions)


def played(
    store: RefereeService, view: Any, rules: Any, data: st.DataObject, max_actions: int
) -> list[Any]:
    """Up to ``max_actions`` random legal actions recorded in ``view``'s game until it ends;
    the live states, the first included."""
    states = [view.state]
    for _ in range(max_actions):
        if view.ended is not None:
            break
        options = list(rules.legal_actions(view.state))
        action = data.draw(st.sampled_from(options))
        assert store.record(view.game_id, rules.notation(action), view=view).accepted
        states.append(view.state)
    return states


def stored_rows(store: RefereeService, game_id: str) -> list[tuple[int, str, bytes]]:
    return [
        (r.originator_version, r.topic, r.state)
        for r in store.store.recorder.select_events(game_id)
    ]


@SETTINGS
@given(st.data(), st.integers(min_value=0, max_value=60))
def test_rebuild_from_store_equals_live_state(data: st.DataObject, length: int) -> None:
    store, game_id, states = play_random(data, length)
    rebuilt = store.load(game_id)
    assert rebuilt.state == states[-1]
    assert rebuilt.states == states  # every intermediate position too
    assert store.verify(game_id).bad == 0


@SETTINGS
@given(st.data(), st.integers(min_value=0, max_value=30))
def test_rejected_action_changes_nothing(data: st.DataObject, length: int) -> None:
    store, game_id, _ = play_random(data, length)
    view = store.load(game_id)
    legal = {RULES.notation(a) for a in RULES.legal_actions(view.state)}
    squares = [f"{f}{r}" for f in "abcdefgh" for r in "12345678"]
    origin = data.draw(st.sampled_from(squares))
    target = data.draw(st.sampled_from(squares))
    sign = data.draw(st.sampled_from([">", "-", "x"]))
    text = f"{origin}{sign}{target}"
    if text in legal:
        return
    before_rows = stored_rows(store, game_id)
    before = view.state
    result = store.record(game_id, text)
    assert not result.accepted
    after_rows = stored_rows(store, game_id)
    assert after_rows[:-1] == before_rows  # nothing earlier touched
    assert after_rows[-1][1] == "referee.ActionRejected.v1"
    reloaded = store.load(game_id)
    assert reloaded.state == before
    assert isinstance(reloaded.events[-1], ActionRejected)


@SETTINGS
@given(st.data(), st.integers(min_value=0, max_value=40))
def test_export_import_is_identity(data: st.DataObject, length: int) -> None:
    store, game_id, _ = play_random(data, length)
    if data.draw(st.booleans()):
        store.record(game_id, "a1-h8")  # a rejection in the record too
    view = store.load(game_id)
    folder = Path(tempfile.mkdtemp())
    for fmt in ("jsonl", "text"):
        path = folder / f"g.{fmt}"
        path.write_text("".join(store.export([game_id], fmt)))
        other = fresh_store()
        assert len(other.import_files([path]).imported) == 1
        copied = other.load(game_id)
        if fmt == "jsonl":
            assert stored_rows(other, game_id) == stored_rows(store, game_id)
        assert [type(e) for e in copied.events] == [type(e) for e in view.events]
        assert [getattr(e, "notation", None) for e in copied.events] == [
            getattr(e, "notation", None) for e in view.events
        ]


@SETTINGS
@given(st.data(), st.integers(min_value=1, max_value=30), st.integers(min_value=1, max_value=5))
def test_retraction_restores_earlier_positions(data: st.DataObject, length: int, back: int) -> None:
    store, game_id, states = play_random(data, length)
    played = len(states) - 1
    back = min(back, played)
    for _ in range(back):
        store.retract(game_id, "property test")
    view = store.load(game_id)
    assert view.state == states[played - back]
    assert view.ply == played - back
    with sqlite3.connect(str(store.store.app.env.get("SQLITE_DBNAME"))) as con:
        (count,) = con.execute("SELECT COUNT(*) FROM stored_events").fetchone()
    assert count == len(view.events)  # history grew; nothing was deleted


PRISMATA = games.load("prismata")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.data(), st.integers(min_value=0, max_value=120), st.integers(min_value=0, max_value=10_000)
)
def test_prismata_rebuild_from_store_equals_live_and_rejection_changes_nothing(
    data: st.DataObject, length: int, seed: int
) -> None:
    store = fresh_store()
    view = store.create_game(
        "prismata", [Player("p1", "Ann"), Player("p2", "Ben")], options={"seed": seed}
    )
    states = played(store, view, PRISMATA, data, length)
    rebuilt = store.load(view.game_id)
    assert rebuilt.states == states
    before_rows = stored_rows(store, view.game_id)
    result = store.record(view.game_id, "undo #9999")  # reads as an action; breaks a rule
    assert not result.accepted
    assert stored_rows(store, view.game_id)[:-1] == before_rows
    assert store.load(view.game_id).state == states[-1]
    assert store.verify(view.game_id).bad == 0

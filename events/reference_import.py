"""Importing games played by the independent Prismata reference engine.

Each engine action is converted to ours (``referee.prismata.reference``), then
judged and recorded through the same replay path as any entry, so a reference
game lands in the store exactly as if a referee had entered it. With
``compare``, each turn's position is checked against the file's snapshot and
the first difference per game is reported.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from events.codec import seal
from events.replay import GameView, judge
from events.schema import GENESIS_HASH, ActionRecorded, GameCreated, GameEnded, GameEvent
from events.store import GameStore


class ReferenceResult(msgspec.Struct, kw_only=True):
    source: str
    game_id: str | None = None
    actions: int = 0
    turns: int = 0
    agree: bool = True
    first_difference: str = ""
    result: str = "*"
    reference_result: str = "*"
    error: str = ""


def load_reference(path: Path) -> Mapping[str, Any]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        data: Mapping[str, Any] = json.load(handle)
    return data


def convert_reference(
    game: Mapping[str, Any], source: str, *, compare: bool, quirks: bool = True, by: str = ""
) -> tuple[list[GameEvent], ReferenceResult]:
    """The event stream of one reference game, every action judged by our rules."""
    import re

    from referee.prismata.reference import ReferenceImport

    result = ReferenceResult(source=source)
    # Without the engine's quirks the game is judged under our default rulings.
    imp = ReferenceImport(game, variants=None if quirks else {})
    stem = Path(source).name.split(".")[0]
    game_id = "prismata-ref-" + re.sub(r"[^a-z0-9_-]+", "-", stem.lower())
    when = datetime.now(UTC)
    base: dict[str, Any] = {"originator_id": game_id, "originator_version": 0, "timestamp": when, "prev_hash": ""}
    created = GameCreated(**base, game="prismata", ruleset=str(imp.setup.ruleset), variants=imp.setup.variants,
                          players=imp.setup.players, options=imp.setup.options, created_by=by,
                          imported_from=source)
    events: list[GameEvent] = []
    prev = GENESIS_HASH

    def add(event: GameEvent) -> GameEvent:
        nonlocal prev
        event = seal(msgspec.structs.replace(event, originator_version=len(events) + 1, prev_hash=prev))
        prev = event.hash
        events.append(event)
        return event

    view = GameView(add(created))  # type: ignore[arg-type]
    rules = view.rules
    if compare:
        diffs = imp.compare(game["initialState"])
        if diffs:
            result.agree, result.first_difference = False, "initial position: " + "; ".join(diffs[:5])
    for turn in game["turns"]:
        result.turns += 1
        for ours in imp.convert_turn(turn):
            text = rules.notation(ours)
            action, verdict = judge(view, text)
            if not verdict.legal:
                v = verdict.violations[0]
                raise ValueError(f"turn {turn['turn']}: {text!r}: {v.clause}: {v.reason}")
            view.fold(add(ActionRecorded(**base, seq=view.ply + 1, actor=str(rules.to_move(view.state)),
                                         action=msgspec.Raw(msgspec.json.encode(action)), notation=text,
                                         recorded_by=by)))
            result.actions += 1
        if compare and result.agree:
            diffs = imp.compare(turn["stateAfter"])
            if not diffs and view.state != imp.state:
                diffs = ["our stored replay differs from the converter's position"]
            if diffs:
                result.agree = False
                result.first_difference = f"after turn {turn['turn']}: " + "; ".join(diffs[:6])
    outcome = rules.outcome(view.state)
    if outcome.over:
        view.fold(add(GameEnded(**base, winner=outcome.winner, how="rule", clause=outcome.clause or "REF-3.1",
                                reason=outcome.reason, by=by)))
    result.result = view.result
    winner = game.get("winner")
    result.reference_result = (("p1", "p2")[winner] if winner is not None
                               else "draw" if game.get("gameOver") else "*")
    if compare and result.agree and result.result != result.reference_result:
        result.agree = False
        result.first_difference = f"result: ours {result.result}, reference {result.reference_result}"
    result.game_id = game_id
    return events, result


def import_reference_files(
    store: GameStore, files: list[Path], *, compare: bool, quirks: bool = True, by: str = "",
    progress: bool = True,
) -> list[ReferenceResult]:
    import sys

    import typer

    results: list[ReferenceResult] = []
    with typer.progressbar(files, label="importing", file=sys.stderr, hidden=not progress) as bar:
        for path in bar:
            try:
                events, result = convert_reference(load_reference(path), str(path), compare=compare,
                                                   quirks=quirks, by=by)
            except (ValueError, KeyError, OSError) as exc:
                results.append(ReferenceResult(source=str(path), agree=False, error=str(exc)))
                continue
            if store.exists(events[0].originator_id):
                result.error = f"game {events[0].originator_id} is already in the store"
                result.game_id = None
            else:
                store.insert_streams([events])
            results.append(result)
    return results

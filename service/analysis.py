"""The store as plain tables for analysis: ``referee export --sqlite FILE``.

One SQLite file, written with ``sqlite-utils``, that Datasette or any SQLite tool opens:
``games``, ``entries``, ``rejections``, ``disputes``, ``rulings``, ``penalties``,
``standings`` and ``log`` (every event as the line ``referee log`` prints, with
full-text search over it: ``log_fts``). It is a copy for reading, made from the events
as the viewer may see them (the referee's view by default); the store stays the record.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from events.schema import (
    ActionRecorded,
    ActionRejected,
    DisputeOpened,
    DisputeRuled,
    GameCreated,
    GameEnded,
    PenaltyIssued,
)
from projections.status import Outcome, outcome_after
from referee.contract import REFEREE, Viewer

if TYPE_CHECKING:
    from events.schema import GameEvent
    from events.store import GameStore
    from events.view import GameView


class _Games(Protocol):
    """What the analysis export asks of the game service (named here, not imported: the
    service imports this module)."""

    @property
    def store(self) -> GameStore: ...

    def log_events(
        self, ref: str, *, viewer: str | None = None
    ) -> tuple[GameView, list[GameEvent]]: ...


__all__ = ["TABLES", "AnalysisCounts", "write_analysis"]

TABLES = ("games", "entries", "rejections", "disputes", "rulings", "penalties", "standings", "log")
"""The tables of an analysis file, in the order they are written."""


class AnalysisCounts(msgspec.Struct, frozen=True):
    """How many rows each table of the written file holds."""

    path: str
    rows: dict[str, int]


def _when(event: GameEvent) -> str:
    return str(event.timestamp.isoformat())


def _reopens(game: dict[str, Any], event: Any) -> bool:
    """Whether ``event`` opens the ended ``game`` again: ``projections.status``'s one fold
    (a ruling voided the result, or a retraction undid the end by the rules, REF-6.2)."""
    return outcome_after(Outcome(how=game.get("how"), status="finished"), event).open


def _entry_row(
    at: dict[str, Any], event: ActionRecorded | ActionRejected, **columns: str
) -> dict[str, Any]:
    """The row of an entry, recorded or rejected: where it stands, its number and seat,
    ``columns`` (what was entered), and who recorded it."""
    return {
        **at,
        "seq": event.seq,
        "seat": event.actor,
        **columns,
        "recorded_by": event.recorded_by,
    }


def _game_rows(game_id: str, events: Iterable[GameEvent], lines: list[str]) -> dict[str, list[Any]]:
    """The rows of one game's events, table by table."""
    rows: dict[str, list[Any]] = {name: [] for name in TABLES}
    game: dict[str, Any] = {"game_id": game_id}
    for event, line in zip(events, lines, strict=True):
        at = {"game_id": game_id, "event": event.originator_version, "at": _when(event)}
        kind = type(event).__name__
        rows["log"].append({**at, "kind": kind, "line": line})
        if game.get("status") == "ended" and _reopens(game, event):
            game.update(status="open", winner=None, how=None, clause=None, ended_at=None)
        if isinstance(event, GameCreated):
            game.update(
                game=event.game,
                ruleset=event.ruleset,
                players=json.dumps({p.seat: p.name for p in event.players}),
                variants=json.dumps(event.variants),
                labels=json.dumps(event.meta),
                created_at=at["at"],
                status="open",
                winner=None,
                how=None,
                clause=None,
                ended_at=None,
                events=0,
                actions=0,
                rejections=0,
            )
        elif isinstance(event, ActionRecorded):
            game["actions"] = game.get("actions", 0) + 1
            rows["entries"].append(_entry_row(at, event, entry=event.notation))
        elif isinstance(event, ActionRejected):
            game["rejections"] = game.get("rejections", 0) + 1
            rows["rejections"].append(
                _entry_row(
                    at,
                    event,
                    text=event.text,
                    clauses=", ".join(v.clause for v in event.violations),
                    reasons="\n".join(v.reason for v in event.violations),
                )
            )
        elif isinstance(event, GameEnded):
            game.update(
                status="ended",
                winner=event.winner,
                how=str(event.how),
                clause=event.clause,
                ended_at=at["at"],
            )
        elif isinstance(event, DisputeOpened):
            rows["disputes"].append(
                {**at, "dispute": event.dispute, "on_event": event.event, "by": event.by}
                | {"claim": event.claim}
            )
        elif isinstance(event, DisputeRuled):
            rows["rulings"].append(
                {
                    **at,
                    "dispute": event.dispute,
                    "decision": str(event.decision),
                    "level": str(event.level),
                    "clause": event.clause,
                    "reason": event.reason,
                    "by": event.by,
                }
            )
        elif isinstance(event, PenaltyIssued):
            rows["penalties"].append(
                {
                    **at,
                    "seat": event.seat,
                    "penalty": str(event.penalty),
                    "infraction": event.infraction,
                    "reason": event.reason,
                    "by": event.by,
                }
            )
    game["events"] = len(rows["log"])
    rows["games"].append(game)
    return rows


def _check_replaceable(target: Path) -> None:
    """Refuse to replace an existing file that is not an earlier analysis export: the
    store itself (``--sqlite referee.db`` once replaced every stored event) or any other
    file. An earlier export (tables among :data:`TABLES` and the log's full-text ones), or
    an empty file, may be written again, so a refreshed export needs no ``rm`` first."""
    if not target.exists():
        return
    from events.backends import sqlite_table_names

    found = sqlite_table_names(str(target))
    tables = None if found is None else {t for t in found if not t.startswith("log_fts")}
    if tables is not None and "stored_events" in tables:
        raise ValueError(
            f"{target}: is an event store, left as it was; --sqlite writes a new file "
            "(name another one)"
        )
    if tables is None or not tables <= set(TABLES):
        raise ValueError(
            f"{target}: already exists and is not an earlier --sqlite export; it is left "
            "as it was (name a new file)"
        )


def write_analysis(
    svc: _Games,
    path: str | os.PathLike[str],
    viewer: Viewer = REFEREE,
    *,
    scoreboard: Callable[[], list[dict[str, Any]]],
) -> AnalysisCounts:
    """Write every game of the store, as ``viewer`` may see it, and the standings to a
    new SQLite file at ``path`` (written beside it and moved into place, so a failure
    leaves no half file). ``ValueError`` when ``path`` is a folder or its folder is missing."""
    import sqlite_utils

    from service.wording import event_line

    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{target}: is a folder; name a file")
    if not target.parent.exists():
        raise ValueError(f"{target}: the folder {target.parent} does not exist")
    _check_replaceable(target)
    try:
        handle, temp = tempfile.mkstemp(prefix=".referee-", suffix=".db", dir=target.parent)
    except OSError as exc:  # named the temporary file, not the one asked for
        raise ValueError(f"{target}: cannot be written ({exc.strerror or exc})") from None
    os.close(handle)
    counts = dict.fromkeys(TABLES, 0)
    try:
        db = sqlite_utils.Database(temp)
        keys: dict[str, str | tuple[str, ...]] = {
            "games": "game_id",
            "entries": ("game_id", "event"),
            "rejections": ("game_id", "event"),
            "disputes": ("game_id", "dispute"),
            "rulings": ("game_id", "event"),
            "penalties": ("game_id", "event"),
            "log": ("game_id", "event"),
        }
        for game_id in svc.store.game_ids():
            _, events = svc.log_events(game_id, viewer=viewer)
            lines = [event_line(e) for e in events]
            for name, rows in _game_rows(game_id, events, lines).items():
                if rows:
                    db[name].insert_all(rows, pk=keys[name], alter=True)  # type: ignore[union-attr]
                    counts[name] += len(rows)
        standings = scoreboard()
        if standings:
            rows = [
                {k: (json.dumps(v) if isinstance(v, dict | list) else v) for k, v in r.items()}
                for r in standings
            ]
            db["standings"].insert_all(rows, alter=True)  # type: ignore[union-attr]
            counts["standings"] = len(rows)
        for name in TABLES:  # every table exists, rows or not, so a query never misses one
            if not db[name].exists():
                db.execute(f'CREATE TABLE "{name}" (game_id TEXT)')
        if counts["log"]:
            db["log"].enable_fts(["line"], create_triggers=False)  # type: ignore[union-attr]
        for name, column in (("entries", "seat"), ("rejections", "clauses")):
            if counts[name]:
                db[name].create_index(["game_id"], if_not_exists=True)  # type: ignore[union-attr]
                db[name].create_index([column], if_not_exists=True)  # type: ignore[union-attr]
        db.close()
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)  # an ordinary file, not mkstemp's private one
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return AnalysisCounts(os.fspath(target), counts)

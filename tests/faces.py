"""Every face the service gives one viewer of a game, as text: for the tests that look for a
card or a secret in all of them at once (REF-5.2, REF-6.6), so a face added here is searched
by each of them."""

from __future__ import annotations

import html
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from referee.capabilities import reports_of
from service import RefereeService


def _same(value: Any) -> Any:
    return value


def service_faces(
    svc: RefereeService,
    game_id: str,
    viewer: str,
    sqlite_path: Path,
    *,
    record: Callable[[dict[str, Any]], Any] = _same,
    text: Callable[[str], str] = _same,
) -> dict[str, str]:
    """The log, the text record, both replays, the position (data and drawing), the game's
    reports and the analysis export (an SQLite file written at ``sqlite_path``), each as
    ``viewer`` reads it; ``record`` and ``text`` may leave out of the log's records and of the
    text record what a test does not search (a game's public catalog)."""
    faces = {
        "log": json.dumps([record(r) for r in svc.log(game_id, viewer=viewer)]),
        "text": text("".join(svc.export([game_id], "text", viewer))),
        "replay": json.dumps([msgspec.to_builtins(f) for f in svc.replay(game_id, viewer=viewer)]),
        "session": json.dumps(
            [msgspec.to_builtins(f) for f in svc.replay(game_id, session=True, viewer=viewer)]
        ),
        "position": json.dumps(msgspec.to_builtins(svc.position(game_id, viewer=viewer))),
        "svg": html.unescape(svc.position_svg(game_id, viewer=viewer)),
    }
    reports = reports_of(svc.load(game_id).rules)
    for name in reports.reports if reports is not None else ():
        report = svc.report(game_id, name, viewer=viewer)
        faces[f"report {name}"] = report.text + json.dumps(report.data)
    svc.export_sqlite(sqlite_path, viewer)
    with sqlite3.connect(sqlite_path) as db:
        faces["sqlite"] = "\n".join(db.iterdump())
    return faces

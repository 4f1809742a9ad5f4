"""What the pages show, built from the service's answers for one viewer: the table's
panel (drawing, whose turn, legal entries, the log) and the replay's frames.

Shared by the pages (``web.pages``) and the self-contained replay file
(``web.export``), so both show the same thing.
"""

from __future__ import annotations

from typing import Any

import msgspec

from referee.contract import REFEREE, Viewer
from referee.drawings import has_drawing
from referee.rulebook import find_clause
from service.app import RefereeService
from service.results import PositionView
from service.wording import event_line
from web.boards import render_board

__all__ = ["INCIDENTS", "panel", "replay_data", "status_line"]

INCIDENTS = {
    "rejected": "rejection",
    "retracted": "correction",
    "dispute": "dispute",
    "appeal": "dispute",
    "ruling": "ruling",
    "voided": "correction",
    "adjustment": "correction",
    "penalty": "ruling",
}


def status_line(pos: PositionView) -> str:
    """Whose turn it is, or how the game ended."""
    if pos.ended is not None:
        return f"game over: {pos.ended.line()}"
    if pos.pending_rulings:
        awaited = pos.pending_rulings[0]
        return f"a ruling on {awaited.rulings[0].card} is awaited (event {awaited.event})"
    if not pos.to_act:
        return "no seat may act"
    names = [f"{seat} ({pos.players.get(seat, '')})" for seat in pos.to_act]
    return f"{names[0]} to act" if len(names) == 1 else f"{', '.join(names)} may act"


def panel(svc: RefereeService, game_id: str, viewer: Viewer, *, legal: bool) -> dict[str, Any]:
    """The table page's live part: the drawing, the status, the legal entries (only
    when the caller may see them), the last events."""
    view = svc.load(game_id)
    pos = svc.position(view, viewer=viewer)
    _, events = svc.log_events(view.game_id, viewer=viewer)
    allowed = svc.legal(view.game_id) if legal and pos.ended is None else None
    actions = allowed.actions if allowed is not None else []
    awaited = allowed.awaited if allowed is not None else None
    return {
        "game_id": pos.game_id,
        "version": pos.version,
        "status": status_line(pos),
        "over": pos.ended is not None,
        "to_act": pos.to_act,
        "board": render_board(
            pos.game,
            pos.position,
            players=pos.players,
            last=pos.last_action,
            text=pos.board,
            svg=svc.position_svg(pos) if has_drawing(pos.game) else None,
        ),
        "last": pos.last_action or "",
        "legal": actions[:400],
        "awaited": awaited.message if awaited is not None else "",
        "awaited_card": awaited.card if awaited is not None else "",
        "awaited_event": awaited.event if awaited is not None else None,
        "legal_total": len(actions),
        "log": [
            {"event": e.originator_version, "line": event_line(e)} for e in reversed(events[-40:])
        ],
    }


def _clause_text(game: str, clause: str) -> str:
    try:
        found = find_clause(clause, game)
    except LookupError:
        return ""
    return f"{found.title}: {found.text}"


def replay_data(svc: RefereeService, game_id: str, viewer: Viewer = REFEREE) -> dict[str, Any]:
    """Every frame of the table's session (the start, then the position after each
    action, correction and adjustment), each drawn, with the events that led to it
    and the clauses they cite."""
    view = svc.load(game_id)
    start = svc.position(view, at=0, viewer=viewer)
    log = svc.log(view.game_id, viewer=viewer)
    frames_in = svc.replay(view.game_id, session=True, viewer=viewer) if view.version > 1 else []
    clauses: dict[str, str] = {}

    def cite(clause: str) -> None:
        if clause and clause not in clauses:
            clauses[clause] = _clause_text(view.game, clause)

    frames: list[dict[str, Any]] = [
        {
            "event": 1,
            "ply": 0,
            "what": "the starting position",
            "notes": [],
            "incidents": [],
            "events": [],
            "board": render_board(
                view.game,
                start.position,
                players=start.players,
                text=start.board,
                viewer=start.viewer,
            ),
        }
    ]
    previous = 1
    for frame in frames_in:
        around = [e for e in log if previous < e["originator_version"] <= frame.event]
        incidents = sorted({INCIDENTS[e["kind"]] for e in around if e["kind"] in INCIDENTS})
        cited: list[dict[str, str]] = []
        for e in around:
            for v in e.get("violations", []) or []:
                cite(v["clause"])
                cited.append(
                    {
                        "event": str(e["originator_version"]),
                        "clause": v["clause"],
                        "why": v["reason"],
                    }
                )
            if e["kind"] in ("ruling", "ended") and e.get("clause"):
                cite(e["clause"])
                cited.append(
                    {
                        "event": str(e["originator_version"]),
                        "clause": e["clause"],
                        "why": e.get("reason", ""),
                    }
                )
        is_action = frame.what[:1].isdigit()
        frames.append(
            {
                "event": frame.event,
                "ply": frame.ply,
                "what": frame.what,
                "notes": frame.notes + frame.disputes,
                "incidents": incidents,
                "events": cited,
                "board": render_board(
                    view.game,
                    frame.position,
                    players=start.players,
                    last=frame.what if is_action else None,
                    text=frame.board,
                    viewer=start.viewer,
                ),
            }
        )
        previous = frame.event
    final = svc.position(view, viewer=viewer)
    return {
        "game_id": view.game_id,
        "game": view.game,
        "title": view.rules.title,
        "ruleset": view.created.ruleset,
        "players": start.players,
        "viewer": viewer,
        "status": status_line(final),
        "frames": frames,
        "clauses": clauses,
        "meta": dict(getattr(view.created, "meta", {}) or {}),
    }


def to_json(data: Any) -> str:
    """JSON safe to put inside a ``<script>`` element."""
    text = msgspec.json.encode(data).decode()
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")

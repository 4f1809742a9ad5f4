"""What the table page shows, built from the service's answers for one viewer: the
drawing, whose turn, the legal entries, the log. The replay's frames are the service's
(``service.replay``), shared with the self-contained replay file."""

from __future__ import annotations

from typing import Any

from referee.contract import Viewer
from referee.drawings import has_drawing
from service.api import render_position, status_line
from service.app import RefereeService
from service.wording import event_line

__all__ = ["panel"]


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
        "board": render_position(pos, svg=svc.position_svg(pos) if has_drawing(pos.game) else None),
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

"""The replay document: every frame of a game's session drawn for one viewer, and the
self-contained HTML file of it (``referee export GAME --format html``, the pages'
replay and its "save as one file"), for sharing a game after the event.

It is built from the service's viewer-aware queries, so a file for the public carries
no hidden card. Every face calls it here (the command line and the HTTP face import
no face): the page templates and static files it inlines are the package data of the
web pages (``web/templates``, ``web/static``), read by name, so the file looks exactly
like the page. Needs the web extra (Jinja).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import jinja2
import msgspec

from referee.contract import REFEREE, Viewer
from referee.rulebook import find_clause
from service.app import RefereeService
from service.boards import render_board, render_position
from service.results import PositionView

__all__ = [
    "INCIDENTS",
    "environment",
    "replay_data",
    "replay_html",
    "static_text",
    "status_line",
    "to_json",
]

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


@cache
def environment() -> jinja2.Environment:
    """The pages' templates (autoescaped)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("web", "templates"),
        autoescape=True,
        auto_reload=False,  # a served page never checks its template files' times again
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["percent"] = percent
    return env


def percent(fraction: str | None) -> str:
    """An exact fraction ``n/d`` shown as a percentage with one decimal (display only);
    a figure that has none (``None``: a player who has played no round, EV-I.3) is "–"."""
    if fraction is None:
        return "–"
    top, _, bottom = str(fraction).partition("/")
    try:
        return f"{100 * int(top) / int(bottom or 1):.1f}"
    except (ValueError, ZeroDivisionError):
        return str(fraction)


@cache
def static_text(name: str) -> str:
    """A file of ``web/static`` as text (for inlining)."""
    return resources.files("web").joinpath("static", name).read_text(encoding="utf-8")


def replay_html(
    svc: RefereeService,
    game_id: str,
    viewer: Viewer = REFEREE,
    *,
    standalone: bool = True,
    **context: object,
) -> str:
    """The replay viewer of ``game_id`` as ``viewer`` sees it, as one HTML document.
    ``context`` is what the page around it needs (the pages' signed-in viewer).
    """
    data = replay_data(svc, game_id, viewer)
    return (
        environment()
        .get_template("replay.html")
        .render(
            d=data,
            data_json=to_json(data),
            inline=True,
            css=static_text("app.css"),
            js=static_text("replay.js"),
            standalone=standalone,
            **context,
        )
    )


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
            "board": render_position(start),
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


def to_json(data: object) -> str:
    """JSON safe to put inside a ``<script>`` element."""
    text = msgspec.json.encode(data).decode()
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")

"""The replay viewer as one self-contained HTML file: every frame drawn, the
styles and the script inline, no request to any server (``referee export GAME
--format html``), for sharing a game after the event.

The file shows the game as ``viewer`` may see it: an export for the public
carries no hidden card, because every frame and every line in it comes from the
service's viewer-aware queries.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import jinja2

from referee.contract import REFEREE, Viewer
from service.app import RefereeService
from web.views import replay_data, to_json

__all__ = ["environment", "replay_html", "static_text"]


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


def percent(fraction: str) -> str:
    """An exact fraction ``n/d`` shown as a percentage with one decimal (display only)."""
    top, _, bottom = str(fraction).partition("/")
    try:
        return f"{100 * int(top) / int(bottom or 1):.1f}"
    except (ValueError, ZeroDivisionError):
        return str(fraction)


@cache
def static_text(name: str) -> str:
    """A file of ``web/static`` as text (for inlining)."""
    return resources.files("web").joinpath("static", name).read_text(encoding="utf-8")


ROLE_WORDS = {
    "head": "head referee",
    "table": "table referee",
    "scorekeeper": "scorekeeper",
    "player": "player",
    "public": "public",
}


def render(template: str, **context: Any) -> str:
    """A page from its template, with what every page needs."""
    context.setdefault("role_words", ROLE_WORDS)
    return environment().get_template(template).render(**context)


def replay_html(
    svc: RefereeService,
    game_id: str,
    viewer: Viewer = REFEREE,
    *,
    standalone: bool = True,
    **context: Any,
) -> str:
    """The replay viewer of ``game_id`` as ``viewer`` sees it, as one HTML document."""
    data = replay_data(svc, game_id, viewer)
    return render(
        "replay.html",
        d=data,
        data_json=to_json(data),
        inline=True,
        css=static_text("app.css"),
        js=static_text("replay.js"),
        standalone=standalone,
        **context,
    )

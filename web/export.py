"""The pages' templates, rendered with what every page needs. The templates and the
Jinja environment are shared with the self-contained replay file (``service.replay``).
"""

from __future__ import annotations

from typing import Any

from service.api import environment

__all__ = ["ROLE_WORDS", "render"]


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

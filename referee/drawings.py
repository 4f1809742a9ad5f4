"""Every game's board as one standalone SVG, for every face.

``draw(game, position, viewer=..., players=..., last=...)`` hands the position, with a
``Sight`` of the other three (``referee.kit.svg``), to the game's own drawing module,
``<package>.drawing`` beside its rules (the way python-chess keeps ``chess.svg`` apart
from the board logic), imported only when first asked for. ``position`` is what the
game's ``observe(state, viewer)`` returned for that viewer, so a drawing can only show
what its viewer may see: a hidden hand is a count there, and so a row of card backs here.

A game with no drawing module (a test game, say) gets a plain drawing of the
position's scalar fields, so every face can always show something.

Pure: no storage, no faces; the same arguments give the same text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from importlib import import_module
from typing import Any

from referee import games
from referee.kit.svg import Canvas, Sight, short

__all__ = ["Drawer", "draw", "drawer_of", "has_drawing"]

Drawer = Callable[[Mapping[str, Any], Sight], str]
"""``draw(position, sight) -> str`` of one game's drawing module."""

BUILT_IN = {name: f"referee.games.{name}.drawing" for name in games.BUILT_IN}
"""Each shipped game's drawing module, found without importing its rules."""


@cache
def drawer_of(game: str) -> Drawer | None:
    """The ``draw`` function of ``game``'s drawing module, or ``None`` when it has none."""
    name = game.strip().lower()
    module_name = BUILT_IN.get(name)
    if module_name is None:
        from referee.errors import UnknownGameError

        try:
            module_name = f"{games.package_of(name)}.drawing"
        except UnknownGameError:
            return None
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return None
    found: Drawer | None = getattr(module, "draw", None)
    return found


def has_drawing(game: str) -> bool:
    """Whether ``game`` draws its own board (else ``draw`` gives the plain drawing)."""
    return drawer_of(game) is not None


def draw(
    game: str,
    position: Mapping[str, Any],
    *,
    viewer: str,
    players: Mapping[str, str],
    last: str | None = None,
) -> str:
    """``position`` (``observe`` output for ``viewer``) drawn as a standalone SVG document."""
    drawer = drawer_of(game)
    sight = Sight(viewer, players, last)
    if drawer is None:
        return plain(game, position, sight)
    return drawer(position, sight)


def plain(game: str, position: Mapping[str, Any], sight: Sight) -> str:
    """A game without a drawing of its own: its players, the last entry and the
    position's scalar fields as lines of text."""
    viewer, players, last = sight
    lines = [f"{seat}: {name}" for seat, name in players.items()]
    if last:
        lines.append(f"last: {last}")
    lines += [
        f"{key}: {value}"
        for key, value in position.items()
        if isinstance(value, str | int | float | bool) or value is None
    ]
    canvas = Canvas()
    width, step = 420, 20
    canvas.rect(0, 0, width, 16 + step * max(1, len(lines)), fill="#fafafa", stroke="#cfd8dc")
    for index, line in enumerate(lines):
        canvas.text(10, 24 + index * step, short(line, 60), 13, fill="#263238")
    return canvas.finish(
        game=game,
        title=f"{game} position as {viewer}",
        width=width,
        height=16 + step * max(1, len(lines)),
        viewer=viewer,
    )

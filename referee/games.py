"""The registry of games, found by name and imported only when asked for."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

from referee.core import GameRules
from referee.errors import UnknownGameError

_REGISTRY: dict[str, str] = {
    "prizmik": "referee.prizmik:PrizmikRules",
    "prismata": "referee.prismata:PrismataRules",
}


def names() -> list[str]:
    """Names of every registered game, whether or not its module is installed."""
    return sorted(_REGISTRY)


@cache
def load(name: str) -> GameRules[Any, Any]:
    """The rules object of game ``name`` (for example ``load("prizmik")``)."""
    key = name.strip().lower()
    try:
        target = _REGISTRY[key]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r}; known games: {', '.join(names())}"
        ) from None
    module_name, _, attr = target.partition(":")
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise UnknownGameError(f"game {name!r} is not implemented yet") from exc
        raise
    rules_class = getattr(module, attr)
    rules: GameRules[Any, Any] = rules_class()
    return rules

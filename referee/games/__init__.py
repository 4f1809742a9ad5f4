"""The registry of games, found by name and imported only when asked for.

Each game is a package ``referee.games.<name>`` holding its rules object and its
``rulebook.toml``. ``register`` adds a game from elsewhere (the test games do).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

from referee.contract import GameRules
from referee.errors import UnknownGameError

_REGISTRY: dict[str, str] = {
    "prizmik": "referee.games.prizmik:PrizmikRules",
    "prismata": "referee.games.prismata:PrismataRules",
    "prismatic": "referee.games.prismatic:PrismaticRules",
    "crystale": "referee.games.crystale:CrystaleRules",
    "gammasphere": "referee.games.gammasphere:GammasphereRules",
}


def names() -> list[str]:
    """Names of every registered game."""
    return sorted(_REGISTRY)


def register(name: str, target: str) -> None:
    """Register ``module:Class`` as game ``name`` (its package must hold ``rulebook.toml``)."""
    _REGISTRY[name] = target
    load.cache_clear()


def registered() -> dict[str, str]:
    """Every game's name and ``module:Class`` (to register the same games elsewhere)."""
    return dict(_REGISTRY)


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)
    load.cache_clear()


def package_of(name: str) -> str:
    """The package holding game ``name``'s rules and rulebook."""
    try:
        module_name = _REGISTRY[name.strip().lower()].partition(":")[0]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r}; known games: {', '.join(names())}"
        ) from None
    module = import_module(module_name)
    return module_name if hasattr(module, "__path__") else module_name.rpartition(".")[0]


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
    module = import_module(module_name)
    rules: GameRules[Any, Any] = getattr(module, attr)()
    return rules

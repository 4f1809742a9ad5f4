"""The registry of games, found by name and imported only when asked for, and the layout
every game package follows.

Each game is a package ``referee.games.<name>`` holding its rules object and its
``rulebook.toml``. ``register`` adds a game from elsewhere (the test games do);
``BUILT_IN`` names the shipped ones.

A new game is one line in ``_REGISTRY`` and its package; the contract suite
(``tests/contract``: scripted cases in ``tests/<name>/contract.py``, the rulebook checks,
golden drawings) then holds it to what every game does (docs/architecture.md, "A game
kit").

The layout of a game package
----------------------------
Every package has the same modules, each with the same job in every game, so what is
looked for in one game is found under the same name in the others:

``model.py``
    The state, the actions (a tagged union of structs) and the game's value types. The
    other modules name the entry types through it (``model.Strike``: a dispatch key, an
    annotation, an entry made), importing by name what they use throughout (the state).
``notation.py``
    ``parse(text)`` and ``notation(action)``: the entry notation, both ways; where entries
    name cards or units, ``read_entry(state, text)`` matches them to the catalog's
    spelling and refuses an unknown name with the closest ones. PRIZMIK's position
    strings live here too.
``checks.py``
    ``check(state, action, seat)``: legal, needing a ruling, or the clauses broken, each
    with a reason in plain words (hidden names kept for the seat that may read them).
    One named check per kind of entry, declared in the table ``ENTRY_CHECKS``
    (``referee.kit.dispatch``) that ``check`` looks the entry up in.
``engine.py``
    ``apply(state, action, seat)`` (never checks: replay calls it), ``to_act(state)`` and
    ``outcome(state)``; one named effect per kind of entry, in ``ENTRY_EFFECTS``.
``legal.py``
    ``legal_actions(state, seat)``: every legal action (up to interchangeable choices).
``view.py``
    ``render`` and ``observe`` (the position as each viewer may see it), ``secrets`` (what
    only a seat may see) and, where entries can carry hidden names, ``shown_text``.
``rules.py``
    The rules class: a ``ModularRules`` (``referee.games.base``) wired from the modules
    above, declaring the game (name, seats, rulesets, variants, setup fields) and keeping
    only what is its own: its setup and, through ``referee.capabilities``, the optional
    capabilities it offers.

and, where the game has them:

``adjust.py``
    ``check_change`` and ``apply_change``: the referee's adjustments (REF-6.3), one named
    check and effect per primitive change, in the tables ``CHANGE_CHECKS`` and
    ``CHANGE_EFFECTS`` (``referee.kit.adjustments.change_tables``).
``catalog.py`` (and ``catalogs/``)
    Catalog files: their schema, reading and checking, the shipped examples.
``decks.py``
    Deck construction and what a seat can show of its registered cards.
``position.py``
    Reading and updating a position: the lookups and small state changes that
    ``checks``, ``engine`` and ``adjust`` share.

plus clearly game-specific modules: ``board.py`` (PRIZMIK's squares and tables, Crystale's
hex geometry), ``effects.py`` (Crystale's crystal effects), ``motes.py`` and
``scoring.py`` (Prismatic's motes and score chart), ``reference.py`` (Prismata's reference
engine games).

The modules read ``model`` and one another without a cycle, and ``rules`` alone wires
them together; nothing inside ``referee/`` imports in a circle.
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

BUILT_IN: tuple[str, ...] = tuple(_REGISTRY)
"""The games this project ships, in the order the README and ``referee new --help`` name
them. Every list of games (the drawings, the tests that go through each game, the help
text) is derived from this, so a game added above is in all of them at once."""


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

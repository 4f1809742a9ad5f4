"""``ModularRules``: a game's rules object wired from the modules of its package.

Every game package has the same modules (see ``referee.games``): ``notation`` reads and
writes entries, ``checks`` judges them, ``engine`` carries them out and says who acts and
how the game stands, ``legal`` lists them, ``view`` shows a position to each viewer.
``GameParts.of`` takes those modules; ``ModularRules`` supplies the contract's methods
from them, so a game's rules class keeps only its declarations (name, seats, variants,
setup fields) and what is truly its own (its setup, its position strings).

A game's rules class states nothing the layout already says: ``ModularRules`` finds its
``parts`` in the modules of the class's own package (``GameParts.of_package``), and its
``state_type`` and ``action_type`` in the ``ModularRules[State, Action]`` it subclasses,
where every game wrote the same wiring and named its two types a second time.

The forwarding costs nothing on the hot paths: when a game does not override a
forwarded method, the instance carries the module's function itself under that name,
so ``rules.check(...)`` calls ``checks.check(...)`` with no frame in between.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, get_args, get_origin

import msgspec

from referee.contract import REFEREE, GameRules, Viewer
from referee.outcomes import Outcome
from referee.verdicts import Verdict

if TYPE_CHECKING:
    from referee.rulebook import Rulebook

__all__ = ["GameParts", "ModularRules"]

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class GameParts(msgspec.Struct, Generic[StateT, ActionT], frozen=True, kw_only=True):
    """The functions of a game's modules that the contract's methods forward to."""

    parse: Callable[[str], ActionT]
    notation: Callable[[ActionT], str]
    check: Callable[[StateT, ActionT, str | None], Verdict]
    apply: Callable[[StateT, ActionT, str | None], StateT]
    outcome: Callable[[StateT], Outcome]
    to_act: Callable[[StateT], frozenset[str]]
    legal_actions: Callable[[StateT, str | None], Sequence[ActionT]]
    render: Callable[[StateT, Viewer], str]
    observe: Callable[[StateT, Viewer], dict[str, Any]]
    secrets: Callable[[StateT, str], frozenset[str]]
    read_entry: Callable[[StateT, str], ActionT] | None = None
    shown_text: Callable[[str, str | None, Viewer], str] | None = None

    @classmethod
    def of(cls, modules: Mapping[str, ModuleType]) -> GameParts[Any, Any]:
        """The parts from the game's modules, keyed by the layout's module names: each
        part is the function of its name in its module (``_SOURCES``); ``read_entry`` and
        ``shown_text`` may be missing."""
        found: dict[str, Any] = {
            part: getattr(modules[module], part, None)
            if part in _OPTIONAL
            else getattr(modules[module], part)
            for part, module in _SOURCES.items()
        }
        return GameParts(**found)

    @classmethod
    def of_package(cls, package: str) -> GameParts[Any, Any]:
        """The parts from the modules of the game package ``package``, by the layout's
        module names (``referee.games``: the layout of a game package)."""
        return cls.of({name: import_module(f"{package}.{name}") for name in _LAYOUT})


# Each part, named as the function that provides it, and the module of the layout it is in.
_SOURCES = {
    "parse": "notation",
    "notation": "notation",
    "read_entry": "notation",
    "check": "checks",
    "apply": "engine",
    "outcome": "engine",
    "to_act": "engine",
    "legal_actions": "legal",
    "render": "view",
    "observe": "view",
    "secrets": "view",
    "shown_text": "view",
}
_OPTIONAL = frozenset({"read_entry", "shown_text"})
_LAYOUT = tuple(dict.fromkeys(_SOURCES.values()))  # notation, checks, engine, legal, view


FORWARDED = GameParts.__struct_fields__


class ModularRules(GameRules[StateT, ActionT]):
    """Rules whose contract methods come from the game's modules (``parts``)."""

    parts: ClassVar[GameParts[Any, Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wire a game's rules class from its package: its ``parts`` from the package's
        modules, unless it names its own (or inherits them from a game's rules class), and
        ``state_type`` and ``action_type`` from the ``ModularRules[State, Action]`` it
        subclasses, so the class names each of them once."""
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "parts"):
            cls.parts = GameParts.of_package(cls.__module__.rpartition(".")[0])
        for base in cls.__dict__.get("__orig_bases__", ()):
            if get_origin(base) is ModularRules:
                cls.state_type, cls.action_type = get_args(base)

    def __init__(self) -> None:
        self._parts: GameParts[StateT, ActionT] = self.parts
        own = type(self)
        for name in FORWARDED:
            function = getattr(self._parts, name)
            if function is not None and getattr(own, name) is getattr(ModularRules, name):
                self.__dict__[name] = function  # not overridden: the module's own function

    def parse(self, text: str) -> ActionT:
        return self._parts.parse(text)

    def notation(self, action: ActionT) -> str:
        return self._parts.notation(action)

    def check(self, state: StateT, action: ActionT, seat: str | None = None) -> Verdict:
        return self._parts.check(state, action, seat)

    def apply(self, state: StateT, action: ActionT, seat: str | None = None) -> StateT:
        return self._parts.apply(state, action, seat)

    def outcome(self, state: StateT) -> Outcome:
        return self._parts.outcome(state)

    def to_act(self, state: StateT) -> frozenset[str]:
        return self._parts.to_act(state)

    def legal_actions(self, state: StateT, seat: str | None = None) -> Sequence[ActionT]:
        return self._parts.legal_actions(state, seat)

    def render(self, state: StateT, viewer: Viewer = REFEREE) -> str:
        return self._parts.render(state, viewer)

    def observe(self, state: StateT, viewer: Viewer = REFEREE) -> dict[str, Any]:
        return self._parts.observe(state, viewer)

    def secrets(self, state: StateT, seat: str) -> frozenset[str]:
        return self._parts.secrets(state, seat)

    def read_entry(self, state: StateT, text: str) -> ActionT:
        reader = self._parts.read_entry
        return self.parse(text) if reader is None else reader(state, text)

    def shown_text(self, text: str, seat: str | None, viewer: Viewer) -> str:
        shown = self._parts.shown_text
        return text if shown is None else shown(text, seat, viewer)

    def decode_action(self, data: bytes) -> ActionT:
        """An action from its stored JSON form."""
        action: ActionT = msgspec.json.decode(data, type=self.action_type)
        return action

    def rulebook(self) -> Rulebook:
        """This game's rulebook (``referee.rulebook``, read when first asked for)."""
        from referee.rulebook import load_rulebook

        return load_rulebook(self.name)

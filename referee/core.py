"""The game contract: what every game's rules object offers, and its value types.

Everything here is pure: states and actions go in, verdicts and new states come
out. Storage, the command line and projections live in other packages and are
never imported from ``referee``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Literal, TypeVar

import msgspec

from referee.errors import SetupError, VariantError

__all__ = [
    "LEGAL",
    "ONGOING",
    "GameRules",
    "Outcome",
    "Player",
    "Setup",
    "VariantOption",
    "Verdict",
    "Violation",
]


class Violation(msgspec.Struct, frozen=True, gc=False):
    """One broken clause: its id and a plain-words reason naming pieces and squares."""

    clause: str
    reason: str


class Verdict(msgspec.Struct, frozen=True, gc=False):
    """The result of checking an action: legal when there are no violations."""

    violations: tuple[Violation, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.violations

    def __bool__(self) -> bool:
        return not self.violations

    @classmethod
    def illegal(cls, clause: str, reason: str) -> Verdict:
        return cls((Violation(clause, reason),))


LEGAL = Verdict()


class Outcome(msgspec.Struct, frozen=True, gc=False):
    """Whether a game goes on, and if not who won (or a draw) by which clause."""

    status: Literal["ongoing", "win", "draw"] = "ongoing"
    winner: str | None = None
    clause: str | None = None
    reason: str = ""

    @property
    def over(self) -> bool:
        return self.status != "ongoing"

    @property
    def result(self) -> str:
        """Short result text: ``red``, ``draw``, or ``*`` while ongoing."""
        if self.status == "win":
            return str(self.winner)
        return "draw" if self.status == "draw" else "*"


ONGOING = Outcome()


class Player(msgspec.Struct, frozen=True, gc=False):
    """A seat at the table (``red``, ``p1``, ...) and the person sitting in it."""

    seat: str
    name: str


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """Everything needed to start a game, recorded whole in its first event.

    ``ruleset`` of ``None`` means the game's default; ``variants`` holds only the
    switches the table chose (the rules fill in defaults); ``options`` carries
    game-specific setup such as a random seed or a list of units.
    """

    players: tuple[Player, ...]
    ruleset: str | None = None
    variants: dict[str, str] = {}
    options: dict[str, Any] = {}


class VariantOption(msgspec.Struct, frozen=True, kw_only=True):
    """A ruling a table may choose when the game is created."""

    key: str
    default: str
    choices: tuple[str, ...] = ()
    clause: str
    summary: str

    def validate(self, value: str) -> str:
        if self.choices and value not in self.choices:
            raise VariantError(
                f"variant {self.key}={value!r} is not offered; choose one of: "
                + ", ".join(self.choices)
            )
        return value


StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class GameRules(ABC, Generic[StateT, ActionT]):
    """The rules of one game. Subclasses are stateless and safe to share.

    ``check`` validates; ``apply`` never does (replay calls it on actions that
    were checked when they were recorded). States carry their ruleset and
    variant choices, so every method needs only the state.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    seats: ClassVar[tuple[str, ...]]
    rulesets: ClassVar[tuple[str, ...]]
    variant_options: ClassVar[tuple[VariantOption, ...]] = ()
    action_type: ClassVar[Any]
    state_type: ClassVar[Any]

    # -- setup -----------------------------------------------------------
    def resolve_setup(self, setup: Setup) -> Setup:
        """Return ``setup`` completed with defaults, or raise if it cannot start a game."""
        seats = tuple(p.seat for p in setup.players)
        if sorted(seats) != sorted(self.seats) or len(set(seats)) != len(seats):
            raise SetupError(
                f"{self.name} is played by seats {', '.join(self.seats)}; got {', '.join(seats) or 'none'}"
            )
        ruleset = setup.ruleset or self.rulesets[0]
        if ruleset not in self.rulesets:
            raise SetupError(
                f"unknown ruleset {ruleset!r} for {self.name}; known: {', '.join(self.rulesets)}"
            )
        order = {seat: i for i, seat in enumerate(self.seats)}
        players = tuple(sorted(setup.players, key=lambda p: order[p.seat]))
        return Setup(
            players=players,
            ruleset=ruleset,
            variants=self.resolve_variants(setup.variants),
            options=dict(setup.options),
        )

    def resolve_variants(self, chosen: Mapping[str, str]) -> dict[str, str]:
        """Validate chosen variant switches and fill in every default."""
        known = {v.key: v for v in self.variant_options}
        for key in chosen:
            if key not in known:
                offered = ", ".join(known) or "none"
                raise VariantError(f"{self.name} has no variant {key!r}; offered: {offered}")
        return {k: v.validate(chosen.get(k, v.default)) for k, v in known.items()}

    @abstractmethod
    def initial_state(self, setup: Setup) -> StateT:
        """The position before the first action."""

    # -- play ------------------------------------------------------------
    @abstractmethod
    def to_move(self, state: StateT) -> str | None:
        """The seat whose action is expected, or ``None`` when the game is over."""

    @abstractmethod
    def legal_actions(self, state: StateT) -> Sequence[ActionT]:
        """Every legal action in ``state`` (empty once the game is over)."""

    @abstractmethod
    def check(self, state: StateT, action: ActionT) -> Verdict:
        """Legal, or the clauses ``action`` breaks in ``state`` with reasons."""

    @abstractmethod
    def apply(self, state: StateT, action: ActionT) -> StateT:
        """The state after ``action``; no checks, ``state`` is left untouched."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome:
        """Ongoing, or the winner or a draw with the deciding clause."""

    # -- notation --------------------------------------------------------
    @abstractmethod
    def parse(self, text: str) -> ActionT:
        """Read an action; raise ``ActionSyntaxError`` naming the notation clause."""

    @abstractmethod
    def notation(self, action: ActionT) -> str:
        """Canonical text of ``action``: ``parse(notation(a)) == a``."""

    # -- presentation ----------------------------------------------------
    @abstractmethod
    def render(self, state: StateT) -> str:
        """The position drawn as plain text for a terminal."""

    def describe(self, state: StateT) -> dict[str, Any]:
        """The position as JSON-ready data (``show --json``)."""
        data = msgspec.to_builtins(state)
        assert isinstance(data, dict)
        return data

    def rulebook(self) -> Any:
        """This game's rulebook (see ``referee.rulebook``)."""
        from referee.rulebook import load_rulebook

        return load_rulebook(self.name)

"""What a game may offer beyond the contract every game keeps (``referee.contract``).

``GameRules`` holds what every game must have: setup, play, notation and views. The
rest is optional, and a game opts in by having the methods of one of these small
protocols: registered decks (``DeckRules``), referee adjustments (``AdjustmentRules``),
catalog files (``CatalogRules``), other tools' game records (``ForeignRecordRules``),
its own reports (``ReportRules``) and seats leaving a multiplayer game
(``WithdrawalRules``).

Callers ask with the ``*_of`` helpers, which give the rules typed as the capability or
``None`` when the game does not offer it::

    decks = decks_of(rules)
    if decks is None:
        ...  # REF-5.1: not played with decklists
    verdict = decks.check_deck(setup, seat, decklist)

The class attributes ``takes_decks``, ``catalog_kinds``, ``reports`` and
``record_formats`` stay on ``GameRules`` (plain data every face reads to describe a
game); the methods that go with them are here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypeVar, runtime_checkable

from referee.contract import ForeignRecord, GameRules, Report, Setup, Viewer
from referee.kit.adjustments import Change
from referee.kit.decks import DeckKnowledge, Decklist
from referee.verdicts import Verdict

__all__ = [
    "AdjustmentRules",
    "CatalogRules",
    "DeckRules",
    "ForeignRecordRules",
    "ReportRules",
    "WithdrawalRules",
    "adjustments_of",
    "catalogs_of",
    "decks_of",
    "foreign_records_of",
    "reports_of",
    "withdrawals_of",
]

StateT = TypeVar("StateT")
StateT_contra = TypeVar("StateT_contra", contravariant=True)


@runtime_checkable
class DeckRules(Protocol[StateT]):
    """A game played with decklists registered before play, open or sealed (REF-5)."""

    def check_deck(self, setup: Setup, seat: str, decklist: Decklist) -> Verdict:
        """Whether ``decklist`` obeys the game's construction rules for ``seat``."""
        ...

    def check_sealed_size(self, setup: Setup, seat: str, size: int) -> Verdict:
        """Whether a sealed list of ``size`` cards can obey the construction rules (the
        size is public, so a list that could never be played is refused when registered)."""
        ...

    def deck_knowledge(self, state: StateT, seat: str) -> DeckKnowledge | None:
        """What is known of ``seat``'s registered cards (``None``: no list registered)."""
        ...

    def shown_at_setup(self, setup: Setup, seat: str, decklist: Decklist) -> tuple[str, ...]:
        """The cards of ``seat``'s open list that the setup itself puts in public view,
        which a record hiding the list still names (none for most games)."""
        ...

    def with_deck_knowledge(self, state: StateT, seat: str, knowledge: DeckKnowledge) -> StateT:
        """``state`` with ``seat``'s deck knowledge replaced (a sealed list opened)."""
        ...


@runtime_checkable
class AdjustmentRules(Protocol[StateT]):
    """A game whose card texts a referee may carry out as primitive changes (REF-6.3)."""

    def check_change(self, state: StateT, change: Change) -> Verdict:
        """Whether the change can be carried out: a verdict, never an exception."""
        ...

    def apply_change(self, state: StateT, change: Change) -> StateT:
        """``state`` after a change ``check_change`` allowed."""
        ...


@runtime_checkable
class CatalogRules(Protocol):
    """A game with catalogs: files it reads (``catalog_kinds``: cards, a board...) and the
    catalog a setup pins, listed (a game whose catalogs are built in reads none)."""

    catalog_kinds: tuple[str, ...]

    def read_catalog(self, kind: str, text: str, source: str) -> Any:
        """A catalog file of ``kind``, checked; ``CatalogError`` names the file and problem."""
        ...

    def catalog_rows(self, setup: Setup, kind: str) -> list[dict[str, Any]]:
        """The catalog a setup pins, one row per entry, for listing."""
        ...


@runtime_checkable
class ForeignRecordRules(Protocol):
    """A game that reads game records kept by other tools (``record_formats``)."""

    record_formats: tuple[str, ...]

    def read_foreign(
        self, fmt: str, data: bytes, source: str, options: Mapping[str, Any]
    ) -> ForeignRecord:
        """A record in one of ``record_formats``, from its file's bytes."""
        ...


@runtime_checkable
class ReportRules(Protocol[StateT_contra]):
    """A game with reports of its own on a position (``reports``: a score chart...)."""

    reports: tuple[str, ...]

    def report(self, state: StateT_contra, name: str, viewer: Viewer) -> Report:
        """One of ``reports`` on ``state``, as ``viewer`` may see it."""
        ...


@runtime_checkable
class WithdrawalRules(Protocol[StateT]):
    """A multiplayer game the other seats play on after one leaves (REF-3.5)."""

    def withdraw(self, state: StateT, seat: str) -> StateT | None:
        """The state after ``seat`` leaves, or ``None`` when the game cannot go on."""
        ...


def decks_of(rules: GameRules[Any, Any]) -> DeckRules[Any] | None:
    """``rules`` as a game played with decklists, or ``None``."""
    return rules if rules.takes_decks and isinstance(rules, DeckRules) else None


def adjustments_of(rules: GameRules[Any, Any]) -> AdjustmentRules[Any] | None:
    """``rules`` as a game that takes referee adjustments, or ``None``."""
    return rules if isinstance(rules, AdjustmentRules) else None


def catalogs_of(rules: GameRules[Any, Any]) -> CatalogRules | None:
    """``rules`` as a game that reads catalog files, or ``None``."""
    return rules if isinstance(rules, CatalogRules) else None


def foreign_records_of(rules: GameRules[Any, Any]) -> ForeignRecordRules | None:
    """``rules`` as a game that reads other tools' records, or ``None``."""
    return rules if rules.record_formats and isinstance(rules, ForeignRecordRules) else None


def reports_of(rules: GameRules[Any, Any]) -> ReportRules[Any] | None:
    """``rules`` as a game with reports of its own, or ``None``."""
    return rules if rules.reports and isinstance(rules, ReportRules) else None


def withdrawals_of(rules: GameRules[Any, Any]) -> WithdrawalRules[Any] | None:
    """``rules`` as a game the others play on after a seat leaves, or ``None``."""
    return rules if isinstance(rules, WithdrawalRules) else None

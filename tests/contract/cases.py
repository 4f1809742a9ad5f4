"""The shape of a contract case: one scripted game that the contract suite plays
through the application layer and the store, checking what every game must do.

Each registered game ``NAME`` provides ``CASES: list[ContractCase]`` in a module
``tests/NAME/contract.py`` (test games under ``tests/games/NAME/contract.py``);
a registered game without one fails the suite. The suite checks, for every case:
replaying the store equals the live state after every step; a rejected entry
changes nothing but the log; every recorded notation reads back to the same
action; export then import gives the same game; no viewer's ``observe`` or
``render`` shows a secret of another seat (``GameRules.secrets``); and ``verify``
names an edited, a deleted and a reordered event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from events.store import GameStore
from referee.kit.decks import Decklist
from service import RefereeService


@dataclass(frozen=True)
class Act:
    """A legal entry: ``text`` in the game's notation, by ``seat`` (or the one seat to act)."""

    text: str
    seat: str | None = None


@dataclass(frozen=True)
class Reject:
    """An entry the rules must reject, citing ``clause``; the position must not change."""

    text: str
    clause: str
    seat: str | None = None


@dataclass(frozen=True)
class Adjust:
    """A referee's adjustment (kit notation, ``;`` between changes) for ``card``'s effect."""

    changes: str
    card: str
    reason: str = "ruling on the card's text"


@dataclass(frozen=True)
class OpenDeck:
    """Open ``seat``'s sealed list; ``clause`` set means the opening must fail citing it."""

    seat: str
    clause: str | None = None


Step = Act | Reject | Adjust | OpenDeck


@dataclass(frozen=True)
class ContractCase:
    """A scripted game. ``options`` are raw setup values as a face passes them (a
    catalog file's text for a ``file`` field); ``decks`` are registered openly and
    ``sealed`` decks sealed, each with the salt that opens it."""

    game: str
    name: str
    players: Mapping[str, str]
    steps: tuple[Step, ...]
    ruleset: str | None = None
    variants: Mapping[str, str] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    decks: Mapping[str, Decklist] = field(default_factory=dict)
    sealed: Mapping[str, tuple[Decklist, str]] = field(default_factory=dict)


def reimported(
    svc: RefereeService, game_id: str, tmp_path: Path, fmt: Literal["jsonl", "text"]
) -> tuple[RefereeService, Path]:
    """A service on a new store into which ``game_id``, exported by ``svc`` as ``fmt``
    (``jsonl`` or ``text``), was imported (the import must take it), and the file."""
    path = tmp_path / f"record.{fmt}"
    path.write_text("".join(svc.export([game_id], fmt)))
    other = RefereeService(GameStore(tmp_path / f"{fmt}.db"))
    report = other.import_files([path])
    assert [f.status for f in report.files] == ["imported"], report.files
    return other, path

"""Importing games recorded by other tools, in formats the games themselves declare
(``GameRules.record_formats``; Prismata reads its reference engine's games).

Each entry goes through the same judge-and-record path as a referee's, on the
game held in memory (``service.scratch``); with ``compare``, every step's position is compared with
the other tool's own snapshot and the first difference is reported. Only a record
whose every entry is legal is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict, Unpack

import msgspec

from events.store import GameStore
from referee import games
from referee.capabilities import foreign_records_of
from referee.contract import GameRules
from referee.errors import RefereeError, quoted
from service.errors import RefusedError
from service.scratch import ScratchReferee

__all__ = ["ForeignImport", "ForeignResult", "format_owner", "import_foreign"]


class ForeignResult(msgspec.Struct, kw_only=True):
    source: str
    game_id: str | None = None
    actions: int = 0
    steps: int = 0
    agree: bool = True
    first_difference: str = ""
    result: str = "*"
    expected_result: str = "*"
    error: str = ""


def format_owner(fmt: str) -> GameRules[Any, Any]:
    """The game that reads records of format ``fmt``."""
    for name in games.names():
        try:
            rules = games.load(name)
        except Exception:
            continue
        if fmt in rules.record_formats:
            return rules
    known = sorted({f for n in games.names() for f in _formats(n)})
    raise RefusedError(
        f"no game reads records of format {fmt!r}; formats: jsonl, text"
        + (", " + ", ".join(known) if known else "")
    )


def _formats(name: str) -> tuple[str, ...]:
    try:
        return games.load(name).record_formats
    except Exception:
        return ()


class ForeignImport(TypedDict, total=False):
    """How other tools' records are imported: ``compare`` every position with the file's
    own snapshots, the format's ``options``, who imports (``by``), and a ``progress``
    callback told each file's count of games."""

    compare: bool
    options: Mapping[str, Any] | None
    by: str
    progress: Callable[[int], None] | None


def import_foreign(
    store: GameStore, fmt: str, paths: Sequence[str], **how: Unpack[ForeignImport]
) -> list[ForeignResult]:
    """Import other tools' records of ``fmt``; one result per file."""
    compare = how.get("compare", False)
    options = how.get("options")
    by = how.get("by", "")
    progress = how.get("progress")
    rules = format_owner(fmt)
    results: list[ForeignResult] = []
    for path in paths:
        result = ForeignResult(source=str(path))
        try:
            reader = foreign_records_of(rules)
            if reader is None:
                raise LookupError(f"{rules.name} reads no {fmt!r} records")
            record = reader.read_foreign(fmt, Path(path).read_bytes(), str(path), options or {})
            result.expected_result = record.expected_result
            scratch = ScratchReferee()
            setup = record.setup
            view = scratch.create_game(
                rules.name,
                setup.players,
                ruleset=setup.ruleset,
                variants=setup.variants,
                options=setup.options,
                by=by,
                game_id=record.stem,
                raw_options=False,
                imported_from=str(path),
            )
            for step in record.steps():
                result.steps += 1
                for text in step.entries:
                    entry = scratch.record(record.stem, text, by=by, view=view)
                    if not entry.accepted:
                        v = entry.violations[0]
                        raise RefusedError(f"{step.label}: {quoted(text)}: {v.clause}: {v.reason}")
                    result.actions += 1
                if compare and result.agree and step.snapshot is not None:
                    diffs = record.differences(view.state, step.snapshot)
                    if diffs:
                        result.agree = False
                        result.first_difference = f"after {step.label}: " + "; ".join(diffs[:6])
            result.result = view.result
            if compare and result.agree and result.result != result.expected_result:
                result.agree = False
                result.first_difference = (
                    f"result: ours {result.result}, theirs {result.expected_result}"
                )
            if store.exists(record.stem):
                result.error = f"game {record.stem} is already in the store"
            else:
                store.insert_rows([(record.stem, scratch.rows())])
                result.game_id = record.stem
        except (RefereeError, ValueError, KeyError, OSError) as exc:
            result.agree = False
            result.error = str(exc)
        if progress is not None:
            progress(1)
        results.append(result)
    return results

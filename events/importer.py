"""Importing many record files: each checked whole, valid ones stored in batches."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from events.schema import GameEvent
from events.store import GameStore
from events.transfer import ImportFileError, read_any, renumber

BATCH_EVENTS = 20_000


def import_files(
    store: GameStore, files: Sequence[Path], *, as_new: bool = False, by: str = "", progress: bool = True
) -> dict[str, Any]:
    """Import each file whole or not at all; returns counts, errors and the new game ids."""
    import typer

    errors: list[str] = []
    game_ids: list[str] = []
    pending: list[list[GameEvent]] = []
    pending_events = 0
    total_events = 0
    seen: set[str] = set()

    def flush() -> None:
        nonlocal pending, pending_events
        if pending:
            store.insert_streams(pending)
            pending, pending_events = [], 0

    with typer.progressbar(files, label="importing", file=sys.stderr, hidden=not progress) as bar:
        for path in bar:
            source = str(path)
            try:
                text = path.read_text(encoding="utf-8")
                events = [e for _, e in read_any(text, source, by=by)]
            except ImportFileError as exc:
                errors.append(str(exc))
                continue
            except OSError as exc:
                errors.append(f"{source}: {exc.strerror or exc}")
                continue
            game_id = events[0].originator_id
            if game_id in seen or store.exists(game_id):
                if not as_new:
                    errors.append(f"{source}: game {game_id} is already in the store "
                                  "(use --as-new to import a copy under a new id)")
                    continue
                game = getattr(events[0], "game", "game")
                game_id = store.new_game_id(game)
                events = renumber(events, game_id, note=f"copy of {events[0].originator_id} from {source}")
            seen.add(game_id)
            pending.append(events)
            pending_events += len(events)
            total_events += len(events)
            game_ids.append(game_id)
            if pending_events >= BATCH_EVENTS:
                flush()
        flush()
    return {"imported": len(game_ids), "events": total_events, "errors": errors, "game_ids": game_ids}

"""Importing many record files: each checked whole, valid ones stored in batches.

Reading and re-checking a file is pure work on its text, so with many files it
runs in worker processes (one per core) while this process does the inserts;
results come back in file order, so the outcome is the same as a serial import.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from events.codec import encode
from events.schema import TOPIC_OF
from events.store import GameStore
from events.transfer import ImportFileError, read_for_import, renumber

BATCH_EVENTS = 20_000
PARALLEL_FROM_FILES = 64

# (source, error or None, game id, game, [(event number, topic, stored bytes)])
Checked = tuple[str, str | None, str, str, list[tuple[int, str, bytes]]]


def _check_file(args: tuple[str, str]) -> Checked:
    """Read and re-check one file (may run in a worker process).

    Returns plain rows, which cross a process boundary far more cheaply than
    event objects; the store takes them as they are."""
    source, by = args
    try:
        text = Path(source).read_text(encoding="utf-8")
        events, states = read_for_import(text, source, by=by)
    except ImportFileError as exc:
        return source, str(exc), "", "", []
    except OSError as exc:
        return source, f"{source}: {exc.strerror or exc}", "", "", []
    if states is None:
        states = [encode(e) for e in events]
    rows = [(e.originator_version, TOPIC_OF[type(e)], b) for e, b in zip(events, states, strict=True)]
    return source, None, events[0].originator_id, getattr(events[0], "game", ""), rows


def _checked(files: Sequence[Path], by: str, workers: int) -> Iterator[Checked]:
    jobs = [(str(path), by) for path in files]
    if workers <= 1 or len(files) < PARALLEL_FROM_FILES:
        yield from map(_check_file, jobs)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_check_file, jobs, chunksize=8)


def import_files(
    store: GameStore,
    files: Sequence[Path],
    *,
    as_new: bool = False,
    by: str = "",
    progress: bool = True,
    workers: int | None = None,
) -> dict[str, Any]:
    """Import each file whole or not at all; returns counts, errors and the new game ids."""
    import typer

    errors: list[str] = []
    game_ids: list[str] = []
    pending: list[tuple[str, list[tuple[int, str, bytes]]]] = []
    pending_events = 0
    total_events = 0
    seen: set[str] = set()

    def flush() -> None:
        nonlocal pending, pending_events
        if pending:
            store.insert_rows(pending)
            pending, pending_events = [], 0

    count = workers if workers is not None else (os.cpu_count() or 1)
    with typer.progressbar(length=len(files), label="importing", file=sys.stderr, hidden=not progress) as bar:
        for source, error, game_id, game, rows in _checked(files, by, count):
            bar.update(1)
            if error is not None:
                errors.append(error)
                continue
            if game_id in seen or store.exists(game_id):
                if not as_new:
                    errors.append(f"{source}: game {game_id} is already in the store "
                                  "(use --as-new to import a copy under a new id)")
                    continue
                original = game_id
                game_id = store.new_game_id(game or "game")
                events = [store.mapper.decode_row(topic, state) for _, topic, state in rows]
                copied = renumber(events, game_id, note=f"copy of {original} from {source}")
                rows = [(e.originator_version, TOPIC_OF[type(e)], encode(e)) for e in copied]
            seen.add(game_id)
            pending.append((game_id, rows))
            pending_events += len(rows)
            total_events += len(rows)
            game_ids.append(game_id)
            if pending_events >= BATCH_EVENTS:
                flush()
        flush()
    return {"imported": len(game_ids), "events": total_events, "errors": errors, "game_ids": game_ids}

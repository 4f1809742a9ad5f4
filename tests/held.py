"""SQLite checkpoints run apart (``events.backends.checkpoints``), held for a test: the
store's bulk write (``tests/test_storage.py``) and the read models' large snapshot save
(``tests/events/test_event_snapshots.py``)."""

from __future__ import annotations

import threading

import pytest

from events.backends.checkpoints import Checkpoints


def held_checkpoints(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, list[Checkpoints]]:
    """Every checkpoint run apart waits until the event answered is set, then runs and is
    listed (its ``Checkpoints``): a test sees the write go on before its checkpoint, and
    the close wait for it."""
    held = threading.Event()
    copied: list[Checkpoints] = []
    checkpoint = Checkpoints._checkpoint

    def late(checkpoints: Checkpoints) -> None:
        held.wait(10)
        checkpoint(checkpoints)
        copied.append(checkpoints)

    monkeypatch.setattr(Checkpoints, "_checkpoint", late)
    return held, copied

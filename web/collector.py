"""The server's policy for Python's cycle collector (``referee serve``, issue 32 goal 5).

A server holds large, long-lived state: each event folded (10,000 players: their records,
the round's tables, the standings), the pages made from it, the hall's connections. A
collection pauses every request for as long as it scans, and the scan grows with what is
alive, not with what is garbage: a young collection that met a round just paired at 10,000
players paused the server 216-325 ms in the middle of the phones' round start (BENCHMARKS.md,
"Round start, the stall").

So what is alive at start-up, and again when a round has just been paired (``settle``), is
frozen (``gc.freeze``: moved out of the generations the collector scans; it costs no scan).
Frozen objects are still freed by their reference counts, as almost all of an event's state
is (it holds no cycles); only garbage *cycles* among them wait. ``Reckoning`` bounds those:
a full collection, once the frozen objects have grown past twice what the last full reckoning
left, scans them all again (``gc.unfreeze`` as it starts, ``gc.freeze`` when it ends), so
frozen garbage stays below what is alive."""

from __future__ import annotations

import gc
from typing import Any

THRESHOLDS = (20_000, 50, 100)
"""Young collections less often than Python's default (700, 10, 10): a server allocates
much that dies young (each request's objects)."""

FLOOR = 200_000
"""Frozen objects below which a full collection never unfreezes them (start-up's own are
about 100,000)."""


class Reckoning:
    """A ``gc.callbacks`` entry: each full collection leaves what it kept frozen; one in a
    while (the frozen grew past twice the last reckoned) it scans the frozen too."""

    def __init__(self) -> None:
        self.reckoned = gc.get_freeze_count()
        self.reckonings = 0
        self._unfrozen = False

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            frozen = gc.get_freeze_count()
            if frozen > max(FLOOR, 2 * self.reckoned):
                gc.unfreeze()  # into the oldest generation: this collection scans them
                self._unfrozen = True
            return
        gc.freeze()  # what this full collection kept is long-lived
        if self._unfrozen:
            self._unfrozen = False
            self.reckoned = gc.get_freeze_count()
            self.reckonings += 1


RECKONING: list[Reckoning] = []


def install() -> Reckoning:
    """The policy, for a server process about to serve (once; again: the same)."""
    if RECKONING:
        return RECKONING[0]
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    reckoning = Reckoning()
    gc.callbacks.append(reckoning)
    RECKONING.append(reckoning)
    return reckoning


def settle() -> None:
    """Freeze what is alive now, without a scan: called when a large state was just built
    that will live (a round paired), so no young collection scans it in the requests that
    follow. Only in a process ``install`` set up (a test's or a command's process keeps
    Python's defaults)."""
    if RECKONING:
        gc.freeze()

"""The collector's policy of ``referee serve`` (``web.collector``, issue 32 goal 5): what
lives is frozen without a scan, frozen state is still freed by its reference counts, and
frozen garbage cycles are reclaimed once the frozen grew past twice the last reckoning, so
freezing never leaks without bound. Each check runs in a process of its own: the policy
changes the whole interpreter's collector."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.web.conftest import ROOT


def _run(code: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=str(ROOT),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_a_round_just_paired_is_frozen_without_a_scan_and_dropped_state_is_freed() -> None:
    _run(
        """
        import gc, weakref
        from web import collector
        collector.settle()  # before install: Python's defaults stand
        assert gc.get_freeze_count() == 0 and collector.RECKONING == []
        collector.install()
        assert gc.get_threshold() == collector.THRESHOLDS
        assert collector.install() is collector.RECKONING[0]  # once
        assert gc.callbacks.count(collector.RECKONING[0]) == 1
        class Table:
            pass
        state = {n: [Table() for _ in range(3)] for n in range(50_000)}
        before, scans = gc.get_freeze_count(), []
        gc.callbacks.append(lambda phase, info: scans.append(info["generation"]))
        collector.settle()
        assert scans == []  # no collection ran
        assert gc.get_freeze_count() >= before + 200_000
        assert all(o is not state for g in range(3) for o in gc.get_objects(g))
        kept = weakref.ref(state[7][0])
        del state  # acyclic: freed by reference counts though frozen
        assert kept() is None
        """
    )


def test_frozen_garbage_cycles_are_reclaimed_once_the_frozen_doubled() -> None:
    _run(
        """
        import gc, weakref
        from web import collector
        reckoning = collector.install()
        floor = max(collector.FLOOR, 2 * reckoning.reckoned)
        class Node:
            pass
        def ring():
            a, b = Node(), Node()
            a.other, b.other = b, a
            return a
        rings = [ring() for _ in range(floor // 3)]
        watch = weakref.ref(rings[0])
        collector.settle()
        gc.collect()  # not past the bound yet: the frozen stay frozen, unscanned
        assert reckoning.reckonings == 0
        del rings
        assert watch() is not None  # a frozen cycle waits for a reckoning
        more = [ring() for _ in range(floor // 3)]
        collector.settle()
        assert gc.get_freeze_count() > floor
        gc.collect()  # a full collection past the bound scans the frozen
        assert reckoning.reckonings == 1
        assert watch() is None
        assert gc.get_freeze_count() < floor  # the dead rings went, the live ones stayed
        assert all(r.other.other is r for r in more)
        assert gc.get_count()[1:] == (0, 0) and not gc.get_objects(2)  # all left frozen
        """
    )

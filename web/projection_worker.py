"""Read models (scoreboard, audits) caught up in a worker process of the server.

A catch-up folds every event stored since the last one and recomputes the
standings: pure Python work that, on a thread of the server, held the GIL the
event loop needs (entries waited behind it: p99 45 ms without live readers,
130 ms with them, benchmarks/bench_http.py). In its own process it runs beside
the server instead. The worker opens its own service on the same store and
projection file; only JSON-ready answers cross back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from service.app import RefereeService
    from service.stores import StoreSpec

__all__ = ["call", "start"]

_service: RefereeService | None = None


def start(spec: StoreSpec, projections: str | None, registry: dict[str, str]) -> None:
    """Process initializer: the same games as the server, and a service on its store."""
    global _service  # noqa: PLW0603 - a worker process's one service, set by its initializer
    from referee import games
    from service.app import RefereeService
    from service.stores import open_store

    for name, target in registry.items():  # test games registered in the parent, say
        if name not in games.names():
            games.register(name, target)
    _service = RefereeService(open_store(spec), projections=projections)


def call(
    method: Literal["scoreboard", "audit"], ref: str | None, dispute: int | None = None, /
) -> list[dict[str, Any]] | dict[str, Any]:
    """``RefereeService.scoreboard(ref)`` (``ref`` a game type or ``None``) or
    ``.audit(ref, dispute)`` in the worker (``Web.run_projection`` types each)."""
    if _service is None:
        raise RuntimeError("the projection worker was not started")
    if method == "scoreboard":
        return _service.scoreboard(ref)
    if method == "audit" and ref is not None:
        return _service.audit(ref, dispute)
    raise ValueError(f"the projection worker does not run {method!r}")

"""The application layer: one typed service that every face (command line, HTTP,
pages) calls. See ``service.app.RefereeService``.

The names below are loaded on first use (PEP 562), not when the package is: a module
of this layer that needs no store (``service.remote``, the client of a running server)
must be importable without the store, its driver and the event library."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from service.app import RefereeService, open_service
    from service.errors import (
        ConcurrentWriteError,
        GameNotFoundError,
        InvalidCommandError,
        NoStoreError,
        RefusedError,
        StaleVersionError,
        UnreadableEntryError,
    )

__all__ = [
    "ConcurrentWriteError",
    "GameNotFoundError",
    "InvalidCommandError",
    "NoStoreError",
    "RefereeService",
    "RefusedError",
    "StaleVersionError",
    "UnreadableEntryError",
    "open_service",
]

_HOME = {"RefereeService": "service.app", "open_service": "service.app"}


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'service' has no attribute {name!r}")
    return getattr(import_module(_HOME.get(name, "service.errors")), name)

"""The application layer: one typed service that every face (command line, HTTP,
pages) calls. See ``service.app.RefereeService``."""

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

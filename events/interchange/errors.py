"""Errors of reading records, and the rule for game ids that come from files."""

from __future__ import annotations

import re

__all__ = ["GAME_ID", "ImportFileError", "check_game_id", "valid_game_id"]

GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,79}")
"""Game ids: lower-case letters, digits, ``-`` and ``_``, at most 80; never a path."""


class ImportFileError(ValueError):
    """A file that cannot be imported; names the file, line, clause and reason."""

    def __init__(
        self, source: str, line: int | None, reason: str, clause: str | None = None
    ) -> None:
        where = f"{source}:{line}" if line is not None else source
        text = f"{where}: {clause + ': ' if clause else ''}{reason}"
        super().__init__(text)
        self.source = source
        self.line = line
        self.clause = clause
        self.reason = reason


def valid_game_id(game_id: str) -> bool:
    return GAME_ID.fullmatch(game_id) is not None


def check_game_id(game_id: str, source: str, line: int | None) -> None:
    if not valid_game_id(game_id):
        raise ImportFileError(
            source,
            line,
            f"game id {game_id[:100]!r} is not allowed: ids are 1 to 80 "
            "lower-case letters, digits, '-' and '_'",
        )

"""Records that leave and enter the store: ``referee-jsonl/1`` (every event exactly as
stored) and ``referee-text/1`` (a readable, PGN-like record)."""

from events.interchange.errors import ImportFileError, check_game_id, valid_game_id
from events.interchange.jsonl import JSONL_FORMAT, export_jsonl, read_jsonl
from events.interchange.text import TEXT_FORMAT, TextRecord, export_text, parse_text

__all__ = [
    "JSONL_FORMAT",
    "TEXT_FORMAT",
    "ImportFileError",
    "TextRecord",
    "check_game_id",
    "export_jsonl",
    "export_text",
    "parse_text",
    "read_jsonl",
    "valid_game_id",
]

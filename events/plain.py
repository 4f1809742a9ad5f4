"""Text made safe to show or to write on one line: ``safe_text`` for a terminal,
``quote`` for a value in a text record. Shared by every event type's wording
(``events.kinds``), the records for people (``events.records``) and the text
record (``events.interchange.text``)."""

from __future__ import annotations

import json
import unicodedata

__all__ = ["quote", "safe_text"]


def safe_text(text: str) -> str:
    """``text`` with control and formatting characters shown as escapes, so a name or a
    reason can never move the cursor, clear the screen or fake a line on a terminal."""
    out: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if category[0] == "C" or category in ("Zl", "Zp"):
            out.append(char.encode("unicode_escape").decode("ascii"))
        else:
            out.append(char)
    return "".join(out)


def quote(value: str) -> str:
    """``value`` as a JSON string safe on one line: every control, format and separator
    character escaped (U+0085, U+2028 and U+2029 included)."""
    out: list[str] = []
    for char in json.dumps(value, ensure_ascii=False)[1:-1]:
        category = unicodedata.category(char)
        if category[0] == "C" or category in ("Zl", "Zp"):
            out.append("".join(f"\\u{unit:04x}" for unit in _utf16(char)))
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _utf16(char: str) -> list[int]:
    data = char.encode("utf-16-be")
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]

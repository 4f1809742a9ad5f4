"""Reading card catalogs: TOML or JSON files validated against a game's msgspec schema.

Card lists of the card games are not public, so a table loads its own file. The
game defines the schema (a msgspec Struct); this module reads the text, turns
every problem into one ``CatalogError`` line naming the file and the field, and
gives a digest that pins the exact catalog in a game's first event.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from typing import Any, TypeVar

import msgspec

from referee.errors import CatalogError

__all__ = ["catalog_digest", "catalog_from", "from_builtins", "read_catalog"]

T = TypeVar("T")

MAX_CATALOG_BYTES = 4 * 1024 * 1024


def read_catalog(text: str, schema: type[T], *, source: str = "catalog") -> T:
    """Parse ``text`` (JSON when it starts with ``{``, TOML otherwise) into ``schema``."""
    if len(text) > MAX_CATALOG_BYTES:
        raise CatalogError(
            f"{source}: a catalog is at most {MAX_CATALOG_BYTES // 1024 // 1024} MiB"
        )
    stripped = text.lstrip()
    try:
        data: Any = json.loads(stripped) if stripped.startswith("{") else tomllib.loads(text)
    except RecursionError:
        raise CatalogError(f"{source}: nested too deeply to be a catalog") from None
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        kind = "JSON" if stripped.startswith("{") else "TOML"
        raise CatalogError(f"{source}: not valid {kind}: {exc}") from None
    try:
        return msgspec.convert(data, schema)
    except RecursionError:
        raise CatalogError(f"{source}: nested too deeply to be a catalog") from None
    except msgspec.ValidationError as exc:
        raise CatalogError(f"{source}: {exc}") from None


def from_builtins(data: Any, schema: type[T], *, source: str = "catalog") -> T:
    """A catalog from its recorded builtins form (as a game's setup stores it) into
    ``schema``, a mismatch as one ``CatalogError`` line."""
    try:
        return msgspec.convert(data, schema)
    except msgspec.ValidationError as exc:
        raise CatalogError(f"{source}: {exc}") from None


def catalog_from(data: Any, schema: type[T], *, source: str = "catalog") -> T:
    """A catalog from a file's text (``read_catalog``) or from its recorded builtins
    (``from_builtins``)."""
    if isinstance(data, str):
        return read_catalog(data, schema, source=source)
    return from_builtins(data, schema, source=source)


def catalog_digest(catalog: Any) -> str:
    """SHA-256 of the catalog's canonical JSON: the same cards give the same digest."""
    return hashlib.sha256(
        msgspec.json.encode(msgspec.to_builtins(catalog), order="sorted")
    ).hexdigest()

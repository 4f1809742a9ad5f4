"""Who looks at a game: the referee, the public, or a seat.

A module of its own so that the verdicts (whose reasons may be for one seat's eyes
only) and the contract can both name the viewers without importing each other.
"""

from __future__ import annotations

__all__ = ["PUBLIC", "REFEREE", "RESERVED_SEATS", "Viewer"]

Viewer = str
"""Who looks at a position: ``REFEREE``, ``PUBLIC`` or a seat name."""

REFEREE: Viewer = "referee"
PUBLIC: Viewer = "public"
RESERVED_SEATS = frozenset({REFEREE, PUBLIC, "table", "all"})

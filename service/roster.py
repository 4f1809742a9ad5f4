"""Ratings as the faces are given them (EV-2.11): one rating typed in a field, ratings one a
line in the order of the names (the desk), and a roster file of names with their ratings and
ids (``referee event register --players FILE``). Read here once, so every face takes and
refuses the same text; the bounds themselves are the core's (``fixing.check_rating``), which
``event_register`` and ``event_correct_rating`` apply."""

from __future__ import annotations

import csv
import io

import msgspec

from referee.tournament.fixing import MAX_RATING
from service.tournaments import EventRefusedError

__all__ = ["MAX_RATING", "NO_RATING", "Roster", "rating_from", "ratings_from_lines", "read_roster"]

NO_RATING = frozenset({"", "-", "–", "none"})
"""What a field or a line says for "no rating" (the desk's ratings: ``-`` keeps the order)."""


class Roster(msgspec.Struct, kw_only=True):
    """Players to register in order: their names, ratings (``None``: none) and the ids
    across the house of the first of them (a new one each past these)."""

    names: list[str]
    ratings: list[int | None]
    player_ids: list[str]


def rating_from(text: str, where: str = "a rating") -> int | None:
    """The rating ``text`` gives (``None`` for none: empty, ``-``), or a refusal naming
    EV-2.11 and ``where`` for what is not a whole number from 0 to ``MAX_RATING``."""
    cleaned = text.strip()
    if cleaned.casefold() in NO_RATING:
        return None
    if not (cleaned.isascii() and cleaned.isdigit()) or len(cleaned) > 6:
        raise EventRefusedError(
            "EV-2.11",
            f"{where} is a whole number from 0 to {MAX_RATING:,} (or - for none), not {cleaned!r}",
        )
    value = int(cleaned)
    if value > MAX_RATING:
        raise EventRefusedError(
            "EV-2.11", f"{where} is a whole number from 0 to {MAX_RATING:,}, not {value:,}"
        )
    return value


def ratings_from_lines(text: str) -> list[int | None]:
    """Ratings one a line, in the order of the names (``-`` or an empty line: none); the
    empty lines at the end are left out."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    return [rating_from(line, f"the rating on line {n}") for n, line in enumerate(lines, 1)]


def read_roster(text: str) -> Roster:
    """A roster file: CSV, one player a row, ``name,rating,player_id`` (the last two may be
    left empty or out); a first row reading ``name,...`` is a header and is skipped, and so
    are empty rows. Names with a comma are quoted, as a spreadsheet writes them."""
    names: list[str] = []
    ratings: list[int | None] = []
    ids: list[str] = []
    reader = csv.reader(io.StringIO(text), strict=True)
    rows: list[list[str]] = []
    while True:
        starts = reader.line_num + 1  # the line the row begins on: a quote left open there
        try:  # ('"Ben,1600') took the rest of the file into one name
            rows.append(next(reader))
        except StopIteration:
            break
        except csv.Error as exc:
            raise EventRefusedError(
                "EV-2.2", f"line {starts} cannot be read as CSV ({exc})"
            ) from None
    for number, row in enumerate(rows, start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        if number == 1 and cells[0].casefold() == "name":
            continue  # the header
        if len(cells) > 3:
            raise EventRefusedError(
                "EV-2.2",
                f"row {number} has {len(cells)} columns: a roster row is name,rating,player_id",
            )
        cells += [""] * (3 - len(cells))
        if not cells[0]:
            raise EventRefusedError("EV-2.2", f"row {number} has no name")
        names.append(cells[0])
        ratings.append(rating_from(cells[1], f"the rating of row {number} ({cells[0]})"))
        ids.append(cells[2])
    if not names:
        raise EventRefusedError("EV-2.2", "the roster names no player (one a row: name,rating)")
    while ids and not ids[-1]:
        ids.pop()
    if "" in ids:  # the ids go to the players in order, a new one each past them (EV-2.2)
        gap = names[ids.index("")]
        raise EventRefusedError(
            "EV-2.2",
            f"{gap} has no player id but a later row has one: give the ids to the first rows, "
            "or to every row",
        )
    return Roster(names=names, ratings=ratings, player_ids=ids)

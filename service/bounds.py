"""One set of field bounds for every door (issue 31): the HTTP routes, the pages' forms and
the command line check names, reasons and numbers here, so no face takes what another
refuses.

- A name (an event's, a player's, a token holder's) is one line of printable text, at most
  ``LINE`` characters: a control character (a newline among them) is refused, so a name can
  never forge a line in printed pairings or standings.
- A reason is a page (``PAGE`` characters), newlines allowed, other control characters not.
- Numbers are integers of sensible size: an event plays 1 to ``MAX_ROUNDS`` rounds; a cut is
  a power of two up to ``MAX_CUT``.
- Two names are *similar* when their skeletons match: case folded, compatibility forms and
  invisible format characters removed, and every letter replaced by a representative of its
  confusable class from Unicode's confusables data (UTS #39), as the maintained
  ``confusable-homoglyphs`` package ships it. "Ann", "ann" and "Аnn" (a Cyrillic A) are one
  skeleton.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

from referee.errors import quoted
from service.errors import RefusedError

if TYPE_CHECKING:
    from referee.contract import Player

__all__ = [
    "LINE",
    "LIST",
    "MAX_CUT",
    "MAX_ROUNDS",
    "PAGE",
    "LookAlikes",
    "check_cut",
    "check_name",
    "check_player_names",
    "check_reason",
    "check_rounds",
    "skeleton",
]

LINE = 1_000  # an entry, a name, a clause, a seat
PAGE = 10_000  # a reason, a claim, grounds
LIST = 100_000  # a decklist
MAX_ROUNDS = 20
MAX_CUT = 64


class BoundsError(RefusedError):
    """A field outside its bounds: nothing was stored."""


def check_name(text: str, what: str = "a name", limit: int = LINE) -> str:
    """``text`` as stored (spaces collapsed), or ``BoundsError`` saying what a name is."""
    if not isinstance(text, str):
        raise BoundsError(f"{what} is text, not {type(text).__name__}")
    if len(text) > limit:
        raise BoundsError(f"{what} is at most {limit:,} characters, not {len(text):,}")
    bad = next((c for c in text if not (c == " " or c.isprintable())), None)
    if bad is not None:
        raise BoundsError(
            f"{what} is one line of printable text: {_char(bad)} is not allowed in {quoted(text)}"
        )
    cleaned = " ".join(text.split())
    if not cleaned:
        raise BoundsError(f"{what} is empty")
    return cleaned


def check_player_names(players: Iterable[Player]) -> None:
    """Every seat's name is a name (``check_name``), as an event's players' are (EV-2.2):
    a tab or a terminal's escape sequence was stored as a seat's name, shown escaped ever
    after. A blank name is left to the game's own refusal ("every player needs a name")."""
    for player in players:
        if player.name.strip():
            check_name(player.name, f"{player.seat}'s name")


def check_reason(text: str, what: str = "a reason", limit: int = PAGE) -> str:
    """``text`` as stored (trimmed), or ``BoundsError``: a page, newlines and tabs allowed."""
    if not isinstance(text, str):
        raise BoundsError(f"{what} is text, not {type(text).__name__}")
    if len(text) > limit:
        raise BoundsError(f"{what} is at most {limit:,} characters, not {len(text):,}")
    bad = next((c for c in text if not (c in " \n\t" or c.isprintable())), None)
    if bad is not None:
        raise BoundsError(f"{what} is printable text: {_char(bad)} is not allowed")
    return text.strip()


def check_rounds(rounds: int | None) -> int | None:
    """Rounds of an event: ``None`` (the format decides) or 1 to ``MAX_ROUNDS``."""
    if rounds is None:
        return None
    if isinstance(rounds, bool) or not isinstance(rounds, int):
        raise BoundsError(f"rounds is a whole number, not {rounds!r}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise BoundsError(f"an event plays 1 to {MAX_ROUNDS} rounds, not {rounds}")
    return rounds


def check_cut(cut: int) -> int:
    """A top cut: 0 (none) or a power of two from 2 to ``MAX_CUT``."""
    if isinstance(cut, bool) or not isinstance(cut, int):
        raise BoundsError(f"a cut is a whole number, not {cut!r}")
    if cut != 0 and (cut < 2 or cut > MAX_CUT or cut & (cut - 1)):
        raise BoundsError(f"a cut is 0 or a power of two from 2 to {MAX_CUT}, not {cut}")
    return cut


def _char(c: str) -> str:
    name = unicodedata.name(c, "")
    return f"U+{ord(c):04X}" + (f" ({name})" if name else "")


@functools.cache
def _classes() -> dict[str, str]:
    """Each confusable character -> the representative of its class (the smallest code
    point among it and its one-character homoglyphs)."""
    from confusable_homoglyphs import confusables

    rep: dict[str, str] = {}
    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    for char, glyphs in data.items():
        if len(char) != 1:
            continue
        members = [char, *(g["c"] for g in glyphs if len(g["c"]) == 1)]
        rep[char] = min(members)
    return rep


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal for names a reader would take for one another."""
    classes = _classes()
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", " ".join(name.split())))
    out: list[str] = []
    for c in text.casefold():
        if unicodedata.category(c) in ("Cf", "Cc"):
            continue  # invisible: zero-width characters, controls
        c = classes.get(c, c)
        out.append(classes.get(c.casefold(), c.casefold()))
    return "".join(out)


class LookAlikes:
    """Names by their skeleton, to find the one a new name looks like in one look-up.

    Each name's skeleton is computed once, so checking a name costs one skeleton whatever the
    event holds (computing every other name's skeleton for each name checked, registering
    10,000 players at once took 50 million skeletons: minutes)."""

    def __init__(self, others: dict[str, str]) -> None:
        self._by_skeleton: dict[str, str] = {}
        for key, other in others.items():
            self.add(key, other)

    def add(self, key: str, name: str) -> None:
        """Keep ``name`` under ``key`` (an earlier name with the same skeleton stays found)."""
        self._by_skeleton.setdefault(skeleton(name), key)

    def similar_to(self, name: str) -> str | None:
        """The key of the first name kept that looks like ``name``, if any."""
        return self._by_skeleton.get(skeleton(name))

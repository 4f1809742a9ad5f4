"""Reading and writing Crystale entries (rulebook section CR-N).

One entry per line; keywords and tile names in lower case, crystal names as the
catalog spells them (read in any letter case, matched when checked)::

    first p2                    summoner Vulkara Emberqueen
    pull      pull 6            pull Flame Lance           mulligan
    show Cinderpup, Cinderpup, Magmaback Golem             reshuffle
    summon Cinderpup @b1        sacrifice u5
    cast Flame Lance @u4        cast Kiln Surge            cast Twisted Cinders @u3 @u4
    use u1 2 @c4                use u3 1 @u4
    move u3 c3                  attack u3 u4               counter     hold
    slot promote u3             slot servant Cinderpup     slot mp
    end      discard Flame Lance, Kiln Surge      promote u3     done

Units are ``u`` and a number, tiles a row letter and a position (``c1``).
"""

from __future__ import annotations

import re
from typing import Final

from referee.errors import ActionSyntaxError
from referee.games.crystale.board import TILE_INDEX, TILE_NAMES
from referee.games.crystale.model import (
    Attack,
    Cast,
    Counter,
    CrystaleAction,
    CrystaleState,
    Declare,
    Discard,
    Done,
    End,
    First,
    Hold,
    Move,
    Mulligan,
    Promote,
    Pull,
    Reshuffle,
    Sacrifice,
    Show,
    SlotMp,
    SlotPromote,
    SlotServant,
    Summon,
    Use,
)
from referee.kit.names import UnknownNameError, canonical_names, did_you_mean

__all__ = [
    "NAME_FIELDS",
    "NOTATION_CLAUSE",
    "format_target",
    "notation",
    "parse",
    "read_entry",
    "unit_name",
]

NOTATION_CLAUSE: Final = "CR-N.1"
TILE_CLAUSE: Final = "CR-N.2"
UNIT_CLAUSE: Final = "CR-N.3"
NAME_CLAUSE: Final = "CR-N.4"
TARGET_CLAUSE: Final = "CR-N.5"

_UNIT = re.compile(r"^u(\d{1,6})$")
_SEATS = ("p1", "p2")
_BARE: Final[dict[str, CrystaleAction]] = {
    "mulligan": Mulligan(),
    "reshuffle": Reshuffle(),
    "counter": Counter(),
    "hold": Hold(),
    "end": End(),
    "done": Done(),
}
_MAX_PULL = 31


def unit_name(unit: int) -> str:
    return f"u{unit}"


def format_target(target: str) -> str:
    return "@" + target


def _fail(text: str, reason: str, clause: str = NOTATION_CLAUSE) -> ActionSyntaxError:
    return ActionSyntaxError(text, reason, clause)


def _unit(text: str, token: str) -> int:
    m = _UNIT.match(token.lower())
    if not m or int(m.group(1)) < 1:
        raise _fail(
            text, f"{token!r} is not a unit: write u and its number, such as u3", UNIT_CLAUSE
        )
    return int(m.group(1))


def _tile(text: str, token: str) -> int:
    index = TILE_INDEX.get(token.lower())
    if index is None:
        raise _fail(
            text,
            f"{token!r} is not a tile: rows a-e, positions a1-a5, b1-b6, c1-c7, d1-d6, e1-e5",
            TILE_CLAUSE,
        )
    return index


def _name(text: str, words: list[str]) -> str:
    name = " ".join(words)
    if not name:
        raise _fail(text, "a crystal name is missing", NAME_CLAUSE)
    if any(ch in name for ch in ",@/;#") or name.isdigit():
        raise _fail(text, f"{name!r} is not a crystal name", NAME_CLAUSE)
    return name


def _names(text: str, rest: str) -> tuple[str, ...]:
    parts = [" ".join(part.split()) for part in rest.split(",")]
    if not rest.strip() or any(not p for p in parts):
        raise _fail(
            text,
            "list crystal names separated by commas, such as: Cinderpup, Reefling",
            NAME_CLAUSE,
        )
    return tuple(_name(text, p.split()) for p in parts)


def _target(text: str, token: str) -> str:
    if not token.startswith("@") or len(token) < 2:
        raise _fail(
            text,
            f"{token!r} is not a target: write @ and a unit or tile, such as @u4 or @c3",
            TARGET_CLAUSE,
        )
    body = token[1:].lower()
    if body in TILE_INDEX:
        return body
    return unit_name(_unit(text, body))


def _split_targets(text: str, words: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """Words up to the first ``@...`` token, and the targets after it."""
    at = next((i for i, w in enumerate(words) if w.startswith("@")), len(words))
    return words[:at], tuple(_target(text, w) for w in words[at:])


def parse(text: str) -> CrystaleAction:
    """Read one entry; raise :class:`ActionSyntaxError` citing the CR-N clause it breaks."""
    if not isinstance(text, str):
        raise _fail(repr(text), "an entry must be text")
    words = text.split()
    if not words:
        raise _fail(text, "the entry is empty")
    word = words[0].lower()
    rest = words[1:]
    if word in _BARE:
        if rest:
            raise _fail(text, f"'{word}' takes nothing after it")
        return _BARE[word]
    if word == "first":
        if len(rest) != 1 or rest[0].lower() not in _SEATS:
            raise _fail(text, "write 'first p1' or 'first p2': the seat that plays the first turn")
        return First(rest[0].lower())
    if word == "summoner":
        return Declare(_name(text, rest))
    if word == "pull":
        if not rest:
            return Pull()
        if len(rest) == 1 and rest[0].isdigit():
            count = int(rest[0])
            if not 1 <= count <= _MAX_PULL:
                raise _fail(text, f"a pull takes 1 to {_MAX_PULL} crystals, not {count}")
            return Pull(count)
        return Pull(1, _name(text, rest))
    if word in ("show", "discard"):
        names = _names(text, text.split(None, 1)[1] if rest else "")
        return Show(names) if word == "show" else Discard(names)
    if word == "summon":
        if len(rest) < 2 or not rest[-1].startswith("@"):
            raise _fail(text, "write 'summon NAME @TILE', such as summon Cinderpup @b1")
        return Summon(_name(text, rest[:-1]), _tile(text, rest[-1][1:]))
    if word in ("sacrifice", "promote"):
        if len(rest) != 1:
            raise _fail(text, f"'{word}' takes one unit, such as {word} u3")
        unit = _unit(text, rest[0])
        return Sacrifice(unit) if word == "sacrifice" else Promote(unit)
    if word == "cast":
        name_words, targets = _split_targets(text, rest)
        return Cast(_name(text, name_words), targets)
    if word == "use":
        head, targets = _split_targets(text, rest)
        if len(head) != 2 or not head[1].isdigit() or not 1 <= int(head[1]) <= 5:
            raise _fail(
                text,
                "write 'use UNIT N [@TARGET ...]' with the effect's number 1-5, such as use u1 "
                "2 @c4",
            )
        return Use(_unit(text, head[0]), int(head[1]), targets)
    if word == "move":
        if len(rest) != 2:
            raise _fail(text, "write 'move UNIT TILE', such as move u3 c3")
        return Move(_unit(text, rest[0]), _tile(text, rest[1]))
    if word == "attack":
        if len(rest) != 2:
            raise _fail(text, "write 'attack UNIT TARGET', such as attack u3 u4")
        return Attack(_unit(text, rest[0]), _unit(text, rest[1]))
    if word == "slot":
        how = rest[0].lower() if rest else ""
        if how == "promote" and len(rest) == 2:
            return SlotPromote(_unit(text, rest[1]))
        if how == "servant" and len(rest) >= 2:
            return SlotServant(_name(text, rest[1:]))
        if how == "mp" and len(rest) == 1:
            return SlotMp()
        raise _fail(text, "write 'slot promote UNIT', 'slot servant NAME' or 'slot mp'")
    raise _fail(
        text,
        f"unknown entry {words[0]!r}; expected first, summoner, pull, mulligan, show, reshuffle, "
        "summon, sacrifice, cast, use, move, attack, counter, hold, slot, end, discard, promote "
        "or done",
    )


def _targets(targets: tuple[str, ...]) -> str:
    return "".join(" " + format_target(t) for t in targets)


def notation(action: CrystaleAction) -> str:
    """The canonical text of ``action``: ``parse(notation(a)) == a``."""
    if isinstance(action, First):
        return f"first {action.seat}"
    if isinstance(action, Declare):
        return f"summoner {action.crystal}"
    if isinstance(action, Pull):
        if action.crystal is not None:
            return f"pull {action.crystal}"
        return "pull" if action.count == 1 else f"pull {action.count}"
    if isinstance(action, Show):
        return "show " + ", ".join(action.crystals)
    if isinstance(action, Discard):
        return "discard " + ", ".join(action.crystals)
    if isinstance(action, Summon):
        return f"summon {action.crystal} @{TILE_NAMES[action.tile]}"
    if isinstance(action, Sacrifice):
        return f"sacrifice {unit_name(action.unit)}"
    if isinstance(action, Promote):
        return f"promote {unit_name(action.unit)}"
    if isinstance(action, Cast):
        return f"cast {action.crystal}{_targets(action.targets)}"
    if isinstance(action, Use):
        return f"use {unit_name(action.unit)} {action.effect}{_targets(action.targets)}"
    if isinstance(action, Move):
        return f"move {unit_name(action.unit)} {TILE_NAMES[action.tile]}"
    if isinstance(action, Attack):
        return f"attack {unit_name(action.unit)} {unit_name(action.target)}"
    if isinstance(action, SlotPromote):
        return f"slot promote {unit_name(action.unit)}"
    if isinstance(action, SlotServant):
        return f"slot servant {action.crystal}"
    if isinstance(action, SlotMp):
        return "slot mp"
    for keyword, bare in _BARE.items():
        if type(action) is type(bare):
            return keyword
    raise ValueError(f"not a Crystale entry: {action!r}")


NAME_FIELDS: dict[type, tuple[str, ...]] = {
    Declare: ("crystal",),
    Pull: ("crystal",),
    Show: ("crystals",),
    Summon: ("crystal",),
    Cast: ("crystal",),
    SlotServant: ("crystal",),
    Discard: ("crystals",),
}
"""Where each kind of entry names crystals (matched to the catalog by ``read_entry``)."""


def read_entry(state: CrystaleState, text: str) -> CrystaleAction:
    """``parse`` with crystal names in the catalog's spelling; a name the catalog does not
    hold is no entry (CR-N.4): refused with the closest names, nothing stored."""
    action = parse(text)

    def spelling(name: str) -> str | None:
        found = state.book.find(name)
        return None if found is None else found.name

    try:
        return canonical_names(action, NAME_FIELDS, spelling)
    except UnknownNameError as exc:
        hint = did_you_mean(exc.name, state.book.crystals)
        reason = f"no crystal is called {exc.name!r} in this game's catalog{hint}"
        raise ActionSyntaxError(text, reason, NAME_CLAUSE) from None

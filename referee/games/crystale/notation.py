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
from collections.abc import Callable
from typing import Any, Final

from referee.errors import ActionSyntaxError, quoted
from referee.games.crystale import model
from referee.games.crystale.board import TILE_INDEX, TILE_NAMES
from referee.games.crystale.model import CrystaleAction, CrystaleState
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
    "mulligan": model.Mulligan(),
    "reshuffle": model.Reshuffle(),
    "counter": model.Counter(),
    "hold": model.Hold(),
    "end": model.End(),
    "done": model.Done(),
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
            text, f"{quoted(token)} is not a unit: write u and its number, such as u3", UNIT_CLAUSE
        )
    return int(m.group(1))


def _tile(text: str, token: str) -> int:
    index = TILE_INDEX.get(token.lower())
    if index is None:
        raise _fail(
            text,
            f"{quoted(token)} is not a tile: rows a-e, positions a1-a5, b1-b6, c1-c7, d1-d6, e1-e5",
            TILE_CLAUSE,
        )
    return index


def _name(text: str, words: list[str]) -> str:
    name = " ".join(words)
    if not name:
        raise _fail(text, "a crystal name is missing", NAME_CLAUSE)
    if any(ch in name for ch in ",@/;#") or name.isdigit():
        raise _fail(text, f"{quoted(name)} is not a crystal name", NAME_CLAUSE)
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
            f"{quoted(token)} is not a target: write @ and a unit or tile, such as @u4 or @c3",
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
    reader = _READERS.get(word)
    if reader is None:
        raise _fail(
            text,
            f"unknown entry {quoted(words[0])}; expected first, summoner, pull, mulligan, show, "
            "reshuffle, summon, sacrifice, cast, use, move, attack, counter, hold, slot, end, "
            "discard, promote or done",
        )
    return reader(text, word, rest)


def _read_first(text: str, word: str, rest: list[str]) -> CrystaleAction:
    if len(rest) != 1 or rest[0].lower() not in _SEATS:
        raise _fail(text, "write 'first p1' or 'first p2': the seat that plays the first turn")
    return model.First(rest[0].lower())


def _read_summoner(text: str, word: str, rest: list[str]) -> CrystaleAction:
    return model.Declare(_name(text, rest))


def _read_pull(text: str, word: str, rest: list[str]) -> CrystaleAction:
    if not rest:
        return model.Pull()
    if len(rest) == 1 and rest[0].isdigit():
        count = int(rest[0])
        if not 1 <= count <= _MAX_PULL:
            raise _fail(text, f"a pull takes 1 to {_MAX_PULL} crystals, not {count}")
        return model.Pull(count)
    return model.Pull(1, _name(text, rest))


def _read_names(text: str, word: str, rest: list[str]) -> CrystaleAction:
    """``show`` and ``discard``: crystal names separated by commas."""
    names = _names(text, text.split(None, 1)[1] if rest else "")
    return model.Show(names) if word == "show" else model.Discard(names)


def _read_summon(text: str, word: str, rest: list[str]) -> CrystaleAction:
    if len(rest) < 2 or not rest[-1].startswith("@"):
        raise _fail(text, "write 'summon NAME @TILE', such as summon Cinderpup @b1")
    return model.Summon(_name(text, rest[:-1]), _tile(text, rest[-1][1:]))


def _read_one_unit(text: str, word: str, rest: list[str]) -> CrystaleAction:
    """``sacrifice`` and ``promote``: one unit."""
    if len(rest) != 1:
        raise _fail(text, f"'{word}' takes one unit, such as {word} u3")
    unit = _unit(text, rest[0])
    return model.Sacrifice(unit) if word == "sacrifice" else model.Promote(unit)


def _read_cast(text: str, word: str, rest: list[str]) -> CrystaleAction:
    name_words, targets = _split_targets(text, rest)
    return model.Cast(_name(text, name_words), targets)


def _read_use(text: str, word: str, rest: list[str]) -> CrystaleAction:
    head, targets = _split_targets(text, rest)
    if len(head) != 2 or not head[1].isdigit() or not 1 <= int(head[1]) <= 5:
        raise _fail(
            text,
            "write 'use UNIT N [@TARGET ...]' with the effect's number 1-5, such as use u1 2 @c4",
        )
    return model.Use(_unit(text, head[0]), int(head[1]), targets)


def _read_move(text: str, word: str, rest: list[str]) -> CrystaleAction:
    if len(rest) != 2:
        raise _fail(text, "write 'move UNIT TILE', such as move u3 c3")
    return model.Move(_unit(text, rest[0]), _tile(text, rest[1]))


def _read_attack(text: str, word: str, rest: list[str]) -> CrystaleAction:
    if len(rest) != 2:
        raise _fail(text, "write 'attack UNIT TARGET', such as attack u3 u4")
    return model.Attack(_unit(text, rest[0]), _unit(text, rest[1]))


def _read_slot(text: str, word: str, rest: list[str]) -> CrystaleAction:
    how = rest[0].lower() if rest else ""
    if how == "promote" and len(rest) == 2:
        return model.SlotPromote(_unit(text, rest[1]))
    if how == "servant" and len(rest) >= 2:
        return model.SlotServant(_name(text, rest[1:]))
    if how == "mp" and len(rest) == 1:
        return model.SlotMp()
    raise _fail(text, "write 'slot promote UNIT', 'slot servant NAME' or 'slot mp'")


_READERS: dict[str, Callable[[str, str, list[str]], CrystaleAction]] = {
    "first": _read_first,
    "summoner": _read_summoner,
    "pull": _read_pull,
    "show": _read_names,
    "discard": _read_names,
    "summon": _read_summon,
    "sacrifice": _read_one_unit,
    "promote": _read_one_unit,
    "cast": _read_cast,
    "use": _read_use,
    "move": _read_move,
    "attack": _read_attack,
    "slot": _read_slot,
}
"""The reader of each entry's first word that takes more (the bare words are ``_BARE``)."""


def _targets(targets: tuple[str, ...]) -> str:
    return "".join(" " + format_target(t) for t in targets)


def _pull_text(action: model.Pull) -> str:
    if action.crystal is not None:
        return f"pull {action.crystal}"
    return "pull" if action.count == 1 else f"pull {action.count}"


_WRITERS: dict[type, Callable[[Any], str]] = {
    model.First: lambda a: f"first {a.seat}",
    model.Declare: lambda a: f"summoner {a.crystal}",
    model.Pull: _pull_text,
    model.Show: lambda a: "show " + ", ".join(a.crystals),
    model.Discard: lambda a: "discard " + ", ".join(a.crystals),
    model.Summon: lambda a: f"summon {a.crystal} @{TILE_NAMES[a.tile]}",
    model.Sacrifice: lambda a: f"sacrifice {unit_name(a.unit)}",
    model.Promote: lambda a: f"promote {unit_name(a.unit)}",
    model.Cast: lambda a: f"cast {a.crystal}{_targets(a.targets)}",
    model.Use: lambda a: f"use {unit_name(a.unit)} {a.effect}{_targets(a.targets)}",
    model.Move: lambda a: f"move {unit_name(a.unit)} {TILE_NAMES[a.tile]}",
    model.Attack: lambda a: f"attack {unit_name(a.unit)} {unit_name(a.target)}",
    model.SlotPromote: lambda a: f"slot promote {unit_name(a.unit)}",
    model.SlotServant: lambda a: f"slot servant {a.crystal}",
    model.SlotMp: lambda a: "slot mp",
}
"""The canonical text of each entry type that is more than its bare word."""


def notation(action: CrystaleAction) -> str:
    """The canonical text of ``action``: ``parse(notation(a)) == a``."""
    writer = _WRITERS.get(type(action))
    if writer is not None:
        return writer(action)
    for keyword, bare in _BARE.items():
        if type(action) is type(bare):
            return keyword
    raise ValueError(f"not a Crystale entry: {action!r}")


NAME_FIELDS: dict[type, tuple[str, ...]] = {
    model.Declare: ("crystal",),
    model.Pull: ("crystal",),
    model.Show: ("crystals",),
    model.Summon: ("crystal",),
    model.Cast: ("crystal",),
    model.SlotServant: ("crystal",),
    model.Discard: ("crystals",),
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
        reason = f"no crystal is called {quoted(exc.name)} in this game's catalog{hint}"
        raise ActionSyntaxError(text, reason, NAME_CLAUSE) from None

"""The Gammasphere entry notation (rulebook section GS-N).

One entry per line; field cards are written by number (``#4``)::

    draw                 draw 7                       the turn's draw; an opening hand
    play Gamma Trooper   play Shale Golem (defense)   a character, in attack or defense mode
    play Plasma Blade on #4                           a weapon onto its carrier, a target
    construct Pylon                                   a pylon from hand, for 100 gas
    attack #4 #9         attack #4 direct             an attack (direct only by GS-I.10)
    switch #4 defense    switch #4 attack             a character changes mode
    activate #7          activate #7 on #9            an activated effect
    discard Solar Flare                               end-of-turn discard down to ten
    end                                               the turn is over

Keywords and card names are read in any letter case with any spacing; the rules
match names to the catalog's spelling (GS-N.2). Names cannot contain ``#``,
``;``, ``(`` or ``)``, which keeps every form unambiguous.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from referee.errors import ActionSyntaxError, quoted
from referee.games.gammasphere import model
from referee.games.gammasphere.catalog import FORBIDDEN_IN_NAMES
from referee.games.gammasphere.model import GammasphereAction, GammasphereState
from referee.kit.names import UnknownNameError, canonical_names, did_you_mean

__all__ = ["MAX_DRAW", "NAME_FIELDS", "NOTATION_CLAUSE", "notation", "parse", "read_entry"]

NOTATION_CLAUSE = "GS-N.1"
NAME_CLAUSE = "GS-N.2"
MAX_DRAW = 99
MAX_ID = 10**6

_ID = re.compile(r"#?(\d{1,7})$")
_ON = re.compile(r"^(.*?)\s+on\s+#(\d{1,7})$", re.IGNORECASE)
_MODE = re.compile(r"^(.*?)\s*\(\s*(attack|defense|atk|def)\s*\)$", re.IGNORECASE)
_MODES = {"attack": "attack", "atk": "attack", "defense": "defense", "def": "defense"}
_VERBS = "draw, play, construct, attack, switch, activate, discard or end"


def _number(text: str, token: str, what: str) -> int:
    match = _ID.match(token)
    if not match:
        raise ActionSyntaxError(
            text, f"expected {what} as a field number like #4, got {quoted(token)}", NOTATION_CLAUSE
        )
    value = int(match.group(1))
    if not 1 <= value <= MAX_ID:
        raise ActionSyntaxError(
            text, f"field numbers run from #1; {quoted(token)} is none", NOTATION_CLAUSE
        )
    return value


def _name(text: str, raw: str, verb: str) -> str:
    name = " ".join(raw.split())
    if not name:
        raise ActionSyntaxError(text, f"'{verb}' needs a card name", NOTATION_CLAUSE)
    bad = sorted({ch for ch in name if ch in FORBIDDEN_IN_NAMES})
    if bad:
        raise ActionSyntaxError(
            text,
            f"a card name cannot contain {' '.join(bad)}; write 'play NAME (defense) on #N'",
            NAME_CLAUSE,
        )
    return name


def _parse_play(text: str, rest: str) -> model.Play:
    target = 0
    on = _ON.match(rest)
    if on:
        rest, target = on.group(1), _number(text, on.group(2), "a target")
    mode = ""
    moded = _MODE.match(rest)
    if moded:
        rest, mode = moded.group(1), _MODES[moded.group(2).lower()]
    name = _name(text, rest, "play")
    if mode == "attack":
        return model.Play(name, "attack", target)
    if mode == "defense":
        return model.Play(name, "defense", target)
    return model.Play(name, "", target)


def parse(text: str) -> GammasphereAction:
    """Read one entry; raise :class:`ActionSyntaxError` citing GS-N.1 (or GS-N.2) otherwise."""
    line = " ".join(text.split())
    if not line:
        raise ActionSyntaxError(text, "empty entry", NOTATION_CLAUSE)
    verb, _, rest = line.partition(" ")
    verb = verb.lower()
    words = rest.split()
    reader = _READERS.get(verb)
    if reader is None:
        raise ActionSyntaxError(
            text, f"unknown entry {quoted(verb)}; expected {_VERBS}", NOTATION_CLAUSE
        )
    return reader(text, rest, words)


def _read_end(text: str, rest: str, words: list[str]) -> GammasphereAction:
    if words:
        raise ActionSyntaxError(text, "'end' takes nothing after it", NOTATION_CLAUSE)
    return model.End()


def _read_draw(text: str, rest: str, words: list[str]) -> GammasphereAction:
    if not words:
        return model.Draw(1)
    if len(words) != 1 or not words[0].isdigit():
        raise ActionSyntaxError(
            text, "write 'draw' or 'draw N' (a count of cards)", NOTATION_CLAUSE
        )
    count = int(words[0])
    if not 1 <= count <= MAX_DRAW:
        raise ActionSyntaxError(
            text, f"a draw takes 1 to {MAX_DRAW} cards, not {count}", NOTATION_CLAUSE
        )
    return model.Draw(count)


def _read_play(text: str, rest: str, words: list[str]) -> GammasphereAction:
    return _parse_play(text, rest)


def _read_construct(text: str, rest: str, words: list[str]) -> GammasphereAction:
    return model.Construct(_name(text, rest, "construct"))


def _read_discard(text: str, rest: str, words: list[str]) -> GammasphereAction:
    return model.Discard(_name(text, rest, "discard"))


def _read_attack(text: str, rest: str, words: list[str]) -> GammasphereAction:
    if len(words) != 2:
        raise ActionSyntaxError(text, "write 'attack #A #T' or 'attack #A direct'", NOTATION_CLAUSE)
    attacker = _number(text, words[0], "the attacker")
    if words[1].lower() == "direct":
        return model.Attack(attacker, 0)
    return model.Attack(attacker, _number(text, words[1], "the attacked character"))


def _read_switch(text: str, rest: str, words: list[str]) -> GammasphereAction:
    if len(words) != 2 or words[1].lower() not in _MODES:
        raise ActionSyntaxError(
            text, "write 'switch #N attack' or 'switch #N defense'", NOTATION_CLAUSE
        )
    entity = _number(text, words[0], "the character")
    return model.Switch(entity, "attack" if _MODES[words[1].lower()] == "attack" else "defense")


def _read_activate(text: str, rest: str, words: list[str]) -> GammasphereAction:
    if len(words) == 1:
        return model.Activate(_number(text, words[0], "the entity"))
    if len(words) == 3 and words[1].lower() == "on":
        return model.Activate(
            _number(text, words[0], "the entity"), _number(text, words[2], "the target")
        )
    raise ActionSyntaxError(text, "write 'activate #N' or 'activate #N on #T'", NOTATION_CLAUSE)


_READERS: dict[str, Callable[[str, str, list[str]], GammasphereAction]] = {
    "end": _read_end,
    "draw": _read_draw,
    "play": _read_play,
    "construct": _read_construct,
    "discard": _read_discard,
    "attack": _read_attack,
    "switch": _read_switch,
    "activate": _read_activate,
}
"""The reader of each entry's first word."""


def notation(action: GammasphereAction) -> str:
    """The canonical text of ``action``: ``parse(notation(a)) == a``."""
    if isinstance(action, model.Draw):
        return "draw" if action.count == 1 else f"draw {action.count}"
    if isinstance(action, model.Play):
        text = f"play {action.card}"
        if action.mode:
            text += f" ({action.mode})"
        if action.target:
            text += f" on #{action.target}"
        return text
    if isinstance(action, model.Construct):
        return f"construct {action.card}"
    if isinstance(action, model.Attack):
        return f"attack #{action.attacker} " + (f"#{action.target}" if action.target else "direct")
    if isinstance(action, model.Switch):
        return f"switch #{action.entity} {action.mode}"
    if isinstance(action, model.Activate):
        return f"activate #{action.entity}" + (f" on #{action.target}" if action.target else "")
    if isinstance(action, model.Discard):
        return f"discard {action.card}"
    return "end"


NAME_FIELDS: dict[type, tuple[str, ...]] = {
    model.Play: ("card",),
    model.Construct: ("card",),
    model.Discard: ("card",),
}
"""Where each kind of entry names a card (matched to the catalog by ``read_entry``)."""


def read_entry(state: GammasphereState, text: str) -> GammasphereAction:
    """``parse`` with card names in the spelling of the game's catalog; a name the catalog
    does not hold is no entry (GS-N.2): refused with the closest names, nothing stored."""
    action = parse(text)
    try:
        return canonical_names(action, NAME_FIELDS, state.cards.canonical)
    except UnknownNameError as exc:
        hint = did_you_mean(exc.name, (c.name for c in state.cards.catalog.cards))
        reason = f"no card is called {quoted(exc.name)} in the catalog {state.cards.title!r}{hint}"
        raise ActionSyntaxError(text, reason, NAME_CLAUSE) from None

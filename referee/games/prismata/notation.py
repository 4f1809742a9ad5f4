"""The Prismata action notation (rulebook section PM-N).

Canonical forms, one action per line, unit instances written ``#id``::

    buy Wall                      buy Forcefield consume #3
    click #4                      click #9 on #21           click #30 consume #2
    undo #4      sell #17         block #3      hit #40      breach #12
    unbreach #12                  end

``click`` takes ``on #id`` for a target (chill, snipe, Deadeye's Drone) and
``consume #a #b`` for consumed units, in that order. Input is case-insensitive,
tolerates extra spaces and a missing ``#``; unit names are matched against
both catalogs and written in their display spelling.
"""

from __future__ import annotations

import re
from functools import cache

from referee.errors import ActionSyntaxError, quoted
from referee.games.prismata import model
from referee.games.prismata.catalog import CATALOG_FILES, load_catalog
from referee.games.prismata.model import PrismataAction
from referee.kit.names import did_you_mean

__all__ = ["NOTATION_CLAUSE", "notation", "parse"]

NOTATION_CLAUSE = "PM-N.1"

_OneUnit = model.Undo | model.Sell | model.Block | model.Strike | model.Breach | model.Unbreach
"""The entries that name one unit and nothing more."""

_SINGLE: dict[str, type[_OneUnit]] = {
    "undo": model.Undo,
    "sell": model.Sell,
    "block": model.Block,
    "hit": model.Strike,
    "breach": model.Breach,
    "unbreach": model.Unbreach,
}
_KEYWORD = {cls: word for word, cls in _SINGLE.items()}
_ID = re.compile(r"#?(\d+)$")


@cache
def _names() -> dict[str, str]:
    """Lower-case spelling of every unit name (display and short) to its display name."""
    out: dict[str, str] = {}
    for ruleset in CATALOG_FILES:
        for name, unit in load_catalog(ruleset).units.items():
            out[name.lower()] = name
            if unit.short:
                out.setdefault(unit.short.lower(), name)
    return out


def _unit_id(text: str, token: str) -> int:
    m = _ID.match(token)
    if not m:
        raise ActionSyntaxError(
            text, f"expected a unit id like #12, got {quoted(token)}", NOTATION_CLAUSE
        )
    value = int(m.group(1))
    if value <= 0:
        raise ActionSyntaxError(text, "unit ids start at #1", NOTATION_CLAUSE)
    return value


def _ids(text: str, tokens: list[str]) -> tuple[int, ...]:
    if not tokens:
        raise ActionSyntaxError(text, "'consume' needs at least one unit id", NOTATION_CLAUSE)
    return tuple(_unit_id(text, t) for t in tokens)


def parse(text: str) -> PrismataAction:
    """Read one action; raise :class:`ActionSyntaxError` citing PM-N.1 when it is not one."""
    tokens = text.split()
    if not tokens:
        raise ActionSyntaxError(text, "empty action", NOTATION_CLAUSE)
    word = tokens[0].lower()
    rest = tokens[1:]
    lowered = [t.lower() for t in rest]
    if word == "end":
        if rest:
            raise ActionSyntaxError(text, "'end' takes nothing after it", NOTATION_CLAUSE)
        return model.End()
    if word in _SINGLE:
        if len(rest) != 1:
            raise ActionSyntaxError(text, f"'{word}' takes exactly one unit id", NOTATION_CLAUSE)
        single: PrismataAction = _SINGLE[word](_unit_id(text, rest[0]))
        return single
    if word == "buy":
        return _parse_buy(text, rest, lowered)
    if word == "click":
        return _parse_click(text, rest, lowered)
    raise ActionSyntaxError(
        text,
        f"unknown action {quoted(tokens[0])}; expected buy, click, undo, sell, block, hit, breach, "
        "unbreach or end",
        NOTATION_CLAUSE,
    )


def _parse_buy(text: str, rest: list[str], lowered: list[str]) -> model.Buy:
    """``buy NAME [consume #id ...]``."""
    if "consume" in lowered:
        at = lowered.index("consume")
        name_tokens, eaten = rest[:at], _ids(text, rest[at + 1 :])
    else:
        name_tokens, eaten = rest, ()
    if not name_tokens:
        raise ActionSyntaxError(text, "'buy' needs a unit name", NOTATION_CLAUSE)
    key = " ".join(name_tokens).lower()
    name = _names().get(key)
    if name is None:
        typed = " ".join(name_tokens)
        hint = did_you_mean(typed, sorted(set(_names().values())))
        raise ActionSyntaxError(text, f"no unit is called {quoted(typed)}{hint}", NOTATION_CLAUSE)
    return model.Buy(name, eaten)


def _parse_click(text: str, rest: list[str], lowered: list[str]) -> model.Click:
    """``click #id [on #id] [consume #id ...]``."""
    if not rest:
        raise ActionSyntaxError(text, "'click' needs a unit id", NOTATION_CLAUSE)
    unit = _unit_id(text, rest[0])
    i = 1
    target: int | None = None
    consumed: tuple[int, ...] = ()
    if i < len(rest) and lowered[i] == "on":
        if i + 1 >= len(rest):
            raise ActionSyntaxError(text, "'on' needs a target unit id", NOTATION_CLAUSE)
        target = _unit_id(text, rest[i + 1])
        i += 2
    if i < len(rest):
        if lowered[i] != "consume":
            raise ActionSyntaxError(
                text,
                f"expected 'on #id' or 'consume #id ...', got {quoted(rest[i])}",
                NOTATION_CLAUSE,
            )
        consumed = _ids(text, rest[i + 1 :])
    return model.Click(unit, target, consumed)


def notation(action: PrismataAction) -> str:
    """The canonical text of ``action``."""
    if isinstance(action, model.Buy):
        text = f"buy {action.unit}"
        if action.consume:
            text += " consume " + " ".join(f"#{i}" for i in action.consume)
        return text
    if isinstance(action, model.Click):
        text = f"click #{action.unit}"
        if action.target is not None:
            text += f" on #{action.target}"
        if action.consume:
            text += " consume " + " ".join(f"#{i}" for i in action.consume)
        return text
    if isinstance(action, model.End):
        return "end"
    return f"{_KEYWORD[type(action)]} #{action.unit}"

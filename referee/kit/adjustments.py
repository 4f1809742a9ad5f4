"""Referee adjustments: typed primitive changes for effects the rules cannot compute.

When a card's free text needs a ruling, the referee records what it did as a few
primitive changes, each citing nothing more than what it changes; the adjustment
event carries the card and the referee's reason. A game says which primitives it
takes and what they mean for its state (``GameRules.check_change`` and
``apply_change``), and its core invariants still hold: a card cannot leave an
empty zone, a resource cannot go below zero.

A game's ``adjust`` module declares, in the kit's one dispatch idiom
(``referee.kit.dispatch``), a check and an effect for every kind of change, in the two
tables ``change_tables`` makes: ``CHANGE_CHECKS`` (``(state, change, None) -> Verdict``)
and ``CHANGE_EFFECTS`` (``(state, change, None) -> state``), each with a handler per
member of ``Change`` (held to the whole union by ``tests/contract/test_game_kit.py``);
the kinds a game does not take are registered with ``refuse_changes``, which refuses
them with the game's clause and words.

Notation, one change each, ``;`` between several::

    move p1 hand>discard Fire Imp      a named card from one zone to another
    move p1 deck>hand                  an unseen card (no name)
    stat #12 attack +300               change a stat by an amount (or =2000 to set it)
    resource p1 gas -500               change a seat's resource
    tap #12 / untap #12 / destroy #12  a unit or card on the table, by id or name
    draw p1 2                          a seat draws unseen cards

A named card moved between two of its seat's hidden zones (a deck or pool searched into
the hand, a card put back from the hand) is seen by that seat and the referee only
(REF-6.6): unless the referee records that it was revealed, the other viewers read the
move without its name (``hidden_from``), and the position takes it as a card moved
unseen (``as_applied``), since only the move, not the card, was public.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeAlias, TypeVar, get_args

import msgspec

from referee.errors import AdjustmentSyntaxError
from referee.kit.dispatch import Dispatch
from referee.verdicts import Verdict, Violation

__all__ = [
    "Change",
    "ChangeChecks",
    "ChangeEffects",
    "ChangeResource",
    "ChangeStat",
    "Destroy",
    "DrawCards",
    "MoveCard",
    "Tap",
    "Untap",
    "as_applied",
    "carried_out",
    "change_notation",
    "change_tables",
    "hidden_from",
    "kept_hidden",
    "parse_adjustment",
    "parse_change",
    "refuse_changes",
]


class MoveCard(msgspec.Struct, frozen=True, tag="move"):
    seat: str
    source: str
    target: str
    card: str | None = None


class ChangeStat(msgspec.Struct, frozen=True, tag="stat"):
    target: str
    stat: str
    amount: int
    absolute: bool = False


class ChangeResource(msgspec.Struct, frozen=True, tag="resource"):
    seat: str
    resource: str
    amount: int


class Tap(msgspec.Struct, frozen=True, tag="tap"):
    target: str


class Untap(msgspec.Struct, frozen=True, tag="untap"):
    target: str


class Destroy(msgspec.Struct, frozen=True, tag="destroy"):
    target: str


class DrawCards(msgspec.Struct, frozen=True, tag="draw"):
    seat: str
    count: int


Change = MoveCard | ChangeStat | ChangeResource | Tap | Untap | Destroy | DrawCards

StateT = TypeVar("StateT")
ChangeChecks: TypeAlias = Dispatch[StateT, None, Verdict]
"""A game's check of each kind of change, by its type: ``(state, change, None) -> Verdict``."""
ChangeEffects: TypeAlias = Dispatch[StateT, None, StateT]
"""A game's effect of each kind of checked change, by its type: ``(state, change, None) ->
state``."""

_BY_TAG: dict[str, type[Change]] = {kind.__struct_config__.tag: kind for kind in get_args(Change)}


def change_tables(
    state: type[StateT], game: str
) -> tuple[ChangeChecks[StateT], ChangeEffects[StateT]]:
    """A game's two tables of adjustments, empty, for positions of type ``state``::

    CHANGE_CHECKS, CHANGE_EFFECTS = change_tables(CrystaleState, "Crystale")
    """
    return Dispatch(f"checks of {game} adjustments"), Dispatch(f"{game} adjustments")


def refuse_changes(
    tables: tuple[ChangeChecks[StateT], ChangeEffects[StateT]],
    tags: Iterable[str],
    clause: str,
    reason: str,
) -> None:
    """Register the kinds of change a game does not take, by their notation's word
    (``stat``, ``tap``, ...): each is refused with ``clause`` and ``reason``, so its effect
    is never reached (``TypeError`` if it were)."""
    checks, effects = tables

    def refused(state: StateT, change: Change, _: None) -> Verdict:
        return Verdict.illegal(clause, reason)

    def never(state: StateT, change: Change, _: None) -> StateT:
        raise TypeError(f"change is a {type(change).__name__}, which {checks.what} refuse")

    for tag in tags:
        checks.add(_BY_TAG[tag], refused)
        effects.add(_BY_TAG[tag], never)


_WORD = r"[A-Za-z0-9_#-]+"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "move",
        re.compile(rf"^move\s+({_WORD})\s+({_WORD})\s*>\s*({_WORD})(?:\s+(.+))?$", re.IGNORECASE),
    ),
    ("stat", re.compile(rf"^stat\s+(\S+)\s+({_WORD})\s+([+=-])\s*(\d+)$", re.IGNORECASE)),
    (
        "resource",
        re.compile(rf"^resource\s+({_WORD})\s+({_WORD})\s+([+-])\s*(\d+)$", re.IGNORECASE),
    ),
    ("tap", re.compile(r"^(tap|untap|destroy)\s+(.+)$", re.IGNORECASE)),
    ("draw", re.compile(rf"^draw\s+({_WORD})\s+(\d+)$", re.IGNORECASE)),
]

_LIMIT = 10**9


def parse_change(text: str) -> Change:
    """One primitive change from its notation; ``AdjustmentSyntaxError`` otherwise."""
    line = " ".join(text.split())
    for kind, pattern in _PATTERNS:
        m = pattern.match(line)
        if not m:
            continue
        g = m.groups()
        if kind == "move":
            card = " ".join(g[3].split()) if g[3] else None
            return MoveCard(g[0].lower(), g[1].lower(), g[2].lower(), card)
        if kind == "stat":
            amount = int(g[3])
            if amount > _LIMIT:
                break
            return ChangeStat(g[0], g[1].lower(), amount if g[2] != "-" else -amount, g[2] == "=")
        if kind == "resource":
            amount = int(g[3])
            if amount > _LIMIT:
                break
            return ChangeResource(g[0].lower(), g[1].lower(), amount if g[2] == "+" else -amount)
        if kind == "tap":
            target = " ".join(g[1].split())
            word = g[0].lower()
            return (
                Tap(target)
                if word == "tap"
                else Untap(target)
                if word == "untap"
                else Destroy(target)
            )
        count = int(g[1])
        if not 1 <= count <= 1000:
            break
        return DrawCards(g[0].lower(), count)
    raise AdjustmentSyntaxError(
        f"cannot read {text!r} as an adjustment; write one of: move SEAT FROM>TO [CARD], "
        "stat TARGET STAT +N|-N|=N, resource SEAT NAME +N|-N, tap|untap|destroy TARGET, draw SEAT N"
    )


def parse_adjustment(text: str) -> tuple[Change, ...]:
    """Several changes separated by ``;``."""
    parts = [p for p in (part.strip() for part in text.split(";")) if p]
    if not parts:
        raise AdjustmentSyntaxError("an adjustment needs at least one change")
    return tuple(parse_change(p) for p in parts)


def change_notation(change: Change) -> str:
    """Canonical text: ``parse_change(change_notation(c)) == c``."""
    if isinstance(change, MoveCard):
        tail = f" {change.card}" if change.card else ""
        return f"move {change.seat} {change.source}>{change.target}{tail}"
    if isinstance(change, ChangeStat):
        sign = "=" if change.absolute else ("+" if change.amount >= 0 else "-")
        return f"stat {change.target} {change.stat} {sign}{abs(change.amount)}"
    if isinstance(change, ChangeResource):
        sign = "+" if change.amount >= 0 else "-"
        return f"resource {change.seat} {change.resource} {sign}{abs(change.amount)}"
    if isinstance(change, Tap):
        return f"tap {change.target}"
    if isinstance(change, Untap):
        return f"untap {change.target}"
    if isinstance(change, Destroy):
        return f"destroy {change.target}"
    return f"draw {change.seat} {change.count}"


def kept_hidden(change: Change, hidden_zones: frozenset[str]) -> bool:
    """Whether ``change`` names a card moving between two hidden zones of its seat (REF-6.6):
    what only that seat and the referee see."""
    return (
        isinstance(change, MoveCard)
        and change.card is not None
        and change.source in hidden_zones
        and change.target in hidden_zones
    )


def as_applied(change: Change, hidden_zones: frozenset[str], hidden: bool) -> Change:
    """The change the position takes (REF-6.6): a named move kept hidden between hidden
    zones (``hidden``) changes what everyone knows as an unseen move does; any other
    change as it is. The named change is still the one checked."""
    if hidden and isinstance(change, MoveCard) and kept_hidden(change, hidden_zones):
        return MoveCard(change.seat, change.source, change.target)
    return change


def carried_out(
    check: Callable[[StateT, Change], Verdict],
    apply: Callable[[StateT, Change], StateT],
    state: StateT,
    changes: Iterable[Change],
    hidden_zones: frozenset[str],
    hidden: bool,
    keep: Callable[[StateT, str, str, str], StateT] | None = None,
) -> tuple[StateT, Violation | None]:
    """The position after ``changes``, each checked first (REF-6.3), or the first
    violation. A move kept hidden (REF-6.6) changes the position as an unseen move does,
    and ``keep`` (the game's ``kept_in_sight_of_its_seat``) notes the card its seat and the
    referee know went in; the later changes of the same adjustment are also checked
    against what the referee saw (the named card out of its zone), so an adjustment cannot
    name more copies than the list holds."""
    seen = state  # the referee's eyes: apart from ``state`` once a move was kept hidden
    for change in changes:
        for position in (state,) if seen is state else (seen, state):
            verdict = check(position, change)
            if verdict.violations:
                return state, verdict.violations[0]
        shown = as_applied(change, hidden_zones, hidden)
        if shown is change and seen is state:
            state = seen = apply(state, change)
        else:
            seen, state = apply(seen, change), apply(state, shown)
            if (  # a named move kept hidden: its seat and the referee know the card
                keep is not None
                and shown is not change
                and isinstance(change, MoveCard)
                and change.card is not None
            ):
                state = keep(state, change.seat, change.target, change.card)
    return state, None


def hidden_from(
    changes: tuple[Change, ...], hidden_zones: frozenset[str], viewer: str
) -> tuple[Change, ...]:
    """``changes`` as ``viewer`` (neither the referee nor the moving seat) may read them
    when they were kept hidden (REF-6.6): each named move between hidden zones of another
    seat without its name."""
    return tuple(
        MoveCard(c.seat, c.source, c.target)
        if isinstance(c, MoveCard) and c.seat != viewer and kept_hidden(c, hidden_zones)
        else c
        for c in changes
    )


def adjustment_notation(changes: tuple[Change, ...]) -> str:
    return "; ".join(change_notation(c) for c in changes)

"""Prismata values: the position (:class:`PrismataState`) and the actions.

Every unit instance has an integer id, handed out in increasing order and never
reused, so an action can name exactly which Drone is clicked, which Wall
blocks or which unit is consumed. Units are kept in the order they entered
play (a unit brought back by an undo re-enters at the end); that order has no
effect on our rules but makes imports of reference games exact.

Seats are indexed 0 (``p1``, moves first) and 1 (``p2``).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.games.prismata.catalog import Res

__all__ = [
    "ACTION_TYPES",
    "SEATS",
    "Block",
    "Breach",
    "Buy",
    "Click",
    "End",
    "PrismataAction",
    "PrismataState",
    "Result",
    "Sell",
    "Strike",
    "Table",
    "Unbreach",
    "Undo",
    "Unit",
    "UnitAction",
]

SEATS = ("p1", "p2")

Status = Literal["ready", "used", "idle"]
Phase = Literal["defense", "action", "breach"]


class Unit(msgspec.Struct, frozen=True, omit_defaults=True, kw_only=True):
    """One unit instance.

    ``status``: ``ready`` (its click ability may be used this turn), ``used``
    (clicked this turn) or ``idle`` (no ability available: none at all, just
    bought or made, exhausted). ``build`` is construction turns left and
    ``exhaust`` exhaust turns left. ``lifespan`` 0 means unlimited; ``stamina``
    is clicks left for units that have stamina. ``fresh`` marks a unit bought
    this turn (it may be sold back). ``made``/``ate`` list the units this unit's
    purchase or click created/removed this turn and ``target`` its chill or snipe
    target, so that the action can be undone. ``hit`` is breach damage taken in
    the current breach. ``cause`` says why a dead unit died.
    """

    id: int
    owner: int
    kind: str
    health: int
    chill: int = 0
    build: int = 0
    exhaust: int = 0
    lifespan: int = 0
    stamina: int = 0
    status: Status = "idle"
    fresh: bool = False
    made: tuple[int, ...] = ()
    ate: tuple[int, ...] = ()
    target: int | None = None
    hit: int = 0
    cause: str = ""


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """The variant rulings chosen when the game was created (see the rulebook)."""

    supply: str = "rarity"
    wipeout: str = "draw"
    doomed: str = "survive"
    overkill: str = "destroyed"
    lifespan: str = "reference"
    breach: str = "reach"
    health_cost: str = "may_die"
    made: str = "construct"
    breach_tally: str = "units"


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """How the game ended: ``winner`` is a seat index, ``None`` for a draw."""

    winner: int | None
    clause: str
    reason: str


class PrismataState(msgspec.Struct, frozen=True, kw_only=True):
    """A whole position.

    ``supply`` maps every unit on offer (base set, then the random set) to the
    copies each seat may still buy; ``supply_max`` to the starting numbers.
    ``res`` holds each seat's resources (attack included). ``units`` are the
    living units in play order; ``dead`` are units removed this turn, kept so an
    undo can bring them back. ``turn`` counts finished turns. ``overrun`` counts
    units overrun or damaged in the current breach.
    """

    ruleset: str
    table: Table
    random_set: tuple[str, ...]
    supply: dict[str, tuple[int, int]]
    supply_max: dict[str, tuple[int, int]]
    turn: int
    active: int
    phase: Phase
    res: tuple[Res, Res]
    units: dict[int, Unit]
    dead: dict[int, Unit]
    next_id: int
    overrun: int = 0
    result: Result | None = None


class Buy(msgspec.Struct, frozen=True, tag="buy", tag_field="act"):
    """Buy one ``unit`` (display name), consuming the listed own units."""

    unit: str
    consume: tuple[int, ...] = ()


class Click(msgspec.Struct, frozen=True, tag="click", tag_field="act"):
    """Use unit ``unit``'s click ability, on ``target`` if it needs one,
    consuming the listed units."""

    unit: int
    target: int | None = None
    consume: tuple[int, ...] = ()


class UnitAction(msgspec.Struct, frozen=True, tag_field="act"):
    """An action on one unit instance, ``unit`` (its id): the six that name nothing else."""

    unit: int


class Undo(UnitAction, frozen=True, tag="undo"):
    """Take back the click of unit ``unit`` made this turn."""


class Sell(UnitAction, frozen=True, tag="sell"):
    """Take back the purchase of unit ``unit`` bought this turn."""


class Block(UnitAction, frozen=True, tag="block"):
    """Defense: let own unit ``unit`` take incoming damage."""


class Strike(UnitAction, frozen=True, tag="hit"):
    """Action phase: spend attack on the enemy frontline unit ``unit``."""


class Breach(UnitAction, frozen=True, tag="breach"):
    """Breach: assign remaining attack to enemy unit ``unit``."""


class Unbreach(UnitAction, frozen=True, tag="unbreach"):
    """Breach: take back the damage assigned to unit ``unit``."""


class End(msgspec.Struct, frozen=True, tag="end", tag_field="act"):
    """End the current phase (defense, action or breach)."""


PrismataAction = Buy | Click | Undo | Sell | Block | Strike | Breach | Unbreach | End
ACTION_TYPES = (Buy, Click, Undo, Sell, Block, Strike, Breach, Unbreach, End)

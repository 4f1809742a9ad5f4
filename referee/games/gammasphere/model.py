"""Gammasphere values: the position the referee knows (:class:`GammasphereState`) and the
entries (actions) a referee records.

The state holds only what the table has witnessed: for each seat its gas, power
level and jiggawatts, its hand and deck as hidden zones (a count plus any card
everyone saw go there), its public discard pile, and what is known of its
registered list. Cards on the field are :class:`Entity` values with a number
(``#1``, ``#2``...) that is never reused, so entries name exactly which card acts.

Seats are indexed 0 (``p1``) and 1 (``p2``).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.games.gammasphere.catalog import CardKind, Cards
from referee.kit.decks import DeckKnowledge
from referee.kit.zones import HiddenZone

__all__ = [
    "ACTION_TYPES",
    "SEATS",
    "Activate",
    "Attack",
    "Construct",
    "Discard",
    "Draw",
    "End",
    "Entity",
    "GammasphereAction",
    "GammasphereState",
    "Mode",
    "Phase",
    "Play",
    "Result",
    "Side",
    "Switch",
    "Table",
]

SEATS = ("p1", "p2")

Mode = Literal["attack", "defense"]
Phase = Literal["opening", "draw", "main", "discard"]


class Table(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """The variant rulings the table chose (see the GS-I clauses)."""

    deck_limits: str = "open"
    first_draw: str = "yes"
    empty_deck: str = "skip"
    attack_taps: str = "yes"
    attack_tie: str = "both"
    defender_loses: str = "no"
    direct_attack: str = "no"
    building_weapons: str = "marked"
    hand_limit: str = "every"
    switch_limit: str = "any"
    first_turn_attack: str = "yes"
    no_target: str = "play"
    weapon_carriers: str = "own"
    self_target: str = "no"


class Entity(msgspec.Struct, frozen=True, gc=False, kw_only=True, omit_defaults=True):
    """A card on the field: a character, building, weapon or pylon.

    ``mode`` is ``attack`` or ``defense`` for characters and empty otherwise;
    ``level`` is a character's current level; ``attack_bonus`` and
    ``defense_bonus`` are changes the referee recorded (for a weapon, changes to
    its boosts); ``carrier`` is the number of the entity a weapon is attached to;
    ``switched`` marks a character that changed mode this turn where a table allows one
    switch a turn (GS-I.26).
    """

    id: int
    card: str
    owner: int
    kind: CardKind
    mode: Literal["attack", "defense", ""] = ""
    tapped: bool = False
    level: int = 0
    attack_bonus: int = 0
    defense_bonus: int = 0
    carrier: int = 0
    switched: bool = False


class Side(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """One seat's resources and piles.

    ``knowledge`` is always kept (a seat with no registered list has one with no
    list, which still counts the cards it has shown, GS-3.5); ``registered`` says
    whether a list (open or sealed) was registered. ``opened`` is whether the
    opening hand was drawn; ``jiggawatts`` is the pool effects gave (GS-I.21).
    """

    seat: str
    gas: int
    power: int
    hand: HiddenZone
    deck: HiddenZone
    knowledge: DeckKnowledge
    registered: bool = False
    discard: tuple[str, ...] = ()
    jiggawatts: int = 0
    opened: bool = False


class Result(msgspec.Struct, frozen=True, gc=False):
    """How the game ended by rule: ``winner`` is a seat index, ``None`` for a draw."""

    winner: int | None
    clause: str
    reason: str


class GammasphereState(msgspec.Struct, frozen=True, kw_only=True):
    """A whole position.

    ``turn`` counts turns from 1 (0 while the opening hands are drawn); ``active``
    is the seat whose turn it is (the first player during the opening); ``phase``
    is ``opening`` (both seats draw their hands), ``draw`` (the turn's draw is
    awaited), ``main`` or ``discard`` (the turn is over but the hand still holds
    more than ten). ``field`` lists the entities in the order they entered.
    ``result`` records a loss the moment it happens (a deck-out, GS-I.5); power
    levels at zero are read from ``sides`` (``field.finished``).
    """

    cards: Cards
    table: Table
    first: int
    sides: tuple[Side, Side]
    field: tuple[Entity, ...] = ()
    next_id: int = 1
    turn: int = 0
    active: int = 0
    phase: Phase = "opening"
    result: Result | None = None


# -- entries -------------------------------------------------------------------


class Draw(msgspec.Struct, frozen=True, gc=False, tag="draw", tag_field="act"):
    """Cards drawn unseen from the player's deck: the opening hand or the turn's draw."""

    count: int = 1


class Play(msgspec.Struct, frozen=True, gc=False, tag="play", tag_field="act"):
    """A card played from hand: a character (in ``mode``), building, weapon or event.

    ``mode`` is empty when the entry names none (a character then enters in attack
    mode); ``target`` is the field number after ``on`` (0 for none).
    """

    card: str
    mode: Literal["", "attack", "defense"] = ""
    target: int = 0


class Construct(msgspec.Struct, frozen=True, gc=False, tag="construct", tag_field="act"):
    """A pylon card constructed from hand for 100 gas."""

    card: str


class Attack(msgspec.Struct, frozen=True, gc=False, tag="attack", tag_field="act"):
    """Character ``attacker`` attacks character ``target`` (0: the player directly)."""

    attacker: int
    target: int = 0


class Switch(msgspec.Struct, frozen=True, gc=False, tag="switch", tag_field="act"):
    """Character ``entity`` turns to ``mode``."""

    entity: int
    mode: Mode


class Activate(msgspec.Struct, frozen=True, gc=False, tag="activate", tag_field="act"):
    """The activated effect of entity ``entity``, on ``target`` when it names one."""

    entity: int
    target: int = 0


class Discard(msgspec.Struct, frozen=True, gc=False, tag="discard", tag_field="act"):
    """A named card discarded from hand at the end of a turn (hand over ten)."""

    card: str


class End(msgspec.Struct, frozen=True, gc=False, tag="end", tag_field="act"):
    """The player declares the turn over."""


GammasphereAction = Draw | Play | Construct | Attack | Switch | Activate | Discard | End
ACTION_TYPES = (Draw, Play, Construct, Attack, Switch, Activate, Discard, End)

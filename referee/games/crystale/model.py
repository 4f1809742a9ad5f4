"""Crystale values: the position (:class:`CrystaleState`) and the entries (actions).

Seats are indexed 0 (``p1``) and 1 (``p2``). Units on the board have ids handed
out in increasing order and never reused: ``u1`` is p1's Summoner, ``u2`` p2's,
Servants start at ``u3`` (CR-N.3). A state keeps only what the referee knows:
each seat's pool and hand are hidden zones (a count plus the crystals known to be
there), the Higher Plane is face up, and the registered pool minus every crystal
seen is kept in each seat's ``DeckKnowledge`` (CR-12).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.games.crystale.catalog import Book
from referee.kit.decks import DeckKnowledge
from referee.kit.multiset import Multiset
from referee.kit.zones import HiddenZone

__all__ = [
    "ACTION_TYPES",
    "SEATS",
    "Attack",
    "Cast",
    "Counter",
    "CrystaleAction",
    "CrystaleState",
    "Declare",
    "Discard",
    "Done",
    "End",
    "First",
    "Hold",
    "Move",
    "Mulligan",
    "Phase",
    "Promote",
    "Pull",
    "Reshuffle",
    "Result",
    "Sacrifice",
    "Show",
    "Side",
    "SlotMp",
    "SlotPromote",
    "SlotServant",
    "Summon",
    "Table",
    "Unit",
    "Use",
]

SEATS = ("p1", "p2")
HIT_BOX = 3
HAND_LIMIT = 9
OPENING_HAND = 6
OPENING_SERVANTS = 3
SLOT_THRESHOLDS = (2, 4, 7)
RESHUFFLE_MP = 50
SECOND_PLAYER_BONUS = 20

Phase = Literal["start", "pull", "main", "counter", "discard", "promotion"]


class Table(msgspec.Struct, frozen=True, gc=False):
    """The variant rulings the table chose (CR-I clauses)."""

    counterattack: str = "choice"
    bonus_mp: str = "over_cap"
    start_mp: str = "full"
    promotion_hp: str = "full"
    attack_after_move: str = "yes"
    trigger_order: str = "reverse"
    summon_sacrifice: str = "either"
    counter_range: str = "any"
    counter_fatigue: str = "again"
    slot_phase: str = "main"
    slot_earning: str = "once"
    zero_strike: str = "no_hit"
    slot_servant: str = "hand"
    attacks: str = "each"
    knowledge: str = "follows"


class Unit(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A Summoner or Servant on the board.

    ``hp`` is meaningful for Servants only (a Summoner has a hit box, kept on its
    side). ``atk_mod`` is a lasting ATK change set by a referee's adjustment and
    ``atk_turn`` one that ends with the turn (CR-10.1). ``moved``, ``attacked``
    (fatigued, CR-8.9) and ``used_effect`` are cleared when a turn starts.
    """

    id: int
    seat: int
    crystal: str
    tile: int
    summoner: bool = False
    rank: int = 1
    hp: int = 0
    atk_mod: int = 0
    atk_turn: int = 0
    moved: bool = False
    attacked: bool = False
    used_effect: bool = False


class Side(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """One seat's crystals and Summoner.

    ``pool`` and ``hand`` are hidden zones; ``plane`` is the Higher Plane, face
    up. ``mp`` and ``bonus`` (MP above the Mana Pool still left from the second
    player's bonus, CR-I.6), ``hits`` left in the hit box, promotion slots earned
    and used, whether the turn's one summon or sacrifice was made, and whether the
    opening hand was shown. ``summoned`` is the turn's one summon or sacrifice; under the
    ``summon_sacrifice=each`` variant it is the summon only and ``sacrificed`` the
    sacrifice (CR-I.27). ``attacked`` says whether one of its Servants attacked this turn
    (the one attack of the ``attacks=one`` variant, CR-I.26).
    """

    knowledge: DeckKnowledge | None
    pool: HiddenZone
    hand: HiddenZone
    plane: Multiset = Multiset()
    summoner: str | None = None
    mana_pool: int = 0
    recharge: int = 0
    element: str = ""
    mp: int = 0
    bonus: int = 0
    hits: int = HIT_BOX
    slots_earned: int = 0
    slots_used: int = 0
    summoned: bool = False
    sacrificed: bool = False
    shown: bool = False
    attacked: bool = False


class Result(msgspec.Struct, frozen=True, gc=False):
    """How the battle ended: ``winner`` is a seat index."""

    winner: int
    clause: str
    reason: str


class CrystaleState(msgspec.Struct, frozen=True, gc=False):
    """A whole position.

    ``tiles`` holds one element letter per tile in reading order (CR-4.5).
    ``first`` is the seat that plays first once chosen (CR-5.1). ``counter``
    holds (attacker, defender) while the defender decides on a counterattack
    (CR-8.7). ``promoted`` lists units promoted in the current promotion phase.
    """

    book: Book
    table: Table
    tiles: str
    units: dict[int, Unit]
    sides: tuple[Side, Side]
    phase: Phase = "start"
    active: int = 0
    first: int | None = None
    turn: int = 0
    next_id: int = 3
    counter: tuple[int, int] | None = None
    promoted: tuple[int, ...] = ()
    result: Result | None = None


# -- actions ---------------------------------------------------------------------
class First(msgspec.Struct, frozen=True, gc=False, tag="first", tag_field="act"):
    """The rock-paper-scissors winner (the seat making the entry) names who goes first."""

    seat: str


class Declare(msgspec.Struct, frozen=True, gc=False, tag="summoner", tag_field="act"):
    """A seat with a sealed pool shows its Summoner crystal and places it."""

    crystal: str


class Pull(msgspec.Struct, frozen=True, gc=False, tag="pull", tag_field="act"):
    """Draw ``count`` crystals from the pool unseen, or one named crystal seen by all."""

    count: int = 1
    crystal: str | None = None


class Mulligan(msgspec.Struct, frozen=True, gc=False, tag="mulligan", tag_field="act"):
    """Shuffle the opening hand back into the pool (CR-I.5)."""


class Show(msgspec.Struct, frozen=True, gc=False, tag="show", tag_field="act"):
    """Show at least 3 Servant crystals of the opening hand (CR-5.3)."""

    crystals: tuple[str, ...]


class Reshuffle(msgspec.Struct, frozen=True, gc=False, tag="reshuffle", tag_field="act"):
    """Pay 1 hit and 50 MP to shuffle the Higher Plane into an empty pool (CR-6.2)."""


class Summon(msgspec.Struct, frozen=True, gc=False, tag="summon", tag_field="act"):
    crystal: str
    tile: int


class Sacrifice(msgspec.Struct, frozen=True, gc=False, tag="sacrifice", tag_field="act"):
    unit: int


class Cast(msgspec.Struct, frozen=True, gc=False, tag="cast", tag_field="act"):
    """Cast a Spell (or God) crystal from hand; targets in printed effect order."""

    crystal: str
    targets: tuple[str, ...] = ()


class Use(msgspec.Struct, frozen=True, gc=False, tag="use", tag_field="act"):
    """Use effect number ``effect`` (from 1) of a unit on the board."""

    unit: int
    effect: int
    targets: tuple[str, ...] = ()


class Move(msgspec.Struct, frozen=True, gc=False, tag="move", tag_field="act"):
    unit: int
    tile: int


class Attack(msgspec.Struct, frozen=True, gc=False, tag="attack", tag_field="act"):
    unit: int
    target: int


class Counter(msgspec.Struct, frozen=True, gc=False, tag="counter", tag_field="act"):
    """The defending Servant strikes back (CR-8.7)."""


class Hold(msgspec.Struct, frozen=True, gc=False, tag="hold", tag_field="act"):
    """The defending Servant does not strike back (CR-8.7, CR-I.9)."""


class SlotPromote(msgspec.Struct, frozen=True, gc=False, tag="slot-promote", tag_field="act"):
    unit: int


class SlotServant(msgspec.Struct, frozen=True, gc=False, tag="slot-servant", tag_field="act"):
    """The random Servant a promotion slot takes from the pool, as reported."""

    crystal: str


class SlotMp(msgspec.Struct, frozen=True, gc=False, tag="slot-mp", tag_field="act"):
    """A promotion slot regains MP equal to the Summoner's Recharge."""


class End(msgspec.Struct, frozen=True, gc=False, tag="end", tag_field="act"):
    """Close the main phase: the End phase begins (CR-10.1)."""


class Discard(msgspec.Struct, frozen=True, gc=False, tag="discard", tag_field="act"):
    """Move crystals from hand to the Higher Plane down to the hand limit (CR-10.2)."""

    crystals: tuple[str, ...]


class Promote(msgspec.Struct, frozen=True, gc=False, tag="promote", tag_field="act"):
    """Promote a Servant whose requirement is met, in the Promotion phase (CR-10.3)."""

    unit: int


class Done(msgspec.Struct, frozen=True, gc=False, tag="done", tag_field="act"):
    """Close the Promotion phase; the opponent's turn begins."""


CrystaleAction = (
    First
    | Declare
    | Pull
    | Mulligan
    | Show
    | Reshuffle
    | Summon
    | Sacrifice
    | Cast
    | Use
    | Move
    | Attack
    | Counter
    | Hold
    | SlotPromote
    | SlotServant
    | SlotMp
    | End
    | Discard
    | Promote
    | Done
)
ACTION_TYPES = (
    First,
    Declare,
    Pull,
    Mulligan,
    Show,
    Reshuffle,
    Summon,
    Sacrifice,
    Cast,
    Use,
    Move,
    Attack,
    Counter,
    Hold,
    SlotPromote,
    SlotServant,
    SlotMp,
    End,
    Discard,
    Promote,
    Done,
)

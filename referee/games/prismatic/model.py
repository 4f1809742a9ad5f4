"""Prismatic values: the position (:class:`PrismaticState`) and the entries (actions).

The position is what the referee knows, which at a Prismatic table is nearly
everything: each bag's exact contents (motes are only ever drawn, shown,
committed, returned or gained in full view), every card's place, the supplies.
Only the order of the bags and the deck is unknown, and the deck's contents are
the catalog minus every card seen. Sealed auction bids are the one secret.

Entries are a tagged union (:data:`PrismaticAction`); ``Take`` and ``Use`` carry
an action's details (:data:`ActionDetail`), ``CreateBoard`` the choice a board
creation needs (:data:`BoardChoice`).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.games.prismatic.catalog import Catalog, Effect
from referee.kit.multiset import Multiset

__all__ = [
    "SEATS",
    "ActionDetail",
    "Auction",
    "Bid",
    "BoardChoice",
    "BoardDraw",
    "Choose",
    "Colours",
    "Commit",
    "Create",
    "CreateBoard",
    "Decline",
    "Discard",
    "DrawCard",
    "DrawMotes",
    "Empty",
    "Forgo",
    "Held",
    "Keep",
    "Pass",
    "PrismaticAction",
    "PrismaticState",
    "Pull",
    "Remove",
    "Reveal",
    "SeatState",
    "Steal",
    "Step",
    "Table",
    "Take",
    "TakeMote",
    "TakePool",
    "TakePrisms",
    "TakeText",
    "Use",
]

SEATS: tuple[str, ...] = ("p1", "p2", "p3", "p4")
PALETTE = "palette"

# -- action details (inside Use and Take) ---------------------------------------------


class Pull(msgspec.Struct, frozen=True, gc=False, tag="pull", omit_defaults=True):
    """Pull one mote from the bag: ``to`` the palette or an own card, or back (``to`` empty).
    ``mote`` empty records a pull from an empty bag (nothing happens)."""

    mote: str = ""
    to: str = ""


class Empty(msgspec.Struct, frozen=True, gc=False, tag="empty", omit_defaults=True):
    """Empty a palette (``target`` = ``palette``, ``owner`` another seat's) or a play card."""

    target: str
    owner: str = ""


class DrawCard(msgspec.Struct, frozen=True, gc=False, tag="draw", omit_defaults=True):
    """Draw a named card to the progress area or the common area (``replace`` a common card
    when three are out); ``card`` empty records that no card was taken: the draw is
    optional (PX-10.3) unless the table made it compulsory (PX-I.28), and the deck may be
    spent."""

    card: str = ""
    to: Literal["progress", "common"] = "progress"
    replace: str = ""


class Discard(msgspec.Struct, frozen=True, gc=False, tag="discard"):
    card: str


class Steal(msgspec.Struct, frozen=True, gc=False, tag="steal"):
    card: str


ActionDetail = Pull | Empty | DrawCard | Discard | Steal


class TakePool(msgspec.Struct, frozen=True, gc=False, tag="pool"):
    colour: str


class TakeMote(msgspec.Struct, frozen=True, gc=False, tag="mote"):
    colour: str


class TakePrisms(msgspec.Struct, frozen=True, gc=False, tag="prisms"):
    count: int = 1


class TakeText(msgspec.Struct, frozen=True, gc=False, tag="text"):
    pass


Reward = TakePool | TakeMote | TakePrisms | TakeText | Pull | Empty | DrawCard | Discard | Steal


class BoardDraw(msgspec.Struct, frozen=True, gc=False, tag="keep", omit_defaults=True):
    """The board's draw-two-keep-one: the card kept and the one discarded (empty when the
    deck held fewer than two)."""

    keep: str = ""
    discard: str = ""


BoardChoice = BoardDraw | Discard

# -- entries ----------------------------------------------------------------------------


class Reveal(msgspec.Struct, frozen=True, gc=False, tag="reveal"):
    """A common card turned up from the deck (setup and refills), named."""

    card: str


class Choose(msgspec.Struct, frozen=True, gc=False, tag="choose"):
    """The two motes a player chooses for the bag at setup."""

    motes: tuple[str, ...]


class Keep(msgspec.Struct, frozen=True, gc=False, tag="keep"):
    """The two play cards dealt at setup: the one kept and the one discarded."""

    keep: str
    discard: str


class DrawMotes(msgspec.Struct, frozen=True, gc=False, tag="draw"):
    """The motes a player drew in step 1, as shown (empty: nothing to draw)."""

    motes: tuple[str, ...]


class Commit(msgspec.Struct, frozen=True, gc=False, tag="commit"):
    """Motes (from those drawn) and prisms placed on the palette or an own card."""

    motes: tuple[str, ...]
    prisms: int
    target: str


class Pass(msgspec.Struct, frozen=True, gc=False, tag="pass"):
    """A player finished the commit step, or their turn in the resolve step."""


class Create(msgspec.Struct, frozen=True, gc=False, tag="create", omit_defaults=True):
    """Create a play card (own progress or common), ``pool`` colours paying part of it."""

    card: str
    pool: tuple[str, ...] = ()


class CreateBoard(msgspec.Struct, frozen=True, gc=False, tag="board", omit_defaults=True):
    """Create a board creation by one of its methods (``red-mote.2``)."""

    method: str
    pool: tuple[str, ...] = ()
    choice: BoardChoice | None = None


class Use(msgspec.Struct, frozen=True, gc=False, tag="use", omit_defaults=True):
    """Use the ability of a card in the creation area, with an action's details."""

    card: str
    detail: ActionDetail | None = None


class Take(msgspec.Struct, frozen=True, gc=False, tag="take"):
    """Receive one of the pending one-time rewards."""

    reward: Reward


class Decline(msgspec.Struct, frozen=True, gc=False, tag="decline"):
    """Decline every reward still pending."""


class Remove(msgspec.Struct, frozen=True, gc=False, tag="remove"):
    """A card taken out of the player's own progress area without an action (only with
    variant progress_removal=free, PX-I.23)."""

    card: str


class Bid(msgspec.Struct, frozen=True, gc=False, tag="bid"):
    """A sealed bid of prisms for the starter token (auction house rule)."""

    amount: int


class Forgo(msgspec.Struct, frozen=True, gc=False, tag="forgo"):
    """A tied bidder drops out of the auction."""


class Colours(msgspec.Struct, frozen=True, gc=False, tag="colours"):
    """The referee's judgement of who wears the most colours among tied players, best first;
    an inner tuple holds seats judged equal."""

    ranking: tuple[tuple[str, ...], ...]


PrismaticAction = (
    Reveal
    | Choose
    | Keep
    | DrawMotes
    | Commit
    | Pass
    | Create
    | CreateBoard
    | Use
    | Take
    | Decline
    | Remove
    | Bid
    | Forgo
    | Colours
)

# -- the position ------------------------------------------------------------------------

Step = Literal["deal", "setup", "draw", "commit", "resolve", "refill", "auction", "colours", "over"]


class Held(msgspec.Struct, frozen=True, gc=False):
    """A play card in a player's area with the motes and prisms committed to it."""

    name: str
    motes: Multiset = Multiset()
    prisms: int = 0


class SeatState(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """One player's belongings and progress through the current step.

    ``incoming`` holds motes gained during the resolve step, which join the bag when
    the round ends (PX-I.3). ``done`` marks the draw or commit step finished;
    ``reached`` is the order in which the player reached the creation goal (1 first)."""

    seat: str
    active: bool = True
    bag: Multiset
    incoming: Multiset = Multiset()
    hand: Multiset = Multiset()
    prisms: int = 1
    palette: Multiset = Multiset()
    palette_prisms: int = 0
    progress: tuple[Held, ...] = ()
    creation: tuple[Held, ...] = ()
    pool: Multiset = Multiset()
    board_used: tuple[str, ...] = ()
    abilities_used: tuple[str, ...] = ()
    chose: bool = False
    kept: bool = False
    done: bool = False
    reached: int = 0

    def progress_card(self, name: str) -> Held | None:
        for held in self.progress:
            if held.name == name:
                return held
        return None

    def creation_card(self, name: str) -> Held | None:
        for held in self.creation:
            if held.name == name:
                return held
        return None

    def committed_motes(self) -> Multiset:
        """Every mote this player has committed anywhere."""
        total = self.palette
        for held in self.progress + self.creation:
            if held.motes:
                total = total.plus(held.motes)
        return total

    def committed_prisms(self) -> int:
        return self.palette_prisms + sum(h.prisms for h in self.progress + self.creation)


class Table(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """The creation goal and the variant rulings chosen when the game was created."""

    goal: int
    spent_motes: str = "supply"
    gained_motes: str = "rewards_wait"
    ability_uses: str = "once"
    empty_target: str = "own"
    empty_deck: str = "stop"
    starter_token: str = "pass"
    draw_action: str = "optional"
    progress_removal: str = "discard_only"
    components: str = "limited"
    goal_reach: str = "end"
    opening_forgo: str = "no_bid"


class Auction(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """The starter-token auction in progress.

    ``standing``: bids revealed and still in; ``asked``: the seats bidding in this
    round (everyone first, then the tied); ``sealed``: this round's entries, secret
    until the round is complete (-1 for forgo); ``floor``: a tie round's bids must
    exceed it."""

    standing: tuple[tuple[str, int], ...] = ()
    asked: tuple[str, ...] = ()
    sealed: tuple[tuple[str, int], ...] = ()
    floor: int = -1


class PrismaticState(msgspec.Struct, frozen=True, kw_only=True):
    """A whole position. ``players`` holds the seats in play, in seat (clockwise) order.

    ``deck`` lists the cards not yet seen (sorted); ``order`` is this round's resolve
    order from the starter; ``pending`` the rewards of ``pending_card`` still to be
    settled by the resolving player; ``wearing`` the referee's colour judgements
    (lower is better) used by the last tie-break; ``reached`` how many players have
    reached the goal; ``withdrawn`` the seats that left, in the order they left."""

    table: Table
    catalog: Catalog
    players: tuple[SeatState, ...]
    step: Step
    round: int = 1
    starter: str
    final_round: int = 0
    commons: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    supply: Multiset
    supply_prisms: int
    order: tuple[str, ...] = ()
    resolver: int = 0
    pending: tuple[Effect, ...] = ()
    pending_card: str = ""
    auction: Auction | None = None
    wearing: tuple[tuple[str, int], ...] = ()
    reached: int = 0
    withdrawn: tuple[str, ...] = ()

    def player(self, seat: str) -> SeatState:
        for p in self.players:
            if p.seat == seat:
                return p
        raise KeyError(f"{seat} is not playing")

    def index(self, seat: str) -> int:
        for i, p in enumerate(self.players):
            if p.seat == seat:
                return i
        raise KeyError(f"{seat} is not playing")

    @property
    def active(self) -> tuple[str, ...]:
        return tuple(p.seat for p in self.players if p.active)

    @property
    def resolving(self) -> str | None:
        if self.step != "resolve" or self.resolver >= len(self.order):
            return None
        return self.order[self.resolver]

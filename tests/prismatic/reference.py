"""An independent reference model of Prismatic's turn rules, for differential tests.

Written from the rules text alone (/work/shared/rules/prismatic.txt) before reading the
engine, in a deliberately naive style: plain dicts and Counters, one function per entry,
a deep copy per step. It reads the example catalog files itself (tomllib and its own
icon parser), so it shares nothing with ``referee.games.prismatic`` but the entry
vocabulary (the action structs), which only names what a player did.

What the model holds, as the text has it:

- setup: three common cards turned up; each player keeps one of two dealt cards in
  progress; a bag of 2 R, 2 G, 2 B, 1 W, 1 K plus two chosen non-prismatic motes; one prism.
- step 1: every player draws five motes from their bag (all of them if fewer); a player
  whose bag is empty first takes every committed mote back into the bag (prisms stay).
- step 2: drawn motes and held prisms go on the own palette, progress cards or creation
  cards; what is not committed goes back to the bag.
- step 3: from the starter clockwise, one player at a time creates progress cards (paid from
  the card), common cards and board creations (paid from the palette), each board method once
  a round, colour-pool colours standing in for motes; created cards go to the creation area
  and give their one-time rewards (optional, any order); created cards' abilities work from
  motes or prisms committed on them, never from the pool; the pool is lost after the turn.
- actions: pull (one mote from the bag, committed or put back), empty (a palette or card:
  motes to the bag, prisms lost), draw (a card to progress or the commons, replacing a common
  when three are out), discard (own progress or common: motes back to the owner, prisms
  lost), steal (a common or another's progress card into own progress, same returns).
- step 4: refill the commons to three, check the creation goal (one last round follows),
  pass the starter token clockwise.
- end: committed motes back to the bag, unused committed prisms back to the player; the
  score chart and its tie-breaks.

Where the text is silent the model follows the project's numbered defaults (PX-I.*), named
where used: spent motes to the supply (I.1), the surplus of a created progress card home
(I.2), rewarded motes joining the bag at the round's end while board and addition motes go
in at once (I.3), abilities once a round (I.5), empty on own things (I.7), no reshuffle
(I.8), draw optional (I.28), no free removal (I.23), the box's counts as the limit (I.29;
with components=proxy a missing colour mote or prism is stood in for, the supply's count
staying at zero, and only the prismatic motes run out), a goal nobody can reach any more
ending the game like a reached one (I.30; with goal_reach=play_on only a reached goal does),
and a first-round forgo making no bid in the auction (I.32; opening_forgo=refuse refuses it).
Each switch is taken as the engine's variant of the same name.
"""

from __future__ import annotations

import copy
import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.games.prismatic import model as m

CATALOGS = Path(__file__).resolve().parents[2] / "referee" / "games" / "prismatic" / "catalogs"
COLOURS = "RGBCMYWK"
SEAT_ORDER = ("p1", "p2", "p3", "p4")
ACTIONS: dict[str, type] = {
    "pull": m.Pull,
    "empty": m.Empty,
    "draw": m.DrawCard,
    "discard": m.Discard,
    "steal": m.Steal,
}


# -- the catalog, read from the files ------------------------------------------------------


@dataclass(frozen=True)
class Icon:
    """One printed icon: ``kind`` is pool, mote, prisms, text or an action name."""

    kind: str
    colour: str = ""
    count: int = 0


@dataclass(frozen=True)
class Power:
    """A card ability: an addition (``source`` empty) or a transformation from a mote colour
    or ``prism`` into ``icon``."""

    source: str
    icon: Icon


@dataclass(frozen=True)
class Card:
    name: str
    type: str
    stars: int
    motes: Counter[str]
    prisms: int
    rewards: tuple[Icon, ...]
    power: Power | None


def _icon(text: str) -> Icon:
    text = text.strip()
    if text.startswith("text"):
        return Icon("text")
    words = text.split()
    if words[0] == "pool":
        return Icon("pool", words[1])
    if words[0] == "mote":
        return Icon("mote", words[1])
    if words[-1] in ("prism", "prisms"):
        return Icon("prisms", count=int(words[0]) if len(words) == 2 else 1)
    if words[0] == "draw" and len(words) > 1:
        return Icon("draw2")
    return Icon(words[0])


def _cost(text: str) -> tuple[Counter[str], int]:
    motes: Counter[str] = Counter()
    prisms = 0
    words = text.split()
    i = 0
    while i < len(words):
        if words[i].isdigit():
            prisms += int(words[i])
            i += 2
        else:
            motes[words[i]] += 1
            i += 1
    return motes, prisms


def _power(text: str | None) -> Power | None:
    if text is None:
        return None
    if "->" in text and not text.startswith("text"):
        source, _, target = text.partition("->")
        return Power(source.strip(), _icon(target))
    return Power("", _icon(text))


def load_cards() -> dict[str, Card]:
    raw = tomllib.loads((CATALOGS / "example-cards.toml").read_text())
    cards = {}
    for row in raw["cards"]:
        motes, prisms = _cost(row["cost"])
        cards[row["name"]] = Card(
            row["name"],
            row["type"],
            row.get("stars", 0),
            motes,
            prisms,
            tuple(_icon(r) for r in row.get("rewards", [])),
            _power(row.get("ability")),
        )
    return cards


def load_board() -> dict[str, tuple[Icon, Counter[str], int]]:
    """Every board method (``key.n``): its effect and its requirement."""
    raw = tomllib.loads((CATALOGS / "example-board.toml").read_text())
    board = {}
    for row in raw["creations"]:
        for n, method in enumerate(row["methods"], start=1):
            motes, prisms = _cost(method)
            board[f"{row['key']}.{n}"] = (_icon(row["effect"]), motes, prisms)
    return board


CARDS = load_cards()
BOARD = load_board()


# -- the position --------------------------------------------------------------------------


@dataclass
class Spot:
    """A palette or a play card with what is committed on it."""

    motes: Counter[str] = field(default_factory=Counter)
    prisms: int = 0


@dataclass
class Seat:
    seat: str
    bag: Counter[str] = field(default_factory=Counter)
    waiting: Counter[str] = field(default_factory=Counter)  # gained this turn (PX-I.3)
    hand: Counter[str] = field(default_factory=Counter)
    prisms: int = 1
    palette: Spot = field(default_factory=Spot)
    progress: dict[str, Spot] = field(default_factory=dict)
    creation: dict[str, Spot] = field(default_factory=dict)
    pool: Counter[str] = field(default_factory=Counter)
    board_used: set[str] = field(default_factory=set)
    used: set[str] = field(default_factory=set)
    chose: bool = False
    kept: bool = False
    done: bool = False
    reached: int = 0


class Illegal(Exception):
    """The model refuses the entry."""


def _take(counter: Counter[str], items: Counter[str]) -> None:
    for k, n in items.items():
        if counter[k] < n:
            raise Illegal(f"not {n} {k}")
    counter.subtract(items)
    for k in [k for k, n in counter.items() if n <= 0]:
        del counter[k]


def _add(counter: Counter[str], items: Counter[str]) -> None:
    counter.update(items)
    for k in [k for k, n in counter.items() if n <= 0]:
        del counter[k]


@dataclass
class Ref:
    seats: list[str]
    goal: int
    starter: str
    players: dict[str, Seat] = field(default_factory=dict)
    step: str = "deal"
    round: int = 1
    final: int = 0
    commons: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    deck: set[str] = field(default_factory=lambda: set(CARDS))
    supply: Counter[str] = field(default_factory=Counter)
    supply_prisms: int = 50
    order: list[str] = field(default_factory=list)
    turn: int = 0
    pending: list[Icon] = field(default_factory=list)
    reached: int = 0
    variants: dict[str, str] = field(default_factory=dict)
    bids: dict[str, int] = field(default_factory=dict)
    asked: list[str] = field(default_factory=list)
    sealed: dict[str, int] = field(default_factory=dict)
    floor: int = -1

    @classmethod
    def new(
        cls, seats: int, goal: int, starter: str, deck: list[str] | None = None, **variants: str
    ) -> Ref:
        """The game before its first entry; ``deck`` the catalog's cards when a table
        loaded only some of the example cards."""
        names = list(SEAT_ORDER[:seats])
        ref = cls(names, goal, starter, variants=dict(variants))
        if deck is not None:
            ref.deck = set(deck)
        ref.supply = Counter({c: 25 for c in COLOURS})
        ref.supply["P"] = 5
        start = Counter({"R": 2, "G": 2, "B": 2, "W": 1, "K": 1})
        for s in names:
            ref.players[s] = Seat(s, bag=Counter(start))
            _take(ref.supply, start)
            ref.supply_prisms -= 1
        return ref

    def variant(self, name: str, default: str) -> str:
        return self.variants.get(name, default)

    # -- who acts -----------------------------------------------------------------------

    def to_act(self) -> list[str]:
        if self.step in ("deal", "refill"):
            return [self.starter]
        if self.step == "setup":
            return [s for s in self.seats if not (self.players[s].chose and self.players[s].kept)]
        if self.step in ("draw", "commit"):
            return [s for s in self.seats if not self.players[s].done]
        if self.step == "resolve":
            return [self.order[self.turn]]
        if self.step == "auction":
            return [s for s in self.asked if s not in self.sealed]
        return []

    # -- the entry point -----------------------------------------------------------------

    def after(self, seat: str, action: m.PrismaticAction) -> Ref | None:
        """The position after ``seat``'s entry, or ``None`` if the model refuses it."""
        if seat not in self.to_act():
            return None
        ref = copy.deepcopy(self)
        try:
            ref._do(seat, action)
        except Illegal:
            return None
        return ref

    def _do(self, seat: str, a: m.PrismaticAction) -> None:
        me = self.players[seat]
        if isinstance(a, m.Reveal) and self.step in ("deal", "refill"):
            self._draw_from_deck(a.card)
            self.commons.append(a.card)
            if len(self.commons) == 3 or not self.drawable():
                if self.step == "deal":
                    self.step = "setup"
                else:
                    self._end_round()
        elif isinstance(a, m.Choose) and self.step == "setup" and not me.chose:
            if len(a.motes) != 2 or any(c not in COLOURS for c in a.motes):
                raise Illegal("two non-prismatic motes")
            got = Counter(a.motes)
            self._from_supply(got)
            _add(me.bag, got)
            me.chose = True
            self._setup_done()
        elif isinstance(a, m.Keep) and self.step == "setup" and not me.kept:
            if a.keep == a.discard:
                raise Illegal("two cards")
            self._draw_from_deck(a.keep)
            self._draw_from_deck(a.discard)
            me.progress[a.keep] = Spot()
            self.discards.append(a.discard)
            me.kept = True
            self._setup_done()
        elif isinstance(a, m.DrawMotes) and self.step == "draw":
            self._draw_motes(me, Counter(a.motes))
        elif isinstance(a, m.Commit) and self.step == "commit":
            self._commit(me, Counter(a.motes), a.prisms, a.target)
        elif isinstance(a, m.Pass) and self.step == "commit":
            _add(me.bag, me.hand)
            me.hand = Counter()
            me.done = True
            if all(self.players[s].done for s in self.seats):
                self.step = "resolve"
                i = self.seats.index(self.starter)
                self.order = self.seats[i:] + self.seats[:i]
                self.turn = 0
        elif self.step == "resolve":
            self._resolve(me, a)
        elif isinstance(a, m.Bid | m.Forgo) and self.step == "auction":
            self._bid(me, a)
        else:
            raise Illegal("not now")

    # -- setup ---------------------------------------------------------------------------

    def drawable(self) -> int:
        """Cards that can still be drawn (PX-I.8: with reshuffle, the discards too)."""
        extra = len(self.discards) if self.variant("empty_deck", "stop") == "reshuffle" else 0
        return len(self.deck) + extra

    def _draw_from_deck(self, card: str) -> None:
        if not self.deck and self.variant("empty_deck", "stop") == "reshuffle":
            self.deck, self.discards = set(self.discards), []
        if card not in self.deck:
            raise Illegal(f"{card} is not in the deck")
        self.deck.remove(card)

    def _setup_done(self) -> None:
        if all(p.chose and p.kept for p in self.players.values()):
            self._start_round()

    def _start_round(self) -> None:
        self.step = "draw"
        for p in self.players.values():
            p.done = False

    # -- step 1 and 2 ------------------------------------------------------------------

    def _draw_motes(self, me: Seat, motes: Counter[str]) -> None:
        if me.done:
            raise Illegal("drew already")
        if not me.bag:  # the empty bag: committed motes go home, prisms stay
            for spot in [me.palette, *me.progress.values(), *me.creation.values()]:
                _add(me.bag, spot.motes)
                spot.motes = Counter()
        if sum(motes.values()) != min(5, sum(me.bag.values())):
            raise Illegal("wrong number")
        _take(me.bag, motes)
        me.hand = motes
        me.done = True
        if all(self.players[s].done for s in self.seats):
            self.step = "commit"
            for p in self.players.values():
                p.done = False

    def _spot(self, me: Seat, target: str) -> Spot:
        if target == m.PALETTE:
            return me.palette
        if target in me.progress:
            return me.progress[target]
        if target in me.creation:
            return me.creation[target]
        raise Illegal(f"{target} is not the player's")

    def _commit(self, me: Seat, motes: Counter[str], prisms: int, target: str) -> None:
        if me.done or (not motes and prisms <= 0) or prisms < 0 or prisms > me.prisms:
            raise Illegal("nothing to commit")
        spot = self._spot(me, target)
        _take(me.hand, motes)
        _add(spot.motes, motes)
        spot.prisms += prisms
        me.prisms -= prisms

    # -- step 3 --------------------------------------------------------------------------

    def _resolve(self, me: Seat, a: m.PrismaticAction) -> None:
        if self.pending:
            if isinstance(a, m.Decline):
                self.pending = []
            elif isinstance(a, m.Take):
                self._take_reward(me, a.reward)
            else:
                raise Illegal("rewards first")
            return
        if isinstance(a, m.Pass):
            me.pool = Counter()
            self.turn += 1
            if self.turn == len(self.order):
                self._after_resolve()
        elif isinstance(a, m.Create):
            self._create(me, a)
        elif isinstance(a, m.CreateBoard):
            self._board(me, a)
        elif isinstance(a, m.Use):
            self._use(me, a)
        elif isinstance(a, m.Remove) and self.variant("progress_removal", "") == "free":
            if a.card not in me.progress:
                raise Illegal("not in progress")
            self._lift(a.card)
            self.discards.append(a.card)
        else:
            raise Illegal("not in step 3")

    def _pay(
        self, me: Seat, spot: Spot, motes: Counter[str], prisms: int, pool: Counter[str]
    ) -> None:
        for colour, n in pool.items():
            if n > motes[colour] or n > me.pool[colour]:
                raise Illegal("pool colour not usable")
        need = Counter(motes)
        _take(need, pool)
        _take(spot.motes, need)
        if spot.prisms < prisms:
            raise Illegal("prisms short")
        spot.prisms -= prisms
        _take(me.pool, pool)
        if self.variant("spent_motes", "supply") == "bag":
            _add(me.bag, need)
        else:  # PX-I.1
            _add(self.supply, need)
        self.supply_prisms += prisms

    def _create(self, me: Seat, a: m.Create) -> None:
        card = CARDS.get(a.card)
        if card is None:
            raise Illegal("no such card")
        pool = Counter(a.pool)
        if a.card in me.progress:
            spot = me.progress[a.card]
            self._pay(me, spot, card.motes, card.prisms, pool)
            del me.progress[a.card]
            _add(me.bag, spot.motes)  # PX-I.2: the surplus goes home
            me.prisms += spot.prisms
        elif a.card in self.commons:
            self._pay(me, me.palette, card.motes, card.prisms, pool)
            self.commons.remove(a.card)
        else:
            raise Illegal("not creatable")
        me.creation[a.card] = Spot()
        if len(me.creation) >= self.goal and not me.reached:
            self.reached += 1
            me.reached = self.reached
        self.pending = list(card.rewards)

    def _board(self, me: Seat, a: m.CreateBoard) -> None:
        if a.method not in BOARD or a.method in me.board_used:
            raise Illegal("board method")
        icon, motes, prisms = BOARD[a.method]
        if icon.kind in ("draw2", "discard") and a.choice is None:
            raise Illegal("needs a choice")
        if icon.kind not in ("draw2", "discard") and a.choice is not None:
            raise Illegal("no choice")
        self._pay(me, me.palette, motes, prisms, Counter(a.pool))
        me.board_used.add(a.method)
        if icon.kind == "draw2":
            choice = a.choice
            if not isinstance(choice, m.BoardDraw):
                raise Illegal("draw choice")
            named = [c for c in (choice.keep, choice.discard) if c]
            if len(named) != min(2, self.drawable()) or (choice.discard and not choice.keep):
                raise Illegal("two cards, or what the deck has")
            if len(set(named)) != len(named):
                raise Illegal("two different cards")
            for card in sorted(named, key=lambda c: c not in self.deck):  # the deck first
                self._draw_from_deck(card)
            if choice.keep:
                me.progress[choice.keep] = Spot()
            if choice.discard:
                self.discards.append(choice.discard)
        elif icon.kind == "discard":
            if not isinstance(a.choice, m.Discard):
                raise Illegal("discard choice")
            self._discard(me, a.choice)
        else:
            self._gain(me, icon)

    def _gain(self, me: Seat, icon: Icon, rewarded: bool = False) -> None:
        if icon.kind == "pool":
            me.pool[icon.colour] += 1
        elif icon.kind == "mote":
            self._from_supply(Counter(icon.colour))
            # the text: a rewarded mote is "not immediately available"; the board and an
            # addition put theirs into the bag (PX-I.3; the variants treat all gains alike)
            rule = self.variant("gained_motes", "rewards_wait")
            if rule == "next_round" or (rule == "rewards_wait" and rewarded):
                me.waiting[icon.colour] += 1
            else:
                me.bag[icon.colour] += 1
        elif icon.kind == "prisms":
            if self.supply_prisms < icon.count and not self._proxies():
                raise Illegal("no prisms left")
            self.supply_prisms = max(0, self.supply_prisms - icon.count)
            me.prisms += icon.count
        elif icon.kind == "text":
            pass
        else:
            raise Illegal("an action needs details")

    def _proxies(self) -> bool:
        """PX-I.29: with components=proxy, a colour mote or prism the supply lacks is
        stood in for (the five prismatic motes never are)."""
        return self.variant("components", "limited") == "proxy"

    def _from_supply(self, motes: Counter[str]) -> None:
        """Motes leave the supply: all must be there (PX-1.5), or with proxies only the
        prismatic ones, the count of a colour that runs short staying at zero (PX-I.29)."""
        if not self._proxies():
            _take(self.supply, motes)
            return
        _take(self.supply, Counter({"P": motes["P"]}))
        for colour, n in motes.items():
            if colour != "P":
                self.supply[colour] = max(0, self.supply[colour] - n)
        for k in [k for k, n in self.supply.items() if n <= 0]:
            del self.supply[k]

    def _use(self, me: Seat, a: m.Use) -> None:
        if a.card not in me.creation:
            raise Illegal("not created")
        power = CARDS[a.card].power
        if power is None:
            raise Illegal("no ability")
        if a.card in me.used and (
            self.variant("ability_uses", "once") == "once" or not power.source
        ):
            raise Illegal("used this round")
        spot = me.creation[a.card]
        if power.source == "prism":
            if spot.prisms < 1:
                raise Illegal("no prism")
            spot.prisms -= 1
            self.supply_prisms += 1
        elif power.source:
            _take(spot.motes, Counter(power.source))
        me.used.add(a.card)
        self._effect(me, power.icon, a.detail)
        if power.source and power.source != "prism":
            # with spent_motes=bag the spent mote reaches the bag once the ability's action
            # is over (a pull cannot draw the very mote that paid for it)
            if self.variant("spent_motes", "supply") == "bag":
                me.bag[power.source] += 1
            else:
                self.supply[power.source] += 1

    def _effect(self, me: Seat, icon: Icon, detail: object) -> None:
        if icon.kind in ACTIONS:
            if _tag(detail) != icon.kind:
                raise Illegal("wrong details")
            self._action(me, detail)
        elif detail is not None:
            raise Illegal("no details")
        else:
            self._gain(me, icon)

    def _take_reward(self, me: Seat, reward: object) -> None:
        for i, icon in enumerate(self.pending):
            if _matches(icon, reward):
                del self.pending[i]
                if icon.kind in ACTIONS:
                    self._action(me, reward)
                else:
                    self._gain(me, icon, rewarded=True)
                return
        raise Illegal("not a pending reward")

    # -- actions ---------------------------------------------------------------------

    def _action(self, me: Seat, d: Any) -> None:
        """The action (PX-10) an ability's or a reward's details name, by their kind."""
        steps: dict[str, Callable[[Seat, Any], None]] = {
            "pull": self._pull,
            "empty": self._empty,
            "draw": self._draw_card,
            "discard": self._discard,
            "steal": self._steal,
        }
        kind = _tag(d)
        if kind not in steps:
            raise Illegal("unknown action")
        steps[kind](me, d)

    def _pull(self, me: Seat, d: m.Pull) -> None:
        if not d.mote:
            if me.bag:
                raise Illegal("the bag is not empty")
            return
        _take(me.bag, Counter(d.mote))
        if d.to:
            self._spot(me, d.to).motes[d.mote] += 1
        else:
            me.bag[d.mote] += 1

    def _empty(self, me: Seat, d: m.Empty) -> None:
        anyone = self.variant("empty_target", "own") == "any"
        owner = me
        if not d.owner and d.target != m.PALETTE:
            owner = self._holder(d.target) or me
        if d.owner and d.owner != me.seat:
            if not anyone:
                raise Illegal("own only")  # PX-I.7
            owner = self.players[d.owner]
        if d.target == m.PALETTE:
            spot = owner.palette
        else:
            holder = self._holder(d.target)
            if holder is None or (holder is not me and not anyone) or holder is not owner:
                raise Illegal("not an own card")
            owner = holder
            spot = self._spot(holder, d.target)
        _add(owner.bag, spot.motes)
        self.supply_prisms += spot.prisms
        spot.motes, spot.prisms = Counter(), 0

    def _draw_card(self, me: Seat, d: m.DrawCard) -> None:
        if not d.card:  # PX-I.28: optional, unless the table made it compulsory
            if self.variant("draw_action", "optional") == "compulsory" and self.drawable():
                raise Illegal("a card must be drawn")
            return
        self._draw_from_deck(d.card)
        if d.to == "progress":
            if d.replace:
                raise Illegal("no replace")
            me.progress[d.card] = Spot()
        elif len(self.commons) < 3:
            if d.replace:
                raise Illegal("room left")
            self.commons.append(d.card)
        else:
            if d.replace not in self.commons:
                raise Illegal("replace a common")
            self.commons.remove(d.replace)
            self.discards.append(d.replace)
            self.commons.append(d.card)

    def _steal(self, me: Seat, d: m.Steal) -> None:
        card = d.card
        if card in self.commons:
            self.commons.remove(card)
        else:
            holder = self._holder(card)
            if holder is None or holder is me or card not in holder.progress:
                raise Illegal("cannot steal")
            self._lift(card)
        me.progress[card] = Spot()

    def _holder(self, card: str) -> Seat | None:
        for p in self.players.values():
            if card in p.progress or card in p.creation:
                return p
        return None

    def _lift(self, card: str) -> None:
        """Take a progress card off its owner: motes to their bag, prisms lost."""
        holder = self._holder(card)
        assert holder is not None
        spot = holder.progress.pop(card)
        _add(holder.bag, spot.motes)
        self.supply_prisms += spot.prisms

    def _discard(self, me: Seat, d: m.Discard) -> None:
        card = d.card
        if card in self.commons:
            self.commons.remove(card)
        elif card in me.progress:
            self._lift(card)
        else:
            raise Illegal("cannot discard")
        self.discards.append(card)

    # -- step 4 and the end -------------------------------------------------------------

    def _after_resolve(self) -> None:
        if self.final and self.round == self.final:
            self._finish()
            return
        if len(self.commons) < 3 and self.drawable():
            self.step = "refill"
        else:
            self._end_round()

    def _end_round(self) -> None:
        # PX-I.30: the end also comes when no one could reach the goal with every card that
        # is still to be had (commons, what the deck gives, anyone's progress cards), unless
        # the table plays on (goal_reach=play_on) until the goal itself is reached
        to_be_had = (
            len(self.commons)
            + self.drawable()
            + sum(len(p.progress) for p in self.players.values())
        )
        counts = [len(p.creation) for p in self.players.values()]
        out_of_reach = (
            self.variant("goal_reach", "end") == "end" and max(counts) + to_be_had < self.goal
        )
        if not self.final and (max(counts) >= self.goal or out_of_reach):
            self.final = self.round + 1
        for p in self.players.values():
            _add(p.bag, p.waiting)
            p.waiting = Counter()
            p.board_used = set()
            p.used = set()
        if self.variant("starter_token", "pass") == "auction":  # PX-14, PX-I.9
            self.step = "auction"
            self.bids, self.asked, self.sealed, self.floor = {}, list(self.seats), {}, -1
            return
        i = self.seats.index(self.starter)
        self.starter = self.seats[(i + 1) % len(self.seats)]
        self._next_round()

    def _next_round(self) -> None:
        self.round += 1
        self._start_round()

    def _bid(self, me: Seat, a: m.Bid | m.Forgo) -> None:
        """A sealed bid of held prisms (0: none), or, among tied top bidders, a higher bid
        or dropping out; the top bid alone wins and is paid, else the token stays."""
        if me.seat not in self.asked or me.seat in self.sealed:
            raise Illegal("not bidding now")
        if isinstance(a, m.Forgo):  # dropping out; "all players forgo" keeps the token
            if self.floor < 0 and self.variant("opening_forgo", "no_bid") == "refuse":
                raise Illegal("only a tied bidder forgoes")  # PX-I.32's older reading
            amount = -1
        else:
            if a.amount > me.prisms or a.amount < max(0, self.floor + 1):
                raise Illegal("bid out of range")
            amount = a.amount
        self.sealed[me.seat] = amount
        if len(self.sealed) < len(self.asked):
            return
        for seat, bid in self.sealed.items():
            if bid < 0 or (self.floor < 0 and bid == 0):
                self.bids.pop(seat, None)
            else:
                self.bids[seat] = bid
        self.sealed = {}
        if not self.bids:
            self._next_round()
            return
        top = max(self.bids.values())
        leaders = [s for s in self.seats if self.bids.get(s) == top]
        if len(leaders) == 1:
            self.players[leaders[0]].prisms -= top
            self.supply_prisms += top
            self.starter = leaders[0]
            self._next_round()
        else:
            self.asked, self.floor = leaders, top

    def _finish(self) -> None:
        self.step = "over"
        for p in self.players.values():
            _add(p.bag, p.waiting)
            p.waiting = Counter()
            for spot in [p.palette, *p.progress.values(), *p.creation.values()]:
                _add(p.bag, spot.motes)
                p.prisms += spot.prisms
                spot.motes, spot.prisms = Counter(), 0

    def scores(self) -> dict[str, int]:
        """The chart's totals (the game end's return already made)."""
        players = list(self.players.values())
        total = {p.seat: 0 for p in players}

        def sole(values: dict[str, int], stars: int) -> None:
            best = max(values.values())
            leaders = [s for s, n in values.items() if n == best]
            if len(leaders) == 1:
                total[leaders[0]] += stars

        reachers = [p for p in players if p.reached]
        if reachers:
            total[min(reachers, key=lambda p: p.reached).seat] += 1
        sole({p.seat: sum(p.bag.values()) for p in players}, 1)
        for kind in ("hue", "sky", "craft"):
            sole({p.seat: sum(CARDS[c].type == kind for c in p.creation) for p in players}, 1)
        for p in players:
            total[p.seat] += p.prisms // 4
            total[p.seat] += sum(CARDS[c].stars for c in p.creation)
            total[p.seat] -= len(p.progress)
        sole({p.seat: p.bag["P"] for p in players}, 2)
        return total

    def ranking(self) -> list[set[str]]:
        """Groups of seats, best first: stars, then more created cards, more motes, more
        prisms, earlier to the goal; seats level on all of these share a group (the colours
        worn, which the table judges, would split them)."""
        total = self.scores()

        def key(seat: str) -> tuple[int, int, int, int, int]:
            p = self.players[seat]
            first = -p.reached if p.reached else -99
            return (total[seat], len(p.creation), sum(p.bag.values()), p.prisms, first)

        keys = sorted({key(s) for s in self.seats}, reverse=True)
        return [{s for s in self.seats if key(s) == k} for k in keys]

    # -- comparison ------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The public position in plain values, to compare with the engine's."""

        def ms(c: Counter[str]) -> str:
            return "".join(sorted(c.elements()))

        def spot(s: Spot) -> tuple[str, int]:
            return ms(s.motes), s.prisms

        return {
            "step": self.step,
            "round": self.round,
            "starter": self.starter,
            "final": self.final,
            "commons": sorted(self.commons),
            "discard": sorted(self.discards),
            "deck": sorted(self.deck),
            "supply": ms(self.supply),
            "supply_prisms": self.supply_prisms,
            "pending": sorted((i.kind, i.colour, i.count) for i in self.pending),
            "to_act": sorted(self.to_act()),
            "auction": (
                sorted(self.bids.items()),
                sorted(self.asked),
                sorted(self.sealed.items()),
                self.floor,
            )
            if self.step == "auction"
            else None,
            "players": {
                s: {
                    "bag": ms(p.bag),
                    "waiting": ms(p.waiting),
                    "hand": ms(p.hand),
                    "prisms": p.prisms,
                    "palette": spot(p.palette),
                    "progress": {c: spot(v) for c, v in p.progress.items()},
                    "creation": {c: spot(v) for c, v in p.creation.items()},
                    "pool": ms(p.pool),
                    "board_used": sorted(p.board_used),
                    "reached": p.reached,
                }
                for s, p in self.players.items()
            },
        }


def _matches(icon: Icon, reward: object) -> bool:
    if isinstance(reward, m.TakePool):
        return icon.kind == "pool" and icon.colour == reward.colour
    if isinstance(reward, m.TakeMote):
        return icon.kind == "mote" and icon.colour == reward.colour
    if isinstance(reward, m.TakePrisms):
        return icon.kind == "prisms" and icon.count == reward.count
    if isinstance(reward, m.TakeText):
        return icon.kind == "text"
    return icon.kind == _tag(reward)


def _tag(detail: object) -> str:
    """The action an entry's details belong to."""
    for kind, cls in ACTIONS.items():
        if isinstance(detail, cls):
            return kind
    return ""

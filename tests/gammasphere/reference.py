"""An independent reference model of Gammasphere TCG (Prototype 3), for differential tests.

Written from the rules text alone (/work/shared/rules/gammasphere-tcg-p3.txt), before the
engine was read, in a deliberately different, naive style: plain dicts and lists, one
function per entry, no shared code with ``referee.games.gammasphere`` beyond the catalog's
card records and the entry values (the project's vocabulary). Where the text is silent the
model takes the project's default rulings (GS-I.n), each named where it is used; card
effects given only as free text are the referee's rulings and are not modelled (the card is
still paid for and played).

What the text says, in short (the R-numbers are used below):

* R1 each player starts with 3000 gas, a power level of 9000 and a hand of 7 cards;
* R2 a turn: draw a card, then gain 300 gas plus 300 for each Refinery in play;
* R3 then, as often as affordable: play entities and events (gas and/or jiggawatts, a
  jiggawatt being one pylon tapped), construct pylons (100 gas), attack, switch untapped
  characters between attack and defense mode; then declare the turn over;
* R4 a hand over 10 at the end of a turn is discarded down to 10;
* R5 tapped pylons untap at the start of their owner's next turn;
* R6 unique entities: not while the opponent has one in play, at most one on one's side;
* R7 a character enters in attack or defense mode;
* R8 value at level L = printed value + (L - printed level) * modifier;
* R9 weapons attach to characters (optionally buildings) and add their boosts;
* R10 an attacker is one's own character in attack mode and untapped; it attacks an
  opposing character. Against defense mode: defense < attack destroys the defender;
  defense > attack destroys nothing and costs the attacking player the difference.
  Against attack mode: the lower attack is destroyed; when the attacker's is lower the
  attacking player also loses the difference. The defending player never loses power;
* R11 a power level down to zero loses.

Silent points, taken from the project's default interpretations: no deck size (GS-I.1),
the first player draws (GS-I.4), an empty deck skips the draw (GS-I.5), everything of a
player untaps with the pylons (GS-I.6), attacking taps (GS-I.7), equal battle values
(GS-I.8), no direct attacks (GS-I.10), weapons on buildings only when the card says so
and they add defense only (GS-I.28), values floored at zero (GS-I.14), power floored at
zero (GS-I.15), every hand over ten discards at a turn's end (GS-I.29), jiggawatt pools
lapse at the turn's end (GS-I.21), switches unlimited (GS-I.26), weapons on one's own
entities (GS-I.18), attacks open from the first turn (GS-I.31), a card aiming at no
character there is still played (GS-I.32), an arriving character never aims at itself
(GS-I.33).
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from referee.games.gammasphere import model
from referee.games.gammasphere.catalog import Card, Catalog

__all__ = ["Ref", "RefField", "Refused"]


class Refused(Exception):
    """The reference model refuses an entry."""


@dataclass
class RefField:
    id: int
    card: str
    owner: int
    kind: str
    mode: str = ""
    tapped: bool = False
    level: int = 0
    carrier: int = 0


@dataclass
class RefSide:
    gas: int = 3000  # R1
    power: int = 9000  # R1
    hand: int = 0
    deck: int = 0
    unseen: Counter[str] = field(default_factory=Counter)
    discard: list[str] = field(default_factory=list)
    pool: int = 0
    opened: bool = False


class Ref:
    """The whole game as dicts: ``sides``, ``field`` (in order of entry), turn bookkeeping."""

    def __init__(
        self,
        catalog: Catalog,
        decks: tuple[dict[str, int] | int, dict[str, int] | int],
        table: dict[str, str] | None = None,
        first: int = 0,
    ) -> None:
        """``decks`` are registered lists, or the size of a deck whose list nobody knows;
        ``table`` holds the variant switches that differ from the defaults; ``first`` is the
        seat the table chose to begin (the text does not say how)."""
        self.first = first
        self.cards: dict[str, Card] = {c.name: c for c in catalog.cards}
        self.table = {
            "first_draw": "yes",
            "empty_deck": "skip",
            "attack_taps": "yes",
            "attack_tie": "both",
            "defender_loses": "no",
            "direct_attack": "no",
            "building_weapons": "marked",
            "hand_limit": "every",
            "switch_limit": "any",
            "first_turn_attack": "yes",
            "no_target": "play",
            "weapon_carriers": "own",
            "self_target": "no",
            **(table or {}),
        }
        self.sides = [RefSide(), RefSide()]
        self.listed = [isinstance(d, dict) for d in decks]
        self.shown: list[Counter[str]] = [Counter(), Counter()]
        for i, deck in enumerate(decks):
            if isinstance(deck, dict):
                self.sides[i].deck = sum(deck.values())
                self.sides[i].unseen = Counter(deck)
            else:
                self.sides[i].deck = deck
        self.switched: set[int] = set()
        self.field: list[RefField] = []
        self.next_id = 1
        self.turn = 0
        self.active = first
        self.phase = "opening"
        self.winner: int | str | None = "none"  # "none" while the game goes on

    def clone(self) -> Ref:
        return copy.deepcopy(self)

    # -- values --------------------------------------------------------------
    def get(self, number: int) -> RefField:
        for f in self.field:
            if f.id == number:
                return f
        raise Refused(f"no #{number} on the field")

    def weapons_on(self, number: int) -> list[RefField]:
        return [f for f in self.field if f.kind == "weapon" and f.carrier == number]

    def attack(self, f: RefField) -> int:
        card = self.cards[f.card]
        value = card.attack + (f.level - card.level) * card.attack_mod  # R8
        value += sum(self.cards[w.card].attack_boost for w in self.weapons_on(f.id))  # R9
        return max(0, value)  # GS-I.14

    def defense(self, f: RefField) -> int:
        card = self.cards[f.card]
        value = card.defense
        if f.kind == "character":
            value += (f.level - card.level) * card.defense_mod  # R8
        value += sum(self.cards[w.card].defense_boost for w in self.weapons_on(f.id))
        return max(0, value)

    def over(self) -> list[int]:
        seats = [self.active] if self.table["hand_limit"] == "own" else [0, 1]  # GS-I.29
        return [i for i in seats if self.sides[i].hand > 10]  # R4

    # -- turn ----------------------------------------------------------------
    def income(self, seat: int) -> None:
        refineries = sum(1 for f in self.field if f.owner == seat and self.cards[f.card].refinery)
        self.sides[seat].gas += 300 + 300 * refineries  # R2

    def begin(self, seat: int) -> None:
        self.active = seat
        self.turn += 1
        for f in self.field:
            if f.owner == seat:
                f.tapped = False  # R5, GS-I.6
        self.switched = set()  # GS-I.26
        if self.turn == 1 and self.table["first_draw"] == "no":  # GS-I.4
            self.income(seat)
            self.phase = "main"
        elif self.sides[seat].deck == 0:  # GS-I.5
            self.phase = "draw"
            if self.table["empty_deck"] == "lose":
                self.winner = 1 - seat
            else:
                self.income(seat)
                self.phase = "main"
        else:
            self.phase = "draw"

    def lose_power(self, seat: int, amount: int) -> None:
        self.sides[seat].power = max(0, self.sides[seat].power - amount)  # GS-I.15
        self.judge()

    def judge(self) -> None:
        down = [i for i in (0, 1) if self.sides[i].power <= 0]  # R11
        if len(down) == 2:
            self.winner = None
        elif down:
            self.winner = 1 - down[0]

    def destroy(self, number: int) -> None:
        f = self.get(number)
        gone = [f, *self.weapons_on(number)]  # GS-I.12
        for g in gone:
            self.field.remove(g)
            self.sides[g.owner].discard.append(g.card)

    # -- entries -------------------------------------------------------------
    def act(self, action: Any, seat: int) -> None:
        """Apply ``action`` by ``seat`` or raise :class:`Refused` (leaving the model as it was
        only if the caller cloned it first)."""
        if self.winner != "none":
            raise Refused("the game is over")
        name = type(action).__name__
        getattr(self, "_" + name.lower())(action, seat)

    def _draw(self, action: model.Draw, seat: int) -> None:
        own = self.sides[seat]
        if self.phase == "opening":
            if own.opened or action.count != 7 or own.deck < 7:  # R1
                raise Refused("opening hand is seven cards, once")
            own.deck -= 7
            own.hand += 7
            own.opened = True
            if all(s.opened for s in self.sides):
                self.turn = 0
                self.begin(self.first)
            return
        if self.phase != "draw" or seat != self.active or action.count != 1:
            raise Refused("one draw at the start of one's turn")
        own.deck -= 1
        own.hand += 1
        self.income(seat)  # R2
        self.phase = "main"

    def _main(self, seat: int) -> None:
        if self.phase != "main" or seat != self.active:
            raise Refused("only in one's own main phase")

    def _from_hand(self, seat: int, name: str) -> Card:
        own = self.sides[seat]
        if name not in self.cards:
            raise Refused("no such card")
        if own.hand == 0:
            raise Refused("the hand is empty")
        if self.listed[seat] and own.unseen[name] == 0:
            raise Refused("the list holds no more of it")
        card = self.cards[name]
        if not self.listed[seat] and card.kind != "pylon" and self.shown[seat][name] >= 4:
            raise Refused("a fifth copy")  # R6: four of each entity or event
        return self.cards[name]

    def _pay(self, seat: int, gas: int, jiggawatts: int) -> None:
        own = self.sides[seat]
        pylons = [f for f in self.field if f.owner == seat and f.kind == "pylon" and not f.tapped]
        if own.gas < gas or own.pool + len(pylons) < jiggawatts:
            raise Refused("cannot afford")
        own.gas -= gas
        from_pool = min(own.pool, jiggawatts)
        own.pool -= from_pool
        for p in sorted(pylons, key=lambda f: f.id)[: jiggawatts - from_pool]:
            p.tapped = True  # R3: a jiggawatt is a tapped pylon

    def _shown(self, seat: int, name: str) -> None:
        own = self.sides[seat]
        own.hand -= 1
        own.unseen[name] -= 1
        self.shown[seat][name] += 1

    def _place(self, seat: int, card: Card, mode: str = "", carrier: int = 0) -> RefField:
        f = RefField(self.next_id, card.name, seat, card.kind, mode, False, card.level, carrier)
        self.next_id += 1
        self.field.append(f)
        return f

    def _play(self, action: model.Play, seat: int) -> None:
        self._main(seat)
        card = self._from_hand(seat, action.card)
        if card.kind == "pylon":
            raise Refused("pylons are constructed")
        if action.mode and card.kind != "character":
            raise Refused("only characters take a mode")
        if card.unique and any(f.card == card.name for f in self.field):  # R6
            raise Refused("unique")
        effect = card.effect if card.when == "play" else None
        target: RefField | None = None
        # GS-I.33: where the table lets it, a character aiming at any or an own character
        # may aim at itself, by the number it is about to take
        may_self = (
            card.kind == "character"
            and effect is not None
            and effect.target in ("character", "own character")
            and self.table["self_target"] == "yes"
        )
        aims_self = may_self and action.target == self.next_id
        if card.kind == "weapon":
            self._carrier(seat, card, action.target)
        elif not aims_self:
            target = self._aim(seat, card, action.target, card.when == "play", may_self)
        self._pay(seat, card.gas, card.jiggawatts)
        self._shown(seat, card.name)
        if card.kind == "event":
            self.sides[seat].discard.append(card.name)  # GS-I.20
        elif card.kind == "character":
            placed = self._place(seat, card, action.mode or "attack")  # R7
            if aims_self:
                target = placed
        else:
            self._place(seat, card, "", action.target if card.kind == "weapon" else 0)
        if effect is not None:
            self._effect(seat, card, target if card.kind != "weapon" else None)

    def _carrier(self, seat: int, card: Card, number: int) -> None:
        """R9: a weapon goes on a character, or a building (GS-I.28), one's own unless the
        table lets weapons go on the opponent's too (GS-I.18)."""
        if not number:
            raise Refused("a weapon needs a carrier")
        carrier = self.get(number)
        if carrier.owner != seat and self.table["weapon_carriers"] == "own":
            raise Refused("own entities only")  # GS-I.18; "any": the opponent's too
        if carrier.kind == "building":
            if not card.on_buildings and self.table["building_weapons"] == "marked":
                raise Refused("not for buildings")
        elif carrier.kind != "character":
            raise Refused("weapons go on characters")

    def _aim(
        self, seat: int, card: Card, number: int, works: bool, may_self: bool = False
    ) -> RefField | None:
        """The character a structured effect aims at; a free-text effect that ``works`` now
        may name any field card for the record; nothing else takes a target."""
        e = card.effect if works else None
        if e is not None and e.target != "none":
            if not number:
                # GS-I.32: with nothing of the kind on the field the card goes without a
                # target (R3: played or activated as long as it is paid for), unless refused
                wanted = [
                    f
                    for f in self.field
                    if f.kind == "character"
                    and (
                        e.target == "character"
                        or (f.owner == seat) == (e.target == "own character")
                    )
                ]
                if self.table["no_target"] == "refuse" or wanted or may_self:
                    raise Refused("the effect needs a target")
                return None
            target = self.get(number)
            if target.kind != "character":
                raise Refused("the effect aims at a character")
            if e.target == "own character" and target.owner != seat:
                raise Refused("own character")
            if e.target == "opposing character" and target.owner == seat:
                raise Refused("opposing character")
            return target
        if number:
            if card.effect is not None or not works or not card.text:
                raise Refused("nothing to aim")  # a structured effect aims where it says
            self.get(number)
        return None

    def _effect(self, seat: int, card: Card, target: RefField | None) -> None:
        """GS-9.1's structured effects: resources, then draws, then the target."""
        e = card.effect
        assert e is not None
        own, other = self.sides[seat], self.sides[1 - seat]
        own.gas = max(0, own.gas + e.gas)
        other.gas = max(0, other.gas + e.opponent_gas)
        own.power = max(0, own.power + e.power)
        other.power = max(0, other.power + e.opponent_power)
        self.judge()
        if self.winner != "none":
            return
        n = min(e.draw, own.deck)
        own.deck -= n
        own.hand += n
        if n < e.draw and self.table["empty_deck"] == "lose":  # GS-I.5
            self.winner = 1 - seat  # the game is over; the rest of the effect is moot
            return
        if target is not None:
            if e.destroy:
                self.destroy(target.id)
            elif e.level:
                target.level = min(10, max(1, target.level + e.level))

    def _construct(self, action: model.Construct, seat: int) -> None:
        self._main(seat)
        card = self._from_hand(seat, action.card)
        if card.kind != "pylon":
            raise Refused("only pylons are constructed")
        self._pay(seat, 100, 0)  # R3
        self._shown(seat, card.name)
        self._place(seat, card)

    def _may_attack(self, seat: int) -> None:
        self._main(seat)  # R3: "you may attack during this phase", every turn's
        if self.turn == 1 and self.table["first_turn_attack"] == "no":  # GS-I.31
            raise Refused("no attack in the game's first turn")

    def _attack(self, action: model.Attack, seat: int) -> None:
        self._may_attack(seat)
        attacker = self.get(action.attacker)
        if attacker.owner != seat or attacker.kind != "character":
            raise Refused("attack with one's own character")
        if attacker.mode != "attack" or attacker.tapped:  # R10
            raise Refused("attacker in attack mode and untapped")
        power = self.attack(attacker)
        if not action.target:  # GS-I.10
            foes = [f for f in self.field if f.owner != seat and f.kind == "character"]
            if self.table["direct_attack"] == "no" or foes:
                raise Refused("no direct attack")
            if self.table["attack_taps"] == "yes":
                attacker.tapped = True
            self.lose_power(1 - seat, power)
            return
        defender = self.get(action.target)
        if defender.owner == seat or defender.kind != "character":
            raise Refused("an opposing character")
        if self.table["attack_taps"] == "yes":
            attacker.tapped = True  # GS-I.7
        if defender.mode == "defense":
            guard = self.defense(defender)
            if guard < power:
                self.destroy(defender.id)
            elif guard > power:
                self.lose_power(seat, guard - power)
        else:
            other = self.attack(defender)
            if other < power:
                self.destroy(defender.id)
                if self.table["defender_loses"] == "yes":  # GS-I.9
                    self.lose_power(1 - seat, power - other)
            elif other > power:
                self.destroy(attacker.id)
                self.lose_power(seat, other - power)
            elif self.table["attack_tie"] == "both":  # GS-I.8
                self.destroy(defender.id)
                self.destroy(attacker.id)

    def _switch(self, action: model.Switch, seat: int) -> None:
        self._main(seat)
        f = self.get(action.entity)
        if f.owner != seat or f.kind != "character" or f.tapped:  # R3
            raise Refused("switch one's own untapped character")
        if f.mode == action.mode:
            raise Refused("already in that mode")
        if self.table["switch_limit"] == "once":  # GS-I.26
            if f.id in self.switched:
                raise Refused("one switch a turn")
            self.switched.add(f.id)
        f.mode = action.mode

    def _activate(self, action: model.Activate, seat: int) -> None:
        self._main(seat)
        f = self.get(action.entity)
        card = self.cards[f.card]
        if f.owner != seat or card.when != "activated":
            raise Refused("own entity with an activated effect")
        if card.tap and f.tapped:
            raise Refused("already tapped")
        target = self._aim(seat, card, action.target, True)
        self._pay(seat, card.activate_gas, card.activate_jiggawatts)
        if card.tap:
            f.tapped = True
        if card.effect is not None:
            self._effect(seat, card, target)

    def _end(self, action: model.End, seat: int) -> None:
        if self.phase == "discard":
            if self.over() or seat != self.active:
                raise Refused("discard first")
            self._pass()
            return
        self._main(seat)
        if self.over():  # R4
            self.phase = "discard"
            return
        self._pass()

    def _pass(self) -> None:
        self.sides[self.active].pool = 0  # GS-I.21
        self.begin(1 - self.active)

    def _discard(self, action: model.Discard, seat: int) -> None:
        if self.phase != "discard" or seat not in self.over():
            raise Refused("discards only down to ten at the end of a turn")
        self._from_hand(seat, action.card)
        self._shown(seat, action.card)
        self.sides[seat].discard.append(action.card)
        if not self.over():
            self._pass()

    def to_act(self) -> list[int]:
        """Who may make an entry now."""
        if self.winner != "none":
            return []
        if self.phase == "opening":
            return [i for i in (0, 1) if not self.sides[i].opened]
        if self.phase == "discard":
            return self.over() or [self.active]
        return [self.active]

    # -- comparison ------------------------------------------------------------
    def public(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "winner": self.winner,
            "sides": [
                (s.gas, s.power, s.hand, s.deck, tuple(sorted(s.discard)), s.pool)
                for s in self.sides
            ],
            "field": [
                (
                    f.id,
                    f.card,
                    f.owner,
                    f.mode,
                    f.tapped,
                    f.level,
                    f.carrier,
                    f.id in self.switched,
                    self.values(f),
                )
                for f in self.field
            ],
        }

    def values(self, f: RefField) -> tuple[int, int]:
        if f.kind == "character":
            return self.attack(f), self.defense(f)
        if f.kind == "building":
            return 0, self.defense(f)
        return 0, 0

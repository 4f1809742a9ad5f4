"""An independent reference model of a Crystale turn, for differential tests.

Written from the rules texts alone (``summoner-battle.txt``, the battle chapter of the
Crystale whitepaper, and ``crystale-notes.md``, the facts of its chapters on pools,
Summoners and Servants), before reading the engine, in a deliberately different style:
plain mutable dataclasses, hex distance from axial coordinates, no precomputed tables.
Test code only. Where the texts are silent the model follows the project's numbered
interpretations (CR-I.n of ``rulebook.toml``) and says which; the table variants it knows
are listed in ``SUPPORTED``, each in its default unless named.

What the texts say, in short (the clause of the project's rulebook in brackets):

- the board has rows of 5, 6, 7, 6 and 5 hexes; the Summoners start at the two ends of
  the middle row; one unit per tile; units never move onto another unit (CR-4);
- a turn is Pull (draw one; an empty pool is refilled from the Higher Plane for one hit
  and 50 MP, or the player forfeits), Recharge (MP back, up to the Mana Pool; Rest-like
  effects), Main, End (turn-long effects stop, the hand is cut to nine into the Higher
  Plane) and Promotion (CR-6, CR-10);
- in the Main phase: one summon or sacrifice; spells and Summoner effects as often as MP
  allows; one effect per Servant; every unit moves one adjacent tile; Servants attack an
  enemy unit in range, the attacker striking first, a surviving Servant defender striking
  back; an attacker is fatigued (no move, attack or effect) for the rest of the turn;
  slots, earned at 2, 4 and 7 Servants in the Higher Plane, three a match, promote a
  Servant, take a Servant from the pool or give MP equal to the Recharge (CR-7 to CR-9);
- a Servant on its own element's tile gains 10 ATK, on the tile of the element that
  beats it loses 5; Ice changes nothing (CR-4.6);
- a Summoner has no ATK and a hit box of three; the player whose Summoner has taken
  three hits loses (CR-2.2, CR-13.1);
- a Servant at 0 HP goes to its owner's Higher Plane; promotion restores HP (CR-9.6).

Interpretations followed: range 1 when none is printed and range not blocked (CR-I.3);
one hit per attack with ATK above 0 and per damage effect (CR-I.4); bonus MP over the
Mana Pool spent first and never refilled (CR-I.6); Summoners start full (CR-I.7); moving
then attacking allowed (CR-I.8); the defender chooses to counterattack (CR-I.9), at any
distance, since the texts ask only a Servant with HP left (CR-I.28), as often as it
survives (CR-I.29); every Servant attacks once a turn (CR-I.26);
one summon-or-sacrifice (CR-I.27); slots used in the Main phase (CR-I.31), each count
earns once (CR-I.17); a spent spell goes to the Higher Plane (CR-I.14); the pull carries
out the Recharge phase (CR-I.23); empty pool and plane forfeits (CR-I.22); effects reach
the whole board (CR-I.34). Free-text effects are rulings: the model only pays for them.

Hidden zones are what the referee knows: a hand is a count plus known crystals; whether
an unseen crystal may be named is read from the engine's pool knowledge (bookkeeping
of who saw what, not a rule of play), passed in as ``unaccounted``. A pool refilled by a
reshuffle holds just what left the Higher Plane, in view of everyone, until a pull nobody
saw: a crystal named out of it meanwhile is one of those (CR-12.4); under
``knowledge=stays``, the reading games recorded before CR-I.36 keep, it is a plain count.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from referee.games.crystale import model as m
from referee.games.crystale.catalog import Crystal, Effect, Op
from referee.games.crystale.model import CrystaleAction, CrystaleState

SUPPORTED = {
    "bonus_mp": ("over_cap", "within_cap"),
    "start_mp": ("full", "zero"),
    "promotion_hp": ("full", "keep_damage"),
    "trigger_order": ("reverse", "printed"),
    "slot_phase": ("main", "promotion"),
    "slot_earning": ("once", "again"),
    "counterattack": ("choice", "always"),
    "attack_after_move": ("yes", "no"),
    "counter_range": ("any", "in_range"),
    "counter_fatigue": ("again", "once"),
    "summon_sacrifice": ("either", "each"),
    "zero_strike": ("no_hit", "hit"),
    "attacks": ("each", "one"),
    "knowledge": ("follows", "stays"),
}
"""Variants the model knows (the first of each is the default)."""

ROWS = (5, 6, 7, 6, 5)
LETTERS = "abcde"
ELEMENT = {
    "F": "Fire",
    "W": "Water",
    "E": "Earth",
    "T": "Thunder",
    "A": "Wind",
    "L": "Light",
    "D": "Darkness",
    "I": "Ice",
}
LETTER = {v: k for k, v in ELEMENT.items()}
WEAKENS = {  # the notes' table: a tile of the key element takes 5 ATK from the value
    "Fire": "Wind",
    "Water": "Fire",
    "Earth": "Water",
    "Thunder": "Earth",
    "Wind": "Thunder",
    "Light": "Darkness",
    "Darkness": "Light",
}


# -- the board, in axial coordinates ------------------------------------------------------
def tile_names() -> list[str]:
    return [f"{LETTERS[r]}{i + 1}" for r, n in enumerate(ROWS) for i in range(n)]


NAMES = tile_names()


def axial(index: int) -> tuple[int, int]:
    """(q, r) of tile ``index``: each row of the upper half starts one step further
    left (a longer row sticks out half a tile on each side), the lower half does not."""
    r = 0
    while index >= ROWS[r]:
        index -= ROWS[r]
        r += 1
    start = -min(r, 2)
    return start + index, r


def hex_distance(a: int, b: int) -> int:
    qa, ra = axial(a)
    qb, rb = axial(b)
    dq, dr = qa - qb, ra - rb
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# -- the model's state --------------------------------------------------------------------
@dataclass
class RUnit:
    id: int
    seat: int
    crystal: str
    tile: int
    summoner: bool
    rank: int = 1
    hp: int = 0
    atk_mod: int = 0
    atk_turn: int = 0
    moved: bool = False
    fatigued: bool = False
    used_effect: bool = False


@dataclass
class RSide:
    mp: int
    bonus: int
    mana_pool: int
    recharge: int
    hits: int
    pool: int
    hand: int
    known: Counter[str]
    plane: Counter[str]
    slots_earned: int
    slots_used: int
    summoned: bool
    sacrificed: bool
    pool_known: Counter[str] = field(default_factory=Counter)
    attacked: bool = False
    """Whether the side made an attack this turn (what ``attacks=one`` limits, CR-I.26)."""
    """What the pool is known to hold: the Higher Plane shuffled into it, until an unseen
    pull (CR-12.4)."""


@dataclass
class RState:
    tiles: list[str]
    units: dict[int, RUnit]
    sides: list[RSide]
    phase: str
    active: int
    next_id: int
    counter: tuple[int, int] | None
    promoted: list[int]
    winner: int | None
    first: int | None = None
    shown: list[bool] = field(default_factory=lambda: [False, False])
    variants: dict[str, str] = field(default_factory=dict)


def from_engine(state: CrystaleState) -> RState:
    """The model's reading of a position (the catalog stays the engine's book)."""
    units = {
        uid: RUnit(
            u.id,
            u.seat,
            u.crystal,
            u.tile,
            u.summoner,
            u.rank,
            u.hp,
            u.atk_mod,
            u.atk_turn,
            u.moved,
            u.attacked,
            u.used_effect,
        )
        for uid, u in state.units.items()
    }
    sides = [
        RSide(
            s.mp,
            s.bonus,
            s.mana_pool,
            s.recharge,
            s.hits,
            s.pool.count,
            s.hand.count,
            Counter(s.hand.known.as_dict()),
            Counter(s.plane.as_dict()),
            s.slots_earned,
            s.slots_used,
            s.summoned,
            s.sacrificed,
            Counter(s.pool.known.as_dict()),
            s.attacked,
        )
        for s in state.sides
    ]
    t = state.table
    variants = {k: getattr(t, k) for k in SUPPORTED}
    return RState(
        list(state.tiles),
        units,
        sides,
        state.phase,
        state.active,
        state.next_id,
        state.counter,
        list(state.promoted),
        None if state.result is None else state.result.winner,
        state.first,
        [side.shown for side in state.sides],
        variants,
    )


def public(s: RState) -> dict[str, Any]:
    """What both sides compare: everything the table sees."""
    return {
        "tiles": "".join(s.tiles),
        "units": {
            uid: (u.seat, u.crystal, u.tile, u.rank, u.hp, u.atk_turn, u.moved, u.fatigued)
            for uid, u in sorted(s.units.items())
        },
        "used_effect": sorted(uid for uid, u in s.units.items() if u.used_effect),
        "sides": [
            (
                d.mp,
                d.bonus,
                d.hits,
                d.pool,
                d.hand,
                dict(+d.known),
                dict(+d.plane),
                d.slots_earned,
                d.slots_used,
                d.summoned,
                d.sacrificed,
                dict(+d.pool_known),
            )
            for d in s.sides
        ],
        "phase": s.phase if s.winner is None else "over",
        "active": s.active,
        "counter": s.counter if s.winner is None else None,
        "winner": s.winner,
        "first": s.first,
        "shown": list(s.shown),
    }


# -- the reference ------------------------------------------------------------------------
class Reference:
    """Legality and effect of one entry, from the texts."""

    def __init__(
        self,
        crystals: dict[str, Crystal],
        unaccounted: list[Counter[str] | None],
        seen: list[Counter[str]] | None = None,
    ):
        self.crystals = crystals
        self.unaccounted = unaccounted
        self.seen = seen or [Counter(), Counter()]

    def fits(self, seat: int, name: str, also: Counter[str] | None = None) -> bool:
        """Whether ``name`` can be one more crystal of ``seat``'s pool. An open pool's list
        says it (``unaccounted``); a sealed one is still a pool: what is seen of it at once,
        with ``also`` and ``name``, must be of one element, four copies of a crystal at
        most, ten Servants at most, one God at most."""
        ua = self.unaccounted[seat]
        if ua is not None:
            return ua[name] - (also or Counter())[name] > 0
        crystal = self.crystals[name]
        shown = self.seen[seat] + (also or Counter()) + Counter({name: 1})
        printed = [self.crystals[n] for n in shown.elements()]
        return (
            all(c.element == crystal.element for c in printed)
            and shown[name] <= 4
            and sum(c.kind == "servant" for c in printed) <= 10
            and sum(c.kind == "god" for c in printed) <= 1
        )

    # ---- facts
    def kind(self, name: str) -> str | None:
        c = self.crystals.get(name)
        return None if c is None else c.kind

    def reach(self, u: RUnit) -> int:
        printed = self.crystals[u.crystal].range
        return printed if printed > 0 else 1

    def atk(self, s: RState, u: RUnit) -> int:
        if u.summoner:
            return 0
        c = self.crystals[u.crystal]
        value = c.ranks[u.rank - 1].atk + u.atk_mod + u.atk_turn
        tile = ELEMENT[s.tiles[u.tile]]
        if tile == "Ice":
            pass  # the Ice row of the notes' table has no effect, for Ice Servants too
        elif tile == c.element:
            value += 10
        elif WEAKENS.get(tile) == c.element:
            value -= 5
        return max(0, value)

    def top_hp(self, u: RUnit) -> int:
        return self.crystals[u.crystal].ranks[u.rank - 1].hp

    def at(self, s: RState, tile: int) -> RUnit | None:
        return next((u for u in s.units.values() if u.tile == tile), None)

    def summoner(self, s: RState, seat: int) -> RUnit:
        return next(u for u in s.units.values() if u.summoner and u.seat == seat)

    def in_hand(self, s: RState, seat: int, name: str) -> bool:
        side = s.sides[seat]
        if side.known[name] > 0:
            return True
        unseen = side.hand - sum(side.known.values())
        return unseen > 0 and self.fits(seat, name)

    def may_name_from_pool(self, s: RState, seat: int, name: str) -> bool:
        side = s.sides[seat]
        if side.pool_known[name] > 0:
            return True
        unknown = side.pool - sum(side.pool_known.values())
        return unknown > 0 and self.fits(seat, name)

    def _out_of_pool(self, side: RSide, name: str | None) -> None:
        """One crystal leaves the pool for the hand, named or unseen (CR-12.4)."""
        side.pool -= 1
        side.hand += 1
        if name is None:
            side.pool_known = Counter()
            return
        side.known[name] += 1
        if side.pool_known[name]:
            side.pool_known[name] -= 1

    def to_act(self, s: RState) -> set[int]:
        if s.winner is not None:
            return set()
        if s.phase == "counter":
            return {1 - s.active}
        if s.phase == "start":  # CR-5.5: both seats, until each has shown and a first is named
            return {
                i
                for i in (0, 1)
                if s.first is None or not s.shown[i] or not self.has_summoner(s, i)
            }
        return {s.active}

    def has_summoner(self, s: RState, seat: int) -> bool:
        return any(u.summoner and u.seat == seat for u in s.units.values())

    def slot_free(self, side: RSide) -> bool:
        return side.slots_used < 3 and side.slots_earned > side.slots_used

    def targets_ok(
        self, s: RState, seat: int, effects: tuple[Effect, ...], targets: tuple[str, ...]
    ) -> bool:
        wanted = [e for e in effects if e.target in ("unit", "ally", "enemy", "tile")]
        if len(wanted) != len(targets):
            return False
        for e, t in zip(wanted, targets, strict=True):
            if e.target == "tile":
                if t not in NAMES:
                    return False
                continue
            if not t.startswith("u") or not t[1:].isdigit() or int(t[1:]) not in s.units:
                return False
            u = s.units[int(t[1:])]
            if e.target == "ally" and u.seat != seat:
                return False
            if e.target == "enemy" and u.seat == seat:
                return False
            if u.summoner and any(op.op in ("heal", "atk") for op in e.ops):
                return False  # healing and ATK changes are for Servants (CR-7.10)
        return True

    # ---- legality
    def legal(self, s: RState, a: CrystaleAction, seat: int) -> bool:  # noqa: C901
        if s.winner is not None or seat not in self.to_act(s):
            return False
        side = s.sides[seat]
        v = s.variants
        if s.phase == "counter":
            return isinstance(a, m.Counter | m.Hold)
        if s.phase == "start":
            return self._legal_at_start(s, a, seat)
        if s.phase == "pull":
            if isinstance(a, m.Pull):
                if a.count != 1 or side.pool == 0:
                    return False
                if a.crystal is None:
                    return True
                k = self.kind(a.crystal)
                return k not in (None, "summoner") and self.may_name_from_pool(s, seat, a.crystal)
            if isinstance(a, m.Reshuffle):
                return side.pool == 0 and side.mp >= 50
            return False
        if s.phase == "discard":
            if not isinstance(a, m.Discard) or len(a.crystals) != side.hand - 9:
                return False
            return self._all_in_hand(s, seat, a.crystals, ("servant", "spell", "god"))
        if s.phase == "promotion":
            if isinstance(a, m.Done):
                return True
            if isinstance(a, m.SlotPromote) and s.variants["slot_phase"] != "promotion":
                return False
            if isinstance(a, m.SlotPromote) and not self.slot_free(side):
                return False
            if isinstance(a, m.Promote | m.SlotPromote):
                u = s.units.get(a.unit)
                return (
                    u is not None
                    and u.seat == seat
                    and not u.summoner
                    and u.rank < len(self.crystals[u.crystal].ranks)
                    and u.id not in s.promoted
                )
            return False
        if s.phase != "main":
            return False
        if isinstance(a, m.End):
            return True
        if isinstance(a, m.Summon):
            if self.kind(a.crystal) != "servant" or side.summoned:
                return False
            if not self.in_hand(s, seat, a.crystal):
                return False
            home = self.summoner(s, seat)
            return (
                hex_distance(home.tile, a.tile) == 1
                and self.at(s, a.tile) is None
                and side.mp >= self.crystals[a.crystal].cost
            )
        if isinstance(a, m.Sacrifice):
            u = s.units.get(a.unit)
            if u is None or u.seat != seat or u.summoner:
                return False
            return not (side.sacrificed if v["summon_sacrifice"] == "each" else side.summoned)
        if isinstance(a, m.Move):
            u = s.units.get(a.unit)
            return (
                u is not None
                and u.seat == seat
                and not u.fatigued
                and not u.moved
                and hex_distance(u.tile, a.tile) == 1
                and self.at(s, a.tile) is None
            )
        if isinstance(a, m.Attack):
            u = s.units.get(a.unit)
            t = s.units.get(a.target)
            if u is None or t is None or u.seat != seat or u.summoner or u.fatigued:
                return False
            if u.moved and v["attack_after_move"] == "no":
                return False
            if side.attacked and v["attacks"] == "one":
                return False
            return t.seat != seat and hex_distance(u.tile, t.tile) <= self.reach(u)
        if isinstance(a, m.Cast):
            c = self.crystals.get(a.crystal)
            if c is None or c.kind not in ("spell", "god") or not self.in_hand(s, seat, c.name):
                return False
            return side.mp >= c.cost and self.targets_ok(s, seat, c.effects, a.targets)
        if isinstance(a, m.Use):
            u = s.units.get(a.unit)
            if u is None or u.seat != seat:
                return False
            c = self.crystals[u.crystal]
            if not 1 <= a.effect <= len(c.effects):
                return False
            e = c.effects[a.effect - 1]
            if e.phase != "main" or e.rank > u.rank:
                return False
            if not u.summoner and (u.fatigued or u.used_effect):
                return False
            return side.mp >= e.cost and self.targets_ok(s, seat, (e,), a.targets)
        if isinstance(a, m.SlotPromote):
            u = s.units.get(a.unit)
            return (
                self.slot_free(side)
                and u is not None
                and u.seat == seat
                and not u.summoner
                and u.rank < len(self.crystals[u.crystal].ranks)
            )
        if isinstance(a, m.SlotServant):
            return (
                self.slot_free(side)
                and self.kind(a.crystal) == "servant"
                and self.may_name_from_pool(s, seat, a.crystal)
            )
        if isinstance(a, m.SlotMp):
            return self.slot_free(side)
        return False

    def _all_in_hand(
        self, s: RState, seat: int, names: tuple[str, ...], kinds: tuple[str, ...]
    ) -> bool:
        """Whether the hand can hold every one of ``names`` at once (copies counted)."""
        known = Counter(s.sides[seat].known)
        unseen = s.sides[seat].hand - sum(known.values())
        named: Counter[str] = Counter()
        for name in names:
            if self.kind(name) not in kinds:
                return False
            if known[name] > 0:
                known[name] -= 1
            elif unseen > 0 and self.fits(seat, name, named):
                unseen -= 1
                named[name] += 1
            else:
                return False
        return True

    def _legal_at_start(self, s: RState, a: CrystaleAction, seat: int) -> bool:
        """Who goes first, six crystals each, three Servants shown (or a new six)."""
        side = s.sides[seat]
        if isinstance(a, m.First):
            return s.first is None
        if isinstance(a, m.Declare):
            return (
                not self.has_summoner(s, seat)
                and self.kind(a.crystal) == "summoner"
                and self.fits(seat, a.crystal)
            )
        if s.shown[seat]:
            return False
        if isinstance(a, m.Pull):
            return a.count == 6 and a.crystal is None and side.hand == 0 and side.pool >= 6
        if isinstance(a, m.Mulligan):
            return side.hand == 6
        if isinstance(a, m.Show):
            if side.hand != 6 or not 3 <= len(a.crystals) <= 6:
                return False
            return self._all_in_hand(s, seat, a.crystals, ("servant",))
        return False

    def _start_done(self, s: RState) -> None:
        if s.first is None or not all(s.shown) or not all(self.has_summoner(s, i) for i in (0, 1)):
            return
        second = s.sides[1 - s.first]
        if s.variants["bonus_mp"] == "over_cap":
            second.mp += 20  # the second player's bonus (CR-5.4), above the Mana Pool (CR-I.6)
            second.bonus = max(0, second.mp - second.mana_pool)
        else:
            second.mp = min(second.mana_pool, second.mp + 20)
        s.active = 1 - s.first
        self._turn(s)

    # ---- effects
    def _take(self, s: RState, seat: int, name: str) -> None:
        side = s.sides[seat]
        side.hand -= 1
        if side.known[name] > 0:
            side.known[name] -= 1

    def _to_plane(self, s: RState, seat: int, name: str) -> None:
        side = s.sides[seat]
        side.plane[name] += 1
        servants = sum(n for c, n in side.plane.items() if self.kind(c) == "servant")
        if s.variants["slot_earning"] == "again":  # a count climbed to from below (CR-I.32)
            if self.kind(name) == "servant" and servants in (2, 4, 7):
                side.slots_earned = min(3, side.slots_earned + 1)
            return
        reached = sum(1 for t in (2, 4, 7) if servants >= t)
        side.slots_earned = max(side.slots_earned, reached)

    def _spend(self, side: RSide, amount: int) -> None:
        side.mp = max(0, side.mp - amount)
        side.bonus = min(side.bonus, max(0, side.mp - side.mana_pool))

    def _gain(self, side: RSide, amount: int) -> None:
        ceiling = side.mana_pool + side.bonus
        if side.mp < ceiling:
            side.mp = min(ceiling, side.mp + amount)

    def _hit(self, s: RState, seat: int) -> None:
        s.sides[seat].hits -= 1
        if s.sides[seat].hits <= 0 and s.winner is None:
            s.winner = 1 - seat

    def _damage(self, s: RState, u: RUnit, amount: int) -> None:
        if amount <= 0:
            return
        if u.summoner:
            self._hit(s, u.seat)
            return
        u.hp -= amount
        if u.hp <= 0:
            del s.units[u.id]
            self._to_plane(s, u.seat, u.crystal)

    def _effects(
        self,
        s: RState,
        seat: int,
        me: int,
        effects: tuple[Effect, ...],
        targets: tuple[str, ...],
        backwards: bool,
    ) -> None:
        queue = list(targets)
        plan: list[tuple[Effect, str | None]] = []
        for e in effects:
            if e.target in ("unit", "ally", "enemy", "tile"):
                plan.append((e, queue.pop(0)))
            elif e.target == "self":
                plan.append((e, f"u{me}"))
            else:
                plan.append((e, None))
        if backwards:
            plan.reverse()
        for e, target in plan:
            struck = False  # one hit per effect on a Summoner (CR-I.4)
            for op in e.ops:
                if s.winner is not None:
                    return
                struck = self._op(s, seat, op, target, struck)

    def _op(self, s: RState, seat: int, op: Op, target: str | None, struck: bool) -> bool:
        """One step of an effect; returns whether the effect has now hit a Summoner."""
        if op.op == "mp":
            if op.amount >= 0:
                self._gain(s.sides[seat], op.amount)
            else:
                self._spend(s.sides[seat], -op.amount)
            return struck
        if op.op == "tile":
            assert target is not None
            assert op.element is not None
            s.tiles[NAMES.index(target)] = LETTER[op.element]
            return struck
        u = s.units.get(int(target[1:])) if target and target[0] == "u" else None
        if u is None:
            return struck
        if op.op == "damage":
            if u.summoner and (struck or op.amount <= 0):
                return struck
            self._damage(s, u, op.amount)
            return struck or u.summoner
        if not u.summoner and op.op == "heal":
            u.hp = min(self.top_hp(u), u.hp + max(0, op.amount))
        elif not u.summoner and op.op == "atk":
            u.atk_turn += op.amount
        return struck

    def _promote(self, s: RState, u: RUnit) -> None:
        lost = self.top_hp(u) - u.hp
        u.rank += 1
        u.hp = self.top_hp(u)
        if s.variants["promotion_hp"] == "keep_damage":  # CR-I.10
            u.hp = max(1, u.hp - lost)

    def _strike(self, s: RState, by: RUnit, at: RUnit) -> None:
        if at.summoner and s.variants["zero_strike"] == "hit":  # any strike is a hit (CR-I.35)
            self._hit(s, at.seat)
            return
        self._damage(s, at, self.atk(s, by))

    def _turn(self, s: RState) -> None:
        s.active = 1 - s.active
        s.phase = "pull"
        s.promoted = []
        s.counter = None
        for u in s.units.values():
            u.moved = u.fatigued = u.used_effect = False
        side = s.sides[s.active]
        side.summoned = side.sacrificed = side.attacked = False
        if side.pool == 0 and (side.mp < 50 or sum(side.plane.values()) == 0):
            s.winner = 1 - s.active

    def _after_end(self, s: RState, seat: int) -> None:
        if any(
            u.seat == seat and not u.summoner and u.rank < len(self.crystals[u.crystal].ranks)
            for u in s.units.values()
        ):
            s.phase = "promotion"
            s.promoted = []
        else:
            self._turn(s)

    def apply(self, s0: RState, a: CrystaleAction, seat: int) -> RState:  # noqa: C901
        s = copy.deepcopy(s0)
        side = s.sides[seat]
        v = s.variants
        if s.phase == "start":
            if isinstance(a, m.First):
                s.first = m.SEATS.index(a.seat)
            elif isinstance(a, m.Declare):
                c = self.crystals[a.crystal]
                side.mp = c.mana_pool if v["start_mp"] == "full" else 0
                side.mana_pool, side.recharge = c.mana_pool, c.recharge
                tile = NAMES.index("c1" if seat == 0 else "c7")
                s.units[seat + 1] = RUnit(seat + 1, seat, c.name, tile, True)
            elif isinstance(a, m.Pull):
                side.pool -= 6
                side.hand += 6
            elif isinstance(a, m.Mulligan):
                side.pool += side.hand
                side.hand = 0
                side.known = Counter()
            elif isinstance(a, m.Show):
                side.known.update(self.crystals[name].name for name in a.crystals)
                s.shown[seat] = True
            self._start_done(s)
            return s
        if isinstance(a, m.Pull):
            self._out_of_pool(side, None if a.crystal is None else self.crystals[a.crystal].name)
            self._gain(side, side.recharge)
            for uid in sorted(s.units):
                u = s.units.get(uid)
                if u is None or u.seat != seat:
                    continue
                for e in self.crystals[u.crystal].effects:
                    if e.phase == "recharge" and e.rank <= u.rank and uid in s.units:
                        self._effects(s, seat, uid, (e,), (), False)
            s.phase = "main"
        elif isinstance(a, m.Reshuffle):
            self._spend(side, 50)
            side.pool += sum(side.plane.values())
            if v["knowledge"] == "follows":  # the pool was empty (CR-12.4, CR-I.36)
                side.pool_known = Counter(side.plane)
            side.plane = Counter()
            self._hit(s, seat)
        elif isinstance(a, m.Summon):
            c = self.crystals[a.crystal]
            self._take(s, seat, c.name)
            self._spend(side, c.cost)
            side.summoned = True
            s.units[s.next_id] = RUnit(s.next_id, seat, c.name, a.tile, False, 1, c.ranks[0].hp)
            s.next_id += 1
        elif isinstance(a, m.Sacrifice):
            if v["summon_sacrifice"] == "each":
                side.sacrificed = True
            else:
                side.summoned = True
            u = s.units.pop(a.unit)
            self._to_plane(s, seat, u.crystal)
        elif isinstance(a, m.Move):
            s.units[a.unit].tile = a.tile
            s.units[a.unit].moved = True
        elif isinstance(a, m.Attack):
            me, them = s.units[a.unit], s.units[a.target]
            me.fatigued = True
            side.attacked = v["attacks"] == "one"
            self._strike(s, me, them)
            alive = a.target in s.units and not them.summoner and s.winner is None
            reaches = v["counter_range"] == "any" or hex_distance(them.tile, me.tile) <= self.reach(
                them
            )
            rested = v["counter_fatigue"] == "again" or not them.fatigued
            if alive and reaches and rested:
                if v["counterattack"] == "always":
                    if v["counter_fatigue"] == "once":
                        them.fatigued = True
                    self._strike(s, them, me)
                else:
                    s.phase = "counter"
                    s.counter = (me.id, them.id)
        elif isinstance(a, m.Counter | m.Hold):
            assert s.counter is not None
            att, dfd = s.counter
            s.phase, s.counter = "main", None
            if isinstance(a, m.Counter):
                them, me = s.units[dfd], s.units[att]
                if v["counter_fatigue"] == "once":
                    them.fatigued = True
                self._strike(s, them, me)
        elif isinstance(a, m.Cast):
            c = self.crystals[a.crystal]
            self._take(s, seat, c.name)
            self._spend(side, c.cost)
            home = self.summoner(s, seat).id
            backwards = c.trigger and s.variants["trigger_order"] == "reverse"
            self._effects(s, seat, home, c.effects, a.targets, backwards)
            self._to_plane(s, seat, c.name)
        elif isinstance(a, m.Use):
            u = s.units[a.unit]
            e = self.crystals[u.crystal].effects[a.effect - 1]
            self._spend(side, e.cost)
            if not u.summoner:
                u.used_effect = True
            self._effects(s, seat, u.id, (e,), a.targets, False)
        elif isinstance(a, m.SlotPromote | m.SlotServant | m.SlotMp):
            side.slots_used += 1
            if isinstance(a, m.SlotPromote):
                self._promote(s, s.units[a.unit])
                if s.phase == "promotion":
                    s.promoted.append(a.unit)
            elif isinstance(a, m.SlotServant):
                self._out_of_pool(side, self.crystals[a.crystal].name)
            else:
                self._gain(side, side.recharge)
        elif isinstance(a, m.End):
            for u in s.units.values():
                u.atk_turn = 0
                u.fatigued = False
            if side.hand > 9:
                s.phase = "discard"
            else:
                self._after_end(s, seat)
        elif isinstance(a, m.Discard):
            for name in a.crystals:
                canonical = self.crystals[name].name
                self._take(s, seat, canonical)
                self._to_plane(s, seat, canonical)
            self._after_end(s, seat)
        elif isinstance(a, m.Promote):
            self._promote(s, s.units[a.unit])
            s.promoted.append(a.unit)
        elif isinstance(a, m.Done):
            self._turn(s)
        else:  # pragma: no cover - the start step is not modelled
            raise NotImplementedError(type(a).__name__)
        return s

"""Checking Crystale entries: ``check`` finds the first clause an entry breaks (in an order
that names the most specific problem) and the rulings its free-text effects need. Clause
ids are those of ``rulebook.toml``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import msgspec

from referee.games.crystale import model
from referee.games.crystale.board import NEIGHBOURS, TILE_NAMES, distance
from referee.games.crystale.catalog import Crystal, Effect, Kind
from referee.games.crystale.effects import check_targets, rulings_for
from referee.games.crystale.engine import seat_index
from referee.games.crystale.model import (
    HAND_LIMIT,
    OPENING_HAND,
    OPENING_SERVANTS,
    RESHUFFLE_MP,
    SEATS,
    SLOT_THRESHOLDS,
    CrystaleAction,
    CrystaleState,
    Unit,
)
from referee.games.crystale.position import (
    crystal_of,
    hand_check,
    pool_check,
    recharge_effects,
    summoner_id,
    take_from_hand,
)
from referee.games.crystale.view import NAMED_FIELDS, own_secrets, secrets
from referee.kit.dispatch import Dispatch
from referee.kit.secrecy import names_in, secrets_for_reasons
from referee.verdicts import LEGAL, RulingNeeded, Verdict

ENTRY_CHECKS: Dispatch[CrystaleState, int, Verdict] = Dispatch("checks of Crystale entries")
"""The check of each kind of Crystale entry, by its type."""
__all__ = ["ENTRY_CHECKS", "check", "check_action"]

replace = msgspec.structs.replace

PHASES = "CR-1.3"
ONE_PER_TILE = "CR-4.4"
FIRST_PLAYER = "CR-5.1"
OPENING_PULL = "CR-5.2"
OPENING_SHOW = "CR-5.3"
PULL = "CR-6.1"
RESHUFFLE = "CR-6.2"
SUMMON = "CR-7.2"
ONE_SUMMON = "CR-7.3"
SACRIFICE = "CR-7.4"
MP_COST = "CR-7.5"
SPELLS = "CR-7.6"
SUMMONER_EFFECTS = "CR-7.8"
SERVANT_EFFECTS = "CR-7.9"
MOVE = "CR-8.1"
NO_PASSING = "CR-8.2"
ATTACK = "CR-8.3"
COUNTER = "CR-8.7"
NO_ATK = "CR-8.8"
FATIGUE = "CR-8.9"
SLOTS = "CR-9.1"
SLOT_LIMIT = "CR-9.2"
SLOT_SERVANT = "CR-9.4"
SLOT_SERVANT_PLACE = "CR-I.18"
TOP_RANK = "CR-9.6"
HAND_LIMIT_CLAUSE = "CR-10.2"
PROMOTION = "CR-10.3"
REACHED = "CR-12.2"
NAMED = "CR-12.3"
MULLIGAN = "CR-I.5"
MOVE_THEN_ATTACK = "CR-I.8"
ONE_ATTACK = "CR-I.26"
SLOT_PHASE = "CR-I.31"
ONE_PROMOTION = "CR-I.19"
SEALED_SUMMONER = "CR-I.24"


# -- small helpers ---------------------------------------------------------------------
def _who(seat: int) -> str:
    return SEATS[seat]


def _unit_label(unit: Unit) -> str:
    return f"u{unit.id} ({unit.crystal})"


def _own_unit(
    state: CrystaleState, seat: int, uid: int, clause: str
) -> tuple[Unit | None, Verdict]:
    unit = state.units.get(uid)
    if unit is None:
        return None, Verdict.illegal(clause, f"there is no unit u{uid} on the board")
    if unit.seat != seat:
        return None, Verdict.illegal(
            clause, f"{_unit_label(unit)} belongs to {_who(unit.seat)}, not {_who(seat)}"
        )
    return unit, LEGAL


def _find(state: CrystaleState, name: str, clause: str) -> tuple[Crystal | None, Verdict]:
    crystal = state.book.find(name)
    if crystal is None:
        return None, Verdict.illegal(
            clause, f"no crystal called {name!r} is in this game's catalog"
        )
    return crystal, LEGAL


def _all_in_hand(
    state: CrystaleState,
    seat: int,
    names: Iterable[str],
    refused: Callable[[Crystal], Verdict | None],
) -> Verdict:
    """Whether ``seat``'s hand holds every crystal ``names`` lists, all at once (a name
    listed twice: two of it), each in the catalog and of a kind the entry takes
    (``refused``: the entry's verdict on a crystal of another kind, else ``None``)."""
    side = state.sides[seat]
    for name in names:
        crystal, verdict = _find(state, name, NAMED)
        if crystal is None:
            return verdict
        wrong_kind = refused(crystal)
        if wrong_kind is not None:
            return wrong_kind
        verdict = hand_check(state.book, side, seat, crystal.name, NAMED)
        if not verdict:
            return verdict
        side = take_from_hand(side, crystal.name)
    return LEGAL


def _from_pool(
    state: CrystaleState, seat: int, name: str, kind: Kind, *, clause: str, not_it: str
) -> Verdict:
    """A crystal of ``kind`` named to come out of ``seat``'s pool: in the catalog, of that
    kind (else ``clause``, the reason naming the crystal's own kind and then ``not_it``),
    and one the pool can still hold (the named-crystal clause)."""
    crystal, verdict = _find(state, name, NAMED)
    if crystal is None:
        return verdict
    if crystal.kind != kind:
        return Verdict.illegal(clause, f"{crystal.name} is a {crystal.kind} crystal{not_it}")
    return pool_check(state.book, state.sides[seat], seat, crystal.name, NAMED)


def _wrong_phase(state: CrystaleState, wanted: str) -> Verdict:
    now = {
        "start": "the start of the battle",
        "pull": "the Pull phase",
        "main": "the Main phase",
        "counter": "a counterattack decision",
        "discard": "the End phase (hand limit)",
        "promotion": "the Promotion phase",
    }[state.phase]
    if state.phase == "counter" and state.counter is not None:
        attacker, defender = state.counter
        return Verdict.illegal(
            COUNTER,
            f"u{defender} first decides whether to counterattack u{attacker} (counter or hold)",
        )
    return Verdict.illegal(PHASES, f"it is {now}; {wanted}")


# -- check ------------------------------------------------------------------------------
def check_action(state: CrystaleState, action: CrystaleAction, seat: int) -> Verdict:
    """Legal, needing rulings, or the first clause ``action`` breaks."""
    if state.result is not None:
        return Verdict.illegal("REF-1.3", "the battle is over")
    for index, side in enumerate(state.sides):
        if side.knowledge is None:
            return Verdict.illegal(
                "REF-5.1",
                f"{_who(index)}'s pool is not registered; register it before the first entry",
            )
    checker = _CHECKS.get(type(action))
    if checker is None:
        return Verdict.illegal("CR-N.1", f"{action!r} is not a Crystale entry")
    return checker(state, action, seat)


@ENTRY_CHECKS.register(model.First)
def _check_first(state: CrystaleState, action: model.First, seat: int) -> Verdict:
    if state.phase != "start":
        return Verdict.illegal(FIRST_PLAYER, "who goes first is settled before the battle starts")
    if state.first is not None:
        return Verdict.illegal(FIRST_PLAYER, f"{_who(state.first)} was already chosen to go first")
    return LEGAL


@ENTRY_CHECKS.register(model.Declare)
def _check_declare(state: CrystaleState, action: model.Declare, seat: int) -> Verdict:
    if state.phase != "start":
        return _wrong_phase(state, "a Summoner is placed at the start")
    side = state.sides[seat]
    if side.summoner is not None:
        return Verdict.illegal(
            SEALED_SUMMONER, f"{_who(seat)}'s Summoner {side.summoner} is already on the board"
        )
    return _from_pool(
        state, seat, action.crystal, "summoner", clause=SEALED_SUMMONER, not_it=", not a Summoner"
    )


@ENTRY_CHECKS.register(model.Pull)
def _check_pull(state: CrystaleState, action: model.Pull, seat: int) -> Verdict:
    side = state.sides[seat]
    if state.phase == "start":
        if side.shown:
            return Verdict.illegal(OPENING_PULL, f"{_who(seat)} already showed an opening hand")
        if action.crystal is not None or action.count != OPENING_HAND or side.hand.count:
            return Verdict.illegal(
                OPENING_PULL,
                f"the opening hand is {OPENING_HAND} crystals pulled unseen "
                f"into an empty hand (pull {OPENING_HAND}); {_who(seat)} "
                f"holds {side.hand.count}",
            )
        if side.pool.count < OPENING_HAND:
            return Verdict.illegal(
                REACHED,
                f"{_who(seat)}'s pool holds {side.pool.count} crystals; "
                f"{OPENING_HAND} cannot be pulled",
            )
        return LEGAL
    if state.phase != "pull":
        return _wrong_phase(state, "crystals are pulled in the Pull phase")
    if action.count != 1:
        return Verdict.illegal(PULL, f"the Pull phase draws one crystal, not {action.count}")
    if side.pool.count == 0:
        return Verdict.illegal(
            RESHUFFLE, f"{_who(seat)}'s pool is empty; reshuffle the Higher Plane into it first"
        )
    if action.crystal is not None:
        crystal, verdict = _find(state, action.crystal, NAMED)
        if crystal is None:
            return verdict
        if crystal.kind == "summoner":
            return Verdict.illegal(
                NAMED, f"{crystal.name} is a Summoner; it is on the board, never in the pool"
            )
        verdict = pool_check(state.book, side, seat, crystal.name, NAMED)
        if not verdict:
            return verdict
    return Verdict(rulings=_recharge_rulings(state, seat))


def _recharge_rulings(state: CrystaleState, seat: int) -> tuple[RulingNeeded, ...]:
    out: list[RulingNeeded] = []
    for unit, crystal, effect in recharge_effects(state, seat):
        if not effect.structured:
            out.extend(
                rulings_for(crystal, [effect], [f"u{unit.id}"] if effect.target != "none" else [])
            )
    return tuple(out)


@ENTRY_CHECKS.register(model.Mulligan)
def _check_mulligan(state: CrystaleState, action: model.Mulligan, seat: int) -> Verdict:
    side = state.sides[seat]
    if state.phase != "start" or side.shown:
        return Verdict.illegal(MULLIGAN, "a mulligan takes back an opening hand not yet shown")
    if side.hand.count != OPENING_HAND:
        return Verdict.illegal(
            MULLIGAN,
            f"{_who(seat)} holds {side.hand.count} crystals; a mulligan returns "
            f"an opening hand of {OPENING_HAND}",
        )
    return LEGAL


@ENTRY_CHECKS.register(model.Show)
def _check_show(state: CrystaleState, action: model.Show, seat: int) -> Verdict:
    side = state.sides[seat]
    if state.phase != "start" or side.shown:
        return Verdict.illegal(OPENING_SHOW, f"{_who(seat)} has no opening hand left to show")
    if side.hand.count != OPENING_HAND:
        return Verdict.illegal(
            OPENING_SHOW,
            f"{_who(seat)} holds {side.hand.count} crystals; pull {OPENING_HAND} first",
        )
    if len(action.crystals) < OPENING_SERVANTS:
        return Verdict.illegal(
            OPENING_SHOW,
            f"an opening hand shows at least {OPENING_SERVANTS} Servants; "
            f"{len(action.crystals)} shown",
        )
    if len(action.crystals) > OPENING_HAND:
        return Verdict.illegal(OPENING_SHOW, f"an opening hand holds {OPENING_HAND} crystals")
    return _all_in_hand(
        state,
        seat,
        action.crystals,
        lambda crystal: (
            None
            if crystal.kind == "servant"
            else Verdict.illegal(
                OPENING_SHOW, f"{crystal.name} is a {crystal.kind} crystal, not a Servant"
            )
        ),
    )


@ENTRY_CHECKS.register(model.Reshuffle)
def _check_reshuffle(state: CrystaleState, action: model.Reshuffle, seat: int) -> Verdict:
    if state.phase != "pull":
        return _wrong_phase(state, "the Higher Plane is reshuffled in the Pull phase")
    side = state.sides[seat]
    if side.pool.count:
        return Verdict.illegal(
            RESHUFFLE,
            f"{_who(seat)}'s pool still holds {side.pool.count} crystals; "
            "only an empty pool is refilled",
        )
    if side.mp < RESHUFFLE_MP:
        return Verdict.illegal(
            RESHUFFLE, f"a reshuffle costs {RESHUFFLE_MP} MP; {_who(seat)} has {side.mp}"
        )
    return LEGAL


def _main(state: CrystaleState, wanted: str) -> Verdict:
    return LEGAL if state.phase == "main" else _wrong_phase(state, wanted)


def _own_unit_in_main(
    state: CrystaleState, seat: int, uid: int, clause: str, wanted: str
) -> tuple[Unit | None, Verdict]:
    """The unit ``uid`` of ``seat`` that a Main-phase entry names (``wanted`` says what is
    done in that phase), or the verdict on the phase, else on the unit (``clause``)."""
    if state.phase != "main":
        return None, _wrong_phase(state, wanted)
    return _own_unit(state, seat, uid, clause)


@ENTRY_CHECKS.register(model.Summon)
def _check_summon(state: CrystaleState, action: model.Summon, seat: int) -> Verdict:
    verdict = _main(state, "Servants are summoned in the Main phase")
    if not verdict:
        return verdict
    crystal, verdict = _find(state, action.crystal, NAMED)
    if crystal is None:
        return verdict
    if crystal.kind != "servant":
        return Verdict.illegal(
            SUMMON, f"{crystal.name} is a {crystal.kind} crystal; only Servants are summoned"
        )
    side = state.sides[seat]
    if side.summoned:
        return Verdict.illegal(
            ONE_SUMMON,
            f"{_who(seat)} already summoned a Servant this turn"
            if state.table.summon_sacrifice == "each"
            else f"{_who(seat)} already summoned or sacrificed a Servant this turn",
        )
    verdict = hand_check(state.book, side, seat, crystal.name, NAMED)
    if not verdict:
        return verdict
    home = state.units.get(summoner_id(seat))
    if home is None:  # pragma: no cover - the start step places every Summoner
        return Verdict.illegal(SUMMON, f"{_who(seat)} has no Summoner on the board")
    if distance(home.tile, action.tile) != 1:
        free = [TILE_NAMES[t] for t in NEIGHBOURS[home.tile] if _free(state, t)]
        where = (
            f"{TILE_NAMES[action.tile]} is the tile of {_who(seat)}'s Summoner itself; a "
            "Servant is summoned next to it"
            if action.tile == home.tile
            else f"{TILE_NAMES[action.tile]} is not next to {_who(seat)}'s Summoner on "
            f"{TILE_NAMES[home.tile]}"
        )
        return Verdict.illegal(
            SUMMON, f"{where}; free tiles next to it: {', '.join(free) or 'none'}"
        )
    holder = _holder(state, action.tile)
    if holder is not None:
        return Verdict.illegal(
            ONE_PER_TILE, f"{TILE_NAMES[action.tile]} holds {_unit_label(holder)}"
        )
    if side.mp < crystal.cost:
        return Verdict.illegal(
            MP_COST, f"{crystal.name} costs {crystal.cost} MP; {_who(seat)} has {side.mp}"
        )
    return LEGAL


def _holder(state: CrystaleState, tile: int) -> Unit | None:
    for unit in state.units.values():
        if unit.tile == tile:
            return unit
    return None


def _free(state: CrystaleState, tile: int) -> bool:
    return _holder(state, tile) is None


@ENTRY_CHECKS.register(model.Sacrifice)
def _check_sacrifice(state: CrystaleState, action: model.Sacrifice, seat: int) -> Verdict:
    unit, verdict = _own_unit_in_main(
        state, seat, action.unit, SACRIFICE, "a Servant is sacrificed in the Main phase"
    )
    if unit is None:
        return verdict
    if unit.summoner:
        return Verdict.illegal(
            SACRIFICE, f"{_unit_label(unit)} is a Summoner; only Servants are sacrificed"
        )
    side = state.sides[seat]
    if state.table.summon_sacrifice == "each":
        if side.sacrificed:
            return Verdict.illegal(
                ONE_SUMMON,
                f"{_who(seat)} already sacrificed a Servant this turn; "
                "this table allows one summon and one sacrifice",
            )
    elif side.summoned:
        return Verdict.illegal(
            ONE_SUMMON, f"{_who(seat)} already summoned or sacrificed a Servant this turn"
        )
    return LEGAL


def _effect_verdict(
    state: CrystaleState,
    seat: int,
    crystal: Crystal,
    effects: list[Effect],
    targets: tuple[str, ...],
    cost: int,
) -> Verdict:
    side = state.sides[seat]
    if side.mp < cost:
        return Verdict.illegal(
            MP_COST, f"{crystal.name} costs {cost} MP; {_who(seat)} has {side.mp}"
        )
    verdict = check_targets(state, seat, crystal, effects, targets)
    if not verdict:
        return verdict
    return Verdict(rulings=rulings_for(crystal, effects, targets))


@ENTRY_CHECKS.register(model.Cast)
def _check_cast(state: CrystaleState, action: model.Cast, seat: int) -> Verdict:
    verdict = _main(state, "crystals are cast in the Main phase")
    if not verdict:
        return verdict
    crystal, verdict = _find(state, action.crystal, NAMED)
    if crystal is None:
        return verdict
    if crystal.kind not in ("spell", "god"):
        how = "summoned" if crystal.kind == "servant" else "placed at the start"
        return Verdict.illegal(
            SPELLS, f"{crystal.name} is a {crystal.kind} crystal; it is {how}, not cast"
        )
    verdict = hand_check(state.book, state.sides[seat], seat, crystal.name, NAMED)
    if not verdict:
        return verdict
    return _effect_verdict(
        state, seat, crystal, list(crystal.effects), action.targets, crystal.cost
    )


@ENTRY_CHECKS.register(model.Use)
def _check_use(state: CrystaleState, action: model.Use, seat: int) -> Verdict:
    named = state.units.get(action.unit)
    # another seat's Summoner breaks the Summoner-effect clause, not the Servant one
    clause = SUMMONER_EFFECTS if named is not None and named.summoner else SERVANT_EFFECTS
    unit, verdict = _own_unit_in_main(
        state, seat, action.unit, clause, "effects are used in the Main phase"
    )
    if unit is None:
        return verdict
    crystal = crystal_of(state, unit)
    if not 1 <= action.effect <= len(crystal.effects):
        return Verdict.illegal(
            clause,
            f"{crystal.name} has {len(crystal.effects)} effect(s); "
            f"there is no effect {action.effect}",
        )
    effect = crystal.effects[action.effect - 1]
    if effect.phase != "main":
        when = (
            "acts by itself in the Recharge phase"
            if effect.phase == "recharge"
            else "is always in force"
        )
        return Verdict.illegal(
            clause, f"{crystal.name}'s effect {action.effect} {when}; it is not used"
        )
    if effect.rank > unit.rank:
        return Verdict.illegal(
            clause,
            f"{crystal.name}'s effect {action.effect} comes at rank {effect.rank}; "
            f"u{unit.id} is rank {unit.rank}",
        )
    if not unit.summoner:
        if unit.attacked:
            return Verdict.illegal(
                FATIGUE, f"{_unit_label(unit)} attacked this turn and is fatigued"
            )
        if unit.used_effect:
            return Verdict.illegal(
                SERVANT_EFFECTS, f"{_unit_label(unit)} already used an effect this turn"
            )
    return _effect_verdict(state, seat, crystal, [effect], action.targets, effect.cost)


@ENTRY_CHECKS.register(model.Move)
def _check_move(state: CrystaleState, action: model.Move, seat: int) -> Verdict:
    unit, verdict = _own_unit_in_main(
        state, seat, action.unit, MOVE, "units move in the Main phase"
    )
    if unit is None:
        return verdict
    if unit.attacked:
        return Verdict.illegal(
            FATIGUE, f"{_unit_label(unit)} attacked this turn and is fatigued; it cannot move"
        )
    if unit.moved:
        return Verdict.illegal(MOVE, f"{_unit_label(unit)} already moved this turn")
    steps = distance(unit.tile, action.tile)
    if steps == 0:
        return Verdict.illegal(
            MOVE, f"{_unit_label(unit)} already stands on {TILE_NAMES[action.tile]}"
        )
    if steps > 1:
        return Verdict.illegal(
            MOVE,
            f"{TILE_NAMES[action.tile]} is {steps} tiles from {_unit_label(unit)} on "
            f"{TILE_NAMES[unit.tile]}; a unit moves one adjacent tile a turn",
        )
    holder = _holder(state, action.tile)
    if holder is not None:
        return Verdict.illegal(
            NO_PASSING,
            f"{TILE_NAMES[action.tile]} holds {_unit_label(holder)}; "
            f"{_unit_label(unit)} cannot move onto or through it",
        )
    return LEGAL


@ENTRY_CHECKS.register(model.Attack)
def _check_attack(state: CrystaleState, action: model.Attack, seat: int) -> Verdict:
    unit, verdict = _own_unit_in_main(
        state, seat, action.unit, ATTACK, "attacks are made in the Main phase"
    )
    if unit is None:
        return verdict
    if unit.summoner:
        return Verdict.illegal(
            NO_ATK, f"{_unit_label(unit)} is a Summoner: it has no ATK and cannot attack"
        )
    if unit.attacked:
        return Verdict.illegal(
            FATIGUE, f"{_unit_label(unit)} already attacked this turn and is fatigued"
        )
    if state.sides[seat].attacked:
        return Verdict.illegal(
            ONE_ATTACK,
            f"{_who(seat)} already attacked this turn; this table rules one attack a turn",
        )
    if unit.moved and state.table.attack_after_move == "no":
        return Verdict.illegal(
            MOVE_THEN_ATTACK,
            f"{_unit_label(unit)} moved this turn; this table rules "
            "that a unit that moved does not attack",
        )
    target = state.units.get(action.target)
    if target is None:
        return Verdict.illegal(ATTACK, f"there is no unit u{action.target} on the board")
    if target.seat == seat:
        return Verdict.illegal(ATTACK, f"{_unit_label(target)} is {_who(seat)}'s own unit")
    crystal = crystal_of(state, unit)
    steps = distance(unit.tile, target.tile)
    if steps > crystal.attack_range:
        return Verdict.illegal(
            ATTACK,
            f"{_unit_label(target)} on {TILE_NAMES[target.tile]} is {steps} tiles "
            f"from {_unit_label(unit)} on {TILE_NAMES[unit.tile]}; its range is "
            f"{crystal.attack_range}",
        )
    return LEGAL


def _check_counter(state: CrystaleState, action: model.Counter | model.Hold, seat: int) -> Verdict:
    if state.phase != "counter" or state.counter is None:
        return Verdict.illegal(COUNTER, "no attacked Servant is waiting to counterattack")
    return LEGAL


ENTRY_CHECKS.add(model.Counter, _check_counter)
ENTRY_CHECKS.add(model.Hold, _check_counter)


def _slot_verdict(state: CrystaleState, seat: int, *, promote: bool = False) -> Verdict:
    """Whether ``seat`` may use a promotion slot now (``promote``: to promote a Servant)."""
    if state.phase == "promotion":
        if state.table.slot_phase != "promotion":
            return Verdict.illegal(
                SLOT_PHASE,
                "it is the Promotion phase; promotion slots are used in the Main phase, so a "
                f"slot {_who(seat)} has not used waits for its next Main phase",
            )
        if not promote:
            return Verdict.illegal(
                SLOT_PHASE,
                "it is the Promotion phase; here a slot only promotes a Servant, and a slot's "
                "Servant or MP is taken in the Main phase",
            )
    elif state.phase != "main":
        return _wrong_phase(state, "promotion slots are used in the Main phase")
    side = state.sides[seat]
    if side.slots_used >= len(SLOT_THRESHOLDS):
        return Verdict.illegal(
            SLOT_LIMIT,
            f"{_who(seat)} already used all {len(SLOT_THRESHOLDS)} promotion slots of the match",
        )
    if side.slots_earned <= side.slots_used:
        servants = sum(c for n, c in side.plane.items if state.book.crystals[n].kind == "servant")
        due = next(t for t in SLOT_THRESHOLDS[side.slots_earned :])
        return Verdict.illegal(
            SLOTS,
            f"{_who(seat)} has no unused promotion slot: its Higher Plane holds "
            f"{servants} Servant(s); the next slot comes at {due}",
        )
    return LEGAL


def _promotable(
    state: CrystaleState, seat: int, uid: int, clause: str
) -> tuple[Unit | None, Verdict]:
    unit, verdict = _own_unit(state, seat, uid, clause)
    if unit is None:
        return None, verdict
    if unit.summoner:
        return None, Verdict.illegal(
            clause, f"{_unit_label(unit)} is a Summoner; only Servants promote"
        )
    top = len(crystal_of(state, unit).ranks)
    if unit.rank >= top:
        return None, Verdict.illegal(TOP_RANK, f"{_unit_label(unit)} is at its top rank {top}")
    return unit, LEGAL


@ENTRY_CHECKS.register(model.SlotPromote)
def _check_slot_promote(state: CrystaleState, action: model.SlotPromote, seat: int) -> Verdict:
    verdict = _slot_verdict(state, seat, promote=True)
    if not verdict:
        return verdict
    unit, verdict = _promotable(state, seat, action.unit, "CR-9.3")
    if unit is not None and state.phase == "promotion" and unit.id in state.promoted:
        return Verdict.illegal(
            ONE_PROMOTION, f"{_unit_label(unit)} already promoted in this Promotion phase"
        )
    return verdict


@ENTRY_CHECKS.register(model.SlotServant)
def _check_slot_servant(state: CrystaleState, action: model.SlotServant, seat: int) -> Verdict:
    verdict = _slot_verdict(state, seat)
    if not verdict:
        return verdict
    side = state.sides[seat]
    if side.pool.count == 0:
        return Verdict.illegal(
            REACHED, f"{_who(seat)}'s pool is empty; no Servant can be taken from it"
        )
    verdict = _from_pool(
        state,
        seat,
        action.crystal,
        "servant",
        clause=SLOT_SERVANT,
        not_it="; the slot takes a Servant",
    )
    if not verdict or state.table.slot_servant != "board":
        return verdict
    name = _canonical_name(state, action.crystal)
    return Verdict.ruling(
        name,
        SLOT_SERVANT_PLACE,
        f"put {name} onto a free tile next to {_who(seat)}'s Summoner "
        f"(move {_who(seat)} hand>TILE {name}); no MP is paid and the turn's summon is kept",
    )


def _canonical_name(state: CrystaleState, name: str) -> str:
    crystal = state.book.find(name)
    return name if crystal is None else crystal.name


@ENTRY_CHECKS.register(model.SlotMp)
def _check_slot_mp(state: CrystaleState, action: model.SlotMp, seat: int) -> Verdict:
    return _slot_verdict(state, seat)


@ENTRY_CHECKS.register(model.End)
def _check_end(state: CrystaleState, action: model.End, seat: int) -> Verdict:
    return _main(state, "the End phase follows the Main phase")


@ENTRY_CHECKS.register(model.Discard)
def _check_discard(state: CrystaleState, action: model.Discard, seat: int) -> Verdict:
    if state.phase != "discard":
        return _wrong_phase(
            state, "crystals go to the Higher Plane for the hand limit in the End phase"
        )
    side = state.sides[seat]
    excess = side.hand.count - HAND_LIMIT
    if len(action.crystals) != excess:
        return Verdict.illegal(
            HAND_LIMIT_CLAUSE,
            f"{_who(seat)} holds {side.hand.count} crystals and moves "
            f"exactly {excess} to the Higher Plane, not {len(action.crystals)}",
        )
    return _all_in_hand(
        state,
        seat,
        action.crystals,
        lambda crystal: (
            Verdict.illegal(NAMED, f"{crystal.name} is a Summoner; it is never in the hand")
            if crystal.kind == "summoner"
            else None
        ),
    )


@ENTRY_CHECKS.register(model.Promote)
def _check_promote(state: CrystaleState, action: model.Promote, seat: int) -> Verdict:
    if state.phase != "promotion":
        return _wrong_phase(
            state, "Servants meeting their requirements promote in the Promotion phase"
        )
    unit, verdict = _promotable(state, seat, action.unit, PROMOTION)
    if unit is None:
        return verdict
    if unit.id in state.promoted:
        return Verdict.illegal(
            ONE_PROMOTION, f"{_unit_label(unit)} already promoted in this Promotion phase"
        )
    crystal = crystal_of(state, unit)
    requirement = crystal.ranks[unit.rank].requires
    return Verdict.ruling(
        crystal.name,
        PROMOTION,
        f"confirm u{unit.id} meets the rank {unit.rank + 1} requirement: {requirement}",
    )


@ENTRY_CHECKS.register(model.Done)
def _check_done(state: CrystaleState, action: model.Done, seat: int) -> Verdict:
    if state.phase != "promotion":
        return _wrong_phase(state, "'done' closes the Promotion phase")
    return LEGAL


_CHECKS = ENTRY_CHECKS.handlers


def check(state: CrystaleState, action: CrystaleAction, seat: str | None = None) -> Verdict:
    """``check_action`` for the seat making the entry, with every reason that names a
    seat's hidden crystal kept for that seat and the referee (CR-3.8)."""
    index = seat_index(state, seat)
    if index is None:
        return Verdict.illegal(
            "REF-1.2", "several seats may act now; name the seat making this entry"
        )
    verdict = check_action(state, action, index)
    if verdict.violations:
        # the actor's own hidden crystals count whole: the other seat registering the same
        # crystal tells it nothing of what the actor reached for (CR-3.8)
        hidden = {
            s: own_secrets(state, s) if s == SEATS[index] else secrets(state, s) for s in SEATS
        }
        typed = names_in(action, NAMED_FIELDS)
        verdict = verdict.concealing(secrets_for_reasons(hidden, SEATS[index], typed))
    return verdict

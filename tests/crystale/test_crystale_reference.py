"""Differential tests: the engine against the independent reference model of
``tests.crystale.reference`` (written from the rules texts alone).

From random positions reached by random legal play, every step compares, for the engine's
listed entries and for random near misses (too far, occupied, wrong phase, a second move,
fatigue, no MP, a second summon...), the engine's verdict with the model's, and the
position after the chosen entry (CR-1.3, CR-4, CR-6 to CR-10, CR-13).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.crystale import CrystaleState
from referee.games.crystale import model as m
from referee.games.crystale.model import CrystaleAction
from referee.kit.decks import Deck, SealedDeck
from tests.crystale.helpers import FIRE_POOL, OPENING, RULES, fresh, play
from tests.crystale.reference import NAMES, Reference, from_engine, hex_distance, public

VARIANTS = [
    {},
    {"counterattack": "always", "bonus_mp": "within_cap", "start_mp": "zero"},
    {"attack_after_move": "no", "counter_range": "in_range", "promotion_hp": "keep_damage"},
    {
        "counter_fatigue": "once",
        "summon_sacrifice": "each",
        "trigger_order": "printed",
        "attacks": "one",
    },
    {
        "slot_phase": "promotion",
        "slot_earning": "again",
        "zero_strike": "hit",
        "knowledge": "stays",
    },
]


def _reference(state: CrystaleState) -> Reference:
    unaccounted: list[Counter[str] | None] = []
    seen: list[Counter[str]] = []
    for side in state.sides:
        known = side.knowledge.unaccounted() if side.knowledge is not None else None
        unaccounted.append(None if known is None else Counter(known.as_dict()))
        seen.append(Counter(side.knowledge.seen.as_dict() if side.knowledge else {}))
    return Reference(dict(state.book.crystals), unaccounted, seen)


# the entries that name nothing, in every phase's list of candidates
_BARE: tuple[CrystaleAction, ...] = (
    m.Reshuffle(),
    m.End(),
    m.Done(),
    m.Counter(),
    m.Hold(),
    m.SlotMp(),
)


def _near_misses(state: CrystaleState, rng: random.Random, seat: int) -> list[CrystaleAction]:
    """Entries close to legal ones, of every kind, for whatever phase it is."""
    units = sorted(state.units.values(), key=lambda u: u.id)
    mine = [u for u in units if u.seat == seat]
    names = sorted(state.book.crystals)
    out: list[CrystaleAction] = [
        m.Pull(),
        m.Pull(2),
        *_BARE,
        m.SlotServant(rng.choice(names)),
        m.Discard((rng.choice(names),)),
        m.Pull(1, rng.choice(names)),
        m.Pull(6),
        m.Pull(5),
        m.Mulligan(),
        m.First(rng.choice(m.SEATS)),
        m.Show(tuple(rng.sample(names, rng.randint(2, 4)))),
        m.Show(tuple(rng.choice(names) for _ in range(rng.randint(3, 6)))),
        m.Declare(rng.choice(names)),
    ]
    for u in units:
        near = [t for t in range(len(NAMES)) if hex_distance(u.tile, t) <= 2]
        out.append(m.Move(u.id, rng.choice(near)))
        out.append(m.Promote(u.id))
        out.append(m.SlotPromote(u.id))
        out.append(m.Sacrifice(u.id))
        for t in units:
            out.append(m.Attack(u.id, t.id))
        crystal = state.book.crystals[u.crystal]
        for n in range(len(crystal.effects) + 1):
            targets = tuple(rng.choice([*[f"u{x.id}" for x in units], "c4"]) for _ in range(1))
            out.append(m.Use(u.id, n + 1, targets))
            out.append(m.Use(u.id, n + 1, ()))
    if mine:
        home = next((u for u in mine if u.summoner), mine[0])
        near = [t for t in range(len(NAMES)) if hex_distance(home.tile, t) <= 2]
        for name in names:
            kind = state.book.crystals[name].kind
            if kind == "servant":
                out.append(m.Summon(name, rng.choice(near)))
            elif kind in ("spell", "god"):
                targets = tuple(
                    rng.choice([*[f"u{x.id}" for x in units], "c4", "a1"])
                    for _ in range(rng.randint(0, 2))
                )
                out.append(m.Cast(name, targets))
    return out


def _every_plain_entry(state: CrystaleState) -> list[CrystaleAction]:
    """Every entry that names no hidden crystal and no effect target, of every kind,
    for the listing's completeness (each one the model allows must be listed)."""
    tiles = range(len(NAMES))
    units = sorted(state.units)
    out: list[CrystaleAction] = [
        m.Pull(),
        *_BARE,
        m.Mulligan(),
        m.Pull(6),
        m.First("p1"),
        m.First("p2"),
    ]
    for u in units:
        out += [m.Move(u, t) for t in tiles]
        out += [m.Attack(u, t) for t in units]
        out += [m.Sacrifice(u), m.Promote(u), m.SlotPromote(u)]
        effects = state.book.crystals[state.units[u].crystal].effects
        for number, effect in enumerate(effects, 1):
            if effect.target in ("unit", "ally", "enemy"):
                out += [m.Use(u, number, (f"u{t}",)) for t in units]
            elif effect.target == "tile":
                out += [m.Use(u, number, (name,)) for name in NAMES]
            else:
                out.append(m.Use(u, number))
    for side in state.sides:
        for name in side.hand.known.names():
            if state.book.crystals[name].kind == "servant":
                out += [m.Summon(name, t) for t in tiles]
    return out


def _spares_summoners(state: CrystaleState, action: CrystaleAction) -> bool:
    """Whether ``action`` leaves both hit boxes alone (for long games)."""
    summoners = {f"u{u.id}" for u in state.units.values() if u.summoner}
    if isinstance(action, m.Attack):
        return f"u{action.target}" not in summoners
    if isinstance(action, m.Cast | m.Use):
        return not summoners.intersection(action.targets)
    return True


def _choose(
    state: CrystaleState, listed: list[CrystaleAction], rng: random.Random, long: bool
) -> CrystaleAction:
    """A random listed entry, leaning to fights; a long game spares the Summoners, so
    pools run dry (reshuffles, forfeits) and hands fill (the hand limit)."""
    if long:
        listed = [a for a in listed if _spares_summoners(state, a)] or listed
    attacks = [a for a in listed if isinstance(a, m.Attack)]
    if attacks and rng.random() < 0.5:
        return rng.choice(attacks)
    fights = [a for a in listed if isinstance(a, m.Summon | m.Move | m.Cast)]
    if long and rng.random() < 0.3:
        ends = [a for a in listed if isinstance(a, m.End | m.Done)]
        if ends:
            return rng.choice(ends)
    return rng.choice(fights) if fights and rng.random() < 0.6 else rng.choice(listed)


def _walk(
    seed: int,
    variants: dict[str, str],
    plies: int,
    probes: int,
    long: bool = False,
    sealed: bool = False,
) -> int:
    """Random play from the start of the battle (p2's pool sealed if ``sealed``); returns
    how many entries were compared."""
    rng = random.Random(seed)
    tiles = "".join(rng.choice("FWETALDI") for _ in range(29))
    if sealed:
        decks: dict[str, Deck] = {"p1": FIRE_POOL, "p2": SealedDeck("ab" * 32, 31)}
        state = fresh(tiles=tiles, variants=variants, decks=decks)
    else:
        state = fresh(tiles=tiles, variants=variants)
        if rng.random() < 0.5:  # half the games open as the helpers do, half at random
            state = play(state, *OPENING)
    compared = 0
    for _ in range(plies):
        if RULES.outcome(state).over:
            break
        ref = _reference(state)
        before = from_engine(state)
        acting = sorted(RULES.to_act(state))
        assert ref.to_act(before) == {m.SEATS.index(s) for s in acting}, RULES.render(state)
        who = rng.choice(acting)
        seat = m.SEATS.index(who)
        listed = list(RULES.legal_actions(state, who))
        misses = _near_misses(state, rng, seat)
        for action in listed + rng.sample(misses, min(probes, len(misses))):
            ours = RULES.check(state, action, who).legal
            theirs = ref.legal(before, action, seat)
            compared += 1
            assert ours == theirs, (
                f"{RULES.notation(action)}: engine {'accepts' if ours else 'refuses'}, "
                f"model {'accepts' if theirs else 'refuses'}; "
                f"{RULES.check(state, action, who).explain()}\n{RULES.render(state)}"
            )
        assert listed, RULES.render(state)
        for action in _every_plain_entry(state):
            if ref.legal(before, action, seat):
                assert action in listed, f"{RULES.notation(action)} is legal but not listed"
        action = _choose(state, listed, rng, long)
        after = RULES.apply(state, action, who)
        expected = public(ref.apply(before, action, seat))
        got = public(from_engine(after))
        assert got == expected, (
            f"after {RULES.notation(action)}:\n engine {got}\n model  {expected}\n"
            f"{RULES.render(state)}"
        )
        state = after
    return compared


@pytest.mark.parametrize("seed", range(4))
def test_cr_engine_agrees_with_the_reference_model_quick(seed: int) -> None:
    """A few short games in the quick loop (CR-1.3, CR-4 to CR-10, CR-12.3, CR-13)."""
    variants = VARIANTS[seed % len(VARIANTS)]
    assert _walk(seed, variants, plies=120, probes=15, sealed=seed == 3) > 0


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    variants=st.sampled_from(VARIANTS),
    plies=st.integers(20, 1500),
    long=st.booleans(),
    sealed=st.booleans(),
)
def test_cr_engine_agrees_with_the_reference_model(
    seed: int, variants: dict[str, str], plies: int, long: bool, sealed: bool
) -> None:
    """Long random games with near misses at every step (CR-1.3, CR-4 to CR-10, CR-12.3,
    CR-13), open or sealed pools."""
    assert _walk(seed, variants, plies, probes=40, long=long, sealed=sealed) > 0

"""Differential tests: the engine against the independent reference model of
``tests/prizmik/reference.py`` (written from the rules sheet and the PZ-10 interpretations,
without the engine).

Random legal games, from the start and from random positions reached by play and carried
over as PZ-9.5 position lines, under every table choice of PZ-10: at each step the set of
legal actions (PZ-4 to PZ-6), the position after the chosen action (board, side to act,
reserves and counters, PZ-7, PZ-9.5) and the result (PZ-8, PZ-10.6 to PZ-10.15) must be the
same in both; between steps made-up actions near the legal ones must be accepted or refused
by both, the engine naming a PZ clause when it refuses.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.prizmik import PrizmikState
from tests.prizmik import reference as ref
from tests.prizmik.helpers import RULES, setup, start
from tests.prizmik.oracle import TABLES, agree, engine_actions, table_of


def probes(rng: random.Random, model: ref.Position, count: int) -> list[str]:
    """Actions near the legal ones: any origin, sign and a target up to two steps away."""
    out = []
    for _ in range(count):
        f, r = rng.randrange(8), rng.randint(1, 8)
        if rng.random() < 0.7:  # mostly from the acting player's own pieces
            own = [sq for sq, p in model.pieces.items() if p[0] == model.to_act]
            f, r = rng.choice(own) if own else (f, r)
        tf, tr = f + rng.randint(-2, 2), r + rng.randint(-2, 2)
        if not ref.on_board((tf, tr)) or (tf, tr) == (f, r):
            continue
        out.append(f"{ref.name((f, r))}{rng.choice('>-x')}{ref.name((tf, tr))}")
    return out


def refused_alike(state: PrizmikState, model: ref.Position, text: str) -> None:
    """The engine accepts ``text`` exactly when the model does, and names a PZ clause when
    it refuses."""
    verdict = RULES.check(state, RULES.parse(text))
    assert verdict.legal == (text in ref.actions(model)), text
    if not verdict.legal:
        assert verdict.violations[0].clause.startswith("PZ-"), (text, verdict.violations)
        with pytest.raises(ref.Illegal):
            ref.play(model, text)


def pick(rng: random.Random, choices: set[str], colour: str) -> str:
    """A random action of ``colour``: often a capture, often the one going furthest
    forward, so that games reach promotions and their ends."""
    ordered = sorted(choices)
    captures = [t for t in ordered if "x" in t]
    roll = rng.random()
    if captures and roll < 0.4:
        return rng.choice(captures)
    if roll < 0.7:
        ahead = 1 if colour == "red" else -1
        return max(ordered, key=lambda t: (int(t[4]) - int(t[1])) * ahead + 2 * rng.random())
    return rng.choice(ordered)


def in_step(
    rng: random.Random,
    state: PrizmikState,
    model: ref.Position,
    plies: int,
    where: str,
    probe: int = 3,
) -> tuple[PrizmikState, ref.Position]:
    """From one position in both, up to ``plies`` random plies in step, with ``probe``
    made-up actions judged alike before each; everything compared after each."""
    agree(state, model, where)
    for step in range(plies):
        if model.ended:
            break
        for text in probes(rng, model, probe):
            refused_alike(state, model, text)
        text = pick(rng, ref.actions(model), model.to_act)
        state = RULES.apply(state, RULES.parse(text))
        model = ref.play(model, text)
        agree(state, model, f"{where} step {step}: {text} -> {ref.position_line(model)}")
    return state, model


def differ(
    seed: int, variants: dict[str, str], plies: int, walk: int = 0, probe: int = 3
) -> PrizmikState:
    """Play one random game in both: ``walk`` plies by the engine alone first, the position
    reached then read afresh by both from its PZ-9.5 line; then up to ``plies`` plies in
    step."""
    rng = random.Random(seed)
    table = table_of(variants)
    state = start(**variants)
    for _ in range(walk):
        if RULES.outcome(state).over:
            break
        state = RULES.apply(state, RULES.parse(pick(rng, engine_actions(state), state.turn)))
    if walk:
        line = RULES.position_text(state)
        state = RULES.read_position(line, setup(**variants))
        model = ref.read_line(line, table)
    else:
        model = ref.start(table)
    return in_step(rng, state, model, plies, "start", probe)[0]


def test_pz_4_1_reference_agrees_on_the_opening() -> None:
    """Depth 2 from the start: every first action of red and every reply of blue."""
    model = ref.start()
    state = start()
    agree(state, model, "start")
    for first in sorted(ref.actions(model)):
        after, seen = RULES.apply(state, RULES.parse(first)), ref.play(model, first)
        agree(after, seen, first)
        for reply in sorted(ref.actions(seen)):
            agree(RULES.apply(after, RULES.parse(reply)), ref.play(seen, reply), reply)


def scattered(rng: random.Random) -> str:
    """A position line: each side's bases (one to four, lone or in fleets) mostly on its
    home rank as in play (PZ-10.14), now and then elsewhere; up to six ships, stacks and
    fighters, mostly on ranks 2-7, now and then waiting on rank 1 or 8; reserves 0-3 within
    the supply of PZ-2.1; counters at random, up to past the quiet limit of ``TABLES``.
    Loose and sparse, so that stuck players (PZ-10.6) and players out of ships (PZ-10.7,
    PZ-10.8) turn up."""
    while True:
        pieces: dict[ref.Square, ref.Piece] = {}
        for colour in ("red", "blue"):
            for f in rng.sample(range(8), rng.randint(1, 4)):
                rank = ref.home_rank(colour) if rng.random() < 0.8 else rng.randint(1, 8)
                pieces[(f, rank)] = (colour, rng.choice(["base", "fleet"]))
            for _ in range(rng.randint(0, 6)):
                sq = (
                    rng.randrange(8),
                    rng.randint(2, 7) if rng.random() < 0.8 else 1 + 7 * rng.randrange(2),
                )
                pieces.setdefault(sq, (colour, rng.choice(["stack", "ship", "fighter", "fighter"])))
        reserves = (rng.randint(0, 3), rng.randint(0, 3))
        shapes = {(c, shape): reserves[ref.side(c)] for c in ("red", "blue") for shape in "bsf"}
        for colour, nest in pieces.values():
            for shape, holders in (("b", ref.HAS_BASE), ("s", ref.HAS_SHIP)):
                shapes[(colour, shape)] += nest in holders
            shapes[(colour, "f")] += nest in ("fleet", "stack", "fighter")
        if max(shapes.values()) <= 6:
            to_act = rng.choice(["red", "blue"])
            quiet = rng.randint(0, 45)
            played = quiet + rng.randint(0, 40)
            return ref.position_line(
                ref.Position(pieces, to_act, reserves, played, quiet, ref.Table())
            )


def differ_from(line: str, variants: dict[str, str], seed: int, plies: int) -> ref.Position:
    """Read ``line`` in both and play up to ``plies`` random plies in step."""
    rng = random.Random(seed)
    state = RULES.read_position(line, setup(**variants))
    model = ref.read_line(line, table_of(variants))
    return in_step(rng, state, model, plies, line)[1]


@pytest.mark.parametrize(
    ("line", "action", "variants", "ended"),
    [
        # blue's fighter takes red's last ship: no ship is left and every file has a base
        # at one end; both keep a fighter and a reserve (PZ-10.13 against PZ-10.7)
        ("4bbbb/8/8/X7/4Hx2/8/8/BBBB4 b 1/1 0 0", "f4xe4", {}, None),
        (
            "4bbbb/8/8/X7/4Hx2/8/8/BBBB4 b 1/1 0 0",
            "f4xe4",
            {"impossible_test": "files"},
            ("draw", None, "PZ-10.13"),
        ),
        # blue's ship walls red's a8 fighter in; red's base never acts (PZ-10.6)
        ("Xb6/x1h5/8/8/8/8/8/B7 b 1/1 0 0", "c7-b7", {}, ("win", "blue", "PZ-10.6")),
        (
            "Xb6/x1h5/8/8/8/8/8/B7 b 1/1 0 0",
            "c7-b7",
            {"no_legal_action": "draw"},
            ("draw", None, "PZ-10.6"),
        ),
    ],
)
def test_pz_10_8_reference_agrees_on_the_rare_endings(
    line: str, action: str, variants: dict[str, str], ended: tuple[str, str | None, str] | None
) -> None:
    state = RULES.read_position(line, setup(**variants))
    model = ref.read_line(line, table_of(variants))
    agree(state, model, line)
    state, model = RULES.apply(state, RULES.parse(action)), ref.play(model, action)
    agree(state, model, action)
    assert model.ended == ended


@pytest.mark.parametrize("to_act", ["r", "b"])
def test_pz_10_16_a_side_shown_without_a_base_has_lost_whoever_is_to_act(to_act: str) -> None:
    """Red has a lone base and nothing else, blue a fighter and no base: blue has lost by
    PZ-8.1 on either turn, although with red to act the letter of PZ-10.8 (blue just acted,
    red can never take a base) would give blue the game by PZ-8.2."""
    line = f"8/8/8/3x4/8/8/8/B7 {to_act} 3/3 0 0"
    model = ref.read_line(line)
    agree(RULES.read_position(line, setup()), model, line)
    assert model.ended == ("win", "red", "PZ-8.1")


QUICK = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@QUICK
@given(st.integers(0, 2**32 - 1), st.sampled_from(TABLES))
def test_pz_reference_agrees_on_games_from_the_start(seed: int, variants: dict[str, str]) -> None:
    differ(seed, variants, 120)


@QUICK
@given(st.integers(0, 2**32 - 1), st.sampled_from(TABLES), st.integers(10, 80))
def test_pz_9_5_reference_agrees_from_reached_positions(
    seed: int, variants: dict[str, str], walk: int
) -> None:
    differ(seed, variants, 80, walk=walk)


# whole games under every table, about two seconds in all (games with captures favoured end
# within a few dozen plies); a longer hunt: raise max_examples and run the file alone
WHOLE = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@WHOLE
@given(st.integers(0, 2**32 - 1), st.sampled_from(TABLES), st.integers(0, 60))
def test_pz_reference_agrees_on_whole_games(seed: int, variants: dict[str, str], walk: int) -> None:
    differ(seed, variants, 600, walk=walk)


@QUICK
@given(st.integers(0, 2**32 - 1), st.sampled_from(TABLES))
def test_pz_10_16_reference_agrees_from_positions_set_up_by_hand(
    seed: int, variants: dict[str, str]
) -> None:
    differ_from(scattered(random.Random(seed)), variants, seed, 60)

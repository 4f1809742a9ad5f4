"""Builders for hand-made Prismata positions used by the rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from referee.contract import Player, Setup
from referee.games.prismata import PrismataRules, PrismataState, Unit
from referee.games.prismata.catalog import Res, load_catalog

RULES = PrismataRules()
LIVE = "prismata/2026-03"
OLD = "prismata/2020"
PLAYERS = (Player("p1", "Ann"), Player("p2", "Bob"))

NOTHING = Res()

UnitSpec = str | tuple[str, dict[str, Any]]


def setup(units: Sequence[str] = (), ruleset: str = LIVE, **variants: str) -> Setup:
    return Setup(
        players=PLAYERS, ruleset=ruleset, variants=dict(variants), options={"units": list(units)}
    )


def new_game(
    units: Sequence[str] = ("Wall",), ruleset: str = LIVE, **variants: str
) -> PrismataState:
    randoms = [u for u in units if not load_catalog(ruleset).units[u].base]
    return RULES.initial_state(setup(randoms, ruleset, **variants))


def make_unit(uid: int, owner: int, spec: UnitSpec, ruleset: str = LIVE) -> Unit:
    kind, extra = (spec, {}) if isinstance(spec, str) else spec
    utype = load_catalog(ruleset).units[kind]
    fields: dict[str, Any] = {
        "id": uid,
        "owner": owner,
        "kind": kind,
        "health": utype.health,
        "lifespan": utype.lifespan,
        "stamina": utype.stamina,
        "status": "ready" if utype.click is not None else "idle",
    }
    fields.update(extra)
    return Unit(**fields)


def scenario(
    p1: Sequence[UnitSpec] = (),
    p2: Sequence[UnitSpec] = (),
    *,
    res1: Res = NOTHING,
    res2: Res = NOTHING,
    offer: Sequence[str] = (),
    active: int = 0,
    phase: str = "action",
    ruleset: str = LIVE,
    **variants: str,
) -> PrismataState:
    """A position with exactly the given units (ids 1.. in order, p1's first)."""
    cat = load_catalog(ruleset)
    kinds = {s if isinstance(s, str) else s[0] for s in list(p1) + list(p2)} | set(offer)
    randoms = sorted(k for k in kinds if not cat.units[k].base)
    base = new_game(randoms, ruleset, **variants)
    units: dict[int, Unit] = {}
    uid = 1
    for owner, specs in ((0, p1), (1, p2)):
        for spec in specs:
            units[uid] = make_unit(uid, owner, spec, ruleset)
            uid += 1
    return msgspec.structs.replace(
        base,
        units=units,
        dead={},
        next_id=uid,
        res=(res1, res2),
        active=active,
        phase=phase,
    )


def act(state: PrismataState, *texts: str) -> PrismataState:
    """Check and apply actions given in notation; fails the test on an illegal one."""
    for text in texts:
        action = RULES.parse(text)
        verdict = RULES.check(state, action)
        assert verdict.legal, f"{text}: {verdict.violations}"
        state = RULES.apply(state, action)
    return state


def refused(state: PrismataState, text: str) -> list[str]:
    """The clause ids that make ``text`` illegal (asserts it is illegal)."""
    verdict = RULES.check(state, RULES.parse(text))
    assert not verdict.legal, f"{text} should be illegal"
    return [v.clause for v in verdict.violations]


def reason(state: PrismataState, text: str) -> str:
    verdict = RULES.check(state, RULES.parse(text))
    assert not verdict.legal
    return verdict.violations[0].reason

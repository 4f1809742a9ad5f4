"""Generate the Prismata catalogs (``referee/games/prismata/catalogs/*.json``) from the shared data.

Usage::

    python tools/prismata/make_catalogs.py [--shared ../shared/data/prismata]

The live balance (``prismata/2026-03``) is read from ``unit_definitions.json``
(keyed by display name); the 2020 balance (``prismata/2020``) from the
reference engine's ``churchill-2020/cardLibrary.jso`` (keyed by internal name,
with ``UIName`` the display name) and its ``pool.txt``. The live random pool is
every non-base unit of the live data. Output keys are display names everywhere;
internal names are kept in ``internal`` for imports of reference games.

Translation rules (the sources' field names on the left):

- ``buyCost``/``abilityCost``: compact amounts; ``buySac``/``abilitySac``: consumed units.
- ``toughness`` (missing or 0 means 1, see PM-I.3), ``fragile``, ``defaultBlocking``,
  ``assignedBlocking``, ``buildTime`` (missing = 1, spells 0), ``lifespan``,
  ``charge`` (stamina), ``HPUsed`` (health cost), ``HPGained``/``HPMax`` (regeneration
  and its cap, the cap defaulting to the starting health), ``spell``, ``undefendable``
  (frontline).
- scripts: ``receive`` (gain), ``opponentReceive`` (give), ``create`` (unit, owner,
  count, delay defaulting to 1, lifespan), ``destroy``, ``delay`` (exhaust),
  ``selfsac`` (sacrifice). A spell's purchase sacrifices the spell.
- ``targetAction`` ``disrupt`` is chill (``targetAmount``); ``snipe`` destroys the target,
  ``condition.healthAtMost`` or ``condition.isABC`` (only Animus, Blastforge, Conduit).
- ``resonate`` (one attack) and ``goldResonate`` (one gold) per ready unit of the
  named kind, added to the start-of-turn effect.
- ``abilityNetherfy`` (Deadeye Operative) cannot be expressed by the data's scripts;
  it becomes a click that destroys one non-blocking enemy Drone.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

# E402 on purpose: the project imports only once the lines above put it on sys.path
from referee.games.prismata.catalog import (  # noqa: E402
    RARITY_SUPPLY,
    Ability,
    Catalog,
    Create,
    Destroy,
    Effect,
    Res,
    Resonate,
    Target,
    UnitType,
    parse_amount,
)

TECH = ("Animus", "Blastforge", "Conduit")


def _effect(
    script: dict[str, Any] | None,
    ui: dict[str, str],
    *,
    extra_sacrifice: bool = False,
    resonate: Resonate | None = None,
) -> Effect | None:
    """Translate one source script; ``None`` when it has no effect at all."""
    if script is None and not extra_sacrifice and resonate is None:
        return None
    script = script or {}
    has = any(k in script for k in ("receive", "opponentReceive", "create", "destroy", "selfsac"))
    if not has and not extra_sacrifice and resonate is None:
        return None
    creates = []
    for item in script.get("create", []):
        creates.append(
            Create(
                unit=ui[item[0]],
                owner="self" if item[1] == "own" else "opponent",
                count=int(item[2]) if len(item) > 2 else 1,
                delay=int(item[3]) if len(item) > 3 else 1,
                lifespan=int(item[4]) if len(item) > 4 else 0,
            )
        )
    destroys = []
    for item in script.get("destroy", []):
        cond = item.get("condition", {})
        destroys.append(
            Destroy(
                unit=ui[item["cardName"]],
                owner="self" if item.get("owner") == "own" else "opponent",
                count=int(item.get("supply", 1)),
                not_blocking=bool(cond.get("notBlocking", False)),
            )
        )
    return Effect(
        gain=parse_amount(script.get("receive")),
        give=parse_amount(script.get("opponentReceive")),
        resonate=resonate,
        create=tuple(creates),
        destroy=tuple(destroys),
        exhaust=int(script.get("delay", 0)),
        sacrifice=bool(script.get("selfsac", False)) or extra_sacrifice,
    )


def _sacs(raw: list[list[Any]] | None, ui: dict[str, str]) -> tuple[tuple[str, int], ...]:
    return tuple((ui[item[0]], int(item[1]) if len(item) > 1 else 1) for item in raw or [])


def translate(key: str, raw: dict[str, Any], ui: dict[str, str]) -> UnitType:
    """One unit of the source data as our :class:`UnitType`."""
    name = ui[key]
    health = int(raw.get("toughness", 1)) or 1
    spell = bool(raw.get("spell", 0))
    resonate = None
    if "resonate" in raw:
        resonate = Resonate(unit=ui[raw["resonate"]], gain=Res(attack=1))
    elif "goldResonate" in raw:
        resonate = Resonate(unit=ui[raw["goldResonate"]], gain=Res(gold=1))
    target = None
    if "targetAction" in raw:
        if raw["targetAction"] == "disrupt":
            target = Target(kind="chill", amount=int(raw.get("targetAmount", 0)))
        elif raw["targetAction"] == "snipe":
            cond = raw.get("condition", {})
            target = Target(
                kind="snipe",
                max_health=int(cond["healthAtMost"]) if "healthAtMost" in cond else None,
                only=TECH if cond.get("isABC") else (),
            )
        else:
            raise ValueError(f"{name}: unknown target action {raw['targetAction']!r}")
    click_effect = _effect(raw.get("abilityScript"), ui)
    if raw.get("abilityNetherfy"):
        click_effect = Effect(destroy=(Destroy(unit="Drone", owner="opponent", not_blocking=True),))
    click = None
    if click_effect is not None or target is not None:
        click = Ability(
            cost=parse_amount(raw.get("abilityCost")),
            consume=_sacs(raw.get("abilitySac"), ui),
            health_cost=int(raw.get("HPUsed", 0)),
            target=target,
            effect=click_effect or Effect(),
        )
    rarity = raw["rarity"]
    return UnitType(
        name=name,
        internal=key,
        rarity=rarity,
        base=bool(raw.get("baseSet", 0)),
        supply=RARITY_SUPPLY[rarity],
        listed_supply=int(raw.get("supply", RARITY_SUPPLY[rarity])),
        cost=parse_amount(raw.get("buyCost")),
        consume=_sacs(raw.get("buySac"), ui),
        health=health,
        fragile=bool(raw.get("fragile", 0)),
        blocker=bool(raw.get("defaultBlocking", 0)),
        blocks_after_click=bool(raw.get("assignedBlocking", 0)),
        build_time=0 if spell else int(raw.get("buildTime", 1)),
        lifespan=int(raw.get("lifespan", 0)),
        stamina=int(raw.get("charge", 0)),
        regen=int(raw.get("HPGained", 0)),
        health_cap=int(raw.get("HPMax", health)),
        spell=spell,
        frontline=bool(raw.get("undefendable", 0)),
        on_buy=_effect(raw.get("buyScript"), ui, extra_sacrifice=spell),
        click=click,
        start=_effect(raw.get("beginOwnTurnScript"), ui, resonate=resonate),
        short=str(raw.get("UIShortname", "")) if raw.get("UIShortname") not in (None, name) else "",
    )


def _closure(names: list[str], raw: dict[str, dict[str, Any]]) -> list[str]:
    """``names`` plus every unit they create, consume or resonate with (source keys)."""
    out: list[str] = []
    todo = list(names)
    while todo:
        key = todo.pop(0)
        if key in out:
            continue
        out.append(key)
        todo.extend(n for n in raw[key].get("needs", []) if n not in out)
    return out


def live_catalog(shared: Path) -> Catalog:
    data = json.loads((shared / "unit_definitions.json").read_text())["units"]
    lib = json.loads((shared / "reference/live-2026-03/cardLibrary.jso").read_text())
    internal = {raw.get("UIName", key): key for key, raw in lib.items()}
    ui = {name: name for name in data}
    units: dict[str, UnitType] = {}
    for name, raw in data.items():
        unit = translate(name, raw, ui)
        units[name] = msgspec.structs.replace(unit, internal=internal.get(name, name))
    base_order = [
        "Drone",
        "Engineer",
        "Blastforge",
        "Animus",
        "Conduit",
        "Steelsplitter",
        "Wall",
        "Rhino",
        "Tarsier",
        "Forcefield",
        "Gauss Cannon",
    ]
    assert sorted(base_order) == sorted(n for n, u in units.items() if u.base)
    pool = sorted(n for n, u in units.items() if not u.base)
    return Catalog(
        ruleset="prismata/2026-03",
        title="Prismata, live balance of March 2026",
        source="unit_definitions.json (live unit data, March 2026)",
        drone_supply=(21, 20),
        base_set=tuple(base_order),
        random_pool=tuple(pool),
        units=dict(sorted(units.items())),
    )


def churchill_catalog(shared: Path) -> Catalog:
    folder = shared / "reference/churchill-2020"
    lib = json.loads((folder / "cardLibrary.jso").read_text())
    pool_keys = [
        line.split("#")[0].strip()
        for line in (folder / "pool.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    ui = {key: raw.get("UIName", key) for key, raw in lib.items()}
    base_keys = [k for k, raw in lib.items() if raw.get("baseSet")]
    keys = _closure(base_keys + pool_keys, lib)
    units = {ui[k]: translate(k, lib[k], ui) for k in keys}
    return Catalog(
        ruleset="prismata/2020",
        title="Prismata, 2020 balance (reference engine card library)",
        source="reference/churchill-2020/cardLibrary.jso with pool.txt",
        drone_supply=(20, 20),
        base_set=tuple(ui[k] for k in base_keys),
        random_pool=tuple(sorted(ui[k] for k in pool_keys)),
        units=dict(sorted(units.items())),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared/data/prismata")
    parser.add_argument("--out", type=Path, default=ROOT / "referee/games/prismata/catalogs")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for filename, catalog in (
        ("prismata-2026-03.json", live_catalog(args.shared)),
        ("prismata-2020.json", churchill_catalog(args.shared)),
    ):
        text = msgspec.json.format(msgspec.json.encode(catalog), indent=1)
        (args.out / filename).write_bytes(text + b"\n")
        print(f"{filename}: {len(catalog.units)} units, pool {len(catalog.random_pool)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

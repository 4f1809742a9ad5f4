"""``PrismataRules``: the Prismata game contract (see ``referee.contract.GameRules``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from referee.contract import (
    ForeignRecord,
    Setup,
    SetupField,
    VariantOption,
)
from referee.errors import CatalogError, SetupError
from referee.games.base import ModularRules
from referee.games.prismata import engine
from referee.games.prismata.catalog import Catalog, Res, load_catalog, units_table
from referee.games.prismata.model import (
    SEATS,
    PrismataAction,
    PrismataState,
    Table,
    Unit,
)
from referee.kit.variants import switch

__all__ = ["RULESETS", "PrismataRules", "draw_random_set"]

RULESETS = ("prismata/2026-03", "prismata/2020")

VARIANTS = (
    switch(
        "supply",
        ("rarity", "listed"),
        "PM-I.1",
        "Supply of each unit: by rarity (trinket 20, normal 10, rare 4, legendary 1) or as "
        "the catalog lists it (the live data gives 20 for many normal units).",
    ),
    switch(
        "wipeout",
        ("draw", "second_player"),
        "PM-9.3",
        "When both seats lose their last units at once: a draw, or a win for the second "
        "player (the reference engine's scoring, for imports of its games).",
    ),
    switch(
        "doomed",
        ("survive", "lose"),
        "PM-I.8",
        "A seat whose every unit will die at its next start of turn: plays on (default) or "
        "loses at once at the end of a turn, as the live client rules.",
    ),
    switch(
        "overkill",
        ("destroyed", "undamageable"),
        "PM-I.16",
        "When a breach may damage units under construction: once every other enemy unit "
        "is destroyed (default, the wiki and the reference engine), or as soon as no other enemy "
        "unit can take the attack left (the rules summary).",
    ),
    switch(
        "lifespan",
        ("reference", "built", "always"),
        "PM-I.17",
        "When lifespan runs down at the start of its owner's turn: only for a unit "
        "neither under construction nor exhausted (reference, the default, the reference "
        "engine's), for every built unit, exhausted or not (built), or for every unit, as the "
        "comprehensive rules word it (always).",
    ),
    switch(
        "breach",
        ("reach", "exceed"),
        "PM-I.18",
        "When attack left at the end of the action phase overruns the defense: once it "
        "reaches the defense (default, the rules summary, the wiki and the reference engine) or "
        "only once it exceeds it (the comprehensive rules' words).",
    ),
    switch(
        "health_cost",
        ("may_die", "must_survive"),
        "PM-I.21",
        "Whether a unit may pay its last health for its ability and die of it (default, "
        "as the reference engine plays) or must keep at least one health after paying.",
    ),
    switch(
        "made",
        ("construct", "exhaust"),
        "PM-I.2",
        "Units made when a unit is bought: under construction for the effect's delay "
        "(default, the unit data and the reference engine) or exhausted for it like every other "
        "made unit (the comprehensive rules' words).",
    ),
    switch(
        "breach_tally",
        ("units", "entries"),
        "PM-I.23",
        "What the breach counts as damage dealt, after which clicks stand (PM-I.7): each "
        "unit damaged, once however often it is hit (units, the default); or each breach entry, "
        "taking a unit's damage back uncounting one (entries, the count before PM-I.23: games "
        "recorded before the switch keep it).",
        absent="entries",
    ),
)


def draw_random_set(ruleset: str, size: int, seed: int) -> list[str]:
    """PM-2.2: the random set for ``seed``: ``random.Random(seed).sample(sorted pool, size)``."""
    pool = sorted(load_catalog(ruleset).random_pool)
    return random.Random(seed).sample(pool, size)


def _canonical_units(cat: Catalog, names: Sequence[Any]) -> list[str]:
    lookup = {n.lower(): n for n in cat.units}
    out: list[str] = []
    for raw in names:
        name = lookup.get(str(raw).strip().lower())
        if name is None:
            raise SetupError(f"{raw!r} is not a unit of {cat.ruleset}")
        if cat.units[name].base:
            raise SetupError(f"{name} is in the base set; list only random-set units")
        if name in out:
            raise SetupError(f"{name} is listed twice in the random set")
        out.append(name)
    return out


SETUP_FIELDS = (
    SetupField(
        key="units",
        kind="list",
        excludes=("random_size", "seed"),
        help="The random set, named (comma-separated display names), instead of a drawn one.",
    ),
    SetupField(
        key="random_size",
        kind="choice",
        choices=("8", "5"),
        help="Size of the random set drawn from the seed: 8 (Base+8, default) or 5.",
    ),
    SetupField(
        key="seed",
        kind="seed",
        help="Seed that draws the random set (PM-2.2); drawn for you and recorded when omitted.",
    ),
)


class PrismataRules(ModularRules[PrismataState, PrismataAction]):
    """Prismata for two seats, ``p1`` moving first, on the live (default) or 2020 balance."""

    name: ClassVar[str] = "prismata"
    title: ClassVar[str] = "Prismata"
    seats: ClassVar[tuple[str, ...]] = SEATS
    rulesets: ClassVar[tuple[str, ...]] = RULESETS
    variant_options: ClassVar[tuple[VariantOption, ...]] = VARIANTS
    setup_fields: ClassVar[tuple[SetupField, ...]] = SETUP_FIELDS
    record_formats: ClassVar[tuple[str, ...]] = ("prismata-reference",)

    # -- setup -----------------------------------------------------------
    def resolve_setup(self, setup: Setup) -> Setup:
        """Complete the setup; the random set is drawn here and recorded as ``units``.

        Options: ``units`` (an explicit random set, display names), else
        ``random_size`` (8 or 5, default 8) and ``seed`` (an integer). The seed is
        drawn by the application layer when the table gives none; the rules never
        draw random numbers themselves.
        """
        done = super().resolve_setup(setup)
        if done.ruleset is None:
            raise SetupError("a resolved setup names its ruleset")
        cat = load_catalog(done.ruleset)
        options = dict(done.options)
        if options.get("position"):  # the random set is the one of the position given
            state = self.read_position(str(options["position"]), done)
            options = {"units": list(state.random_set), "position": options["position"]}
        named = options.get("units")
        if named is not None:
            raw = (
                [part for part in named.split(",") if part.strip()]
                if isinstance(named, str)
                else named
            )
            named = _canonical_units(cat, raw)
        if named is not None and options.get("seed") is None:
            if options.get("random_size") is not None:
                raise SetupError(
                    "--units names the random set; --random-size draws one: give one or the other"
                )
            options["units"] = named
        else:
            size = options.get("random_size", 8)
            if isinstance(size, str) and size.isdigit():
                size = int(size)
            if size not in (5, 8):
                raise SetupError(f"random_size must be 8 or 5, not {size!r}")
            seed = options.get("seed")
            if seed is None:
                raise SetupError(
                    "a random set needs a seed (--seed N), or name the units (--units)"
                )
            try:
                seed = int(seed)
            except (TypeError, ValueError):
                raise SetupError(f"seed must be an integer, not {seed!r}") from None
            drawn = draw_random_set(done.ruleset, size, seed)
            if (
                named is not None and named != drawn
            ):  # a recorded setup carries both: they must agree
                raise SetupError(f"seed {seed} draws {', '.join(drawn)}, not the units named")
            options.update(random_size=size, seed=seed, units=drawn)
        return msgspec.structs.replace(done, options=options)

    def read_position(self, text: str, setup: Setup) -> PrismataState:
        """A position string (the state's JSON), checked against the catalog it names."""
        state = super().read_position(text, setup)
        cat = load_catalog(state.ruleset)
        unknown = sorted({u.kind for u in state.units.values()} - set(cat.units))
        if unknown or state.ruleset != (setup.ruleset or state.ruleset):
            raise SetupError(
                f"the position's units are not all of {setup.ruleset}: {', '.join(unknown)}"
                if unknown
                else f"the position is on {state.ruleset}, not {setup.ruleset}"
            )
        return state

    def initial_state(self, setup: Setup) -> PrismataState:
        """PM-2: base set plus the random set; 6 Drones and 2 Engineers for p1, 7 and 2 for p2;
        the position is after p1's first start of turn."""
        setup = self.resolve_setup(setup)
        if setup.ruleset is None:
            raise SetupError("a resolved setup names its ruleset")
        cat = load_catalog(setup.ruleset)
        variants = setup.variants
        table = Table(
            supply=variants["supply"],
            wipeout=variants["wipeout"],
            doomed=variants["doomed"],
            overkill=variants["overkill"],
            lifespan=variants["lifespan"],
            breach=variants["breach"],
            health_cost=variants["health_cost"],
            made=variants["made"],
            breach_tally=variants["breach_tally"],
        )
        randoms = tuple(setup.options["units"])
        supply_max: dict[str, tuple[int, int]] = {}
        for name in cat.base_set + randoms:
            utype = cat.units[name]
            if name == "Drone":
                supply_max[name] = cat.drone_supply
            else:
                n = utype.listed_supply if table.supply == "listed" else utype.supply
                supply_max[name] = (n, n)
        units: dict[int, Unit] = {}
        next_id = 1
        for seat, drones in ((0, 6), (1, 7)):
            for kind, count in (("Drone", drones), ("Engineer", 2)):
                utype = cat.units[kind]
                for _ in range(count):
                    units[next_id] = engine.new_unit(
                        next_id, seat, utype, status="ready" if utype.click is not None else "idle"
                    )
                    next_id += 1
        state = PrismataState(
            ruleset=setup.ruleset,
            table=table,
            random_set=randoms,
            supply=dict(supply_max),
            supply_max=supply_max,
            turn=0,
            active=0,
            phase="action",
            res=(Res(), Res()),
            units=units,
            dead={},
            next_id=next_id,
        )
        return engine.start_turn(state, 0)

    # -- play ------------------------------------------------------------
    def to_move(self, state: PrismataState) -> str | None:
        """The seat whose turn it is, straight from the state (called on every entry)."""
        return None if state.result is not None else SEATS[state.active]

    # -- other tools' records and the catalog ------------------------------
    def read_foreign(
        self, fmt: str, data: bytes, source: str, options: Mapping[str, Any]
    ) -> ForeignRecord:
        """Games played by the independent reference engine (``prismata-reference``)."""
        if fmt != "prismata-reference":
            raise LookupError(f"prismata reads no {fmt!r} records; it reads prismata-reference")
        from referee.games.prismata.reference import read_reference

        return read_reference(data, source, options)

    def read_catalog(self, kind: str, text: str, source: str) -> Any:
        """Prismata's unit catalogs are built in (one per ruleset): it reads no files."""
        raise CatalogError(f"{source}: Prismata's unit catalogs are built in; choose a --ruleset")

    def catalog_rows(self, setup: Setup, kind: str) -> list[dict[str, Any]]:
        """The units of the pinned catalog with their stats, by display name."""
        return units_table(setup.ruleset)

    # -- helpers ---------------------------------------------------------
    def catalog(self, ruleset: str | None = None) -> Catalog:
        """The unit catalog of ``ruleset`` (default: the live balance)."""
        return load_catalog(ruleset or self.rulesets[0])

"""Crystal catalogs (CR-2): Summoner, Servant, Spell and God crystals read from a
table's TOML or JSON file, validated, and indexed by name.

The schema is ours; the example in ``catalogs/example.toml`` holds invented
crystals. A catalog is recorded in the game's setup as canonical builtins (the
output of ``msgspec.to_builtins``) so that a stored game replays from its first
event alone; :func:`build_book` turns either form into a :class:`Book`, the
read-only index the engine uses.

Effects are either structured (``ops`` the engine carries out) or free text (no
``ops``: the referee rules on them, CR-11.1).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from importlib import resources
from typing import Annotated, Any, Literal, TypeVar

import msgspec

from referee.errors import CatalogError
from referee.games.crystale.board import ELEMENT_ALIASES, ELEMENTS
from referee.kit.catalogs import catalog_digest, catalog_from
from referee.kit.catalogs import read_catalog as kit_read_catalog

__all__ = [
    "EXAMPLE_FILE",
    "Book",
    "Catalog",
    "Crystal",
    "Effect",
    "Op",
    "Rank",
    "build_book",
    "example_book",
    "parse_catalog",
]

EntryT = TypeVar("EntryT")
PrintedT = TypeVar("PrintedT", bound="_Printed")

EXAMPLE_FILE = "example.toml"

NonNegative = Annotated[int, msgspec.Meta(ge=0, le=100_000)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=80)]
OpKind = Literal["damage", "heal", "atk", "mp", "tile"]
TargetKind = Literal["none", "self", "unit", "ally", "enemy", "tile"]
EffectPhase = Literal["main", "recharge", "passive"]
Kind = Literal["summoner", "servant", "spell", "god"]


class _Entry(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """What a catalog holds: read strictly (an unknown field is an error, not ignored) and
    written without its defaults. Subclasses repeat ``frozen=True`` for mypy's sake (msgspec
    inherits it anyway)."""


class Op(_Entry, frozen=True):
    """One structured step of an effect (CR-2.6).

    ``damage`` N to the target unit (on a Summoner: one hit, CR-I.4), ``heal`` N
    to a target Servant (never above its rank's HP), ``atk`` N to a target
    Servant until the end of the turn, ``mp`` N to the user's own Summoner,
    ``tile`` turns the target tile into ``element``.
    """

    op: OpKind
    amount: int = 0
    element: str | None = None


class Effect(_Entry, frozen=True):
    """An effect printed on a crystal: MP cost, target, timing, and what it does."""

    name: str = ""
    text: str = ""
    cost: NonNegative = 0
    target: TargetKind = "none"
    phase: EffectPhase = "main"
    rank: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1
    ops: tuple[Op, ...] = ()

    @property
    def structured(self) -> bool:
        return bool(self.ops)

    def label(self) -> str:
        return self.name or self.text[:40] or "effect"


class Rank(_Entry, frozen=True):
    """A Servant's stats at one rank and what it takes to reach that rank."""

    hp: Annotated[int, msgspec.Meta(ge=1, le=100_000)]
    atk: NonNegative
    requires: str = ""


class _Printed(_Entry, frozen=True):
    """What every crystal prints: its name and element (CR-2.2 to CR-2.5)."""

    name: Name
    element: str


class _Paid(_Printed, frozen=True):
    """A crystal with an MP price: a Servant, spell or god (CR-2.3 to CR-2.5)."""

    cost: NonNegative


class Summoner(_Printed, frozen=True):
    mana_pool: NonNegative
    recharge: NonNegative
    effects: tuple[Effect, ...] = ()


class Servant(_Paid, frozen=True):
    ranks: tuple[Rank, ...]
    range: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    effects: tuple[Effect, ...] = ()


class Spell(_Paid, frozen=True):
    effects: tuple[Effect, ...]
    trigger: bool = False


class God(_Paid, frozen=True):
    effects: tuple[Effect, ...]


class Catalog(_Entry, frozen=True):
    """A whole catalog file."""

    name: str = "catalog"
    summoners: tuple[Summoner, ...] = ()
    servants: tuple[Servant, ...] = ()
    spells: tuple[Spell, ...] = ()
    gods: tuple[God, ...] = ()


class Crystal(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """One crystal as the engine sees it, whatever its kind."""

    name: str
    kind: Kind
    element: str
    cost: int = 0
    mana_pool: int = 0
    recharge: int = 0
    ranks: tuple[Rank, ...] = ()
    range: int = 0
    trigger: bool = False
    effects: tuple[Effect, ...] = ()

    @property
    def attack_range(self) -> int:
        """The printed range, or 1 where none is printed (CR-I.3)."""
        return self.range or 1


class Book(msgspec.Struct, frozen=True, gc=False):
    """A validated catalog indexed by name (and by lower-case name for reading entries)."""

    catalog: Catalog
    crystals: dict[str, Crystal]
    lower: dict[str, str]

    def find(self, name: str) -> Crystal | None:
        """The crystal called ``name`` (any letter case), or ``None``."""
        canonical = self.lower.get(" ".join(name.split()).lower())
        return None if canonical is None else self.crystals[canonical]

    def builtins(self) -> dict[str, Any]:
        """The catalog as plain JSON data (lists, not tuples), as a store reads it back."""
        data = msgspec.json.decode(msgspec.json.encode(self.catalog))
        if not isinstance(data, dict):
            raise TypeError(f"data is a {type(data).__name__}, not dict")
        return data


def _element(raw: str, where: str, source: str) -> str:
    element = ELEMENT_ALIASES.get(raw.strip().lower())
    if element is None:
        raise CatalogError(
            f"{source}: {where}: {raw!r} is not an element; use one of {', '.join(ELEMENTS)}"
        )
    return element


def _check_effects(
    effects: tuple[Effect, ...], most: int, where: str, source: str
) -> tuple[Effect, ...]:
    if len(effects) > most:
        raise CatalogError(f"{source}: {where} has {len(effects)} effects; at most {most}")
    out = []
    for n, effect in enumerate(effects, 1):
        at = f"{where} effect {n}"
        if not effect.ops and not effect.text:
            raise CatalogError(f"{source}: {at} needs ops or a text for the referee to rule on")
        ops = []
        for op in effect.ops:
            if op.op == "tile":
                if effect.target != "tile":
                    raise CatalogError(f'{source}: {at}: a tile op needs target = "tile"')
                if op.element is None:
                    raise CatalogError(f"{source}: {at}: a tile op names the new element")
                op = Op("tile", 0, _element(op.element, at, source))
            elif op.element is not None:
                raise CatalogError(f"{source}: {at}: only a tile op names an element")
            elif op.op in ("damage", "heal", "atk") and effect.target in ("none", "tile"):
                raise CatalogError(
                    f"{source}: {at}: a {op.op} op needs a unit target (self, unit, ally, enemy)"
                )
            ops.append(op)
        if effect.phase == "passive" and ops:
            raise CatalogError(
                f"{source}: {at}: an effect always in force is never used nor carried out, so "
                "it is printed text the referee rules on, without ops (CR-2.6)"
            )
        if effect.phase == "recharge" and (effect.target not in ("none", "self") or effect.cost):
            raise CatalogError(
                f"{source}: {at}: a recharge-phase effect costs nothing and targets none or self"
            )
        out.append(msgspec.structs.replace(effect, ops=tuple(ops)))
    return tuple(out)


def _validated(catalog: Catalog, source: str) -> Book:
    """Check what the schema cannot say (CR-2) and index the crystals."""
    crystals: dict[str, Crystal] = {}
    lower: dict[str, str] = {}

    def add(crystal: Crystal) -> None:
        name = crystal.name
        if name != " ".join(name.split()) or any(ch in name for ch in ",@/;#"):
            raise CatalogError(
                f"{source}: {name!r}: a crystal name has single spaces and none of , @ / ; #"
            )
        if name.lower() in lower:
            raise CatalogError(f"{source}: two crystals are called {name!r}")
        crystals[name] = crystal
        lower[name.lower()] = name

    summoners = _each(catalog.summoners, _summoner, source, add)
    servants = _each(catalog.servants, _servant, source, add)
    spells = _each(catalog.spells, _spell, source, add)
    gods = _each(catalog.gods, _god, source, add)
    if not summoners:
        raise CatalogError(f"{source}: the catalog has no Summoner crystal")
    if not servants:
        raise CatalogError(f"{source}: the catalog has no Servant crystal")
    canonical = Catalog(catalog.name, summoners, servants, spells, gods)
    return Book(canonical, crystals, lower)


def _each(
    entries: tuple[EntryT, ...],
    canonical: Callable[[EntryT, str], tuple[EntryT, Crystal]],
    source: str,
    add: Callable[[Crystal], None],
) -> tuple[EntryT, ...]:
    """Each of one kind's entries in canonical form, its crystal handed to ``add``."""
    done = []
    for entry in entries:
        entry_done, crystal = canonical(entry, source)
        done.append(entry_done)
        add(crystal)
    return tuple(done)


def _canonical(
    entry: PrintedT, kind: Kind, element: str, effects: tuple[Effect, ...]
) -> tuple[PrintedT, Crystal]:
    """An entry in canonical form (its element and effects as checked), and its crystal:
    what it prints, and its kind."""
    entry = msgspec.structs.replace(entry, element=element, effects=effects)
    return entry, Crystal(kind=kind, **msgspec.structs.asdict(entry))


def _unranked(effects: tuple[Effect, ...], what: str, source: str) -> tuple[Effect, ...]:
    """The effects of a crystal without ranks: only a Servant ranks up (CR-2.3), so an
    effect from rank 2 or 3 on a Summoner, spell or god crystal could never be used or would
    be used before its rank; the catalog is refused."""
    for n, effect in enumerate(effects, 1):
        if effect.rank > 1:
            raise CatalogError(
                f"{source}: {what} effect {n} comes at rank {effect.rank}, but only Servants "
                "have ranks (CR-2.3)"
            )
    return effects


def _summoner(s: Summoner, source: str) -> tuple[Summoner, Crystal]:
    """A Summoner in canonical form (CR-2.2), and its crystal."""
    element = _element(s.element, s.name, source)
    effects = _unranked(_check_effects(s.effects, 5, s.name, source), s.name, source)
    return _canonical(s, "summoner", element, effects)


def _servant(v: Servant, source: str) -> tuple[Servant, Crystal]:
    """A Servant in canonical form (CR-2.3: one to three ranks, each above the first with
    its requirement, no effect from a rank it lacks), and its crystal."""
    element = _element(v.element, v.name, source)
    effects = _check_effects(v.effects, 3, v.name, source)
    if not 1 <= len(v.ranks) <= 3:
        raise CatalogError(f"{source}: {v.name} lists {len(v.ranks)} ranks; a Servant has 1 to 3")
    for n, rank in enumerate(v.ranks[1:], 2):
        if not rank.requires:
            raise CatalogError(
                f"{source}: {v.name} rank {n} needs its promotion requirement (requires)"
            )
    for effect in effects:
        if effect.rank > len(v.ranks):
            raise CatalogError(
                f"{source}: {v.name}: an effect from rank {effect.rank}, which it lacks"
            )
    return _canonical(v, "servant", element, effects)


def _listed_effects(entry: Spell | God, what: str, source: str) -> tuple[Effect, ...]:
    """The effects of a spell or god crystal: one or more (CR-2.4, CR-2.5), ten at most."""
    if not entry.effects:
        raise CatalogError(f"{source}: {what} {entry.name} lists no effects")
    return _unranked(_check_effects(entry.effects, 10, entry.name, source), entry.name, source)


def _spell(p: Spell, source: str) -> tuple[Spell, Crystal]:
    """A spell in canonical form (its effects take place when cast), and its crystal."""
    element = _element(p.element, p.name, source)
    effects = _listed_effects(p, "spell", source)
    if any(e.phase != "main" for e in effects):
        raise CatalogError(
            f"{source}: spell {p.name}: spell effects take place when cast (phase main)"
        )
    return _canonical(p, "spell", element, effects)


def _god(g: God, source: str) -> tuple[God, Crystal]:
    """A god crystal in canonical form, and its crystal."""
    element = _element(g.element, g.name, source)
    return _canonical(g, "god", element, _listed_effects(g, "god crystal", source))


def parse_catalog(text: str, source: str = "catalog") -> Book:
    """Read and validate a catalog file's text (TOML, or JSON starting with ``{``)."""
    return _validated(kit_read_catalog(text, Catalog, source=source), source)


def build_book(data: Any, source: str = "catalog") -> Book:
    """A book from a catalog's text or its recorded builtins form."""
    return _validated(catalog_from(data, Catalog, source=source), source)


def example_text() -> str:
    ref = resources.files("referee.games.crystale") / "catalogs" / EXAMPLE_FILE
    return ref.read_text(encoding="utf-8")


@cache
def example_book() -> Book:
    """The shipped example catalog (invented crystals), read once."""
    return parse_catalog(example_text(), f"catalogs/{EXAMPLE_FILE}")


@lru_cache(maxsize=64)
def _book_by_digest(digest: str, encoded: bytes) -> Book:
    return build_book(msgspec.json.decode(encoded), "recorded catalog")


def book_of(options: dict[str, Any]) -> Book:
    """The catalog a (resolved) setup pins."""
    data = options.get("catalog")
    if data is None:
        return example_book()
    if isinstance(data, str):
        return parse_catalog(data, "catalog")
    encoded = msgspec.json.encode(data, order="sorted")
    return _book_by_digest(catalog_digest(data), encoded)

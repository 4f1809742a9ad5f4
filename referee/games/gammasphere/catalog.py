"""Gammasphere card catalogs: the schema a table's card file must follow, its checks,
and the shipped example.

The real card list of the prototype is not public, so a table loads its own file
(TOML or JSON, one ``[[cards]]`` table per card). The engine needs each card's
kind, costs and numbers; an effect is kept as the printed ``text`` and, where it is
simple enough, also as a structured ``effect`` the engine carries out itself.
Everything else about an effect is ruled on by the referee (GS-9.2).

The catalog pinned by a game is kept in its setup as canonical builtins with its
SHA-256 digest, so a replay always uses exactly the cards the game was created with.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any, Literal

import msgspec

from referee.errors import CatalogError
from referee.kit.catalogs import catalog_digest, from_builtins, read_catalog

__all__ = [
    "ENTITY_KINDS",
    "EXAMPLE_FILE",
    "Card",
    "CardKind",
    "Cards",
    "Catalog",
    "Effect",
    "catalog_from_builtins",
    "catalog_rows",
    "example_catalog",
    "parse_catalog",
]

CardKind = Literal["character", "building", "weapon", "pylon", "event"]
Timing = Literal["play", "activated", "condition", "static"]
TargetKind = Literal["none", "character", "own character", "opposing character"]

ENTITY_KINDS = frozenset({"character", "building", "weapon"})
EXAMPLE_FILE = "example.toml"
FORBIDDEN_IN_NAMES = "#;()"
PYLON_GAS = 100


class _Entry(
    msgspec.Struct,
    frozen=True,
    gc=False,
    kw_only=True,
    omit_defaults=True,
    forbid_unknown_fields=True,
):
    """What a catalog holds: read strictly (an unknown field is an error, not ignored) and
    written without its defaults. Subclasses repeat ``frozen=True`` for mypy's sake (msgspec
    inherits it anyway)."""


class Effect(_Entry, frozen=True):
    """The structured form of a simple effect, carried out by the engine (GS-9.1).

    Amounts are changes for the card's player (``gas``, ``power``, ``draw``) and for
    the opponent (``opponent_gas``, ``opponent_power``); ``level`` and ``destroy``
    act on the ``target`` the entry names with ``on #N``.
    """

    gas: int = 0
    opponent_gas: int = 0
    power: int = 0
    opponent_power: int = 0
    draw: int = 0
    target: TargetKind = "none"
    level: int = 0
    destroy: bool = False


class Card(_Entry, frozen=True):
    """One card of the catalog.

    ``when`` says when the effect works: ``play`` (as the card is played),
    ``activated`` (when its player activates it, paying ``tap``, ``activate_gas`` and
    ``activate_jiggawatts``), ``condition`` or ``static`` (the referee records those
    as adjustments when they matter, GS-I.22).
    """

    name: str
    kind: CardKind
    unique: bool = False
    gas: int = 0
    jiggawatts: int = 0
    type: str = ""
    attack: int = 0
    defense: int = 0
    level: int = 0
    attack_mod: int = 0
    defense_mod: int = 0
    attack_boost: int = 0
    defense_boost: int = 0
    on_buildings: bool = False
    refinery: bool = False
    text: str = ""
    when: Timing = "play"
    effect: Effect | None = None
    tap: bool = False
    activate_gas: int = 0
    activate_jiggawatts: int = 0

    @property
    def is_entity(self) -> bool:
        return self.kind in ENTITY_KINDS

    @property
    def cost_text(self) -> str:
        parts = []
        if self.gas:
            parts.append(f"{self.gas} gas")
        if self.jiggawatts:
            parts.append(f"{self.jiggawatts} jiggawatt{'' if self.jiggawatts == 1 else 's'}")
        return " and ".join(parts) or "nothing"

    @property
    def plays_effect(self) -> bool:
        """Whether playing the card sets off its effect (structured or free text)."""
        return self.when == "play" and (self.effect is not None or bool(self.text))

    @property
    def activates(self) -> bool:
        return self.when == "activated"


class Catalog(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A card file: an optional title and its cards, in the file's order."""

    cards: tuple[Card, ...]
    title: str = ""


class Cards(msgspec.Struct, frozen=True, gc=False):
    """A checked catalog with its lookups and digest, as a game state carries it."""

    catalog: Catalog
    digest: str
    by_name: dict[str, Card]
    folded: dict[str, str]

    @classmethod
    def of(cls, catalog: Catalog) -> Cards:
        by_name = {card.name: card for card in catalog.cards}
        folded = {card.name.casefold(): card.name for card in catalog.cards}
        return cls(catalog, catalog_digest(catalog), by_name, folded)

    def canonical(self, name: str) -> str | None:
        """The catalog's spelling of ``name`` (any letter case, spaces squeezed)."""
        return self.folded.get(" ".join(name.split()).casefold())

    def __getitem__(self, name: str) -> Card:
        return self.by_name[name]

    @property
    def title(self) -> str:
        return self.catalog.title or "cards"


def _problem(source: str, card: Card | None, text: str) -> CatalogError:
    where = f"{source}: {card.name}" if card is not None else source
    return CatalogError(f"{where}: {text}")


def _check_effect(source: str, card: Card, effect: Effect) -> None:
    if card.when not in ("play", "activated"):
        raise _problem(
            source, card, f"a structured effect works when played or activated, not '{card.when}'"
        )
    if effect.draw < 0:
        raise _problem(source, card, "effect.draw cannot be negative")
    acts_on_target = bool(effect.level) or effect.destroy
    if acts_on_target and effect.target == "none":
        raise _problem(source, card, "effect.level and effect.destroy need an effect.target")
    if effect.target != "none" and not acts_on_target:
        raise _problem(source, card, "effect.target is given but the effect does nothing to it")
    if effect == Effect():
        raise _problem(source, card, "the structured effect does nothing")
    if card.kind == "weapon" and effect.target != "none":
        raise _problem(
            source, card, "a weapon's 'on #N' names its carrier; its effect cannot take a target"
        )


def _check_card(source: str, card: Card) -> None:
    _check_name(source, card)
    for field in ("gas", "jiggawatts", "activate_gas", "activate_jiggawatts"):
        if getattr(card, field) < 0:
            raise _problem(source, card, f"{field} cannot be negative")
    _check_fields_of_kind(source, card)
    if not card.is_entity:
        for field in ("unique", "refinery"):
            if getattr(card, field):
                raise _problem(source, card, f"only entities can be {field}, not a {card.kind}")
    if card.kind == "pylon":
        _check_pylon(source, card)
    if card.kind == "event" and card.when != "play":
        raise _problem(source, card, "an event takes effect when played")
    _check_when(source, card)
    if card.effect is not None:
        _check_effect(source, card, card.effect)


def _check_name(source: str, card: Card) -> None:
    name = card.name
    if not name.strip() or name != " ".join(name.split()):
        raise _problem(source, None, f"card name {name!r} must be non-empty with single spaces")
    if any(ch in name for ch in FORBIDDEN_IN_NAMES):
        raise _problem(
            source, card, f"a card name cannot contain any of {' '.join(FORBIDDEN_IN_NAMES)}"
        )


def _check_fields_of_kind(source: str, card: Card) -> None:
    """Each kind lists only its own fields: levels and attack for characters, defense for
    characters and buildings, boosts for weapons, a type for characters and buildings."""
    character_only = ("attack", "level", "attack_mod", "defense_mod")
    weapon_only = ("attack_boost", "defense_boost", "on_buildings")
    if card.kind == "character":
        if not 1 <= card.level <= 10:
            raise _problem(source, card, f"a character's level is 1 to 10, not {card.level}")
        if card.attack < 0 or card.defense < 0:
            raise _problem(source, card, "attack and defense cannot be negative")
    else:
        wrong = [f for f in character_only if getattr(card, f)]
        if card.kind not in ("character", "building") and card.defense:
            wrong.append("defense")
        if wrong:
            raise _problem(source, card, f"a {card.kind} has no {', '.join(wrong)}")
    if card.kind == "building" and card.defense < 0:
        raise _problem(source, card, "defense cannot be negative")
    if card.kind != "weapon":
        wrong = [f for f in weapon_only if getattr(card, f)]
        if wrong:
            raise _problem(source, card, f"only weapons have {', '.join(wrong)}")
    if card.type and card.kind not in ("character", "building"):
        raise _problem(
            source, card, f"only characters and buildings have a type, not a {card.kind}"
        )


def _check_pylon(source: str, card: Card) -> None:
    """GS-2.7: a pylon costs its fixed gas and has no effect."""
    if card.gas not in (0, PYLON_GAS) or card.jiggawatts:
        raise _problem(
            source, card, f"every pylon costs {PYLON_GAS} gas (GS-2.7); list no other cost"
        )
    if card.text or card.effect is not None or card.when != "play":
        raise _problem(source, card, "a pylon has no effect")


def _check_when(source: str, card: Card) -> None:
    """An activated effect has its text or effect (and only it has activation costs); a
    condition or static effect has its text."""
    if card.when == "activated":
        if not card.text and card.effect is None:
            raise _problem(
                source, card, "an activated effect needs its text or a structured effect"
            )
    elif card.tap or card.activate_gas or card.activate_jiggawatts:
        raise _problem(
            source, card, "tap, activate_gas and activate_jiggawatts belong to activated effects"
        )
    if card.when in ("condition", "static") and not card.text:
        raise _problem(source, card, f"a '{card.when}' effect needs its text")


def check_catalog(catalog: Catalog, source: str = "catalog") -> Catalog:
    """Raise ``CatalogError`` on the first card that breaks the schema's rules."""
    if not catalog.cards:
        raise CatalogError(f"{source}: the catalog lists no cards")
    seen: dict[str, str] = {}
    for card in catalog.cards:
        _check_card(source, card)
        folded = card.name.casefold()
        if folded in seen:
            raise _problem(source, card, f"listed twice (also as {seen[folded]!r})")
        seen[folded] = card.name
    return catalog


def parse_catalog(text: str, source: str = "catalog") -> Catalog:
    """A catalog file's text (TOML or JSON) read and checked."""
    return check_catalog(read_catalog(text, Catalog, source=source), source)


def catalog_from_builtins(data: Any, source: str = "catalog") -> Catalog:
    """A catalog from its stored builtins form (a setup's ``catalog`` option), checked."""
    return check_catalog(from_builtins(data, Catalog, source=source), source)


@cache
def example_catalog() -> Catalog:
    """The shipped example catalog (invented cards), read once from package data."""
    ref = resources.files("referee.games.gammasphere") / "catalogs" / EXAMPLE_FILE
    return parse_catalog(ref.read_text(encoding="utf-8"), source=EXAMPLE_FILE)


ROW_NUMBERS: dict[str, tuple[str, ...]] = {
    "character": ("attack", "defense", "level", "attack_mod", "defense_mod"),
    "building": ("defense",),
    "weapon": ("attack_boost", "defense_boost", "on_buildings"),
}
"""The numbers a catalog row lists for each kind of card, in order."""


def catalog_rows(catalog: Catalog) -> list[dict[str, Any]]:
    """One row per card for listing: name, kind, costs, numbers and text."""
    rows: list[dict[str, Any]] = []
    for card in catalog.cards:
        row: dict[str, Any] = {"name": card.name, "kind": card.kind, "cost": card.cost_text}
        if card.kind == "pylon":
            row["cost"] = f"{PYLON_GAS} gas"
        if card.unique:
            row["unique"] = True
        if card.type:
            row["type"] = card.type
        row.update((field, getattr(card, field)) for field in ROW_NUMBERS.get(card.kind, ()))
        if card.refinery:
            row["refinery"] = True
        if card.text:
            row["text"] = card.text
            row["when"] = card.when
        if card.effect is not None:
            row["structured"] = msgspec.to_builtins(card.effect)
        rows.append(row)
    return rows

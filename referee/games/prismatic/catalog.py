"""Prismatic catalogs: the play cards and the board's creations, as a table transcribes them.

The 42 play cards and the board's recipes are printed on the components and are
not public, so a table loads its own files (TOML or JSON); the package ships
invented examples (``catalogs/example-cards.toml``, ``catalogs/example-board.toml``).

Each icon on a card or the board is written in a small text form that the engine
reads into an :class:`Effect`:

- rewards (a card's one-time rewards, several per card): ``pool Y`` (yellow into
  the colour pool), ``mote R`` (a red mote into the bag), ``prism`` or ``3 prisms``,
  the actions ``pull``, ``empty``, ``draw``, ``discard``, ``steal``, or ``text: ...``
  for anything else (the referee rules on it);
- an ability (at most one per card): an addition as above (``pool Y``, ``mote R``,
  ``prism``), or a transformation ``R -> pool G``, ``R -> prism``, ``prism -> pool G``,
  ``R -> steal`` (any action), or ``text: ...`` (optionally ``R -> text: ...``);
- a board creation's effect: ``pool Y``, ``mote R``, ``prism``, ``3 prisms``,
  ``draw 2 keep 1`` or ``discard``;
- a requirement (a card's ``cost``, a board method): motes and prisms, ``R R G 1 prism``.

The files are read into raw rows (:class:`CardsFile`, :class:`BoardFile`), checked,
and turned into :class:`Catalog`; the canonical raw rows are what a game's setup
records, so a recorded game never depends on a file that may change.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import Any, Literal, TypeVar

import msgspec

from referee.errors import CatalogError
from referee.games.prismatic.motes import ItemsError, colour_of, items_text, parse_items
from referee.kit.catalogs import catalog_from
from referee.kit.multiset import Multiset

RowT = TypeVar("RowT")
OutT = TypeVar("OutT")

__all__ = [
    "ACTIONS",
    "Ability",
    "BoardFile",
    "CardRow",
    "CardSpec",
    "CardsFile",
    "Catalog",
    "CreationRow",
    "Effect",
    "Method",
    "Recipe",
    "ability_text",
    "build_catalog",
    "effect_text",
    "example_board",
    "example_cards",
    "parse_board",
    "parse_cards",
]

CardType = Literal["hue", "sky", "craft"]
CARD_TYPES: tuple[CardType, ...] = ("hue", "sky", "craft")
ACTIONS: tuple[str, ...] = ("pull", "empty", "draw", "discard", "steal")
EffectKind = Literal[
    "pool", "mote", "prisms", "pull", "empty", "draw", "discard", "steal", "text", "draw2"
]

RESERVED_FIRST_WORDS = frozenset({"board", "palette", "none", "back"})
RESERVED_NAMES = frozenset({"progress", "common", "creation", "deck", "discard", "pool"})
_NAME_FORBIDDEN = re.compile(r"[,:;=>#\"\n\t]")
_KEY = re.compile(r"^[a-z0-9][a-z0-9-]*$")


# -- raw rows, as written in a file ------------------------------------------------


class CardRow(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One play card as printed: name, type, stars, requirement, rewards and ability."""

    name: str
    type: str
    stars: int = 0
    cost: str
    rewards: list[str] = []
    ability: str | None = None


class CardsFile(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A cards catalog file: ``[[cards]]`` rows (TOML) or ``{"cards": [...]}`` (JSON)."""

    title: str = ""
    cards: list[CardRow]


class CreationRow(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One creation of the board: a short key for the notation, its name, effect and methods."""

    key: str
    name: str
    effect: str
    methods: list[str]


class BoardFile(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A board catalog file: ``[[creations]]`` rows (TOML) or ``{"creations": [...]}`` (JSON)."""

    title: str = ""
    creations: list[CreationRow]


# -- what the engine uses ------------------------------------------------------------


class Effect(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """One icon's effect: ``kind`` with its colour (pool, mote), count (prisms) or text."""

    kind: EffectKind
    colour: str = ""
    count: int = 1
    text: str = ""


class Ability(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A card's ability: ``takes`` is the committed mote letter or ``prism`` a
    transformation spends (empty for an addition), ``effect`` what it gives."""

    effect: Effect
    takes: str = ""


class Recipe(msgspec.Struct, frozen=True, gc=False):
    """A creation requirement: motes by kind and a number of prisms."""

    motes: Multiset
    prisms: int = 0

    def text(self) -> str:
        return items_text(self.motes, self.prisms)


class CardSpec(msgspec.Struct, frozen=True, gc=False):
    name: str
    type: CardType
    stars: int
    recipe: Recipe
    rewards: tuple[Effect, ...]
    ability: Ability | None


class Method(msgspec.Struct, frozen=True, gc=False):
    """One method of a board creation, named ``KEY.N`` in the notation."""

    id: str
    creation: str
    effect: Effect
    recipe: Recipe


class Catalog(msgspec.Struct, frozen=True, gc=False):
    """The cards and the board of one game, with case-insensitive name lookup."""

    cards: dict[str, CardSpec]
    methods: dict[str, Method]
    lookup: dict[str, str]
    cards_title: str = ""
    board_title: str = ""

    def card_name(self, text: str) -> str | None:
        """The catalog spelling of a card name typed in any case, or ``None``."""
        return self.lookup.get(" ".join(text.split()).casefold())


# -- icon texts ----------------------------------------------------------------------


class IconError(ValueError):
    """An icon text that is not one of the forms above."""


def _colour(token: str, what: str, *, prismatic: bool) -> str:
    letter = colour_of(token)
    if letter is None or (letter == "P" and not prismatic):
        allowed = "R G B C M Y W K" + (" or P" if prismatic else "")
        raise IconError(f"{what} takes a colour ({allowed}), not {token!r}")
    return letter


def parse_effect(text: str, *, where: Literal["reward", "ability", "board"]) -> Effect:
    """Read one effect icon (see the module docstring)."""
    stripped = " ".join(text.split())
    low = stripped.lower()
    if low.startswith("text:"):
        if where == "board":
            raise IconError("a board creation's effect is one of the printed kinds, not free text")
        body = stripped[5:].strip()
        if not body:
            raise IconError("'text:' needs the printed words")
        return Effect("text", text=body)
    words = low.split()
    if not words:
        raise IconError("an icon cannot be empty")
    head = words[0]
    if head in ("pool", "mote") and len(words) == 2:
        return Effect(head, colour=_colour(words[1], head, prismatic=head == "mote"))  # type: ignore[arg-type]
    if head in ("prism", "prisms") and len(words) == 1:
        return Effect("prisms", count=1)
    if len(words) == 2 and words[0].isdigit() and words[1] in ("prism", "prisms"):
        count = int(words[0])
        if not 1 <= count <= 50:
            raise IconError(f"{count} prisms: a count is 1 to 50")
        return Effect("prisms", count=count)
    if head in ACTIONS and len(words) == 1:
        if where == "board" and head != "discard":
            raise IconError(
                f"the board has no {head} creation; its actions are 'draw 2 keep 1' and 'discard'"
            )
        return Effect(head)  # type: ignore[arg-type]
    if low == "draw 2 keep 1":
        if where != "board":
            raise IconError("'draw 2 keep 1' is a board creation's effect")
        return Effect("draw2")
    raise IconError(
        f"{stripped!r} is not an icon; write pool X, mote X, prism, N prisms, pull, empty, draw, "
        "discard, steal" + (", draw 2 keep 1" if where == "board" else ", text: ...")
    )


def effect_text(effect: Effect) -> str:
    """Canonical text of an effect icon: ``parse_effect(effect_text(e)) == e``."""
    if effect.kind in ("pool", "mote"):
        return f"{effect.kind} {effect.colour}"
    if effect.kind == "prisms":
        return "prism" if effect.count == 1 else f"{effect.count} prisms"
    if effect.kind == "text":
        return f"text: {effect.text}"
    if effect.kind == "draw2":
        return "draw 2 keep 1"
    return effect.kind


def parse_ability(text: str) -> Ability:
    """``pool Y`` / ``prism`` / ``mote R`` (additions), ``R -> pool G``, ``prism -> pool G``,
    ``R -> prism``, ``R -> steal``, ``text: ...`` or ``R -> text: ...``."""
    stripped = " ".join(text.split())
    if "->" not in stripped:
        effect = parse_effect(stripped, where="ability")
        if effect.kind in ACTIONS:
            raise IconError(f"an action ability needs a mote to spend: write 'R -> {effect.kind}'")
        if effect.kind == "prisms" and effect.count != 1:
            raise IconError("an addition gives one prism")
        return Ability(effect)
    source, _, target = stripped.partition("->")
    source = source.strip()
    effect = parse_effect(target, where="ability")
    if source.lower() == "prism":
        if effect.kind not in ("pool", "text"):
            raise IconError("a prism transforms into a pool colour ('prism -> pool G')")
        return Ability(effect, takes="prism")
    takes = _colour(source, "a transformation", prismatic=True)
    if effect.kind == "mote":
        raise IconError("a mote transforms into a pool colour, a prism or an action, not a mote")
    if effect.kind == "prisms" and effect.count != 1:
        raise IconError("a mote transforms into one prism")
    return Ability(effect, takes=takes)


def ability_text(ability: Ability) -> str:
    body = effect_text(ability.effect)
    return f"{ability.takes} -> {body}" if ability.takes else body


def _recipe(text: str) -> Recipe:
    try:
        motes, prisms = parse_items(text)
    except ItemsError as exc:
        raise IconError(str(exc)) from None
    if not motes and not prisms:
        raise IconError("a requirement needs at least one mote or prism")
    return Recipe(Multiset.of(motes), prisms)


def _check_name(name: str) -> str:
    clean = " ".join(name.split())
    if not clean:
        raise IconError("a card needs a name")
    if _NAME_FORBIDDEN.search(clean):
        raise IconError("a name may not hold , : ; = > # or quotes (the notation uses them)")
    first = clean.split()[0].casefold()
    if first in RESERVED_FIRST_WORDS or clean.casefold() in RESERVED_NAMES:
        raise IconError(f"a name may not start with {first!r} or be a notation word")
    return clean


# -- reading and canonical forms ----------------------------------------------------


def _checked_rows(
    rows: Sequence[RowT],
    source: str,
    empty: str,
    label: Callable[[int, RowT], str],
    canonical: Callable[[RowT], OutT],
) -> list[OutT]:
    """Each row in canonical form, in order; ``CatalogError`` saying ``empty`` when there
    is none, or naming the row (``label``: its number from 1 and the row) that
    ``canonical`` refuses with ``IconError``."""
    if not rows:
        raise CatalogError(f"{source}: {empty}")
    checked: list[OutT] = []
    for index, row in enumerate(rows, start=1):
        try:
            checked.append(canonical(row))
        except IconError as exc:
            raise CatalogError(f"{source}: {label(index, row)}: {exc}") from None
    return checked


def _canonical_cards(raw: CardsFile, source: str) -> CardsFile:
    """The rows checked and rewritten in canonical text; ``CatalogError`` names the card."""
    seen: set[str] = set()

    def card(row: CardRow) -> CardRow:
        name = _check_name(row.name)
        if name.casefold() in seen:
            raise IconError("two cards share this name; give each physical card its own name")
        seen.add(name.casefold())
        kind = row.type.strip().lower()
        if kind not in CARD_TYPES:
            raise IconError(f"a card's type is hue, sky or craft, not {row.type!r}")
        if not 0 <= row.stars <= 20:
            raise IconError(f"stars are 0 to 20, not {row.stars}")
        cost = _recipe(row.cost).text()
        rewards = [effect_text(parse_effect(r, where="reward")) for r in row.rewards]
        ability = ability_text(parse_ability(row.ability)) if row.ability is not None else None
        return CardRow(
            name=name, type=kind, stars=row.stars, cost=cost, rewards=rewards, ability=ability
        )

    cards = _checked_rows(
        raw.cards,
        source,
        "a cards catalog lists at least one card",
        lambda index, row: f"card {index} ({row.name!r})",
        card,
    )
    return CardsFile(title=raw.title.strip(), cards=cards)


def _canonical_board(raw: BoardFile, source: str) -> BoardFile:
    """The creations checked and rewritten in canonical text; ``CatalogError`` names the
    creation."""
    keys: set[str] = set()

    def creation(row: CreationRow) -> CreationRow:
        key = row.key.strip().lower()
        if not _KEY.match(key):
            raise IconError("a key is lower-case letters, digits and hyphens, like red-mote")
        if key in keys:
            raise IconError("two creations share this key")
        keys.add(key)
        name = " ".join(row.name.split())
        if not name:
            raise IconError("a creation needs a name")
        effect = effect_text(parse_effect(row.effect, where="board"))
        if not row.methods:
            raise IconError("a creation has at least one method")
        methods = [_recipe(m).text() for m in row.methods]
        return CreationRow(key=key, name=name, effect=effect, methods=methods)

    creations = _checked_rows(
        raw.creations,
        source,
        "a board catalog lists at least one creation",
        lambda index, row: f"creation {index} ({row.key!r})",
        creation,
    )
    return BoardFile(title=raw.title.strip(), creations=creations)


def parse_cards(data: str | dict[str, Any], source: str = "cards") -> CardsFile:
    """A cards catalog from a file's text or from its recorded builtins, in canonical form."""
    return _canonical_cards(catalog_from(data, CardsFile, source=source), source)


def parse_board(data: str | dict[str, Any], source: str = "board") -> BoardFile:
    """A board catalog from a file's text or from its recorded builtins, in canonical form."""
    return _canonical_board(catalog_from(data, BoardFile, source=source), source)


def _spec(row: CardRow) -> CardSpec:
    kind: CardType = "hue" if row.type == "hue" else "sky" if row.type == "sky" else "craft"
    return CardSpec(
        name=row.name,
        type=kind,
        stars=row.stars,
        recipe=_recipe(row.cost),
        rewards=tuple(parse_effect(r, where="reward") for r in row.rewards),
        ability=parse_ability(row.ability) if row.ability is not None else None,
    )


@lru_cache(maxsize=32)
def _build(cards_json: bytes, board_json: bytes) -> Catalog:
    cards = msgspec.json.decode(cards_json, type=CardsFile)
    board = msgspec.json.decode(board_json, type=BoardFile)
    specs = {row.name: _spec(row) for row in cards.cards}
    methods: dict[str, Method] = {}
    for creation in board.creations:
        effect = parse_effect(creation.effect, where="board")
        for number, recipe in enumerate(creation.methods, start=1):
            ident = f"{creation.key}.{number}"
            methods[ident] = Method(ident, creation.name, effect, _recipe(recipe))
    return Catalog(
        cards=specs,
        methods=methods,
        lookup={n.casefold(): n for n in specs},
        cards_title=cards.title,
        board_title=board.title,
    )


def build_catalog(cards: CardsFile, board: BoardFile) -> Catalog:
    """The engine's catalog of two canonical files (built once per distinct pair)."""
    return _build(msgspec.json.encode(cards), msgspec.json.encode(board))


def _example_text(filename: str) -> str:
    ref = resources.files("referee.games.prismatic") / "catalogs" / filename
    return ref.read_text(encoding="utf-8")


@cache
def example_cards() -> CardsFile:
    """The shipped example cards (invented, not the published ones)."""
    return parse_cards(_example_text("example-cards.toml"), "example-cards.toml")


@cache
def example_board() -> BoardFile:
    """The shipped example board (the text's creations with invented recipes)."""
    return parse_board(_example_text("example-board.toml"), "example-board.toml")

"""``GammasphereRules``: the Gammasphere TCG (Prototype 3) game contract (see
``referee.contract.GameRules``)."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from referee.contract import Setup, SetupField, VariantOption, Verdict
from referee.errors import CatalogError, SetupError
from referee.games.base import ModularRules
from referee.games.gammasphere import adjust
from referee.games.gammasphere.catalog import (
    Cards,
    Catalog,
    catalog_from_builtins,
    catalog_rows,
    example_catalog,
    parse_catalog,
)
from referee.games.gammasphere.decks import DECK_LIMITS, check_construction, size_problem
from referee.games.gammasphere.model import (
    SEATS,
    Entity,
    GammasphereAction,
    GammasphereState,
    Side,
    Table,
)
from referee.games.gammasphere.position import LEVELS, START_GAS, START_POWER, find, on_buildings
from referee.kit.decks import DeckKnowledge, Decklist, with_seat_knowledge
from referee.kit.variants import switch
from referee.kit.zones import HiddenZone

__all__ = ["DEFAULT_DECK_SIZE", "EXAMPLE", "P3", "RULESETS", "GammasphereRules", "catalog_of"]

P3 = "gammasphere/p3"
EXAMPLE = "gammasphere/example"
RULESETS = (P3, EXAMPLE)
DEFAULT_DECK_SIZE = 40
MAX_DECK_SIZE = 1000

VARIANTS = (
    switch(
        "deck_limits",
        tuple(DECK_LIMITS),
        "GS-I.1",
        "Deck size: open (at least the 7 cards of an opening hand, no upper limit) "
        "or 40-60 cards, as in Yu-Gi-Oh.",
    ),
    switch(
        "first_draw",
        ("yes", "no"),
        "GS-I.4",
        "Whether the first player draws in the first turn of the game (yes) or "
        "starts it without a draw (no).",
    ),
    switch(
        "empty_deck",
        ("skip", "lose"),
        "GS-I.5",
        "A player who must draw from an empty deck skips the draw (skip) or loses (lose).",
    ),
    switch(
        "attack_taps",
        ("yes", "no"),
        "GS-I.7",
        "An attacking character is tapped by its attack (yes) or stays untapped (no).",
    ),
    switch(
        "attack_tie",
        ("both", "neither"),
        "GS-I.8",
        "Equal attacks against an attack-mode defender destroy both characters (both) "
        "or nothing (neither).",
    ),
    switch(
        "defender_loses",
        ("no", "yes"),
        "GS-I.9",
        "Whether the player of an attack-mode defender that is destroyed loses the "
        "difference of the attacks too, as in Yu-Gi-Oh (yes), or nothing (no).",
    ),
    switch(
        "direct_attack",
        ("no", "yes"),
        "GS-I.10",
        "Whether a player with no character in play may be attacked directly, losing "
        "the attacker's attack (yes), or never (no).",
    ),
    switch(
        "building_weapons",
        ("marked", "any"),
        "GS-I.28",
        "Which weapons a player may attach to a building: only those the catalog marks "
        "for buildings (marked) or every weapon (any).",
    ),
    switch(
        "hand_limit",
        ("every", "own"),
        "GS-I.29",
        "Whose hand the limit of ten counts when a turn ends: every player's (every) "
        "or only that of the player whose turn it was (own).",
    ),
    switch(
        "switch_limit",
        ("any", "once"),
        "GS-I.26",
        "How often an untapped character may change mode in a turn: as often as its "
        "player likes (any) or once (once), as in Yu-Gi-Oh.",
    ),
    switch(
        "first_turn_attack",
        ("yes", "no"),
        "GS-I.31",
        "Whether the first player may attack in the game's first turn (yes) or not "
        "(no), as in Yu-Gi-Oh.",
    ),
    switch(
        "no_target",
        ("play", "refuse"),
        "GS-I.32",
        "A card whose structured effect aims at a kind of character none of which is "
        "on the field: played or activated all the same, that part doing nothing (play), "
        "or not at all (refuse).",
        absent="refuse",
    ),
    switch(
        "weapon_carriers",
        ("own", "any"),
        "GS-I.18",
        "Whose characters (and buildings) a player's weapon may be played onto: only "
        "the player's own (own) or the opponent's too (any), as equip cards in Yu-Gi-Oh.",
    ),
    switch(
        "self_target",
        ("no", "yes"),
        "GS-I.33",
        "Whether a character's arrival effect may aim at the character itself, named "
        "by the number it takes (yes), or only at cards already on the field (no).",
    ),
)

SETUP_FIELDS = (
    SetupField(
        key="catalog",
        kind="file",
        help="Card catalog (TOML or JSON) the table plays with; without one, the "
        "gammasphere/example ruleset uses the shipped example cards.",
    ),
    SetupField(
        key="catalog_digest",
        kind="str",
        help="SHA-256 the catalog must have (filled in when the game is created).",
    ),
    SetupField(
        key="first",
        kind="choice",
        choices=SEATS,
        help="The seat that takes the first turn (GS-4.4; default p1).",
    ),
    SetupField(
        key="deck_size",
        kind="int",
        help=f"Cards in a deck whose list is not registered (GS-I.2; default {DEFAULT_DECK_SIZE}).",
    ),
)


def _read_catalog_option(raw: Any) -> Catalog:
    """The ``catalog`` option as a face passes it (the file's text) or as stored (builtins)."""
    try:
        if isinstance(raw, str):
            return parse_catalog(raw, source="--catalog")
        return catalog_from_builtins(raw, source="stored catalog")
    except CatalogError as exc:
        raise SetupError(str(exc)) from None


def position_problem(state: GammasphereState) -> str | None:
    """Why ``state`` (its cards already the setup's) is no position the rules can reach, in
    plain words, or ``None``: piles and resources below zero, a field card the catalog does
    not hold as that kind, a character off its modes or levels (GS-2.3, GS-I.23), a weapon
    with no carrier it may have (GS-6.7, GS-I.18, GS-I.28), two of a unique entity (GS-6.4,
    GS-6.5), or numbers given twice or not yet given (GS-1.3)."""
    if state.first not in (0, 1) or state.active not in (0, 1) or state.turn < 0:
        return "first and active are seats 0 or 1 and the turn is not negative"
    if (state.turn == 0) != (state.phase == "opening"):
        return f"turn {state.turn} cannot be in the {state.phase} phase"
    for index, own in enumerate(state.sides):
        problem = _side_problem(state, index, own)
        if problem:
            return problem
    numbers = [e.id for e in state.field]
    if len(set(numbers)) != len(numbers) or any(not 0 < n < state.next_id for n in numbers):
        return f"field numbers must be distinct, from #1 and below #{state.next_id} (GS-1.3)"
    for entity in state.field:
        problem = _entity_problem(state, entity)
        if problem:
            return problem
    uniques = [e.card for e in state.field if state.cards.by_name[e.card].unique]
    doubled = sorted({n for n in uniques if uniques.count(n) > 1})
    if doubled:
        return f"unique entities are in play twice: {', '.join(doubled)} (GS-6.4, GS-6.5)"
    return None


def _side_problem(state: GammasphereState, index: int, own: Side) -> str | None:
    if own.seat != SEATS[index]:
        return f"side {index + 1} is {own.seat!r}, not {SEATS[index]}"
    if min(own.gas, own.power, own.jiggawatts, own.hand.unknown, own.deck.unknown) < 0:
        return f"{own.seat} has a pile or resource below zero"
    named = [*own.discard, *own.hand.known.names(), *own.deck.known.names()]
    stray = sorted({n for n in named if n not in state.cards.by_name})
    if stray:
        return f"{own.seat}'s piles name cards the catalog does not hold: {', '.join(stray)}"
    return None


def _entity_problem(state: GammasphereState, e: Entity) -> str | None:
    card = state.cards.by_name.get(e.card)
    if card is None or card.kind != e.kind or e.kind == "event" or e.owner not in (0, 1):
        return f"#{e.id} {e.card} is no {e.kind} of the catalog a seat could have in play"
    if e.kind == "character":
        if e.mode not in ("attack", "defense") or not LEVELS[0] <= e.level <= LEVELS[1]:
            return f"#{e.id} {e.card} needs a mode and a level from 1 to 10 (GS-2.3)"
    elif e.mode or e.level or e.switched:
        return f"#{e.id} {e.card} is a {e.kind}: it has no mode or level"
    if e.kind != "weapon":
        return f"#{e.id} {e.card} is a {e.kind}; only weapons are carried" if e.carrier else None
    carrier = find(state, e.carrier)
    if carrier is None or carrier.kind not in ("character", "building"):
        return f"weapon #{e.id} {e.card} is not on a character or building (GS-6.7)"
    if carrier.owner != e.owner and state.table.weapon_carriers == "own":
        return f"weapon #{e.id} {e.card} is on the opponent's #{carrier.id} (GS-I.18)"
    if carrier.kind == "building" and not on_buildings(state, card):
        return f"weapon #{e.id} {e.card} cannot be on building #{carrier.id} (GS-I.28)"
    return None


def catalog_of(setup: Setup) -> Catalog:
    """The catalog a (resolved or raw) setup plays with."""
    raw = setup.options.get("catalog")
    if raw is None:
        return example_catalog()
    return _read_catalog_option(raw)


class GammasphereRules(ModularRules[GammasphereState, GammasphereAction]):
    """Gammasphere TCG (Prototype 3) for two seats, p1 and p2, on a catalog of the table's cards."""

    name: ClassVar[str] = "gammasphere"
    title: ClassVar[str] = "Gammasphere TCG (Prototype 3)"
    seats: ClassVar[tuple[str, ...]] = SEATS
    rulesets: ClassVar[tuple[str, ...]] = RULESETS
    variant_options: ClassVar[tuple[VariantOption, ...]] = VARIANTS
    setup_fields: ClassVar[tuple[SetupField, ...]] = SETUP_FIELDS
    takes_decks: ClassVar[bool] = True
    catalog_kinds: ClassVar[tuple[str, ...]] = ("cards",)
    uncountable: ClassVar[str] = (
        "its hands and decks are hidden (an entry names any card a hand may hold), and "
        "free-text card effects are carried out by a referee's ruling"
    )

    # -- setup -----------------------------------------------------------
    def resolve_setup(self, setup: Setup) -> Setup:
        """Complete the setup: the catalog read, checked and stored as canonical builtins
        with its digest pinned, the first player and the unregistered deck size filled in.

        With no ruleset named, a catalog file means ``gammasphere/p3`` and none means
        ``gammasphere/example`` (the shipped invented cards)."""
        raw = setup.options.get("catalog")
        ruleset = setup.ruleset or (P3 if raw is not None else EXAMPLE)
        done = super().resolve_setup(msgspec.structs.replace(setup, ruleset=ruleset))
        options = dict(done.options)
        if ruleset == EXAMPLE:
            if raw is not None:
                raise SetupError(
                    f"{EXAMPLE} plays the shipped example cards; drop --catalog or choose {P3}"
                )
            catalog = example_catalog()
        else:
            if raw is None:
                raise SetupError(
                    f"{P3} plays the table's own cards: give --catalog FILE "
                    f"(or choose the {EXAMPLE} ruleset)"
                )
            catalog = _read_catalog_option(raw)
            options["catalog"] = msgspec.to_builtins(catalog)
        digest = Cards.of(catalog).digest
        pinned = options.get("catalog_digest")
        if pinned is not None and str(pinned).strip().lower() != digest:
            raise SetupError(f"the catalog's digest is {digest}, not the pinned {pinned}")
        options["catalog_digest"] = digest
        first = str(options.get("first") or SEATS[0])
        if first not in SEATS:
            raise SetupError(f"--first is one of {', '.join(SEATS)}, not {first!r}")
        options["first"] = first
        size = options.get("deck_size", DEFAULT_DECK_SIZE)
        try:
            size = int(size)
        except (TypeError, ValueError):
            raise SetupError(f"--deck-size takes a whole number, not {size!r}") from None
        if size > MAX_DECK_SIZE:
            raise SetupError(f"--deck-size is at most {MAX_DECK_SIZE}")
        problem = size_problem(size, done.variants["deck_limits"])
        if problem:
            raise SetupError(f"--deck-size {size}: {problem} (GS-I.1)")
        options["deck_size"] = size
        return msgspec.structs.replace(done, options=options)

    def read_position(self, text: str, setup: Setup) -> GammasphereState:
        """A position string (the state's JSON), checked against the setup: the catalog it
        pins (the position's cards must have its digest and are read from the setup), the
        table's variants, and a field and piles the rules can reach (``position_problem``)."""
        state = super().read_position(text, setup)
        resolved = self.resolve_setup(setup)
        cards = Cards.of(catalog_of(resolved))
        if state.cards.digest != cards.digest:
            raise SetupError(
                f"the position is on the catalog {state.cards.digest}, not the setup's "
                f"{cards.digest}: start it with the catalog it was played on (--catalog FILE)"
            )
        table = Table(**resolved.variants)
        differ = [
            f"{key}={getattr(state.table, key)} (the setup: {getattr(table, key)})"
            for key in resolved.variants
            if getattr(state.table, key) != getattr(table, key)
        ]
        if differ:
            raise SetupError(f"the position plays {', '.join(differ)}")
        state = msgspec.structs.replace(state, cards=cards)
        problem = position_problem(state)
        if problem:
            raise SetupError(f"not a Gammasphere position: {problem}")
        return state

    def initial_state(self, setup: Setup) -> GammasphereState:
        """GS-4: 3000 gas and a power level of 9000 each, full decks, empty hands; the opening
        hands are the first entries (GS-4.3)."""
        setup = self.resolve_setup(setup)
        catalog = catalog_of(setup)
        cards = Cards.of(catalog)
        table = Table(**setup.variants)
        sides = []
        for seat in SEATS:
            deck = setup.decks.get(seat)
            if deck is not None:
                knowledge = DeckKnowledge.registered(seat, deck)
            else:
                knowledge = DeckKnowledge(seat, int(setup.options["deck_size"]))
            sides.append(
                Side(
                    seat=seat,
                    gas=START_GAS,
                    power=START_POWER,
                    hand=HiddenZone(seat),
                    deck=HiddenZone(seat, knowledge.size),
                    knowledge=knowledge,
                    registered=deck is not None,
                )
            )
        first = SEATS.index(setup.options["first"])
        return GammasphereState(
            cards=cards, table=table, first=first, sides=(sides[0], sides[1]), active=first
        )

    # -- decks -----------------------------------------------------------
    def check_deck(self, setup: Setup, seat: str, decklist: Decklist) -> Verdict:
        """GS-3.1 to GS-3.4 and GS-I.1 against the setup's catalog and deck limits."""
        resolved = self.resolve_setup(setup)
        return check_construction(
            Cards.of(catalog_of(resolved)), decklist, resolved.variants["deck_limits"]
        )

    def check_sealed_size(self, setup: Setup, seat: str, size: int) -> Verdict:
        """GS-I.1: a sealed list's size is within the table's deck limits."""
        problem = size_problem(size, self.resolve_setup(setup).variants["deck_limits"])
        return (
            Verdict.illegal("GS-I.1", f"{seat}'s sealed list: {problem}") if problem else Verdict()
        )

    def deck_knowledge(self, state: GammasphereState, seat: str) -> DeckKnowledge | None:
        own = state.sides[SEATS.index(seat)]
        return own.knowledge if own.registered else None

    def shown_at_setup(self, setup: Setup, seat: str, decklist: Decklist) -> tuple[str, ...]:
        """No card of a list is in sight before the first draw."""
        return ()

    def with_deck_knowledge(
        self, state: GammasphereState, seat: str, knowledge: DeckKnowledge
    ) -> GammasphereState:
        return with_seat_knowledge(state, SEATS.index(seat), knowledge)

    # -- adjustments -----------------------------------------------------
    hidden_zones: ClassVar[frozenset[str]] = adjust.HIDDEN_ZONES
    check_change = staticmethod(adjust.check_change)
    apply_change = staticmethod(adjust.apply_change)

    def kept_in_sight_of_its_seat(
        self, state: GammasphereState, seat: str, zone: str, card: str
    ) -> GammasphereState:
        return adjust.kept_in_sight(state, seat, zone, card)

    # -- catalogs --------------------------------------------------------
    def read_catalog(self, kind: str, text: str, source: str) -> Any:
        if kind != "cards":
            raise CatalogError(f"{self.name} reads only 'cards' catalogs, not {kind!r}")
        return parse_catalog(text, source=source)

    def catalog_rows(self, setup: Setup, kind: str) -> list[dict[str, Any]]:
        if kind != "cards":
            return []
        return catalog_rows(catalog_of(self.resolve_setup(setup)))

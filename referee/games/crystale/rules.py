"""``CrystaleRules``: the Crystale summoner battle under the game contract
(see ``referee.contract.GameRules``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

import msgspec

from referee.contract import Setup, SetupField, VariantOption, Verdict
from referee.errors import CatalogError, SetupError
from referee.games.base import ModularRules
from referee.games.crystale import adjust
from referee.games.crystale.board import ELEMENT_LETTERS, TILE_COUNT, draw_tiles
from referee.games.crystale.catalog import (
    Book,
    Catalog,
    Crystal,
    book_of,
    parse_catalog,
)
from referee.games.crystale.decks import POOL_SIZE, check_pool, check_pool_size
from referee.games.crystale.model import SEATS, CrystaleAction, CrystaleState, Table
from referee.games.crystale.position import empty_side, place_summoner
from referee.kit.decks import DeckKnowledge, Decklist, with_seat_knowledge
from referee.kit.variants import switch

__all__ = ["RULESETS", "VARIANTS", "CrystaleRules"]

EXAMPLE = "crystale/example"
OWN = "crystale/own"
RULESETS = (EXAMPLE, OWN)


VARIANTS = (
    switch(
        "counterattack",
        ("choice", "always"),
        "CR-I.9",
        "A defending Servant that survives may strike back (CR-I.28 says from how far): "
        "the defending player chooses (choice, the default), or it always does (always).",
    ),
    switch(
        "bonus_mp",
        ("over_cap", "within_cap"),
        "CR-I.6",
        "The second player's 20 bonus MP may lift MP above the Mana Pool until spent "
        "(over_cap, the default), or is capped at the Mana Pool (within_cap).",
    ),
    switch(
        "start_mp",
        ("full", "zero"),
        "CR-I.7",
        "Summoners begin the battle with a full Mana Pool (full, the default) or with no "
        "MP (zero).",
    ),
    switch(
        "promotion_hp",
        ("full", "keep_damage"),
        "CR-I.10",
        "A promoted Servant takes the new rank's full HP (full, the default), or the new "
        "HP less the damage it had taken (keep_damage).",
    ),
    switch(
        "attack_after_move",
        ("yes", "no"),
        "CR-I.8",
        "A unit that moved this turn may still attack (yes, the default) or may not (no).",
    ),
    switch(
        "trigger_order",
        ("reverse", "printed"),
        "CR-I.12",
        "A trigger spell's effects resolve from last to first (reverse, the default) or in "
        "printed order like any spell (printed).",
    ),
    switch(
        "summon_sacrifice",
        ("either", "each"),
        "CR-I.27",
        "A turn allows one summon or one sacrifice (either, the default), or one summon "
        "and one sacrifice (each).",
    ),
    switch(
        "counter_range",
        ("any", "in_range"),
        "CR-I.28",
        "A surviving defending Servant may strike back whatever the distance to its "
        "attacker (any, the default), or only when the attacker is within the defender's own "
        "range (in_range, the rule before CR-I.28 was made: games recorded before the switch "
        "was offered keep it).",
        absent="in_range",
    ),
    switch(
        "counter_fatigue",
        ("again", "once"),
        "CR-I.29",
        "A defender may strike back at every attack it survives in a turn (again, the "
        "default), or striking back fatigues it for the rest of that turn (once).",
    ),
    switch(
        "slot_phase",
        ("main", "promotion"),
        "CR-I.31",
        "Promotion slots are used in the Main phase only (main, the default), or a slot "
        "may also promote a Servant in the Promotion phase (promotion).",
    ),
    switch(
        "slot_earning",
        ("once", "again"),
        "CR-I.32",
        "Each of the Higher Plane counts 2, 4 and 7 earns a slot the first time only "
        "(once, the default), or again each time the count climbs back to it after falling "
        "below, three slots a match at most (again).",
    ),
    switch(
        "zero_strike",
        ("no_hit", "hit"),
        "CR-I.35",
        "A Servant's attack on a Summoner with 0 ATK on its tile takes no hit "
        "(no_hit, the default), or takes one hit like any attack that reaches it (hit).",
    ),
    switch(
        "slot_servant",
        ("hand", "board"),
        "CR-I.18",
        "The Servant a promotion slot takes from the pool goes into the hand (hand, the "
        "default), or onto a free tile next to the Summoner, placed by an adjustment (board).",
    ),
    switch(
        "attacks",
        ("each", "one"),
        "CR-I.26",
        "Every Servant of the player may attack once a turn (each, the default), or the "
        "player makes one attack a turn with one Servant (one).",
    ),
    switch(
        "knowledge",
        ("follows", "stays"),
        "CR-I.36",
        "What the referee knows follows crystals out of sight (follows, the default): a "
        "reshuffled pool holds only the Higher Plane shuffled into it until an unseen pull, "
        "and crystals known in a hand are unaccounted for again once crystals leave it "
        "unseen; or it stays as it was (stays, the rule before CR-I.36 was made: games "
        "recorded before the switch was offered keep it).",
        absent="stays",
    ),
)

SETUP_FIELDS = (
    SetupField(
        key="catalog",
        kind="file",
        help="Crystal catalog file (TOML or JSON); without it the shipped example catalog "
        "(ruleset crystale/example).",
    ),
    SetupField(
        key="tiles",
        kind="str",
        excludes=("seed",),
        help="The 29 tile elements read off the board, a1..e5 in reading order, one letter each: "
        "F Fire, W Water, E Earth, T Thunder, A Wind, L Light, D Darkness, I Ice.",
    ),
    SetupField(
        key="seed",
        kind="seed",
        help="Seed that draws the tile elements (CR-I.1); drawn and recorded when --tiles is "
        "not given.",
    ),
)


def _tiles_from(raw: Any) -> str:
    text = "".join(ch for ch in str(raw).upper() if ch.isalpha())
    bad = sorted({ch for ch in text if ch not in ELEMENT_LETTERS})
    if bad or len(text) != TILE_COUNT:
        raise SetupError(
            f"--tiles takes {TILE_COUNT} element letters (a1..e5 in reading order) from "
            f"{ELEMENT_LETTERS}; got {len(text)} letters"
            + (f", unknown {''.join(bad)}" if bad else "")
        )
    return text


class CrystaleRules(ModularRules[CrystaleState, CrystaleAction]):
    """A Crystale summoner battle for seats p1 and p2 with registered 31-crystal pools."""

    name: ClassVar[str] = "crystale"
    title: ClassVar[str] = "Crystale summoner battle"
    seats: ClassVar[tuple[str, ...]] = SEATS
    rulesets: ClassVar[tuple[str, ...]] = RULESETS
    variant_options: ClassVar[tuple[VariantOption, ...]] = VARIANTS
    setup_fields: ClassVar[tuple[SetupField, ...]] = SETUP_FIELDS
    takes_decks: ClassVar[bool] = True
    catalog_kinds: ClassVar[tuple[str, ...]] = ("crystals",)
    uncountable: ClassVar[str] = (
        "its hands and pools are hidden (one entry stands for every unseen crystal), and "
        "card text a referee rules on decides what follows"
    )

    # -- setup -------------------------------------------------------------
    def resolve_setup(self, setup: Setup) -> Setup:
        """Complete the setup: the catalog parsed and recorded as builtins, the tiles
        read or drawn from the seed (CR-4.5, CR-I.1)."""
        if setup.ruleset is None and setup.options.get("catalog") is not None:
            setup = msgspec.structs.replace(setup, ruleset=OWN)
        done = super().resolve_setup(setup)
        options = dict(done.options)
        if done.ruleset == OWN and options.get("catalog") is None:
            raise SetupError(
                "ruleset crystale/own plays a table's own catalog: give --catalog FILE"
            )
        try:
            book = book_of(options)
        except CatalogError as exc:
            raise SetupError(str(exc)) from None
        options["catalog"] = book.builtins()
        seed = options.get("seed")
        if seed is not None:
            try:
                seed = int(seed)
            except (TypeError, ValueError):
                raise SetupError(f"--seed takes a whole number, not {seed!r}") from None
            options["seed"] = seed
        if options.get("tiles") is not None:
            tiles = _tiles_from(options["tiles"])
            if seed is not None and draw_tiles(seed) != tiles:
                raise SetupError(f"seed {seed} draws tiles {draw_tiles(seed)}, not the tiles given")
            options["tiles"] = tiles
        elif seed is not None:
            options["tiles"] = draw_tiles(seed)
        elif not options.get("position"):  # a position string carries its own tiles
            raise SetupError("the tile elements come from the board (--tiles) or a seed (--seed)")
        return msgspec.structs.replace(done, options=options)

    def initial_state(self, setup: Setup) -> CrystaleState:
        """CR-4.3, CR-5: the board and the pools before the start step; Summoners of open
        pools stand on c1 (p1) and c7 (p2)."""
        setup = self.resolve_setup(setup)
        book = book_of(setup.options)
        table = Table(**setup.variants)  # one field a variant (CR-I), as resolved
        sides = []
        for index, seat in enumerate(SEATS):
            deck = setup.decks.get(seat)
            side = empty_side(index, deck.size if deck is not None else POOL_SIZE)
            if deck is not None:
                side = msgspec.structs.replace(side, knowledge=DeckKnowledge.registered(seat, deck))
            sides.append(side)
        state = CrystaleState(
            book=book,
            table=table,
            tiles=setup.options["tiles"],
            units={},
            sides=(sides[0], sides[1]),
        )
        for index, seat in enumerate(SEATS):
            deck = setup.decks.get(seat)
            # CR-4.3: an open pool's Summoner starts on the board; so does the one a record
            # hiding that pool still names (a sealed pool's is declared in play, CR-I.24)
            names = (
                deck.cards.names()
                if isinstance(deck, Decklist)
                else deck.shown
                if deck is not None and not deck.commitment
                else ()
            )
            summoners = _summoners(book, names)
            if len(summoners) == 1:
                state = place_summoner(state, index, summoners[0])
        return state

    # -- pools -------------------------------------------------------------
    def check_sealed_size(self, setup: Setup, seat: str, size: int) -> Verdict:
        """CR-3.1: a sealed pool holds 31 crystals, like an open one."""
        return check_pool_size(seat, size)

    def check_deck(self, setup: Setup, seat: str, decklist: Decklist) -> Verdict:
        """CR-3: the pool's construction, against the catalog the setup pins."""
        try:
            book = book_of(dict(setup.options))
        except CatalogError as exc:
            return Verdict.illegal("CR-2.1", str(exc))
        return check_pool(book, seat, decklist)

    def shown_at_setup(self, setup: Setup, seat: str, decklist: Decklist) -> tuple[str, ...]:
        """CR-4.3: the Summoner an open pool places on the board before play."""
        try:
            book = book_of(dict(setup.options))
        except CatalogError:
            return ()
        summoners = _summoners(book, decklist.cards.names())
        return (summoners[0].name,) if len(summoners) == 1 else ()

    def deck_knowledge(self, state: CrystaleState, seat: str) -> DeckKnowledge | None:
        return state.sides[SEATS.index(seat)].knowledge

    def with_deck_knowledge(
        self, state: CrystaleState, seat: str, knowledge: DeckKnowledge
    ) -> CrystaleState:
        return with_seat_knowledge(state, SEATS.index(seat), knowledge)

    # -- adjustments -------------------------------------------------------
    hidden_zones: ClassVar[frozenset[str]] = adjust.HIDDEN_ZONES
    check_change = staticmethod(adjust.check_change)
    apply_change = staticmethod(adjust.apply_change)

    def kept_in_sight_of_its_seat(
        self, state: CrystaleState, seat: str, zone: str, card: str
    ) -> CrystaleState:
        return adjust.kept_in_sight(state, seat, zone, card)

    # -- catalogs ----------------------------------------------------------
    def read_catalog(self, kind: str, text: str, source: str) -> Catalog:
        if kind != "crystals":
            raise CatalogError(f"{source}: crystale reads crystals catalogs, not {kind!r}")
        return parse_catalog(text, source).catalog

    def catalog_rows(self, setup: Setup, kind: str) -> list[dict[str, Any]]:
        """The crystals of the setup's catalog (the shipped example when none is given);
        the board's tiles play no part, so the setup need not name them."""
        if setup.ruleset == OWN and setup.options.get("catalog") is None:
            raise SetupError(f"ruleset {OWN} plays a table's own catalog: give --catalog FILE")
        try:
            book = book_of(dict(setup.options))
        except CatalogError as exc:
            raise SetupError(str(exc)) from None
        rows = []
        for crystal in book.crystals.values():
            row: dict[str, Any] = {
                "name": crystal.name,
                "kind": crystal.kind,
                "element": crystal.element,
            }
            if crystal.kind == "summoner":
                row.update(mana_pool=crystal.mana_pool, recharge=crystal.recharge)
            else:
                row["cost"] = crystal.cost
            if crystal.ranks:
                row["ranks"] = [f"{r.hp} HP / {r.atk} ATK" for r in crystal.ranks]
                row["range"] = crystal.attack_range
            if crystal.trigger:
                row["trigger"] = True
            row["effects"] = [e.text or e.name for e in crystal.effects]
            rows.append(row)
        return rows


def _summoners(book: Book, names: Iterable[str]) -> list[Crystal]:
    """The Summoner crystals among ``names`` (an open pool holds exactly one, CR-3)."""
    return [
        book.crystals[n]
        for n in names
        if n in book.crystals and book.crystals[n].kind == "summoner"
    ]

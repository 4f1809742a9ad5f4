"""``GammasphereRules``: the Gammasphere TCG (Prototype 3) game contract (see
``referee.contract.GameRules``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import msgspec

from referee.contract import (
    ONGOING,
    REFEREE,
    GameRules,
    Outcome,
    Setup,
    SetupField,
    VariantOption,
    Verdict,
    Viewer,
)
from referee.errors import ActionSyntaxError, CatalogError, SetupError
from referee.games.gammasphere import adjust, checks, engine, legal
from referee.games.gammasphere.catalog import (
    Cards,
    Catalog,
    catalog_from_builtins,
    catalog_rows,
    example_catalog,
    parse_catalog,
)
from referee.games.gammasphere.decks import DECK_LIMITS, check_construction, size_problem
from referee.games.gammasphere.field import START_GAS, START_POWER, finished, with_side
from referee.games.gammasphere.model import (
    SEATS,
    Construct,
    Discard,
    GammasphereAction,
    GammasphereState,
    Play,
    Side,
    Table,
)
from referee.games.gammasphere.notation import NAME_CLAUSE
from referee.games.gammasphere.notation import notation as _notation
from referee.games.gammasphere.notation import parse as _parse
from referee.games.gammasphere.render import describe, render, secrets
from referee.kit.adjustments import Change
from referee.kit.decks import DeckKnowledge, Decklist
from referee.kit.names import UnknownNameError, canonical_names, did_you_mean
from referee.kit.secrecy import masked_text, names_in, secrets_for_reasons
from referee.kit.zones import HiddenZone

__all__ = ["DEFAULT_DECK_SIZE", "EXAMPLE", "P3", "RULESETS", "GammasphereRules", "catalog_of"]

P3 = "gammasphere/p3"
EXAMPLE = "gammasphere/example"
RULESETS = (P3, EXAMPLE)
DEFAULT_DECK_SIZE = 40
MAX_DECK_SIZE = 1000

VARIANTS = (
    VariantOption(
        key="deck_limits",
        default="open",
        choices=tuple(DECK_LIMITS),
        clause="GS-I.1",
        summary="Deck size: open (at least the 7 cards of an opening hand, no upper limit) "
        "or 40-60 cards, as in Yu-Gi-Oh.",
    ),
    VariantOption(
        key="first_draw",
        default="yes",
        choices=("yes", "no"),
        clause="GS-I.4",
        summary="Whether the first player draws in the first turn of the game (yes) or "
        "starts it without a draw (no).",
    ),
    VariantOption(
        key="empty_deck",
        default="skip",
        choices=("skip", "lose"),
        clause="GS-I.5",
        summary="A player who must draw from an empty deck skips the draw (skip) or loses (lose).",
    ),
    VariantOption(
        key="attack_taps",
        default="yes",
        choices=("yes", "no"),
        clause="GS-I.7",
        summary="An attacking character is tapped by its attack (yes) or stays untapped (no).",
    ),
    VariantOption(
        key="attack_tie",
        default="both",
        choices=("both", "neither"),
        clause="GS-I.8",
        summary="Equal attacks against an attack-mode defender destroy both characters (both) "
        "or nothing (neither).",
    ),
    VariantOption(
        key="defender_loses",
        default="no",
        choices=("no", "yes"),
        clause="GS-I.9",
        summary="Whether the player of an attack-mode defender that is destroyed loses the "
        "difference of the attacks too, as in Yu-Gi-Oh (yes), or nothing (no).",
    ),
    VariantOption(
        key="direct_attack",
        default="no",
        choices=("no", "yes"),
        clause="GS-I.10",
        summary="Whether a player with no character in play may be attacked directly, losing "
        "the attacker's attack (yes), or never (no).",
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

NAMED_FIELDS = ("card",)
"""Fields of an entry that name cards (hidden in a rejected entry's text)."""

NAME_FIELDS: dict[type, tuple[str, ...]] = {
    Play: ("card",),
    Construct: ("card",),
    Discard: ("card",),
}
"""Where each kind of entry names cards (matched to the catalog by ``read_entry``)."""


def _read_catalog_option(raw: Any) -> Catalog:
    """The ``catalog`` option as a face passes it (the file's text) or as stored (builtins)."""
    try:
        if isinstance(raw, str):
            return parse_catalog(raw, source="--catalog")
        return catalog_from_builtins(raw, source="stored catalog")
    except CatalogError as exc:
        raise SetupError(str(exc)) from None


def catalog_of(setup: Setup) -> Catalog:
    """The catalog a (resolved or raw) setup plays with."""
    raw = setup.options.get("catalog")
    if raw is None:
        return example_catalog()
    return _read_catalog_option(raw)


class GammasphereRules(GameRules[GammasphereState, GammasphereAction]):
    """Gammasphere TCG (Prototype 3) for two seats, p1 and p2, on a catalog of the table's cards."""

    name: ClassVar[str] = "gammasphere"
    title: ClassVar[str] = "Gammasphere TCG (Prototype 3)"
    seats: ClassVar[tuple[str, ...]] = SEATS
    rulesets: ClassVar[tuple[str, ...]] = RULESETS
    variant_options: ClassVar[tuple[VariantOption, ...]] = VARIANTS
    setup_fields: ClassVar[tuple[SetupField, ...]] = SETUP_FIELDS
    takes_decks: ClassVar[bool] = True
    catalog_kinds: ClassVar[tuple[str, ...]] = ("cards",)
    action_type: ClassVar[Any] = GammasphereAction
    state_type: ClassVar[Any] = GammasphereState

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
        return Setup(
            players=done.players,
            ruleset=ruleset,
            variants=done.variants,
            options=options,
            decks=done.decks,
        )

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

    # -- play ------------------------------------------------------------
    def to_act(self, state: GammasphereState) -> frozenset[str]:
        if finished(state) is not None:
            return frozenset()
        if state.phase == "opening":
            return frozenset(s.seat for s in state.sides if not s.opened)
        if state.phase == "discard":
            over = checks.over_limit(state)
            if over:
                return frozenset(SEATS[i] for i in over)
        return frozenset((SEATS[state.active],))

    def legal_actions(
        self, state: GammasphereState, seat: str | None = None
    ) -> Sequence[GammasphereAction]:
        return legal.legal_actions(state, seat)

    def check(
        self, state: GammasphereState, action: GammasphereAction, seat: str | None = None
    ) -> Verdict:
        verdict = checks.check_action(state, action, seat)
        if verdict.violations:  # a reason naming a seat's hidden card is for that seat
            hidden = {s: self.secrets(state, s) for s in SEATS}
            typed = names_in(action, NAMED_FIELDS)
            verdict = verdict.concealing(
                secrets_for_reasons(hidden, seat or self.to_move(state), typed)
            )
        return verdict

    def apply(
        self, state: GammasphereState, action: GammasphereAction, seat: str | None = None
    ) -> GammasphereState:
        return engine.apply_action(state, action, seat)

    def outcome(self, state: GammasphereState) -> Outcome:
        r = finished(state)
        if r is None:
            return ONGOING
        if r.winner is None:
            return Outcome(status="draw", clause=r.clause, reason=r.reason)
        return Outcome(status="win", winner=SEATS[r.winner], clause=r.clause, reason=r.reason)

    # -- notation --------------------------------------------------------
    def parse(self, text: str) -> GammasphereAction:
        return _parse(text)

    def read_entry(self, state: GammasphereState, text: str) -> GammasphereAction:
        """``parse`` with names in the catalog's spelling; a name the catalog does not hold
        is no entry (GS-N.2): refused with the closest names, nothing stored."""
        action = _parse(text)
        try:
            return canonical_names(action, NAME_FIELDS, state.cards.canonical)
        except UnknownNameError as exc:
            hint = did_you_mean(exc.name, (c.name for c in state.cards.catalog.cards))
            raise ActionSyntaxError(
                text,
                f"no card is called {exc.name!r} in the catalog {state.cards.title!r}{hint}",
                NAME_CLAUSE,
            ) from None

    def notation(self, action: GammasphereAction) -> str:
        return _notation(action)

    def shown_text(self, text: str, seat: str | None, viewer: Viewer) -> str:
        """A rejected entry's cards named out of a hand are hidden from the other seats and
        the public: rejected, it took nothing out of hiding (GS-3.5)."""
        if viewer in (REFEREE, seat):
            return text
        return masked_text(text, _parse, _notation, NAMED_FIELDS)

    # -- views -----------------------------------------------------------
    def render(self, state: GammasphereState, viewer: Viewer = REFEREE) -> str:
        return render(state, viewer)

    def observe(self, state: GammasphereState, viewer: Viewer = REFEREE) -> dict[str, Any]:
        return describe(state, viewer)

    def secrets(self, state: GammasphereState, seat: str) -> frozenset[str]:
        return secrets(state, seat)

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

    def with_deck_knowledge(
        self, state: GammasphereState, seat: str, knowledge: DeckKnowledge
    ) -> GammasphereState:
        index = SEATS.index(seat)
        return with_side(
            state, index, msgspec.structs.replace(state.sides[index], knowledge=knowledge)
        )

    # -- adjustments -----------------------------------------------------
    def check_change(self, state: GammasphereState, change: Change) -> Verdict:
        return adjust.check_change(state, change)

    def apply_change(self, state: GammasphereState, change: Change) -> GammasphereState:
        return adjust.apply_change(state, change)

    # -- catalogs --------------------------------------------------------
    def read_catalog(self, kind: str, text: str, source: str) -> Any:
        if kind != "cards":
            raise CatalogError(f"{self.name} reads only 'cards' catalogs, not {kind!r}")
        return parse_catalog(text, source=source)

    def catalog_rows(self, setup: Setup, kind: str) -> list[dict[str, Any]]:
        if kind != "cards":
            return []
        return catalog_rows(catalog_of(self.resolve_setup(setup)))

    def decode_action(self, data: bytes) -> GammasphereAction:
        """Decode an action from its JSON form."""
        action: GammasphereAction = msgspec.json.decode(data, type=GammasphereAction)
        return action

"""``PrismaticRules``: the Prismatic game contract (see ``referee.contract.GameRules``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from referee.contract import (
    REFEREE,
    Report,
    Setup,
    SetupField,
    VariantOption,
    Viewer,
)
from referee.errors import CatalogError, SetupError
from referee.games.base import ModularRules
from referee.games.prismatic import adjust, engine, view
from referee.games.prismatic.catalog import (
    BoardFile,
    CardsFile,
    build_catalog,
    example_board,
    example_cards,
    parse_board,
    parse_cards,
)
from referee.games.prismatic.model import (
    SEATS,
    PrismaticAction,
    PrismaticState,
    SeatState,
    Table,
)
from referee.games.prismatic.motes import COLOURS, PRISMATIC
from referee.kit.multiset import Multiset
from referee.kit.variants import switch

__all__ = ["RULESETS", "PrismaticRules"]

EXAMPLE = "prismatic/example"
TABLE = "prismatic/table"
RULESETS = (EXAMPLE, TABLE)
MOTES_PER_COLOUR = 25
PRISMATIC_MOTES = 5
PRISMS = 50
STARTING_BAG = Multiset.of({"R": 2, "G": 2, "B": 2, "W": 1, "K": 1})

VARIANTS = (
    switch(
        "spent_motes",
        ("supply", "bag"),
        "PX-I.1",
        "Motes that pay for a creation or an ability go back to the supply (default), "
        "or back into the payer's bag.",
    ),
    switch(
        "gained_motes",
        ("rewards_wait", "next_round", "at_once"),
        "PX-I.3",
        "Rewarded motes join the bag when the round ends and board or addition motes go "
        "in at once (default, as the text has it); or every mote gained in step 3 waits for "
        "the round's end (next_round); or every one goes into the bag at once (at_once).",
    ),
    switch(
        "ability_uses",
        ("once", "per_commitment"),
        "PX-I.5",
        "Each card ability once per round (default), or a transformation once per mote "
        "or prism committed to it.",
    ),
    switch(
        "empty_target",
        ("own", "any"),
        "PX-I.7",
        "The empty action clears the acting player's own palette or card (default), or "
        "any player's.",
    ),
    switch(
        "empty_deck",
        ("stop", "reshuffle"),
        "PX-I.8",
        "With the deck spent, no more cards are drawn (default), or the discard pile is "
        "shuffled into a new deck.",
    ),
    switch(
        "starter_token",
        ("pass", "auction"),
        "PX-I.9",
        "The starter token passes clockwise each round (default), or goes to the highest "
        "sealed prism bid (the text's house rule).",
    ),
    switch(
        "draw_action",
        ("optional", "compulsory"),
        "PX-I.28",
        "The draw action may take no card even with cards left (default), or must take "
        "one while any can be drawn.",
    ),
    switch(
        "progress_removal",
        ("discard_only", "free"),
        "PX-I.23",
        "A progress card leaves only by a discard action or the board's discard "
        "(default), or its owner may also remove it freely in their resolve turn.",
    ),
    switch(
        "components",
        ("limited", "proxy"),
        "PX-I.29",
        "The box's 25 motes of each colour and 50 prisms are the most there can be "
        "(limited, the default), or a colour mote or prism the supply lacks is stood in for "
        "by a proxy (proxy); the 5 prismatic motes stay limited either way.",
    ),
    switch(
        "goal_reach",
        ("end", "play_on"),
        "PX-I.30",
        "A goal no player can reach any more triggers the end like a reached one, and "
        "no goal above the catalog's play cards is agreed (end, the default); or only a "
        "reached goal ends the game (play_on, the rules before PX-I.30: games recorded "
        "before it keep it).",
        absent="play_on",
    ),
    switch(
        "opening_forgo",
        ("no_bid", "refuse"),
        "PX-I.32",
        "With starter_token=auction, forgo in an auction's first round makes no bid, "
        "like bid 0 (no_bid, the default: PX-14.4's 'all players forgo'); or only a tied "
        "bidder forgoes and the first round's forgo is refused (refuse, the rules before: "
        "games recorded before the switch keep it).",
        absent="refuse",
    ),
)

SETUP_FIELDS = (
    SetupField(
        key="goal",
        kind="int",
        help="Created play cards that trigger the last round, as the table agrees: typically 3 "
        "quick, 5 average (default), 7 long.",
    ),
    SetupField(
        key="starter",
        kind="choice",
        choices=SEATS,
        help="The seat given the starter token (the player wearing the most colours; default p1).",
    ),
    SetupField(
        key="cards",
        kind="file",
        help="The play cards catalog (TOML or JSON; ruleset prismatic/table). Omit both files for "
        "the invented examples (prismatic/example).",
    ),
    SetupField(key="board", kind="file", help="The board's creations catalog (TOML or JSON)."),
)


def _goal(value: Any) -> int:
    """PX-1.8: the creation goal the table agreed on, a whole number of at least one created
    play card (3, 5 and 7 are the typical lengths, not the only ones)."""
    text = str(value).strip()
    if isinstance(value, bool) or not (text.isdigit() and int(text) >= 1):
        raise SetupError(
            "the creation goal is a whole number of created play cards, at least 1 (PX-1.8: "
            f"typically 3, 5 or 7), not {value!r}"
        )
    return int(text)


def _builtins(value: CardsFile | BoardFile) -> dict[str, Any]:
    data = msgspec.to_builtins(value)
    if not isinstance(data, dict):
        raise TypeError(f"data is a {type(data).__name__}, not dict")
    return data


class PrismaticRules(ModularRules[PrismaticState, PrismaticAction]):
    """Prismatic for two to four players in seats p1-p4, the cards and board from catalogs."""

    name: ClassVar[str] = "prismatic"
    title: ClassVar[str] = "Prismatic"
    seats: ClassVar[tuple[str, ...]] = SEATS
    min_players: ClassVar[int | None] = 2
    max_players: ClassVar[int | None] = 4
    rulesets: ClassVar[tuple[str, ...]] = RULESETS
    variant_options: ClassVar[tuple[VariantOption, ...]] = VARIANTS
    setup_fields: ClassVar[tuple[SetupField, ...]] = SETUP_FIELDS
    catalog_kinds: ClassVar[tuple[str, ...]] = ("cards", "board")
    reports: ClassVar[tuple[str, ...]] = ("score",)
    uncountable: ClassVar[str] = (
        "its bids are sealed, its list of commitments is a generating set rather than "
        "every entry, and draws and card text a referee rules on decide what follows"
    )

    # -- setup -----------------------------------------------------------------
    def resolve_setup(self, setup: Setup) -> Setup:
        """Complete the setup: the goal (default 5), the starter seat (default p1), and both
        catalogs in canonical form (the shipped examples for ``prismatic/example``)."""
        given = setup.options
        ruleset = setup.ruleset
        if ruleset is None:
            ruleset = (
                TABLE
                if given.get("cards") is not None or given.get("board") is not None
                else EXAMPLE
            )
        done = super().resolve_setup(msgspec.structs.replace(setup, ruleset=ruleset))
        options = dict(done.options)
        options["goal"] = _goal(options.get("goal", 5))
        starter = str(options.get("starter", done.seats[0])).strip().lower()
        if starter not in done.seats:
            raise SetupError(
                f"the starter token goes to a seat at the table ({', '.join(done.seats)}), "
                f"not {starter!r}"
            )
        options["starter"] = starter
        if done.ruleset == EXAMPLE:
            for key, shipped in (
                ("cards", _builtins(example_cards())),
                ("board", _builtins(example_board())),
            ):
                value = options.get(key)
                if value is not None and self._canonical(key, value) != shipped:
                    raise SetupError(
                        f"ruleset {EXAMPLE} plays the shipped example {key}; give your own "
                        f"files with ruleset {TABLE}"
                    )
                options[key] = shipped
        else:
            for key in ("cards", "board"):
                if options.get(key) is None:
                    raise SetupError(
                        f"ruleset {TABLE} needs both catalog files: --cards FILE --board FILE"
                    )
                options[key] = self._canonical(key, options[key])
        needed = 3 + 2 * len(done.players)
        count = len(options["cards"]["cards"])
        if count < needed:
            raise SetupError(
                f"{len(done.players)} players need at least {needed} play cards (3 common, 2 "
                f"dealt each); the cards catalog has {count}"
            )
        if options["goal"] > count and done.variants["goal_reach"] == "end":
            raise SetupError(
                f"a creation goal of {options['goal']} play cards can never be reached with the "
                f"{count} cards of the catalog (PX-1.8, PX-I.30)"
            )
        return msgspec.structs.replace(done, options=options)

    @staticmethod
    def _canonical(kind: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, str | dict):
            raise SetupError(f"--{kind} takes a catalog file's text, not {type(value).__name__}")
        try:
            parsed: CardsFile | BoardFile = (
                parse_cards(value, kind) if kind == "cards" else parse_board(value, kind)
            )
        except CatalogError as exc:
            raise SetupError(str(exc)) from None
        return _builtins(parsed)

    def initial_state(self, setup: Setup) -> PrismaticState:
        """PX-2: bags of 2 red, 2 green, 2 blue, 1 white, 1 black and one prism each; the game
        opens with the starter's reveals of the three common cards (PX-2.2)."""
        setup = self.resolve_setup(setup)
        options = setup.options
        catalog = build_catalog(
            msgspec.convert(options["cards"], CardsFile),
            msgspec.convert(options["board"], BoardFile),
        )
        variants = setup.variants
        table = Table(goal=options["goal"], **{v.key: variants[v.key] for v in VARIANTS})
        players = tuple(SeatState(seat=seat, bag=STARTING_BAG) for seat in setup.seats)
        supply = Multiset.of(
            {c: MOTES_PER_COLOUR - STARTING_BAG.count(c) * len(players) for c in COLOURS}
            | {PRISMATIC: PRISMATIC_MOTES}
        )
        state = PrismaticState(
            table=table,
            catalog=catalog,
            players=players,
            step="deal",
            starter=options["starter"],
            deck=tuple(sorted(catalog.cards)),
            supply=supply,
            supply_prisms=PRISMS - len(players),
        )
        return engine.advance(state)

    # -- seats leaving ---------------------------------------------------------------
    def withdraw(self, state: PrismaticState, seat: str) -> PrismaticState | None:
        """PX-I.16: the others play on without the seat."""
        return engine.withdraw(state, seat)

    # -- what each viewer sees --------------------------------------------------------
    def shown_notation(self, action: PrismaticAction, seat: str, viewer: Viewer) -> str:
        return view.shown_notation(action, seat, viewer)

    seals_entries: ClassVar[bool] = True

    def still_sealed(self, state: PrismaticState) -> Mapping[str, int]:
        """PX-14.1: a round's bids and forgoes are sealed until all of its entries are in;
        then they are revealed (the standing bids, the winner paying)."""
        return view.still_sealed(state)

    def report(self, state: PrismaticState, name: str, viewer: Viewer = REFEREE) -> Report:
        """PX-15.6: the score chart (``score``), the same for every viewer."""
        if name != "score":
            raise LookupError(f"prismatic has no report {name!r}; it has: score")
        return view.score_report(state)

    # -- adjustments -------------------------------------------------------------------
    check_change = staticmethod(adjust.check_change)
    apply_change = staticmethod(adjust.apply_change)

    # -- catalogs ------------------------------------------------------------------------
    def read_catalog(self, kind: str, text: str, source: str) -> CardsFile | BoardFile:
        """PX-15.3: a cards or board catalog file, checked; ``CatalogError`` names the problem."""
        if kind == "cards":
            return parse_cards(text, source)
        if kind == "board":
            return parse_board(text, source)
        raise CatalogError(f"{source}: Prismatic reads 'cards' and 'board' catalogs, not {kind!r}")

    def catalog_rows(self, setup: Setup, kind: str) -> list[dict[str, Any]]:
        setup = self.resolve_setup(setup)
        if kind == "cards":
            return [dict(row) for row in setup.options["cards"]["cards"]]
        if kind == "board":
            rows: list[dict[str, Any]] = []
            for creation in setup.options["board"]["creations"]:
                for number, recipe in enumerate(creation["methods"], start=1):
                    rows.append(
                        {
                            "method": f"{creation['key']}.{number}",
                            "name": creation["name"],
                            "effect": creation["effect"],
                            "needs": recipe,
                        }
                    )
            return rows
        return []

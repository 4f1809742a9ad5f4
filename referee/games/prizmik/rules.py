"""``PrizmikRules``: the PRIZMIK game contract, wired from the game's modules.

``checks`` judges actions, ``engine`` carries them out and decides results, ``legal``
lists them, ``view`` shows a position, ``notation`` reads and writes actions and
position strings; this class keeps the setup (variants, the starting position, the
hand-built positions of ``position``). The clause ids cited here are those of
``rulebook.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final

import msgspec

from referee.contract import Setup, VariantOption
from referee.errors import SetupError, VariantError
from referee.games.base import ModularRules
from referee.games.prizmik import engine, notation
from referee.games.prizmik.board import (
    BASE,
    CHAR,
    EMPTY,
    FIGHTER,
    FILES,
    FLEET,
    HOME_RANK,
    KIND_OF,
    SEATS,
    SHIP,
    SIDE_OF,
    SQUARE_INDEX,
    STACK,
)
from referee.games.prizmik.engine import WIN_ALL_BASES, count_pieces, decide, files_closed
from referee.games.prizmik.model import PrizmikAction, PrizmikState, PrizmikVariants
from referee.games.prizmik.notation import read_position_fields
from referee.kit.variants import switch
from referee.outcomes import Outcome

__all__ = ["VARIANT_OPTIONS", "PrizmikRules", "count_pieces"]

# -- variants ----------------------------------------------------------------
VARIANT_OPTIONS: Final = (
    VariantOption(
        key="setup_files",
        default="ceg",
        clause="PZ-10.1",
        summary="the three files of each home rank that hold the starting full fleets, "
        "as three different letters a-h (default ceg)",
    ),
    switch(
        "fleet_capturable",
        ("yes", "no"),
        "PZ-10.3",
        "whether a ship may capture a full fleet like a lone base (yes) "
        "or full fleets cannot be captured at all (no)",
    ),
    switch(
        "no_legal_action",
        ("loss", "draw"),
        "PZ-10.6",
        "what happens to a player who has no legal action on their turn: "
        "they lose (loss) or the game is drawn (draw)",
    ),
    VariantOption(
        key="quiet_limit",
        default="off",
        clause="PZ-10.11",
        summary="draw after this many actions in a row without a capture or promotion "
        "(a whole number from 1 to 100000), or off (the default: no limit)",
    ),
    switch(
        "far_rank_step",
        ("yes", "no"),
        "PZ-10.5",
        "whether a lone fighter already on its far rank promotes when it moves or "
        "captures along that rank (yes, the default), or only when it comes onto the far "
        "rank from another rank (no)",
    ),
    switch(
        "impossible_test",
        ("pieces", "files"),
        "PZ-10.13",
        "how a player is found unable ever to capture a base again: by their pieces "
        "alone (pieces, the default: no ship, and no lone fighter or no reserve fleet), or also "
        "when no ship is on the board and every file has a base at one end, so no fighter can "
        "ever promote: then the game is drawn (files)",
    ),
    switch(
        "waiting_promotion",
        ("no", "yes"),
        "PZ-10.15",
        "whether promotion is judged only when a lone fighter arrives on its far rank "
        "(no, the default), or also for a lone fighter already standing there when an action "
        "empties the home square of its file (yes)",
    ),
)

_QUIET_LIMIT_MAX: Final = 100_000

PIECES_EACH: Final = 6
"""PZ-2.1: each player owns six pieces of each shape, three fleets' worth on the board at the
start and three in reserve."""
RESERVES_EACH: Final = 3
"""PZ-3.4: the reserve fleets each player holds at the start; the count only ever drops."""
_SHAPES_IN: Final[dict[int, tuple[int, int, int]]] = {
    BASE: (1, 0, 0),
    FLEET: (1, 1, 1),
    STACK: (0, 1, 1),
    SHIP: (0, 1, 0),
    FIGHTER: (0, 0, 1),
}
"""The (bases, ships, fighters) nested in one square's piece or nest (PZ-2.2)."""


def _check_supply(board: str, reserves: tuple[int, int]) -> None:
    """Refuse a position that gives a player more pieces than the box holds: more than three
    reserve fleets (PZ-3.4), or more than six of a shape counting every nest on the board
    and every reserve fleet (PZ-2.1)."""
    shapes = [[0, 0, 0], [0, 0, 0]]
    for ch in board:
        if ch != EMPTY:
            for i, n in enumerate(_SHAPES_IN[KIND_OF[ch]]):
                shapes[SIDE_OF[ch]][i] += n
    for side, seat in enumerate(SEATS):
        if reserves[side] > RESERVES_EACH:
            raise SetupError(
                f"{seat} is given {reserves[side]} reserve fleets, but each player starts with "
                f"{RESERVES_EACH} and never gains more (PZ-3.4)"
            )
        for i, shape in enumerate(("bases", "ships", "fighters")):
            total = shapes[side][i] + reserves[side]
            if total > PIECES_EACH:
                raise SetupError(
                    f"{seat} would have {total} {shape} counting those nested on the board and "
                    f"the {reserves[side]} in reserve fleets, but each player owns only "
                    f"{PIECES_EACH} of each shape (PZ-2.1)"
                )


def _normalise_setup_files(value: str) -> str:
    """Three different files a-h, sorted (PZ-10.1); spaces and commas are ignored."""
    letters = "".join(ch for ch in value.lower() if ch not in " ,")
    if len(letters) != 3 or any(ch not in FILES for ch in letters) or len(set(letters)) != 3:
        raise VariantError(
            f"variant setup_files={value!r} must be three different files a-h, such as ceg or "
            "bdf (PZ-10.1)"
        )
    return "".join(sorted(letters))


def _normalise_quiet_limit(value: str) -> str:
    """``off`` or a whole number of actions (PZ-10.11), in canonical form."""
    text = value.strip().lower()
    if text in ("off", "none"):
        return "off"
    if not text.isdigit() or not 1 <= int(text) <= _QUIET_LIMIT_MAX:
        raise VariantError(
            f"variant quiet_limit={value!r} must be off or a whole number from 1 to "
            f"{_QUIET_LIMIT_MAX} (PZ-10.11)"
        )
    return str(int(text))


def _variants_from(resolved: Mapping[str, str]) -> PrizmikVariants:
    """The typed record of already-resolved variant strings."""
    quiet = resolved["quiet_limit"]
    return PrizmikVariants(
        setup_files=resolved["setup_files"],
        fleet_capturable=resolved["fleet_capturable"] == "yes",
        no_legal_action="draw" if resolved["no_legal_action"] == "draw" else "loss",
        quiet_limit=0 if quiet == "off" else int(quiet),
        far_rank_step=resolved["far_rank_step"] == "yes",
        impossible_test="files" if resolved["impossible_test"] == "files" else "pieces",
        waiting_promotion=resolved["waiting_promotion"] == "yes",
    )


class PrizmikRules(ModularRules[PrizmikState, PrizmikAction]):
    """PRIZMIK for two seats, red and blue; red acts first (PZ-1.2).

    Stateless: every method reads what it needs from the state, which carries
    the chosen variants.
    """

    name: ClassVar[str] = "prizmik"
    title: ClassVar[str] = "PRIZMIK"
    seats: ClassVar[tuple[str, ...]] = SEATS
    rulesets: ClassVar[tuple[str, ...]] = ("prizmik/1",)
    variant_options: ClassVar[tuple[VariantOption, ...]] = VARIANT_OPTIONS

    # -- setup -----------------------------------------------------------
    def resolve_variants(self, chosen: Mapping[str, str]) -> dict[str, str]:
        """Validate and fill in the variants; normalise free-form values.

        ``setup_files`` must be three different files a-h and is stored sorted
        (``"GCE"`` becomes ``"ceg"``); ``quiet_limit`` is ``off`` or a whole
        number. Anything else raises ``VariantError``.
        """
        resolved = super().resolve_variants(chosen)
        resolved["setup_files"] = _normalise_setup_files(resolved["setup_files"])
        resolved["quiet_limit"] = _normalise_quiet_limit(resolved["quiet_limit"])
        return resolved

    def variants(self, chosen: Mapping[str, str] | None = None) -> PrizmikVariants:
        """The typed variant record for ``chosen`` switches (defaults filled in)."""
        return _variants_from(self.resolve_variants(chosen or {}))

    def initial_state(self, setup: Setup) -> PrizmikState:
        """Three full fleets per side on the home ranks, three reserves each (PZ-3)."""
        setup = self.resolve_setup(setup)
        variants = _variants_from(setup.variants)
        cells = [EMPTY] * 64
        for f in variants.setup_files:
            file = FILES.index(f)
            cells[HOME_RANK[0] * 8 + file] = CHAR[0][FLEET]
            cells[HOME_RANK[1] * 8 + file] = CHAR[1][FLEET]
        board = "".join(cells)
        bases, ships, fighters = count_pieces(board)
        return PrizmikState(
            board=board,
            turn="red",
            ply=0,
            reserves=(3, 3),
            bases=bases,
            ships=ships,
            fighters=fighters,
            variants=variants,
            ruleset=setup.ruleset or self.rulesets[0],
        )

    def position(
        self,
        pieces: Mapping[str, str] | str,
        *,
        turn: str = "red",
        reserves: tuple[int, int] = (3, 3),
        variants: Mapping[str, str] | None = None,
        ply: int | None = None,
        quiet: int = 0,
        judge: bool = True,
    ) -> PrizmikState:
        """A hand-built position, for tests, puzzles and adjudication.

        ``pieces`` maps squares to board letters (``{"c1": "F", "d5": "x"}``) or
        is a diagram of eight rows, rank 8 first, in the letters of ``render``
        (spaces, rank numbers and lines that are not rows, such as file labels,
        are ignored). Counters are derived from the board. With ``judge`` (the
        default) the end-of-game tests of PZ-10.8 are run as if the player not
        to move had just acted, a player with no base having lost whoever is to
        move (PZ-10.16), and any result is stored; ``judge=False``
        leaves the position open so that tests can watch ``apply`` decide.
        Raises ``SetupError`` on anything malformed, including a board on which
        neither player has a base, and a position giving a player more pieces than the game
        provides (more than six of a shape with reserves counted, PZ-2.1, or more than three
        reserve fleets, PZ-3.4).
        """
        if turn not in SEATS:
            raise SetupError(f"the side to act is red or blue, not {turn!r} (PZ-1.1)")
        cells = [EMPTY] * 64
        if isinstance(pieces, str):
            rows = []
            for line in pieces.splitlines():
                row = "".join(ch for ch in line if not ch.isspace() and not ch.isdigit())
                if len(row) == 8 and all(ch in KIND_OF for ch in row):
                    rows.append(row)
            if len(rows) != 8:
                raise SetupError(
                    "a diagram needs eight rows of eight squares, rank 8 first, each square a "
                    "piece letter (FBSHX / fbshx) or . for an empty square (PZ-9.5)"
                )
            for r, row in enumerate(rows):
                for f, ch in enumerate(row):
                    cells[(7 - r) * 8 + f] = ch
        else:
            for name, ch in pieces.items():
                sq = SQUARE_INDEX.get(name.strip().lower())
                if sq is None:
                    raise SetupError(
                        f"{name!r} is not a square: a file a-h and a rank 1-8, such as c2 (PZ-3.1)"
                    )
                if ch not in KIND_OF or ch == EMPTY:
                    raise SetupError(
                        f"{ch!r} on {name} is not a piece letter (FBSHX / fbshx) (PZ-9.5)"
                    )
                cells[sq] = ch
        if any(r < 0 for r in reserves):
            raise SetupError("a count of reserve fleets cannot be negative (PZ-3.4)")
        board = "".join(cells)
        bases, ships, fighters = count_pieces(board)
        if bases == (0, 0):
            raise SetupError(
                "a position needs a base, lone or in a full fleet, for at least one player (PZ-9.5)"
            )
        _check_supply(board, (reserves[0], reserves[1]))
        chosen = self.variants(variants)
        res = (reserves[0], reserves[1])
        result = None
        if judge:
            prev = 1 if turn == "red" else 0
            if bases[prev] == 0:
                result = Outcome(
                    "win",
                    SEATS[1 - prev],
                    WIN_ALL_BASES,
                    f"{SEATS[prev]} has no base left on the board",
                )
            else:
                closed = chosen.impossible_test == "files" and files_closed(board, ships)
                result = decide(
                    prev, bases, ships, fighters, res, quiet, chosen.quiet_limit, closed=closed
                )
        return PrizmikState(
            board=board,
            turn="red" if turn == "red" else "blue",
            ply=(0 if turn == "red" else 1) if ply is None else ply,
            reserves=res,
            bases=bases,
            ships=ships,
            fighters=fighters,
            quiet=quiet,
            variants=chosen,
            result=result,
        )

    def to_move(self, state: PrizmikState) -> str | None:
        """The side to move, or ``None`` once the game has a result."""
        return engine.to_move(state)

    # -- position strings ------------------------------------------------
    def position_text(self, state: PrizmikState) -> str:
        return notation.position_text(state)

    def recorded_position(self, text: str) -> str:
        """A stored game's position string read as the code of its time read it (PZ-9.5
        became strict about digits after games were recorded)."""
        return notation.recorded_position(text)

    def read_position(self, text: str, setup: Setup) -> PrizmikState:
        """A position string (``position_text``) as a position, checked like any set-up
        position (PZ-9.5)."""
        diagram, turn, reserves, ply, quiet = read_position_fields(text)
        state = self.position(
            diagram, turn=turn, reserves=reserves, variants=setup.variants, ply=ply, quiet=quiet
        )
        return msgspec.structs.replace(state, ruleset=setup.ruleset or self.rulesets[0])

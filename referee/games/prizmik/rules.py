"""The PRIZMIK rules engine: checking, applying and generating actions.

The clause ids cited here are those of ``referee/games/prizmik/rulebook.toml``.

Speed matters because a referee replays whole games on every read: ``check``
has a straight-line path for legal actions that only indexes precomputed
tables (``referee.games.prizmik.board``), and only an illegal action pays for working
out the most specific clause it breaks and a reason in plain words. ``apply``
builds one new board string and one new state, reuses every counter tuple it
does not change, and decides by-rule results (PZ-8, PZ-10.7, PZ-10.8,
PZ-10.11) from those counters; the no-legal-action ending (PZ-10.6) needs move
generation and is therefore found lazily by ``outcome``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Final

import msgspec

from referee.contract import (
    LEGAL,
    ONGOING,
    REFEREE,
    GameRules,
    Outcome,
    Setup,
    VariantOption,
    Verdict,
    Viewer,
    Violation,
)
from referee.errors import SetupError, VariantError
from referee.games.prizmik.board import (
    BASE,
    CHAR,
    DIAG4,
    EMPTY,
    ENEMY,
    FAR_HOME,
    FAR_RANK,
    FIGHTER,
    FILES,
    FLEET,
    FLEET_DEPLOY,
    HOME_RANK,
    JUMP2,
    KIND_NAMES,
    KIND_OF,
    NEIGH8,
    ORTHO4,
    OWN,
    SEATS,
    SHIP,
    SIDE_OF,
    SQUARE_INDEX,
    SQUARE_NAMES,
    STACK,
    piece_name,
)
from referee.games.prizmik.model import (
    DEFAULT_VARIANTS,
    SEPARATORS,
    PrizmikAction,
    PrizmikState,
    PrizmikVariants,
)
from referee.games.prizmik.notation import ACTIONS, notation, parse

__all__ = ["VARIANT_OPTIONS", "PrizmikRules", "count_pieces"]

# -- clause ids --------------------------------------------------------------
GAME_OVER: Final = "REF-1.3"
OWN_PIECES: Final = "PZ-1.4"
DEPLOY_FLEET: Final = "PZ-4.1"
DEPLOY_STACK: Final = "PZ-4.2"
DEPLOY_WHO: Final = "PZ-4.3"
NO_MOVE_BASES: Final = "PZ-5.1"
MOVE_SHIP: Final = "PZ-5.2"
MOVE_FIGHTER: Final = "PZ-5.3"
CAPTURE_GENERAL: Final = "PZ-6.1"
CAPTURE_SHIP_BASE: Final = "PZ-6.2"
CAPTURE_SHIP_ONLY_BASES: Final = "PZ-6.3"
CAPTURE_FIGHTER_SHIP: Final = "PZ-6.4"
CAPTURE_FIGHTER_FIGHTER: Final = "PZ-6.5"
CAPTURE_FIGHTER_NO_BASE: Final = "PZ-6.6"
WIN_ALL_BASES: Final = "PZ-8.1"
WIN_IMPOSSIBLE: Final = "PZ-8.2"
NOTATION_SIGNS: Final = "PZ-9.2"
SEPARATOR_FITS: Final = "PZ-9.4"
FLEET_CAPTURABLE: Final = "PZ-10.3"
EMPTY_ONLY: Final = "PZ-10.4"
NO_LEGAL_ACTION: Final = "PZ-10.6"
BOTH_UNABLE: Final = "PZ-10.8"
WHO_CAPTURES: Final = "PZ-10.9"
QUIET_LIMIT: Final = "PZ-10.11"

# -- variants ----------------------------------------------------------------
VARIANT_OPTIONS: Final = (
    VariantOption(
        key="setup_files",
        default="ceg",
        clause="PZ-10.1",
        summary="the three files of each home rank that hold the starting full fleets, "
        "as three different letters a-h (default ceg)",
    ),
    VariantOption(
        key="fleet_capturable",
        default="yes",
        choices=("yes", "no"),
        clause="PZ-10.3",
        summary="whether a ship may capture a full fleet like a lone base (yes) "
        "or full fleets cannot be captured at all (no)",
    ),
    VariantOption(
        key="no_legal_action",
        default="loss",
        choices=("loss", "draw"),
        clause="PZ-10.6",
        summary="what happens to a player who has no legal action on their turn: "
        "they lose (loss) or the game is drawn (draw)",
    ),
    VariantOption(
        key="quiet_limit",
        default="off",
        clause="PZ-10.11",
        summary="draw after this many actions in a row without a capture or promotion "
        "(a whole number from 1 to 100000), or off (the default: no limit)",
    ),
)

_QUIET_LIMIT_MAX: Final = 100_000


def _normalise_setup_files(value: str) -> str:
    """Three different files a-h, sorted (PZ-10.1); spaces and commas are ignored."""
    letters = "".join(ch for ch in value.lower() if ch not in " ,")
    if len(letters) != 3 or any(ch not in FILES for ch in letters) or len(set(letters)) != 3:
        raise VariantError(
            f"variant setup_files={value!r} must be three different files a-h, such as ceg or bdf"
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
            f"{_QUIET_LIMIT_MAX}"
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
    )


# -- counting ----------------------------------------------------------------
def count_pieces(board: str) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Per side (red, blue): bases (lone + fleets), ship holders, lone fighters."""
    bases = [0, 0]
    ships = [0, 0]
    fighters = [0, 0]
    for ch in board:
        if ch == EMPTY:
            continue
        side = SIDE_OF[ch]
        kind = KIND_OF[ch]
        if kind in (BASE, FLEET):
            bases[side] += 1
        if kind in (FLEET, STACK, SHIP):
            ships[side] += 1
        if kind == FIGHTER:
            fighters[side] += 1
    return (bases[0], bases[1]), (ships[0], ships[1]), (fighters[0], fighters[1])


def _unable(
    side: int, ships: tuple[int, int], fighters: tuple[int, int], reserves: tuple[int, int]
) -> bool:
    """PZ-10.7: ``side`` can never capture a base again."""
    return ships[side] == 0 and (fighters[side] == 0 or reserves[side] == 0)


def _decide(
    side: int,
    bases: tuple[int, int],
    ships: tuple[int, int],
    fighters: tuple[int, int],
    reserves: tuple[int, int],
    quiet: int,
    limit: int,
) -> Outcome | None:
    """The by-rule result after ``side`` acted, in the order of PZ-10.8, or None."""
    opp = 1 - side
    mover, other = SEATS[side], SEATS[opp]
    if bases[opp] == 0:
        return Outcome("win", mover, WIN_ALL_BASES, f"{other} has no base left on the board")
    opp_unable = _unable(opp, ships, fighters, reserves)
    mover_unable = _unable(side, ships, fighters, reserves)
    if opp_unable and mover_unable:
        return Outcome(
            "draw",
            None,
            BOTH_UNABLE,
            "neither player can ever capture a base again: neither has a ship, "
            "nor a lone fighter with a reserve fleet to promote",
        )
    if opp_unable or mover_unable:
        loser = opp if opp_unable else side
        return Outcome(
            "win",
            SEATS[1 - loser],
            WIN_IMPOSSIBLE,
            f"{SEATS[loser]} can never capture a base again (PZ-10.7): no ship on the board, "
            + (
                "and no lone fighter"
                if fighters[loser] == 0
                else "and no reserve fleet to promote a fighter into"
            ),
        )
    if limit and quiet >= limit:
        return Outcome(
            "draw",
            None,
            QUIET_LIMIT,
            f"{quiet} actions in a row without a capture or promotion (limit {limit})",
        )
    return None


def _iter_actions(state: PrizmikState) -> Iterator[PrizmikAction]:
    """Every legal action of the side to move, by origin a1..h8, then deploy, move, capture."""
    board = state.board
    side = 0 if state.turn == "red" else 1
    own = OWN[side]
    enemy = ENEMY[side]
    fleets_capturable = state.variants.fleet_capturable
    for o in range(64):
        k = own.get(board[o])
        if k is None or k == BASE:
            continue
        if k == FLEET:
            for t, act in _FLEET_DEPLOYS[side][o]:
                if board[t] == EMPTY:
                    yield act
            continue
        if k == STACK:
            for t, act in _STACK_DEPLOYS[o]:
                if board[t] == EMPTY:
                    yield act
        if k == FIGHTER:
            for t, act in _STEP_MOVES[o]:
                if board[t] == EMPTY:
                    yield act
            for t, ortho, act in _FIGHTER_CAPTURES[o]:
                ek = enemy.get(board[t])
                if ek is not None and ((ek in (STACK, SHIP)) if ortho else ek == FIGHTER):
                    yield act
        else:  # ship stack or lone ship
            for t, mid, act in _SHIP_MOVES[o]:
                if board[t] == EMPTY and (mid < 0 or board[mid] == EMPTY):
                    yield act
            for t, act in _STEP_CAPTURES[o]:
                ek = enemy.get(board[t])
                if ek == BASE or (ek == FLEET and fleets_capturable):
                    yield act


_MOBILE_LETTERS: Final = (("X", "S", "H"), ("x", "s", "h"))
_FLEET_LETTER: Final = ("F", "f")
_NEIGH8_LIST: Final = tuple(tuple(sorted(NEIGH8[o])) for o in range(64))


def _has_action(state: PrizmikState) -> bool:
    """Whether the side to move has any legal action, without listing them.

    Almost every position has a lone fighter, ship or stack next to an empty
    square (a legal one-step move) or a fleet with an empty deploy square;
    ``str.find`` locates the pieces at C speed. Only when none has, the full
    generator decides (a capture may still be possible)."""
    board = state.board
    side = 0 if state.turn == "red" else 1
    for letter in _MOBILE_LETTERS[side]:
        o = board.find(letter)
        while o >= 0:
            for t in _NEIGH8_LIST[o]:
                if board[t] == EMPTY:
                    return True
            o = board.find(letter, o + 1)
    letter = _FLEET_LETTER[side]
    o = board.find(letter)
    while o >= 0:
        for t, _ in _FLEET_DEPLOYS[side][o]:
            if board[t] == EMPTY:
                return True
        o = board.find(letter, o + 1)
    return next(_iter_actions(state), None) is not None


def _table(kind: str, targets: frozenset[int], o: int) -> tuple[tuple[int, PrizmikAction], ...]:
    """``(target, interned action)`` pairs from ``o``, targets in square order."""
    return tuple((t, ACTIONS[(kind, o, t)]) for t in sorted(targets))


# Move-generation tables: for every origin, the candidate targets with their
# interned actions, so that generating actions allocates nothing but the list.
_FLEET_DEPLOYS: Final = tuple(
    tuple(_table("deploy", FLEET_DEPLOY[side][o], o) for o in range(64)) for side in (0, 1)
)
_STACK_DEPLOYS: Final = tuple(_table("deploy", ORTHO4[o], o) for o in range(64))
_STEP_MOVES: Final = tuple(_table("move", NEIGH8[o], o) for o in range(64))
_STEP_CAPTURES: Final = tuple(_table("capture", NEIGH8[o], o) for o in range(64))
_SHIP_MOVES: Final = tuple(
    tuple(
        (t, JUMP2[o].get(t, -1), ACTIONS[("move", o, t)])
        for t in sorted(NEIGH8[o] | JUMP2[o].keys())
    )
    for o in range(64)
)
_FIGHTER_CAPTURES: Final = tuple(
    tuple((t, t in ORTHO4[o], ACTIONS[("capture", o, t)]) for t in sorted(NEIGH8[o]))
    for o in range(64)
)


def _names(squares: frozenset[int] | Sequence[int]) -> str:
    """Square names in alphabetical order joined for a reason: ``c4, d3 or e4``."""
    names = sorted(SQUARE_NAMES[s] for s in squares)
    if len(names) <= 1:
        return "".join(names) or "nowhere"
    return ", ".join(names[:-1]) + " or " + names[-1]


_NOBODY: frozenset[str] = frozenset()
_ONLY = {seat: frozenset((seat,)) for seat in SEATS}


class PrizmikRules(GameRules[PrizmikState, PrizmikAction]):
    """PRIZMIK for two seats, red and blue; red acts first (PZ-1.2).

    Stateless: every method reads what it needs from the state, which carries
    the chosen variants.
    """

    name: ClassVar[str] = "prizmik"
    title: ClassVar[str] = "PRIZMIK"
    seats: ClassVar[tuple[str, ...]] = SEATS
    rulesets: ClassVar[tuple[str, ...]] = ("prizmik/1",)
    variant_options: ClassVar[tuple[VariantOption, ...]] = VARIANT_OPTIONS
    action_type: ClassVar[Any] = PrizmikAction
    state_type: ClassVar[Any] = PrizmikState

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
        to move had just acted, and any result is stored; ``judge=False``
        leaves the position open so that tests can watch ``apply`` decide.
        Raises ``SetupError`` on anything malformed, including a board on which
        neither player has a base.
        """
        if turn not in SEATS:
            raise SetupError(f"turn must be red or blue, not {turn!r}")
        cells = [EMPTY] * 64
        if isinstance(pieces, str):
            rows = []
            for line in pieces.splitlines():
                row = "".join(ch for ch in line if not ch.isspace() and not ch.isdigit())
                if len(row) == 8 and all(ch in KIND_OF for ch in row):
                    rows.append(row)
            if len(rows) != 8:
                raise SetupError("a diagram needs eight rows of eight squares, rank 8 first")
            for r, row in enumerate(rows):
                for f, ch in enumerate(row):
                    cells[(7 - r) * 8 + f] = ch
        else:
            for name, ch in pieces.items():
                sq = SQUARE_INDEX.get(name.strip().lower())
                if sq is None:
                    raise SetupError(f"{name!r} is not a square")
                if ch not in KIND_OF or ch == EMPTY:
                    raise SetupError(f"{ch!r} on {name} is not a piece letter (FBSHX / fbshx)")
                cells[sq] = ch
        if any(r < 0 for r in reserves):
            raise SetupError("reserves cannot be negative")
        board = "".join(cells)
        bases, ships, fighters = count_pieces(board)
        if bases == (0, 0):
            raise SetupError("a position needs a base for at least one player")
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
                result = _decide(prev, bases, ships, fighters, res, quiet, chosen.quiet_limit)
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

    # -- play ------------------------------------------------------------
    def to_act(self, state: PrizmikState) -> frozenset[str]:
        """The side to move, or nobody once the game has a result (stored or PZ-10.6)."""
        if self.outcome(state).over:
            return _NOBODY
        return _ONLY[state.turn]

    def to_move(self, state: PrizmikState) -> str | None:
        if self.outcome(state).over:
            return None
        return state.turn

    def legal_actions(
        self, state: PrizmikState, seat: str | None = None
    ) -> Sequence[PrizmikAction]:
        """All legal actions, by origin square a1..h8, then deploys, moves, captures."""
        if state.result is not None:
            return []
        return list(_iter_actions(state))

    def check(self, state: PrizmikState, action: PrizmikAction, seat: str | None = None) -> Verdict:
        """Legal, or the most specific clause ``action`` breaks with a reason."""
        if state.result is None:
            board = state.board
            o = action.origin
            t = action.target
            if type(o) is int and type(t) is int and 0 <= o < 64 and 0 <= t < 64:
                side = 0 if state.turn == "red" else 1
                k = OWN[side].get(board[o])
                kind = action.kind
                if kind == "move":
                    if board[t] == EMPTY and k is not None:
                        if k == FIGHTER:
                            if t in NEIGH8[o]:
                                return LEGAL
                        elif k in (STACK, SHIP):
                            if t in NEIGH8[o]:
                                return LEGAL
                            mid = JUMP2[o].get(t)
                            if mid is not None and board[mid] == EMPTY:
                                return LEGAL
                elif kind == "capture":
                    ek = ENEMY[side].get(board[t])
                    if k in (STACK, SHIP):
                        if (ek == BASE or (ek == FLEET and state.variants.fleet_capturable)) and (
                            t in NEIGH8[o]
                        ):
                            return LEGAL
                    elif k == FIGHTER:
                        if ek in (STACK, SHIP):
                            if t in ORTHO4[o]:
                                return LEGAL
                        elif ek == FIGHTER and t in DIAG4[o]:
                            return LEGAL
                elif kind == "deploy" and board[t] == EMPTY:
                    if k == FLEET:
                        if t in FLEET_DEPLOY[side][o]:
                            return LEGAL
                    elif k == STACK and t in ORTHO4[o]:
                        return LEGAL
        return Verdict((self._explain(state, action),))

    def apply(
        self, state: PrizmikState, action: PrizmikAction, seat: str | None = None
    ) -> PrizmikState:
        """The state after ``action`` (assumed legal); ``state`` is not touched."""
        board = state.board
        o = action.origin
        t = action.target
        p = board[o]
        side = 0 if state.turn == "red" else 1
        bases = state.bases
        ships = state.ships
        fighters = state.fighters
        reserves = state.reserves
        quiet = state.quiet + 1
        kind = action.kind
        fighter = CHAR[side][FIGHTER]
        if kind == "move":
            if o < t:
                board = board[:o] + EMPTY + board[o + 1 : t] + p + board[t + 1 :]
            else:
                board = board[:t] + p + board[t + 1 : o] + EMPTY + board[o + 1 :]
            arrived = p == fighter
        else:
            if kind == "deploy":
                if KIND_OF[p] == FLEET:
                    left, right = CHAR[side][BASE], CHAR[side][STACK]
                    arrived = False
                else:
                    left, right = CHAR[side][SHIP], fighter
                    fighters = (
                        (fighters[0] + 1, fighters[1])
                        if side == 0
                        else (fighters[0], fighters[1] + 1)
                    )
                    arrived = True
            else:  # capture
                left, right = EMPTY, p
                arrived = p == fighter
                quiet = 0
                vk = KIND_OF[board[t]]
                if side == 0:
                    if vk == BASE:
                        bases = (bases[0], bases[1] - 1)
                    elif vk == FIGHTER:
                        fighters = (fighters[0], fighters[1] - 1)
                    else:
                        ships = (ships[0], ships[1] - 1)
                        if vk == FLEET:
                            bases = (bases[0], bases[1] - 1)
                else:
                    if vk == BASE:
                        bases = (bases[0] - 1, bases[1])
                    elif vk == FIGHTER:
                        fighters = (fighters[0] - 1, fighters[1])
                    else:
                        ships = (ships[0] - 1, ships[1])
                        if vk == FLEET:
                            bases = (bases[0] - 1, bases[1])
            if o < t:
                board = board[:o] + left + board[o + 1 : t] + right + board[t + 1 :]
            else:
                board = board[:t] + right + board[t + 1 : o] + left + board[o + 1 :]
        if arrived:
            home = FAR_HOME[side][t]
            if home >= 0 and reserves[side] and board[home] == EMPTY:
                # PZ-7.1/7.2: the fighter leaves t and a reserve fleet lands on home.
                fleet = CHAR[side][FLEET]
                if home < t:
                    board = board[:home] + fleet + board[home + 1 : t] + EMPTY + board[t + 1 :]
                else:
                    board = board[:t] + EMPTY + board[t + 1 : home] + fleet + board[home + 1 :]
                if side == 0:
                    fighters = (fighters[0] - 1, fighters[1])
                    ships = (ships[0] + 1, ships[1])
                    bases = (bases[0] + 1, bases[1])
                    reserves = (reserves[0] - 1, reserves[1])
                else:
                    fighters = (fighters[0], fighters[1] - 1)
                    ships = (ships[0], ships[1] + 1)
                    bases = (bases[0], bases[1] + 1)
                    reserves = (reserves[0], reserves[1] - 1)
                quiet = 0
        # PZ-10.8: the order of end checks; the common case is decided by the
        # first test (both sides keep a base and a way to capture one).
        opp = 1 - side
        limit = state.variants.quiet_limit
        if (
            bases[opp]
            and (ships[opp] or (fighters[opp] and reserves[opp]))
            and (ships[side] or (fighters[side] and reserves[side]))
            and not (limit and quiet >= limit)
        ):
            result = state.result
        else:
            result = state.result or _decide(side, bases, ships, fighters, reserves, quiet, limit)
        return PrizmikState(
            board,
            "blue" if side == 0 else "red",
            state.ply + 1,
            reserves,
            bases,
            ships,
            fighters,
            quiet,
            state.variants,
            state.ruleset,
            result,
        )

    _memo: tuple[PrizmikState, Outcome] | None = None

    def outcome(self, state: PrizmikState) -> Outcome:
        """The stored by-rule result, else PZ-10.6 if the side to move is stuck, else ongoing."""
        if state.result is not None:
            return state.result
        memo = self._memo  # one entry, keyed by identity: to_move and outcome ask in turn
        if memo is not None and memo[0] is state:
            return memo[1]
        result = self._outcome(state)
        self._memo = (state, result)
        return result

    def _outcome(self, state: PrizmikState) -> Outcome:
        if not _has_action(state):
            mover = state.turn
            other = "blue" if mover == "red" else "red"
            if state.variants.no_legal_action == "draw":
                return Outcome(
                    "draw", None, NO_LEGAL_ACTION, f"{mover} has no legal action on their turn"
                )
            return Outcome(
                "win", other, NO_LEGAL_ACTION, f"{mover} has no legal action on their turn"
            )
        return ONGOING

    # -- explaining illegal actions ---------------------------------------
    def _explain(self, state: PrizmikState, act: PrizmikAction) -> Violation:
        """The most specific clause an illegal ``act`` breaks, with a plain-words reason."""
        result = self.outcome(state)
        if result.over:
            decided = f"{result.winner} won" if result.status == "win" else "it was drawn"
            return Violation(
                GAME_OVER, f"the game is over: {decided} by {result.clause} ({result.reason})"
            )
        kind = act.kind
        o, t = act.origin, act.target
        if kind not in SEPARATORS:
            return Violation(
                NOTATION_SIGNS,
                f"{kind!r} is not an action: use deploy (>), move (-) or capture (x)",
            )
        if not (type(o) is int and type(t) is int and 0 <= o < 64 and 0 <= t < 64):
            return Violation(
                "PZ-9.1", f"squares must be numbered 0 (a1) to 63 (h8), not {o!r} and {t!r}"
            )
        board = state.board
        mover = state.turn
        side = 0 if mover == "red" else 1
        on, tn = SQUARE_NAMES[o], SQUARE_NAMES[t]
        p, q = board[o], board[t]
        if p == EMPTY:
            return Violation(OWN_PIECES, f"there is no piece on {on} for {mover} to act with")
        if SIDE_OF[p] != side:
            return Violation(
                OWN_PIECES,
                f"{on} holds a {piece_name(p)}; {mover} may act only with {mover} pieces",
            )
        k = KIND_OF[p]
        what = f"the {piece_name(p)} on {on}"
        qk = KIND_OF[q]
        q_enemy = q != EMPTY and SIDE_OF[q] != side
        verb = {"deploy": "deploy to", "move": "move to", "capture": "capture on"}[kind]
        head = f"{what} cannot {verb} {tn}"

        # A sign that does not fit what the target holds (PZ-9.4), when the
        # fitting sign would make the action legal.
        if kind != "capture" and q_enemy:
            alt = ACTIONS[("capture", o, t)]
            if self._is_legal(state, alt):
                return Violation(
                    SEPARATOR_FITS,
                    f"{head}: {tn} holds a {piece_name(q)}; write {notation(alt)} to capture it",
                )
        if kind == "capture" and q == EMPTY:
            alts = [
                ACTIONS[(k2, o, t)]
                for k2 in ("move", "deploy")
                if self._is_legal(state, ACTIONS[(k2, o, t)])
            ]
            if alts:
                hint = " or ".join(f"{notation(a)} to {a.kind}" for a in alts)
                return Violation(
                    SEPARATOR_FITS, f"{head}: there is nothing on {tn} to capture; write {hint}"
                )

        if kind == "deploy":
            if k == BASE:
                return Violation(
                    DEPLOY_WHO, f"{what} cannot deploy: a lone base has no ship left in it"
                )
            if k == SHIP:
                return Violation(
                    DEPLOY_WHO, f"{what} cannot deploy: a lone ship has no fighter nested in it"
                )
            if k == FIGHTER:
                return Violation(DEPLOY_WHO, f"{what} cannot deploy: a fighter holds nothing")
            if k == FLEET:
                allowed = FLEET_DEPLOY[side][o]
                if t not in allowed:
                    return Violation(
                        DEPLOY_FLEET,
                        f"{head}: a full fleet deploys its ship stack one step left, right or "
                        f"forward (toward rank {FAR_RANK[side] + 1}), that is to {_names(allowed)}",
                    )
                return Violation(
                    DEPLOY_FLEET,
                    f"{head}: {tn} is occupied by a {piece_name(q)}; a deploy needs an empty "
                    "square",
                )
            # ship stack
            if t not in ORTHO4[o]:
                return Violation(
                    DEPLOY_STACK,
                    f"{head}: a ship stack deploys its fighter one step left, right, forward "
                    f"or back, that is to {_names(ORTHO4[o])}",
                )
            return Violation(
                DEPLOY_STACK,
                f"{head}: {tn} is occupied by a {piece_name(q)}; a deploy needs an empty square",
            )

        if kind == "move":
            if k in (BASE, FLEET):
                return Violation(
                    NO_MOVE_BASES,
                    f"{what} cannot move: "
                    + (
                        "a base never moves"
                        if k == BASE
                        else "a full fleet never moves (it may deploy its ship stack instead)"
                    ),
                )
            clause = MOVE_FIGHTER if k == FIGHTER else MOVE_SHIP
            mid = JUMP2[o].get(t) if k != FIGHTER else None
            if t not in NEIGH8[o] and mid is None:
                how = (
                    "a fighter moves exactly one step in any direction"
                    if k == FIGHTER
                    else "a ship moves one step in any direction or two steps straight along "
                    "a rank or file"
                )
                return Violation(clause, f"{head}: {how}")
            if q != EMPTY:
                if not q_enemy:
                    extra = (
                        "; a ship never takes a fighter back in"
                        if k == SHIP and qk == FIGHTER
                        else ""
                    )
                    return Violation(
                        EMPTY_ONLY,
                        f"{head}: {tn} is occupied by {mover}'s own {KIND_NAMES[qk]}; pieces "
                        f"only move onto empty squares{extra}",
                    )
                return Violation(
                    clause,
                    f"{head}: {tn} is occupied by a {piece_name(q)}; a move needs an empty square",
                )
            if mid is not None and board[mid] != EMPTY:
                return Violation(
                    MOVE_SHIP,
                    f"{head}: the middle square {SQUARE_NAMES[mid]} is occupied by a "
                    f"{piece_name(board[mid])}",
                )

        if kind == "capture":
            if q == EMPTY:
                return Violation(CAPTURE_GENERAL, f"{head}: there is nothing on {tn} to capture")
            if not q_enemy:
                return Violation(
                    CAPTURE_GENERAL,
                    f"{head}: {tn} holds {mover}'s own {KIND_NAMES[qk]}; only enemy pieces can "
                    "be captured",
                )
            target = f"the {piece_name(q)} on {tn}"
            if k in (BASE, FLEET):
                return Violation(
                    WHO_CAPTURES,
                    f"{what} cannot capture: lone bases and full fleets never capture",
                )
            if k in (STACK, SHIP):
                if qk == FIGHTER and k == STACK:
                    return Violation(
                        CAPTURE_SHIP_ONLY_BASES,
                        f"{what} cannot capture {target}: a ship stack never captures a "
                        "fighter; ships capture only bases",
                    )
                if qk in (FIGHTER, SHIP, STACK):
                    return Violation(
                        CAPTURE_SHIP_ONLY_BASES,
                        f"{what} cannot capture {target}: ships capture only bases",
                    )
                if qk == FLEET and not state.variants.fleet_capturable:
                    return Violation(
                        FLEET_CAPTURABLE,
                        f"{what} cannot capture {target}: full fleets cannot be captured in this "
                        "game (variant fleet_capturable=no)",
                    )
                if t not in NEIGH8[o]:
                    return Violation(
                        CAPTURE_SHIP_BASE,
                        f"{what} cannot capture {target}: a ship captures a base only from one "
                        f"of the eight squares next to it, and {tn} is not next to {on}",
                    )
            if k == FIGHTER:
                if qk in (BASE, FLEET):
                    return Violation(
                        CAPTURE_FIGHTER_NO_BASE,
                        f"{what} cannot capture {target}: fighters never capture bases or "
                        "full fleets",
                    )
                if qk in (STACK, SHIP):
                    where = "diagonal from" if t in DIAG4[o] else "not next to"
                    return Violation(
                        CAPTURE_FIGHTER_SHIP,
                        f"{what} cannot capture {target}: a fighter captures a ship only from "
                        f"the next square along a rank or file, and {tn} is {where} {on}",
                    )
                if qk == FIGHTER:
                    where = "straight beside" if t in ORTHO4[o] else "not next to"
                    return Violation(
                        CAPTURE_FIGHTER_FIGHTER,
                        f"{what} cannot capture {target}: a fighter captures a fighter only "
                        f"from a diagonally adjacent square, and {tn} is {where} {on}",
                    )
        raise AssertionError(f"no violation found for illegal action {act!r}")  # pragma: no cover

    def _is_legal(self, state: PrizmikState, act: PrizmikAction) -> bool:
        """Whether ``act`` is legal, by membership in the generated actions (slow path only)."""
        return act in set(_iter_actions(state))

    # -- notation --------------------------------------------------------
    def parse(self, text: str) -> PrizmikAction:
        """Read ``c1>c2`` / ``c2-c4`` / ``c4xd5``, ignoring case and spaces (PZ-9)."""
        return parse(text)

    def notation(self, action: PrizmikAction) -> str:
        """Canonical lower-case text of ``action`` (PZ-9.3)."""
        return notation(action)

    # -- position strings ------------------------------------------------
    def position_text(self, state: PrizmikState) -> str:
        """``2f1f1f2/8/8/8/8/8/8/2F1F1F2 r 3/3 0 0``: ranks 8 to 1 in board letters with runs
        of empty squares as digits, the side to move (r, b), reserves red/blue, the ply
        and the actions since the last capture or promotion (PZ-9.5)."""
        ranks = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for ch in state.board[rank * 8 : rank * 8 + 8]:
                if ch == EMPTY:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + ch
                empty = 0
            ranks.append(row + (str(empty) if empty else ""))
        return (
            f"{'/'.join(ranks)} {state.turn[0]} {state.reserves[0]}/{state.reserves[1]} "
            f"{state.ply} {state.quiet}"
        )

    def read_position(self, text: str, setup: Setup) -> PrizmikState:
        """A position string (``position_text``) as a position, checked like any set-up
        position (PZ-9.5)."""
        parts = text.split()
        if len(parts) != 5:
            raise SetupError(
                "a PRIZMIK position is BOARD SIDE RESERVES PLY QUIET, e.g. "
                "'2f1f1f2/8/8/8/8/8/8/2F1F1F2 r 3/3 0 0'"
            )
        board, side, reserves, ply, quiet = parts
        rows = board.split("/")
        if len(rows) != 8:
            raise SetupError("a PRIZMIK board has eight ranks separated by /")
        diagram = []
        for row in rows:
            cells = ""
            for ch in row:
                cells += EMPTY * int(ch) if ch.isdigit() else ch
            if len(cells) != 8:
                raise SetupError(f"rank {row!r} does not hold eight squares")
            diagram.append(cells)
        if side not in ("r", "b"):
            raise SetupError(f"the side to move is r or b, not {side!r}")
        counts = reserves.split("/")
        if (
            len(counts) != 2
            or not all(c.isdigit() for c in counts)
            or not ply.isdigit()
            or not quiet.isdigit()
        ):
            raise SetupError("reserves are RED/BLUE counts; ply and quiet are whole numbers")
        state = self.position(
            "\n".join(diagram),
            turn="red" if side == "r" else "blue",
            reserves=(int(counts[0]), int(counts[1])),
            variants=setup.variants,
            ply=int(ply),
            quiet=int(quiet),
        )
        return msgspec.structs.replace(state, ruleset=setup.ruleset or self.rulesets[0])

    # -- presentation ----------------------------------------------------
    def render(self, state: PrizmikState, viewer: Viewer = REFEREE) -> str:
        """The board for a terminal, rank 8 at the top, with a legend and the status."""
        board = state.board
        files = "    " + " ".join(FILES)
        lines = [files]
        for rank in range(7, -1, -1):
            row = " ".join(board[rank * 8 : rank * 8 + 8])
            lines.append(f" {rank + 1}  {row}  {rank + 1}")
        lines.append(files)
        lines.append("")
        lines.append(
            "Legend: red upper case, blue lower case. F full fleet (base+ship+fighter), "
            "B lone base,"
        )
        lines.append("        S ship stack (ship+fighter), H lone ship, X lone fighter, . empty")
        lines.append(f"Reserve fleets: red {state.reserves[0]}, blue {state.reserves[1]}")
        result = self.outcome(state)
        if result.over:
            decided = f"{result.winner} wins" if result.status == "win" else "draw"
            lines.append(f"Ply {state.ply}. Result: {decided} by {result.clause}: {result.reason}")
        else:
            lines.append(
                f"Ply {state.ply}."
            )  # whose turn: the faces say it, with the player's name
        changed = {
            k: v for k, v in state.variants.as_dict().items() if v != DEFAULT_VARIANTS.as_dict()[k]
        }
        if changed:
            lines.append("Variants: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
        return "\n".join(lines)

    def observe(self, state: PrizmikState, viewer: Viewer = REFEREE) -> dict[str, Any]:
        """The position as JSON-ready data: pieces by square, side to move, counts, result.
        Everything in PRIZMIK is on the board, so every viewer sees the same."""
        result = self.outcome(state)
        return {
            "game": self.name,
            "ruleset": state.ruleset,
            "board": {
                SQUARE_NAMES[sq]: piece_name(ch) for sq, ch in enumerate(state.board) if ch != EMPTY
            },
            "to_move": None if result.over else state.turn,
            "ply": state.ply,
            "reserves": {"red": state.reserves[0], "blue": state.reserves[1]},
            "counts": {
                seat: {
                    "bases": state.bases[i],
                    "ship_holders": state.ships[i],
                    "lone_fighters": state.fighters[i],
                }
                for i, seat in enumerate(SEATS)
            },
            "quiet": state.quiet,
            "variants": state.variants.as_dict(),
            "result": result.result,
            "outcome": {
                "status": result.status,
                "winner": result.winner,
                "clause": result.clause,
                "reason": result.reason,
            },
        }

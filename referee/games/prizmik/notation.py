"""Reading and writing PRIZMIK actions (PZ-9).

Every syntactically valid action (64 origins x 3 separators x 64 targets) is
built once at import and interned: ``parse`` of canonical text is one dict
look-up and returns a shared frozen object, and move generation hands out the
same objects. Non-canonical text (upper case, spaces) is normalised once and
then remembered in a bounded cache.
"""

from __future__ import annotations

import re
from typing import Final

from referee.errors import ActionSyntaxError, SetupError, quoted
from referee.games.prizmik.board import EMPTY, SQUARE_INDEX, SQUARE_NAMES
from referee.games.prizmik.model import SEPARATORS, ActionKind, PrizmikAction, PrizmikState

__all__ = [
    "ACTIONS",
    "NOTATION_CLAUSE",
    "POSITION_CLAUSE",
    "action",
    "notation",
    "parse",
    "position_text",
    "read_position_fields",
    "recorded_position",
]

NOTATION_CLAUSE: Final = "PZ-9.1"
"""The clause named when text cannot be read as an action."""

_KINDS: Final[tuple[ActionKind, ...]] = ("deploy", "move", "capture")
_KIND_OF_SEPARATOR: Final[dict[str, ActionKind]] = {SEPARATORS[k]: k for k in _KINDS}


def _tables() -> tuple[dict[tuple[str, int, int], PrizmikAction], dict[str, PrizmikAction]]:
    """Every well-formed action by ``(kind, origin, target)`` and by its canonical text, built
    in one pass: every ``referee`` command imports the game and pays for these."""
    actions: dict[tuple[str, int, int], PrizmikAction] = {}
    canonical: dict[str, PrizmikAction] = {}
    for kind in _KINDS:
        separator = SEPARATORS[kind]
        for origin in range(64):
            head = SQUARE_NAMES[origin] + separator
            for target in range(64):
                act = PrizmikAction(kind, origin, target)
                actions[kind, origin, target] = act
                canonical[head + SQUARE_NAMES[target]] = act
    return actions, canonical


_TABLES: Final = _tables()
ACTIONS: Final = _TABLES[0]
"""Every well-formed action, keyed by ``(kind, origin, target)``."""
_CANONICAL: Final = _TABLES[1]
"""The same actions by their canonical text (``c1>c2``), which ``parse`` reads at once."""

_CACHE: dict[str, PrizmikAction] = dict(_CANONICAL)
_CACHE_LIMIT: Final = len(_CANONICAL) + 50_000

_SPACES: Final = re.compile(r"\s+")


def action(kind: ActionKind, origin: str | int, target: str | int) -> PrizmikAction:
    """The interned action for ``kind`` between two squares given by name or index."""
    o = SQUARE_INDEX[origin] if isinstance(origin, str) else origin
    t = SQUARE_INDEX[target] if isinstance(target, str) else target
    return ACTIONS[(kind, o, t)]


def notation(act: PrizmikAction) -> str:
    """Canonical text of ``act``: lower case, no spaces (PZ-9.3)."""
    try:
        return f"{SQUARE_NAMES[act.origin]}{SEPARATORS[act.kind]}{SQUARE_NAMES[act.target]}"
    except (IndexError, KeyError, TypeError) as exc:
        raise ValueError(f"not a PRIZMIK action: {act!r}") from exc


def parse(text: str) -> PrizmikAction:
    """Read an action, ignoring case and spaces; raise ``ActionSyntaxError`` (PZ-9.1)."""
    try:
        return _CACHE[text]
    except (KeyError, TypeError):
        pass
    act = _parse_slow(text)
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
        _CACHE.update(_CANONICAL)
    _CACHE[text] = act
    return act


def _parse_slow(text: object) -> PrizmikAction:
    """Normalise ``text`` and read it, explaining precisely what is wrong if it fails."""
    if not isinstance(text, str):
        raise ActionSyntaxError(repr(text), "an action must be text", NOTATION_CLAUSE)
    compact = _SPACES.sub("", text).lower()
    found = _CANONICAL.get(compact)
    if found is not None:
        return found
    if not compact:
        raise ActionSyntaxError(text, "the text is empty", NOTATION_CLAUSE)
    # Find the separator to give a useful reason. A square is a letter and a
    # digit, so a separator sits at index 2 of well-formed text; 'x' doubles as
    # a letter, which is why we look at that position rather than search.
    if len(compact) != 5:
        raise ActionSyntaxError(
            text,
            "expected an origin square, one of the signs > - x, and a target square, "
            "such as c1>c2, c2-c4 or c4xd5",
            NOTATION_CLAUSE,
        )
    origin, sep, target = compact[:2], compact[2], compact[3:]
    for label, sq in (("origin", origin), ("target", target)):
        if sq not in SQUARE_INDEX:
            raise ActionSyntaxError(
                text,
                f"the {label} {quoted(sq)} is not a square: "
                "use a file a-h and a rank 1-8, such as c2",
                NOTATION_CLAUSE,
            )
    if sep not in _KIND_OF_SEPARATOR:
        raise ActionSyntaxError(
            text,
            f"{quoted(sep)} is not an action sign: use > to deploy, - to move or x to capture",
            NOTATION_CLAUSE,
        )
    # Every combination of two valid squares and a valid sign is canonical,
    # so reaching this line means the tables above are inconsistent.
    raise AssertionError(f"unreachable: {compact!r}")  # pragma: no cover


def position_text(state: PrizmikState) -> str:
    """``2f1f1f1/8/8/8/8/8/8/2F1F1F1 r 3/3 0 0``: ranks 8 to 1 in board letters with runs
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


_COUNT: Final = re.compile(r"[0-9]+")
"""A count in a position string: the digits 0-9 only (``str.isdigit`` also takes ``²``)."""
_RUNS: Final = "12345678"
"""The lengths a run of empty squares can have on a rank of eight, one digit each."""
POSITION_CLAUSE: Final = "PZ-9.5"
"""The clause named when a position string cannot be read."""


_ADJACENT_RUNS: Final = re.compile(r"[0-9]{2,}|0")


def recorded_position(text: str) -> str:
    """A position string stored before PZ-9.5 refused odd digits, in today's form: the
    earlier reader added each digit's empty squares, so runs written side by side (``11``)
    or a ``0`` meant their sum; each such group becomes the one digit of that sum (a board
    whose ranks still do not hold eight squares is left to ``read_position_fields``)."""
    parts = text.split(" ", 1)
    if len(parts) != 2:
        return text
    board = _ADJACENT_RUNS.sub(lambda m: _run(sum(map(int, m.group()))), parts[0])
    return f"{board} {parts[1]}"


def _run(empty: int) -> str:
    return "" if empty == 0 else str(empty)


def read_position_fields(text: str) -> tuple[str, str, tuple[int, int], int, int]:
    """The fields of a position string (``position_text``): the board as a diagram of eight
    rows (rank 8 first), the side to move, the reserves, the ply and the quiet count;
    ``SetupError`` names what is malformed (PZ-9.5). A run of empty squares is one digit
    1-8, never next to another digit; the counts are written in the digits 0-9."""
    parts = text.split()
    if len(parts) != 5:
        raise SetupError(
            "a PRIZMIK position is BOARD SIDE RESERVES PLY QUIET, e.g. "
            f"'2f1f1f1/8/8/8/8/8/8/2F1F1F1 r 3/3 0 0' ({POSITION_CLAUSE})"
        )
    board, side, reserves, ply, quiet = parts
    rows = board.split("/")
    if len(rows) != 8:
        raise SetupError(f"a PRIZMIK board has eight ranks separated by / ({POSITION_CLAUSE})")
    diagram = []
    for row in rows:
        cells = ""
        after_run = False
        for ch in row:
            if ch in _RUNS and not after_run:
                cells += EMPTY * int(ch)
                after_run = True
                continue
            if ch.isdigit() or ch.isnumeric():
                raise SetupError(
                    f"rank {quoted(row)}: a run of empty squares is written as one digit 1 to 8, "
                    f"and two runs are never written side by side ({POSITION_CLAUSE})"
                )
            cells += ch
            after_run = False
        if len(cells) != 8:
            raise SetupError(f"rank {quoted(row)} does not hold eight squares ({POSITION_CLAUSE})")
        diagram.append(cells)
    if side not in ("r", "b"):
        raise SetupError(f"the side to move is r or b, not {quoted(side)} ({POSITION_CLAUSE})")
    counts = reserves.split("/")
    if len(counts) != 2 or not all(_COUNT.fullmatch(c) for c in (*counts, ply, quiet)):
        raise SetupError(
            "reserves are RED/BLUE counts; ply and quiet are whole numbers, in the digits 0-9 "
            f"({POSITION_CLAUSE})"
        )
    turn = "red" if side == "r" else "blue"
    return "\n".join(diagram), turn, (int(counts[0]), int(counts[1])), int(ply), int(quiet)

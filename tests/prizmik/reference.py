"""An independent reference model of PRIZMIK, for differential tests.

Written from the rules sheet (/work/shared/rules/prizmik.txt) and the project's named
interpretations (PZ-10.n of ``referee/games/prizmik/rulebook.toml``) alone, without reading
the engine, in a deliberately different style: a dict from (file, rank) to (colour, nest
name), actions as their written text, one plain function per question. It imports nothing
of the project, so that a misreading in the engine cannot leak into it.

What the sheet says, in short (the S-numbers are used below):

* S1 two players, red (rank 1, moving up) and blue (rank 8, moving down); red acts first and
  each turn is exactly one deploy, move or capture; no passing;
* S2 nests: full fleet (base, ship, fighter), ship stack (ship, fighter); alone: base, ship,
  fighter; a nest is one piece on one square and moves whole;
* S3 each player starts with three full fleets on the back rank and three in reserve;
* S4 a full fleet deploys its ship stack to an empty square left, right or forward, the
  base staying; a ship stack deploys its fighter to an empty square orthogonally next to it,
  the ship staying;
* S5 bases and full fleets never move; ships and ship stacks move one step any way or two
  steps straight over an empty middle square; fighters one step any way; always onto an
  empty square;
* S6 ships and ship stacks take bases from next to them and step in; fighters take ships
  and ship stacks orthogonally, fighters diagonally, and step in; fighters never take bases;
* S7 a lone fighter arriving on the far rank by a move, deploy or capture, with the home
  square of its file empty and a reserve left, becomes a full fleet on that home square;
* S8 taking every enemy base on the board wins, and so does the opponent's being unable
  ever to take a base.

Where the sheet is silent or open, the model takes the project's interpretations, each
named where it is used and each one with a choice a ``Table`` field: the starting files
(PZ-10.1), full fleets as bases (PZ-10.3), one-step fleet deploys (PZ-10.12), adjacency as
the eight neighbours (PZ-10.2), who captures (PZ-10.9), the far-rank step (PZ-10.5), the
waiting fighter (PZ-10.15), the impossibility tests (PZ-10.7, PZ-10.13), the order of the
end tests (PZ-10.8), the quiet limit (PZ-10.11) and the player with no action (PZ-10.6).
The position line (PZ-9.5) is the project's notation, written and read here on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["Illegal", "Position", "Table", "actions", "play", "position_line", "read_line"]

FILES = "abcdefgh"
KING = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
LETTER = {"fleet": "F", "base": "B", "stack": "S", "ship": "H", "fighter": "X"}
HAS_BASE = ("fleet", "base")
HAS_SHIP = ("fleet", "stack", "ship")

Square = tuple[int, int]  # (file 0-7, rank 1-8)
Piece = tuple[str, str]  # (colour, nest name)


class Illegal(ValueError):
    """The model refuses an action."""


@dataclass(frozen=True)
class Table:
    """The table's choices where the sheet is open (PZ-10.n, defaults as the project's)."""

    setup_files: str = "ceg"  # PZ-10.1
    fleet_capturable: bool = True  # PZ-10.3
    no_legal_action: str = "loss"  # PZ-10.6: loss or draw
    quiet_limit: int = 0  # PZ-10.11: 0 is none
    far_rank_step: bool = True  # PZ-10.5
    impossible_test: str = "pieces"  # PZ-10.13: pieces or files
    waiting_promotion: bool = False  # PZ-10.15


@dataclass(frozen=True)
class Position:
    """Pieces on the board, whose turn, reserves (red, blue), actions played, actions
    since the last capture or promotion, and the result once the game is over as
    (status, winner, clause)."""

    pieces: dict[Square, Piece]
    to_act: str
    reserves: tuple[int, int]
    played: int
    quiet: int
    table: Table
    ended: tuple[str, str | None, str] | None = None


def other(colour: str) -> str:
    return "blue" if colour == "red" else "red"


def side(colour: str) -> int:
    return 0 if colour == "red" else 1


def forward(colour: str) -> int:
    return 1 if colour == "red" else -1  # S1


def home_rank(colour: str) -> int:
    return 1 if colour == "red" else 8  # S1, S3


def far_rank(colour: str) -> int:
    return 8 if colour == "red" else 1  # S7


def name(sq: Square) -> str:
    return f"{FILES[sq[0]]}{sq[1]}"


def square(text: str) -> Square:
    return (FILES.index(text[0]), int(text[1]))


def on_board(sq: Square) -> bool:
    return 0 <= sq[0] < 8 and 1 <= sq[1] <= 8


def start(table: Table = Table()) -> Position:
    """Three full fleets per side on the back ranks, on the files of PZ-10.1 (S3)."""
    pieces: dict[Square, Piece] = {}
    for letter in table.setup_files:
        pieces[(FILES.index(letter), 1)] = ("red", "fleet")
        pieces[(FILES.index(letter), 8)] = ("blue", "fleet")
    return Position(pieces, "red", (3, 3), 0, 0, table)


def actions(pos: Position) -> set[str]:
    """Every legal action of the player to act, as text (nothing once the game is over)."""
    if pos.ended:
        return set()
    found: set[str] = set()
    for sq, (colour, nest) in pos.pieces.items():
        if colour == pos.to_act:
            for df, dr, sign in deploys(nest, colour) + moves(nest) + captures(pos, sq, nest):
                target = (sq[0] + df, sq[1] + dr)
                if on_board(target) and (sign == "x" or clear(pos, sq, target)):
                    found.add(f"{name(sq)}{sign}{name(target)}")
    return found


def deploys(nest: str, colour: str) -> list[tuple[int, int, str]]:
    """S4: a fleet's ship stack one step left, right or forward (PZ-10.12); a stack's
    fighter one step along its rank or file."""
    if nest == "fleet":
        return [(-1, 0, ">"), (1, 0, ">"), (0, forward(colour), ">")]
    if nest == "stack":
        return [(df, dr, ">") for df, dr in ROOK]
    return []


def moves(nest: str) -> list[tuple[int, int, str]]:
    """S5: ships and stacks one step any way or two straight; fighters one step any way."""
    steps = [(df, dr, "-") for df, dr in KING] if nest in ("stack", "ship", "fighter") else []
    if nest in ("stack", "ship"):
        steps += [(2 * df, 2 * dr, "-") for df, dr in ROOK]
    return steps


def captures(pos: Position, sq: Square, nest: str) -> list[tuple[int, int, str]]:
    """S6: ships and stacks take bases (and full fleets, PZ-10.3) on any of the eight
    squares next to them (PZ-10.2); a lone fighter (PZ-10.9) takes ships and stacks
    straight on and fighters diagonally."""
    found = []
    for df, dr in KING:
        piece = pos.pieces.get((sq[0] + df, sq[1] + dr))
        if piece is None or piece[0] == pos.to_act:
            continue
        prey, diagonal = piece[1], bool(df and dr)
        if nest in ("stack", "ship"):
            takes = prey == "base" or (prey == "fleet" and pos.table.fleet_capturable)
        elif nest == "fighter":
            takes = prey == "fighter" if diagonal else prey in ("stack", "ship")
        else:
            takes = False
        if takes:
            found.append((df, dr, "x"))
    return found


def clear(pos: Position, origin: Square, target: Square) -> bool:
    """Deploys and moves go onto an empty square, and a two-step move passes over an empty
    one (S4, S5)."""
    if target in pos.pieces:
        return False
    if abs(target[0] - origin[0]) == 2 or abs(target[1] - origin[1]) == 2:
        return ((origin[0] + target[0]) // 2, (origin[1] + target[1]) // 2) not in pos.pieces
    return True


def bases(pieces: dict[Square, Piece], colour: str) -> int:
    return sum(1 for c, nest in pieces.values() if c == colour and nest in HAS_BASE)


def cannot_take(pieces: dict[Square, Piece], reserves: tuple[int, int], colour: str) -> bool:
    """PZ-10.7: no ship in any nest, and no lone fighter or no reserve to promote it."""
    mine = [nest for c, nest in pieces.values() if c == colour]
    if any(nest in HAS_SHIP for nest in mine):
        return False
    return "fighter" not in mine or reserves[side(colour)] == 0


def files_closed(pieces: dict[Square, Piece]) -> bool:
    """PZ-10.13: no ship on the board, and a base at one end of every file."""
    if any(nest in HAS_SHIP for _, nest in pieces.values()):
        return False
    for f in range(8):
        ends = [pieces.get((f, 1)), pieces.get((f, 8))]
        if not any(p and p[1] in HAS_BASE for p in ends):
            return False
    return True


def judge(pos: Position, actor: str, took_last: bool) -> Position:
    """The end tests after an action by ``actor``, in the order of PZ-10.8."""
    if took_last:
        return replace(pos, ended=("win", actor, "PZ-8.1"))
    if pos.table.impossible_test == "files" and files_closed(pos.pieces):
        return replace(pos, ended=("draw", None, "PZ-10.13"))
    unable = [cannot_take(pos.pieces, pos.reserves, c) for c in ("red", "blue")]
    if all(unable):
        return replace(pos, ended=("draw", None, "PZ-10.8"))
    if any(unable):
        return replace(pos, ended=("win", "blue" if unable[0] else "red", "PZ-8.2"))
    if pos.table.quiet_limit and pos.quiet >= pos.table.quiet_limit:
        return replace(pos, ended=("draw", None, "PZ-10.11"))
    if not actions(pos):
        if pos.table.no_legal_action == "draw":
            return replace(pos, ended=("draw", None, "PZ-10.6"))
        return replace(pos, ended=("win", other(pos.to_act), "PZ-10.6"))
    return pos


def play(pos: Position, text: str) -> Position:
    """The position after the legal action ``text``; ``Illegal`` when it is not legal."""
    if text not in actions(pos):
        raise Illegal(text)
    me = pos.to_act
    origin, sign, target = square(text[:2]), text[2], square(text[3:])
    pieces = dict(pos.pieces)
    reserves = list(pos.reserves)
    nest = pieces[origin][1]
    if sign == ">":  # S4: what stays behind, what comes out
        pieces[origin] = (me, "base" if nest == "fleet" else "ship")
        pieces[target] = (me, "stack" if nest == "fleet" else "fighter")
    else:  # S5, S6: the piece or nest travels whole; a capture removes what stood there
        del pieces[origin]
        pieces[target] = (me, nest)
    promoted = False
    # S7: an arrival on the far rank; a step along it counts only under PZ-10.5's default
    arrived = sign == ">" or pos.table.far_rank_step or origin[1] != far_rank(me)
    if pieces[target] == (me, "fighter") and target[1] == far_rank(me) and arrived:
        home = (target[0], home_rank(me))
        if home not in pieces and reserves[side(me)] > 0:
            del pieces[target]
            pieces[home] = (me, "fleet")
            reserves[side(me)] -= 1
            promoted = True
    took_last = sign == "x" and bases(pieces, other(me)) == 0
    if pos.table.waiting_promotion and sign != ">" and origin[1] in (1, 8):
        # PZ-10.15: the origin, a home square, is now empty
        owner = "red" if origin[1] == 1 else "blue"
        waiting = (origin[0], far_rank(owner))
        lost = took_last and owner != me
        if pieces.get(waiting) == (owner, "fighter") and reserves[side(owner)] > 0 and not lost:
            del pieces[waiting]
            pieces[origin] = (owner, "fleet")
            reserves[side(owner)] -= 1
            promoted = True
    after = Position(
        pieces,
        other(me),
        (reserves[0], reserves[1]),
        pos.played + 1,
        0 if sign == "x" or promoted else pos.quiet + 1,
        pos.table,
    )
    return judge(after, me, took_last)


def board_letters(pos: Position) -> str:
    """The board as 64 letters, a1 first, rank by rank ('.' empty; capitals red)."""
    out = []
    for r in range(1, 9):
        for f in range(8):
            piece = pos.pieces.get((f, r))
            if piece is None:
                out.append(".")
            else:
                letter = LETTER[piece[1]]
                out.append(letter if piece[0] == "red" else letter.lower())
    return "".join(out)


def position_line(pos: Position) -> str:
    """The one-line position of PZ-9.5."""
    letters = board_letters(pos)
    rows = []
    for r in range(8, 0, -1):
        row, run = "", 0
        for ch in letters[(r - 1) * 8 : r * 8]:
            if ch == ".":
                run += 1
                continue
            row += (str(run) if run else "") + ch
            run = 0
        rows.append(row + (str(run) if run else ""))
    red, blue = pos.reserves
    turn = "r" if pos.to_act == "red" else "b"
    return f"{'/'.join(rows)} {turn} {red}/{blue} {pos.played} {pos.quiet}"


def read_line(line: str, table: Table = Table()) -> Position:
    """A well-formed PZ-9.5 line as a position, judged as if the other side had just acted;
    a side shown with no base on the board has lost by PZ-8.1 whichever side is to act."""
    board, turn, reserves, played, quiet = line.split()
    nests = {v: k for k, v in LETTER.items()}
    pieces: dict[Square, Piece] = {}
    for i, row in enumerate(board.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
                continue
            pieces[(f, 8 - i)] = ("red" if ch.isupper() else "blue", nests[ch.upper()])
            f += 1
    red, blue = (int(n) for n in reserves.split("/"))
    to_act = "red" if turn == "r" else "blue"
    pos = Position(pieces, to_act, (red, blue), int(played), int(quiet), table)
    for colour in ("red", "blue"):
        if bases(pieces, colour) == 0:  # S8: every base of that side is gone, whoever acts
            return judge(pos, other(colour), True)
    return judge(pos, other(to_act), False)

"""``referee table``: an interactive session at the table.

Only text that reads as an entry of the game is judged and recorded; everything
else is a table command (show, legal, check, rules, undo, resign, agree or draw,
adjudicate, dispute, log, help, quit) or is refused with a hint, so a typing
mistake never becomes evidence. Where a game's entry begins with a command's word
(Gammasphere's 'draw', Crystale's 'show CRYSTAL'), the entry wins. Line editing,
history and tab completion (of commands and of the legal entries) come from the
terminal's readline.
"""

from __future__ import annotations

import os
import re
import sys
from typing import TYPE_CHECKING, Any

import typer

from cli.face import GameArg, handled, settings

if TYPE_CHECKING:
    from service.app import RefereeService
    from service.results import PositionView

app = typer.Typer()

COMMANDS = {
    "show": "draw the position again",
    "board": "the whole position (a tall board is not redrawn after each entry)",
    "legal": "list every legal entry",
    "check ENTRY": "would this entry be legal? (nothing is recorded)",
    "SEAT: ENTRY": "an entry by a named seat (when several seats may act)",
    "undo REASON": "retract the last action",
    "resign SEAT": "a seat resigns",
    "agree": "the players agree a draw ('draw' too, where it is not an entry of the game)",
    "adjudicate SEAT|draw REASON": "the referee decides the result",
    "dispute EVENT PLAYER CLAIM": "a player disputes event EVENT",
    "rules CLAUSE": "read a clause (PZ-6.2) or a section (PZ-6)",
    "log": "every event so far",
    "help": "this list",
    "quit": "leave (everything is already stored)",
}
WORDS = sorted({c.split()[0] for c in COMMANDS if not c.startswith("SEAT")} | {"exit", "draw"})


class Painter:
    """Colour where the terminal has it (and ``NO_COLOR`` is not set)."""

    def __init__(self) -> None:
        self.on = (
            sys.stdout.isatty()
            and "NO_COLOR" not in os.environ
            and os.environ.get("TERM") != "dumb"
        )

    def __call__(self, text: str, **style: Any) -> str:
        return typer.style(text, **style) if self.on else text


_LEAD = re.compile(r"(?:check\s+|[^\s:]+:\s+)?")


def completions(typed: str, word_start: int, legal: list[str]) -> list[str]:
    """What may replace the word being typed (from ``word_start``) so that the line so far,
    ``typed``, reads as a table command or a legal entry. Entries are matched against the
    whole line (after ``check`` or ``SEAT:``), so several-word card names and the square
    after a piece complete, not only the first word."""
    lead = _LEAD.match(typed)
    skip = lead.end() if lead is not None else 0
    if word_start < skip:  # still typing 'check' or the seat
        return [w for w in WORDS if w.startswith(typed)]
    entry, done = typed[skip:], typed[skip:word_start]
    found = [o[len(done) :] for o in legal if o.startswith(entry)]
    if not skip and " " not in typed:
        found = [w for w in WORDS if w.startswith(typed)] + found
    return list(dict.fromkeys(found))


def _readline(svc: RefereeService, game_id: str) -> None:
    """Line editing, history and completion of commands and legal entries, on a terminal."""
    if not sys.stdin.isatty():
        return
    try:
        import readline
    except ImportError:  # pragma: no cover - platforms without readline
        return
    cache: dict[str, list[str]] = {}

    def complete(text: str, state: int) -> str | None:
        if state == 0:
            typed = readline.get_line_buffer()[: readline.get_endidx()]
            try:
                legal = svc.legal(game_id).actions
            except Exception:
                legal = []
            cache["m"] = completions(typed, readline.get_begidx(), legal)
        matches = cache.get("m", [])
        return matches[state] if state < len(matches) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" \t")
    readline.parse_and_bind("tab: complete")


TALL = 20  # a board of more lines is redrawn only on 'show' or 'board'
# Games whose position is a long listing (cards, bags, palettes), not a picture: after an
# entry the table answers with one line whatever the listing's length.
LISTINGS = frozenset({"prismatic"})


def draw(pos: PositionView, paint: Painter, *, compact: bool = False) -> None:
    """The position: the whole board, or for a tall board after an entry (``compact``)
    one line with the last action and whose turn it is."""
    from cli.read import header_line, status_line

    if compact and (pos.game in LISTINGS or pos.board.count("\n") + 1 > TALL):
        last = (
            f"last: {paint(pos.last_action, fg='cyan')} (action {pos.standing_actions}); "
            if pos.last_action
            else ""
        )
        status = paint(status_line(pos), fg="yellow" if pos.ended is None else "green", bold=True)
        typer.echo(f"{last}{status}  ('board' shows the whole)")
        return
    typer.echo(paint(header_line(pos), bold=True))
    if pos.last_action:
        typer.echo(f"last: {paint(pos.last_action, fg='cyan')}  (action {pos.standing_actions})")
    typer.echo(pos.board)
    typer.echo(paint(status_line(pos), fg="yellow" if pos.ended is None else "green", bold=True))


def _reopening(how: str) -> str:
    """How an ended game is reopened (REF-2.2): a result reached by rule by retracting the
    action that reached it; a declared one (resignation, agreement, adjudication, penalty)
    only by a ruling on a dispute (REF-4.5)."""
    if how == "rule":
        return "the game is over; 'referee undo' or a dispute can reopen it (REF-2.2)"
    return (
        f"the game is over by {how}; only a ruling on a dispute can set that result aside "
        "(REF-2.2, REF-4.5)"
    )


@app.command()
def table(game: GameArg) -> None:
    """Play at the table: shows the position, reads entries, explains rejections.

    Type an entry to record it ('p2: ENTRY' names the seat when several may act);
    'check ENTRY' asks whether it would be legal; 'help' lists the table commands.

    \b
    Example:
      referee table $id
    """
    with handled():
        # the game stays folded between entries: each entry and each redraw reads only the
        # events stored since (another referee's too), not the whole game again
        svc = settings.service(keep_games=True)
        game_id = svc.resolve(game)
        paint = Painter()
        interactive = sys.stdin.isatty()
        _readline(svc, game_id)
        view = svc.load(game_id)
        rules = view.rules
        shown = -1
        while True:
            pos = svc.position(game_id)
            if pos.version != shown:
                draw(pos, paint, compact=shown != -1)
                shown = pos.version
            if pos.ended is not None:
                typer.echo(_reopening(pos.ended.how))
                return
            try:
                line = input(f"{game_id}> " if interactive else "").strip()
            except EOFError:
                typer.echo("")
                return
            except KeyboardInterrupt:
                typer.echo("")
                return
            if not line:
                continue
            if _command(svc, game_id, line, paint, rules):
                return


def _is_entry(rules: Any, line: str) -> bool:
    """Whether ``line`` reads as an entry of the game: an entry wins over a table command
    of the same word (Gammasphere's 'draw', Crystale's 'show CRYSTAL')."""
    from referee.errors import RefereeError

    try:
        rules.parse(line)
    except (RefereeError, ValueError, LookupError):
        return False
    return True


def _command(svc: RefereeService, game_id: str, line: str, paint: Painter, rules: Any) -> bool:
    """Carry out one line; True when the session ends."""
    from referee.errors import RefereeError
    from service.wording import event_line, safe_text

    word, _, rest = line.partition(" ")
    word = word.lower()
    rest = rest.strip()
    if word in WORDS and word not in ("quit", "exit", "q", "help") and _is_entry(rules, line):
        word = ""  # recorded below, as the entry it is
    try:
        if word in ("quit", "exit", "q"):
            return True
        if word == "help":
            for usage, what in COMMANDS.items():
                typer.echo(f"  {usage:<30} {what}")
            typer.echo("  anything else is read as an entry of the game")
        elif word in ("show", "board"):
            draw(svc.position(game_id), paint)
        elif word == "legal":
            from cli.read import legal_lines

            legal = svc.legal(game_id)
            for text in legal_lines(legal.actions) if legal.actions else ["no legal entries"]:
                typer.echo(text)
        elif word == "rules":
            from cli.read import clause_text

            if not rest:
                typer.echo("which clause? rules PZ-6.2")
            else:
                view = svc.load(game_id)
                typer.echo("\n\n".join(clause_text(c) for c in svc.clauses(view.game, rest)))
        elif word == "log":
            _, events = svc.log_events(game_id)
            for event in events:
                typer.echo(event_line(event))
        elif word == "undo":
            if not rest:
                typer.echo("say why: undo REASON")
            else:
                result = svc.retract(game_id, rest, by=settings.referee)
                typer.echo(f"retracted action {result.retracted[0]}")
        elif word == "resign":
            if not rest:
                typer.echo("who resigns? resign SEAT")
            else:
                svc.end(game_id, "resignation", who=rest, by=settings.referee)
        elif word == "agree" and rest:
            typer.echo("agree takes nothing more: type 'agree' alone to record the draw")
        elif word == "agree" or (word == "draw" and not rest):
            svc.end(game_id, "agreement", by=settings.referee)
        elif word == "adjudicate":
            who, _, reason = rest.partition(" ")
            if not who or not reason.strip():
                typer.echo("adjudicate SEAT|draw REASON")
            else:
                svc.end(
                    game_id, "adjudication", who=who, reason=reason.strip(), by=settings.referee
                )
        elif word == "dispute":
            parts = rest.split(" ", 2)
            if len(parts) < 3 or not parts[0].isdigit():
                typer.echo("dispute EVENT PLAYER CLAIM")
            else:
                written = svc.dispute(game_id, int(parts[0]), by=parts[1], claim=parts[2])
                typer.echo(f"{safe_text(written.summaries[0])} (event {written.events[0]})")
        elif word == "check":
            _entry(svc, game_id, rest, paint, dry_run=True)
        else:
            _entry(svc, game_id, line, paint, dry_run=False)
    except (RefereeError, ValueError, LookupError, RuntimeError) as exc:
        typer.echo(paint(f"not done: {safe_text(str(exc))}", fg="red"))
    return False


def _entry(svc: RefereeService, game_id: str, line: str, paint: Painter, *, dry_run: bool) -> None:
    from cli.play import entry_lines
    from service.errors import UnreadableEntryError

    if not line:
        typer.echo("check what? check ENTRY")
        return
    try:  # 'p2: ENTRY' names the seat: the service reads it, as for every face
        result = svc.record(game_id, line, by=settings.referee, dry_run=dry_run)
    except UnreadableEntryError as exc:
        typer.echo(paint(f"{exc} (type 'help' for the table commands)", fg="red"))
        return
    out, err = entry_lines(result)
    for text in out:
        typer.echo(paint(text, fg="green") if text.startswith(("recorded", "legal")) else text)
    for text in err:
        typer.echo(paint(text, fg="red"))
    if err and not dry_run:
        typer.echo("  (the position is unchanged; 'undo REASON' retracts the last action)")

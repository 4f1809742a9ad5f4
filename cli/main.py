"""The ``referee`` command: a face over the rules core, the store and the projections.

Heavy modules (the store, the games, the projections) are imported inside the
commands that need them, so ``referee --help`` and a single ``referee act``
start quickly.

Exit codes: 0 done; 1 an entry was rejected or a check failed; 2 the command
could not be carried out (bad input, unknown game, a command the game's state
does not allow); 3 another referee wrote to the same game at the same moment.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

if TYPE_CHECKING:
    from events.replay import GameView
    from events.store import GameStore

EXIT_REJECTED = 1
EXIT_USAGE = 2
EXIT_CONFLICT = 3

app = typer.Typer(
    name="referee",
    help=(
        "Record tabletop games move by move, checked against each game's rulebook.\n\n"
        "Every action is kept as an immutable event in a SQLite file (--db, REFEREE_DB, or "
        "./referee.db); any position can be replayed, and every rejection names the clause it "
        "breaks.\n\n"
        "\b\nA first game:\n"
        "  id=$(referee new prizmik --player red=Alice --player blue=Bob)\n"
        "  referee act $id 'e1>e2'    # record a move, or be told the rule it breaks\n"
        "  referee show $id           # draw the position\n"
        "  referee legal $id          # list the legal moves\n"
        "  referee rules prizmik      # read the rulebook\n\n"
        "Exit codes: 0 done, 1 entry rejected or check failed, 2 command refused, "
        "3 another referee wrote to the game first."
    ),
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


class Settings:
    def __init__(self, db: str | None, referee: str) -> None:
        self.db = db
        self.referee = referee
        self._store: GameStore | None = None

    def store(self) -> GameStore:
        if self._store is None:
            from events.store import GameStore

            self._store = GameStore(self.db)
        return self._store


_settings = Settings(None, "referee")


@app.callback()
def main(
    db: Annotated[
        str | None,
        typer.Option("--db", envvar="REFEREE_DB", help="Event store file (default ./referee.db)."),
    ] = None,
    referee: Annotated[
        str,
        typer.Option("--referee", envvar="REFEREE_NAME", help="Your name, recorded with each entry."),
    ] = "referee",
) -> None:
    """Global options come before the command: referee --db games.db act ..."""
    _settings.db = db
    _settings.referee = referee
    _settings._store = None


# -- helpers -------------------------------------------------------------------


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def handled() -> Iterator[None]:
    """Turn the project's errors into one clear line and an exit code."""
    from referee.errors import RefereeError

    try:
        yield
    except typer.Exit:
        raise
    except RefereeError as exc:
        from events.store import ConcurrentWriteError

        fail(str(exc), EXIT_CONFLICT if isinstance(exc, ConcurrentWriteError) else EXIT_USAGE)
    except (ValueError, LookupError) as exc:
        fail(str(exc))


def emit_json(data: Any) -> None:
    import msgspec

    typer.echo(msgspec.json.encode(data, enc_hook=str).decode())


def parse_pairs(values: list[str] | None, what: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for value in values or []:
        key, sep, rest = value.partition("=")
        if not sep or not key.strip():
            fail(f"{what} must look like KEY=VALUE, not {value!r}")
        pairs[key.strip().lower()] = rest.strip()
    return pairs


def load_view(ref: str, upto: int | None = None) -> GameView:
    store = _settings.store()
    return store.load(store.resolve(ref), upto=upto)


def seat_of(view: GameView, who: str) -> str:
    """A seat from a seat name or a player's name (case-insensitive), as a referee would type it."""
    wanted = who.strip().lower()
    for player in view.created.players:
        if wanted in (player.seat.lower(), player.name.lower()):
            return player.seat
    choices = ", ".join(f"{p.seat} ({p.name})" for p in view.created.players)
    fail(f"{who!r} is neither a seat nor a player of this game: {choices}")


def outcome_line(view: GameView) -> str:
    if view.ended is None:
        mover = view.rules.to_move(view.state)
        return f"{mover} to move" if mover else "no one to move"
    ended = view.ended
    result = "draw" if ended.winner is None else f"{ended.winner} wins"
    return f"{result} ({ended.how}, {ended.clause}{': ' + ended.reason if ended.reason else ''})"


JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
GameArg = Annotated[str, typer.Argument(help="Game id, or a unique ending of it.")]


# -- commands ------------------------------------------------------------------


@app.command()
def new(
    game: Annotated[str, typer.Argument(help="Game type: prizmik, prismata, ...")],
    player: Annotated[
        list[str] | None,
        typer.Option("--player", "-p", help="SEAT=NAME, once per seat (prizmik: red, blue)."),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", help="KEY=VALUE ruling switch ('referee rules GAME' lists them)."),
    ] = None,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", "--catalog", help="Ruleset version to pin.")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="KEY=VALUE game-specific setup.")
    ] = None,
    random_size: Annotated[
        int | None, typer.Option("--random-size", help="Prismata: size of the random set.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Prismata: seed for the random set.")] = None,
    units: Annotated[
        str | None, typer.Option("--units", help="Prismata: explicit random set, comma-separated.")
    ] = None,
) -> None:
    """Start a game and print its id alone, so scripts can capture it."""
    with handled():
        from referee import games
        from referee.core import Player

        rules = games.load(game)
        seats = parse_pairs(player, "--player")
        unknown = [s for s in seats if s not in rules.seats]
        if unknown:
            fail(f"{rules.name} has seats {', '.join(rules.seats)}; not {', '.join(unknown)}")
        missing = [s for s in rules.seats if s not in seats]
        if missing:
            fail(f"name every player: --player {missing[0]}=NAME (seats: {', '.join(rules.seats)})")
        options: dict[str, Any] = dict(parse_pairs(option, "--option"))
        if random_size is not None:
            options["random_size"] = random_size
        if seed is not None:
            options["seed"] = seed
        if units is not None:
            options["units"] = [u.strip() for u in units.split(",") if u.strip()]
        view = _settings.store().create(
            rules.name,
            [Player(seat, name) for seat, name in seats.items()],
            ruleset=ruleset,
            variants=parse_pairs(variant, "--variant"),
            options=options,
            by=_settings.referee,
        )
        typer.echo(view.game_id)


@app.command()
def act(
    game: GameArg,
    action: Annotated[str, typer.Argument(help="The action in the game's notation, e.g. 'c1>c2'.")],
    by: Annotated[
        str | None, typer.Option("--by", help="Seat or player making the action (checked against the turn).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Record one action, or exit 1 naming the clause it breaks (the attempt is kept as evidence)."""
    with handled():
        store = _settings.store()
        game_id = store.resolve(game)
        view = store.load(game_id)
        actor = seat_of(view, by) if by is not None else None
        result = store.record(game_id, action, actor=actor, by=_settings.referee, view=view)
        if as_json:
            import msgspec

            emit_json(
                {
                    "accepted": result.accepted,
                    "text": result.text,
                    "notation": result.notation,
                    "event": result.events[0].originator_version,
                    "violations": msgspec.to_builtins(result.verdict.violations),
                    "ended": msgspec.to_builtins(result.ended) if result.ended else None,
                }
            )
        elif result.accepted:
            event = result.events[0]
            typer.echo(f"recorded {result.notation} (event {event.originator_version})")
            if result.ended is not None:
                ended = result.ended
                who = "draw" if ended.winner is None else f"{ended.winner} wins"
                typer.echo(f"game over: {who} ({ended.clause}: {ended.reason})")
        else:
            typer.echo(f"rejected {action!r}:", err=True)
            for v in result.verdict.violations:
                typer.echo(f"  {v.clause}: {v.reason}", err=True)
        if not result.accepted:
            raise typer.Exit(EXIT_REJECTED)


@app.command()
def show(
    game: GameArg,
    at: Annotated[
        int | None, typer.Option("--at", help="Show the position after N standing actions.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Draw the position (now, or after N actions)."""
    with handled():
        view = load_view(game)
        ply = view.ply if at is None else at
        state = view.state_at(ply)
        rules = view.rules
        if as_json:
            emit_json(
                {
                    "game_id": view.game_id,
                    "game": view.game,
                    "ruleset": view.created.ruleset,
                    "variants": view.created.variants,
                    "players": view.seat_names(),
                    "at": ply,
                    "standing_actions": view.ply,
                    "to_move": rules.to_move(state),
                    "outcome": _outcome_data(rules.outcome(state)),
                    "result": view.result if ply == view.ply else "*",
                    "position": rules.describe(state),
                }
            )
            return
        names = view.seat_names()
        players = " vs ".join(f"{seat}: {name}" for seat, name in names.items())
        typer.echo(f"{view.game_id}  {view.created.ruleset}  {players}")
        typer.echo(f"after {ply} of {view.ply} actions")
        typer.echo(rules.render(state))
        if ply == view.ply:
            typer.echo(outcome_line(view))


def _outcome_data(outcome: Any) -> dict[str, Any]:
    return {"status": outcome.status, "winner": outcome.winner, "clause": outcome.clause,
            "reason": outcome.reason}


@app.command()
def log(game: GameArg, as_json: JsonOpt = False) -> None:
    """Every event of a game: actions, rejections, corrections, disputes and the result."""
    with handled():
        from events.records import event_line, event_record

        view = load_view(game)
        if as_json:
            emit_json([event_record(e) for e in view.events])
            return
        for event in view.events:
            typer.echo(event_line(event))


@app.command()
def legal(game: GameArg, as_json: JsonOpt = False) -> None:
    """List every legal action in the current position."""
    with handled():
        view = load_view(game)
        rules = view.rules
        actions = [] if view.ended else [rules.notation(a) for a in rules.legal_actions(view.state)]
        if as_json:
            emit_json({"to_move": rules.to_move(view.state) if not view.ended else None,
                       "actions": actions})
            return
        if not actions:
            typer.echo("no legal actions" + (f": {outcome_line(view)}" if view.ended else ""))
            return
        typer.echo(f"{rules.to_move(view.state)} has {len(actions)} legal actions:")
        typer.echo(" ".join(actions))


@app.command()
def undo(
    game: GameArg,
    reason: Annotated[str, typer.Option("--reason", help="Why the action is taken back.")],
) -> None:
    """Retract the latest standing action (kept in the history as a correction)."""
    with handled():
        store = _settings.store()
        event = store.retract(store.resolve(game), reason, by=_settings.referee)
        typer.echo(f"retracted action {event.seq} (event {event.event}) in event {event.originator_version}")


@app.command()
def end(
    game: GameArg,
    resign: Annotated[str | None, typer.Option("--resign", help="Seat or player who resigns.")] = None,
    draw: Annotated[bool, typer.Option("--draw", help="The players agree a draw.")] = False,
    adjudicate: Annotated[
        str | None, typer.Option("--adjudicate", help="Winning seat or player, or 'draw', by referee's decision.")
    ] = None,
    reason: Annotated[str, typer.Option("--reason", help="Reason (required to adjudicate).")] = "",
) -> None:
    """End a game by resignation, agreement or adjudication."""
    with handled():
        chosen = [x for x in (resign is not None, draw, adjudicate is not None) if x]
        if len(chosen) != 1:
            fail("give exactly one of --resign SEAT, --draw, --adjudicate SEAT|draw")
        store = _settings.store()
        game_id = store.resolve(game)
        view = store.load(game_id)
        if resign is not None:
            ended = store.end(game_id, "resignation", resigned=seat_of(view, resign), reason=reason,
                              by=_settings.referee)
        elif draw:
            ended = store.end(game_id, "agreement", reason=reason, by=_settings.referee)
        else:
            winner = None if adjudicate == "draw" else seat_of(view, str(adjudicate))
            ended = store.end(game_id, "adjudication", winner=winner, reason=reason, by=_settings.referee)
        who = "draw" if ended.winner is None else f"{ended.winner} wins"
        typer.echo(f"game over: {who} ({ended.how}, {ended.clause})")


@app.command(name="games")
def list_games(as_json: JsonOpt = False) -> None:
    """List the games in the store."""
    with handled():
        summaries = _settings.store().games()
        if as_json:
            import msgspec

            emit_json(msgspec.to_builtins(summaries))
            return
        if not summaries:
            typer.echo("no games yet: start one with 'referee new GAME --player SEAT=NAME ...'")
            return
        for s in summaries:
            players = " vs ".join(f"{name} ({seat})" for seat, name in s.players.items())
            how = f" by {s.how}" if s.how else ""
            typer.echo(f"{s.game_id}  {s.created:%Y-%m-%d %H:%M}  {players}  {s.result}{how}")


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="Game type, or 'procedure' for the REF- clauses.")],
    clause: Annotated[str | None, typer.Argument(help="A clause id, e.g. PZ-6.2.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show a game's rulebook, or one clause of it."""
    with handled():
        import msgspec

        from referee.rulebook import find_clause, load_rulebook

        book = load_rulebook(game.lower())
        if clause is not None:
            found = find_clause(clause, game.lower())
            if as_json:
                emit_json(msgspec.to_builtins(found))
                return
            typer.echo(_clause_text(found))
            return
        if as_json:
            emit_json(msgspec.to_builtins(book))
            return
        typer.echo(book.title)
        if book.source:
            typer.echo(book.source)
        for section in book.sections:
            typer.echo(f"\n{section.id}  {section.title}")
            for c in book.in_section(section.id):
                tag = " [interpretation" + (f"; variant {c.variant}" if c.variant else "") + "]" \
                    if c.kind == "interpretation" else ""
                typer.echo(f"  {c.id}  {c.title}{tag}")
        typer.echo(f"\n'referee rules {game} CLAUSE' shows one clause in full.")
        if game.lower() != "procedure":
            from referee import games

            options = games.load(game).variant_options
            if options:
                typer.echo("\nVariant switches (referee new ... --variant KEY=VALUE):")
                for v in options:
                    choices = "|".join(v.choices) if v.choices else "..."
                    typer.echo(f"  {v.key}={choices} (default {v.default}; {v.clause}): {v.summary}")


def _clause_text(c: Any) -> str:
    import textwrap

    kind = "Interpretation" if c.kind == "interpretation" else "Rule"
    lines = [f"{c.id}  {c.title}  ({kind})", textwrap.fill(c.text, 78)]
    if c.variant:
        lines.append(f"Variant switch: {c.variant}")
    return "\n".join(lines)


@app.command()
def table(
    game: GameArg,
) -> None:
    """Play at the table: shows the position, reads actions, explains rejections.

    Type an action to record it; 'undo REASON' to retract the last one; 'legal' to
    list legal actions; 'rules CLAUSE' to read a clause; 'log'; 'quit' to leave.
    """
    with handled():
        from referee.rulebook import find_clause

        store = _settings.store()
        game_id = store.resolve(game)
        interactive = sys.stdin.isatty()
        shown = -1  # redraw only when the position changed
        while True:
            view = store.load(game_id)
            if view.version != shown:
                typer.echo(view.rules.render(view.state))
                typer.echo(outcome_line(view))
                shown = view.version
            try:
                line = input(f"{game_id}> " if interactive else "").strip()
            except EOFError:
                typer.echo("")
                return
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word = word.lower()
            try:
                if word in {"quit", "exit", "q"}:
                    return
                if word == "legal":
                    acts = [view.rules.notation(a) for a in view.rules.legal_actions(view.state)]
                    typer.echo(" ".join(acts) if acts else "no legal actions")
                elif word == "undo":
                    if not rest.strip():
                        typer.echo("say why: undo REASON")
                        continue
                    retracted = store.retract(game_id, rest.strip(), by=_settings.referee)
                    typer.echo(f"retracted action {retracted.seq}")
                elif word == "rules":
                    typer.echo(_clause_text(find_clause(rest.strip(), view.game)))
                elif word == "log":
                    from events.records import event_line

                    for logged in view.events:
                        typer.echo(event_line(logged))
                elif word == "help":
                    typer.echo("actions in notation; undo REASON; legal; rules CLAUSE; log; quit")
                else:
                    result = store.record(game_id, line, by=_settings.referee, view=view)
                    if result.accepted:
                        typer.echo(f"recorded {result.notation}")
                    else:
                        typer.echo(f"rejected {line!r}:")
                        for v in result.verdict.violations:
                            typer.echo(f"  {v.clause}: {v.reason}")
                        typer.echo("  (the position is unchanged; 'undo REASON' retracts the last action)")
                        shown = result.events[-1].originator_version  # a rejection changes no position
            except (ValueError, LookupError, RuntimeError) as exc:
                typer.echo(f"error: {exc}")



@app.command()
def export(
    game: Annotated[str | None, typer.Argument(help="Game id (or use --all).")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="jsonl (interchange) or text (PGN-like).")] = "jsonl",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="File (one game) or folder (--all).")] = None,
    all_games: Annotated[bool, typer.Option("--all", help="Export every game, one file each, into -o DIR.")] = False,
) -> None:
    """Write a game's record as JSON Lines (every event, exact) or as text."""
    with handled():
        from events.transfer import export_jsonl, export_text

        if fmt not in {"jsonl", "text"}:
            fail("--format is jsonl or text")
        store = _settings.store()

        def render(game_id: str) -> str:
            view = store.load(game_id)
            return export_jsonl(view.events) if fmt == "jsonl" else export_text(view)

        if all_games:
            if output is None:
                fail("--all needs -o DIR")
            output.mkdir(parents=True, exist_ok=True)
            ids = [s.game_id for s in store.games()]
            suffix = "jsonl" if fmt == "jsonl" else "txt"
            with typer.progressbar(ids, label="exporting", file=sys.stderr) as bar:
                for game_id in bar:
                    (output / f"{game_id}.{suffix}").write_text(render(game_id), encoding="utf-8")
            typer.echo(f"exported {len(ids)} games to {output}", err=True)
            return
        if game is None:
            fail("name a game, or use --all -o DIR")
        text = render(store.resolve(game))
        if output is None:
            sys.stdout.write(text)
        else:
            output.write_text(text, encoding="utf-8")


@app.command(name="import")
def import_(
    files: Annotated[list[Path], typer.Argument(help="Record files (jsonl or text; or prismata-reference).")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="auto, jsonl, text, or prismata-reference.")] = "auto",
    as_new: Annotated[bool, typer.Option("--as-new", help="Copy games already in the store under new ids.")] = False,
    compare: Annotated[bool, typer.Option("--compare", help="prismata-reference: compare every turn's state.")] = False,
    reference_quirks: Annotated[bool, typer.Option("--reference-quirks/--no-reference-quirks", help="prismata-reference: follow the reference engine where it differs from the live game.")] = True,
    as_json: JsonOpt = False,
) -> None:
    """Import game records; every action is checked again, each file whole or not at all."""
    with handled():
        if fmt == "prismata-reference":
            _import_reference(files, compare=compare, quirks=reference_quirks, as_json=as_json)
            return
        from events.importer import import_files

        report = import_files(_settings.store(), files, as_new=as_new, by=_settings.referee,
                              progress=not as_json)
        if as_json:
            emit_json(report)
        else:
            for line in report["errors"]:
                typer.echo(f"error: {line}", err=True)
            typer.echo(f"imported {report['imported']} games ({report['events']} events); "
                       f"{len(report['errors'])} files refused", err=True)
            for game_id in report["game_ids"]:
                typer.echo(game_id)
        if report["errors"]:
            raise typer.Exit(EXIT_REJECTED)


@app.command()
def verify(
    game: Annotated[str | None, typer.Argument(help="Game id; all games when omitted.")] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", help="KEY=VALUE: replay under another ruling.")] = None,
    ruleset: Annotated[str | None, typer.Option("--ruleset", help="Replay under another ruleset version.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check hash chains and replay every decision; or, with --variant, show what a ruling changes."""
    with handled():
        import msgspec

        store = _settings.store()
        if variant or ruleset:
            from events.integrity import what_if

            if game is None:
                fail("--variant/--ruleset needs a game")
            report = what_if(store.load(store.resolve(game)), ruleset=ruleset,
                             variants=parse_pairs(variant, "--variant"))
            if as_json:
                emit_json(msgspec.to_builtins(report))
                return
            changes = ", ".join(f"{k}: {a} -> {b}" for k, (a, b) in report.changed.items()) or "nothing"
            typer.echo(f"{report.game_id} replayed with {changes}")
            if not report.illegal:
                typer.echo("every standing action is legal under this ruling")
            for item in report.illegal:
                why = "; ".join(f"{v['clause']}: {v['reason']}" for v in item.violations)
                typer.echo(f"  action {item.seq} {item.notation} (event {item.event}) would be illegal: {why}")
            typer.echo(f"result as recorded: {report.recorded_result}"
                       + (f" ({report.recorded_how})" if report.recorded_how else ""))
            tail = f" after action {report.ends_at_action} ({report.clause})" if report.ends_at_action else ""
            typer.echo(f"result under this ruling: {report.result_under_ruling}{tail}")
            if report.note:
                typer.echo(report.note)
            return
        from events.integrity import Finding
        from projections.scoreboard import Projector, witness_findings

        ids = [store.resolve(game)] if game else store.game_ids()
        projector = Projector(store)
        witness = projector if projector.path.exists() else None
        reports = []
        with typer.progressbar(ids, label="verifying", file=sys.stderr,
                               hidden=as_json or len(ids) < 50) as bar:
            for game_id in bar:
                report = store.verify(game_id)
                if witness is not None:
                    for line in witness_findings(witness, store, game_id, report.events):
                        report.findings.append(Finding(event=None, problem="witness", detail=line))
                reports.append(report)
        bad = [r for r in reports if not r.ok]
        if as_json:
            emit_json({"games": len(reports), "bad": len(bad),
                       "reports": msgspec.to_builtins(bad if not game else reports)})
        else:
            for r in bad:
                typer.echo(f"{r.game_id}: {len(r.findings)} problems")
                for finding in r.findings:
                    typer.echo(f"  {finding}")
            events = sum(r.events for r in reports)
            typer.echo(f"verified {len(reports)} games ({events} events): "
                       + ("all intact" if not bad else f"{len(bad)} with problems"))
        if bad:
            raise typer.Exit(EXIT_REJECTED)



def _projector() -> Any:
    from projections.scoreboard import Projector

    return Projector(_settings.store())


@app.command()
def scoreboard(
    game_type: Annotated[str | None, typer.Option("--game-type", "-g", help="Only this game type.")] = None,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Delete the projection file and rebuild it.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Standings per game type and player: played, won, drawn, lost, points, Elo."""
    with handled():
        projector = _projector()
        total = 0
        with typer.progressbar(length=max(1, _settings.store().recorder.max_notification_id() or 0),
                               label="projecting", file=sys.stderr, hidden=as_json) as bar:
            total = (projector.rebuild if rebuild else projector.catch_up)(bar.update)
        rows = projector.standings(game_type)
        if as_json:
            emit_json(rows)
            return
        if not as_json and total:
            typer.echo(f"processed {total} new events into {projector.path}", err=True)
        if not rows:
            typer.echo("no finished games yet")
            return
        header = f"{'game':<10} {'player':<20} {'P':>4} {'W':>4} {'D':>4} {'L':>4} {'pts':>6} {'Elo':>7}"
        typer.echo(header)
        typer.echo("-" * len(header))
        for r in rows:
            typer.echo(f"{r['game']:<10} {r['player']:<20} {r['played']:>4} {r['won']:>4} {r['drawn']:>4} "
                       f"{r['lost']:>4} {r['points']:>6.1f} {r['elo']:>7.1f}")


@app.command()
def dispute(
    game: GameArg,
    event: Annotated[int, typer.Option("--event", help="Event number disputed ('referee log' shows them).")],
    by: Annotated[str, typer.Option("--by", help="Who disputes (a player's name or seat).")],
    claim: Annotated[str, typer.Option("--claim", help="What they claim.")],
) -> None:
    """Record that a player disputes a decision (an action, a rejection, a correction, a result)."""
    with handled():
        store = _settings.store()
        opened = store.open_dispute(store.resolve(game), event, by=by, claim=claim)
        typer.echo(f"dispute {opened.dispute} opened on event {event} (event {opened.originator_version})")


@app.command()
def rule(
    game: GameArg,
    dispute_no: Annotated[int, typer.Argument(metavar="DISPUTE", help="Dispute number.")],
    uphold: Annotated[bool, typer.Option("--uphold", help="The decision stands.")] = False,
    overturn: Annotated[bool, typer.Option("--overturn", help="The decision is reversed (carried out as events).")] = False,
    clause: Annotated[str, typer.Option("--clause", help="Clause relied on, e.g. PZ-6.2.")] = "",
    reason: Annotated[str, typer.Option("--reason", help="Why.")] = "",
    by: Annotated[str | None, typer.Option("--by", help="Referee ruling (default: --referee).")] = None,
    final: Annotated[bool, typer.Option("--final", help="A head referee's final ruling.")] = False,
) -> None:
    """Rule on a dispute: uphold or overturn, citing a clause. After an appeal this is the appeal ruling."""
    with handled():
        if uphold == overturn:
            fail("give exactly one of --uphold or --overturn")
        if not clause:
            fail("cite the clause relied on with --clause")
        store = _settings.store()
        written = store.rule(store.resolve(game), dispute_no, decision="uphold" if uphold else "overturn",
                             clause=clause, reason=reason, by=by or _settings.referee,
                             level="final" if final else None)
        from events.records import event_summary

        for event in written:
            typer.echo(f"event {event.originator_version}: {event_summary(event)}")


@app.command()
def appeal(
    game: GameArg,
    dispute_no: Annotated[int, typer.Argument(metavar="DISPUTE", help="Dispute number.")],
    by: Annotated[str, typer.Option("--by", help="Who appeals.")],
    grounds: Annotated[str, typer.Option("--grounds", help="Why the ruling is wrong.")],
) -> None:
    """Appeal the latest ruling on a dispute to a higher referee ('referee rule ... --final' closes it)."""
    with handled():
        store = _settings.store()
        lodged = store.appeal(store.resolve(game), dispute_no, by=by, grounds=grounds)
        typer.echo(f"dispute {dispute_no} appealed (event {lodged.originator_version})")


@app.command()
def audit(
    game: GameArg,
    dispute_no: Annotated[int | None, typer.Option("--dispute", help="Only this dispute.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text, json or md.")] = "text",
) -> None:
    """The dossier of each dispute: position, decision, what the rules say, claim, rulings."""
    with handled():
        from projections.audit import render_dossier

        if fmt not in {"text", "json", "md"}:
            fail("--format is text, json or md")
        store = _settings.store()
        game_id = store.resolve(game)
        projector = _projector()
        projector.catch_up()
        items = projector.audit(game_id)
        if dispute_no is not None:
            items = [i for i in items if i["dispute"] == dispute_no]
            if not items:
                fail(f"game {game_id} has no dispute {dispute_no}")
        if fmt == "json":
            emit_json(items)
            return
        if not items:
            typer.echo("no disputes in this game")
        typer.echo("\n".join(render_dossier(i, fmt) for i in items), nl=False)


def _import_reference(files: list[Path], *, compare: bool, quirks: bool, as_json: bool) -> None:
    import msgspec

    from events.reference_import import import_reference_files

    results = import_reference_files(_settings.store(), files, compare=compare, quirks=quirks,
                                     by=_settings.referee, progress=not as_json)
    failed = [r for r in results if r.error or not r.agree]
    if as_json:
        emit_json(msgspec.to_builtins(results))
    else:
        for r in results:
            if r.error:
                typer.echo(f"{r.source}: error: {r.error}", err=True)
            elif not r.agree:
                typer.echo(f"{r.source}: differs: {r.first_difference}", err=True)
            elif r.game_id:
                typer.echo(r.game_id)
        agreeing = sum(1 for r in results if r.agree and not r.error)
        what = f"{agreeing}/{len(results)} games agree with the reference" if compare else \
            f"imported {sum(1 for r in results if r.game_id and not r.error)}/{len(results)} games"
        typer.echo(what, err=True)
    if failed:
        raise typer.Exit(EXIT_REJECTED)


@app.command()
def units(
    game: Annotated[str, typer.Argument(help="Game with a unit catalog: prismata.")] = "prismata",
    catalog: Annotated[str | None, typer.Option("--catalog", "--ruleset", help="Catalog version, e.g. prismata/2020.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """List a catalog's units with their stats, by display name."""
    with handled():
        if game.lower() != "prismata":
            fail(f"{game} has no unit catalog")
        from referee.prismata.reference import units_table

        rows = units_table(catalog)
        if as_json:
            emit_json(rows)
            return
        columns = [c for c in rows[0] if c not in {"name"}] if rows else []
        for row in rows:
            details = ", ".join(f"{k} {row[k]}" for k in columns if row[k] not in (None, "", False, 0, []))
            typer.echo(f"{row['name']}: {details}")


@app.command()
def replay(
    game: GameArg,
    start: Annotated[int, typer.Option("--from", help="First action to show.")] = 1,
    stop: Annotated[int | None, typer.Option("--to", help="Last action to show.")] = None,
    session: Annotated[bool, typer.Option("--session", help="Every event as it happened at the table, "
                                          "with the position after each correction too.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Step through a game: each action and the position after it.

    By default the standing line of play, with rejections and corrections noted
    where they happened; --session replays the table's events in order instead."""
    with handled():
        from events.records import event_summary
        from events.replay import GameView
        from events.schema import ActionRecorded, ActionRetracted

        view = load_view(game)
        rules = view.rules
        last = stop if stop is not None else view.ply
        frames: list[dict[str, Any]] = []
        notes: list[str] = []
        if session:
            folded = GameView(view.created)
            for event in view.events[1:]:
                folded.fold(event)
                if isinstance(event, ActionRecorded | ActionRetracted):
                    frames.append({"event": event.originator_version, "ply": folded.ply,
                                   "what": event_summary(event), "notes": notes,
                                   "state": folded.state})
                    notes = []
                else:
                    notes.append(event_summary(event))
        else:
            standing = {e.originator_version for e in view.standing}
            ply = 0
            for event in view.events[1:]:
                if event.originator_version in standing:
                    ply += 1
                    if start <= ply <= last:
                        frames.append({"event": event.originator_version, "ply": ply,
                                       "what": event_summary(event), "notes": notes,
                                       "state": view.state_at(ply)})
                    notes = []
                elif start <= ply + 1 <= last + 1:
                    notes.append(event_summary(event))
        if notes:
            frames.append({"event": view.version, "ply": view.ply, "what": "(end of record)", "notes": notes,
                           "state": view.state})
        if as_json:
            emit_json([{**{k: v for k, v in f.items() if k != "state"},
                        "position": rules.describe(f["state"])} for f in frames])
            return
        for frame in frames:
            for note in frame["notes"]:
                typer.echo(f"  ({note})")
            typer.echo(f"\n[event {frame['event']}] {frame['what']}")
            typer.echo(rules.render(frame["state"]))
        typer.echo(f"\n{outcome_line(view)}")


def run() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    run()

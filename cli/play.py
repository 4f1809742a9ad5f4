"""Commands that write: start a game, record entries, correct, end, penalise, adjust,
and register or open decklists."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from cli.face import (
    EXIT_REJECTED,
    GameArg,
    JsonOpt,
    ReasonOpt,
    SealedOpt,
    VariantOpt,
    emit_json,
    fail,
    handled,
    one_deck,
    parse_pairs,
    read_decklist,
    read_option_file,
    say_which,
    settings,
)

if TYPE_CHECKING:
    from referee.contract import GameRules
    from service.app import RefereeService
    from service.results import EntryResult, WrittenEvents

app = typer.Typer()

META = ("event", "site", "round", "table")


def _label(name: str) -> Any:
    """The option of one tournament label of ``META`` (``--site``: the site)."""
    return typer.Option(f"--{name}", help=f"Tournament label: the {name}.")


def _setup_help() -> str:
    """Every game's own setup options, for ``referee new --help``."""
    from referee import games

    lines = ["Game options (after the game's name):"]
    for name in games.names():
        try:
            rules = games.load(name)
        except Exception:
            continue
        low, high = rules.player_range()
        count = f"{low}" if low == high else f"{low}-{high}"
        lines.append(f"  {name} ({count} players; seats {', '.join(rules.seats[:high])}):")
        for field in rules.setup_fields:
            value = (
                "FILE"
                if field.kind == "file"
                else "|".join(field.choices)
                if field.choices
                else "N"
                if field.kind in ("int", "seed")
                else "A,B,..."
                if field.kind == "list"
                else "TEXT"
            )
            lines.append(f"    {field.flag} {value}: {field.help}")
        if rules.takes_decks:
            lines.append(
                "    --deck SEAT=FILE (open list), --sealed SEAT=COMMITMENT:SIZE ('referee deck "
                "seal')"
            )
    lines.append(
        "Decklists (--deck, Crystale's --pool): a text file, one card a line, a count and the "
        "catalog's name ('4 Gamma Trooper', '4x Gamma Trooper', 'Gamma Trooper x4'; a name alone "
        "is one copy), '#' starts a comment; or JSON {\"Gamma Trooper\": 4}. Examples: "
        "fixtures/gammasphere/decks/, fixtures/crystale/pools/."
    )
    return "\n".join(lines)


def _game_options(
    rules: GameRules[Any, Any], extra: list[str]
) -> tuple[dict[str, Any], str | None]:
    """Read the game's own ``--flag value`` options from the extra arguments.

    Returns the raw options and a ruleset named by ``--catalog`` on games whose
    catalogs are rulesets (Prismata: ``--catalog prismata/2020``)."""
    fields = {f.flag: f for f in rules.setup_fields}
    options: dict[str, Any] = {}
    ruleset: str | None = None
    index = 0
    while index < len(extra):
        token = extra[index]
        flag, sep, value = token.partition("=")
        if not flag.startswith("--"):
            fail(f"unexpected argument {token!r}")
        if not sep:
            if index + 1 >= len(extra):
                fail(f"{flag} needs a value")
            value = extra[index + 1]
            index += 1
        index += 1
        field = fields.get(flag)
        if field is None:
            if flag == "--catalog":
                ruleset = value
                continue
            offered = ", ".join(fields) or "none"
            fail(
                f"{rules.name} has no option {flag}; its options: {offered} ('referee new --help')"
            )
        if field.kind == "file":
            options[field.key] = read_option_file(Path(value))
        else:
            options[field.key] = value
    return options, ruleset


def _decks(
    rules: GameRules[Any, Any], deck: list[str] | None, sealed: list[str] | None
) -> dict[str, Any]:
    from referee.errors import DeckError
    from referee.kit.decks import SealedDeck

    out: dict[str, Any] = {}
    for seat, file in parse_pairs(deck, "--deck (or --pool)").items():
        path = Path(file)
        try:
            out[seat] = read_decklist(path)  # not UTF-8: one line naming the file
        except OSError as exc:
            fail(f"{path}: {exc.strerror or exc}")
    for seat, value in parse_pairs(sealed, "--sealed").items():
        try:
            out[seat] = SealedDeck.parse(value)
        except DeckError as exc:
            fail(f"--sealed {seat}: {exc}")
    return out


class _NewCommand(TyperCommand):
    """``new``'s help ends with every game's own options, read when help is asked for."""

    def format_epilog(self, ctx: Any, formatter: Any) -> None:  # click's Context and HelpFormatter
        formatter.write_paragraph()
        for line in _setup_help().splitlines():
            formatter.write(line + "\n")


@app.command(
    cls=_NewCommand, context_settings={"allow_extra_args": True, "ignore_unknown_options": True}
)
def new(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game type: each is listed below with its options.")],
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            "-p",
            help="SEAT=NAME, once per seat (prizmik: red, blue; the others p1, p2, ...).",
        ),
    ] = None,
    player_id: Annotated[
        list[str] | None,
        typer.Option(
            "--player-id",
            help="SEAT=ID: bind a seat to a player id ('referee token create --role player' "
            "prints one); that player's token reads the seat, and no one else's.",
        ),
    ] = None,
    variant: VariantOpt = None,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", help="Ruleset version to pin.")
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option(
            "--deck",
            "--pool",
            help="SEAT=FILE: register an open decklist (a Crystale pool: --pool is the same).",
        ),
    ] = None,
    sealed: Annotated[
        list[str] | None,
        typer.Option(
            "--sealed",
            help="SEAT=COMMITMENT:SIZE: register a sealed decklist ('referee deck seal FILE').",
        ),
    ] = None,
    event: Annotated[str | None, _label("event")] = None,
    site: Annotated[str | None, _label("site")] = None,
    round_: Annotated[str | None, _label("round")] = None,
    table: Annotated[str | None, _label("table")] = None,
    time_limit: Annotated[
        int | None,
        typer.Option(
            "--time-limit",
            min=1,
            max=1440,
            help="Minutes the game may run from its start; the queue lists it once over "
            "(EV-9.5; default 50).",
        ),
    ] = None,
    table_referee: Annotated[
        str | None,
        typer.Option("--table-referee", help="The table referee assigned (the queue names them)."),
    ] = None,
    from_position: Annotated[
        str | None,
        typer.Option(
            "--from-position",
            help="Start from this position ('referee show GAME --fen' prints one): an "
            "adjourned or reconstructed game; recorded in the first event.",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Start a game and print its id alone, so scripts can capture it (with --json, one
    JSON object: {"game_id": ...}, as 'event new --json' prints its event's).

    Game options follow the game's name; 'referee new --help' lists every game's.

    \b
    Example:
      id=$(referee new prizmik --player red=Alice --player blue=Bob)
    """
    with handled():
        from referee import games
        from referee.contract import Player

        rules = games.load(game)
        options, catalog_ruleset = _game_options(rules, list(ctx.args))
        if catalog_ruleset is not None:
            if ruleset is not None:
                fail("give --ruleset or --catalog, not both")
            ruleset = catalog_ruleset
        seats = parse_pairs(player, "--player")
        low, high = rules.player_range()
        unknown = [s for s in seats if s not in rules.seats[:high]]
        if unknown:
            fail(
                f"{rules.name} has seats {', '.join(rules.seats[:high])}; not {', '.join(unknown)}"
            )
        needed = rules.seats[: max(low, len(seats))]
        missing = [s for s in needed if s not in seats]
        if missing:
            fail(f"name every player: --player {missing[0]}=NAME (seats: {', '.join(needed)})")
        ids = parse_pairs(player_id, "--player-id")
        unseated = [s for s in ids if s not in seats]
        if unseated:
            fail(f"--player-id names a seat with no --player: {', '.join(unseated)}")
        meta = {k: v for k, v in zip(META, (event, site, round_, table), strict=True) if v}
        if time_limit is not None:
            meta["time_limit"] = str(time_limit)
        if table_referee:
            meta["referee"] = table_referee.strip()
        if from_position is not None:
            options["position"] = from_position
        view = settings.service(create=True).create_game(
            rules.name,
            [Player(s, n, ids.get(s, "")) for s, n in seats.items()],
            ruleset=ruleset,
            variants=parse_pairs(variant, "--variant"),
            options=options,
            decks=_decks(rules, deck, sealed),
            by=settings.referee,
            meta=meta,
        )
        if as_json:  # was read as a game option: "--json needs a value"
            emit_json({"game_id": view.game_id})
            return
        typer.echo(view.game_id)


def entry_lines(result: EntryResult) -> tuple[list[str], list[str]]:
    """(stdout lines, stderr lines) describing an entry's fate."""
    from service.wording import rejection_heading, safe_text, violation_lines

    out: list[str] = []
    err: list[str] = []
    if not result.stored:
        if result.accepted:
            out.append(f"legal: {result.notation} by {result.seat} (nothing recorded)")
        else:
            err.append(f"{rejection_heading(result)}:")
            err += [f"  {line}" for line in violation_lines(result.violations)]
        return out, err
    if result.accepted:
        out.append(f"recorded {result.notation} by {result.seat} (event {result.event})")
        for ruling in result.rulings:
            out.append(
                f"ruling needed on {safe_text(ruling.card)} ({ruling.clause}): "
                f"{safe_text(ruling.text)}"
            )
            out.append(
                f"  record it with: referee adjust {result.game_id} 'CHANGES' "
                f"--card {shlex.quote(safe_text(ruling.card))} --reason WHY "
                "(or --none if it does nothing)"
            )
        if result.ended is not None:
            out.append(f"game over: {result.ended.line()}")
    else:
        err.append(f"{rejection_heading(result)}:")
        err += [f"  {line}" for line in violation_lines(result.violations)]
    return out, err


@app.command()
def act(
    game: GameArg,
    action: Annotated[
        str,
        typer.Argument(
            help="The entry in the game's notation, e.g. 'c1>c2'; 'p2: ENTRY' names the seat "
            "as the table does."
        ),
    ],
    by: Annotated[
        str | None,
        typer.Option(
            "--by",
            help="Seat or player making the entry (needed when several seats may act); "
            "the same as 'SEAT: ENTRY'.",
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only say whether it would be legal; store nothing.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Record one entry, or exit 1 naming the clause it breaks (the attempt is kept as evidence).

    Text that is not an entry of the game is refused (exit 2) and nothing is stored. With
    --server the entry goes to that running server, checked and kept there.

    \b
    Examples:
      referee act $id 'e1>e2'
      referee act $id 'draw 7' --by p2 --dry-run
    """
    with handled():
        box = settings.outbox()
        offline = False
        if box is not None:
            from cli.offline import echo_synced

            result, sent, offline = box.record(game, action, seat=by, dry_run=dry_run)
            echo_synced(sent)
            if result.game_id not in ("", game):
                say_which(game, result.game_id)
        else:
            result = settings.service(one_shot=True).record(
                game, action, actor=by, by=settings.referee, dry_run=dry_run
            )
        if as_json:
            emit_json(box.offline_answer(result, result.game_id) if box and offline else result)
        else:
            out, err = entry_lines(result)
            if offline:
                from cli.offline import offline_lines

                out, err = offline_lines(result, out, err)
            for line in out:
                typer.echo(line)
            for line in err:
                typer.echo(line, err=True)
        if not result.accepted:
            raise typer.Exit(EXIT_REJECTED)


def _echo_written(written: WrittenEvents, as_json: bool = False) -> None:
    if as_json:
        emit_json(written)
        return
    for number, summary in zip(written.events, written.summaries, strict=True):
        typer.echo(f"event {number}: {summary}")
    if written.ended is not None:
        typer.echo(f"game over: {written.ended.line()}")


@app.command()
def undo(
    game: GameArg,
    reason: Annotated[str, typer.Option("--reason", help="Why the action is taken back.")],
) -> None:
    """Retract the latest standing action (kept in the history as a correction).

    \b
    Example:
      referee undo $id --reason 'misheard the move'
    """
    with handled():
        result = settings.service().retract(game, reason, by=settings.referee)
        typer.echo(f"retracted action {result.retracted[0]} in event {result.events[0]}")


@app.command()
def backup(
    game: GameArg,
    to: Annotated[int, typer.Option("--to", help="The action to back up to (0 for the start).")],
    reason: ReasonOpt,
) -> None:
    """Back one game up to action N (IPG game backup), not a file copy ('referee store
    backup' copies the store): every later action is retracted, newest first, as one
    correction (REF-2.3).

    \b
    Example:
      referee backup $id --to 3 --reason 'wrong pieces'
    """
    with handled():
        result = settings.service().backup(game, to, reason, by=settings.referee)
        actions = ", ".join(str(n) for n in result.retracted)
        typer.echo(
            f"backed up to action {to}: retracted actions {actions} (events "
            f"{result.events[0]}-{result.events[-1]})"
        )


@app.command()
def end(
    game: GameArg,
    resign: Annotated[
        str | None, typer.Option("--resign", help="Seat or player who resigns.")
    ] = None,
    draw: Annotated[bool, typer.Option("--draw", help="The players agree a draw.")] = False,
    adjudicate: Annotated[
        str | None,
        typer.Option(
            "--adjudicate", help="Winning seat or player, or 'draw', by the referee's decision."
        ),
    ] = None,
    ranking: Annotated[
        str | None,
        typer.Option(
            "--ranking", help="Adjudicate a multiplayer ranking: p2>p1=p3 (best first, = for ties)."
        ),
    ] = None,
    reason: Annotated[str, typer.Option("--reason", help="Reason (required to adjudicate).")] = "",
    as_json: JsonOpt = False,
) -> None:
    """End a game by resignation, agreement or adjudication. With three or more seats a
    resignation withdraws the seat and the others play on (REF-3.5).

    \b
    Examples:
      referee end $id --resign blue
      referee end $id --adjudicate red --reason 'time: red ahead'
    """
    with handled():
        chosen = [
            x for x in (resign is not None, draw, adjudicate is not None, ranking is not None) if x
        ]
        if len(chosen) != 1:
            fail(
                "give exactly one of --resign SEAT, --draw, --adjudicate SEAT|draw, --ranking "
                "p2>p1=p3"
            )
        svc = settings.service()
        if resign is not None:
            written = svc.end(game, "resignation", who=resign, reason=reason, by=settings.referee)
        elif draw:
            written = svc.end(game, "agreement", reason=reason, by=settings.referee)
        elif ranking is not None:
            written = svc.end(
                game, "adjudication", ranking=ranking, reason=reason, by=settings.referee
            )
        else:
            written = svc.end(
                game, "adjudication", who=adjudicate, reason=reason, by=settings.referee
            )
        _echo_written(written, as_json)
        if not as_json:
            _echo_next_game(svc, game)


def _echo_next_game(svc: RefereeService, game: str) -> None:
    """For a game of an event's match: the match's next game (and who plays first in it,
    EV-I.10), or the match's result once decided."""
    place = svc.event_game_place(game)
    if place is None:
        return
    where = place.stage if place.stage != f"round {place.round}" else f"round {place.round}"
    if place.next_game:
        first = f"; {place.next_first} plays first" if place.next_first else ""
        typer.echo(
            f"next game of the match ({where}, table {place.table}): {place.next_game} "
            f"(game {place.game + 1}{first})"
        )
    elif place.result:
        typer.echo(f"the match ({where}, table {place.table}) is decided: {place.result}")


PENALTIES = {
    "warning": "warning",
    "game-loss": "game_loss",
    "match-loss": "match_loss",
    "disqualification": "disqualification",
}


class _PenaltyGroup(TyperGroup):
    """``referee penalty GAME WHO LEVEL`` issues a penalty as it always did;
    ``referee penalty withdraw GAME N`` withdraws one: a first word that is not a
    subcommand is the game of ``issue``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["issue", *args]
        return super().parse_args(ctx, args)


penalty_app = typer.Typer(
    cls=_PenaltyGroup,
    no_args_is_help=True,
    help="Issue a judge's penalty (REF-7): 'referee penalty GAME WHO LEVEL --infraction ...'; "
    "withdraw one (REF-7.3): 'referee penalty withdraw GAME N --reason ...'.",
)


@penalty_app.command("issue")
def penalty(
    game: GameArg,
    who: Annotated[str, typer.Argument(help="Seat or player penalised.")],
    level: Annotated[
        str, typer.Argument(help="warning, game-loss, match-loss or disqualification.")
    ],
    infraction: Annotated[
        str, typer.Option("--infraction", help="The infraction, as the judge names it.")
    ],
    reason: ReasonOpt = "",
    as_json: JsonOpt = False,
) -> None:
    """Record a judge's penalty (REF-7). A loss ends the seat's game by ruling.

    \b
    Example:
      referee penalty issue $id red warning --infraction slow-play
    """
    with handled():
        chosen = PENALTIES.get(level.strip().lower().replace("_", "-"))
        if chosen is None:
            fail(f"a penalty is one of {', '.join(PENALTIES)}, not {level!r}")
        written = settings.service().penalty(
            game,
            who,
            chosen,  # type: ignore[arg-type]
            infraction,
            reason=reason,
            by=settings.referee,
        )
        _echo_written(written, as_json)


@penalty_app.command("withdraw")
def withdraw_penalty(
    game: GameArg,
    number: Annotated[int, typer.Argument(help="The penalty's event number ('referee log').")],
    reason: Annotated[str, typer.Option("--reason", help="Why it is withdrawn.")] = "",
    as_json: JsonOpt = False,
) -> None:
    """Withdraw a penalty given in error (REF-7.3, the head referee): it stays in the
    record, marked withdrawn; a result it declared is voided, one it set aside declared
    again.

    \b
    Example:
      referee penalty withdraw $id 9 --reason 'given in error'
    """
    with handled():
        written = settings.service().withdraw_penalty(
            game, number, reason=reason, by=settings.referee
        )
        _echo_written(written, as_json)


app.add_typer(penalty_app, name="penalty")


@app.command()
def adjust(
    game: GameArg,
    changes: Annotated[
        str | None,
        typer.Argument(
            help="Changes, ';' between them: 'move p1 hand>discard Fire Imp', 'stat #12 attack "
            "+300', 'resource p1 gas -500', 'tap #12', 'untap #12', 'destroy #12', 'draw p1 2'."
        ),
    ] = None,
    card: Annotated[
        str,
        typer.Option(
            "--card",
            help="The card whose effect this carries out, as the catalog names it (none for "
            "a correction of the position no card caused, REF-6.5).",
        ),
    ] = "",
    reason: Annotated[str, typer.Option("--reason", help="The referee's ruling, in words.")] = "",
    answers: Annotated[
        int | None,
        typer.Option(
            "--answers", help="The event that asked for this ruling (default: the one awaited)."
        ),
    ] = None,
    none: Annotated[
        bool, typer.Option("--none", help="The ruling is that the effect changes nothing.")
    ] = False,
    revealed: Annotated[
        bool,
        typer.Option(
            "--revealed",
            help="The effect showed the card to the table: a named card moved between hidden "
            "zones (pool>hand, deck>hand) is otherwise read by its seat and the referee only, "
            "the others reading 'a hidden card' (REF-6.6).",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Carry out a referee's ruling on card text as primitive changes (REF-6).

    \b
    Example:
      referee adjust $id 'stat #12 attack +300' --card 'Fire Imp' --reason 'its text'
    """
    with handled():
        if none == bool(changes):
            fail("give the changes, or --none when the ruling changes nothing")
        written = settings.service().adjust(
            game,
            changes or "",
            card=card,
            reason=reason,
            by=settings.referee,
            resolves=answers,
            revealed=revealed,
        )
        _echo_written(written, as_json)


deck_app = typer.Typer(help="Register, seal and open decklists (REF-5).", no_args_is_help=True)

WhoArg = Annotated[str, typer.Argument(help="Seat or player.")]
app.add_typer(deck_app, name="deck")


@deck_app.command("seal")
def deck_seal(
    file: Annotated[
        Path,
        typer.Argument(
            help="The decklist: one card a line, '4 Fire Imp' ('4x Fire Imp', 'Fire Imp x4'), "
            "'#' comments; or JSON {\"Fire Imp\": 4} (README: Decklists)."
        ),
    ],
    as_json: JsonOpt = False,
) -> None:
    """Seal a decklist: prints the commitment to register and the salt to keep secret.

    \b
    Example:
      referee deck seal ann.txt
    """
    with handled():
        from service.api import seal_decklist

        decklist = read_decklist(file)
        sealed, salt = seal_decklist(decklist)
        if as_json:
            emit_json(
                {
                    "commitment": sealed.commitment,
                    "size": sealed.size,
                    "salt": salt,
                    "register": f"{sealed.commitment}:{sealed.size}",
                }
            )
            return
        typer.echo(f"register: --sealed SEAT={sealed.commitment}:{sealed.size}")
        typer.echo(f"salt (keep it with the list; it opens the seal): {salt}")


@deck_app.command("register")
def deck_register(
    game: GameArg,
    who: WhoArg,
    file: Annotated[
        Path | None, typer.Argument(help="The decklist file (open registration).")
    ] = None,
    sealed: SealedOpt = None,
) -> None:
    """Register a seat's decklist before the first action (REF-5.1, REF-5.2).

    \b
    Examples:
      referee deck register $id p1 ann.txt
      referee deck register $id p2 --sealed COMMITMENT:40
    """
    with handled():
        deck = one_deck(file, sealed, "give the decklist file, or --sealed COMMITMENT:SIZE")
        written = settings.service().register_deck(game, who, deck, by=settings.referee)
        _echo_written(written)


@deck_app.command("open")
def deck_open(
    game: GameArg,
    who: WhoArg,
    file: Annotated[Path, typer.Argument(help="The decklist that was sealed.")],
    salt: Annotated[str, typer.Option("--salt", help="The salt 'deck seal' printed.")],
) -> None:
    """Open a sealed decklist at a deck check or at the end (REF-5.3); exit 1 if it fails.

    \b
    Example:
      referee deck open $id p1 ann.txt --salt SALT
    """
    with handled():
        result = settings.service().open_deck(
            game, who, read_decklist(file), salt.strip(), by=settings.referee
        )
        if result.accepted:
            typer.echo(f"{result.seat}'s sealed list opened (event {result.event})")
            return
        typer.echo(
            f"{result.seat}'s sealed list did not open (kept as evidence, event {result.event}):",
            err=True,
        )
        from service.wording import violation_lines

        for line in violation_lines(result.violations):
            typer.echo(f"  {line}", err=True)
        raise typer.Exit(EXIT_REJECTED)

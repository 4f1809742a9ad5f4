"""Commands that read: positions, legal entries, logs, replays, the games list, rulebooks,
catalogs and a game's own reports."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cli.face import (
    AsOpt,
    GameArg,
    GameTypeOpt,
    JsonOpt,
    emit_json,
    emit_json_array,
    fail,
    handled,
    parse_pairs,
    read_option_file,
    say_which,
    settings,
)

if TYPE_CHECKING:
    from referee.rulebook import Clause
    from service.outbox import Pending
    from service.results import PositionView

app = typer.Typer()


def status_line(pos: PositionView) -> str:
    """Whose turn it is, or how the game ended (never a turn once it is over)."""
    if pos.ended is not None:
        return f"game over: {pos.ended.line()}"
    if pos.at != pos.standing_actions:
        return f"(position after {pos.at} of {pos.standing_actions} actions)"
    if pos.pending_rulings:
        awaited = pos.pending_rulings[0]
        return (
            f"a ruling on {awaited.rulings[0].card} is awaited (event {awaited.event}): "
            "'referee adjust' records it"
        )
    if not pos.to_act:
        return "no seat may act"
    names = [f"{seat} ({pos.players[seat]})" for seat in pos.to_act]
    return (
        f"{names[0]} to act"
        if len(names) == 1
        else f"{', '.join(names)} may act (name the seat with --by)"
    )


def header_line(pos: PositionView) -> str:
    from service.wording import safe_text

    players = " vs ".join(f"{seat}: {safe_text(name)}" for seat, name in pos.players.items())
    return f"{pos.game_id}  {pos.ruleset}  {players}"


@app.command()
def show(
    game: GameArg,
    at: Annotated[
        int | None,
        typer.Option(
            "--at", help="The position after N standing actions (0 is the start; default now)."
        ),
    ] = None,
    as_: AsOpt = None,
    fen: Annotated[
        bool,
        typer.Option(
            "--fen",
            help="The position as one line of text (the referee's), which "
            "'referee new GAME --from-position TEXT' sets up again.",
        ),
    ] = False,
    svg: Annotated[
        bool,
        typer.Option(
            "--svg",
            help="The board drawn as one SVG document on standard output (as --as may see it; "
            "'> board.svg' to paste into a ruling or a report).",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Draw the position (now, or after N actions), as the referee or a seat may see it.

    \b
    Examples:
      referee show $id --at 3
      referee show $id --svg --as public > board.svg
    """
    with handled():
        if svg:
            if as_json or fen:
                fail("--svg writes a drawing: not with --json or --fen")
            typer.echo(settings.service(one_shot=True).position_svg(game, at=at, viewer=as_))
            return
        if fen:
            if as_ not in (None, "referee"):
                fail("a position string is the referee's (it may hold what only the referee knows)")
            text = settings.service(one_shot=True).position_text(game, at=at)
            emit_json({"position": text}) if as_json else typer.echo(text)
            return
        box = settings.outbox()
        pending: list[Pending] = []
        if box is not None:
            from cli.offline import echo_synced

            pos, sent, offline = box.position(game, at=at, viewer=as_)
            echo_synced(sent)
            pending = box.pending(pos.game_id) if offline else []
            if pos.game_id != game:
                say_which(game, pos.game_id)
        else:
            pos = settings.service(one_shot=True).position(game, at=at, viewer=as_)
        if as_json:
            emit_json(box.offline_answer(pos, pos.game_id) if box and offline else pos)
            return
        typer.echo(header_line(pos))
        last = f"; last: {pos.last_action}" if pos.last_action else ""
        typer.echo(f"after {pos.at} of {pos.standing_actions} actions{last}")
        typer.echo(pos.board)
        typer.echo(status_line(pos))
        if box is not None and offline:
            from cli.offline import pending_lines

            for line in pending_lines(box, pos.game_id, pending):
                typer.echo(line)


PositionGameOpt = Annotated[
    str,
    typer.Option(
        "--game",
        help="The game the position string is of: prizmik, prismata, prismatic, crystale "
        "or gammasphere.",
    ),
]
PositionVariantOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--variant",
        help="KEY=VALUE switch the position is played under ('referee rules GAME' lists them).",
    ),
]
PositionRulesetOpt = Annotated[
    str | None, typer.Option("--ruleset", help="The ruleset (default: the game's first).")
]


@app.command()
def legal(
    game: Annotated[
        str | None,
        typer.Argument(help="Game id, or a unique ending of it (at least 4 characters)."),
    ] = None,
    seat: Annotated[str | None, typer.Option("--by", help="Only this seat's entries.")] = None,
    position: Annotated[
        str | None,
        typer.Option(
            "--position",
            help="List the entries of this position string instead of a stored game's "
            "('referee show GAME --fen' prints one); reads no store.",
        ),
    ] = None,
    kind: PositionGameOpt = "prizmik",
    variant: PositionVariantOpt = None,
    ruleset: PositionRulesetOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List every legal entry in the current position, or in a position string (--position).

    While a ruling on card text is awaited (REF-6.2) no entry of the game may be recorded:
    the command says so, by whom it is awaited, and lists the adjustments that answer it.

    \b
    Examples:
      referee legal $id --by p1
      referee legal --position '2f1f1f1/8/8/8/8/8/8/2F1F1F1 r 3/3 0 0' --json
    """
    with handled():
        if position is not None:
            if game is not None:
                fail("give a game id or --position, not both")
            legal_of_position(position, kind, variant, ruleset, seat, as_json)
            return
        if game is None:
            fail("name a game (its id, or a unique ending of it), or give --position TEXT")
        if variant or ruleset is not None or kind != "prizmik":
            fail("--game, --variant and --ruleset go with --position: a stored game has its own")
        box = settings.outbox()
        if box is not None:
            from cli.offline import echo_synced

            legal_now, sent, offline = box.legal(game, seat=seat)
            echo_synced(sent)
            if offline:
                typer.echo("(judged offline: the server cannot be reached)", err=True)
        else:
            legal_now = settings.service().legal(game, seat=seat)
        if as_json:
            emit_json(
                box.offline_answer(legal_now, legal_now.game_id) if box and offline else legal_now
            )
            return
        if legal_now.awaited is not None:
            typer.echo(legal_now.awaited.message)
            typer.echo("what may be entered now:")
            for line in legal_now.awaited.entries:
                typer.echo(f"  referee {line.replace('adjust ', f'adjust {game} ', 1)}")
            return
        echo_legal(legal_now.actions, legal_now.to_act, legal_now.seat)


def echo_legal(actions: list[str], to_act: list[str], seat: str | None) -> None:
    """The legal entries for a reader: how many and for whom, then ``legal_lines``; or
    that there are none (and whether any seat may act at all)."""
    if not actions:
        typer.echo("no legal entries" + ("" if to_act else ": no seat may act"))
        return
    who = seat or ", ".join(to_act)
    typer.echo(f"{len(actions)} legal entries for {who}:")
    for line in legal_lines(actions):
        typer.echo(line)


def legal_of_position(
    text: str,
    kind: str,
    variants: list[str] | None,
    ruleset: str | None,
    seat: str | None,
    as_json: bool,
) -> None:
    """``legal --position``: the entries of a position string, from the rules alone."""
    from service.api import legal_at

    found = legal_at(
        kind, text, seat=seat, variants=parse_pairs(variants, "--variant"), ruleset=ruleset
    )
    if as_json:
        emit_json(found)
        return
    echo_legal(found.actions, found.to_act, found.seat)


@app.command()
def perft(
    position: Annotated[
        str,
        typer.Argument(
            help="A position string, as 'referee show GAME --fen' prints one "
            "(PRIZMIK: BOARD SIDE RESERVES PLY QUIET)."
        ),
    ],
    kind: PositionGameOpt = "prizmik",
    variant: PositionVariantOpt = None,
    ruleset: PositionRulesetOpt = None,
    depth: Annotated[
        int, typer.Option("--depth", "-d", help="Actions deep to count, 0 to 50 (0 counts 1).")
    ] = 1,
    divide: Annotated[
        bool,
        typer.Option(
            "--divide",
            help="Also print each first entry with the count below it (to find where "
            "two implementations part).",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Count the lines of play DEPTH actions long from a position string (perft): the
    leaves of its game tree, a finished game having none below it. Counted by the rules
    the referee judges with; no store is read or made. Only games whose legal entries can
    all be listed are counted (PRIZMIK, Prismata); the others are refused, saying why.

    With --json, one object: {"game", "position", "depth", "nodes", "divide": {ENTRY: N}}
    (divide always given; ENTRY is "SEAT: ENTRY" when several seats may act).

    \b
    Examples:
      referee perft '2f1f1f1/8/8/8/8/8/8/2F1F1F1 r 3/3 0 0' --depth 3        # 1071
      referee perft "$(referee show $id --fen)" --depth 2 --divide
      referee perft 'ff5f/8/8/8/8/8/8/FF5F r 3/3 0 0' --variant setup_files=abh -d 2 --json
    """
    with handled():
        from service.api import perft as count

        counted = count(
            kind, position, depth, variants=parse_pairs(variant, "--variant"), ruleset=ruleset
        )
        if as_json:
            emit_json(counted)
            return
        if divide:
            for entry, nodes in counted.divide.items():
                typer.echo(f"{entry}: {nodes}")
            typer.echo("")
        typer.echo(f"nodes {counted.nodes} at depth {counted.depth}")


def legal_lines(actions: list[str]) -> list[str]:
    """Legal entries for a reader: one a line, grouped under their first word (play,
    attack, activate, ...) where entries are words; one line of short ones (``e1>e2``)."""
    if not any(" " in a for a in actions):
        return [" ".join(actions)]  # short notation (PRIZMIK, Nim) reads fine on one line
    kinds: dict[str, list[str]] = {}
    for action in actions:
        kinds.setdefault(action.split(" ", 1)[0], []).append(action)
    lines: list[str] = []
    for kind, entries in kinds.items():
        if entries == [kind]:  # a bare word (end, pass) is its own line
            lines.append(kind)
        else:
            lines.append(f"{kind} ({len(entries)}):")
            lines += [f"  {entry}" for entry in entries]
    return lines


@app.command()
def log(game: GameArg, as_: AsOpt = None, as_json: JsonOpt = False) -> None:
    """Every event of a game: entries, rejections, corrections, rulings, penalties, the result.

    \b
    Example:
      referee log $id --as public
    """
    with handled():
        from service.wording import event_line

        svc = settings.service()
        if as_json:
            emit_json_array(svc.iter_log(game, viewer=as_))
            return
        _, events = svc.log_events(game, viewer=as_)
        for event in events:
            typer.echo(event_line(event))


@app.command()
def replay(
    game: GameArg,
    start: Annotated[
        int, typer.Option("--from", help="First position (or event, with --session) shown.")
    ] = 0,
    stop: Annotated[
        int | None, typer.Option("--to", help="Last position (or event) shown.")
    ] = None,
    session: Annotated[
        bool,
        typer.Option(
            "--session",
            help="Every event as it happened at the table, with "
            "the position after each correction too.",
        ),
    ] = False,
    as_: AsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Step through a game: the starting position, then each action and the position after it.

    By default the standing line of play, with rejections and corrections noted where
    they happened; --session replays the table's events in order instead.

    \b
    Example:
      referee replay $id --from 0 --session
    """
    with handled():
        svc = settings.service()
        frames = svc.replay(game, start=start, stop=stop, session=session, viewer=as_)
        if as_json:
            emit_json(frames)
            return
        for frame in frames:
            for note in frame.notes:
                typer.echo(f"  ({note})")
            typer.echo(f"\n[event {frame.event}, position {frame.ply}] {frame.what}")
            typer.echo(frame.board)
            for dispute in frame.disputes:
                typer.echo(f"  ({dispute})")
        pos = svc.position(game, viewer=as_)
        typer.echo(f"\n{status_line(pos)}")


@app.command(name="games")
def list_games(
    limit: Annotated[int, typer.Option("--limit", help="How many games (newest first).")] = 50,
    before: Annotated[
        int | None,
        typer.Option(
            "--before", help="The next page: games before this cursor (printed after each page)."
        ),
    ] = None,
    offset: Annotated[int, typer.Option("--offset", help="Skip this many games first.")] = 0,
    player: Annotated[
        str | None, typer.Option("--player", help="Only games this player sat in.")
    ] = None,
    game_type: GameTypeOpt = None,
    status: Annotated[str | None, typer.Option("--status", help="open or finished.")] = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            help="Only games started on or after this date (2026-11-23, or a full ISO time).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """List the games in the store, newest first, a page at a time.

    \b
    Example:
      referee games --player Alice --status open
    """
    with handled():
        from service.results import GameQuery
        from service.wording import safe_text

        rows = settings.service().games(
            GameQuery(
                limit=limit,
                offset=offset,
                before=before,
                player=player,
                game=game_type,
                status=status,
                since=since,
            )
        )
        if as_json:
            emit_json(rows)
            return
        if not rows:
            filtered = (
                any(x is not None for x in (player, game_type, status, since, before)) or offset
            )
            typer.echo(
                "no games match"
                if filtered
                else "no games yet: start one with 'referee new GAME --player SEAT=NAME ...'"
            )
            return
        for r in rows:
            players = " vs ".join(f"{safe_text(name)} ({seat})" for seat, name in r.players.items())
            typer.echo(f"{r.game_id}  {r.created:%Y-%m-%d %H:%M}  {players}  {r.result_text}")
        if len(rows) == limit:
            typer.echo(f"(more: --before {rows[-1].cursor})", err=True)


def clause_text(c: Clause, markdown: bool = False) -> str:
    import textwrap

    kind = "Interpretation" if c.kind == "interpretation" else "Rule"
    if markdown:
        lines = [
            f"**{c.id} {c.title}** ({kind.lower()}"
            + (f"; variant `{c.variant}`" if c.variant else "")
            + f"): {c.text}"
        ]
        return "\n".join(lines)
    lines = [f"{c.id}  {c.title}  ({kind})", textwrap.fill(c.text, 78)]
    if c.variant:
        lines.append(f"Variant switch: {c.variant}")
    return "\n".join(lines)


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="Game type, or 'procedure' for the REF- clauses.")],
    clause: Annotated[
        str | None, typer.Argument(help="A clause id (PZ-6.2) or a section (PZ-6).")
    ] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every clause in full.")] = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", "--md", help="As Markdown (with --all or a section).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Show a game's rulebook, a section of it, or one clause.

    \b
    Examples:
      referee rules prizmik PZ-6
      referee rules gammasphere --all --markdown > rules.md
    """
    with handled():
        from service.api import clauses, rulebook

        book = rulebook(game)
        if clause is not None:
            found = clauses(game, clause)
            if as_json:
                emit_json(found if len(found) > 1 else found[0])
                return
            typer.echo("\n\n".join(clause_text(c, markdown) for c in found))
            return
        if as_json:
            emit_json(book)
            return
        if markdown:
            typer.echo(f"# {book.title}\n\n{book.source}\n")
        else:
            typer.echo(book.title)
            if book.source:
                typer.echo(book.source)
        for section in book.sections:
            typer.echo(
                f"\n## {section.id} {section.title}\n"
                if markdown
                else f"\n{section.id}  {section.title}"
            )
            for c in book.in_section(section.id):
                if all_ or markdown:
                    typer.echo(
                        ("- " if markdown else "")
                        + clause_text(c, markdown)
                        + ("" if markdown else "\n")
                    )
                else:
                    tag = (
                        " [interpretation" + (f"; variant {c.variant}" if c.variant else "") + "]"
                        if c.kind == "interpretation"
                        else ""
                    )
                    typer.echo(f"  {c.id}  {c.title}{tag}")
        if not (all_ or markdown):
            typer.echo(
                f"\n'referee rules {game} CLAUSE' shows one clause in full ('PZ-6' a section; "
                "--all all)."
            )
        if game.lower() != "procedure":
            from referee import games

            options = games.load(game).variant_options
            if options:
                typer.echo("\nVariant switches (referee new ... --variant KEY=VALUE):")
                for v in options:
                    choices = "|".join(v.choices) if v.choices else "..."
                    typer.echo(
                        f"  {v.key}={choices} (default {v.default}; {v.clause}): {v.summary}"
                    )


@app.command()
def report(
    game: GameArg,
    name: Annotated[str, typer.Argument(help="The report, e.g. 'score' (Prismatic).")],
    as_: AsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """One of a game's own reports on the position (Prismatic's score chart, say).

    \b
    Example:
      referee report $id score
    """
    with handled():
        found = settings.service().report(game, name, viewer=as_)
        if as_json:
            emit_json(found)
            return
        typer.echo(found.title)
        typer.echo(found.text)


@app.command()
def score(game: GameArg, as_: AsOpt = None, as_json: JsonOpt = False) -> None:
    """The score chart of a game that keeps one ('referee report GAME score').

    \b
    Example:
      referee score $id
    """
    report(game, "score", as_, as_json)


catalog_app = typer.Typer(help="Check and list card catalogs.", no_args_is_help=True)
app.add_typer(catalog_app, name="catalog")

CatalogOpt = Annotated[
    str | None,
    typer.Option(
        "--catalog",
        "--ruleset",
        help="Which catalog: a shipped one by its ruleset (prismata/2020), or a table's own "
        "catalog FILE as 'referee new GAME --catalog FILE' reads it (Crystale, Gammasphere).",
    ),
]
CatalogKindOpt = Annotated[
    str | None, typer.Option("--kind", help="Which kind of catalog, for games with several.")
]


@catalog_app.command("check")
def catalog_check(
    file: Annotated[Path, typer.Argument(help="A catalog file (TOML or JSON).")],
    game: Annotated[
        str | None, typer.Option("--game", help="Which game's catalog (default: guessed).")
    ] = None,
    kind: CatalogKindOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate a catalog file; one line naming the file and the problem if it is wrong.

    \b
    Example:
      referee catalog check my-cards.toml --game gammasphere
    """
    with handled():
        from referee import games
        from referee.capabilities import catalogs_of

        text = read_option_file(file)  # not UTF-8: one line naming the file
        candidates = (
            [games.load(game)]
            if game
            else [games.load(n) for n in games.names() if games.load(n).catalog_kinds]
        )
        errors: list[str] = []
        for rules in candidates:
            reader = catalogs_of(rules)
            if reader is None:
                continue
            for k in [kind] if kind else list(rules.catalog_kinds):
                try:
                    catalog = reader.read_catalog(k, text, str(file))
                except ValueError as exc:
                    errors.append(str(exc))
                    continue
                size = len(catalog) if hasattr(catalog, "__len__") else None
                if as_json:
                    emit_json(
                        {
                            "file": str(file),
                            "game": rules.name,
                            "kind": k,
                            "entries": size,
                            "ok": True,
                        }
                    )
                else:
                    typer.echo(
                        f"{file}: a valid {rules.name} {k} catalog"
                        + (f" ({size} entries)" if size is not None else "")
                    )
                return
        fail(
            errors[0]
            if len(errors) == 1
            else f"{file}: not a catalog of any game: " + " | ".join(errors)
        )


@catalog_app.command("show")
def catalog_show(
    game: Annotated[str, typer.Argument(help="Game type.")],
    catalog: CatalogOpt = None,
    kind: CatalogKindOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List a shipped catalog's entries by the names players know.

    \b
    Example:
      referee catalog show gammasphere
    """
    with handled():
        _catalog_rows(game, catalog, kind, as_json)


def _catalog_rows(game: str, ruleset: str | None, kind: str | None, as_json: bool) -> None:
    from referee import games
    from referee.capabilities import catalogs_of
    from referee.contract import Player, Setup

    rules = games.load(game)
    players = tuple(Player(s, s) for s in rules.seats[: rules.player_range()[0]])
    options: dict[str, str] = {}
    file_field = next(
        (f for f in rules.setup_fields if f.flag == "--catalog" and f.kind == "file"), None
    )
    if ruleset is not None and ruleset not in rules.rulesets and file_field is not None:
        # a table's own catalog FILE, as 'referee new GAME --catalog FILE' reads it (the
        # command said "unknown ruleset 'my-cards.toml'")
        options[file_field.key] = read_option_file(Path(ruleset))
        ruleset = None
    if ruleset is not None and ruleset not in rules.rulesets:
        fail(f"unknown ruleset {ruleset!r} for {rules.name}; known: {', '.join(rules.rulesets)}")
    # No ruleset named: the game's own default, which is the one with a shipped catalog.
    listing = catalogs_of(rules)
    kinds = rules.catalog_kinds or ("units",)
    if listing is not None and kind is not None and kind not in kinds:  # was ignored
        fail(f"{rules.name} has no catalog kind {kind!r}; its kinds: {', '.join(kinds)}")
    setup = Setup(players=players, ruleset=ruleset, options=options)
    rows = listing.catalog_rows(setup, kind or kinds[0]) if listing is not None else []
    if not rows:  # under --json too: it answered [] and exit 0 where text mode refused
        fail(f"{rules.name} has no catalog to list")
    if as_json:
        emit_json(rows)
        return
    for row in rows:  # the names players know; --json has the engine's internal names too
        details = ", ".join(
            f"{k} {v}"
            for k, v in row.items()
            if k not in ("name", "internal") and v not in (None, "", False, 0, [])
        )
        typer.echo(f"{row['name']}: {details}")


@app.command()
def units(
    game: Annotated[str, typer.Argument(help="Game with a unit catalog: prismata.")] = "prismata",
    catalog: CatalogOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List a catalog's units with their stats, by display name ('catalog show').

    \b
    Example:
      referee units crystale
    """
    with handled():
        _catalog_rows(game, catalog, None, as_json)

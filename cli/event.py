"""``referee event ...``: run an event (tournament) on the same ledger as its games.

A thin face over ``service.tournaments``: every command loads the event, lets the
pure core decide, and stores the new facts (or refuses with one line naming the
``EV-`` clause, exit 2, nothing stored). Heavy modules are imported inside the
commands so ``referee --help`` stays quick.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.event_fixes import DeckOpt
from cli.event_fixes import register as register_fixes
from cli.face import (
    EntrantArg,
    EventArg,
    JsonOpt,
    ReasonOpt,
    SealedOpt,
    deck_from,
    emit,
    emit_json,
    fail,
    handled,
    long_lived,
    refuse_replacing_a_database,
    settings,
)
from cli.postings import KeyOpt, PostingOpt, print_posting
from cli.postings import verify as verify_posting

if TYPE_CHECKING:
    from service.api import (
        BracketView,
        EventInfo,
        EventService,
        LogLine,
        PairingRow,
        PairingSheet,
        StandingRow,
    )

app = typer.Typer()

event_app = typer.Typer(
    name="event",
    help=(
        "Run an event: register players, pair rounds (their games are created), take "
        "results, correct them, and post pairings and standings (MTR Appendix C).\n\n"
        "\b\nA Swiss event of best-of-3 matches with a top-8 cut:\n"
        "  ev=$(referee event new 'Friday' --game gammasphere --cut 8 | tail -1)\n"
        "  referee event register $ev --player Ann --player Ben --player Cal\n"
        "  referee event pair $ev               # pairs round 1, creates its games\n"
        "  referee event result $ev 1=2-1-0     # table 1: the first-listed won 2-1\n"
        "  referee event standings $ev --json\n\n"
        "Exit codes: 0 done, 2 refused (the EV- clause and why; nothing stored), 3 another "
        "writer changed the event at the same moment (nothing stored)."
    ),
    no_args_is_help=True,
)
app.add_typer(event_app)

RoundOpt = Annotated[
    int | None, typer.Option("--round", min=1, help="A round number (default: the latest).")
]


CsvOpt = Annotated[bool, typer.Option("--csv", help="Comma-separated values, a header first.")]


def _print_sheet(sheet: PairingSheet, *, by_name: bool = False) -> None:
    """A round's pairings as posted: the event and the round, each player's points going in
    and the result once in."""
    stage = (
        sheet.stage
        if sheet.stage == f"round {sheet.round}"
        else (f"{sheet.stage} (round {sheet.round})")
    )
    typer.echo(f"{sheet.name} · {stage} · pairings by {'name' if by_name else 'table'}")
    if by_name:
        seats = sorted(
            ((seat, line) for line in sheet.lines for seat in line.seats),
            key=lambda item: (item[0].player.casefold(), item[0].player),
        )
        for seat, line in seats:
            where = "  bye" if line.bye else f"{line.table:>5}"
            others = ", ".join(f"{o.player} ({o.points})" for o in line.seats if o is not seat)
            against = f"  v {others}" if others else ""
            result = f"   {seat.result}" if seat.result and not line.bye else ""
            typer.echo(f"{seat.player:<24} ({seat.points:>2}) {where}{against}{result}")
        return
    for line in sheet.lines:
        players = " v ".join(f"{seat.player} ({seat.points})" for seat in line.seats)
        result = f"   {line.result}" if line.result else ""
        typer.echo(_table_line(line.bye, line.table, players, result))


def _table_line(bye: bool, table: int | None, players: str, tail: str) -> str:
    """A table of a round as the sheet and 'event pair' print it: its number (or 'bye'),
    then the players; ``tail`` (the result, the games) after a table's."""
    return f"  bye  {players}" if bye else f"{table:>5}  {players}{tail}"


event_app.command("verify")(verify_posting)


@event_app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The event's name, as players know it.")],
    game: Annotated[str, typer.Option("--game", help="The game played (gammasphere, ...).")],
    format: Annotated[
        str, typer.Option("--format", help="swiss, elimination or round-robin.")
    ] = "swiss",
    pods: Annotated[
        bool, typer.Option("--pods", help="Tables of 4, then 3 (games of 3-4 players).")
    ] = False,
    rounds: Annotated[
        int | None,
        typer.Option("--rounds", min=1, help="Swiss rounds (default: from the player count)."),
    ] = None,
    match: Annotated[str, typer.Option("--match", help="bo1, bo3 or bo5.")] = "bo3",
    cut: Annotated[
        int, typer.Option("--cut", min=0, help="Top N to single elimination after Swiss.")
    ] = 0,
    floor: Annotated[
        str,
        typer.Option("--floor", help="Percentage floor: 1/3 (exact, default) or 0.33 (printed)."),
    ] = "1/3",
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            min=0,
            help="Seed of round 1's draw and every random choice (EV-5.6); recorded and "
            "posted with round 1. Default: chosen at random and recorded.",
        ),
    ] = None,
    deck_deadline: Annotated[
        int | None,
        typer.Option(
            "--deck-deadline",
            min=1,
            help="Decklists may be attached or replaced until round N is paired (EV-2.8; "
            "default 1: the start of round 1). A late entry's lock at their first round.",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create an event; prints its id alone on the last line (with --json, one JSON object).

    \b
    Example:
      ev=$(referee event new 'Friday Open' --game prizmik --rounds 5 --match bo3 --cut 8 | tail -1)
    """
    with handled():
        info = settings.service(create=True).event_new(
            name,
            game,
            format=format,
            pods=pods,
            rounds=rounds,
            match=match,
            cut=cut,
            floor="0.33" if floor.strip() in ("0.33", ".33") else floor.strip(),
            seed=seed,
            deck_deadline=deck_deadline,
        )
        if as_json:
            emit_json(info)  # one JSON document: its id is in it
            return
        typer.echo(
            f"{info.name}: {info.game} {info.format}{' pods' if info.pods else ''}, "
            f"{info.match}{f', top {info.cut} cut' if info.cut else ''}"
        )
        typer.echo(info.event_id)


@event_app.command("register")
def register(
    event: EventArg,
    player: Annotated[
        list[str] | None,
        typer.Option("--player", help="A player's name (repeat for several)."),
    ] = None,
    rating: Annotated[
        list[int] | None,
        typer.Option(
            "--rating",
            help="A player's rating, a whole number from 0 to 9,999, once per --player in the "
            "same order (the players past them have none): round 1 is seeded by rating, "
            "highest first (EV-5.6, EV-2.11).",
        ),
    ] = None,
    players_file: Annotated[
        Path | None,
        typer.Option(
            "--players",
            help="A roster file (CSV), one player a row: name,rating,player_id (the last two "
            "may be empty or left out; a first row 'name,rating,...' is a header). Its "
            "players are registered after any --player.",
        ),
    ] = None,
    deck: DeckOpt = None,
    sealed: SealedOpt = None,
    bye: Annotated[
        int, typer.Option("--bye", min=0, help="Awarded byes: the player's first N rounds.")
    ] = 0,
    player_id: Annotated[
        list[str] | None,
        typer.Option(
            "--player-id",
            help="A player's id across the house ('referee token create --role player "
            "--player-id ID'), once per --player in the same order (a new id for each player "
            "past them): their event games' seats are bound to it, so their own token acts "
            "for them and finds their page.",
        ),
    ] = None,
    allow_similar: Annotated[
        bool,
        typer.Option(
            "--allow-similar",
            help="Register a name that looks like another in this event (another case, or "
            "look-alike letters from another script): two real people, told apart by id.",
        ),
    ] = False,
    late_as_losses: Annotated[
        bool,
        typer.Option(
            "--late-as-losses",
            help="A late entry takes a match loss (0-2) for each round already played "
            "(EV-2.9, as Magic events allow). Default: no losses; the missed rounds are "
            "not counted as played (EV-I.6).",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Register players (after round 1 is paired: a late entry, EV-2.3). Each gets an
    event id (p1, p2, ...) and is bound to a player id across the house (printed).

    \b
    Example:
      referee event register $ev --player Ann --player Ben --player Cal
      referee event register $ev --player Ann --rating 1850 --player Ben --rating 1720
      referee event register $ev --players roster.csv    # name,rating rows
    """
    with handled():
        chosen = deck_from(deck, sealed, "give --deck FILE or --sealed COMMIT:SIZE, not both")
        names, house_ids = list(player or []), list(player_id or [])
        ratings: list[int | None] = list(rating or [])
        if players_file is not None:
            from service.api import read_roster

            roster = read_roster(_read_text(players_file))
            if len(house_ids) < len(names) and roster.player_ids:
                fail("give --player-id for every --player, or no player ids in the roster")
            if len(ratings) > len(names):
                fail(f"{len(ratings)} --rating for {len(names)} --player: one a player")
            ratings += [None] * (len(names) - len(ratings))
            names += roster.names
            ratings += roster.ratings
            house_ids += roster.player_ids
        svc = settings.events()
        ids = svc.event_register(
            event,
            names,
            deck=chosen,
            byes=bye,
            player_ids=house_ids,
            allow_similar=allow_similar,
            late_as_losses=late_as_losses,
            ratings=ratings,
        )
        entrants = svc.event_state(event).players
        house = [str(entrants[i].player_id or "") for i in ids]
        rated = [entrants[i].rating for i in ids]
        if as_json:
            emit_json({"registered": names, "ids": ids, "player_ids": house, "ratings": rated})
        else:
            typer.echo(
                f"registered {len(ids)}: "
                + ", ".join(
                    f"{entrants[i].name} ({i}, player id {h}"
                    + (f", rating {r})" if r is not None else ")")
                    for i, h, r in zip(ids, house, rated, strict=True)
                )
            )


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")  # a spreadsheet's CSV may start with a BOM
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{path}: cannot be read ({exc})")


@event_app.command("drop")
def drop(
    event: EventArg,
    name: EntrantArg,
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the log).")] = "",
) -> None:
    """Drop a player: they leave after the current round and stay in the standings; in a
    playoff the drop concedes their match (EV-2.10).

    \b
    Example:
      referee event drop $ev Cal --reason 'went home'
    """
    with handled():
        typer.echo(settings.events().event_drop(event, name, reason=reason).line)


ManualOpt = Annotated[
    Path | None,
    typer.Option(
        "--manual",
        help='Pairings by hand, a JSON file: {"pairs": [["Ann","Ben"]], "byes": ["Cal"]} '
        '(pods: {"pods": [[...]]}).',
    ),
]


def _read_manual(path: Path | None) -> dict[str, Any] | None:
    """The pairings a ``--manual`` file gives, or ``None`` without one."""
    import msgspec

    if path is None:
        return None
    try:
        data = msgspec.json.decode(path.read_bytes())
    except msgspec.DecodeError as exc:
        fail(f"{path}: not JSON ({exc})")
    if not isinstance(data, dict):
        fail(f'{path}: a manual pairing is a JSON object: {{"pairs": [...], "byes": [...]}}')
    return data


def _print_pairings(rows: list[PairingRow]) -> None:
    for row in rows:
        players = row.players[0] if row.bye else " v ".join(row.players)
        games = f"   [{', '.join(row.games)}]" if row.games else ""
        typer.echo(_table_line(row.bye, row.table, players, games))


@event_app.command("pair")
def pair(
    event: EventArg,
    manual: ManualOpt = None,
    reason: Annotated[
        str, typer.Option("--reason", help="Why the round is paired by hand (audit).")
    ] = "",
    as_json: JsonOpt = False,
) -> None:
    """Pair the next round, create its games, and print the pairings. By hand (--manual)
    needs --reason (EV-5.11). Round 1 is drawn from the event's seed (EV-5.6, 'event
    draw'); a deck event warns about players without a list (EV-2.8).

    \b
    Examples:
      referee event pair $ev
      referee event pair $ev --manual hand.json --reason 'travel byes'
    """
    with handled(), long_lived():
        svc = settings.events()
        by_hand = _read_manual(manual)
        before = svc.event_info(event).version if by_hand is not None else 0
        rows = svc.event_pair(event, manual=by_hand, reason=reason, by=settings.referee)
        missing = svc.event_missing_decks(event)
        if as_json:
            emit_json(rows)
        else:
            _print_pairings(rows)
        warned = [f"warning: {name} has no decklist (EV-2.8)" for name in missing]
        if by_hand is not None:  # rematches and second byes, as the audit records them
            warned += [f"warning: {w}" for w in svc.event_pairing_warnings(event, before)]
        if warned:  # one write: at 10,000 players, one each cost a tenth of the command
            typer.echo("\n".join(warned), err=True)


@event_app.command("repair")
def repair(
    event: EventArg,
    reason: Annotated[str, typer.Option("--reason", help="Why the head judge re-pairs (audit).")],
    manual: ManualOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Re-pair the open round (head judge, EV-5.12): shows the tables kept and what moved;
    the replaced tables' games are closed as void (EV-3.9). The engine re-pairs it, and
    tables with a result keep it; or --manual gives the new pairings, before any result.

    \b
    Example:
      referee event repair $ev --reason 'Hal is back'
    """
    with handled():
        svc = settings.events()
        before = svc.event_info(event).version
        done = svc.event_repair_moves(
            event, _read_manual(manual), reason=reason, by=settings.referee
        )
        warned = [f"warning: {w}" for w in svc.event_pairing_warnings(event, before)]
        if warned:  # rematches and second byes of a re-pairing, as the audit records them
            typer.echo("\n".join(warned), err=True)
        if as_json:
            emit_json(done)
            return
        _print_pairings(done.pairings)
        if done.kept:
            typer.echo("kept with their result: " + ", ".join(f"table {t}" for t in done.kept))
        for line in done.moved:
            typer.echo(f"moved: {line}")
        if not done.moved:
            typer.echo("nothing moved")


@event_app.command("result")
def result(
    event: EventArg,
    slips: Annotated[
        list[str],
        typer.Argument(
            help="TABLE=W-L-D (W: games won by the first-listed); pods TABLE=1:Ann,2:Ben,2:Cal "
            "(place:name; equal places share). The older TABLE=Ann>Ben=Cal needs quotes: "
            "unquoted, the shell reads > as a redirection."
        ),
    ],
) -> None:
    """Report result slips of the current round (all or none are stored).

    \b
    A pod: referee event result EV 3=1:Ann,2:Ben,2:Cal,4:Dee   (EV-7.5)

    \b
    Example:
      referee event result $ev 1=2-1-0 2=0-2-0 3=1-1-1
    """
    with handled():
        settings.events().event_result(event, slips, by=settings.referee)
        # all or none are stored: every slip given (the service counts the facts it
        # wrote, a slip's result and its table's games closed as void, EV-3.9)
        count = len(slips)
        typer.echo(f"{count} result{'s' if count != 1 else ''} recorded")


@event_app.command("correct")
def correct(
    event: EventArg,
    slip: Annotated[
        str,
        typer.Argument(help="TABLE=W-L-D, the corrected result; a pod's TABLE=1:Ann,2:Ben,3:Cal."),
    ],
    reason: Annotated[str, typer.Option("--reason", help="Why (EV-8.1).")],
    round_number: Annotated[
        int | None,
        typer.Option("--round", min=1, help="The round (default: the open one, else the latest)."),
    ] = None,
) -> None:
    """Correct a reported result, with its reason and who (the --referee name).

    \b
    Examples:
      referee event correct $ev 3=0-2-0 --reason 'slip swapped'
      referee event correct $ev 2=1:Cal,2:Ann,3:Ben --round 4 --reason 'places misread'
    """
    from service.wording import correction_consequence

    with handled():
        events = settings.events()
        number = events.event_correct(event, round_number, slip, reason=reason, by=settings.referee)
        said = correction_consequence(events.event_info(event), number)  # EV-8.3, as the desk
        typer.echo(f"round {number} {slip} corrected{said}")


@event_app.command("penalty")
def penalty(
    event: EventArg,
    player: Annotated[
        str, typer.Argument(help="The player penalized (or 'withdraw' to withdraw a penalty).")
    ],
    infraction: Annotated[
        str, typer.Argument(help="The IPG infraction (after 'withdraw': the penalty's number).")
    ],
    reason: Annotated[str, typer.Option("--reason", help="What happened.")] = "",
    chosen: Annotated[
        str | None,
        typer.Option(
            "--penalty",
            help="The head referee's choice: none, warning, game-loss, match-loss or "
            "disqualification (default: the IPG's suggestion, shown either way; none "
            "records the infraction without a penalty).",
        ),
    ] = None,
    result: Annotated[
        str | None,
        typer.Option(
            "--result",
            help="With 'withdraw': the table's result without the penalty, W-L-D (EV-8.7).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Record an IPG penalty and apply it to the match (EV-8.6): a game loss ends the
    player's game in progress as a loss, a match loss decides the match, a
    disqualification drops the player; a repeat is upgraded as the IPG suggests.
    'event penalty EVENT withdraw N --reason TEXT' withdraws penalty N (head referee,
    EV-8.7): its effects are reversed by new facts (an undrop, a corrected result).

    \b
    Examples:
      referee event penalty $ev Max tardiness
      referee event penalty $ev withdraw 2 --reason misjudged --result 1-1-0
    """
    with handled():
        svc = settings.events()
        if player.strip().lower() == "withdraw":
            if not (infraction.isascii() and infraction.isdigit()):
                fail(
                    "EV-8.7: withdraw takes the penalty's number ('event audit'), "
                    f"not {infraction!r}"
                )
            number = int(infraction)
            lines = svc.event_penalty_withdraw(
                event, number, reason=reason, by=settings.referee, result=result
            )
            if as_json:
                emit_json({"withdrawn": number, "stored": lines})
            else:
                for line in lines:
                    typer.echo(line)
            return
        # imported here: the tournament package is a third of the command line's imports,
        # and a command sent to a server (--server) imports no store and no tournament
        from referee.tournament.facts import PENALTY_LEVELS

        if chosen is not None and chosen not in PENALTY_LEVELS:  # worded for the option
            fail(f"EV-8.6: --penalty is one of {', '.join(PENALTY_LEVELS)}, not {chosen!r}")
        if result is not None:
            fail("--result goes with 'withdraw' only")
        given = svc.event_penalize(
            event, player, infraction, penalty=chosen, reason=reason, by=settings.referee
        )
        if as_json:
            emit_json(given)
            return
        typer.echo(f"{given.player}: {given.penalty} (penalty {given.number})")
        typer.echo(f"the IPG suggests: {given.suggested}")
        typer.echo(given.effect)


def _round_mark(action: str, done: str) -> Callable[[str, int | None], None]:
    """The command that marks the round ``action`` (start, end) and says it is ``done``."""

    def mark(event: EventArg, round_number: RoundOpt = None) -> None:
        with handled():
            number = settings.events().event_round(event, action, round_number, by=settings.referee)
            typer.echo(f"round {number} {done}")

    return mark


event_app.command(
    "start-round",
    help="""Mark the round as started (its time is in the log): refused once it has ended
    (EV-5.10).

    \b
    Example:
      referee event start-round $ev
    """,
)(_round_mark("start", "started"))

event_app.command(
    "end-round",
    help="""Mark the round as ended: refused while a table lacks its result (EV-5.10).

    \b
    Example:
      referee event end-round $ev
    """,
)(_round_mark("end", "ended"))


@event_app.command("end")
def end(
    event: EventArg,
    reason: ReasonOpt = "",
    void_open: Annotated[
        bool,
        typer.Option(
            "--void-open",
            help="Close the event's games still open as void (recorded, in the audit) "
            "instead of refusing (EV-1.4, EV-3.9).",
        ),
    ] = False,
) -> None:
    """End the event: refused while a round is open, or while a game of the event is
    open unless --void-open (EV-1.4); nothing is left open silently.

    \b
    Examples:
      referee event end $ev
      referee event end $ev --void-open --reason 'the hall closed'
    """
    with handled():
        closed = settings.events().event_end(
            event, reason=reason, void_open=void_open, by=settings.referee
        )
        if closed:
            typer.echo(f"closed as void: {', '.join(closed)}")
        typer.echo("event ended")


@event_app.command("handover")
def handover(
    event: EventArg,
    to: Annotated[str, typer.Option("--to", help="The name of the store that writes it next.")],
) -> None:
    """Hand the event and its games over to another store (REF-9.2, docs/offline.md):
    recorded in the event; this store then holds a replica and refuses writes to it, and
    the other store writes it once its replica has copied the hand-over.

    \b
    Example:
      referee event handover $ev --to cloud
    """
    from service.api import handover

    with handled():
        done = handover(settings.service(), event, to)
        typer.echo(
            f"{done.event_id} handed over to {done.to} (event {done.number}, "
            f"{done.streams} streams); this store ({done.by}) now holds a replica"
        )


@event_app.command("pairings")
def pairings(
    event: EventArg,
    round_number: RoundOpt = None,
    as_json: JsonOpt = False,
    posting: PostingOpt = False,
    key: KeyOpt = None,
    by: Annotated[str, typer.Option("--by", help="table (default) or name.")] = "table",
    as_csv: CsvOpt = False,
) -> None:
    """A round's pairings (the latest by default) under the event's name and the round's
    (a playoff round by its stage): each player's points going in and, once in, the result;
    by table (byes last) or --by name; --csv for a spreadsheet; with --posting, the
    verifiable posting (docs/tournaments.md, "Postings").

    \b
    Example:
      referee event pairings $ev --by name --csv > wall.csv
    """
    if by not in ("table", "name"):
        fail(f"--by is table or name, not {by!r}")
    _one_output(as_json=as_json, as_csv=as_csv, posting=posting, key=key)
    with handled():
        if posting:
            print_posting(event, "pairings", round_number, key)
            return
        svc = settings.events()
        rows = svc.event_pairings(event, round_number)
        sheet = svc.event_pairing_sheet(event, round_number)
        if as_json:
            import msgspec

            emit_json(
                [
                    {"round": sheet.round, "stage": sheet.stage, **msgspec.to_builtins(row)}
                    for row in rows
                ]
            )
        elif as_csv:
            from service.api import pairings_csv

            typer.echo(pairings_csv(sheet, by_name=by == "name"), nl=False)
        else:
            _print_sheet(sheet, by_name=by == "name")


def _one_output(
    *, as_json: bool, as_csv: bool, posting: bool, key: Path | None, explain: str | None = None
) -> None:
    """Refuse output options that cannot go together: one was silently dropped
    (``--csv --json`` printed JSON; ``--key`` without ``--posting`` printed the table
    and sealed nothing, so an organizer believed the sheet was sealed)."""
    if key is not None and not posting:
        fail("--key seals a --posting: give --posting too, or leave --key out")
    given = [name for name, on in (("--json", as_json), ("--csv", as_csv)) if on]
    if posting:
        given = [*(n for n in given if n != "--json"), "--posting"]  # a posting is JSON
    if explain is not None:
        given.append("--explain")
        given = [n for n in given if n != "--json"]  # the working, as JSON
    if len(given) > 1:
        fail(f"{' and '.join(given)} are two outputs: give one")


@event_app.command("standings")
def standings(
    event: EventArg,
    round_number: Annotated[
        # no min=1: the service refuses a round that is not one, naming EV-4.1, as the API does
        int | None, typer.Option("--round", help="As they stood after round N.")
    ] = None,
    explain: Annotated[
        str | None, typer.Option("--explain", help="Show how a player's figures are computed.")
    ] = None,
    as_json: JsonOpt = False,
    posting: PostingOpt = False,
    key: KeyOpt = None,
    as_csv: CsvOpt = False,
) -> None:
    """Standings (MTR Appendix C): points, OMW%, GW%, OGW%, exact fractions; after a cut in
    final order, each player of the cut with how far they went (EV-6.7); --csv for a
    spreadsheet; with --posting, the verifiable posting (docs/tournaments.md, "Postings").

    \b
    Examples:
      referee event standings $ev
      referee event standings $ev --round 2 --explain Ann
    """
    _one_output(as_json=as_json, as_csv=as_csv, posting=posting, key=key, explain=explain)
    with handled():
        if posting:
            print_posting(event, "standings", round_number, key)
            return
        svc = settings.events()
        if explain is not None:
            text = svc.event_explain(event, explain, round_number)
            if as_json:
                emit_json({"player": explain, "explain": text})
            else:
                typer.echo(text)
            return
        rows = svc.event_standings(event, round_number)
        if as_json:
            from service.api import standings_json

            # the bytes emit_json(standing_dicts(rows)) writes, without the dicts
            typer.echo(standings_json(rows).decode())
            return
        if as_csv:
            from service.api import standings_csv

            typer.echo(standings_csv(rows), nl=False)
            return
        _print_standings(svc, event, rows, round_number)


def _print_standings(
    svc: EventService, event: str, rows: list[StandingRow], round_number: int | None
) -> None:
    """The standings under the event's name and where it stands; after a cut in final order
    with how far each player of the cut went (EV-6.7); a pod event's places, not W-L-D."""
    info = svc.event_info(event)
    final = any(row.final_rank is not None for row in rows)
    if round_number is not None:
        when = f"after {svc.event_round_label(event, round_number)}"
        if when != f"after round {round_number}":
            when += f" (round {round_number})"
    elif final:
        when = "final standings" if info.ended else f"now ({svc.event_stage(event)})"
    else:
        when = "ended" if info.ended else f"now ({svc.event_stage(event)})"
    typer.echo(f"{info.name or info.event_id} · standings · {when}")
    places = svc.event_pod_places(event) if info.pods else None
    record_head = "places" if places is not None else "W-L-D (byes)"
    place_head = f"{'place':>5}  " if final else ""
    typer.echo(
        f"{place_head}{'rank':>4}  {'player':<24} {'pts':>3}  {record_head:<14} omw    gw     ogw"
    )
    for row in rows:
        r = row.record
        note = f"  (dropped after {row.dropped_after})" if row.dropped_after else ""
        if row.went:
            note += f"  ({row.went})"
        place = f"{row.final_rank:>5}  " if final else ""
        record = (
            " ".join(places.get(row.player, []))
            if places is not None
            else f"{r.wins}-{r.losses}-{r.draws} ({r.byes})"
        )
        typer.echo(
            f"{place}{row.rank:>4}  {row.player:<24} {row.points:>3}  {record:<14} "
            f"{_pct(row.omw)}  {_pct(row.gw)}  {_pct(row.ogw)}{note}"
        )


def _pct(fraction: str | None) -> str:
    from fractions import Fraction

    if fraction is None:  # a player who has played no round: no figure (EV-I.3)
        return f"{'–':>5}"
    return f"{float(Fraction(fraction)) * 100:5.2f}"


@event_app.command("bracket")
def bracket(event: EventArg, as_json: JsonOpt = False) -> None:
    """The playoff bracket: each stage (quarterfinal, semifinal, final) with its matches,
    seeds, results and winners, and the champion once the final is in (EV-6.6).

    \b
    Example:
      referee event bracket $ev --json
    """
    with handled():
        emit(settings.events().event_bracket(event), as_json, _print_bracket)


def _print_bracket(view: BracketView) -> None:
    what = f"top {view.cut} playoff" if view.cut else "single elimination"
    typer.echo(f"{view.name} · {what}" + (" · ended" if view.ended else ""))
    for rnd in view.rounds:
        typer.echo(f"{rnd.stage} (round {rnd.round})")
        for match in rnd.matches:
            sides = " v ".join(f"({p.seed}) {p.player}" for p in match.players)
            if match.bye:
                typer.echo(f"  bye    {sides}")
                continue
            said = f"   {match.result}, {match.winner} through" if match.winner else "   playing"
            typer.echo(f"  {match.table:>5}  {sides}{said}")
    if view.champion:
        typer.echo(f"champion: {view.champion}")


@event_app.command("list")
def list_events(as_json: JsonOpt = False) -> None:
    """Every event in the store, oldest first.

    \b
    Example:
      referee event list
    """
    with handled():
        svc = settings.events()
        infos = [svc.event_info(event) for event in svc.event_ids()]
        if as_json:
            emit_json(infos)
            return
        for info in infos:
            state = svc.event_stage(info.event_id)
            typer.echo(
                f"{info.event_id}  {info.name}  {info.game}  {info.players} players  {state}"
            )


@event_app.command("show")
def show(event: EventArg, as_json: JsonOpt = False) -> None:
    """What the event is and where it stands.

    \b
    Example:
      referee event show $ev
    """
    with handled():
        info = settings.events().event_info(event)
        if as_json:  # with the store that writes it, as the text's last line says
            import msgspec

            from service.api import event_host

            host = event_host(settings.service(), info.event_id)
            emit_json({**msgspec.to_builtins(info), "host": host})
            return
        _print_info(info, event)


def _print_info(info: EventInfo, event: str) -> None:
    """What the event is and where it stands (``event``: its id as given)."""
    pods = " pods" if info.pods else ""  # tables of 3-4 (EV-7.1), as the pages say
    typer.echo(f"{info.name} ({info.event_id}): {info.game} {info.format}{pods}, {info.match}")
    typer.echo(f"players: {info.players} ({info.active} active)")
    svc = settings.events()
    typer.echo(f"stage: {svc.event_stage(event)}")
    typer.echo(
        f"format: {info.rounds_text()}" + (f", top {info.cut} cut" if info.cut else "")
        if info.format == "swiss"
        else f"format: {info.format}"
    )
    if info.open_round and not info.ended:
        label = svc.event_round_label(event, info.open_round)
        typer.echo(f"{label} is open (tables still to report)")
    if info.ended:
        typer.echo("the event has ended")
    from service.api import describe, event_host

    typer.echo(describe(event_host(settings.service(), event)))


@event_app.command("log")
def log(event: EventArg, as_json: JsonOpt = False) -> None:
    """Every event of the event's stream, one line each.

    \b
    Example:
      referee event log $ev
    """
    with handled():
        emit(settings.events().event_log_named(event), as_json, _print_log)


def _print_log(lines: list[LogLine]) -> None:
    from service.wording import safe_text

    for line in lines:
        typer.echo(f"#{line.number:<5} {line.time:%H:%M:%S}  {safe_text(line.text)}")


@event_app.command("audit")
def audit(event: EventArg, as_json: JsonOpt = False) -> None:
    """Manual pairings and re-pairings, corrections, penalties, drops and late entries, with
    reasons; people by name (with their id where two share a name).

    \b
    Example:
      referee event audit $ev
    """
    with handled():
        emit(settings.events().event_audit_named(event), as_json, _print_audit)


def _print_audit(data: dict[str, Any]) -> None:
    from service.wording import safe_text

    if not data["entries"]:
        typer.echo("nothing to audit: no override, correction, penalty or drop")
    for entry in data["entries"]:
        rest = ", ".join(f"{k}={v}" for k, v in entry.items() if k not in ("event", "what"))
        typer.echo(f"#{entry['event']:<5} {entry['what']}: {safe_text(rest)}")


@event_app.command("export")
def export(
    event: EventArg,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write to FILE (default stdout).")
    ] = None,
) -> None:
    """The event's stream as a JSONL record; 'referee import FILE' reads it back.

    \b
    Example:
      referee event export $ev -o friday.jsonl
    """
    with handled():
        if output is not None:
            refuse_replacing_a_database(output)
        lines = settings.events().event_export(event)
        if output is None:
            for line in lines:
                typer.echo(line, nl=False)
        else:
            output.write_text("".join(lines), encoding="utf-8")
            typer.echo(f"wrote {output}")


register_fixes(event_app)  # undo-round, undrop, change, deck, draw (cli/event_fixes.py)

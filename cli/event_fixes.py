"""``referee event undo-round / undrop / change / deck / draw / rating / players``: putting an
event's mistakes right in place, attaching decklists, correcting a rating, listing the
players with their ratings, and showing round 1's draw (docs/tournaments.md, "Organizer's
day: fixing a mistake"). ``register`` adds them to ``cli.event``'s ``event`` group; every
command is a thin shell over ``service.event_fixes``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cli.face import EntrantArg, EventArg, JsonOpt, SealedOpt, emit, handled, one_deck, settings

if TYPE_CHECKING:
    from service.api import DrawInfo, EntrantRow, EventInfo, Undone

LoggedReasonOpt = Annotated[str, typer.Option("--reason", help="Why (kept in the log and audit).")]

DeckOpt = Annotated[Path | None, typer.Option("--deck", help="The player's event decklist (open).")]


def register(group: typer.Typer) -> None:
    """Add this module's commands to the ``referee event`` group."""
    for name, command in (
        ("undo-round", undo_round),
        ("undrop", undrop),
        ("change", change),
        ("deck", deck),
        ("draw", draw),
        ("rating", rating),
        ("players", players),
    ):
        group.command(name)(command)


def undo_round(event: EventArg, reason: LoggedReasonOpt, as_json: JsonOpt = False) -> None:
    """Take back the latest round before its first result (head judge, EV-5.13): its
    pairings no longer count as met and its games are closed as void; pair it again.

    \b
    Example:
      referee event undo-round $ev --reason 'Ann was registered twice'
    """
    with handled():
        done = settings.events().event_undo_round(event, reason=reason, by=settings.referee)
        emit(done, as_json, _print_undone)


def _print_undone(done: Undone) -> None:
    typer.echo(f"round {done.round} undone")
    if done.voided:
        typer.echo(f"closed as void: {', '.join(done.voided)}")


def undrop(event: EventArg, name: EntrantArg, reason: LoggedReasonOpt) -> None:
    """Return a dropped player (EV-2.7): paired again from the next round.

    \b
    Example:
      referee event undrop $ev Hal --reason 'dropped the wrong Hal'
    """
    with handled():
        who = settings.events().event_undrop(event, name, reason=reason, by=settings.referee)
        typer.echo(f"{who} is back in the event from the next round")


def change(
    event: EventArg,
    reason: LoggedReasonOpt,
    rounds: Annotated[
        int | None, typer.Option("--rounds", min=1, help="The new number of Swiss rounds.")
    ] = None,
    cut: Annotated[
        int | None, typer.Option("--cut", min=0, help="The new cut (top N; 0: no cut).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Change the number of Swiss rounds or the cut while still possible (EV-1.5): never
    below the rounds paired, and not once the cut is made.

    \b
    Example:
      referee event change $ev --rounds 4 --reason 'the hall closes at six'
    """
    with handled():
        info = settings.events().event_change(
            event, rounds=rounds, cut=cut, reason=reason, by=settings.referee
        )
        emit(info, as_json, _print_rounds_and_cut)


def _print_rounds_and_cut(info: EventInfo) -> None:
    cut = f", top {info.cut} cut" if info.cut else ", no cut"
    typer.echo(f"{info.rounds} Swiss rounds{cut}")


def deck(
    event: EventArg, name: EntrantArg, deck_file: DeckOpt = None, sealed: SealedOpt = None
) -> None:
    """Attach or replace a player's event decklist until the event's deadline round is
    paired (round 1, or 'event new --deck-deadline N'; a late entry's first round: EV-2.8,
    MTR 2.7); then it is locked. The list is checked as at registration.

    \b
    Example:
      referee event deck $ev Ann --deck ann.txt
    """
    with handled():
        refusal = "give --deck FILE or --sealed COMMIT:SIZE (one of them)"
        chosen = one_deck(deck_file, sealed, refusal)
        who = settings.events().event_attach_deck(event, name, chosen, by=settings.referee)
        typer.echo(f"decklist attached for {who} ({chosen.size} cards)")


def draw(event: EventArg, as_json: JsonOpt = False) -> None:
    """Round 1's draw (EV-5.6): the seed recorded with the event and each player's key,
    in the drawn order, so anyone can recompute it (sha256 of 'SEED:1:PLAYER-ID').

    \b
    Example:
      referee event draw $ev
    """
    with handled():
        emit(settings.events().event_draw(event), as_json, _print_draw)


def _print_draw(info: DrawInfo) -> None:
    if info.seed is None:
        typer.echo(f"no seed recorded: {info.rule}")
        return
    typer.echo(f"seed {info.seed}: {info.rule}")
    rated = any(line.rating is not None for line in info.order)
    for n, line in enumerate(info.order, start=1):
        shown = "" if not rated else f"{'-' if line.rating is None else line.rating:>5} "
        typer.echo(f"{n:>4}  {line.name:<24} {line.player:<8} {shown}{line.key[:16]}")


def players(event: EventArg, as_json: JsonOpt = False) -> None:
    """Every registered player in registration order: event id, name, rating (EV-2.11;
    '-': none), player id across the house, and a late entry's first round or a drop.

    \b
    Example:
      referee event players $ev --json
    """
    with handled():
        emit(settings.events().event_players(event), as_json, _print_players)


def _print_players(rows: list[EntrantRow]) -> None:
    from service.wording import safe_text

    for row in rows:
        rating = "-" if row.rating is None else str(row.rating)
        notes = [f"from round {row.entry_round}"] if row.entry_round > 1 else []
        notes += [f"dropped after {row.dropped_after}"] if row.dropped_after is not None else []
        extra = f"  ({', '.join(notes)})" if notes else ""
        typer.echo(f"{row.player:<7} {safe_text(row.name):<24} {rating:>5}  {row.player_id}{extra}")


def rating(
    event: EventArg,
    name: EntrantArg,
    value: Annotated[
        str, typer.Argument(metavar="RATING", help="The rating, 0 to 9,999; - for none.")
    ],
    reason: LoggedReasonOpt,
) -> None:
    """Correct a player's rating until round 1 is paired (EV-2.11): round 1 is seeded by
    rating, highest first (EV-5.6). '-' leaves the player without one.

    \b
    Example:
      referee event rating $ev Ann 1850 --reason 'typed 1580'
    """
    with handled():
        from service.api import rating_from

        new = rating_from(value, "the rating")
        who = settings.events().event_correct_rating(
            event, name, new, reason=reason, by=settings.referee
        )
        typer.echo(f"{who}: {'no rating' if new is None else f'rating {new}'}")

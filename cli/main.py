"""The ``referee`` command: a thin face over the application layer (``service``).

Commands live in modules by group (``play``, ``read``, ``records``, ``disputes``,
``table``); heavy modules (the store, the games, the projections) are imported
inside the commands that need them, so ``referee --help`` and a single
``referee act`` start quickly. See ``cli.face`` for exit codes.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cli import disputes, face, play, read, records, serve, table

app = typer.Typer(
    name="referee",
    help=(
        "Record tabletop games entry by entry, checked against each game's rulebook.\n\n"
        "Every entry is kept as an immutable event in a SQLite file (--db, REFEREE_DB, or "
        "./referee.db); any position can be replayed, and every rejection names the clause it "
        "breaks.\n\n"
        "\b\nA first game:\n"
        "  id=$(referee new prizmik --player red=Alice --player blue=Bob)\n"
        "  referee act $id 'e1>e2'    # record a move, or be told the rule it breaks\n"
        "  referee show $id           # draw the position\n"
        "  referee legal $id          # list the legal moves\n"
        "  referee table $id          # enter moves interactively\n"
        "  referee rules prizmik      # read the rulebook\n\n"
        "Exit codes: 0 done, 1 entry rejected or check failed, 2 command refused (nothing "
        "stored), 3 another referee wrote to the game first."
    ),
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

for group in (play, read, records, disputes, table, serve):
    for command in group.app.registered_commands:
        app.registered_commands.append(command)
    for sub in group.app.registered_groups:
        app.registered_groups.append(sub)


@app.callback()
def main(
    db: Annotated[str | None, typer.Option(
        "--db", envvar="REFEREE_DB", help="Event store file (default ./referee.db).")] = None,
    referee: Annotated[str, typer.Option(
        "--referee", envvar="REFEREE_NAME", help="Your name, recorded with each entry.")] = "referee",
) -> None:
    """Global options come before the command: referee --db games.db act ..."""
    face.settings.reset(db, referee)


def run() -> None:
    """Console-script entry point."""
    try:
        app()
    finally:
        face.settings.close()


if __name__ == "__main__":
    run()

"""The ``referee`` command: a thin face over the application layer (``service``).

Commands live in modules by group (``play``, ``read``, ``records``, ``disputes``,
``table``); heavy modules (the store, the games, the projections) are imported
inside the commands that need them, so ``referee --help`` and a single
``referee act`` start quickly. See ``cli.face`` for exit codes.
"""

from __future__ import annotations

import gc
import sys
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli import face

if TYPE_CHECKING:
    from types import ModuleType

    from typer.models import CommandInfo, TyperInfo

SETTINGS: dict[str, Any] = dict(
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
        "At a hall with one server ('referee serve'), a referee's laptop records entries "
        "there: referee --server http://HOST:PORT act GAME ENTRY, with the token in "
        "REFEREE_TOKEN.\n\n"
        "Exit codes: 0 done, 1 entry rejected or check failed, 2 command refused (nothing "
        "stored), 3 another referee wrote to the game first."
    ),
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

# The command modules, in the order the whole application lists their commands.
GROUPS = (
    "play",
    "read",
    "records",
    "disputes",
    "table",
    "serve",
    "event",
    "calls",
    "replicate",
    "offline",
    "hall",
)

# The modules that make each command or group (the first word after the global options):
# a command line imports only these (each command module costs a few million instructions
# at import, the commands' decorators and option types). A group that other modules add
# commands to names them too, in the order the whole application imports them.
# tests/test_cli.py holds the table to the commands the modules register.
COMMANDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("new", "act", "undo", "backup", "end", "adjust"), ("play",)),
    **dict.fromkeys(("penalty", "deck"), ("play",)),
    **dict.fromkeys(
        ("show", "legal", "perft", "log", "replay", "games", "rules", "report", "score"),
        ("read",),
    ),
    **dict.fromkeys(("units", "catalog"), ("read",)),
    **dict.fromkeys(("export", "import", "seal", "verify"), ("records",)),
    "store": ("records", "replicate"),
    **dict.fromkeys(("dispute", "rule", "appeal", "audit", "scoreboard", "queue"), ("disputes",)),
    "table": ("table",),
    **dict.fromkeys(("serve", "token"), ("serve",)),
    "event": ("calls", "event", "hall"),
    **dict.fromkeys(("call", "calls"), ("calls",)),
    "replicate": ("replicate",),
    **dict.fromkeys(("sync", "branch"), ("offline",)),
    "time-limit": ("calls", "hall"),  # hall's commands join 'event' after calls' ones
}


def _modules(names: tuple[str, ...]) -> list[ModuleType]:
    return [import_module(f"cli.{name}") for name in names]


def command_name(command: CommandInfo) -> str:
    """The word that runs a registered command."""
    return typer.main.get_command_name(
        str(command.name or getattr(command.callback, "__name__", ""))
    )


def group_name(group: TyperInfo) -> str | None:
    """The word that runs a registered group (its own ``Typer(name=...)`` when it was added
    without one)."""
    if isinstance(group.name, str):
        return group.name
    name = group.typer_instance.info.name if group.typer_instance is not None else None
    return name if isinstance(name, str) else None


def _application(modules: list[ModuleType], word: str | None = None) -> typer.Typer:
    """The application with the commands and groups of ``modules`` (those named ``word``)."""
    made = typer.Typer(**SETTINGS)
    made.callback()(main)
    for module in modules:
        for command in module.app.registered_commands:
            if word is None or command_name(command) == word:
                made.registered_commands.append(command)
        for sub in module.app.registered_groups:
            if word is None or group_name(sub) == word:
                made.registered_groups.append(sub)
    return made


@cache
def whole_app() -> typer.Typer:
    """The application with every command (the top-level help, a word that is no command)."""
    return _application(_modules(GROUPS))


app: typer.Typer  # the whole application, made when first asked for (``__getattr__``)


def __getattr__(name: str) -> Any:
    if name == "app":
        return whole_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _show_version(asked: bool) -> None:
    """``--version``: the installed package's version, then stop (read from its metadata
    only when asked, so other command lines do not pay for it)."""
    if asked:
        from importlib.metadata import version

        sys.stdout.write(f"referee {version('referee')}\n")
        raise typer.Exit()


def main(
    db: Annotated[
        str | None,
        typer.Option("--db", envvar="REFEREE_DB", help="Event store file (default ./referee.db)."),
    ] = None,
    referee: Annotated[
        str,
        typer.Option(
            "--referee", envvar="REFEREE_NAME", help="Your name, recorded with each entry."
        ),
    ] = "referee",
    server: Annotated[
        str | None,
        typer.Option(
            "--server",
            envvar="REFEREE_SERVER",
            help="A running 'referee serve' (http://HOST:PORT) to ask instead of a store: "
            f"{face.REMOTE_COMMANDS}; the server records the token's name, not --referee.",
        ),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            envvar="REFEREE_TOKEN",
            help="The token for --server ('referee token create' on the server's machine); "
            "REFEREE_TOKEN keeps it out of the process list.",
        ),
    ] = None,
    offline_store: Annotated[
        str | None,
        typer.Option(
            "--offline-store",
            envvar="REFEREE_OFFLINE_STORE",
            help="With --server: the folder of this laptop's game copies and outbox, for "
            "entries recorded while the server cannot be reached (default ~/.cache/referee; "
            "docs/offline.md).",
        ),
    ] = None,
    _version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            expose_value=False,
            help="Print the installed version and stop.",
        ),
    ] = False,
) -> None:
    """Global options come before the command: referee --db games.db act ..."""
    face.settings.reset(db, referee, server, token)
    face.settings.offline_store = offline_store


GLOBAL_OPTIONS_WITH_VALUES = ("--db", "--referee", "--server", "--token", "--offline-store")


def command_word(argv: list[str]) -> str | None:
    """The command a command line names (the first word after the global options), or
    ``None`` when it names none or asks for the top-level help."""
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token in GLOBAL_OPTIONS_WITH_VALUES:
            skip = True
        elif token in ("-h", "--help", "--"):
            return None
        elif not token.startswith("-"):
            return token
    return None


def json_asked(argv: list[str]) -> bool:
    """Whether a command line asks for ``--json`` (before a ``--``): its usage error is then
    one JSON object too (``face.error_object``)."""
    for token in argv:
        if token == "--":
            return False
        if token == "--json":
            return True
    return False


def app_for(argv: list[str]) -> typer.Typer:
    """The application with only the command the line names.

    typer builds every registered command (reading each signature and its type hints)
    before it runs one, and each command module costs its import; with some forty
    commands in eleven modules that cost more than a short command's own work. Only the
    named command's modules are imported (``COMMANDS``). The top-level help, and any word
    that is not a command (so that typer says so, with suggestions), get the whole
    application."""
    word = command_word(argv)
    if word is None and "--version" in argv:  # no command module to import
        return _application([])
    if word is None or word not in COMMANDS:
        return whole_app()
    return _application(_modules(COMMANDS[word]), word)


def run() -> None:
    """Console-script entry point. A usage error (a missing argument, an unknown option or
    command, a value of the wrong kind) is one line and exit 2, as every refusal is
    (issue 31), not click's usage block of three."""
    # click's, or the copy newer typer releases carry: found from typer's own BadParameter
    usage_error: type[Any] = typer.BadParameter.__mro__[1]
    click_exception: type[Any] = typer.BadParameter.__mro__[2]
    # A command is one short process whose objects mostly live until it ends (a
    # 10,000-player event's fold, its new round, its standings: a million or so): with the
    # default thresholds (700, 10, 10) the collector scanned them again and again and freed
    # nothing, a fifth of `event pair` at that size. Young collections every 20,000
    # allocations and full ones rarely, as the server's workers (web.app).
    gc.set_threshold(20_000, 50, 100)
    argv = sys.argv[1:]
    try:
        command = typer.main.get_command(app_for(argv))
        try:
            code = command.main(args=argv, prog_name="referee", standalone_mode=False)
        except usage_error as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # a group named alone: its help
                exc.show()
                sys.exit(exc.exit_code)
            ctx = getattr(exc, "ctx", None)
            where = f" (try '{ctx.command_path} -h')" if ctx is not None else ""
            message = " ".join(exc.format_message().split())
            code = exc.exit_code
            if json_asked(argv):
                face.emit_json_error(f"{message}{where}", code)
            else:
                sys.stderr.write(f"error: {message}{where}\n")
        except click_exception as exc:
            code = exc.exit_code
            if json_asked(argv):
                face.emit_json_error(" ".join(exc.format_message().split()), code)
            else:
                exc.show()
        except typer.Abort:
            sys.stderr.write("Aborted!\n")
            code = 1
        sys.exit(code if isinstance(code, int) else 0)
    finally:
        face.settings.close()


if __name__ == "__main__":
    run()

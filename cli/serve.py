"""``referee serve`` (the HTTP API and pages) and ``referee token`` (access tokens).

The web stack is imported inside the commands, never when ``referee`` starts,
so other commands stay quick.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from cli.face import JsonOpt, emit_json, emit_rows, fail, handled, settings, store_errors

if TYPE_CHECKING:
    from service.access import TokenInfo, TokenStore

app = typer.Typer()

TokenIdArg = Annotated[str, typer.Argument(help="The token's id ('referee token list').")]
StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        envvar="REFEREE_STORE",
        help="The store: a SQLite file (default: --db, REFEREE_DB or ./referee.db) or "
        "postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME[?schema=NAME].",
    ),
]


BACKLOG = 4096
"""``referee serve --backlog``'s default: a hall of 4,000 phones whose connections arrive
together (uvicorn's own default, 2048, overflowed when 4,000 phones reconnected at once:
BENCHMARKS.md, "Round start, the stall")."""


def somaxconn() -> int | None:
    """The system's cap on a listen queue (Linux ``net.core.somaxconn``; None elsewhere)."""
    try:
        with open("/proc/sys/net/core/somaxconn") as found:
            return int(found.read().strip())
    except (OSError, ValueError):
        return None


def _store(store: str | None) -> str | None:
    return store if store is not None else settings.db


@app.command()
def serve(
    store: StoreOpt = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", help="Server processes on this port (PostgreSQL stores; SQLite takes one)."
        ),
    ] = 1,
    threads: Annotated[
        int | None,
        typer.Option(
            "--threads",
            help="Threads for reads per process (0: on the event loop; default 0 on SQLite, 4 "
            "on PostgreSQL). Writes always run on the process's writer thread.",
        ),
    ] = None,
    projections: Annotated[
        str | None,
        typer.Option(
            "--projections",
            help="The read models' file for a SQLite store (default: beside it); a PostgreSQL "
            "store keeps them as referee_* tables beside its events.",
        ),
    ] = None,
    public_read: Annotated[
        bool,
        typer.Option(
            "--public-read",
            help="Let requests without a token read, as the public (hidden cards redacted).",
        ),
    ] = False,
    secure_cookies: Annotated[
        bool,
        typer.Option(
            "--secure-cookies", help="Mark the pages' sign-in cookie Secure (behind HTTPS)."
        ),
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are trusted "
            "(comma-separated addresses or networks, e.g. 127.0.0.1). Default: none, so a "
            "client's own X-Forwarded-For is ignored and the limit on wrong tokens counts the "
            "address it really comes from.",
        ),
    ] = None,
    access_log: Annotated[bool, typer.Option("--access-log", help="Log every request.")] = False,
    header_timeout: Annotated[
        float,
        typer.Option(
            "--header-timeout",
            help="Seconds a request's headers may take to arrive (a slow client is answered "
            "408 and cut off).",
        ),
    ] = 10.0,
    body_timeout: Annotated[
        float,
        typer.Option(
            "--body-timeout",
            help="Seconds a request's body may take to arrive after its headers (imports of "
            "large records over a slow link may need more).",
        ),
    ] = 60.0,
    backlog: Annotated[
        int,
        typer.Option(
            "--backlog",
            help="Connections the system may hold for the server before it accepts them (the "
            "listen queue): one per phone arriving at once, so a hall's round start needs "
            "its phones' count (a connection refused by a full queue is retried by the phone "
            "after 1, 3, 7 s). The system caps it at net.core.somaxconn (Linux).",
        ),
    ] = BACKLOG,
) -> None:
    """Serve the HTTP API (/api, OpenAPI at /schema) and the pages (/) for many referees at once.

    Every request needs a token ('referee token create') unless --public-read lets
    the public read without one.

    \b
    Example:
      referee serve --host 0.0.0.0 --port 8000
    """
    with handled():
        import uvicorn

        from service.stores import parse_store
        from web.app import ServeConfig

        spec = parse_store(_store(store))
        if spec.kind == "sqlite":
            assert spec.db is not None
            if not os.path.exists(spec.db):
                fail(
                    f"{spec.db}: no store here (make one with 'referee new' or 'referee import', "
                    "or name another with --store)"
                )
            from service.storefile import check_store_file

            check_store_file(spec.db)  # a folder or a text file, before "serving" is said
            if workers != 1:
                fail(
                    "a SQLite store is served by one process (--workers 1); use PostgreSQL for more"
                )
        if spec.is_postgres:
            # Opened once here, before any worker starts: a store that cannot be used
            # (a ?schema= that does not exist, say) is one line and exit 2 at start,
            # whatever --workers says, not a traceback in every restarting worker.
            from service.app import open_service

            service = open_service(_store(store))
            try:
                service.prepare_store()
            finally:
                service.close()
        config = ServeConfig(
            store=_store(store) if spec.kind == "sqlite" or store else None,
            projections=projections,
            public_read=public_read,
            threads=threads if threads is not None else (4 if spec.is_postgres else 0),
            secure_cookies=secure_cookies,
        )
        import msgspec

        proxies = ",".join(p.strip() for p in (forwarded_allow_ips or "").split(",") if p.strip())
        if header_timeout <= 0 or body_timeout <= 0:
            fail("--header-timeout and --body-timeout are seconds, more than 0")
        if backlog < 1:
            fail("--backlog is a count of connections, at least 1")
        cap = somaxconn()
        if cap is not None and cap < backlog:
            typer.echo(
                f"note: the system holds at most {cap} waiting connections "
                f"(net.core.somaxconn), not --backlog {backlog}: raise it with "
                f"'sysctl -w net.core.somaxconn={backlog}' for a hall of that many phones",
                err=True,
            )
        os.environ["REFEREE_SERVE_CONFIG"] = msgspec.json.encode(config).decode()
        # Read by web.deadlines in every worker (uvicorn has no header or body timeout).
        os.environ["REFEREE_HEADER_TIMEOUT"] = str(header_timeout)
        os.environ["REFEREE_BODY_TIMEOUT"] = str(body_timeout)
        typer.echo(
            f"serving {spec.label} on http://{host}:{port}/ ({workers} process"
            f"{'es' if workers != 1 else ''})",
            err=True,
        )
        uvicorn.run(
            "web.app:app_from_env",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            access_log=access_log,
            log_level="warning" if not access_log else "info",
            timeout_graceful_shutdown=3,
            http="web.deadlines:DeadlineProtocol",  # header and body read deadlines
            timeout_keep_alive=5,  # an idle kept-alive connection is closed after 5 s
            backlog=backlog,
            # Forwarded headers only from the proxies named (issue 31): uvicorn would trust
            # them from 127.0.0.1 by default, so anyone on the box could pick an address.
            proxy_headers=bool(proxies),
            forwarded_allow_ips=proxies or None,
        )


token_app = typer.Typer(
    help="Access tokens for 'referee serve': create, list, rotate, revoke.", no_args_is_help=True
)
app.add_typer(token_app, name="token")


@contextmanager
def _tokens(store: str | None) -> Iterator[TokenStore]:
    """The store's tokens, their side tables closed on leaving. A file of them that a
    refused command made (a ``create`` refused its holder's name, a ``rotate`` of no token)
    is removed when it holds no token, so the folder is left as it was."""
    from contextlib import suppress
    from pathlib import Path

    from service.access import TokenStore
    from service.sidedb import open_side_db, side_path
    from service.storefile import check_store_file
    from service.stores import parse_store

    spec = parse_store(_store(store))
    made: Path | None = None
    if spec.kind == "sqlite":
        assert spec.db is not None
        if not os.path.exists(spec.db):
            fail(f"{spec.db}: no store here; tokens live beside a store ('referee new' makes one)")
        check_store_file(spec.db)  # a folder, a text file: no x.access.db made beside it
        side = Path(side_path(spec.db))
        made = None if side.exists() else side
    tokens = TokenStore(open_side_db(spec))
    try:
        yield tokens
    except BaseException:
        unused = False
        if made is not None:
            with suppress(*store_errors(), OSError):  # the command's own error stands
                unused = not tokens.list()
        tokens.db.close()
        for suffix in ("", "-wal", "-shm", "-journal") if unused else ():
            Path(f"{made}{suffix}").unlink(missing_ok=True)
        raise
    finally:
        tokens.db.close()


def _known_event(store: str | None, event: str) -> None:
    """Refuse a table referee's token for an event the store does not hold ("no event
    'ev-x' in this store"): a mistyped id made a token whose tables were no event's, and
    the referee was turned away at their own table."""
    from service.app import open_service

    svc = open_service(_store(store))
    try:
        svc.parts.events.event_info(event)
    finally:
        svc.close()


@token_app.command("create")
def token_create(
    role: Annotated[
        str, typer.Option("--role", help="head, table, scorekeeper, player or public.")
    ],
    name: Annotated[
        str,
        typer.Option(
            "--name",
            help="Who holds it (recorded with their entries; a seat without a player id is "
            "matched by this name exactly).",
        ),
    ],
    table: Annotated[
        list[str] | None, typer.Option("--table", help="A table referee's table, once per table.")
    ] = None,
    event: Annotated[
        str | None,
        typer.Option(
            "--event",
            help="A table referee's event: their --table numbers are that event's tables "
            "(two events in one hall both have a table 1). Without it, tables of games outside "
            "every event.",
        ),
    ] = None,
    player_id: Annotated[
        str | None,
        typer.Option(
            "--player-id",
            help="A player's id (default: a new one). Give the id printed for their first "
            "token to bind a second device; seats name it ('referee new --player-id SEAT=ID').",
        ),
    ] = None,
    expires: Annotated[
        str | None,
        typer.Option(
            "--expires",
            help="When the token stops working: a duration (90m, 12h, 7d, 2w) or a UTC date "
            "or time (2026-12-01, 2026-12-01T18:00). Default: never.",
        ),
    ] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a token and print it once (only its hash is kept).

    \b
    Example:
      referee token create --role table --name Tom --event $ev --table 4
    """
    with handled():
        from service.access import expiry_text, parse_expiry

        try:
            until = parse_expiry(expires) if expires is not None else None
        except ValueError as error:
            fail(str(error))
        if event and event.strip() and role.strip().lower() == "table":  # others: refused
            _known_event(store, event.strip())
        with _tokens(store) as tokens:
            principal, text = tokens.create(
                role.strip().lower(),
                name,
                table or [],
                player_id=player_id,
                expires=until,
                event=event,
            )
        if as_json:
            emit_json(
                {
                    "token": text,
                    "token_id": principal.token_id,
                    "role": principal.role,
                    "name": principal.name,
                    "tables": list(principal.tables),
                    "event": principal.event or None,
                    "player_id": principal.player_id or None,
                    "expires": principal.expires,
                }
            )
            return
        typer.echo(text)
        where = f" at tables {', '.join(principal.tables)}" if principal.tables else ""
        if principal.event:
            where += f" of event {principal.event}"
        bound = f" (player id {principal.player_id})" if principal.player_id else ""
        until_text = (
            f"; it expires at {expiry_text(principal.expires)}"
            if principal.expires is not None
            else ""
        )
        typer.echo(
            f"{principal.role} token {principal.token_id} for {principal.name}{bound}{where}"
            f"{until_text}; it is shown only now (send it as Authorization: Bearer TOKEN, or "
            "sign in with it on the pages)",
            err=True,
        )


@token_app.command("list")
def token_list(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """List the tokens (never their secrets).

    \b
    Example:
      referee token list
    """
    with handled():
        with _tokens(store) as tokens:
            rows = tokens.list()
        emit_rows(
            rows,
            as_json,
            "no tokens yet: 'referee token create --role head --name NAME'",
            _token_line,
        )


def _token_line(r: TokenInfo) -> str:
    from service.access import expiry_text

    tables = f" tables {','.join(r.tables)}" if r.tables else ""
    if r.event:
        tables += f" of event {r.event}"
    bound = f" id {r.player_id}" if r.player_id else ""
    until = f"  (expires {expiry_text(r.expires)})" if r.expires is not None else ""
    return (
        f"{r.token_id}  {r.role:<11} {r.name}{bound}{tables}"
        f"{'  (revoked)' if r.revoked else ''}{until}"
    )


@token_app.command("rotate")
def token_rotate(
    token_id: TokenIdArg,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Give a token a new secret and print it once; the old secret is refused at once.

    The id, holder, role and tables stay, so a lost or leaked device token is
    replaced without changing who its entries name.

    \b
    Example:
      referee token rotate TOKEN_ID
    """
    with handled():
        with _tokens(store) as tokens:
            text = tokens.rotate(token_id.strip())
            if text is None:
                fail(f"no live token {token_id!r} ('referee token list' shows them)")
        if as_json:
            emit_json({"token": text, "token_id": token_id.strip()})
            return
        typer.echo(text)
        typer.echo(
            f"rotated {token_id.strip()}: the old secret no longer works; "
            "this one is shown only now",
            err=True,
        )


@token_app.command("revoke")
def token_revoke(
    token_id: TokenIdArg,
    store: StoreOpt = None,
) -> None:
    """Revoke a token (a running server refuses it from its next request).

    \b
    Example:
      referee token revoke TOKEN_ID
    """
    with handled():
        with _tokens(store) as tokens:
            found = tokens.revoke(token_id.strip())
            if not found:
                fail(f"no token {token_id!r} ('referee token list' shows them)")
        typer.echo(f"revoked {token_id}", err=True)


__all__ = ["app"]

"""Replicas: a store following another store's log, and handing an event over.

``replicate(source, target)`` copies the source's log into the target, a page at a
time, each page in ONE transaction with the position reached (``events.replica``), so
it resumes where it stopped, never stores an event twice, and leaves each stream's
chain byte-identical. ``follow`` does it until told to stop, waiting out a store that
cannot be reached. A stream copied in is a replica: the target refuses every other
write to it (REF-9.1) until the event it belongs to is handed over to the target
(``handover``, REF-9.2), recorded in the event's own stream.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from events import replica
from events.replica import ReplicaDivergedError, ReplicaWriteError
from events.store import GameStore
from service.errors import RefusedError

if TYPE_CHECKING:
    from service.app import RefereeService

__all__ = [
    "EventHost",
    "Handover",
    "ReplicaDivergedError",
    "ReplicaWriteError",
    "Replication",
    "event_host",
    "follow",
    "handover",
    "name_store",
    "replicate",
]

PAGE = 1_000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")


class Replication(msgspec.Struct, kw_only=True):
    """Where a copy stands: the two stores' names, the source position reached, and what
    this run copied (events inserted, events found already there, hand-overs)."""

    source: str
    target: str
    position: int
    source_last: int
    copied: int = 0
    present: int = 0
    handovers: int = 0
    reached: bool = True
    """Whether this run reached both stores: a follower stopped while the link was down
    never read the replica's position (``position`` is then no figure of it)."""

    @property
    def caught_up(self) -> bool:
        return self.position >= self.source_last


class Handover(msgspec.Struct, kw_only=True):
    event_id: str
    to: str
    by: str
    streams: int
    number: int


class EventHost(msgspec.Struct, kw_only=True):
    """Which store writes an event: ``run_from``, since ``since`` (ISO time, "" when it was
    never handed over), and whether that is this store."""

    event_id: str
    run_from: str
    since: str
    here: bool
    this_store: str


def _check_name(name: str) -> str:
    name = name.strip()
    if not _NAME.match(name):
        raise RefusedError(
            f"REF-9.2: {name!r} is not a store name (letters, digits, '.', '_' or '-', "
            "at most 40, starting with a letter or digit)"
        )
    return name


def default_name(store: GameStore) -> str:
    """A name for a store that has none: its file's stem, or its database (and schema)."""
    if store.path:
        stem = Path(store.path).stem
    else:
        env = store.app.env
        stem = env.get("POSTGRES_DBNAME", "postgres")
        schema = env.get("POSTGRES_SCHEMA", "")
        if schema and schema != "public":
            stem += f"-{schema}"
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "-", stem).strip("-._") or "store"
    return cleaned[:40]


def named(store: GameStore) -> str:
    """The store's name, naming it (``default_name``) if it has none yet."""
    found = replica.store_name(store)
    if found is not None:
        return found
    name = default_name(store)
    replica.set_name(store, name)
    return name


def name_store(store: GameStore, name: str | None) -> str:
    """Name the store ``name`` (once), or say its name: one it has none yet would be given
    (``default_name``) is said and not written, as ``store_status`` does (a read; the name
    is written when a hand-over or a replica first records it)."""
    if name is None:
        return replica.store_name(store) or default_name(store)
    name = _check_name(name)
    replica.set_name(store, name)
    return name


class SourceState(msgspec.Struct, kw_only=True):
    source: str
    position: int
    copied: int
    updated: str


class StoreStatus(msgspec.Struct, kw_only=True):
    name: str
    sources: list[SourceState]
    replica_of: dict[str, int]
    """Per store that writes them, how many streams this store holds as a replica."""
    position: int = 0
    """This store's own log position: what a replica copying it has to reach (its
    ``sources`` line names the position it reached, in this store's numbering)."""


def store_status(store: GameStore) -> StoreStatus:
    """The store's name, its copies' positions, and what it holds as a replica. A read: a
    store with no name yet is shown the one it would be given, and left as it was (an
    archived store's read-only file was refused "cannot be written")."""
    name = replica.store_name(store) or default_name(store)
    sources, held = replica.status(store)
    return StoreStatus(
        name=name,
        sources=[SourceState(source=s, position=p, copied=c, updated=u) for s, p, c, u in sources],
        replica_of=held,
        position=store.last_position(),
    )


def _open(text: str, *, create: bool) -> GameStore:
    from service.app import open_service

    return open_service(text, create=create).store


def replicate(
    source: GameStore,
    target: GameStore,
    *,
    page: int = PAGE,
    stop: threading.Event | None = None,
) -> Replication:
    """Copy what ``target`` has not yet copied of ``source``'s log, a page (one
    transaction) at a time, until caught up (or ``stop`` is set between pages)."""
    me = replica.store_name(target) or default_name(target)
    them = replica.store_name(source) or default_name(source)
    if me == them:  # refused before either store is named (nothing written to them)
        raise RefusedError(
            f"REF-9.1: both stores are named {me!r}; a replica needs a name of its own "
            "('referee --db STORE store name NAME')"
        )
    me, them = named(target), named(source)
    replica.ensure_tables(target)
    direct = source.direct
    if direct is None:
        raise RefusedError(
            "the source store's events are encrypted or compressed; a replica copies plain "
            "stored events only"
        )
    from events.backends import queries

    after, _ = replica.position(target, them)
    report = Replication(source=them, target=me, position=after, source_last=after)
    while stop is None or not stop.is_set():
        rows = queries.log_rows(direct, after, page, 2**62)
        if not rows:
            break
        writers = {s: w for s, (w, _) in replica.runners(source, {r[1] for r in rows}).items()}
        done = replica.copy_rows(target, source=them, me=me, rows=rows, writers=writers)
        report.copied += done.copied
        report.present += done.present
        report.handovers += done.handovers
        after = report.position = report.source_last = done.position
        if len(rows) < page:
            break
    return report


def follow(
    source_text: str,
    target_text: str,
    *,
    stop: threading.Event,
    interval: float = 0.5,
    say: Callable[[str], None] = lambda _: None,
    on_copy: Callable[[Replication], None] = lambda _: None,
) -> Replication:
    """``replicate`` again and again until ``stop`` is set: every ``interval`` seconds,
    and at once while pages come full. A store that cannot be reached (the uplink is
    down) is waited for, opened again, and the copy goes on from the position the target
    kept. A diverged copy (REF-9.3) stops it: a person has to compare the stores."""
    source: GameStore | None = None
    target: GameStore | None = None
    # named by their labels until they are reached (a follower stopped before then)
    last = Replication(
        source=environment_label(source_text),
        target=environment_label(target_text),
        position=0,
        source_last=0,
        reached=False,
    )
    refuse_no_store_file(source_text, target_text)
    waiting = ""
    wait = interval
    try:
        while not stop.is_set():
            reaching = ""  # the store being reached, for a one-line "waiting" that names it
            try:
                for text, store in ((source_text, source), (target_text, target)):
                    if store is None:
                        reaching = text
                        _answers(text)
                if source is None:
                    reaching = source_text
                    source = _open(source_text, create=False)
                if target is None:
                    reaching = target_text
                    target = _open(target_text, create=True)
                reaching = ""
                last = replicate(source, target, stop=stop)
            except (ReplicaDivergedError, RefusedError):
                raise
            except Exception as exc:
                text = f"waiting: {_unreached(exc, reaching)}"
                if text != waiting:
                    say(text)
                    waiting = text
                for store in (source, target):
                    if store is not None:
                        _close_quietly(store)
                source = target = None
                stop.wait(wait)
                wait = min(wait * 2, 1.0)  # the link returns: caught up within seconds
                continue
            if waiting:
                say("reached both stores again")
                waiting = ""
            wait = interval
            if last.copied or last.handovers:
                on_copy(last)
            stop.wait(interval)
    finally:
        for store in (source, target):
            if store is not None:
                _close_quietly(store)
    return last


def refuse_no_store_file(*texts: str) -> None:
    """``NoStoreError`` at once, as ``--once`` refuses it, for a SQLite store of ``texts``
    named as a folder or as a file that is no SQLite file: no wait brings a store there
    (``--follow`` said "waiting: cannot reach" until stopped, and exited 0). A file not
    there yet, or a server that does not answer, is waited for."""
    from events.backends import is_server_store
    from service.errors import NoStoreError
    from service.storefile import SQLITE_HEADER

    for path in (Path(t) for t in texts if not is_server_store(t, {})):
        if path.is_dir():
            raise NoStoreError(f"{path}: is a folder, not a store file")
        try:
            with path.open("rb") as handle:
                head = handle.read(len(SQLITE_HEADER))
        except OSError:
            continue  # not there (yet), or not readable now: waited for
        if head and head != SQLITE_HEADER:
            raise NoStoreError(f"{path}: cannot be opened (file is not a database)")


def _unreached(exc: Exception, reaching: str) -> str:
    """Why a pass of ``follow`` failed, on one line, naming the store it could not reach
    (``reaching``; "" once both were reached): a driver's error spans lines, and names
    no store."""
    reason = " ".join(str(exc).split()) or type(exc).__name__
    reason = reason.split(" This probably means")[0]
    reason = re.sub(r"^\[Errno \d+\] ", "", reason)
    if reaching:
        return f"cannot reach {environment_label(reaching)}: {reason}"
    return f"the link failed while copying: {reason}"


def _answers(text: str) -> None:
    """Raise ``OSError`` at once when a PostgreSQL store's server does not take a TCP
    connection: opening its pool would wait out its connect timeout (5 s) each try, and
    try again on its own schedule, so the copy would resume seconds after the link's
    return instead of within one ``follow`` interval."""
    import socket

    from service.stores import parse_store

    spec = parse_store(text)
    host = spec.env.get("POSTGRES_HOST", "127.0.0.1")
    if not spec.is_postgres or host.startswith("/") or "," in host:  # a socket or a list
        return
    port = int(spec.env.get("POSTGRES_PORT", "5432"))
    with socket.create_connection((host, port), timeout=2):
        pass


def _close_quietly(store: GameStore) -> None:
    with contextlib.suppress(Exception):  # a connection already gone is closed enough
        store.close()


def replicate_once(source_text: str, target_text: str) -> Replication:
    """Open both stores, copy until caught up, close them."""
    source = _open(source_text, create=False)
    try:
        target = _open(target_text, create=True)
        try:
            return replicate(source, target)
        finally:
            target.close()
    finally:
        source.close()


def handover(svc: RefereeService, event_id: str, to: str) -> Handover:
    """Hand ``event_id`` (and its games) over to the store named ``to``: recorded in the
    event's stream and, in the same transaction, this store stops writing them
    (REF-9.2). Only the store that writes the event may hand it over (REF-9.1)."""
    from events.codec import encode, seal_after
    from events.schema import TOPIC_OF
    from events.tournament import to_stored
    from referee.tournament import facts as f

    to = _check_name(to)
    store = svc.store
    loaded = svc.parts.events._event(event_id)  # an unknown event: refused, the store unnamed
    me = named(store)
    held = replica.runners(store, [loaded.event_id])
    if held:
        writer, since = held[loaded.event_id]
        raise ReplicaWriteError(
            f"REF-9.1: this store ({me!r}) holds a replica of {loaded.event_id}, which store "
            f"{writer!r} writes since {since}; hand it over there"
        )
    if to == me:
        raise RefusedError(f"REF-9.2: {loaded.event_id} is written by this store ({me!r}) already")
    streams = (loaded.event_id, *loaded.state.games)
    header = svc.parts.events._header(loaded.event_id)
    fact = f.EventHandedOver(to=to, by=me, streams=streams, at=header["timestamp"])
    sealed = seal_after(loaded.version, loaded.last_hash, [to_stored(fact, header)])[0]
    row = (loaded.event_id, sealed.originator_version, TOPIC_OF[type(sealed)], encode(sealed))
    replica.write_handover(store, row, streams, to)
    return Handover(
        event_id=loaded.event_id,
        to=to,
        by=me,
        streams=len(streams),
        number=sealed.originator_version,
    )


def event_host(svc: RefereeService, event_id: str) -> EventHost:
    """Which store writes ``event_id`` and since when ("run from the hall since 09:12")."""
    store = svc.store
    me = replica.store_name(store) or default_name(store)
    loaded = svc.parts.events._event(event_id)
    held = replica.runners(store, [loaded.event_id])
    moment = loaded.state.run_from_since  # read from the state: the log may be 100,000 lines
    since = _iso(moment) if moment is not None else ""
    if held:
        writer, _ = held[loaded.event_id]
        return EventHost(
            event_id=loaded.event_id, run_from=writer, since=since, here=False, this_store=me
        )
    return EventHost(event_id=loaded.event_id, run_from=me, since=since, here=True, this_store=me)


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def describe(host: EventHost) -> str:
    """The one line ``event show`` prints about who writes the event."""
    since = f" since {host.since[11:16]} ({host.since[:10]})" if host.since else ""
    if host.here:
        return f"run from this store ({host.run_from}){since}"
    return f"run from {host.run_from}{since}; this store ({host.this_store}) holds a replica"


def environment_label(text: str | None) -> str:
    """A store named on the command line, for messages (never a password)."""
    from service.stores import parse_store

    return parse_store(text if text is not None else os.environ.get("REFEREE_DB") or None).label

"""``RefereeService``: the one application layer every face calls.

The command line, the HTTP API and the pages all hold one of these and call its
methods; none of them holds referee logic of its own. Commands (``Commands``)
write events through the store; queries (``Queries``) read and present them for
a viewer; records, scoreboards and audits are here too.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from events.backends import is_server_store
from events.store import DEFAULT_DB, GameStore, resolve_db_path
from referee.contract import REFEREE, Viewer
from service.calls import HallFaces
from service.commands import Commands
from service.errors import NoStoreError
from service.event_fixes import EventFixes
from service.eventprint import EventPrinting
from service.hall import Clocks
from service.postings import Postings
from service.queries import Queries

if TYPE_CHECKING:
    from events.ledger import Checkpoint
    from projections.listing import GameListing
    from service.analysis import AnalysisCounts
    from service.foreign import ForeignResult
    from service.interchange import ImportReport
    from service.live import NoticeLog
    from service.seal import CheckpointReport

__all__ = ["RefereeService", "open_service", "remove_unused_store", "store_file_to_make"]


def _now() -> datetime:
    return datetime.now(UTC)


def _seed() -> int:
    return secrets.randbelow(2**31)


class RefereeService(Commands, Queries, HallFaces, EventFixes, Clocks, Postings, EventPrinting):
    """Everything a referee, a scorekeeper or a viewer can ask of a store of games."""

    def __init__(
        self,
        store: GameStore,
        *,
        clock: Callable[[], datetime] = _now,
        draw_seed: Callable[[], int] = _seed,
        projections: str | os.PathLike[str] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.draw_seed = draw_seed
        self._projections_path = projections
        self._projector: Any = None

    def prepare_store(self) -> None:
        """Make sure the store can be used and its tables exist. A server calls this once
        at start: a store that cannot be used (a schema that does not exist, say) is then
        one line at start, and no request pays for creating the tables. A command needs
        not: its first statement creates them when it finds them missing."""
        self.store.ensure_tables()

    def close(self) -> None:
        if self._projector is not None:
            self._projector.close()
        room = self.__dict__.get("_room")
        if room is not None:
            room.close()
        snapshots = self.__dict__.get("_event_snapshots")
        if snapshots is not None:
            snapshots.close()
        self.store.close()

    def __enter__(self) -> RefereeService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- records -----------------------------------------------------------
    def export(
        self,
        refs: Sequence[str] | None,
        fmt: Literal["jsonl", "text"] = "jsonl",
        viewer: Viewer = REFEREE,
    ) -> Iterator[str]:
        """The lines of the games' records (every game when ``refs`` is ``None``)."""
        from service.interchange import export_records

        ids = [self.resolve(r) for r in refs] if refs is not None else self.store.game_ids()
        return export_records(self.store, ids, fmt, viewer)

    def export_sqlite(
        self, path: str | os.PathLike[str], viewer: Viewer = REFEREE
    ) -> AnalysisCounts:
        """Every game and the standings as plain tables in a new SQLite file, with
        full-text search over the log (``service.analysis``: for Datasette and the like)."""
        from service.analysis import write_analysis

        return write_analysis(self, path, viewer)

    def import_files(
        self,
        paths: Iterable[str | os.PathLike[str]],
        *,
        as_new: bool = False,
        by: str = "",
        progress: Callable[[int], None] | None = None,
        workers: int | None = None,
    ) -> ImportReport:
        """Import record files (JSONL or text, one game or many each)."""
        from service.interchange import import_records

        return import_records(
            self.store,
            [os.fspath(p) for p in paths],
            as_new=as_new,
            by=by,
            progress=progress,
            workers=workers,
        )

    def import_foreign(
        self,
        fmt: str,
        paths: Sequence[str],
        *,
        compare: bool = False,
        options: Mapping[str, Any] | None = None,
        by: str = "",
        progress: Callable[[int], None] | None = None,
    ) -> list[ForeignResult]:
        """Import other tools' records of ``fmt`` (each entered again by the referee's own
        commands, optionally compared with the tool's snapshots); one result per file."""
        from service.foreign import import_foreign

        return import_foreign(
            self.store,
            fmt,
            paths,
            compare=compare,
            options=options,
            by=by,
            progress=progress,
        )

    # -- seals (signed checkpoints of the store-wide chain) ------------------------
    @staticmethod
    def create_seal_key(path: str | os.PathLike[str]) -> str:
        """Write a new private seal key (owner-only); its public key (hex)."""
        from service.seal import create_key

        return create_key(path)

    @staticmethod
    def seal_key_is_encrypted(path: str | os.PathLike[str]) -> bool:
        """Whether the key file at ``path`` is an encrypted PEM (it needs a passphrase)."""
        from events.ledger import is_encrypted

        key = Path(path)
        return key.is_file() and is_encrypted(key.read_bytes())

    def seal(self, key_path: str | os.PathLike[str], passphrase: bytes | None = None) -> Checkpoint:
        """Sign the head of the store-wide chain as it is now, and record the checkpoint."""
        from service.seal import seal

        return seal(self.store, key_path, passphrase=passphrase)

    def seal_key_warnings(self, key_path: str | os.PathLike[str]) -> list[str]:
        """What is wrong with where the seal key is kept (see ``service.seal.key_warnings``)."""
        from service.seal import key_warnings

        return key_warnings(self.store, key_path)

    def verify_checkpoint(self, checkpoint: str, public_key: str | None) -> CheckpointReport:
        """Whether the store still extends ``checkpoint`` (and, given a key, who signed it)."""
        from service.seal import verify_checkpoint

        return verify_checkpoint(self.store, checkpoint, public_key)

    def verify_recorded_checkpoints(self) -> list[CheckpointReport]:
        """Each checkpoint this store recorded when sealed, checked against today's events."""
        from service.seal import recorded_checkpoints, verify_checkpoint

        return [verify_checkpoint(self.store, c) for c in recorded_checkpoints(self.store)]

    # -- following the store live (the HTTP face's games list and streams) ------------
    def game_listing(self) -> GameListing:
        """A games list over this store, caught up from the notification log on each call."""
        from projections.listing import GameListing

        return GameListing(self.store)

    def notice_log(self) -> NoticeLog:
        """The store-wide notification log, for a face that wakes live streams."""
        from service.live import NoticeLog

        return NoticeLog(self.store)

    # -- sizes (for progress bars) --------------------------------------------------
    def game_count(self) -> int:
        """How many games the store holds."""
        return len(self.store.game_ids())

    def event_count(self) -> int:
        """How many events the store holds (the store-wide sequence's last position)."""
        return self.store.last_position()

    # -- projections ---------------------------------------------------------
    @property
    def projector(self) -> Any:
        """The read models (scoreboard, ratings, audits, heads), caught up on demand."""
        if self._projector is None:
            from projections.projector import Projector

            self._projector = Projector(self.store, self._projections_path)
        return self._projector

    def scoreboard(
        self,
        game_type: str | None = None,
        *,
        rebuild: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> list[dict[str, Any]]:
        """Standings and ratings per game type and player, after catching the projection up."""
        if game_type is not None:
            from referee import games

            game_type = games.load(game_type).name  # an unknown game is refused, not "no games yet"
        projector = self.projector
        (projector.rebuild if rebuild else projector.catch_up)(progress)
        rows: list[dict[str, Any]] = projector.standings(game_type)
        return rows

    def audit(self, ref: str, dispute: int | None = None) -> dict[str, Any]:
        """A game's audit: the dossier of each dispute (or of one), and every ruling asked
        for, adjustment, penalty and deck check (REF-6.4, REF-7)."""
        from projections.audit import referee_entries
        from service.errors import RefusedError

        game_id = self.resolve(ref)
        projector = self.projector
        projector.catch_up()
        items: list[dict[str, Any]] = projector.audit(game_id)
        if dispute is not None:
            items = [i for i in items if i["dispute"] == dispute]
            if not items:
                raise RefusedError(f"game {game_id} has no dispute {dispute}")
        return {"game_id": game_id, "disputes": items, **referee_entries(self.store.load(game_id))}

    def witness(self) -> Any:
        """The projection as a witness of each game's last event, if it was ever built."""
        projector = self.projector
        return projector if projector.exists() else None


def open_service(
    db: str | os.PathLike[str] | None = None,
    *,
    create: bool = False,
    env: dict[str, str] | None = None,
    one_shot: bool = False,
) -> RefereeService:
    """The service over the store named by ``db`` (or ``REFEREE_DB``, or ``./referee.db``).

    Only commands that create games may create a store (``create``); the others
    are refused when no store is there, so a mistyped name is noticed. ``one_shot``: a
    command that touches a game or two and ends, which on a ``postgresql://`` URL needs
    no database driver (``GameStore``'s ``one_shot``)."""
    settings = dict(env or {})
    target = resolve_db_path(db)
    if is_server_store(target, settings):  # a database server: no file to look for
        return RefereeService(
            GameStore(target if "://" in target else None, env=settings, one_shot=one_shot)
        )
    path = Path(target)
    if not path.exists():
        if not create:
            raise NoStoreError(
                f"{path}: no store here (a new store is made by 'referee new' or "
                f"'referee import'; --db or REFEREE_DB names another)"
            )
        if not path.parent.exists():
            raise NoStoreError(f"{path}: the folder {path.parent} does not exist")
    elif path.is_dir():
        raise NoStoreError(f"{path}: is a folder, not a store file")
    return RefereeService(_open_sqlite(path, settings, create))


def store_file_to_make(db: str | os.PathLike[str] | None = None) -> Path | None:
    """The SQLite file that opening ``db`` with ``create`` would make, or ``None`` when it
    exists already or names a database server."""
    target = resolve_db_path(db)
    if is_server_store(target, {}):
        return None
    path = Path(target)
    return None if path.exists() else path


def remove_unused_store(path: Path) -> bool:
    """Delete a store file a refused command made and left without one event, with its
    journal files, so the refusal leaves the folder as it was. A file holding any event,
    or one that cannot be read, is kept."""
    from events.database import open_database

    if not open_database(str(path)).unused():
        return False
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return True


def _open_sqlite(path: Path, settings: dict[str, str], create: bool) -> GameStore:
    """The SQLite store at ``path``; an archived store in a folder that cannot be written
    is opened read-only (reading works, every write is refused)."""
    import sqlite3

    from eventsourcing.persistence import PersistenceError

    try:
        return GameStore(path, env=settings).probe()
    except (sqlite3.Error, PersistenceError, OSError) as exc:
        problem = exc
    if create:
        raise NoStoreError(f"{path}: cannot be written ({problem})")
    for mode in ("mode=ro", "immutable=1"):
        try:
            store = GameStore(f"file:{path}?{mode}", env={**settings, "CREATE_TABLE": "no"}).probe()
        except (sqlite3.Error, PersistenceError, OSError):
            continue
        store.read_only = True
        return store
    raise NoStoreError(f"{path}: cannot be opened ({problem})")


DEFAULT_STORE = DEFAULT_DB

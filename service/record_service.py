"""The record service: a store's records, seals, read models and sizes.

One of the small services ``RefereeService`` holds: exporting and importing records (ours
and other tools'), the analysis file, the seals (signed checkpoints of the store-wide
chain), the live games list and notification log, the scoreboard and the audits from the
read models (shared with the games' reads through ``service.ports.Basis``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Unpack

from referee.contract import REFEREE, Viewer
from service.game_service import GameService
from service.ports import Basis

if TYPE_CHECKING:
    from events.ledger import Checkpoint
    from projections.listing import GameListing
    from projections.projector import Projector
    from service.analysis import AnalysisCounts
    from service.foreign import ForeignImport, ForeignResult
    from service.interchange import ImportReport
    from service.live import NoticeLog
    from service.seal import CheckpointReport

__all__ = ["RecordService"]


class RecordService:
    """Records in and out, seals, the scoreboard and audits, and the store's sizes."""

    def __init__(self, basis: Basis, games: GameService) -> None:
        self.basis = basis
        self.store = basis.store
        self.games = games  # the games' ids (``resolve``) and logs (the analysis file)

    # -- records -----------------------------------------------------------
    def export(
        self,
        refs: Sequence[str] | None,
        fmt: Literal["jsonl", "text"] = "jsonl",
        viewer: Viewer = REFEREE,
    ) -> Iterator[str]:
        """The lines of the games' records (every game when ``refs`` is ``None``)."""
        from service.interchange import export_records

        ids = [self.games.resolve(r) for r in refs] if refs is not None else self.store.game_ids()
        return export_records(self.store, ids, fmt, viewer)

    def export_sqlite(
        self, path: str | os.PathLike[str], viewer: Viewer = REFEREE
    ) -> AnalysisCounts:
        """Every game and the standings as plain tables in a new SQLite file, with
        full-text search over the log (``service.analysis``: for Datasette and the like)."""
        from service.analysis import write_analysis

        return write_analysis(self.games, path, viewer, scoreboard=self.scoreboard)

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
        self, fmt: str, paths: Sequence[str], **how: Unpack[ForeignImport]
    ) -> list[ForeignResult]:
        """Import other tools' records of ``fmt`` (each entered again by the referee's own
        commands, optionally compared with the tool's snapshots); one result per file."""
        from service.foreign import import_foreign

        return import_foreign(self.store, fmt, paths, **how)

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
    def projector(self) -> Projector:
        """The read models (scoreboard, ratings, audits, heads), caught up on demand."""
        return self.basis.projector

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

        game_id = self.games.resolve(ref)
        projector = self.projector
        projector.catch_up()
        items: list[dict[str, Any]] = projector.audit(game_id)
        if dispute is not None:
            items = [i for i in items if i["dispute"] == dispute]
            if not items:
                raise RefusedError(f"game {game_id} has no dispute {dispute}")
        return {"game_id": game_id, "disputes": items, **referee_entries(self.store.load(game_id))}

    def witness(self) -> Projector | None:
        """The projection as a witness of each game's last event, if it was ever built."""
        projector = self.projector
        return projector if projector.exists() else None

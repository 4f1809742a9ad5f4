"""The service's public names: what a face may import from the application layer.

A face (``cli``, ``web``) imports the service through its public modules only: this one,
``service`` itself (``RefereeService``, ``open_service``, the errors), ``service.app``,
``service.errors``, ``service.results``, ``service.wording``, ``service.access``,
``service.stores``, ``service.storefile``, ``service.bounds``, the client of a running
server (``service.remote``, ``service.outbox``) and the server's machinery the HTTP face
assembles (``service.cached``, ``service.writer``, ``service.idempotency``,
``service.sidedb``, ``service.procedure``): ``PUBLIC_MODULES``. Every other module of the
layer is the service's own; an import-linter contract (``pyproject.toml``, "Faces import
only the service's public modules") keeps the faces out of them, and
``tests/test_architecture.py`` checks that every module of ``service`` is either public or
protected by it.

The names below are the typed answers, inputs and helpers of the service's own modules that
the faces use, and ``GameView``, the game as the service folds it (the event layer's type,
named here so a face can annotate with it without importing that layer). They are loaded
on first use (PEP 562), not when this module is: a face that imports a type for its
annotations loads nothing, and ``referee act`` loads no more than it did.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from events.view import GameView
    from referee.kit.decks import Decklist, SealedDeck
    from referee.rulebook import Clause, Rulebook
    from service.app import (
        Parts,
        RefereeService,
        open_service,
        remove_unused_store,
        store_file_to_make,
    )
    from service.backup import (
        backup_store,
        restore_store,
    )
    from service.boards import (
        render_board,
        render_position,
    )
    from service.calls import (
        CALL_SECONDS,
        NOTE_LIMIT,
        REASON_LIMIT,
        CallRow,
        ReportRow,
    )
    from service.decide import (
        Command,
        CreateGame,
        End,
    )
    from service.event_fixes import (
        DeckReceived,
        DrawInfo,
        EntrantRow,
        Repaired,
        Undone,
    )
    from service.event_service import (
        EventService,
    )
    from service.eventprint import (
        BracketView,
        GamePlace,
        PairingSheet,
        bracket_view,
        pairings_csv,
        standings_csv,
    )
    from service.game_service import (
        GameService,
    )
    from service.hall import (
        ClockView,
    )
    from service.interchange import (
        FileOutcome,
        ImportReport,
    )
    from service.live import (
        ListedGame,
        Notice,
        NoticeLog,
        game_events_after,
    )
    from service.offline import (
        Branch,
        OfflineEntryIn,
        SyncOutcome,
        branches,
        merge_offline,
        record_lines,
        resolve_branch,
    )
    from service.perft import (
        legal_at,
        perft,
    )
    from service.pipeline import (
        Need,
        Terms,
        admit,
        admit_game_early,
        as_caller,
        identified,
        need,
        ruling_action,
        serving,
        under_terms,
        with_terms,
    )
    from service.postings import (
        EventBoard,
        PlayerIndex,
        PlayerLine,
        Posted,
        Posting,
        PostingReport,
        Postings,
        PublicKey,
        player_line,
        public_key_text,
        read_posting,
        standing_dicts,
        standings_json,
        swiss_rows_of,
        table_results,
    )
    from service.queries import (
        VerifyReport,
    )
    from service.record_service import (
        RecordService,
    )
    from service.replay import (
        environment,
        replay_html,
        status_line,
    )
    from service.replication import (
        EventHost,
        Handover,
        describe,
        environment_label,
        event_host,
        follow,
        handover,
        name_store,
        refuse_no_store_file,
        replicate_once,
        store_status,
    )
    from service.room import (
        ITEM_KINDS,
        QueueItem,
        RoomView,
    )
    from service.room_service import (
        RoomService,
    )
    from service.roster import MAX_RATING, Roster, rating_from, ratings_from_lines, read_roster
    from service.toolkit import (
        ADJUSTMENT_GRAMMAR,
        penalty_advice,
        toolkit,
    )
    from service.tournaments import (
        EventInfo,
        LogLine,
        PairingRow,
        PenaltyOutcome,
        StandingRow,
        split_slip,
    )

PUBLIC_MODULES = (
    "service",
    "service.access",
    "service.api",
    "service.app",
    "service.bounds",
    "service.cached",
    "service.errors",
    "service.idempotency",
    "service.outbox",
    "service.procedure",
    "service.remote",
    "service.results",
    "service.sidedb",
    "service.storefile",
    "service.stores",
    "service.wording",
    "service.writer",
)
"""The modules of the application layer a face may import (the rest are protected)."""

__all__ = [
    "ADJUSTMENT_GRAMMAR",
    "CALL_SECONDS",
    "ITEM_KINDS",
    "MAX_RATING",
    "NOTE_LIMIT",
    "PUBLIC_MODULES",
    "REASON_LIMIT",
    "BracketView",
    "Branch",
    "CallRow",
    "ClockView",
    "Command",
    "CreateGame",
    "DeckReceived",
    "DrawInfo",
    "End",
    "EntrantRow",
    "EventBoard",
    "EventHost",
    "EventInfo",
    "EventService",
    "FileOutcome",
    "GamePlace",
    "GameService",
    "GameView",
    "Handover",
    "ImportReport",
    "ListedGame",
    "LogLine",
    "Need",
    "Notice",
    "NoticeLog",
    "OfflineEntryIn",
    "PairingRow",
    "PairingSheet",
    "Parts",
    "PenaltyOutcome",
    "PlayerIndex",
    "PlayerLine",
    "Posted",
    "Posting",
    "PostingReport",
    "Postings",
    "PublicKey",
    "QueueItem",
    "RecordService",
    "RefereeService",
    "Repaired",
    "ReportRow",
    "RoomService",
    "RoomView",
    "Roster",
    "StandingRow",
    "SyncOutcome",
    "Terms",
    "Undone",
    "VerifyReport",
    "admit",
    "admit_game_early",
    "as_caller",
    "backup_store",
    "bracket_view",
    "branches",
    "clauses",
    "describe",
    "environment",
    "environment_label",
    "event_host",
    "follow",
    "game_events_after",
    "handover",
    "identified",
    "legal_at",
    "merge_offline",
    "name_store",
    "need",
    "open_service",
    "pairings_csv",
    "penalty_advice",
    "perft",
    "player_line",
    "public_key_text",
    "rating_from",
    "ratings_from_lines",
    "read_posting",
    "read_roster",
    "record_lines",
    "refuse_no_store_file",
    "remove_unused_store",
    "render_board",
    "render_position",
    "replay_html",
    "replicate_once",
    "resolve_branch",
    "restore_store",
    "rulebook",
    "ruling_action",
    "seal_decklist",
    "serving",
    "split_slip",
    "standing_dicts",
    "standings_csv",
    "standings_json",
    "status_line",
    "store_file_to_make",
    "store_status",
    "swiss_rows_of",
    "table_results",
    "toolkit",
    "under_terms",
    "with_terms",
]

_HOME = {
    "GameView": "events.view",
    "Parts": "service.app",
    "RefereeService": "service.app",
    "open_service": "service.app",
    "remove_unused_store": "service.app",
    "store_file_to_make": "service.app",
    "GameService": "service.game_service",
    "EventService": "service.event_service",
    "RoomService": "service.room_service",
    "RecordService": "service.record_service",
    "Postings": "service.postings",
    "EventBoard": "service.postings",
    "PlayerIndex": "service.postings",
    "PlayerLine": "service.postings",
    "Posted": "service.postings",
    "Posting": "service.postings",
    "PostingReport": "service.postings",
    "PublicKey": "service.postings",
    "public_key_text": "service.postings",
    "player_line": "service.postings",
    "read_posting": "service.postings",
    "standing_dicts": "service.postings",
    "standings_json": "service.postings",
    "swiss_rows_of": "service.postings",
    "table_results": "service.postings",
    "EventInfo": "service.tournaments",
    "LogLine": "service.tournaments",
    "PairingRow": "service.tournaments",
    "PenaltyOutcome": "service.tournaments",
    "StandingRow": "service.tournaments",
    "split_slip": "service.tournaments",
    "Need": "service.pipeline",
    "admit": "service.pipeline",
    "admit_game_early": "service.pipeline",
    "as_caller": "service.pipeline",
    "identified": "service.pipeline",
    "need": "service.pipeline",
    "serving": "service.pipeline",
    "ruling_action": "service.pipeline",
    "Terms": "service.pipeline",
    "under_terms": "service.pipeline",
    "with_terms": "service.pipeline",
    "BracketView": "service.eventprint",
    "GamePlace": "service.eventprint",
    "PairingSheet": "service.eventprint",
    "bracket_view": "service.eventprint",
    "pairings_csv": "service.eventprint",
    "standings_csv": "service.eventprint",
    "DeckReceived": "service.event_fixes",
    "DrawInfo": "service.event_fixes",
    "EntrantRow": "service.event_fixes",
    "Repaired": "service.event_fixes",
    "Undone": "service.event_fixes",
    "MAX_RATING": "service.roster",
    "Roster": "service.roster",
    "rating_from": "service.roster",
    "ratings_from_lines": "service.roster",
    "read_roster": "service.roster",
    "CALL_SECONDS": "service.calls",
    "NOTE_LIMIT": "service.calls",
    "REASON_LIMIT": "service.calls",
    "CallRow": "service.calls",
    "ReportRow": "service.calls",
    "ClockView": "service.hall",
    "ITEM_KINDS": "service.room",
    "QueueItem": "service.room",
    "RoomView": "service.room",
    "Command": "service.decide",
    "CreateGame": "service.decide",
    "End": "service.decide",
    "VerifyReport": "service.queries",
    "FileOutcome": "service.interchange",
    "ImportReport": "service.interchange",
    "ListedGame": "service.live",
    "Notice": "service.live",
    "NoticeLog": "service.live",
    "game_events_after": "service.live",
    "Branch": "service.offline",
    "OfflineEntryIn": "service.offline",
    "SyncOutcome": "service.offline",
    "branches": "service.offline",
    "merge_offline": "service.offline",
    "record_lines": "service.offline",
    "resolve_branch": "service.offline",
    "environment": "service.replay",
    "replay_html": "service.replay",
    "status_line": "service.replay",
    "legal_at": "service.perft",
    "perft": "service.perft",
    "render_board": "service.boards",
    "render_position": "service.boards",
    "ADJUSTMENT_GRAMMAR": "service.toolkit",
    "penalty_advice": "service.toolkit",
    "toolkit": "service.toolkit",
    "backup_store": "service.backup",
    "restore_store": "service.backup",
    "EventHost": "service.replication",
    "Handover": "service.replication",
    "describe": "service.replication",
    "environment_label": "service.replication",
    "event_host": "service.replication",
    "follow": "service.replication",
    "handover": "service.replication",
    "name_store": "service.replication",
    "refuse_no_store_file": "service.replication",
    "replicate_once": "service.replication",
    "store_status": "service.replication",
}


def rulebook(game: str) -> Rulebook:
    """A game's rulebook (no store: ``referee rulebook`` opens none)."""
    from service.queries import Queries

    return Queries.rulebook(game)


def clauses(game: str, ref: str) -> list[Clause]:
    """One clause of a game's rulebook (``PZ-6.2``), or every clause of a section."""
    from service.queries import Queries

    return Queries.clauses(game, ref)


def seal_decklist(decklist: Decklist) -> tuple[SealedDeck, str]:
    """A sealed registration of ``decklist`` and the salt the player keeps to open it
    (REF-5.3; no store: a player seals at home)."""
    from service.commands import Commands

    return Commands().seal_decklist(decklist)


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'service.api' has no attribute {name!r}")
    return getattr(import_module(home), name)

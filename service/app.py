"""``RefereeService``: the one door every face calls, a thin facade over small services.

The command line, the HTTP API and the pages all hold one of these and call its methods;
none of them holds referee logic of its own. The work is done by small application
services, each a class with a typed interface, which the facade holds in ``parts``:

- ``games`` (``service.game_service.GameService``): a game's commands and reads;
- ``events`` (``service.event_service.EventService``): tournaments, the hall, the clock;
- ``postings`` (``service.postings.Postings``): postings and the event pages' reads;
- ``room`` (``service.room_service.RoomService``): the referees' queue;
- ``records`` (``service.record_service.RecordService``): records, seals, scoreboard, audits;
- ``access`` (``service.access.AccessService``): a game's seating and the check of an action.

They share one ``service.ports.Basis`` (store, clock, seeds, read models) and reach each
other only through the typed seams of ``service.ports``. The facade keeps every method name
the faces have always called (``svc.load``, ``svc.event_pair``, ...): each is the part's own
method, typed as that method (``_Via``), so a new face may call ``svc.parts.events`` directly
and an old one keeps working.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Generic, ParamSpec, TypedDict, TypeVar, cast, overload

from events.backends import is_server_store
from events.store import DEFAULT_DB, GameStore, resolve_db_path
from service.errors import NoStoreError
from service.game_service import GameService
from service.ports import Basis
from service.record_service import RecordService
from service.storefile import empty_file, refuse_no_store

if TYPE_CHECKING:
    from events.schema import GameCreated, GameEnded
    from projections.projector import Projector
    from service.access import AccessService
    from service.event_service import EventService
    from service.ports import MatchPlan
    from service.postings import Postings
    from service.room_service import RoomService

__all__ = [
    "Parts",
    "RefereeService",
    "ServiceOptions",
    "open_service",
    "remove_unused_store",
    "store_file_to_make",
]

_P = ParamSpec("_P")
_R = TypeVar("_R")
_T = TypeVar("_T")


def _now() -> datetime:
    return datetime.now(UTC)


def _seed() -> int:
    return secrets.randbelow(2**31)


class ServiceOptions(TypedDict, total=False):
    """What a service is opened with besides its store (``RefereeService``'s keywords): a
    subclass takes them as ``**options`` and passes them on."""

    clock: Callable[[], datetime]
    draw_seed: Callable[[], int]
    projections: str | os.PathLike[str] | None


class Parts:
    """The small services one ``RefereeService`` is made of (see the module's docstring).

    The games are made with the service; every other part when first asked for, so a
    command on one game (``referee act``) imports and builds none of them: the event
    service alone is a fifth of such a command's imports. A game played at an event asks
    its match of the event service through ``matches`` (``_Matches``), which builds it
    then. Each part is built once, under a lock (a server's threads may ask at once)."""

    def __init__(self, basis: Basis, games: GameService) -> None:
        self.basis = basis
        self.games = games
        self._lock = threading.RLock()
        self._built: dict[str, object] = {}

    def _part(self, name: str, make: Callable[[], _T]) -> _T:
        with self._lock:
            part = self._built.get(name)
            if part is None:
                part = self._built[name] = make()
            return cast("_T", part)

    def built(self) -> dict[str, object]:
        """The parts made so far, by name (the games always)."""
        with self._lock:
            return {"games": self.games, **self._built}

    @property
    def events(self) -> EventService:
        """``service.event_service.EventService``: tournaments, the hall, the clock."""

        def make() -> EventService:
            from service.event_service import EventService

            return EventService(self.basis, self.games)

        return self._part("events", make)

    @property
    def postings(self) -> Postings:
        """``service.postings.Postings``: postings and the event pages' reads."""

        def make() -> Postings:
            from service.postings import Postings

            return Postings(self.basis.store, self.events)

        return self._part("postings", make)

    @property
    def room(self) -> RoomService:
        """``service.room_service.RoomService``: the referees' queue."""

        def make() -> RoomService:
            from service.room_service import RoomService

            return RoomService(self.basis)

        return self._part("room", make)

    @property
    def records(self) -> RecordService:
        """``service.record_service.RecordService``: records, seals, scoreboard, audits."""
        return self._part("records", lambda: RecordService(self.basis, self.games))

    @property
    def access(self) -> AccessService:
        """``service.access.AccessService``: a game's seating and the check of an action."""

        def make() -> AccessService:
            from service.access import AccessService

            return AccessService(self.games)

        return self._part("access", make)


class _Matches:
    """The event service as a game's ``MatchHooks``, made when a game played at an event
    is first written (a game of no event never asks)."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    @property
    def events(self) -> EventService:
        """The event service answering for the games."""
        return self.parts.events

    def check_game_reopened(self, created: GameCreated) -> None:
        self.parts.events.check_game_reopened(created)

    def match_update(self, created: GameCreated, ended: GameEnded) -> MatchPlan | None:
        return self.parts.events.match_update(created, ended)


class _Via(cached_property[Callable[_P, _R]], Generic[_P, _R]):
    """A method of the facade that is a part's method: ``svc.load(ref)`` is
    ``svc.parts.games.load(ref)``, with that method's own signature for the type checker
    (``bind`` names it in code, so a renamed or missing method fails ``mypy``, not a
    request). Bound once per service (``functools.cached_property``): a face's call costs
    what a call of the part's own method costs, which a server makes per request."""

    def __init__(self, bind: Callable[[RefereeService], Callable[_P, _R]]) -> None:
        super().__init__(bind)


class _Setting(Generic[_T]):
    """A setting of the facade that is an attribute of what the parts share (``holder``
    finds it, ``name`` names it): reading it reads theirs, setting it sets theirs, so every
    part sees what a caller (a test, a face) sets."""

    def __init__(self, holder: Callable[[RefereeService], object], name: str, doc: str) -> None:
        self.holder = holder
        self.name = name
        self.__doc__ = doc

    @overload
    def __get__(self, svc: None, owner: type[RefereeService]) -> _Setting[_T]: ...

    @overload
    def __get__(self, svc: RefereeService, owner: type[RefereeService]) -> _T: ...

    def __get__(self, svc: RefereeService | None, owner: type[RefereeService]) -> _T | _Setting[_T]:
        if svc is None:
            return self
        return cast("_T", getattr(self.holder(svc), self.name))

    def __set__(self, svc: RefereeService, value: _T) -> None:
        setattr(self.holder(svc), self.name, value)


class RefereeService:
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
        self.basis = Basis(store, clock, draw_seed, projections)
        games = self._new_games(self.basis)
        self.parts = Parts(self.basis, games)
        games.matches = _Matches(self.parts)  # a game of an event updates its match

    def _new_games(self, basis: Basis) -> GameService:
        """The game service (a long-running server keeps games folded: ``CachedService``)."""
        return GameService(basis)

    clock: _Setting[Callable[[], datetime]] = _Setting(
        lambda s: s.basis, "clock_source", "The clock every part reads (a test may set another)."
    )
    draw_seed: _Setting[Callable[[], int]] = _Setting(
        lambda s: s.basis,
        "seed_source",
        "Where every part draws its seeds (a test may set another).",
    )
    on_resolved: _Setting[Callable[[str, str], None] | None] = _Setting(
        lambda s: s.parts.games,
        "on_resolved",
        "Told ``(ending, game id)`` when a game is named by the ending of its id.",
    )

    @property
    def projector(self) -> Projector:
        """The read models (scoreboard, ratings, audits, heads), caught up on demand."""
        return self.basis.projector

    def prepare_store(self) -> None:
        """Make sure the store can be used and its tables exist. A server calls this once
        at start: a store that cannot be used (a schema that does not exist, say) is then
        one line at start, and no request pays for creating the tables. A command needs
        not: its first statement creates them when it finds them missing."""
        self.store.ensure_tables()

    def close(self) -> None:
        """Close what the parts opened (read models, the queue's fold, event snapshots),
        then the store."""
        self.basis.close()
        built = self.parts.built()
        for name in ("room", "events"):  # only what was made
            part = built.get(name)
            if part is not None:
                part.close()  # type: ignore[attr-defined]
        self.store.close()

    def __enter__(self) -> RefereeService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the games (service.game_service.GameService) ----------------------------------------
    adjust = _Via(lambda s: s.parts.games.adjust)
    appeal = _Via(lambda s: s.parts.games.appeal)
    backup = _Via(lambda s: s.parts.games.backup)
    create_game = _Via(lambda s: s.parts.games.create_game)
    dispute = _Via(lambda s: s.parts.games.dispute)
    dispute_steps = _Via(lambda s: s.parts.games.dispute_steps)
    end = _Via(lambda s: s.parts.games.end)
    entry_answered = _Via(lambda s: s.parts.games.entry_answered)
    games = _Via(lambda s: s.parts.games.games)
    iter_log = _Via(lambda s: s.parts.games.iter_log)
    keep_rejection = _Via(lambda s: s.parts.games.keep_rejection)
    legal = _Via(lambda s: s.parts.games.legal)
    load = _Via(lambda s: s.parts.games.load)
    log = _Via(lambda s: s.parts.games.log)
    log_events = _Via(lambda s: s.parts.games.log_events)
    open_deck = _Via(lambda s: s.parts.games.open_deck)
    penalty = _Via(lambda s: s.parts.games.penalty)
    position = _Via(lambda s: s.parts.games.position)
    position_svg = _Via(lambda s: s.parts.games.position_svg)
    position_text = _Via(lambda s: s.parts.games.position_text)
    position_unless = _Via(lambda s: s.parts.games.position_unless)
    record = _Via(lambda s: s.parts.games.record)
    register_deck = _Via(lambda s: s.parts.games.register_deck)
    replay = _Via(lambda s: s.parts.games.replay)
    report = _Via(lambda s: s.parts.games.report)
    resolve = _Via(lambda s: s.parts.games.resolve)
    retract = _Via(lambda s: s.parts.games.retract)
    rule = _Via(lambda s: s.parts.games.rule)
    seal_decklist = _Via(lambda s: s.parts.games.seal_decklist)
    seating = _Via(lambda s: s.parts.games.seating)
    time_limit = _Via(lambda s: s.parts.games.time_limit)
    verify = _Via(lambda s: s.parts.games.verify)
    viewer_of = _Via(lambda s: s.parts.games.viewer_of)
    what_if = _Via(lambda s: s.parts.games.what_if)
    withdraw_penalty = _Via(lambda s: s.parts.games.withdraw_penalty)
    written = _Via(lambda s: s.parts.games.written)

    # the games' reads that need no store
    clauses = staticmethod(GameService.clauses)
    game_type = staticmethod(GameService.game_type)
    game_types = staticmethod(GameService.game_types)
    rulebook = staticmethod(GameService.rulebook)

    # -- the events (service.event_service.EventService) -------------------------------------
    answer_as = _Via(lambda s: s.parts.events.answer_as)
    call_as = _Via(lambda s: s.parts.events.call_as)
    call_step_as = _Via(lambda s: s.parts.events.call_step_as)
    calls_as = _Via(lambda s: s.parts.events.calls_as)
    check_game_reopened = _Via(lambda s: s.parts.events.check_game_reopened)
    event_attach_deck = _Via(lambda s: s.parts.events.event_attach_deck)
    event_audit = _Via(lambda s: s.parts.events.event_audit)
    event_audit_named = _Via(lambda s: s.parts.events.event_audit_named)
    event_bracket = _Via(lambda s: s.parts.events.event_bracket)
    event_call = _Via(lambda s: s.parts.events.event_call)
    event_call_claim = _Via(lambda s: s.parts.events.event_call_claim)
    event_call_escalate = _Via(lambda s: s.parts.events.event_call_escalate)
    event_call_resolve = _Via(lambda s: s.parts.events.event_call_resolve)
    event_calls = _Via(lambda s: s.parts.events.event_calls)
    event_change = _Via(lambda s: s.parts.events.event_change)
    event_clock = _Via(lambda s: s.parts.events.event_clock)
    event_clock_view = _Via(lambda s: s.parts.events.event_clock_view)
    event_correct = _Via(lambda s: s.parts.events.event_correct)
    event_correct_rating = _Via(lambda s: s.parts.events.event_correct_rating)
    event_draw = _Via(lambda s: s.parts.events.event_draw)
    event_drop = _Via(lambda s: s.parts.events.event_drop)
    event_end = _Via(lambda s: s.parts.events.event_end)
    event_explain = _Via(lambda s: s.parts.events.event_explain)
    event_export = _Via(lambda s: s.parts.events.event_export)
    event_extend = _Via(lambda s: s.parts.events.event_extend)
    game_extend = _Via(lambda s: s.parts.events.game_extend)
    event_game_place = _Via(lambda s: s.parts.events.event_game_place)
    event_game_place_of = _Via(lambda s: s.parts.events.event_game_place_of)
    event_ids = _Via(lambda s: s.parts.events.event_ids)
    event_info = _Via(lambda s: s.parts.events.event_info)
    event_log = _Via(lambda s: s.parts.events.event_log)
    event_log_named = _Via(lambda s: s.parts.events.event_log_named)
    event_missing_decks = _Via(lambda s: s.parts.events.event_missing_decks)
    event_decklist_note = _Via(lambda s: s.parts.events.event_decklist_note)
    decklist_as = _Via(lambda s: s.parts.events.decklist_as)
    event_penalty_lines = _Via(lambda s: s.parts.events.event_penalty_lines)
    event_new = _Via(lambda s: s.parts.events.event_new)
    event_pair = _Via(lambda s: s.parts.events.event_pair)
    event_pairing_sheet = _Via(lambda s: s.parts.events.event_pairing_sheet)
    event_pairings = _Via(lambda s: s.parts.events.event_pairings)
    event_penalize = _Via(lambda s: s.parts.events.event_penalize)
    event_penalty_withdraw = _Via(lambda s: s.parts.events.event_penalty_withdraw)
    event_player_of = _Via(lambda s: s.parts.events.event_player_of)
    event_player_standing = _Via(lambda s: s.parts.events.event_player_standing)
    event_pod_places = _Via(lambda s: s.parts.events.event_pod_places)
    event_players = _Via(lambda s: s.parts.events.event_players)
    event_late_notes = _Via(lambda s: s.parts.events.event_late_notes)
    event_register = _Via(lambda s: s.parts.events.event_register)
    event_repair = _Via(lambda s: s.parts.events.event_repair)
    event_repair_moves = _Via(lambda s: s.parts.events.event_repair_moves)
    event_report = _Via(lambda s: s.parts.events.event_report)
    event_report_confirm = _Via(lambda s: s.parts.events.event_report_confirm)
    event_report_dispute = _Via(lambda s: s.parts.events.event_report_dispute)
    event_reports = _Via(lambda s: s.parts.events.event_reports)
    event_result = _Via(lambda s: s.parts.events.event_result)
    event_round = _Via(lambda s: s.parts.events.event_round)
    event_round_label = _Via(lambda s: s.parts.events.event_round_label)
    event_round_length = _Via(lambda s: s.parts.events.event_round_length)
    event_stage = _Via(lambda s: s.parts.events.event_stage)
    event_standings = _Via(lambda s: s.parts.events.event_standings)
    event_state = _Via(lambda s: s.parts.events.event_state)
    event_undo_round = _Via(lambda s: s.parts.events.event_undo_round)
    event_undrop = _Via(lambda s: s.parts.events.event_undrop)
    event_version = _Via(lambda s: s.parts.events.event_version)
    game_call = _Via(lambda s: s.parts.events.game_call)
    game_call_as = _Via(lambda s: s.parts.events.game_call_as)
    game_clock = _Via(lambda s: s.parts.events.game_clock)
    match_update = _Via(lambda s: s.parts.events.match_update)
    report_as = _Via(lambda s: s.parts.events.report_as)
    reports_as = _Via(lambda s: s.parts.events.reports_as)

    # -- the postings and event pages (service.postings.Postings) ----------------------------
    event_board = _Via(lambda s: s.parts.postings.event_board)
    event_list = _Via(lambda s: s.parts.postings.event_list)
    event_player = _Via(lambda s: s.parts.postings.event_player)
    event_posting = _Via(lambda s: s.parts.postings.event_posting)
    newest_checkpoint = _Via(lambda s: s.parts.postings.newest_checkpoint)
    verify_event_posting = _Via(lambda s: s.parts.postings.verify_event_posting)
    public_key_of = _Via(lambda s: s.parts.postings.public_key_of)
    event_public_key = _Via(lambda s: s.parts.postings.event_public_key)

    # -- the room (service.room_service.RoomService) -----------------------------------------
    queue = _Via(lambda s: s.parts.room.queue)

    # -- records, seals, read models, sizes (service.record_service.RecordService) -----------
    audit = _Via(lambda s: s.parts.records.audit)
    event_count = _Via(lambda s: s.parts.records.event_count)
    export = _Via(lambda s: s.parts.records.export)
    export_sqlite = _Via(lambda s: s.parts.records.export_sqlite)
    game_count = _Via(lambda s: s.parts.records.game_count)
    game_listing = _Via(lambda s: s.parts.records.game_listing)
    import_files = _Via(lambda s: s.parts.records.import_files)
    import_foreign = _Via(lambda s: s.parts.records.import_foreign)
    notice_log = _Via(lambda s: s.parts.records.notice_log)
    scoreboard = _Via(lambda s: s.parts.records.scoreboard)
    seal = _Via(lambda s: s.parts.records.seal)
    seal_key_warnings = _Via(lambda s: s.parts.records.seal_key_warnings)
    verify_checkpoint = _Via(lambda s: s.parts.records.verify_checkpoint)
    verify_recorded_checkpoints = _Via(lambda s: s.parts.records.verify_recorded_checkpoints)
    witness = _Via(lambda s: s.parts.records.witness)

    # a seal key is a file: no store
    create_seal_key = staticmethod(RecordService.create_seal_key)
    seal_key_is_encrypted = staticmethod(RecordService.seal_key_is_encrypted)


def open_service(
    db: str | os.PathLike[str] | None = None,
    *,
    create: bool = False,
    env: dict[str, str] | None = None,
    one_shot: bool = False,
    kind: Callable[[GameStore], RefereeService] = RefereeService,
) -> RefereeService:
    """The service over the store named by ``db`` (or ``REFEREE_DB``, or ``./referee.db``).

    Only commands that create games may create a store (``create``); the others
    are refused when no store is there, so a mistyped name is noticed. ``one_shot``: a
    command that touches a game or two and ends, which on a ``postgresql://`` URL needs
    no database driver (``GameStore``'s ``one_shot``). ``kind``: the service made over
    the store (a session that writes and reads one game many times, ``referee table``,
    asks for ``service.cached.CachedService``, which keeps it folded between calls and
    reads only the events stored since, so what another process wrote is still seen)."""
    settings = dict(env or {})
    target = resolve_db_path(db)
    if is_server_store(target, settings):  # a database server: no file to look for
        return kind(GameStore(target if "://" in target else None, env=settings, one_shot=one_shot))
    path = Path(target)
    refuse_no_store(path, create)
    return kind(_open_sqlite(path, settings, create))


def store_file_to_make(db: str | os.PathLike[str] | None = None) -> Path | None:
    """The SQLite file that opening ``db`` with ``create`` would make (or write the store's
    tables into: an empty file), or ``None`` when a store is there already or ``db`` names
    a database server."""
    target = resolve_db_path(db)
    if is_server_store(target, {}):
        return None
    path = Path(target)
    return path if not path.exists() or (path.is_file() and empty_file(path)) else None


def remove_unused_store(path: Path, *, was_empty: bool = False) -> bool:
    """Delete a store file a refused command made and left without one event, with its
    journal files, so the refusal leaves the folder as it was (``was_empty``: the file was
    there, empty, and is emptied again). A file holding any event, or one that cannot be
    read, is kept."""
    from events.database import open_database

    if not open_database(str(path)).unused():
        return False
    for suffix in ("-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    if was_empty:
        path.write_bytes(b"")
    else:
        path.unlink(missing_ok=True)
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

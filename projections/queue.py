"""The referees' queue's read model: across every table, what may wait for a referee,
folded from the store's log.

The fold keeps each game's players, labels and status (``projections.status``), its
open disputes, awaited rulings and branches kept as evidence, the penalties issued, and
every running event folded by the pure core, and the set of games with something
waiting, so once caught up a read costs what waits, not the store's size (no game is
replayed). Recorded actions are only counted by the store's log pages, never decoded.

The fold is persisted: a snapshot of it and the log position it covers are kept beside
the read models (``queue_fold`` in ``projections.db``'s database: the
``.projections.db`` file, or ``referee_queue_fold`` on PostgreSQL), so a new process
(``referee queue``) decodes the snapshot and folds only what the log gained since,
instead of reading every event of the store (``BENCHMARKS.md``). The snapshot is only a
cache: unreadable or of another schema, it is ignored and the fold starts from the log's
beginning. What the queue shows of the fold, and in which order, is
``service.room.RoomQueue``'s (the interpretations Q-1 to Q-6 are written there).
"""

from __future__ import annotations

import threading
from datetime import datetime

import msgspec

from events.codec import decode
from events.schema import (
    ActionRetracted,
    AdjustmentRecorded,
    BranchRecorded,
    BranchResolved,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    GameCallAnswered,
    GameCreated,
    GameEvent,
    JudgeCalledToGame,
    PenaltyIssued,
    PenaltyWithdrawn,
    RulingRequested,
    TimeLimitSet,
    topics_for,
)
from events.store import GameStore, LogPage
from events.tournament import TOURNAMENT_TOPICS, TournamentEvent, to_fact
from projections.catchup import Follower
from projections.status import OPEN, STATUS_TOPICS, Outcome, outcome_after
from referee.game.calls import GameCall, fold_call
from referee.game.facts import BranchHeld, held_by, holds_whole, rejected_offline
from referee.tournament import facts as tf
from referee.tournament.penalties import INFRACTIONS, infraction_key, suggested_penalty
from referee.tournament.state import Tournament, apply

__all__ = ["FoldedEvent", "FoldedGame", "FoldedPenalty", "QueueFold"]


class FoldedGame(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One game as the queue folds it. Saved without the fields left at their defaults
    (most games wait for nothing: a snapshot of 100,000 such games is 40% smaller,
    and decodes no slower for the branches ``held``, REF-9.7)."""

    game: str
    created: datetime
    players: dict[str, str]
    meta: dict[str, str]
    open: bool = True
    how: str | None = None
    """Where the game stands, as ``projections.status`` folds it (kept as two plain fields:
    the snapshot of 100,000 games decodes faster flat; the queue never shows a result)."""
    disputes: dict[int, tuple[str, datetime, str, int]] = {}
    """dispute -> (status ``open``/``ruled``/``appealed``/``final``, since, line, event)."""
    rulings: dict[int, tuple[int, datetime, str]] = {}
    """ruling asked (event) -> (the action's event, since, line)."""
    branches: dict[int, tuple[datetime, str]] = {}
    """a table's branch kept as evidence (event) -> (since, line), until resolved (REF-9.5)."""
    rejected: dict[int, tuple[datetime, str]] = {}
    """a table's branch of entries its copy rejected only (event) -> (since, line), until
    reviewed (REF-9.6): for information, no choice to make."""
    calls: dict[int, GameCall] = {}
    """A judge call from the game outside any event (its event) -> the call, until it is
    resolved (REF-11)."""
    held: dict[int, BranchHeld] = {}
    """Each branch still in ``branches`` or ``rejected`` (event) -> what it holds (its base
    and entry keys): a later branch holding one whole supersedes it (REF-9.7)."""

    def named(self, seat: str) -> str:
        """A seat's player as the queue names them: "Ann (p2)"; at a game of an event, "Ann"
        alone, as the event's pages name its players: the game's seat ``p2`` is not the
        event's player ``p2`` (another person, whom the desk's forms would take it for)."""
        name = self.players.get(seat)
        if not name or name == seat:
            return seat
        return name if self.meta.get("event", "").strip() else f"{name} ({seat})"

    @property
    def outcome(self) -> Outcome:
        """Where the game stands, for ``projections.status.outcome_after``."""
        if self.open:
            return OPEN if self.how is None else Outcome(how=self.how)
        return Outcome(result="", how=self.how, status="finished")


class FoldedPenalty(msgspec.Struct, kw_only=True):
    game_id: str
    event: int
    at: datetime
    seat: str
    player: str
    infraction: str
    given: str
    suggested: str | None
    base: str | None
    reason: str = ""


class FoldedEvent(msgspec.Struct, kw_only=True):
    """A tournament folded by the pure core, and when each of its rounds was paired."""

    state: Tournament = msgspec.field(default_factory=Tournament)
    version: int = 0
    name: str = ""
    paired: dict[int, datetime] = {}
    penalized: dict[int, datetime] = {}
    """When each of its penalties (its number, EV-8.6) was recorded: the queue lists the
    recent ones (Q-3)."""


PAGE = 20_000
"""Events per log page read while catching up."""

_WANTED = (
    STATUS_TOPICS
    | frozenset(
        t
        for cls in (
            ActionRetracted,
            DisputeOpened,
            DisputeRuled,
            DisputeAppealed,
            RulingRequested,
            AdjustmentRecorded,
            PenaltyIssued,
            PenaltyWithdrawn,
            BranchRecorded,
            BranchResolved,
            TimeLimitSet,
            JudgeCalledToGame,
            GameCallAnswered,
        )
        for t in topics_for(cls)
    )
    | frozenset(TOURNAMENT_TOPICS)
)
"""The topics the fold reads: the creation and what moves a game's status
(``outcome_after``), the events ``_fold_into`` folds, and the events' own."""


class _Snapshot(msgspec.Struct, kw_only=True):
    """The fold as persisted: the games, penalties and running events (their ids: their
    streams are folded again on load, they are short) at log position ``after``."""

    after: int
    games: dict[str, FoldedGame]
    watched: list[str]
    penalties: list[FoldedPenalty]
    events: list[str]


SNAPSHOT_VERSION = 3
"""Bumped when ``_Snapshot`` or what it holds changes shape: an older one is ignored."""
SAVE_EVERY = 5_000
"""A long-lived process saves the snapshot again once the log moved this far past the
last save (a process reading it later folds at most this many ids)."""


class _Persisted:
    """Where the fold's snapshot is kept: the ``queue_fold`` snapshot table of the read
    models' database (``projections.db``)."""

    def __init__(self, store: GameStore) -> None:
        from projections.db import Snapshots, projection_db

        self.read_only = store.read_only
        self.table = Snapshots(projection_db(store), "queue_fold")

    def load(self) -> _Snapshot | None:
        found = self.table.load("main")
        if found is None or found[1] != SNAPSHOT_VERSION:
            return None
        try:
            return msgspec.msgpack.decode(found[2], type=_Snapshot)
        except msgspec.DecodeError:
            return None

    def save(self, snapshot: _Snapshot) -> None:
        """Store ``snapshot`` unless a newer one is there (another process got further)."""
        if self.read_only:
            return
        state = msgspec.msgpack.encode(snapshot)
        self.table.save("main", snapshot.after, SNAPSHOT_VERSION, state)

    def close(self) -> None:
        self.table.close()


class QueueFold:
    """The queue's fold, caught up from the notification log on every call (thread-safe),
    from the persisted snapshot on the first (``persist=False``: from the log alone).
    ``service.room.RoomQueue`` reads it."""

    def __init__(self, store: GameStore, *, persist: bool = True) -> None:
        self.store = store
        in_memory = store.backend is None or (store.path or "").startswith(
            (":memory:", "file::memory:")
        )
        self._persisted = _Persisted(store) if persist and not in_memory else None
        self._loaded = False
        self._saved = 0
        self._games: dict[str, FoldedGame] = {}
        self._watched: set[str] = set()
        self._penalties: list[FoldedPenalty] = []
        self._events: dict[str, FoldedEvent] = {}
        self._after = 0
        self._log = Follower(store, page=PAGE)
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close the snapshot's database connection (the fold stays usable)."""
        if self._persisted is not None:
            self._persisted.close()

    # -- folding ---------------------------------------------------------------------------
    def _catch_up(self) -> None:
        """Fold what the log gained since the last call: a page at a time, through the
        store's log pages (recorded actions are only counted there, in the database), so
        only the few other events are read and decoded. The first call starts from the
        persisted snapshot; the snapshot is saved again when the fold moved on."""
        if not self._loaded:
            self._loaded = True
            self._restore()
        self._after = self._log.follow(self._after, self._fold_page)
        if self._persisted is not None and (
            self._after - self._saved >= SAVE_EVERY or (self._saved == 0 and self._after)
        ):
            self._saved = self._after
            self._persisted.save(self._snapshot())

    def _fold_page(self, page: LogPage) -> None:
        for _, _, _, topic, data in page.events:
            if topic in _WANTED:
                self._fold(decode(topic, data))

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            after=self._after,
            games=self._games,
            watched=sorted(self._watched),
            penalties=self._penalties,
            events=[e for e, folded in self._events.items() if not folded.state.ended],
        )

    def _restore(self) -> None:
        """Start from the persisted snapshot, if there is one the log still covers; the
        running events' streams are folded again (their facts are not in the snapshot)."""
        snapshot = self._persisted.load() if self._persisted is not None else None
        if snapshot is None or snapshot.after > (self.store.last_position()):
            return  # none, or of another store (restored from a backup): fold from the log
        self._games = snapshot.games
        self._watched = set(snapshot.watched)
        self._penalties = snapshot.penalties
        for event_id in snapshot.events:
            for event in self.store.events(event_id):
                if isinstance(event, TournamentEvent):
                    self._fold_tournament(event_id, event)
        self._after = self._saved = snapshot.after

    def _watch(self, gid: str, game: FoldedGame) -> None:
        """Keep ``gid`` among the games ``items`` looks at, or drop it when nothing of it
        can be in the queue (so a read costs what is waiting, not the store's size)."""
        waiting = any(status in ("open", "appealed") for status, *_ in game.disputes.values()) or (
            game.open and (bool(game.rulings) or bool(game.meta.get("table", "").strip()))
        )
        waiting = waiting or bool(game.branches) or bool(game.rejected)  # REF-9.5, REF-9.6
        waiting = waiting or bool(game.calls)  # REF-11: until the call is resolved
        if waiting:
            self._watched.add(gid)
        else:
            self._watched.discard(gid)

    def _fold(self, event: GameEvent) -> None:
        gid = event.originator_id
        if isinstance(event, TournamentEvent):
            self._fold_tournament(gid, event)
            return
        if isinstance(event, GameCreated):
            game = FoldedGame(
                game=event.game,
                created=event.timestamp,
                players={p.seat: p.name for p in event.players},
                meta=dict(event.meta or {}),
            )
            self._games[gid] = game
            self._watch(gid, game)
            return
        found = self._games.get(gid)
        if found is None:
            return
        self._fold_into(gid, found, event)
        self._watch(gid, found)

    def _fold_tournament(self, event_id: str, event: TournamentEvent) -> None:
        """Fold an event's fact through the pure core (its stream arrives in order)."""
        folded = self._events.setdefault(event_id, FoldedEvent())
        if event.originator_version != folded.version + 1:
            return  # an ended event's later events: nothing of it waits
        fact = to_fact(event)
        folded.state = apply(folded.state, fact)
        folded.version = event.originator_version
        if isinstance(fact, tf.EventCreated):
            folded.name = str(getattr(event, "name", ""))
        elif isinstance(fact, tf.RoundPaired | tf.PairingChanged):
            folded.paired[fact.round.number] = event.timestamp
        elif isinstance(fact, tf.PenaltyRecorded):
            folded.penalized[len(folded.state.penalties)] = event.timestamp

    def _fold_into(self, gid: str, game: FoldedGame, event: GameEvent) -> None:
        n = event.originator_version
        now = game.outcome
        after = outcome_after(now, event)
        if after is not now:
            game.open, game.how = after.open, after.how
        if isinstance(event, ActionRetracted):
            for asked in [k for k, v in game.rulings.items() if v[0] == event.event]:
                del game.rulings[asked]  # the ruling lapses with its action (REF-6.2)
        elif isinstance(event, RulingRequested):
            cards = ", ".join(r.card for r in event.rulings)
            game.rulings[n] = (
                event.event,
                event.timestamp,
                f"a ruling on {cards} ({game.named(event.seat)}'s entry, event {event.event}) "
                "is awaited",
            )
        elif isinstance(event, AdjustmentRecorded):
            if event.resolves is not None:
                game.rulings.pop(event.resolves, None)
        elif isinstance(event, DisputeOpened):
            game.disputes[event.dispute] = (
                "open",
                event.timestamp,
                f"dispute {event.dispute} on event {event.event} by {event.by}: {event.claim}",
                n,
            )
        elif isinstance(event, DisputeRuled):
            old = game.disputes.get(event.dispute)
            if old is not None:
                status = "final" if event.level == "final" else "ruled"
                game.disputes[event.dispute] = (status, event.timestamp, old[2], old[3])
        elif isinstance(event, DisputeAppealed):
            old = game.disputes.get(event.dispute)
            if old is not None:
                game.disputes[event.dispute] = (
                    "appealed",
                    event.timestamp,
                    f"dispute {event.dispute} appealed by {event.by}: {event.grounds}",
                    n,
                )
        elif isinstance(event, PenaltyIssued):
            self._fold_penalty(gid, game, event)
        elif isinstance(event, TimeLimitSet):  # REF-10.1: the latest limit counts
            game.meta = {**game.meta, "time_limit": str(event.minutes)}
        elif isinstance(event, PenaltyWithdrawn):  # REF-7.3: it leaves the queue
            self._penalties = [
                p for p in self._penalties if (p.game_id, p.event) != (gid, event.penalty)
            ]
        elif isinstance(event, BranchRecorded):
            self._fold_branch(game, event)
        elif isinstance(event, BranchResolved):
            game.branches = {k: v for k, v in game.branches.items() if k != event.branch}
            game.rejected = {k: v for k, v in game.rejected.items() if k != event.branch}
            game.held = {k: v for k, v in game.held.items() if k != event.branch}
        elif isinstance(event, JudgeCalledToGame | GameCallAnswered):
            calls = dict(game.calls)
            fold_call(calls, event)
            game.calls = {k: c for k, c in calls.items() if c.status != "resolved"}

    @staticmethod
    def _fold_branch(game: FoldedGame, event: BranchRecorded) -> None:
        """A table's branch into the queue (REF-9.5), or for information (REF-9.6); the
        branches still waiting that it holds whole leave the queue, superseded (REF-9.7)."""
        n = event.originator_version
        mine = held_by(event)
        gone = {k for k, earlier in game.held.items() if holds_whole(mine, earlier)}
        if gone:
            game.branches = {k: v for k, v in game.branches.items() if k not in gone}
            game.rejected = {k: v for k, v in game.rejected.items() if k not in gone}
        game.held = {**{k: v for k, v in game.held.items() if k not in gone}, n: mine}
        theirs = ", ".join(event.theirs) or "-"
        # which branch it replaces: the one that left the queue, whose entries it holds
        which = ", ".join(map(str, sorted(gone)))
        replaces = (
            f"; holds the entries of the branch{'es' if len(gone) > 1 else ''} of "
            f"event{'s' if len(gone) > 1 else ''} {which} too (REF-9.7)"
            if gone
            else ""
        )
        if rejected_offline(event.entries):  # REF-9.6: nothing to choose, to review
            line = (
                f"{event.device} sent entries its copy rejected offline, to review: "
                f"{theirs}; the game is as the server has it (REF-9.6){replaces}"
            )
            game.rejected = {**game.rejected, n: (event.timestamp, line)}
        else:
            ours = "; ".join(event.ours) or "nothing"
            line = (
                f"branches disagree after event {event.base_version}: {event.device} "
                f"recorded {theirs} offline | the server has {ours} (REF-9.5){replaces}"
            )
            game.branches = {**game.branches, n: (event.timestamp, line)}

    def _fold_penalty(self, gid: str, game: FoldedGame, event: PenaltyIssued) -> None:
        player = game.players.get(event.seat, event.seat)
        key = infraction_key(event.infraction)
        suggested = base = None
        if key is not None:
            earlier = [
                p.infraction
                for p in self._penalties
                if p.player.casefold() == player.casefold() and p.infraction == key
            ]
            suggested = suggested_penalty(key, earlier)
            base = INFRACTIONS[key][1]
        self._penalties.append(
            FoldedPenalty(
                game_id=gid,
                event=event.originator_version,
                at=event.timestamp,
                seat=event.seat,
                player=player,
                infraction=key or event.infraction,
                given=event.penalty.replace("_", "-"),
                suggested=suggested,
                base=base,
                reason=event.reason,
            )
        )

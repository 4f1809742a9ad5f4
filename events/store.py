"""The event store: an eventsourcing application with one stream per game, and
``GameStore``, the service that records, corrects and ends games.

SQLite is the default (file from ``--db``, ``REFEREE_DB`` or ``./referee.db``);
setting ``PERSISTENCE_MODULE=eventsourcing.postgres`` (with the library's
``POSTGRES_*`` settings) moves the same streams to PostgreSQL. Every write is
one atomic append at the expected stream version: a second referee writing to
the same game at the same moment gets ``ConcurrentWriteError`` and nothing of
theirs is stored, so nothing is lost or written twice.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, cast

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Mapper, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder

from events.codec import MsgspecMapper, decode, seal
from events.replay import GameView, judge
from events.schema import (
    GENESIS_HASH,
    TOPIC_OF,
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    EndHow,
    GameCreated,
    GameEnded,
    GameEvent,
    ResultVoided,
    RulingDecision,
    RulingLevel,
)
from referee import games
from referee.core import Player, Setup, Verdict, Violation
from referee.errors import ActionSyntaxError, RefereeError

DEFAULT_DB = "referee.db"
_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


class StoreError(RefereeError):
    """Base of the store's own errors."""


class GameNotFoundError(StoreError, LookupError):
    """No game with that id (or id suffix) is in the store."""


class ConcurrentWriteError(StoreError, RuntimeError):
    """Another writer appended to the same game first; nothing of ours was stored."""


class InvalidCommandError(StoreError, ValueError):
    """A command that the game's state does not allow (e.g. retracting with no
    action to retract). Nothing is stored."""

    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(f"{clause}: {reason}")
        self.clause = clause
        self.reason = reason


class RefereeApplication(Application[str]):
    """The eventsourcing application that owns the game streams."""

    name = "Referee"
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "ORIGINATOR_ID_TYPE": "text",
        "SQLITE_LOCK_TIMEOUT": "10",
    }

    def construct_mapper(self) -> Mapper[str]:
        return MsgspecMapper(
            transcoder=self.factory.transcoder(),
            compressor=self.factory.compressor(),
            cipher=self.factory.cipher(),
        )


class _Batch:
    """Carries new events into ``Application.save`` as one object (one protocol check)."""

    def __init__(self, game_id: str, new_events: Sequence[GameEvent]) -> None:
        self.id = game_id
        self._events = list(new_events)

    def collect_events(self) -> list[GameEvent]:
        return self._events


class RecordResult(msgspec.Struct, kw_only=True):
    """What happened to an entry: accepted (with the events written) or rejected."""

    accepted: bool
    text: str
    notation: str | None
    verdict: Verdict
    events: list[GameEvent]

    @property
    def ended(self) -> GameEnded | None:
        for event in self.events:
            if isinstance(event, GameEnded):
                return event
        return None


class GameSummary(msgspec.Struct, kw_only=True):
    game_id: str
    game: str
    ruleset: str
    players: dict[str, str]
    created: datetime
    result: str
    how: str | None


def resolve_db_path(db: str | os.PathLike[str] | None) -> str:
    return os.fspath(db) if db is not None else os.environ.get("REFEREE_DB", DEFAULT_DB)


def _utc_now() -> datetime:
    return datetime.now(UTC)


class GameStore:
    """Records games as event streams and rebuilds them by replay."""

    def __init__(
        self,
        db: str | os.PathLike[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], datetime] = _utc_now,
    ) -> None:
        settings = {"SQLITE_DBNAME": resolve_db_path(db)}
        settings.update(env or {})
        self.app = RefereeApplication(env=settings)
        self.recorder = self.app.recorder
        self.mapper = cast(MsgspecMapper, self.app.mapper)
        self.clock = clock

    def close(self) -> None:
        self.app.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def direct_sqlite(self) -> SQLiteApplicationRecorder | None:
        """The SQLite recorder, when rows may be read and written directly.

        The hot paths (loading a game, listing games, bulk imports, the
        scoreboard) use the recorder's own datastore and statements with plain
        tuples on SQLite when events are stored as plain JSON; any other
        recorder or an encrypted or compressed store goes through the library's
        calls, which give the same answers."""
        recorder = self.recorder
        if isinstance(recorder, SQLiteApplicationRecorder) and self.mapper.plain:
            return recorder
        return None

    # -- reading -------------------------------------------------------------
    def stored_events(self, game_id: str) -> Sequence[StoredEvent]:
        return self.recorder.select_events(game_id)

    def events(self, game_id: str, *, upto: int | None = None) -> list[GameEvent]:
        """A game's events in order (up to event ``upto``)."""
        recorder = self.direct_sqlite
        if recorder is not None:
            # Loading a game starts every entry: plain rows, not a StoredEvent per row.
            sql = (f"SELECT topic, state FROM {recorder.events_table_name} WHERE originator_id = ? "
                   "AND originator_version <= ? ORDER BY originator_version")
            with recorder.datastore.transaction(commit=False) as cursor:
                cursor.row_factory = None  # type: ignore[attr-defined]  # plain tuples
                cursor.execute(sql, (game_id, upto if upto is not None else 2**62))
                rows = cursor.fetchall()
            return [decode(topic, state) for topic, state in rows]
        to_domain = self.mapper.to_game_event
        return [to_domain(s) for s in self.recorder.select_events(game_id, lte=upto)]

    def load(self, game_id: str, *, upto: int | None = None) -> GameView:
        """Rebuild a game by replaying its stream (up to event ``upto``)."""
        stream = self.events(game_id, upto=upto)
        if not stream:
            raise GameNotFoundError(f"no game {game_id!r} in this store")
        return GameView.from_events(stream)

    def exists(self, game_id: str) -> bool:
        return bool(self.recorder.select_events(game_id, limit=1))

    def resolve(self, ref: str) -> str:
        """A game id from the whole id or a unique ending of it (``7k3m`` for ``prizmik-...7k3m``)."""
        ref = ref.strip()
        if self.exists(ref):
            return ref
        matches = [s.game_id for s in self.games() if s.game_id.endswith(ref)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise GameNotFoundError(f"no game {ref!r} in this store ('referee games' lists them)")
        raise GameNotFoundError(f"{ref!r} matches several games: {', '.join(matches)}")

    def iter_notifications(
        self, topics: Sequence[str] = (), *, after: int = 0, page: int = 5000
    ) -> Iterator[Any]:
        """Every stored event in store order (notification ids may have gaps)."""
        position = after
        while True:
            batch = self.recorder.select_notifications(
                position, page, topics=topics, inclusive_of_start=False
            )
            yield from batch
            if len(batch) < page:
                return
            position = batch[-1].id

    def game_ids(self) -> list[str]:
        """Every game id with at least one stored event, in order of first appearance.

        Read from the whole log rather than from creation events, so a game whose
        creation event was removed or damaged is still found by ``verify``."""
        recorder = self.direct_sqlite
        if recorder is not None:  # one pass over the primary-key index
            sql = (f"SELECT originator_id FROM {recorder.events_table_name} "
                   "GROUP BY originator_id ORDER BY MIN(rowid)")
            with recorder.datastore.transaction(commit=False) as cursor:
                cursor.execute(sql)
                return [str(row[0]) for row in cursor.fetchall()]
        seen: dict[str, None] = {}
        for note in self.iter_notifications():
            seen.setdefault(str(note.originator_id), None)
        return list(seen)

    def verify(self, game_id: str) -> Any:
        """Check one game's log and decisions (see ``events.integrity``)."""
        from events.integrity import verify_stream

        return verify_stream(game_id, self.recorder.select_events(game_id), self.mapper)

    def games(self) -> list[GameSummary]:
        created_topic = TOPIC_OF[GameCreated]
        topics = [created_topic, TOPIC_OF[GameEnded], TOPIC_OF[ActionRetracted], TOPIC_OF[ResultVoided]]
        summaries: dict[str, GameSummary] = {}
        to_domain = self.mapper.to_game_event
        for note in self.iter_notifications(topics):
            event = to_domain(note)
            if isinstance(event, GameCreated):
                summaries[event.originator_id] = GameSummary(
                    game_id=event.originator_id,
                    game=event.game,
                    ruleset=event.ruleset,
                    players={p.seat: p.name for p in event.players},
                    created=event.timestamp,
                    result="*",
                    how=None,
                )
            elif event.originator_id in summaries:
                summary = summaries[event.originator_id]
                if isinstance(event, GameEnded):
                    summary.result, summary.how = event.result, event.how
                elif isinstance(event, ResultVoided) or summary.how == "rule":
                    summary.result, summary.how = "*", None  # voided, or reopened by a retraction
        return list(summaries.values())

    # -- writing -------------------------------------------------------------
    def _append(
        self, view: GameView | None, new_events: Sequence[GameEvent], *, applied: Any = None
    ) -> list[GameEvent]:
        """Seal and append events after ``view``'s last event, atomically.

        ``applied`` is the state after a recorded action when the caller has
        already computed it, so the view is advanced without applying twice."""
        version = view.version if view else 0
        prev = view.last_hash if view else GENESIS_HASH
        sealed: list[GameEvent] = []
        for offset, event in enumerate(new_events, start=1):
            event = seal(
                msgspec.structs.replace(
                    event, originator_version=version + offset, prev_hash=prev
                )
            )
            prev = event.hash
            sealed.append(event)
        game_id = sealed[0].originator_id
        try:
            self.app.save(cast(Any, _Batch(game_id, sealed)))
        except IntegrityError:
            raise ConcurrentWriteError(
                f"another referee recorded event {version + 1} of game {game_id} at the same "
                "moment; nothing of yours was stored. Look at the position again and re-enter "
                "your entry if it still stands."
            ) from None
        if view is not None:
            for event in sealed:
                if applied is not None and type(event) is ActionRecorded:
                    view.events.append(event)
                    view.states.append(applied)
                    view.standing.append(event)
                else:
                    view.fold(event)
        return sealed

    def _header(self, game_id: str) -> dict[str, Any]:
        return {
            "originator_id": game_id,
            "originator_version": 0,
            "timestamp": self.clock(),
            "prev_hash": "",
        }

    def new_game_id(self, game: str) -> str:
        token = "".join(secrets.choice(_ALPHABET) for _ in range(8))
        return f"{game}-{token}"

    def create(
        self,
        game: str,
        players: Sequence[Player],
        *,
        ruleset: str | None = None,
        variants: Mapping[str, str] | None = None,
        options: Mapping[str, Any] | None = None,
        by: str = "",
        game_id: str | None = None,
        imported_from: str | None = None,
    ) -> GameView:
        """Start a game. The setup is validated by the game's rules before anything is stored."""
        rules = games.load(game)
        setup = rules.resolve_setup(
            Setup(
                players=tuple(players),
                ruleset=ruleset,
                variants=dict(variants or {}),
                options=dict(options or {}),
            )
        )
        rules.initial_state(setup)  # raises on a setup the game cannot start from
        game_id = game_id or self.new_game_id(rules.name)
        created = GameCreated(
            **self._header(game_id),
            game=rules.name,
            ruleset=str(setup.ruleset),
            variants=setup.variants,
            players=setup.players,
            options=setup.options,
            created_by=by,
            imported_from=imported_from,
        )
        try:
            (sealed,) = self._append(None, [created])
        except ConcurrentWriteError:
            raise ConcurrentWriteError(f"a game with id {game_id} already exists") from None
        assert isinstance(sealed, GameCreated)
        return GameView(sealed)

    def record(
        self, game_id: str, text: str, *, actor: str | None = None, by: str = "",
        view: GameView | None = None,
    ) -> RecordResult:
        """Check and record one action, or record its rejection as evidence."""
        view = view or self.load(game_id)
        if actor is not None and actor not in view.rules.seats:
            raise InvalidCommandError(
                "REF-1.2", f"{view.game} has seats {', '.join(view.rules.seats)}; not {actor!r}"
            )
        action, verdict = judge(view, text, actor)
        seq = view.ply + 1
        header = self._header(view.game_id)
        if not verdict.legal:
            rejected = ActionRejected(
                **header,
                seq=seq,
                actor=actor if actor is not None else view.rules.to_move(view.state),
                text=text,
                violations=verdict.violations,
                recorded_by=by,
            )
            return RecordResult(
                accepted=False, text=text, notation=None, verdict=verdict,
                events=self._append(view, [rejected]),
            )
        rules = view.rules
        notation = rules.notation(action)
        mover = rules.to_move(view.state)
        new: list[GameEvent] = [
            ActionRecorded(
                **header,
                seq=seq,
                actor=str(mover),
                action=msgspec.Raw(msgspec.json.encode(action)),
                notation=notation,
                recorded_by=by,
            )
        ]
        after = rules.apply(view.state, action)
        outcome = rules.outcome(after)
        if outcome.over:
            new.append(
                GameEnded(
                    **header,
                    winner=outcome.winner,
                    how="rule",
                    clause=outcome.clause or "REF-3.1",
                    reason=outcome.reason,
                    by=by,
                )
            )
        return RecordResult(
            accepted=True, text=text, notation=notation, verdict=verdict,
            events=self._append(view, new, applied=after),
        )

    def retract(self, game_id: str, reason: str, *, by: str = "") -> ActionRetracted:
        """Take back the latest standing action (REF-2.1)."""
        view = self.load(game_id)
        if view.ended is not None and view.ended.how != "rule":
            raise InvalidCommandError(
                "REF-2.2", f"the game was closed by {view.ended.how}; it cannot be corrected by retraction"
            )
        if not view.standing:
            raise InvalidCommandError("REF-2.1", "there is no standing action to retract")
        if not reason.strip():
            raise InvalidCommandError("REF-2.1", "a retraction needs a reason")
        last = view.standing[-1]
        (event,) = self._append(
            view,
            [ActionRetracted(**self._header(game_id), seq=last.seq, event=last.originator_version,
                             reason=reason, by=by)],
        )
        assert isinstance(event, ActionRetracted)
        return event

    def end(
        self, game_id: str, how: EndHow, *, winner: str | None = None, resigned: str | None = None,
        reason: str = "", by: str = "",
    ) -> GameEnded:
        """Close a game by resignation, agreement or adjudication."""
        view = self.load(game_id)
        seats = view.rules.seats
        if view.ended is not None:
            raise InvalidCommandError(
                "REF-1.3", f"the game already ended ({view.ended.result} by {view.ended.how})"
            )
        if how == "resignation":
            if resigned not in seats:
                raise InvalidCommandError("REF-3.2", f"name the resigning seat: one of {', '.join(seats)}")
            others = [s for s in seats if s != resigned]
            winner = others[0] if len(others) == 1 else None
            clause, reason = "REF-3.2", reason or f"{resigned} resigned"
        elif how == "agreement":
            winner, clause, reason = None, "REF-3.3", reason or "draw agreed by the players"
        elif how == "adjudication":
            if winner is not None and winner not in seats:
                raise InvalidCommandError("REF-3.4", f"winner must be one of {', '.join(seats)}, or none for a draw")
            if not reason.strip():
                raise InvalidCommandError("REF-3.4", "an adjudication needs a written reason")
            clause = "REF-3.4"
        else:
            raise InvalidCommandError("REF-3.1", "results by rule are recorded by the rules, not by hand")
        (event,) = self._append(
            view,
            [GameEnded(**self._header(game_id), winner=winner, how=how, clause=clause,
                       reason=reason, by=by)],
        )
        assert isinstance(event, GameEnded)
        return event

    def insert_streams(self, streams: Sequence[Sequence[GameEvent]]) -> None:
        """Append whole, already sealed game streams in one transaction (imports)."""
        try:
            self.app.save(*[cast(Any, _Batch(s[0].originator_id, s)) for s in streams])
        except IntegrityError:
            raise ConcurrentWriteError(
                "one of these games is already in the store (import it with --as-new to copy it)"
            ) from None

    def insert_rows(self, streams: Sequence[tuple[str, Sequence[tuple[int, str, bytes]]]]) -> None:
        """Bulk-append sealed streams given as (game id, [(number, topic, JSON bytes)]).

        Used by imports: the rows go to the application's recorder in one
        transaction, stored exactly as read. When the store encrypts or
        compresses, each row is mapped through the mapper as usual."""
        plain = self.mapper.plain
        recorder = self.direct_sqlite
        try:
            if recorder is not None:
                # The application recorder inserts row by row to return notification
                # ids, which an import does not need: one executemany of the rows as
                # they are, with the library's own statement on its own datastore.
                params = [(game_id, number, topic, state) for game_id, rows in streams
                          for number, topic, state in rows]
                with recorder.datastore.transaction(commit=True) as cursor:
                    cursor.executemany(recorder.insert_events_statement, params)
                return
            self.recorder.insert_events([
                StoredEvent(game_id, number, topic, state) if plain
                else self.mapper.to_stored_event(self.mapper.decode_row(topic, state))
                for game_id, rows in streams
                for number, topic, state in rows
            ])
        except IntegrityError:
            raise ConcurrentWriteError(
                "one of these games is already in the store (import it with --as-new to copy it)"
            ) from None

    # -- disputes ------------------------------------------------------------
    def open_dispute(self, game_id: str, event: int, *, by: str, claim: str) -> DisputeOpened:
        view = self.load(game_id)
        if not 1 <= event <= view.version:
            raise InvalidCommandError("REF-4.1", f"the game has events 1 to {view.version}; no event {event}")
        target = view.event(event)
        if not isinstance(target, ActionRecorded | ActionRejected | ActionRetracted | GameEnded):
            raise InvalidCommandError(
                "REF-4.1", f"event {event} is not a referee's decision (an action, rejection, correction or result)"
            )
        if not claim.strip():
            raise InvalidCommandError("REF-4.1", "a dispute needs a claim")
        number = len(view.disputes) + 1
        (sealed,) = self._append(
            view, [DisputeOpened(**self._header(game_id), dispute=number, event=event, by=by, claim=claim)]
        )
        assert isinstance(sealed, DisputeOpened)
        return sealed

    def appeal(self, game_id: str, dispute: int, *, by: str, grounds: str) -> DisputeAppealed:
        view = self.load(game_id)
        record = view.disputes.get(dispute)
        if record is None:
            raise InvalidCommandError("REF-4.3", f"game {game_id} has no dispute {dispute}")
        if not record.steps or not isinstance(record.steps[-1], DisputeRuled):
            raise InvalidCommandError("REF-4.3", f"dispute {dispute} has no ruling to appeal yet")
        if record.final:
            raise InvalidCommandError("REF-4.4", f"dispute {dispute} has a final ruling; it cannot be appealed")
        (sealed,) = self._append(
            view, [DisputeAppealed(**self._header(game_id), dispute=dispute, by=by, grounds=grounds)]
        )
        assert isinstance(sealed, DisputeAppealed)
        return sealed

    def rule(
        self, game_id: str, dispute: int, *, decision: RulingDecision, clause: str, reason: str,
        by: str, level: RulingLevel | None = None,
    ) -> list[GameEvent]:
        """Rule on a dispute. An overturning ruling is carried out as events in the same
        append: the disputed action retracted, or the rejected action recorded."""
        view = self.load(game_id)
        record = view.disputes.get(dispute)
        if record is None:
            raise InvalidCommandError("REF-4.2", f"game {game_id} has no dispute {dispute}")
        if record.final:
            raise InvalidCommandError("REF-4.4", f"dispute {dispute} already has a final ruling")
        if level is None:
            level = "appeal" if record.steps and isinstance(record.steps[-1], DisputeAppealed) else "referee"
        if level == "referee" and record.steps:
            raise InvalidCommandError(
                "REF-4.3", f"dispute {dispute} was already ruled on; it goes on by appeal or a final ruling"
            )
        if not reason.strip():
            raise InvalidCommandError("REF-4.2", "a ruling needs a reason")
        header = self._header(game_id)
        new: list[GameEvent] = [
            DisputeRuled(**header, dispute=dispute, decision=decision, level=level, clause=clause,
                         reason=reason, by=by)
        ]
        previous = self._current_decision(record)
        if decision == "overturn" and previous != "overturn":
            new.extend(self._overturn(view, record.event, header, by, dispute))
        elif decision == "uphold" and previous == "overturn":
            raise InvalidCommandError(
                "REF-4.5",
                "an earlier ruling overturned this decision and was carried out; to restore it, "
                "record the correction as a new action or retraction",
            )
        return self._append(view, new)

    @staticmethod
    def _current_decision(record: Any) -> str | None:
        rulings = [s for s in record.steps if isinstance(s, DisputeRuled)]
        return rulings[-1].decision if rulings else None

    def _overturn(
        self, view: GameView, event_no: int, header: dict[str, Any], by: str, dispute: int
    ) -> list[GameEvent]:
        target = view.event(event_no)
        note = f"dispute {dispute} overturned"
        if isinstance(target, ActionRecorded):
            if not view.standing or view.standing[-1].originator_version != event_no:
                raise InvalidCommandError(
                    "REF-4.5",
                    f"event {event_no} is no longer the latest standing action; retract the actions "
                    "after it first, then rule",
                )
            return [ActionRetracted(**header, seq=target.seq, event=event_no, reason=note, by=by)]
        if isinstance(target, ActionRejected):
            if view.ended is not None:
                raise InvalidCommandError("REF-4.5", "the game is over; the rejected action cannot be recorded now")
            if target.seq != view.ply + 1:
                raise InvalidCommandError(
                    "REF-4.5",
                    f"the rejected entry was for action {target.seq}, but the game is at action "
                    f"{view.ply + 1}; retract back to that point first",
                )
            rules = view.rules
            try:
                action = rules.parse(target.text)
            except ActionSyntaxError as exc:
                raise InvalidCommandError(
                    "REF-4.5", f"the rejected text {target.text!r} is not an action: {exc.reason}"
                ) from None
            return [
                ActionRecorded(
                    **header, seq=target.seq, actor=str(rules.to_move(view.state)),
                    action=msgspec.Raw(msgspec.json.encode(action)), notation=rules.notation(action),
                    recorded_by=by,
                )
            ]
        if isinstance(target, GameEnded):
            if target.how == "rule":
                raise InvalidCommandError(
                    "REF-4.5",
                    "a result reached by rule stands while the action that reached it stands; "
                    "overturn that action instead",
                )
            if view.ended is None or view.ended.originator_version != event_no:
                raise InvalidCommandError("REF-4.5", f"event {event_no} is not the result in force")
            return [ResultVoided(**header, event=event_no, reason=note, by=by)]
        if isinstance(target, ActionRetracted):
            retracted = view.event(target.event)
            if view.ended is not None or target.seq != view.ply + 1 or not isinstance(retracted, ActionRecorded):
                raise InvalidCommandError(
                    "REF-4.5",
                    f"the retracted action {target.seq} no longer fits the position (the game is at "
                    f"action {view.ply + 1}); retract back to that point first",
                )
            _, verdict = judge(view, retracted.notation, retracted.actor)
            if not verdict.legal:  # the line below it may have changed since
                v = verdict.violations[0]
                raise InvalidCommandError("REF-4.5", f"{retracted.notation!r} is not legal now: {v.clause}: {v.reason}")
            return [ActionRecorded(**header, seq=target.seq, actor=retracted.actor, action=retracted.action,
                                   notation=retracted.notation, recorded_by=by)]
        raise InvalidCommandError("REF-4.5", f"event {event_no} is not a decision that can be overturned")


def violations_text(violations: Sequence[Violation]) -> str:
    return "\n".join(f"{v.clause}: {v.reason}" for v in violations)

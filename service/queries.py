"""The read side of the application layer: positions, legal actions, logs, replays,
verification, audits and lists, each for a given viewer.

Every answer is a typed value from ``service.results`` (or JSON-ready data built
from events through ``events.records.redact``), so every face shows the same
thing and no face can show a viewer what they may not see.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

import msgspec

from events.codec import decode
from events.integrity import Finding, GameReport, WhatIfReport, verify_stream, what_if
from events.records import event_record, event_summary, redact, revealed_entries
from events.schema import (
    ActionRecorded,
    ActionRetracted,
    AdjustmentRecorded,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    GameEvent,
)
from events.store import GameStore
from events.tournament import EVENT_PREFIX
from events.view import GameView
from projections.rows import FIRST_PAGE, GameQuery
from referee import games
from referee.capabilities import reports_of
from referee.contract import PUBLIC, REFEREE, Report, Viewer
from service.errors import GameNotFoundError, RefusedError
from service.procedure import seat_of
from service.results import (
    AwaitedRuling,
    EntryResult,
    GameInfo,
    GameRow,
    LegalActions,
    PendingRuling,
    PositionView,
    ReplayFrame,
    ResultInfo,
)
from service.setup import game_info

if TYPE_CHECKING:
    from projections.projector import Projector
    from referee.rulebook import Clause, Rulebook
    from service.access import Seating
    from service.ports import Basis

__all__ = ["Queries", "VerifyReport", "awaited_ruling", "drawing_of"]


def drawing_of(pos: PositionView) -> str:
    """A position already read for its viewer, drawn as SVG: only what ``observe`` gave that
    viewer goes in, and the last entry as that viewer may see it (without its seat)."""
    from referee.drawings import draw

    last = pos.last_action.split(" ", 1)[-1] if pos.last_action else None
    return draw(pos.game, pos.position, viewer=pos.viewer, players=pos.players, last=last)


def awaited_ruling(view: GameView) -> AwaitedRuling | None:
    """The ruling an open game waits for (the oldest asked, REF-6.2), or ``None``: what it
    is about, who answers it, and the entries that may answer it."""
    if view.ended is not None or not view.pending:
        return None
    event, asked = next(iter(view.pending.items()))
    needed = asked.rulings[0]
    card = needed.card
    entries = [
        f'adjust "CHANGES" --card "{card}" --reason "..."',
        f'adjust --none --card "{card}" --reason "..."',
    ]
    return AwaitedRuling(
        event=event,
        action_event=asked.event,
        seat=asked.seat,
        card=card,
        text=needed.text,
        clause=needed.clause,
        message=(
            f"a ruling on {card} ({asked.seat}'s entry, event {asked.event}) is awaited from "
            f"the referee (REF-6.2): no entry is recorded until an adjustment carries it out, "
            "or 'adjust --none' rules that it changes nothing"
        ),
        entries=entries,
    )


def since_key(text: str) -> str:
    """``--since``: a date (``2026-11-23``) or an ISO time, as the text the games catalog
    compares its start times with (UTC, ``YYYY-MM-DDTHH:MM:SS``). Anything else is refused:
    compared as text, ``yesterday`` matched no game and the listing said "no games match"."""
    from datetime import UTC, date

    given = text.strip()
    try:
        if len(given) == 10:
            return date.fromisoformat(given).isoformat()
        moment = datetime.fromisoformat(given)
    except ValueError:
        raise RefusedError(
            f"--since is a date (2026-11-23) or an ISO time (2026-11-23T18:00:00Z), not {text!r}"
        ) from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat()


class VerifyReport(msgspec.Struct, kw_only=True):
    """What ``verify`` checked: ``games`` game streams and ``tournaments`` event
    (tournament) streams, ``events`` stored entries in all, ``bad`` streams with problems."""

    games: int
    events: int
    bad: int
    reports: list[GameReport]
    tournaments: int = 0


MIN_ENDING = 4


class Queries:
    """The games' reads: with ``Commands``, the game service
    (``service.game_service.GameService``)."""

    store: GameStore
    load: Callable[[str], GameView]
    basis: Basis  # the read models (``projector``) the games list and ``resolve`` read
    on_resolved: Callable[[str, str], None] | None = None

    # -- viewers -------------------------------------------------------------
    def viewer_of(self, view: GameView, who: str | None) -> Viewer:
        """``referee`` (the default), ``public``, or the seat of a seat name or player's name."""
        if who is None or who.strip().lower() in (REFEREE, ""):
            return REFEREE
        if who.strip().lower() == PUBLIC:
            return PUBLIC
        return seat_of(view, who, what="viewer", others=(REFEREE, PUBLIC))

    # -- the games -------------------------------------------------------------
    @staticmethod
    def game_types() -> list[GameInfo]:
        return [game_info(name) for name in games.names()]

    @staticmethod
    def game_type(name: str) -> GameInfo:
        return game_info(name)

    def resolve(self, ref: str) -> str:
        """A game id from the whole id or a unique ending of at least 4 characters.

        Endings are looked up in the games catalog's index of reversed ids (caught up
        first), so the cost does not grow with the store; an ambiguous ending names
        its candidates."""
        ref = ref.strip()
        if not ref:
            raise RefusedError("name a game: its id, or the last 4 or more characters of it")
        if self.store.exists(ref):
            return ref
        if len(ref) < MIN_ENDING:
            raise RefusedError(
                f"{ref!r} is too short to name a game safely: give its whole id or at least "
                f"its last {MIN_ENDING} characters ('referee games' lists them)"
            )
        scan = self.store.read_only and not self.basis.projector.exists()
        matches: list[str] = []
        if not scan:
            try:
                self.basis.projector.catch_up()
                matches = self.basis.projector.ids_ending(ref)
            except (OSError, sqlite3.Error):  # the catalog cannot be written here
                scan = True
        if scan:  # look through the log itself instead
            matches = [g for g in self.store.game_ids() if g.endswith(ref)][:6]
        if not matches:
            raise GameNotFoundError(f"no game {ref!r} in this store ('referee games' lists them)")
        if len(matches) > 1:
            more = " and more" if len(matches) > 5 else ""
            raise RefusedError(
                f"{ref!r} ends several games: {', '.join(matches[:5])}{more}; give more of the id"
            )
        if self.on_resolved is not None:
            self.on_resolved(ref, matches[0])
        return matches[0]

    def games(self, query: GameQuery = FIRST_PAGE) -> list[GameRow]:
        """Games newest first, from the games catalog (caught up first), a page at a time."""
        game = games.load(query.game).name if query.game is not None else None
        if query.status not in (None, "open", "finished"):
            raise RefusedError(f"--status is open or finished, not {query.status!r}")
        if not 1 <= query.limit <= 10_000:
            raise RefusedError("--limit is 1 to 10000")
        if query.offset < 0:  # SQLite's OFFSET -5 skips none: the first page, unasked
            raise RefusedError(
                f"--offset is a count of games to skip, 0 or more, not {query.offset}"
            )
        since = since_key(query.since) if query.since is not None else None
        query = msgspec.structs.replace(query, game=game, since=since)
        if self.store.read_only and not self.basis.projector.exists():
            return self._scanned_games(query)
        try:
            self.basis.projector.catch_up()
        except (OSError, sqlite3.Error):  # the catalog cannot be written beside the store
            return self._scanned_games(query)
        rows = self.basis.projector.games(query)
        return [
            GameRow(
                game_id=r["game_id"],
                game=r["game"],
                ruleset=r["ruleset"],
                players=json.loads(r["players"]),
                created=datetime.fromisoformat(r["started"]),
                result=r["result"],
                how=r["how"],
                status=r["status"],
                cursor=r["created_at"],
            )
            for r in rows
        ]

    def _scanned_games(self, query: GameQuery) -> list[GameRow]:
        """The games list read from the log itself (a read-only store with no catalog beside it)."""
        from projections.listing import listed_games

        rows = []
        for s in reversed(listed_games(self.store)):
            if (
                (query.player and query.player not in s.players.values())
                or (query.game and s.game != query.game)
                or (query.status and query.status != s.status)
                or (query.since and s.created.isoformat() < query.since)
            ):
                continue
            rows.append(msgspec.convert(s, GameRow, from_attributes=True))  # its fields, by name
        return rows[query.offset : query.offset + query.limit]

    # -- positions -------------------------------------------------------------
    def seating(self, ref: str) -> Seating:
        """Who sits where and at which table: what the access rules need to say who may
        do what in a game, as plain values (a face never holds the game)."""
        from service.access import Seating  # the HTTP face's need: not loaded for 'referee act'

        return Seating.of(self.load(ref))

    def entry_answered(
        self, ref: str, text: str, key: str, *, actor: str | None = None, by: str = ""
    ) -> EntryResult | None:
        """What the entry ``text`` sent with the idempotency key ``key`` (by the request's
        token) was answered when it was stored, made again as the write pipeline answers a
        retry of it; ``None`` when the game holds no write with that key, or another one:
        an offline batch's entry the table first sent live, stored though the table never
        had the answer (REF-9.5: not to be merged again as a branch)."""
        from referee.game.entry import EntryCommand
        from service.pipeline import GameWrite, answered

        view = self.load(ref)
        command = EntryCommand(text=text, actor=actor, by=by)
        found = answered(view, GameWrite(view.game_id, command), key)
        return found if isinstance(found, EntryResult) else None

    def dispute_steps(self, ref: str, dispute: int) -> int:
        """How many rulings and appeals a dispute has had (0 for no such dispute): its
        next ruling is an appeal's or a final one once there is any (REF-4.3)."""
        record = self.load(ref).disputes.get(dispute)
        return len(record.steps) if record is not None else 0

    def position_unless(
        self, ref: str, seen: int | None, *, at: int | None = None, viewer: str | None = None
    ) -> tuple[int, PositionView | None]:
        """The game's version and its position, or no position when the caller has
        already seen this version of the current position (an HTTP ``If-None-Match``):
        one load, and nothing computed for an answer the caller holds."""
        view = self.load(ref)
        if at is None and seen == view.version:
            return view.version, None
        return view.version, self.position(view, at=at, viewer=viewer)

    def position(
        self, ref: str | GameView, *, at: int | None = None, viewer: str | None = None
    ) -> PositionView:
        """The position after ``at`` standing actions (now by default), as ``viewer`` sees it."""
        view = self.load(ref) if isinstance(ref, str) else ref
        who = self.viewer_of(view, viewer)
        ply = view.ply if at is None else at
        if not 0 <= ply <= view.ply:
            raise RefusedError(
                f"the game has positions 0 to {view.ply} (after that many standing actions); "
                f"no position {at}"
            )
        state = view.state_at(ply)
        rules = view.rules
        now = ply == view.ply
        ended = view.ended if now else None
        to_act = sorted(rules.to_act(state), key=rules.seats.index) if ended is None else []
        last = view.standing[ply - 1] if ply else None
        pending = (
            [
                PendingRuling(event=n, action_event=r.event, seat=r.seat, rulings=list(r.rulings))
                for n, r in view.pending.items()
            ]
            if now
            else []
        )
        return PositionView(
            game_id=view.game_id,
            game=view.game,
            ruleset=view.created.ruleset,
            variants=view.created.variants,
            players=view.seat_names(),
            viewer=who,
            at=ply,
            standing_actions=view.ply,
            version=view.version,
            last_action=f"{last.actor} "
            f"{rules.shown_notation(self._action(view, last), last.actor, who)}"
            if last
            else None,
            to_act=to_act,
            to_move=to_act[0] if len(to_act) == 1 else None,
            result=view.result if now else "*",
            ended=ResultInfo.of(ended, view.seats) if ended else None,
            pending_rulings=pending,
            withdrawn=view.withdrawn_seats(),
            position=rules.observe(state, who),
            board=rules.render(state, who),
        )

    def position_svg(
        self,
        ref: str | GameView | PositionView,
        *,
        at: int | None = None,
        viewer: str | None = None,
    ) -> str:
        """The position after ``at`` standing actions as ``viewer`` may see it, drawn as one
        standalone SVG document (``referee.drawings``), the last entry marked; a position
        already read (a ``PositionView``) is drawn as it was read."""
        if isinstance(ref, PositionView):
            return drawing_of(ref)
        return drawing_of(self.position(ref, at=at, viewer=viewer))

    def position_text(self, ref: str, *, at: int | None = None) -> str:
        """The position as one line (``GameRules.position_text``), the referee's: it may
        hold what only the referee knows; ``new --from-position`` reads it back."""
        view = self.load(ref)
        ply = view.ply if at is None else at
        if not 0 <= ply <= view.ply:
            raise RefusedError(f"the game has positions 0 to {view.ply}; no position {at}")
        return str(view.rules.position_text(view.state_at(ply)))

    @staticmethod
    def _action(view: GameView, event: ActionRecorded) -> object:
        return msgspec.json.decode(event.action, type=view.rules.action_type)

    def legal(self, ref: str, *, seat: str | None = None) -> LegalActions:
        """Every legal action of ``seat`` (or of every seat that may act now)."""
        view = self.load(ref)
        rules = view.rules
        wanted = seat_of(view, seat) if seat is not None else None
        if view.ended is not None:
            return LegalActions(
                game_id=view.game_id, to_act=[], seat=wanted, to_move=None, actions=[]
            )
        to_act = sorted(rules.to_act(view.state), key=rules.seats.index)
        awaited = awaited_ruling(view)
        if awaited is not None:  # REF-6.2: only the ruling may be entered
            return LegalActions(
                game_id=view.game_id,
                to_act=to_act,
                seat=wanted,
                to_move=to_act[0] if len(to_act) == 1 else None,
                actions=[],
                awaited=awaited,
            )
        if wanted is not None and wanted not in to_act:
            actions: list[str] = []
        else:
            actions = [rules.notation(a) for a in rules.legal_actions(view.state, wanted)]
        return LegalActions(
            game_id=view.game_id,
            to_act=to_act,
            seat=wanted,
            to_move=to_act[0] if len(to_act) == 1 else None,
            actions=actions,
        )

    def report(self, ref: str, name: str, *, viewer: str | None = None) -> Report:
        """One of the game's own reports (Prismatic's score chart, say)."""
        view = self.load(ref)
        reports = reports_of(view.rules)
        if reports is None:
            raise LookupError(f"{view.rules.name} has no report {name!r}")
        return reports.report(view.state, name, self.viewer_of(view, viewer))

    # -- the record ------------------------------------------------------------
    def log(self, ref: str, *, viewer: str | None = None) -> list[dict[str, Any]]:
        """Every event as JSON-ready data, as ``viewer`` may see it."""
        return list(self.iter_log(ref, viewer=viewer))

    def iter_log(self, ref: str, *, viewer: str | None = None) -> Iterator[dict[str, Any]]:
        """``log`` one record at a time, read from the store a page at a time (the game is
        found and the viewer checked now): a long game's log in flat memory."""
        game_id = self.resolve(ref)
        start = self.store.load(game_id, upto=1)  # the seats and rules, from the game's creation
        who = self.viewer_of(start, viewer)
        head = self.store.last_row(game_id)
        upto = head[0] if head is not None else 0
        rules = start.rules
        # an entry sealed when made may have been revealed since: the last position says
        revealed = (
            revealed_entries(self.load(game_id))
            if rules.seals_entries and who != REFEREE
            else frozenset()
        )
        return (
            event_record(redact(decode(topic, state), who, rules, start.setup, revealed))
            for _, topic, state in self.store.iter_rows(game_id, upto=upto)
        )

    def log_events(
        self, ref: str, *, viewer: str | None = None
    ) -> tuple[GameView, list[GameEvent]]:
        """The game and its events as ``viewer`` may see them (for lines of text)."""
        view = self.load(ref)
        who = self.viewer_of(view, viewer)
        revealed = revealed_entries(view) if who != REFEREE else frozenset()
        return view, [redact(e, who, view.rules, view.setup, revealed) for e in view.events]

    def replay(
        self,
        ref: str,
        *,
        start: int = 0,
        stop: int | None = None,
        session: bool = False,
        viewer: str | None = None,
    ) -> list[ReplayFrame]:
        """The positions of a game, step by step, from ``start`` to ``stop``.

        By default the standing line of play (position 0 is the start), with the
        rejections and corrections that happened around each action as notes;
        ``session`` replays the table's events in the order they happened instead,
        numbered by event, showing the position after every action, retraction and
        adjustment."""
        view = self.load(ref)
        who = self.viewer_of(view, viewer)
        rules = view.rules
        frames: list[ReplayFrame] = []

        def frame(event: int, ply: int, what: str, notes: list[str], state: object) -> ReplayFrame:
            return ReplayFrame(
                event=event,
                ply=ply,
                what=what,
                notes=notes,
                position=rules.observe(state, who),
                board=rules.render(state, who),
            )

        revealed = revealed_entries(view) if who != REFEREE else frozenset()
        shown = [redact(e, who, rules, view.setup, revealed) for e in view.events]
        if session:
            last = stop if stop is not None else view.version
            if not 1 <= max(start, 1) <= last <= view.version:
                raise RefusedError(
                    f"the game has events 1 to {view.version}; --from and --to pick events "
                    f"between them (from {start} to {stop})"
                )
            folded = GameView(view.created)
            notes: list[str] = []
            for event, seen in zip(view.events[1:], shown[1:], strict=True):
                folded.fold(event)
                number = event.originator_version
                if isinstance(event, ActionRecorded | ActionRetracted | AdjustmentRecorded):
                    if start <= number <= last:
                        frames.append(
                            frame(number, folded.ply, event_summary(seen), notes, folded.state)
                        )
                    notes = []
                elif start <= number <= last:
                    notes.append(event_summary(seen))
            if notes:
                frames.append(frame(view.version, view.ply, "(end of record)", notes, view.state))
            return frames
        last = stop if stop is not None else view.ply
        if not 0 <= start <= last <= view.ply:
            raise RefusedError(
                f"the game has positions 0 to {view.ply}; --from and --to pick positions "
                f"between them, --from first (from {start} to "
                f"{stop if stop is not None else 'the end'})"  # not "to None"
            )
        standing = {e.originator_version for e in view.standing}
        # A dispute, its rulings and appeals are noted on the action they dispute, where
        # it was raised, not among the entries that happened to follow it.
        disputed = {number: d.event for number, d in view.disputes.items()}
        shown_at: dict[int, ReplayFrame] = {}
        ply = 0
        notes = []
        if start == 0:
            frames.append(frame(1, 0, "the starting position", [], view.state_at(0)))
        for event, seen in zip(view.events[1:], shown[1:], strict=True):
            if isinstance(event, DisputeOpened | DisputeRuled | DisputeAppealed):
                target = shown_at.get(disputed.get(event.dispute, 0))
                if target is not None:
                    target.disputes.append(event_summary(seen))
                    continue
            if event.originator_version in standing:
                ply += 1
                if start <= ply <= last and ply > 0:
                    frames.append(
                        frame(
                            event.originator_version,
                            ply,
                            event_summary(seen),
                            notes,
                            view.state_at(ply),
                        )
                    )
                    shown_at[event.originator_version] = frames[-1]
                notes = []
            elif start <= ply + 1 <= last + 1 and ply >= start:
                notes.append(event_summary(seen))
        if notes and last == view.ply:
            frames.append(frame(view.version, view.ply, "(end of record)", notes, view.state))
        return frames

    # -- verification ------------------------------------------------------------
    def verify(
        self,
        ref: str | None = None,
        *,
        progress: Callable[[int], None] | None = None,
        witness: Projector | None = None,
    ) -> VerifyReport:
        """Check hash chains and replay every decision of one game or all; ``witness`` (a
        projector whose file exists) adds the cut-tail check against the heads it saw."""
        from service.tournaments import check_event_snapshot, keeps_snapshots

        ids = [self.resolve(ref)] if ref else self.store.game_ids()
        reports: list[GameReport] = []
        mapper = self.store.mapper
        snapshots = None
        for game_id in ids:
            report = verify_stream(game_id, self.store.stored_events(game_id), mapper)
            if witness is not None:
                for line in witness.witness_findings(game_id, report.events):
                    report.findings.append(Finding(event=None, problem="witness", detail=line))
            if report.ok and game_id.startswith(EVENT_PREFIX) and keeps_snapshots(self.store):
                # an event's kept snapshot (a read model) must be what its log folds to
                from projections.event_state import EventSnapshots

                snapshots = snapshots or EventSnapshots(self.store)
                problem = check_event_snapshot(self.store, snapshots, game_id)
                if problem is not None:
                    report.findings.append(
                        Finding(event=None, problem="snapshot", detail=problem + " (dropped)")
                    )
            reports.append(report)
            if progress is not None:
                progress(1)
        if snapshots is not None:
            snapshots.close()
        bad = [r for r in reports if not r.ok]
        tournaments = sum(1 for r in reports if r.game_id.startswith(EVENT_PREFIX))
        return VerifyReport(
            games=len(reports) - tournaments,
            tournaments=tournaments,
            events=sum(r.events for r in reports),
            bad=len(bad),
            reports=reports,
        )

    def what_if(
        self, ref: str, *, variants: Mapping[str, str] | None = None, ruleset: str | None = None
    ) -> WhatIfReport:
        """What another ruling (variant or ruleset) would have changed in a game."""
        return what_if(self.load(ref), ruleset=ruleset, variants=variants)

    # -- rulebooks -------------------------------------------------------------
    @staticmethod
    def rulebook(game: str) -> Rulebook:
        from referee.rulebook import load_rulebook

        return load_rulebook(game.strip().lower())

    @staticmethod
    def clauses(game: str, ref: str) -> list[Clause]:
        """One clause (``PZ-6.2``), or every clause of a section (``PZ-6``)."""
        from referee.rulebook import find_clause, load_rulebook

        book = load_rulebook(game.strip().lower())
        wanted = ref.strip().upper()
        section = [c for c in book.clauses if c.section.upper() == wanted]
        if section:
            return section
        if wanted.startswith("REF-"):
            procedure = load_rulebook("procedure")
            section = [c for c in procedure.clauses if c.section.upper() == wanted]
            if section:
                return section
        return [find_clause(ref, None if game == "procedure" else game.strip().lower())]

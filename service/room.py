"""The head referee's queue: across every table, what needs a referee now.

Open disputes (oldest first, with their table and age), rulings on card text awaited,
appeals, penalties issued (a repeat the IPG upgrades flagged, EV-8.4), tables with no
event for N minutes, games over their time limit, and the tables of each running
event's current round without a result yet (Q-4, folded from the events' own streams).
Every face (``referee queue``, ``GET /api/queue``, the page ``/queue``) asks
``RoomQueue.items``.

What the queue reads is a read model, ``projections.queue.QueueFold``: folded from the
store's log pages, with the set of games with something waiting (so once caught up a read
costs what waits, not the store's size), and persisted beside the read models so a new
process folds only what the log gained since. This module turns it into items.

Interpretations (the texts are silent):
- Q-1: a table is idle when its game is open and nothing was recorded in it (an entry,
  a rejection, a correction, a ruling) for ``idle_minutes`` (default 10). Only games
  labelled with a table (``referee new --table N``) are tables: idle and over-time
  checks read the open games at a table, so a store of old unlabelled games costs nothing.
- Q-2: a game's time limit is its ``time_limit`` label in minutes (``meta`` of ``POST
  /api/games``), else ``time_limit`` minutes (default 50, a common Swiss round
  under the MTR); it runs from the game's creation. A table may rule otherwise by
  labelling each game.
- Q-3: penalties are listed from the last ``penalty_hours`` (default 12, one day's
  play) until rounds exist; an upgrade counts the player's earlier penalties for the
  same infraction in every game of the store (by player name), as EV-8.4 counts them
  across an event. A running event's penalties are listed as its desk lists them (the
  same read, ``penalty_lines``: a warning that reaches no game too, a withdrawn one not),
  each with the event's own suggestion, which counts the warnings that ended no game; the
  game penalty an event's game loss stored in its game is that penalty, not listed twice.
- Q-5 (triage): the queue is one list "needs me now" (``RoomView.needs``), by urgency
  (``ITEM_KINDS``: disputes, appeals, rulings awaited, tables over time, results due
  once the round's clock has ended, and whatever other kinds register) then by age,
  oldest first; and "for information" (``RoomView.info``): penalties issued (an IPG
  upgrade or a disqualification marked for an investigation), idle tables, tables still
  playing. The count (``RoomView.count``) is of what needs action only.
- Q-6: a table of a running event's current round is over time by the round clock with
  the table's extensions (EV-9.5), not by its game's age (never before the clock is
  started); every other table by its game's time limit (Q-2).
- Q-4: a table of an event's current round is unreported while the round has no result
  for it (a slip, a correction, or the games deciding the match, EV-3.8); its age runs
  from when the round was paired (or re-paired, EV-5.12: the tables are new then). An
  ended event and an ended round have none; byes never wait.
- Q-7: one table is one item in the triaged lists: a table over time (Q-6) that has no
  result yet is its "over time" item, whose line says it has no result; its "no result
  yet" item is not listed beside it. A scorekeeper, who is shown no "over time", keeps it.
  A table whose players' reports disagree is its "result disagreement" item (for every
  reader), whose line says when time is called on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

import msgspec

from events.codec import decode
from events.records import event_summary, safe_text
from events.replica import written_elsewhere
from events.schema import GameCreated
from projections.queue import FoldedEvent, FoldedGame, QueueFold
from referee.tournament.clock import clock_text
from referee.tournament.penalties import INFRACTIONS, infraction_key
from referee.tournament.playoff import round_words
from service.calls import CALL_SECONDS, call_line, call_order, hall_items, overdue
from service.wording import resolved_at_hall

__all__ = [
    "ITEM_KINDS",
    "ITEM_SOURCES",
    "ItemKind",
    "QueueItem",
    "RoomQueue",
    "RoomView",
    "register_kind",
    "register_source",
]

IDLE_MINUTES = 10
TIME_LIMIT_MINUTES = 50
PENALTY_HOURS = 12


class ItemKind(msgspec.Struct, frozen=True, kw_only=True):
    """What one kind of queue item is: its heading, whether it needs someone now, how
    urgent it is (lower first), and whether it is a result's (the scorekeeper's) (Q-5)."""

    name: str
    title: str
    needs_action: bool
    urgency: int
    results: bool = False


ITEM_KINDS: dict[str, ItemKind] = {}
"""Every kind of queue item, by name. Another module adds its own with ``register_kind``
(judge calls, result disagreements, ...) and its items with ``register_source``."""


def register_kind(kind: ItemKind) -> ItemKind:
    ITEM_KINDS[kind.name] = kind
    return kind


for _kind in (
    ItemKind(name="call", title="Judge calls", needs_action=True, urgency=5),
    ItemKind(name="dispute", title="Disputes awaiting a ruling", needs_action=True, urgency=10),
    ItemKind(name="conflict", title="Branches disagree", needs_action=True, urgency=12),
    ItemKind(name="appeal", title="Appeals awaiting a ruling", needs_action=True, urgency=15),
    ItemKind(name="ruling", title="Rulings awaited", needs_action=True, urgency=20),
    ItemKind(
        name="disagreement",
        title="Result disagreements",
        needs_action=True,
        urgency=30,
        results=True,
    ),
    ItemKind(name="overtime", title="Over time", needs_action=True, urgency=40),
    ItemKind(
        name="unreported",
        title="No result yet",
        needs_action=False,
        urgency=50,
        results=True,
    ),
    ItemKind(name="penalty", title="Penalties issued", needs_action=False, urgency=100),
    ItemKind(name="idle", title="Idle tables", needs_action=False, urgency=110),
    ItemKind(name="playing", title="Still playing", needs_action=False, urgency=120),
    ItemKind(
        name="rejected-offline",
        title="Entries rejected offline, to review",
        needs_action=False,
        urgency=105,
    ),
):
    register_kind(_kind)


class QueueItem(msgspec.Struct, kw_only=True):
    """One thing a referee should look at, with where it is and how long it has waited."""

    kind: str
    """``dispute``, ``ruling``, ``appeal``, ``penalty``, ``idle``, ``overtime``,
    ``unreported`` or ``conflict``."""
    game_id: str
    game: str
    table: str
    players: dict[str, str]
    since: datetime
    age_minutes: float
    event: int | None
    """The event it is about (the dispute's opening, the ruling asked, the penalty)."""
    dispute: int | None = None
    line: str
    """One line for people."""
    link: str
    """The table page, where it is answered."""
    upgrade: bool = False
    """A penalty given below what the IPG suggests for a repeat (EV-8.4)."""
    tournament: str | None = None
    """The event (tournament) an ``unreported`` table belongs to."""
    round: int | None = None
    """The round of an ``unreported`` table."""
    stage: str | None = None
    """That round in words: ``round 3``, or ``semifinal (round 7)`` in a playoff (EV-6.6)."""
    # A judge call or a result disagreement (``service.calls``, EV-10, EV-11):
    call: int | None = None
    report: int | None = None
    holder: str = ""
    """Who holds the call (``""``: nobody yet)."""
    status: str = ""
    overdue: bool = False
    """An open call nobody claimed within the queue's ``call_after`` seconds."""
    needs_action: bool | None = None
    """In "needs me now" (else "for information"): the item's own say, else its kind's
    (``ITEM_KINDS``); always set in a ``RoomView``."""
    urgency: int = 0
    """Its place in "needs me now": lower first, then oldest first (Q-5)."""
    referee: str = ""
    """The table referee assigned (a game's ``referee`` label), when one is recorded."""
    last: str = ""
    """The last thing recorded at the table, and when (``last_at``)."""
    last_at: datetime | None = None
    investigate: bool = False
    """A penalty an investigation should follow: an IPG upgrade or a disqualification."""
    remaining: str | None = None
    """A table's own time left (``12:05``) or over (``-3:10``), when it runs on a clock."""
    resolved_at: str = ""
    """A table's branch (``conflict``, ``rejected-offline``) read on a replica of its game:
    the store that writes the game, where the branch is chosen (REF-9.1, REF-9.5); empty
    where it can be chosen."""


ItemSource = Callable[["RoomQueue", datetime, "set[str] | None"], "list[QueueItem]"]
"""Items a module adds to the queue: given the queue, ``now`` and the tables wanted
(``None``: every table), its items (each of a kind it registered)."""

ITEM_SOURCES: list[ItemSource] = []


def register_source(source: ItemSource) -> ItemSource:
    ITEM_SOURCES.append(source)
    return source


class RoomView(msgspec.Struct, kw_only=True):
    """The queue as one reader may see it, section by section."""

    now: datetime
    tables: list[str] | None
    """The tables it covers (``None``: every table)."""
    disputes: list[QueueItem]
    rulings: list[QueueItem]
    appeals: list[QueueItem]
    penalties: list[QueueItem]
    idle: list[QueueItem]
    overtime: list[QueueItem]
    unreported: list[QueueItem] = []
    """Tables of each running event's current round without a result yet (Q-4)."""
    calls: list[QueueItem] = []
    """Judge calls not resolved, escalated first (``service.calls``, EV-10)."""
    disagreements: list[QueueItem] = []
    """Players' reports the opponent disputed, waiting for a slip (EV-11.5)."""
    needs: list[QueueItem] = []
    """Needs me now: by urgency, then oldest first (Q-5)."""
    info: list[QueueItem] = []
    """For information: penalties, idle tables, tables still playing (Q-5)."""
    conflicts: list[QueueItem] = []
    """Branches disagree: entries a table recorded offline on a game that moved meanwhile,
    kept as evidence beside the server's (REF-9.5)."""
    idle_minutes: int
    time_limit: int
    changed: int
    """The notification id the queue was read at (a live page's resume point)."""
    results_only: bool = False
    """Only the result items (a scorekeeper's queue)."""
    count: int = 0
    """How many items need action: the header's count (Q-5)."""


class _Stamp(msgspec.Struct):
    timestamp: datetime


def _minutes(now: datetime, then: datetime) -> float:
    return round(max(0.0, (now - then).total_seconds() / 60), 1)


class RoomQueue(QueueFold):
    """The queue: the fold of ``projections.queue`` (caught up from the log on every
    call, from its persisted snapshot on the first), read section by section."""

    # -- reading ---------------------------------------------------------------------------
    def items(  # noqa: PLR0913 - the query's settings, each a page's or a role's own
        self,
        *,
        tables: Sequence[str] | None = None,
        idle_minutes: int = IDLE_MINUTES,
        time_limit: int = TIME_LIMIT_MINUTES,
        penalty_hours: int = PENALTY_HOURS,
        now: datetime | None = None,
        results_only: bool = False,
        call_seconds: int = CALL_SECONDS,
        of_event: str | None = None,
        head: bool = True,
    ) -> RoomView:
        """The queue now, for every table (``tables=None``) or only ``tables``; with
        ``tables``, ``of_event`` names the event they are tables of (issue 31: "" for games
        outside every event), so another event's table 1 is not among them; only the result
        items with ``results_only`` (a scorekeeper's). ``head``: whether its reader is the
        head referee (or the command line's operator); a table referee's (``head=False``)
        escalated calls are for information: only the head claims and resolves them now
        (EV-10.5, REF-11.2), so they are counted in the head's "needs me now", not theirs."""
        if not 1 <= idle_minutes <= 24 * 60 or not 1 <= time_limit <= 24 * 60:
            from service.errors import RefusedError

            raise RefusedError("idle minutes and the time limit are 1 to 1440 minutes")
        if not 1 <= call_seconds <= 3600:
            from service.errors import RefusedError

            raise RefusedError("a call is overdue after 1 to 3600 seconds")
        now = now or datetime.now(UTC)
        with self._lock:
            self._catch_up()
            games = {gid: self._games[gid] for gid in self._watched}
            penalties = list(self._penalties)
            running = [(e, f) for e, f in self._events.items() if not f.state.ended]
            for p in penalties:  # a penalty's game, even when nothing else of it waits
                games.setdefault(p.game_id, self._games[p.game_id])
            changed = self._after
        wanted = {t.strip().casefold() for t in tables} if tables is not None else None
        events = dict(running)
        lasts: dict[str, tuple[datetime, str]] = {}

        def last(gid: str, g: FoldedGame) -> tuple[datetime, str]:
            if gid not in lasts:
                lasts[gid] = self._last_action(gid, g)
            return lasts[gid]

        def covered(g: FoldedGame) -> bool:
            if wanted is None:
                return True
            if of_event is not None and g.meta.get("event", "").strip() != of_event:
                return False
            return g.meta.get("table", "").strip().casefold() in wanted

        def item(
            gid: str, g: FoldedGame, kind: str, since: datetime, line: str, **kw: object
        ) -> QueueItem:
            at, what = last(gid, g)
            return QueueItem(
                kind=kind,
                game_id=gid,
                game=g.game,
                table=g.meta.get("table", ""),
                players=g.players,
                since=since,
                age_minutes=_minutes(now, since),
                line=line,
                link=f"/games/{gid}",
                referee=g.meta.get("referee", "").strip(),
                last=what,
                last_at=at,
                **kw,  # type: ignore[arg-type]
            )

        disputes, appeals, rulings, idle, overtime, playing = [], [], [], [], [], []
        game_calls: list[QueueItem] = []  # REF-11: calls from games outside any event
        conflicts: list[QueueItem] = []
        writers = written_elsewhere(self.store, [gid for gid, g in games.items() if g.held])
        for gid, g in games.items():
            if not covered(g):
                continue
            there: dict[str, object] = {}
            if gid in writers:  # a replica: the branch is chosen where the game is written
                there = {"resolved_at": writers[gid]}
            for number, (since, line) in g.branches.items():
                line += f"; {resolved_at_hall(writers[gid])}" if there else ""
                conflicts.append(item(gid, g, "conflict", since, line, event=number, **there))
            for number, (since, line) in g.rejected.items():  # REF-9.6: nothing to choose
                line += f"; {resolved_at_hall(writers[gid])}" if there else ""
                playing.append(item(gid, g, "rejected-offline", since, line, event=number, **there))
            for number, c in g.calls.items():
                game_calls.append(
                    item(gid, g, "call", c.at, call_line(c, c.by), event=number, call=number,
                         tournament=gid, holder=c.holder, status=c.status,
                         overdue=overdue(c, now, call_seconds))
                )  # fmt: skip
            for number, (status, since, line, event) in g.disputes.items():
                if status == "open":
                    disputes.append(
                        item(gid, g, "dispute", since, line, event=event, dispute=number)
                    )
                elif status == "appealed":
                    appeals.append(item(gid, g, "appeal", since, line, event=event, dispute=number))
            if not g.open:
                continue
            for asked, (_, since, line) in g.rulings.items():
                rulings.append(item(gid, g, "ruling", since, line, event=asked))
            if not g.meta.get("table", "").strip():
                continue  # idle and over time are about the room's tables
            clocked = _round_clock(g, events, now)
            if clocked is not None:  # the round clock, the table's extensions
                left, ended = clocked
                if left < 0 and not ended:
                    overtime.append(
                        item(
                            gid,
                            g,
                            "overtime",
                            now + timedelta(seconds=left),
                            f"over the round's time by {clock_text(-left)} (EV-9.5)",
                            event=None,
                            remaining=clock_text(left),
                        )
                    )
            else:
                limit = _limit(g, time_limit)
                left = (g.created + timedelta(minutes=limit) - now).total_seconds()
                if left < 0:
                    overtime.append(
                        item(
                            gid,
                            g,
                            "overtime",
                            g.created + timedelta(minutes=limit),
                            f"over its {limit}-minute time limit (Q-2, EV-9.5)",
                            event=None,
                            remaining=clock_text(left),
                        )
                    )
                elif not g.meta.get("event", "").strip():
                    playing.append(
                        item(
                            gid,
                            g,
                            "playing",
                            g.created,
                            f"still playing: {clock_text(left)} of its {limit} minutes left",
                            event=None,
                            remaining=clock_text(left),
                        )
                    )
            at, _ = last(gid, g)
            if now - at > timedelta(minutes=idle_minutes):
                idle.append(
                    item(
                        gid,
                        g,
                        "idle",
                        at,
                        f"nothing recorded for {idle_minutes}+ minutes (Q-1)",
                        event=None,
                    )
                )
        shown_penalties = []
        cutoff = now - timedelta(hours=penalty_hours)
        by_event = _event_suggestions(running)
        for p in penalties:
            found = games.get(p.game_id)
            if found is None or not covered(found) or p.at < cutoff:
                continue
            if (p.game_id, p.infraction) in by_event:
                continue  # a running event's game loss: listed with the event's penalties
            suggested = p.suggested
            upgrade = suggested is not None and suggested != p.base
            dq = p.given == "disqualification"
            line = f"{p.given} for {_seated(p.player, p.seat, found)}: {p.infraction}"
            if p.reason:
                line += f" ({p.reason})"
            if upgrade:
                line += f" — a repeat: the IPG suggests {suggested} (EV-8.4)"
            if upgrade or dq:
                line += " — investigate"
            shown_penalties.append(item(p.game_id, found, "penalty", p.at, line, event=p.event,
                                        upgrade=upgrade, investigate=upgrade or dq))  # fmt: skip
        for event_id, folded in running:
            if wanted is not None and of_event is not None and event_id != of_event:
                continue  # another event's table 1 is not theirs (issue 31)
            for found_penalty in self._event_penalties(event_id, folded, wanted, cutoff, now):
                if found_penalty.game_id in self._games:  # the table's game: its last action
                    at, what = last(found_penalty.game_id, self._games[found_penalty.game_id])
                    found_penalty.last, found_penalty.last_at = what, at
                    found_penalty.referee = (
                        self._games[found_penalty.game_id].meta.get("referee", "").strip()
                    )
                shown_penalties.append(found_penalty)
        oldest = sorted  # oldest first, everywhere
        # a table referee's tables are tables of their event (issue 31): another event's
        # table 1 calls nobody of theirs
        hall = [
            (e, f.name, f.state)
            for e, f in running
            if tables is None or of_event is None or e == of_event
        ]
        calls, disagreements = hall_items(hall, wanted, now, call_seconds)
        view = RoomView(
            now=now,
            tables=sorted(tables) if tables is not None else None,
            disputes=oldest(disputes, key=lambda i: i.since),
            rulings=oldest(rulings, key=lambda i: i.since),
            appeals=oldest(appeals, key=lambda i: i.since),
            penalties=oldest(shown_penalties, key=lambda i: i.since),
            idle=oldest(idle, key=lambda i: i.since),
            overtime=oldest(overtime, key=lambda i: i.since),
            unreported=self.unreported(
                [(e, f) for e, f in running if wanted is None or of_event in (None, e)],
                wanted,
                now,
                last=last,
            ),
            calls=sorted(
                [_for_reader(QueueItem(**i), head) for i in calls]
                + [_for_reader(i, head) for i in game_calls],
                key=lambda i: call_order({"status": i.status, "since": i.since}),
            ),
            disagreements=[QueueItem(**i) for i in disagreements],
            conflicts=oldest(conflicts, key=lambda i: i.since),
            idle_minutes=idle_minutes,
            time_limit=time_limit,
            changed=changed,
            results_only=results_only,
        )
        extra = [i for source in ITEM_SOURCES for i in source(self, now, wanted)]
        return _triaged(view, [*oldest(playing, key=lambda i: i.since), *extra])

    def unreported(
        self,
        running: list[tuple[str, FoldedEvent]],
        wanted: set[str] | None,
        now: datetime,
        *,
        last: Callable[[str, FoldedGame], tuple[datetime, str]] | None = None,
    ) -> list[QueueItem]:
        """Tables of each running event's current round without a result yet (Q-4),
        oldest round first, then by table; each links to the event's pairings page. Once
        the round's clock has ended, its tables' results are due: they need action."""
        found: list[QueueItem] = []
        for event_id, folded in running:
            state = folded.state
            number = state.current_round
            rnd = state.rounds.get(number)
            if state.settings is None or rnd is None or number in state.ended_rounds:
                continue
            since = folded.paired.get(number, now)
            clock = state.clock(number)
            due = clock.state == "ended"
            for pairing in rnd.pairings:
                if pairing.bye or pairing.table is None:
                    continue
                table = str(pairing.table)
                if wanted is not None and table.casefold() not in wanted:
                    continue
                if state.result(number, pairing.table) is not None:
                    continue
                linked = state.tables.get((number, pairing.table))
                names = [state.players[p].name for p in pairing.players]
                stage = round_words(state, number)
                where = f"{folded.name or event_id} {stage}"
                started = clock.started is not None
                gid = linked.games[-1] if linked and linked.games else ""
                game = self._games.get(gid)
                at, what = (last or self._last_action)(gid, game) if game else (None, "")
                found.append(
                    QueueItem(
                        kind="unreported",
                        game_id=gid,
                        referee=game.meta.get("referee", "").strip() if game else "",
                        last=what,
                        last_at=at,
                        game=state.settings.game,
                        table=table,
                        players={str(n): name for n, name in enumerate(names, start=1)},
                        since=clock.ended if due and clock.ended else since,
                        age_minutes=_minutes(now, clock.ended if due and clock.ended else since),
                        event=None,
                        line=f"{where}: {' vs '.join(names)} "
                        + (
                            "has no result and time is called (EV-9.5)"
                            if due
                            else "has no result yet (Q-4)"
                        ),
                        link=f"/events/{event_id}/slips#slip-{table}",  # where it is entered
                        tournament=event_id,
                        round=number,
                        stage=stage,
                        needs_action=True if due else None,
                        # no table has time left once time is called (the clock stands still)
                        remaining=clock_text(clock.remaining(now, pairing.table))
                        if started and not due
                        else None,
                    )
                )
        return sorted(found, key=lambda i: (i.since, int(i.table)))

    @staticmethod
    def _event_penalties(
        event_id: str,
        folded: FoldedEvent,
        wanted: set[str] | None,
        cutoff: datetime,
        now: datetime,
    ) -> list[QueueItem]:
        """A running event's penalties not withdrawn, recorded since ``cutoff`` (Q-3), at
        the tables ``wanted`` (``None``: every one), as the desk lists them (the same read,
        ``penalty_lines``, EV-8.6): a warning reaches no game, a match loss or a
        disqualification decides a match, and each is listed as one given at a game is."""
        from service.postings import penalty_lines

        state = folded.state
        if not state.penalties or state.settings is None:
            return []
        found: list[QueueItem] = []
        for row in penalty_lines(state):
            at = folded.penalized.get(row.number)
            if row.withdrawn or at is None or at < cutoff:
                continue
            given = state.penalties[row.number - 1]
            number, table = state.applied_penalties.get(row.number) or (given.round, given.table)
            if wanted is not None and str(table or "").casefold() not in wanted:
                continue
            linked = state.tables.get((number, table)) if table is not None else None
            game = state.penalty_games.get(row.number) or (
                linked.games[-1] if linked and linked.games else ""
            )
            names = [state.players[p].name for p in linked.players] if linked else [row.player]
            key = infraction_key(given.infraction)
            upgrade = key is not None and given.suggested != INFRACTIONS[key][1]
            dq = row.penalty == "disqualification"
            line = f"{row.penalty} for {row.player}: {row.infraction}"
            line += (f" ({given.reason})" if given.reason else "") + f"; penalty {row.number}: "
            line += row.effect  # where it took effect, as the desk says it
            if upgrade:
                line += f" — a repeat: the IPG suggests {given.suggested} (EV-8.4)"
            if upgrade or dq:
                line += " — investigate"
            stage = round_words(state, row.round)
            found.append(
                QueueItem(
                    kind="penalty",
                    game_id=game,
                    game=state.settings.game,
                    table=str(table or ""),
                    players={str(n): name for n, name in enumerate(names, start=1)},
                    since=at,
                    age_minutes=_minutes(now, at),
                    event=None,
                    line=line,
                    # the table's game, else the desk's row (where it is withdrawn, EV-8.7)
                    link=f"/games/{game}"
                    if game
                    else f"/events/{event_id}/desk#penalty-{row.number}",
                    upgrade=upgrade,
                    investigate=upgrade or dq,
                    tournament=event_id,
                    round=row.round,
                    stage=stage,
                )
            )
        return found

    def _last_action(self, gid: str, g: FoldedGame) -> tuple[datetime, str]:
        """When the game last had an event and what it said: one indexed read of its
        newest (Q-1)."""
        row = self.store.last_row(gid)
        if row is None:
            return g.created, "created"
        try:
            event = decode(row[1], row[2])
        except Exception:  # an event of a kind this build cannot read: its time only
            try:
                return msgspec.json.decode(row[2], type=_Stamp).timestamp, ""
            except msgspec.DecodeError:
                return g.created, ""
        if isinstance(event, GameCreated) and event.variants:
            # the game's rule variants (a dozen for a card game) said on every table the
            # queue lists: the table page has them; here "created" and who sit are enough
            event = msgspec.structs.replace(event, variants={})
        return event.timestamp, _named(event_summary(event), event, g)

    def _last_activity(self, gid: str, g: FoldedGame) -> datetime:
        """When the game last had an event (Q-1)."""
        return self._last_action(gid, g)[0]


def _named(summary: str, event: object, g: FoldedGame) -> str:
    """``summary`` with the seats its event is about (a deck's, a penalty's, an action's
    actor, a result's winner or ranking) named as the rest of the queue names them,
    "Ann (p2)", or "Ann" alone at a game of an event (``FoldedGame.named``): the events' own
    summaries know seats only, and at an event a bare ``p2`` reads as the event's player
    ``p2``, another person. Only each seat's first whole-word mention is named, so a seat's
    word inside a move's notation is left as written. A game of an event's creation names
    who sit by name alone."""
    if g.meta.get("event", "").strip() and isinstance(event, GameCreated):
        variants = ", ".join(f"{k}={v}" for k, v in event.variants.items())
        return (
            f"created {event.game} ({event.ruleset}) "
            + ", ".join(safe_text(p.name) for p in event.players)
            + (f" [{variants}]" if variants else "")
        )
    seats: list[str] = []
    for field in ("seat", "actor", "winner"):
        value = getattr(event, field, None)
        if isinstance(value, str):
            seats.append(value)
    seats += [p.seat for p in getattr(event, "ranking", ()) or ()]
    for seat in dict.fromkeys(seats):
        named = g.named(seat)
        mention = re.search(rf"(?<![\w-]){re.escape(seat)}(?![\w-])", summary)
        if named != seat and mention is not None:
            summary = summary[: mention.start()] + named + summary[mention.end() :]
    return summary


def _seated(name: str, seat: str, g: FoldedGame) -> str:
    """A seat's player as the queue names them: "Ann (p2)"; in a game of an event, "Ann"
    alone (``FoldedGame.named``)."""
    return name if g.meta.get("event", "").strip() else f"{name} ({seat})"


def _round_clock(
    g: FoldedGame, events: dict[str, FoldedEvent], now: datetime
) -> tuple[float, bool] | None:
    """A game of a running event's current round: its table's time left by the round
    clock in seconds (with its extensions; the whole round while the clock waits) and
    whether the clock has ended; ``None`` for any other game, which runs on its own time
    limit (Q-6)."""
    event_id = g.meta.get("event", "").strip()
    folded = events.get(event_id) if event_id else None
    if folded is None:
        return None
    state = folded.state
    table, number = g.meta.get("table", "").strip(), g.meta.get("round", "").strip()
    if not table.isdigit() or (number and number != str(state.current_round)):
        return None
    clock = state.clock()  # not started yet: the whole round is left, never over
    if state.result(state.current_round, int(table)) is not None:
        return 0.0, True  # the table has its result: nothing more to time
    return clock.remaining(now, int(table)), clock.state == "ended"


def _for_reader(call: QueueItem, head: bool) -> QueueItem:
    """A call as its reader acts on it: an escalated call is the head referee's alone to
    claim and resolve (EV-10.5, REF-11.2), so a table referee reads it for information
    (it stays in sight, "with the head referee"), and it needs the head, not them."""
    if call.status == "escalated" and not head:
        call.needs_action = False
    return call


CALL_URGENCY = {"escalated": 2, "overdue": 4, "open": 5, "claimed": 25}
"""A judge call's place in "needs me now" by its status (``service.calls``): escalated to
the head first, then an open call nobody took in time, then the other open ones; a call
someone holds comes after the disputes and rulings."""


def _triaged(view: RoomView, extra: list[QueueItem]) -> RoomView:
    """``view`` with its two lists (Q-5): "needs me now" by urgency then age, and "for
    information" by kind then age; each item's urgency from its kind, the count of what
    needs action; only the result items for a scorekeeper (``results_only``)."""
    everything = [
        *view.calls,
        *view.disputes,
        *view.appeals,
        *view.rulings,
        *view.overtime,
        *view.unreported,
        *view.penalties,
        *view.idle,
        *view.disagreements,
        *view.conflicts,
        *extra,
    ]
    everything = _one_item_a_table(everything, over_time=not view.results_only)
    needs: list[QueueItem] = []
    info: list[QueueItem] = []
    for found in everything:
        kind = ITEM_KINDS.get(found.kind)
        if view.results_only and (kind is None or not kind.results):
            continue
        if found.needs_action is None:
            found.needs_action = kind.needs_action if kind is not None else True
        if not found.urgency and found.kind == "call":  # the head's first, then the overdue
            found.urgency = CALL_URGENCY.get(
                "overdue" if found.overdue and found.status == "open" else found.status, 5
            )
        if not found.urgency and kind is not None:
            found.urgency = kind.urgency
        (needs if found.needs_action else info).append(found)
    needs.sort(key=lambda i: (i.urgency, i.since))
    info.sort(key=lambda i: (i.urgency, i.since))
    if view.results_only:
        hidden = ("disputes", "rulings", "appeals", "penalties", "idle", "overtime", "calls")
        for name in (*hidden, "conflicts"):
            setattr(view, name, [])
    view.needs, view.info, view.count = needs, info, len(needs)
    return view


def _one_item_a_table(items: list[QueueItem], *, over_time: bool = True) -> list[QueueItem]:
    """``items`` with a table's "no result yet" folded into its result disagreement, else
    into its "over time" item (Q-7): the more urgent one stays and says both (``over_time``
    off for a scorekeeper, whose queue has no "over time": a disagreement only). An event
    table's game idle (Q-1) is that table's "no result yet" item too, which says so: at a
    slip-only event nothing is recorded in its games, and every table was listed twice."""
    argued: dict[tuple[str | None, int | None, str], QueueItem] = {
        (i.tournament, i.round, i.table): i
        for i in items
        if i.kind == "disagreement" and i.tournament
    }
    over = {i.game_id: i for i in items if over_time and i.kind == "overtime" and i.game_id}
    waiting = {i.game_id for i in items if i.kind == "unreported" and i.game_id}
    idle = {i.game_id: i for i in items if i.kind == "idle" and i.game_id in waiting}
    kept: list[QueueItem] = []
    for found in items:
        if found.kind == "idle" and found.game_id in idle:
            continue  # said by the table's own item
        if found.kind != "unreported":
            kept.append(found)
            continue
        quiet = idle.get(found.game_id)
        if quiet is not None and quiet.line not in found.line:
            found.line += f" · {quiet.line}"
        disputed = argued.get((found.tournament, found.round, found.table))
        timed = over.get(found.game_id)
        if disputed is not None:
            if found.needs_action and "time is called" not in disputed.line:
                disputed.line += "; no result and time is called (EV-9.5, Q-7)"
        elif timed is None:
            kept.append(found)
        elif "no result yet" not in timed.line:
            timed.line += "; no result yet (Q-4, Q-7)"
    return kept


def _limit(g: FoldedGame, default: int) -> int:
    raw = g.meta.get("time_limit", "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else default


def _event_suggestions(running: Sequence[tuple[str, FoldedEvent]]) -> dict[tuple[str, str], str]:
    """What the IPG suggested for each running event's penalty that ended a game, by
    ``(game, infraction)``: the event counts the player's earlier penalties (EV-8.4)."""
    found: dict[tuple[str, str], str] = {}
    for _, folded in running:
        state = folded.state
        for number, game in state.penalty_games.items():
            given = state.penalties[number - 1]
            key = infraction_key(given.infraction) or given.infraction
            found[(game, key)] = given.suggested
    return found

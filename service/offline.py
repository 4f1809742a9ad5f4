"""Entries a table recorded while the server could not be reached, judged again on arrival.

A table's outbox (``service.outbox``) sends its pending entries for a game in order,
with the version of the game they were judged on. ``merge_offline`` judges them again:

- the game did not move on the server meanwhile (its version is still the base): the
  entries are decided one after another exactly as live entries are
  (``referee.game.write.decision``, as the write pipeline judges one) and stored in ONE
  append (the pipeline's, ``Commands._append_to_game``), followed by
  ``EntriesMerged``, which keeps the times the table recorded them beside the server's
  (REF-9.4);
- the game moved (another device or the head referee wrote to it), or the server cannot
  take an entry the table took: nothing is overwritten and nothing dropped. The table's
  branch is stored whole as ``BranchRecorded`` evidence with the server's own events
  since the base, side by side, and the head referee's queue shows it (REF-9.5).

A batch is sent with its first entry's key; a batch already stored (a retry after a
lost answer) is answered from the event that stored it, never stored twice, and the
entries the table recorded after it (sent with the retry) are judged as a batch of their
own, never dropped with the replay.
``resolve_branch`` is the head referee's choice between the two branches. A branch kept
again whole (a lost answer, the table recording on) supersedes the earlier one while no
choice was made on it: the choice is made on the later one alone (REF-9.7, the queue's fold
in ``projections.queue`` says the same). On a replica, ``branches`` names the store that
writes the game, where the choice is made (REF-9.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

import msgspec

from events.replica import written_elsewhere
from events.schema import (
    ActionRejected,
    BranchKept,
    BranchRecorded,
    BranchResolved,
    EntriesMerged,
    GameEvent,
    OfflineEntry,
)
from events.store import ConcurrentWriteError, fold_written, sealed_after
from referee.game.entry import EntryCommand
from referee.game.facts import BranchHeld, held_by, holds_whole, rejected_offline
from referee.game.write import decision
from service.errors import InvalidCommandError, RefusedError, StaleVersionError
from service.pipeline import entry_result
from service.procedure import header, summaries
from service.results import EntryResult

if TYPE_CHECKING:
    from events.view import GameView
    from service.access import Principal
    from service.app import RefereeService

_EVIDENCE = (ActionRejected, BranchRecorded, BranchResolved)
"""Events after a table's base that leave the game where it was: a rejected entry, or a
branch kept as evidence. Any other (an action, a correction, a result) moved it."""

__all__ = [
    "Branch",
    "OfflineEntryIn",
    "SyncOutcome",
    "branches",
    "merge_offline",
    "record_lines",
    "resolve_branch",
]


class OfflineEntryIn(OfflineEntry, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One pending entry as a table's outbox sends it."""


class SyncOutcome(msgspec.Struct, kw_only=True):
    """What became of a table's pending entries for one game: ``merged`` (stored as if
    live: ``results``), or ``conflict`` (kept as evidence in event ``event``, for the head
    referee: ``reason``)."""

    game_id: str
    outcome: Literal["merged", "conflict"]
    event: int
    version: int
    results: list[EntryResult] = []
    reason: str = ""
    replayed: bool = False
    events: list[int] = []
    """Every event the batch's entries were stored as, in order (``merged``), those stored
    when an earlier send's answer was lost included."""


class Branch(msgspec.Struct, kw_only=True):
    """A ``BranchRecorded`` of a game and whether the head referee has chosen."""

    game_id: str
    event: int
    device: str
    base_version: int
    theirs: list[str]
    ours: list[str]
    entries: list[str]
    reason: str
    kept: str | None = None
    rejected: bool = False
    """Every entry was rejected by the table's own copy (REF-9.6): nothing to choose."""
    retracts: list[str] = []
    """While no choice is made: the standing actions keeping the table's branch would
    retract now (the server's since its base, and any recorded after the branch), each
    as the log words it; ``ours`` is what the server held when the branch arrived."""
    superseded_by: int | None = None
    """The later branch that holds this one's entries whole, recorded while no choice was
    made on this one (REF-9.7): the one to choose (the last of a chain); this one is no
    longer a choice of its own."""
    resolved_at: str = ""
    """On a replica of the game (REF-9.1): the store that writes it, where the choice is
    made (the hall); empty on that store itself."""


def _entries(entries: Sequence[OfflineEntry]) -> tuple[OfflineEntry, ...]:
    return tuple(
        OfflineEntry(
            text=e.text,
            seat=e.seat,
            key=e.key,
            recorded_at=e.recorded_at.astimezone(UTC),
            judged=e.judged,
            judged_on=e.judged_on,
        )
        for e in entries
    )


def _stored_batch(view: GameView, key: str) -> EntriesMerged | BranchRecorded | None:
    """The latest batch stored in the game whose first entry's key is ``key`` (a retry)."""
    for event in reversed(view.events):
        if (
            isinstance(event, EntriesMerged | BranchRecorded)
            and event.entries
            and event.entries[0].key == key
        ):
            return event
    return None


def _replayed(view: GameView, event: EntriesMerged | BranchRecorded) -> SyncOutcome:
    """The answer to a batch stored already, made again from the event that stored it."""
    if isinstance(event, EntriesMerged):
        return SyncOutcome(
            game_id=view.game_id,
            outcome="merged",
            event=event.originator_version,
            version=view.version,
            events=list(event.events),
            replayed=True,
        )
    return SyncOutcome(
        game_id=view.game_id,
        outcome="conflict",
        event=event.originator_version,
        version=view.version,
        reason=event.reason,
        replayed=True,
    )


def merge_offline(
    svc: RefereeService,
    ref: str,
    *,
    device: str,
    base_version: int,
    entries: Sequence[OfflineEntryIn],
    by: str = "",
    principal: Principal | None = None,
) -> SyncOutcome:
    """Judge a table's pending entries for one game again and store them (REF-9.4), or
    keep them as a branch for the head referee (REF-9.5). See the module's text."""
    if not entries:
        raise RefusedError("REF-9.4: a batch of offline entries holds at least one entry")
    if base_version < 1:
        raise RefusedError("REF-9.4: the version the entries were judged on is 1 or more")
    for attempt in (1, 2):
        view = svc.load(ref)
        if principal is not None:
            from service.access import authorize

            authorize(principal, "record", view)
        try:
            return _merge_new(svc, view, _Batch(device, base_version, entries, by))
        except ConcurrentWriteError:
            if attempt == 2:
                raise
    raise AssertionError("not reached")


@dataclass(frozen=True)
class _Batch:
    """A table's offline entries for one game: the device that kept them, the version of the
    game they were judged on, the entries, and who sends them."""

    device: str
    base_version: int
    entries: Sequence[OfflineEntry]
    by: str


def _merge_new(svc: RefereeService, view: GameView, batch: _Batch) -> SyncOutcome:
    """Merge what of ``batch`` the game does not hold yet.

    A batch sent again after its answer was lost is found by its first key and answered
    from the event that stored it. The table may have recorded more entries meanwhile (the
    outbox sends them with the batch it still holds): those are not dropped with the
    replay. After a merged batch they were judged on the game as it then stood, so they
    are merged on that event as a batch of their own; after a branch they were judged on
    the table's branch, so the branch is kept again with them, whole (REF-9.5)."""
    entries = list(batch.entries)
    base_version = batch.base_version
    earlier: list[int] = []
    while (found := _stored_batch(view, entries[0].key)) is not None:
        stored = {e.key for e in found.entries}
        rest = [e for e in entries if e.key not in stored]
        if not rest:
            done = _replayed(view, found)
            done.events = [*earlier, *done.events]
            return done
        if isinstance(found, BranchRecorded):
            reason = (
                f"the table recorded {len(rest)} more entries on its branch of event "
                f"{found.originator_version} (that answer was lost on the way back): this "
                f"branch holds all of them; {found.reason}"
            )
            whole = _Batch(batch.device, found.base_version, [*found.entries, *rest], batch.by)
            return _branch(svc, view, whole, reason, svc.clock())
        earlier += found.events
        entries, base_version = rest, found.originator_version
    done = _merge(svc, view, _Batch(batch.device, base_version, entries, batch.by))
    done.events = [*earlier, *done.events]
    return done


def _merge(svc: RefereeService, view: GameView, batch: _Batch) -> SyncOutcome:
    base_version = batch.base_version
    now = svc.clock()
    since = [e for e in view.events if e.originator_version > base_version]
    if view.version < base_version or any(not isinstance(e, _EVIDENCE) for e in since):
        reason = (
            f"the game moved on the server after event {base_version} (now {view.version})"
            if view.version > base_version
            else f"the server holds {view.version} events, fewer than the table's {base_version}"
        )
        return _branch(svc, view, batch, reason, now)
    work = svc.load(view.game_id)  # decided on a copy; stored in one append on ``view``
    new: list[GameEvent] = []
    results: list[EntryResult] = []
    base = header(view.game_id, now)
    for number, entry in enumerate(batch.entries, start=1):
        command = EntryCommand(text=entry.text, actor=entry.seat, by=batch.by or batch.device)
        before = work.version
        try:
            decided = decision(work, command, base)
        except (RefusedError, InvalidCommandError, StaleVersionError) as exc:
            reason = f"the server cannot take entry {number} ({entry.text!r}): {exc}"
            return _branch(svc, view, batch, reason, now)
        fold_written(work, sealed_after(work, decided.new), decided.applied)
        new += decided.new
        results.append(entry_result(work, before, decided))
    merged = EntriesMerged(
        **header(view.game_id, now),
        device=batch.device,
        base_version=base_version,
        entries=_entries(batch.entries),
        events=tuple(r.event for r in results if r.event is not None),
        by=batch.by,
    )
    return _stored(svc, view, [*new, merged], "merged", results=results)


def _branch(
    svc: RefereeService, view: GameView, batch: _Batch, reason: str, now: datetime
) -> SyncOutcome:
    """Keep the table's branch whole as evidence (REF-9.5), with the server's since."""
    entries = batch.entries
    since = [e for e in view.events if e.originator_version > batch.base_version]
    ours = [
        f"{e.originator_version}: {line}" for e, line in zip(since, summaries(since), strict=True)
    ]
    event = BranchRecorded(
        **header(view.game_id, now),
        device=batch.device,
        base_version=batch.base_version,
        entries=_entries(entries),
        theirs=tuple(e.judged or e.text for e in entries),
        ours=tuple(ours),
        reason=reason,
        by=batch.by,
    )
    return _stored(svc, view, [event], "conflict", reason=reason)


def _stored(
    svc: RefereeService,
    view: GameView,
    events: list[GameEvent],
    outcome: Literal["merged", "conflict"],
    *,
    results: list[EntryResult] | None = None,
    reason: str = "",
) -> SyncOutcome:
    """``events`` appended to the game in one write; the outcome names the last of them."""
    written = svc.parts.games._append_to_game(view, events)
    return SyncOutcome(
        game_id=view.game_id,
        outcome=outcome,
        event=written[-1].originator_version,
        version=view.version,
        results=results or [],
        reason=reason,
        events=[r.event for r in results or [] if r.event is not None],
    )


def branches(svc: RefereeService, ref: str) -> list[Branch]:
    """Every branch kept as evidence in a game, with the head referee's choice if made."""
    view = svc.load(ref)
    found: dict[int, Branch] = {}
    held: dict[int, BranchHeld] = {}  # no choice made on them yet: what they hold (REF-9.7)
    for event in view.events:
        if isinstance(event, BranchRecorded):
            mine = held_by(event)
            for earlier in [k for k, h in held.items() if holds_whole(mine, h)]:
                found[earlier].superseded_by = event.originator_version
                del held[earlier]
            held[event.originator_version] = mine
            found[event.originator_version] = Branch(
                game_id=view.game_id,
                event=event.originator_version,
                device=event.device,
                base_version=event.base_version,
                theirs=list(event.theirs),
                ours=list(event.ours),
                entries=[e.text for e in event.entries],
                reason=event.reason,
                rejected=rejected_offline(event.entries),
            )
        elif isinstance(event, BranchResolved) and event.branch in found:
            found[event.branch].kept = event.kept
            held.pop(event.branch, None)
    writer = written_elsewhere(svc.store, [view.game_id]).get(view.game_id, "")
    plies: dict[int, int] = {}
    for branch in found.values():
        later = branch.superseded_by
        while later is not None and found[later].superseded_by is not None:
            later = found[later].superseded_by  # the last of a chain: the one to choose
        branch.superseded_by = later
        if branch.kept is None and later is None:
            branch.resolved_at = writer
        if branch.kept is None and not branch.rejected and later is None:
            if branch.base_version not in plies:
                plies[branch.base_version] = svc.store.load(
                    view.game_id, upto=branch.base_version
                ).ply
            retracted = view.standing[plies[branch.base_version] :]
            branch.retracts = [
                f"{e.originator_version}: {line}"
                for e, line in zip(retracted, summaries(retracted), strict=True)
            ]
    return list(found.values())


def resolve_branch(
    svc: RefereeService,
    ref: str,
    branch: int,
    keep: BranchKept,
    *,
    reason: str = "",
    by: str = "",
) -> list[EntryResult]:
    """The head referee keeps one branch of ``BranchRecorded`` event ``branch`` (REF-9.5).

    ``server``: the game stays as it is; the choice is recorded. ``table``: the server's
    actions after the branch's base are retracted (one backup, REF-2.3), the table's
    entries recorded in their order as who sent them from the table (the token holder,
    else the device), then the choice, by ``by``; the answers of those entries. A branch
    of entries the table's copy rejected only is not kept as the table's (REF-9.6); a
    branch a later one holds whole is not chosen at all, the later one is (REF-9.7)."""
    view = svc.load(ref)
    found = {b.event: b for b in branches(svc, view.game_id)}
    chosen = found.get(branch)
    if chosen is None:
        raise InvalidCommandError("REF-9.5", f"event {branch} of {view.game_id} is not a branch")
    if chosen.kept is not None:
        raise InvalidCommandError(
            "REF-9.5",
            f"the branch of event {branch} was resolved already (kept the {chosen.kept}'s)",
        )
    if chosen.superseded_by is not None:
        later = found[chosen.superseded_by]
        then = (
            f"choose on event {later.event}"
            if later.kept is None
            else f"that one was resolved (kept the {later.kept}'s)"
        )
        raise InvalidCommandError(
            "REF-9.7",
            f"the branch of event {branch} is superseded by the branch of event {later.event}, "
            f"which holds all of its entries and those the table recorded after them: {then}",
        )
    event = view.events[branch - 1]
    assert isinstance(event, BranchRecorded)
    if keep == "table" and rejected_offline(event.entries):
        raise InvalidCommandError(
            "REF-9.6",
            f"the table's entries of event {branch} were all rejected by its own copy: keeping "
            "them would retract the server's entries for nothing; keep the server's to mark "
            "them reviewed",
        )
    results: list[EntryResult] = []
    if keep == "table":
        base_ply = svc.store.load(view.game_id, upto=event.base_version).ply
        if view.ply > base_ply:
            svc.backup(
                view.game_id,
                base_ply,
                reason or f"kept the table's branch of event {branch} (REF-9.5)",
                by=by,
            )
        # the entries stay the table's, as recorded there; the choice is the head's
        table = event.by or event.device
        for entry in event.entries:
            results.append(svc.record(view.game_id, entry.text, actor=entry.seat, by=table))
        view = svc.load(view.game_id)
    resolved = BranchResolved(
        **header(view.game_id, svc.clock()), branch=branch, kept=keep, reason=reason, by=by
    )
    svc.parts.games._append_to_game(view, [resolved], action="backup")
    return results


def record_lines(svc: RefereeService, ref: str, after: int) -> tuple[str, int, list[str]]:
    """(the game's id, its version, its stored events numbered above ``after`` as lines of
    its ``referee-jsonl/1`` record): what a table's copy of the game lacks, read alone, so
    keeping the copy costs what the game gained, not its length."""
    from events.schema import KIND_OF_TOPIC

    game_id = svc.resolve(ref)
    rows = svc.store.rows(game_id, after=max(0, after))
    lines = [
        f'{{"kind":"{KIND_OF_TOPIC[topic]}","topic":"{topic}",' + bytes(state)[1:].decode() + "\n"
        for _, topic, state in rows
    ]
    version = rows[-1][0] if rows else max(0, after)
    return game_id, version, lines

"""Judging one entry as a pure decision (issue 19 section 2, for ``record``).

``decide_entry(view, command)`` is the referee procedure for an entry with no store
in sight: from the game as folded and the entry as given, it returns the events to
append after the view's last one, the position after a recorded action, and the
answer, or raises the refusal (``UnreadableEntryError``, ``InvalidCommandError``,
``StaleVersionError``) with nothing decided. ``Commands.record`` is the thin shell
around it (load, decide, append), and the server's group commit
(``service.writer``) decides many entries the same way and appends them together.
The time the events carry is the command's, so the decision draws nothing itself.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from events.schema import ActionRecorded, ActionRejected, GameEnded, GameEvent, RulingRequested
from events.view import GameView
from service.errors import InvalidCommandError, StaleVersionError, UnreadableEntryError
from service.procedure import header, named_seat, result_by_rule, seat_of
from service.results import EntryResult, ResultInfo

__all__ = ["EntryCommand", "EntryDecision", "decide_entry", "ends_event_game"]


class EntryCommand(msgspec.Struct, frozen=True):
    """One entry as a referee gives it: the text, the seat if named apart, who records
    it, the version it was made on (``If-Match``) and the time it is recorded at.

    ``dry_run`` only judges; ``keep_unreadable`` is for imports of records written
    before REF-1.1 and REF-1.3 refused such text, which kept it as a rejection."""

    text: str
    at: datetime
    actor: str | None = None
    by: str = ""
    dry_run: bool = False
    expected_version: int | None = None
    keep_unreadable: bool = False


class EntryDecision(msgspec.Struct, frozen=True):
    """What an entry comes to: ``new`` events to append right after the version it was
    decided on (none for a dry run), the position after a recorded action
    (``applied``, so the view is advanced without applying twice), and ``result``, the
    answer, numbered as the events will be when that append lands."""

    result: EntryResult
    new: list[GameEvent] = []
    applied: Any = None


def ends_event_game(view: GameView, decision: EntryDecision) -> bool:
    """Whether appending ``decision`` ends a game of an event's match: such an append
    also updates the match, in the same transaction (``Commands._append_to_game``)."""
    return bool(view.created.meta.get("event")) and any(
        isinstance(e, GameEnded) for e in decision.new
    )


def decide_entry(view: GameView, command: EntryCommand) -> EntryDecision:
    """Judge ``command`` as the next entry of ``view``: record it, keep its rejection as
    evidence, or refuse it (raised; nothing to store).

    Text that is not an action of the game is refused (``UnreadableEntryError``,
    REF-1.1); so is an entry on a finished game (``InvalidCommandError``, REF-1.3), an
    incomplete one (REF-1.2), and any entry while a ruling is awaited (REF-6.2)."""
    if command.expected_version is not None and command.expected_version != view.version:
        raise StaleVersionError(view.game_id, command.expected_version, view.version)
    text, actor = command.text, command.actor
    if not command.keep_unreadable:
        actor, text = named_seat(view, text, actor)  # 'p2: ENTRY', as at the table
    seat = seat_of(view, actor) if actor is not None else None
    judged = view.judge(text, seat)
    if not judged.readable and not command.keep_unreadable:
        violation = judged.verdict.violations[0]
        raise UnreadableEntryError(text, violation.clause, violation.reason)
    if view.ended is not None and not command.keep_unreadable:
        # REF-1.3: a finished game takes no entry; nothing to keep as evidence either.
        raise InvalidCommandError(
            "REF-1.3",
            f"the game is over ({view.closed()}): no entry can be recorded; nothing was stored",
        )
    if judged.incomplete:
        raise InvalidCommandError("REF-1.2", judged.incomplete)
    verdict = judged.verdict
    if view.pending and view.ended is None:
        asked = next(iter(view.pending.values()))
        raise InvalidCommandError(
            "REF-6.2",
            f"a ruling on {asked.rulings[0].card} (event {asked.event}) is awaited: record it "
            "with 'adjust' (or 'adjust --none') before the next entry",
        )
    rules = view.rules
    notation = rules.notation(judged.action) if judged.action is not None else None
    mover = judged.seat if judged.seat is not None else rules.to_move(view.state)
    if command.dry_run:
        return EntryDecision(
            EntryResult(
                game_id=view.game_id,
                status="legal" if verdict.legal else "illegal",
                accepted=verdict.legal,
                text=text,
                seat=mover,
                notation=notation,
                violations=list(verdict.violations),
                rulings=list(verdict.rulings),
                version=view.version,
                stored=False,
            )
        )
    base = header(view.game_id, command.at)
    seq = view.ply + 1
    first = view.version + 1  # the number the first new event takes when the append lands
    if not verdict.legal:
        rejected = ActionRejected(
            **base,
            seq=seq,
            actor=mover,
            text=text,
            violations=verdict.violations,
            recorded_by=command.by,
        )
        return EntryDecision(
            EntryResult(
                game_id=view.game_id,
                status="rejected",
                accepted=False,
                text=text,
                seat=mover,
                notation=notation,
                violations=list(verdict.violations),
                event=first,
                version=first,
            ),
            [rejected],
        )
    assert judged.seat is not None and notation is not None
    new: list[GameEvent] = [
        ActionRecorded(
            **base,
            seq=seq,
            actor=judged.seat,
            action=msgspec.Raw(msgspec.json.encode(judged.action)),
            notation=notation,
            recorded_by=command.by,
        )
    ]
    if verdict.rulings:
        new.append(RulingRequested(**base, event=first, seat=judged.seat, rulings=verdict.rulings))
    after = rules.apply(view.state, judged.action, judged.seat)
    outcome = rules.outcome(after)
    ended: ResultInfo | None = None
    if outcome.over:
        end = result_by_rule(view, outcome, base, command.by)
        new.append(end)
        numbered = msgspec.structs.replace(end, originator_version=view.version + len(new))
        ended = ResultInfo.of(numbered, view.seats)
    return EntryDecision(
        EntryResult(
            game_id=view.game_id,
            status="recorded",
            accepted=True,
            text=text,
            seat=judged.seat,
            notation=notation,
            violations=[],
            rulings=list(verdict.rulings),
            event=first,
            version=view.version + len(new),
            ended=ended,
        ),
        new,
        after,
    )

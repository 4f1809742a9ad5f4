"""Judging one entry as a pure decision.

``decide_entry(view, command, base)`` is the referee procedure for an entry with no
store in sight: from the game as folded and the entry as given, it returns the facts
to append after the view's last one, the position after a recorded action, and what
became of the entry (``Decision``), or raises the refusal (``UnreadableEntryError``,
``InvalidCommandError``) with nothing decided. ``base`` is the header the caller
stamps on each new fact (the game's id and the time), so the decision draws nothing
itself. Every write comes here through ``referee.game.write.decision``, which checks
the version the entry was made on first; the service's write pipeline is the shell
around it, for the command line and the server's group commit alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from referee.errors import InvalidCommandError, UnreadableEntryError
from referee.game.entry import Decision, EntryCommand, EntryOutcome
from referee.game.facts import ActionRecorded, ActionRejected, GameEvent, RulingRequested
from referee.game.procedure import named_seat, result_by_rule, seat_of

if TYPE_CHECKING:
    from referee.game.view import FoldedGame

__all__ = ["decide_entry"]


def decide_entry(view: FoldedGame, command: EntryCommand, base: Mapping[str, Any]) -> Decision:
    """Judge ``command`` as the next entry of ``view``: record it, keep its rejection as
    evidence, or refuse it (raised; nothing to store).

    Text that is not an action of the game is refused (``UnreadableEntryError``,
    REF-1.1); so is an entry on a finished game (``InvalidCommandError``, REF-1.3), one
    credited to a seat that withdrew (REF-3.5), an incomplete one (REF-1.2), and any entry
    while a ruling is awaited (REF-6.2)."""
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
    if seat is not None and not command.keep_unreadable:
        _refuse_a_withdrawn_seat(view, seat)
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
        return Decision(
            entry=EntryOutcome(
                status="legal" if verdict.legal else "illegal",
                text=text,
                seat=mover,
                notation=notation,
                violations=verdict.violations,
                rulings=verdict.rulings,
            )
        )
    header = dict(base)
    seq = view.ply + 1
    if not verdict.legal:
        rejected = ActionRejected(
            **header,
            seq=seq,
            actor=mover,
            text=text,
            violations=verdict.violations,
            recorded_by=command.by,
        )
        return Decision(
            new=[rejected],
            entry=EntryOutcome(
                status="rejected",
                text=text,
                seat=mover,
                notation=notation,
                violations=verdict.violations,
            ),
        )
    assert judged.seat is not None
    assert notation is not None
    new: list[GameEvent] = [
        ActionRecorded(
            **header,
            seq=seq,
            actor=judged.seat,
            action=msgspec.Raw(msgspec.json.encode(judged.action)),
            notation=notation,
            recorded_by=command.by,
        )
    ]
    if verdict.rulings:
        first = view.version + 1  # the number the action takes when the append lands
        new.append(
            RulingRequested(**header, event=first, seat=judged.seat, rulings=verdict.rulings)
        )
    after = rules.apply(view.state, judged.action, judged.seat)
    outcome = rules.outcome(after)
    if outcome.over:
        new.append(result_by_rule(view, outcome, header, command.by))
    return Decision(
        new=new,
        applied=after,
        entry=EntryOutcome(
            status="recorded",
            text=text,
            seat=judged.seat,
            notation=notation,
            rulings=verdict.rulings,
        ),
    )


def _refuse_a_withdrawn_seat(view: FoldedGame, seat: str) -> None:
    """REF-3.5: a seat that withdrew takes no further action; an entry credited to it is
    refused, saying when it withdrew (not REF-1.2's list of the seats that may act)."""
    for withdrawal, _ in view.withdrawn:
        if withdrawal.seat == seat:
            how = "resigned" if withdrawal.how == "resignation" else "lost by penalty"
            raise InvalidCommandError(
                "REF-3.5",
                f"{seat} withdrew from this game ({how}, event "
                f"{withdrawal.originator_version}) and takes no further action; "
                "nothing was stored",
            )

"""The table page's referee forms: plain HTML forms posted to
``/games/{id}/do/{action}``, which work without JavaScript and are safe to reload: each
carries an idempotency key and answers with a redirect to the page, which shows what
happened or why it was refused (``web.formkeys``); sent by ``table.js`` with
``Accept: application/json``, they answer ``{"ok": ..., "message": ...}`` instead.

Whether the caller's role may do the form's action (``RIGHTS``) is settled by a guard
before the form is read (``web.guards.may_game_by``); an action then calls the application
layer exactly as the command line does (``cli/play.py``, ``cli/disputes.py``): the same
method, the same arguments, and a refusal shows the same one-line message with its
clause. Every field is held to the API's bound for it (``web.schemas``: one definition
for both), so text the API refuses is refused here too, and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from referee.errors import RefereeError, UnknownSeatError
from service.access import AccessDeniedError, Action, Principal
from service.api import (
    ADJUSTMENT_GRAMMAR,
    admit_game_early,
    as_caller,
    penalty_advice,
    ruling_action,
)
from service.app import RefereeService
from service.errors import RefusedError
from service.wording import rejection_text
from web.formkeys import Outcome
from web.schemas import (
    AdjustIn,
    AppealIn,
    BackupIn,
    DisputeIn,
    EndIn,
    EntryIn,
    PenaltyIn,
    RetractIn,
    RulingIn,
    WithdrawIn,
)

if TYPE_CHECKING:
    from service.results import GameView  # the game as RefereeService.load folds it

__all__ = ["ACTIONS", "FormOutcome", "bounds", "carry_out"]

Form = dict[str, str]

PENALTIES = {
    "warning": "warning",
    "game-loss": "game_loss",
    "match-loss": "match_loss",
    "disqualification": "disqualification",
}

FormOutcome = Outcome
"""What a form did: ``ok`` and one line for people (the CLI's line when refused)."""


class _TooLong(RefereeError, ValueError):
    """A field past the API's bound (422, as the API answers it). Nothing was stored."""


def bounds(schema: type[msgspec.Struct]) -> dict[str, int]:
    """Each text field's longest length in an API body (``web.schemas``), by field name."""
    info = msgspec.inspect.type_info(schema)
    found: dict[str, int] = {}
    if not isinstance(info, msgspec.inspect.StructType):  # pragma: no cover - Structs only
        return found
    for field in info.fields:
        kind = field.type
        options = kind.types if isinstance(kind, msgspec.inspect.UnionType) else (kind,)
        for option in options:
            if isinstance(option, msgspec.inspect.StrType) and option.max_length is not None:
                found[field.name] = option.max_length
    return found


def _bounded(schema: type[msgspec.Struct], **values: Any) -> None:
    """Refuse a value longer than the API takes for its field (the API answers 422)."""
    for name, longest in bounds(schema).items():
        value = values.get(name)
        if isinstance(value, str) and len(value) > longest:
            raise _TooLong(
                f"the {name} is {len(value):,} characters; at most {longest:,} are taken "
                "(the API refuses it too); nothing was stored"
            )


def _text(form: Form, name: str) -> str:
    return form.get(name, "").strip()


def _number(form: Form, name: str, what: str) -> int:
    raw = _text(form, name)
    if not raw.lstrip("-").isdigit():
        raise RefusedError(f"{what} is a whole number, not {raw!r}")
    return int(raw)


def _entry(svc: RefereeService, who: Principal, view: GameView, form: Form) -> str:
    text = _text(form, "entry")
    if not text:
        raise RefusedError("type an entry")
    seat = _text(form, "seat") or None
    _bounded(EntryIn, text=text, seat=seat)
    result = svc.record(view.game_id, text, actor=seat, by=who.label, principal=who)
    if result.accepted:
        ended = " (game over)" if result.ended is not None else ""
        return f"recorded {result.notation} by {result.seat} (event {result.event}){ended}"
    raise _Rejected(rejection_text(result))  # worded as the CLI and the API word it


class _Rejected(RefereeError, ValueError):
    """An entry that broke a rule: stored as evidence, shown as a refusal."""


def _retract(svc: RefereeService, who: Principal, view: GameView, form: Form) -> str:
    reason = _text(form, "reason")
    _bounded(RetractIn, reason=reason)
    result = svc.retract(view.game_id, reason, by=who.label)
    return f"retracted action {result.retracted[0]}: " + "; ".join(result.summaries)


def _backup(svc: RefereeService, who: Principal, view: GameView, form: Form) -> str:
    to = _number(form, "to", "the action to back up to")
    reason = _text(form, "reason")
    _bounded(BackupIn, reason=reason)
    result = svc.backup(view.game_id, to, reason, by=who.label)
    return f"backed up to action {to}: retracted actions " + ", ".join(
        str(n) for n in sorted(result.retracted)
    )


def _adjust(svc: RefereeService, who: Principal, view: GameView, form: Form) -> str:
    none = bool(_text(form, "none"))
    typed = _text(form, "changes")
    kind = _text(form, "kind")
    if none and typed:
        raise RefusedError("give the changes, or 'changes nothing', not both")
    if not none and not typed:
        raise RefusedError("give the changes, or 'changes nothing' when the ruling changes nothing")
    changes = typed
    kinds = {k for k, _ in ADJUSTMENT_GRAMMAR}
    if typed and kind in kinds and typed.split(maxsplit=1)[0].lower() not in kinds:
        changes = f"{kind} {typed}"  # the kind chosen, then its words; a whole change as typed
    answers = _text(form, "answers")
    card, reason = _text(form, "card"), _text(form, "reason")
    _bounded(AdjustIn, card=card, reason=reason, changes=changes)
    result = svc.adjust(
        view.game_id,
        "" if none else changes,
        card=card,
        reason=reason,
        by=who.label,
        resolves=int(answers) if answers.isdigit() else None,
        revealed=bool(_text(form, "revealed")),
    )
    return "; ".join(result.summaries)


def _penalty(svc: RefereeService, who: Principal, view: GameView, form: Form) -> str:
    level = _text(form, "level").lower().replace("_", "-")
    chosen = PENALTIES.get(level)
    if chosen is None:
        raise RefusedError(f"a penalty is one of {', '.join(PENALTIES)}, not {level!r}")
    infraction = _text(form, "infraction_other") or _text(form, "infraction")
    seat, reason = _text(form, "seat"), _text(form, "reason")
    _bounded(PenaltyIn, seat=seat, infraction=infraction, reason=reason)
    advice = penalty_advice(view, seat, infraction) if seat in view.seats else None
    result = svc.penalty(
        view.game_id,
        seat,
        chosen,  # type: ignore[arg-type]
        infraction,
        reason=reason,
        by=who.label,
    )
    line = "; ".join(result.summaries)
    if advice is not None and advice.upgrade:
        line += (
            f" (upgrade: a repeat of {advice.infraction} calls for {advice.suggested} "
            f"rather than {advice.base}, EV-8.4)"
        )
    return line


def _withdraw(svc: RefereeService, who: Principal, view: GameView, form: Form) -> str:
    """Withdraw a penalty (REF-7.3, the head referee), with a reason."""
    number = _number(form, "penalty", "the penalty's event")
    reason = _text(form, "reason")
    _bounded(WithdrawIn, reason=reason)
    result = svc.withdraw_penalty(view.game_id, number, reason=reason, by=who.label)
    return "; ".join(result.summaries)


def _end(svc: RefereeService, who: Principal, view: GameView, form: Form) -> str:
    """A resignation or an agreed draw, as ``referee end`` records it."""
    how = _text(form, "how")
    if how not in ("resignation", "agreement"):
        raise RefusedError(f"a game ends here by resignation or agreement, not {how!r}")
    seat, reason = _text(form, "who"), _text(form, "reason")
    _bounded(EndIn, who=seat, reason=reason)
    resigned = seat if how == "resignation" else None
    ended = svc.end(view.game_id, how, who=resigned, reason=reason, by=who.label)  # type: ignore[arg-type]
    return "; ".join(ended.summaries)


def _dispute(svc: RefereeService, who: Principal, view: GameView, form: Form) -> str:
    event = _number(form, "event", "the disputed event")
    claim, by = _text(form, "claim"), _text(form, "by")  # a player: their seat (``party``)
    _bounded(DisputeIn, claim=claim, by=by)
    return "; ".join(svc.dispute(view.game_id, event, by=by, claim=claim).summaries)


def _rule(svc: RefereeService, who: Principal, view: GameView, form: Form) -> str:
    number = _number(form, "dispute", "the dispute's number")
    final = bool(_text(form, "final"))
    # the pipeline's stage before the rest of the form is read: an appeal's or a final
    # ruling is the head's (REF-4.4), by the game's state
    admit_game_early(who, ruling_action(view, number, final=final), view)
    decision = _text(form, "decision")
    if decision not in ("uphold", "overturn"):
        raise RefusedError(f"dispute {number}: a ruling upholds or overturns, not {decision!r}")
    clause, reason = _text(form, "clause"), _text(form, "reason")
    _bounded(RulingIn, clause=clause, reason=reason)
    result = svc.rule(
        view.game_id,
        number,
        decision=decision,  # type: ignore[arg-type]
        clause=clause,
        reason=reason,
        by=who.label,
        final=final,
    )
    return "; ".join(result.summaries)


def _appeal(svc: RefereeService, who: Principal, view: GameView, form: Form) -> str:
    number = _number(form, "dispute", "the dispute's number")
    grounds, by = _text(form, "grounds"), _text(form, "by")  # as a dispute's
    _bounded(AppealIn, grounds=grounds, by=by)
    result = svc.appeal(view.game_id, number, by=by, grounds=grounds)
    return "; ".join(result.summaries)


def _extend(svc: RefereeService, who: Principal, view: GameView, form: Form) -> str:
    """Extra time for the table the game is played at (EV-9.4), as the clock page and
    ``referee event extend`` give it: the service checks the game's round and who may."""
    minutes = _number(form, "minutes", "the extra time in minutes")
    reason = _text(form, "reason")
    extend = as_caller(who, svc.game_extend)  # an event's write, made by the form's sender
    clock = extend(view.game_id, minutes, reason=reason, by=who.label)
    table = view.created.meta.get("table", "")
    given = next((t.extension_minutes for t in clock.tables if str(t.table) == table), minutes)
    more = f"{minutes} more minute{'' if minutes == 1 else 's'}"
    return f"table {table}: {more} ({reason}); {given} in all this round"


ACTIONS: dict[str, Callable[[RefereeService, Principal, GameView, Form], str]] = {
    "entry": _entry,
    "retract": _retract,
    "backup": _backup,
    "adjust": _adjust,
    "penalty": _penalty,
    "withdraw": _withdraw,
    "end": _end,
    "dispute": _dispute,
    "rule": _rule,
    "appeal": _appeal,
    "extend": _extend,
}
"""Each form's action, by the name in its URL."""

RIGHTS: dict[str, Action] = {
    "entry": "record",
    "retract": "retract",
    "backup": "backup",
    "adjust": "adjust",
    "penalty": "penalty",
    "withdraw": "penalty",
    "end": "end",
    "dispute": "dispute",
    "rule": "rule",  # on appeal, or a final ruling: the head's (``ruling_action``)
    "appeal": "appeal",
    # the table's referee or the head (the game's staff, checked before the form is read);
    # the write checks the clock's own rule again: that table of that event (EV-9.4)
    "extend": "time_limit",
}
"""What the caller's role must be allowed in the game to send each form (a guard's check)."""

_DISPUTE_ACTIONS = {"rule", "appeal"}


def carry_out(
    svc: RefereeService, who: Principal, game_id: str, action: str, form: Form
) -> FormOutcome:
    """Run one form's action; a refusal becomes its one-line message (with the dispute's
    number for the dispute forms), never an exception."""
    act = ACTIONS.get(action)
    if act is None:
        return FormOutcome(False, f"no referee action {action!r}", 404)
    try:
        view = svc.load(game_id)
        return FormOutcome(True, act(svc, who, view, form), 201)
    except AccessDeniedError as exc:
        return FormOutcome(False, str(exc), 403)
    except (_Rejected, _TooLong) as exc:
        return FormOutcome(False, str(exc), 422)
    except (RefereeError, ValueError, LookupError) as exc:
        message = str(exc)
        number = form.get("dispute", "").strip()
        if action in _DISPUTE_ACTIONS and number and f"dispute {number}" not in message:
            message = f"dispute {number}: {message}"
        # a procedure clause refuses a step the game's state does not allow now (409); a
        # name that is no seat (REF-1.7) is a bad form, like any other unreadable input
        not_now = "REF-" in message and not isinstance(exc, UnknownSeatError)
        return FormOutcome(False, message, 409 if not_now else 400)


def as_json(outcome: FormOutcome) -> dict[str, Any]:
    return {"ok": outcome.ok, "message": outcome.message}

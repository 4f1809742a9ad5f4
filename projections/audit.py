"""Dispute dossiers: everything a head referee reads before ruling on a dispute.

For each dispute: the position before the disputed event (drawn and as data),
the disputed decision, what the rules engine says about it now with the clause
ids and their texts, the claim, every ruling and appeal with who and when, and
the events that carried out an overturn.
"""

from __future__ import annotations

from typing import Any

from events.records import event_by, event_record, event_summary, safe_text
from events.schema import (
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    AdjustmentRecorded,
    DeckOpened,
    DisputeAppealed,
    DisputeRuled,
    GameEnded,
    GameEvent,
    PenaltyIssued,
    PenaltyWithdrawn,
    RulingRequested,
    SeatWithdrawn,
)
from events.view import GameView
from referee.rulebook import find_clause


def _clause(clause_id: str, game: str) -> dict[str, str]:
    try:
        c = find_clause(clause_id, game)
        return {"id": c.id, "title": c.title, "text": c.text}
    except LookupError:
        return {"id": clause_id, "title": "(not in the rulebook)", "text": ""}


def _engine_view(
    before: GameView, target: GameEvent, all_events: list[GameEvent]
) -> dict[str, Any]:
    """What the rules say today about the disputed decision."""
    game = before.game
    if isinstance(target, ActionRecorded | ActionRejected):
        text = target.notation if isinstance(target, ActionRecorded) else target.text
        verdict = before.judge(text, target.actor).verdict
        return {
            "action": text,
            "legal": verdict.legal,
            "violations": [
                {"clause": v.clause, "reason": v.reason, "clause_text": _clause(v.clause, game)}
                for v in verdict.violations
            ],
        }
    if isinstance(target, ActionRetracted):
        retracted = all_events[target.event - 1]
        assert isinstance(retracted, ActionRecorded)
        prior = GameView.from_events(all_events[: target.event - 1])
        verdict = prior.judge(retracted.notation, retracted.actor).verdict
        return {
            "action": retracted.notation,
            "legal": verdict.legal,
            "violations": [
                {"clause": v.clause, "reason": v.reason, "clause_text": _clause(v.clause, game)}
                for v in verdict.violations
            ],
        }
    if isinstance(target, GameEnded):
        outcome = before.rules.outcome(before.state)
        return {
            "result_by_rules": outcome.result,
            "clause": outcome.clause,
            "reason": outcome.reason,
            "clause_text": _clause(outcome.clause, game) if outcome.clause else None,
        }
    return {}


def referee_entries(view: GameView) -> dict[str, list[dict[str, Any]]]:
    """The referee's own entries a head referee reviews besides disputes: every ruling
    asked for and adjustment made (REF-6.4), every penalty and withdrawal, every deck
    check."""
    out: dict[str, list[dict[str, Any]]] = {
        "adjustments": [],
        "rulings_needed": [],
        "penalties": [],
        "deck_checks": [],
    }
    for event in view.events:
        item = {
            "event": event.originator_version,
            "at": event.timestamp.isoformat(),
            "by": event_by(event),
            "token": event.token,  # which device wrote it ("" before tokens were recorded)
            "summary": event_summary(event),
        }
        if isinstance(event, AdjustmentRecorded):
            item.update(
                card=event.card, changes=event.notation, reason=event.reason, answers=event.resolves
            )
            out["adjustments"].append(item)
        elif isinstance(event, RulingRequested):
            item.update(action_event=event.event, cards=[r.card for r in event.rulings])
            out["rulings_needed"].append(item)
        elif isinstance(event, PenaltyIssued | PenaltyWithdrawn | SeatWithdrawn):
            out["penalties"].append(item)
        elif isinstance(event, DeckOpened):
            item.update(
                seat=event.seat,
                opened=not event.violations,
                violations=[{"clause": v.clause, "reason": v.reason} for v in event.violations],
            )
            out["deck_checks"].append(item)
    return out


def _retraction_of(events: list[GameEvent], event: int) -> dict[str, Any] | None:
    """The correction that took the disputed entry back, if one did (REF-2.1)."""
    for later in events[event:]:
        if isinstance(later, ActionRetracted) and later.event == event:
            return {
                "event": later.originator_version,
                "action": later.seq,
                "reason": later.reason,
                "by": later.by,
                "at": later.timestamp.isoformat(),
            }
    return None


def dossiers(view: GameView) -> list[dict[str, Any]]:
    out = []
    events = view.events
    for number, dispute in sorted(view.disputes.items()):
        target = events[dispute.event - 1]
        before = GameView.from_events(events[: dispute.event - 1])
        steps = []
        for step in dispute.steps:
            if isinstance(step, DisputeRuled):
                effects = [
                    event_summary(e)
                    for e in events[step.originator_version :]
                    if e.timestamp == step.timestamp
                    and not isinstance(e, DisputeRuled | DisputeAppealed)
                ]
                steps.append(
                    {
                        "kind": "ruling",
                        "level": step.level,
                        "decision": step.decision,
                        "clause": _clause(step.clause, view.game),
                        "reason": step.reason,
                        "by": step.by,
                        "at": step.timestamp.isoformat(),
                        "event": step.originator_version,
                        "carried_out": effects,
                    }
                )
            else:
                steps.append(
                    {
                        "kind": "appeal",
                        "by": step.by,
                        "grounds": step.grounds,
                        "at": step.timestamp.isoformat(),
                        "event": step.originator_version,
                    }
                )
        out.append(
            {
                "game_id": view.game_id,
                "game": view.game,
                "dispute": number,
                "event": dispute.event,
                "status": dispute.status,
                "by": dispute.opened.by,
                "token": dispute.opened.token,
                "claim": dispute.opened.claim,
                "opened_at": dispute.opened.timestamp.isoformat(),
                "disputed": {
                    "summary": event_summary(target),
                    "record": event_record(target),
                    "retracted": _retraction_of(events, dispute.event),
                },
                "position_before": {
                    "actions": before.ply,
                    "board": before.rules.render(before.state),
                    "data": before.rules.observe(before.state),
                },
                "engine_now": _engine_view(before, target, events),
                "steps": steps,
            }
        )
    return out


def render_referee_entries(entries: dict[str, list[dict[str, Any]]], fmt: str = "text") -> str:
    """The adjustments, rulings asked for, penalties and deck checks of a game."""
    md = fmt == "md"
    titles = {
        "rulings_needed": "Rulings asked for",
        "adjustments": "Adjustments",
        "penalties": "Penalties and withdrawals",
        "deck_checks": "Deck checks",
    }
    lines: list[str] = []
    for key, title in titles.items():
        items = entries.get(key, [])
        if not items:
            continue
        lines.append(f"## {title}" if md else f"{title}\n{'-' * len(title)}")
        for item in items:
            token = f", token {safe_text(item['token'])}" if item.get("token") else ""
            by = f" [{safe_text(item['by'])}{token}]" if item["by"] else ""
            lines.append(f"- event {item['event']} ({item['at']}): {item['summary']}{by}")
        lines.append("")
    return "\n".join(lines) + ("\n" if lines else "")


def render_dossier(item: dict[str, Any], fmt: str = "text") -> str:
    md = fmt == "md"
    s = safe_text

    def h(title: str) -> str:
        return f"## {title}" if md else f"{title}\n{'-' * len(title)}"

    lines = [
        ("# " if md else "") + f"Dispute {item['dispute']} in {item['game_id']} ({item['status']})",
        "",
    ]
    lines += [
        h("Claim"),
        f"{s(item['by'])} disputes event {item['event']}: {s(item['claim'])}",
        f"Opened {item['opened_at']}",
        "",
    ]
    lines += [h("Disputed decision"), item["disputed"]["summary"]]
    retracted = item["disputed"].get("retracted")
    if retracted:
        by = f" by {s(retracted['by'])}" if retracted["by"] else ""
        lines.append(
            f"retracted in event {retracted['event']}{by} ({retracted['at']}): "
            f"{s(retracted['reason'])}"
        )
    lines.append("")
    board = item["position_before"]["board"]
    lines += [
        h(f"Position before it (after {item['position_before']['actions']} actions)"),
        "```" if md else "",
        board,
        "```" if md else "",
        "",
    ]
    engine = item["engine_now"]
    lines.append(h("What the rules say now"))
    if "legal" in engine:
        lines.append(f"{engine['action']}: " + ("legal" if engine["legal"] else "illegal"))
        for v in engine["violations"]:
            lines.append(f"- {v['clause']} ({v['clause_text']['title']}): {v['reason']}")
            if v["clause_text"]["text"]:
                lines.append(f"  {v['clause_text']['text']}")
    elif engine:
        lines.append(f"result by the rules: {engine['result_by_rules']} ({engine.get('clause')})")
    lines.append("")
    lines.append(h("Rulings and appeals"))
    if not item["steps"]:
        lines.append("none yet")
    for step in item["steps"]:
        if step["kind"] == "ruling":
            c = step["clause"]
            lines.append(
                f"- {step['at']}: {step['level']} ruling by {s(step['by'])}: "
                f"{step['decision'].upper()} under {s(c['id'])} ({c['title']}): "
                f"{s(step['reason'])}"
            )
            for effect in step["carried_out"]:
                lines.append(f"  carried out: {effect}")
        else:
            lines.append(f"- {step['at']}: appeal by {s(step['by'])}: {s(step['grounds'])}")
    return "\n".join(x for x in lines if x is not None) + "\n"

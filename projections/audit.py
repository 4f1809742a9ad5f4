"""Dispute dossiers: everything a head referee reads before ruling on a dispute.

For each dispute: the position before the disputed event (drawn and as data),
the disputed decision, what the rules engine says about it now with the clause
ids and their texts, the claim, every ruling and appeal with who and when, and
the events that carried out an overturn.
"""

from __future__ import annotations

from typing import Any

from events.records import event_record, event_summary
from events.replay import GameView, judge
from events.schema import (
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    DisputeAppealed,
    DisputeRuled,
    GameEnded,
    GameEvent,
)
from referee.rulebook import find_clause


def _clause(clause_id: str, game: str) -> dict[str, str]:
    try:
        c = find_clause(clause_id, game)
        return {"id": c.id, "title": c.title, "text": c.text}
    except LookupError:
        return {"id": clause_id, "title": "(not in the rulebook)", "text": ""}


def _engine_view(before: GameView, target: GameEvent, all_events: list[GameEvent]) -> dict[str, Any]:
    """What the rules say today about the disputed decision."""
    game = before.game
    if isinstance(target, ActionRecorded | ActionRejected):
        text = target.notation if isinstance(target, ActionRecorded) else target.text
        _, verdict = judge(before, text, target.actor)
        return {
            "action": text,
            "legal": verdict.legal,
            "violations": [{"clause": v.clause, "reason": v.reason, "clause_text": _clause(v.clause, game)}
                           for v in verdict.violations],
        }
    if isinstance(target, ActionRetracted):
        retracted = all_events[target.event - 1]
        assert isinstance(retracted, ActionRecorded)
        prior = GameView.from_events(all_events[: target.event - 1])
        _, verdict = judge(prior, retracted.notation, retracted.actor)
        return {
            "action": retracted.notation,
            "legal": verdict.legal,
            "violations": [{"clause": v.clause, "reason": v.reason, "clause_text": _clause(v.clause, game)}
                           for v in verdict.violations],
        }
    if isinstance(target, GameEnded):
        outcome = before.rules.outcome(before.state)
        return {"result_by_rules": outcome.result, "clause": outcome.clause, "reason": outcome.reason,
                "clause_text": _clause(outcome.clause, game) if outcome.clause else None}
    return {}


def dossiers(view: GameView) -> list[dict[str, Any]]:
    out = []
    events = view.events
    for number, dispute in sorted(view.disputes.items()):
        target = events[dispute.event - 1]
        before = GameView.from_events(events[: dispute.event - 1])
        steps = []
        for step in dispute.steps:
            if isinstance(step, DisputeRuled):
                effects = [event_summary(e) for e in events[step.originator_version:]
                           if e.timestamp == step.timestamp and not isinstance(e, DisputeRuled | DisputeAppealed)]
                steps.append({"kind": "ruling", "level": step.level, "decision": step.decision,
                              "clause": _clause(step.clause, view.game), "reason": step.reason, "by": step.by,
                              "at": step.timestamp.isoformat(), "event": step.originator_version,
                              "carried_out": effects})
            else:
                steps.append({"kind": "appeal", "by": step.by, "grounds": step.grounds,
                              "at": step.timestamp.isoformat(), "event": step.originator_version})
        out.append({
            "game_id": view.game_id,
            "game": view.game,
            "dispute": number,
            "event": dispute.event,
            "status": dispute.status,
            "by": dispute.opened.by,
            "claim": dispute.opened.claim,
            "opened_at": dispute.opened.timestamp.isoformat(),
            "disputed": {"summary": event_summary(target), "record": event_record(target)},
            "position_before": {"actions": before.ply, "board": before.rules.render(before.state),
                                "data": before.rules.describe(before.state)},
            "engine_now": _engine_view(before, target, events),
            "steps": steps,
        })
    return out


def render_dossier(item: dict[str, Any], fmt: str = "text") -> str:
    md = fmt == "md"

    def h(title: str) -> str:
        return f"## {title}" if md else f"{title}\n{'-' * len(title)}"

    lines = [("# " if md else "") + f"Dispute {item['dispute']} in {item['game_id']} ({item['status']})", ""]
    lines += [h("Claim"), f"{item['by']} disputes event {item['event']}: {item['claim']}",
              f"Opened {item['opened_at']}", ""]
    lines += [h("Disputed decision"), item["disputed"]["summary"], ""]
    board = item["position_before"]["board"]
    lines += [h(f"Position before it (after {item['position_before']['actions']} actions)"),
              "```" if md else "", board, "```" if md else "", ""]
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
            lines.append(f"- {step['at']}: {step['level']} ruling by {step['by']}: {step['decision'].upper()} "
                         f"under {c['id']} ({c['title']}): {step['reason']}")
            for effect in step["carried_out"]:
                lines.append(f"  carried out: {effect}")
        else:
            lines.append(f"- {step['at']}: appeal by {step['by']}: {step['grounds']}")
    return "\n".join(x for x in lines if x is not None) + "\n"

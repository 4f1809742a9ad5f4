"""What each viewer sees of a position: JSON-ready data, plain text, the score chart.

Everything at a Prismatic table is in the open (bags are counted as motes go in
and out), so every viewer sees the same position except for sealed auction bids:
a bid is seen by its seat and the referee until every bid of the round is in
(PX-14.1). ``secrets`` names those bids so the contract suite can check that no
other view shows them.
"""

from __future__ import annotations

from typing import Any

from referee.contract import REFEREE, Report, Viewer
from referee.errors import ActionSyntaxError
from referee.games.prismatic.catalog import ability_text, effect_text
from referee.games.prismatic.engine import outcome
from referee.games.prismatic.model import (
    SEATS,
    Bid,
    Forgo,
    Held,
    PrismaticAction,
    PrismaticState,
    SeatState,
)
from referee.games.prismatic.motes import KINDS, items_text, motes_text
from referee.games.prismatic.notation import notation, parse
from referee.games.prismatic.position import to_act
from referee.games.prismatic.scoring import Line, chart, standing
from referee.kit.multiset import Multiset

__all__ = [
    "observe",
    "render",
    "score_report",
    "sealed_bid_text",
    "secrets",
    "shown_notation",
    "shown_text",
    "still_sealed",
]

STEP_TITLES = {
    "deal": "setup: turning up the common cards",
    "setup": "setup: choosing motes and keeping a dealt card",
    "draw": "step 1: draw",
    "commit": "step 2: commit",
    "resolve": "step 3: resolve",
    "refill": "step 4: refilling the common cards",
    "auction": "step 4: starter-token auction",
    "colours": "game over: the colours worn must break a tie",
    "over": "game over",
}


def sealed_bid_text(seat: str, amount: int) -> str:
    """How a sealed bid appears in the views that may see it (and only those)."""
    return f"{seat} sealed a forgo" if amount < 0 else f"{seat} sealed a bid of {amount} prisms"


def _sees_bid(viewer: Viewer, seat: str) -> bool:
    return viewer in (REFEREE, seat)


def secrets(state: PrismaticState, seat: str) -> frozenset[str]:
    """The sealed bid of ``seat`` while its auction round is open."""
    if state.step != "auction" or state.auction is None:
        return frozenset()
    return frozenset(sealed_bid_text(s, amount) for s, amount in state.auction.sealed if s == seat)


def still_sealed(state: PrismaticState) -> dict[str, int]:
    """The seats whose latest bid or forgo is in the auction round still open: one each."""
    if state.step != "auction" or state.auction is None:
        return {}
    return {seat: 1 for seat, _ in state.auction.sealed}


def _counts(motes: Multiset) -> dict[str, int]:
    return {k: motes.count(k) for k in KINDS if motes.count(k)}


def _held(held: Held) -> dict[str, Any]:
    return {"card": held.name, "motes": _counts(held.motes), "prisms": held.prisms}


def _player(state: PrismaticState, p: SeatState) -> dict[str, Any]:
    return {
        "playing": p.active,
        "bag": _counts(p.bag),
        "bag_total": p.bag.total,
        "gained_this_round": _counts(p.incoming),
        "drawn": _counts(p.hand),
        "prisms": p.prisms,
        "palette": {"motes": _counts(p.palette), "prisms": p.palette_prisms},
        "progress": [_held(h) for h in p.progress],
        "creation": [_held(h) for h in p.creation],
        "created": len(p.creation),
        "pool": _counts(p.pool),
        "board_used": list(p.board_used),
        "abilities_used": list(p.abilities_used),
        "reached_goal": p.reached or None,
    }


def _printed(state: PrismaticState) -> dict[str, Any]:
    """What is printed on each card in sight (the commons and every player's cards), for
    drawings: the catalog is public, the deck's order is not, so only these."""
    names = list(state.commons)
    for p in state.players:
        names += [h.name for h in p.progress] + [h.name for h in p.creation]
    printed: dict[str, Any] = {}
    for name in names:
        spec = state.catalog.cards.get(name)
        if spec is not None and name not in printed:
            printed[name] = {
                "type": spec.type,
                "stars": spec.stars,
                "recipe": spec.recipe.text(),
                "rewards": [effect_text(e) for e in spec.rewards],
                "ability": ability_text(spec.ability) if spec.ability is not None else None,
            }
    return printed


def _board(state: PrismaticState) -> list[dict[str, Any]]:
    """The board's creations and their methods (``red-mote.2``) with each recipe."""
    creations: dict[str, dict[str, Any]] = {}
    for ident, method in state.catalog.methods.items():
        entry = creations.setdefault(
            method.creation,
            {"creation": method.creation, "effect": effect_text(method.effect), "methods": {}},
        )
        entry["methods"][ident] = method.recipe.text()
    return list(creations.values())


def observe(state: PrismaticState, viewer: Viewer = REFEREE) -> dict[str, Any]:
    """The position as JSON-ready data for ``viewer``."""
    result = outcome(state).result
    data: dict[str, Any] = {
        "round": state.round,
        "step": state.step,
        "starter": state.starter,
        "to_act": sorted(to_act(state), key=SEATS.index),
        "goal": state.table.goal,
        "final_round": state.final_round or None,
        "commons": list(state.commons),
        "deck": len(state.deck),
        "discard": list(state.discard),
        "supply": {
            "motes": {k: state.supply.count(k) for k in KINDS},
            "prisms": state.supply_prisms,
        },
        "players": {p.seat: _player(state, p) for p in state.players},
        "resolving": state.resolving,
        "pending_rewards": {
            "card": state.pending_card,
            "rewards": [effect_text(e) for e in state.pending],
        }
        if state.pending
        else None,
        "result": result,
        "score": {line.seat: line.total for line in chart(state)},
        "cards": _printed(state),
        "board": _board(state),
    }
    if viewer == REFEREE:
        data["deck_cards"] = list(state.deck)
    if state.auction is not None:
        a = state.auction
        data["auction"] = {
            "standing": dict(a.standing),
            "bidding": list(a.asked),
            "raise_above": a.floor if a.floor >= 0 else None,
            "entered": [s for s, _ in a.sealed],
            "sealed": [sealed_bid_text(s, n) for s, n in a.sealed if _sees_bid(viewer, s)],
        }
    if state.wearing:
        data["colours_judged"] = dict(state.wearing)
    return data


def _card_line(state: PrismaticState, name: str) -> str:
    spec = state.catalog.cards[name]
    parts = [
        f"{name} [{spec.type}, {spec.stars} star{'s' if spec.stars != 1 else ''}, needs "
        f"{spec.recipe.text()}"
    ]
    if spec.rewards:
        parts.append("rewards " + ", ".join(effect_text(e) for e in spec.rewards))
    if spec.ability is not None:
        parts.append("ability " + ability_text(spec.ability))
    return "; ".join(parts) + "]"


def _held_line(state: PrismaticState, held: Held) -> str:
    on = items_text(held.motes, held.prisms)
    return f"{_card_line(state, held.name)} holding {on}"


def render(state: PrismaticState, viewer: Viewer = REFEREE) -> str:
    """The table drawn as plain text: step and whose turn, commons, each player's areas."""
    result = outcome(state).result
    acting = ", ".join(sorted(to_act(state), key=SEATS.index)) or "nobody"
    goal = f"goal {state.table.goal} created cards"
    if state.final_round:
        goal += f"; round {state.final_round} is the last"
    lines = [
        f"Prismatic, round {state.round}: {STEP_TITLES[state.step]}",
        f"Starter token: {state.starter}; to act: {acting}; {goal}",
    ]
    if result != "*":
        lines.append(f"Result: {result}")
    lines.append("Common cards:")
    lines.extend(f"  {_card_line(state, c)}" for c in state.commons)
    lines.append(
        f"Deck: {len(state.deck)} cards; discard pile: {', '.join(state.discard) or 'empty'}"
    )
    supply = " ".join(f"{k}{state.supply.count(k)}" for k in KINDS)
    lines.append(f"Supply: {supply}; prisms {state.supply_prisms}")
    if state.pending:
        lines.append(
            f"Rewards of {state.pending_card} to settle: "
            + ", ".join(effect_text(e) for e in state.pending)
        )
    if state.auction is not None:
        a = state.auction
        if a.standing:
            lines.append(
                "Auction, tied bids standing: "
                + ", ".join(f"{s} {n}" for s, n in a.standing)
                + f" (raise above {a.floor} or forgo)"
            )
        entered = [s for s, _ in a.sealed]
        lines.append("Auction, bids sealed by: " + (", ".join(entered) or "nobody yet"))
        lines.extend(f"  {sealed_bid_text(s, n)}" for s, n in a.sealed if _sees_bid(viewer, s))
    for p in state.players:
        lines.append("")
        status = "" if p.active else " (withdrawn)"
        lines.append(
            f"{p.seat}{status}: bag {motes_text(p.bag)} ({p.bag.total}); prisms {p.prisms}; "
            f"created {len(p.creation)}" + (f" (reached the goal {p.reached})" if p.reached else "")
        )
        if p.hand:
            lines.append(f"  drawn: {motes_text(p.hand)}")
        if p.incoming:
            lines.append(f"  gained this round (into the bag at its end): {motes_text(p.incoming)}")
        lines.append(f"  palette: {items_text(p.palette, p.palette_prisms)}")
        if p.pool:
            lines.append(f"  colour pool: {motes_text(p.pool)}")
        lines.append("  progress: " + ("none" if not p.progress else ""))
        lines.extend(f"    {_held_line(state, h)}" for h in p.progress)
        lines.append("  creation: " + ("none" if not p.creation else ""))
        lines.extend(f"    {_held_line(state, h)}" for h in p.creation)
        if p.board_used or p.abilities_used:
            lines.append("  used this round: " + ", ".join(p.board_used + p.abilities_used))
    return "\n".join(lines)


def _line_data(line: Line) -> dict[str, Any]:
    return {
        "lines": dict(line.items()),
        "total": line.total,
        "counts": {
            "motes": line.facts.motes,
            "prismatic": line.facts.prismatic,
            "prisms": line.facts.prisms,
            "created": line.facts.created,
            "hue": line.facts.hue,
            "sky": line.facts.sky,
            "craft": line.facts.craft,
            "in_progress": line.facts.in_progress,
            "reached_goal": line.facts.reached or None,
        },
    }


def score_report(state: PrismaticState) -> Report:
    """PX-15.6: the score chart line by line for each player, and the ranking."""
    result = outcome(state).result
    board = standing(state)
    seats = [line.seat for line in board.lines]
    provisional = state.step not in ("over", "colours")
    title = "Prismatic score chart" + (" (if the game ended now)" if provisional else "")
    width = max(len(name) for name, _ in board.lines[0].items()) if board.lines else 10
    rows = [f"{'':<{width}}  " + "  ".join(f"{s:>4}" for s in seats)]
    if board.lines:
        for i, (name, _) in enumerate(board.lines[0].items()):
            rows.append(
                f"{name:<{width}}  " + "  ".join(f"{line.items()[i][1]:>4}" for line in board.lines)
            )
        rows.append(f"{'total':<{width}}  " + "  ".join(f"{line.total:>4}" for line in board.lines))
    place = 1
    ranking: list[dict[str, Any]] = []
    for group in board.groups:
        for seat in group:
            ranking.append({"seat": seat, "rank": place, "tied": len(group) > 1})
        place += len(group)
    rows.append("ranking: " + " > ".join("=".join(g) for g in board.groups))
    rows.extend(f"tie-break: {note}" for note in board.notes)
    if board.unsettled:
        rows.append(
            "waiting for the colours judgement between: "
            + "; ".join(", ".join(g) for g in board.unsettled)
        )
    data = {
        "provisional": provisional,
        "players": {line.seat: _line_data(line) for line in board.lines},
        "ranking": ranking,
        "tiebreaks": list(board.notes),
        "unsettled": [list(g) for g in board.unsettled],
        "result": result,
    }
    return Report(name="score", title=title, data=data, text="\n".join(rows))


def shown_notation(action: PrismaticAction, seat: str, viewer: Viewer) -> str:
    """A sealed bid or forgo is seen only by its seat and the referee (PX-14.1)."""
    if isinstance(action, Bid | Forgo) and viewer not in (REFEREE, seat):
        return "sealed bid"
    return notation(action)


def shown_text(text: str, seat: str | None, viewer: Viewer) -> str:
    """The text of a rejected sealed bid or forgo is hidden as its notation is (PX-14.1)."""
    if viewer in (REFEREE, seat):
        return text
    try:
        action = parse(text)
    except ActionSyntaxError:
        return text
    return "sealed bid" if isinstance(action, Bid | Forgo) else text

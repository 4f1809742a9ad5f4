"""What each viewer sees of a Gammasphere position: text for ``show`` and JSON for
``show --json``, and the names only a seat and the referee may see.

Everyone sees the field (modes, tapped cards, levels, weapons, calculated attack
and defense), gas, jiggawatts, power levels, hand and deck counts, cards known
to be in a hand, and the discard piles. A registered list and the cards of it
not yet seen are shown only to its seat and the referee (REF-5.4).
"""

from __future__ import annotations

from typing import Any

import msgspec

from referee.games.gammasphere.model import SEATS, Entity, GammasphereState, Side
from referee.games.gammasphere.notation import notation, parse
from referee.games.gammasphere.position import (
    HAND_LIMIT,
    attack_of,
    card_of,
    defense_of,
    finished,
    over_limit,
)
from referee.kit.secrecy import masked_text
from referee.kit.zones import private_data, private_text
from referee.viewers import REFEREE

__all__ = ["observe", "own_secrets", "public_names", "render", "secrets", "shown_text"]


def _may_see_list(viewer: str, seat: str) -> bool:
    return viewer in (REFEREE, seat)


def status_line(state: GammasphereState) -> str:
    r = finished(state)
    if r is not None:
        who = "a draw" if r.winner is None else f"{SEATS[r.winner]} wins"
        return f"Game over: {who} ({r.clause}: {r.reason})"
    if state.phase == "opening":
        waiting = " and ".join(s.seat for s in state.sides if not s.opened)
        return f"Opening hands: {waiting} to draw 7; {SEATS[state.first]} plays first"
    if state.phase == "discard":
        over = [SEATS[i] for i in over_limit(state)] or [SEATS[state.active]]
        return f"Turn {state.turn} is over: {' and '.join(over)} to discard down to {HAND_LIMIT}"
    step = "to draw" if state.phase == "draw" else "to play"
    return f"Turn {state.turn}: {SEATS[state.active]} {step}"


def entity_line(state: GammasphereState, entity: Entity) -> str:
    """``#4 Gamma Trooper [attack, tapped] Lv 5 ATK 1600 DEF 1100 +#7 Plasma Blade``."""
    notes: list[str] = []
    if entity.mode:
        notes.append(entity.mode)
    if entity.tapped:
        notes.append("tapped")
    if entity.switched:
        notes.append("switched")
    text = f"#{entity.id} {entity.card}" + (f" [{', '.join(notes)}]" if notes else "")
    card = card_of(state, entity)
    if entity.kind == "character":
        shown = f" Lv {entity.level}" + (
            f" (printed {card.level})" if entity.level != card.level else ""
        )
        text += f"{shown} ATK {attack_of(state, entity)} DEF {defense_of(state, entity)}"
    elif entity.kind == "building":
        text += f" DEF {defense_of(state, entity)}"
    elif entity.kind == "weapon":
        text += f" on #{entity.carrier}"
    carried = [w for w in state.field if w.carrier == entity.id]
    if carried:
        text += " carrying " + ", ".join(
            f"#{w.id} {w.card}" + (f" ({SEATS[w.owner]}'s)" if w.owner != entity.owner else "")
            for w in carried
        )  # a weapon on an opposing carrier stays its player's (GS-I.18)
    return text


def _side_lines(state: GammasphereState, seat: int, viewer: str) -> list[str]:
    own = state.sides[seat]
    lines = [f"{own.seat}: power level {own.power}, gas {own.gas}, jiggawatt pool {own.jiggawatts}"]
    known = f" (known: {own.hand.known.text()})" if own.hand.known else ""
    deck = str(own.deck.count)
    if _may_see_list(viewer, own.seat):  # REF-6.6: what its seat and the referee saw put there
        known += private_text(own.hand)
        deck += private_text(own.deck)
    lines.append(f"  hand {own.hand.count}{known}, deck {deck}")
    entities = [e for e in state.field if e.owner == seat and e.kind != "weapon"]
    pylons = [e for e in entities if e.kind == "pylon"]
    others = [e for e in entities if e.kind != "pylon"]
    for entity in others:
        lines.append("  " + entity_line(state, entity))
    if not others:
        lines.append("  no entities in play")
    if pylons:
        untapped = sum(1 for p in pylons if not p.tapped)
        lines.append(
            f"  pylons {len(pylons)} ({untapped} untapped): "
            + ", ".join(f"#{p.id}{' tapped' if p.tapped else ''}" for p in pylons)
        )
    lines.append(f"  discard pile ({len(own.discard)}): " + (", ".join(own.discard) or "empty"))
    if _may_see_list(viewer, own.seat):
        lines.extend(_list_lines(own))
    return lines


def _list_lines(own: Side) -> list[str]:
    knowledge = own.knowledge
    if not own.registered:
        return [f"  no registered list; deck of {knowledge.size} cards"]
    unaccounted = knowledge.unaccounted()
    if unaccounted is None:  # the list is sealed and not opened yet
        return [f"  sealed list of {knowledge.size} cards (not opened)"]
    return [f"  registered list ({knowledge.size} cards), not yet seen: {unaccounted.text()}"]


def render(state: GammasphereState, viewer: str = REFEREE) -> str:
    """The position as text for ``viewer``: the opponent of the first player on top."""
    lines = [f"Gammasphere TCG (Prototype 3) on {state.cards.title}", status_line(state)]
    for seat in (1 - state.first, state.first):
        lines.append("")
        lines.extend(_side_lines(state, seat, viewer))
    return "\n".join(lines)


def _entity_data(state: GammasphereState, entity: Entity) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": entity.id,
        "card": entity.card,
        "owner": SEATS[entity.owner],
        "kind": entity.kind,
        "tapped": entity.tapped,
    }
    if entity.switched:
        data["switched"] = True
    if entity.kind == "character":
        data.update(
            mode=entity.mode,
            level=entity.level,
            attack=attack_of(state, entity),
            defense=defense_of(state, entity),
        )
    elif entity.kind == "building":
        data["defense"] = defense_of(state, entity)
    elif entity.kind == "weapon":
        data["carrier"] = entity.carrier
    return data


def observe(state: GammasphereState, viewer: str = REFEREE) -> dict[str, Any]:
    """The position as JSON-ready data for ``viewer``."""
    sides = []
    for own in state.sides:
        data: dict[str, Any] = {
            "seat": own.seat,
            "power": own.power,
            "gas": own.gas,
            "jiggawatts": own.jiggawatts,
            "hand": own.hand.count,
            "hand_known": own.hand.known.as_dict(),
            "deck": own.deck.count,
            "discard": list(own.discard),
            "opened": own.opened,
            "registered": own.registered,
        }
        if own.registered:
            data["list"] = own.knowledge.view(_may_see_list(viewer, own.seat))
        if _may_see_list(viewer, own.seat):  # REF-6.6: what its seat and the referee saw
            data.update(private_data(hand=own.hand, deck=own.deck))
        sides.append(data)
    result = None
    ended = finished(state)
    if ended is not None:
        winner = ended.winner
        result = {
            "winner": None if winner is None else SEATS[winner],
            "clause": ended.clause,
            "reason": ended.reason,
        }
    return {
        "game": "gammasphere",
        "catalog": {"title": state.cards.title, "digest": state.cards.digest},
        "variants": msgspec.structs.asdict(state.table),
        "first": SEATS[state.first],
        "turn": state.turn,
        "active": SEATS[state.active],
        "phase": state.phase,
        "sides": sides,
        "field": [_entity_data(state, e) for e in state.field],
        "over": result,
    }


def own_secrets(state: GammasphereState, seat: str) -> frozenset[str]:
    """Names of ``seat``'s registered cards not yet seen and not public (in play, in a
    discard pile, known to be in a hand), whether or not the other seat registered them
    too: what ``seat``'s rejected entry may not tell the others it named (GS-3.5)."""
    unaccounted = state.sides[SEATS.index(seat)].knowledge.unaccounted()
    if unaccounted is None:
        return frozenset()
    public = public_names(state)
    return frozenset(name for name in unaccounted.names() if name not in public)


def public_names(state: GammasphereState) -> frozenset[str]:
    """Names every viewer sees: cards in play, in a discard pile or known to be in a hand."""
    public = {e.card for e in state.field}
    for own in state.sides:
        public.update(own.discard)
        public.update(own.hand.known.names())
    return frozenset(public)


def secrets(state: GammasphereState, seat: str) -> frozenset[str]:
    """Names of ``seat``'s registered cards not yet seen, leaving out names any other
    viewer may see for reasons of its own: a card in play or a discard pile, a card
    known to be in a hand, or one of the other seat's own registered cards."""
    other = state.sides[1 - SEATS.index(seat)].knowledge.listed
    shared = set(other.cards.names()) if other is not None else set()
    return own_secrets(state, seat) - shared


def shown_text(text: str, seat: str | None, viewer: str) -> str:
    """A rejected entry's cards named out of a hand are hidden from the other seats and
    the public: rejected, it took nothing out of hiding (GS-3.5)."""
    if viewer in (REFEREE, seat):
        return text
    return masked_text(text, parse, notation, ("card",))

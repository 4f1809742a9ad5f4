"""Listing the legal Gammasphere entries of a position (``legal_actions``)."""

from __future__ import annotations

from typing import Literal

from referee.games.gammasphere import model
from referee.games.gammasphere.checks import check_action, over_limit
from referee.games.gammasphere.decks import check_from_hand, hand_candidates
from referee.games.gammasphere.model import SEATS, GammasphereAction, GammasphereState
from referee.games.gammasphere.position import (
    OPENING_HAND,
    aimable,
    card_of,
    finished,
    on_buildings,
    self_aimable,
)

__all__ = ["legal_actions"]


# -- legal entries ---------------------------------------------------------------------


def _targets(state: GammasphereState, seat: int, kind: str, itself: bool = False) -> list[int]:
    """The numbers a structured effect aiming at ``kind`` may name, with the number an
    arriving character takes when it may aim at ``itself`` (GS-I.33); with none, the card
    goes without one where the table allows it (GS-I.32)."""
    ids = [e.id for e in aimable(state, seat, kind)]
    if itself:
        ids.append(state.next_id)
    return ids or ([0] if state.table.no_target == "play" else [])


def _plays(state: GammasphereState, seat: int) -> list[GammasphereAction]:
    out: list[GammasphereAction] = []
    for card in hand_candidates(state, seat):
        if card.kind == "pylon":
            out.append(model.Construct(card.name))
            continue
        if card.kind == "weapon":
            carriers = [
                e.id
                for e in state.field
                if (e.owner == seat or state.table.weapon_carriers == "any")
                and (e.kind == "character" or (e.kind == "building" and on_buildings(state, card)))
            ]
            out.extend(model.Play(card.name, "", t) for t in carriers)
        else:
            # a structured effect on arrival aims at a target; a character enters either way
            effect = card.effect if card.plays_effect else None
            aimed = effect is not None and effect.target != "none"
            itself = effect is not None and self_aimable(state, card, effect, True)
            targets = _targets(state, seat, effect.target, itself) if effect and aimed else [0]
            modes: tuple[Literal["", "defense"], ...] = (
                ("", "defense") if card.kind == "character" else ("",)
            )
            out.extend(model.Play(card.name, mode, t) for t in targets for mode in modes)
    return out


def _main_actions(state: GammasphereState, seat: int) -> list[GammasphereAction]:
    out = _plays(state, seat)
    own_chars = [e for e in state.field if e.owner == seat and e.kind == "character"]
    foes = [e.id for e in state.field if e.owner != seat and e.kind == "character"]
    for entity in own_chars:
        if entity.mode == "attack" and not entity.tapped:
            out.extend(model.Attack(entity.id, t) for t in foes)
            if not foes and state.table.direct_attack == "yes":
                out.append(model.Attack(entity.id, 0))
        if not entity.tapped:
            out.append(model.Switch(entity.id, "defense" if entity.mode == "attack" else "attack"))
    for entity in state.field:
        if entity.owner != seat or not card_of(state, entity).activates:
            continue
        effect = card_of(state, entity).effect
        if effect is not None and effect.target != "none":
            out.extend(model.Activate(entity.id, t) for t in _targets(state, seat, effect.target))
        else:
            out.append(model.Activate(entity.id))
    out.append(model.End())
    return out


def legal_actions(state: GammasphereState, seat: str | None = None) -> list[GammasphereAction]:
    """Every entry ``check`` accepts now, by the referee's knowledge (a card named from hand
    is one the hand may hold, GS-3.5). Free-text effects are listed without the optional
    target an entry may name for the record."""
    if finished(state) is not None:
        return []
    if state.phase == "opening":
        seats = (
            [SEATS.index(seat)]
            if seat is not None
            else [i for i, s in enumerate(state.sides) if not s.opened]
        )
        if any(
            not state.sides[i].opened and state.sides[i].deck.count >= OPENING_HAND for i in seats
        ):
            return [model.Draw(OPENING_HAND)]
        return []
    if state.phase == "discard":
        over = over_limit(state)
        if not over:
            return [model.End()] if seat in (None, SEATS[state.active]) else []
        seats = over if seat is None else [i for i in over if SEATS[i] == seat]
        names = dict.fromkeys(
            c.name for i in seats for c in hand_candidates(state, i) if check_from_hand(state, i, c)
        )
        return [model.Discard(name) for name in names]
    index = state.active if seat is None else SEATS.index(seat)
    if index != state.active:
        return []
    if state.phase == "draw":
        return [model.Draw(1)]
    candidates = _main_actions(state, index)
    return [a for a in candidates if check_action(state, a, SEATS[index]).legal]

"""Tribute: a small card game for two or three seats, made to test the contract.

Each round every seat draws at the same time (unseen cards, reported as a count),
then in seat order each plays one card face up. Hands and decks are hidden; the
registered lists (open or sealed) are what the referee knows of them. A Joker's
effect needs the referee's ruling, carried out as an adjustment of a score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from referee.contract import (
    LEGAL,
    ONGOING,
    PUBLIC,
    REFEREE,
    GameRules,
    Outcome,
    Placing,
    Setup,
    Verdict,
    Viewer,
)
from referee.errors import ActionSyntaxError
from referee.kit.adjustments import Change, ChangeResource
from referee.kit.decks import DeckKnowledge, Decklist
from referee.kit.secrecy import masked_text
from referee.kit.zones import HiddenZone

POINTS = {"Ace": 3, "King": 2, "Jack": 1, "Joker": 0}
JOKER_TEXT = "Score whatever the referee judges the table deserves."


class Draw(msgspec.Struct, frozen=True, tag="draw"):
    count: int


class Play(msgspec.Struct, frozen=True, tag="play"):
    card: str


class Pass(msgspec.Struct, frozen=True, tag="pass"):
    pass


Action = Draw | Play | Pass


class SeatState(msgspec.Struct, frozen=True):
    seat: str
    deck: int
    hand: HiddenZone
    knowledge: DeckKnowledge | None
    played: tuple[str, ...] = ()
    score: int = 0
    out: bool = False


class TributeState(msgspec.Struct, frozen=True):
    seats: tuple[SeatState, ...]
    phase: str = "draw"  # draw | play
    drawn: tuple[str, ...] = ()
    turn: int = 0  # index into seats during the play step
    round: int = 1

    def of(self, seat: str) -> SeatState:
        return next(s for s in self.seats if s.seat == seat)

    def put(self, new: SeatState) -> tuple[SeatState, ...]:
        return tuple(new if s.seat == new.seat else s for s in self.seats)


def _playing(state: TributeState) -> list[SeatState]:
    return [s for s in state.seats if not s.out]


def _over(state: TributeState) -> bool:
    return all(s.deck == 0 and s.hand.count == 0 for s in _playing(state))


class TributeRules(GameRules[TributeState, Action]):
    name = "tribute"
    title = "Tribute (test game)"
    seats = ("p1", "p2", "p3")
    min_players = 2
    max_players = 3
    rulesets = ("tribute/1",)
    takes_decks = True
    action_type = Action
    state_type = TributeState

    # -- setup ---------------------------------------------------------------
    def initial_state(self, setup: Setup) -> TributeState:
        seats = []
        for player in setup.players:
            deck = setup.decks.get(player.seat)
            knowledge = DeckKnowledge.registered(player.seat, deck) if deck is not None else None
            seats.append(
                SeatState(
                    player.seat,
                    deck.size if deck is not None else 0,
                    HiddenZone(player.seat),
                    knowledge,
                )
            )
        return TributeState(tuple(seats))

    def check_deck(self, setup: Setup, seat: str, decklist: Decklist) -> Verdict:
        unknown = [name for name in decklist.cards.names() if name not in POINTS]
        if unknown:
            return Verdict.illegal("TR-1.1", f"{', '.join(unknown)} is not a Tribute card")
        if not 2 <= decklist.size <= 12:
            return Verdict.illegal("TR-1.1", f"a deck holds 2 to 12 cards, not {decklist.size}")
        over = [name for name, count in decklist.cards.items if count > 2]
        if over:
            return Verdict.illegal(
                "TR-1.1", f"at most 2 copies of a card; {', '.join(over)} has more"
            )
        return LEGAL

    def check_sealed_size(self, setup: Setup, seat: str, size: int) -> Verdict:
        if not 2 <= size <= 12:
            return Verdict.illegal("TR-1.1", f"a deck holds 2 to 12 cards, not {size}")
        return LEGAL

    def deck_knowledge(self, state: TributeState, seat: str) -> DeckKnowledge | None:
        return state.of(seat).knowledge

    def shown_at_setup(self, setup: Setup, seat: str, decklist: Decklist) -> tuple[str, ...]:
        """No card of a list is in sight before the first draw."""
        return ()

    def with_deck_knowledge(
        self, state: TributeState, seat: str, knowledge: DeckKnowledge
    ) -> TributeState:
        return msgspec.structs.replace(
            state, seats=state.put(msgspec.structs.replace(state.of(seat), knowledge=knowledge))
        )

    # -- play ----------------------------------------------------------------
    def to_act(self, state: TributeState) -> frozenset[str]:
        if _over(state):
            return frozenset()
        if state.phase == "draw":
            return frozenset(s.seat for s in _playing(state) if s.seat not in state.drawn)
        return frozenset((state.seats[state.turn].seat,))

    def legal_actions(self, state: TributeState, seat: str | None = None) -> Sequence[Action]:
        acting = [seat] if seat is not None else sorted(self.to_act(state))
        out: list[Action] = []
        for who in acting:
            if who not in self.to_act(state):
                continue
            me = state.of(who)
            if state.phase == "draw":
                out.append(Draw(min(2, me.deck)))
            elif me.hand.count == 0:
                out.append(Pass())
            else:
                left = me.knowledge.unaccounted() if me.knowledge is not None else None
                names = left.names() if left is not None else sorted(POINTS)
                out.extend(Play(n) for n in names)
        return out

    def check(self, state: TributeState, action: Action, seat: str | None = None) -> Verdict:
        who = seat if seat is not None else next(iter(self.to_act(state)))
        me = state.of(who)
        if isinstance(action, Draw):
            if state.phase != "draw":
                return Verdict.illegal("TR-2.1", "the draw is over for this round; seats now play")
            due = min(2, me.deck)
            if action.count != due:
                return Verdict.illegal(
                    "TR-2.1",
                    f"{who}'s deck holds {me.deck} cards, so {who} draws {due}, not {action.count}",
                )
            return LEGAL
        if state.phase != "play":
            return Verdict.illegal("TR-2.2", "cards are played after every seat has drawn")
        if isinstance(action, Pass):
            if me.hand.count:
                return Verdict.illegal(
                    "TR-2.2", f"{who} holds {me.hand.count} cards and must play one"
                )
            return LEGAL
        if action.card not in POINTS:
            return Verdict.illegal("TR-2.2", f"{action.card} is not a Tribute card")
        if me.hand.count == 0:
            return Verdict.illegal("TR-2.2", f"{who}'s hand is empty; {who} passes")
        if me.knowledge is not None:
            seen = me.knowledge.check_seen(action.card, "REF-5.4")
            if not seen.legal:
                return seen
        if action.card == "Joker":
            return Verdict.ruling("Joker", "TR-2.3", JOKER_TEXT)
        return LEGAL

    def apply(self, state: TributeState, action: Action, seat: str | None = None) -> TributeState:
        who = seat if seat is not None else next(iter(self.to_act(state)))
        me = state.of(who)
        if isinstance(action, Draw):
            me = msgspec.structs.replace(
                me, deck=me.deck - action.count, hand=me.hand.put_unseen(action.count)
            )
            drawn = (*state.drawn, who)
            state = msgspec.structs.replace(state, seats=state.put(me), drawn=drawn)
            if all(s.seat in drawn for s in _playing(state)):
                state = msgspec.structs.replace(state, phase="play", turn=self._next(state, -1))
            return state
        if isinstance(action, Play):
            knowledge = me.knowledge.with_seen(action.card) if me.knowledge is not None else None
            me = msgspec.structs.replace(
                me,
                hand=me.hand.take_known(action.card),
                knowledge=knowledge,
                played=(*me.played, action.card),
                score=me.score + POINTS[action.card],
            )
            state = msgspec.structs.replace(state, seats=state.put(me))
        return self._after_turn(state)

    def _next(self, state: TributeState, after: int) -> int:
        for step in range(1, len(state.seats) + 1):
            index = (after + step) % len(state.seats)
            if not state.seats[index].out:
                return index
        return after

    def _after_turn(self, state: TributeState) -> TributeState:
        following = self._next(state, state.turn)
        if following <= state.turn:  # every seat has played: a new round
            return msgspec.structs.replace(
                state, phase="draw", drawn=(), turn=0, round=state.round + 1
            )
        return msgspec.structs.replace(state, turn=following)

    def outcome(self, state: TributeState) -> Outcome:
        if not _over(state):
            return ONGOING
        playing = sorted(_playing(state), key=lambda s: -s.score)
        placings = [
            Placing(s.seat, 1 + sum(1 for o in playing if o.score > s.score), float(s.score))
            for s in playing
        ]
        gone = [s for s in state.seats if s.out]
        placings += [
            Placing(s.seat, len(playing) + 1 + i, float(s.score))
            for i, s in enumerate(reversed(gone))
        ]
        return Outcome.ranked(placings, "TR-3.1", "no cards are left to play")

    def withdraw(self, state: TributeState, seat: str) -> TributeState | None:
        me = msgspec.structs.replace(state.of(seat), out=True)
        state = msgspec.structs.replace(state, seats=state.put(me))
        if state.phase == "play" and state.seats[state.turn].seat == seat:
            state = self._after_turn(state)
        elif state.phase == "draw" and all(s.seat in state.drawn for s in _playing(state)):
            state = msgspec.structs.replace(state, phase="play", turn=self._next(state, -1))
        return state

    # -- adjustments -----------------------------------------------------------
    def check_change(self, state: TributeState, change: Change) -> Verdict:
        if not isinstance(change, ChangeResource) or change.resource != "score":
            return Verdict.illegal(
                "REF-6.3", "Tribute adjusts only scores: resource SEAT score +N|-N"
            )
        if change.seat not in [s.seat for s in state.seats]:
            return Verdict.illegal("REF-6.3", f"{change.seat} is not playing")
        if state.of(change.seat).score + change.amount < 0:
            return Verdict.illegal("REF-6.3", f"{change.seat}'s score cannot fall below zero")
        return LEGAL

    def apply_change(self, state: TributeState, change: Change) -> TributeState:
        assert isinstance(change, ChangeResource)
        me = state.of(change.seat)
        return msgspec.structs.replace(
            state, seats=state.put(msgspec.structs.replace(me, score=me.score + change.amount))
        )

    # -- notation --------------------------------------------------------------
    def parse(self, text: str) -> Action:
        words = text.split()
        if (
            len(words) == 2
            and words[0].lower() == "draw"
            and words[1].isdigit()
            and len(words[1]) < 3
        ):
            return Draw(int(words[1]))
        if len(words) == 2 and words[0].lower() == "play":
            return Play(words[1].capitalize())
        if [w.lower() for w in words] == ["pass"]:
            return Pass()
        raise ActionSyntaxError(text, "write draw N, play CARD or pass", "TR-4.1")

    def notation(self, action: Action) -> str:
        if isinstance(action, Draw):
            return f"draw {action.count}"
        if isinstance(action, Play):
            return f"play {action.card}"
        return "pass"

    def shown_text(self, text: str, seat: str | None, viewer: Viewer) -> str:
        """A rejected play's card stays in the hand: only its seat and the referee read it."""
        if viewer in (REFEREE, seat):
            return text
        return masked_text(text, self.parse, self.notation, ("card",))

    # -- views -----------------------------------------------------------------
    def observe(self, state: TributeState, viewer: Viewer = REFEREE) -> dict[str, Any]:
        seats = {}
        for s in state.seats:
            entry: dict[str, Any] = {
                "deck": s.deck,
                "hand": s.hand.count,
                "played": list(s.played),
                "score": s.score,
                "out": s.out,
            }
            if s.knowledge is not None:
                entry["list"] = s.knowledge.view(viewer in (REFEREE, s.seat))
            seats[s.seat] = entry
        return {
            "round": state.round,
            "phase": state.phase,
            "drawn": list(state.drawn),
            "seats": seats,
            "viewer": viewer,
        }

    def render(self, state: TributeState, viewer: Viewer = REFEREE) -> str:
        lines = [f"round {state.round}, {state.phase}"]
        for s in state.seats:
            line = (
                f"  {s.seat}: score {s.score}, deck {s.deck}, hand {s.hand.count}, played "
                f"{' '.join(s.played) or '-'}"
            )
            if (
                s.knowledge is not None
                and s.knowledge.listed is not None
                and viewer in (REFEREE, s.seat)
            ):
                left = s.knowledge.unaccounted()
                line += f"; list left: {left.text() if left is not None else '?'}"
            lines.append(line + (" (out)" if s.out else ""))
        return "\n".join(lines)

    def secrets(self, state: TributeState, seat: str) -> frozenset[str]:
        """Names of the seat's listed cards not yet seen anywhere (nor in another seat's list)."""
        me = state.of(seat)
        if me.knowledge is None or me.knowledge.listed is None:
            return frozenset()
        left = me.knowledge.unaccounted()
        public = {c for s in state.seats for c in s.played}
        others = {
            name
            for s in state.seats
            if s.seat != seat and s.knowledge is not None and s.knowledge.listed is not None
            for name in s.knowledge.listed.cards.names()
        }
        return frozenset(n for n in (left.names() if left else []) if n not in public | others)


__all__ = ["PUBLIC", "TributeRules", "TributeState"]

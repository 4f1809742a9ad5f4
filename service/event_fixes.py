"""Fixing an event's mistakes in place, and the event's decklists and draw: the commands
of ``referee event undo-round / undrop / change / penalty withdraw / deck`` and the reads
of round 1's draw (EV-1.5, EV-2.7, EV-2.8, EV-5.6, EV-5.13, EV-8.7).

A part of the event service over ``Tournaments`` (same loading, deciding and appending,
``service.event_service``): each command asks
the pure core (``referee.tournament.fixing``) for new facts and stores them; nothing
stored is ever edited. Games a fact makes void are closed in their own streams in the
same transaction (``Tournaments.void_closings``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from referee.errors import DeckError
from referee.kit.decks import Deck, parse_decklist
from referee.tournament import facts as f
from referee.tournament import fixing
from referee.tournament.draw import draw_key
from service.access import AccessDeniedError, Principal
from service.bounds import check_cut, check_rounds
from service.errors import RefusedError
from service.postings import DecklistNote, PenaltyLine, penalty_lines
from service.tournaments import (
    EventInfo,
    EventRefusedError,
    PairingRow,
    Tournaments,
    event_write,
)

__all__ = ["DeckReceived", "DrawInfo", "EntrantRow", "EventFixes", "Repaired", "Undone"]


class DeckReceived(msgspec.Struct, kw_only=True):
    """A player's own event decklist received (EV-2.8): their name, the list's size in
    cards, and the round whose pairing locks it (until then it may be replaced)."""

    player: str
    cards: int
    lock_round: int


class Undone(msgspec.Struct, kw_only=True):
    """A round taken back: its number and the games closed as void."""

    round: int
    voided: list[str]


class DrawLine(msgspec.Struct, kw_only=True):
    """A player's place in round 1's order: id, name, the rating that seeds them (``None``:
    none, EV-2.11) and the SHA-256 key that orders them after it."""

    player: str
    name: str
    key: str
    rating: int | None = None


class DrawInfo(msgspec.Struct, kw_only=True):
    """How round 1's order was drawn (EV-5.6): the seed and each player's key and rating,
    in round 1's order (by rating where given, then the keys, smallest first); ``seed`` is
    ``None`` for an event made before seeds were recorded."""

    seed: int | None
    rule: str
    order: list[DrawLine]


class EntrantRow(msgspec.Struct, kw_only=True):
    """A registered player as the organizer lists them: event id, name, id across the house,
    rating (``None``: none, EV-2.11), first round (above 1: a late entry, EV-2.3) and the
    round they dropped after (``None``: still in)."""

    player: str
    name: str
    player_id: str
    rating: int | None
    entry_round: int
    dropped_after: int | None


DRAW_RULE = "players sorted by sha256('SEED:1:PLAYER-ID') in hex, smallest first"
RATED_RULE = (
    "players with a rating first, highest first (EV-5.6); equal ratings, and the players "
    "without one after them, by sha256('SEED:1:PLAYER-ID') in hex, smallest first"
)


class EventFixes(Tournaments):
    """The event commands that put a mistake right (a part of the event service)."""

    @event_write("run")
    def event_repair_moves(
        self, event_id: str, manual: dict[str, Any] | None = None, *, reason: str, by: str = ""
    ) -> Repaired:
        """Re-pair the open round (EV-5.12): with the engine (tables with a result keep
        it), or by hand (``manual``); the new pairings, the tables kept and what moved."""
        state = self._event(event_id).state
        number = state.current_round
        before = self.event_pairings(event_id) if number else []
        results = {
            key[1]
            for key, table in state.tables.items()
            if key[0] == number and (table.reported is not None or table.game_results)
        }
        after = self.event_repair(event_id, manual, reason=reason, by=by)
        return repaired(number, before, after, results)

    @event_write("run")
    def event_undo_round(self, event_id: str, *, reason: str, by: str = "") -> Undone:
        """Take back the latest round before its first result (EV-5.13): its pairings are
        no longer met, its games are closed as void."""
        loaded = self._event(event_id)
        before = loaded.state
        facts = self._decide(before, fixing.UndoRound(reason=reason, by=by))
        self._append(loaded, facts)
        fact = facts[0]
        assert isinstance(fact, f.RoundUndone)
        return Undone(
            round=fact.round,
            voided=sorted(g for g in loaded.state.voided if g not in before.voided),
        )

    @event_write("run")
    def event_undrop(self, event_id: str, player: str, *, reason: str, by: str = "") -> str:
        """Return a dropped player (EV-2.7); their display name."""
        loaded, facts = self._write(event_id, fixing.Undrop(player=player, reason=reason, by=by))
        fact = facts[0]
        assert isinstance(fact, f.PlayerUndropped)
        return loaded.state.players[fact.player].name

    @event_write("run")
    def event_correct_rating(
        self, event_id: str, player: str, rating: int | None, *, reason: str, by: str = ""
    ) -> str:
        """Correct a player's rating (``None``: none) until round 1 is paired (EV-2.11),
        with a reason; their display name."""
        command = fixing.CorrectRating(player=player, rating=rating, reason=reason, by=by)
        loaded, facts = self._write(event_id, command)
        fact = facts[0]
        assert isinstance(fact, f.RatingCorrected)
        return loaded.state.players[fact.player].name

    @event_write("run")
    def event_change(
        self,
        event_id: str,
        *,
        rounds: int | None = None,
        cut: int | None = None,
        reason: str,
        by: str = "",
    ) -> EventInfo:
        """Change the number of Swiss rounds or the cut while still possible (EV-1.5),
        within the bounds ``event new`` keeps (``service.bounds``)."""
        try:
            check_rounds(rounds)
            check_cut(cut if cut is not None else 0)
        except RefusedError as exc:
            raise EventRefusedError("EV-1.5", str(exc)) from None
        self._write(event_id, fixing.ChangeSettings(rounds=rounds, cut=cut, reason=reason, by=by))
        return self.event_info(event_id)

    @event_write("run")
    def event_penalty_withdraw(
        self, event_id: str, number: int, *, reason: str, by: str = "", result: str | None = None
    ) -> list[str]:
        """Withdraw the event's penalty ``number`` (EV-8.7); what reversing it stored, in
        words (the withdrawal, an undrop, a corrected result)."""
        command = fixing.WithdrawPenalty(penalty=number, reason=reason, by=by, result=result)
        loaded, facts = self._write(event_id, command)
        from events.tournament import summary, to_stored
        from service.eventprint import named_lines

        header = self._header(loaded.event_id)
        lines = [summary(to_stored(fact, header)) for fact in facts]
        return named_lines(lines, loaded.state)  # people by name, as the log names them

    @event_write("run")
    def event_attach_deck(self, event_id: str, player: str, deck: Deck, *, by: str = "") -> str:
        """Attach or replace a player's event decklist before their first round is paired
        (EV-2.8); their display name. The list is checked as at registration; the list the
        player already has is refused (compared by digest: the facts do not hold lists)."""
        from referee.kit.decks import deck_digest

        loaded = self._event(event_id)
        who = loaded.state.find(player)
        held = loaded.decks.get(who) if who is not None else None
        command = fixing.AttachDecklist(
            player=player,
            by=by,
            digest=deck_digest(deck),
            held=deck_digest(held) if held is not None else "",
        )
        facts = self._decide(loaded.state, command)
        self._check_event_deck(loaded, deck)
        self._append(loaded, facts, extra={0: {"deck": deck}})
        fact = facts[0]
        assert isinstance(fact, f.DecklistAttached)
        return loaded.state.players[fact.player].name

    @event_write(None, as_who=True)
    def decklist_as(self, who: Principal, event_id: str, decklist: str) -> DeckReceived:
        """A player hands in, or replaces, their OWN event decklist (``decklist``: the
        list's text, one card a line, as ``event deck --deck FILE`` reads it) until the
        deadline round is paired (EV-2.8). Only a player's token, and only for the
        registered player it is (``holder``): nobody names another player's list here.
        Checked and stored as the head's ``event_attach_deck`` (the same call: the lock,
        the list already held, the game's construction rules, its deck size), recorded as
        by the player (their event id, as a judge call records a player)."""
        if who.role != "player":
            raise AccessDeniedError(
                "a player hands in their own decklist here; the head referee attaches a "
                "player's (POST /api/events/ID/players/NAME/decklist, the desk)"
            )
        found = self._event(event_id, check=False).holder(who.player_id, who.name)
        if found is None:
            raise EventRefusedError("EV-2.8", f"{who.name} is not a player of this event")
        # the deadline first (and an ended event): after it, what the list says is moot
        self._decide(self._event(event_id).state, fixing.AttachDecklist(player=found))
        try:
            deck = parse_decklist(decklist, "the decklist")
        except DeckError as exc:  # "the decklist:3: cannot read ...", "... names no cards"
            raise EventRefusedError("EV-2.8", str(exc)) from None
        name = self.event_attach_deck(event_id, found, deck, by=found)
        lock = fixing.decklist_lock_round(self._event(event_id).state, found)
        return DeckReceived(player=name, cards=deck.size, lock_round=lock)

    def event_missing_decks(self, event_id: str, *, unlocked: bool = False) -> list[str]:
        """In an event of a game played with decks, the active players with no event
        decklist, by name (EV-2.8), each named where it is still of use: by default those
        whose list the latest round's pairing locked (what that pairing warns about, and
        that round's slips); with ``unlocked``, those who may still hand one in, before the
        next pairing (the desk). A list locked at an earlier round is not named again at
        every later pairing: after the lock only the head judge can do anything about it."""
        from referee import games
        from referee.capabilities import decks_of

        loaded = self._event(event_id)
        state = loaded.state
        assert state.settings is not None
        if decks_of(games.load(state.settings.game)) is None:
            return []
        number = state.current_round
        if unlocked:
            return [
                e.name
                for e in state.active(number + 1)
                if e.id not in loaded.decks and fixing.decklist_lock_round(state, e.id) > number
            ]
        number = max(number, 1)
        return [
            e.name
            for e in state.active(number)
            if e.id not in loaded.decks and fixing.decklist_lock_round(state, e.id) == number
        ]

    def event_penalty_lines(self, event_id: str) -> list[PenaltyLine]:
        """The event's penalties in order, each with where it took effect (EV-8.6) and
        whether it is withdrawn (EV-8.7): what staff read before withdrawing one."""
        return penalty_lines(self._event(event_id).state)

    def event_decklist_note(self, event_id: str, player_name: str) -> DecklistNote | None:
        """Whether ``player_name`` has handed in their event decklist and until which round
        they may (EV-2.8: the lists lock when the deadline round, or the player's first, is
        paired); ``None`` in an event of a game played without decks, or for no player."""
        from referee import games
        from referee.capabilities import decks_of

        loaded = self._event(event_id)
        state = loaded.state
        assert state.settings is not None
        found = state.find(player_name)
        if found is None or decks_of(games.load(state.settings.game)) is None:
            return None
        lock = fixing.decklist_lock_round(state, found)
        return DecklistNote(
            received=found in loaded.decks, lock_round=lock, locked=lock <= state.current_round
        )

    def event_players(self, event_id: str) -> list[EntrantRow]:
        """Every registered player in registration order, with their rating (EV-2.11)."""
        state = self._event(event_id).state
        return [
            EntrantRow(
                player=e.id,
                name=e.name,
                player_id=e.player_id if isinstance(e.player_id, str) else "",
                rating=e.rating,
                entry_round=e.entry_round,
                dropped_after=e.dropped_after,
            )
            for e in sorted(state.players.values(), key=lambda e: e.order)
        ]

    def event_draw(self, event_id: str) -> DrawInfo:
        """Round 1's draw (EV-5.6): the recorded seed and each round-1 player's key, in the
        drawn order, so anyone can redo it."""
        state = self._event(event_id).state
        assert state.settings is not None
        seed = state.settings.seed
        if not isinstance(seed, int):
            return DrawInfo(seed=None, rule="registration order (no seed recorded)", order=[])
        players = [e for e in state.players.values() if e.entry_round == 1]
        lines = [
            DrawLine(player=e.id, name=e.name, key=draw_key(seed, 1, e.id), rating=e.rating)
            for e in players
        ]
        # the core's order for round 1 (``Tournament.seats``): ratings, then the draw
        lines.sort(key=lambda line: (line.rating is None, -(line.rating or 0), line.key))
        rated = any(line.rating is not None for line in lines)
        return DrawInfo(seed=seed, rule=RATED_RULE if rated else DRAW_RULE, order=lines)


class Repaired(msgspec.Struct, kw_only=True):
    """A re-paired round (EV-5.12): the new pairings, the tables kept with their result,
    and each move in words (``Ann: table 2 v Ben -> table 1 v Cal``)."""

    round: int
    pairings: list[PairingRow]
    kept: list[int]
    moved: list[str]


def _seats(rows: list[PairingRow]) -> dict[str, str]:
    out: dict[str, str] = {}
    for row in rows:
        for player in row.players:
            others = [p for p in row.players if p != player]
            out[player] = "bye" if row.bye else f"table {row.table} v {', '.join(others)}"
    return out


def repaired(
    number: int, before: list[PairingRow], after: list[PairingRow], results: set[int]
) -> Repaired:
    """What moved between two pairings of round ``number``; ``results``: tables of
    ``before`` that had a result."""
    was, now = _seats(before), _seats(after)
    moved = [
        f"{player}: {was.get(player, 'not paired')} -> {now.get(player, 'not paired')}"
        for player in sorted(set(was) | set(now))
        if was.get(player) != now.get(player)
    ]
    kept = sorted(t for t in results if any(r.table == t for r in after))
    return Repaired(round=number, pairings=after, kept=kept, moved=moved)

"""The write side of the application layer: every command a referee gives.

Each command loads the game, checks the referee procedure and the game's rules,
and appends its events in one atomic write at the version it read; a refusal
raises before anything is written. Randomness (seeds, salts, ids) is drawn here,
never in the rules core.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from events.schema import (
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    AdjustmentRecorded,
    DeckOpened,
    DeckRegistered,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    GameCreated,
    GameEnded,
    GameEvent,
    PenaltyIssued,
    PenaltyLevel,
    ResultVoided,
    RulingDecision,
    RulingLevel,
    SeatWithdrawn,
)
from events.store import GameNotFoundError, GameStore
from events.view import Dispute, GameView
from referee import games
from referee.capabilities import adjustments_of, decks_of, withdrawals_of
from referee.contract import Player, Setup
from referee.errors import SetupError
from referee.kit.adjustments import Change, adjustment_notation, parse_adjustment
from referee.kit.decks import Deck, Decklist, SealedDeck, seal
from referee.outcomes import Placing, parse_ranking
from referee.verdicts import Verdict, Violation
from service.access import PLAYER_ID, PLAYER_ID_WORDS
from service.entries import EntryCommand, decide_entry
from service.errors import InvalidCommandError, StaleVersionError
from service.procedure import (
    active_seats,
    declared_result,
    header,
    require_open,
    result_by_rule,
    seat_of,
    summaries,
    valid_clause,
)
from service.results import CorrectionResult, EntryResult, ResultInfo, WrittenEvents
from service.setup import resolve_options

if TYPE_CHECKING:
    from service.access import Principal

__all__ = ["Commands"]

EndKind = Literal["resignation", "agreement", "adjudication"]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class Commands:
    """Commands of the referee service (mixed into ``RefereeService``)."""

    store: GameStore
    clock: Callable[[], datetime]
    draw_seed: Callable[[], int]
    resolve: Callable[[str], str]

    # -- shared ------------------------------------------------------------
    def load(self, ref: str) -> GameView:
        """A game by id or unique ending of its id, folded from its events."""
        try:  # a whole id: its events are read at once, with no separate lookup first
            return self.store.load(ref)
        except GameNotFoundError:
            return self.store.load(self.resolve(ref))

    def _header(self, game_id: str) -> dict[str, Any]:
        return header(game_id, self.clock())

    def _written(self, view: GameView, written: Sequence[GameEvent]) -> WrittenEvents:
        ended = next((e for e in written if isinstance(e, GameEnded)), None)
        return WrittenEvents(
            game_id=view.game_id,
            events=[e.originator_version for e in written],
            summaries=summaries(written),
            version=view.version,
            ended=ResultInfo.of(ended, view.seats) if ended else None,
        )

    def _corrected(
        self, view: GameView, written: Sequence[GameEvent], retracted: list[int]
    ) -> CorrectionResult:
        base = self._written(view, written)
        return CorrectionResult(
            game_id=base.game_id,
            events=base.events,
            summaries=base.summaries,
            version=base.version,
            ended=base.ended,
            retracted=retracted,
        )

    def _append_to_game(
        self, view: GameView, new: Sequence[GameEvent], *, applied: Any = None
    ) -> list[GameEvent]:
        """Append ``new`` to the game. A game of an event's match that ends here has its
        match updated in the SAME transaction (the result, the next game): a crash can
        never leave a finished game its match did not hear of. Undoing the end of a game
        the match counted (a retraction after the end, a voided result) is refused
        (EV-8.5): the head corrects the table with ``event correct``."""
        event_id = view.created.meta.get("event", "")
        if not event_id:
            return self.store.append(view, new, applied=applied)
        if view.ended is not None and any(
            isinstance(e, ActionRetracted | ResultVoided) for e in new
        ):
            check: Callable[[GameCreated], None] | None = getattr(self, "check_game_reopened", None)
            if check is not None:
                check(view.created)
        ended = next((e for e in new if isinstance(e, GameEnded)), None)
        plan: Callable[[GameCreated, GameEnded], Any] | None = getattr(self, "match_update", None)
        update = plan(view.created, ended) if ended is not None and plan is not None else None
        if update is None:
            return self.store.append(view, new, applied=applied)
        written, others = self.store.append_with(view, new, update.batches, applied=applied)
        update.folded(others[0])
        return written

    @staticmethod
    def _check_version(view: GameView, expected: int | None) -> None:
        if expected is not None and expected != view.version:
            raise StaleVersionError(view.game_id, expected, view.version)

    # -- starting a game ---------------------------------------------------
    def create_game(
        self,
        game: str,
        players: Mapping[str, str] | Sequence[Player],
        *,
        ruleset: str | None = None,
        variants: Mapping[str, str] | None = None,
        options: Mapping[str, Any] | None = None,
        decks: Mapping[str, Deck] | None = None,
        by: str = "",
        game_id: str | None = None,
        meta: Mapping[str, str] | None = None,
        raw_options: bool = True,
        imported_from: str | None = None,
    ) -> GameView:
        """Start a game: the setup is completed (seeds drawn), checked by the game's rules,
        and stored with any decklists in one append.

        ``options`` are a face's raw values (converted by the game's setup fields,
        missing seeds drawn), or, with ``raw_options=False``, a recorded setup's
        options taken as they are. ``meta`` holds the tournament's labels (event,
        site, round, table)."""
        rules = games.load(game)
        seated = (
            [Player(s, n) for s, n in players.items()]
            if isinstance(players, Mapping)
            else list(players)
        )
        seated = [Player(p.seat, " ".join(p.name.split()), p.id.strip()) for p in seated]
        if any(not p.name for p in seated):
            raise SetupError("every player needs a name")
        for player in seated:
            if player.id and not PLAYER_ID.fullmatch(player.id):
                raise SetupError(f"{player.seat}'s player id {player.id!r}: {PLAYER_ID_WORDS}")
        folded = [p.id or p.name.casefold() for p in seated]  # ids tell same names apart
        if raw_options and len(set(folded)) != len(folded):  # a record keeps what it says
            raise SetupError("one person cannot sit in two seats; each seat needs its own player")
        for player in seated:
            if player.seat not in rules.seats:
                raise SetupError(
                    f"{rules.name} has seats {', '.join(rules.seats)}; not {player.seat!r}"
                )
        chosen = (
            resolve_options(rules, options or {}, self.draw_seed)
            if raw_options
            else dict(options or {})
        )
        labels = {k: " ".join(str(v).split()) for k, v in (meta or {}).items() if str(v).strip()}
        setup = rules.resolve_setup(
            Setup(
                players=tuple(seated),
                ruleset=ruleset,
                variants=dict(variants or {}),
                options=chosen,
            )
        )
        rules.start(setup)  # raises on a setup the game cannot start from
        game_id = game_id or self.store.new_game_id(rules.name)
        base = self._header(game_id)
        new: list[GameEvent] = [
            GameCreated(
                **base,
                game=rules.name,
                ruleset=str(setup.ruleset),
                variants=setup.variants,
                players=setup.players,
                options=setup.options,
                created_by=by,
                meta=labels,
                imported_from=imported_from,
            )
        ]
        for seat, deck in (decks or {}).items():
            if seat not in setup.seats:
                raise SetupError(f"a deck is registered for {seat!r}, who is not playing")
            self._check_deck(rules, setup, seat, deck)
            new.append(DeckRegistered(**base, seat=seat, deck=deck, by=by))
        self.store.append(None, new)
        return self.store.load(game_id)

    @staticmethod
    def _check_deck(rules: Any, setup: Setup, seat: str, deck: Deck) -> None:
        decks = decks_of(rules)
        if decks is None:
            raise InvalidCommandError("REF-5.1", f"{rules.name} is not played with decklists")
        if isinstance(deck, Decklist):
            verdict = decks.check_deck(setup, seat, deck)
            if verdict.violations:
                raise InvalidCommandError(
                    verdict.violations[0].clause,
                    f"{seat}'s decklist breaks the construction rules: "
                    + "; ".join(f"{v.clause}: {v.reason}" for v in verdict.violations),
                )
        elif deck.size < 1:
            raise InvalidCommandError("REF-5.2", "a sealed list must say how many cards it holds")
        elif wrong := decks.check_sealed_size(setup, seat, deck.size).violations:
            raise InvalidCommandError(wrong[0].clause, wrong[0].reason)

    def register_deck(
        self, ref: str, who: str, deck: Deck, *, by: str = "", expected_version: int | None = None
    ) -> WrittenEvents:
        """Register (or, before play, replace) a seat's decklist, open or sealed
        (REF-5.1, REF-5.2)."""
        view = self.load(ref)
        self._check_version(view, expected_version)
        seat = seat_of(view, who)
        if view.standing:
            raise InvalidCommandError("REF-5.1", "decklists are registered before the first action")
        require_open(view)
        self._check_deck(view.rules, view.setup, seat, deck)
        written = self._append_to_game(
            view, [DeckRegistered(**self._header(view.game_id), seat=seat, deck=deck, by=by)]
        )
        return self._written(view, written)

    def seal_decklist(self, decklist: Decklist) -> tuple[SealedDeck, str]:
        """A sealed registration of ``decklist`` and the salt the player keeps to open it."""
        salt = secrets.token_hex(16)
        return seal(decklist, salt), salt

    def open_deck(
        self, ref: str, who: str, decklist: Decklist, salt: str, *, by: str = ""
    ) -> EntryResult:
        """Open a sealed list at a deck check or at the end (REF-5.3). A list that does not
        open the seal, or misses a card seen in play, is kept as evidence with its clauses."""
        view = self.load(ref)
        seat = seat_of(view, who)
        decks = decks_of(view.rules)
        knowledge = decks.deck_knowledge(view.state, seat) if decks is not None else None
        if decks is None or knowledge is None:
            raise InvalidCommandError("REF-5.3", f"{seat} has no registered decklist in this game")
        verdict = knowledge.check_open(decklist, salt, "REF-5.3")
        if verdict.legal:
            construction = decks.check_deck(view.setup, seat, decklist)
            verdict = Verdict(verdict.violations + construction.violations)
        (event,) = self._append_to_game(
            view,
            [
                DeckOpened(
                    **self._header(view.game_id),
                    seat=seat,
                    decklist=decklist,
                    salt=salt,
                    violations=verdict.violations,
                    by=by,
                )
            ],
        )
        return EntryResult(
            game_id=view.game_id,
            status="recorded" if verdict.legal else "rejected",
            accepted=verdict.legal,
            text=f"open {seat}'s sealed list",
            seat=seat,
            notation=None,
            violations=list(verdict.violations),
            event=event.originator_version,
            version=view.version,
        )

    # -- entries -----------------------------------------------------------
    def keep_rejection(
        self,
        ref: str,
        text: str,
        *,
        seq: int,
        actor: str | None,
        violations: Sequence[Violation],
        by: str = "",
    ) -> GameEvent:
        """Store a rejection as a record states it, without judging the entry again.

        For imports of a viewer's record (REF-8.1): its hidden cards are left out, so the
        entry cannot be judged as it was at the table; the rejection is evidence and
        changes nothing (REF-1.4). ``seq`` must be the number the next action would take."""
        view = self.load(ref)
        if seq != view.ply + 1:
            raise InvalidCommandError(
                "REF-8.1", f"a rejection for action {seq}; the game is at action {view.ply + 1}"
            )
        if not violations:
            raise InvalidCommandError("REF-8.1", "a rejection names at least one clause")
        if actor is not None and actor not in view.seats:
            raise InvalidCommandError("REF-8.1", f"no seat {actor!r} in this game")
        (rejected,) = self._append_to_game(
            view,
            [
                ActionRejected(
                    **self._header(view.game_id),
                    seq=seq,
                    actor=actor,
                    text=text,
                    violations=tuple(violations),
                    recorded_by=by,
                )
            ],
        )
        return rejected

    def record(
        self,
        ref: str,
        text: str,
        *,
        actor: str | None = None,
        by: str = "",
        dry_run: bool = False,
        expected_version: int | None = None,
        view: GameView | None = None,
        keep_unreadable: bool = False,
        principal: Principal | None = None,
    ) -> EntryResult:
        """Check one entry and record it, or record its rejection as evidence: load the
        game, judge the entry (``service.entries.decide_entry``, the pure decision), and
        append what it decided at the version it was decided on.

        Text that is not an action of the game is refused (``UnreadableEntryError``,
        nothing stored, REF-1.1); ``dry_run`` only says whether it would be legal.
        An entry on a finished game is refused too (``InvalidCommandError``, REF-1.3).
        ``keep_unreadable`` is for imports of records written before REF-1.1 and REF-1.3
        refused such text, which kept it as a rejection. ``principal``: a face's caller,
        who must be allowed to record (or check) in this game. ``view`` is the service's
        own (imports replaying a record); it is advanced by what is appended."""
        view = view or self.load(ref)
        if principal is not None:
            from service.access import authorize  # a face's caller; the command line has none

            authorize(principal, "check" if dry_run else "record", view)
        command = EntryCommand(
            text,
            self.clock(),
            actor=actor,
            by=by,
            dry_run=dry_run,
            expected_version=expected_version,
            keep_unreadable=keep_unreadable,
        )
        decision = decide_entry(view, command)
        if decision.new:
            self._append_to_game(view, decision.new, applied=decision.applied)
        return decision.result

    # -- corrections -------------------------------------------------------
    def _check_retractable(self, view: GameView, count: int) -> None:
        if view.ended is not None and view.ended.how != "rule":
            raise InvalidCommandError(
                "REF-2.2",
                f"the game was closed by {view.ended.how}; it cannot be corrected by retraction",
            )
        if not view.standing:
            raise InvalidCommandError("REF-2.1", "there is no standing action to retract")
        if view.withdrawn and view.withdrawn[-1][1] > view.ply - count:
            raise InvalidCommandError(
                "REF-3.5",
                f"{view.withdrawn[-1][0].seat} withdrew after action {view.withdrawn[-1][1]}; "
                "actions before a withdrawal cannot be retracted",
            )

    def retract(
        self, ref: str, reason: str, *, by: str = "", expected_version: int | None = None
    ) -> CorrectionResult:
        """Take back the latest standing action (REF-2.1), with its adjustments (REF-2.4)."""
        view = self.load(ref)
        self._check_version(view, expected_version)
        self._check_retractable(view, 1)
        if not reason.strip():
            raise InvalidCommandError("REF-2.1", "a retraction needs a reason")
        last = view.standing[-1]
        written = self._append_to_game(
            view,
            [
                ActionRetracted(
                    **self._header(view.game_id),
                    seq=last.seq,
                    event=last.originator_version,
                    reason=reason,
                    by=by,
                )
            ],
        )
        return self._corrected(view, written, [last.seq])

    def backup(
        self,
        ref: str,
        to_action: int,
        reason: str,
        *,
        by: str = "",
        expected_version: int | None = None,
    ) -> CorrectionResult:
        """Back the game up to the position after action ``to_action``: every later action
        is retracted, newest first, in one correction with one reason (REF-2.3)."""
        view = self.load(ref)
        self._check_version(view, expected_version)
        if not 0 <= to_action < view.ply:
            raise InvalidCommandError(
                "REF-2.3",
                f"back up to an action before the last: 0 to {view.ply - 1} (the game has "
                f"{view.ply})",
            )
        count = view.ply - to_action
        self._check_retractable(view, count)
        if not reason.strip():
            raise InvalidCommandError("REF-2.3", "a backup needs a reason")
        base = self._header(view.game_id)
        note = f"backup to action {to_action}: {reason}"
        new = [
            ActionRetracted(**base, seq=a.seq, event=a.originator_version, reason=note, by=by)
            for a in reversed(view.standing[to_action:])
        ]
        written = self._append_to_game(view, new)
        return self._corrected(view, written, [e.seq for e in new])

    # -- results -----------------------------------------------------------
    def end(
        self,
        ref: str,
        how: EndKind,
        *,
        who: str | None = None,
        ranking: str | None = None,
        reason: str = "",
        by: str = "",
        expected_version: int | None = None,
    ) -> WrittenEvents:
        """End a game (or, with three or more seats, withdraw one seat) by resignation,
        agreement or adjudication (REF-3.2 to REF-3.6).

        ``who`` is the resigning seat, or the winner of an adjudication (``None`` or
        ``draw`` for a drawn adjudication); ``ranking`` (``p2>p1=p3``) adjudicates a
        multiplayer result."""
        view = self.load(ref)
        self._check_version(view, expected_version)
        require_open(view)
        base = self._header(view.game_id)
        playing = active_seats(view)
        if how == "resignation":
            if who is None:
                raise InvalidCommandError("REF-3.2", "name the resigning seat or player")
            seat = seat_of(view, who)
            if seat not in playing:
                raise InvalidCommandError("REF-3.5", f"{seat} already withdrew from this game")
            return self._leave(
                view,
                seat,
                "resignation",
                "REF-3.2" if len(view.seats) == 2 else "REF-3.5",
                reason or f"{seat} resigned",
                by,
            )
        if how == "agreement":
            top = [Placing(s, 1) for s in playing]
            ended = declared_result(
                view,
                base,
                how="agreement",
                clause="REF-3.3",
                reason=reason or "draw agreed by the players",
                by=by,
                top=top,
            )
        else:
            if not reason.strip():
                raise InvalidCommandError("REF-3.4", "an adjudication needs a written reason")
            if ranking is not None:
                try:
                    placed = parse_ranking(ranking, playing, withdrawn=view.withdrawn_seats())
                except ValueError as exc:
                    raise InvalidCommandError("REF-3.6", str(exc)) from None
                top = list(placed)
                clause = "REF-3.6"
            elif who is None or who.strip().lower() == "draw":
                top = [Placing(s, 1) for s in playing]
                clause = "REF-3.4"
            else:
                winner = seat_of(view, who)
                if winner not in playing:
                    raise InvalidCommandError(
                        "REF-3.4", f"{winner} withdrew from this game and cannot win it"
                    )
                if len(playing) > 2:
                    raise InvalidCommandError(
                        "REF-3.6",
                        f"{len(playing)} seats are still playing: adjudicate a whole ranking "
                        "(for example --ranking p2>p1=p3)",
                    )
                top = [Placing(s, 1 if s == winner else 2) for s in playing]
                clause = "REF-3.4"
            ended = declared_result(
                view, base, how="adjudication", clause=clause, reason=reason, by=by, top=top
            )
        written = self._append_to_game(view, [ended])
        return self._written(view, written)

    def _leave(
        self,
        view: GameView,
        seat: str,
        how: Literal["resignation", "penalty"],
        clause: str,
        reason: str,
        by: str,
        prefix: Sequence[GameEvent] = (),
    ) -> WrittenEvents:
        """A seat leaves: the game ends (two players left, or a game that cannot go on
        without it), or, with three or more playing, the others play on (REF-3.5)."""
        base = self._header(view.game_id)
        playing = active_seats(view)
        others = [s for s in playing if s != seat]
        end_how = "penalty" if how == "penalty" else "resignation"
        new: list[GameEvent] = list(prefix)
        leaving = withdrawals_of(view.rules)
        if len(others) >= 2 and leaving and leaving.withdraw(view.state, seat) is not None:
            new.append(
                SeatWithdrawn(**base, seat=seat, how=how, clause=clause, reason=reason, by=by)
            )
        else:
            top = [Placing(s, 1) for s in others] + [Placing(seat, len(others) + 1)]
            new.append(
                declared_result(
                    view, base, how=end_how, clause=clause, reason=reason, by=by, top=top
                )
            )
        written = self._append_to_game(view, new)
        return self._written(view, written)

    def penalty(
        self,
        ref: str,
        who: str,
        level: PenaltyLevel,
        infraction: str,
        *,
        reason: str = "",
        by: str = "",
        expected_version: int | None = None,
    ) -> WrittenEvents:
        """A judge's penalty (REF-7). A game loss, match loss or disqualification ends the
        seat's game: the others win, or play on in a game of three or more."""
        view = self.load(ref)
        self._check_version(view, expected_version)
        seat = seat_of(view, who)
        if not infraction.strip():
            raise InvalidCommandError("REF-7.1", "name the infraction")
        base = self._header(view.game_id)
        issued = PenaltyIssued(
            **base, seat=seat, penalty=level, infraction=infraction, reason=reason, by=by
        )
        if level == "warning":
            written = self._append_to_game(view, [issued])
            return self._written(view, written)
        if seat in view.withdrawn_seats():
            raise InvalidCommandError("REF-7.2", f"{seat} already left this game")
        prefix: list[GameEvent] = [issued]
        if view.ended is not None:  # a loss found after the result replaces it
            prefix.append(
                ResultVoided(
                    **base,
                    event=view.ended.originator_version,
                    reason=f"{level.replace('_', ' ')} for {seat}",
                    by=by,
                )
            )
        return self._leave(
            view,
            seat,
            "penalty",
            "REF-7.2",
            reason or f"{level.replace('_', ' ')}: {infraction}",
            by,
            prefix,
        )

    # -- rulings on card text ----------------------------------------------
    def adjust(
        self,
        ref: str,
        changes: str | Sequence[Change],
        *,
        card: str,
        reason: str,
        by: str = "",
        resolves: int | None = None,
        expected_version: int | None = None,
    ) -> WrittenEvents:
        """Carry out a referee's ruling as primitive changes (REF-6.3); an empty list
        answers a ruling with no effect. Each change is checked against the game's
        invariants; the game ends here if the rules say so."""
        view = self.load(ref)
        self._check_version(view, expected_version)
        require_open(view)
        if not reason.strip():
            raise InvalidCommandError("REF-6.3", "an adjustment needs the referee's reason")
        if not card.strip():
            raise InvalidCommandError("REF-6.3", "name the card whose effect this carries out")
        parsed = (
            tuple(parse_adjustment(changes))
            if isinstance(changes, str) and changes.strip()
            else tuple(changes)
            if not isinstance(changes, str)
            else ()
        )
        if resolves is None and len(view.pending) == 1:
            resolves = next(iter(view.pending))
        if resolves is not None and resolves not in view.pending:
            raise InvalidCommandError("REF-6.2", f"event {resolves} awaits no ruling")
        if not parsed and resolves is None:
            raise InvalidCommandError(
                "REF-6.3", "an adjustment with no change only answers an awaited ruling"
            )
        rules = view.rules
        adjusting = adjustments_of(rules)
        if adjusting is None and parsed:
            raise InvalidCommandError(
                "REF-6.3", f"{rules.name} takes no adjustments: its rules compute every effect"
            )
        state = view.state
        for change in parsed:
            if adjusting is None:  # pragma: no cover - refused above when there are changes
                break
            verdict = adjusting.check_change(state, change)
            if verdict.violations:
                v = verdict.violations[0]
                raise InvalidCommandError(v.clause, v.reason)
            state = adjusting.apply_change(state, change)
        base = self._header(view.game_id)
        new: list[GameEvent] = [
            AdjustmentRecorded(
                **base,
                resolves=resolves,
                card=card.strip(),
                changes=parsed,
                notation=adjustment_notation(parsed) if parsed else "no change",
                reason=reason,
                by=by,
            )
        ]
        outcome = rules.outcome(state)
        if outcome.over:
            new.append(result_by_rule(view, outcome, base, by))
        written = self._append_to_game(view, new)
        return self._written(view, written)

    # -- disputes ----------------------------------------------------------
    def dispute(
        self, ref: str, event: int, *, by: str, claim: str, expected_version: int | None = None
    ) -> WrittenEvents:
        """A player disputes a recorded decision (REF-4.1)."""
        view = self.load(ref)
        self._check_version(view, expected_version)
        seat = seat_of(view, by, what="player")
        player = view.seat_names()[seat]
        if not 1 <= event <= view.version:
            raise InvalidCommandError(
                "REF-4.1", f"the game has events 1 to {view.version}; no event {event}"
            )
        target = view.event(event)
        if not isinstance(
            target,
            ActionRecorded
            | ActionRejected
            | ActionRetracted
            | GameEnded
            | AdjustmentRecorded
            | PenaltyIssued
            | DeckOpened
            | SeatWithdrawn,
        ):
            raise InvalidCommandError(
                "REF-4.1",
                f"event {event} is not a referee's decision (an action, rejection, correction, "
                "adjustment, penalty or result)",
            )
        if not claim.strip():
            raise InvalidCommandError("REF-4.1", "a dispute needs a claim")
        written = self._append_to_game(
            view,
            [
                DisputeOpened(
                    **self._header(view.game_id),
                    dispute=len(view.disputes) + 1,
                    event=event,
                    by=player,
                    claim=claim,
                )
            ],
        )
        return self._written(view, written)

    def appeal(
        self,
        ref: str,
        dispute: int,
        *,
        by: str,
        grounds: str,
        expected_version: int | None = None,
    ) -> WrittenEvents:
        """A party appeals the latest ruling on a dispute (REF-4.3)."""
        view = self.load(ref)
        self._check_version(view, expected_version)
        seat = seat_of(view, by, what="player")
        record = view.disputes.get(dispute)
        if record is None:
            raise InvalidCommandError("REF-4.3", f"game {view.game_id} has no dispute {dispute}")
        if record.final:
            raise InvalidCommandError(
                "REF-4.4", f"dispute {dispute} has a final ruling; it cannot be appealed"
            )
        if not record.steps:
            raise InvalidCommandError("REF-4.3", f"dispute {dispute} has no ruling to appeal yet")
        if isinstance(record.steps[-1], DisputeAppealed):
            raise InvalidCommandError(
                "REF-4.3",
                f"dispute {dispute} is already under appeal; the appeal is ruled on first",
            )
        if not grounds.strip():
            raise InvalidCommandError("REF-4.3", "an appeal needs grounds")
        written = self._append_to_game(
            view,
            [
                DisputeAppealed(
                    **self._header(view.game_id),
                    dispute=dispute,
                    by=view.seat_names()[seat],
                    grounds=grounds,
                )
            ],
        )
        return self._written(view, written)

    def rule(
        self,
        ref: str,
        dispute: int,
        *,
        decision: RulingDecision,
        clause: str,
        reason: str,
        by: str,
        final: bool = False,
    ) -> WrittenEvents:
        """Rule on a dispute (REF-4.2 to REF-4.5). An overturning ruling is carried out as
        events in the same append: the disputed action retracted, the rejected action
        recorded, a retraction undone, or a declared result voided."""
        view = self.load(ref)
        record = view.disputes.get(dispute)
        if record is None:
            raise InvalidCommandError("REF-4.2", f"game {view.game_id} has no dispute {dispute}")
        if record.final:
            raise InvalidCommandError("REF-4.4", f"dispute {dispute} already has a final ruling")
        level: RulingLevel = (
            "final"
            if final
            else (
                "appeal"
                if record.steps and isinstance(record.steps[-1], DisputeAppealed)
                else "referee"
            )
        )
        if level == "referee" and record.steps:
            raise InvalidCommandError(
                "REF-4.3",
                f"dispute {dispute} was already ruled on; it goes on by appeal or a final ruling",
            )
        if not reason.strip():
            raise InvalidCommandError("REF-4.2", "a ruling needs a reason")
        cited = valid_clause(view, clause)
        base = self._header(view.game_id)
        new: list[GameEvent] = [
            DisputeRuled(
                **base,
                dispute=dispute,
                decision=decision,
                level=level,
                clause=cited,
                reason=reason,
                by=by,
            )
        ]
        previous = _current_decision(record)
        if decision == "overturn" and previous != "overturn":
            new.extend(self._overturn(view, record.event, base, by, dispute))
        elif decision == "uphold" and previous == "overturn":
            raise InvalidCommandError(
                "REF-4.5",
                "an earlier ruling overturned this decision and was carried out; to restore it, "
                "record the correction as a new action or retraction",
            )
        written = self._append_to_game(view, new)
        return self._written(view, written)

    def _overturn(
        self, view: GameView, event_no: int, base: dict[str, Any], by: str, dispute: int
    ) -> list[GameEvent]:
        target = view.event(event_no)
        note = f"dispute {dispute} overturned"
        if isinstance(target, ActionRecorded):
            if not view.standing or view.standing[-1].originator_version != event_no:
                raise InvalidCommandError(
                    "REF-4.5",
                    f"event {event_no} is no longer the latest standing action; retract the "
                    "actions after it first, then rule",
                )
            return [ActionRetracted(**base, seq=target.seq, event=event_no, reason=note, by=by)]
        if isinstance(target, ActionRejected):
            if view.ended is not None:
                raise InvalidCommandError(
                    "REF-4.5", "the game is over; the rejected action cannot be recorded now"
                )
            if target.seq != view.ply + 1:
                raise InvalidCommandError(
                    "REF-4.5",
                    f"the rejected entry was for action {target.seq}, but the game is at action "
                    f"{view.ply + 1}; retract back to that point first",
                )
            judged = view.judge(target.text, target.actor)
            if judged.action is None or judged.seat is None:
                raise InvalidCommandError(
                    "REF-4.5", f"the rejected text {target.text!r} is not an action"
                )
            return [
                ActionRecorded(
                    **base,
                    seq=target.seq,
                    actor=judged.seat,
                    action=msgspec.Raw(msgspec.json.encode(judged.action)),
                    notation=view.rules.notation(judged.action),
                    recorded_by=by,
                )
            ]
        if isinstance(target, GameEnded):
            if target.how == "rule":
                raise InvalidCommandError(
                    "REF-4.5",
                    "a result reached by rule stands while the action that reached it stands; "
                    "overturn that action instead",
                )
            if view.ended is None or view.ended.originator_version != event_no:
                raise InvalidCommandError("REF-4.5", f"event {event_no} is not the result in force")
            return [ResultVoided(**base, event=event_no, reason=note, by=by)]
        if isinstance(target, ActionRetracted):
            retracted = view.event(target.event)
            if (
                view.ended is not None
                or target.seq != view.ply + 1
                or not isinstance(retracted, ActionRecorded)
            ):
                raise InvalidCommandError(
                    "REF-4.5",
                    f"the retracted action {target.seq} no longer fits the position (the game is "
                    f"at action {view.ply + 1}); retract back to that point first",
                )
            judged = view.judge(retracted.notation, retracted.actor)
            if not judged.verdict.legal:
                v = judged.verdict.violations[0]
                raise InvalidCommandError(
                    "REF-4.5", f"{retracted.notation!r} is not legal now: {v.clause}: {v.reason}"
                )
            return [
                ActionRecorded(
                    **base,
                    seq=target.seq,
                    actor=retracted.actor,
                    action=retracted.action,
                    notation=retracted.notation,
                    recorded_by=by,
                )
            ]
        raise InvalidCommandError(
            "REF-4.5",
            f"event {event_no} cannot be overturned by the record alone; the referee records the "
            "correction (an adjustment, a penalty voided by a new ruling) and the ruling "
            "explains it",
        )


def _current_decision(record: Dispute) -> str | None:
    rulings = [s for s in record.steps if isinstance(s, DisputeRuled)]
    return rulings[-1].decision if rulings else None

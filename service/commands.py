"""The write side of the application layer: every command a referee gives.

Each command is a thin shell over the one write pipeline (``service.pipeline``):
authorize the caller, decide (``referee.game``: the referee procedure and the game's
rules, which check the version the caller saw), seal, append in one atomic write at
the version decided on, and the follow-ups (a match told of its game's end); a
refusal raises before anything is written. The server's writer (``service.writer``)
runs the same pipeline, many writes to a commit. Randomness (seeds, salts, ids) and
the clock are drawn here, never in the decisions or the rules core. Each shell builds
its command when it first runs, and the decisions are loaded when a command first
needs them: a process that only records an entry (``referee act``) never loads them.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import msgspec

from events.schema import (
    ActionRetracted,
    DeckOpened,
    GameEvent,
    PenaltyLevel,
    RulingDecision,
)
from events.store import GameNotFoundError, GameStore
from events.view import GameView
from referee.contract import Player
from referee.game.entry import EntryCommand
from referee.kit.adjustments import Change
from referee.kit.decks import Deck, Decklist, SealedDeck, seal
from referee.verdicts import Violation
from service.pipeline import (
    Answer,
    GameWrite,
    NewGame,
    Staged,
    admit_game,
    commit,
    stage,
    stage_events,
    stage_new,
)
from service.pipeline import written as written_answer
from service.procedure import header
from service.results import CorrectionResult, EntryResult, WrittenEvents

if TYPE_CHECKING:
    from referee.game.commands import AnswerCall, Backup, CallJudge, Command, EndKind, Retract
    from service.access import Action, Principal
    from service.ports import MatchHooks

__all__ = ["Commands"]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class Commands:
    """The games' commands: with ``Queries``, the game service
    (``service.game_service.GameService``)."""

    store: GameStore
    clock: Callable[[], datetime]
    draw_seed: Callable[[], int]
    resolve: Callable[[str], str]
    matches: MatchHooks | None = None
    """The event service a game of an event asks about its match (``None``: no events)."""

    # -- shared ------------------------------------------------------------
    def load(self, ref: str) -> GameView:
        """A game by id or unique ending of its id, folded from its events."""
        try:  # a whole id: its events are read at once, with no separate lookup first
            return self.store.load(ref)
        except GameNotFoundError:
            return self.store.load(self.resolve(ref))

    def _header(self, game_id: str) -> dict[str, Any]:
        return header(game_id, self.clock())

    def written(self, view: GameView, written: Sequence[GameEvent]) -> WrittenEvents:
        """The answer to a command that wrote ``written`` to the game, ``view`` as the
        write left it (``end``, ``penalty``, ...; the server's writer answers the same)."""
        return written_answer(view, written)

    def _corrected(
        self, view: GameView, written: Sequence[GameEvent], retracted: list[int]
    ) -> CorrectionResult:
        base = self.written(view, written)  # every field of it, and what was retracted
        return CorrectionResult(**msgspec.structs.asdict(base), retracted=retracted)

    # -- the pipeline (service.pipeline), one write at a time ----------------
    def _commit(self, staged: Sequence[Staged[Any]]) -> None:
        """Append staged writes in one transaction and run their follow-ups (a scratch
        referee, which keeps its one game in memory, only keeps them)."""
        commit(self.store, staged)

    def _write(self, write: GameWrite, view: GameView | None = None) -> Staged[GameView]:
        """Carry ``write`` through the pipeline on ``view`` (loaded when not given), which
        it advances: authorize, decide, seal, append, follow-ups."""
        staged = stage(self, view or self.load(write.ref), write)
        if staged.events:
            self._commit([staged])
        return staged

    def _append_to_game(
        self,
        view: GameView,
        new: Sequence[GameEvent],
        *,
        applied: Any = None,
        action: Action = "record",
    ) -> list[GameEvent]:
        """Append events already decided on ``view`` (an offline table's merge, ``record``;
        the head's choice of a branch, ``backup``): the pipeline's authorize stage
        (``admit_game``: the running caller's right), then the pipeline from its seal on,
        so a game of an event's match that ends here has its match updated in the SAME
        transaction."""
        admit_game(view, action)
        staged = stage_events(self, view, new, applied)
        if staged.events:
            self._commit([staged])
        return staged.events

    def _carry_out(self, ref: str, command: Command, answer: Answer) -> Any:
        """Carry ``command`` out through the pipeline; its answer, made by ``answer`` from
        the game as the write left it and the events stored (made the same way again when
        the write is sent again with its key: ``pipeline.stage``)."""
        return self._write(GameWrite(ref, command, answer=answer)).answer

    def _carried_out(self, ref: str, command: Command) -> WrittenEvents:
        answer: WrittenEvents = self._write(GameWrite(ref, command)).answer
        return answer

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
        from referee.game.commands import CreateGame

        command = CreateGame(
            game=game,
            players=tuple(Player(s, n) for s, n in players.items())
            if isinstance(players, Mapping)
            else tuple(players),
            ruleset=ruleset,
            variants=variants or {},
            options=options or {},
            decks=decks or {},
            by=by,
            meta=meta or {},
            raw_options=raw_options,
            imported_from=imported_from,
        )
        staged = stage_new(self, NewGame(command, game_id))
        if staged.events:  # none: created already by the write's key, answered as then
            self._commit([staged])
        return staged.view

    def register_deck(self, ref: str, who: str, deck: Deck, *, by: str = "") -> WrittenEvents:
        """Register (or, before play, replace) a seat's decklist, open or sealed
        (REF-5.1, REF-5.2)."""
        from referee.game.commands import RegisterDeck

        return self._carried_out(ref, RegisterDeck(who=who, deck=deck, by=by))

    def seal_decklist(self, decklist: Decklist) -> tuple[SealedDeck, str]:
        """A sealed registration of ``decklist`` and the salt the player keeps to open it."""
        salt = secrets.token_hex(16)
        return seal(decklist, salt), salt

    def open_deck(
        self,
        ref: str,
        who: str,
        decklist: Decklist,
        salt: str,
        *,
        by: str = "",
    ) -> EntryResult:
        """Open a sealed list at a deck check or at the end (REF-5.3). A list that does not
        open the seal, or misses a card seen in play, is kept as evidence with its clauses."""
        from referee.game.commands import OpenDeck

        def opened(view: GameView, written: Sequence[GameEvent]) -> EntryResult:
            (event,) = written
            assert isinstance(event, DeckOpened)
            return EntryResult(
                game_id=view.game_id,
                status="rejected" if event.violations else "recorded",
                accepted=not event.violations,
                text=f"open {event.seat}'s sealed list",
                seat=event.seat,
                notation=None,
                violations=list(event.violations),
                event=event.originator_version,
                version=view.version,
            )

        result: EntryResult = self._carry_out(
            ref, OpenDeck(who=who, decklist=decklist, salt=salt, by=by), opened
        )
        return result

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
        from referee.game.commands import KeepRejection

        rejected: GameEvent = self._carry_out(
            ref,
            KeepRejection(text=text, seq=seq, actor=actor, violations=tuple(violations), by=by),
            lambda view, written: written[0],
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
        view: GameView | None = None,
        keep_unreadable: bool = False,
        principal: Principal | None = None,
    ) -> EntryResult:
        """Check one entry and record it, or record its rejection as evidence, through the
        write pipeline: load the game, judge the entry (``referee.game.entries``, the
        pure decision), and append what it decided at the version it was decided on.

        Text that is not an action of the game is refused (``UnreadableEntryError``,
        nothing stored, REF-1.1); ``dry_run`` only says whether it would be legal.
        An entry on a finished game is refused too (``InvalidCommandError``, REF-1.3).
        ``keep_unreadable`` is for imports of records written before REF-1.1 and REF-1.3
        refused such text, which kept it as a rejection. ``principal``: a face's caller,
        who must be allowed to record (or check) in this game. ``view`` is the service's
        own (imports replaying a record); it is advanced by what is appended."""
        command = EntryCommand(
            text=text,
            actor=actor,
            by=by,
            dry_run=dry_run,
            keep_unreadable=keep_unreadable,
        )
        result: EntryResult = self._write(GameWrite(ref, command, principal), view).answer
        return result

    # -- corrections -------------------------------------------------------
    def retract(self, ref: str, reason: str, *, by: str = "") -> CorrectionResult:
        """Take back the latest standing action (REF-2.1), with its adjustments (REF-2.4)."""
        from referee.game.commands import Retract

        return self._correction(ref, Retract(reason=reason, by=by))

    def backup(
        self,
        ref: str,
        to_action: int,
        reason: str,
        *,
        by: str = "",
    ) -> CorrectionResult:
        """Back the game up to the position after action ``to_action``: every later action
        is retracted, newest first, in one correction with one reason (REF-2.3)."""
        from referee.game.commands import Backup

        return self._correction(
            ref,
            Backup(to_action=to_action, reason=reason, by=by),
        )

    def _correction(self, ref: str, command: Retract | Backup) -> CorrectionResult:
        def corrected(view: GameView, written: Sequence[GameEvent]) -> CorrectionResult:
            retracted = [e.seq for e in written if isinstance(e, ActionRetracted)]
            return self._corrected(view, written, retracted)

        result: CorrectionResult = self._carry_out(ref, command, corrected)
        return result

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
    ) -> WrittenEvents:
        """End a game (or, with three or more seats, withdraw one seat) by resignation,
        agreement or adjudication (REF-3.2 to REF-3.6).

        ``who`` is the resigning seat, or the winner of an adjudication (``None`` or
        ``draw`` for a drawn adjudication); ``ranking`` (``p2>p1=p3``) adjudicates a
        multiplayer result."""
        from referee.game.commands import End

        return self._carried_out(
            ref,
            End(
                how=how,
                who=who,
                ranking=ranking,
                reason=reason,
                by=by,
            ),
        )

    def penalty(
        self,
        ref: str,
        who: str,
        level: PenaltyLevel,
        infraction: str,
        *,
        reason: str = "",
        by: str = "",
    ) -> WrittenEvents:
        """A judge's penalty (REF-7). A game loss, match loss or disqualification ends the
        seat's game: the others win, or play on in a game of three or more."""
        from referee.game.commands import Penalize

        return self._carried_out(
            ref,
            Penalize(
                who=who,
                level=level,
                infraction=infraction,
                reason=reason,
                by=by,
            ),
        )

    def table_call(self, ref: str, command: CallJudge | AnswerCall) -> WrittenEvents:
        """A judge call from a game outside an event, or a referee's step on it (REF-11)."""
        return self._carried_out(ref, command)

    def time_limit(
        self,
        ref: str,
        minutes: int,
        *,
        reason: str = "",
        by: str = "",
        recorded: bool = False,
    ) -> WrittenEvents:
        """Set or change a game's time limit in minutes from its start (REF-10.1); the limit
        the game has is refused, unless ``recorded`` (an import replaying a stored line)."""
        from referee.game.commands import SetTimeLimit

        command = SetTimeLimit(
            minutes=minutes,
            reason=reason,
            by=by,
            recorded=recorded,
        )
        return self._carried_out(ref, command)

    def withdraw_penalty(
        self,
        ref: str,
        penalty: int,
        *,
        reason: str,
        by: str = "",
    ) -> WrittenEvents:
        """Withdraw the penalty of stream event ``penalty`` (REF-7.3, the head referee):
        a result it declared is voided and a result it set aside declared again."""
        from referee.game.commands import WithdrawPenalty

        return self._carried_out(
            ref,
            WithdrawPenalty(penalty=penalty, reason=reason, by=by),
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
        revealed: bool | None = False,
    ) -> WrittenEvents:
        """Carry out a referee's ruling as primitive changes (REF-6.3); an empty list
        answers a ruling with no effect. Each change is checked against the game's
        invariants; the game ends here if the rules say so. A named card moved between
        hidden zones is its seat's and the referee's unless ``revealed`` (REF-6.6; ``None``:
        a line of a record made before that clause)."""
        from referee.game.commands import Adjust

        return self._carried_out(
            ref,
            Adjust(
                changes=changes if isinstance(changes, str) else tuple(changes),
                card=card,
                reason=reason,
                by=by,
                resolves=resolves,
                revealed=revealed,
            ),
        )

    # -- disputes ----------------------------------------------------------
    def dispute(self, ref: str, event: int, *, by: str, claim: str) -> WrittenEvents:
        """A player disputes a recorded decision (REF-4.1)."""
        from referee.game.commands import OpenDispute

        return self._carried_out(ref, OpenDispute(event=event, claim=claim, by=by))

    def appeal(
        self,
        ref: str,
        dispute: int,
        *,
        by: str,
        grounds: str,
    ) -> WrittenEvents:
        """A party appeals the latest ruling on a dispute (REF-4.3)."""
        from referee.game.commands import Appeal

        return self._carried_out(
            ref,
            Appeal(dispute=dispute, grounds=grounds, by=by),
        )

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
        from referee.game.commands import Rule

        return self._carried_out(
            ref,
            Rule(
                dispute=dispute,
                decision=decision,
                clause=clause,
                reason=reason,
                by=by,
                final=final,
            ),
        )

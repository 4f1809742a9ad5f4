"""The referee procedure on a game as pure decisions: a command and the game as folded
give the new facts, or a refusal.

``decide_command(view, command, base)`` reads the game (``view``) and returns the facts
a referee's command writes, not yet numbered or sealed; ``decide_new_game`` starts a
game. Every write to an existing game comes through ``referee.game.write.decision``,
which checks the version the writer saw first (the one place that check is made) and
decides an entry in ``referee.game.entries`` or a command here. A command the
procedure or the game's rules refuse raises (``InvalidCommandError``,
``RefusedError``, ``SetupError``) naming the clause and why. Nothing here loads,
stores, draws a random number or reads the clock: ``base`` is the header the caller
stamps on every new fact (the game's id and the time), and a new game's seeds come
from the ``draw_seed`` its caller passes. The service's write pipeline
(``service.pipeline``) is the shell around this (authorize, decide, seal, append,
follow-ups), and a text record's import replays its lines through the very same
decisions, so an imported game passes exactly the checks a live one does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import msgspec

from referee import games
from referee.capabilities import adjustments_of, catalogs_of, decks_of, withdrawals_of
from referee.contract import GameRules, Player, Setup
from referee.errors import InvalidCommandError, SetupError, quoted
from referee.game.calls import decide_answer, decide_call, game_calls
from referee.game.commands import (
    Adjust,
    AnswerCall,
    Appeal,
    Backup,
    CallJudge,
    Command,
    CreateGame,
    End,
    KeepRejection,
    OpenDeck,
    OpenDispute,
    Penalize,
    RegisterDeck,
    Retract,
    Rule,
    SetTimeLimit,
    WithdrawPenalty,
)
from referee.game.facts import (
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    AdjustmentRecorded,
    DeckOpened,
    DeckRegistered,
    Dispute,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    GameEnded,
    GameEvent,
    PenaltyIssued,
    PenaltyWithdrawn,
    ResultVoided,
    RulingLevel,
    SeatWithdrawn,
    TimeLimitSet,
    game_opened,
)
from referee.game.procedure import (
    PLAYER_ID,
    PLAYER_ID_WORDS,
    active_seats,
    declared_result,
    require_open,
    result_by_rule,
    seat_of,
    valid_clause,
)
from referee.game.setup import resolve_options
from referee.game.view import FoldedGame
from referee.kit.adjustments import (
    adjustment_notation,
    carried_out,
    kept_hidden,
    parse_adjustment,
)
from referee.kit.decks import Deck, Decklist
from referee.kit.dispatch import Dispatch
from referee.outcomes import Placing, parse_ranking
from referee.verdicts import Verdict

__all__ = ["DECISIONS", "check_deck", "decide_command", "decide_new_game"]


DECISIONS: Dispatch[FoldedGame, dict[str, Any], list[GameEvent]] = Dispatch(
    "decisions on a referee's commands"
)
"""The decision on each kind of referee's command (``Command``), by its type: the kit's
idiom (``referee.kit.dispatch``), as the games check and carry out their entries."""


def decide_command(view: FoldedGame, command: Command, base: Mapping[str, Any]) -> list[GameEvent]:
    """The facts ``command`` writes to the game ``view``, or a refusal (raised). The
    version the writer saw is checked before, by ``referee.game.write.decision``."""
    try:
        decision = _DECIDE[type(command)]
    except KeyError:  # pragma: no cover
        raise TypeError(f"not a referee's command: {command!r}") from None
    return decision(view, command, dict(base))


# -- starting a game ----------------------------------------------------------------


def decide_new_game(
    command: CreateGame, base: Mapping[str, Any], draw_seed: Callable[[], int]
) -> list[GameEvent]:
    """A new game's creation and decklists: the setup completed (missing seeds from
    ``draw_seed``) and checked by the game's rules. ``base`` names the new game."""
    rules = games.load(command.game)
    seated = [Player(p.seat, " ".join(p.name.split()), p.id.strip()) for p in command.players]
    if any(not p.name for p in seated):
        raise SetupError("every player needs a name")
    for player in seated:
        if player.id and not PLAYER_ID.fullmatch(player.id):
            raise SetupError(f"{player.seat}'s player id {player.id!r}: {PLAYER_ID_WORDS}")
    folded = [p.id or p.name.casefold() for p in seated]  # ids tell same names apart
    if command.raw_options and len(set(folded)) != len(folded):  # a record keeps what it says
        raise SetupError("one person cannot sit in two seats; each seat needs its own player")
    for player in seated:
        if player.seat not in rules.seats:
            raise SetupError(
                f"{rules.name} has seats {', '.join(rules.seats)}; not {player.seat!r}"
            )
    chosen = (
        resolve_options(rules, command.options, draw_seed)
        if command.raw_options
        else dict(command.options)
    )
    labels = {k: " ".join(str(v).split()) for k, v in command.meta.items() if str(v).strip()}
    setup = rules.resolve_setup(
        Setup(
            players=tuple(seated),
            ruleset=command.ruleset,
            variants=dict(command.variants),
            options=chosen,
        )
    )
    if command.raw_options and "position" in setup.options:
        given = rules.given_position(str(setup.options["position"]), setup.variants)
        setup = msgspec.structs.replace(setup, options={**setup.options, "position": given})
    rules.start(setup)  # raises on a setup the game cannot start from
    for seat, deck in command.decks.items():
        if seat not in setup.seats:
            raise SetupError(f"a deck is registered for {seat!r}, who is not playing")
        check_deck(rules, setup, seat, deck)
    return game_opened(
        base,
        rules.name,
        setup,
        by=command.by,
        meta=labels,
        decks=command.decks,
        imported_from=command.imported_from,
    )


def check_deck(rules: GameRules[Any, Any], setup: Setup, seat: str, deck: Deck) -> None:
    """Refuse a decklist the game's construction rules break, or a sealed list of the
    wrong size (REF-5.1, REF-5.2)."""
    decks = decks_of(rules)
    if decks is None:
        raise InvalidCommandError("REF-5.1", f"{rules.name} is not played with decklists")
    if isinstance(deck, Decklist):
        verdict = decks.check_deck(setup, seat, deck)
        if verdict.violations:
            first = verdict.violations[0].clause  # the message opens with it: not twice
            raise InvalidCommandError(
                first,
                f"{seat}'s decklist breaks the construction rules: "
                + "; ".join(
                    v.reason if v.clause == first else f"{v.clause}: {v.reason}"
                    for v in verdict.violations
                ),
            )
    elif deck.size < 1:
        raise InvalidCommandError("REF-5.2", "a sealed list must say how many cards it holds")
    elif wrong := decks.check_sealed_size(setup, seat, deck.size).violations:
        raise InvalidCommandError(wrong[0].clause, wrong[0].reason)


# -- decks --------------------------------------------------------------------------


@DECISIONS.register(RegisterDeck)
def _register_deck(
    view: FoldedGame, command: RegisterDeck, base: dict[str, Any]
) -> list[GameEvent]:
    """Register (or, before play, replace) a seat's decklist (REF-5.1, REF-5.2)."""
    seat = seat_of(view, command.who)
    if view.standing:
        raise InvalidCommandError("REF-5.1", "decklists are registered before the first action")
    require_open(view)
    check_deck(view.rules, view.setup, seat, command.deck)
    return [DeckRegistered(**base, seat=seat, deck=command.deck, by=command.by)]


@DECISIONS.register(OpenDeck)
def _open_deck(view: FoldedGame, command: OpenDeck, base: dict[str, Any]) -> list[GameEvent]:
    """Open a sealed list (REF-5.3): one that does not open the seal, or misses a card
    seen in play, is kept as evidence with its clauses."""
    seat = seat_of(view, command.who)
    decks = decks_of(view.rules)
    knowledge = decks.deck_knowledge(view.state, seat) if decks is not None else None
    if decks is None or knowledge is None:
        raise InvalidCommandError("REF-5.3", f"{seat} has no registered decklist in this game")
    verdict = knowledge.check_open(command.decklist, command.salt, "REF-5.3")
    if verdict.legal:
        construction = decks.check_deck(view.setup, seat, command.decklist)
        verdict = Verdict(verdict.violations + construction.violations)
    return [
        DeckOpened(
            **base,
            seat=seat,
            decklist=command.decklist,
            salt=command.salt,
            violations=verdict.violations,
            by=command.by,
        )
    ]


@DECISIONS.register(KeepRejection)
def _keep_rejection(
    view: FoldedGame, command: KeepRejection, base: dict[str, Any]
) -> list[GameEvent]:
    """A record's rejection as evidence (REF-8.1, REF-1.4): for the next action's number."""
    if command.seq != view.ply + 1:
        raise InvalidCommandError(
            "REF-8.1",
            f"a rejection for action {command.seq}; the game is at action {view.ply + 1}",
        )
    if not command.violations:
        raise InvalidCommandError("REF-8.1", "a rejection names at least one clause")
    if command.actor is not None and command.actor not in view.seats:
        raise InvalidCommandError("REF-8.1", f"no seat {command.actor!r} in this game")
    return [
        ActionRejected(
            **base,
            seq=command.seq,
            actor=command.actor,
            text=command.text,
            violations=command.violations,
            recorded_by=command.by,
        )
    ]


# -- corrections --------------------------------------------------------------------


def _check_retractable(view: FoldedGame, count: int) -> None:
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


@DECISIONS.register(Retract)
def _retract(view: FoldedGame, command: Retract, base: dict[str, Any]) -> list[GameEvent]:
    """Take back the latest standing action (REF-2.1), with its adjustments (REF-2.4)."""
    _check_retractable(view, 1)
    if not command.reason.strip():
        raise InvalidCommandError("REF-2.1", "a retraction needs a reason")
    last = view.standing[-1]
    return [
        ActionRetracted(
            **base,
            seq=last.seq,
            event=last.originator_version,
            reason=command.reason,
            by=command.by,
        )
    ]


@DECISIONS.register(Backup)
def _backup(view: FoldedGame, command: Backup, base: dict[str, Any]) -> list[GameEvent]:
    """Every action after ``to_action`` retracted, newest first, with one reason (REF-2.3)."""
    to_action = command.to_action
    if not 0 <= to_action < view.ply:
        raise InvalidCommandError(
            "REF-2.3",
            f"back up to an action before the last: 0 to {view.ply - 1} (the game has {view.ply})",
        )
    _check_retractable(view, view.ply - to_action)
    if not command.reason.strip():
        raise InvalidCommandError("REF-2.3", "a backup needs a reason")
    note = f"backup to action {to_action}: {command.reason}"
    return [
        ActionRetracted(**base, seq=a.seq, event=a.originator_version, reason=note, by=command.by)
        for a in reversed(view.standing[to_action:])
    ]


# -- results ------------------------------------------------------------------------


@DECISIONS.register(End)
def _end(view: FoldedGame, command: End, base: dict[str, Any]) -> list[GameEvent]:
    """A game ended (or, with three or more seats, one seat withdrawn) by resignation,
    agreement or adjudication (REF-3.2 to REF-3.6)."""
    require_open(view)
    who, reason, by = command.who, command.reason, command.by
    playing = active_seats(view)
    if command.how == "resignation":
        if who is None:
            raise InvalidCommandError("REF-3.2", "name the resigning seat or player")
        seat = seat_of(view, who)
        if seat not in playing:
            raise InvalidCommandError("REF-3.5", f"{seat} already withdrew from this game")
        return _leave(
            view,
            base,
            seat,
            "resignation",
            "REF-3.2" if len(view.seats) == 2 else "REF-3.5",
            reason or f"{seat} resigned",
            by,
        )
    if command.how == "agreement":
        top = [Placing(s, 1) for s in playing]
        return [
            declared_result(
                view,
                base,
                how="agreement",
                clause="REF-3.3",
                reason=reason or "draw agreed by the players",
                by=by,
                top=top,
            )
        ]
    if not reason.strip():
        raise InvalidCommandError("REF-3.4", "an adjudication needs a written reason")
    if command.ranking is not None:
        try:
            placed = parse_ranking(command.ranking, playing, withdrawn=view.withdrawn_seats())
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
    return [
        declared_result(
            view, base, how="adjudication", clause=clause, reason=reason, by=by, top=top
        )
    ]


def _leave(
    view: FoldedGame,
    base: dict[str, Any],
    seat: str,
    how: Literal["resignation", "penalty"],
    clause: str,
    reason: str,
    by: str,
    prefix: Sequence[GameEvent] = (),
) -> list[GameEvent]:
    """A seat leaves: the game ends (two players left, or a game that cannot go on
    without it), or, with three or more playing, the others play on (REF-3.5)."""
    playing = active_seats(view)
    others = [s for s in playing if s != seat]
    end_how = "penalty" if how == "penalty" else "resignation"
    new: list[GameEvent] = list(prefix)
    leaving = withdrawals_of(view.rules)
    if len(others) >= 2 and leaving and leaving.withdraw(view.state, seat) is not None:
        new.append(SeatWithdrawn(**base, seat=seat, how=how, clause=clause, reason=reason, by=by))
    else:
        top = [Placing(s, 1) for s in others] + [Placing(seat, len(others) + 1)]
        new.append(
            declared_result(view, base, how=end_how, clause=clause, reason=reason, by=by, top=top)
        )
    return new


MAX_TIME_LIMIT = 24 * 60
MAX_TIME_REASON = 200


@DECISIONS.register(SetTimeLimit)
def _time_limit(view: FoldedGame, command: SetTimeLimit, base: dict[str, Any]) -> list[GameEvent]:
    """A game's time limit, set or changed (REF-10.1): an open game outside an event."""
    if not 1 <= command.minutes <= MAX_TIME_LIMIT:
        raise InvalidCommandError("REF-10.1", f"a time limit is 1 to {MAX_TIME_LIMIT} minutes")
    if len(command.reason) > MAX_TIME_REASON:
        raise InvalidCommandError("REF-10.1", f"a reason is at most {MAX_TIME_REASON} characters")
    if view.ended is not None:
        raise InvalidCommandError("REF-10.1", "the game has ended: its time limit no longer moves")
    event = (view.created.meta or {}).get("event", "").strip()
    if event:
        raise InvalidCommandError(
            "REF-10.1",
            f"a game of event {event} runs on its round clock: 'referee event length' or "
            "'referee event extend' (EV-9.1, EV-9.4)",
        )
    label = (view.created.meta or {}).get("time_limit", "").strip()
    held = view.time_limit or (int(label) if label.isdigit() else None)
    if command.minutes == held and not command.recorded:
        raise InvalidCommandError(
            "REF-10.1",
            f"the game's time limit is already {held} minutes: nothing changed, nothing is "
            "recorded",
        )
    reason = " ".join(command.reason.split())
    return [TimeLimitSet(**base, minutes=command.minutes, reason=reason, by=command.by)]


def _call(
    view: FoldedGame, command: CallJudge | AnswerCall, base: dict[str, Any]
) -> list[GameEvent]:
    """A judge call from a game outside an event, or a referee's step on it (REF-11)."""
    calls = game_calls(view.event(n) for n in range(1, view.version + 1))
    if isinstance(command, CallJudge):
        event = (view.created.meta or {}).get("event", "").strip()
        ended = view.ended is not None
        return decide_call(
            calls, event, ended, command.by, command.reason, base, command.idempotency_key
        )
    return decide_answer(calls, command, base)


DECISIONS.add(CallJudge, _call)
DECISIONS.add(AnswerCall, _call)


@DECISIONS.register(Penalize)
def _penalize(view: FoldedGame, command: Penalize, base: dict[str, Any]) -> list[GameEvent]:
    """A judge's penalty (REF-7). A game loss, match loss or disqualification ends the
    seat's game: the others win, or play on in a game of three or more."""
    seat = seat_of(view, command.who)
    level, by = command.level, command.by
    if not command.infraction.strip():
        raise InvalidCommandError("REF-7.1", "name the infraction")
    issued = PenaltyIssued(
        **base,
        seat=seat,
        penalty=level,
        infraction=command.infraction,
        reason=command.reason,
        by=by,
    )
    if level == "warning":
        return [issued]
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
    return _leave(
        view,
        base,
        seat,
        "penalty",
        "REF-7.2",
        command.reason or f"{level.replace('_', ' ')}: {command.infraction}",
        by,
        prefix,
    )


@DECISIONS.register(WithdrawPenalty)
def _withdraw_penalty(
    view: FoldedGame, command: WithdrawPenalty, base: dict[str, Any]
) -> list[GameEvent]:
    """A penalty withdrawn by the head referee (REF-7.3): it stays in the record and stops
    counting; a result it declared that is still in force is voided, and a result it set
    aside is declared again, each by a new event."""
    number = command.penalty
    if not 1 <= number <= view.version or not isinstance(view.event(number), PenaltyIssued):
        raise InvalidCommandError("REF-7.3", f"event {number} is not a penalty in this game")
    if all(p.originator_version != number for p in view.penalties):
        raise InvalidCommandError("REF-7.3", f"the penalty of event {number} is already withdrawn")
    if not command.reason.strip():
        raise InvalidCommandError("REF-7.3", "a withdrawal needs the head referee's reason")
    new: list[GameEvent] = [
        PenaltyWithdrawn(**base, penalty=number, reason=command.reason, by=command.by)
    ]
    # What the penalty's own append wrote after it: a result it set aside, then its end.
    after = [view.event(n) for n in range(number + 1, min(number + 3, view.version) + 1)]
    set_aside: GameEnded | None = None
    if after and isinstance(after[0], ResultVoided):
        earlier = view.event(after[0].event)
        set_aside = earlier if isinstance(earlier, GameEnded) else None
        after = after[1:]
    effect = after[0] if after else None
    if isinstance(effect, SeatWithdrawn) and effect.how == "penalty":
        raise InvalidCommandError(
            "REF-7.3",
            f"the penalty withdrew {effect.seat} and the others played on; a seat cannot "
            "rejoin a game in the record: withdraw it, then adjudicate the result (REF-3.6)",
        )
    if not (isinstance(effect, GameEnded) and effect.how == "penalty"):
        return new  # a warning, or a loss that ended nothing (the seat had left): no effect
    if view.ended is None or view.ended.originator_version != effect.originator_version:
        return new  # its result was voided since (a ruling): nothing left to reverse
    note = f"penalty of event {number} withdrawn"
    new.append(ResultVoided(**base, event=effect.originator_version, reason=note, by=command.by))
    if set_aside is not None:
        new.append(
            GameEnded(
                **base,
                winner=set_aside.winner,
                how=set_aside.how,
                clause=set_aside.clause,
                reason=f"{set_aside.reason} (declared again: {note})".strip(),
                by=command.by,
                ranking=set_aside.ranking,
                tiebreak=set_aside.tiebreak,
            )
        )
    return new


# -- rulings on card text -----------------------------------------------------------


@DECISIONS.register(Adjust)
def _adjust(view: FoldedGame, command: Adjust, base: dict[str, Any]) -> list[GameEvent]:
    """A referee's ruling carried out as primitive changes (REF-6.3); no change answers
    a ruling with no effect. Each change is checked against the game's invariants; the
    game ends here if the rules say so."""
    require_open(view)
    changes, resolves = command.changes, command.resolves
    if not command.reason.strip():
        raise InvalidCommandError("REF-6.3", "an adjustment needs the referee's reason")
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
    card = command.card.strip()
    if not card and resolves is not None:  # the ruling asked names its card
        card = view.pending[resolves].rulings[0].card
    if card:
        card = _catalog_card(view, card)
    rules = view.rules
    adjusting = adjustments_of(rules)
    if adjusting is None and parsed:
        raise InvalidCommandError(
            "REF-6.3", f"{rules.name} takes no adjustments: its rules compute every effect"
        )
    state = view.state
    # REF-6.6: a named card moved between hidden zones is the seat's and the referee's
    # unless the referee says the table saw it; a line of a record made before the clause
    # said nothing, and its card is kept hidden all the same (as the replay keeps it)
    hidden_zones = rules.hidden_zones
    revealed: bool | msgspec.UnsetType = (
        command.revealed
        if command.revealed is not None and any(kept_hidden(c, hidden_zones) for c in parsed)
        else msgspec.UNSET
    )
    if adjusting is not None:
        state, violation = carried_out(
            adjusting.check_change,
            adjusting.apply_change,
            state,
            parsed,
            hidden_zones,
            hidden=revealed is not True,
            keep=rules.kept_in_sight_of_its_seat,
        )
        if violation is not None:
            raise InvalidCommandError(violation.clause, violation.reason)
    new: list[GameEvent] = [
        AdjustmentRecorded(
            **base,
            resolves=resolves,
            card=card,
            changes=parsed,
            notation=adjustment_notation(parsed) if parsed else "no change",
            reason=command.reason,
            by=command.by,
            revealed=revealed,
        )
    ]
    outcome = rules.outcome(state)
    if outcome.over:
        new.append(result_by_rule(view, outcome, base, command.by))
    return new


def _catalog_card(view: FoldedGame, card: str) -> str:
    """``card`` as the game's catalog spells it (REF-6.5): an adjustment that names a card
    names one of the game's; a correction no card caused names none."""
    catalogs = catalogs_of(view.rules)
    if catalogs is None:
        return card  # a game whose cards are not in a catalog file (its rules name them)
    names: dict[str, str] = {}
    for kind in catalogs.catalog_kinds:
        try:
            rows = catalogs.catalog_rows(view.setup, kind)
        except (SetupError, ValueError, LookupError):
            continue
        for row in rows:
            name = row.get("name")
            if isinstance(name, str):
                names.setdefault(name.casefold(), name)
    found = names.get(" ".join(card.split()).casefold())
    if found is None:
        raise InvalidCommandError(
            "REF-6.5",
            f"{card!r} is not a card of this game's catalog; name the card whose effect the "
            "adjustment carries out, or no card for a correction of the position",
        )
    return found


# -- disputes -----------------------------------------------------------------------

_DISPUTABLE = (
    ActionRecorded
    | ActionRejected
    | ActionRetracted
    | GameEnded
    | AdjustmentRecorded
    | PenaltyIssued
    | DeckOpened
    | SeatWithdrawn
)


@DECISIONS.register(OpenDispute)
def _dispute(view: FoldedGame, command: OpenDispute, base: dict[str, Any]) -> list[GameEvent]:
    """A player disputes a recorded decision (REF-4.1)."""
    seat = seat_of(view, command.by, what="player")
    player = view.seat_names()[seat]
    event = command.event
    if not 1 <= event <= view.version:
        raise InvalidCommandError(
            "REF-4.1", f"the game has events 1 to {view.version}; no event {event}"
        )
    if not isinstance(view.event(event), _DISPUTABLE):
        raise InvalidCommandError(
            "REF-4.1",
            f"event {event} is not a referee's decision (an action, rejection, correction, "
            "adjustment, penalty or result)",
        )
    if not command.claim.strip():
        raise InvalidCommandError("REF-4.1", "a dispute needs a claim")
    return [
        DisputeOpened(
            **base,
            dispute=len(view.disputes) + 1,
            event=event,
            by=player,
            claim=command.claim,
        )
    ]


@DECISIONS.register(Appeal)
def _appeal(view: FoldedGame, command: Appeal, base: dict[str, Any]) -> list[GameEvent]:
    """A party appeals the latest ruling on a dispute (REF-4.3)."""
    seat = seat_of(view, command.by, what="player")
    dispute = command.dispute
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
    if not command.grounds.strip():
        raise InvalidCommandError("REF-4.3", "an appeal needs grounds")
    return [
        DisputeAppealed(
            **base, dispute=dispute, by=view.seat_names()[seat], grounds=command.grounds
        )
    ]


@DECISIONS.register(Rule)
def _rule(view: FoldedGame, command: Rule, base: dict[str, Any]) -> list[GameEvent]:
    """A ruling on a dispute (REF-4.2 to REF-4.5). An overturning ruling is carried out
    by the events after it: the disputed action retracted, the rejected action recorded,
    a retraction undone, or a declared result voided."""
    dispute, decision, by = command.dispute, command.decision, command.by
    record = view.disputes.get(dispute)
    if record is None:
        raise InvalidCommandError("REF-4.2", f"game {view.game_id} has no dispute {dispute}")
    if record.final:
        raise InvalidCommandError("REF-4.4", f"dispute {dispute} already has a final ruling")
    level: RulingLevel = (
        "final"
        if command.final
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
    if not command.reason.strip():
        raise InvalidCommandError("REF-4.2", "a ruling needs a reason")
    cited = valid_clause(view, command.clause)
    new: list[GameEvent] = [
        DisputeRuled(
            **base,
            dispute=dispute,
            decision=decision,
            level=level,
            clause=cited,
            reason=command.reason,
            by=by,
        )
    ]
    previous = _current_decision(record)
    if decision == "overturn" and previous != "overturn":
        new.extend(_overturn(view, record.event, base, by, dispute))
    elif decision == "uphold" and previous == "overturn":
        raise InvalidCommandError(
            "REF-4.5",
            "an earlier ruling overturned this decision and was carried out; to restore it, "
            "record the correction as a new action or retraction",
        )
    return new


def _current_decision(record: Dispute) -> str | None:
    rulings = [s for s in record.steps if isinstance(s, DisputeRuled)]
    return rulings[-1].decision if rulings else None


def _overturn(
    view: FoldedGame, event_no: int, base: dict[str, Any], by: str, dispute: int
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
                "REF-4.5", f"the rejected text {quoted(target.text)} is not an action"
            )
        if not judged.verdict.legal:  # REF-4.5: a re-recorded action must be legal here
            v = judged.verdict.violations[0]
            raise InvalidCommandError(
                "REF-4.5",
                f"{quoted(target.text)} is still not legal here ({v.clause}: {v.reason}); a ruling "
                "records only an action the rules allow where it is recorded",
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


_DECIDE = DECISIONS.handlers

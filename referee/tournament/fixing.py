"""Decisions that fix a mistake in place (EV-1.5, EV-2.7, EV-3.9, EV-5.12, EV-5.13, EV-8.7),
apply an event penalty to the match (EV-8.6), attach a decklist (EV-2.8), correct a rating
before round 1 (EV-2.11), and the seeded
checks slips against the games recorded (EV-3.10).

Pure, like ``decisions``: each takes the folded ``Tournament`` and gives new facts or
raises ``Refusal`` naming its clause. Nothing is ever edited: a re-pairing, an undone
round, an undrop or a withdrawn penalty is a new fact, and the facts it replaces stay in
the history (and the audit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from referee.tournament.errors import Refusal
from referee.tournament.facts import (
    DecklistAttached,
    Fact,
    GamesVoided,
    MatchReported,
    PairingChanged,
    PenaltyApplied,
    PenaltyRecorded,
    PenaltyWithdrawn,
    PlayerUndropped,
    RatingCorrected,
    ResultCorrected,
    RoundUndone,
    SettingsChanged,
)
from referee.tournament.model import Placement, Round, Score, TableKey, games_to_win
from referee.tournament.pairing import Seat, pair_swiss
from referee.tournament.pods import pair_pods
from referee.tournament.state import TableState, Tournament
from referee.tournament.state import fold as fold_facts

__all__ = [
    "MAX_RATING",
    "AttachDecklist",
    "ChangeSettings",
    "CorrectRating",
    "Fix",
    "RePair",
    "UndoRound",
    "Undrop",
    "WithdrawPenalty",
    "check_rating",
    "current_table",
    "decide_fix",
    "game_losses_to_come",
    "latest_round",
    "next_game_losses",
    "open_games",
    "penalty_effects",
    "pending_at_pairing",
    "pending_penalties",
    "refuse_same_pairings",
    "same_pairings",
    "slip_against_games",
    "without_round",
]


class RePair(msgspec.Struct, frozen=True, kw_only=True):
    """Re-pair the open round with the engine (EV-5.12): tables with a result keep it."""

    reason: str
    by: str = ""


class UndoRound(msgspec.Struct, frozen=True, kw_only=True):
    """Take back the latest round while no table of it has a result (EV-5.13)."""

    reason: str
    by: str = ""


class Undrop(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    reason: str
    by: str = ""


class ChangeSettings(msgspec.Struct, frozen=True, kw_only=True):
    """Change the number of Swiss rounds or the cut while still possible (EV-1.5)."""

    rounds: int | None = None
    cut: int | None = None
    reason: str
    by: str = ""


class WithdrawPenalty(msgspec.Struct, frozen=True, kw_only=True):
    """Withdraw the event's penalty number ``penalty`` (1 first, EV-8.7); ``result`` is the
    table's result without it when the penalty decided a game or the match."""

    penalty: int
    reason: str
    by: str = ""
    result: str | None = None


class AttachDecklist(msgspec.Struct, frozen=True, kw_only=True):
    """Attach or replace a registered player's list before their first round (EV-2.8).
    ``digest``: the list's (``referee.kit.decks.deck_digest``); ``held``: the digest of the
    list the player has now, ``""`` for none (the service keeps the lists: the facts do not
    hold them). The same list again is refused; a command without a digest (a stored fact
    judged again) is not compared."""

    player: str
    by: str = ""
    digest: str = ""
    held: str = ""


class CorrectRating(msgspec.Struct, frozen=True, kw_only=True):
    """Correct a registered player's rating (``None``: they have none) until round 1 is
    paired (EV-2.11): round 1 is seeded by rating (EV-5.6)."""

    player: str
    rating: int | None
    reason: str
    by: str = ""


Fix = (
    RePair | UndoRound | Undrop | ChangeSettings | WithdrawPenalty | AttachDecklist | CorrectRating
)


MAX_RATING = 9_999
"""The highest rating a player is registered with (EV-2.11): Elo, Glicko and the like fit."""


def check_rating(rating: int | None, name: str) -> Refusal | None:
    """The refusal (EV-2.11) of a rating outside 0 to ``MAX_RATING`` (or not a whole
    number) for the player ``name``; ``None`` for a rating in bounds, or none."""
    if rating is None:
        return None
    if isinstance(rating, bool) or not isinstance(rating, int):
        return Refusal("EV-2.11", f"{name}'s rating is a whole number, not {rating!r}")
    if not 0 <= rating <= MAX_RATING:
        return Refusal(
            "EV-2.11",
            f"{name}'s rating is a whole number from 0 to {MAX_RATING:,}, not {rating:,}",
        )
    return None


# -- reads the decisions share -----------------------------------------------------------


def without_round(state: Tournament, number: int) -> Tournament:
    """The state as if round ``number`` had never been paired: what a re-pairing of it
    sees, so its replaced pairings are not "met" (EV-5.4, EV-5.12)."""
    from referee.tournament.state import _without_round_tables

    tables, _ = _without_round_tables(state, number)
    return msgspec.structs.replace(
        state, rounds={n: r for n, r in state.rounds.items() if n != number}, tables=tables
    )


def open_games(state: Tournament, table: TableState | None = None) -> list[str]:
    """Linked games with no result that are not void: at ``table``, or anywhere."""
    tables = [table] if table is not None else list(state.tables.values())
    out: list[str] = []
    for current in tables:
        ended = {g for g, _ in current.game_results}
        out += [g for g in current.games if g not in ended and g not in state.voided]
    return out


def _decided(state: Tournament, table: TableState) -> bool:
    return state.result(table.round, table.table) is not None


def _has_result(table: TableState) -> bool:
    return table.reported is not None or bool(table.game_results)


def game_losses_to_come(state: Tournament, table: TableState) -> list[tuple[int, str]]:
    """The game losses (penalty number, player) that count in the match at ``table`` but
    are not among its recorded games yet (EV-3.10, IPG 1.2): one that ended a game of this
    table whose result is not recorded, and one still waiting for the player's next game
    (given between games or between matches), which is in this match when it is the
    player's match in progress. Withdrawn ones, and those whose game was void, count not."""
    recorded = {game for game, _ in table.game_results}
    here = (table.round, table.table)
    out: list[tuple[int, str]] = []
    for number, penalty, at in _game_losses_at(state, table):
        if at is None:
            out.append((number, penalty.player))
            continue
        game = penalty.game if isinstance(penalty.game, str) else state.penalty_games.get(number)
        if at == here and game not in recorded and game not in state.voided:
            out.append((number, penalty.player))
    return out


def _game_losses_at(
    state: Tournament, table: TableState
) -> Iterator[tuple[int, PenaltyRecorded, TableKey | None]]:
    """The game losses given to a player of ``table`` and not withdrawn, each with where
    it was applied; one not applied yet only when ``table`` is its player's match in
    progress (where it waits for the next game)."""
    here = (table.round, table.table)
    for number, penalty in enumerate(state.penalties, start=1):
        if (
            penalty.penalty != "game-loss"
            or penalty.player not in table.players
            or number in state.withdrawn_penalties
        ):
            continue
        at = state.applied_penalties.get(number)
        if at is None:
            mine = current_table(state, penalty.player)
            if mine is None or (mine.round, mine.table) != here:
                continue
        yield number, penalty, at


def next_game_losses(state: Tournament, table: TableState) -> list[int]:
    """The game losses (penalty numbers, in order) waiting for the next game of the match
    at ``table`` (EV-8.6, IPG 1.2): given between games of this match (applied here, their
    game not named yet), or between matches to a player whose match in progress this is.
    Withdrawn ones wait for nothing."""
    here = (table.round, table.table)
    return [
        number
        for number, penalty, at in _game_losses_at(state, table)
        if not isinstance(penalty.game, str)
        and number not in state.penalty_games
        and (at is None or at == here)
    ]


def slip_against_games(state: Tournament, table: TableState, result: Score) -> None:
    """Refuse (EV-3.10) a slip that disagrees with the games recorded at ``table``: each
    recorded game's winner needs at least that many games in the slip, and each game loss
    still to be recorded (``game_losses_to_come``) is one more game the penalized player's
    opponent won."""
    if len(table.players) != 2:
        return
    first, second = table.players
    counted = [0, 0, 0]
    slip = (result.wins, result.losses, result.draws)
    for game, placings in table.game_results:
        places = dict(placings)
        a, b = places.get(first, 99), places.get(second, 99)
        index = 2 if a == b else 0 if a < b else 1
        counted[index] += 1
        if slip[index] < counted[index]:
            won = "a draw" if index == 2 else f"won by {state.players[table.players[index]].name}"
            raise Refusal(
                "EV-3.10",
                f"game {game} at round {table.round} table {table.table} was {won}; the slip "
                f"{result.text} does not count it: correct the games or give a slip that agrees",
            )
    for number, player in game_losses_to_come(state, table):
        index = 1 if player == first else 0  # the game is the opponent's
        counted[index] += 1
        if slip[index] < counted[index]:
            name = state.players[player].name
            raise Refusal(
                "EV-3.10",
                f"{name} has a game loss in this match (penalty {number}, IPG 1.2) that the "
                f"recorded games do not hold yet; the slip {result.text} does not count it as "
                f"a game {name} lost: give a slip that does, or withdraw the penalty",
            )


def placement_against_game_losses(state: Tournament, table: TableState, result: Placement) -> None:
    """Refuse (EV-3.10) a pod's slip that does not count a game loss at ``table``: a pod
    is one game (``Tournament.decided_by_games``), and a game loss given there ends the
    player's seat in it (IPG 1.2, EV-8.6), so the slip must place each player with a game
    loss still to be recorded (``game_losses_to_come``) below every player without one.
    Without this the slip would close the game as void (EV-3.9) and the penalty with it."""
    penalized = dict((player, number) for number, player in game_losses_to_come(state, table))
    if not penalized:
        return
    others = [place for player, place in result.places if player not in penalized]
    for player, number in penalized.items():
        place = result.place_of(player)
        if any(other >= place for other in others):
            name = state.players[player].name
            raise Refusal(
                "EV-3.10",
                f"{name} has a game loss at this pod (penalty {number}, IPG 1.2): the pod's "
                f"game is lost, so the slip places {name} below every player without one; "
                "give a slip that does, or withdraw the penalty",
            )


# -- the decisions ---------------------------------------------------------------------


def decide_fix(state: Tournament, command: Fix) -> tuple[Fact, ...]:
    """The facts ``command`` produces in ``state``, or a ``Refusal``."""
    state.created()
    if not isinstance(command, WithdrawPenalty):  # a withdrawal is taken after the end
        state.running()
    decision = _FIXES.get(type(command))
    if decision is None:
        raise TypeError(f"not a fix: {command!r}")
    return decision(state, command)


def latest_round(state: Tournament, reason: str, clause: str, what: str) -> int:
    """The latest round, which a re-pairing (EV-5.12, by the engine or by hand) or an undo
    (EV-5.13) takes on: refused without a reason (``what`` needs one) or before round 1 is
    paired."""
    if not reason.strip():
        raise Refusal(clause, f"{what} needs a reason")
    number = state.current_round
    if not number:
        raise Refusal(clause, "no round has been paired yet")
    return number


def _repair(state: Tournament, command: RePair) -> tuple[Fact, ...]:
    number = latest_round(state, command.reason, "EV-5.12", "a change of pairings")
    if state.open_round() != number:
        raise Refusal(
            "EV-5.12", f"round {number} has every result in: correct results instead of re-pairing"
        )
    rnd = state.rounds[number]
    if rnd.kind not in ("swiss", "pods"):
        raise Refusal(
            "EV-5.12",
            f"round {number} is a {rnd.kind} round: the engine re-pairs Swiss rounds only; "
            "give the new pairings with --manual",
        )
    kept = [
        p
        for p in rnd.pairings
        if p.table is not None and _has_result(state.tables[(number, p.table)])
    ]
    held = {player for p in kept for player in p.players}
    base = without_round(state, number)
    seats: list[Seat] = [s for s in base.seats(number) if s.id not in held]
    awarded = [p for p in base.awarded_in(number) if p not in held]
    fresh = (
        pair_pods(number, seats, awarded=awarded)
        if rnd.kind == "pods"
        else pair_swiss(number, seats, awarded=awarded)
    )
    taken = {p.table for p in kept}
    free = (n for n in range(1, 10**6) if n not in taken)
    renumbered = [
        p if p.table is None else msgspec.structs.replace(p, table=next(free))
        for p in fresh.pairings
    ]
    pairings = sorted(
        [*kept, *renumbered], key=lambda p: (p.table is None, p.table or 0, p.players)
    )
    new = Round(number=number, kind=rnd.kind, pairings=tuple(pairings))
    refuse_same_pairings(rnd, new)
    return (PairingChanged(round=new, reason=command.reason, by=command.by),)


def refuse_same_pairings(old: Round, new: Round) -> None:
    """Refuse (EV-5.12) a re-pairing that leaves every table and bye as it was: it would
    store a change that changes nothing."""
    if same_pairings(old, new):
        raise Refusal(
            "EV-5.12",
            f"round {old.number} would be paired exactly as it is: nothing changed, "
            "nothing is recorded",
        )


def same_pairings(old: Round, new: Round) -> bool:
    """Whether ``new`` seats every table and bye of ``old`` as it is (in any order)."""
    return _tables_of(old) == _tables_of(new)


def _tables_of(rnd: Round) -> list[tuple[bool, int, tuple[str, ...], bool]]:
    return sorted((p.table is None, p.table or 0, p.players, p.bye) for p in rnd.pairings)


def _undo(state: Tournament, command: UndoRound) -> tuple[Fact, ...]:
    number = latest_round(state, command.reason, "EV-5.13", "undoing a round")
    for (rnd, at), table in sorted(state.tables.items()):
        if rnd == number and _has_result(table):
            what = (
                "a result"
                if table.reported is not None
                else f"a game result (game {table.game_results[0][0]})"
            )
            raise Refusal(
                "EV-5.13",
                f"round {number} table {at} already has {what}: a round is undone only "
                "before its first result; re-pair the tables still playing ('event repair', "
                "EV-5.12) or correct a result (EV-8.1)",
            )
    return (RoundUndone(round=number, reason=command.reason, by=command.by),)


def _undrop(state: Tournament, command: Undrop) -> tuple[Fact, ...]:
    if not command.reason.strip():
        raise Refusal("EV-2.7", "an undrop needs a reason")
    found = state.registered(command.player)
    entrant = state.players[found]
    if entrant.dropped_after is None:
        raise Refusal("EV-2.7", f"{entrant.name} has not dropped")
    for number, penalty in enumerate(state.penalties, start=1):
        if (
            penalty.player == found
            and penalty.penalty == "disqualification"
            and number not in state.withdrawn_penalties
        ):
            raise Refusal(
                "EV-2.7",
                f"{entrant.name} was disqualified (penalty {number}): withdraw the penalty "
                "instead ('event penalty withdraw')",
            )
    if state.cut:
        raise Refusal("EV-2.7", "the cut has been made: a player cannot come back into the Swiss")
    return (PlayerUndropped(player=found, reason=command.reason, by=command.by),)


def _settings(state: Tournament, command: ChangeSettings) -> tuple[Fact, ...]:
    settings = state.settings
    assert settings is not None
    if not command.reason.strip():
        raise Refusal("EV-1.5", "a change of the event's settings needs a reason")
    if command.rounds is None and command.cut is None:
        raise Refusal("EV-1.5", "give the new number of Swiss rounds, the new cut, or both")
    if settings.format != "swiss":
        raise Refusal("EV-1.5", f"a {settings.format} event has no Swiss rounds or cut to change")
    paired = len(state.kind_rounds("swiss", "pods"))
    if state.cut or state.kind_rounds("cut"):
        raise Refusal(
            "EV-1.5", "the cut has been made: the Swiss rounds and the cut can no longer change"
        )
    if command.rounds is not None:
        if command.rounds < 1:
            raise Refusal("EV-1.3", "an event plays at least one round")
        if command.rounds < paired:
            raise Refusal(
                "EV-1.5",
                f"{paired} Swiss rounds have already been paired: the event cannot play "
                f"only {command.rounds}",
            )
    if command.cut is not None and command.cut != 0 and command.cut < 2:
        raise Refusal("EV-6.1", "a cut needs at least two players")
    if command.rounds in (None, settings.rounds) and command.cut in (None, settings.cut):
        raise Refusal(
            "EV-1.5",
            f"the event already plays {settings.rounds or 'the default'} Swiss rounds and a "
            f"cut of {settings.cut}: nothing changed, nothing is recorded",
        )
    return (
        SettingsChanged(
            rounds=command.rounds, cut=command.cut, reason=command.reason, by=command.by
        ),
    )


def penalty_effects(state: Tournament, penalty: PenaltyRecorded) -> tuple[Fact, ...]:
    """What an event penalty does to the match (EV-8.6, IPG 1.2), given as penalty number
    ``len(state.penalties) + 1``: a match loss decides the player's match of the round, if
    it has no result yet, and closes its open games as void; a game loss names the
    player's open game (the fact's ``game``; the service ends it in the game itself), or,
    given between games of the match (no game open), the match's next game, named when it
    is linked (``next_game_losses``); both are then marked applied. With no match in
    progress they wait for the player's next match (``pending_at_pairing``). A
    disqualification loses the player's match in progress as a match loss does (IPG 1.1:
    the player loses their current match and is removed) and drops the player (the service
    adds the drop); given between matches it waits for none, as the player is not paired
    again."""
    number = len(state.penalties) + 1
    table = current_table(state, penalty.player)
    if table is None:
        return ()
    if penalty.penalty == "game-loss" and isinstance(penalty.game, str):
        return (
            PenaltyApplied(penalty=number, round=table.round, table=table.table, game=penalty.game),
        )
    if penalty.penalty == "game-loss":
        # between games of the match in progress: it takes effect in this match, in its
        # next game (named when that game is linked), and never waits for the next round
        return (PenaltyApplied(penalty=number, round=table.round, table=table.table),)
    if penalty.penalty not in ("match-loss", "disqualification"):
        return ()
    decided = _match_loss(state, penalty, table)
    if decided is None:
        return ()
    return (
        *decided,
        PenaltyApplied(penalty=number, round=table.round, table=table.table),
    )


def _match_loss(
    state: Tournament, penalty: PenaltyRecorded, table: TableState
) -> tuple[Fact, ...] | None:
    """The match at ``table`` lost by ``penalty.player`` by the games the match needs, its
    open games closed as void; ``None`` where it cannot be applied. At a pod table the
    player is placed last in the pod's result (``Tournament.result``, EV-I.11): the facts
    are the voided games once no other player of the pod is left to play them."""
    settings = state.settings
    assert settings is not None
    name = state.players[penalty.player].name
    if settings.pods:
        last = state.placed_last((table.round, table.table)) | {penalty.player}
        if len(set(table.players) - last) > 1:
            return ()  # the others play on; their result is reported as usual
        games = open_games(state, table)
        why = f"match loss for {name}: the pod's result is decided (EV-I.11)"
        return (GamesVoided(games=tuple(games), reason=why, by=penalty.by),) if games else ()
    if len(table.players) != 2:
        return None
    need = games_to_win(settings.match)
    loser = table.players.index(penalty.player)
    score = Score(need, 0) if loser == 1 else Score(0, need)
    facts: list[Fact] = [
        MatchReported(round=table.round, table=table.table, score=score, by=penalty.by)
    ]
    games = open_games(state, table)
    if games:
        facts.append(
            GamesVoided(
                games=tuple(games),
                reason=f"match loss for {name}",
                by=penalty.by,
            )
        )
    return tuple(facts)


def pending_penalties(state: Tournament) -> list[tuple[int, PenaltyRecorded]]:
    """Game and match losses given between matches, waiting for the player's next match
    (IPG 1.2): not applied, not withdrawn, numbered from 1."""
    return [
        (number, p)
        for number, p in enumerate(state.penalties, start=1)
        if p.penalty in ("game-loss", "match-loss")
        and number not in state.applied_penalties
        and number not in state.withdrawn_penalties
    ]


def pending_at_pairing(state: Tournament) -> tuple[Fact, ...]:
    """The waiting match losses, applied to the round just paired (EV-8.6): each player's
    new match is decided as lost before its games are made."""
    facts: list[Fact] = []
    for number, penalty in pending_penalties(state):
        if penalty.penalty != "match-loss":
            continue
        table = current_table(state, penalty.player)
        if table is None:
            continue
        done = _match_loss(state, penalty, table)
        if done is None:
            continue
        facts += [*done, PenaltyApplied(penalty=number, round=table.round, table=table.table)]
        state = fold_facts(facts[-len(done) - 1 :], state)
    return tuple(facts)


def current_table(state: Tournament, player: str) -> TableState | None:
    """The player's table of the latest round, while its match has no result."""
    number = state.current_round
    if not number:
        return None
    for pairing in state.rounds[number].pairings:
        if pairing.table is not None and player in pairing.players:
            table = state.tables[(number, pairing.table)]
            return None if _decided(state, table) else table
    return None


def _withdraw(state: Tournament, command: WithdrawPenalty) -> tuple[Fact, ...]:
    if not command.reason.strip():
        raise Refusal("EV-8.7", "withdrawing a penalty needs a reason")
    count = len(state.penalties)
    if not 1 <= command.penalty <= count:
        raise Refusal(
            "EV-8.7",
            f"no penalty {command.penalty}: the event has {count} (numbered from 1, as the "
            "audit lists them)",
        )
    if command.penalty in state.withdrawn_penalties:
        raise Refusal("EV-8.7", f"penalty {command.penalty} is already withdrawn")
    penalty = state.penalties[command.penalty - 1]
    facts: list[Fact] = [
        PenaltyWithdrawn(penalty=command.penalty, reason=command.reason, by=command.by)
    ]
    name = state.players[penalty.player].name
    if penalty.penalty == "disqualification":
        if state.ended:
            raise Refusal("EV-8.7", "the event has ended: a disqualification stands in its results")
        if state.players[penalty.player].dropped_after is not None and not state.cut:
            facts.append(
                PlayerUndropped(
                    player=penalty.player,
                    reason=f"penalty {command.penalty} withdrawn: {command.reason}",
                    by=command.by,
                )
            )
    # the result a penalty decided is corrected with it: a game or match loss, or the
    # match a disqualification lost (only where it was applied: a DQ between matches
    # decided none)
    key = state.applied_penalties.get(command.penalty)
    if key is None and penalty.penalty in ("game-loss", "match-loss"):
        key = _table_of(state, penalty)
    if key is not None and penalty.player in state.placed_last(key):
        key = None  # a pod's result stands without the penalty by itself (EV-I.11)
    if (
        penalty.penalty not in ("none", "warning")
        and key is not None
        and state.result(*key) is not None
    ):
        if command.result is None:
            raise Refusal(
                "EV-8.7",
                f"the {penalty.penalty} of {name} counts in round {key[0]} table {key[1]}: "
                "give the table's result without it, as W-L-D",  # every face asks for it: no flag
            )
        from referee.tournament.slips import parse_slip

        rnd = state.rounds[key[0]]
        score = parse_slip(
            command.result,
            state.settings.match if state.settings else "bo3",
            playoff=rnd.kind in ("cut", "elimination"),
        )
        facts.append(
            ResultCorrected(
                round=key[0],
                table=key[1],
                score=score,
                reason=f"penalty {command.penalty} withdrawn: {command.reason}",
                by=command.by,
            )
        )
    return tuple(facts)


def _table_of(state: Tournament, penalty: PenaltyRecorded) -> tuple[int, int] | None:
    if isinstance(penalty.game, str) and penalty.game in state.games:
        return state.games[penalty.game]
    if penalty.table is not None and (penalty.round, penalty.table) in state.tables:
        return (penalty.round, penalty.table)
    return None


def decklist_lock_round(state: Tournament, player: str) -> int:
    """The round whose pairing locks ``player``'s decklist (EV-2.8, MTR 2.7): the event's
    deadline round (round 1 without one), or the player's first round if later."""
    assert state.settings is not None
    deadline = state.settings.deck_deadline
    return max(deadline if isinstance(deadline, int) else 1, state.players[player].entry_round)


def _attach(state: Tournament, command: AttachDecklist) -> tuple[Fact, ...]:
    found = state.registered(command.player)
    entrant = state.players[found]
    lock = decklist_lock_round(state, found)
    if lock <= state.current_round:
        raise Refusal(
            "EV-2.8",
            f"round {lock} has been paired: {entrant.name}'s decklist is locked (MTR 2.7); a "
            "wrong list is a decklist problem for the head judge",
        )
    if command.digest and command.digest == command.held:
        raise Refusal(
            "EV-2.8",
            f"{entrant.name} already has this decklist: nothing changed, nothing is recorded",
        )
    return (DecklistAttached(player=found, by=command.by),)


def _rating(state: Tournament, command: CorrectRating) -> tuple[Fact, ...]:
    if not command.reason.strip():
        raise Refusal("EV-2.11", "a rating's correction needs a reason")
    found = state.registered(command.player)
    entrant = state.players[found]
    refused = check_rating(command.rating, entrant.name)
    if refused is not None:
        raise refused
    if state.current_round:
        raise Refusal(
            "EV-2.11",
            "round 1 has been paired: the order the ratings gave it stands, so a rating is no "
            "longer corrected",
        )
    if command.rating == entrant.rating:
        held = "no rating" if entrant.rating is None else f"the rating {entrant.rating}"
        raise Refusal(
            "EV-2.11", f"{entrant.name} already has {held}: nothing changed, nothing is recorded"
        )
    return (
        RatingCorrected(player=found, rating=command.rating, reason=command.reason, by=command.by),
    )


_FIXES: dict[type, Callable[[Tournament, Any], tuple[Fact, ...]]] = {
    RePair: _repair,
    UndoRound: _undo,
    Undrop: _undrop,
    ChangeSettings: _settings,
    WithdrawPenalty: _withdraw,
    AttachDecklist: _attach,
    CorrectRating: _rating,
}
"""The decision of each fix, as ``decisions._DECISIONS`` holds each command's."""

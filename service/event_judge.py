"""Judging an imported event record (issue 31): its facts replayed through the same
decisions as the live commands.

A game record is imported only once every entry has been re-decided
(``events.integrity.recheck_decisions``); an event record was only chain-checked, so a
re-hashed record with a 3-0 in a best of 3, a table reported twice, a player registered
twice or a result for a table never paired imported as "intact" and then broke every read
of that event. Here each stored fact is turned back into the command that makes it, the
command is decided on the state folded so far, and the record is refused, with the clause
the live command names, when the decision refuses or decides anything else than what is
stored. Nothing of a refused record is stored (the import refuses the whole file).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from events.schema import GameEvent
from events.tournament import to_fact
from referee.tournament import decisions as d
from referee.tournament import facts as f
from referee.tournament import fixing as fx
from referee.tournament.errors import Refusal
from referee.tournament.model import PLAYOFF_KINDS, Round, SwissPlan
from referee.tournament.state import Tournament, apply
from service.bounds import check_cut, check_name, check_reason, check_rounds
from service.errors import RefusedError

__all__ = ["EventJudgement", "judge_event"]


class EventJudgement(Exception):
    """Why an event record is refused: the stored event's number, the clause, the words."""

    def __init__(self, number: int, clause: str, reason: str) -> None:
        super().__init__(f"{clause}: {reason}")
        self.number = number
        self.clause = clause
        self.reason = reason


def _spec(state: Tournament, rnd: Round) -> dict[str, Any]:
    """The hand pairing (``--manual``) that gives ``rnd``: its tables in order, then byes."""
    groups = [list(p.players) for p in rnd.pairings if not p.bye]
    byes = [p.players[0] for p in rnd.pairings if p.bye]
    key = "pods" if state.settings is not None and state.settings.pods else "pairs"
    return {key: groups, "byes": byes}


def _commands(state: Tournament, fact: f.Fact) -> d.Command | None:
    """The live command that makes ``fact`` (``None``: a fact another command makes)."""
    match fact:
        case f.EventCreated(settings=settings):
            return d.CreateEvent(settings=settings)
        case f.PlayerRegistered(player=p):
            return d.Register(
                name=p.name,
                id=p.id,
                rating=p.rating,
                table=p.table,
                byes=p.byes,
                player_id=p.player_id or None,
                late_as_losses=bool(p.late_as_losses),
                allow_similar=True,  # the organizer may have allowed it; ids tell them apart
            )
        case f.PlayerDropped(player=player, reason=reason):
            return d.Drop(player=player, reason=reason)
        case f.ByeAwarded(player=player, round=number, reason=reason):
            return d.AwardBye(player=player, round=number, reason=reason)
        case f.RoundPaired(round=rnd, override=override, by=by):
            if override is not None:
                who = by if isinstance(by, str) else ""
                return d.PairManual(spec=_spec(state, rnd), reason=override, by=who)
            return d.PairNext()
        case f.CutMade():
            return d.PairNext()
        case f.PairingChanged(round=rnd, reason=reason, by=by):
            if any(
                number == rnd.number and (table.reported is not None or table.game_results)
                for (number, _), table in state.tables.items()
            ):
                return None  # only the engine re-pairs once a table has a result: _fix
            return d.ChangePairing(spec=_spec(state, rnd), reason=reason, by=by)
        case f.GameLinked(round=number, table=table, game=game):
            return d.LinkGame(round=number, table=table, game=game)
        case f.GameResultRecorded(game=game, placings=placings):
            return d.RecordGameResult(game=game, placings=dict(placings))
        case f.MatchReported(round=number, table=table, by=by):  # judged as it was stored
            slip = _slip(fact)
            return d.ReportResult(round=number, table=table, slip=slip, by=by, replayed=True)
        case f.ResultCorrected(round=number, table=table, reason=reason, by=by):
            return d.CorrectResult(
                round=number, table=table, slip=_slip(fact), reason=reason, by=by, replayed=True
            )
        case f.PenaltyRecorded():  # the command's every field is the fact's, by name
            return msgspec.convert(fact, d.RecordPenalty, from_attributes=True)
        case f.RoundStarted(round=number, by=by):  # ``by`` unset: marked before it was named
            who = by if isinstance(by, str) else ""
            return d.StartRound(round=number, by=who, replayed=True)  # once taken after its end
        case f.RoundEnded(round=number, by=by):
            return d.EndRound(round=number, by=by if isinstance(by, str) else "")
        case f.EventEnded(reason=reason):
            return d.EndEvent(reason=reason)
    return None


def _fix(fact: f.Fact, following: f.Fact | None) -> fx.Fix | None:
    """The fixing command (issue 29) that makes ``fact`` (``None``: none does); a withdrawn
    penalty's table result is the correction that follows it, when one does."""
    match fact:
        case f.RoundUndone(reason=reason, by=by):
            return fx.UndoRound(reason=reason, by=by)
        case f.PairingChanged(reason=reason, by=by):  # after a result: the engine's (EV-5.12)
            return fx.RePair(reason=reason, by=by)
        case f.PlayerUndropped(player=player, reason=reason, by=by):
            return fx.Undrop(player=player, reason=reason, by=by)
        case f.SettingsChanged(rounds=rounds, cut=cut, reason=reason, by=by):
            return fx.ChangeSettings(rounds=rounds, cut=cut, reason=reason, by=by)
        case f.PenaltyWithdrawn(penalty=number, reason=reason, by=by):
            result = _slip(following) if isinstance(following, f.ResultCorrected) else None
            return fx.WithdrawPenalty(penalty=number, reason=reason, by=by, result=result)
        case f.DecklistAttached(player=player, by=by):
            return fx.AttachDecklist(player=player, by=by)
        case f.RatingCorrected(player=player, rating=rating, reason=reason, by=by):
            return fx.CorrectRating(player=player, rating=rating, reason=reason, by=by)
    return None


def _slip(fact: f.MatchReported | f.ResultCorrected) -> str:
    if fact.score is not None:
        s = fact.score
        return f"{s.wins}-{s.losses}-{s.draws}"  # a negative count is refused as unreadable
    return fact.placement.text if fact.placement is not None else ""


def _bounds(event: GameEvent, fact: f.Fact) -> None:
    """The field bounds of every door (``service.bounds``) on what the record carries."""
    if isinstance(fact, f.EventCreated):
        check_name(str(getattr(event, "name", "") or "?"), "an event's name")
        check_rounds(fact.settings.rounds)
        check_cut(fact.settings.cut)
    elif isinstance(fact, f.SettingsChanged):
        check_rounds(fact.rounds)
        check_cut(fact.cut if fact.cut is not None else 0)
    elif isinstance(fact, f.PlayerRegistered):
        check_name(fact.player.name, "a player's name")
    reason = getattr(fact, "reason", None)
    if isinstance(reason, str):
        check_reason(reason)
    override = getattr(fact, "override", None)
    if isinstance(override, str):
        check_reason(override, "a pairing's reason")


def judge_event(events: Sequence[GameEvent]) -> None:
    """Raise ``EventJudgement`` at the first stored fact a live command would not make."""
    state = Tournament()
    facts = [(e, to_fact(e)) for e in events]
    index = 0
    while index < len(facts):
        event, fact = facts[index]
        number = event.originator_version
        try:
            _bounds(event, fact)
        except RefusedError as exc:
            clause = (
                "EV-1.1"
                if isinstance(fact, f.EventCreated)
                else "EV-1.5"
                if isinstance(fact, f.SettingsChanged)
                else "EV-2.2"
            )
            raise EventJudgement(number, clause, str(exc)) from None
        command = _commands(state, fact)
        fix = None if command is not None else _fix(fact, _next(facts, index))
        if _changed_nothing(state, fact):
            # stored before such a change was refused (EV-5.12, EV-1.5): it changes
            # nothing, so it is folded as stored and the record replays as it was
            command = fix = None
        if command is None and fix is None:
            # a fact only another command makes after its own first fact (voided games,
            # penalties applied), or one the record cannot say who made with what standing
            # (judge calls and players' reports: claims by the head referee, say): folded
            # as stored
            state = apply(state, fact)
            index += 1
            continue
        try:
            if command is not None:
                made = d.decide(state, command)
            else:
                assert fix is not None
                made = fx.decide_fix(state, fix)
        except Refusal as exc:
            raise EventJudgement(number, exc.clause, exc.reason) from None
        stored = tuple(one for _, one in facts[index : index + len(made)])
        if len(made) == 1 and (
            _seated_before_ev_6_8(fact, made[0]) or _planned_before_ev_i_14(fact, made[0])
        ):
            made = (fact,)
        if stored == made:  # every fact the command makes, as stored (a cut and its round)
            for one in made:
                state = apply(state, one)
            index += len(made)
            continue
        if not made or made[0] != fact:
            raise EventJudgement(
                number,
                "EV-1.1",
                f"event {number} records {type(fact).__name__}, but the same command in the "
                "same state decides otherwise: the record was altered",
            )
        # the command's first fact is the one stored; any others it makes follow in the record
        state = apply(state, fact)
        index += 1


def _seated_before_ev_6_8(stored: f.Fact, made: f.Fact) -> bool:
    """A playoff round stored before EV-6.8 listed the upper bracket slot's winner first:
    the same round as the one decided now but for the order of a table's two players. It is
    folded as stored, so an earlier export imports and replays unchanged."""
    if not (isinstance(stored, f.RoundPaired) and isinstance(made, f.RoundPaired)):
        return False
    old, new = stored.round, made.round
    if old.kind not in PLAYOFF_KINDS or len(old.pairings) != len(new.pairings):
        return False
    if msgspec.structs.replace(stored, round=new) != made:
        return False
    return msgspec.structs.replace(old, pairings=new.pairings) == new and all(
        (a.table, a.bye, sorted(a.players)) == (b.table, b.bye, sorted(b.players))
        for a, b in zip(old.pairings, new.pairings, strict=True)
    )


def _planned_before_ev_i_14(stored: f.Fact, made: f.Fact) -> bool:
    """Round 1 of a Swiss event stored before EV-I.14 did not record the default number of
    Swiss rounds it fixes: the same pairing as the one decided now but for that plan. It is
    folded as stored, so the event keeps the count it always had (every player registered
    for round 1: ``Tournament.planned_swiss_rounds``) and an earlier export imports and
    replays unchanged."""
    if not (isinstance(stored, f.RoundPaired) and isinstance(made, f.RoundPaired)):
        return False
    if isinstance(stored.plan, SwissPlan) or not isinstance(made.plan, SwissPlan):
        return False
    return msgspec.structs.replace(made, plan=msgspec.UNSET) == stored


def _changed_nothing(state: Tournament, fact: f.Fact) -> bool:
    """A re-pairing, a change of settings or a correction that changes nothing, which a live
    command now refuses (EV-5.12, EV-1.5, EV-8.1) but an earlier record may hold."""
    match fact:
        case f.ResultCorrected(round=number, table=table, score=score, placement=placement):
            return (score if score is not None else placement) == state.result(number, table)
        case f.PairingChanged(round=rnd):
            current = state.rounds.get(rnd.number)
            return current is not None and fx.same_pairings(current, rnd)
        case f.SettingsChanged(rounds=rounds, cut=cut) if state.settings is not None:
            settings = state.settings
            return rounds in (None, settings.rounds) and cut in (None, settings.cut)
    return False


def _next(facts: Sequence[tuple[GameEvent, f.Fact]], index: int) -> f.Fact | None:
    return facts[index + 1][1] if index + 1 < len(facts) else None

"""The fold's runs (``referee.tournament.state._Run``) and the fold of stored events
(``events.tournament.fold_stored``) give exactly the state ``apply`` gives fact by fact: a
posting's check and every event's load fold this way (issue 32 goal 3)."""

from __future__ import annotations

from datetime import UTC, datetime

from events.tournament import fold_stored, to_fact, to_stored
from referee.tournament import (
    CorrectResult,
    CreateEvent,
    Drop,
    PairNext,
    Register,
    ReportResult,
    Settings,
    Tournament,
    decide,
)
from referee.tournament import facts as f
from referee.tournament.model import Score
from referee.tournament.state import apply, fold


def _facts() -> list[f.Fact]:
    """A 10-player Swiss of two rounds: registrations, games linked, game results, voids,
    slips, a correction and a drop, each kind of run fact between facts that end a run."""
    facts: list[f.Fact] = []
    state = Tournament()

    def run(*commands: object) -> None:
        nonlocal state
        for command in commands:
            for fact in decide(state, command):  # type: ignore[arg-type]
                facts.append(fact)
                state = apply(state, fact)

    def add(*made: f.Fact) -> None:
        nonlocal state
        for fact in made:
            facts.append(fact)
            state = apply(state, fact)

    run(CreateEvent(settings=Settings(game="prizmik", rounds=3)))
    run(*(Register(name=f"Player {i}") for i in range(10)))
    for number in (1, 2):
        run(PairNext())
        tables = [p for p in state.rounds[number].pairings if p.table is not None]
        for pairing in tables:
            assert pairing.table is not None
            game = f"g{number}-{pairing.table}"
            add(f.GameLinked(round=number, table=pairing.table, game=game))
            first, second = pairing.players
            add(f.GameResultRecorded(game=game, placings=((first, 1), (second, 2))))
            extra = f"{game}b"
            if pairing is tables[0]:  # a second game won: the games decide the match
                add(f.GameLinked(round=number, table=pairing.table, game=extra))
                add(f.GameResultRecorded(game=extra, placings=((first, 1), (second, 2))))
            elif pairing.table % 2:  # a second game, made void by the slip
                add(f.GameLinked(round=number, table=pairing.table, game=extra))
                add(f.GamesVoided(games=(extra,), reason="the slip decided the match"))
        for pairing in tables[1:]:
            assert pairing.table is not None
            run(ReportResult(round=number, table=pairing.table, slip="2-1-0"))
        if number == 1:
            run(Drop(player="Player 3"))
            run(CorrectResult(round=1, table=2, slip="0-2-0", reason="slip reversed"))
            add(
                f.ResultCorrected(
                    round=1, table=3, score=Score(1, 1, 1), reason="a drawn game missed"
                )
            )
    return facts


def test_the_fold_of_runs_is_the_fold_fact_by_fact() -> None:
    facts = _facts()
    kinds = {type(x) for x in facts}
    assert {f.PlayerRegistered, f.GameLinked, f.GameResultRecorded, f.GamesVoided} <= kinds
    assert {f.MatchReported, f.ResultCorrected, f.PlayerDropped, f.RoundPaired} <= kinds
    each = Tournament()
    states = [each]
    for fact in facts:
        each = apply(each, fact)
        states.append(each)
    assert fold(facts) == each
    for cut in range(len(facts) + 1):  # from any state, any tail: a run starts mid-way
        assert fold(facts[cut:], states[cut]) == each
        assert fold(facts[:cut]) == states[cut]
    assert list(fold(facts).players) == list(each.players)  # the same order too
    assert fold(facts).result(1, 2) == each.result(1, 2) != each.result(1, 3)


def test_the_fold_of_stored_events_is_the_fold_of_their_facts() -> None:
    facts = _facts()
    when = datetime(2026, 11, 28, tzinfo=UTC)
    header = {"originator_id": "ev-folding", "timestamp": when, "prev_hash": "", "hash": ""}
    stored = [
        to_stored(fact, {**header, "originator_version": n})
        for n, fact in enumerate(facts, start=1)
    ]
    assert [to_fact(e) for e in stored] == facts
    each = fold(facts)
    assert fold_stored(stored) == each
    assert fold_stored(stored[40:], fold_stored(stored[:40])) == each

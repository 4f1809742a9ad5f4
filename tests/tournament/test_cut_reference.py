"""The project's cut, bracket and final standings agree with an independent reading of the
MTR (``tests/tournament/cut_reference.py``: MTR 10.4, 2.2, 2.10, 3.1): random Swiss events
-- 2 to 20 players, 1 to 4 rounds, every slip the match length allows, awarded byes, drops
after any Swiss round and between playoff rounds -- are run command by command through
``decide``, cut to the top 2 to 8 (powers of two or not, more than the players left or
not), and at every playoff round the engine's bracket (who, in which order, who is listed
first, byes), its Swiss standings (unchanged by the playoff, EV-6.5) and its final places
and how far each player went (EV-6.7, EV-I.9) must be the model's.

The quick version runs in the suite; ``python -m tests.tournament.test_cut_reference N``
plays N seeded events (the longer hunt, run apart).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.tournament import CreateEvent, Drop, PairNext, Register, ReportResult
from referee.tournament.decisions import pairing_over
from referee.tournament.model import MatchFormat, Settings, games_to_win
from referee.tournament.playoff import final_places
from referee.tournament.state import Tournament
from tests.tournament import cut_reference as ref
from tests.tournament import mtr_reference as mtr
from tests.tournament.helpers import Chooser, Drawn, hunt, refusal, run, slips


def _id(state: Tournament, name: str) -> str:
    return next(p for p, e in state.players.items() if e.name == name)


def _dropped(state: Tournament) -> set[str]:
    return {p for p, e in state.players.items() if e.dropped_after is not None}


def _maybe_drop(
    state: Tournament, pick: Chooser, among: Sequence[str], most: int, keep: int
) -> Tournament:
    """Drop up to ``most`` of ``among`` (ids), now and then, keeping ``keep`` of them."""
    for _ in range(pick.integer(0, most)):
        staying = [p for p in among if state.players[p].dropped_after is None]
        if len(staying) > keep and pick.integer(0, 2) == 0:
            state = run(state, Drop(player=state.players[pick.choice(staying)].name))
    return state


def _engine_round(state: Tournament) -> list[ref.Match]:
    return [ref.Match(p.players) for p in state.rounds[state.current_round].pairings]


def _check_swiss_unchanged(
    state: Tournament, players: list[str], outcomes: list[mtr.Outcome]
) -> list[str]:
    """EV-6.5 (MTR 3.1): the standings are the Swiss rounds' alone, playoff or not."""
    want = mtr.standings(players, outcomes)
    got = state.standings()
    assert [s.player for s in got] == [line.player for line in want]
    for line, mine in zip(got, want, strict=True):
        assert (line.points, line.rank) == (mine.match_points, mine.rank), line.player
        figures = tuple(Fraction(x) for x in (line.mw, line.gw, line.omw, line.ogw))
        assert figures == (mine.mw, mine.gw, mine.omw, mine.ogw), line.player
    return [line.player for line in want]


def _check_places(state: Tournament, playoff: ref.Playoff, swiss: list[str]) -> None:
    """EV-I.9, EV-6.7: the final order and how far each player of the cut went."""
    places = final_places(state, swiss)
    assert [p.player for p in places] == playoff.final_order(swiss)
    assert [p.place for p in places] == list(range(1, len(swiss) + 1))
    for place in places:
        want = playoff.went(place.player) if place.player in playoff.seeds else None
        assert place.went == want, place.player


def play(pick: Chooser) -> None:
    """One random event with a cut, checked against the model at every playoff round."""
    count = pick.integer(2, 20)
    rounds = pick.integer(1, 4)
    cut = pick.choice([2, 2, 4, 4, 8, 8, 3, 5, 6, 7])
    match: MatchFormat = pick.choice(["bo1", "bo3", "bo3", "bo5"])
    need = games_to_win(match)
    event = Settings(game="prizmik", rounds=rounds, cut=cut, match=match)
    state = run(Tournament(), CreateEvent(settings=event))
    names = [f"P{i}" for i in range(count)]
    state = run(state, *(Register(name=n, byes=pick.choice([0] * 6 + [1])) for n in names))
    players = [_id(state, n) for n in names]
    outcomes: list[mtr.Outcome] = []
    swiss_slips = slips(need)
    for number in range(1, rounds + 1):
        state = run(state, PairNext())
        paired = state.rounds[number].pairings
        outcomes += [mtr.Bye(number, p.players[0]) for p in paired if p.bye]
        for pairing in (p for p in paired if not p.bye):
            assert pairing.table is not None
            a, b, d = pick.choice(swiss_slips)
            state = run(state, ReportResult(round=number, table=pairing.table, slip=f"{a}-{b}-{d}"))
            first, second = pairing.players
            outcomes.append(mtr.Played(number, first, second, a, b, d))
        state = _maybe_drop(state, pick, players, 2, keep=2)
    swiss = _check_swiss_unchanged(state, players, outcomes)
    # the cut (EV-6.1, EV-6.2; MTR 10.4, 2.10)
    state = run(state, PairNext())
    seeds = ref.make_cut(swiss, _dropped(state), cut)
    assert list(state.cut) == seeds
    playoff = ref.Playoff(seeds)
    playoff.first_round()
    playoff_slips = slips(need, playoff=True)

    def check(now: Tournament) -> None:
        assert _check_swiss_unchanged(now, players, outcomes) == swiss
        _check_places(now, playoff, swiss)

    check(_play_bracket(state, pick, playoff, "cut", playoff_slips, check))


def _play_bracket(
    state: Tournament,
    pick: Chooser,
    playoff: ref.Playoff,
    kind: str,
    allowed: Sequence[tuple[int, int, int]],
    check: Callable[[Tournament], None],
) -> Tournament:
    """Play the bracket from its first round (paired) to the end, comparing each round the
    engine pairs with the model's and calling ``check`` on the event while and after it is
    played."""
    expected = playoff.rounds[-1]
    while True:
        assert _engine_round(state) == [m for m in expected if m is not None], state.current_round
        assert state.rounds[state.current_round].kind == kind
        playoff.byes_through()
        check(state)  # while the round is played
        slot_of = [i for i, m in enumerate(expected) if m is not None]
        for pairing, slot in zip(state.rounds[state.current_round].pairings, slot_of, strict=True):
            if pairing.bye:
                continue
            assert pairing.table is not None
            a, b, d = pick.choice(allowed)
            slip = ReportResult(round=state.current_round, table=pairing.table, slip=f"{a}-{b}-{d}")
            state = run(state, slip)
            playoff.record(slot, pairing.players[0 if a > b else 1])
        check(state)
        if len(expected) == 1:
            break
        state = _maybe_drop(state, pick, playoff.seeds, 3, keep=0)
        expected = playoff.next_round(_dropped(state))
        if not any(expected):  # everyone left dropped: nobody goes on (EV-6.9)
            break
        assert pairing_over(state) is None  # the desk offers the next round
        state = run(state, PairNext())
    finished = refusal(state, PairNext())
    assert finished.clause == "EV-6.3"  # the bracket is finished
    over = pairing_over(state)  # and the desk says so without trying a pairing
    assert over is not None
    assert (over.clause, over.reason) == (finished.clause, finished.reason)
    return state


def play_elimination(pick: Chooser) -> None:
    """A random single-elimination event (EV-6.2, EV-6.3, EV-6.8, EV-6.9): seeded by rating,
    highest first, then registration order; checked against the model every round, its
    final places and how far each player went too (EV-6.7, EV-I.13)."""
    count = pick.integer(2, 20)
    match: MatchFormat = pick.choice(["bo1", "bo3", "bo5"])
    event = Settings(game="prizmik", format="elimination", match=match)
    state = run(Tournament(), CreateEvent(settings=event))
    ratings = [pick.choice([None, 1500, 1600, 1700, 1800]) for _ in range(count)]
    state = run(state, *(Register(name=f"P{i}", rating=r) for i, r in enumerate(ratings)))
    players = [_id(state, f"P{i}") for i in range(count)]
    state = _maybe_drop(state, pick, players, 2, keep=2)  # before round 1: never paired
    order = sorted(range(count), key=lambda i: (ratings[i] is None, -(ratings[i] or 0), i))
    playoff = ref.Playoff(ref.make_cut([players[i] for i in order], _dropped(state), count))
    playoff.first_round()
    state = run(state, PairNext())
    allowed = slips(games_to_win(match), playoff=True)

    def check(now: Tournament) -> None:
        # EV-I.13: the Swiss standing's place is the seed's; the players who never played
        # (dropped before round 1) after the bracket, in the standings' order
        standing = [s.player for s in now.standings()]
        _check_places(now, playoff, playoff.seeds + [p for p in standing if p not in playoff.seeds])

    check(_play_bracket(state, pick, playoff, "elimination", allowed, check))


@given(st.data())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_cut_and_final_standings_agree_with_the_reference(data: st.DataObject) -> None:
    """EV-6.1 to EV-6.9, EV-I.9 against MTR 10.4, 2.2, 2.10 and 3.1 (quick loop)."""
    play(Drawn(data))


@given(st.data())
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_elimination_events_agree_with_the_reference(data: st.DataObject) -> None:
    """EV-6.2, EV-6.3, EV-6.8, EV-6.9, EV-I.13: a single-elimination event's bracket and
    final places (quick loop)."""
    play_elimination(Drawn(data))


if __name__ == "__main__":  # the long hunt: python -m tests.tournament.test_cut_reference N
    hunt(play, play_elimination)

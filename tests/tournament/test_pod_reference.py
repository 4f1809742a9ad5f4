"""Pod rounds agree with an independent model (``tests/tournament/pod_reference.py``):
random pod events -- 2 to 13 players, 1 to 4 rounds, random finishing orders with shared
places, drops -- run command by command, and every round's pods must have EV-7.1's sizes
by table, seat every active player once, be the straight deal from the standings when that
deal repeats no meeting (EV-7.2), and repeat none whenever some seating avoids it (up to 12
players, where the engine searches exhaustively); the standings must be the pairwise pod
scoring of EV-I.7 with Appendix C's percentages (EV-7.4). Players are named P0, P1, ...
while their ids are p1, p2, ..., so a pod slip naming P1 beside the player p1 is read by
name (EV-7.3, EV-2.2).

``python -m tests.tournament.test_pod_reference N`` plays N seeded events (the long hunt).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.tournament import CreateEvent, Drop, PairNext, Register, ReportResult
from referee.tournament.model import Settings
from referee.tournament.state import Tournament
from tests.tournament import pod_reference as ref
from tests.tournament.helpers import Chooser, Drawn, hunt, run


def play_pods(pick: Chooser) -> None:
    """One random pod event, checked against the model every round and at the end."""
    count = pick.integer(2, 13)
    rounds = pick.integer(1, 4)
    state = run(
        Tournament(), CreateEvent(settings=Settings(game="prizmik", pods=True, rounds=rounds))
    )
    state = run(state, *(Register(name=f"P{i}") for i in range(count)))
    players = sorted(state.players, key=lambda p: state.players[p].order)
    met: dict[str, set[str]] = {p: set() for p in players}
    pods: list[dict[str, int]] = []
    for number in range(1, rounds + 1):
        order = players if number == 1 else [s.player for s in state.standings()]
        active = [p for p in order if state.players[p].active_in(number)]
        state = run(state, PairNext())
        tables = [list(p.players) for p in state.rounds[number].pairings if not p.bye]
        assert [len(t) for t in tables] == ref.sizes(len(active))  # EV-7.1
        assert sorted(p for t in tables for p in t) == sorted(active)  # EV-5.1
        straight = ref.deal(active)
        if not ref.repeats(straight, met):  # EV-7.2: the deal stands
            assert [set(t) for t in tables] == [set(t) for t in straight], number
        elif len(active) <= 12 and ref.repeat_free_exists(active, met):
            assert not ref.repeats(tables, met), number  # EV-7.2: separated where possible
        for table, pod in enumerate(tables, start=1):
            places = {p: pick.integer(1, len(pod)) for p in pod}
            slip = ",".join(f"{places[p]}:{state.players[p].name}" for p in pod)
            state = run(state, ReportResult(round=number, table=table, slip=slip))
            # only the order of the numbers counts (EV-7.5): 1,3,3 is first then a shared second
            pods.append(places)
            for p in pod:
                met[p].update(q for q in pod if q != p)
        if number < rounds and pick.integer(0, 1):
            staying = [p for p in players if state.players[p].dropped_after is None]
            if len(staying) > 2:
                state = run(state, Drop(player=state.players[pick.choice(staying)].name))
    want = ref.standings(players, pods)
    got = state.standings()
    assert [s.player for s in got] == [w[0] for w in want]
    for line, (player, points, mw, gw, omw, ogw) in zip(got, want, strict=True):
        figures = tuple(Fraction(x) for x in (line.mw, line.gw, line.omw, line.ogw))
        assert (line.points, figures) == (points, (mw, gw, omw, ogw)), player


@given(st.data())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_pod_rounds_agree_with_the_reference(data: st.DataObject) -> None:
    """EV-7.1, EV-7.2, EV-7.4, EV-I.7 against the model (quick loop)."""
    play_pods(Drawn(data))


if __name__ == "__main__":  # the long hunt: python -m tests.tournament.test_pod_reference N
    hunt(play_pods)

"""Pod rounds agree with an independent model (``tests/tournament/pod_reference.py``):
random pod events -- 2 to 13 players, 1 to 4 rounds, random finishing orders with shared
places, drops -- run command by command, and every round's pods must have EV-7.1's sizes
by table, seat every active player once, be the straight deal from the standings when that
deal repeats no meeting (EV-7.2), and repeat none whenever some seating avoids it (up to 12
players, where the engine searches exhaustively); the standings must be the pairwise pod
scoring of EV-I.7 with Appendix C's percentages (EV-7.4). Players are named P0, P1, ...
while their ids are p1, p2, ..., so a pod slip naming P1 beside the player p1 is read by
name (EV-7.3, EV-2.2). A second loop decides some tables by their linked games (a pod of
two by its match) and checks the same standings, places and playoff seeds as the
equivalent slips give (EV-3.8, EV-I.15).

``python -m tests.tournament.test_pod_reference N`` plays N seeded events (the long hunt).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.tournament import CreateEvent, Drop, PairNext, Register, ReportResult
from referee.tournament.decisions import LinkGame, RecordGameResult
from referee.tournament.model import MatchFormat, Placement, Settings
from referee.tournament.standings import Standing
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
    check(state.standings(), ref.standings(players, pods))


def check(
    got: list[Standing], want: list[tuple[str, int, Fraction, Fraction, Fraction, Fraction]]
) -> None:
    """The engine's standings are the model's: order, points and the four percentages."""
    assert [s.player for s in got] == [w[0] for w in want]
    for line, (player, points, mw, gw, omw, ogw) in zip(got, want, strict=True):
        figures = tuple(Fraction(x) for x in (line.mw, line.gw, line.omw, line.ogw))
        assert (line.points, figures) == (points, (mw, gw, omw, ogw)), player


def _slip(state: Tournament, places: dict[str, int]) -> str:
    return ",".join(f"{place}:{state.players[p].name}" for p, place in places.items())


def _played(pick: Chooser, pod: list[str], need: int) -> list[dict[str, int]]:
    """Random linked games at ``pod`` until they decide it (EV-3.8, EV-I.15): one game of a
    pod of three or four, a match at a pod of two (draws too, a few)."""
    games: list[dict[str, int]] = []
    while ref.places_from_games(pod, games, need) is None:
        if len(pod) > 2:
            games.append({p: pick.integer(1, len(pod)) for p in pod})
            continue
        a, b = pod
        outcome = pick.integer(0, 2 if len(games) < 4 else 1)
        games.append(
            {a: 1, b: 2} if outcome == 0 else {a: 2, b: 1} if outcome == 1 else {a: 1, b: 1}
        )
    return games


def play_linked_pods(pick: Chooser) -> None:
    """One random pod event played twice, command for command: in ``games`` some tables
    are decided by their linked games (LinkGame, RecordGameResult), the others by slip; in
    ``slips`` every table reports the places its games gave, by slip. Both must be the
    model's standings every round (EV-7.4, EV-I.7, EV-I.15), deal the same pods (EV-7.2),
    show the same results, and seed the same playoff after a cut (EV-6.1)."""
    count = pick.integer(2, 9)
    rounds = pick.integer(1, 3)
    formats: tuple[MatchFormat, ...] = ("bo1", "bo3", "bo5")
    match = pick.choice(formats)
    need = {"bo1": 1, "bo3": 2, "bo5": 3}[match]
    cut = pick.choice((0, 2, 4)) if count >= 4 else 0
    settings = Settings(game="prizmik", pods=True, rounds=rounds, match=match, cut=cut)
    games = run(Tournament(), CreateEvent(settings=settings))
    games = run(games, *(Register(name=f"P{i}") for i in range(count)))
    slips = games
    players = sorted(games.players, key=lambda p: games.players[p].order)
    pods: list[dict[str, int]] = []
    for number in range(1, rounds + 1):
        games, slips = run(games, PairNext()), run(slips, PairNext())
        assert games.rounds[number] == slips.rounds[number]  # the same standings, the same deal
        for pairing in games.rounds[number].pairings:
            if pairing.bye or pairing.table is None:
                continue
            table, pod = pairing.table, list(pairing.players)
            if pick.integer(0, 1):
                played = _played(pick, pod, need)
                for index, game in enumerate(played, start=1):
                    name = f"r{number}t{table}g{index}"
                    games = run(
                        games,
                        LinkGame(round=number, table=table, game=name),
                        RecordGameResult(game=name, placings=game),
                    )
                places = ref.places_from_games(pod, played, need)
                assert places is not None
            else:
                places = {p: pick.integer(1, len(pod)) for p in pod}
                games = run(
                    games, ReportResult(round=number, table=table, slip=_slip(games, places))
                )
            slips = run(slips, ReportResult(round=number, table=table, slip=_slip(slips, places)))
            pods.append(places)
            found = games.result(number, table)
            assert isinstance(found, Placement), found  # a pod's places, shown as places
            slipped = slips.result(number, table)
            assert isinstance(slipped, Placement)
            assert dict(found.places) == dict(slipped.places)  # counted alike (EV-7.5)
        want = ref.standings(players, pods)
        check(games.standings(), want)
        check(slips.standings(), want)
        assert games.standings() == slips.standings()
        if number < rounds and pick.integer(0, 1):
            staying = [p for p in players if games.players[p].dropped_after is None]
            if len(staying) > 2:
                drop = Drop(player=games.players[pick.choice(staying)].name)
                games, slips = run(games, drop), run(slips, drop)
    if cut and sum(p.dropped_after is None for p in games.players.values()) >= cut:
        games, slips = run(games, PairNext()), run(slips, PairNext())
        assert games.rounds[rounds + 1] == slips.rounds[rounds + 1]  # the same seeds


@given(st.data())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_pod_rounds_agree_with_the_reference(data: st.DataObject) -> None:
    """EV-7.1, EV-7.2, EV-7.4, EV-I.7 against the model (quick loop)."""
    play_pods(Drawn(data))


def test_ev_i_15_a_pod_of_two_decided_by_its_games_is_its_slip() -> None:
    """EV-I.15 (EV-7.1, EV-7.5, EV-3.8): five players sit three and two; the pod of two
    plays its best-of-three by linked games, 2-1. Its result is the pod's places, the
    winner first, and the standings are those of the slip placing them so: the pod counts
    as one game (GW% 1 for the winner, not the 2/3 of a 2-1 match), and its pod-mate's
    opponents' figures follow. The game figures used to be the match's."""
    state = run(Tournament(), CreateEvent(settings=Settings(game="prizmik", pods=True, rounds=1)))
    state = run(state, *(Register(name=f"P{i}") for i in range(5)), PairNext())
    three, two = (p.players for p in state.rounds[1].pairings)
    assert len(two) == 2
    state = run(
        state,
        ReportResult(round=1, table=1, slip=_slip(state, {three[0]: 1, three[1]: 2, three[2]: 3})),
    )
    a, b = two
    played = state
    for name, game in (("g1", {a: 1, b: 2}), ("g2", {a: 2, b: 1}), ("g3", {a: 1, b: 2})):
        assert played.result(1, 2) is None  # the match is not decided by one game of three
        played = run(
            played,
            LinkGame(round=1, table=2, game=name),
            RecordGameResult(game=name, placings=game),
        )
    slipped = run(state, ReportResult(round=1, table=2, slip=_slip(state, {a: 1, b: 2})))
    assert played.result(1, 2) == Placement(((a, 1), (b, 2))) == slipped.result(1, 2)
    assert played.standings() == slipped.standings()
    line = next(s for s in played.standings() if s.player == a)
    assert (line.points, line.gw) == (3, "1/1")


def test_ev_i_15_a_pods_game_is_placed_as_a_slip_is() -> None:
    """EV-7.5, EV-I.15: a pod of three decided by its linked game whose placings are 2, 2
    and 3 is a shared first and a third, as the slip 2:Ann,2:Ben,3:Cal is: the two share
    the first place's game figures (a shared first), where the game's raw places gave no
    one a first place and the pod no game won."""
    state = run(Tournament(), CreateEvent(settings=Settings(game="prizmik", pods=True, rounds=1)))
    state = run(state, *(Register(name=f"P{i}") for i in range(3)), PairNext())
    a, b, c = state.rounds[1].pairings[0].players
    places = {a: 2, b: 2, c: 3}
    played = run(
        state, LinkGame(round=1, table=1, game="g1"), RecordGameResult(game="g1", placings=places)
    )
    slipped = run(state, ReportResult(round=1, table=1, slip=_slip(state, places)))
    found = played.result(1, 1)
    assert isinstance(found, Placement)
    assert dict(found.places) == {a: 1, b: 1, c: 3}
    assert played.standings() == slipped.standings()
    check(played.standings(), ref.standings([a, b, c], [places]))


@given(st.data())
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_ev_i_15_pods_decided_by_linked_games_agree_with_their_slips(
    data: st.DataObject,
) -> None:
    """EV-3.8, EV-7.4, EV-I.7, EV-I.15: tables decided by their linked games, pods of two
    among them, give the standings, places and playoff seeds of the equivalent slips."""
    play_linked_pods(Drawn(data))


if __name__ == "__main__":  # the long hunt: python -m tests.tournament.test_pod_reference N
    hunt(play_pods, play_linked_pods)

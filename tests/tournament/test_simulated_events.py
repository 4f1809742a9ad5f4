"""Whole events in the pure core: a 64-player Swiss with a top-8 cut, a 13-player pod event."""

from __future__ import annotations

import random
from collections import Counter

from referee.tournament import (
    AwardBye,
    ChangePairing,
    CorrectResult,
    CreateEvent,
    Drop,
    EndEvent,
    PairManual,
    PairNext,
    Refusal,
    Register,
    ReportResult,
    Settings,
    Standings,
    Tournament,
    decide,
)
from tests.tournament.helpers import run


def report_all(state: Tournament, rnd: random.Random, pods: bool = False) -> Tournament:
    number = state.current_round
    playoff = state.rounds[number].kind in ("cut", "elimination")
    for pairing in state.rounds[number].pairings:
        if pairing.table is None or state.result(number, pairing.table) is not None:
            continue
        if pods:
            order = list(pairing.players)
            rnd.shuffle(order)
            slip = ">".join(state.players[p].name for p in order)
        else:
            x = rnd.random()
            slip = "2-0-0" if x < 0.4 else "1-2-0" if x < 0.8 else "2-1-0"
            if not playoff and x > 0.95:
                slip = "1-1-1"
        state = run(state, ReportResult(round=number, table=pairing.table, slip=slip))
    return state


def test_sixty_four_player_swiss_with_cut() -> None:
    """A 6-round bo3 Swiss with an awarded bye, drops, a late entry, a correction, a manual
    re-pairing by the head judge and a top-8 cut (EV-2.3 to EV-2.6, EV-5.1, EV-5.4, EV-5.12,
    EV-6.1 to EV-6.3, EV-8.1)."""
    rnd = random.Random(64)
    state = run(Tournament(), CreateEvent(settings=Settings(game="prizmik", rounds=6, cut=8)))
    for i in range(64):
        state = run(state, Register(name=f"Player {i:02d}", rating=1500 + (i * 37) % 400))
    state = run(state, AwardBye(player="Player 05", round=1, reason="last season's champion"))
    live = Standings(state.settings, state.players.values())  # type: ignore[arg-type]
    for number in range(1, 7):
        if number == 2:
            state = run(state, Register(name="Late Larry"))
            live.add_player(state.players[state.find("Late Larry")])  # type: ignore[index]
        if number == 3:
            state = run(state, Drop(player="Player 10"), Drop(player="Player 11"))
        state = run(state, PairNext())
        current = state.rounds[number]
        if number == 4:
            # the head judge swaps two opponents at the bottom tables before any result
            tables = [p for p in current.pairings if p.table is not None]
            a, b = tables[-2].players, tables[-1].players
            pairs = [list(p.players) for p in tables[:-2]] + [[a[0], b[0]], [a[1], b[1]]]
            spec = {"pairs": pairs, "byes": [p.players[0] for p in current.pairings if p.bye]}
            state = run(state, ChangePairing(spec=spec, reason="table 31 seated wrong", by="HJ"))
        state = report_all(state, rnd)
        if number == 3:
            state = run(
                state, CorrectResult(round=3, table=1, slip="0-2-0", reason="slip reversed")
            )
        for key, result in state.match_results().items():
            if key[0] == number or (number == 3 and key == (3, 1)):
                live.record(key, result)
        for entrant in state.players.values():
            live.update_player(entrant)
        active = {e.id for e in state.active(number)}
        paired = Counter(state.rounds[number].players())
        assert set(paired) == active
        assert set(paired.values()) == {1}
    # no rematches in the Swiss (64 players, 6 rounds: always avoidable)
    met: Counter[frozenset[str]] = Counter()
    for number in range(1, 7):
        for pairing in state.rounds[number].pairings:
            if len(pairing.players) == 2:
                met[frozenset(pairing.players)] += 1
    assert max(met.values()) == 1
    # the awarded bye, the late entry, the drops
    champion = state.find("Player 05")
    assert any(p.bye and p.players == (champion,) for p in state.rounds[1].pairings)
    larry = state.find("Late Larry")
    assert larry not in state.rounds[1].players()
    assert larry in state.rounds[2].players()
    dropped = state.find("Player 10")
    assert dropped in state.rounds[2].players()
    assert dropped not in state.rounds[3].players()
    assert state.players[dropped].dropped_after == 2
    # the incremental standings agree with the from-scratch ones
    assert live.table() == state.standings()
    # the cut: top 8 by standings, seeded 1 v 8 ...
    state = run(state, PairNext())
    seeds = state.cut
    standing = [s.player for s in state.standings() if s.dropped_after is None]
    assert list(seeds) == standing[:8]
    quarter = state.rounds[7]
    assert quarter.kind == "cut"
    assert quarter.pairings[0].players == (seeds[0], seeds[7])
    for _ in range(3):
        state = report_all(state, rnd)
        if state.current_round < 9:
            state = run(state, PairNext())
    assert [len(state.rounds[n].pairings) for n in (7, 8, 9)] == [4, 2, 1]
    state = run(state, EndEvent())
    assert state.ended


def test_thirteen_player_pod_event() -> None:
    """Four pod rounds of 13 players: pods of 4, 3, 3, 3 each round, every player once, and
    pairwise pod points (EV-7.1, EV-7.2, EV-7.4, EV-I.7)."""
    rnd = random.Random(13)
    state = run(Tournament(), CreateEvent(settings=Settings(game="prismatic", pods=True, rounds=4)))
    for i in range(13):
        state = run(state, Register(name=f"Pod {i:02d}"))
    for number in range(1, 5):
        state = run(state, PairNext())
        current = state.rounds[number]
        assert current.kind == "pods"
        assert [len(p.players) for p in current.pairings] == [4, 3, 3, 3]
        assert sorted(current.players()) == sorted(state.players)
        state = report_all(state, rnd, pods=True)
    standings = state.standings()
    # pairwise pod points: 9/6/3/0 per pod of four, 6/3/0 per pod of three
    total = sum(s.points for s in standings)
    assert total == 4 * (9 + 6 + 3 + 0 + 3 * (6 + 3 + 0))
    assert standings[0].points >= standings[-1].points
    assert state.explain(standings[0].player).startswith(state.players[standings[0].player].name)
    seven = [state.players[p].name for p in list(state.players)[:7]]
    rest = [state.players[p].name for p in list(state.players)[7:]]
    try:
        decide(state, PairManual(spec={"pods": [seven, rest]}, reason="one big table"))
    except Refusal as refusal:
        assert refusal.clause == "EV-5.11"
    else:
        raise AssertionError("a pod of seven was accepted")

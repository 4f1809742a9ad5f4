"""The playoff as people read it (issue 29, section 1): stage names (EV-6.6), the bracket,
how far each player went and the final order (EV-6.7, EV-I.9); who plays first in a
match's next game (EV-I.10); the safe pod slip (EV-7.5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import pytest

from referee.tournament import (
    CreateEvent,
    Drop,
    PairNext,
    Refusal,
    Register,
    ReportResult,
    Score,
    Settings,
    Tournament,
)
from referee.tournament.playoff import (
    bracket,
    final_places,
    next_game_order,
    ordinal,
    round_label,
    stage_name,
)
from referee.tournament.slips import parse_placement, placement_order
from referee.tournament.state import TableState
from tests.tournament.helpers import refused, run

NAMES = [f"P{n:02}" for n in range(1, 17)]


def play_round(state: Tournament, slip: str = "2-0-0") -> Tournament:
    """Pair the next round; every table's first-listed player wins with ``slip``."""
    state = run(state, PairNext())
    number = state.current_round
    for pairing in state.rounds[number].pairings:
        if pairing.table is not None:
            state = run(state, ReportResult(round=number, table=pairing.table, slip=slip))
    return state


def swiss_then_cut(players: Sequence[str] = NAMES, cut: int = 8, rounds: int = 3) -> Tournament:
    settings = Settings(game="gammasphere", rounds=rounds, cut=cut, match="bo3")
    state = run(Tournament(), CreateEvent(settings=settings))
    state = run(state, *(Register(name=n) for n in players))
    for _ in range(rounds):
        state = play_round(state)
    return state


def swiss_order(state: Tournament) -> list[str]:
    return [s.player for s in state.standings()]


def test_ev_6_6_stages_are_named_by_the_players_they_start_with() -> None:
    """EV-6.6: two players make the final, four the semifinal, eight the quarterfinal,
    more the round of N; Swiss rounds keep their number."""
    assert [stage_name(n) for n in (2, 4, 8, 16, 32)] == [
        "final",
        "semifinal",
        "quarterfinal",
        "round of 16",
        "round of 32",
    ]
    state = swiss_then_cut()
    assert round_label(state, 3) == "round 3"
    state = play_round(state)
    assert round_label(state, 4) == "quarterfinal"
    state = play_round(state)
    state = play_round(state)
    assert [round_label(state, n) for n in (4, 5, 6)] == ["quarterfinal", "semifinal", "final"]
    assert [r.stage for r in bracket(state)] == ["quarterfinal", "semifinal", "final"]


def test_ev_6_6_a_cut_of_six_gives_byes_and_is_still_a_quarterfinal() -> None:
    """EV-6.6 with EV-6.2: a top 6 starts a bracket of eight (two byes): a quarterfinal."""
    state = play_round(swiss_then_cut(cut=6))
    first = bracket(state)[0]
    assert first.stage == "quarterfinal"
    byes = [m for m in first.matches if m.bye]
    assert len(byes) == 2
    assert all(m.winner == m.players[0] for m in byes)


def test_ev_6_7_standings_after_the_final_list_the_champion_first() -> None:
    """EV-6.7, EV-I.9: the champion, the finalist, the semifinalists, the quarterfinalists,
    each pair in Swiss order, then everyone outside the cut in Swiss order."""
    state = swiss_then_cut()
    swiss = swiss_order(state)
    state = play_round(state, "0-2-0")  # every lower seed wins its quarterfinal
    state = play_round(state, "2-1-0")
    state = play_round(state, "0-2-0")  # the second-listed finalist wins
    places = final_places(state, swiss)
    final = bracket(state)[-1].matches[0]
    champion, finalist = final.players[1], final.players[0]
    assert [p.player for p in places[:2]] == [champion, finalist]
    assert [p.went for p in places[:8]] == [
        "champion",
        "finalist",
        "semifinalist",
        "semifinalist",
        "quarterfinalist",
        "quarterfinalist",
        "quarterfinalist",
        "quarterfinalist",
    ]
    semis = [p.player for p in places[2:4]]
    assert semis == sorted(semis, key=swiss.index)  # same stage: Swiss order
    quarters = [p.player for p in places[4:8]]
    assert set(quarters) == set(swiss[:4])  # the top four seeds lost their quarterfinals
    assert quarters == sorted(quarters, key=swiss.index)
    assert [p.player for p in places[8:]] == swiss[8:]
    assert [p.place for p in places] == list(range(1, 17))
    assert all(p.went is None for p in places[8:])


def test_ev_6_7_a_player_still_playing_is_shown_in_their_stage() -> None:
    """EV-6.7: before the semifinals are reported, the semifinalists are 'in the semifinal'
    and the quarterfinal losers already 'quarterfinalist'."""
    state = play_round(swiss_then_cut())
    state = run(state, PairNext())
    went = {p.went for p in final_places(state, swiss_order(state))[:8]}
    assert went == {"in the semifinal", "quarterfinalist"}


def test_ev_6_7_nothing_before_the_cut() -> None:
    """EV-I.9: no final order and no bracket before the cut is made."""
    state = swiss_then_cut()
    assert final_places(state, swiss_order(state)) == []
    assert bracket(state) == []


def _went(state: Tournament) -> list[tuple[str, str | None]]:
    return [(p.player, p.went) for p in final_places(state, swiss_order(state))]


def _went_by_seed(state: Tournament, places: int) -> str:
    """The first ``places`` final places as "SEED WENT, ...": "2 champion, 1 finalist"."""
    seed = {p: n for n, p in enumerate(state.cut, start=1)}
    return ", ".join(f"{seed[p]} {went}" for p, went in _went(state)[:places])


def test_ev_6_8_the_better_seed_is_listed_first_in_every_playoff_round() -> None:
    """EV-6.8 (MTR 2.2: the player ranked higher in the Swiss chooses to play or draw): when
    the lower seeds win their quarterfinals, the semifinals list seed 5 before seed 8 and
    seed 6 before seed 7, so the better seed sits first in the first game."""
    state = play_round(swiss_then_cut(), "0-2-0")  # 8, 5, 7 and 6 win
    seed = {p: n for n, p in enumerate(state.cut, start=1)}
    state = run(state, PairNext())
    semis = [tuple(seed[p] for p in m.players) for m in bracket(state)[-1].matches]
    assert semis == [(5, 8), (6, 7)]


def test_ev_6_8_an_elimination_event_lists_the_better_rated_first() -> None:
    """EV-6.8 in an elimination event: its seeds are its first round's (by rating, EV-6.2)."""
    settings = Settings(game="gammasphere", format="elimination", match="bo3")
    state = run(Tournament(), CreateEvent(settings=settings))
    ratings = {"Ann": 1500, "Ben": 1900, "Cal": 1700, "Dee": 1800}
    state = run(state, *(Register(name=n, rating=r) for n, r in ratings.items()))
    state = play_round(state, "0-2-0")  # Ben (1) v Ann (4), Dee (2) v Cal (3): 4 and 3 win
    state = run(state, PairNext())
    final = bracket(state)[-1].matches[0]
    assert [state.players[p].name for p in final.players] == ["Cal", "Ann"]


def test_ev_6_9_a_quarterfinal_winner_who_drops_is_not_replaced() -> None:
    """EV-6.9 (MTR 2.10, EV-2.5): seed 4 wins its quarterfinal and drops; seed 1 has a bye
    in the semifinal, nobody takes seed 4's place, and seed 4 went out in the semifinal:
    placed with the other semifinal loser by Swiss order, never "through" to a final."""
    state = play_round(swiss_then_cut())  # seeds 1, 4, 2, 3 win
    s = {n: p for n, p in enumerate(state.cut, start=1)}
    state = run(state, Drop(player=state.players[s[4]].name))
    state = run(state, PairNext())
    semi = bracket(state)[-1]
    assert semi.stage == "semifinal"
    assert [(m.players, m.bye) for m in semi.matches] == [((s[1],), True), ((s[2], s[3]), False)]
    state = run(state, ReportResult(round=state.current_round, table=1, slip="2-1-0"))
    went = dict(_went(state))
    assert went[s[4]] == "semifinalist"
    assert went[s[3]] == "semifinalist"
    assert [p for p, _ in _went(state)][:4] == [s[1], s[2], s[3], s[4]]
    state = play_round(state, "0-2-0")
    assert _went_by_seed(state, 4) == "2 champion, 1 finalist, 3 semifinalist, 4 semifinalist"


def test_ev_6_9_a_slot_whose_players_both_dropped_sends_nobody_on() -> None:
    """EV-6.9: seeds 1 and 4 win their quarterfinals and both drop: the semifinal is seed 2
    v seed 3 alone, its winner has a bye in the final and is the champion; nobody is a
    finalist, and the bracket is then finished (EV-6.3)."""
    state = play_round(swiss_then_cut())
    s = {n: p for n, p in enumerate(state.cut, start=1)}
    state = run(state, *(Drop(player=state.players[s[n]].name) for n in (1, 4)))
    state = play_round(state)  # the semifinal: seed 2 beats seed 3
    assert [m.players for m in bracket(state)[-1].matches] == [(s[2], s[3])]
    state = run(state, PairNext())
    final = bracket(state)[-1]
    assert final.stage == "final"
    assert [(m.players, m.bye) for m in final.matches] == [((s[2],), True)]
    assert refused(state, PairNext()) == "EV-6.3"
    assert _went_by_seed(state, 4) == "2 champion, 1 semifinalist, 3 semifinalist, 4 semifinalist"


def test_ev_i_9_a_bye_goes_through_its_round_as_a_win_does() -> None:
    """EV-I.9: in a top 6 the two byes are through the quarterfinal as much as a player who
    won it, so while the other quarterfinal is played they come first, in Swiss order,
    then the players still playing it and the one out of it, together in Swiss order."""
    state = run(swiss_then_cut(cut=6), PairNext())
    s = {n: p for n, p in enumerate(state.cut, start=1)}
    table = next(m.table for m in bracket(state)[0].matches if m.players == (s[4], s[5]))
    assert table is not None
    state = run(state, ReportResult(round=state.current_round, table=table, slip="0-2-0"))
    assert _went(state)[:6] == [
        (s[1], "through the quarterfinal"),
        (s[2], "through the quarterfinal"),
        (s[5], "through the quarterfinal"),
        (s[3], "in the quarterfinal"),
        (s[4], "quarterfinalist"),
        (s[6], "in the quarterfinal"),
    ]


def test_ev_i_10_the_loser_of_a_game_sits_first_in_the_next() -> None:
    """EV-I.10: the loser of the previous game plays first; a drawn game keeps the seats."""
    table = TableState(round=1, table=1, players=("a", "b"))
    assert next_game_order(table, ("a", "b")) == ("a", "b")  # nothing played yet
    lost_by_a = TableState(
        round=1, table=1, players=("a", "b"), game_results=(("g1", (("a", 2), ("b", 1))),)
    )
    assert next_game_order(lost_by_a, ("a", "b")) == ("a", "b")
    lost_by_b = TableState(
        round=1, table=1, players=("a", "b"), game_results=(("g1", (("a", 1), ("b", 2))),)
    )
    assert next_game_order(lost_by_b, ("a", "b")) == ("b", "a")
    assert next_game_order(lost_by_b, ("b", "a")) == ("b", "a")
    drawn = TableState(
        round=1, table=1, players=("a", "b"), game_results=(("g1", (("a", 1), ("b", 1))),)
    )
    assert next_game_order(drawn, ("b", "a")) == ("b", "a")
    pod = TableState(round=1, table=1, players=("a", "b", "c"))
    assert next_game_order(pod, ("a", "b", "c")) == ("a", "b", "c")


def test_ev_7_5_a_pod_slip_without_shell_characters() -> None:
    """EV-7.5: PLACE:NAME separated by commas or spaces reads as the finishing order; equal
    numbers share a place; the older Ann>Ben=Cal form still reads."""
    assert placement_order("1:Ed,2:Di,2:Flo") == "Ed>Di=Flo"
    assert placement_order("2:Di 1:Ed 2:Flo") == "Ed>Di=Flo"
    assert placement_order("1:Ann Lee,3:Ben") == "Ann Lee>Ben"
    assert placement_order("Ed>Di=Flo") == "Ed>Di=Flo"
    names = {"p1": "Ed", "p2": "Di", "p3": "Flo"}
    safe = parse_placement("1:ed,2:Di,2:flo", ["p1", "p2", "p3"], names)
    old = parse_placement("Ed>Di=Flo", ["p1", "p2", "p3"], names)
    assert safe == old
    assert safe.place_of("p3") == 2
    for bad in ("1:Ed,Di", "0:Ed,1:Di,2:Flo", "1:Ed,x:Di"):
        with pytest.raises(Refusal) as caught:
            parse_placement(bad, ["p1", "p2", "p3"], names)
        assert caught.value.clause == "EV-7.5", bad
    with pytest.raises(Refusal) as caught:  # EV-7.3 still: everyone once
        parse_placement("1:Ed,2:Di", ["p1", "p2", "p3"], names)
    assert caught.value.clause == "EV-7.3"


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
    ]


def test_ev_2_10_a_drop_in_a_playoff_concedes_the_match() -> None:
    """EV-2.10 (MTR 2.10): in the final, a drop concedes the match still being played: the
    opponent wins it by the games it needs and the dropping player is recorded as dropped
    in the final; a player who won their semifinal drops at once, not replaced (EV-6.9);
    a player out of the bracket drops as in a Swiss round."""
    from referee.tournament import facts as f
    from service.tournaments import drop_row

    state = play_round(swiss_then_cut(NAMES[:8], cut=4))  # the semifinal played
    semi = state.current_round
    winner = state.rounds[semi].pairings[0].players[0]
    name = state.players[winner].name
    won, facts = fold_drop(state, name)
    assert [type(x) for x in facts] == [f.PlayerDropped]  # nothing to concede: decided
    assert won.players[winner].dropped_after == semi
    loser = state.players[state.rounds[semi].pairings[0].players[1]].name
    out = fold_drop(state, loser)
    assert drop_row(out[0], out[1]).line == f"{loser} drops after the semifinal (round {semi})"
    final = run(state, PairNext())
    first, second = final.rounds[semi + 1].pairings[0].players
    after, facts = fold_drop(final, final.players[second].name)
    assert [type(x) for x in facts] == [f.PlayerDropped, f.MatchReported]
    assert after.result(semi + 1, 1) == Score(2, 0, 0)  # the first-listed wins the final
    assert drop_row(after, facts).line == (
        f"{after.players[second].name} drops in the final (round {semi + 1}) and concedes "
        f"the match at table 1: {after.players[first].name} wins 2-0-0 (EV-2.10)"
    )


def fold_drop(state: Tournament, name: str) -> tuple[Tournament, tuple[Any, ...]]:
    from referee.tournament import decide, fold
    from referee.tournament.decisions import Drop

    facts = decide(state, Drop(player=name))
    return fold(list(facts), state), facts


def _elimination(ratings: Mapping[str, int], playoff_places: Any = msgspec.UNSET) -> Tournament:
    settings = Settings(
        game="gammasphere", format="elimination", match="bo3", playoff_places=playoff_places
    )
    state = run(Tournament(), CreateEvent(settings=settings))
    return run(state, *(Register(name=n, rating=r) for n, r in ratings.items()))


def _names_places(state: Tournament) -> list[tuple[str, int, str | None]]:
    return [
        (state.players[p.player].name, p.place, p.went)
        for p in final_places(state, swiss_order(state))
    ]


# eight players, seeded by rating: A1 (seed 1) ... A8 (seed 8), registered in reverse
RATED = {f"A{n}": 2000 - 10 * n for n in range(8, 0, -1)}


def test_ev_i_13_an_elimination_event_has_final_places() -> None:
    """EV-I.13: the champion 1st, the finalist 2nd, the semifinal losers 3rd-4th, the
    quarterfinal losers 5th-8th; those out in one round by seed, not by registration (the
    standings of an elimination event are all level, registration order: EV-I.2)."""
    state = _elimination(RATED)
    assert final_places(state, swiss_order(state)) == []  # nothing before round 1
    state = play_round(state, "0-2-0")  # 1 v 8, 4 v 5, 2 v 7, 3 v 6: the lower seeds win
    state = play_round(state, "2-0-0")  # A8 v A5, A7 v A6: the better seeds (A5, A6) win
    state = play_round(state, "0-2-0")  # A5 v A6: A6 wins
    assert _names_places(state) == [
        ("A6", 1, "champion"),
        ("A5", 2, "finalist"),
        ("A7", 3, "semifinalist"),
        ("A8", 4, "semifinalist"),
        ("A1", 5, "quarterfinalist"),
        ("A2", 6, "quarterfinalist"),
        ("A3", 7, "quarterfinalist"),
        ("A4", 8, "quarterfinalist"),
    ]


def test_ev_i_13_while_a_round_is_played_those_through_it_come_first() -> None:
    """EV-I.13 (as EV-I.9): mid-quarterfinal, the winners so far first, by seed, then the
    players still playing and those out, by seed; a bye goes through its round."""
    state = _elimination({"A1": 1900, "A2": 1800, "A3": 1700, "A4": 1600, "A5": 1500})
    state = run(state, PairNext())  # 1 bye, 2 bye, 3 bye, 4 v 5 (a bracket of 8)
    assert [(n, w) for n, _, w in _names_places(state)] == [
        ("A1", "through the quarterfinal"),
        ("A2", "through the quarterfinal"),
        ("A3", "through the quarterfinal"),
        ("A4", "in the quarterfinal"),
        ("A5", "in the quarterfinal"),
    ]
    table = next(p.table for p in state.rounds[1].pairings if p.table is not None)
    assert table is not None
    state = run(state, ReportResult(round=1, table=table, slip="0-2-0"))  # A5 beats A4
    assert [n for n, _, _ in _names_places(state)] == ["A1", "A2", "A3", "A5", "A4"]


def test_ev_i_13_a_player_who_never_played_follows_the_bracket() -> None:
    """EV-I.13: a player who dropped before round 1 is in no bracket and follows it."""
    state = _elimination({"A1": 1900, "A2": 1800, "A3": 1700})
    state = run(state, Drop(player="A1"))
    state = play_round(state)  # A2 v A3: A2 wins the final
    assert _names_places(state) == [("A2", 1, "champion"), ("A3", 2, "finalist"), ("A1", 3, None)]


@pytest.mark.parametrize("elimination", [True, False])
def test_ev_i_13_with_the_shared_variant_equals_share_a_place(elimination: bool) -> None:
    """EV-I.13, playoff_places=shared: the semifinal losers are both 3rd, the quarterfinal
    losers all 5th, still listed by seed (or Swiss standing after a cut); the players
    outside the cut keep their own places."""
    if elimination:
        state = _elimination(RATED, playoff_places="shared")
    else:
        settings = Settings(
            game="gammasphere", rounds=3, cut=8, match="bo3", playoff_places="shared"
        )
        state = run(Tournament(), CreateEvent(settings=settings))
        state = run(state, *(Register(name=n) for n in NAMES))
        for _ in range(3):
            state = play_round(state)
    for slip in ("0-2-0", "2-0-0", "0-2-0"):
        state = play_round(state, slip)
    places = _names_places(state)
    assert [place for _, place, _ in places] == [1, 2, 3, 3, 5, 5, 5, 5, *range(9, len(places) + 1)]
    assert [went for _, _, went in places[:8]] == [
        "champion",
        "finalist",
        *["semifinalist"] * 2,
        *["quarterfinalist"] * 4,
    ]
    if elimination:
        assert [n for n, _, _ in places] == ["A6", "A5", "A7", "A8", "A1", "A2", "A3", "A4"]

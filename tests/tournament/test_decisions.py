"""Decisions refuse with the clause they apply (EV-1 to EV-8), and produce the right facts."""

from __future__ import annotations

import pytest

from referee.tournament import (
    AwardBye,
    ChangePairing,
    CorrectResult,
    CreateEvent,
    Drop,
    EndEvent,
    EndRound,
    LinkGame,
    PairManual,
    PairNext,
    RecordGameResult,
    RecordPenalty,
    Refusal,
    Register,
    ReportResult,
    Score,
    Settings,
    StartRound,
    Tournament,
    check_game_reopened,
    decide,
    fold,
)
from referee.tournament.decisions import pairing_over
from referee.tournament.fixing import WithdrawPenalty
from tests.tournament.helpers import event, refusal, refused, run


def test_nothing_before_the_event_exists() -> None:
    """EV-1.1: commands before the event is created are refused; it is created once."""
    assert refused(Tournament(), Register(name="Ann")) == "EV-1.1"
    assert refused(event(), CreateEvent(settings=Settings(game="x"))) == "EV-1.1"


def test_ev_1_3_pairing_with_fewer_than_two_players_says_so() -> None:
    """EV-1.3: with no player or one, the default gives no Swiss round; the refusal said
    "all 0 Swiss rounds have been played ... end the event" before any round was paired."""
    for names in ((), ("Ann",)):
        said = refusal(event(names), PairNext())
        assert said.clause == "EV-1.3"
        assert "register at least two players" in str(said)
        assert "have been played" not in str(said)


def _played(state: Tournament) -> Tournament:
    """``state`` with every table of its current round reported 2-0-0."""
    tables = [p.table for p in state.rounds[state.current_round].pairings if p.table]
    return run(
        state,
        *(ReportResult(round=state.current_round, table=t, slip="2-0-0") for t in tables),
    )


def _over_as_refused(state: Tournament, clause: str) -> None:
    """The desk's "the last round is played" (``pairing_over``) is the next pairing's
    refusal, clause and words, read without pairing."""
    over = pairing_over(state)
    said = refusal(state, PairNext())
    assert over is not None
    assert (over.clause, over.reason) == (said.clause, said.reason)
    assert over.clause == clause


def test_pairing_over_says_what_the_next_pairing_would_refuse() -> None:
    """EV-1.3 (the Swiss rounds played without a cut) and EV-5.9 (the round robin's every
    round): ``pairing_over`` names the next pairing's refusal once the last round has all
    its results; nothing before round 1, while a round is open, or once the event ended."""
    swiss = event(rounds=2)
    assert pairing_over(swiss) is None  # before round 1
    for _ in range(2):
        swiss = run(swiss, PairNext())
        assert pairing_over(swiss) is None  # the round is open
        swiss = _played(swiss)
    _over_as_refused(swiss, "EV-1.3")
    assert "all 2 Swiss rounds have been played" in str(pairing_over(swiss))
    assert pairing_over(run(swiss, EndEvent())) is None  # the end says it (EV-1.4)
    robin = event(format="round-robin")  # four players: three rounds
    for number in (1, 2, 3):
        assert pairing_over(robin) is None, number
        robin = _played(run(robin, PairNext()))
    _over_as_refused(robin, "EV-5.9")


def test_ev_3_1_and_ev_7_3_a_slip_of_the_other_kind_says_what_the_table_needs() -> None:
    """EV-3.1 / EV-7.3: a W-L-D slip for a pod was refused as "'2-0-0' is not in this
    pod", a placing for a match as "cannot read '1:Ann,2:Cal' as a match slip"; each now
    names the table's players and the form to write."""
    from tests.tournament.helpers import paired

    match = paired()  # table 1: Ann v Cal
    said = refusal(match, ReportResult(round=1, table=1, slip="1:Ann,2:Cal"))
    assert said.clause == "EV-3.1"
    assert "table 1 is a match (Ann v Cal): report W-L-D" in str(said)
    pods = paired(pods=True)
    pod = pods.rounds[1].table(1)
    assert pod is not None
    said = refusal(pods, ReportResult(round=1, table=1, slip="2-0-0"))
    assert said.clause == "EV-7.3"
    shown = ",".join(f"{n}:{pods.players[p].name}" for n, p in enumerate(pod.players, start=1))
    assert "table 1 is a pod" in str(said)
    assert f"such as 1={shown}" in str(said)


def test_ev_2_2_a_player_id_binds_one_registration() -> None:
    """EV-2.2: a registration may carry the person's id across the house; one person is
    registered once, and a registration without one stores the same bytes as before."""
    import msgspec

    from referee.tournament.facts import PlayerRegistered

    state = run(event(), Register(name="Eve", player_id="eve-1"))
    eve = state.find("Eve")
    assert eve is not None
    assert state.players[eve].player_id == "eve-1"
    assert state.holder("eve-1", "someone else") == eve
    assert state.holder("", "eve") is None  # bound to an id: not found by name alone
    assert state.holder("", "Ann") == "p1"
    assert state.holder("zed-9", "Zed") is None
    assert state.holder("", "ann") is None  # a name exactly as registered (issue 31)
    assert refused(state, Register(name="Eva", player_id="eve-1")) == "EV-2.2"
    plain = PlayerRegistered(player=state.players["p1"])
    assert b"player_id" not in msgspec.json.encode(plain)


def test_registration_refusals() -> None:
    """EV-2.2 duplicate names are refused case-insensitively (unless similar names are
    allowed); ids are distinct from names, and a name is found exactly (issue 31)."""
    state = event()
    assert refused(state, Register(name="ann")) == "EV-2.2"
    assert state.find("Ann") == "p1"
    assert state.players["p1"].name == "Ann"
    assert state.find("ANN") is None
    assert refused(state, Register(name="Eve", id="p2")) == "EV-2.2"
    both = run(state, Register(name="ann", allow_similar=True))
    assert both.find("ann") != both.find("Ann")


def test_registering_many_at_once_is_registering_each_in_turn() -> None:
    """EV-2.2: several players registered in one decision are the same facts as each
    registered after the ones before it, and a name or house id clashing with an earlier
    one of the batch, or with a player already registered, refuses the whole batch."""
    from referee.tournament.decisions import RegisterMany, decide

    batch = (
        Register(name="Eve", player_id="eve-1"),
        Register(name="Fay", rating=1500),
        Register(name="eve", allow_similar=True),
    )
    one_by_one = run(event(), *batch)
    assert run(event(), RegisterMany(players=batch)) == one_by_one
    assert len(decide(event(), RegisterMany(players=batch))) == 3
    clash = (Register(name="Gus"), Register(name="GUS"))
    assert refused(event(), RegisterMany(players=clash)) == "EV-2.2"
    known = (Register(name="Gus"), Register(name="ben"))  # Ben is registered already
    assert refused(event(), RegisterMany(players=known)) == "EV-2.2"
    twice = (Register(name="Gus", player_id="g-1"), Register(name="Hal", player_id="g-1"))
    assert refused(event(), RegisterMany(players=twice)) == "EV-2.2"


def test_ids_are_their_own_namespace() -> None:
    """Issue 29 section 4: a player named like an id (``P2``, ``p100``) takes nobody's id, in
    either order; an id finds its player before a name does."""
    state = run(event(), Register(name="P6"), Register(name="p7"), Register(name="Gus"))
    ordered = sorted(state.players.values(), key=lambda e: e.order)
    assert [e.id for e in ordered][-3:] == ["p5", "p6", "p7"]
    assert state.find("p6") == "p6"
    assert state.find("P6") == "p5"
    assert state.players[state.find("p7") or ""].name == "Gus"


def test_unknown_players_and_double_drops() -> None:
    """EV-2.1 unknown player; EV-2.6 a second drop; EV-2.5 a drop leaves after the round."""
    state = event()
    assert refused(state, Drop(player="Zed")) == "EV-2.1"
    assert refused(state, Drop(player="ben")) == "EV-2.1"  # a name exactly (issue 31)
    state = run(state, PairNext(), Drop(player="Ben"))
    assert state.players["p2"].dropped_after == 1
    assert refused(state, Drop(player="Ben")) == "EV-2.6"


def test_results_need_a_table_and_are_reported_once() -> None:
    """EV-3.5 no such table; EV-3.6 a second report is refused; EV-8.2 nothing to correct;
    EV-8.1 a correction needs a reason and replaces the result, and is refused when it
    gives the result the table has."""
    state = run(event(), PairNext())
    assert refused(state, ReportResult(round=1, table=9, slip="2-0")) == "EV-3.5"
    assert refused(state, ReportResult(round=2, table=1, slip="2-0")) == "EV-3.5"
    assert refused(state, CorrectResult(round=1, table=1, slip="2-0", reason="x")) == "EV-8.2"
    state = run(state, ReportResult(round=1, table=1, slip="2-1"))
    assert refused(state, ReportResult(round=1, table=1, slip="2-0")) == "EV-3.6"
    assert refused(state, CorrectResult(round=1, table=1, slip="2-0", reason=" ")) == "EV-8.1"
    state = run(state, CorrectResult(round=1, table=1, slip="0-2", reason="swapped", by="HJ"))
    assert state.result(1, 1) == Score(0, 2)
    assert state.tables[(1, 1)].corrections == 1
    # EV-8.1: a correction to the result the table has changes nothing and is refused
    same = CorrectResult(round=1, table=1, slip="0-2-0", reason="again", by="HJ")
    said = refusal(state, same)
    assert said.clause == "EV-8.1"
    assert "already has the result 0-2-0: nothing changed" in str(said)


def test_no_pairing_while_a_round_is_open() -> None:
    """EV-5.10: a round is open until every table has a result; byes are final at once."""
    state = run(event(("Ann", "Ben", "Cal")), PairNext())
    assert refused(state, PairNext()) == "EV-5.10"
    assert refused(state, EndRound(round=1)) == "EV-5.10"
    state = run(state, ReportResult(round=1, table=1, slip="2-0"))
    state = run(state, EndRound(round=1), PairNext())
    assert state.current_round == 2


def test_a_round_is_not_started_after_its_end() -> None:
    """EV-5.10: once round 1 is marked ended, its start mark is refused, saying why, and
    the state keeps it unstarted; a stored mark re-decided (``replayed``) is still taken."""
    state = run(event(("Ann", "Ben")), PairNext(), ReportResult(round=1, table=1, slip="2-0"))
    state = run(state, EndRound(round=1))
    said = refusal(state, StartRound(round=1, by="HJ"))
    assert said.clause == "EV-5.10"
    assert said.reason == "round 1 has already ended"
    assert 1 not in state.started
    assert 1 in run(state, StartRound(round=1, replayed=True)).started


def test_games_decide_the_match_and_a_slip_is_then_refused() -> None:
    """EV-3.8 linked games decide the match; EV-3.7 a slip after that is refused."""
    state = run(event(), PairNext(), StartRound(round=1))
    first, second = state.rounds[1].table(1).players  # type: ignore[union-attr]
    state = run(
        state,
        LinkGame(round=1, table=1, game="g1"),
        RecordGameResult(game="g1", placings={first: 1, second: 2}),
    )
    assert state.result(1, 1) is None
    assert refused(state, LinkGame(round=1, table=2, game="g1")) == "EV-3.8"
    state = run(
        state,
        LinkGame(round=1, table=1, game="g2"),
        RecordGameResult(game="g2", placings={first: 1, second: 2}),
    )
    assert state.result(1, 1) == Score(2, 0, 0)
    assert refused(state, ReportResult(round=1, table=1, slip="2-1")) == "EV-3.7"
    assert refused(state, LinkGame(round=1, table=1, game="g3")) == "EV-3.8"
    state = run(state, CorrectResult(round=1, table=1, slip="2-1", reason="game 2 misread"))
    assert state.result(1, 1) == Score(2, 1, 0)


def test_manual_pairing_checks_and_warns() -> None:
    """EV-5.11: every active player once, reason required, rematches only warned (EV-5.4)."""
    state = run(event(), PairNext())
    for table in (1, 2):
        state = run(state, ReportResult(round=1, table=table, slip="2-0"))
    r1 = state.rounds[1]
    first_pair = [state.players[p].name for p in r1.table(1).players]  # type: ignore[union-attr]
    others = [state.players[p].name for p in r1.table(2).players]  # type: ignore[union-attr]
    spec = {"pairs": [first_pair, others]}
    assert refused(state, PairManual(spec=spec, reason="")) == "EV-5.11"
    assert refused(state, PairManual(spec={"pairs": [first_pair]}, reason="x")) == "EV-5.11"
    assert refused(state, PairManual(spec={"pairs": [["Ann", "Zed"]]}, reason="x")) == "EV-2.1"
    facts = decide(state, PairManual(spec=spec, reason="feature match"))
    warnings = facts[0].warnings  # type: ignore[union-attr]
    assert [w.clause for w in warnings] == ["EV-5.4", "EV-5.4"]
    state = fold(facts, state)
    assert state.overrides[2] == "feature match"


def test_head_judge_changes_pairings_only_before_results() -> None:
    """EV-5.12: a change needs a reason and no result in the round yet."""
    state = run(event(), PairNext())
    spec = {"pairs": [["Ann", "Dee"], ["Ben", "Cal"]]}
    assert refused(state, ChangePairing(spec=spec, reason="")) == "EV-5.12"
    state = run(state, ChangePairing(spec=spec, reason="seating error", by="HJ"))
    assert state.rounds[1].table(1).players == ("p1", "p4")  # type: ignore[union-attr]
    state = run(state, ReportResult(round=1, table=1, slip="2-0"))
    assert refused(state, ChangePairing(spec=spec, reason="again")) == "EV-5.12"


def test_late_entries_and_closed_events() -> None:
    """EV-2.3 late entries join next round in Swiss, not in a round robin; EV-1.4 nothing
    after the end; EV-2.4 awarded byes only for rounds not yet paired."""
    state = run(event(), PairNext())
    state = run(state, Register(name="Eve"))
    assert state.players["p5"].entry_round == 2
    assert refused(state, AwardBye(player="Eve", round=1)) == "EV-2.4"
    robin = run(event(format="round-robin"), PairNext())
    assert refused(robin, Register(name="Eve")) == "EV-2.3"
    for table in (1, 2):
        state = run(state, ReportResult(round=1, table=table, slip="1-1-1"))
    state = run(state, EndEvent())
    assert refused(state, Register(name="Fay")) == "EV-1.4"
    assert refused(state, PairNext()) == "EV-1.4"


def test_penalty_upgrade_suggestions() -> None:
    """EV-8.4: a third GPE warning of the same kind, a second TE warning, suggest a game loss."""
    state = event()
    for expected in ("warning", "warning", "game-loss"):
        facts = decide(state, RecordPenalty(player="Ann", infraction="game-rule-violation"))
        assert facts[0].suggested == expected  # type: ignore[union-attr]
        state = fold(facts, state)
    for expected in ("warning", "game-loss"):
        facts = decide(state, RecordPenalty(player="Ben", infraction="slow-play"))
        assert facts[0].suggested == expected  # type: ignore[union-attr]
        state = fold(facts, state)
    assert refused(state, RecordPenalty(player="Ben", infraction="bad vibes")) == "EV-8.4"


def test_ev_8_4_a_missed_trigger_is_recorded_with_no_penalty() -> None:
    """EV-8.4: the IPG gives a missed trigger no penalty: recorded as none, not a warning,
    and nothing in the match changes; the judge may still give one."""
    state = run(event(), PairNext())
    facts = decide(state, RecordPenalty(player="Ann", infraction="missed-trigger"))
    assert len(facts) == 1
    assert (facts[0].penalty, facts[0].suggested) == ("none", "none")  # type: ignore[union-attr]
    given = decide(
        state, RecordPenalty(player="Ann", infraction="missed-trigger", penalty="warning")
    )
    assert given[0].penalty == "warning"  # type: ignore[union-attr]


def test_ev_8_4_a_disqualified_player_takes_no_further_penalty() -> None:
    """EV-8.4: once disqualified, a player is given nothing more while the
    disqualification stands; withdrawn (EV-8.7), penalties may be given again."""
    state = run(event(), PairNext(), RecordPenalty(player="Ann", infraction="cheating"))
    assert state.penalties[0].penalty == "disqualification"
    assert refused(state, RecordPenalty(player="Ann", infraction="slow-play")) == "EV-8.4"
    assert refused(state, RecordPenalty(player="Ann", infraction="cheating")) == "EV-8.4"
    assert decide(state, RecordPenalty(player="Ben", infraction="slow-play"))
    back = run(state, WithdrawPenalty(penalty=1, reason="wrong player", result="1-1-0"))
    again = decide(back, RecordPenalty(player="Ann", infraction="slow-play"))
    assert again[0].penalty == "warning"  # type: ignore[union-attr]


def test_playoff_refuses_draws_and_event_settings_checked() -> None:
    """EV-6.4 no drawn playoff match; EV-6.1 a cut only after Swiss; EV-7.1 no bracket pods;
    EV-1.3 the rounds run out."""
    state = run(event(format="elimination"), PairNext())
    assert refused(state, ReportResult(round=1, table=1, slip="1-1")) == "EV-6.4"
    assert (
        refused(Tournament(), CreateEvent(settings=Settings(game="x", format="elimination", cut=8)))
        == "EV-6.1"
    )
    assert (
        refused(
            Tournament(), CreateEvent(settings=Settings(game="x", format="elimination", pods=True))
        )
        == "EV-7.1"
    )
    state = run(event(rounds=1), PairNext())
    for table in (1, 2):
        state = run(state, ReportResult(round=1, table=table, slip="2-0"))
    assert refused(state, PairNext()) == "EV-1.3"


def test_a_counted_game_stays_ended() -> None:
    """EV-8.5: undoing the end of a game its match counted is refused, naming 'event
    correct'; a game the match never counted (a slip came first) may be corrected."""
    state = run(event(), PairNext(), StartRound(round=1))
    first, second = state.rounds[1].table(1).players  # type: ignore[union-attr]
    state = run(state, LinkGame(round=1, table=1, game="g1"), LinkGame(round=1, table=2, game="h1"))
    check_game_reopened(state, "g1", "ev-x")  # linked, not ended: nothing counted yet
    state = run(
        state,
        RecordGameResult(game="g1", placings={first: 1, second: 2}),
        ReportResult(round=1, table=2, slip="2-0"),
    )
    with pytest.raises(Refusal, match=r"referee event correct ev-x --round 1 1=") as caught:
        check_game_reopened(state, "g1", "ev-x")
    assert caught.value.clause == "EV-8.5"
    check_game_reopened(state, "h1", "ev-x")  # the slip decided table 2, not its game
    check_game_reopened(state, "unlinked", "ev-x")

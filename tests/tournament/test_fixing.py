"""Fixing mistakes in place (issue 29, sections 2-4), in the pure core: each refusal names
its clause, and each fix is new facts, never an edit."""

from __future__ import annotations

import re
from collections.abc import Sequence

from referee.tournament import (
    ChangePairing,
    CorrectResult,
    Drop,
    EndEvent,
    LinkGame,
    PairManual,
    PairNext,
    Placement,
    RecordGameResult,
    RecordPenalty,
    Register,
    ReportResult,
    Score,
    Tournament,
    decide,
    fold,
)
from referee.tournament import facts as f
from referee.tournament.draw import draw_key, seeded_order
from referee.tournament.fixing import (
    AttachDecklist,
    ChangeSettings,
    CorrectRating,
    RePair,
    UndoRound,
    Undrop,
    WithdrawPenalty,
)
from tests.tournament.helpers import event, pods_cut, pods_with_a_cut, refusal, refused, run

NAMES = ("Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal")


def linked(state: Tournament, games: int = 1) -> Tournament:
    """Every table of the latest round gets ``games`` linked games, g<round>-<table>-<n>."""
    number = state.current_round
    for pairing in state.rounds[number].pairings:
        if pairing.table is not None:
            for n in range(1, games + 1):
                state = run(
                    state,
                    LinkGame(
                        round=number, table=pairing.table, game=f"g{number}-{pairing.table}-{n}"
                    ),
                )
    return state


def pairs(state: Tournament, number: int) -> set[frozenset[str]]:
    return {frozenset(p.players) for p in state.rounds[number].pairings if not p.bye}


def test_ev_5_12_the_engine_repairs_the_open_round_and_keeps_tables_with_a_result() -> None:
    """EV-5.12: `repair` without a file re-pairs the open round with the engine; a table
    with a result keeps it (and its games); the other tables' games are void (EV-3.9)."""
    state = run(event(NAMES), Drop(player="Hal", reason="the wrong Hal"))  # before round 1
    state = linked(run(state, PairNext()))  # 7 players: someone has the bye
    state = run(state, ReportResult(round=1, table=1, slip="2-0-0"))
    kept = state.rounds[1].table(1)
    assert kept is not None
    assert "p8" not in state.rounds[1].players()
    state = run(state, Undrop(player="Hal", reason="dropped by mistake"))
    after = run(state, RePair(reason="Hal is back"))
    assert after.rounds[1].table(1) == kept
    assert after.result(1, 1) == Score(2, 0)
    assert "p8" in after.rounds[1].players()
    assert not any(p.bye for p in after.rounds[1].pairings)
    assert len(after.rounds[1].players()) == 8
    changed = {
        g
        for (n, t), table in state.tables.items()
        if t != 1 and after.tables.get((n, t), table).players != table.players
        for g in table.games
    }
    assert changed
    assert changed <= set(after.voided)
    assert refused(state, RePair(reason=" ")) == "EV-5.12"


def test_ev_5_12_an_engine_repair_after_every_result_is_refused() -> None:
    """EV-5.12: a round with every result in is corrected, not re-paired."""
    state = run(event(("Ann", "Ben")), PairNext(), ReportResult(round=1, table=1, slip="2-0-0"))
    assert refused(state, RePair(reason="late")) == "EV-5.12"


def test_ev_5_4_a_replaced_pairing_is_not_met() -> None:
    """EV-5.4, EV-5.12: re-pairing by hand is checked against the round unpaired, so the
    pairings it replaces are no rematches (no false warnings), and a later round may pair
    players whose only meeting was replaced."""
    state = run(event(("Ann", "Ben", "Cal", "Dee")), PairNext())
    first = pairs(state, 1)
    # the same opponents, seats swapped (the same seats would change nothing: EV-5.12)
    seated = [p.players for p in state.rounds[1].pairings if not p.bye]
    swapped = {"pairs": [list(reversed(players)) for players in seated]}
    facts = decide(state, ChangePairing(spec=swapped, reason="seating"))
    changed = facts[0]
    assert isinstance(changed, f.PairingChanged)
    assert changed.warnings == ()
    assert pairs(fold(facts, state), 1) == first  # the same opponents
    met, _ = fold(facts, state).history()
    assert all(len(opponents) == 1 for opponents in met.values())  # one meeting each


def test_ev_5_13_a_round_is_undone_before_its_first_result_only() -> None:
    """EV-5.13: undo takes the round back (not met, games void); refused once a table
    of it has a result, or without a reason."""
    state = linked(run(event(NAMES), PairNext()))
    undone = run(state, UndoRound(reason="wrong player list"))
    assert undone.current_round == 0
    assert undone.history()[0]["p1"] == set()
    assert {g for t in state.tables.values() for g in t.games} <= set(undone.voided)
    assert refused(undone, RecordGameResult(game="g1-1-1", placings={})) == "EV-3.9"
    assert refused(state, UndoRound(reason="")) == "EV-5.13"
    reported = run(state, ReportResult(round=1, table=2, slip="2-1-0"))
    assert refused(reported, UndoRound(reason="too late")) == "EV-5.13"
    # a game's result is one too; the refusal names it and points to the re-pairing, since
    # a table without a match result has nothing to correct (EV-8.2)
    a, b = state.tables[(1, 1)].players
    ended = run(state, RecordGameResult(game="g1-1-1", placings={a: 1, b: 2}))
    undo = refusal(ended, UndoRound(reason="too late"))
    assert re.search(r"a game result \(game g1-1-1\).*'event repair'", str(undo)), undo
    assert refused(run(event(NAMES), PairNext(), UndoRound(reason="x")), UndoRound(reason="x")) == (
        "EV-5.13"
    )


def test_ev_3_9_a_game_of_a_replaced_pairing_refuses_its_result() -> None:
    """EV-3.9: a game whose table was replaced is void: its result is refused, not taken
    by the new table of the same number."""
    state = linked(run(event(("Ann", "Ben", "Cal", "Dee")), PairNext()))
    table = state.rounds[1].table(1)
    assert table is not None
    others = sorted(set(state.players) - set(table.players))
    spec = {"pairs": [[table.players[0], others[0]], [table.players[1], others[1]]]}
    state = run(state, ChangePairing(spec=spec, reason="swap"))
    assert "g1-1-1" in state.voided
    placings = {p: i for i, p in enumerate(table.players, start=1)}
    assert refused(state, RecordGameResult(game="g1-1-1", placings=placings)) == "EV-3.9"


def test_ev_3_10_a_slip_must_agree_with_the_recorded_games() -> None:
    """EV-3.10: game 1 was won by the first-listed player: a 0-2 slip is refused naming
    the game; 2-1 is taken, and the table's open game is closed as void (EV-3.9)."""
    state = linked(run(event(("Ann", "Ben")), PairNext()))
    first, second = state.rounds[1].table(1).players  # type: ignore[union-attr]
    state = run(state, RecordGameResult(game="g1-1-1", placings={first: 1, second: 2}))
    state = run(state, LinkGame(round=1, table=1, game="g1-1-2"))
    refused_slip = refusal(state, ReportResult(round=1, table=1, slip="0-2-0"))
    assert refused_slip.clause == "EV-3.10"
    assert "g1-1-1" in refused_slip.reason
    facts = decide(state, ReportResult(round=1, table=1, slip="2-1-0"))
    assert isinstance(facts[-1], f.GamesVoided)
    assert facts[-1].games == ("g1-1-2",)


def test_ev_3_7_a_game_result_after_the_match_is_decided_is_refused() -> None:
    """EV-3.7: once the slip decided the match, a game's result is refused."""
    state = linked(run(event(("Ann", "Ben")), PairNext()))
    first, second = state.rounds[1].table(1).players  # type: ignore[union-attr]
    state = run(state, ReportResult(round=1, table=1, slip="2-0-0"))
    placings = {first: 1, second: 2}
    assert refused(state, RecordGameResult(game="g1-1-1", placings=placings)) == "EV-3.9"


def test_ev_1_4_open_games_block_the_end_until_voided() -> None:
    """EV-1.4, EV-3.9: a game linked but never played keeps the event open."""
    state = run(event(("Ann", "Ben")), PairNext(), ReportResult(round=1, table=1, slip="2-0-0"))
    # a stray game linked before the slip would have been voided with it; link one by hand
    stray = fold((f.GameLinked(round=1, table=1, game="gX"),), state)
    refused_end = refusal(stray, EndEvent())
    assert refused_end.clause == "EV-1.4"
    assert "gX" in refused_end.reason
    facts = decide(stray, EndEvent(void_open=True, reason="closing"))
    assert isinstance(facts[0], f.GamesVoided)
    assert facts[0].games == ("gX",)
    assert isinstance(facts[1], f.EventEnded)


def test_ev_2_7_undrop() -> None:
    """EV-2.7: a dropped player comes back with a reason; a second undrop, an undrop of a
    player who never dropped, or of a disqualified player is refused."""
    state = run(event(NAMES), Drop(player="Ann"))
    assert refused(state, Undrop(player="Ann", reason="")) == "EV-2.7"
    back = run(state, Undrop(player="Ann", reason="dropped the wrong Ann"))
    assert back.players["p1"].dropped_after is None
    assert refused(back, Undrop(player="Ann", reason="again")) == "EV-2.7"
    dq = run(event(NAMES), RecordPenalty(player="Ben", infraction="cheating"))
    dq = run(dq, Drop(player="Ben", reason="disqualified"))
    assert refused(dq, Undrop(player="Ben", reason="mistake")) == "EV-2.7"
    withdrawn = run(dq, WithdrawPenalty(penalty=1, reason="wrong player"))
    assert withdrawn.players["p2"].dropped_after is None  # the withdrawal undrops (EV-8.7)


def test_ev_1_5_rounds_and_cut_change_while_possible() -> None:
    """EV-1.5: the Swiss rounds and the cut change with a reason; never below the rounds
    paired, and not once the cut is made."""
    state = run(event(NAMES, rounds=3, cut=4), PairNext())
    assert refused(state, ChangeSettings(rounds=4, reason="")) == "EV-1.5"
    assert refused(state, ChangeSettings(reason="nothing")) == "EV-1.5"
    changed = run(state, ChangeSettings(rounds=2, cut=2, reason="the hall closes early"))
    assert changed.settings is not None
    assert (changed.settings.rounds, changed.settings.cut) == (
        2,
        2,
    )
    assert refused(changed, ChangeSettings(cut=1, reason="x")) == "EV-6.1"
    for _ in range(2):
        number = changed.current_round
        slips = [
            ReportResult(round=number, table=p.table, slip="2-0-0")
            for p in changed.rounds[number].pairings
            if p.table is not None
        ]
        changed = run(changed, *slips, PairNext())
    assert changed.cut  # round 3 is the cut
    assert refused(changed, ChangeSettings(rounds=5, reason="more")) == "EV-1.5"
    two = run(event(NAMES, rounds=3), PairNext(), ReportResult(round=1, table=1, slip="2-0-0"))
    two = run(two, *(ReportResult(round=1, table=t, slip="2-0-0") for t in (2, 3, 4)), PairNext())
    assert refused(two, ChangeSettings(rounds=1, reason="fewer")) == "EV-1.5"


def lost_the_match(facts: Sequence[f.Fact], level: str) -> None:
    """EV-8.6: the penalty ``level`` given at table 1 of round 1 lost the first-listed
    player's match by the games a bo3 needs, voided its open game and was applied there."""
    penalty, reported, voided, applied = facts
    assert isinstance(penalty, f.PenaltyRecorded)
    assert penalty.penalty == level
    assert isinstance(reported, f.MatchReported)
    assert reported.score == Score(0, 2)
    assert isinstance(voided, f.GamesVoided)
    assert voided.games == ("g1-1-1",)
    assert applied == f.PenaltyApplied(penalty=1, round=1, table=1)


def test_ev_8_6_a_match_loss_decides_the_match_and_a_game_loss_names_the_game() -> None:
    """EV-8.6: a match loss reports the match lost by the games needed and voids its open
    games; a game loss names the player's open game; the head's choice is kept beside the
    IPG's suggestion (EV-8.4)."""
    state = linked(run(event(("Ann", "Ben")), PairNext()))
    first = state.rounds[1].table(1).players[0]  # type: ignore[union-attr]
    name = state.players[first].name
    facts = decide(state, RecordPenalty(player=name, infraction="outside-assistance"))
    lost_the_match(facts, "match-loss")
    chosen = decide(
        state, RecordPenalty(player=name, infraction="outside-assistance", penalty="game-loss")
    )
    assert len(chosen) == 2
    assert isinstance(chosen[0], f.PenaltyRecorded)
    assert chosen[1] == f.PenaltyApplied(penalty=1, round=1, table=1, game="g1-1-1")
    assert chosen[0].penalty == "game-loss"
    assert chosen[0].suggested == "match-loss"
    assert chosen[0].game == "g1-1-1"


def test_ev_8_6_a_disqualification_loses_the_match_in_progress() -> None:
    """EV-8.6 (IPG 1.1): a disqualification during a match loses it as a match loss does
    (reported by the games needed, open games void, marked applied); given with no match
    in progress it decides nothing. Withdrawn (EV-8.7), the lost match is corrected with it."""
    state = linked(run(event(("Ann", "Ben")), PairNext()))
    first = state.rounds[1].table(1).players[0]  # type: ignore[union-attr]
    name = state.players[first].name
    facts = decide(
        state, RecordPenalty(player=name, infraction="cheating", penalty="disqualification")
    )
    lost_the_match(facts, "disqualification")
    between = run(event(("Ann", "Ben")), RecordPenalty(player="Ann", infraction="cheating"))
    assert between.penalties[0].penalty == "disqualification"
    assert between.applied_penalties == {}
    dq = run(state, RecordPenalty(player=name, infraction="cheating"), Drop(player=name))
    assert dq.result(1, 1) == Score(0, 2)
    assert refused(dq, WithdrawPenalty(penalty=1, reason="wrong player")) == "EV-8.7"
    back = run(dq, WithdrawPenalty(penalty=1, reason="wrong player", result="1-1-0"))
    assert back.result(1, 1) == Score(1, 1)
    assert back.players[first].dropped_after is None


def test_ev_8_7_withdrawing_a_penalty() -> None:
    """EV-8.7: a withdrawal needs a reason and a real, not yet withdrawn penalty; a match
    loss that decided a table is withdrawn with the result without it (a correction); a
    withdrawn penalty no longer counts toward upgrades (EV-8.4)."""
    state = linked(run(event(("Ann", "Ben")), PairNext()))
    first = state.rounds[1].table(1).players[0]  # type: ignore[union-attr]
    name = state.players[first].name
    state = run(state, RecordPenalty(player=name, infraction="outside-assistance"))
    assert refused(state, WithdrawPenalty(penalty=1, reason="")) == "EV-8.7"
    assert refused(state, WithdrawPenalty(penalty=2, reason="x")) == "EV-8.7"
    assert refused(state, WithdrawPenalty(penalty=1, reason="misheard")) == "EV-8.7"  # result?
    fixed = run(state, WithdrawPenalty(penalty=1, reason="misheard", result="1-1-0"))
    assert fixed.result(1, 1) == Score(1, 1)
    assert fixed.withdrawn_penalties == {1}
    assert refused(fixed, WithdrawPenalty(penalty=1, reason="again")) == "EV-8.7"
    late = run(event(NAMES), RecordPenalty(player="Ann", infraction="tardiness"))
    late = run(late, WithdrawPenalty(penalty=1, reason="the clock was wrong"))
    again = decide(late, RecordPenalty(player="Ann", infraction="tardiness"))[0]
    assert isinstance(again, f.PenaltyRecorded)
    assert again.suggested == "game-loss"
    slow = run(event(NAMES), RecordPenalty(player="Ann", infraction="slow-play"))
    slow = run(slow, WithdrawPenalty(penalty=1, reason="not slow"))
    second = decide(slow, RecordPenalty(player="Ann", infraction="slow-play"))[0]
    assert isinstance(second, f.PenaltyRecorded)
    assert second.suggested == "warning"


def test_ev_2_8_a_decklist_is_attached_until_the_first_round_is_paired() -> None:
    """EV-2.8: a list may be attached until the player's first round is paired, then it
    is locked; a late entry may attach one until their first round."""
    state = event(("Ann", "Ben"))
    assert decide(state, AttachDecklist(player="Ann"))[0] == f.DecklistAttached(player="p1")
    assert refused(state, AttachDecklist(player="Zed")) == "EV-2.1"
    state = run(state, PairNext())
    assert refused(state, AttachDecklist(player="Ann")) == "EV-2.8"
    state = run(state, Register(name="Cal"))  # a late entry: round 2 is theirs
    assert decide(state, AttachDecklist(player="Cal"))[0] == f.DecklistAttached(player="p3")


def test_ev_2_8_the_list_the_player_already_has_is_refused() -> None:
    """EV-2.8: attaching the list a player already has (the same digest) changes nothing and
    is refused; another list, or a first one, is attached; a command without a digest (a
    stored fact judged again) is not compared."""
    state = event(("Ann", "Ben"))
    again = AttachDecklist(player="Ann", digest="d1", held="d1")
    assert refused(state, again) == "EV-2.8"
    assert "Ann already has this decklist: nothing changed" in str(refusal(state, again))
    for attached in (
        AttachDecklist(player="Ann", digest="d2", held="d1"),
        AttachDecklist(player="Ann", digest="d1"),
        AttachDecklist(player="Ann"),
    ):
        assert decide(state, attached) == (f.DecklistAttached(player="p1"),)


def test_ev_5_6_round_1_is_drawn_from_the_seed() -> None:
    """EV-5.6: with a seed, round 1 follows the seeded draw (recomputable by anyone from
    sha256("SEED:1:ID")), not registration order; same seed, same round; the lowest drawn
    player of an odd count has the bye."""
    names = [f"P{n}" for n in range(1, 10)]
    one = run(event(names, seed=7), PairNext())
    again = run(event(names, seed=7), PairNext())
    assert one.rounds[1] == again.rounds[1]
    order = seeded_order(7, 1, list(one.players))
    assert order == sorted(one.players, key=lambda p: draw_key(7, 1, p))
    bye = [p for p in one.rounds[1].pairings if p.bye]
    assert bye[0].players == (order[-1],)
    half = len(order) // 2
    assert {frozenset((order[i], order[i + half])) for i in range(half)} == pairs(one, 1)
    unseeded = run(event(names), PairNext())
    assert next(p for p in unseeded.rounds[1].pairings if p.bye).players == ("p9",)


def _rated(ratings: dict[str, int | None], seed: int = 7) -> Tournament:
    state = event((), seed=seed)
    return run(state, *(Register(name=n, rating=r) for n, r in ratings.items()))


def test_ev_2_11_a_rating_is_a_whole_number_from_0_to_9999() -> None:
    """EV-2.11: a registration's rating outside 0 to 9,999 is refused, naming the clause and
    the player; 0 and 9,999 are taken, and so is none."""
    state = event(("Ann",))
    for wrong in (-1, 10_000, 2**40):
        found = refusal(state, Register(name="Ben", rating=wrong))
        assert found.clause == "EV-2.11"
        assert f"Ben's rating is a whole number from 0 to 9,999, not {wrong:,}" in str(found)
    state = run(state, Register(name="Ben", rating=0), Register(name="Cal", rating=9_999))
    assert {p.name: p.rating for p in state.players.values()} == {
        "Ann": None,
        "Ben": 0,
        "Cal": 9_999,
    }


def test_ev_5_6_round_1_follows_the_ratings_highest_first_then_the_draw() -> None:
    """EV-5.6, EV-2.11: round 1 pairs the rated players highest first (1 v n/2+1), those
    without a rating after them in the draw's order; the lowest takes an odd count's bye."""
    ratings = {"Ann": 1500, "Ben": None, "Cal": 2100, "Dee": 1800, "Eve": 1200}
    state = run(_rated(ratings), PairNext())
    ids = {p.name: p.id for p in state.players.values()}
    order = [ids[n] for n in ("Cal", "Dee", "Ann", "Eve", "Ben")]
    assert next(p for p in state.rounds[1].pairings if p.bye).players == (order[-1],)
    assert pairs(state, 1) == {frozenset((order[0], order[2])), frozenset((order[1], order[3]))}


def test_ev_2_11_a_rating_is_corrected_with_a_reason_until_round_1_is_paired() -> None:
    """EV-2.11: a correction with a reason changes the rating round 1 is seeded by (or takes
    it away); refused without a reason, outside the bounds, for the rating already held, for
    no player (EV-2.1), and once round 1 is paired."""
    state = _rated({"Ann": 1500, "Ben": 1600, "Cal": 1700, "Dee": 1800})
    fix = CorrectRating(player="Ann", rating=1900, reason="typed 1500", by="Hana")
    assert decide(state, fix) == (
        f.RatingCorrected(player="p1", rating=1900, reason="typed 1500", by="Hana"),
    )
    assert refused(state, CorrectRating(player="Ann", rating=1900, reason=" ")) == "EV-2.11"
    assert refused(state, CorrectRating(player="Ann", rating=10_000, reason="x")) == "EV-2.11"
    same = refusal(state, CorrectRating(player="Ben", rating=1600, reason="x"))
    assert "Ben already has the rating 1600: nothing changed" in str(same)
    assert refused(state, CorrectRating(player="Zed", rating=1, reason="x")) == "EV-2.1"
    corrected = run(state, fix, CorrectRating(player="Dee", rating=None, reason="unrated"))
    assert corrected.players["p1"].rating == 1900
    assert corrected.players["p4"].rating is None
    paired = run(corrected, PairNext())  # Ann 1900 v Ben 1600, Cal 1700 v Dee (unrated)
    assert pairs(paired, 1) == {frozenset(("p1", "p2")), frozenset(("p3", "p4"))}
    late = refusal(paired, CorrectRating(player="Ann", rating=1500, reason="x"))
    assert late.clause == "EV-2.11"
    assert "round 1 has been paired" in str(late)


def test_ev_5_11_a_manual_pairing_needs_a_reason() -> None:
    """EV-5.11: pairing by hand is refused without a reason."""
    spec = {"pairs": [["Ann", "Ben"]]}
    assert refused(event(("Ann", "Ben")), PairManual(spec=spec, reason="")) == "EV-5.11"


def test_ev_2_9_a_late_entry_may_take_match_losses_for_rounds_missed() -> None:
    """EV-2.9: with the option, a late entry's missed rounds are played and lost 0-2 with
    no opponent (in no one else's figures); by default they are not played (EV-I.6);
    before round 1 the option is refused."""
    assert refused(event(("Ann", "Ben")), Register(name="Cal", late_as_losses=True)) == "EV-2.9"
    state = run(event(("Ann", "Ben")), PairNext(), ReportResult(round=1, table=1, slip="2-0-0"))
    state = run(state, Register(name="Cal", late_as_losses=True), Register(name="Dee"))
    rows = {s.name: s for s in state.standings()}
    cal, dee = rows["Cal"], rows["Dee"]
    assert (cal.record.losses, cal.points, cal.mw, cal.gw) == (1, 0, "1/3", "1/3")
    assert dee.record.losses == 0
    assert state.players["p3"].late_as_losses is True
    from referee.tournament.standings import Standings

    assert state.settings is not None
    table = Standings(state.settings, state.players.values())
    for key, result in state.match_results().items():
        table.record(key, result)
    assert [(s.player, s.points, s.record) for s in table.table()] == [
        (s.player, s.points, s.record) for s in state.standings()
    ]
    assert "Cal" in state.explain("p3")


def test_ev_8_6_a_match_loss_between_rounds_decides_the_next_match() -> None:
    """EV-8.6 (IPG 1.2): a match loss given when the player's match is over waits for their
    next match, which pairing decides as lost; it is applied once."""
    from referee.tournament.fixing import pending_at_pairing, pending_penalties

    state = run(
        event(("Ann", "Ben"), rounds=2), PairNext(), ReportResult(round=1, table=1, slip="2-0-0")
    )
    state = run(state, RecordPenalty(player="Ann", infraction="outside-assistance"))
    assert [n for n, _ in pending_penalties(state)] == [1]
    state = run(state, PairNext())
    facts = pending_at_pairing(state)
    reported, applied = facts
    table = state.rounds[2].table(1)
    assert table is not None
    assert isinstance(reported, f.MatchReported)
    assert reported.score == (Score(0, 2) if table.players[0] == "p1" else Score(2, 0))
    assert isinstance(applied, f.PenaltyApplied)
    assert applied.penalty == 1
    state = fold(facts, state)
    assert pending_penalties(state) == []
    assert pending_at_pairing(state) == ()


def test_ev_2_8_the_deck_deadline_can_be_a_later_round() -> None:
    """EV-2.8: with a deadline of round 2, a list may still be replaced after round 1 is
    paired, and is locked once round 2 is."""
    state = run(event(("Ann", "Ben"), deck_deadline=2, rounds=3), PairNext())
    assert decide(state, AttachDecklist(player="Ann"))[0] == f.DecklistAttached(player="p1")
    state = run(state, ReportResult(round=1, table=1, slip="2-0-0"), PairNext())
    assert refused(state, AttachDecklist(player="Ann")) == "EV-2.8"


def test_ev_8_7_a_penalty_applied_later_is_withdrawn_where_it_took_effect() -> None:
    """EV-8.7: a match loss that waited for the next match is withdrawn at the table where
    it took effect, with the result without it."""
    from referee.tournament.fixing import pending_at_pairing

    state = run(
        event(("Ann", "Ben"), rounds=2), PairNext(), ReportResult(round=1, table=1, slip="2-0-0")
    )
    state = run(state, RecordPenalty(player="Ann", infraction="outside-assistance"), PairNext())
    state = fold(pending_at_pairing(state), state)
    assert state.applied_penalties == {1: (2, 1)}
    assert refused(state, WithdrawPenalty(penalty=1, reason="wrong")) == "EV-8.7"
    fixed = run(state, WithdrawPenalty(penalty=1, reason="wrong", result="1-1-0"))
    assert fixed.result(2, 1) == Score(1, 1)


def test_ev_i_11_a_match_loss_at_a_pod_table_places_the_player_last() -> None:
    """EV-I.11 (EV-8.6 at a pod): a match loss given at a pod of four is applied there and
    places the player last, alone, in the result the pod reports later, the others in the
    order reported; withdrawn (EV-8.7), the reported order stands as it was written."""
    state = linked(run(event(("Ann", "Ben", "Cal", "Dee"), pods=True), PairNext()))
    table = state.rounds[1].table(1)
    assert table is not None
    assert len(table.players) == 4
    facts = decide(state, RecordPenalty(player="Ben", infraction="outside-assistance"))
    assert [type(fact) for fact in facts] == [f.PenaltyRecorded, f.PenaltyApplied]
    penalized = run(state, RecordPenalty(player="Ben", infraction="outside-assistance"))
    assert penalized.applied_penalties == {1: (1, 1)}
    assert penalized.result(1, 1) is None  # the others play on
    reported = run(penalized, ReportResult(round=1, table=1, slip="Ben>Ann>Cal=Dee"))
    result = reported.result(1, 1)
    assert isinstance(result, Placement)
    ann, ben, cal, dee = (reported.find(n) or n for n in ("Ann", "Ben", "Cal", "Dee"))
    assert result.place_of(ann) < result.place_of(cal) == result.place_of(dee)
    assert result.place_of(ben) > result.place_of(dee)
    back = run(reported, WithdrawPenalty(penalty=1, reason="wrong player"))
    first = back.result(1, 1)
    assert isinstance(first, Placement)
    assert first.place_of(ben) == 1


def test_ev_i_11_a_match_loss_leaving_one_player_decides_the_pod() -> None:
    """EV-I.11: at a pod of two (five players sit three and two, EV-7.1), a match loss
    leaves one player, who is first at once; the table's open games are closed as void."""
    state = linked(run(event(("Ann", "Ben", "Cal", "Dee", "Eve"), pods=True), PairNext()))
    pair = next(p for p in state.rounds[1].pairings if len(p.players) == 2)
    assert pair.table is not None
    loser, winner = pair.players
    name = state.players[loser].name
    facts = decide(state, RecordPenalty(player=name, infraction="outside-assistance"))
    assert [type(fact) for fact in facts] == [f.PenaltyRecorded, f.GamesVoided, f.PenaltyApplied]
    done = run(state, RecordPenalty(player=name, infraction="outside-assistance"))
    result = done.result(1, pair.table)
    assert isinstance(result, Placement)
    assert result.place_of(winner) == 1
    assert result.place_of(loser) == 2


def test_ev_i_11_the_places_after_a_match_loss_are_counted_again() -> None:
    """EV-I.11, EV-7.5: the pod's result with the penalized player moved last is numbered as
    a pod's places are (1 + the players ahead), so a slip that placed them second gives
    1st, 2nd, 3rd and 4th, not 1st, 3rd, 4th and a 5th place in a pod of four."""
    state = linked(run(event(("Ann", "Ben", "Cal", "Dee"), pods=True), PairNext()))
    state = run(state, RecordPenalty(player="Ben", infraction="outside-assistance"))
    state = run(state, ReportResult(round=1, table=1, slip="1:Ann,2:Ben,3:Cal,3:Dee"))
    result = state.result(1, 1)
    assert isinstance(result, Placement)
    ann, ben, cal, dee = (state.find(n) or n for n in ("Ann", "Ben", "Cal", "Dee"))
    assert {p: result.place_of(p) for p in (ann, ben, cal, dee)} == {
        ann: 1,
        cal: 2,
        dee: 2,
        ben: 4,
    }


def test_ev_6_4_the_playoff_of_a_pod_event_is_reported_as_matches() -> None:
    """EV-6.1, EV-6.4, EV-7.1: a pod event's cut plays a two-player bracket, whose tables
    are matches: a slip is W-L-D with a winner (a pod's places are refused there, naming
    W-L-D), as the bracket's next round reads its winners. The slip used to be read as a
    pod's places (EV-7.3 asked for 1:Ann,2:Fay), and the semifinal so reported made the
    final's pairing fail on an assertion; such a stored slip is now refused in one line
    naming its correction."""
    state = pods_cut(pods_with_a_cut())  # the cut: semifinals of two
    assert state.rounds[2].kind == "cut"
    first, second = state.rounds[2].pairings[0].players
    places = f"1:{state.players[first].name},2:{state.players[second].name}"
    assert refused(state, ReportResult(round=2, table=1, slip=places)) == "EV-3.1"
    assert refused(state, ReportResult(round=2, table=1, slip="0-0-1")) == "EV-6.4"
    without_final = run(state, ReportResult(round=2, table=2, slip="0-1-0"))
    state = run(state, ReportResult(round=2, table=1, slip="1-0-0"))
    state = run(state, ReportResult(round=2, table=2, slip="0-1-0"))
    assert state.result(2, 1) == Score(1, 0)
    state = run(state, PairNext())  # the final, from the semifinals' winners
    assert state.rounds[3].pairings[0].players[0] == first
    # a semifinal stored in places before (a record of then) is refused in one line, not on
    # an assertion, naming the correction that lets the final be paired
    before = fold(
        [f.MatchReported(round=2, table=1, placement=Placement(((first, 1), (second, 2))))],
        without_final,
    )
    stuck = refusal(before, PairNext())
    assert stuck.clause == "EV-6.4"
    assert "event correct --round 2 1=W-L-D" in stuck.reason
    fixed = run(before, CorrectResult(round=2, table=1, slip="1-0-0", reason="places"))
    assert run(fixed, PairNext()).rounds[3].pairings[0].players[0] == first


def test_ev_8_1_a_pod_correction_that_changes_nothing_names_the_players() -> None:
    """EV-8.1: a correction giving the pod's result it already has is refused naming the
    players as registered (``Cal>Ann>Ben``), not their event ids (``p3>p1>p2``)."""
    state = run(event(("Ann", "Ben", "Cal"), pods=True), PairNext())
    state = run(state, ReportResult(round=1, table=1, slip="1:Cal,2:Ann,3:Ben"))
    same = refusal(state, CorrectResult(round=1, table=1, slip="1:Cal,2:Ann,3:Ben", reason="x"))
    assert same.clause == "EV-8.1"
    assert "Cal>Ann>Ben" in same.reason, same.reason


def test_ev_3_10_a_pod_slip_places_a_game_loss_below_the_others() -> None:
    """EV-3.10 (EV-8.6, IPG 1.2) at a pod table: a pod is one game (``decided_by_games``),
    so a game loss given there, which ends the player's seat in the pod's game, must be
    counted by the slip as that game lost: the penalized player below every other player
    of the pod. A slip placing them higher is refused naming the penalty (the slip closes
    the game as void, and the penalty would be lost); one placing them last is taken;
    withdrawn (EV-8.7), the penalty asks nothing of the slip."""
    state = linked(run(event(("Ann", "Ben", "Cal"), pods=True), PairNext()))
    state = run(state, RecordPenalty(player="Ben", infraction="tardiness"))
    assert state.applied_penalties == {1: (1, 1)}
    for slip in ("1:Ben,2:Ann,3:Cal", "1:Ann,2:Ben,3:Cal", "1:Ann,2:Ben,2:Cal"):
        refused_slip = refusal(state, ReportResult(round=1, table=1, slip=slip))
        assert refused_slip.clause == "EV-3.10"
        assert "penalty 1" in refused_slip.reason
    taken = run(state, ReportResult(round=1, table=1, slip="1:Cal,2:Ann,3:Ben"))
    assert taken.result(1, 1) is not None
    withdrawn = run(state, WithdrawPenalty(penalty=1, reason="the clock was wrong"))
    assert decide(withdrawn, ReportResult(round=1, table=1, slip="1:Ben,2:Ann,3:Cal"))


def test_ev_3_10_a_slip_counts_a_game_loss_whose_game_is_not_recorded_yet() -> None:
    """EV-3.10 (IPG 1.2, EV-8.6): a game loss ended the first-listed player's game 1,
    whose result has not reached the table yet: a 2-0 slip for them is refused naming the
    penalty, as it is once the game is recorded; 2-1 for them is taken."""
    state = linked(run(event(("Ann", "Ben")), PairNext()))
    first, second = state.rounds[1].table(1).players  # type: ignore[union-attr]
    name = state.players[first].name
    state = run(state, RecordPenalty(player=name, infraction="tardiness"))
    assert state.applied_penalties == {1: (1, 1)}
    refused_slip = refusal(state, ReportResult(round=1, table=1, slip="2-0-0"))
    assert refused_slip.clause == "EV-3.10"
    assert "penalty 1" in refused_slip.reason
    facts = decide(state, ReportResult(round=1, table=1, slip="2-1-0"))
    assert isinstance(facts[0], f.MatchReported)
    assert not any(isinstance(x, f.PenaltyApplied) for x in facts)  # applied already
    recorded = run(state, RecordGameResult(game="g1-1-1", placings={first: 2, second: 1}))
    assert refused(recorded, ReportResult(round=1, table=1, slip="2-0-0")) == "EV-3.10"
    assert recorded.penalty_games == {1: "g1-1-1"}


def test_ev_3_10_a_waiting_game_loss_counts_in_the_slip_of_the_next_match() -> None:
    """EV-3.10 (IPG 1.2: a game loss given between matches is applied to the player's next
    game): the slip of Ann's next match must leave her a lost game; the slip that does
    marks the penalty applied there (EV-8.6), so it waits for no later match. Withdrawn
    first (EV-8.7), it asks nothing of the slip."""
    from referee.tournament.fixing import pending_penalties

    state = run(
        event(("Ann", "Ben"), rounds=3), PairNext(), ReportResult(round=1, table=1, slip="2-0-0")
    )
    state = run(state, RecordPenalty(player="Ann", infraction="tardiness"), PairNext())
    assert [n for n, _ in pending_penalties(state)] == [1]
    first = state.rounds[2].table(1).players[0]  # type: ignore[union-attr]
    ann_won_all, ann_lost_one = ("2-0-0", "2-1-0") if first == "p1" else ("0-2-0", "1-2-0")
    assert refused(state, ReportResult(round=2, table=1, slip=ann_won_all)) == "EV-3.10"
    facts = decide(state, ReportResult(round=2, table=1, slip=ann_lost_one))
    assert facts[-1] == f.PenaltyApplied(penalty=1, round=2, table=1)
    state = fold(facts, state)
    assert pending_penalties(state) == []
    state = run(state, PairNext())
    assert decide(state, ReportResult(round=3, table=1, slip=ann_won_all))  # counted once
    withdrawn = run(
        event(("Ann", "Ben"), rounds=2), PairNext(), ReportResult(round=1, table=1, slip="2-0-0")
    )
    withdrawn = run(
        withdrawn,
        RecordPenalty(player="Ann", infraction="tardiness"),
        WithdrawPenalty(penalty=1, reason="Ann was seated on time"),
        PairNext(),
    )
    facts = decide(withdrawn, ReportResult(round=2, table=1, slip=ann_won_all))
    assert not any(isinstance(x, f.PenaltyApplied) for x in facts)


def test_ev_8_6_a_game_loss_between_games_ends_the_same_matchs_next_game() -> None:
    """EV-8.6 (IPG 1.2: a Game Loss issued between games applies to the match's next game):
    Ann won game 1 and is given a game loss before game 2 is linked. It takes effect in
    this match, names game 2 when it is linked, and counts in this match's score; it is
    never carried to round 2, whose 2-0 slip for Ann is taken (EV-3.10)."""
    from referee.tournament.fixing import pending_penalties

    state = run(event(("Ann", "Ben"), rounds=2), PairNext())
    first, second = state.rounds[1].table(1).players  # type: ignore[union-attr]
    ann = "p1"
    ben = second if first == ann else first
    state = run(
        state,
        LinkGame(round=1, table=1, game="g1"),
        RecordGameResult(game="g1", placings={"Ann": 1, "Ben": 2}),
    )
    facts = decide(state, RecordPenalty(player="Ann", infraction="tardiness"))
    assert facts[-1] == f.PenaltyApplied(penalty=1, round=1, table=1)
    state = fold(facts, state)
    assert pending_penalties(state) == []
    linked_facts = decide(state, LinkGame(round=1, table=1, game="g2"))
    assert linked_facts[-1] == f.PenaltyApplied(penalty=1, round=1, table=1, game="g2")
    state = fold(linked_facts, state)
    assert state.penalty_games == {1: "g2"}
    state = run(
        state,
        RecordGameResult(game="g2", placings={"Ann": 2, "Ben": 1}),
        LinkGame(round=1, table=1, game="g3"),
    )
    assert state.penalty_games == {1: "g2"}  # one game loss, one game
    state = run(state, RecordGameResult(game="g3", placings={"Ann": 2, "Ben": 1}))
    score = state.result(1, 1)
    assert isinstance(score, Score)
    assert (score.wins, score.losses) == ((1, 2) if first == ann else (2, 1))
    state = run(state, PairNext())
    again = state.rounds[2].table(1)
    assert again is not None
    assert ben in again.players
    ann_won_all = "2-0-0" if again.players[0] == ann else "0-2-0"
    facts = decide(state, ReportResult(round=2, table=1, slip=ann_won_all))
    assert not any(isinstance(x, f.PenaltyApplied) for x in facts)


def test_ev_5_12_a_repair_that_moves_nothing_is_refused() -> None:
    """EV-5.12: a re-pairing (by the engine or by hand) that leaves every table and bye as
    it was is refused, so no change that changes nothing is stored; a real change is not."""
    state = run(event(("Ann", "Ben", "Cal", "Dee", "Eve")), PairNext())
    assert refused(state, RePair(reason="check")) == "EV-5.12"
    rnd = state.rounds[1]
    tables = [[state.players[p].name for p in t.players] for t in rnd.pairings if not t.bye]
    byes = [state.players[t.players[0]].name for t in rnd.pairings if t.bye]
    same = {"pairs": tables, "byes": byes}
    assert refused(state, ChangePairing(spec=same, reason="check")) == "EV-5.12"
    swapped = {"pairs": [tables[0][::-1], *tables[1:]], "byes": byes}
    after = run(state, ChangePairing(spec=swapped, reason="seats swapped"))
    assert after.rounds[1].table(1).players == rnd.table(1).players[::-1]  # type: ignore[union-attr]


def test_ev_1_5_a_change_to_the_settings_the_event_has_is_refused() -> None:
    """EV-1.5: the rounds and cut the event already plays are no change: refused."""
    state = run(event(NAMES, rounds=3, cut=4), PairNext())
    assert refused(state, ChangeSettings(rounds=3, reason="same")) == "EV-1.5"
    assert refused(state, ChangeSettings(cut=4, reason="same")) == "EV-1.5"
    assert refused(state, ChangeSettings(rounds=3, cut=4, reason="same")) == "EV-1.5"
    changed = run(state, ChangeSettings(rounds=3, cut=2, reason="a smaller cut"))
    assert changed.settings is not None
    assert changed.settings.cut == 2


def test_ev_8_6_a_match_loss_at_a_pod_events_playoff_table_loses_the_match() -> None:
    """EV-6.4, EV-8.6, EV-I.11: a pod event's playoff table is a match (W-L-D with a
    winner), so a match loss there reports the match lost by the games needed, as in any
    bracket, and the final is paired from it; 'placed last in the pod' is for the pods of
    the Swiss rounds. It used to take the pod's way (no slip: the player placed last), which
    left the semifinal in places and the final refused, asking for a correction."""
    state = pods_cut(pods_with_a_cut())  # the cut: semifinals of two
    first, second = state.rounds[2].pairings[0].players
    loser = state.players[second].name
    state = run(state, RecordPenalty(player=loser, infraction="cheating", penalty="match-loss"))
    assert state.result(2, 1) == Score(1, 0)
    from service.postings import penalty_lines  # the desk's list of penalties says so too

    assert penalty_lines(state)[0].effect == "round 2 table 1: match lost"
    state = run(state, ReportResult(round=2, table=2, slip="1-0-0"))
    state = run(state, PairNext())  # the final, from the semifinals' winners
    assert first in state.rounds[3].pairings[0].players

"""The hall's pure decisions: judge calls (EV-10) and players' own results (EV-11), each
refusal with the clause it applies."""

from __future__ import annotations

from datetime import UTC, datetime

from referee.tournament import (
    CreateEvent,
    EndRound,
    PairNext,
    Register,
    ReportResult,
    Score,
    Settings,
    Tournament,
    decide,
    fold,
)
from referee.tournament import facts as f
from referee.tournament.hall import (
    CallJudge,
    ClaimCall,
    ConfirmReport,
    DisputeReport,
    EscalateCall,
    FileReport,
    ResolveCall,
    decide_hall,
    sees_hall,
)
from tests.tournament.helpers import paired, refused, run

AT = datetime(2026, 11, 28, 14, 0, tzinfo=UTC)


def table_of(state: Tournament, name: str) -> tuple[int, tuple[str, ...]]:
    pid = state.find(name)
    for (_, table), t in state.tables.items():
        if pid in t.players:
            return table, tuple(state.players[p].name for p in t.players)
    raise AssertionError(name)


# -- judge calls -------------------------------------------------------------------------


def test_ev_10_1_a_player_calls_a_judge_to_their_own_table() -> None:
    state = paired()
    table, _ = table_of(state, "Ann")
    (called,) = decide_hall(state, CallJudge(player="Ann", reason="  ruling please ", at=AT))
    assert isinstance(called, f.JudgeCalled)
    assert (called.call, called.round, called.table, called.by) == (1, 1, table, "p1")
    assert called.reason == "ruling please"
    assert called.at == AT
    state = fold([called], state)
    assert state.calls[1].status == "open"
    assert state.calls[1].holder == ""


def test_ev_10_1_the_reason_is_one_bounded_line() -> None:
    state = paired()
    assert refused(state, CallJudge(player="Ann", reason="x" * 201, at=AT)) == "EV-10.1"
    assert refused(state, CallJudge(player="Ann", reason="two\nlines", at=AT)) == "EV-10.1"
    assert refused(state, CallJudge(table=9, by="Tom", at=AT)) == "EV-10.1"


def test_ev_10_1_no_call_before_a_round_or_after_it_ended() -> None:
    state = fold(decide(Tournament(), CreateEvent(settings=Settings(game="prizmik"))))
    state = fold(decide(state, Register(name="Ann")), state)
    assert refused(state, CallJudge(table=1, by="Tom", at=AT)) == "EV-10.1"


def test_ev_10_2_a_player_calls_only_to_their_own_table() -> None:
    state = paired()
    ann, _ = table_of(state, "Ann")
    other = 2 if ann == 1 else 1
    assert refused(state, CallJudge(player="Ann", table=other, at=AT)) == "EV-10.2"
    odd = paired(("Ann", "Ben", "Cal"))
    bye = next(p for p in odd.rounds[1].pairings if p.bye).players[0]
    assert refused(odd, CallJudge(player=odd.players[bye].name, at=AT)) == "EV-10.2"


def test_ev_10_3_one_open_call_per_table() -> None:
    state = run(paired(), CallJudge(player="Ann", at=AT))
    table, (_, opponent) = table_of(state, "Ann")
    assert refused(state, CallJudge(player=opponent, at=AT)) == "EV-10.3"
    state = run(state, ResolveCall(call=1, by="Tom", note="explained PZ-3", at=AT))
    state = run(state, CallJudge(table=table, by="Tom", at=AT))
    assert state.calls[2].by == "Tom"


def test_ev_10_4_to_10_6_claim_escalate_resolve() -> None:
    state = run(paired(), CallJudge(player="Ann", at=AT))
    state = run(state, ClaimCall(call=1, by="Tom", at=AT))
    assert (state.calls[1].status, state.calls[1].holder) == ("claimed", "Tom")
    assert refused(state, ClaimCall(call=1, by="Tom", at=AT)) == "EV-10.4"
    assert refused(state, ClaimCall(call=7, by="Tom", at=AT)) == "EV-10.4"
    state = run(state, ClaimCall(call=1, by="Tia", at=AT))  # a take-over
    assert state.calls[1].holder == "Tia"
    state = run(state, EscalateCall(call=1, by="Tia", reason="needs the head", at=AT))
    assert (state.calls[1].status, state.calls[1].holder) == ("escalated", "")
    assert refused(state, EscalateCall(call=1, by="Tia", at=AT)) == "EV-10.5"
    assert refused(state, ClaimCall(call=1, by="Tom", at=AT)) == "EV-10.4"
    assert refused(state, ResolveCall(call=1, by="Tom", note="done", at=AT)) == "EV-10.4"
    state = run(state, ClaimCall(call=1, by="Hera", head=True, at=AT))
    assert (state.calls[1].status, state.calls[1].holder) == ("escalated", "Hera")
    assert refused(state, ResolveCall(call=1, by="Hera", note=" ", head=True, at=AT)) == "EV-10.6"
    state = run(state, ResolveCall(call=1, by="Hera", note="rewound", head=True, at=AT))
    assert (state.calls[1].status, state.calls[1].note) == ("resolved", "rewound")
    assert refused(state, ClaimCall(call=1, by="Hera", head=True, at=AT)) == "EV-10.6"
    assert refused(state, ResolveCall(call=1, by="Hera", note="x", head=True, at=AT)) == "EV-10.6"


def test_ev_10_7_a_tables_call_and_reports_are_shown_on_its_players_own_page_only() -> None:
    """EV-10.7: Ann's page shows her table's call and reports to Ann; not to Cal, her
    opponent at that table (his own page shows them to him), nor to Ben of the other table,
    nor to a reader who is no player of the event."""
    state = run(paired(), CallJudge(player="Ann", reason="ruling please", at=AT))
    ann, cal, ben = (state.find(n) for n in ("Ann", "Cal", "Ben"))
    assert table_of(state, "Ann") == (1, ("Ann", "Cal"))
    assert sees_hall(ann, ann)
    assert sees_hall(cal, cal)
    assert not sees_hall(cal, ann)
    assert not sees_hall(ben, ann)
    assert not sees_hall(None, ann)
    assert not sees_hall(None, None)


# -- players' own results ------------------------------------------------------------------


def test_ev_11_4_a_confirmed_report_is_the_tables_result_as_a_slip_is() -> None:
    state = paired()
    table, (first, second) = table_of(state, "Ann")
    state = run(state, FileReport(player=second, result="2-1-0", at=AT))
    report = state.reports[1]
    assert report.score == Score(1, 2, 0)  # written for the first-listed player
    assert state.result(1, table) is None
    facts = decide_hall(state, ConfirmReport(report=1, player=first, at=AT))
    confirmed, reported = facts
    assert isinstance(confirmed, f.ReportConfirmed)
    slip = decide(state, ReportResult(round=1, table=table, slip="1-2-0"))[0]
    assert isinstance(reported, f.MatchReported)
    assert isinstance(slip, f.MatchReported)
    assert (reported.round, reported.table, reported.score) == (slip.round, slip.table, slip.score)
    state = fold(facts, state)
    assert state.result(1, table) == Score(1, 2, 0)
    assert state.reports[1].status == "confirmed"


def test_ev_11_4_the_opponent_filing_the_same_result_confirms() -> None:
    state = paired()
    table, (first, second) = table_of(state, "Ann")
    state = run(state, FileReport(player=first, result="2-0", at=AT))
    facts = decide_hall(state, FileReport(player=second, result="0-2-0", at=AT))
    assert [type(x) for x in facts] == [f.ReportFiled, f.ReportConfirmed, f.MatchReported]
    assert fold(facts, state).result(1, table) == Score(2, 0, 0)


def test_ev_11_5_a_different_result_or_a_dispute_is_a_disagreement() -> None:
    """EV-11.5: the opponent's different report, or their dispute (one bounded line of
    reason), leaves the table waiting for the staff's slip."""
    state = paired()
    table, (first, second) = table_of(state, "Ann")
    state = run(state, FileReport(player=first, result="2-0", at=AT))
    facts = decide_hall(state, FileReport(player=second, result="2-1", at=AT))
    assert [type(x) for x in facts] == [f.ReportFiled, f.ReportDisputed]
    assert fold(facts, state).reports[1].status == "disputed"
    long = DisputeReport(report=1, player=second, reason="x" * 201, at=AT)
    assert refused(state, long) == "EV-11.5"
    for blank in ("", "   "):  # the staff settle it from the reason: one is needed
        assert refused(state, DisputeReport(report=1, player=second, reason=blank, at=AT)) == (
            "EV-11.5"
        )
    state = run(state, DisputeReport(report=1, player=second, reason="I won game 2", at=AT))
    assert state.reports[1].status == "disputed"
    assert state.reports[1].reason == "I won game 2"
    assert state.result(1, table) is None
    assert refused(state, ConfirmReport(report=1, player=second, at=AT)) == "EV-11.4"
    # The opponent files their own (report 2); the reporter thinks again: their new report
    # replaces the disputed one and agrees with report 2, so the table has its result.
    state = run(state, FileReport(player=second, result="2-1", at=AT))
    again = decide_hall(state, FileReport(player=first, result="1-2", at=AT))
    state = fold(again, state)
    assert state.reports[1].status == "replaced"
    assert state.reports[2].status == "confirmed"
    assert state.result(1, table) == Score(1, 2, 0)


def test_ev_11_2_only_the_tables_players_answer_and_never_their_own() -> None:
    state = paired()
    _, (first, _) = table_of(state, "Ann")
    _, (outsider, _) = table_of(state, "Ben")
    state = run(state, FileReport(player=first, result="2-0", at=AT))
    assert refused(state, ConfirmReport(report=1, player=first, at=AT)) == "EV-11.2"
    assert refused(state, ConfirmReport(report=1, player=outsider, at=AT)) == "EV-11.2"
    assert refused(state, DisputeReport(report=1, player=outsider, at=AT)) == "EV-11.2"
    assert refused(state, ConfirmReport(report=5, player=first, at=AT)) == "EV-11.2"
    ben_table, _ = table_of(state, "Ben")
    assert refused(state, FileReport(player=first, result="2-0", table=ben_table, at=AT)) == (
        "EV-11.2"
    )


def test_ev_11_3_a_report_cannot_contradict_the_recorded_games() -> None:
    from referee.tournament import LinkGame, RecordGameResult

    state = paired()
    table, (first, second) = table_of(state, "Ann")
    state = fold(decide(state, LinkGame(round=1, table=table, game="g1")), state)
    a, b = state.tables[(1, table)].players
    state = fold(decide(state, RecordGameResult(game="g1", placings={a: 2, b: 1})), state)
    assert refused(state, FileReport(player=first, result="2-0-0", at=AT)) == "EV-11.3"
    assert refused(state, FileReport(player=second, result="0-2-0", at=AT)) == "EV-11.3"
    run(state, FileReport(player=second, result="2-1-0", at=AT))  # agrees: one won already


def test_ev_11_6_the_staff_slip_supersedes_and_reports_need_the_open_round() -> None:
    state = paired()
    table, (first, second) = table_of(state, "Ann")
    state = run(state, FileReport(player=first, result="2-0", at=AT))
    state = fold(decide(state, ReportResult(round=1, table=table, slip="2-1-0")), state)
    assert state.report_status(state.reports[1]) == "superseded"
    assert refused(state, ConfirmReport(report=1, player=second, at=AT)) == "EV-11.6"
    assert refused(state, FileReport(player=second, result="1-2", at=AT)) == "EV-3.6"
    other, _ = table_of(state, "Ben")
    state = fold(decide(state, ReportResult(round=1, table=other, slip="2-0-0")), state)
    state = fold(decide(state, EndRound(round=1)), state)
    assert refused(state, FileReport(player="Ben", result="2-0", at=AT)) == "EV-11.6"


def test_ev_11_1_slip_limits_and_pods() -> None:
    state = paired()
    assert refused(state, FileReport(player="Ann", result="3-0", at=AT)) == "EV-3.2"
    assert refused(state, FileReport(player="Ann", result="won", at=AT)) == "EV-3.1"
    pods = paired(("Ann", "Ben", "Cal", "Dee"), pods=True)
    assert refused(pods, FileReport(player="Ann", result="1-0", at=AT)) == "EV-11.1"


def test_ev_11_7_a_report_of_pairings_taken_back_is_void() -> None:
    """EV-11.7 (EV-5.12, EV-5.13): a report is about a match between two players; once
    the round is taken back, or its table re-paired, the report is void: nobody can confirm
    it (the new opponent could otherwise make it the result of a match it never was about),
    it leaves the staff's disagreements, and the new table starts without reports."""
    from referee.tournament import ChangePairing
    from referee.tournament.fixing import UndoRound

    state = paired()  # Ann v Cal at table 1, Ben v Dee at table 2
    state = run(state, FileReport(player="Ann", result="2-0", at=AT))
    undone = run(state, UndoRound(reason="wrong players"), PairNext())
    assert undone.report_status(undone.reports[1]) == "void"
    assert refused(undone, ConfirmReport(report=1, player="Cal", at=AT)) == "EV-11.7"
    assert undone.table_reports.get((1, 1), ()) == ()
    # re-paired by hand: the tables that changed lose their open reports
    state = run(state, FileReport(player="Ben", result="2-1", at=AT))
    spec = {"pairs": [["Ann", "Ben"], ["Cal", "Dee"]]}
    changed = run(state, ChangePairing(spec=spec, reason="seating"))
    assert {changed.report_status(r) for r in changed.reports.values()} == {"void"}
    assert refused(changed, ConfirmReport(report=1, player="Ben", at=AT)) == "EV-11.7"
    assert refused(changed, DisputeReport(report=2, player="Dee", at=AT)) == "EV-11.7"


def test_ev_10_7_a_call_stays_with_its_players_when_its_pairing_is_taken_back() -> None:
    """EV-10.8 (EV-5.12, EV-5.13): a call open when its round is undone, or its table
    re-paired, keeps the players it was made at (not empty, nor the new table's), stays open
    for the judges marked as about the pairing taken back, and no longer holds the table."""
    from referee.tournament import ChangePairing
    from referee.tournament.fixing import UndoRound
    from service.calls import call_row

    state = paired()  # Ann v Cal at table 1, Ben v Dee at table 2
    state = run(state, CallJudge(player="Ann", reason="ruling", at=AT))
    ann_cal = state.calls[1].players
    undone = run(state, UndoRound(reason="wrong players"))
    assert undone.calls[1].taken_back
    assert undone.calls[1].status == "open"
    assert call_row("e", undone, undone.calls[1], AT, 60).players == ["Ann", "Cal"]
    again = run(undone, PairNext())
    assert call_row("e", again, again.calls[1], AT, 60).players == ["Ann", "Cal"]
    table, _ = table_of(again, "Ann")
    assert run(again, CallJudge(table=table, by="judge", at=AT)).calls[2].status == "open"
    run(again, ResolveCall(call=1, by="judge", note="settled with Ann and Cal", at=AT))
    # re-paired by hand: only the tables that changed let their calls go
    state = run(state, CallJudge(player="Ben", reason="clock", at=AT))
    spec = {"pairs": [["Ann", "Ben"], ["Cal", "Dee"]]}
    changed = run(state, ChangePairing(spec=spec, reason="seating"))
    assert changed.calls[1].players == ann_cal
    assert changed.calls[1].taken_back
    assert changed.calls[2].taken_back
    assert changed.table_calls.get((1, 1), ()) == ()


def test_ev_10_8_a_call_folded_without_its_players_is_taken_back_with_them() -> None:
    """EV-10.8: a call state kept from before calls kept their players (decoded from bytes
    written without ``players``) is taken back with the players the table had, as a fold of
    the whole log from the start gives it, so the live state and the rebuilt one agree; it
    was taken back with nobody, and its row named nobody after an undo (or, re-paired, the
    new table's players)."""
    import msgspec

    from referee.tournament import ChangePairing
    from referee.tournament.fixing import UndoRound
    from referee.tournament.state import CallState
    from service.calls import call_row

    state = paired()  # Ann v Cal at table 1, Ben v Dee at table 2
    state = run(state, CallJudge(player="Ann", reason="ruling", at=AT))
    written = msgspec.to_builtins(state.calls[1])
    del written["players"], written["taken_back"]  # as written before EV-10.8
    kept = msgspec.structs.replace(
        state, calls=state.calls.set(1, msgspec.convert(written, CallState))
    )
    assert kept.calls[1].players == ()
    spec = {"pairs": [["Ann", "Ben"], ["Cal", "Dee"]]}
    for command in (UndoRound(reason="wrong players"), ChangePairing(spec=spec, reason="seats")):
        live, rebuilt = run(kept, command), run(state, command)
        assert live.calls[1] == rebuilt.calls[1]
        assert call_row("e", live, live.calls[1], AT, 60).players == ["Ann", "Cal"]


def test_ev_11_1_a_pod_events_playoff_match_is_reported_by_its_players() -> None:
    """EV-11.1, EV-6.4: a pod event's cut is a bracket of two-player matches reported W-L-D
    (not pods), so its players report their match as any two-player table's do, and their
    page offers the form; only the pods themselves are the staff's. Both refused it as a
    pod ('the staff enter pods') since the event has pods."""
    from service.calls import player_hall
    from tests.tournament.helpers import pods_cut, pods_with_a_cut

    state = pods_with_a_cut()
    assert player_hall(state, state.rounds[1].pairings[0].players[0]).can_report is False  # type: ignore[union-attr]
    state = pods_cut(state)  # the cut: semifinals of two
    first, second = state.rounds[2].pairings[0].players
    assert player_hall(state, first).can_report is True  # type: ignore[union-attr]
    name, other = state.players[first].name, state.players[second].name
    state = run(state, FileReport(player=name, result="1-0", at=AT))
    state = run(state, FileReport(player=other, result="0-1", at=AT))
    assert state.result(2, 1) == Score(1, 0)

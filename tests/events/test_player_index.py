"""``PlayerIndex`` (a player's own page from an index built once per event version) answers
exactly what the whole-event reads answer, for every player, with byes, results and drops;
and the service's quick explanation equals the core's."""

from __future__ import annotations

import functools
from pathlib import Path

from service.app import open_service
from service.postings import PlayerIndex, player_line

SLIPS = ["2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1"]


def test_the_index_answers_what_the_whole_event_answers(tmp_path: Path) -> None:
    with open_service(tmp_path / "s.db", create=True) as svc:
        event = svc.event_new("Open", "prizmik", rounds=4).event_id
        names = [f"Player {n:02}" for n in range(13)]  # odd: a bye each round
        svc.event_register(event, names)
        for number in range(2):
            rows = svc.event_pair(event)
            svc.event_result(
                event, [f"{r.table}={SLIPS[(r.table or 0) % 5]}" for r in rows if not r.bye]
            )
            if number == 0:
                svc.event_drop(event, "Player 05", reason="went home")
        rows = svc.event_pair(event)
        svc.event_result(event, [f"{rows[0].table}=2-1-0"])  # round 3 partly reported
        board, state = svc.event_board(event)
        index = PlayerIndex(board, state)
        house = state.players[state.find("Player 08") or ""].player_id or ""
        for name in [*names, state.find("Player 07") or "", house]:
            assert index.line(name) == player_line(board, state, name)
            assert index.explain(name) == state.explain(state.find(name) or "")
            assert svc.event_explain(event, name) == state.explain(state.find(name) or "")
        assert any(h.bye for n in names for h in index.line(n).history)
        # a player's page read without the whole standings (issue 32 goal 4): each row is the
        # player's line of the live table, its rank found by bisection (EV-4.6), the dropped
        # player's row included
        bare, _ = svc.event_board(event, with_standings=False, with_pairings=False)
        assert not bare.standings
        assert not bare.pairings
        lookup = functools.partial(
            svc.event_player_standing, event, at_least=svc.event_version(event)
        )
        looked = PlayerIndex(bare, state, standing=lookup)
        for name in names:
            assert looked.line(name) == index.line(name)
        dropped = looked.line("Player 05").standing
        assert dropped is not None
        assert dropped["dropped_after"] == 1
        assert index.find("nobody") is None
        assert index.find("player 03") is None  # names are matched exactly (issue 31)


def test_explanations_read_from_the_players_own_pairings_equal_the_cores(tmp_path: Path) -> None:
    """EV-2.9, EV-I.4: the index explains a player from their own pairings' results (not an
    index of every result of the event, issue 32 goal 4); with a late entry's losses for the
    rounds it missed (results of no pairing) it indexes every result instead. Either way each
    explanation is the core's, for every player, as results arrive."""
    with open_service(tmp_path / "s.db", create=True) as svc:
        event = svc.event_new("Open", "prizmik", rounds=4).event_id
        names = [f"Player {n:02}" for n in range(9)]
        svc.event_register(event, names)
        for number in range(3):
            rows = svc.event_pair(event)
            if number == 1:
                svc.event_register(event, ["Late"], late_as_losses=True)
                names.append("Late")
            for row in rows:
                if not row.bye:
                    svc.event_result(event, [f"{row.table}={SLIPS[(row.table or 0) % 5]}"])
                    board, state = svc.event_board(event)
                    index = PlayerIndex(board, state, {})
                    assert index._late is None
                    for name in names:
                        assert index.explain(name) == state.explain(state.find(name) or "")
                    assert index._late == (number >= 1)

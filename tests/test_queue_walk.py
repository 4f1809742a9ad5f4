"""What a walk of the hall on phones found in the queue and the player's page: an escalated
call counted in the table referee's "needs me now" (EV-10.5), an event game's last action
naming seats (the event's ``p2`` is another person), a warning missing from the queue's
penalties while the desk lists it (EV-8.6), no link to the game a player is playing now, and
a branch that supersedes another not saying which (REF-9.7)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from referee.tournament.state import TableState, Tournament
from service.access import Principal
from service.app import RefereeService, open_service

T0 = datetime(2026, 11, 28, 14, 0, tzinfo=UTC)


def test_ev_10_5_an_escalated_call_needs_the_head_not_the_table_referee(tmp_path: Path) -> None:
    """EV-10.5: once escalated, only the head referee claims and resolves a call: it leaves
    the table referee's "needs me now" (still in sight, for information) and counts in the
    head's. The same for a call from a game outside any event (REF-11.2)."""
    from service.access import queue_head

    with open_service(tmp_path / "g.db", create=True) as svc:
        svc.clock = lambda: T0
        event = svc.event_new("Open", "prizmik", rounds=3, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])  # tables 1 and 2
        svc.event_pair(event)
        svc.event_call(event, 1, by="Tom", reason="ruling")
        casual = svc.create_game("prizmik", {"red": "Eve", "blue": "Fay"}, meta={"table": "1"})
        own = svc.game_call(casual.game_id, by="Tom", reason="a capture")
        now = T0 + timedelta(seconds=5)

        def tom() -> tuple[list[int | None], list[int | None], int]:
            view = svc.queue(tables=["1"], now=now, head=False)
            return (
                [i.call for i in view.needs if i.kind == "call"],
                [i.call for i in view.info if i.kind == "call"],
                view.count,
            )

        assert tom()[:2] == ([1, own.call], [])
        before = tom()[2]
        svc.event_call_escalate(event, 1, by="Tom", reason="rules text")
        head = Principal(token_id="h", role="head", name="Hera")
        svc.call_step_as(head, casual.game_id, own.call, "escalate", "the head's")
        needs, info, count = tom()
        assert (needs, sorted(c or 0 for c in info), count) == ([], [1, own.call], before - 2)
        mine = svc.queue(now=now)  # the head referee's queue
        assert sorted(i.call or 0 for i in mine.needs if i.kind == "call") == [1, own.call]
        assert not [i for i in mine.info if i.kind == "call"]
        assert queue_head(head)
        assert not queue_head(
            Principal(token_id="t", role="table", name="Tom", tables=("1",), event=event)
        )


def _round_1(svc: RefereeService) -> tuple[str, Tournament, TableState]:
    """A four-player PRIZMIK event with round 1 paired, the clock at ``T0``: the event, its
    state and Ann's (p1's) table."""
    svc.clock = lambda: T0
    event = svc.event_new("Open", "prizmik", rounds=3, seed=5).event_id
    svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    svc.event_pair(event)
    state = svc.event_state(event)
    return event, state, next(t for t in state.tables.values() if "p1" in t.players)


def test_an_event_game_s_last_action_names_its_players_by_name(tmp_path: Path) -> None:
    """At an event a game's seat is not the event's player of that id: the queue's "last:"
    of a game ended by a penalty said "ended: blue wins by penalty" (a seat); it names the
    player, by name alone as the event's pages do, and so does its creation."""
    with open_service(tmp_path / "g.db", create=True) as svc:
        event, _, table = _round_1(svc)
        game = table.games[-1]
        seats = {p.seat: p.name for p in svc.load(game).created.players}
        created = next(i for i in svc.queue(now=T0).info if i.game_id == game)
        assert not any(f"{seat}=" in created.last for seat in seats), created.last
        assert all(name in created.last for name in seats.values()), created.last
        svc.event_penalize(event, "Ann", "tardiness")  # a game loss: Ann's game ends
        other = next(name for name in seats.values() if name != "Ann")
        item = next(i for i in svc.queue(now=T0).info if i.game_id == game and i.last)
        assert f"ended: {other} wins by penalty" in item.last, item.last
        assert not any(seat in item.last.split() for seat in seats), item.last


def test_a_game_outside_events_names_the_winner_with_the_seat(tmp_path: Path) -> None:
    """Outside events the queue names a seat's player "Ann (red)": a result's winner too."""
    with open_service(tmp_path / "g.db", create=True) as svc:
        game = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}, meta={"table": "3"})
        svc.penalty(game.game_id, "red", "game_loss", "tardiness", by="Hera")
        item = next(i for i in svc.queue().info if i.game_id == game.game_id and i.last)
        assert "Ben (blue) wins" in item.last, item.last


def test_ev_8_6_a_warning_is_listed_in_the_queue_as_the_desk_lists_it(tmp_path: Path) -> None:
    """A warning reaches no game: the queue's "Penalties issued" left it out while the desk
    listed it. The queue lists the event's penalties from the desk's read (``penalty_lines``):
    the warning, a match loss, once each; a withdrawn one leaves; a table referee sees those
    of their tables."""
    with open_service(tmp_path / "g.db", create=True) as svc:
        event, state, ann_at = _round_1(svc)
        other = next(e.name for e in state.players.values() if e.id not in ann_at.players)
        svc.event_penalize(event, "Ann", "slow-play", reason="too slow")
        svc.event_penalize(event, other, "outside-assistance")  # a match loss, another table
        desk = svc.event_penalty_lines(event)
        shown = svc.queue(now=T0 + timedelta(minutes=1)).penalties
        assert len(shown) == len(desk) == 2
        for row, item in zip(desk, shown, strict=True):
            assert item.line.startswith(f"{row.penalty} for {row.player}: {row.infraction}")
            assert f"penalty {row.number}: {row.effect}" in item.line
            assert item.tournament == event
            assert item.table == str(svc.event_state(event).applied_penalties.get(
                row.number, (0, item.table)
            )[1])  # fmt: skip
        assert "(too slow)" in shown[0].line
        assert shown[0].link.startswith("/games/")  # the table's game
        ann_table = str(ann_at.table)
        tom = svc.queue(tables=[ann_table], event=event, now=T0, head=False).penalties
        assert [i.line for i in tom] == [shown[0].line]
        assert svc.queue(tables=[ann_table], event="ev-other", now=T0).penalties == []
        svc.event_penalty_withdraw(event, 1, reason="a mistake")
        assert [i.line for i in svc.queue(now=T0).penalties] == [shown[1].line]


def test_a_player_s_own_line_links_the_game_they_are_playing(tmp_path: Path) -> None:
    """The pairings link each table's games; the player's page did not link theirs. Their
    own line carries it (the page and its JSON), while the game is open; others read
    ``None`` there, as for the hall."""
    from service.api import player_line

    with open_service(tmp_path / "g.db", create=True) as svc:
        svc.clock = lambda: T0
        event = svc.event_new("Open", "prizmik", rounds=3, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
        svc.event_pair(event)
        board, state = svc.event_board(event)
        game = next(t for t in state.tables.values() if "p1" in t.players).games[-1]
        assert player_line(board, state, "Ann", own=True).game == game
        assert player_line(board, state, "Ann").game is None
        svc.event_penalize(event, "Ann", "tardiness")  # the game ends: none in play now
        board, state = svc.event_board(event)
        assert player_line(board, state, "Ann", own=True).game != game

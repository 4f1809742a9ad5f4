"""Property: through the service, the incrementally kept standings (EV-4, the
projection in ``service.tournaments``) equal a from-scratch recomputation
(``compute_standings``) after any sequence of results and corrections (EV-8.1),
and equal what a fresh service folding the stored stream computes."""

from __future__ import annotations

import tempfile
from pathlib import Path

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.app import open_service
from service.tournaments import EventRefusedError

SLIPS = ["2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1", "1-0-0", "0-0-3", "0-0-0"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=3, max_value=9),
    steps=st.lists(
        st.tuples(
            st.sampled_from(["report", "correct", "pair"]),
            st.integers(0, 50),
            st.sampled_from(SLIPS),
        ),
        min_size=1,
        max_size=25,
    ),
)
def test_incremental_standings_equal_a_recomputation(
    players: int, steps: list[tuple[str, int, str]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "store.db"
        svc = open_service(db, create=True)
        event = svc.event_new("Prop", "gammasphere", rounds=4).event_id
        svc.event_register(event, [f"P{n}" for n in range(players)])
        svc.event_pair(event)
        for action, pick, slip in steps:
            state = svc.event_state(event)
            number = state.current_round
            tables = sorted(t for (r, t) in state.tables if r == number)
            reported = [t for t in tables if state.result(number, t) is not None]
            waiting = [t for t in tables if state.result(number, t) is None]
            if action == "report" and waiting:
                svc.event_result(event, [f"{waiting[pick % len(waiting)]}={slip}"])
            elif action == "correct" and reported:
                table = reported[pick % len(reported)]
                try:
                    svc.event_correct(event, number, f"{table}={slip}", reason="a property")
                except EventRefusedError as refused:  # the result it has: nothing changed
                    assert "EV-8.1" in str(refused), refused
                    assert "nothing changed" in str(refused), refused
            elif action == "pair" and not waiting and number < 4:
                svc.event_pair(event)
            state = svc.event_state(event)
            kept = msgspec.to_builtins(svc.event_standings(event))
            scratch = [
                {
                    "rank": s.rank,
                    "player": s.name,
                    "points": s.points,
                    "record": msgspec.to_builtins(s.record),
                    # a player with no round played shows no percentage (EV-I.3)
                    **{
                        key: value if s.record.wins + s.record.losses + s.record.draws else None
                        for key, value in (
                            ("mw", s.mw),
                            ("omw", s.omw),
                            ("gw", s.gw),
                            ("ogw", s.ogw),
                        )
                    },
                    "dropped_after": s.dropped_after,
                    "final_rank": None,  # no cut in these events (EV-I.9)
                    "went": None,  # nor how far anyone went in a playoff (EV-6.7)
                }
                for s in state.standings()
            ]
            assert kept == scratch
        fresh = open_service(db)
        assert msgspec.to_builtins(fresh.event_standings(event)) == kept
        fresh.close()
        svc.close()

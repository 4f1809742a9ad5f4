"""A Prismatic game a seat withdrew from ends with a ranking that names that seat below
the others (REF-3.5, REF-3.6); the procedure reads back the ranking it wrote, so the
exported game imports to the same result."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.store import GameStore
from referee.outcomes import Placing, parse_ranking
from service import RefereeService
from tests.contract.cases import reimported


def test_ref_3_6_a_ranking_with_withdrawn_seats_below_reads_back() -> None:
    """REF-3.6: ``p3>p1>p2`` with p2 withdrawn gives the ranking of the seats playing."""
    placed = parse_ranking("p3>p1>p2", ["p1", "p3"], withdrawn=["p2"])
    assert placed == (Placing("p3", 1), Placing("p1", 2))
    with pytest.raises(ValueError, match="withdrew"):
        parse_ranking("p2>p3>p1", ["p1", "p3"], withdrawn=["p2"])
    with pytest.raises(ValueError, match="'p2' in ranking 'p3>p1>p2' is not a seat"):
        parse_ranking("p3>p1>p2", ["p1", "p3"])  # p2 is no seat of this ranking


def test_ref_3_6_an_adjudicated_game_with_a_withdrawn_seat_exports_and_imports(
    tmp_path: Path,
) -> None:
    """REF-3.5, REF-3.6: p2 withdraws, the referee ranks p3 above p1; the record's
    ``p3>p1>p2`` imports to the same result."""
    svc = RefereeService(GameStore(tmp_path / "a.db"), draw_seed=lambda: 1234)
    view = svc.create_game("prismatic", {"p1": "Ann", "p2": "Ben", "p3": "Cy"})
    svc.end(view.game_id, "resignation", who="p2", reason="p2 left the table")
    svc.end(view.game_id, "adjudication", ranking="p3>p1", reason="time ran out")
    ended = svc.load(view.game_id).ended
    assert ended is not None
    assert ended.result == "p3>p1>p2"
    for fmt in ("text", "jsonl"):
        other, _ = reimported(svc, view.game_id, tmp_path, fmt)
        again = other.load(view.game_id).ended
        assert again is not None
        assert again.result == "p3>p1>p2"

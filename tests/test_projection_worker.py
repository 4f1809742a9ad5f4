"""The projection worker answers the two read models it is typed for, and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import games
from service.app import RefereeService
from service.stores import open_store, parse_store
from web import projection_worker


def test_the_worker_answers_scoreboard_and_audit_as_the_service_does(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = parse_store(str(db_path))
    svc = RefereeService(open_store(spec))
    game_id = svc.create_game("nim", {"first": "Ann", "second": "Ben"}, options={"heap": 1}).game_id
    svc.record(game_id, "t1")
    monkeypatch.setattr(projection_worker, "_service", None)
    with pytest.raises(RuntimeError, match="not started"):
        projection_worker.call("scoreboard", None)
    projection_worker.start(spec, None, games.registered())
    board = projection_worker.call("scoreboard", None)
    assert isinstance(board, list)
    assert board == svc.scoreboard(None)
    assert {row["player"] for row in board} >= {"Ann", "Ben"}
    audit = projection_worker.call("audit", game_id, None)
    assert isinstance(audit, dict)
    assert audit == svc.audit(game_id, None)
    with pytest.raises(ValueError, match="does not run"):
        projection_worker.call("export", game_id)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="does not run"):
        projection_worker.call("audit", None)  # an audit names its game

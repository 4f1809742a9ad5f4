"""Incremental read models equal a rebuild from the whole log, whatever happened
(results, retractions that reopen games, voided results, late imports), and any
number of runners catching up at once process every event exactly once."""

from __future__ import annotations

import sqlite3
import tempfile
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.store import GameStore
from projections.projector import Projector
from service import RefereeService
from service.results import GameQuery

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
TABLES = {
    "games": "game_id",
    "standings": "game, player",
    "ratings": "game, player",
    "rating_history": "game_id, player",
    "game_players": "player, game_id",
    "heads": "game_id",
}


def dump(path: Path) -> dict[str, list[Any]]:
    with sqlite3.connect(path) as con:
        return {
            t: con.execute(f"SELECT * FROM {t} ORDER BY {order}").fetchall()
            for t, order in TABLES.items()
        }


def _nim(svc: RefereeService, data: st.DataObject) -> str:
    a, b = data.draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=2, unique=True))
    return svc.create_game(
        "nim", {"first": a, "second": b}, options={"heap": data.draw(st.integers(1, 4))}
    ).game_id


def _tribute(svc: RefereeService, data: st.DataObject) -> str:
    from referee.kit.decks import parse_decklist

    names = data.draw(st.lists(st.sampled_from(PLAYERS), min_size=3, max_size=3, unique=True))
    decks = {seat: parse_decklist("1 Ace\n1 King") for seat in ("p1", "p2", "p3")}
    game = svc.create_game(
        "tribute", dict(zip(("p1", "p2", "p3"), names, strict=True)), decks=decks
    ).game_id
    for seat in ("p1", "p2", "p3"):
        svc.record(game, "draw 2", actor=seat)
    return game


def _step(svc: RefereeService, games: list[str], data: st.DataObject, tmp: Path) -> None:
    kind = data.draw(
        st.sampled_from(["nim", "tribute", "move", "resign", "draw", "retract", "void", "import"])
    )
    if kind == "nim" or not games:
        games.append(_nim(svc, data))
        return
    if kind == "tribute":
        games.append(_tribute(svc, data))
        return
    game = data.draw(st.sampled_from(games))
    view = svc.load(game)
    if kind == "move" and view.ended is None:
        acting: list[str | None] = [*svc.legal(game).to_act] or [None]
        seat = data.draw(st.sampled_from(acting))
        legal = svc.legal(
            game, seat=seat
        ).actions  # several seats may act at once: name the one acting
        if legal:
            svc.record(game, data.draw(st.sampled_from(legal)), actor=seat)
    elif kind == "resign" and view.ended is None:
        seats = [s for s in view.seats if s not in view.withdrawn_seats()]
        svc.end(game, "resignation", who=data.draw(st.sampled_from(seats)))
    elif kind == "draw" and view.ended is None:
        svc.end(game, "agreement")
    elif (
        kind == "retract"
        and view.standing
        and (view.ended is None or view.ended.how == "rule")
        and not view.withdrawn
    ):
        svc.retract(game, "a correction")
    elif kind == "void" and view.ended is not None and view.ended.how != "rule":
        player = view.created.players[0].name
        svc.dispute(game, view.ended.originator_version, by=player, claim="no")
        svc.rule(
            game,
            len(view.disputes) + 1,
            decision="overturn",
            clause="REF-4.5",
            reason="set aside",
            by="Head",
            final=True,
        )
    elif kind == "import":
        path = tmp / f"{game}.jsonl"
        path.write_text("".join(svc.export([game], "jsonl")))
        svc.import_files([path], as_new=True)  # a late import: rated when it reaches the store


@pytest.mark.slow  # a property run of some seconds of CPU: the full suite's side (issue 34 item 8)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_incremental_projection_equals_a_rebuild(data: st.DataObject) -> None:
    tmp = Path(tempfile.mkdtemp())
    svc = RefereeService(GameStore(tmp / "store.db"))
    games: list[str] = []
    for _ in range(data.draw(st.integers(5, 30))):
        _step(svc, games, data, tmp)
        if data.draw(st.booleans()):
            svc.projector.catch_up()
    svc.projector.catch_up()
    rebuilt = Projector(svc.store, tmp / "rebuilt.db")
    rebuilt.catch_up()
    assert dump(svc.projector.path) == dump(tmp / "rebuilt.db")
    standings = svc.scoreboard()
    assert sum(r["played"] for r in standings) == sum(
        len(g.players) for g in svc.games(GameQuery(limit=10_000)) if g.status == "finished"
    )


def _catch_up(path: str) -> int:
    from referee import games
    from tests.conftest import TEST_GAMES  # a fresh process registers the test games

    for name, target in TEST_GAMES.items():
        games.register(name, target)
    return Projector(GameStore(path)).catch_up()


def test_concurrent_runners_process_every_event_exactly_once(tmp_path: Path) -> None:
    svc = RefereeService(GameStore(tmp_path / "store.db"))
    for index in range(120):
        game = svc.create_game(
            "nim",
            {"first": PLAYERS[index % 4], "second": PLAYERS[(index + 1) % 4]},
            options={"heap": 3},
        ).game_id
        svc.record(game, "t3")
    total = svc.store.recorder.max_notification_id()
    svc.close()
    with get_context("spawn").Pool(6) as pool:
        counts = pool.map(_catch_up, [str(tmp_path / "store.db")] * 6)
    assert sum(counts) == total  # every event exactly once, whoever took it
    rows = dump(tmp_path / "store.projections.db")
    assert len(rows["games"]) == 120
    assert sum(r[2] for r in rows["standings"]) == 240  # played, two seats each
    fresh = Projector(GameStore(tmp_path / "store.db"), tmp_path / "again.db")
    fresh.catch_up()
    assert dump(tmp_path / "again.db") == rows

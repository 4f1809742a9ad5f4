"""An organizer's and scorekeeper's walk through events (MTR practice, docs/tournaments.md):
what the walk found wrong, each refusal one line naming its EV clause, exit 2, nothing
stored."""

from __future__ import annotations

from pathlib import Path

from tests.events.test_event_cli import as_json, ok, refused

FOUR = ["Ann", "Ben", "Cal", "Dee"]


def new_event(db: Path, *args: str, names: list[str] = FOUR) -> str:
    event = ok(db, "event", "new", "Walk", "--game", "gammasphere", *args).splitlines()[-1]
    ok(db, "event", "register", event, *[a for n in names for a in ("--player", n)])
    return event


def test_ev_1_5_a_change_keeps_the_bounds_event_new_keeps(tmp_path: Path) -> None:
    """EV-1.5 (docs: rounds 1-20, a cut 0 or a power of two up to 64, one set of bounds for
    every door): `event change` cannot set 50 rounds or a top-3 or top-1024 cut that
    `event new` refuses; refused naming EV-1.5, nothing stored."""
    db = tmp_path / "s.db"
    event = new_event(db, "--rounds", "3", "--cut", "2")
    for option in (["--rounds", "50"], ["--cut", "3"], ["--cut", "1024"], ["--cut", "12"]):
        refused(db, "EV-1.5", "event", "change", event, *option, "--reason", "walk")
    info = as_json(db, "event", "show", event)
    assert (info["rounds"], info["cut"]) == (3, 2)


def test_ev_1_1_event_new_bounds_name_their_clause(tmp_path: Path) -> None:
    """EV-1.1: `event new` with 50 rounds or a top-3 cut is refused in one line naming the
    clause (every refusal names its EV clause), nothing stored."""
    db = tmp_path / "s.db"
    new_event(db)
    for option in (["--rounds", "50"], ["--cut", "3"]):
        refused(db, "EV-1.1", "event", "new", "X", "--game", "gammasphere", *option)

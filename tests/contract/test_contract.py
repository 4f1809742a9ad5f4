"""The contract suite: what every registered game must do, checked on its scripted cases.

A game gets these tests by being registered and providing ``CASES`` (see
``tests/contract/cases.py``). Every case is played through the application layer
on a real SQLite store, and again through the ``referee`` command.
"""

from __future__ import annotations

import html
import json
import shutil
import sqlite3
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from cli.main import app
from events.schema import ActionRecorded, ActionRejected
from events.store import GameStore
from events.view import GameView
from referee import games
from referee.contract import PUBLIC, REFEREE
from referee.drawings import draw
from referee.kit.decks import Decklist, seal
from service import RefereeService
from tests.contract.cases import (
    Act,
    Adjust,
    ContractCase,
    OpenDeck,
    Reject,
    play_case,
    reimported,
)


def cases_module(name: str) -> str:
    package = games.package_of(name)
    return f"{package}.contract" if package.startswith("tests.") else f"tests.{name}.contract"


def all_cases() -> list[Any]:
    params = []
    for name in games.names():
        try:
            cases = import_module(cases_module(name)).CASES
        except ModuleNotFoundError:
            params.append(pytest.param(None, id=f"{name}-missing"))
            continue
        params += [pytest.param(case, id=f"{name}-{case.name}") for case in cases]
    return params


CASES = all_cases()


@dataclass
class Played:
    """A case played through the service: the store, the game and each step's positions."""

    svc: RefereeService
    path: Path
    game_id: str
    states: list[Any] = field(default_factory=list)
    views: list[GameView] = field(default_factory=list)


def sealed_decks(case: ContractCase) -> dict[str, Any]:
    decks: dict[str, Any] = dict(case.decks)
    decks.update({seat: seal(decklist, salt) for seat, (decklist, salt) in case.sealed.items()})
    return decks


def play(case: ContractCase, path: Path) -> Played:
    svc = RefereeService(GameStore(path), draw_seed=lambda: 1234)
    view = svc.create_game(
        case.game,
        dict(case.players),
        ruleset=case.ruleset,
        variants=dict(case.variants),
        options=dict(case.options),
        decks=sealed_decks(case),
        by="Rita",
    )
    played = Played(svc, path, view.game_id, [view.state], [])
    before = svc.load(view.game_id)
    for step in case.steps:
        if isinstance(step, Act):
            result = svc.record(view.game_id, step.text, actor=step.seat, by="Rita")
            assert result.accepted, (step, result.violations)
        elif isinstance(step, Reject):
            result = svc.record(view.game_id, step.text, actor=step.seat, by="Rita")
            assert not result.accepted, step
            assert step.clause in {v.clause for v in result.violations}, (step, result.violations)
        elif isinstance(step, Adjust):
            svc.adjust(view.game_id, step.changes, card=step.card, reason=step.reason, by="Rita")
        else:
            assert isinstance(step, OpenDeck)
            decklist, salt = case.sealed[step.seat]
            result = svc.open_deck(view.game_id, step.seat, decklist, salt, by="Rita")
            if step.clause is None:
                assert result.accepted, result.violations
            else:
                assert not result.accepted
                assert step.clause in {v.clause for v in result.violations}
        now = svc.load(view.game_id)  # folded from the store again: the next step's before
        if isinstance(step, Reject):
            assert now.state == before.state
            assert isinstance(now.events[-1], ActionRejected)
        played.states.append(now.state)
        played.views.append(now)
        before = now
    return played


@pytest.fixture(params=CASES)
def case(request: pytest.FixtureRequest) -> ContractCase:
    if request.param is None:
        pytest.fail(
            f"a registered game has no contract cases ({request.node.callspec.id}): "
            "add CASES to its tests/<game>/contract.py"
        )
    return request.param  # type: ignore[no-any-return]


def test_the_case_plays_through_the_pure_rules(case: ContractCase) -> None:
    """The script holds under the rules alone, so a mistake in it shows here before the
    store's tests (``play_case``): legal entries, rejections citing their clause first,
    rulings answered (REF-6.2), sealed lists opened (REF-5.3), no secret in another's view."""
    play_case(games.load(case.game), case)


_PLAYED: dict[str, Played] = {}


def played_once(case: ContractCase, folder: Path) -> Played:
    """``case`` played once per test process (its own assertions run then), its store closed
    (in ``folder`` the first time): the contract's tests, the drawings and the fuzzing of every
    position (``test_check_never_raises``) all read this one rather than playing it again."""
    key = f"{case.game}-{case.name}"
    if key not in _PLAYED:
        _PLAYED[key] = play(case, folder / f"played-{len(_PLAYED)}.db")
        _PLAYED[key].svc.close()
    return _PLAYED[key]


def copy_store(played: Played, path: Path) -> RefereeService:
    """A service on a copy of the played store at ``path``, for a test to use as it likes."""
    for suffix in ("", "-wal", "-shm"):
        source = played.path.with_name(played.path.name + suffix)
        if source.exists():
            shutil.copy(source, path.with_name(path.name + suffix))
    return RefereeService(GameStore(path), draw_seed=lambda: 1234)


@pytest.fixture
def played(case: ContractCase, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Played:
    """The case played once per session (``played_once``); each test gets its own copy of the
    store, so a test that closes or tampers with it leaves the others alone."""
    first = played_once(case, tmp_path_factory.getbasetemp())
    path = tmp_path / "store.db"
    return Played(copy_store(first, path), path, first.game_id, first.states, first.views)


def test_replay_equals_the_live_state_at_every_step(case: ContractCase, played: Played) -> None:
    """Folding the stored events up to any step gives the state the service had then."""
    final = played.svc.load(played.game_id)
    for view in played.views:
        rebuilt = GameView.from_events(final.events[: view.version])
        assert rebuilt.state == view.state
        assert rebuilt.pending.keys() == view.pending.keys()


def test_every_recorded_notation_reads_back_to_its_action(
    case: ContractCase, played: Played
) -> None:
    view = played.svc.load(played.game_id)
    rules = view.rules
    for event in view.events:
        if isinstance(event, ActionRecorded):
            action = msgspec.json.decode(event.action, type=rules.action_type)
            assert rules.parse(event.notation) == action
            assert rules.notation(rules.parse(event.notation)) == event.notation


def test_export_then_import_is_identity(case: ContractCase, played: Played, tmp_path: Path) -> None:
    svc = played.svc
    for fmt in ("jsonl", "text"):
        other, path = reimported(svc, played.game_id, tmp_path, fmt)
        theirs, ours = other.load(played.game_id), svc.load(played.game_id)
        if fmt == "jsonl":
            assert other.store.rows(played.game_id) == svc.store.rows(played.game_id)
        assert [type(e) for e in theirs.events] == [type(e) for e in ours.events]
        assert theirs.state == ours.state
        assert theirs.result == ours.result
        assert "".join(other.export([played.game_id], fmt)) == path.read_text()


def test_no_view_shows_another_seat_its_secrets(case: ContractCase, played: Played) -> None:
    view = played.svc.load(played.game_id)
    rules = view.rules
    seats = view.seats
    for state in played.states:
        for owner in seats:
            secrets = rules.secrets(state, owner)
            if not secrets:
                continue
            for viewer in [PUBLIC, *[s for s in seats if s != owner]]:
                seen = rules.observe(state, viewer)
                drawn = draw(view.game, seen, viewer=viewer, players=view.seat_names())
                shown = json.dumps(seen) + rules.render(state, viewer) + html.unescape(drawn)
                leaked = [s for s in secrets if s in shown]
                assert not leaked, f"{viewer} sees {owner}'s {leaked}"
            assert rules.observe(state, REFEREE) is not None


def test_no_log_or_export_shows_a_viewer_another_seats_list(
    case: ContractCase, played: Played
) -> None:
    svc = played.svc
    view = svc.load(played.game_id)
    lists = {seat: deck for seat, deck in case.decks.items()}
    lists.update({seat: decklist for seat, (decklist, _) in case.sealed.items()})
    for owner, decklist in lists.items():
        for viewer in [PUBLIC, *[s for s in view.seats if s != owner]]:
            shown = json.dumps(svc.log(played.game_id, viewer=viewer)) + "".join(
                svc.export([played.game_id], "text", viewer)
            )
            assert decklist.canonical().decode().strip() not in shown, (viewer, owner)
            assert not _list_in(shown, decklist, owner), (viewer, owner)


def test_no_rejection_shows_a_viewer_another_seats_secrets(
    case: ContractCase, played: Played
) -> None:
    """Every rejection's text and reasons, as each viewer reads them in the log, name no
    secret of another seat at that moment (REF-5.2, issue 22 §3); a reason worded from
    hidden knowledge reads in its plain ``shown`` form for everyone but its seat."""
    svc = played.svc
    view = svc.load(played.game_id)
    rules = view.rules
    _, by_referee = svc.log_events(played.game_id, viewer=REFEREE)
    for step_view in played.views:
        event = step_view.events[-1]
        if not isinstance(event, ActionRejected):
            continue
        for viewer in [PUBLIC, *view.seats]:
            _, events = svc.log_events(played.game_id, viewer=viewer)
            shown = events[step_view.version - 1]
            assert isinstance(shown, ActionRejected)
            words = shown.text + " ".join(v.reason for v in shown.violations)
            for owner in view.seats:
                if owner == viewer:
                    continue
                typed = event.text if viewer == event.actor else ""  # its own words
                leaked = [
                    s
                    for s in rules.secrets(step_view.state, owner)
                    if s in words and s not in typed
                ]
                assert not leaked, f"{viewer} reads {owner}'s {leaked} in {words!r}"
            for violation, whole in zip(shown.violations, event.violations, strict=True):
                if whole.seen_by is not None and viewer != whole.seen_by:
                    assert violation.reason == whole.shown, (viewer, whole)
    assert by_referee == view.events


def _list_in(shown: str, decklist: Decklist, owner: str) -> bool:
    """Whether the whole list appears as registered (open or opened) for ``owner``."""
    return json.dumps(msgspec.to_builtins(decklist)) in shown


@pytest.mark.parametrize("tamper", ["edit", "delete", "reorder"])
def test_verify_names_an_edited_deleted_or_reordered_event(
    case: ContractCase, played: Played, tmp_path: Path, tamper: str
) -> None:
    played.svc.close()
    copy = tmp_path / f"{tamper}.db"
    shutil.copy(played.path, copy)
    with sqlite3.connect(copy) as con:
        count = con.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]
        middle = max(2, count // 2)
        if tamper == "edit":
            (state,) = con.execute(
                "SELECT state FROM stored_events WHERE originator_version=?", (middle,)
            ).fetchone()
            flipped = bytearray(state)
            flipped[len(flipped) // 2] ^= 0x01
            con.execute(
                "UPDATE stored_events SET state=? WHERE originator_version=?",
                (bytes(flipped), middle),
            )
        elif tamper == "delete":
            con.execute("DELETE FROM stored_events WHERE originator_version=?", (middle,))
        else:
            con.execute(
                "UPDATE stored_events SET originator_version=-1 WHERE originator_version=?",
                (middle,),
            )
            con.execute(
                "UPDATE stored_events SET originator_version=? WHERE originator_version=?",
                (middle, middle + 1),
            )
            con.execute(
                "UPDATE stored_events SET originator_version=? WHERE originator_version=-1",
                (middle + 1,),
            )
    con.close()
    report = RefereeService(GameStore(copy)).verify(played.game_id).reports[0]
    assert not report.ok
    assert any(f.event in (middle, middle + 1) for f in report.findings), report.findings


def new_game_args(case: ContractCase, folder: Path) -> list[str]:
    """``referee new`` for the case, as a referee would type it (files written to ``folder``)."""
    rules = games.load(case.game)
    args = ["new", case.game]
    for seat, name in case.players.items():
        args += ["-p", f"{seat}={name}"]
    if case.ruleset:
        args += ["--ruleset", case.ruleset]
    for key, value in case.variants.items():
        args += ["--variant", f"{key}={value}"]
    fields = {f.key: f for f in rules.setup_fields}
    for key, value in case.options.items():
        if fields[key].kind == "file":
            path = folder / f"{key}.txt"
            path.write_text(str(value))
            value = str(path)
        args += [fields[key].flag, ",".join(value) if isinstance(value, list) else str(value)]
    for seat, decklist in case.decks.items():
        path = folder / f"deck-{seat}.txt"
        path.write_text(decklist.text())
        args += [
            "--pool" if case.game == "crystale" else "--deck",
            f"{seat}={path}",
        ]  # as each game says it
    for seat, (decklist, salt) in case.sealed.items():
        sealed = seal(decklist, salt)
        args += ["--sealed", f"{seat}={sealed.commitment}:{sealed.size}"]
    seeded = "seed" in fields and "seed" not in case.options
    if seeded and not any("seed" in fields[k].excludes for k in case.options):
        args += ["--seed", "1234"]
    return args


def test_the_same_game_through_the_command_line(
    case: ContractCase, played: Played, tmp_path: Path
) -> None:
    """The referee command gives the same game: every step entered as a referee would type it."""
    runner = CliRunner()
    db = tmp_path / "cli.db"
    args = ["--db", str(db), "--referee", "Rita", *new_game_args(case, tmp_path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    game_id = result.stdout.strip()

    def run(*more: str) -> Any:
        return runner.invoke(app, ["--db", str(db), "--referee", "Rita", *more])

    for step in case.steps:
        if isinstance(step, Act | Reject):
            extra = ["--by", step.seat] if step.seat else []
            outcome = run("act", game_id, step.text, *extra)
            assert outcome.exit_code == (0 if isinstance(step, Act) else 1), (
                step,
                outcome.stdout,
                outcome.stderr,
            )
            if isinstance(step, Reject):
                assert step.clause in outcome.stderr
        elif isinstance(step, Adjust):
            outcome = run(
                "adjust", game_id, step.changes, "--card", step.card, "--reason", step.reason
            )
            assert outcome.exit_code == 0, outcome.stderr
        else:
            decklist, salt = case.sealed[step.seat]
            path = tmp_path / f"open-{step.seat}.txt"
            path.write_text(decklist.text())
            outcome = run("deck", "open", game_id, step.seat, str(path), "--salt", salt)
            assert outcome.exit_code == (0 if step.clause is None else 1), outcome.stderr
    shown = json.loads(run("show", game_id, "--json").stdout)
    expected = played.svc.position(played.game_id)
    assert shown["position"] == json.loads(msgspec.json.encode(expected.position))
    assert shown["result"] == expected.result
    assert run("verify", game_id).exit_code == 0


def test_the_same_game_at_the_table(case: ContractCase, played: Played, tmp_path: Path) -> None:
    """The whole case typed into ``referee table`` ('SEAT: ENTRY' where a seat is named;
    adjustments and deck checks between sessions, with their own commands) ends in the
    same position and result, with every rejection kept and nothing else stored."""
    runner = CliRunner()
    db = tmp_path / "table.db"

    def run(*more: str, input: str | None = None) -> Any:
        return runner.invoke(app, ["--db", str(db), "--referee", "Rita", *more], input=input)

    created = run(*new_game_args(case, tmp_path))
    assert created.exit_code == 0, created.stderr
    game_id = created.stdout.strip()
    typed: list[str] = []

    def session() -> None:
        if typed:
            outcome = run("table", game_id, input="\n".join([*typed, "quit"]) + "\n")
            assert outcome.exit_code == 0, outcome.stdout
            assert "not an action of this game" not in outcome.stdout, outcome.stdout
            typed.clear()

    for step in case.steps:
        if isinstance(step, Act | Reject):
            typed.append(f"{step.seat}: {step.text}" if step.seat else step.text)
        elif isinstance(step, Adjust):
            session()
            assert (
                run(
                    "adjust", game_id, step.changes, "--card", step.card, "--reason", step.reason
                ).exit_code
                == 0
            )
        else:
            session()
            decklist, salt = case.sealed[step.seat]
            path = tmp_path / f"open-{step.seat}.txt"
            path.write_text(decklist.text())
            run("deck", "open", game_id, step.seat, str(path), "--salt", salt)
    session()
    shown = json.loads(run("show", game_id, "--json").stdout)
    expected = played.svc.position(played.game_id)
    assert shown["position"] == json.loads(msgspec.json.encode(expected.position))
    assert shown["result"] == expected.result
    at_table = RefereeService(GameStore(db)).load(game_id)
    by_service = played.svc.load(played.game_id)
    assert [type(e).__name__ for e in at_table.events] == [
        type(e).__name__ for e in by_service.events
    ]

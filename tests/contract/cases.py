"""The shape of a contract case: one scripted game that the contract suite plays
through the application layer and the store, checking what every game must do.

Each registered game ``NAME`` provides ``CASES: list[ContractCase]`` in a module
``tests/NAME/contract.py`` (test games under ``tests/games/NAME/contract.py``);
a registered game without one fails the suite. The suite checks, for every case:
replaying the store equals the live state after every step; a rejected entry
changes nothing but the log; every recorded notation reads back to the same
action; export then import gives the same game; no viewer's ``observe`` or
``render`` shows a secret of another seat (``GameRules.secrets``); and ``verify``
names an edited, a deleted and a reordered event.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import msgspec

from events.store import GameStore
from referee.contract import Player, Setup
from referee.kit.adjustments import parse_adjustment
from referee.kit.decks import Deck, Decklist, seal
from referee.procedure import judge
from referee.verdicts import Verdict
from service import RefereeService


@dataclass(frozen=True)
class Act:
    """A legal entry: ``text`` in the game's notation, by ``seat`` (or the one seat to act)."""

    text: str
    seat: str | None = None


@dataclass(frozen=True)
class Reject:
    """An entry the rules must reject, citing ``clause``; the position must not change."""

    text: str
    clause: str
    seat: str | None = None


@dataclass(frozen=True)
class Adjust:
    """A referee's adjustment (kit notation, ``;`` between changes) for ``card``'s effect."""

    changes: str
    card: str
    reason: str = "ruling on the card's text"


@dataclass(frozen=True)
class OpenDeck:
    """Open ``seat``'s sealed list; ``clause`` set means the opening must fail citing it."""

    seat: str
    clause: str | None = None


Step = Act | Reject | Adjust | OpenDeck


@dataclass(frozen=True)
class ContractCase:
    """A scripted game. ``options`` are raw setup values as a face passes them (a
    catalog file's text for a ``file`` field); ``decks`` are registered openly and
    ``sealed`` decks sealed, each with the salt that opens it."""

    game: str
    name: str
    players: Mapping[str, str]
    steps: tuple[Step, ...]
    ruleset: str | None = None
    variants: Mapping[str, str] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    decks: Mapping[str, Decklist] = field(default_factory=dict)
    sealed: Mapping[str, tuple[Decklist, str]] = field(default_factory=dict)


def reimported(
    svc: RefereeService, game_id: str, tmp_path: Path, fmt: Literal["jsonl", "text"]
) -> tuple[RefereeService, Path]:
    """A service on a new store into which ``game_id``, exported by ``svc`` as ``fmt``
    (``jsonl`` or ``text``), was imported (the import must take it), and the file."""
    path = tmp_path / f"record.{fmt}"
    path.write_text("".join(svc.export([game_id], fmt)))
    other = RefereeService(GameStore(tmp_path / f"{fmt}.db"))
    report = other.import_files([path])
    assert [f.status for f in report.files] == ["imported"], report.files
    return other, path


def case_setup(rules: Any, case: ContractCase) -> Setup:
    """The case's setup as ``rules`` resolve it: its options read as a face reads them,
    its open lists registered and its sealed ones sealed with their salt."""
    fields = {f.key: f for f in rules.setup_fields}
    decks: dict[str, Deck] = dict(case.decks)
    decks.update({seat: seal(deck, salt) for seat, (deck, salt) in case.sealed.items()})
    setup: Setup = rules.resolve_setup(
        Setup(
            players=tuple(Player(seat, name) for seat, name in case.players.items()),
            ruleset=case.ruleset,
            variants=dict(case.variants),
            options={key: fields[key].convert(value) for key, value in case.options.items()},
            decks=decks,
        )
    )
    return setup


def open_deck(rules: Any, state: Any, setup: Setup, case: ContractCase, step: OpenDeck) -> Any:
    """The position after ``step`` opens its seat's sealed list, or, when opening fails
    (the commitment, REF-5.3, or the list's construction), an ``AssertionError`` unless
    ``step`` expects that failure and its clause comes first (the position unchanged)."""
    decklist, salt = case.sealed[step.seat]
    knowledge = rules.deck_knowledge(state, step.seat)
    assert knowledge is not None
    verdict = Verdict(
        knowledge.check_open(decklist, salt, "REF-5.3").violations
        + rules.check_deck(setup, step.seat, decklist).violations
    )
    if step.clause is not None:
        assert not verdict.legal, verdict
        assert verdict.violations[0].clause == step.clause, verdict
        return state
    assert verdict.legal, verdict
    return rules.with_deck_knowledge(state, step.seat, knowledge.opened(decklist))


def leaks(rules: Any, state: Any, seats: Iterable[str]) -> list[str]:
    """What of each seat's secrets the public or another seat sees in ``state`` (its
    ``observe`` and ``render``): empty when no view shows one."""
    seats = tuple(seats)
    found = []
    for owner in seats:
        for viewer in ("public", *[s for s in seats if s != owner]):
            shown = json.dumps(rules.observe(state, viewer)) + rules.render(state, viewer)
            found += [
                f"{viewer} sees {owner}'s {s}" for s in rules.secrets(state, owner) if s in shown
            ]
    return found


def play_case(rules: Any, case: ContractCase) -> tuple[Any, set[str]]:
    """Play ``case`` through the pure rules and the shared procedure (``judge``), so a
    mistake in a script shows before the contract suite's store does: every ``Act`` is
    read, legal where it stands and written back as read; every ``Reject`` cites its
    clause first; a ruling is answered by the next step, an ``Adjust`` for its card, before
    any entry (REF-6.2); each ``OpenDeck`` opens or fails as scripted (``open_deck``); and
    no view shows a seat's secret to another after any step. The setup is the one the
    store keeps (its options through JSON). Returns the final position and the kinds seen:
    each entry's type name, ``reject``, ``adjust``, ``open`` and ``simultaneous`` (an entry
    made when several seats may act)."""
    setup = case_setup(rules, case)
    for seat, deck in case.decks.items():
        assert rules.check_deck(setup, seat, deck).legal, seat
    stored = msgspec.json.decode(msgspec.json.encode(setup.options))
    state = rules.initial_state(msgspec.structs.replace(setup, options=stored))
    kinds: set[str] = set()
    awaiting: str | None = None
    for number, step in enumerate(case.steps, start=1):
        where = f"{case.name}, step {number}: {step}"
        if isinstance(step, Adjust):
            assert awaiting == step.card, f"{where}: a ruling awaited on {awaiting}"
            for change in parse_adjustment(step.changes):
                assert rules.check_change(state, change).legal, where
                state = rules.apply_change(state, change)
            awaiting = None
            kinds.add("adjust")
        elif isinstance(step, OpenDeck):
            assert awaiting is None, f"{where}: a ruling on {awaiting} is awaited"
            state = open_deck(rules, state, setup, case, step)
            kinds.add("open")
        else:
            assert awaiting is None, f"{where}: a ruling on {awaiting} is awaited"
            judged = judge(rules, state, step.text, step.seat)
            assert not judged.refused, (where, judged.verdict.explain())
            if isinstance(step, Reject):
                assert not judged.verdict.legal, where
                assert judged.verdict.violations[0].clause == step.clause, (where, judged.verdict)
                kinds.add("reject")
                continue
            assert judged.verdict.legal, (where, judged.verdict.explain())
            assert judged.action is not None, where
            assert rules.parse(rules.notation(judged.action)) == judged.action, where
            if len(rules.to_act(state)) > 1:
                kinds.add("simultaneous")
            if judged.verdict.rulings:
                awaiting = judged.verdict.rulings[0].card
            kinds.add(type(judged.action).__name__)
            state = rules.apply(state, judged.action, judged.seat)
        assert leaks(rules, state, case.players) == [], where
    assert awaiting is None, f"{case.name}: a ruling on {awaiting} is still awaited"
    return state, kinds

"""Every face that shows a game to a viewer, checked for the secrets of the other seats
(REF-5.2): the log as it grew, the text record, the analysis export, both replays, every
position (data, text, drawing, last entry) and the game's reports.

``tests/contract/test_contract.py`` checks the views of each position and the decklists in
the log; this checks the faces built on them, one game per hidden-information case, so a
face that reads the record around the view layer (or a line of the log that names a card
drawn face down) is caught whichever game's case shows it.
"""

from __future__ import annotations

import json
from importlib import import_module
from pathlib import Path
from typing import Any

import msgspec
import pytest

from events.records import event_line, event_record, redact, revealed_entries
from events.schema import ActionRejected
from referee import games
from referee.contract import PUBLIC
from tests.contract.cases import ContractCase
from tests.contract.test_contract import CASES, Played, play
from tests.faces import service_faces


def _hidden_cases() -> list[Any]:
    """The cases of the games that hide something from some viewer."""
    out = []
    for param in CASES:
        (case,) = param.values
        if case is not None and case.game in ("crystale", "gammasphere", "prismatic"):
            out.append(param)
    return out


@pytest.fixture(params=_hidden_cases())
def hidden_played(request: pytest.FixtureRequest, tmp_path: Path) -> Played:
    case: ContractCase = request.param
    return play(case, tmp_path / "store.db")


def _hidden_from(rules: Any, state: Any, owner: str, viewer: str) -> frozenset[str]:
    """What ``viewer`` may not learn of ``owner``'s: ``secrets``, which leaves out a name the
    other seat registered too (its own knowledge); for the public, which registered nothing,
    every such name (the game's ``own_secrets``, where it has one)."""
    if viewer == PUBLIC:
        module = import_module(f"referee.games.{rules.name}.view")
        own = getattr(module, "own_secrets", None)
        if own is not None:
            return frozenset(own(state, owner))
    return frozenset(rules.secrets(state, owner))


def _named(secrets: frozenset[str], text: str) -> list[str]:
    return sorted(s for s in secrets if s in text)


def _without_catalog(record: dict[str, Any]) -> dict[str, Any]:
    """An event record without the catalog a game was created with: the catalog is public
    (every card of it is named there), a seat's choice from it is not."""
    options = record.get("options")
    if isinstance(options, dict) and "catalog" in options:
        return {**record, "options": {k: v for k, v in options.items() if k != "catalog"}}
    return record


def _text_without_catalog(text: str) -> str:
    """The text record with the catalog left out of its ``[Options "..."]`` tag."""
    lines = []
    for line in text.splitlines():
        if line.startswith('[Options "') and line.endswith('"]'):
            options = json.loads(json.loads(line[len("[Options ") : -1]))
            options.pop("catalog", None)
            line = f"[Options {json.dumps(options)}]"
        lines.append(line)
    return "\n".join(lines)


@pytest.mark.slow  # a prefix log per viewer after every event: ~18 s of the quick loop
def test_the_log_as_it_grew_names_no_secret_of_another_seat(hidden_played: Played) -> None:
    """After each event, the lines of the record up to it, as each other viewer reads them,
    name none of a seat's secrets at that moment (an entry that drew face down names no
    card; a rejected entry's text and reasons are the viewer's share of it)."""
    svc = hidden_played.svc
    view = svc.load(hidden_played.game_id)
    rules = view.rules
    states = [hidden_played.states[0], *hidden_played.states[1:]]
    events = view.events
    assert games.names()  # the registry is loaded
    for number in range(1, len(events) + 1):
        prefix = events[:number]
        state = _state_after(hidden_played, number)
        if state is None:
            continue
        for owner in view.seats:
            for viewer in [PUBLIC, *[s for s in view.seats if s != owner]]:
                secrets = _hidden_from(rules, state, owner, viewer)
                if not secrets:
                    continue
                shown = [
                    redact(e, viewer, rules, view.setup, revealed_entries(view))
                    for e in prefix
                    # a viewer's own rejected entry is in its own words (its reasons are its own)
                    if not (isinstance(e, ActionRejected) and e.actor == viewer)
                ]
                text = "\n".join(event_line(e) for e in shown) + json.dumps(
                    [_without_catalog(event_record(e)) for e in shown]
                )
                leaked = _named(secrets, text)
                assert not leaked, (number, viewer, owner, leaked)
    assert states


def _state_after(played: Played, number: int) -> Any:
    """The position after the game's ``number``-th event, from the played steps."""
    for step_view in played.views:
        if step_view.version == number:
            return step_view.state
    if number == 1:
        return played.states[0]
    return None


def test_no_face_shows_a_viewer_another_seats_secrets_at_the_end(
    hidden_played: Played, tmp_path: Path
) -> None:
    svc = hidden_played.svc
    game_id = hidden_played.game_id
    view = svc.load(game_id)
    rules = view.rules
    for owner in view.seats:
        for viewer in [PUBLIC, *[s for s in view.seats if s != owner]]:
            secrets = _hidden_from(rules, view.state, owner, viewer)
            if not secrets:
                continue
            typed = " ".join(  # a name the viewer typed itself is its own words
                e.text for e in view.events if isinstance(e, ActionRejected) and e.actor == viewer
            )
            hidden = frozenset(s for s in secrets if s not in typed)
            path = tmp_path / f"analysis-{viewer}-{owner}.db"
            faces = service_faces(
                svc, game_id, viewer, path, record=_without_catalog, text=_text_without_catalog
            )
            for face, text in faces.items():
                leaked = _named(hidden, text)
                assert not leaked, (face, viewer, owner, leaked)


def test_no_hash_shown_to_a_viewer_confirms_a_guess_of_what_was_hidden(
    hidden_played: Played,
) -> None:
    """An event's hash is SHA-256 over the whole event as stored, and the next event's hash
    covers it through ``prev_hash``. A viewer shown a redacted event with its real hash (or any
    later event's) could hash each guess of the hidden part (a sealed bid of 0 to N prisms, a
    card name from the public catalog) and keep the one that matches: the hash would tell
    what the view withholds (REF-8.2, PX-14.1). So once an event is redacted for a viewer, no
    hash that covers it reaches that viewer."""
    svc = hidden_played.svc
    view = svc.load(hidden_played.game_id)
    rules = view.rules
    revealed = revealed_entries(view)
    for viewer in [PUBLIC, *view.seats]:
        covered: set[str] = set()  # real hashes that cover a hidden part
        for event in view.events:
            shown = redact(event, viewer, rules, view.setup, revealed)
            plain = msgspec.structs.replace(shown, token_id=event.token_id)
            if event.prev_hash in covered:
                covered.add(event.hash)
            if plain != event:
                covered.add(event.hash)
            leaked = {shown.hash, shown.prev_hash} & covered
            assert not leaked, (viewer, event.originator_version, type(event).__name__)
        for record in svc.log(hidden_played.game_id, viewer=viewer):
            assert not {record.get("hash"), record.get("prev_hash")} & covered, (viewer, record)


def test_a_sealed_bid_cannot_be_read_back_from_the_public_log(tmp_path: Path) -> None:
    """The attack itself, on the Prismatic contract case stopped just after p1's sealed
    bid: hash 'bid N' for each N p1 may hold and compare with what the public and p2 read
    in the log (PX-14.1). Before the fix the guess of 1 matched."""
    from dataclasses import replace

    from events.codec import event_hash
    from events.schema import ActionRecorded
    from tests.contract.cases import Act

    case = next(
        p.values[0]
        for p in _hidden_cases()
        if p.values[0].game == "prismatic" and "auction" in p.values[0].name
    )
    first_bid = next(
        n for n, step in enumerate(case.steps) if isinstance(step, Act) and "bid" in step.text
    )
    played = play(replace(case, steps=case.steps[: first_bid + 1]), tmp_path / "store.db")
    for viewer in (PUBLIC, "p2"):
        _, events = played.svc.log_events(played.game_id, viewer=viewer)
        shown = events[-1]
        assert isinstance(shown, ActionRecorded)
        assert shown.notation == "sealed bid"
        records = played.svc.log(played.game_id, viewer=viewer)
        hashes = {r.get("hash") for r in records} | {r.get("prev_hash") for r in records}
        for guess in range(10):
            tried = msgspec.structs.replace(
                shown,
                notation=f"bid {guess}",
                action=msgspec.Raw(msgspec.json.encode({"type": "bid", "amount": guess})),
                hash="",
                prev_hash=events[-2].hash or view_hash(played, -2),
            )
            assert event_hash(tried) not in hashes, (viewer, guess)


def view_hash(played: Played, index: int) -> str:
    """The real hash of event ``index`` (what a viewer would chain a guess onto)."""
    return played.svc.load(played.game_id).events[index].hash

"""No door hands a game a structured action its notation would not give.

Every door takes entries as text and reads them with the game's notation: the HTTP
entry and offline bodies (``web.schemas.EntryIn``, ``service.offline.OfflineEntryIn``:
``text`` only, unknown fields refused, pinned in ``tests/web/test_doors.py``), the text
import (each line recorded through the referee's own commands). The one door that carries
stored action JSON is the JSONL import, and ``events.integrity.recheck_decisions`` reads
each recorded action from its notation and refuses the record unless the stored JSON is
exactly that action's encoding. Here, for every game, a record whose first action was
replaced by an impossible structured action (a negative or zero count, a field its
notation never writes, such as a Prismatic draw to the progress area naming a card to
replace) and re-sealed so that its hashes hold is refused with the event that shows it,
nothing is stored, and nothing raises; the same record as recorded is imported.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from events.schema import ActionRecorded
from events.store import GameStore
from referee import games
from service import RefereeService
from tests.contract.cases import ContractCase
from tests.contract.test_contract import CASES, played_once

ODD: dict[str, tuple[bytes, ...]] = {
    "crystale": (
        b'{"act":"first","seat":"p1","count":-1}',
        b'{"act":"first","seat":"p9"}',
    ),
    "gammasphere": (
        b'{"act":"draw","count":-7}',
        b'{"act":"draw","count":0}',
    ),
    "prismata": (
        b'{"act":"click","unit":-1,"target":null,"consume":[]}',
        b'{"act":"click","unit":1,"target":-3,"consume":[-1]}',
    ),
    "prismatic": (
        b'{"type":"draw","to":"progress","replace":"Ember Spark"}',
        b'{"type":"bid","amount":-1}',
        b'{"type":"prisms","count":0}',
        b'{"type":"reveal","card":"Ember Spark","extra":1}',
    ),
    "prizmik": (
        b'{"kind":"deploy","origin":-1,"target":12}',
        b'{"kind":"deploy","origin":4,"target":12,"count":2}',
    ),
}
AS_RECORDED = b""
"""Marks the control: the record re-sealed with its action unchanged, which must import."""

FIRST_CASE: dict[str, ContractCase] = {}
for _param in CASES:
    _case = _param.values[0]
    if _case is not None:
        FIRST_CASE.setdefault(_case.game, _case)


def test_every_game_has_odd_structured_actions_to_try() -> None:
    """Each game this project ships (not the toy games the tests register) is tried."""
    shipped = {g for g in FIRST_CASE if not games.package_of(g).startswith("tests.")}
    assert set(ODD) == shipped


@pytest.mark.parametrize(
    ("game", "odd"),
    [
        pytest.param(game, odd, id=f"{game}-{n}")
        for game, odds in sorted(ODD.items())
        for n, odd in enumerate((AS_RECORDED, *odds))
    ],
)
def test_a_jsonl_record_with_a_structured_action_off_its_notation_is_refused(
    game: str, odd: bytes, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    played = played_once(FIRST_CASE[game], tmp_path_factory.getbasetemp())
    source = RefereeService(GameStore(played.path))
    try:
        events = list(source.load(played.game_id).events)
    finally:
        source.close()
    first = next(n for n, e in enumerate(events) if isinstance(e, ActionRecorded))
    recorded = events[first]
    assert isinstance(recorded, ActionRecorded)
    if odd:
        events[first] = msgspec.structs.replace(recorded, action=msgspec.Raw(odd))
    forged = RefereeService(GameStore(tmp_path / "forged.db"))
    forged.store.append(None, events)  # sealed afresh: every hash of the record holds
    record = tmp_path / "record.jsonl"
    record.write_text("".join(forged.export([played.game_id], "jsonl")))
    forged.close()

    other = RefereeService(GameStore(tmp_path / "other.db"))
    try:
        (outcome,) = other.import_files([record]).files
        if not odd:
            assert outcome.status == "imported", outcome
            return
        assert outcome.status == "refused", outcome
        number = recorded.originator_version
        assert f"{record}:{number + 1}: verdict:" in outcome.detail, outcome.detail
        assert f"does not match its notation {recorded.notation!r}" in outcome.detail
        assert other.store.rows(played.game_id) == []
    finally:
        other.close()

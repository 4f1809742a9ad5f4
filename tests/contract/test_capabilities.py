"""Every game keeps the contract; what only some games offer is a capability it opts into
(``referee.capabilities``), and the helpers find exactly the games that have it."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.store import GameStore
from referee import games
from referee.capabilities import (
    adjustments_of,
    catalogs_of,
    decks_of,
    foreign_records_of,
    reports_of,
    withdrawals_of,
)
from service import RefereeService
from service.errors import InvalidCommandError

OFFERS = {
    "prizmik": set(),
    "prismata": {"catalogs", "foreign records"},
    "prismatic": {"adjustments", "catalogs", "reports", "withdrawals"},
    "crystale": {"decks", "adjustments", "catalogs"},
    "gammasphere": {"decks", "adjustments", "catalogs"},
}
HELPERS = {
    "decks": decks_of,
    "adjustments": adjustments_of,
    "catalogs": catalogs_of,
    "foreign records": foreign_records_of,
    "reports": reports_of,
    "withdrawals": withdrawals_of,
}


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_each_game_offers_exactly_its_capabilities(game: str) -> None:
    rules = games.load(game)
    offered = {name for name, helper in HELPERS.items() if helper(rules) is not None}
    assert game in OFFERS, f"say which capabilities {game} offers in OFFERS"
    assert offered == OFFERS[game]
    assert (decks_of(rules) is not None) == rules.takes_decks
    assert (reports_of(rules) is not None) == bool(rules.reports)


def test_ref_6_3_a_game_without_adjustments_refuses_one(tmp_path: Path) -> None:
    """REF-6.3: PRIZMIK computes every effect; an adjustment is refused with that clause."""
    svc = RefereeService(GameStore(tmp_path / "s.db"))
    view = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"})
    with pytest.raises(InvalidCommandError) as raised:
        svc.adjust(view.game_id, "resource red gas +1", card="x", reason="no such card")
    assert raised.value.clause == "REF-6.3"


def test_ref_5_1_a_game_without_decklists_refuses_one(tmp_path: Path) -> None:
    from referee.kit.decks import parse_decklist

    svc = RefereeService(GameStore(tmp_path / "s.db"))
    with pytest.raises(InvalidCommandError) as raised:
        svc.create_game(
            "prizmik", {"red": "Ann", "blue": "Ben"}, decks={"red": parse_decklist("1 X")}
        )
    assert raised.value.clause in ("REF-5.1",) or "decklists" in str(raised.value)


def test_a_reason_about_another_seats_secret_is_hidden_from_the_actor_too() -> None:
    """REF-5.2: the log shows the seat that made a rejected entry its own text, but a reason
    kept for another seat (its registered list, say) reads in its plain form."""
    from events.records import redact
    from events.schema import ActionRejected
    from referee.verdicts import Violation
    from tests.stored import stored_rejection

    rules = games.load("gammasphere")
    hidden = Violation("GS-3.5", "p2's list has 2 Ion Lancer", seen_by="p2", shown="refused")
    stream = "00000000-0000-0000-0000-000000000001"
    event = stored_rejection(stream, 3, 1, "p1", "play Ion Lancer", hidden)
    for viewer, reason in (("p1", "refused"), ("public", "refused"), ("p2", hidden.reason)):
        shown = redact(event, viewer, rules)
        assert isinstance(shown, ActionRejected)
        assert shown.violations[0].reason == reason, viewer
    mine = redact(event, "p1", rules)
    assert isinstance(mine, ActionRejected)
    assert mine.text == "play Ion Lancer"

"""The event service on its own: event decklists reach every game of the player
(a sealed list stays sealed), a best-of-3 played out game by game decides its match
(EV-3.8), and pairing stores the round and its games in one transaction."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.schema import DeckRegistered, GameCreated
from referee.kit.decks import SealedDeck
from service.app import RefereeService, open_service
from service.tournaments import EventRefusedError
from tests.gammasphere.helpers import DECK, OTHER


@pytest.fixture
def svc(tmp_path: Path) -> RefereeService:
    return open_service(tmp_path / "store.db", create=True)


def test_event_decklists_are_used_by_every_game_and_sealed_stays_sealed(
    svc: RefereeService,
) -> None:
    event = svc.event_new("Decks", "gammasphere", rounds=2).event_id
    sealed, _salt = svc.seal_decklist(OTHER)
    svc.event_register(event, ["Ann"], deck=DECK)
    svc.event_register(event, ["Ben"], deck=sealed)
    (table,) = svc.event_pair(event)
    stream = svc.store.events(table.games[0])
    created = stream[0]
    assert isinstance(created, GameCreated)
    assert created.meta["event"] == event and created.meta["round"] == "1"
    decks = {e.seat: e.deck for e in stream if isinstance(e, DeckRegistered)}
    assert decks["p1"] == DECK
    assert isinstance(decks["p2"], SealedDeck) and decks["p2"].commitment  # still sealed
    log = [line.text for line in svc.event_log(event)]
    assert any("sealed list" in text for text in log)


def test_a_refused_event_decklist_stores_nothing(svc: RefereeService) -> None:
    event = svc.event_new("Decks", "gammasphere").event_id
    version = svc.event_info(event).version
    with pytest.raises(EventRefusedError, match="EV-2.2"):
        svc.event_register(event, ["Ann"], deck=SealedDeck(commitment="ab" * 32, size=1))
    assert svc.event_info(event).version == version


def test_a_best_of_three_played_game_by_game_decides_its_match(svc: RefereeService) -> None:
    event = svc.event_new("Bo3", "gammasphere", rounds=1).event_id
    svc.event_register(event, ["Ann", "Ben"])
    (table,) = svc.event_pair(event)
    svc.end(table.games[0], "resignation", who="p1")  # Ben wins game 1
    (table,) = svc.event_pairings(event)
    assert len(table.games) == 2  # game 2 created when game 1 ended
    svc.end(table.games[1], "resignation", who="p2")  # Ann wins game 2
    svc.end(svc.event_pairings(event)[0].games[2], "agreement")  # game 3 drawn
    (table,) = svc.event_pairings(event)
    assert len(table.games) == 4  # 1-1-1 decides nothing yet: a fourth game (EV-3.2)
    svc.end(table.games[3], "resignation", who="p1")
    assert svc.event_state(event).result(1, 1) is not None
    ann, ben = sorted(svc.event_standings(event), key=lambda s: s.player)
    assert (ann.record.losses, ben.record.wins) == (1, 1)
    assert ben.gw == "7/12"  # 2 wins and a draw of 4 games: (6 + 1) / 12
    with pytest.raises(EventRefusedError, match="EV-3.7"):
        svc.event_result(event, ["1=2-0-0"])


def test_pairing_stores_round_and_games_in_one_transaction(svc: RefereeService) -> None:
    event = svc.event_new("Atomic", "gammasphere").event_id
    svc.event_register(event, [f"P{n}" for n in range(8)])
    before = set(svc.store.game_ids())

    def broken(*_: object) -> None:
        raise OSError("the disk is full")

    original = svc.store.app.save
    svc.store.app.save = broken  # type: ignore[method-assign,assignment]
    with pytest.raises(OSError):
        svc.event_pair(event)
    svc.store.app.save = original  # type: ignore[method-assign]
    assert set(svc.store.game_ids()) == before
    assert svc.event_info(event).current_round == 0
    assert len(svc.event_pair(event)) == 4


def test_a_disqualification_drops_the_player_and_repeats_are_upgraded(
    svc: RefereeService,
) -> None:
    """EV-8.4 (IPG upgrades across the event); a disqualified player leaves (IPG 1.4)."""
    event = svc.event_new("Penalties", "gammasphere").event_id
    svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    svc.event_pair(event)
    assert svc.event_penalty(event, "Ann", "deck-problem") == "warning"
    assert svc.event_penalty(event, "Ann", "deck-problem") == "game-loss"  # the second one
    assert svc.event_penalty(event, "Ben", "cheating") == "disqualification"
    (ben,) = [s for s in svc.event_standings(event) if s.player == "Ben"]
    assert ben.dropped_after == 1
    whats = [e["what"] for e in svc.event_audit(event)["entries"]]
    assert whats == ["penalty", "penalty", "penalty", "drop"]

"""REF-6.6 in each card game's knowledge model: a named card an adjustment moves between two
hidden zones of its seat changes the counts everyone sees (the zone it went to one more,
the one it left one fewer), is never counted as seen (the registered list minus the seen
cards keeps it, so no other viewer learns it), and is known to its seat and the referee,
whose views show it where the others' never do. Games with hidden zones: Crystale (pool,
hand; CR-12.5) and Gammasphere (deck, hand; GS-1.2); Prismatic keeps nothing in a hidden
zone (its bags are known at every moment, PX-15.5), so none of its moves is kept hidden."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.kit.adjustments import carried_out, parse_adjustment
from referee.kit.zones import HiddenZone
from tests.crystale import helpers as crystale
from tests.gammasphere import helpers as gammasphere
from tests.gammasphere.helpers import DECK_TEXT


def _moved(rules: Any, state: Any, text: str, hidden: bool = True) -> Any:
    """``state`` after the adjustment ``text`` as the replay and the decision carry it out."""
    after, violation = carried_out(
        rules.check_change,
        rules.apply_change,
        state,
        parse_adjustment(text),
        rules.hidden_zones,
        hidden,
        keep=rules.kept_in_sight_of_its_seat,
    )
    assert violation is None, violation
    return after


def _crystale() -> tuple[Any, Any, str, str, str]:
    return crystale.RULES, crystale.main_phase(), "Ignarok the Unbound", "pool", "hand"


def _gammasphere() -> tuple[Any, Any, str, str, str]:
    decks = {"p1": gammasphere.decklist(DECK_TEXT)}
    return gammasphere.RULES, gammasphere.started(decks), "Pylon", "deck", "hand"


GAMES = {"crystale": _crystale, "gammasphere": _gammasphere}


@pytest.mark.parametrize("game", GAMES)
def test_a_hidden_move_changes_the_counts_and_not_what_the_others_know(game: str) -> None:
    rules, before, card, source, target = GAMES[game]()
    side = before.sides[0]
    after = _moved(rules, before, f"move p1 {source}>{target} {card}")
    moved = after.sides[0]
    assert getattr(moved, source).count == getattr(side, source).count - 1
    assert getattr(moved, target).count == getattr(side, target).count + 1
    assert card not in getattr(moved, target).known.names()  # not the table's knowledge
    assert moved.knowledge.seen == side.knowledge.seen  # not seen: the list minus seen keeps it
    assert card in rules.secrets(after, "p1")
    for viewer in ("p2", "public"):
        assert card not in json.dumps(rules.observe(after, viewer)), viewer
        assert card not in rules.render(after, viewer), viewer
    # nothing else changed for the others: their views are the views of an unseen move
    unseen = _moved(rules, before, f"move p1 {source}>{target}")
    for viewer in ("p2", "public"):
        assert rules.observe(after, viewer) == rules.observe(unseen, viewer), viewer


@pytest.mark.parametrize("game", GAMES)
def test_its_seat_and_the_referee_know_the_card_their_views_show(game: str) -> None:
    rules, before, card, source, target = GAMES[game]()
    after = _moved(rules, before, f"move p1 {source}>{target} {card}")
    assert getattr(after.sides[0], target).private.names() == [card]
    for viewer in ("p1", "referee"):
        shown = rules.observe(after, viewer)
        side = shown["sides"][0] if "sides" in shown else shown["seats"]["p1"]
        assert side[f"{target}_private"] == {card: 1}, (viewer, side)
        assert f"seen by p1 and the referee only: 1 {card}" in rules.render(after, viewer)
    # the other seat's view of its own side shows nothing of the kind
    other = rules.observe(after, "p2")
    side = other["sides"][0] if "sides" in other else other["seats"]["p1"]
    assert f"{target}_private" not in side
    # revealed, the card is everyone's: known in the zone, not privately
    shown = _moved(rules, before, f"move p1 {source}>{target} {card}", hidden=False)
    assert card in getattr(shown.sides[0], target).known.names()
    assert not getattr(shown.sides[0], target).private


def test_a_card_known_privately_leaves_the_hand_as_one_of_its_cards() -> None:
    """Played out of the hand, the card is everyone's (seen, GS-3.5) and no longer private;
    a card put away unseen leaves nothing privately known (any card may have gone)."""
    rules, before, card, _, _ = _gammasphere()
    after = _moved(rules, before, f"move p1 deck>hand {card}")
    played = gammasphere.play(after, f"construct {card}")
    own = played.sides[0]
    assert not own.hand.private
    assert own.knowledge.seen.count(card) == 1
    assert own.hand.count == after.sides[0].hand.count - 1
    away = _moved(rules, after, "move p1 hand>deck")
    assert not away.sides[0].hand.private


def test_a_hidden_zone_keeps_what_was_identified_privately_consistent() -> None:
    hand = HiddenZone("p1", 2).with_private("Pylon")
    assert (hand.count, hand.unknown, hand.private.names()) == (2, 2, ["Pylon"])
    assert hand.with_private("Gamma Trooper").with_private("X").private.total == 2  # no more
    assert hand.take_known("Pylon").private.total == 0
    other = hand.take_known("Gamma Trooper")  # the other, unidentified card
    assert other.private.names() == ["Pylon"]
    assert other.take_known("Ion Lancer").private.total == 0  # then Pylon is not certain
    assert hand.take_unseen(1).private.total == 0
    assert hand.put_unseen(1).private.names() == ["Pylon"]
    assert hand.put_known("Ion Lancer").private.names() == ["Pylon"]


def test_prismatic_keeps_no_zone_hidden_so_no_move_of_it_is_kept() -> None:
    """Prismatic's cards move between the shared deck and open zones (PX-15.5): a named
    card leaving the deck is shown to the table, so nothing is kept in sight of one seat
    and every viewer reads the card where it went."""
    from tests.prismatic import helpers as prismatic

    rules = prismatic.RULES
    assert rules.hidden_zones == frozenset()
    state = prismatic.started(3)
    after = _moved(rules, state, "move p1 deck>progress Comet Trail")  # hidden=True: no effect
    assert after == _moved(rules, state, "move p1 deck>progress Comet Trail", hidden=False)
    assert rules.kept_in_sight_of_its_seat(after, "p1", "progress", "Comet Trail") is after
    for viewer in ("p2", "public"):
        assert "Comet Trail" in json.dumps(rules.observe(after, viewer)["players"]), viewer

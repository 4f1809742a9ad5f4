"""The event layer's tournament types are made when first needed (``events.deferred``): a
one-game command never imports the tournament package, yet the ledger's maps answer for
every topic, type and kind as plain maps did."""

from __future__ import annotations

import subprocess
import sys
import typing

import pytest

from events.deferred import Deferred
from events.schema import KIND_OF_TOPIC, KINDS, TOPIC_OF, TOPICS
from events.tournament import TOURNAMENT_TOPICS, stored_type
from referee.tournament import facts


def test_every_tournament_fact_has_its_topic_and_nothing_else() -> None:
    names = [fact.__name__ for fact in typing.get_args(facts.Fact)]
    assert sorted(TOURNAMENT_TOPICS) == sorted(f"referee.event.{n}.v1" for n in names)
    for fact in typing.get_args(facts.Fact):
        stored = stored_type(fact)
        topic = f"referee.event.{fact.__name__}.v1"
        assert TOPICS[topic] is stored
        assert TOPIC_OF[stored] == topic
        assert KINDS[stored] == KIND_OF_TOPIC[topic] == fact.__struct_config__.tag


def test_the_ledger_maps_read_as_the_whole_maps() -> None:
    assert len(TOPICS) == len(list(TOPICS)) == len(dict(TOPICS.items()))
    assert dict(TOPIC_OF) == {cls: topic for topic, cls in TOPICS.items()}
    assert set(KINDS) == set(TOPICS.values())
    assert set(KIND_OF_TOPIC) >= set(TOPICS)
    assert "referee.event.Nothing.v1" not in TOPICS
    assert TOPICS.get("referee.event.Nothing.v1") is None


def test_a_deferred_map_makes_its_later_part_once_and_only_when_needed() -> None:
    made: list[int] = []

    def later() -> dict[str, int]:
        made.append(1)
        return {"b": 2, "c": 3}

    lazy = Deferred({"a": 1}, later, keys=("b", "c"))
    assert lazy["a"] == 1
    assert "b" in lazy
    assert list(lazy) == ["a", "b", "c"]
    assert len(lazy) == 3
    with pytest.raises(KeyError):
        lazy["z"]
    assert not made
    assert lazy["c"] == 3
    assert dict(lazy) == {"a": 1, "b": 2, "c": 3}
    assert made == [1]
    wrong = Deferred({}, later, keys=("b",))
    with pytest.raises(RuntimeError, match="other keys"):
        wrong["b"]


def test_reading_a_game_imports_no_tournament_package() -> None:
    """The schema, the codec and a game's fold load without ``referee.tournament``."""
    code = (
        "import sys, events.store, events.records, events.integrity\n"
        "from events.codec import decode, encode, known_topic\n"
        "assert known_topic('referee.event.RoundPaired.v1')\n"
        "assert 'referee.tournament' not in sys.modules, 'referee.tournament loaded'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)

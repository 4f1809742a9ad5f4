"""A round's new games sealed from a template of their creation's JSON
(``service.round_games``, ``events.codec.JsonTemplate``) are stored byte for byte as the
encoder writes them: the same store, row for row, as the ordinary way, for every game,
with names the encoder must escape (a quote, a backslash) or not (beyond ASCII), seeds
drawn, and times with and without a fraction of a second."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest

from events.codec import JsonTemplate, Sealed, decode, plain_text, seal_after
from events.schema import GENESIS_HASH, TOPIC_OF, GameCreated, GameEvent
from events.store import GameStore
from referee import games
from referee.contract import Player
from referee.game.setup import drawn_seeds
from service import round_games, tournaments
from service.app import RefereeService

START = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

NAMES = [
    'Ann "the Ace" Lee',  # a quote: escaped by the encoder, made the ordinary way
    "Ben\\Backslash",
    "Cal",
    "Zoë Ørsted",  # not ASCII: written as it is
    "Dee 100%",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ida",
    "Jon",
    "Kim",
    "Lou",
    *(f"Player {n:02}" for n in range(12)),
]


def _counting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ids drawn in order: the same in every run of a test."""
    games_made = itertools.count(1)
    players = itertools.count(1)

    def game_ids(self: GameStore, game: str, count: int) -> list[str]:
        return [f"{game}-g{next(games_made):07d}" for _ in range(count)]

    monkeypatch.setattr(GameStore, "new_game_ids", game_ids)
    monkeypatch.setattr(GameStore, "new_event_id", lambda self, seed=None: "ev-rounds01")
    monkeypatch.setattr(tournaments, "new_player_id", lambda: f"pl-{next(players):010d}")


def _clock() -> Callable[[], datetime]:
    """A quarter second a read: every fourth time has no fraction of a second."""
    ticks = itertools.count()
    return lambda: START + timedelta(microseconds=250_000 * next(ticks))


def _rows(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        query = "SELECT originator_id, originator_version, topic, state FROM stored_events"
        return db.execute(query + " ORDER BY rowid").fetchall()


def _two_rounds(path: Path, game: str, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    _counting(monkeypatch)
    seeds = itertools.count(1000)
    svc = RefereeService(GameStore(path), clock=_clock(), draw_seed=lambda: next(seeds))
    try:
        event = svc.event_new("Rounds", game, pods=game == "prismatic", rounds=3).event_id
        svc.event_register(event, NAMES)
        rows = svc.event_pair(event)
        slips = [f"{r.table}=2-0-0" for r in rows if not r.bye and len(r.players) == 2]
        if slips:
            svc.event_result(event, slips)
            svc.event_pair(event)
    finally:
        svc.close()
    return _rows(path)


@pytest.mark.parametrize("game", games.names())
def test_a_rounds_games_from_the_template_are_the_ordinary_ways_bytes(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[bool] = []
    links: list[bool] = []
    matches = JsonTemplate.matches

    def checking(event: GameEvent, state: bytes) -> bool:
        (checked if isinstance(event, GameCreated) else links).append(matches(event, state))
        return (checked if isinstance(event, GameCreated) else links)[-1]

    monkeypatch.setattr(JsonTemplate, "matches", staticmethod(checking))
    templated = _two_rounds(tmp_path / "templated.db", game, monkeypatch)
    monkeypatch.setattr(round_games, "TEMPLATES", False)
    ordinary = _two_rounds(tmp_path / "ordinary.db", game, monkeypatch)
    # a setup resolved once for every table is templated; one drawn from each game's seed
    # (Crystale's, Prismata's) is resolved for each game, the ordinary way
    assert bool(checked) == (not drawn_seeds(games.load(game)))
    assert all(checked)  # the encoder agreed with each template's first game
    # each pairing's games linked are sealed from a template too, checked once a pairing
    assert links == [True] * (1 + ("prismatic" not in game))
    assert templated == ordinary
    created = [row for row in templated if row[2] == TOPIC_OF[GameCreated]]
    assert len(created) >= 6
    for _, _, topic, state in created:  # and each is what sealing its event writes
        event = decode(topic, state)
        again = seal_after(0, GENESIS_HASH, [msgspec.structs.replace(event, hash="")])
        assert isinstance(again, Sealed)
        assert again.states == [state]


def test_names_the_encoder_escapes_are_not_pasted_in() -> None:
    assert plain_text("Zoë Ørsted 100%")
    for name in ('a "quote"', "back\\slash", "tab\there", "line\nbreak", "\x00", "\ud800"):
        assert not plain_text(name)


def _sample(name: str, player_id: str = "pl-0000000001") -> GameCreated:
    return GameCreated(
        originator_id="gammasphere-aaaaaaaa",
        originator_version=1,
        timestamp=START,
        prev_hash=GENESIS_HASH,
        game="gammasphere",
        ruleset="gammasphere/example",
        variants={},
        players=(Player("p1", name, player_id), Player("p2", "Ben")),
        meta={"table": "1"},
    )


def test_a_template_needs_each_placeholder_once_and_in_order() -> None:
    assert JsonTemplate.of(_sample("\x7fa\x7f"), ["\x7fa\x7f"]) is not None
    assert JsonTemplate.of(_sample("\x7fa\x7f"), ["\x7fmissing\x7f"]) is None
    twice = msgspec.structs.replace(_sample("\x7fa\x7f"), meta={"table": "\x7fa\x7f"})
    assert JsonTemplate.of(twice, ["\x7fa\x7f"]) is None
    both = msgspec.structs.replace(_sample("\x7fa\x7f"), meta={"table": "\x7fb\x7f"})
    assert JsonTemplate.of(both, ["\x7fb\x7f", "\x7fa\x7f"]) is None  # not in their order
    assert JsonTemplate.of(both, ["\x7fa\x7f", "\x7fb\x7f"]) is not None


def test_a_filled_template_seals_as_seal_after_does() -> None:
    sample = msgspec.structs.replace(
        _sample("\x7fname\x7f", "\x7fid\x7f"), originator_id="\x7fg\x7f"
    )
    template = JsonTemplate.of(sample, ["\x7fg\x7f", "\x7fname\x7f", "\x7fid\x7f"])
    assert template is not None
    for n, name in enumerate(["Ann", "Zoë", "Dee 100%", "x" * 300]):
        game_id, player_id = f"gammasphere-{n:08d}", f"pl-{n:010d}"
        digest, state = template.sealed((game_id, name, player_id))
        event = msgspec.structs.replace(
            _sample(name, player_id), originator_id=game_id, hash=digest
        )
        assert JsonTemplate.matches(event, state)
        assert not JsonTemplate.matches(event, state.replace(b"Ben", b"Bob"))


def test_a_sealed_stream_is_not_sealed_again_where_it_already_stands() -> None:
    sealed = seal_after(0, GENESIS_HASH, [_sample("Ann")])
    assert seal_after(0, GENESIS_HASH, sealed) is sealed
    moved = seal_after(3, "f" * 64, sealed)  # elsewhere: numbered and chained anew
    assert moved is not sealed
    assert [(e.originator_version, e.prev_hash) for e in moved] == [(4, "f" * 64)]


def _facts(games_linked: list[str], first_table: int = 1) -> list[Any]:
    from referee.tournament import facts as f
    from referee.tournament.model import Pairing, Round

    pairings = tuple(
        Pairing(table=first_table + n, players=(f"p{2 * n}", f"p{2 * n + 1}"))
        for n in range(len(games_linked))
    )
    paired = f.RoundPaired(round=Round(number=3, kind="swiss", pairings=pairings))
    links = [
        f.GameLinked(round=3, table=first_table + n, game=game)
        for n, game in enumerate(games_linked)
    ]
    return [paired, *links]


@pytest.mark.parametrize("token", [None, "tok-0001"])
@pytest.mark.parametrize(
    "games_linked",
    [
        [f"gammasphere-{n:08d}" for n in range(40)],  # a pairing's links: templated
        [f"gammasphere-{n:08d}" for n in range(3)],  # too few to template
        ['gammasphere-"quoted"', *(f"gammasphere-{n:08d}" for n in range(9))],  # escaped
        ["gammasphere-Zoë", *(f"gammasphere-{n:08d}" for n in range(9))],  # beyond ASCII
    ],
)
def test_a_writes_games_linked_seal_as_the_ordinary_way(
    games_linked: list[str], token: str | None
) -> None:
    """``round_games.sealed_facts`` (a pairing's 5,000 ``GameLinked`` from one template) is
    ``seal_after(to_stored_all(...))`` event for event and byte for byte: the same events,
    hashes, chain and stored JSON, with a writing token or without, after a fact that is
    not a link, with game ids the encoder writes as they are or escapes."""
    from events.tournament import to_stored_all

    base: dict[str, Any] = {
        "originator_id": "ev-rounds01",
        "originator_version": 0,
        "timestamp": START + timedelta(microseconds=123_456),
        "prev_hash": "",
    }
    if token:
        base["token_id"] = token
    facts = _facts(games_linked, first_table=7)
    prev = "ab" * 32
    made = round_games.sealed_facts(facts, base, 41, prev)
    ordinary = seal_after(41, prev, to_stored_all(facts, base))
    assert isinstance(made, Sealed)
    assert isinstance(ordinary, Sealed)
    assert made == ordinary
    assert made.states == ordinary.states
    assert made.kept_states() == ordinary.states
    assert [e.originator_version for e in made] == list(range(42, 42 + len(facts)))
    assert made[0].prev_hash == prev
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(made))


def test_links_are_sealed_from_a_template_only_when_it_matches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A template the encoder does not confirm seals the run the ordinary way; with
    templates off, every link is sealed the ordinary way."""
    from events.tournament import to_stored_all

    base: dict[str, Any] = {
        "originator_id": "ev-rounds01",
        "originator_version": 0,
        "timestamp": START,
        "prev_hash": "",
    }
    facts = _facts([f"gammasphere-{n:08d}" for n in range(12)])
    ordinary = seal_after(0, GENESIS_HASH, to_stored_all(facts, base))
    asked: list[GameEvent] = []

    def refusing(event: GameEvent, state: bytes) -> bool:
        asked.append(event)
        return False

    monkeypatch.setattr(JsonTemplate, "matches", staticmethod(refusing))
    refused = round_games.sealed_facts(facts, base, 0, GENESIS_HASH)
    assert len(asked) == 1  # the first link, once
    assert asked[0].originator_version == 2
    assert isinstance(refused, Sealed)
    assert isinstance(ordinary, Sealed)
    assert refused == ordinary
    assert refused.states == ordinary.states
    monkeypatch.setattr(round_games, "TEMPLATES", False)
    plain = round_games.sealed_facts(facts, base, 0, GENESIS_HASH)
    assert len(asked) == 1  # no template made
    assert isinstance(plain, Sealed)
    assert plain == ordinary
    assert plain.states == ordinary.states


def test_a_sealed_stream_changed_since_gives_no_states() -> None:
    """``Sealed.kept_states`` answers the sealed bytes only while the list holds the very
    events sealed; ``Sealed.one`` is ``Sealed([event], [state])``."""
    sealed = seal_after(0, GENESIS_HASH, [_sample("Ann"), _sample("Ben")])
    assert isinstance(sealed, Sealed)
    states = sealed.states
    assert sealed.kept_states() == states
    sealed[1] = msgspec.structs.replace(sealed[1])  # equal, but not the event sealed
    assert sealed.kept_states() is None
    one = Sealed.one(sealed[0], states[0])
    assert one == [sealed[0]]
    assert one.kept_states() == [states[0]]
    assert seal_after(0, GENESIS_HASH, one) is one
    one.append(sealed[0])
    assert one.kept_states() is None

"""Fuzzing every parser: whatever the text, the answer is a value or the parser's own
error (a one-line refusal), never another exception; a refused entry stores nothing."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.main import app
from events.interchange import ImportFileError, parse_text, read_jsonl
from events.store import GameStore
from referee import games
from referee.capabilities import catalogs_of
from referee.errors import ActionSyntaxError, AdjustmentSyntaxError, CatalogError, DeckError
from referee.kit.adjustments import change_notation, parse_adjustment
from referee.kit.decks import parse_decklist
from service import RefereeService

FUZZ = settings(
    max_examples=int(os.environ.get("REFEREE_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TEXT = st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=60)
WORDS = st.lists(
    st.sampled_from(
        [
            "draw",
            "play",
            "e1>e2",
            "#3",
            "buy",
            "click",
            "attack",
            "u3",
            "c4",
            "R",
            "G",
            "commit",
            "to",
            "palette",
            "pass",
            "end",
            "Fire Imp",
            "@b1",
            "2",
            "-",
            ">",
            "x",
            ":",
            ",",
            "on",
            "summon",
            "create",
            "take",
            "mote",
            "1",
            "%",
            "\u2028",
        ]
    ),
    max_size=8,
).map(" ".join)
GAMES = [*games.BUILT_IN, "nim", "tribute"]  # the shipped games and the test games


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(text=st.one_of(TEXT, WORDS))
def test_notation_reads_or_refuses(name: str, text: str) -> None:
    rules = games.load(name)
    try:
        action = rules.parse(text)
    except ActionSyntaxError as exc:
        assert exc.clause
        assert "\n" not in str(exc).strip("\n")
        return
    assert rules.parse(rules.notation(action)) == action


@FUZZ
@given(
    lines=st.lists(
        st.one_of(
            TEXT,
            st.just('{"format": "referee-jsonl/1"}'),
            st.just('{"kind":"created","topic":"referee.GameCreated.v2",'),
            st.just("{" * 300),
        ),
        max_size=6,
    )
)
def test_jsonl_reads_or_refuses(lines: list[str]) -> None:
    with contextlib.suppress(ImportFileError):
        read_jsonl(lines, "fuzz.jsonl")


@FUZZ
@given(
    body=st.lists(
        st.one_of(
            TEXT,
            st.just('[Game "prizmik"]'),
            st.just('[GameId "g-1"]'),
            st.just('[Ruleset "prizmik/1"]'),
            st.just("1. e1>e2"),
            st.just("{ended"),
            st.just('{retracted 1: "x"}'),
        ),
        max_size=8,
    ).map("\n".join)
)
def test_text_reads_or_refuses(body: str) -> None:
    with contextlib.suppress(ImportFileError):
        parse_text(body, "fuzz.txt")


@pytest.mark.parametrize("name", [n for n in games.BUILT_IN if games.load(n).catalog_kinds])
@FUZZ
@given(
    text=st.one_of(
        TEXT, st.just("{" * 400), st.just("[[cards]]\nname = 1"), st.just('{"cards": [{}]}')
    )
)
def test_catalogs_read_or_refuse(name: str, text: str) -> None:
    rules = games.load(name)
    catalogs = catalogs_of(rules)
    assert catalogs is not None
    for kind in rules.catalog_kinds:
        with contextlib.suppress(CatalogError):
            catalogs.read_catalog(kind, text, "fuzz.toml")


def test_a_card_named_x_something_reads_back_from_its_canonical_line() -> None:
    """``1 X Marks the Spot`` is one copy of "X Marks the Spot", not of "Marks the Spot":
    a list's canonical lines (the bytes a seal commits to) read back as the same list;
    ``4x NAME`` keeps its x against the count."""
    decklist = parse_decklist("X Marks the Spot\n2x Fire Imp\nX 0")
    assert decklist.text() == "2 Fire Imp\n1 X 0\n1 X Marks the Spot\n"
    assert parse_decklist(decklist.text()) == decklist


@FUZZ
@given(text=st.one_of(TEXT, st.just("{" * 400), st.just('{"Fire Imp": -1}')))
def test_decklists_read_or_refuse(text: str) -> None:
    try:
        decklist = parse_decklist(text)
    except DeckError:
        return
    assert parse_decklist(decklist.text()) == decklist


@FUZZ
@given(text=st.one_of(TEXT, WORDS))
def test_adjustments_read_or_refuse(text: str) -> None:
    try:
        changes = parse_adjustment(text)
    except AdjustmentSyntaxError:
        return
    assert parse_adjustment("; ".join(change_notation(c) for c in changes)) == changes


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(TEXT, WORDS))
def test_the_command_line_never_shows_a_traceback(text: str) -> None:
    db = Path(tempfile.mkdtemp()) / "s.db"
    svc = RefereeService(GameStore(db))
    game = svc.create_game("prizmik", {"red": "A", "blue": "B"}).game_id
    before = svc.store.rows(game)
    result = CliRunner().invoke(app, ["--db", str(db), "act", game, text])
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    if result.exit_code == 2:
        assert svc.store.rows(game) == before  # a refusal stores nothing

"""A card an adjustment moves between hidden zones (a deck searched into the hand) is read
by its seat and the referee only (REF-6.6): every face, for every other viewer, says that
the seat moved a hidden card, and the position takes it as a card moved unseen."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient
from typer.testing import CliRunner

from cli.main import app
from service.app import open_service
from tests.gammasphere.helpers import DECK_TEXT
from tests.web.conftest import ThreadServer, Tokens, auth
from tests.web.test_live_and_hidden import everything, read_events

Client = TestClient[Litestar]

SEARCHED = "Pylon"  # in p1's list (DECK_TEXT); the effect's own card is Supply Drop
SEARCH = f"move p1 deck>hand {SEARCHED}"


def new_game(client: Client, tokens: Tokens) -> str:
    """A Gammasphere game for Ann (p1, her list open) and Ben (p2), both hands drawn."""
    body = {
        "game": "gammasphere",
        "players": {"p1": "Ann", "p2": "Ben"},
        "meta": {"table": "1"},
        "decks": {"p1": {"decklist": DECK_TEXT}},
    }
    created = client.post("/api/games", json=body, headers=auth(tokens["head"]))
    assert created.status_code == 201, created.text
    game: str = created.json()["game_id"]
    for seat in ("p1", "p2"):
        drawn = client.post(
            f"/api/games/{game}/entries",
            json={"text": "draw 7", "seat": seat},
            headers=auth(tokens["table1"]),
        )
        assert drawn.status_code == 201, drawn.text
    return game


def adjust(client: Client, tokens: Tokens, game: str, **more: object) -> None:
    body = {"changes": SEARCH, "card": "Supply Drop", "reason": "searched the deck", **more}
    done = client.post(f"/api/games/{game}/adjustments", json=body, headers=auth(tokens["head"]))
    assert done.status_code == 201, done.text


def counts(text: str) -> int:
    return text.count(SEARCHED)


def faces(client: Client, token: str, game: str) -> dict[str, int]:
    """How often each answer names the searched card."""
    return {path: counts(text) for path, text in everything(client, token, game).items()}


@pytest.fixture
def searched(client: Client, tokens: Tokens) -> tuple[str, dict[str, dict[str, int]]]:
    """A game whose deck search was kept hidden, with what each reader saw before it."""
    game = new_game(client, tokens)
    before = {who: faces(client, tokens[who], game) for who in ("public", "ben", "ann", "head")}
    adjust(client, tokens, game)
    return game, before


def test_a_hidden_search_names_the_card_to_its_seat_and_the_referee_only(
    client: Client, tokens: Tokens, searched: tuple[str, dict[str, dict[str, int]]]
) -> None:
    game, before = searched
    for who in ("public", "ben"):
        after = faces(client, tokens[who], game)
        assert after == before[who], f"{who} reads the searched card in {after}"
        log = client.get(f"/api/games/{game}/log", headers=auth(tokens[who])).json()
        assert log[-1]["notation"] == "move p1 deck>hand", log[-1]  # the move, not the card
        assert log[-1]["changes"][0]["card"] is None
    for who in ("ann", "head"):  # the seat and the referee read it (so this test can fail)
        after = faces(client, tokens[who], game)
        assert any(after[p] > before[who][p] for p in after), (who, after)


def test_a_hidden_search_leaves_the_position_as_an_unseen_move(
    store: str, client: Client, tokens: Tokens
) -> None:
    game = new_game(client, tokens)
    with open_service(store) as svc:
        hand = svc.load(game).state.sides[0].hand.count
        adjust(client, tokens, game)
        view = svc.load(game)
        side = view.state.sides[0]
        assert side.hand.count == hand + 1
        assert SEARCHED not in side.hand.known.names()  # known to the table: not it
        # not "seen": the card of p1's list is still p1's secret, nobody else's knowledge
        assert SEARCHED in view.rules.secrets(view.state, "p1")
        for viewer in ("p2", "public"):
            assert SEARCHED not in json.dumps(view.rules.observe(view.state, viewer))
            assert SEARCHED not in view.rules.render(view.state, viewer)


def test_a_revealed_search_shows_the_card_to_everyone(
    store: str, client: Client, tokens: Tokens
) -> None:
    game = new_game(client, tokens)
    adjust(client, tokens, game, revealed=True)
    log = client.get(f"/api/games/{game}/log", headers=auth(tokens["public"])).text
    assert SEARCH in log
    with open_service(store) as svc:
        view = svc.load(game)
        assert SEARCHED in view.state.sides[0].hand.known.names()
        assert SEARCHED in json.dumps(view.rules.observe(view.state, "p2"))


def test_the_live_stream_carries_the_hidden_card_to_no_other_reader(
    store: str, tokens: Tokens, searched: tuple[str, dict[str, dict[str, int]]]
) -> None:
    from web.app import ServeConfig

    game, _ = searched
    server = ThreadServer(ServeConfig(store=store, poll_interval=0.05))
    try:
        url = f"{server.base}/api/games/{game}/events?after=0"
        for who, sees in (("public", False), ("ben", False), ("ann", True), ("head", True)):
            stream = read_events(url, auth(tokens[who]), 5)
            adjustment = json.loads(stream[-1]["data"])
            assert adjustment["kind"] == "adjustment", stream[-1]
            assert (SEARCHED in json.dumps(adjustment)) is sees, (who, adjustment)
            assert adjustment["revealed"] is False
    finally:
        server.stop()


def test_the_command_line_shows_the_hidden_card_to_no_other_reader(
    store: str, searched: tuple[str, dict[str, dict[str, int]]], tmp_path: Path
) -> None:
    game, _ = searched
    runner = CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(app, ["--db", store, *args])
        assert done.exit_code == 0, done.output
        return done.stdout

    reads = {
        "show": ("show", game),
        "log": ("log", game),
        "replay": ("replay", game),
        "text": ("export", game, "--format", "text"),
        "html": ("export", game, "--format", "html"),
    }
    for name, args in reads.items():
        for viewer in ("p2", "public"):
            assert SEARCHED not in run(*args, "--as", viewer), (name, viewer)
        if name != "show":  # the position knows a hidden card, not which (the log says it)
            named = SEARCHED if name == "html" else f"deck>hand {SEARCHED}"  # (none before it)
            assert named in run(*args, "--as", "p1"), name
            assert named in run(*args), name
    # the exact record is the referee's alone (a JSONL export refuses --as): it names the card
    assert f'"card":"{SEARCHED}"' in run("export", game, "--format", "jsonl")
    log = run("log", game, "--as", "p2")
    assert "p1 moves a hidden card from deck to hand" in log, log


def text_record(store: str, game: str) -> str:
    """The game's text record, as the command line exports it."""
    return CliRunner().invoke(app, ["--db", store, "export", game, "--format", "text"]).stdout


def imported_store(text: str, tmp_path: Path) -> str:
    """A new store (under ``tmp_path``) holding the game of the text record ``text``,
    imported by the command line."""
    record = tmp_path / "record.txt"
    record.write_text(text)
    other = str(tmp_path / "imported.db")
    imported = CliRunner().invoke(app, ["--db", other, "import", str(record)])
    assert imported.exit_code == 0, imported.output
    return other


def test_a_text_record_keeps_the_card_hidden_through_an_import(
    store: str, searched: tuple[str, dict[str, dict[str, int]]], tmp_path: Path
) -> None:
    game, _ = searched
    text = text_record(store, game)
    assert "hidden:" in text, text
    other = imported_store(text, tmp_path)
    again = CliRunner().invoke(app, ["--db", other, "log", game, "--as", "p2"]).stdout
    assert f"deck>hand {SEARCHED}" not in again
    assert "p1 moves a hidden card from deck to hand" in again, again


def test_verify_finds_nothing_in_a_hidden_search(
    store: str, searched: tuple[str, dict[str, dict[str, int]]]
) -> None:
    done = CliRunner().invoke(app, ["--db", store, "verify"])
    assert done.exit_code == 0, done.output


def test_a_line_written_before_the_clause_replays_as_it_was_recorded(
    store: str, searched: tuple[str, dict[str, dict[str, int]]], tmp_path: Path
) -> None:
    """An old text record says no word on the search: the card was taken as seen then."""
    game, _ = searched
    text = text_record(store, game)
    old = text.replace(' hidden: "searched the deck"', ': "searched the deck"')
    other = imported_store(old, tmp_path)
    with open_service(other) as svc:
        view = svc.load(game)
        assert SEARCHED in view.state.sides[0].hand.known.names()
        assert view.events[-1].revealed is msgspec.UNSET  # type: ignore[attr-defined]


def test_the_command_lines_revealed_flag_shows_the_card_to_everyone(
    store: str, client: Client, tokens: Tokens
) -> None:
    game = new_game(client, tokens)
    runner = CliRunner()
    args = ["--db", store, "adjust", game, SEARCH, "--card", "Supply Drop", "--reason", "r"]
    done = runner.invoke(app, [*args, "--revealed"])
    assert done.exit_code == 0, done.output
    assert SEARCH in runner.invoke(app, ["--db", store, "log", game, "--as", "p2"]).stdout
    hidden = runner.invoke(app, args)  # the default: kept from the others
    assert hidden.exit_code == 0, hidden.output
    log = runner.invoke(app, ["--db", store, "log", game, "--as", "public"]).stdout
    assert log.count(SEARCHED) == 1, log

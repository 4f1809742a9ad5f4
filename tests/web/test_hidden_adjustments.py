"""A card an adjustment moves between hidden zones (a deck searched into the hand) is read
by its seat and the referee only (REF-6.6): every face, for every other viewer, says that
the seat moved a hidden card, and the position takes it as a card moved unseen."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient
from typer.testing import CliRunner

from cli.main import app
from events.records import HIDDEN_REASON
from events.schema import AdjustmentRecorded
from referee.kit.adjustments import adjustment_notation, parse_adjustment
from service.app import open_service
from tests.faces import service_faces
from tests.gammasphere.helpers import DECK_TEXT
from tests.stored import STORED_AT
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


def assert_known_to_p1_and_the_referee_only(view: Any) -> None:
    """The searched card, put into p1's hand unseen (REF-6.6): still p1's secret, shown to
    neither p2 nor the public, and known in that hand to p1 and the referee."""
    assert SEARCHED in view.rules.secrets(view.state, "p1")
    for viewer in ("p2", "public"):
        assert SEARCHED not in json.dumps(view.rules.observe(view.state, viewer))
        assert SEARCHED not in view.rules.render(view.state, viewer)
    for viewer in ("p1", "referee"):  # they saw it go into the hand
        seen = view.rules.observe(view.state, viewer)["sides"][0]
        assert seen["hand_private"] == {SEARCHED: 1}, (viewer, seen)


def referee_cli(store: str) -> Callable[..., str]:
    """``referee --db STORE ...`` run in the test: its output, the command having succeeded."""
    runner = CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(app, ["--db", store, *args])
        assert done.exit_code == 0, done.output
        return done.stdout

    return run


def streamed_adjustments(store: str, game: str, tokens: Tokens) -> dict[str, dict[str, Any]]:
    """The game's last event as each reader's live stream carries it (a server over
    ``store``), checked to be the adjustment and to name the searched card to Ann (p1) and
    the head referee only."""
    from web.app import ServeConfig

    server = ThreadServer(ServeConfig(store=store, poll_interval=0.05))
    seen = {}
    try:
        url = f"{server.base}/api/games/{game}/events?after=0"
        for who, sees in (("public", False), ("ben", False), ("ann", True), ("head", True)):
            stream = read_events(url, auth(tokens[who]), 5)
            adjustment = json.loads(stream[-1]["data"])
            assert adjustment["kind"] == "adjustment", stream[-1]
            assert (SEARCHED in json.dumps(adjustment)) is sees, (who, adjustment)
            seen[who] = adjustment
    finally:
        server.stop()
    return seen


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
        assert_known_to_p1_and_the_referee_only(view)


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
    game, _ = searched
    for who, adjustment in streamed_adjustments(store, game, tokens).items():
        assert adjustment["revealed"] is False, (who, adjustment)


def test_the_command_line_shows_the_hidden_card_to_no_other_reader(
    store: str, searched: tuple[str, dict[str, dict[str, int]]], tmp_path: Path
) -> None:
    game, _ = searched
    run = referee_cli(store)
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
        # the seat's and the referee's position knows the card (seen by them only), and
        # their record says it (none of these named it before the search)
        named = {"show": f"seen by p1 and the referee only: 1 {SEARCHED}", "html": SEARCHED}
        said = named.get(name, f"deck>hand {SEARCHED}")
        assert said in run(*args, "--as", "p1"), name
        assert said in run(*args), name
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


def test_a_line_written_before_the_clause_is_kept_hidden_all_the_same(
    store: str, searched: tuple[str, dict[str, dict[str, int]]], tmp_path: Path
) -> None:
    """An old text record says no word on the search: the zones say it was hidden, so the
    card is counted as moved unseen and the other viewers read the move (REF-6.6)."""
    game, _ = searched
    text = text_record(store, game)
    old = text.replace(' hidden: "searched the deck"', ': "searched the deck"')
    assert old != text
    other = imported_store(old, tmp_path)
    with open_service(other) as svc:
        view = svc.load(game)
        assert SEARCHED not in view.state.sides[0].hand.known.names()
        assert view.events[-1].revealed is msgspec.UNSET  # type: ignore[attr-defined]
    again = CliRunner().invoke(app, ["--db", other, "log", game, "--as", "p2"]).stdout
    assert SEARCHED not in again
    assert "p1 moves a hidden card from deck to hand" in again, again


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


# -- records made before REF-6.6 ----------------------------------------------------------

NAMING = f"searched the deck for {SEARCHED}"  # a reason naming the card it moved


def store_as_before_the_clause(store: str, game: str, changes: str = SEARCH) -> None:
    """Append to ``game`` the adjustment ``changes`` as the code before REF-6.6 stored it:
    no word on whether the card was seen (the field did not exist, so it is not in the
    stored bytes), and a reason naming the card."""
    with open_service(store) as svc:
        view = svc.load(game)
        parsed = parse_adjustment(changes)
        event = AdjustmentRecorded(
            originator_id=game,
            originator_version=view.version + 1,
            timestamp=STORED_AT,
            prev_hash="",
            resolves=None,
            card="Supply Drop",
            changes=parsed,
            notation=adjustment_notation(parsed),
            reason=NAMING,
            by="Rita",
        )
        (stored,) = svc.store.append(view, [event])
        assert b"revealed" not in msgspec.json.encode(stored)


@pytest.fixture
def searched_long_ago(
    store: str, client: Client, tokens: Tokens
) -> tuple[str, dict[str, dict[str, int]]]:
    """A game whose deck search was stored before REF-6.6, with what each reader saw
    before it."""
    game = new_game(client, tokens)
    before = {who: faces(client, tokens[who], game) for who in ("public", "ben", "ann", "head")}
    store_as_before_the_clause(store, game)
    return game, before


def test_a_search_stored_before_the_clause_names_the_card_to_its_seat_and_the_referee_only(
    store: str,
    client: Client,
    tokens: Tokens,
    searched_long_ago: tuple[str, dict[str, dict[str, int]]],
) -> None:
    """The zones decide (REF-6.6): the game's JSON, log, replays, exports and pages name the
    card, and show the reason that names it, to p1 and the referee only."""
    game, before = searched_long_ago
    for who in ("public", "ben"):
        after = faces(client, tokens[who], game)
        assert after == before[who], f"{who} reads the searched card in {after}"
        log = client.get(f"/api/games/{game}/log", headers=auth(tokens[who])).json()
        assert log[-1]["notation"] == "move p1 deck>hand", log[-1]
        assert "REF-6.6" in log[-1]["reason"], log[-1]
    for path in ("", "/log", "/replay", "/export?format=text", "/export?format=html"):
        sep = "&" if "?" in path else "?"
        as_public = client.get(
            f"/api/games/{game}{path}{sep}as=public", headers=auth(tokens["head"])
        ).text
        assert SEARCHED not in as_public, path  # a screen for spectators
    for who in ("ann", "head"):
        after = faces(client, tokens[who], game)
        assert any(after[p] > before[who][p] for p in after), (who, after)
        log = client.get(f"/api/games/{game}/log", headers=auth(tokens[who])).json()
        assert log[-1]["reason"] == NAMING
    with open_service(store) as svc:  # the stored record is as it was written
        view = svc.load(game)
        assert view.events[-1].revealed is msgspec.UNSET  # type: ignore[attr-defined]
        assert svc.verify(game).bad == 0


def test_a_search_stored_before_the_clause_counts_a_card_nobody_else_saw(
    store: str, client: Client, tokens: Tokens
) -> None:
    """The position takes the old search as a card moved unseen: the hand one more, the
    deck one fewer, and the card still p1's secret (list minus seen), named nowhere for
    the others (REF-6.6, GS-1.2)."""
    game = new_game(client, tokens)
    with open_service(store) as svc:
        side = svc.load(game).state.sides[0]
    store_as_before_the_clause(store, game)
    with open_service(store) as svc:
        view = svc.load(game)
        moved = view.state.sides[0]
        assert (moved.hand.count, moved.deck.count) == (side.hand.count + 1, side.deck.count - 1)
        assert SEARCHED not in moved.hand.known.names()
        assert moved.knowledge.seen == side.knowledge.seen
        assert_known_to_p1_and_the_referee_only(view)


def test_a_search_stored_before_the_clause_is_hidden_from_the_command_line_and_the_stream(
    store: str, tokens: Tokens, searched_long_ago: tuple[str, dict[str, dict[str, int]]]
) -> None:
    game, _ = searched_long_ago
    run = referee_cli(store)
    reads = (
        ("show", game),
        ("show", game, "--json"),
        ("show", game, "--svg"),
        ("log", game),
        ("log", game, "--json"),
        ("replay", game),
        ("replay", game, "--session"),
        ("export", game, "--format", "text"),
        ("export", game, "--format", "html"),
    )
    for args in reads:
        for viewer in ("p2", "public"):
            assert SEARCHED not in run(*args, "--as", viewer), (args, viewer)
    assert NAMING in run("log", game, "--as", "p1")
    assert NAMING in run("log", game)
    log = run("log", game, "--as", "public")
    assert "p1 moves a hidden card from deck to hand" in log, log
    streamed_adjustments(store, game, tokens)


def test_a_public_text_record_of_an_old_search_reimports_without_the_card(
    store: str, searched_long_ago: tuple[str, dict[str, dict[str, int]]], tmp_path: Path
) -> None:
    """The public's text record says the move was kept hidden (as it read it) and names
    neither the card nor the reason; imported, it replays to the same counts."""
    game, _ = searched_long_ago
    done = CliRunner().invoke(app, ["--db", store, "export", game, "-f", "text", "--as", "public"])
    assert done.exit_code == 0, done.output
    assert SEARCHED not in done.stdout
    assert '{adjust "move p1 deck>hand" for "Supply Drop" hidden: ' in done.stdout, done.stdout
    other = imported_store(done.stdout, tmp_path)
    with open_service(other) as svc, open_service(store) as before:
        ours, theirs = svc.load(game).state.sides[0], before.load(game).state.sides[0]
        assert (ours.hand.count, ours.deck.count) == (theirs.hand.count, theirs.deck.count)


def test_the_reason_of_a_hidden_search_is_read_by_its_seat_and_the_referee_only(
    client: Client, tokens: Tokens
) -> None:
    """A reason naming the card kept hidden (REF-6.6): the others read the clause."""
    game = new_game(client, tokens)
    before = {who: faces(client, tokens[who], game) for who in ("public", "ben")}
    adjust(client, tokens, game, reason=NAMING)
    for who in ("public", "ben"):
        assert faces(client, tokens[who], game) == before[who], who
        log = client.get(f"/api/games/{game}/log", headers=auth(tokens[who])).json()
        assert log[-1]["reason"] == HIDDEN_REASON, log[-1]
    for who in ("ann", "head"):
        log = client.get(f"/api/games/{game}/log", headers=auth(tokens[who])).json()
        assert log[-1]["reason"] == NAMING


def test_no_face_of_the_service_names_a_hidden_search_to_another_viewer(
    store: str, client: Client, tokens: Tokens, tmp_path: Path
) -> None:
    """Both searches, the one stored before REF-6.6 and one kept hidden since, through every
    face the service gives a viewer: log, text record, both replays, the position (data and
    drawing), the game's reports and the analysis export (an SQLite file)."""
    game = new_game(client, tokens)
    store_as_before_the_clause(store, game)
    adjust(client, tokens, game, reason=NAMING)
    with open_service(store) as svc:
        view = svc.load(game)
        assert view.state.sides[0].hand.private.count(SEARCHED) == 2  # (so this can fail)

        def faces(viewer: str) -> dict[str, str]:
            return service_faces(svc, game, viewer, tmp_path / f"analysis-{viewer}.db")

        for viewer in ("p2", "public"):
            for face, text in faces(viewer).items():
                assert SEARCHED not in text, (face, viewer)
        for viewer in ("p1", "referee"):
            seen = faces(viewer)
            assert NAMING in seen["log"], viewer
            assert SEARCHED in seen["position"], viewer  # the hand holds it, for them

"""What every drawing must be: a standalone, well-formed SVG document naming its game,
scaling by its viewBox, titled; the game's own shapes (29 hex cells for Crystale,
each seat's zones for Gammasphere); clickable elements carrying their notation; the
last entry marked; and never a secret of another seat, for every viewer of every
contract case position (hidden hands drawn as backs)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from referee import drawings
from referee.contract import PUBLIC, REFEREE
from tests.contract.cases import ContractCase
from tests.drawings.conftest import (
    SVG,
    all_cases,
    classes,
    find_all,
    first_case,
    parse,
    played,
    shown_text,
)

CASES = [pytest.param(c, id=f"{c.game}-{c.name}") for c in all_cases()]


@pytest.mark.parametrize("case", CASES)
def test_no_drawing_shows_a_viewer_another_seats_secrets(
    case: ContractCase, play_folder: Path
) -> None:
    """Every step's position, drawn for the public and every seat, names no secret of
    another seat (``GameRules.secrets``); the last entry as the viewer may see it too."""
    done = played(case, play_folder)
    view = done.svc.load(done.game_id)
    rules, seats, players = view.rules, view.seats, view.seat_names()
    checked = 0
    for state in done.states:
        secrets = {owner: rules.secrets(state, owner) for owner in seats}
        for viewer in (PUBLIC, *seats):
            hidden = set().union(*(s for owner, s in secrets.items() if owner != viewer))
            svg = drawings.draw(
                view.game, rules.observe(state, viewer), viewer=viewer, players=players
            )
            shown = shown_text(svg)
            leaked = sorted(name for name in hidden if name in shown)
            assert not leaked, f"{viewer} sees {leaked} in the drawing"
            checked += bool(hidden)
    for ply in sorted({0, view.ply // 2, view.ply}):
        for viewer in (PUBLIC, *seats):
            state = view.state_at(ply)
            hidden = set().union(*(rules.secrets(state, o) for o in seats if o != viewer))
            shown = shown_text(done.svc.position_svg(done.game_id, at=ply, viewer=viewer))
            assert not [name for name in hidden if name in shown], (ply, viewer)


@pytest.mark.parametrize("case", CASES)
def test_every_drawing_is_a_standalone_svg_of_its_game(
    case: ContractCase, play_folder: Path
) -> None:
    done = played(case, play_folder)
    view = done.svc.load(done.game_id)
    for ply in sorted({0, view.ply // 2, view.ply}):
        for viewer in (REFEREE, PUBLIC, *view.seats):
            svg = done.svc.position_svg(done.game_id, at=ply, viewer=viewer)
            assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
            root = parse(svg)
            assert root.tag == f"{SVG}svg"
            assert root.get("data-game") == case.game
            x, y, width, height = (float(n) for n in (root.get("viewBox") or "").split())
            assert (x, y) == (0, 0)
            assert 300 <= width <= 560
            assert height > 100
            title = root.find(f"{SVG}title")
            assert title is not None
            assert title.text
            assert "drawing" in classes(root)
            assert case.game in classes(root)
            # nothing drawn outside the viewBox's width (so the page's 375 px holds it all)
            for el in root.iter(f"{SVG}rect"):
                right = float(el.get("x", 0)) + float(el.get("width", 0))
                assert right <= width + 0.5, (viewer, el.attrib)


def midgame(game: str, folder: Path) -> tuple[Any, Any]:
    """The public position halfway through the game's first contract case, and its drawing."""
    done = played(first_case(game), folder)
    ply = done.svc.load(done.game_id).ply // 2
    pos = done.svc.position(done.game_id, at=ply, viewer=PUBLIC)
    return pos, parse(done.svc.position_svg(done.game_id, at=ply, viewer=PUBLIC))


def test_crystale_draws_its_29_hexes_and_every_unit(play_folder: Path) -> None:
    pos, root = midgame("crystale", play_folder)
    hexes = find_all(root, "polygon", "hex")
    assert len(hexes) == 29
    tiles = {h.get("data-tile") for h in hexes}
    assert tiles == set(pos.position["tiles"])
    cells = [g for g in find_all(root, "g", "tile")]
    assert {g.get("data-notation") for g in cells} == tiles
    units = find_all(root, "g", "unit")
    assert {u.get("data-notation") for u in units} == {u["id"] for u in pos.position["units"]}
    assert len(find_all(root, "g", "summoner")) == 2
    # the hand is a count for the public: drawn as that many backs, less the crystals shown
    for seat, data in pos.position["seats"].items():
        panel = next(g for g in find_all(root, "g", "seat") if g.get("data-seat") == seat)
        backs = [g for g in panel.iter(f"{SVG}g") if {"card", "back"} <= classes(g)]
        assert len(backs) == data["hand"] - sum(data["hand_known"].values())
        slots = [g for g in panel.iter(f"{SVG}g") if "slot" in classes(g)]
        assert len(slots) == 3


def test_crystale_marks_the_tiles_and_units_of_the_last_entry() -> None:
    position = {
        "tiles": {},
        "units": [
            {"id": "u3", "seat": "p1", "kind": "servant", "tile": "b2", "crystal": "Cinderpup"}
        ],
        "seats": {},
    }
    root = parse(
        drawings.draw(
            "crystale",
            position,
            viewer=PUBLIC,
            players={"p1": "A", "p2": "B"},
            last="move u3 c3",
        )
    )
    marked = {g.get("data-notation") for g in root.iter(f"{SVG}g") if "marked" in classes(g)}
    assert marked == {"u3", "c3"}


def test_gammasphere_draws_each_seats_zones_and_hides_hands(play_folder: Path) -> None:
    pos, root = midgame("gammasphere", play_folder)
    seats = find_all(root, "g", "seat")
    assert {g.get("data-seat") for g in seats} == {"p1", "p2"}
    for side in pos.position["sides"]:
        panel = next(g for g in seats if g.get("data-seat") == side["seat"])
        zones = {c for g in panel.iter(f"{SVG}g") for c in classes(g)}
        assert {"hand", "deck", "discard", "power"} <= zones
        backs = [r for r in panel.iter(f"{SVG}rect") if {"card", "back"} <= classes(r)]
        assert len(backs) == side["hand"] - sum(side["hand_known"].values())
    field = [g for g in root.iter(f"{SVG}g") if {"card", "field"} <= classes(g)]
    assert {g.get("data-notation") for g in field} == {f"#{e['id']}" for e in pos.position["field"]}
    tapped = {g.get("data-notation") for g in field if "tapped" in classes(g)}
    assert tapped == {f"#{e['id']}" for e in pos.position["field"] if e["tapped"]}


def test_gammasphere_draws_the_attack_of_the_last_entry(play_folder: Path) -> None:
    done = played(first_case("gammasphere"), play_folder)
    view = done.svc.load(done.game_id)
    for ply in range(1, view.ply + 1):
        pos = done.svc.position(done.game_id, at=ply, viewer=PUBLIC)
        if pos.last_action and re.search(r"attack #\d+ #\d+", pos.last_action):
            break
    else:
        pytest.fail("the case has no attack")
    root = parse(done.svc.position_svg(done.game_id, at=ply, viewer=PUBLIC))
    assert find_all(root, "g", "combat"), pos.last_action
    attacker, target = re.findall(r"#\d+", pos.last_action)
    marked = {g.get("data-notation") for g in root.iter(f"{SVG}g") if "marked" in classes(g)}
    assert {attacker, target} <= marked


@pytest.mark.parametrize(
    ("game", "needed"),
    [
        ("prismatic", {"card", "method", "seat", "score", "supply"}),
        ("prismata", {"unit", "seat", "supply"}),
        ("prizmik", {"piece", "square"}),
    ],
)
def test_the_other_games_draw_their_own_pieces(
    game: str, needed: set[str], play_folder: Path
) -> None:
    done = played(first_case(game), play_folder)
    view = done.svc.load(done.game_id)
    root = parse(done.svc.position_svg(done.game_id, at=view.ply // 2, viewer=PUBLIC))
    drawn = {c for el in root.iter() for c in classes(el)}
    assert needed <= drawn
    assert any(el.get("data-notation") for el in root.iter())


def test_prismatic_shows_bags_progress_and_scores(play_folder: Path) -> None:
    done = played(first_case("prismatic"), play_folder)
    view = done.svc.load(done.game_id)
    pos = done.svc.position(done.game_id, at=view.ply // 2, viewer=PUBLIC)
    text = shown_text(done.svc.position_svg(done.game_id, at=view.ply // 2, viewer=PUBLIC))
    for seat, data in pos.position["players"].items():
        assert f"score {pos.position['score'][seat]}" in text
        assert f"bag {data['bag_total']}" in text
        for held in data["progress"] + data["creation"]:
            assert held["card"] in text
    for method in pos.position["board"][0]["methods"]:
        assert f"board {method}" in text


def test_a_game_without_a_drawing_gets_a_plain_one() -> None:
    svg = drawings.draw("nim", {"heaps": [3], "turn": "p1"}, viewer=PUBLIC, players={"p1": "A"})
    root = parse(svg)
    assert root.get("data-game") == "nim"
    assert "turn: p1" in shown_text(svg)
    assert not drawings.has_drawing("no such game")


def test_text_is_escaped() -> None:
    svg = drawings.draw(
        "prizmik",
        {"board": {"e1": "red base"}, "reserves": {"red": 3, "blue": 3}, "to_move": "red"},
        viewer=PUBLIC,
        players={"red": "<b>Ann & Co</b>", "blue": '"Ben"'},
        last="e1>e2",
    )
    assert "<b>" not in svg
    assert "<b>Ann & Co</b>" in shown_text(svg)

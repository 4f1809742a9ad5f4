"""Contract cases of Crystale: a match to the third hit with open pools, rejections and a
ruling; a sealed pool shown and opened with reported draws; a table's own catalog played
to a forfeit on an empty pool."""

from __future__ import annotations

import json
from pathlib import Path

from referee.kit.decks import Decklist
from referee.kit.multiset import Multiset
from tests.contract.cases import Act, Adjust, ContractCase, OpenDeck, Reject, Step

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "crystale"
PLAYERS = {"p1": "Ann", "p2": "Ben"}


def _fixture(name: str) -> dict:  # type: ignore[type-arg]
    data: dict = json.loads((FIXTURES / name).read_text())  # type: ignore[type-arg]
    return data


def _decks(game: dict) -> dict[str, Decklist]:  # type: ignore[type-arg]
    return {seat: Decklist(Multiset.of(cards)) for seat, cards in game["decks"].items()}


# Rejections slotted in before the fixture entry with this index (0-based).
_REJECTS: dict[int, tuple[Step, ...]] = {
    7: (Reject("summon Pyrelance Archer @c2", "CR-1.3"),),  # T1 before the pull: wrong phase
    8: (Reject("summon Pyrelance Archer @c3", "CR-7.2"),),  # T1: c3 is not next to u1 on c1
    9: (Reject("summon Cinderpup @d1", "CR-7.3"),),  # T1: a second summon
    20: (Reject("end", "CR-8.7"),),  # T3: p2 first answers the Archer's attack (CR-I.28)
    21: (Reject("attack u3 u4", "CR-8.9"),),  # T3: the Archer is fatigued
    22: (Reject("cast Ignarok the Unbound", "CR-7.5"),),  # T3: 90 MP, Ignarok costs 100
    28: (Reject("attack u6 u3", "CR-8.3"),),  # T4: c5 to c3 is beyond range 1
    32: (Reject("move u1 c2", "CR-8.2"),),  # T5: c2 holds u5
    34: (Reject("summon Cinderpup @c3", "CR-4.4"),),  # T5: u1 on c2, c3 holds u5
    41: (Reject("end", "CR-8.7", "p1"),),  # T6: p1 first decides the counterattack
}


def _three_hits() -> ContractCase:
    game = _fixture("01_three_hits.json")
    steps: list[Step] = []
    for index, (seat, text) in enumerate(game["entries"]):
        steps += _REJECTS.get(index, ())
        if text == "move u9 d5":  # T17: the Drake's free-text Updraft instead, ruled and adjusted
            steps += [
                Act("use u9 1", seat),
                Adjust("move p1 u9>d5", "Sootwing Drake", "Updraft: to d5"),
            ]
            continue
        steps.append(Act(text, seat))
    return ContractCase(
        game="crystale",
        name="three hits",
        players=PLAYERS,
        options=dict(game["options"]),
        decks=_decks(game),
        steps=tuple(steps),
    )


def _sealed() -> ContractCase:
    decks = _decks(_fixture("01_three_hits.json"))
    steps: tuple[Step, ...] = (
        Act("summoner Thalassa Tidecaller", "p2"),
        Act("first p1", "p1"),
        Act("pull 6", "p1"),
        Act("pull 6", "p2"),
        Act("show Cinderpup, Cinderpup, Magmaback Golem", "p1"),
        Act("show Reefling, Reefling, Coral Bastion", "p2"),
        Reject("pull Tidal Lash", "CR-12.3"),
        Act("pull Flame Lance"),
        Act("cast Flame Lance @u2"),
        Act("summon Cinderpup @c2"),
        Act("end"),
        Act("done"),
        Act("pull Reefling"),
        Act("summon Reefling @c6"),
        Act("end"),
        Act("done"),
        OpenDeck("p2"),
        Act("pull"),
        Reject("slot mp", "CR-9.1"),
    )
    return ContractCase(
        game="crystale",
        name="sealed pool",
        players=PLAYERS,
        options={"tiles": "F" * 29},
        decks={"p1": decks["p1"]},
        sealed={"p2": (decks["p2"], "crystale-salt-0001-0123456789abcdef")},
        steps=steps,
    )


def _forfeit() -> ContractCase:
    game = _fixture("02_forfeit_empty_pool.json")
    steps: list[Step] = [Act(text, seat) for seat, text in game["entries"]]
    steps.insert(5, Reject("reshuffle", "CR-6.2"))  # turn 1, Pull phase: the pool is not empty
    options = {
        "catalog": (FIXTURES / game["catalog_file"]).read_text(),
        "seed": str(game["options"]["seed"]),
    }
    return ContractCase(
        game="crystale",
        name="own catalog forfeit",
        players=PLAYERS,
        options=options,
        decks=_decks(game),
        steps=tuple(steps),
    )


CASES = [_three_hits(), _sealed(), _forfeit()]

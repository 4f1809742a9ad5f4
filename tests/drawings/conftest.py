"""Games to draw: every contract case played once through the service on a real SQLite
store (``tests/contract``), kept for the whole session."""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service import RefereeService
from tests.contract.cases import ContractCase
from tests.contract.test_contract import CASES, copy_store, played_once

SVG = "{http://www.w3.org/2000/svg}"


@dataclass
class Game:
    """A played contract case: its store, its game and its states step by step."""

    case: ContractCase
    path: Path
    game_id: str
    svc: RefereeService
    states: list[Any]


_PLAYED: dict[str, Game] = {}


def all_cases() -> list[ContractCase]:
    return [p.values[0] for p in CASES if p.values[0] is not None]


def first_case(game: str) -> ContractCase:
    return next(c for c in all_cases() if c.game == game)


def played(case: ContractCase, folder: Path) -> Game:
    """``case`` as the contract suite played it once a session (its own assertions ran then),
    on a copy of its store in ``folder``."""
    key = f"{case.game}-{case.name}"
    if key not in _PLAYED:
        folder.mkdir(parents=True, exist_ok=True)
        done = played_once(case, folder)
        path = folder / f"{len(_PLAYED)}.db"
        _PLAYED[key] = Game(case, path, done.game_id, copy_store(done, path), done.states)
    return _PLAYED[key]


@pytest.fixture(scope="session")
def play_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("drawings")


def parse(svg: str) -> ET.Element:
    """The drawing as XML (failing the test when it is not well-formed)."""
    return ET.fromstring(svg)


def shown_text(svg: str) -> str:
    """Every text and attribute value of a drawing, unescaped: what a reader could learn."""
    root = parse(svg)
    parts: list[str] = []
    for el in root.iter():
        parts.append(el.text or "")
        parts.append(el.tail or "")
        parts.extend(el.attrib.values())
    return html.unescape(" ".join(parts))


def classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def find_all(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [el for el in root.iter(f"{SVG}{tag}") if cls in classes(el)]

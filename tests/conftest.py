from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee import games


@pytest.fixture(autouse=True, scope="session")
def _register_toy_game() -> Iterator[None]:
    games._REGISTRY["nim"] = "tests.toygame:NimRules"
    yield
    games._REGISTRY.pop("nim", None)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "store.db"

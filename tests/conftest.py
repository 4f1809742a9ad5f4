from __future__ import annotations

import compileall
import functools
import os
import sys
from pathlib import Path

# Bytecode is cached for the project's tree even under PYTHONDONTWRITEBYTECODE (some harnesses
# and containers set it): without the cache each xdist worker re-compiled and assertion-rewrote
# every test module it collected (about 13 s of CPU per worker of the 19 s collection took) and
# every ``referee`` subprocess compiled the project before doing anything (0.45 s of CPU for an
# ``act``, 0.21 s with the cache). Set before anything of the project is imported, so those
# modules are cached; the controller compiles the packages the subprocesses import (a stat per
# file once compiled). The .pyc files go to the ignored __pycache__ folders as usual.
sys.dont_write_bytecode = False
ROOT = Path(__file__).resolve().parent.parent
if "PYTEST_XDIST_WORKER" not in os.environ:
    for _package in ("referee", "events", "projections", "service", "cli", "web"):
        compileall.compile_dir(ROOT / _package, quiet=1)

import pytest  # noqa: E402 - after the bytecode setting above, as the imports below
import typer.main  # noqa: E402
import typer.testing  # noqa: E402

from referee import games  # noqa: E402
from tests.postgres import pg_env  # noqa: E402, F401 - the PostgreSQL fixture, for every test module

TEST_GAMES = {"nim": "tests.games.nim:NimRules", "tribute": "tests.games.tribute:TributeRules"}
for (
    _name,
    _target,
) in TEST_GAMES.items():  # registered before collection: the contract suite lists them
    games.register(_name, _target)


# Typer's CliRunner builds the click command from the app's signatures on every invoke (0.16 s of
# CPU for ``referee``'s, four times what an ``act`` itself costs); a real ``referee`` process
# builds it once, so the tests build it once per app too. The check fails loudly if a typer
# upgrade stops going through this name, rather than the suite silently slowing down again.
assert typer.testing._get_command is typer.main.get_command  # type: ignore[attr-defined]
typer.testing._get_command = functools.cache(typer.main.get_command)  # type: ignore[attr-defined]


@pytest.fixture(autouse=True, scope="session")
def _test_games_stay_registered() -> None:
    for name, target in TEST_GAMES.items():
        games.register(name, target)


# What makes a test slow is what it starts: a Chromium, a PostgreSQL schema or database, a served
# hall in a thread or a subprocess. A test using one of these fixtures is marked ``slow`` at
# collection, so `pytest -m "not slow"` is the quick loop (docs/development.md) and a new test of
# that kind joins the full suite's side without anyone remembering to mark it.
SLOW_FIXTURES = frozenset(
    {"browser", "pg_env", "pg_servers", "live_server", "serve", "module_serve"}
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    # The slow tests run first (in their own order): collected last (tests/web), the longest of
    # them ended the run on one xdist worker while the other sat idle.
    items[:] = sorted(items, key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "store.db"


@pytest.fixture(autouse=True)
def _offline_copies_stay_in_the_test(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--server`` commands keep game copies and an outbox (``service.outbox``) under the
    cache folder: a test's go to a folder of its own, never the home directory."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))

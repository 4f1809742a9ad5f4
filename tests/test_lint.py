"""The tree stays lint-clean, formatted and strictly typed: ``ruff`` and ``mypy`` run as
tests from the repository root, with the settings in pyproject.toml, so CI (which installs
``.[test]``) fails on a new finding."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TYPED = ("referee", "events", "projections", "service", "cli", "web", "tests", "benchmarks")


def run_module(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m module args...`` from the repository root; skipped when not installed."""
    pytest.importorskip(module, reason=f"{module} is not installed (pip install -e '.[test]')")
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_ruff_check_is_clean() -> None:
    result = run_module("ruff", "check", ".")
    assert result.returncode == 0, f"ruff check .:\n{result.stdout}{result.stderr}"


def test_ruff_format_is_clean() -> None:
    result = run_module("ruff", "format", "--check", ".")
    assert result.returncode == 0, f"ruff format --check .:\n{result.stdout}{result.stderr}"


@pytest.mark.slow  # a minute of CPU from cold (a fresh checkout, CI): the full suite's side
def test_mypy_strict_is_clean() -> None:
    # about a minute from cold; .mypy_cache (in the root, ignored by git) makes reruns quick
    result = run_module("mypy", "--strict", *TYPED)
    assert result.returncode == 0, (
        f"mypy --strict {' '.join(TYPED)}:\n{result.stdout}{result.stderr}"
    )


def test_the_pre_commit_hooks_run_the_checks_ci_runs() -> None:
    """``.pre-commit-config.yaml`` runs ruff, ruff format, mypy over the same packages as
    above, and lint-imports, each the installed tool (so the pinned version)."""
    config = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    for entry in ("ruff check", "ruff format", "lint-imports", "mypy --strict " + " ".join(TYPED)):
        assert f"entry: {entry}" in config, entry
    assert config.count("language: system") == 4

"""The README's quick start for each game runs as written (issue 24): every ``sh`` block
marked ``<!-- quickstart -->`` is run by bash in a fresh folder holding the checkout's
``fixtures/``, with the ``referee`` command of this environment."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.games import BUILT_IN

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"<!-- quickstart -->\n```sh\n(.*?)```", re.S)


def quickstarts() -> list[str]:
    return BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_has_a_quick_start_for_each_game() -> None:
    games = {m for block in quickstarts() for m in re.findall(r"referee new (\w+)", block)}
    assert games == set(BUILT_IN)


def blocks() -> list[Any]:
    """Every quick start; the first in the quick loop, the rest in the full suite only (each
    block is 6 to 12 ``referee`` processes, some 3 s of CPU; -m "not slow" kept 28 s of them)."""
    return [
        pytest.param(block, id=block.split()[2], marks=() if n == 0 else pytest.mark.slow)
        for n, block in enumerate(quickstarts())
    ]


@pytest.mark.parametrize("block", blocks())
def test_a_readme_quick_start_runs_as_written(block: str, tmp_path: Path) -> None:
    assert shutil.which("bash"), "bash runs the README's blocks"
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", block],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr
    assert "rejected" not in done.stderr
    assert (tmp_path / "referee.db").exists()

"""The referee command on the perft table's positions, driven as a user drives it, against
the independent reference model (``tests/prizmik/reference.py``).

Here each position becomes a stored game (``referee perft`` and ``legal --position``,
which count and list from the string alone, are tested in ``test_prizmik_perft_cli.py``):
``new --from-position`` (PZ-9.5) with the table's ``--variant`` switches, ``show --fen``
and ``show --json``, ``legal`` and ``legal --json``, and ``act`` (with ``--dry-run``).
Each position of ``fixtures/prizmik/perft.json`` is set up that way and must read back as
the reference writes it, list the reference's legal actions, refuse the actions the
reference refuses naming a PZ clause, and, one action deeper, reach the reference's
positions and results and add up to the table's count two actions deep.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from tests.prizmik import reference as ref
from tests.prizmik.helpers import ROOT
from tests.prizmik.oracle import perft_table, table_of

POSITIONS = perft_table()

runner = CliRunner()


def call(db: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", str(db), "--referee", "Rita", *args])
    return result.exit_code, result.stdout, result.stderr


def done(db: Path, *args: str) -> str:
    code, out, err = call(db, *args)
    assert code == 0, (args, err)
    return out


def set_up(db: Path, entry: dict[str, Any]) -> str:
    """A new game from the entry's position line under its variants, as a user starts one."""
    switches = [arg for k, v in entry["variants"].items() for arg in ("--variant", f"{k}={v}")]
    line = entry["line"]
    return done(
        db,
        "new",
        "prizmik",
        "-p",
        "red=Ruby",
        "-p",
        "blue=Cobalt",
        *switches,
        "--from-position",
        line,
    ).strip()


def model_of(entry: dict[str, Any]) -> ref.Position:
    return ref.read_line(entry["line"], table_of(entry["variants"]))


def shown(db: Path, game: str, model: ref.Position) -> None:
    """``show --fen``, ``show --json``, ``legal --json`` and ``legal`` say what the reference
    says of ``model``."""
    assert done(db, "show", game, "--fen").strip() == ref.position_line(model)
    outcome = json.loads(done(db, "show", game, "--json"))["position"]["outcome"]
    over = outcome["status"] != "ongoing"
    assert ((outcome["status"], outcome["winner"], outcome["clause"]) if over else None) == (
        model.ended
    )
    legal = json.loads(done(db, "legal", game, "--json"))
    assert set(legal["actions"]) == ref.actions(model)
    assert legal["to_move"] == (None if model.ended else model.to_act)
    plain = done(db, "legal", game).splitlines()
    if model.ended:
        assert plain == ["no legal entries: no seat may act"]
    else:
        assert plain[0] == f"{len(ref.actions(model))} legal entries for {model.to_act}:"
        assert set(" ".join(plain[1:]).split()) == ref.actions(model)


def near_misses(model: ref.Position) -> list[str]:
    """Each legal action written with the other two signs, where the reference refuses it."""
    legal = ref.actions(model)
    return sorted({t[:2] + s + t[3:] for t in legal for s in ">-x"} - legal)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_pz_9_5_the_command_reads_each_position_as_the_reference(db_path: Path, name: str) -> None:
    """PZ-9.5 and PZ-10.16 through the command: the position, its result, its legal actions
    (PZ-4 to PZ-6), and the refusal of near misses naming a clause (PZ-9.4 and the rest)."""
    entry = POSITIONS[name]
    model = model_of(entry)
    game = set_up(db_path, entry)
    shown(db_path, game, model)
    assert len(ref.actions(model)) == entry["perft"]["1"]
    for text in sorted(ref.actions(model))[:6]:
        verdict = json.loads(done(db_path, "act", game, text, "--dry-run", "--json"))
        assert (verdict["status"], verdict["stored"]) == ("legal", False), text
    for text in near_misses(model)[:12]:
        code, out, err = call(db_path, "act", game, text, "--dry-run")
        assert code == 1, (text, out)
        assert "PZ-" in err, text


def two_deep(db: Path, entry: dict[str, Any]) -> int:
    """Perft two actions deep through the command: for each legal action a game of its own
    from the line, the action recorded, the position and result after it compared with the
    reference's, and the legal actions there counted."""
    model = model_of(entry)
    total = 0
    for text in sorted(ref.actions(model)):
        after = ref.play(model, text)
        game = set_up(db, entry)
        out = done(db, "act", game, text)
        assert out.startswith(f"recorded {text} by {model.to_act}"), out
        assert ("game over:" in out) == (after.ended is not None), (text, out)
        shown(db, game, after)
        total += len(json.loads(done(db, "legal", game, "--json"))["actions"])
    return total


ENDINGS = ["last base", "last ship", "no legal action", "closed files, impossible_test=files"]


@pytest.mark.parametrize("name", ENDINGS)
def test_pz_8_perft_two_deep_through_the_command_near_the_endings(db_path: Path, name: str) -> None:
    """PZ-8.1, PZ-8.2, PZ-10.6 and PZ-10.13 reached by ``act`` as by the reference."""
    assert two_deep(db_path, POSITIONS[name]) == POSITIONS[name]["perft"]["2"]


@pytest.mark.slow  # some thousand commands, about ten seconds
@pytest.mark.parametrize("name", [n for n in POSITIONS if n not in ENDINGS])
def test_pz_9_5_perft_two_deep_through_the_command(db_path: Path, name: str) -> None:
    entry = POSITIONS[name]
    if "2" in entry["perft"]:
        assert two_deep(db_path, entry) == entry["perft"]["2"]


def test_pz_9_5_the_installed_command_lists_the_reference_s_actions(tmp_path: Path) -> None:
    """The same through a process of its own, as from a shell: ``new --from-position`` and
    ``legal --json`` on the promotions position under waiting_promotion=yes."""
    entry = {**POSITIONS["promotions, blue to act"], "variants": {"waiting_promotion": "yes"}}
    base = [sys.executable, "-m", "cli.main", "--db", str(tmp_path / "s.db")]

    def run(*args: str) -> str:
        done_ = subprocess.run([*base, *args], cwd=ROOT, capture_output=True, text=True)
        assert done_.returncode == 0, done_.stderr
        return done_.stdout

    game = run(
        "new", "prizmik", "-p", "red=Ruby", "-p", "blue=Cobalt", "--variant",
        "waiting_promotion=yes", "--from-position", entry["line"],
    ).strip()  # fmt: skip
    listed = json.loads(run("legal", game, "--json"))
    assert set(listed["actions"]) == ref.actions(model_of(entry))
    assert run("show", game, "--fen").strip() == entry["line"]

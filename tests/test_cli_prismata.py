"""Prismata through the referee command: setup, units, reference import with comparison."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "prismata" / "reference"


def call(db: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", str(db), *args])
    return result.exit_code, result.stdout, result.stderr


def new_prismata(db: Path, *options: str) -> tuple[int, str, str]:
    """``referee new prismata`` for Ann and Ben with ``options``."""
    return call(db, "new", "prismata", "-p", "p1=Ann", "-p", "p2=Ben", *options)


def test_new_prismata_game_records_the_drawn_set(db_path: Path) -> None:
    code, out, err = new_prismata(db_path, "--seed", "42", "--random-size", "5")
    assert code == 0, err
    game = out.strip()
    code, out, _ = call(db_path, "log", game, "--json")
    created = json.loads(out)[0]
    assert created["options"]["seed"] == 42
    assert len(created["options"]["units"]) == 5
    assert created["ruleset"] == "prismata/2026-03"
    code, out, _ = call(db_path, "legal", game, "--json")
    assert "end" in json.loads(out)["actions"]
    code, out, _ = call(db_path, "act", game, "click #1")
    assert code == 0, out
    code, _, err = call(db_path, "act", game, "buy Wall")
    assert code == 1
    assert "PM-" in err


def test_explicit_units_and_2020_catalog(db_path: Path) -> None:
    code, out, err = new_prismata(
        db_path, "--catalog", "prismata/2020", "--units", "Tarsier,Shadowfang"
    )
    assert code == 2
    assert "Tarsier is in the base set" in err
    code, out, err = new_prismata(
        db_path, "--catalog", "prismata/2020", "--units", "Shadowfang,Xaetron"
    )
    assert code == 0, err
    code, out, _ = call(db_path, "show", out.strip(), "--json")
    data = json.loads(out)
    assert data["ruleset"] == "prismata/2020"
    code, out, err = new_prismata(db_path, "--units", "No Such Unit")
    assert code == 2
    assert "No Such Unit" in err


def test_units_lists_catalog_by_display_name() -> None:
    result = runner.invoke(app, ["units", "prismata", "--json"])
    names = {row["name"] for row in json.loads(result.stdout)}
    assert len(names) == 116
    assert {"Tarsier", "Wall", "Drone"} <= names
    result = runner.invoke(app, ["units", "prismata", "--catalog", "prismata/2020", "--json"])
    assert len(json.loads(result.stdout)) == 104


def test_reference_import_compare_and_verify(db_path: Path) -> None:
    files = sorted(str(p) for p in FIXTURES.glob("*/*.json.gz"))
    assert len(files) >= 10
    code, out, err = call(db_path, "import", "--format", "prismata-reference", "--compare", *files)
    assert code == 0, err
    assert f"{len(files)}/{len(files)} games agree" in err
    code, out, _ = call(db_path, "verify")
    assert code == 0
    assert f"verified {len(files)} games" in out
    code, _, err = call(db_path, "import", "--format", "prismata-reference", files[0])
    assert code == 2
    assert "already in the store" in err


def test_a_file_that_is_no_reference_game_is_refused_in_one_line(
    db_path: Path, tmp_path: Path
) -> None:
    # it printed "bad.json: error: ..." and then "imported 0/1 games"
    bad = tmp_path / "bad.json"
    bad.write_text("not json {")
    code, out, err = call(db_path, "import", "--format", "prismata-reference", str(bad))
    assert code == 2
    assert out == ""
    assert err.startswith(f"error: {bad}: not a reference-engine game file"), err
    assert len(err.splitlines()) == 1, err
    assert not db_path.exists()

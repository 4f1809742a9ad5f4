"""``referee perft`` and ``referee legal --position``: counts and lists from a position
string alone, as an outside checker asks for them, against the independent reference model
(``tests/prizmik/reference.py``) on the positions of ``fixtures/prizmik/perft.json``.

Each case runs the command in a folder holding no store and gives no ``--db``: the answer
must come from the rules alone, and no store file may appear, whether the command answers
or refuses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from referee import games
from referee.capabilities import adjustments_of, decks_of
from tests.prizmik import reference as ref
from tests.prizmik.oracle import perft_table, reference_perft, table_of

POSITIONS = perft_table()
START = POSITIONS["start"]["line"]
QUICK = 2_500
"""The most leaves a case counts (a few hundredths of a second in the reference)."""

runner = CliRunner()


@pytest.fixture(autouse=True)
def no_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every command here runs in an empty folder with no store named; none may make one."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_DB", raising=False)
    monkeypatch.delenv("REFEREE_SERVER", raising=False)
    yield
    assert list(tmp_path.iterdir()) == [], "a position command wrote a file"


def call(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def switches(entry: dict[str, Any]) -> list[str]:
    return [arg for k, v in entry["variants"].items() for arg in ("--variant", f"{k}={v}")]


def deepest_quick(entry: dict[str, Any]) -> int:
    """The deepest stored count of ``entry`` up to 3 actions and ``QUICK`` leaves."""
    quick = [int(d) for d, n in entry["perft"].items() if int(d) <= 3 and n <= QUICK]
    return max(quick, default=1)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_pz_9_5_perft_divide_matches_the_reference(name: str) -> None:
    """PZ-4 to PZ-8 and PZ-10 through counts: the command's total is the table's (counted by
    the reference alone), each first action's count is the reference's count below it, and
    the divide adds up to the total."""
    entry = POSITIONS[name]
    depth = deepest_quick(entry)
    code, out, err = call(
        "perft", entry["line"], *switches(entry), "--depth", str(depth), "--divide", "--json"
    )
    assert code == 0, err
    counted = json.loads(out)
    assert counted["nodes"] == entry["perft"][str(depth)]
    assert (counted["position"], counted["depth"], counted["game"]) == (
        entry["line"],
        depth,
        "prizmik",
    )
    model = ref.read_line(entry["line"], table_of(entry["variants"]))
    expected = (
        {text: reference_perft(ref.play(model, text), depth - 1) for text in ref.actions(model)}
        if model.ended is None
        else {}
    )
    assert counted["divide"] == expected
    assert sum(counted["divide"].values()) == counted["nodes"]


def test_pz_4_1_perft_text_prints_each_first_action_then_the_total() -> None:
    """The start three actions deep: 1071 (the hand count of test_prizmik_perft.py), the
    divide one ``ACTION: N`` line per opening, summing to it."""
    code, out, _ = call("perft", START, "-d", "3", "--divide")
    assert code == 0
    lines = out.splitlines()
    assert lines[-1] == "nodes 1071 at depth 3"
    divide = dict(line.split(": ") for line in lines[:-2])
    assert sorted(divide) == sorted(ref.actions(ref.start()))
    assert sum(map(int, divide.values())) == 1071
    assert divide["g1>g2"] == "162"  # 18 red replies to each of blue's 9 (the hand check)
    code, out, _ = call("perft", START, "-d", "3")
    assert out == "nodes 1071 at depth 3\n"


def test_pz_8_1_perft_counts_one_at_depth_0_and_nothing_below_an_ended_game() -> None:
    over = POSITIONS["over when read: no base"]["line"]
    assert json.loads(call("perft", over, "--json", "-d", "0")[1])["nodes"] == 1
    counted = json.loads(call("perft", over, "--json", "-d", "2")[1])
    assert (counted["nodes"], counted["divide"]) == (0, {})
    assert json.loads(call("perft", START, "--json", "-d", "0")[1])["nodes"] == 1


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("8/8/8/3x4/8/8/8/B7 r",), "BOARD SIDE RESERVES PLY QUIET"),
        (("2f1f1f1/8/8/8/8/8/8/2F1F1F1 g 3/3 0 0",), "side to move"),
        ((START, "--variant", "setup_files=zzz"), "setup_files"),
        ((START, "--variant", "colour=green"), "no variant"),
        ((START, "--game", "chess"), "unknown game"),
        ((START, "--depth", "-1"), "-1"),
    ],
)
def test_pz_9_5_a_bad_position_or_option_is_refused_in_one_line(
    args: tuple[str, ...], says: str
) -> None:
    """A position string the game cannot read (PZ-9.5), a switch it does not have, an
    unknown game or a negative depth: exit 2, one line on standard error, nothing printed
    (and no store file: the fixture checks the folder)."""
    code, out, err = call("perft", *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert says in err
    assert call("--db", "named.db", "perft", *args)[0] == 2  # a store named is not made either


@pytest.mark.parametrize("game", ["crystale", "gammasphere", "prismatic"])
def test_a_game_whose_entries_cannot_all_be_listed_is_refused_saying_why(game: str) -> None:
    """Hidden hands and pools, sealed bids, card text a referee rules on: their legal lists
    are not every continuation, so a count would mean nothing; refused before the position
    is read, naming the reason, also under --json."""
    code, out, err = call("perft", "{}", "--game", game, "--depth", "2")
    assert (code, out) == (2, "")
    assert err.strip().splitlines() == [
        f"error: {game}'s continuations cannot be counted: {games.load(game).uncountable}"
    ]
    assert "hidden" in err or "sealed" in err
    code, out, err = call("perft", "{}", "--game", game, "--json")
    assert code == 2
    assert json.loads(err)["exit"] == 2


def test_exactly_the_games_with_no_hidden_information_or_rulings_are_countable() -> None:
    """PRIZMIK and Prismata show every viewer the whole position and carry out every effect
    themselves (no decks, no adjustments, nothing sealed); the other three do not."""
    countable = {name for name in games.BUILT_IN if not games.load(name).uncountable}
    assert countable == {"prizmik", "prismata"}
    for name in countable:
        rules = games.load(name)
        assert decks_of(rules) is None, name
        assert adjustments_of(rules) is None, name
        assert not rules.seals_entries, name
        assert not rules.hidden_zones, name


def test_pm_i_9_prismata_counts_what_its_legal_list_gives() -> None:
    """A Prismata position string (its state's JSON) is counted too: one action deep, as
    many as ``legal --position`` lists (PM-I.9: interchangeable units listed once)."""
    from referee.contract import Player, Setup

    rules = games.load("prismata")
    setup = rules.resolve_setup(
        Setup(players=(Player("p1", "Ann"), Player("p2", "Ben")), options={"seed": 3})
    )
    line = rules.position_text(rules.initial_state(setup))
    listed = json.loads(call("legal", "--position", line, "--game", "prismata", "--json")[1])
    counted = json.loads(call("perft", line, "--game", "prismata", "--json", "-d", "2")[1])
    assert sorted(counted["divide"]) == sorted(listed["actions"])
    assert sum(counted["divide"].values()) == counted["nodes"] > len(listed["actions"])


@pytest.mark.parametrize("name", ["start", "tactical, blue to act", "over when read: no base"])
def test_pz_9_5_legal_position_lists_the_reference_s_actions(name: str) -> None:
    entry = POSITIONS[name]
    model = ref.read_line(entry["line"], table_of(entry["variants"]))
    code, out, err = call("legal", "--position", entry["line"], *switches(entry), "--json")
    assert code == 0, err
    listed = json.loads(out)
    wanted = set() if model.ended is not None else ref.actions(model)
    assert set(listed["actions"]) == wanted
    assert len(listed["actions"]) == len(wanted)
    assert listed["position"] == entry["line"]
    code, out, _ = call("legal", "--position", entry["line"], *switches(entry))
    assert code == 0
    assert out.startswith(f"{len(wanted)} legal entries for" if wanted else "no legal entries")


def test_perft_help_teaches_with_an_example_and_names_every_game() -> None:
    code, out, _ = call("perft", "--help")
    assert code == 0
    assert "referee perft '2f1f1f1/8/8/8/8/8/8/2F1F1F1 r 3/3 0 0' --depth 3" in out
    assert all(name in out for name in games.BUILT_IN)


def test_legal_position_by_the_seat_not_to_act_lists_nothing() -> None:
    listed = json.loads(call("legal", "--position", START, "--by", "blue", "--json")[1])
    assert (listed["to_act"], listed["actions"]) == (["red"], [])


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("legal", "abcd", "--position", START), "not both"),
        (("legal",), "--position"),
        (("legal", "--position", "8/8 r"), "PZ-9.5"),
        (("legal", "--position", START, "--by", "green"), "green"),
    ],
)
def test_legal_position_misuse_is_refused_in_one_line(args: tuple[str, ...], says: str) -> None:
    code, out, err = call(*args)
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1
    assert says in err

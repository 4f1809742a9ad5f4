"""Public records and disputes (issue 24): a public text record re-imports as a public
record (REF-8.1), the audit of a dispute on a retracted entry (REF-4.1), where the replay
shows a dispute, and a Prismatic bid sealed until its round is complete (PX-14.1)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

ROOT = Path(__file__).resolve().parent.parent
TILES = "IIIIIIIIIIIIIFIWIIIIIIEIIIIII"


def call(db: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["--db", str(db), "--referee", "Rita", *args])
    return result.exit_code, result.stdout, result.stderr


def act(db: Path, game: str, *entries: str) -> None:
    for entry in entries:
        code, _, err = call(db, "act", game, entry)
        assert code in (0, 1), err  # 1: a rejection, kept as evidence


def new(db: Path, *args: str) -> str:
    code, out, err = call(db, "new", *args)
    assert code == 0, err
    return out.strip()


def gammasphere_with_a_rejection(db: Path) -> str:
    decks = ROOT / "fixtures/gammasphere/decks"
    game = new(
        db,
        *("gammasphere", "-p", "p1=Ann", "-p", "p2=Ben"),
        *("--deck", f"p1={decks / 'ann.txt'}", "--deck", f"p2={decks / 'ben.txt'}"),
    )
    act(db, game, "p1: draw 7", "p2: draw 7", "draw", "play Gamma Trooper", "play Ion Lancer")
    return game


def crystale_with_a_rejection(db: Path) -> str:
    sealed = []
    for seat, pool in (("p1", "fire.txt"), ("p2", "water.txt")):
        code, out, err = call(db, "deck", "seal", str(ROOT / "fixtures/crystale/pools" / pool))
        assert code == 0, err
        sealed += ["--sealed", out.split("--sealed SEAT=", 1)[1].split()[0].join([f"{seat}=", ""])]
    game = new(db, "crystale", "-p", "p1=Ann", "-p", "p2=Ben", *sealed, "--tiles", TILES)
    for entry, seat in [
        ("first p1", "p2"),
        ("summoner Vulkara Emberqueen", "p1"),
        ("summoner Thalassa Tidecaller", "p2"),
        ("pull 6", "p1"),
        ("pull 6", "p2"),
        ("show Pyrelance Archer, Cinderpup, Cinderpup", "p1"),
        ("show Reefling, Kelpie Skirmisher, Reefling", "p2"),
    ]:
        code, _, err = call(db, "act", game, entry, "--by", seat)
        assert code == 0, err
    act(db, game, "pull", "summon Cinderpup @c2", "summon Pyrelance Archer @c2")
    return game


def round_trip(tmp_path: Path, game: str, hidden: tuple[str, ...]) -> tuple[str, str]:
    """The public record of ``game``, and the public record of that record imported."""
    db = tmp_path / "store.db"
    record = tmp_path / "public.txt"
    code, _, err = call(db, "export", game, "--format", "text", "--as", "public", "-o", str(record))
    assert code == 0, err
    text = record.read_text()
    assert '[View "public"]' in text
    assert "{rejected " in text
    assert "(hidden)" in text
    for name in hidden:
        assert name not in text.split("{rejected ", 1)[1]  # the rejection names no hidden card
    other = tmp_path / "other.db"
    code, out, err = call(other, "import", str(record))
    assert code == 0, err
    assert "refused 0" in err + out, err
    code, out, err = call(other, "verify", game)
    assert code == 0, out + err
    assert "all intact" in out + err, out + err
    code, again, err = call(other, "export", game, "--format", "text")
    assert code == 0, err
    return text, again


@pytest.mark.parametrize(
    ("played", "hidden", "stated"),
    [
        pytest.param(
            gammasphere_with_a_rejection,
            "Ion Lancer",
            '{rejected "play (hidden)" by "p1" for 5: '
            # the public reads the section, not which of its clauses the hidden card broke
            'GS-6 "a hidden card costs 1 jiggawatt; p1 has 0 untapped pylons"}',
            id="gammasphere",
        ),
        pytest.param(
            crystale_with_a_rejection,
            "Pyrelance Archer @c2",
            '{rejected "summon (hidden) @c2" by "p1" for 10: CR-7.3 ',
            id="crystale",
        ),
    ],
)
def test_ref_8_1_a_public_record_re_imports_with_its_rejection_as_stated(
    tmp_path: Path, played: Callable[[Path], str], hidden: str, stated: str
) -> None:
    game = played(tmp_path / "store.db")
    text, again = round_trip(tmp_path, game, (hidden,))
    # the same record: the hidden lists stay sizes, the rejection keeps its clause and reason
    assert again == text
    (rejected,) = [line for line in again.splitlines() if line.startswith("{rejected")]
    assert rejected.startswith(stated)


def test_ref_8_1_a_referee_record_still_judges_its_rejections_again(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    game = gammasphere_with_a_rejection(db)
    _, text, _ = call(db, "export", game, "--format", "text")
    assert "[View " not in text
    # a referee's record whose rejection the rules judge otherwise is refused, as before
    forged = text.replace('GS-6.3 "Ion Lancer costs', 'GS-6.4 "Ion Lancer costs')
    assert forged != text
    (tmp_path / "forged.txt").write_text(forged)
    code, _, err = call(tmp_path / "other.db", "import", str(tmp_path / "forged.txt"))
    assert code != 0
    assert "the rules now cite GS-6.3" in err


def test_ref_8_1_a_public_record_of_a_sealed_list_opened_re_imports(tmp_path: Path) -> None:
    """A public record withholds the list and salt a seat opened (REF-5.3); its import took
    the withheld line for an empty decklist and refused the whole record. The public copy
    keeps the list sealed; a referee's record with an opening that names no list is refused."""
    db = tmp_path / "store.db"
    ben = ROOT / "fixtures/gammasphere/decks/ben.txt"
    code, out, err = call(db, "deck", "seal", str(ben))
    assert code == 0, err
    commitment = out.split("--sealed SEAT=", 1)[1].split()[0]
    salt = out.rsplit(": ", 1)[1].strip()
    decks = ROOT / "fixtures/gammasphere/decks"
    game = new(
        db,
        *("gammasphere", "-p", "p1=Ann", "-p", "p2=Ben"),
        *("--deck", f"p1={decks / 'ann.txt'}", "--sealed", f"p2={commitment}"),
    )
    act(db, game, "p1: draw 7", "p2: draw 7", "draw", "play Gamma Trooper", "play Ion Lancer")
    code, out, err = call(db, "deck", "open", game, "p2", str(ben), "--salt", salt)
    assert code == 0, out + err
    text, again = round_trip(tmp_path, game, ("Ion Lancer",))
    assert '{opened "p2" "" salt ""}' in text
    assert "Aegis Plating" not in text  # p2's list stays the seat's
    assert '{opened "p2"' not in again  # nothing of the opening reached the public copy
    code, shown, err = call(tmp_path / "other.db", "show", game)
    assert code == 0, err
    assert "sealed list of 40 cards (not opened)" in shown
    _, referees, _ = call(db, "export", game, "--format", "text")
    (opened,) = [line for line in referees.splitlines() if line.startswith('{opened "p2"')]
    forged = referees.replace(opened, '{opened "p2" "" salt ""}')
    (tmp_path / "forged.txt").write_text(forged)
    code, _, err = call(tmp_path / "third.db", "import", str(tmp_path / "forged.txt"))
    assert code == 2
    assert "REF-5.3: an opening in the referee's record names the list opened" in err


def test_ref_8_1_is_written_as_an_interpretation() -> None:
    code, out, _ = call(ROOT / "unused.db", "rules", "procedure", "--json")
    if code != 0:  # the procedure's clauses are listed with any game's rulebook
        code, out, _ = call(ROOT / "unused.db", "rules", "gammasphere", "--json")
    assert code == 0
    assert "REF-8.1" in out
    assert json.loads(out)


# -- the audit of a dispute on a retracted entry says it was retracted (REF-2.1, REF-4.1) ---


def prizmik(db: Path) -> str:
    return new(db, "prizmik", "-p", "red=Alice", "-p", "blue=Bob")


def entry_event(db: Path, game: str, entry: str, *extra: str) -> int:
    code, out, err = call(db, "act", game, entry, *extra)
    assert code == 0, err
    return int(out.rsplit("(event ", 1)[1].split(")")[0])


def test_ref_4_1_the_audit_of_a_dispute_on_a_retracted_first_entry_says_so(
    db_path: Path,
) -> None:
    game = prizmik(db_path)
    first = entry_event(db_path, game, "e1>e2")
    assert call(db_path, "undo", game, "--reason", "misheard")[0] == 0
    assert (
        call(db_path, "dispute", game, "--event", str(first), "--by", "Bob", "--claim", "x")[0] == 0
    )
    code, out, err = call(db_path, "audit", game)
    assert code == 0, err
    decision = out.split("Disputed decision", 1)[1].split("Position before it", 1)[0]
    assert "1. red e1>e2" in decision
    assert "retracted in event 3 by Rita" in decision
    assert ": misheard" in decision
    code, out, _ = call(db_path, "audit", game, "--json")
    retracted = json.loads(out)["disputes"][0]["disputed"]["retracted"]
    assert retracted["event"] == 3
    assert retracted["reason"] == "misheard"


def test_ref_4_1_a_retraction_after_the_dispute_reaches_its_audit(db_path: Path) -> None:
    game = prizmik(db_path)
    first = entry_event(db_path, game, "e1>e2")
    assert (
        call(db_path, "dispute", game, "--event", str(first), "--by", "Bob", "--claim", "x")[0] == 0
    )
    assert "retracted" not in call(db_path, "audit", game)[1].split("Position before", 1)[0]
    assert call(db_path, "undo", game, "--reason", "misheard")[0] == 0
    code, out, err = call(db_path, "audit", game, "--json")
    assert code == 0, err
    assert json.loads(out)["disputes"][0]["disputed"]["retracted"]["event"] == 4


def test_an_audit_of_a_standing_entry_names_no_retraction(db_path: Path) -> None:
    game = prizmik(db_path)
    first = entry_event(db_path, game, "e1>e2")
    assert (
        call(db_path, "dispute", game, "--event", str(first), "--by", "Bob", "--claim", "x")[0] == 0
    )
    _, out, _ = call(db_path, "audit", game, "--json")
    assert json.loads(out)["disputes"][0]["disputed"]["retracted"] is None


# -- the replay shows a dispute on the action it disputes, not at the end -----------------


def _disputed_then_replayed(
    db: Path, game: str, entries: list[tuple[str, tuple[str, ...]]], by: str = "Ben"
) -> None:
    """Enter ``entries``, dispute the first, and check the replay notes the dispute on it."""
    numbers = [entry_event(db, game, entry, *extra) for entry, extra in entries]
    disputed = numbers[0]
    code, _, err = call(db, "dispute", game, "--event", str(disputed), "--by", by, "--claim", "no")
    assert code == 0, err
    code, out, err = call(db, "replay", game, "--json")
    assert code == 0, err
    frames = json.loads(out)
    on = {f["event"]: f["disputes"] for f in frames}
    assert on[disputed] == [f"dispute 1 on event {disputed} by {by}: no"]
    assert all(not f["disputes"] for f in frames if f["event"] != disputed)
    assert not any("dispute" in note for f in frames for note in f["notes"])
    assert frames[-1]["what"] != "(end of record)"
    _, text, _ = call(db, "replay", game)
    header = f"[event {disputed}, position "
    after = text.split(header, 1)[1]
    # shown under the action it disputes, before the next action's header
    assert "(dispute 1 on event" in after.split("\n[event ", 1)[0]


def test_replay_notes_a_gammasphere_dispute_on_the_action_it_disputes(db_path: Path) -> None:
    decks = ROOT / "fixtures/gammasphere/decks"
    game = new(
        db_path,
        *("gammasphere", "-p", "p1=Ann", "-p", "p2=Ben"),
        *("--deck", f"p1={decks / 'ann.txt'}", "--deck", f"p2={decks / 'ben.txt'}"),
    )
    act(db_path, game, "p1: draw 7", "p2: draw 7", "draw")
    _disputed_then_replayed(db_path, game, [("play Gamma Trooper", ()), ("play Shale Golem", ())])


def test_replay_notes_a_prismatic_dispute_on_the_action_it_disputes(db_path: Path) -> None:
    game = new(db_path, "prismatic", "-p", "p1=Ann", "-p", "p2=Ben", "--goal", "5")
    _disputed_then_replayed(
        db_path,
        game,
        [("reveal Ember Spark", ()), ("reveal Cobalt Tear", ()), ("reveal Noon Blaze", ())],
    )


def test_replay_notes_a_prizmik_dispute_on_the_action_it_disputes(db_path: Path) -> None:
    game = prizmik(db_path)
    _disputed_then_replayed(db_path, game, [("e1>e2", ()), ("e8>e7", ()), ("c1>c2", ())], by="Bob")


def test_ref_8_1_a_public_crystale_record_of_open_pools_re_imports(tmp_path: Path) -> None:
    """A public record hides the open pools but names each Summoner the setup put on the
    board (CR-4.3), so the record re-imports to the position everyone saw."""
    db = tmp_path / "store.db"
    pools = ROOT / "fixtures/crystale/pools"
    game = new(
        db,
        *("crystale", "-p", "p1=Ann", "-p", "p2=Ben", "--tiles", TILES),
        *("--pool", f"p1={pools / 'fire.txt'}", "--pool", f"p2={pools / 'water.txt'}"),
    )
    for entry, seat in [
        ("first p1", "p2"),
        ("pull 6", "p1"),
        ("pull 6", "p2"),
        ("show Pyrelance Archer, Cinderpup, Cinderpup", "p1"),
        ("show Reefling, Kelpie Skirmisher, Reefling", "p2"),
    ]:
        assert call(db, "act", game, entry, "--by", seat)[0] == 0
    act(db, game, "pull", "summon Reefling @c2")
    text, again = round_trip(tmp_path, game, ("Reefling @c2",))
    assert again == text
    assert '{deck "p1" hidden 31 "Vulkara Emberqueen"}' in text
    assert '{deck "p2" hidden 31 "Thalassa Tidecaller"}' in text
    assert "Cinderpup\\n" not in text  # the lists themselves stay hidden


def test_px_14_1_bids_sealed_until_the_round_is_complete_then_public(tmp_path: Path) -> None:
    """A bid is hidden from the other seats and the public only while its auction round
    is open (PX-14.1); once every bid is in, records show it, so a public record of a
    finished auction imports again to the same game."""
    db = tmp_path / "store.db"
    game = new(
        db, "prismatic", "-p", "p1=Ann", "-p", "p2=Ben", "--variant", "starter_token=auction"
    )
    act(
        db,
        game,
        *("p1: reveal Ember Spark", "p1: reveal Verdant Drop", "p1: reveal Sunset Sky"),
        *("p1: choose C M", "p1: keep Noon Blaze, discard Moonrise"),
        *("p2: choose Y Y", "p2: keep Glass Kiln, discard Eclipse"),
        *("p1: draw R R G G B", "p2: draw R R G G B", "p1: pass", "p2: pass"),
        *("p1: pass", "p2: pass", "p1: bid 0"),
    )

    def notations(viewer: str) -> list[str]:
        code, out, err = call(db, "log", game, "--as", viewer, "--json")
        assert code == 0, err
        return [e["notation"] for e in json.loads(out) if e["kind"] == "action"]

    assert notations("p2")[-1] == "sealed bid"
    assert notations("public")[-1] == "sealed bid"
    assert notations("p1")[-1] == "bid 0"
    act(db, game, "p2: bid 0")  # the round is complete: both bids are revealed
    assert notations("public")[-2:] == ["bid 0", "bid 0"] == notations("p1")[-2:]
    record = tmp_path / "public.txt"
    code, _, err = call(db, "export", game, "--format", "text", "--as", "public", "-o", str(record))
    assert code == 0, err
    assert "sealed bid" not in record.read_text()
    other = tmp_path / "other.db"
    code, out, err = call(other, "import", str(record))
    assert code == 0, err
    assert "refused 0" in out + err, err
    code, out, err = call(other, "verify", game)
    assert code == 0
    assert "all intact" in out + err

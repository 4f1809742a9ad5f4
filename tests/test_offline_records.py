"""Issue 33: the offline evidence in a ``referee-text/1`` record.

Entries a table recorded offline and merged (REF-9.4), a branch kept as evidence and the
head referee's choice (REF-9.5) each have a line in the text record (docs/formats.md);
a record imports again line for line (the record's own promise), and a viewer other than
the referee reads ``(withheld)`` for another seat's offline entries, as the pages and
logs do (``events.records.redact``)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from events.interchange.text import BranchKeptLine, BranchLine, MergedLine, parse_text
from events.records import WITHHELD
from events.schema import BranchRecorded, BranchResolved, EntriesMerged
from events.store import GameStore
from service import RefereeService
from service.offline import OfflineEntryIn, SyncOutcome, merge_offline, resolve_branch

AT = datetime(2026, 11, 28, 9, 12, 3, 250_000, tzinfo=UTC)


def entry(text: str, key: str, seat: str | None = None, on: int = 0) -> OfflineEntryIn:
    return OfflineEntryIn(text=text, seat=seat, key=key, recorded_at=AT, judged=text, judged_on=on)


def game_through_an_outage(svc: RefereeService) -> str:
    """A prizmik game: a branch kept because the server cannot take an entry, two
    entries merged (REF-9.4), a branch kept because the head referee wrote meanwhile and
    the table's branch kept (REF-9.5), then another entry merged."""
    gid = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}).game_id
    svc.record(gid, "e1>e2")

    def sync(base: int, *entries: OfflineEntryIn) -> SyncOutcome:
        return merge_offline(
            svc, gid, device="laptop-3/Tom", base_version=base, entries=entries, by="Tom"
        )

    refused = sync(2, entry("e8>e7", "k1", "blue", 2), entry('e2>e3 "quoted"; x | y', "k2"))
    assert refused.outcome == "conflict"  # the server cannot take the second entry
    merged = sync(3, entry("e8>e7", "k3", "blue", 3))
    assert merged.outcome == "merged"
    assert all(r.accepted for r in merged.results)
    svc.record(gid, "e2>e3")  # the head referee writes meanwhile
    moved = sync(5, entry("e2>e3", "k4", "red", 5), entry("e7>e6", "k5", "blue", 6))
    assert moved.outcome == "conflict"
    kept = resolve_branch(svc, gid, moved.event, "table", reason="the table was right", by="Hera")
    assert all(r.accepted for r in kept)
    last = sync(svc.load(gid).version, entry("c1>c2", "k6", "red"))
    assert last.outcome == "merged"
    assert all(r.accepted for r in last.results)
    return gid


@pytest.fixture
def svc(tmp_path: Path) -> RefereeService:
    return RefereeService(GameStore(tmp_path / "hall.db"))


def text(svc: RefereeService, gid: str, viewer: str = "referee") -> str:
    return "".join(svc.export([gid], "text", viewer=viewer))


def test_the_offline_events_have_lines_that_parse_back_to_every_field(
    svc: RefereeService,
) -> None:
    gid = game_through_an_outage(svc)
    record = text(svc, gid)
    lines = [line for _, _, line in parse_text(record, "-").lines]
    merged = [x for x in lines if isinstance(x, MergedLine)]
    branches = [x for x in lines if isinstance(x, BranchLine)]
    kept = [x for x in lines if isinstance(x, BranchKeptLine)]
    events = svc.load(gid).events
    stored_merged = [e for e in events if isinstance(e, EntriesMerged)]
    stored_branches = [e for e in events if isinstance(e, BranchRecorded)]
    assert [(m.device, m.base_version, m.events, m.by, m.entries) for m in merged] == [
        (e.device, e.base_version, e.events, e.by, e.entries) for e in stored_merged
    ]
    assert [(b.entries, b.theirs, b.ours, b.reason, b.by) for b in branches] == [
        (e.entries, e.theirs, e.ours, e.reason, e.by) for e in stored_branches
    ]
    assert len(branches) == 2
    assert len(merged) == 2
    assert branches[0].entries[1].text == 'e2>e3 "quoted"; x | y'
    assert branches[0].entries[1].recorded_at == AT  # to the microsecond
    assert [(k.kept, k.reason, k.by) for k in kept] == [("table", "the table was right", "Hera")]


def test_a_record_with_offline_lines_imports_again_line_for_line(
    svc: RefereeService, tmp_path: Path
) -> None:
    gid = game_through_an_outage(svc)
    record = text(svc, gid)
    path = tmp_path / "game.txt"
    path.write_text(record)
    other = RefereeService(GameStore(tmp_path / "other.db"))
    report = other.import_files([path])
    assert report.files[0].status == "imported", report.files[0].detail
    theirs, ours = other.load(gid).events, svc.load(gid).events
    assert [type(e) for e in theirs] == [type(e) for e in ours]
    assert text(other, gid) == record
    assert other.verify(gid).bad == 0
    # the imported game answers the same branches as the hall's
    from service.offline import branches

    assert [(b.event, b.kept) for b in branches(other, gid)] == [
        (b.event, b.kept) for b in branches(svc, gid)
    ]


def test_a_choice_naming_no_branch_refuses_the_record(svc: RefereeService, tmp_path: Path) -> None:
    """REF-9.5: a ``branch-kept`` line must name an offline branch not yet chosen."""
    gid = game_through_an_outage(svc)
    record = text(svc, gid)
    kept = next(line for line in record.splitlines() if line.startswith("{branch-kept"))
    number = kept.split()[1]
    path = tmp_path / "bad.txt"
    path.write_text(record.replace(kept, kept.replace(f" {number} ", " 2 ", 1)))
    other = RefereeService(GameStore(tmp_path / "other.db"))
    report = other.import_files([path])
    assert report.files[0].status == "refused"
    assert "REF-9.5" in report.files[0].detail


def test_a_public_record_withholds_the_offline_entries_and_imports_as_stated(
    svc: RefereeService, tmp_path: Path
) -> None:
    gid = game_through_an_outage(svc)
    public = text(svc, gid, "public")
    offline = [line for line in public.splitlines() if line.startswith("{offline-")]
    assert all("e7>e6" not in line and "quoted" not in line for line in offline)
    assert all(f'"{WITHHELD}"' in line for line in offline)
    assert len(offline) == 4
    blue = text(svc, gid, "blue")  # a seat reads its own offline entries, no other's
    merged = [line for line in blue.splitlines() if line.startswith("{offline-merged")]
    assert '"e8>e7" seat "blue"' in merged[0]
    assert '"c1>c2"' not in merged[1]
    branch = [line for line in blue.splitlines() if line.startswith("{offline-branch")]
    assert '"e8>e7" seat "blue"' in branch[0]
    assert "quoted" not in branch[0]
    assert '"e7>e6" seat "blue"' in branch[1]
    assert '"e2>e3"' not in branch[1]
    path = tmp_path / "public.txt"
    path.write_text(public)
    other = RefereeService(GameStore(tmp_path / "other.db"))
    assert other.import_files([path]).files[0].status == "imported"
    assert text(other, gid) == public
    assert isinstance(other.load(gid).events[-1], EntriesMerged)
    assert any(isinstance(e, BranchResolved) for e in other.load(gid).events)

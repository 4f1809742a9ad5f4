"""The head referee's choice over a table's offline branch (REF-9.5, REF-9.6): a branch of
entries the table's own copy rejected is no choice to make, and keeping a table's branch
keeps who recorded its entries at the table."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from events.schema import BranchResolved
from events.store import GameStore
from service import RefereeService
from service.errors import InvalidCommandError
from service.offline import OfflineEntryIn, branches, merge_offline, resolve_branch
from service.outbox import _token_device

AT = datetime(2026, 11, 28, 9, 12, tzinfo=UTC)


@pytest.fixture
def svc(tmp_path: Path) -> RefereeService:
    return RefereeService(GameStore(tmp_path / "hall.db"))


def moved_game(svc: RefereeService) -> str:
    """A game the server moved (event 3) after the table's base (event 2)."""
    gid = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}, meta={"table": "4"}).game_id
    svc.record(gid, "e1>e2")
    svc.record(gid, "e8>e7", by="Hera")
    return gid


def entry(text: str, key: str, judged: str) -> OfflineEntryIn:
    return OfflineEntryIn(text=text, key=key, recorded_at=AT, judged=judged, judged_on=2)


def test_ref_9_6_a_branch_of_rejected_entries_is_no_conflict(svc: RefereeService) -> None:
    """REF-9.6: every entry rejected at the table: kept as evidence, listed for information
    (not "branches disagree"), and keeping the table's side is refused."""
    gid = moved_game(svc)
    rejected = entry("e1>e9", "k1", "rejected 'e1>e9' (PZ-4.1)")
    sent = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[rejected])
    assert sent.outcome == "conflict"  # kept whole as evidence, as any branch
    (branch,) = branches(svc, gid)
    assert branch.rejected
    view = svc.queue()
    assert view.conflicts == []
    assert [i.kind for i in view.needs] == []
    (review,) = [i for i in view.info if i.kind == "rejected-offline"]
    assert review.line.endswith(
        "to review: rejected 'e1>e9' (PZ-4.1); the game is as the server has it (REF-9.6)"
    )
    with pytest.raises(InvalidCommandError) as refused:
        resolve_branch(svc, gid, branch.event, "table", by="Hera")
    assert "REF-9.6" in str(refused.value)
    assert svc.load(gid).version == sent.event  # nothing retracted
    resolve_branch(svc, gid, branch.event, "server", reason="seen", by="Hera")
    assert [i for i in svc.queue().info if i.kind == "rejected-offline"] == []


def test_ref_9_5_a_kept_table_branch_keeps_who_recorded_it(svc: RefereeService) -> None:
    """REF-9.5: keeping the table's branch records its entries as the table's (the token
    holder who sent them), and the choice as the head referee's."""
    gid = moved_game(svc)
    mixed = [entry("e8>e7", "k1", "e8>e7"), entry("e2>e3", "k2", "e2>e3")]
    sent = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=mixed, by="Tom")
    (branch,) = branches(svc, gid)
    assert not branch.rejected
    assert [i.kind for i in svc.queue().needs] == ["conflict"]
    resolve_branch(svc, gid, sent.event, "table", reason="the table was right", by="Hera")
    events = svc.load(gid).events
    resolved = events[-1]
    assert isinstance(resolved, BranchResolved)
    assert resolved.by == "Hera"
    recorded = events[-1 - len(mixed) : -1]
    assert [getattr(e, "recorded_by", None) for e in recorded] == ["Tom", "Tom"]


class _Holder:
    """A server's answer to whoami, without a server."""

    def __init__(self, token: str | None, name: str) -> None:
        self.token, self.name = token, name

    def whoami(self) -> str:
        return self.name


def test_ref_9_4_a_laptop_with_a_token_sends_as_the_token_holder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """REF-9.4: the device a batch names is the token holder's on this machine, not the
    laptop's local --referee name; without a token it stays the local one."""
    monkeypatch.delenv("REFEREE_DEVICE", raising=False)
    monkeypatch.setattr("socket.gethostname", lambda: "vm")
    assert _token_device(_Holder("t0k", "Tom"), "vm/referee") == "vm/Tom"  # type: ignore[arg-type]
    assert _token_device(_Holder(None, "Tom"), "vm/referee") == "vm/referee"  # type: ignore[arg-type]
    monkeypatch.setenv("REFEREE_DEVICE", "laptop-7")
    assert _token_device(_Holder("t0k", "Tom"), "laptop-7") == "laptop-7"  # type: ignore[arg-type]

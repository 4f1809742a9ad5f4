"""An offline branch kept as evidence (REF-9.5) shows its lines to the referee only: another
seat's offline entry may name cards in hand, and the server's lines were made from the events
as stored, so a public record or log must not carry them (REF-5.4: a hand is its seat's)."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec

from events.records import WITHHELD, event_summary, redact
from events.schema import BranchRecorded, OfflineEntry
from referee.contract import PUBLIC, REFEREE

HIDDEN = ("Pylon", "Ion Lancer")


def branch() -> BranchRecorded:
    now = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    return BranchRecorded(
        originator_id="gammasphere-abcdefgh",
        originator_version=9,
        timestamp=now,
        prev_hash="0" * 64,
        device="table-4",
        base_version=6,
        entries=(
            OfflineEntry(text="draw Pylon, Ion Lancer", seat="p1", key="k1", recorded_at=now),
            OfflineEntry(text="play Gamma Trooper", seat="p2", key="k2", recorded_at=now),
        ),
        theirs=("p1 draws Pylon, Ion Lancer", "p2 plays Gamma Trooper"),
        ours=("7: p1 drew Ion Lancer",),
    )


def shown(event: BranchRecorded) -> str:
    return msgspec.json.encode(event).decode() + event_summary(event)


def test_the_public_sees_that_branches_disagree_but_none_of_their_lines() -> None:
    public = redact(branch(), PUBLIC)
    assert isinstance(public, BranchRecorded)
    assert not any(card in shown(public) for card in HIDDEN)
    assert [e.text for e in public.entries] == [WITHHELD, WITHHELD]
    assert len(public.ours) == 1
    assert public.base_version == 6


def test_a_seat_sees_its_own_offline_entry_only() -> None:
    mine = redact(branch(), "p2")
    assert isinstance(mine, BranchRecorded)
    assert [e.text for e in mine.entries] == [WITHHELD, "play Gamma Trooper"]
    assert not any(card in shown(mine) for card in HIDDEN)


def test_the_referee_sees_the_branches_whole() -> None:
    assert redact(branch(), REFEREE) == branch()
    assert "Ion Lancer" in shown(branch())

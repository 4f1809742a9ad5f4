"""REF-6.6: a named card an adjustment moves between hidden zones of its seat, in the
position (counted, not seen), in each viewer's copy of the event, in a text record, and
in a record made before the clause (which said no word: the zones decide, so its card is
kept hidden too), and the referee's free-text reason, which may name the card."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest

from events.interchange.text import _PATTERNS, AdjustLine, TextLine, _line
from events.kinds import kind_of_event
from events.records import event_record, event_summary, redact
from events.schema import AdjustmentRecorded
from referee.kit.adjustments import (
    MoveCard,
    as_applied,
    carried_out,
    hidden_from,
    kept_hidden,
    parse_adjustment,
)
from tests.crystale.helpers import RULES, main_phase

CARD = "Ignarok the Unbound"  # one copy in p1's registered pool, none in p2's
HIDDEN = RULES.hidden_zones


def test_only_a_named_move_between_hidden_zones_is_kept_hidden() -> None:
    assert frozenset({"pool", "hand"}) == HIDDEN  # the Higher Plane is public (CR-12.5)
    kept, unseen, public = parse_adjustment(
        f"move p1 pool>hand {CARD}; move p1 pool>hand; move p1 hand>plane {CARD}"
    )
    assert kept_hidden(kept, HIDDEN)
    assert not kept_hidden(unseen, HIDDEN)
    assert not kept_hidden(public, HIDDEN)
    assert as_applied(kept, HIDDEN, hidden=True) == MoveCard("p1", "pool", "hand")
    assert as_applied(kept, HIDDEN, hidden=False) is kept
    assert as_applied(public, HIDDEN, hidden=True) is public
    # the seat reads its own card; another seat and the public read the move
    assert hidden_from((kept, public), HIDDEN, "p1") == (kept, public)
    for viewer in ("p2", "public"):
        assert hidden_from((kept, public), HIDDEN, viewer) == (unseen, public)


def _carried(state: Any, text: str, hidden: bool) -> tuple[Any, Any]:
    return carried_out(
        RULES.check_change, RULES.apply_change, state, parse_adjustment(text), HIDDEN, hidden
    )


def test_a_hidden_search_counts_the_card_without_anyone_seeing_it() -> None:
    before = main_phase()
    side = before.sides[0]
    assert CARD in RULES.secrets(before, "p1")
    after, violation = _carried(before, f"move p1 pool>hand {CARD}", hidden=True)
    assert violation is None
    moved = after.sides[0]
    assert (moved.pool.count, moved.hand.count) == (side.pool.count - 1, side.hand.count + 1)
    assert CARD not in moved.hand.known.names()
    assert moved.knowledge is not None
    assert side.knowledge is not None
    assert moved.knowledge.seen == side.knowledge.seen
    assert CARD in RULES.secrets(after, "p1")  # still p1's: the list minus what was seen
    for viewer in ("p2", "public"):
        assert CARD not in json.dumps(RULES.observe(after, viewer))
        assert CARD not in RULES.render(after, viewer)
    # revealed, as before the clause: the table saw it
    shown, _ = _carried(before, f"move p1 pool>hand {CARD}", hidden=False)
    assert CARD in shown.sides[0].hand.known.names()
    assert CARD in json.dumps(RULES.observe(shown, "p2"))


def test_a_hidden_adjustment_cannot_name_more_copies_than_the_list_holds() -> None:
    twice = f"move p1 pool>hand {CARD}; move p1 pool>hand {CARD}"
    for hidden in (True, False):
        _, violation = _carried(main_phase(), twice, hidden)
        assert violation is not None, hidden
        assert violation.clause == "CR-12.3", (hidden, violation)


def parse_text_record_line(text: str) -> TextLine:
    found = _PATTERNS["adjust"].match(text)
    assert found is not None, text
    return _line("adjust", found.groups())


def _adjustment(revealed: Any = msgspec.UNSET) -> AdjustmentRecorded:
    changes = parse_adjustment(f"move p1 pool>hand {CARD}; resource p1 mp -10")
    return AdjustmentRecorded(
        originator_id="g",
        originator_version=9,
        timestamp=datetime(2026, 11, 29, tzinfo=UTC),
        prev_hash="",
        resolves=None,
        card="Kiln Surge",
        changes=changes,
        notation=f"move p1 pool>hand {CARD}; resource p1 mp -10",
        reason="searched the pool",
        by="Rita",
        revealed=revealed,
    )


@pytest.mark.parametrize("viewer", ["p2", "public"])
def test_each_other_viewer_reads_a_hidden_card_as_a_move(viewer: str) -> None:
    event = _adjustment(revealed=False)
    shown = redact(event, viewer, RULES)
    assert isinstance(shown, AdjustmentRecorded)
    assert CARD not in msgspec.json.encode(shown).decode()
    assert shown.notation == "move p1 pool>hand; resource p1 mp -10"
    summary = event_summary(shown)
    assert "p1 moves a hidden card from pool to hand; resource p1 mp -10" in summary
    assert CARD not in (kind_of_event(shown).text(shown) or "")  # type: ignore[union-attr]
    # without the rules to say which zones are hidden, every named move is kept
    assert CARD not in msgspec.json.encode(redact(event, viewer)).decode()


def test_the_seat_and_the_referee_read_the_card_and_a_revealed_one_is_everyones() -> None:
    event = _adjustment(revealed=False)
    for viewer in ("p1", "referee"):
        shown = redact(event, viewer, RULES)
        assert isinstance(shown, AdjustmentRecorded)
        assert shown.changes == event.changes
        assert "kept hidden" in event_summary(shown)
    revealed = _adjustment(revealed=True)
    assert redact(revealed, "p2", RULES).changes == revealed.changes  # type: ignore[attr-defined]


def test_a_record_made_before_the_clause_keeps_its_bytes_and_its_card_hidden() -> None:
    """REF-6.6: the zones decide, not the word the record lacks: a named move between
    hidden zones recorded before the clause is kept from the other viewers as well."""
    old = _adjustment()
    assert b"revealed" not in msgspec.json.encode(old)  # its hash is over the same bytes
    for viewer in ("p2", "public"):
        shown = redact(old, viewer, RULES)
        assert isinstance(shown, AdjustmentRecorded)
        assert CARD not in msgspec.json.encode(shown).decode(), viewer
        assert shown.notation == "move p1 pool>hand; resource p1 mp -10"
        assert "p1 moves a hidden card from pool to hand" in event_summary(shown)
        assert CARD not in (kind_of_event(shown).text(shown) or "")  # type: ignore[union-attr]
    for viewer in ("p1", "referee"):  # the seat and the referee read it as recorded
        assert redact(old, viewer, RULES).changes == old.changes  # type: ignore[attr-defined]
    assert "kept hidden" not in event_summary(old)  # the record said no word


def test_the_reason_of_a_hidden_adjustment_is_read_only_by_those_who_read_the_card() -> None:
    """REF-6.6: the referee's words may name the card ("searched the pool for Ignarok"):
    every other viewer reads that an adjustment happened, its card, clause and zones."""
    naming = f"p1 searched the pool for {CARD}"
    for revealed in (False, msgspec.UNSET):
        event = msgspec.structs.replace(_adjustment(revealed), reason=naming)
        for viewer in ("p2", "public"):
            shown = redact(event, viewer, RULES)
            assert isinstance(shown, AdjustmentRecorded)
            assert CARD not in json.dumps(event_record(shown)), (revealed, viewer)
            summary = event_summary(shown)
            assert CARD not in summary
            assert "REF-6.6" in summary, summary
            assert "p1 moves a hidden card from pool to hand" in summary, summary
            assert "Kiln Surge" in summary  # the effect's own card was played openly
        for viewer in ("p1", "referee"):
            assert redact(event, viewer, RULES).reason == naming  # type: ignore[attr-defined]
    # revealed to the table, or moving nothing hidden: everyone reads the reason
    shown = msgspec.structs.replace(_adjustment(True), reason=naming)
    assert redact(shown, "public", RULES).reason == naming  # type: ignore[attr-defined]
    public = msgspec.structs.replace(
        shown,
        revealed=msgspec.UNSET,
        changes=parse_adjustment("resource p1 mp -10"),
        notation="resource p1 mp -10",
    )
    assert redact(public, "p2", RULES).reason == naming  # type: ignore[attr-defined]


def test_a_text_record_carries_the_referees_word_and_an_old_line_none() -> None:
    kind = kind_of_event(_adjustment(revealed=False))
    assert kind is not None
    for revealed, word in ((False, " hidden"), (True, " revealed"), (msgspec.UNSET, "")):
        line = kind.text(_adjustment(revealed))
        assert line is not None
        assert f'for "Kiln Surge"{word}: ' in line, line
        read = parse_text_record_line(line)
        assert isinstance(read, AdjustLine)
        assert read.revealed == (None if revealed is msgspec.UNSET else revealed)
    answering = parse_text_record_line('{adjust "draw p1 1" for "X" answering 4 revealed: "r"}')
    assert isinstance(answering, AdjustLine)
    assert (answering.resolves, answering.revealed) == (4, True)

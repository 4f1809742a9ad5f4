"""PX-15.1: the notation reads every entry kind and writes it back exactly; text as typed
(PX-15.2) and text that is no entry are the contract suite's rows
(tests/contract/test_notation.py)."""

from __future__ import annotations

import msgspec
import pytest

from referee.games.prismatic.model import (
    Bid,
    BoardDraw,
    Choose,
    Colours,
    Commit,
    Create,
    CreateBoard,
    Decline,
    Discard,
    DrawCard,
    DrawMotes,
    Empty,
    Forgo,
    Keep,
    Pass,
    Pull,
    Remove,
    Reveal,
    Steal,
    Take,
    TakeMote,
    TakePool,
    TakePrisms,
    TakeText,
    Use,
)
from tests.prismatic.helpers import RULES

CANONICAL = {
    "reveal Sunset Sky": Reveal("Sunset Sky"),
    "choose C M": Choose(("C", "M")),
    "keep Noon Blaze, discard Moonrise": Keep("Noon Blaze", "Moonrise"),
    "draw R R G W K": DrawMotes(("R", "R", "G", "W", "K")),
    "draw none": DrawMotes(()),
    "commit R G 1 prism to palette": Commit(("R", "G"), 1, "palette"),
    "commit 2 prisms to Noon Blaze": Commit((), 2, "Noon Blaze"),
    "commit R to Road to Rome": Commit(("R",), 0, "Road to Rome"),
    "pass": Pass(),
    "create Sunset Sky": Create("Sunset Sky"),
    "create Sunset Sky, pool M Y": Create("Sunset Sky", ("M", "Y")),
    "create board red-mote.2": CreateBoard("red-mote.2"),
    "create board red-mote.1, pool Y": CreateBoard("red-mote.1", ("Y",)),
    "create board draw-cards.1: keep Comet Trail, discard Eclipse": CreateBoard(
        "draw-cards.1", (), BoardDraw("Comet Trail", "Eclipse")
    ),
    "create board draw-cards.1: keep Comet Trail": CreateBoard(
        "draw-cards.1", (), BoardDraw("Comet Trail")
    ),
    "create board draw-cards.1: keep none": CreateBoard("draw-cards.1", (), BoardDraw()),
    "create board discard-card.1: discard Sunset Sky": CreateBoard(
        "discard-card.1", (), Discard("Sunset Sky")
    ),
    "use Glass Kiln": Use("Glass Kiln"),
    "use Indigo Pulse: pull Y to palette": Use("Indigo Pulse", Pull("Y", "palette")),
    "use Indigo Pulse: pull Y to Noon Blaze": Use("Indigo Pulse", Pull("Y", "Noon Blaze")),
    "use Indigo Pulse: pull Y back": Use("Indigo Pulse", Pull("Y")),
    "use Indigo Pulse: pull none": Use("Indigo Pulse", Pull()),
    "use Storm Front: empty palette": Use("Storm Front", Empty("palette")),
    "use Storm Front: empty palette of p2": Use("Storm Front", Empty("palette", "p2")),
    "use Storm Front: empty Noon Blaze": Use("Storm Front", Empty("Noon Blaze")),
    "use Pale Shimmer: draw Eclipse to progress": Use(
        "Pale Shimmer", DrawCard("Eclipse", "progress")
    ),
    "use Pale Shimmer: draw Eclipse to common": Use("Pale Shimmer", DrawCard("Eclipse", "common")),
    "use Pale Shimmer: draw Eclipse to common, discard Sunset Sky": Use(
        "Pale Shimmer", DrawCard("Eclipse", "common", "Sunset Sky")
    ),
    "use Pale Shimmer: draw none": Use("Pale Shimmer", DrawCard()),
    "use Candle Works: discard Sunset Sky": Use("Candle Works", Discard("Sunset Sky")),
    "use Comet Trail: steal Noon Blaze": Use("Comet Trail", Steal("Noon Blaze")),
    "take pool Y": Take(TakePool("Y")),
    "take mote P": Take(TakeMote("P")),
    "take prism": Take(TakePrisms(1)),
    "take 3 prisms": Take(TakePrisms(3)),
    "take text": Take(TakeText()),
    "take steal Noon Blaze": Take(Steal("Noon Blaze")),
    "take draw Road to Rome to common": Take(DrawCard("Road to Rome", "common")),
    "decline": Decline(),
    "remove Noon Blaze": Remove("Noon Blaze"),
    "bid 3": Bid(3),
    "forgo": Forgo(),
    "colours p3>p1=p2": Colours((("p3",), ("p1", "p2"))),
}


@pytest.mark.parametrize("text", sorted(CANONICAL))
def test_px_15_1_every_entry_kind_reads_and_writes_back_exactly(text: str) -> None:
    action = RULES.parse(text)
    assert action == CANONICAL[text]
    assert RULES.notation(action) == text
    assert RULES.parse(RULES.notation(action)) == action


@pytest.mark.parametrize("text", sorted(CANONICAL))
def test_px_15_1_every_entry_kind_survives_the_stores_json_codec(text: str) -> None:
    action = CANONICAL[text]
    decoded = msgspec.json.decode(msgspec.json.encode(action), type=RULES.action_type)
    assert decoded == action
    assert RULES.decode_action(msgspec.json.encode(action)) == action

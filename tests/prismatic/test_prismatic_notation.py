"""PX-15.1 and PX-15.2: the notation reads every entry kind and writes it back exactly."""

from __future__ import annotations

import msgspec
import pytest

from referee.errors import ActionSyntaxError
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


@pytest.mark.parametrize(
    ("loose", "canonical"),
    [
        ("DRAW  r g R k w", "draw R R G W K"),
        ("draw RRGKW", "draw R R G W K"),
        ("draw red red green black white", "draw R R G W K"),
        ("Commit b b Prism to PALETTE", "commit B B 1 prism to palette"),
        ("commit 1 prisms to  sunset   sky", "commit 1 prism to sunset sky"),
        ("create  board Red-Mote", "create board red-mote.1"),
        ("create Sunset Sky , pool y m", "create Sunset Sky, pool M Y"),
        ("take 1 prism", "take prism"),
        ("colors p2 = p1 > p3", "colours p1=p2>p3"),
        ("use Indigo Pulse:pull y to palette", "use Indigo Pulse: pull Y to palette"),
    ],
)
def test_px_15_2_case_spacing_and_colour_names_are_tolerated(loose: str, canonical: str) -> None:
    assert RULES.notation(RULES.parse(loose)) == canonical


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty entry"),
        ("dance", "unknown entry"),
        ("draw R X", "not a mote"),
        ("draw", "name the motes"),
        ("choose R", "exactly two"),
        ("keep Noon Blaze Moonrise", "keep CARD, discard CARD"),
        ("commit R G", "commit ITEMS to"),
        ("commit to palette", "at least one"),
        ("create board", "not a board method"),
        ("create board Red Mote", "not a board method"),
        ("create Sunset Sky: steal x", "no ':' part"),
        ("use Indigo Pulse: pull", "pull X to palette"),
        ("use Indigo Pulse: jump", "not an action"),
        ("use Pale Shimmer: draw Eclipse to hand", "draw CARD to progress"),
        (
            "use Pale Shimmer: draw Eclipse to progress, discard Sunset Sky",
            "only a card drawn to the common",
        ),
        ("use Storm Front: empty palette of p9", "not a seat"),
        ("take", "needs the reward"),
        ("take 60 prisms", "1 to 50"),
        ("bid three", "whole number"),
        ("bid 60", "only 50"),
        ("colours p1", "at least two"),
        ("colours p1>p1", "named twice"),
        ("reveal Sun, Sky", "not a card name"),
    ],
)
def test_px_15_1_unreadable_text_is_refused_citing_the_notation_clause(
    text: str, fragment: str
) -> None:
    with pytest.raises(ActionSyntaxError) as raised:
        RULES.parse(text)
    assert raised.value.clause == "PX-15.1"
    assert fragment in raised.value.reason
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("text", sorted(CANONICAL))
def test_px_15_1_every_entry_kind_survives_the_stores_json_codec(text: str) -> None:
    action = CANONICAL[text]
    decoded = msgspec.json.decode(msgspec.json.encode(action), type=RULES.action_type)
    assert decoded == action
    assert RULES.decode_action(msgspec.json.encode(action)) == action

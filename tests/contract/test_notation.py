"""What every shipped game's notation does with text as people type it (the game kit, issue
34 item 7): an entry written in any case and spacing is read and recorded in its canonical
form, and text that is no entry is refused with an ``ActionSyntaxError`` (a ``ValueError``)
that cites the game's notation clause, quotes the text and says what is wrong.

Each game's forms are rows of the tables below, under the clause they test; its exact
canonical forms, one per entry kind, are tested beside it (``tests/<game>/test_*notation*``).
"""

from __future__ import annotations

import pytest

from referee import games
from referee.errors import ActionSyntaxError

READ_LOOSELY: dict[str, dict[str, str]] = {
    "prizmik": {  # PZ-9.3: case and spaces are ignored
        " C1 > c2 ": "c1>c2",
        "C2-C4": "c2-c4",
        "c4 X d5": "c4xd5",
        "c4Xd5": "c4xd5",
        "\tc 4 x d 5\n": "c4xd5",
    },
    "prismata": {  # PM-N.1: a unit typed in any case is recorded as the catalog spells it
        "buy gauss   cannon": "buy Gauss Cannon",
    },
    "prismatic": {  # PX-15.2: case, spacing and colour names are tolerated
        "DRAW  r g R k w": "draw R R G W K",
        "draw RRGKW": "draw R R G W K",
        "draw red red green black white": "draw R R G W K",
        "Commit b b Prism to PALETTE": "commit B B 1 prism to palette",
        "commit 1 prisms to  sunset   sky": "commit 1 prism to sunset sky",
        "create  board Red-Mote": "create board red-mote.1",
        "create Sunset Sky , pool y m": "create Sunset Sky, pool M Y",
        "take 1 prism": "take prism",
        "colors p2 = p1 > p3": "colours p1=p2>p3",
        "use Indigo Pulse:pull y to palette": "use Indigo Pulse: pull Y to palette",
    },
    "crystale": {  # CR-N.6: reading is tolerant and recording canonical
        "  SUMMON  Cinderpup   @B1 ": "summon Cinderpup @b1",
        "Pull 1": "pull",
        "show Cinderpup,Cinderpup ,  Reefling": "show Cinderpup, Cinderpup, Reefling",
        "ATTACK U3 U4": "attack u3 u4",
    },
    "gammasphere": {  # GS-N.1: keywords are read in any case and spacing
        "  DRAW  ": "draw",
        "Draw 1": "draw",
        "play   gamma  trooper": "play gamma trooper",
        "play Shale Golem(DEF)": "play Shale Golem (defense)",
        "play Shale Golem ( atk )  ON  #3": "play Shale Golem (attack) on #3",
        "attack 4 9": "attack #4 #9",
        "ATTACK #4 DIRECT": "attack #4 direct",
        "switch 4 DEF": "switch #4 defense",
        "activate 7 ON 9": "activate #7 on #9",
        "End": "end",
    },
}
"""Each game's entries as typed, and the canonical form each is recorded in."""

UNREADABLE = [
    # PZ-9.1: unreadable text is rejected under the notation clause
    ("prizmik", "", "PZ-9.1", "empty"),
    ("prizmik", "   ", "PZ-9.1", "empty"),
    ("prizmik", "c1c2", "PZ-9.1", "expected an origin square"),
    ("prizmik", "c1>>c2", "PZ-9.1", "expected an origin square"),
    ("prizmik", "c1 to c2", "PZ-9.1", "expected an origin square"),
    ("prizmik", "i1>c2", "PZ-9.1", "origin 'i1' is not a square"),
    ("prizmik", "c9-c2", "PZ-9.1", "origin 'c9' is not a square"),
    ("prizmik", "c1-c0", "PZ-9.1", "target 'c0' is not a square"),
    ("prizmik", "c1*c2", "PZ-9.1", "'*' is not an action sign"),
    ("prizmik", "c1=c2", "PZ-9.1", "'=' is not an action sign"),
    ("prizmik", "pass", "PZ-9.1", "expected an origin square"),
    # PM-N.1: an entry of the notation, naming units
    ("prismata", "", "PM-N.1", "empty action"),
    ("prismata", "dance", "PM-N.1", "unknown action 'dance'"),
    # PX-15.1: the notation reads every entry kind, and nothing else
    ("prismatic", "", "PX-15.1", "empty entry"),
    ("prismatic", "dance", "PX-15.1", "unknown entry"),
    ("prismatic", "draw R X", "PX-15.1", "not a mote"),
    ("prismatic", "draw", "PX-15.1", "name the motes"),
    ("prismatic", "choose R", "PX-15.1", "exactly two"),
    ("prismatic", "keep Noon Blaze Moonrise", "PX-15.1", "keep CARD, discard CARD"),
    ("prismatic", "commit R G", "PX-15.1", "commit ITEMS to"),
    ("prismatic", "commit to palette", "PX-15.1", "at least one"),
    ("prismatic", "create board", "PX-15.1", "not a board method"),
    ("prismatic", "create board Red Mote", "PX-15.1", "not a board method"),
    ("prismatic", "create Sunset Sky: steal x", "PX-15.1", "no ':' part"),
    ("prismatic", "use Indigo Pulse: pull", "PX-15.1", "pull X to palette"),
    ("prismatic", "use Indigo Pulse: jump", "PX-15.1", "not an action"),
    ("prismatic", "use Pale Shimmer: draw Eclipse to hand", "PX-15.1", "draw CARD to progress"),
    (
        "prismatic",
        "use Pale Shimmer: draw Eclipse to progress, discard Sunset Sky",
        "PX-15.1",
        "only a card drawn to the common",
    ),
    ("prismatic", "use Storm Front: empty palette of p9", "PX-15.1", "not a seat"),
    ("prismatic", "take", "PX-15.1", "needs the reward"),
    ("prismatic", "take 60 prisms", "PX-15.1", "1 to 50"),
    ("prismatic", "bid three", "PX-15.1", "whole number"),
    ("prismatic", "bid 60", "PX-15.1", "only 50"),
    ("prismatic", "colours p1", "PX-15.1", "at least two"),
    ("prismatic", "colours p1>p1", "PX-15.1", "named twice"),
    ("prismatic", "reveal Sun, Sky", "PX-15.1", "not a card name"),
    # CR-N.1 to CR-N.5: the entry's shape, tiles, units, crystal names and targets
    ("crystale", "", "CR-N.1", "the entry is empty"),
    ("crystale", "fly u3 c4", "CR-N.1", "unknown entry 'fly'"),
    ("crystale", "end now", "CR-N.1", "'end' takes nothing after it"),
    ("crystale", "first p3", "CR-N.1", "write 'first p1' or 'first p2'"),
    ("crystale", "summon Cinderpup", "CR-N.1", "write 'summon NAME @TILE'"),
    ("crystale", "pull 0", "CR-N.1", "1 to 31 crystals, not 0"),
    ("crystale", "slot", "CR-N.1", "write 'slot promote UNIT'"),
    ("crystale", "use u3", "CR-N.1", "write 'use UNIT N [@TARGET ...]'"),
    ("crystale", "move u3 f9", "CR-N.2", "'f9' is not a tile"),
    ("crystale", "summon Cinderpup @z1", "CR-N.2", "'z1' is not a tile"),
    ("crystale", "attack x3 u4", "CR-N.3", "'x3' is not a unit"),
    ("crystale", "sacrifice u0", "CR-N.3", "'u0' is not a unit"),
    ("crystale", "show Cinderpup,,Reefling", "CR-N.4", "list crystal names"),
    ("crystale", "discard", "CR-N.4", "list crystal names"),
    ("crystale", "summoner", "CR-N.4", "a crystal name is missing"),
    ("crystale", "cast Flame Lance @", "CR-N.5", "'@' is not a target"),
    ("crystale", "cast Flame Lance @zz", "CR-N.3", "'zz' is not a unit"),
    # GS-N.1: text that is no entry is refused citing the notation
    ("gammasphere", "", "GS-N.1", "empty entry"),
    ("gammasphere", "dance", "GS-N.1", "unknown entry 'dance'"),
    ("gammasphere", "end now", "GS-N.1", "'end' takes nothing"),
    ("gammasphere", "draw two", "GS-N.1", "draw N"),
    ("gammasphere", "draw 0", "GS-N.1", "1 to 99"),
    ("gammasphere", "draw 100", "GS-N.1", "1 to 99"),
    ("gammasphere", "play", "GS-N.1", "needs a card name"),
    ("gammasphere", "construct", "GS-N.1", "needs a card name"),
    ("gammasphere", "attack #4", "GS-N.1", "attack #A #T"),
    ("gammasphere", "attack #4 #x", "GS-N.1", "like #4"),
    ("gammasphere", "attack #0 #3", "GS-N.1", "run from #1"),
    ("gammasphere", "switch #4 sideways", "GS-N.1", "switch #N defense"),
    ("gammasphere", "activate", "GS-N.1", "activate #N"),
    ("gammasphere", "activate #7 at #9", "GS-N.1", "activate #N on #T"),
    ("gammasphere", "discard", "GS-N.1", "needs a card name"),
]
"""(game, text, the clause its refusal cites, a fragment of the reason)."""


@pytest.mark.parametrize("game", games.BUILT_IN)
def test_every_shipped_game_states_its_loose_and_unreadable_forms(game: str) -> None:
    assert READ_LOOSELY.get(game), f"rows of {game} in READ_LOOSELY"
    assert game in {row[0] for row in UNREADABLE}, f"rows of {game} in UNREADABLE"


@pytest.mark.parametrize(
    ("game", "loose", "canonical"),
    [
        (game, typed, shown)
        for game, forms in READ_LOOSELY.items()
        for typed, shown in forms.items()
    ],
)
def test_text_as_typed_is_read_and_recorded_in_the_canonical_form(
    game: str, loose: str, canonical: str
) -> None:
    rules = games.load(game)
    assert rules.notation(rules.parse(loose)) == canonical
    assert rules.parse(loose) == rules.parse(canonical)


@pytest.mark.parametrize(("game", "text", "clause", "fragment"), UNREADABLE)
def test_text_that_is_no_entry_is_refused_citing_the_notation(
    game: str, text: str, clause: str, fragment: str
) -> None:
    with pytest.raises(ActionSyntaxError) as refused:
        games.load(game).parse(text)
    assert refused.value.clause == clause
    assert refused.value.text == text
    assert fragment in refused.value.reason
    assert isinstance(refused.value, ValueError)

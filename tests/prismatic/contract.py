"""Prismatic's scripted games for the shared contract suite (``tests/contract/cases.py``).

1. A whole three-player game to the final score on the example catalogs (the game of
   ``fixtures/prismatic/games/01_three_players_clear_ranking.json``), with the four
   rejections the issue names: an impossible draw (PX-3.5), a creation short of its
   requirement (PX-5.4), a second use of one board method in a round (PX-7.2) and a
   pool colour spent on an ability (PX-9.5).
2. Rulings, actions and the auction: a steal taken as a reward, a pull used through an
   ability, a free-text reward answered by the referee's adjustment, sealed bids with a
   tie that both bidders forgo, and a rejected bid.
3. A four-player game on catalog files passed as text (the table ruleset), ending with
   the referee's colours judgement and a shared place.

Simultaneous steps (setup, draw, commit, bids) appear in every case, each seat named.
"""

from __future__ import annotations

from pathlib import Path

from tests.contract.cases import Act, Adjust, ContractCase, Reject, Step

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "prismatic"
MINI_CARDS = (FIXTURES / "catalogs" / "mini-cards.toml").read_text()
MINI_BOARD = (FIXTURES / "catalogs" / "mini-board.toml").read_text()


def acts(*entries: str) -> tuple[Step, ...]:
    """``p2: draw R R G`` entries as ``Act`` steps naming the seat."""
    steps: list[Step] = []
    for entry in entries:
        seat, _, text = entry.partition(": ")
        steps.append(Act(text, seat))
    return tuple(steps)


THREE_PLAYER_GAME = (
    *acts(
        "p1: reveal Ember Spark",
        "p1: reveal Verdant Drop",
        "p1: reveal Cobalt Tear",
        "p1: choose R R",
        "p1: keep Noon Blaze, discard Moonrise",
        "p2: choose G G",
        "p2: keep Glass Kiln, discard Eclipse",
        "p3: choose B W",
        "p3: keep Dye Vat, discard Starfield",
    ),
    Reject("draw Y R R R R", "PX-3.5", "p1"),
    *acts(
        "p1: draw R R R R G",
        "p2: draw R G G G G",
        "p3: draw G B B B W",
        "p1: commit R R R R G to palette",
        "p1: pass",
        "p2: commit G G G G to palette",
        "p2: commit R to Glass Kiln",
        "p2: pass",
        "p3: commit B B to palette",
        "p3: commit G B to Dye Vat",
        "p3: pass",
        "p1: create Ember Spark",
        "p1: take mote R",
        "p1: use Ember Spark",
        "p1: create board yellow-pool.1",
    ),
    Reject("create board yellow-pool.1", "PX-7.2", "p1"),
    *acts("p1: create Noon Blaze, pool R Y", "p1: take mote Y", "p1: pass"),
    Reject("create Glass Kiln", "PX-5.4", "p2"),
    *acts(
        "p2: create Verdant Drop",
        "p2: take mote G",
        "p2: pass",
        "p3: create Dye Vat",
        "p3: take mote B",
        "p3: create Cobalt Tear",
        "p3: take mote B",
        "p3: pass",
        "p1: reveal Saffron Glow",
        "p1: reveal Pale Shimmer",
        "p1: reveal Morning Haze",
        "p1: draw B B Y W K",
        "p2: draw R B B W K",
        "p3: draw R B W W K",
        "p1: commit Y to palette",
        "p1: pass",
        "p2: commit K to Glass Kiln",
        "p2: commit B W to palette",
        "p2: pass",
        "p3: commit W W to palette",
        "p3: pass",
        "p2: create Glass Kiln",
        "p2: take prism",
        "p2: create Morning Haze",
        "p2: take mote W",
        "p2: pass",
        "p3: create Pale Shimmer",
        "p3: decline",
        "p3: pass",
        "p1: use Noon Blaze",
        "p1: create Saffron Glow, pool Y",
        "p1: take prism",
        "p1: pass",
        "p2: reveal Dawn Chorus",
        "p2: reveal Candle Works",
        "p2: reveal Pigment Mill",
        "p1: draw R B B W K",
        "p2: draw R G B W",
        "p3: draw R R G B K",
        "p1: commit W to palette",
        "p1: pass",
        "p2: commit R W to palette",
        "p2: pass",
        "p3: commit K to palette",
        "p3: pass",
        "p3: pass",
        "p1: use Noon Blaze",
    ),
    Reject("use Saffron Glow", "PX-9.5", "p1"),
    *acts(
        "p1: create Dawn Chorus",
        "p1: take mote R",
        "p1: take mote W",
        "p1: pass",
        "p2: create board blue-mote.2",
        "p2: pass",
    ),
)

RULINGS_AND_AUCTION = (
    *acts(
        "p1: reveal Indigo Pulse",
        "p1: reveal Tinker's Bench",
        "p1: reveal Ember Spark",
        "p2: choose R R",
        "p1: choose K K",
        "p2: keep Glass Kiln, discard Eclipse",
        "p1: keep Noon Blaze, discard Moonrise",
        "p2: draw R R R R K",
        "p1: draw B B K K K",
        "p2: commit R K to Glass Kiln",
        "p1: commit B B K to palette",
        "p2: commit R R to palette",
        "p1: pass",
        "p2: pass",
        "p1: create Indigo Pulse",
        "p1: take steal Glass Kiln",
        "p1: pass",
        "p2: create Ember Spark",
        "p2: take mote R",
        "p2: pass",
        "p1: reveal Dusk Ochre",
        "p1: reveal Pale Shimmer",
        "p1: bid 1",
        "p2: bid 1",
    ),
    Reject("bid 1", "PX-14.2", "p1"),
    *acts(
        "p1: forgo",
        "p2: forgo",
        "p1: draw R G W K K",
        "p2: draw R B B W K",
        "p1: commit K to Indigo Pulse",
        "p1: commit R K to Glass Kiln",
        "p1: pass",
        "p2: commit B K to palette",
        "p2: pass",
        "p1: use Indigo Pulse: pull W back",
        "p1: create Glass Kiln",
        "p1: take prism",
        "p1: pass",
        "p2: create Tinker's Bench",
        "p2: take text",
    ),
    Adjust(
        "resource p2 prisms +1",
        card="Tinker's Bench",
        reason="one craft card (Tinker's Bench) in p2's creation area: one prism",
    ),
    *acts("p2: pass", "p1: reveal Comet Trail", "p1: bid 0", "p2: bid 2"),
    Reject("create Comet Trail", "PX-15.4", "p2"),
)

COLOURS_JUDGEMENT = (
    *acts("p1: reveal Red Dot"),
    Reject("reveal Red Dot", "PX-1.9", "p1"),
    *acts(
        "p1: reveal Green Dot",
        "p1: reveal Blue Dot",
        "p1: choose R G",
        "p1: keep Black Dot, discard Lamp",
        "p2: choose M W",
        "p2: keep White Dot, discard Kiln",
        "p3: choose Y Y",
        "p3: keep Yellow Dot, discard Prism Card",
        "p4: choose C K",
        "p4: keep Cyan Dot, discard Plain Card",
        "p1: draw R G B B K",
        "p2: draw R G G M W",
        "p3: draw R G G B Y",
        "p4: draw B B C W K",
        "p1: commit R G to palette",
        "p1: commit K to Black Dot",
        "p1: pass",
        "p2: commit R M to palette",
        "p2: commit W to White Dot",
        "p2: pass",
        "p3: commit R B to palette",
        "p3: commit Y to Yellow Dot",
        "p3: pass",
        "p4: commit W K to palette",
        "p4: commit C to Cyan Dot",
        "p4: pass",
        "p1: create Red Dot",
        "p1: create Green Dot",
        "p1: create Black Dot",
        "p1: pass",
        "p2: create White Dot",
        "p2: create board yellow-pool.1",
        "p2: pass",
        "p3: create Yellow Dot",
        "p3: create Blue Dot",
        "p3: create board yellow-pool.1",
        "p3: pass",
        "p4: create Cyan Dot",
        "p4: pass",
        "p1: reveal Magenta Dot",
        "p1: reveal Grey Pair",
        "p1: reveal Mixed Trio",
        "p1: draw R R G G B",
        "p2: draw R G G B B",
        "p3: draw R G G B W",
        "p4: draw R R G G B",
        "p1: pass",
        "p2: pass",
        "p3: pass",
        "p4: pass",
        "p2: create Magenta Dot",
        "p2: pass",
        "p3: pass",
        "p4: create Grey Pair",
        "p4: decline",
        "p4: pass",
        "p1: pass",
    ),
    Reject("colours p3>p1", "PX-13.2", "p2"),
    *acts("p2: colours p3>p2=p4"),
)

CASES: list[ContractCase] = [
    ContractCase(
        game="prismatic",
        name="three players to the final score",
        players={"p1": "Ann", "p2": "Ben", "p3": "Cy"},
        steps=THREE_PLAYER_GAME,
        options={"goal": "3", "starter": "p1"},
    ),
    ContractCase(
        game="prismatic",
        name="rulings, actions and the starter-token auction",
        players={"p1": "Ann", "p2": "Ben"},
        steps=RULINGS_AND_AUCTION,
        variants={"starter_token": "auction"},
        options={"goal": "3", "starter": "p1"},
    ),
    ContractCase(
        game="prismatic",
        name="catalog files and the colours judgement",
        players={"p1": "Ann", "p2": "Ben", "p3": "Cy", "p4": "Dee"},
        steps=COLOURS_JUDGEMENT,
        ruleset="prismatic/table",
        options={"goal": "3", "starter": "p1", "cards": MINI_CARDS, "board": MINI_BOARD},
    ),
]

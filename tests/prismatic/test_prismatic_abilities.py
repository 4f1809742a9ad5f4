"""Card abilities (PX-9) and the five actions (PX-10), with their interpretations."""

from __future__ import annotations

import msgspec
import pytest

from referee.errors import ActionSyntaxError
from referee.games.prismatic.model import DrawCard, Empty, Use
from tests.prismatic.helpers import (
    RULES,
    act,
    assert_illegal,
    edit,
    ms,
    play,
    player,
    resolving,
    table,
    verdict,
)


def test_px_9_1_only_created_cards_in_their_owners_turn() -> None:
    state = table(palette="R R", creation=["Glass Kiln"])
    assert_illegal(state, "p1: use Noon Blaze", "PX-9.1", "in p1's progress area")
    assert_illegal(state, "p1: use Ember Spark", "PX-9.1", "a common card")
    state = act(state, "p1: create Ember Spark")
    state = act(state, "p1: decline")
    state = act(state, "p1: use Ember Spark")  # created this very turn
    assert player(state, "p1").pool == ms("R")
    state = edit(state, "p1", creation=["Glass Kiln", "Ember Spark", "Violet Hush"])
    other = resolving(edit(state, "p2", creation=["Noon Blaze"]), "p2")
    assert_illegal(other, "p2: use Glass Kiln", "PX-9.1", "p1's creation area")


def test_px_9_2_additions_give_a_pool_colour_a_prism_or_a_mote() -> None:
    state = table(prisms=0, bag="", creation=["Ember Spark", "Dawn Chorus", "Violet Hush"])
    state = play(state, ["p1: use Ember Spark", "p1: use Dawn Chorus", "p1: use Violet Hush"])
    p1 = player(state, "p1")
    assert (p1.pool, p1.prisms, p1.bag) == (ms("R"), 1, ms("M"))
    assert_illegal(state, "p1: use Ember Spark: pull R back", "PX-I.5")
    fresh = table(creation=["Ember Spark"])
    assert_illegal(fresh, "p1: use Ember Spark: pull R back", "PX-9.2", "takes no action details")


@pytest.mark.parametrize(
    ("card", "committed", "prisms", "clause"),
    [
        ("Rose Flicker", "M", 0, "PX-9.3"),
        ("Glass Kiln", "R", 0, "PX-9.3"),
        ("Prism Heart", "", 1, "PX-9.4"),
    ],
)
def test_action_details_on_a_transformation_cite_the_transformation(
    card: str, committed: str, prisms: int, clause: str
) -> None:
    # a mote -> pool, mote -> prism or prism -> pool ability is no addition (PX-9.2)
    state = table(creation=[(card, committed, prisms)])
    assert_illegal(state, f"p1: use {card}: pull R back", clause, "takes no action details")


def test_px_9_3_a_mote_transformation_spends_a_mote_committed_on_that_card() -> None:
    state = table(prisms=0, palette="R", creation=[("Glass Kiln", "G", 0)])
    assert_illegal(state, "p1: use Glass Kiln", "PX-9.3", "red mote committed to it", "1 green")
    state = edit(state, "p1", creation=[("Glass Kiln", "R G", 0)])
    supply = state.supply
    state = act(state, "p1: use Glass Kiln")
    p1 = player(state, "p1")
    assert p1.prisms == 1
    assert p1.creation[0].motes == ms("G")
    assert p1.palette == ms("R")
    assert state.supply == supply.plus(ms("R"))


def test_px_9_3_a_mote_to_action_needs_the_actions_details() -> None:
    state = table(creation=[("Indigo Pulse", "K", 0)], bag="Y")
    assert_illegal(state, "p1: use Indigo Pulse", "PX-9.3", "use Indigo Pulse: pull")
    assert_illegal(
        state, "p1: use Indigo Pulse: steal Glass Kiln", "PX-9.3", "gives the pull action"
    )
    state = act(state, "p1: use Indigo Pulse: pull Y to palette")
    assert player(state, "p1").palette == ms("Y")
    assert not player(state, "p1").bag


def test_px_9_4_a_prism_transformation_spends_a_committed_prism() -> None:
    state = table(prisms=3, creation=["Mirror Forge"])
    assert_illegal(state, "p1: use Mirror Forge", "PX-9.4", "none is there")
    state = edit(state, "p1", creation=[("Mirror Forge", "", 2)])
    state = act(state, "p1: use Mirror Forge")
    assert player(state, "p1").pool == ms("B")
    assert player(state, "p1").creation[0].prisms == 1
    assert player(state, "p1").prisms == 3


def test_px_9_5_a_pool_colour_cannot_pay_for_an_ability() -> None:
    state = table(pool="R", creation=["Glass Kiln"])
    assert_illegal(state, "p1: use Glass Kiln", "PX-9.5", "red in p1's colour pool cannot pay")


def test_px_9_7_printed_text_is_recorded_with_a_ruling_request() -> None:
    state = table(creation=["Eclipse"])
    v = verdict(state, "p1: use Eclipse")
    assert v.legal
    assert v.needs_ruling
    assert v.rulings[0].card == "Eclipse"
    assert v.rulings[0].clause == "PX-9.7"
    assert "palette back into your bag" in v.rulings[0].text
    after = act(state, "p1: use Eclipse")
    assert player(after, "p1").abilities_used == ("Eclipse",)


def test_px_i_5_each_ability_once_a_round() -> None:
    state = table(creation=[("Glass Kiln", "R R", 0)])
    state = act(state, "p1: use Glass Kiln")
    assert_illegal(
        state, "p1: use Glass Kiln", "PX-I.5", "already used Glass Kiln's ability this round"
    )


def test_px_i_5_variant_per_commitment_repeats_transformations_not_additions() -> None:
    state = table(
        variants={"ability_uses": "per_commitment"},
        prisms=0,
        creation=[("Glass Kiln", "R R", 0), "Ember Spark"],
    )
    state = play(state, ["p1: use Glass Kiln", "p1: use Glass Kiln", "p1: use Ember Spark"])
    assert player(state, "p1").prisms == 2
    assert_illegal(state, "p1: use Glass Kiln", "PX-9.5", "colour pool")
    assert_illegal(state, "p1: use Ember Spark", "PX-I.5")


def test_px_10_1_pull_commits_or_returns_and_an_empty_bag_does_nothing() -> None:
    state = table(bag="C", creation=[("Indigo Pulse", "K K", 0), ("Twilight Veil", "", 0)])
    assert_illegal(state, "p1: use Indigo Pulse: pull R to palette", "PX-10.1", "no red mote")
    assert_illegal(
        state,
        "p1: use Indigo Pulse: pull C to Glass Kiln",
        "PX-10.1",
        "p2's progress area; p1 commits a pulled mote only to their own palette",
    )
    assert_illegal(
        state,
        "p1: use Indigo Pulse: pull C to Ember Spark",
        "PX-I.4",
        "what is meant for it goes on p1's palette",
    )
    back = act(state, "p1: use Indigo Pulse: pull C back")
    assert player(back, "p1").bag == ms("C")
    onto = act(state, "p1: use Indigo Pulse: pull C to Noon Blaze")
    assert player(onto, "p1").progress[0].motes == ms("C")
    assert not player(onto, "p1").bag
    empty = edit(state, "p1", bag="")
    assert_illegal(empty, "p1: use Indigo Pulse: pull C back", "PX-10.1", "bag is empty")
    act(empty, "p1: use Indigo Pulse: pull none")


def test_px_i_21_pull_none_only_from_an_empty_bag() -> None:
    state = table(bag="C", creation=[("Indigo Pulse", "K", 0)])
    assert_illegal(state, "p1: use Indigo Pulse: pull none", "PX-10.1", "name the mote pulled")


def test_px_i_3_a_pull_cannot_find_motes_gained_this_round() -> None:
    state = table(bag="", incoming="R", creation=[("Indigo Pulse", "K", 0)])
    assert_illegal(state, "p1: use Indigo Pulse: pull R to palette", "PX-10.1", "bag is empty")
    act(state, "p1: use Indigo Pulse: pull none")


def test_px_10_2_empty_returns_motes_and_loses_prisms() -> None:
    state = table(
        bag="",
        palette="R G",
        palette_prisms=2,
        creation=[("Storm Front", "B", 0)],
        progress=[("Noon Blaze", "Y", 1)],
    )
    prisms = state.supply_prisms
    after = act(state, "p1: use Storm Front: empty palette")
    p1 = player(after, "p1")
    assert p1.bag == ms("R G")
    assert not p1.palette
    assert p1.palette_prisms == 0
    assert after.supply_prisms == prisms + 2
    after = act(state, "p1: use Storm Front: empty Noon Blaze")
    assert player(after, "p1").bag == ms("Y")
    assert player(after, "p1").progress[0].prisms == 0
    assert_illegal(
        state, "p1: use Storm Front: empty Ember Spark", "PX-10.2", "nothing is committed on common"
    )


def test_px_i_7_empty_targets_only_own_places_unless_the_variant_allows_any() -> None:
    state = edit(table(creation=[("Storm Front", "B", 0)]), "p2", palette="R R", bag="")
    assert_illegal(state, "p1: use Storm Front: empty palette of p2", "PX-I.7", "only their own")
    assert_illegal(state, "p1: use Storm Front: empty Glass Kiln", "PX-I.7")
    anyone = table(variants={"empty_target": "any"}, creation=[("Storm Front", "B", 0)])
    anyone = edit(anyone, "p2", palette="R R", bag="", progress=[("Glass Kiln", "K", 1)])
    after = act(anyone, "p1: use Storm Front: empty palette of p2")
    assert player(after, "p2").bag == ms("R R")
    assert not player(after, "p2").palette
    after = act(anyone, "p1: use Storm Front: empty Glass Kiln")
    assert player(after, "p2").bag == ms("K")
    assert player(after, "p2").progress[0].prisms == 0


def test_px_10_3_draw_to_progress_or_common() -> None:
    state = table(creation=[("Pale Shimmer", "W", 0)])
    state = msgspec.structs.replace(state, commons=state.commons[:2])
    after = act(state, "p1: use Pale Shimmer: draw Comet Trail to progress")
    assert player(after, "p1").progress[-1].name == "Comet Trail"
    assert "Comet Trail" not in after.deck
    after = act(state, "p1: use Pale Shimmer: draw Comet Trail to common")
    assert after.commons[-1] == "Comet Trail"
    assert_illegal(
        state,
        "p1: use Pale Shimmer: draw Comet Trail to common, discard Ember Spark",
        "PX-10.3",
        "has room",
    )
    assert_illegal(
        state, "p1: use Pale Shimmer: draw Eclipse to progress", "PX-1.9", "discard pile"
    )


def test_px_10_3_the_draw_action_is_optional() -> None:
    # text: the player *may* draw a play card (a pull, by contrast, draws at once)
    state = table(creation=[("Pale Shimmer", "W", 0)])
    assert state.deck
    after = act(state, "p1: use Pale Shimmer: draw none")
    assert after.deck == state.deck
    assert after.commons == state.commons
    assert player(after, "p1").progress == player(state, "p1").progress
    assert player(after, "p1").creation[0].motes == ms()
    assert "Pale Shimmer" in player(after, "p1").abilities_used
    assert RULES.parse("use Pale Shimmer: draw none") in RULES.legal_actions(state, "p1")


def test_px_i_28_variant_compulsory_draw_takes_a_card_while_one_can_be_drawn() -> None:
    # PX-I.28: with draw_action=compulsory, 'draw none' stands only for a spent deck
    compulsory = {"draw_action": "compulsory"}
    state = table(variants=compulsory, creation=[("Pale Shimmer", "W", 0)])
    assert state.deck
    assert_illegal(
        state, "p1: use Pale Shimmer: draw none", "PX-I.28", "compulsory", "name the card drawn"
    )
    none = RULES.parse("use Pale Shimmer: draw none")
    assert none not in RULES.legal_actions(state, "p1")
    after = act(state, "p1: use Pale Shimmer: draw Comet Trail to progress")
    assert player(after, "p1").progress[-1].name == "Comet Trail"
    spent = msgspec.structs.replace(state, deck=())
    assert act(spent, "p1: use Pale Shimmer: draw none").deck == ()
    # with reshuffling, the discard pile is still there to draw from (PX-I.8)
    mixed = table(
        variants={**compulsory, "empty_deck": "reshuffle"}, creation=[("Pale Shimmer", "W", 0)]
    )
    mixed = msgspec.structs.replace(mixed, deck=())
    assert_illegal(mixed, "p1: use Pale Shimmer: draw none", "PX-I.28", "3 cards can still")


def test_px_i_28_a_compulsory_draw_reward_is_declined_not_taken_empty() -> None:
    state = table(
        variants={"draw_action": "compulsory"}, palette="R G B", palette_prisms=1, prisms=0
    )
    state = msgspec.structs.replace(state, commons=("Loom of Threads", *state.commons[1:]))
    state = act(state, "p1: create Loom of Threads")
    assert_illegal(state, "p1: take draw none", "PX-I.28", "declined instead")
    declined = act(state, "p1: decline")
    assert (declined.pending, declined.deck) == ((), state.deck)
    optional = act(
        msgspec.structs.replace(
            state, table=msgspec.structs.replace(state.table, draw_action="optional")
        ),
        "p1: take draw none",
    )
    assert (optional.pending, optional.deck) == ((), state.deck)


def test_px_i_19_a_full_common_area_needs_a_card_discarded() -> None:
    state = table(creation=[("Pale Shimmer", "W", 0)])
    assert_illegal(
        state, "p1: use Pale Shimmer: draw Comet Trail to common", "PX-I.19", "discard one of them"
    )
    assert_illegal(
        state,
        "p1: use Pale Shimmer: draw Comet Trail to common, discard Noon Blaze",
        "PX-10.3",
        "not a common card",
    )
    after = act(state, "p1: use Pale Shimmer: draw Comet Trail to common, discard Verdant Drop")
    assert after.commons == ("Ember Spark", "Comet Trail", "Sunset Sky")
    assert after.discard[-1] == "Verdant Drop"


def test_px_10_4_discard_own_progress_or_common() -> None:
    state = table(bag="", creation=[("Candle Works", "Y", 0)], progress=[("Noon Blaze", "R", 1)])
    after = act(state, "p1: use Candle Works: discard Ember Spark")
    assert "Ember Spark" not in after.commons
    assert after.discard[-1] == "Ember Spark"
    after = act(state, "p1: use Candle Works: discard Noon Blaze")
    assert not player(after, "p1").progress
    assert player(after, "p1").bag == ms("R")
    assert_illegal(
        state, "p1: use Candle Works: discard Glass Kiln", "PX-10.4", "p2's progress area"
    )


def test_px_10_5_px_i_6_steal_returns_the_victims_motes_to_the_victims_bag() -> None:
    state = table(creation=[("Comet Trail", "C", 0)])
    state = edit(state, "p2", bag="", progress=[("Glass Kiln", "R K", 1)])
    prisms = state.supply_prisms
    after = act(state, "p1: use Comet Trail: steal Glass Kiln")
    assert [h.name for h in player(after, "p1").progress] == ["Noon Blaze", "Glass Kiln"]
    assert player(after, "p1").progress[-1].motes == ms()
    assert not player(after, "p2").progress
    assert player(after, "p2").bag == ms("R K")
    assert after.supply_prisms == prisms + 1
    after = act(state, "p1: use Comet Trail: steal Sunset Sky")
    assert "Sunset Sky" not in after.commons
    assert_illegal(state, "p1: use Comet Trail: steal Noon Blaze", "PX-10.5", "already in p1's own")
    stolen = edit(state, "p2", creation=["Dye Vat"])
    assert_illegal(stolen, "p1: use Comet Trail: steal Dye Vat", "PX-8.6", "cannot be stolen")


def test_px_i_8_the_empty_deck_stops_draws_unless_reshuffled() -> None:
    state = table(creation=[("Pale Shimmer", "W", 0)])
    state = msgspec.structs.replace(state, deck=())
    after = act(state, "p1: use Pale Shimmer: draw none")
    assert after.deck == ()
    assert_illegal(state, "p1: use Pale Shimmer: draw Eclipse to progress", "PX-1.9")
    mixed = table(variants={"empty_deck": "reshuffle"}, creation=[("Pale Shimmer", "W", 0)])
    mixed = msgspec.structs.replace(mixed, deck=())
    assert act(mixed, "p1: use Pale Shimmer: draw none").discard == mixed.discard
    after = act(mixed, "p1: use Pale Shimmer: draw Eclipse to progress")
    assert after.discard == ()
    assert sorted(after.deck) == ["Moonrise", "Starfield"]


def test_px_i_8_the_board_draw_gives_what_is_left() -> None:
    state = table(palette="K K")
    state = msgspec.structs.replace(state, deck=("Comet Trail",))
    assert_illegal(
        state,
        "p1: create board draw-cards.1: keep Comet Trail, discard Eclipse",
        "PX-7.3",
        "1 card can be drawn, so 1 is drawn",
    )
    after = act(state, "p1: create board draw-cards.1: keep Comet Trail")
    assert after.deck == ()
    assert player(after, "p1").progress[-1].name == "Comet Trail"
    none = act(msgspec.structs.replace(state, deck=()), "p1: create board draw-cards.1: keep none")
    assert player(none, "p1").palette == ms()


def test_rewards_can_be_actions_taken_with_their_details() -> None:
    state = table(palette="B B K")
    state = msgspec.structs.replace(state, commons=("Indigo Pulse", *state.commons[1:]))
    state = edit(state, "p2", progress=[("Glass Kiln", "R", 0)], bag="")
    state = act(state, "p1: create Indigo Pulse")
    assert_illegal(state, "p1: take steal Noon Blaze", "PX-10.5")
    state = act(state, "p1: take steal Glass Kiln")
    assert player(state, "p2").bag == ms("R")
    assert not state.pending
    assert RULES.to_act(state) == {"p1"}


def test_px_i_23_a_progress_card_leaves_only_through_a_discard() -> None:
    with pytest.raises(ActionSyntaxError):
        RULES.parse("discard Noon Blaze")
    state = table(palette="K")
    after = act(state, "p1: create board discard-card.1: discard Noon Blaze")
    assert not player(after, "p1").progress
    assert after.discard[-1] == "Noon Blaze"


def test_px_i_23_no_free_removal_unless_the_table_allows_it() -> None:
    state = table(progress=[("Noon Blaze", "R Y", 2)])
    assert_illegal(state, "p1: remove Noon Blaze", "PX-I.23", "only through a discard")
    assert RULES.parse("remove Noon Blaze") not in RULES.legal_actions(state, "p1")


def test_px_i_23_variant_free_removal_of_an_own_progress_card() -> None:
    # the text: progress cards can be removed by their player (PX-8.7), read literally
    state = table(
        variants={"progress_removal": "free"},
        bag="",
        progress=[("Noon Blaze", "R Y", 2)],
        creation=["Cobalt Tear"],
    )
    state = edit(state, "p2", progress=["Glass Kiln"])
    assert RULES.parse("remove Noon Blaze") in RULES.legal_actions(state, "p1")
    prisms = state.supply_prisms
    after = act(state, "p1: remove Noon Blaze")
    p1 = player(after, "p1")
    assert (p1.progress, p1.bag, p1.incoming) == ((), ms("R Y"), ms())
    assert after.discard[-1] == "Noon Blaze"
    assert after.supply_prisms == prisms + 2
    assert RULES.to_act(after) == {"p1"}
    assert_illegal(state, "p1: remove Glass Kiln", "PX-8.7", "p2's progress area")
    assert_illegal(state, "p1: remove Ember Spark", "PX-8.7", "a common card")
    assert_illegal(state, "p1: remove Cobalt Tear", "PX-8.6", "cannot be removed")
    waiting = resolving(edit(state, "p1", palette="R R"), "p1")
    waiting = act(waiting, "p1: create Ember Spark")
    assert_illegal(waiting, "p1: remove Noon Blaze", "PX-8.5", "still to be settled")
    assert_illegal(
        msgspec.structs.replace(state, step="commit"), "p1: remove Noon Blaze", "PX-15.4"
    )


def test_px_7_3_the_boards_discard_reaches_own_progress_and_commons_only() -> None:
    # the board's Discard One Card breaks PX-7.3, not the Discard action's PX-10.4
    state = table(palette="K")
    for card, where in (("Glass Kiln", "p2's progress area"), ("Comet Trail", "not yet drawn")):
        assert_illegal(state, f"p1: create board discard-card.1: discard {card}", "PX-7.3", where)
    created = edit(state, "p1", creation=["Cobalt Tear"])
    assert_illegal(
        created, "p1: create board discard-card.1: discard Cobalt Tear", "PX-8.6", "cannot be"
    )


def test_px_i_27_the_boards_draw_keeps_to_progress_and_keeps_a_lone_card() -> None:
    state = msgspec.structs.replace(table(palette="K K"), deck=("Comet Trail",))
    assert_illegal(state, "p1: create board draw-cards.1: keep none", "PX-7.3", "so 1 is drawn")
    after = act(state, "p1: create board draw-cards.1: keep Comet Trail")
    assert player(after, "p1").progress[-1].name == "Comet Trail"
    assert "Comet Trail" not in after.commons


def test_px_10_3_a_card_drawn_to_progress_replaces_no_common_card() -> None:
    # PX-10.3: a common card is discarded only to make room for the drawn card among the
    # commons; an entry drawing to progress that also names a replaced common (possible in
    # JSON, not in the notation) was accepted and its discard silently ignored
    state = table(creation=[("Pale Shimmer", "W", 0)])
    assert len(state.commons) == 3
    entry = RULES.parse("use Pale Shimmer: draw Comet Trail to progress")
    assert isinstance(entry, Use)
    assert isinstance(entry.detail, DrawCard)
    bad = msgspec.structs.replace(
        entry, detail=msgspec.structs.replace(entry.detail, replace="Ember Spark")
    )
    verdict = RULES.check(state, bad, "p1")
    assert not verdict.legal
    assert verdict.violations[0].clause == "PX-10.3"
    assert "only a card drawn to the common area" in verdict.violations[0].reason
    assert bad not in RULES.legal_actions(state, "p1")


def test_px_10_2_an_empty_naming_a_card_and_another_owner_is_refused() -> None:
    # PX-10.2: a card is emptied where it lies, so an entry (JSON or API; the notation names
    # no owner for a card) giving it an owner who does not hold it contradicts itself; it was
    # accepted with the owner ignored
    state = table(creation=[("Storm Front", "B", 0), ("Glass Kiln", "R", 0)])
    good = RULES.parse("use Storm Front: empty Glass Kiln")
    assert RULES.check(state, good, "p1").legal
    assert isinstance(good, Use)
    assert isinstance(good.detail, Empty)
    bad = msgspec.structs.replace(good, detail=msgspec.structs.replace(good.detail, owner="p2"))
    verdict = RULES.check(state, bad, "p1")
    assert not verdict.legal
    assert verdict.violations[0].clause == "PX-10.2"
    assert "not a card of p2" in verdict.violations[0].reason

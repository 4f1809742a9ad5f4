"""Referee adjustments are held to every construction invariant a live entry is (REF-6.3,
GS-9.4, GS-9.5, GS-3.5), and ``check_change`` answers every change with a verdict."""

from __future__ import annotations

from referee.games.gammasphere.model import GammasphereState
from referee.kit.adjustments import parse_change
from referee.verdicts import Verdict
from tests.gammasphere.helpers import DECK, OTHER, RULES, play, started


def refused(state: GammasphereState, text: str) -> Verdict:
    verdict = RULES.check_change(state, parse_change(text))
    assert isinstance(verdict, Verdict), text
    assert not verdict.legal, text
    return verdict


def test_gs_1_3_a_stat_change_on_a_card_not_on_the_field_is_refused() -> None:
    """GS-1.3: `stat #40 attack +300` with no card #40 is a refusal, not a crash."""
    state = started({"p1": DECK, "p2": OTHER})
    (violation,) = refused(state, "stat #40 attack +300").violations
    assert violation.clause == "GS-1.3"
    assert "#40" in violation.reason


def test_gs_9_4_a_card_out_of_an_empty_discard_pile_is_refused_in_plain_words() -> None:
    """GS-9.4: nothing can leave an empty discard pile; the reason says so in words."""
    state = started({"p1": DECK, "p2": OTHER})
    (violation,) = refused(state, "move p1 discard>hand Gamma Trooper").violations
    assert violation.clause == "GS-9.4"
    assert "discard pile" in violation.reason
    assert "tuple" not in violation.reason


def test_gs_3_5_a_card_not_on_the_registered_list_cannot_be_moved_into_the_hand() -> None:
    """GS-3.5: Static Medic is not on p1's list, so no adjustment can show it from p1's deck."""
    state = started({"p1": DECK, "p2": OTHER})
    (violation,) = refused(state, "move p1 deck>hand Static Medic").violations
    assert violation.clause == "GS-3.5"


def test_gs_3_5_a_fifth_copy_cannot_come_out_of_a_deck() -> None:
    """GS-3.5 with GS-3.1: four Gamma Troopers seen, a fifth cannot come from the deck."""
    state = started()
    change = parse_change("move p1 deck>hand Gamma Trooper")
    for _ in range(4):
        assert RULES.check_change(state, change).legal
        state = RULES.apply_change(state, change)
    (violation,) = refused(state, "move p1 deck>hand Gamma Trooper").violations
    assert violation.clause == "GS-3.5"
    assert "fifth" in violation.reason


def test_gs_9_5_a_pylon_has_no_attack_to_change() -> None:
    """GS-9.5: `stat #1 attack +300` on a Pylon is refused: a pylon has no attack."""
    state = play(started({"p1": DECK, "p2": OTHER}), "construct Pylon")
    (violation,) = refused(state, "stat #1 attack +300").violations
    assert violation.clause == "GS-9.5"
    assert "Pylon" in violation.reason

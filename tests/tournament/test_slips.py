"""Result slips: what each match length accepts and refuses (EV-3.1 to EV-3.4, EV-6.4, EV-7.3)."""

from __future__ import annotations

import pytest

from referee.tournament import Refusal, Score, parse_placement, parse_slip
from referee.tournament.slips import decided

ACCEPTED = [
    ("bo1", "1-0-0", Score(1, 0, 0)),
    ("bo1", "0-1-0", Score(0, 1, 0)),
    ("bo1", "0-0-1", Score(0, 0, 1)),
    ("bo1", "0-0-0", Score(0, 0, 0)),
    ("bo1", "1-0", Score(1, 0, 0)),
    ("bo3", "2-0-0", Score(2, 0, 0)),
    ("bo3", "2-1-0", Score(2, 1, 0)),
    ("bo3", "1-2", Score(1, 2, 0)),
    ("bo3", "1-0-0", Score(1, 0, 0)),
    ("bo3", "0-0-1", Score(0, 0, 1)),
    ("bo3", "2-0-1", Score(2, 0, 1)),
    ("bo3", "0-0-3", Score(0, 0, 3)),
    ("bo3", "1-1-1", Score(1, 1, 1)),
    ("bo3", " 2 - 1 - 0 ", Score(2, 1, 0)),
    ("bo5", "3-2-0", Score(3, 2, 0)),
    ("bo5", "2-2-1", Score(2, 2, 1)),
]

REFUSED = [
    ("bo1", "2-0-0", "EV-3.2"),
    ("bo1", "1-1-0", "EV-3.2"),
    ("bo1", "0-0-2", "EV-3.2"),
    ("bo3", "3-0-0", "EV-3.2"),
    ("bo3", "2-2-0", "EV-3.2"),
    ("bo3", "0-0-4", "EV-3.2"),
    ("bo5", "4-1-0", "EV-3.2"),
    ("bo5", "3-3-0", "EV-3.2"),
    ("bo3", "two-one", "EV-3.1"),
    ("bo3", "2-1-0-0", "EV-3.1"),
    ("bo3", "", "EV-3.1"),
    ("bo3", "-1-2-0", "EV-3.1"),
]


@pytest.mark.parametrize(("match", "text", "score"), ACCEPTED)
def test_slips_accepted(match: str, text: str, score: Score) -> None:
    """EV-3.1 the W-L-D form; EV-3.3 unfinished matches at time; EV-3.4 0-0-0."""
    assert parse_slip(text, match) == score  # type: ignore[arg-type]


@pytest.mark.parametrize(("match", "text", "clause"), REFUSED)
def test_slips_refused(match: str, text: str, clause: str) -> None:
    """EV-3.2 impossible scores for the match length, EV-3.1 unreadable slips."""
    with pytest.raises(Refusal) as caught:
        parse_slip(text, match)  # type: ignore[arg-type]
    assert caught.value.clause == clause


def test_match_winner_is_who_won_more_games() -> None:
    """EV-3.2: more game wins takes the match; equal game wins is a drawn match."""
    assert Score(2, 1).winner == 0
    assert Score(0, 1, 2).winner == 1
    assert Score(1, 1, 1).winner is None
    assert Score(0, 0, 0).winner is None


def test_playoff_refuses_a_drawn_match() -> None:
    """EV-6.4 (after MTR 2.4): a playoff match needs a winner."""
    with pytest.raises(Refusal) as caught:
        parse_slip("1-1-1", "bo3", playoff=True)
    assert caught.value.clause == "EV-6.4"
    assert parse_slip("2-1-1", "bo3", playoff=True) == Score(2, 1, 1)


def test_decided_by_games() -> None:
    """EV-3.8: a match is decided once a player has the wins it needs."""
    assert decided(Score(2, 0), "bo3")
    assert not decided(Score(1, 1), "bo3")
    assert decided(Score(0, 1), "bo1")
    assert not decided(Score(2, 2), "bo5")


NAMES = {"p1": "Ann", "p2": "Ben", "p3": "Cal", "p4": "Dee"}


def test_pod_placement_reads_ties_and_any_case() -> None:
    """EV-7.3: Ann>Ben=Cal>Dee, names or ids, case-insensitive."""
    placement = parse_placement("ann > BEN = p3 > Dee", list(NAMES), NAMES)
    assert placement.places == (("p1", 1), ("p2", 2), ("p3", 2), ("p4", 4))
    assert placement.text == "p1>p2=p3>p4"


@pytest.mark.parametrize(
    "text", ["Ann>Ben>Cal", "Ann>Ben>Cal>Dee>Eve", "Ann>Ann>Cal>Dee", "Ann>>Ben>Cal>Dee"]
)
def test_pod_placement_refusals(text: str) -> None:
    """EV-7.3: every pod player exactly once, nobody else."""
    with pytest.raises(Refusal) as caught:
        parse_placement(text, list(NAMES), NAMES)
    assert caught.value.clause == "EV-7.3"


@pytest.mark.parametrize("pod", [["p1", "p2"], ["p2", "p1"]])
def test_pod_placement_a_name_like_another_players_id(pod: list[str]) -> None:
    """EV-7.3, EV-2.2: P0 is p1 and P1 is p2; a token written exactly as a name is that
    player whatever the pod's order (the case-blind ``p1`` of the id took P1 when p1 sat
    second, and the slip was refused as naming P0 twice); an exact id still comes first."""
    names = {"p1": "P0", "p2": "P1"}
    assert parse_placement("1:P1,2:P0", pod, names).place_of("p2") == 1
    assert parse_placement("P0>P1", pod, names).place_of("p1") == 1
    assert parse_placement("p1>p2", pod, names).place_of("p1") == 1
    assert parse_placement("p0>P1", pod, names).place_of("p1") == 1  # any case for names

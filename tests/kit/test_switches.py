"""The games' switches declared by the kit's one constructor (``referee.kit.variants``)."""

from __future__ import annotations

import pytest

from referee.contract import VariantOption
from referee.games import load
from referee.kit.variants import switch

GAMES = ("crystale", "gammasphere", "prismata", "prismatic", "prizmik")


def test_a_switch_defaults_to_its_first_choice_and_keeps_the_rest() -> None:
    made = switch("tie", ("both", "neither"), "GS-I.8", "Equal attacks.", absent="neither")
    assert made == VariantOption(
        key="tie",
        default="both",
        choices=("both", "neither"),
        clause="GS-I.8",
        summary="Equal attacks.",
        absent="neither",
    )


@pytest.mark.parametrize("choices", [(), ("only",)])
def test_a_switch_offers_two_rulings_at_least(choices: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="a switch offers two or more"):
        switch("lonely", choices, "XX-I.1", "Nothing to choose.")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_s_switch_defaults_to_its_first_choice(game: str) -> None:
    switches = [v for v in load(game).variant_options if v.choices]
    assert switches
    assert all(v.default == v.choices[0] for v in switches)

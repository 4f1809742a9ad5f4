"""The kit's dispatch tables (``referee.kit.dispatch``), the one way every game goes from
an entry to its check and its effect (issue 34, item 7)."""

from __future__ import annotations

import msgspec
import pytest

from referee.kit.dispatch import Dispatch


class Bid(msgspec.Struct, frozen=True, tag="bid"):
    amount: int


class Pass(msgspec.Struct, frozen=True, tag="pass"):
    pass


class Step(msgspec.Struct, frozen=True):
    kind: str


def test_a_handler_is_found_by_the_entry_s_type() -> None:
    table: Dispatch[int, str, str] = Dispatch("checks")

    @table.register(Bid)
    def _bid(state: int, entry: Bid, seat: str) -> str:
        return f"{seat} bids {entry.amount} at {state}"

    table.add(Pass, lambda state, entry, seat: f"{seat} passes")
    assert table(3, Bid(5), "p1") == "p1 bids 5 at 3"
    assert table(3, Pass(), "p2") == "p2 passes"
    assert table.missing([Bid, Pass]) == []


def test_a_handler_is_found_by_the_entry_s_kind() -> None:
    table: Dispatch[int, int, str] = Dispatch("effects")

    @table.tagged("move")
    def _move(state: int, entry: Step, side: int) -> str:
        return f"side {side} moves"

    assert table.handlers[Step("move").kind](0, Step("move"), 1) == "side 1 moves"
    assert table.missing(["move", "capture"]) == ["capture"]


def test_an_entry_handled_twice_is_refused_when_the_table_is_built() -> None:
    table: Dispatch[int, int, int] = Dispatch("checks of a game")
    table.add(Bid, lambda state, entry, extra: 0)
    with pytest.raises(ValueError, match="checks of a game: Bid is handled twice"):
        table.add(Bid, lambda state, entry, extra: 1)
    table.tagged("move")(lambda state, entry, extra: 0)
    with pytest.raises(ValueError, match="checks of a game: move is handled twice"):
        table.tagged("move")(lambda state, entry, extra: 1)


def test_missing_names_what_has_no_handler() -> None:
    table: Dispatch[int, int, int] = Dispatch("checks")
    table.add(Bid, lambda state, entry, extra: 0)
    assert table.missing([Bid, Pass, "end"]) == ["Pass", "end"]

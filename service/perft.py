"""A position string on its own: its legal entries, and the count of the lines of play
from it (perft), with no game, no store and nothing written.

Checkers outside the project hold positions as strings (``referee show GAME --fen``) and
compare the number of legal action sequences a given number of actions deep, and the
legal entries themselves, with independent implementations. Both are answered here through
the games' public rules (``read_position`` as ``new --from-position`` reads it,
``to_act``, ``legal_actions``, ``apply``), the very calls the referee judges and records
entries with, so a count that parts from another implementation's points at the rules
the referee plays. A game whose legal list is not every continuation (``uncountable``:
hidden cards, a list of representatives, card text a referee rules on) is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from referee import games
from referee.contract import GameRules, Player, Setup
from referee.errors import RefusedError
from service.results import PerftCount, PositionLegal

__all__ = ["legal_at", "perft", "read_given_position"]

Rules = GameRules[Any, Any]

DEEPEST = 50
"""The deepest count asked for: every countable game branches several ways an action, so a
count this deep would never end, and deeper ones ran into the interpreter's recursion limit
("the input is nested too deeply to read")."""


def read_given_position(
    game: str,
    text: str,
    *,
    variants: Mapping[str, str] | None = None,
    ruleset: str | None = None,
) -> tuple[Rules, Any]:
    """``game``'s rules and the position ``text`` describes under ``variants``, read and
    checked as ``referee new GAME --from-position TEXT`` reads it (the seats are named
    after themselves: a position string holds no players)."""
    return _read(games.load(game), text, variants, ruleset)


def _read(
    rules: Rules, text: str, variants: Mapping[str, str] | None, ruleset: str | None
) -> tuple[Rules, Any]:
    if not text.strip():  # an empty string is no position: it read as the game's start
        raise RefusedError(
            f"an empty string is no {rules.name} position ('referee show GAME --fen' prints one)"
        )
    seats = rules.seats[: rules.player_range()[0]]
    setup = rules.resolve_setup(
        Setup(
            players=tuple(Player(seat, seat) for seat in seats),
            ruleset=ruleset,
            variants=dict(variants or {}),
            options={"position": text},
        )
    )
    given = rules.given_position(text, setup.variants)
    return rules, rules.start(msgspec.structs.replace(setup, options={"position": given}))


def _moves(rules: Rules, state: Any) -> list[tuple[str, Any]]:
    """Every (seat, action) that may be entered in ``state``: each seat that may act with
    each of its legal actions (none once the game is over)."""
    return [
        (seat, action)
        for seat in sorted(rules.to_act(state), key=rules.seats.index)
        for action in rules.legal_actions(state, seat)
    ]


def _count(rules: Rules, state: Any, depth: int) -> int:
    """The leaves of the game tree ``depth`` actions below ``state``; a finished game has
    none below it. The last level is counted, not played."""
    if depth == 0:
        return 1
    moves = _moves(rules, state)
    if depth == 1:
        return len(moves)
    return sum(_count(rules, rules.apply(state, action, seat), depth - 1) for seat, action in moves)


def perft(
    game: str,
    text: str,
    depth: int,
    *,
    variants: Mapping[str, str] | None = None,
    ruleset: str | None = None,
) -> PerftCount:
    """How many sequences of ``depth`` legal actions the position ``text`` allows, and
    how many follow each first action (``divide``, by its notation, with ``SEAT: `` before
    it when several seats may act)."""
    if not 0 <= depth <= DEEPEST:
        raise RefusedError(f"a depth is 0 to {DEEPEST}, not {depth}")
    rules, state = _countable(game, text, variants, ruleset)
    moves = _moves(rules, state)
    several = len({seat for seat, _ in moves}) > 1
    divide: dict[str, int] = {}
    if depth > 0:
        for seat, action in moves:
            name = rules.notation(action)
            key = f"{seat}: {name}" if several else name
            divide[key] = _count(rules, rules.apply(state, action, seat), depth - 1)
    nodes = sum(divide.values()) if depth > 0 else 1
    return PerftCount(
        game=rules.name,
        position=rules.position_text(state),
        depth=depth,
        nodes=nodes,
        divide=divide,
    )


def _countable(
    game: str, text: str, variants: Mapping[str, str] | None, ruleset: str | None
) -> tuple[Rules, Any]:
    """The rules and position of ``text``, refused when the game's legal list is not every
    continuation (``GameRules.uncountable``): before the position is read."""
    rules = games.load(game)
    if rules.uncountable:
        raise RefusedError(f"{rules.name}'s continuations cannot be counted: {rules.uncountable}")
    return _read(rules, text, variants, ruleset)


def legal_at(
    game: str,
    text: str,
    *,
    seat: str | None = None,
    variants: Mapping[str, str] | None = None,
    ruleset: str | None = None,
) -> PositionLegal:
    """The legal entries of the position ``text`` (of ``seat``, or of every seat that may
    act), as ``referee legal`` lists a stored game's."""
    rules, state = read_given_position(game, text, variants=variants, ruleset=ruleset)
    to_act = sorted(rules.to_act(state), key=rules.seats.index)
    if seat is not None and seat not in rules.seats:
        raise RefusedError(f"{rules.name} has seats {', '.join(rules.seats)}; not {seat!r}")
    actions = (
        []
        if seat is not None and seat not in to_act
        else [rules.notation(a) for a in rules.legal_actions(state, seat)]
    )
    return PositionLegal(
        game=rules.name,
        position=rules.position_text(state),
        to_act=to_act,
        seat=seat,
        to_move=to_act[0] if len(to_act) == 1 else None,
        actions=actions,
    )

"""A tiny game for testing the store without depending on a real game's rules:
one heap of counters, each turn takes 1 to 3, whoever takes the last one wins."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from referee.contract import (
    LEGAL,
    ONGOING,
    REFEREE,
    GameRules,
    Outcome,
    Setup,
    SetupField,
    Verdict,
    Viewer,
)
from referee.errors import ActionSyntaxError


class Take(msgspec.Struct, frozen=True):
    count: int


class Heap(msgspec.Struct, frozen=True):
    left: int
    to_move: str
    last: str | None = None


class NimRules(GameRules[Heap, Take]):
    name = "nim"
    title = "Nim (test game)"
    seats = ("first", "second")
    rulesets = ("nim/1",)
    setup_fields = (SetupField(key="heap", kind="int", help="Counters in the heap (default 10)."),)
    action_type = Take
    state_type = Heap

    def initial_state(self, setup: Setup) -> Heap:
        return Heap(left=int(setup.options.get("heap", 10)), to_move="first")

    def to_act(self, state: Heap) -> frozenset[str]:
        return frozenset() if state.left == 0 else frozenset((state.to_move,))

    def legal_actions(self, state: Heap, seat: str | None = None) -> Sequence[Take]:
        return [Take(n) for n in range(1, min(3, state.left) + 1)]

    def check(self, state: Heap, action: Take, seat: str | None = None) -> Verdict:
        if not 1 <= action.count <= 3:
            return Verdict.illegal("NIM-1.1", f"take 1 to 3 counters, not {action.count}")
        if action.count > state.left:
            return Verdict.illegal("NIM-1.1", f"only {state.left} counters are left")
        return LEGAL

    def apply(self, state: Heap, action: Take, seat: str | None = None) -> Heap:
        other = "second" if state.to_move == "first" else "first"
        return Heap(left=state.left - action.count, to_move=other, last=state.to_move)

    def outcome(self, state: Heap) -> Outcome:
        if state.left == 0:
            return Outcome(
                status="win", winner=state.last, clause="NIM-2.1", reason="took the last counter"
            )
        return ONGOING

    def parse(self, text: str) -> Take:
        cleaned = text.strip().lower()
        if not cleaned.startswith("t") or not cleaned[1:].isdigit():
            raise ActionSyntaxError(text, "write t1, t2 or t3", "NIM-0.1")
        return Take(int(cleaned[1:]))

    def notation(self, action: Take) -> str:
        return f"t{action.count}"

    def render(self, state: Heap, viewer: Viewer = REFEREE) -> str:
        return f"{'o' * state.left} ({state.left} left, {state.to_move} to move)"

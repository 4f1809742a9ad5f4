"""Imports from the reference engine (format ``prismata-ref-dump/1``) and comparison with it.

Pure functions over already-loaded game dicts (``json.load(gzip.open(path, "rt"))``):

- :func:`reference_setup` turns a game into our :class:`~referee.contract.Setup`
  (ruleset from its balance, the random set by display name, and the variant
  rulings the reference engine follows: supply by rarity, a simultaneous
  wipe-out scored for the second player).
- :class:`ReferenceImport` converts the engine's actions into ours turn by turn,
  keeping the map from the engine's reused instance ids to our stable ones
  (which needs the position, so it advances its own copy of the state)::

      imp = ReferenceImport(game)
      for turn in game["turns"]:
          actions = imp.convert_turn(turn)          # each action checked by our rules
          diffs = imp.compare(turn["stateAfter"])   # [] when the positions agree

- :func:`compare` lists the differences between our state and one snapshot.
- :func:`replay` runs a whole game and reports the first difference.
- :func:`units_table` lists a catalog's units for ``referee units prismata``.

How the engine's actions map to ours: ``BUY`` is ``buy`` with the units its
``deaths`` show consumed; ``USE_ABILITY`` is ``click`` (a shift-click clicks, in
play order, every unit of that kind that can still click; a chill or snipe unit
is only selected and the following ``CHILL``/``SNIPE`` becomes ``click .. on ..``);
``UNDO_USE_ABILITY`` is ``undo`` (or cancels a selection); ``UNDO_CHILL`` undoes
every own click that chilled that unit; ``SELL`` is ``sell``; ``ASSIGN_BLOCKER``,
``ASSIGN_FRONTLINE``, ``ASSIGN_BREACH``, ``UNDO_BREACH`` are ``block``, ``hit``,
``breach``, ``unbreach``; ``WIPEOUT`` and ``END_PHASE`` are ``end``, except the
engine's extra confirmation step, which has no counterpart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

import msgspec

from referee import games
from referee.contract import ForeignRecord, ForeignStep, GameRules, Player, Setup
from referee.errors import IllegalActionError
from referee.games.prismata import model
from referee.games.prismata.catalog import Catalog, load_catalog, units_table
from referee.games.prismata.checks import check_action
from referee.games.prismata.engine import apply_action, can_block
from referee.games.prismata.model import SEATS, PrismataAction, PrismataState

__all__ = [
    "BALANCES",
    "REFERENCE_VARIANTS",
    "ReferenceError_",
    "ReferenceImport",
    "ReplayReport",
    "compare",
    "reference_setup",
    "replay",
    "units_table",
]

BALANCES = {"live-2026-03": "prismata/2026-03", "churchill-2020": "prismata/2020"}
REFERENCE_VARIANTS = {"supply": "rarity", "wipeout": "second_player", "doomed": "survive"}
_STATUS = {"default": "ready", "assigned": "used", "inert": "idle"}


class ReferenceError_(ValueError):
    """A reference game that cannot be converted (unknown unit, unmatched ids, ...)."""


@cache
def _by_internal(ruleset: str) -> dict[str, str]:
    return {u.internal: name for name, u in load_catalog(ruleset).units.items()}


def reference_setup(game: Mapping[str, Any]) -> Setup:
    """Our setup for a reference game: its balance, its random set, the engine's rulings."""
    if game.get("format") not in (None, "prismata-ref-dump/1"):
        raise ReferenceError_(f"unsupported format {game.get('format')!r}")
    try:
        ruleset = BALANCES[game["balance"]]
    except KeyError:
        raise ReferenceError_(f"unknown balance {game.get('balance')!r}") from None
    names = _by_internal(ruleset)
    units = [names[n] for n in game["randomSet"]]
    drone = tuple(game.get("droneSupply", load_catalog(ruleset).drone_supply))
    if drone != load_catalog(ruleset).drone_supply:
        raise ReferenceError_(f"Drone supply {drone} differs from the catalog's")
    players = game.get("players") or ["p1", "p2"]
    return Setup(
        players=(Player("p1", str(players[0])), Player("p2", str(players[1]))),
        ruleset=ruleset,
        variants=dict(REFERENCE_VARIANTS),
        options={"units": units},
    )


class ReferenceImport:
    """Converts a reference game action by action, keeping our position and the id map.

    ``check`` (default on) checks every converted action with our rules and
    raises :class:`~referee.errors.IllegalActionError` on the first one that breaks a clause.
    """

    def __init__(
        self,
        game: Mapping[str, Any],
        *,
        check: bool = True,
        variants: Mapping[str, str] | None = None,
    ) -> None:
        self.game = game
        self.rules: GameRules[PrismataState, PrismataAction] = games.load("prismata")
        setup = reference_setup(game)
        if variants is not None:
            setup = msgspec.structs.replace(setup, variants=dict(variants))
        self.setup = self.rules.resolve_setup(setup)
        self.state: PrismataState = self.rules.initial_state(self.setup)
        self.check = check
        self.catalog: Catalog = load_catalog(self.state.ruleset)
        self.names = _by_internal(self.state.ruleset)
        self.ids: dict[int, int] = {}
        self._pending: int | None = None
        self._ours_new: list[int] = []
        self._refs_new: list[tuple[int, str]] = []
        init = game["initialState"]
        ref_cards = [c for c in init["cards0"] + init["cards1"] if not c.get("dead")]
        ours = list(self.state.units.values())
        if len(ref_cards) != len(ours):
            raise ReferenceError_("the initial position has a different number of units")
        for ref, u in zip(ref_cards, ours, strict=True):
            self.ids[ref["id"]] = u.id

    # -- id mapping -----------------------------------------------------------
    def our_id(self, ref_id: int) -> int:
        try:
            return self.ids[ref_id]
        except KeyError:
            raise ReferenceError_(f"reference unit id {ref_id} is unknown at this point") from None

    def _play(self, action: PrismataAction, out: list[PrismataAction]) -> None:
        if self.check:
            verdict = check_action(self.state, action)
            if not verdict.legal:
                raise IllegalActionError(verdict, self.rules.notation(action))
        before = self.state.next_id
        self.state = apply_action(self.state, action)
        self._ours_new.extend(range(before, self.state.next_id))
        out.append(action)

    def _note_ref_new(self, ref_action: Mapping[str, Any]) -> None:
        if ref_action["type"] == "BUY":
            self._refs_new.append((ref_action["newCardId"], ref_action["card"]))
        if ref_action["type"] != "SELL":
            for c in ref_action.get("created", []):
                self._refs_new.append((c["id"], c["name"]))
        while self._ours_new and self._refs_new:
            ours = self._ours_new.pop(0)
            ref_id, ref_name = self._refs_new.pop(0)
            unit = self.state.units.get(ours) or self.state.dead.get(ours)
            kind = unit.kind if unit is not None else "?"
            if unit is not None and self.names.get(ref_name) != kind:
                raise ReferenceError_(
                    f"new unit order differs: reference {ref_name} #{ref_id} vs our {kind} #{ours}"
                )
            self.ids[ref_id] = ours

    # -- conversion -----------------------------------------------------------
    def convert_action(self, a: Mapping[str, Any]) -> list[PrismataAction]:
        """Our actions for one reference action, applied to ``self.state`` as they are made."""
        out: list[PrismataAction] = []
        kind = a["type"]
        one = _ONE_UNIT.get(kind) if isinstance(kind, str) else None
        if one is not None:
            self._play(one(self.our_id(a["id"])), out)
        else:
            convert = _CONVERTERS.get(kind) if isinstance(kind, str) else None
            if convert is None:
                raise ReferenceError_(f"unknown reference action type {kind!r}")
            convert(self, a, out)
        self._note_ref_new(a)
        return out

    def _buy(self, a: Mapping[str, Any], out: list[PrismataAction]) -> None:
        name = self.names.get(a["card"])
        if name is None:
            raise ReferenceError_(f"unknown unit {a['card']!r}")
        deaths = a.get("deaths", [])
        consumed = tuple(self.our_id(d["id"]) for d in deaths if d["cause"] == "buySac")
        self._play(model.Buy(name, consumed), out)

    def _use_ability(self, a: Mapping[str, Any], out: list[PrismataAction]) -> None:
        """A click; a chill or snipe unit is only selected, its target comes next."""
        uid = self.our_id(a["id"])
        unit = self.state.units[uid]
        ability = self.catalog.units[unit.kind].click
        if ability is not None and ability.target is not None:
            self._pending = uid
            return
        deaths = a.get("deaths", [])
        consumed = tuple(self.our_id(d["id"]) for d in deaths if d["cause"] == "abilitySac")
        target = None
        if ability is not None and ability.effect.destroy:
            hits = [d for d in deaths if d["cause"] == "sniped"]
            if len(hits) != 1:
                raise ReferenceError_("a destroy ability without exactly one destroyed unit")
            target = self.our_id(hits[0]["id"])
        self._play(model.Click(uid, target, consumed), out)
        if a.get("shift"):
            self._shift(unit.kind, unit.owner, out)

    def _aim(self, a: Mapping[str, Any], out: list[PrismataAction]) -> None:
        """The target of the chill or snipe unit selected before."""
        uid = self.our_id(a["id"])
        if self._pending != uid:
            raise ReferenceError_(f"{a['type']} by a unit that was not selected")
        self._pending = None
        self._play(model.Click(uid, self.our_id(a["target"])), out)

    def _undo_ability(self, a: Mapping[str, Any], out: list[PrismataAction]) -> None:
        uid = self.our_id(a["id"])
        if self._pending == uid:
            self._pending = None
        else:
            self._play(model.Undo(uid), out)

    def _undo_chill(self, a: Mapping[str, Any], out: list[PrismataAction]) -> None:
        """Every click of the seat to act that chilled the unit is taken back."""
        target = self.our_id(a["id"])
        seat = self.state.active
        chillers = [
            u.id
            for u in list(self.state.units.values()) + list(self.state.dead.values())
            if u.owner == seat and u.target == target and u.status == "used"
        ]
        for cid in chillers:
            self._play(model.Undo(cid), out)

    def _wipeout(self, a: Mapping[str, Any], out: list[PrismataAction]) -> None:
        self._play(model.End(), out)

    def _end_phase(self, a: Mapping[str, Any], out: list[PrismataAction]) -> None:
        if a["phaseBefore"] != "confirm":
            self._play(model.End(), out)

    def _shift(self, kind: str, owner: int, out: list[PrismataAction]) -> None:
        """A shift-click: every further unit of ``kind`` that can click, in play order."""
        while True:
            for u in self.state.units.values():
                if (
                    u.owner == owner
                    and u.kind == kind
                    and check_action(self.state, model.Click(u.id)).legal
                ):
                    self._play(model.Click(u.id), out)
                    break
            else:
                return

    def convert_turn(self, turn: Mapping[str, Any]) -> list[PrismataAction]:
        """Our actions for one reference turn (the state advances as they are converted)."""
        out: list[PrismataAction] = []
        for a in turn["actions"]:
            out.extend(self.convert_action(a))
        return out

    @property
    def pending(self) -> bool:
        """True while a chill or snipe unit is selected and its target is still to come."""
        return self._pending is not None

    def compare(self, snapshot: Mapping[str, Any]) -> list[str]:
        """Differences between our position and a reference snapshot."""
        return compare(self.state, snapshot, self.ids)


_ONE_UNIT: dict[str, Callable[[int], PrismataAction]] = {
    "SELL": model.Sell,
    "ASSIGN_BLOCKER": model.Block,
    "ASSIGN_FRONTLINE": model.Strike,
    "ASSIGN_BREACH": model.Breach,
    "UNDO_BREACH": model.Unbreach,
}
"""Reference actions that are one of ours naming one unit."""

_CONVERTERS: dict[
    str, Callable[[ReferenceImport, Mapping[str, Any], list[PrismataAction]], None]
] = {
    "BUY": ReferenceImport._buy,
    "USE_ABILITY": ReferenceImport._use_ability,
    "CHILL": ReferenceImport._aim,
    "SNIPE": ReferenceImport._aim,
    "UNDO_USE_ABILITY": ReferenceImport._undo_ability,
    "UNDO_CHILL": ReferenceImport._undo_chill,
    "WIPEOUT": ReferenceImport._wipeout,
    "END_PHASE": ReferenceImport._end_phase,
}
"""The other reference actions, each by its own method."""


def compare(state: PrismataState, snapshot: Mapping[str, Any], ids: Mapping[int, int]) -> list[str]:
    """Human-readable differences between ``state`` and the reference ``snapshot``.

    ``ids`` maps the engine's instance ids to ours. Compared: whose turn and the
    phase, whether the game is over, every resource of each seat, supply, and
    every unit (kind, owner, health, chill, construction, exhaust, lifespan,
    stamina, ability status, whether it can be sold and whether it blocks).
    """
    cat = load_catalog(state.ruleset)
    names = _by_internal(state.ruleset)
    return (
        _compare_turn(state, snapshot)
        + _compare_resources(state, snapshot)
        + _compare_supply(state, snapshot, names)
        + _compare_units(state, snapshot, ids, names, cat)
    )


def _compare_turn(state: PrismataState, snapshot: Mapping[str, Any]) -> list[str]:
    """Whose turn, the phase, whether the game is over."""
    diffs: list[str] = []
    if snapshot.get("turnNumber") is not None and snapshot["turnNumber"] != state.turn:
        diffs.append(f"turn: ours {state.turn}, reference {snapshot['turnNumber']}")
    if snapshot.get("activePlayer") is not None and snapshot["activePlayer"] != state.active:
        diffs.append(
            f"seat to act: ours {SEATS[state.active]}, reference {SEATS[snapshot['activePlayer']]}"
        )
    phase = snapshot.get("phase")
    if phase in ("action", "defense", "breach") and phase != state.phase:
        diffs.append(f"phase: ours {state.phase}, reference {phase}")
    over = bool(snapshot.get("gameOver"))
    if over != (state.result is not None):
        diffs.append(f"game over: ours {state.result is not None}, reference {over}")
    return diffs


def _compare_resources(state: PrismataState, snapshot: Mapping[str, Any]) -> list[str]:
    """Every resource of each seat."""
    diffs: list[str] = []
    for seat, ref in enumerate(snapshot["resources"]):
        ours = state.res[seat]
        for key in ("gold", "energy", "blue", "red", "green", "attack"):
            if ref[key] != getattr(ours, key):
                diffs.append(
                    f"{SEATS[seat]} {key}: ours {getattr(ours, key)}, reference {ref[key]}"
                )
    return diffs


def _compare_supply(
    state: PrismataState, snapshot: Mapping[str, Any], names: Mapping[str, str]
) -> list[str]:
    """What is left of each unit on offer, and its limit."""
    diffs: list[str] = []
    for entry in snapshot.get("supply", []):
        name = names.get(entry["name"], entry["ui"])
        left = state.supply.get(name)
        if left is None:
            diffs.append(f"supply: {name} is not on offer in our game")
            continue
        if list(left) != list(entry["remaining"]):
            diffs.append(
                f"supply of {name}: ours {left[0]}/{left[1]}, reference "
                f"{entry['remaining'][0]}/{entry['remaining'][1]}"
            )
        top = state.supply_max[name]
        if list(top) != list(entry["max"]):
            diffs.append(
                f"supply limit of {name}: ours {top[0]}/{top[1]}, reference "
                f"{entry['max'][0]}/{entry['max'][1]}"
            )
    return diffs


def _compare_units(
    state: PrismataState,
    snapshot: Mapping[str, Any],
    ids: Mapping[int, int],
    names: Mapping[str, str],
    cat: Catalog,
) -> list[str]:
    """Every unit, both ways."""
    diffs: list[str] = []
    seen: set[int] = set()
    for card in list(snapshot.get("cards0", [])) + list(snapshot.get("cards1", [])):
        if card.get("dead"):
            continue
        kind = names.get(card["name"], card.get("ui", card["name"]))
        ref_label = f"{SEATS[card['owner']]} {kind} (reference #{card['id']})"
        uid = ids.get(card["id"])
        u = state.units.get(uid) if uid is not None else None
        if u is None or u.kind != kind or u.owner != card["owner"]:
            diffs.append(f"{ref_label}: no such unit in our position")
            continue
        seen.add(u.id)
        utype = cat.units[u.kind]
        checks = (
            ("health", u.health, card["health"]),
            ("chill", u.chill, card["chill"]),
            ("construction", u.build, card["construction"]),
            ("exhaust", u.exhaust, card["delay"]),
            ("lifespan", u.lifespan, card["lifespan"]),
            ("stamina", u.stamina if utype.stamina else 0, card["charges"]),
            ("status", u.status, _STATUS.get(card["status"], card["status"])),
            ("can be sold", u.fresh, card["sellable"]),
            ("blocking", can_block(u, utype), card["canBlock"]),
        )
        for what, mine, theirs in checks:
            if mine != theirs:
                diffs.append(
                    f"{SEATS[u.owner]} {u.kind} #{u.id} (reference #{card['id']}) {what}: "
                    f"ours {mine}, reference {theirs}"
                )
    for u in state.units.values():
        if u.id not in seen:
            diffs.append(f"{SEATS[u.owner]} {u.kind} #{u.id}: not in the reference position")
    return diffs


class ReplayReport(msgspec.Struct, kw_only=True):
    """The result of replaying one reference game against our rules."""

    turns: int = 0
    actions: int = 0
    ours: int = 0
    agree: bool = True
    first_difference: str = ""
    winner_ours: str | None = None
    winner_reference: str | None = None


def replay(
    game: Mapping[str, Any], *, check: bool = True, per_action: bool = False
) -> ReplayReport:
    """Convert and compare a whole game; stops at the first difference.

    With ``per_action``, files that carry the state after every action
    (``pa_*``) are compared after each action whose position is comparable.
    """
    report = ReplayReport()
    try:
        imp = ReferenceImport(game, check=check)
    except (ReferenceError_, IllegalActionError, KeyError) as exc:
        report.agree = False
        report.first_difference = f"setup: {exc}"
        return report
    diffs = imp.compare(game["initialState"])
    if diffs:
        report.agree = False
        report.first_difference = "initial position: " + "; ".join(diffs[:5])
        return report
    for turn in game["turns"]:
        report.turns += 1
        for i, a in enumerate(turn["actions"]):
            report.actions += 1
            try:
                report.ours += len(imp.convert_action(a))
            except (ReferenceError_, IllegalActionError, KeyError) as exc:
                report.agree = False
                report.first_difference = f"turn {turn['turn']} action {i} ({a['type']}): {exc}"
                return report
            snap = a.get("stateAfter")
            if per_action and snap is not None and not imp.pending and a["phaseAfter"] != "confirm":
                diffs = imp.compare(snap)
                if diffs:
                    report.agree = False
                    report.first_difference = (
                        f"turn {turn['turn']} after action {i} ({a['type']}): "
                        + "; ".join(diffs[:6])
                    )
                    return report
        diffs = imp.compare(turn["stateAfter"])
        if diffs:
            report.agree = False
            report.first_difference = f"after turn {turn['turn']}: " + "; ".join(diffs[:6])
            return report
    outcome = imp.rules.outcome(imp.state)
    report.winner_ours = outcome.winner if outcome.status == "win" else outcome.status
    w = game.get("winner")
    report.winner_reference = (
        SEATS[w] if w is not None else ("draw" if game.get("gameOver") else "ongoing")
    )
    if game.get("gameOver") and report.winner_ours != report.winner_reference:
        report.agree = False
        report.first_difference = (
            f"result: ours {report.winner_ours}, reference {report.winner_reference}"
        )
    return report


class ReferenceRecord(ForeignRecord):
    """A reference-engine game as a ``ForeignRecord`` (format ``prismata-reference``).

    ``quirks`` (default on) judges the game under the variants the engine follows
    (``REFERENCE_VARIANTS``); off, under our default rulings."""

    def __init__(self, game: Mapping[str, Any], source: str, *, quirks: bool = True) -> None:
        import re

        self.game = game
        self.converter = ReferenceImport(game, variants=None if quirks else {})
        self.setup = self.converter.setup
        stem = source.replace("\\", "/").rsplit("/", 1)[-1].split(".")[0]
        self.stem = "prismata-ref-" + re.sub(r"[^a-z0-9_-]+", "-", stem.lower())[:60]
        winner = game.get("winner")
        self.expected_result = (
            SEATS[winner] if winner is not None else "draw" if game.get("gameOver") else "*"
        )

    def start_snapshot(self) -> Any:
        return self.game["initialState"]

    def steps(self) -> Iterator[ForeignStep]:
        rules = self.converter.rules
        yield ForeignStep(
            label="the initial position", entries=(), snapshot=self.game["initialState"]
        )
        for turn in self.game["turns"]:
            actions = self.converter.convert_turn(turn)
            yield ForeignStep(
                label=f"turn {turn['turn']}",
                entries=tuple(rules.notation(a) for a in actions),
                snapshot=turn["stateAfter"],
            )

    def differences(self, state: Any, snapshot: Any) -> list[str]:
        diffs = compare(state, snapshot, self.converter.ids)
        if not diffs and state != self.converter.state:
            diffs = ["our stored replay differs from the converter's position"]
        return diffs


def read_reference(data: bytes, source: str, options: Mapping[str, Any]) -> ReferenceRecord:
    """A reference game from its file's bytes (gzip-compressed JSON or plain JSON)."""
    import gzip
    import json

    try:
        text = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        game = json.loads(text)
    except (OSError, ValueError, RecursionError) as exc:
        raise ReferenceError_(f"not a reference-engine game file: {exc}") from None
    if not isinstance(game, dict) or "turns" not in game or "initialState" not in game:
        raise ReferenceError_("not a reference-engine game file (no turns or initial state)")
    return ReferenceRecord(game, source, quirks=bool(options.get("quirks", True)))

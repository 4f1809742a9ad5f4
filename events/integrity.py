"""Proving a game's log is intact and that every recorded decision still holds.

``verify_stream`` reads a game's stored rows and reports, per event, anything
that differs from an untouched log: a missing event number, an event stored
under a number or game it was not written for (moved or reordered), bytes that
are not the canonical encoding, a hash that does not match its contents, a
broken link to the previous event. It then replays the game checking each
decision again: every recorded action must be legal now, every rejection must
still be a rejection for the same clauses, and every result reached by rule must
be what the rules say.

``what_if`` replays a game's standing line under another ruleset or variant
ruling and lists what that ruling would have changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from eventsourcing.persistence import Mapper, StoredEvent

from events.codec import decode, event_hash, stored_hash
from events.schema import (
    GENESIS_HASH,
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    AdjustmentRecorded,
    DeckOpened,
    DeckRegistered,
    GameCreated,
    GameEnded,
    GameEvent,
)
from events.tournament import is_tournament_event
from events.view import GameView, ReplayError
from referee import games
from referee.capabilities import decks_of
from referee.contract import Setup, Verdict
from referee.kit.decks import Decklist
from referee.outcomes import Outcome
from referee.procedure import judge


class Finding(msgspec.Struct, frozen=True, kw_only=True):
    """One thing wrong with a game's log."""

    event: int | None
    problem: (
        str  # missing | moved | edited | chain | damaged | undecodable | verdict | result | value
    )
    detail: str

    def __str__(self) -> str:
        where = f"event {self.event}" if self.event is not None else "game"
        return f"{where}: {self.problem}: {self.detail}"


class GameReport(msgspec.Struct, kw_only=True):
    game_id: str
    events: int
    actions: int = 0
    findings: list[Finding] = []

    @property
    def ok(self) -> bool:
        return not self.findings


def check_rows(
    game_id: str,
    rows: Sequence[tuple[int, str, Any]],
    *,
    stored: bool = True,
    expected: int = 1,
    prev_hash: str = GENESIS_HASH,
    hashed: Mapping[int, str] | None = None,
) -> tuple[GameReport, list[GameEvent]]:
    """Check a stream's rows, (number, topic, stored bytes), for everything but the decisions:
    numbers without a gap, each event where it was written, its bytes matching its own hash,
    each linked to the one before; and the events they decode to (the undecodable left out).

    ``expected`` and ``prev_hash``: where the rows start, so that rows read in two parts (a
    posting's facts under its checkpoint, then the ones after) are checked as one stream and
    each decoded once. ``stored``: hash the stored bytes themselves (else the re-encoding).
    ``hashed``: rows whose own hash field, as found in their bytes, is the hash of those bytes
    (``events.codec.bytes_hash``, as the store-wide chain took them), by number, with that
    hash: not computed again (any other row's is)."""
    report = GameReport(game_id=game_id, events=len(rows))
    add = report.findings.append
    decoded: list[GameEvent] = []
    for number, topic, state in rows:
        if number != expected:
            gap = (
                f"events {expected} to {number - 1} are"
                if number - 1 > expected
                else f"event {expected} is"
            )
            add(Finding(event=expected, problem="missing", detail=f"{gap} missing from the log"))
        expected = number + 1
        if not isinstance(state, bytes):
            # a row edited outside the store (text written where bytes belong): damage
            # to name, never a crash of the check
            kind = "text" if isinstance(state, str) else type(state).__name__
            add(
                Finding(
                    event=number,
                    problem="damaged",
                    detail=f"its stored state is {kind}, not bytes (written outside the store)",
                )
            )
            prev_hash = ""
            continue
        try:
            event: GameEvent = decode(topic, state)
        except Exception as exc:
            add(
                Finding(
                    event=number,
                    problem="undecodable",
                    detail=f"stored bytes cannot be read: {exc}",
                )
            )
            prev_hash = ""
            continue
        if event.originator_id != game_id or event.originator_version != number:
            add(
                Finding(
                    event=number,
                    problem="moved",
                    detail=f"stored as event {number} of {game_id} but written as event "
                    f"{event.originator_version} of {event.originator_id}",
                )
            )
        # Hashing the stored bytes themselves (not a re-encoding) means any changed
        # byte, even one that decodes to the same values, shows here; it also keeps
        # events of older topics (read through upcasters) verifiable.
        known = hashed.get(number) if hashed is not None else None
        if not stored:
            actual = event_hash(event)
        elif known is not None and known == event.hash:
            actual = known  # bytes_hash located the same field and found it the bytes' hash
        else:
            actual = stored_hash(topic, state, event.hash)
        if actual != event.hash:
            add(
                Finding(
                    event=number,
                    problem="edited",
                    detail="contents do not match the event's own hash",
                )
            )
        if prev_hash and event.prev_hash != prev_hash:
            add(
                Finding(
                    event=number,
                    problem="chain",
                    detail="does not link to the event stored before it (an event before it was "
                    "changed, removed or reordered)",
                )
            )
        prev_hash = event.hash
        decoded.append(event)
    return report, decoded


def verify_stream(game_id: str, rows: Sequence[StoredEvent], mapper: Mapper[Any]) -> GameReport:
    """Check a game's stored rows: structure, hash chain, then every decision by replay."""
    plain_state = getattr(mapper, "plain_state", None)
    report, decoded = check_rows(
        game_id,
        [
            (
                row.originator_version,
                row.topic,
                plain_state(row)
                if plain_state is not None and isinstance(row.state, bytes)
                else row.state,
            )
            for row in rows
        ],
        stored=plain_state is not None,
    )
    if decoded and is_tournament_event(decoded[0]):
        return report  # an event (tournament) stream: its chain is all there is to check
    if not decoded or not isinstance(decoded[0], GameCreated):
        report.findings.append(
            Finding(
                event=1,
                problem="missing",
                detail="the game's creation event is missing or unreadable",
            )
        )
        return report
    recheck_decisions(decoded, report)
    return report


def _outcome_matches(outcome: Outcome, ended: GameEnded, seats: tuple[str, ...]) -> bool:
    if not outcome.over or (outcome.clause or "REF-3.1") != ended.clause:
        return False
    if ended.ranking or outcome.status == "ranked":
        ours = sorted((p.seat, p.rank) for p in outcome.placings(seats))
        theirs = sorted((p.seat, p.rank) for p in ended.placings(seats))
        return ours == theirs
    return outcome.winner == ended.winner


def _values_outside(event: GameEvent, seats: frozenset[str]) -> str:
    """What in ``event`` lies outside the game (a seat that is not playing, a ranking
    that does not rank every seat), or an empty string."""
    seat = getattr(event, "seat", None)
    if seat is not None and seat not in seats:
        return f"names seat {seat!r}, which is not playing"
    if isinstance(event, ActionRejected) and event.actor is not None and event.actor not in seats:
        return f"names seat {event.actor!r}, which is not playing"
    if isinstance(event, GameEnded):
        if event.winner is not None and event.winner not in seats:
            return f"names winner {event.winner!r}, which is not a seat of this game"
        if event.ranking and sorted(p.seat for p in event.ranking) != sorted(seats):
            return "ranks seats other than the game's own"
    return ""


def recheck_decisions(events: Sequence[GameEvent], report: GameReport) -> None:
    """Replay ``events``, judging every entry again against today's rules.

    Recorded actions, rejections, deck registrations and openings and results by
    rule are re-judged; adjustments are applied as recorded once each change passes
    the live check (REF-6.4): one that does not fit the position is a finding."""
    add = report.findings.append

    def flag(problem: str, detail: str) -> None:
        """A finding at the event being rechecked."""
        add(Finding(event=number, problem=problem, detail=detail))

    number = 1  # the game's creation, until the loop below moves on
    try:
        view = GameView(events[0])  # type: ignore[arg-type]
    except Exception as exc:
        flag("verdict", f"the game cannot be set up: {exc}")
        return
    rules = view.rules
    seats = view.seats
    outcome_of, parse, check, apply, to_act = (
        rules.outcome,
        rules.parse,
        rules.check,
        rules.apply,
        rules.to_act,
    )
    encoded: dict[str, bytes] = {}

    def canonical_action(notation: str, action: Any) -> bytes:
        """The stored JSON an action must have: its encoding, once per distinct notation."""
        found = encoded.get(notation)
        if found is None:
            found = encoded[notation] = msgspec.json.encode(action)
        return found

    states, standing, folded = view.states, view.standing, view.events
    seat_set = frozenset(seats)
    # A game imported from a viewer's record keeps its rejections as stated (REF-8.1):
    # their hidden cards are gone, so only their place in the line is checked.
    stated = events[0].meta.get("view", "referee") != "referee"  # type: ignore[attr-defined]
    actions = 0
    due: Outcome | None = None  # a result the rules reached that must be recorded next
    for event in events[1:]:
        number = event.originator_version
        if due is not None and not (isinstance(event, GameEnded) and event.how == "rule"):
            flag(
                "result",
                f"the rules ended the game before this event ({due.result} by "
                f"{due.clause}) but no result was recorded",
            )
            due = None
        if type(event) is ActionRecorded:  # the common case, checked and folded inline
            assert isinstance(event, ActionRecorded)
            actions += 1
            state = states[-1]
            action = None
            if view.ended is None and event.actor in to_act(state):
                try:
                    action = parse(event.notation)
                except ValueError:
                    action = None
            if action is not None:
                verdict = check(state, action, event.actor)
            else:
                verdict = judge(
                    rules, state, event.notation, event.actor, closed=view.closed()
                ).verdict
            if verdict.violations:
                why = "; ".join(f"{v.clause}: {v.reason}" for v in verdict.violations)
                flag(
                    "verdict",
                    f"recorded {event.notation!r} for {event.actor}, but the rules "
                    f"reject it: {why}",
                )
            elif canonical_action(event.notation, action) != bytes(event.action):
                flag(
                    "verdict",
                    f"the stored action does not match its notation {event.notation!r}",
                )
            if event.seq != len(standing) + 1:
                flag(
                    "verdict",
                    f"numbered action {event.seq}, but it is action "
                    f"{len(standing) + 1} of the line",
                )
            try:
                if action is None:
                    view.fold(event)
                else:
                    folded.append(event)
                    states.append(apply(state, action, event.actor))
                    standing.append(event)
            except Exception as exc:
                flag(
                    "verdict",
                    f"cannot replay {event.notation!r}: {exc}",
                )
                report.actions += actions
                return
            if view.ended is None:
                outcome = outcome_of(states[-1])
                due = outcome if outcome.status != "ongoing" else None
            continue
        wrong = _values_outside(event, seat_set)
        if wrong:
            flag("value", wrong)
            report.actions += actions
            return
        if isinstance(event, ActionRejected):
            # a stated rejection (imported, REF-8.1) is checked only for its place in the line
            redone = (
                None
                if stated
                else judge(rules, view.state, event.text, event.actor, closed=view.closed()).verdict
            )
            if redone is not None and redone.legal:
                flag("verdict", f"rejected {event.text!r}, but the rules now accept it")
            else:
                if event.seq != len(standing) + 1:
                    flag(
                        "verdict",
                        f"rejected {event.text!r} as action {event.seq}, but it "
                        f"would have been action {len(standing) + 1} of the line",
                    )
                if redone is not None:
                    was = sorted({v.clause for v in event.violations})
                    now = sorted({v.clause for v in redone.violations})
                    if was != now:
                        flag(
                            "verdict",
                            f"rejected {event.text!r} under {', '.join(was)}; the rules now "
                            f"cite {', '.join(now)}",
                        )
        elif isinstance(event, GameEnded) and event.how == "rule":
            outcome = rules.outcome(view.state)
            if not _outcome_matches(outcome, event, seats):
                said = (
                    f"{outcome.result} by {outcome.clause}" if outcome.over else "the game goes on"
                )
                flag(
                    "result",
                    f"recorded {event.result} by {event.clause}; the rules say {said}",
                )
        elif isinstance(event, DeckRegistered) and isinstance(event.deck, Decklist):
            decks = decks_of(rules)
            verdict = (
                decks.check_deck(view.setup, event.seat, event.deck)
                if decks is not None
                else Verdict.illegal("REF-5.1", f"{rules.name} is not played with decklists")
            )
            if verdict.violations:
                flag(
                    "verdict",
                    f"{event.seat}'s registered list breaks "
                    f"{verdict.violations[0].clause}: {verdict.violations[0].reason}",
                )
        elif isinstance(event, DeckOpened):
            decks = decks_of(rules)
            knowledge = decks.deck_knowledge(view.state, event.seat) if decks else None
            if decks is not None and knowledge is not None:
                verdict = knowledge.check_open(event.decklist, event.salt, "REF-5.3")
                if verdict.legal:
                    verdict = decks.check_deck(view.setup, event.seat, event.decklist)
                if sorted({v.clause for v in verdict.violations}) != sorted(
                    {v.clause for v in event.violations}
                ):
                    flag(
                        "verdict",
                        f"{event.seat}'s list was recorded as "
                        f"{'not opening' if event.violations else 'opening'} the seal; the "
                        f"rules now say {'it does not' if verdict.violations else 'it does'}",
                    )
        try:
            view.fold(event)
        except (ReplayError, IndexError, ValueError, LookupError, NotImplementedError) as exc:
            flag("verdict", str(exc))
            report.actions += actions
            return
        if (
            isinstance(event, ActionRecorded | ActionRetracted | AdjustmentRecorded)
            and view.ended is None
        ):
            outcome = rules.outcome(view.state)
            due = outcome if outcome.over else None
        elif isinstance(event, GameEnded):
            due = None
    report.actions += actions
    if due is not None:
        add(
            Finding(
                event=None,
                problem="result",
                detail=f"the rules ended the game ({due.result} by {due.clause}) but no result "
                "was recorded",
            )
        )


# -- what a different ruling would have changed ---------------------------------


class IllegalUnderRuling(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    event: int
    notation: str
    violations: list[dict[str, str]]


class WhatIfReport(msgspec.Struct, kw_only=True):
    game_id: str
    ruleset: str
    variants: dict[str, str]
    changed: dict[str, list[str]]  # key -> [as recorded, as asked]
    illegal: list[IllegalUnderRuling] = []
    recorded_result: str = "*"
    recorded_how: str | None = None
    result_under_ruling: str = "*"
    ends_at_action: int | None = None
    clause: str | None = None
    note: str = ""


def what_if(
    view: GameView, *, ruleset: str | None = None, variants: Mapping[str, str] | None = None
) -> WhatIfReport:
    """Replay ``view``'s standing line under another ruleset or variant ruling."""
    rules = games.load(view.game)
    created = view.created
    pinned = rules.recorded_variants(created.variants)
    chosen = {**pinned, **(variants or {})}
    setup = rules.resolve_setup(
        Setup(
            players=created.players,
            ruleset=ruleset or created.ruleset,
            variants=chosen,
            options=dict(created.options),
        )
    )
    changed: dict[str, list[str]] = {
        k: [pinned.get(k, ""), v] for k, v in setup.variants.items() if pinned.get(k) != v
    }
    if setup.ruleset != created.ruleset:
        changed["ruleset"] = [created.ruleset, str(setup.ruleset)]
    report = WhatIfReport(
        game_id=view.game_id,
        ruleset=str(setup.ruleset),
        variants=setup.variants,
        changed=changed,
        recorded_result=view.result,
        recorded_how=view.ended.how if view.ended else None,
    )
    alt = GameView(
        msgspec.structs.replace(created, ruleset=str(setup.ruleset), variants=setup.variants)
    )
    for recorded in view.standing:
        judged = alt.judge(recorded.notation, recorded.actor)
        action, verdict = judged.action, judged.verdict
        if not verdict.legal:
            report.illegal.append(
                IllegalUnderRuling(
                    seq=recorded.seq,
                    event=recorded.originator_version,
                    notation=recorded.notation,
                    violations=[
                        {"clause": v.clause, "reason": v.reason} for v in verdict.violations
                    ],
                )
            )
            if action is None:
                report.note = (
                    f"replay stopped at action {recorded.seq}: it cannot be read under this ruling"
                )
                break
        try:
            alt.states.append(alt.rules.apply(alt.state, action, recorded.actor))
        except Exception as exc:
            report.note = f"replay stopped at action {recorded.seq}: {exc}"
            break
        alt.standing.append(recorded)
        outcome = alt.rules.outcome(alt.state)
        if outcome.over:
            report.result_under_ruling = outcome.result
            report.ends_at_action = recorded.seq
            report.clause = outcome.clause
            if recorded is not view.standing[-1]:
                report.note = (
                    f"under this ruling the game ends after action {recorded.seq}; "
                    f"{len(view.standing) - recorded.seq} later actions would not have been played"
                )
            break
    else:
        if view.ended is not None and view.ended.how != "rule":
            report.result_under_ruling = view.result
            report.clause = view.ended.clause
    if report.illegal and not report.note:
        report.note = (
            f"positions after action {report.illegal[0].seq} assume the actions this ruling "
            "forbids had stood, so later findings are consequences of the first"
        )
    return report

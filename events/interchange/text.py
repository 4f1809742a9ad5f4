"""``referee-text/1``: a readable record in the spirit of PGN, written and parsed here.

Tag lines first (``[Game "prizmik"]``), a blank line, then one line per entry in
the order it happened: an action as ``12. red c4xd5`` (the seat may be left out),
everything else as a ``{...}`` comment: rejections, retractions, results, decks,
adjustments, penalties, withdrawals, disputes, rulings, appeals, and the judge calls
of a game outside an event (REF-11). A retracted
action stays in the record followed by its retraction, and the action that
replaces it takes the same number.

Every free-text value (names, reasons, claims, clause ids, notation) is a JSON
string, with every control, format and line-separator character escaped, so no
value can add, end or fake a line. Lines are split on ``\\n`` only.

This module only reads and writes lines; replaying a record's entries through the
referee procedure (so that importing re-judges every entry) is the application
layer's work (``service.interchange``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, Literal

import msgspec

from events.interchange.errors import ImportFileError, check_game_id
from events.kinds import kind_of_event
from events.plain import quote
from events.schema import (
    BranchKept,
    EndHow,
    GameCreated,
    GameEnded,
    GameEvent,
    OfflineEntry,
    PenaltyLevel,
    RulingDecision,
    RulingLevel,
    WithdrawHow,
)
from referee.kit.decks import Deck, Decklist, SealedDeck, parse_decklist
from referee.kit.multiset import Multiset

__all__ = [
    "REFEREE_VIEW",
    "TEXT_FORMAT",
    "CallAnsweredLine",
    "CallLine",
    "TextLine",
    "TextRecord",
    "conventional_result",
    "entry_text",
    "export_text",
    "parse_text",
    "quote",
]

TEXT_FORMAT = "referee-text/1"
MAX_LINE = 100_000
META_TAGS = ("Event", "Site", "Round", "Table", "Board", "View")
LABEL_TAGS = {"TimeLimit": "time_limit"}
"""Labels whose tag is not their name capitalised: the game's time limit in minutes (REF-10.1),
which a record that left it out would lose on import."""
# ``[View "public"]`` (or a seat) marks a record written for one viewer: hidden cards are
# left out, so an import takes its rejections as stated (REF-8.1, service.interchange).
REFEREE_VIEW = "referee"


def conventional_result(ended: GameEnded | None, seats: tuple[str, ...]) -> str:
    """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` for two seats (first seat first); the
    ranking (``p2>p1=p3``) for more."""
    if ended is None:
        return "*"
    if len(seats) != 2:
        return ended.result
    if ended.winner is None:
        return "1/2-1/2"
    return "1-0" if ended.winner == seats[0] else "0-1"


# -- writing ---------------------------------------------------------------------


def entry_text(event: GameEvent) -> str | None:
    """The record's line for ``event`` (the text form its type registered in
    ``events.kinds``); ``None`` for events the record leaves to the rules to produce
    again (a request for a ruling)."""
    kind = kind_of_event(event)
    if kind is None:
        raise TypeError(type(event).__name__)
    return kind.text(event)


def export_text(
    events: list[GameEvent], ended: GameEnded | None, view: str = REFEREE_VIEW
) -> Iterator[str]:
    """The record's lines (each ending in a newline) of a game's events; ``ended`` is
    the result in force, ``view`` whom the (already redacted) events were written for:
    any view but the referee's is named in a ``View`` tag."""
    created = events[0]
    assert isinstance(created, GameCreated)
    seats = tuple(p.seat for p in created.players)
    tags: list[tuple[str, str]] = [
        ("Format", TEXT_FORMAT),
        ("Game", created.game),
        ("GameId", created.originator_id),
        ("Ruleset", created.ruleset),
        ("Variants", ", ".join(f"{k}={v}" for k, v in created.variants.items())),
    ]
    tags += [(key, created.meta[key.lower()]) for key in META_TAGS if key.lower() in created.meta]
    tags += [(tag, created.meta[key]) for tag, key in LABEL_TAGS.items() if key in created.meta]
    if view != REFEREE_VIEW and "view" not in created.meta:
        tags.append(("View", view))
    tags += [(f"Player:{p.seat}", p.name) for p in created.players]
    if created.created_by:
        tags.append(("Referee", created.created_by))
    tags += [
        ("Date", created.timestamp.strftime("%Y-%m-%dT%H:%M:%SZ")),
        ("Result", conventional_result(ended, seats)),
    ]
    if ended is not None:
        tags.append(("Termination", f"{ended.how} {ended.clause}"))
    if created.options:
        tags.append(("Options", json.dumps(created.options, sort_keys=True, ensure_ascii=True)))
    for key, value in tags:
        yield f"[{key} {quote(value)}]\n"
    yield "\n"
    for event in events[1:]:
        line = entry_text(event)
        if line is not None:
            yield line + "\n"


# -- reading ---------------------------------------------------------------------


class ActionLine(msgspec.Struct, frozen=True, tag="action"):
    seq: int
    seat: str | None
    text: str


class RejectedLine(msgspec.Struct, frozen=True, tag="rejected"):
    text: str
    seat: str | None
    seq: int
    clauses: tuple[str, ...]
    reasons: tuple[str, ...] = ()  # each clause's reason as written ("" where not kept)


class RetractedLine(msgspec.Struct, frozen=True, tag="retracted"):
    seq: int
    reason: str


class EndedLine(msgspec.Struct, frozen=True, tag="ended"):
    result: str
    how: EndHow
    clause: str
    reason: str
    tiebreak: str = ""


class VoidedLine(msgspec.Struct, frozen=True, tag="voided"):
    event: int
    reason: str


class DisputeLine(msgspec.Struct, frozen=True, tag="dispute"):
    dispute: int
    event: int
    by: str
    claim: str


class RulingLine(msgspec.Struct, frozen=True, tag="ruling"):
    dispute: int
    level: RulingLevel
    decision: RulingDecision
    clause: str
    by: str
    reason: str


class AppealLine(msgspec.Struct, frozen=True, tag="appeal"):
    dispute: int
    by: str
    grounds: str


class DeckLine(msgspec.Struct, frozen=True, tag="deck"):
    seat: str
    deck: Deck


class OpenedLine(msgspec.Struct, frozen=True, tag="opened"):
    seat: str
    decklist: Decklist
    salt: str


class AdjustLine(msgspec.Struct, frozen=True, tag="adjust"):
    """``revealed``: the line's word on a named card moved between hidden zones
    (REF-6.6), ``None`` on a line written before the clause (no word)."""

    changes: str
    card: str
    resolves: int | None
    reason: str
    revealed: bool | None = None


class PenaltyLine(msgspec.Struct, frozen=True, tag="penalty"):
    seat: str
    penalty: PenaltyLevel
    infraction: str
    reason: str


class PenaltyWithdrawnLine(msgspec.Struct, frozen=True, tag="penalty-withdrawn"):
    penalty: int
    reason: str


class WithdrawnLine(msgspec.Struct, frozen=True, tag="withdrawn"):
    seat: str
    how: WithdrawHow
    clause: str
    reason: str


class TimeLimitLine(msgspec.Struct, frozen=True, tag="time-limit"):
    minutes: int
    reason: str


class CallLine(msgspec.Struct, frozen=True, tag="call"):
    """A judge called to a game outside an event, from the game (REF-11.1)."""

    by: str
    reason: str


class CallAnsweredLine(msgspec.Struct, frozen=True, tag="call-answered"):
    """A referee's step on the call of event ``call`` (REF-11.2)."""

    call: int
    step: Literal["claim", "escalate", "resolve"]
    by: str
    note: str


class MergedLine(msgspec.Struct, frozen=True, tag="offline-merged"):
    """Entries a table recorded offline, stored as the actions before this line (REF-9.4)."""

    device: str
    base_version: int
    events: tuple[int, ...]
    by: str
    entries: tuple[OfflineEntry, ...]


class BranchLine(msgspec.Struct, frozen=True, tag="offline-branch"):
    """A table's offline branch kept whole as evidence beside the game (REF-9.5)."""

    device: str
    base_version: int
    by: str
    entries: tuple[OfflineEntry, ...]
    theirs: tuple[str, ...]
    ours: tuple[str, ...]
    reason: str


class BranchKeptLine(msgspec.Struct, frozen=True, tag="branch-kept"):
    """The head referee's choice between the branches of event ``branch`` (REF-9.5)."""

    branch: int
    kept: BranchKept
    by: str
    reason: str


TextLine = (
    ActionLine
    | RejectedLine
    | RetractedLine
    | EndedLine
    | VoidedLine
    | DisputeLine
    | RulingLine
    | AppealLine
    | DeckLine
    | OpenedLine
    | AdjustLine
    | PenaltyLine
    | PenaltyWithdrawnLine
    | WithdrawnLine
    | TimeLimitLine
    | CallLine
    | CallAnsweredLine
    | MergedLine
    | BranchLine
    | BranchKeptLine
)


class TextRecord(msgspec.Struct, kw_only=True):
    """A parsed record: its tags, and its entry lines with their line numbers and text."""

    tags: dict[str, str]
    lines: list[tuple[int, str, TextLine]]

    @property
    def game_id(self) -> str:
        return self.tags["GameId"]

    def players(self) -> dict[str, str]:
        return {k.split(":", 1)[1]: v for k, v in self.tags.items() if k.startswith("Player:")}

    def variants(self) -> dict[str, str]:
        pairs = (p.strip() for p in self.tags.get("Variants", "").split(","))
        out: dict[str, str] = {}
        for pair in pairs:
            if pair:
                key, sep, value = pair.partition("=")
                if not sep:
                    raise ValueError(f"variant {pair!r} is not KEY=VALUE")
                out[key.strip()] = value.strip()
        return out

    def options(self) -> dict[str, Any]:
        raw = self.tags.get("Options", "{}")
        try:
            data = json.loads(raw)
        except RecursionError:
            raise ValueError("the Options tag is nested too deeply") from None
        if not isinstance(data, dict):
            raise ValueError("the Options tag must be a JSON object")
        return data

    @property
    def view(self) -> str:
        """Whom the record was written for: ``referee`` (everything) unless a ``View`` tag
        says otherwise; a record older than the tag that hides a deck was a viewer's too."""
        if "View" in self.tags:
            return self.tags["View"]
        hidden = any(
            isinstance(line, DeckLine)
            and isinstance(line.deck, SealedDeck)
            and not line.deck.commitment
            for _, _, line in self.lines
        )
        return "public" if hidden else REFEREE_VIEW

    def meta(self) -> dict[str, str]:
        meta = {key.lower(): self.tags[key] for key in META_TAGS if key in self.tags}
        meta.update((key, self.tags[tag]) for tag, key in LABEL_TAGS.items() if tag in self.tags)
        return meta

    def date(self) -> datetime | None:
        try:
            return datetime.strptime(self.tags.get("Date", ""), "%Y-%m-%dT%H:%M:%SZ").replace(
                tzinfo=UTC
            )
        except ValueError:
            return None


_CLAUSE_ID = re.compile(r"[A-Z]{2,5}-[A-Z0-9]+(?:\.[A-Z0-9]+)*")
_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_:.-]*) ("(?:[^"\\]|\\.)*")\]$')
_MOVE = re.compile(r"^(\d+)\.\s*(.+)$")
_S = r'("(?:[^"\\]|\\.)*")'
_W = r"([a-z_]+)"
_REASON = re.compile(r"(" + _CLAUSE_ID.pattern + r") " + _S)
_REASONS = re.compile(_REASON.pattern + r"(?:; " + _REASON.pattern + r")*")
_Q = r'"(?:[^"\\]|\\.)*"'  # a JSON string, not captured


def _entry_pattern(g: str) -> str:
    """One offline entry (``g``: "(" to capture its parts, "(?:" not to)."""
    return f"{g}{_Q})(?: seat {g}{_Q}))? at {g}{_Q}) key {g}{_Q}) judged {g}{_Q}) on {g}\\d+)"


_ENTRY = re.compile(_entry_pattern("("))
_ENTRIES = "(" + _entry_pattern("(?:") + "(?:; " + _entry_pattern("(?:") + ")*)"
_LIST = r"((?:" + _Q + r"(?:, " + _Q + r")*)?)"
_PATTERNS: dict[str, re.Pattern[str]] = {
    "rejected": re.compile(r"^\{rejected " + _S + r" by (\S+) for (\d+): (.*)\}$"),
    "retracted": re.compile(r"^\{retracted (\d+): " + _S + r"\}$"),
    "ended": re.compile(
        r"^\{ended (\S+) by " + _W + r" (\S+): " + _S + r"(?: tiebreak " + _S + r")?\}$"
    ),
    "voided": re.compile(r"^\{voided (\d+): " + _S + r"\}$"),
    "dispute": re.compile(r"^\{dispute (\d+) on event (\d+) by " + _S + ": " + _S + r"\}$"),
    "ruling": re.compile(
        r"^\{ruling (\d+) " + _W + " " + _W + r" (\S+) by " + _S + ": " + _S + r"\}$"
    ),
    "appeal": re.compile(r"^\{appeal (\d+) by " + _S + ": " + _S + r"\}$"),
    "deck": re.compile(
        r"^\{deck (\S+) (?:(open|sealed) " + _S + r"(?: (\d+))?|hidden (\d+)((?: " + _S + r")*))\}$"
    ),
    "opened": re.compile(r"^\{opened (\S+) " + _S + " salt " + _S + r"\}$"),
    "adjust": re.compile(
        r"^\{adjust "
        + _S
        + " for "
        + _S
        + r"(?: answering (\d+))?(?: (hidden|revealed))?: "
        + _S
        + r"\}$"
    ),
    "penalty": re.compile(r"^\{penalty (\S+) " + _W + " " + _S + ": " + _S + r"\}$"),
    "penalty-withdrawn": re.compile(r"^\{penalty-withdrawn (\d+): " + _S + r"\}$"),
    "withdrawn": re.compile(r"^\{withdrawn (\S+) by " + _W + r" (\S+): " + _S + r"\}$"),
    "time-limit": re.compile(r"^\{time-limit (\d{1,4}): " + _S + r"\}$"),
    "call": re.compile(r"^\{call by " + _S + ": " + _S + r"\}$"),
    "call-answered": re.compile(
        r"^\{call-answered (\d+) (claim|escalate|resolve) by " + _S + ": " + _S + r"\}$"
    ),
    "offline-merged": re.compile(
        r"^\{offline-merged "
        + _S
        + r" on (\d+) as (\d+(?:, \d+)*|-) by "
        + _S
        + ": "
        + _ENTRIES
        + r"\}$"
    ),
    "offline-branch": re.compile(
        r"^\{offline-branch "
        + _S
        + r" on (\d+) by "
        + _S
        + ": "
        + _ENTRIES
        + r" \| theirs "
        + _LIST
        + r" \| ours "
        + _LIST
        + r" \| reason "
        + _S
        + r"\}$"
    ),
    "branch-kept": re.compile(r"^\{branch-kept (\d+) " + _W + " by " + _S + ": " + _S + r"\}$"),
}


def _entries(text: str) -> tuple[OfflineEntry, ...]:
    """The offline entries of an ``offline-merged`` or ``offline-branch`` line."""
    found = []
    for m in _ENTRY.finditer(text):
        text_, seat, at, key, judged, on = m.groups()
        found.append(
            OfflineEntry(
                text=json.loads(text_),
                seat=json.loads(seat) if seat is not None else None,
                key=json.loads(key),
                recorded_at=datetime.fromisoformat(json.loads(at)).astimezone(UTC),
                judged=json.loads(judged),
                judged_on=int(on),
            )
        )
    return tuple(found)


def _strings(text: str) -> tuple[str, ...]:
    return tuple(json.loads(m.group(0)) for m in re.finditer(_Q, text))


def _str(token: str) -> str:
    """A JSON string token, or a bare word (older records left seats and clauses bare)."""
    if token.startswith('"'):
        value = json.loads(token)
        assert isinstance(value, str)
        return value
    return token


def _bare(token: str) -> str:
    """A word the pattern already bounds (a ``how``, a ``level``): checked by its type."""
    return token


def _tiebreak(token: str) -> str:
    return json.loads(token) if token else ""


_Reader = Callable[[str], Any]
_READ: dict[str, tuple[type[TextLine], dict[str, _Reader]]] = {
    # a line whose fields are its groups in order, each read on its own: the field, its reader
    "retracted": (RetractedLine, {"seq": int, "reason": json.loads}),
    "ended": (
        EndedLine,
        {"result": _str, "how": _bare, "clause": _str, "reason": json.loads, "tiebreak": _tiebreak},
    ),
    "voided": (VoidedLine, {"event": int, "reason": json.loads}),
    "dispute": (DisputeLine, {"dispute": int, "event": int, "by": json.loads, "claim": json.loads}),
    "ruling": (
        RulingLine,
        {
            "dispute": int,
            "level": _bare,
            "decision": _bare,
            "clause": _str,
            "by": json.loads,
            "reason": json.loads,
        },
    ),
    "appeal": (AppealLine, {"dispute": int, "by": json.loads, "grounds": json.loads}),
    "penalty-withdrawn": (PenaltyWithdrawnLine, {"penalty": int, "reason": json.loads}),
    "penalty": (
        PenaltyLine,
        {"seat": _str, "penalty": _bare, "infraction": json.loads, "reason": json.loads},
    ),
    "time-limit": (TimeLimitLine, {"minutes": int, "reason": json.loads}),
    "call": (CallLine, {"by": json.loads, "reason": json.loads}),
    "call-answered": (
        CallAnsweredLine,
        {"call": int, "step": _bare, "by": json.loads, "note": json.loads},
    ),
    "branch-kept": (
        BranchKeptLine,
        {"branch": int, "kept": _bare, "by": json.loads, "reason": json.loads},
    ),
    "withdrawn": (
        WithdrawnLine,
        {"seat": _str, "how": _bare, "clause": _str, "reason": json.loads},
    ),
}


def _line(kind: str, g: tuple[str | None, ...]) -> TextLine:
    s = [x if x is not None else "" for x in g]
    if kind in _READ:  # words the type bounds (a Literal) are checked by msgspec.convert
        line, readers = _READ[kind]
        fields = {name: read(token) for (name, read), token in zip(readers.items(), s, strict=True)}
        return msgspec.convert(fields, line)
    if kind == "rejected":
        reasons = s[3]
        said: tuple[str, ...] = ()
        if _REASONS.fullmatch(reasons):  # today: CLAUSE "reason"; CLAUSE "reason"
            found = list(_REASON.finditer(reasons))
            clauses = tuple(m.group(1) for m in found)
            said = tuple(_str(m.group(2)) for m in found)
        elif reasons.startswith('"'):  # earlier: a quoted JSON list of [clause, reason]
            pairs = json.loads(json.loads(reasons))
            clauses = tuple(str(p[0]) for p in pairs)
            said = tuple(str(p[1]) if len(p) > 1 else "" for p in pairs)
        else:  # older records: "CLAUSE reason; CLAUSE reason" (a reason may hold "; " itself)
            firsts = (part.strip().split(" ", 1)[0] for part in reasons.split("; ") if part.strip())
            clauses = tuple(f for f in firsts if _CLAUSE_ID.fullmatch(f))
        actor = _str(s[1])
        return RejectedLine(
            json.loads(s[0]), None if actor in ("", "None") else actor, int(s[2]), clauses, said
        )
    if kind == "deck":
        deck: Deck
        if s[4]:  # a public record: the list's size, and its cards the setup put in sight
            shown = tuple(json.loads(card) for card in re.findall(_S, s[5] or ""))
            deck = SealedDeck("", int(s[4]), shown=shown)
        elif s[1] == "open":
            deck = parse_decklist(json.loads(s[2]))
        else:
            deck = SealedDeck(json.loads(s[2]), int(s[3] or 0))
        return DeckLine(_str(s[0]), deck)
    if kind == "opened":
        listed = json.loads(s[1])  # "": a viewer's record, the list and salt withheld from it
        decklist = parse_decklist(listed) if listed else Decklist(Multiset())
        return OpenedLine(_str(s[0]), decklist, json.loads(s[2]))
    if kind == "adjust":
        return AdjustLine(
            json.loads(s[0]),
            json.loads(s[1]),
            int(s[2]) if s[2] else None,
            json.loads(s[4]),
            s[3] == "revealed" if s[3] else None,
        )
    if kind == "offline-merged":
        return MergedLine(
            device=json.loads(s[0]),
            base_version=int(s[1]),
            events=() if s[2] == "-" else tuple(int(n) for n in s[2].split(", ")),
            by=json.loads(s[3]),
            entries=_entries(s[4]),
        )
    return BranchLine(  # offline-branch
        device=json.loads(s[0]),
        base_version=int(s[1]),
        by=json.loads(s[2]),
        entries=_entries(s[3]),
        theirs=_strings(s[4]),
        ours=_strings(s[5]),
        reason=json.loads(s[6]),
    )


def parse_text(text: str, source: str) -> TextRecord:
    """Tags and entry lines of a record; each line checked for form (not yet judged)."""
    tags: dict[str, str] = {}
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index].strip()
        if len(line) > MAX_LINE:
            raise ImportFileError(source, index + 1, f"a line is longer than {MAX_LINE} characters")
        match = _TAG.match(line)
        if match:
            try:
                tags[match.group(1)] = json.loads(match.group(2))
            except (ValueError, RecursionError):
                raise ImportFileError(
                    source, index + 1, "the tag's value is not a quoted string"
                ) from None
        elif line:
            if line.startswith("["):
                raise ImportFileError(source, index + 1, f"cannot read this tag: {line[:80]!r}")
            break
        index += 1
    for needed in ("Game", "GameId", "Ruleset"):
        if needed not in tags:
            raise ImportFileError(source, None, f"missing [{needed} ...] tag")
    if tags.get("Format", TEXT_FORMAT) != TEXT_FORMAT:
        raise ImportFileError(source, 1, f"unknown format {tags['Format']!r}")
    check_game_id(tags["GameId"], source, None)
    entries: list[tuple[int, str, TextLine]] = []
    for number in range(index + 1, len(lines) + 1):
        line = lines[number - 1].strip()
        if not line:
            continue
        if len(line) > MAX_LINE:
            raise ImportFileError(source, number, f"a line is longer than {MAX_LINE} characters")
        move = _MOVE.match(line)
        if move:
            rest = move.group(2).strip()
            first, _, after = rest.partition(" ")
            entries.append(
                (
                    number,
                    line,
                    ActionLine(
                        int(move.group(1)),
                        first if after.strip() else None,
                        after.strip() if after.strip() else rest,
                    ),
                )
            )
            continue
        for kind, pattern in _PATTERNS.items():
            found = pattern.match(line)
            if found:
                try:
                    entries.append((number, line, _line(kind, found.groups())))
                except (
                    ValueError,
                    TypeError,
                    KeyError,
                    IndexError,
                    RecursionError,
                    msgspec.ValidationError,
                ) as exc:
                    raise ImportFileError(
                        source, number, f"cannot read this {kind} line: {exc}"
                    ) from None
                break
        else:
            raise ImportFileError(source, number, f"cannot read this line: {line[:120]!r}")
    return TextRecord(tags=tags, lines=entries)

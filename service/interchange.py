"""Exports and imports through the application layer.

Exports write a game's record in either format, streamed line by line; a JSONL
record is the stored bytes themselves, so only the referee's view may take one;
other viewers get the text record with what they may not see taken out.

Imports judge every record on its own: each file (each game of a file holding
many) is imported, skipped (the same game is already in the store) or refused
(with the line and the reason), and the report lists them all. JSONL records are
checked by replaying every decision (``events.integrity``); text records are
replayed entry by entry through the referee's own commands and decisions on the one
game held in memory (``service.scratch``), so an imported game passes exactly the
checks a live one does.
Checking runs in worker processes started fresh (never forked from a process
holding database connections); the inserts happen here, in batches.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import msgspec

from events.codec import decode, encode, seal
from events.integrity import GameReport, recheck_decisions
from events.interchange.errors import ImportFileError
from events.interchange.jsonl import JSONL_FORMAT, export_jsonl, read_jsonl
from events.interchange.text import (
    REFEREE_VIEW,
    ActionLine,
    AdjustLine,
    AppealLine,
    BranchKeptLine,
    BranchLine,
    CallAnsweredLine,
    CallLine,
    DeckLine,
    DisputeLine,
    EndedLine,
    MergedLine,
    OpenedLine,
    PenaltyLine,
    PenaltyWithdrawnLine,
    RejectedLine,
    RetractedLine,
    RulingLine,
    TextLine,
    TextRecord,
    TimeLimitLine,
    VoidedLine,
    WithdrawnLine,
    entry_text,
    export_text,
    parse_text,
)
from events.records import redact, revealed_entries
from events.schema import (
    GENESIS_HASH,
    TOPIC_OF,
    BranchRecorded,
    BranchResolved,
    EntriesMerged,
    GameCreated,
    GameEvent,
)
from events.store import ConcurrentWriteError, GameNotFoundError, GameStore
from events.tournament import is_tournament_event
from events.view import GameView
from referee import games
from referee.contract import REFEREE, Viewer
from referee.errors import RefereeError, quoted
from referee.game.commands import AnswerCall, CallJudge
from referee.verdicts import Violation
from service.procedure import header
from service.scratch import ScratchReferee

__all__ = ["FileOutcome", "ImportReport", "export_records", "import_records", "replay_text"]

BATCH_EVENTS = 20_000
BULK_EVENTS = 50_000  # an import this large refreshes the database's statistics afterwards
PARALLEL_FROM_FILES = 64

Rows = list[tuple[int, str, bytes]]


class FileOutcome(msgspec.Struct, kw_only=True):
    """What became of one record: imported, skipped (already there) or refused (why)."""

    source: str
    status: Literal["imported", "skipped", "refused"]
    game_id: str | None = None
    events: int = 0
    detail: str = ""


class ImportReport(msgspec.Struct, kw_only=True):
    files: list[FileOutcome]

    @property
    def imported(self) -> list[FileOutcome]:
        return [f for f in self.files if f.status == "imported"]

    @property
    def refused(self) -> list[FileOutcome]:
        return [f for f in self.files if f.status == "refused"]

    @property
    def skipped(self) -> list[FileOutcome]:
        return [f for f in self.files if f.status == "skipped"]

    @property
    def events(self) -> int:
        return sum(f.events for f in self.imported)


# -- exports ----------------------------------------------------------------------


def export_records(
    store: GameStore, game_ids: Iterable[str], fmt: str, viewer: Viewer = REFEREE
) -> Iterator[str]:
    """The lines of each game's record, one game after another (a file of many games)."""
    if fmt == "jsonl" and viewer != REFEREE:
        raise PermissionError(
            "a JSONL record holds every event exactly as stored, hidden cards included; "
            "only the referee's view may export it (other viewers get the text record)"
        )
    for game_id in game_ids:
        if fmt == "jsonl":
            head = store.last_row(game_id)
            if head is None:
                raise GameNotFoundError(f"no game {game_id!r} in this store")
            ((_, topic, state),) = store.rows(game_id, upto=1)
            # Streamed a page at a time, up to the head read first: a game written to
            # meanwhile is exported as it stood, and a long game in flat memory.
            yield from export_jsonl(
                game_id,
                getattr(decode(topic, state), "game", ""),
                store.iter_rows(game_id, upto=head[0]),
                head=head,
            )
        else:
            view = store.load(game_id)
            events = (
                view.events
                if viewer == REFEREE
                else [
                    redact(e, viewer, view.rules, view.setup, revealed_entries(view))
                    for e in view.events
                ]
            )
            yield from export_text(events, view.ended, view=str(viewer))


# -- checking one record (worker-safe: pure work on text) --------------------------


class Checked(msgspec.Struct, kw_only=True):
    source: str
    error: str | None = None
    game_id: str = ""
    game: str = ""
    rows: Rows = []
    last_hash: str = ""


def _split_records(text: str) -> list[tuple[int, str]]:
    """A file of one or many records: (first line number, text) of each."""
    if text.lstrip().startswith("{") and text.count('{"format"') <= 1:
        return [(1, text)]  # the common case: one JSONL record
    lines = text.split("\n")
    starts: list[int] = []
    jsonl = text.lstrip().startswith("{")
    seen_entry = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if jsonl:
            if stripped.startswith('{"format"'):
                starts.append(index)
        elif stripped.startswith("["):
            if not starts or seen_entry:
                starts.append(index)
                seen_entry = False
        elif stripped:
            seen_entry = True
    if not starts:
        return [(1, text)]
    bounds = [*starts, len(lines)]
    return [
        (bounds[i] + 1, "\n".join([""] * bounds[i] + lines[bounds[i] : bounds[i + 1]]))
        for i in range(len(starts))
    ]


def check_records(source: str, data: bytes, by: str) -> list[Checked]:
    """Read and re-check every record in one file (may run in a worker process)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [Checked(source=source, error=f"{source}: not UTF-8 text (byte {exc.start})")]
    stripped = text.lstrip()
    if not stripped:
        return [Checked(source=source, error=f"{source}: the file is empty")]
    if stripped[0] not in "{[":
        return [
            Checked(
                source=source, error=f"{source}: neither a referee-jsonl nor a referee-text record"
            )
        ]
    records = _split_records(text)
    out: list[Checked] = []
    for index, (_, body) in enumerate(records, start=1):
        name = source if len(records) == 1 else f"{source}#{index}"
        try:
            out.append(
                _check_jsonl(name, body) if stripped[0] == "{" else _check_text(name, body, by)
            )
        except ImportFileError as exc:
            out.append(Checked(source=name, error=str(exc)))
        except RecursionError:
            out.append(Checked(source=name, error=f"{name}: nested too deeply to be a record"))
    return out


def _check_jsonl(source: str, text: str) -> Checked:
    rows = read_jsonl(text.split("\n"), source)
    events = [event for _, event, _, _ in rows]
    game = getattr(events[0], "game", "")
    report = GameReport(game_id=events[0].originator_id, events=len(events))
    if is_tournament_event(events[0]):  # an event (tournament): its chain was read above
        game = "event"
        # ... and its facts are judged by the live commands' decisions (issue 31)
        from service.event_judge import EventJudgement, judge_event

        try:
            judge_event(events)
        except EventJudgement as exc:
            line_of = {e.originator_version: n for n, e, _, _ in rows}
            raise ImportFileError(source, line_of.get(exc.number), str(exc)) from None
    else:
        try:
            games.load(game)
        except LookupError as exc:
            raise ImportFileError(source, rows[0][0], str(exc)) from None
        recheck_decisions(events, report)
    if report.findings:
        finding = report.findings[0]
        line_of = {e.originator_version: n for n, e, _, _ in rows}
        line = line_of.get(finding.event) if finding.event is not None else None
        raise ImportFileError(source, line, f"{finding.problem}: {finding.detail}")
    return Checked(
        source=source,
        game_id=events[0].originator_id,
        game=game,
        rows=[(e.originator_version, topic, state) for _, e, topic, state in rows],
        last_hash=events[-1].hash,
    )


def _check_text(source: str, text: str, by: str) -> Checked:
    record = parse_text(text, source)
    events = replay_text(record, source, by=by)
    return Checked(
        source=source,
        game_id=events[0].originator_id,
        game=record.tags["Game"],
        rows=[(e.originator_version, TOPIC_OF[type(e)], encode(e)) for e in events],
        last_hash=events[-1].hash,
    )


def _check_file(args: tuple[str, str, dict[str, str]]) -> list[Checked]:
    source, by, registry = args
    for name, target in registry.items():  # a fresh worker knows the same games as its parent
        if name not in games.names():
            games.register(name, target)
    try:
        data = Path(source).read_bytes()
    except IsADirectoryError:
        return [Checked(source=source, error=f"{source}: is a folder, not a record file")]
    except OSError as exc:
        return [Checked(source=source, error=f"{source}: cannot read: {exc.strerror or exc}")]
    return check_records(source, data, by)


def _checked(sources: Sequence[str], by: str, workers: int) -> Iterator[list[Checked]]:
    registry = games.registered()
    jobs = [(source, by, registry) for source in sources]
    if workers <= 1 or len(sources) < PARALLEL_FROM_FILES:
        yield from map(_check_file, jobs)
        return
    # Fresh worker processes: forking a process that holds database connections (and
    # their pool threads) is unsafe, so workers start clean and touch no store.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield from pool.map(_check_file, jobs, chunksize=8)


# -- replaying a text record through the referee's commands -------------------------


def replay_text(record: TextRecord, source: str, *, by: str = "") -> list[GameEvent]:
    """The events a text record's entries produce when a referee enters them again."""
    when = record.date() or datetime.now(UTC)
    stated = record.view != REFEREE_VIEW  # a viewer's record: its rejections are evidence
    by = record.tags.get("Referee") or by  # the record names its referee; entries carry no one else
    scratch = ScratchReferee(clock=lambda: when)
    try:
        rules = games.load(record.tags["Game"])
        variants, options = record.variants(), record.options()
        if variants:  # an exported record states every switch of its time
            variants = rules.recorded_variants(variants)
        if options.get("position"):  # accepted when it was recorded: read as written then
            options = {**options, "position": rules.recorded_position(str(options["position"]))}
        scratch.create_game(
            rules.name,
            record.players(),
            ruleset=record.tags["Ruleset"],
            variants=variants,
            options=options,
            by=by,
            game_id=record.game_id,
            meta={**record.meta(), "view": record.view} if stated else record.meta(),
            raw_options=False,
        )
    except (RefereeError, ValueError, LookupError) as exc:
        raise ImportFileError(source, None, f"cannot set the game up: {exc}") from None
    lines = record.lines
    index = 0
    while index < len(lines):
        number, _, line = lines[index]
        try:
            written = _enter(scratch, record.game_id, line, by, stated=stated)
        except ImportFileError:
            raise
        except (RefereeError, ValueError, LookupError, RuntimeError) as exc:
            raise ImportFileError(source, number, str(exc)) from None
        index += 1
        for event in written[1:]:  # consequences: a result by rule, what a ruling carried out...
            shown = entry_text(event)
            if shown is None:
                continue
            if index < len(lines) and _same(lines[index][2], event):
                index += 1
            elif index < len(lines) and _consequence(lines[index][2]):
                raise ImportFileError(
                    source,
                    lines[index][0],
                    f"the rules give {shown!r} here, the record says {lines[index][1]!r}",
                )
    return list(scratch.load(record.game_id).events)


def _parsed(text: str) -> TextLine:
    return parse_text('[Game "x"]\n[GameId "x"]\n[Ruleset "x"]\n\n' + text, "-").lines[0][2]


def _consequence(line: TextLine) -> bool:
    """Lines that only a command before them can produce."""
    return (
        isinstance(line, VoidedLine)
        or (isinstance(line, EndedLine) and line.how in ("rule", "penalty"))
        or (isinstance(line, WithdrawnLine) and line.how == "penalty")
    )


def _same(line: TextLine, event: GameEvent) -> bool:
    shown = entry_text(event)
    if shown is None:
        return False
    ours = _parsed(shown)
    if isinstance(ours, ActionLine) and isinstance(line, ActionLine):
        text = (
            line.text if line.seat is None or line.seat == ours.seat else f"{line.seat} {line.text}"
        )
        return line.seq == ours.seq and " ".join(text.split()).lower() == ours.text.lower()
    if isinstance(ours, EndedLine) and isinstance(line, EndedLine):
        return (ours.result, ours.how, ours.clause) == (line.result, line.how, line.clause)
    if isinstance(ours, RetractedLine) and isinstance(line, RetractedLine):
        return ours.seq == line.seq
    if isinstance(ours, VoidedLine | WithdrawnLine) and type(line) is type(ours):
        return True
    return ours == line


def _enter(
    svc: ScratchReferee, game_id: str, line: TextLine, by: str, *, stated: bool = False
) -> list[GameEvent]:
    """Carry out one line as the referee's command; the events it wrote. ``stated``: the
    record is a viewer's, whose rejections are stored as it states them (REF-8.1)."""
    view: GameView = svc.load(game_id)
    seats = view.seats
    before = view.version
    if isinstance(line, ActionLine):
        if line.seq != view.ply + 1:
            raise ValueError(f"action numbered {line.seq}; the game is at action {view.ply + 1}")
        actor, text = (
            (line.seat, line.text)
            if line.seat in seats
            else (None, f"{line.seat} {line.text}" if line.seat else line.text)
        )
        result = svc.record(game_id, text, actor=actor, by=by, view=view)
        if not result.accepted:
            v = result.violations[0]
            raise ValueError(f"{quoted(text)}: {v.clause}: {v.reason}")
        return _since(svc, game_id, before)
    if isinstance(line, RejectedLine) and stated:
        reasons = line.reasons + ("",) * (len(line.clauses) - len(line.reasons))
        svc.keep_rejection(
            game_id,
            line.text,
            seq=line.seq,
            actor=line.seat if line.seat in seats else None,
            violations=[
                Violation(clause, reason or "(no reason in the record)")
                for clause, reason in zip(line.clauses, reasons, strict=False)
            ],
            by=by,
        )
        return _since(svc, game_id, before)
    if isinstance(line, RejectedLine):
        result = svc.record(
            game_id,
            line.text,
            actor=line.seat if line.seat in seats else None,
            by=by,
            view=view,
            keep_unreadable=True,
        )
        if result.accepted:
            raise ValueError(f"{line.text!r} was rejected, but the rules accept it now")
        now = sorted({v.clause for v in result.violations})
        if line.clauses and sorted(set(line.clauses)) != now:
            raise ValueError(
                f"{line.text!r} was rejected under {', '.join(sorted(set(line.clauses)))}; "
                f"the rules now cite {', '.join(now)}"
            )
        return _since(svc, game_id, before)
    if isinstance(line, RetractedLine):
        if not view.standing or view.standing[-1].seq != line.seq:
            raise ValueError(f"REF-2.1: action {line.seq} is not the latest standing action")
        svc.retract(game_id, line.reason, by=by)
    elif isinstance(line, EndedLine):
        _end(svc, view, game_id, line, by)
    elif isinstance(line, VoidedLine):
        raise ValueError("REF-4.5: a result is voided only by the ruling or penalty before it")
    elif isinstance(line, DisputeLine):
        svc.dispute(game_id, line.event, by=line.by, claim=line.claim)
    elif isinstance(line, RulingLine):
        svc.rule(
            game_id,
            line.dispute,
            decision=line.decision,
            clause=line.clause,
            reason=line.reason,
            by=line.by,
            final=line.level == "final",
        )
    elif isinstance(line, AppealLine):
        svc.appeal(game_id, line.dispute, by=line.by, grounds=line.grounds)
    elif isinstance(line, DeckLine):
        svc.register_deck(game_id, line.seat, line.deck, by=by)
    elif isinstance(line, OpenedLine):
        if not line.decklist.size:
            if stated:  # a viewer's record: the seat's list and salt were withheld from it
                return []
            raise ValueError("REF-5.3: an opening in the referee's record names the list opened")
        svc.open_deck(game_id, line.seat, line.decklist, line.salt, by=by)
    elif isinstance(line, AdjustLine):
        svc.adjust(
            game_id,
            line.changes,
            card=line.card,
            reason=line.reason,
            by=by,
            resolves=line.resolves,
            revealed=line.revealed,
        )
    elif isinstance(line, PenaltyLine):
        svc.penalty(game_id, line.seat, line.penalty, line.infraction, reason=line.reason, by=by)
    elif isinstance(line, TimeLimitLine):
        svc.time_limit(game_id, line.minutes, reason=line.reason, by=by, recorded=True)
    elif isinstance(line, CallLine):
        svc.table_call(game_id, CallJudge(by=line.by, reason=line.reason))
    elif isinstance(line, CallAnsweredLine):  # the record's referee may take an escalated call
        answer = AnswerCall(by=line.by, call=line.call, step=line.step, note=line.note, head=True)
        svc.table_call(game_id, answer)
    elif isinstance(line, PenaltyWithdrawnLine):
        svc.withdraw_penalty(game_id, line.penalty, reason=line.reason, by=by)
    elif isinstance(line, MergedLine | BranchLine | BranchKeptLine):
        svc._append_to_game(view, [_offline_evidence(svc, view, line)])
    else:
        assert isinstance(line, WithdrawnLine)
        if line.how != "resignation":
            raise ValueError("a withdrawal by penalty follows its penalty line")
        svc.end(game_id, "resignation", who=line.seat, reason=line.reason, by=by)
    return _since(svc, game_id, before)


def _offline_evidence(
    svc: ScratchReferee, view: GameView, line: MergedLine | BranchLine | BranchKeptLine
) -> GameEvent:
    """The evidence event of an offline line (REF-9.4, REF-9.5), stored as the record states
    it (what a table recorded is not judged again here; the actions it became are), once
    it fits the game: its base and events are events of the game so far, and a choice
    names a branch not yet chosen. Each line carries its event's fields, by the same names."""
    at = header(view.game_id, svc.clock())
    stated = msgspec.structs.asdict(line)
    if isinstance(line, BranchKeptLine):
        events = view.events
        if not 1 <= line.branch <= len(events) or not isinstance(
            events[line.branch - 1], BranchRecorded
        ):
            raise ValueError(f"REF-9.5: event {line.branch} is not an offline branch")
        if any(isinstance(e, BranchResolved) and e.branch == line.branch for e in events):
            raise ValueError(f"REF-9.5: the branch of event {line.branch} was resolved already")
        return BranchResolved(**at, **stated)
    if not 1 <= line.base_version <= view.version:
        raise ValueError(
            f"REF-9.4: the entries were recorded offline on event {line.base_version}; "
            f"the game has {view.version} events here"
        )
    if isinstance(line, BranchLine):
        return BranchRecorded(**at, **stated)
    if any(not line.base_version < n <= view.version for n in line.events):
        raise ValueError(
            f"REF-9.4: the entries merged on event {line.base_version} name events "
            f"{', '.join(map(str, line.events))}, not events of the game since"
        )
    return EntriesMerged(**at, **stated)


def _end(svc: ScratchReferee, view: GameView, game_id: str, line: EndedLine, by: str) -> None:
    seats = view.seats
    if line.how == "void":
        raise ValueError(
            f"{line.clause}: a game closed as void by its event is not imported as a result"
        )
    if line.how in ("rule", "penalty"):
        raise ValueError(
            f"{line.clause}: the rules do not end the game here"
            if line.how == "rule"
            else "a result by penalty follows its penalty line"
        )
    if line.how == "agreement":
        svc.end(game_id, "agreement", reason=line.reason, by=by)
    elif line.how == "adjudication":
        if ">" in line.result or ("=" in line.result and len(seats) > 2):
            svc.end(game_id, "adjudication", ranking=line.result, reason=line.reason, by=by)
        else:
            svc.end(
                game_id,
                "adjudication",
                who=None if line.result == "draw" else line.result,
                reason=line.reason,
                by=by,
            )
    else:  # resignation: the seat that resigned is the one placed last among those playing
        playing = [s for s in seats if s not in view.withdrawn_seats()]
        if len(playing) == 2 and line.result in playing:
            loser = next(s for s in playing if s != line.result)
        else:
            order = line.result.replace("=", ">").split(">")
            loser = next((s for s in reversed(order) if s in playing), "")
        svc.end(game_id, "resignation", who=loser, reason=line.reason, by=by)


def _since(svc: ScratchReferee, game_id: str, version: int) -> list[GameEvent]:
    return list(svc.load(game_id).events[version:])


# -- importing ---------------------------------------------------------------------


def import_records(
    store: GameStore,
    sources: Sequence[str],
    *,
    as_new: bool = False,
    by: str = "",
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> ImportReport:
    """Import every record of ``sources``; each is imported, skipped or refused on its own."""
    count = workers if workers is not None else default_workers()
    writer = _Writer(store)
    try:
        outcomes = _read_all(store, sources, by, count, progress, as_new, writer.put)
    finally:
        writer.close()
    report = ImportReport(files=outcomes)
    if sum(f.events for f in report.imported) >= BULK_EVENTS:
        store.refresh_statistics()
    return report


def default_workers() -> int:
    """Checking processes: one per core (the inserts run in a thread of this process
    meanwhile). On two cores two fresh workers import 1.5 times as fast as checking here
    (``benchmarks/bench_store.py``); a single core checks in this process."""
    return max(1, os.cpu_count() or 1)


class _Writer:
    """Inserts checked batches in a thread of its own while the next files are checked
    (sqlite3 and psycopg let other threads run while the database works)."""

    def __init__(self, store: GameStore) -> None:
        import queue
        import threading

        self.store = store
        self.queue: queue.Queue[list[tuple[Checked, FileOutcome]] | None] = queue.Queue(maxsize=2)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="import-writer", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            batch = self.queue.get()
            if batch is None:
                return
            if self.error is None:
                try:
                    _insert(self.store, batch)
                except BaseException as exc:
                    self.error = exc

    def put(self, batch: list[tuple[Checked, FileOutcome]]) -> None:
        if self.error is not None:
            raise self.error
        self.queue.put(batch)

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error


def _read_all(
    store: GameStore,
    sources: Sequence[str],
    by: str,
    count: int,
    progress: Callable[[int], None] | None,
    as_new: bool,
    put: Callable[[list[tuple[Checked, FileOutcome]]], None],
) -> list[FileOutcome]:
    """Check every record, decide its outcome, and hand batches to be inserted."""
    outcomes: list[FileOutcome] = []
    pending: list[tuple[Checked, FileOutcome]] = []
    seen: dict[str, str] = {}
    pending_events = 0
    for checked_file in _checked(list(sources), by, count):
        if progress is not None:
            progress(1)
        present = store.existing([c.game_id for c in checked_file if c.error is None])
        for checked in checked_file:
            if checked.error is not None:
                outcomes.append(
                    FileOutcome(source=checked.source, status="refused", detail=checked.error)
                )
                continue
            outcome = FileOutcome(
                source=checked.source,
                status="imported",
                game_id=checked.game_id,
                events=len(checked.rows),
            )
            existing = seen.get(checked.game_id)
            if existing is None and checked.game_id in present:
                existing = _stored_last_hash(store, checked.game_id)
            kept_out = _kept_out(store, checked, existing, as_new)
            if kept_out is not None:
                outcome.status, outcome.detail = kept_out
                outcome.events = 0
                outcomes.append(outcome)
                continue
            if existing is not None:  # with --as-new: a copy under a new id
                checked = _copy(store, checked)
                outcome.game_id = checked.game_id
            seen[checked.game_id] = checked.last_hash
            outcomes.append(outcome)
            pending.append((checked, outcome))
            pending_events += len(checked.rows)
            if pending_events >= BATCH_EVENTS:
                put(pending)
                pending, pending_events = [], 0
    if pending:
        put(pending)
    return outcomes


def _kept_out(
    store: GameStore, checked: Checked, existing: str | None, as_new: bool
) -> tuple[Literal["skipped", "refused"], str] | None:
    """Why ``checked`` is not imported (``existing``: the last hash of a stored stream of
    its id), or ``None``: the same record already there is skipped; a different one under
    its id is refused unless copied (--as-new), which an event record never is; an event
    record naming another event's game at a table is refused (one event is not another)."""
    if existing is not None:
        if as_new and checked.game == "event":
            # a copy would name the tables' games, which belong to the event the record names
            return "refused", (
                f"{checked.source}: event {checked.game_id} is already in the store, "
                "and an event record is not copied under a new id (--as-new): its "
                "tables' games belong to that event"
            )
        if not as_new and existing == checked.last_hash:
            return "skipped", f"game {checked.game_id} is already in the store"
        if not as_new:
            return "refused", (
                f"{checked.source}: a different game with id {checked.game_id} is already "
                "in the store (import with --as-new to copy it under a new id)"
            )
    foreign = _foreign_game(store, checked) if checked.game == "event" else None
    if foreign is not None:
        return "refused", (
            f"{checked.source}: event {checked.game_id} links game {foreign} at a "
            "table, which this store holds for another event or for none"
        )
    return None


def _foreign_game(store: GameStore, checked: Checked) -> str | None:
    """The first game an event record links at a table (EV-3.8) that the store holds as
    another event's game or as no event's: one event is not another (issue 31)."""
    for _, topic, state in checked.rows:
        if not topic.endswith(".GameLinked.v1"):
            continue
        game = getattr(decode(topic, state), "game", "")
        rows = store.rows(game, upto=1) if isinstance(game, str) and game else []
        if not rows:
            continue  # not here (yet): its own record names its event
        created = decode(rows[0][1], rows[0][2])
        if not isinstance(created, GameCreated) or created.meta.get("event") != checked.game_id:
            return game
    return None


def _stored_last_hash(store: GameStore, game_id: str) -> str | None:
    rows = store.rows(game_id)
    if not rows:
        return None
    return decode(rows[-1][1], rows[-1][2]).hash


def _insert(store: GameStore, batch: list[tuple[Checked, FileOutcome]]) -> None:
    """Insert a batch in one transaction; if another import stored one of its games
    meanwhile, insert game by game and report those as skipped or refused."""
    try:
        store.insert_rows([(c.game_id, c.rows) for c, _ in batch])
        return
    except ConcurrentWriteError:
        pass
    for checked, outcome in batch:
        try:
            store.insert_rows([(checked.game_id, checked.rows)])
        except ConcurrentWriteError:
            same = _stored_last_hash(store, checked.game_id) == checked.last_hash
            outcome.status, outcome.events = ("skipped" if same else "refused"), 0
            outcome.detail = (
                f"game {checked.game_id} was stored by another import meanwhile"
                if same
                else f"{checked.source}: a different game with id {checked.game_id} was stored "
                "meanwhile"
            )


def _copy(store: GameStore, checked: Checked) -> Checked:
    """The record under a new id, its hash chain sealed again."""
    new_id = store.new_game_id(checked.game or "game")
    out: Rows = []
    prev = GENESIS_HASH
    for number, topic, state in checked.rows:
        event = decode(topic, state)
        changes: dict[str, Any] = {"originator_id": new_id, "prev_hash": prev}
        if isinstance(event, GameCreated):
            changes["imported_from"] = f"copy of {checked.game_id} from {checked.source}"
        event = seal(msgspec.structs.replace(event, **changes))
        prev = event.hash
        out.append((number, TOPIC_OF[type(event)], encode(event)))
    return Checked(
        source=checked.source, game_id=new_id, game=checked.game, rows=out, last_hash=prev
    )


__all__ += ["JSONL_FORMAT", "check_records"]

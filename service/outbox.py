"""A table's laptop through an outage: a copy of its games, and an outbox (REF-9.4).

``referee --server URL act/show/legal`` keeps, for every game it referees, the game's
exact record as the server last gave it (``records/GAME.jsonl`` under the offline store:
``--offline-store``, ``REFEREE_OFFLINE_STORE``, or ``~/.cache/referee``). When the
server cannot be reached (the request never left this machine), an entry is judged on a
local store made from that record (``games/GAME.db``, the same store format) by the
same rules, and kept in the outbox (``outbox.json``) as pending. The next command that
reaches the server, or ``referee sync``, first sends the outbox in order, a game's
entries as one batch with their keys and the versions they were judged on; the server
judges them again (``service.offline``). A game's local store is dropped once its
entries are sent, so the next outage starts from the server's record.

The online path imports nothing but the standard library and ``service.remote``: the
store is loaded only when an entry has to be judged here.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from referee.errors import RefusedError, quoted
from service.remote import Remote, RemoteError, ServerRefusedError, ServerUnreachableError
from service.results import EntryResult, LegalActions, PositionView

if TYPE_CHECKING:
    from service.app import RefereeService

__all__ = ["Outbox", "Pending", "Synced", "offline_root"]


class Pending(msgspec.Struct, kw_only=True):
    """An entry recorded here while the server could not be reached, not yet judged there."""

    server: str
    game: str
    text: str
    seat: str | None = None
    key: str
    base_version: int
    """The server's version of the game the table's first pending entry was judged on."""
    judged_on: int
    judged: str
    recorded_at: datetime


class Synced(msgspec.Struct, kw_only=True):
    """What the server made of one game's pending entries."""

    game: str
    entries: int
    outcome: str
    event: int
    version: int
    reason: str = ""
    events: list[int] = []


CLOCK_SLACK = 2.0
"""Seconds a laptop's clock may differ from the server's before entries recorded offline
are stamped on the server's clock instead (an HTTP ``Date`` is to the second)."""


def offline_root(explicit: str | None = None) -> Path:
    """The folder of a laptop's offline copies and outbox."""
    chosen = explicit or os.environ.get("REFEREE_OFFLINE_STORE")
    if chosen:
        return Path(chosen).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "referee"


def _device(referee: str) -> str:
    return os.environ.get("REFEREE_DEVICE") or f"{socket.gethostname()}/{referee}"


def _token_device(remote: Remote, device: str) -> str:
    """The device a batch is sent as (REF-9.4): with a token, this machine and the token's
    holder (``hall-3/Tom``), since the server records the entries as the holder's, not as
    the laptop's local ``--referee`` name (``vm/referee``); ``REFEREE_DEVICE`` wins."""
    if os.environ.get("REFEREE_DEVICE") or not remote.token:
        return device
    try:
        holder = remote.whoami().strip()
    except RemoteError:  # a server without /api/whoami: the laptop's own name
        return device
    return f"{socket.gethostname()}/{holder}" if holder else device


def _safe_name(game: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in game)


def _token_hex(nbytes: int) -> str:
    """``secrets.token_hex``: the same random bytes from the system (``os.urandom``),
    without importing ``secrets`` (its ``hmac`` and ``hashlib`` load OpenSSL's digests: a
    tenth of a ``--server act``'s own imports)."""
    return os.urandom(nbytes).hex()


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{_token_hex(4)}.partial")
    temp.write_bytes(data)
    os.replace(temp, path)


class Outbox:
    """One laptop's outbox and game copies for the server ``remote`` speaks to."""

    def __init__(self, remote: Remote, root: Path, *, referee: str = "referee") -> None:
        self.remote = remote
        self.root = root
        self.referee = referee
        self.device = _device(referee)
        self.file = root / "outbox.json"

    # -- the outbox ----------------------------------------------------------------------
    def _all(self) -> list[Pending]:
        if not self.file.exists():
            return []
        try:
            return msgspec.json.decode(self.file.read_bytes(), type=list[Pending])
        except (msgspec.DecodeError, OSError) as exc:  # edited by hand: never sent, never dropped
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise RefusedError(
                f"this laptop's outbox {self.file} cannot be read ({why}); nothing was sent "
                "and nothing recorded: move the file aside and show it to the head referee"
            ) from None

    def pending(self, game: str | None = None) -> list[Pending]:
        """The entries (of one game) still to send, in order: to whichever address the
        hall's server answers at now. ``server`` says where an entry was meant for; a
        server restarted on another address, or the store an event was handed over to,
        is sent them all the same (a game's id is its own everywhere: a server that does
        not write the game refuses the batch, which is then held and said)."""
        return [p for p in self._all() if game is None or p.game == game]

    def _save(self, entries: list[Pending]) -> None:
        if entries:
            _write_atomically(self.file, msgspec.json.encode(entries))
        else:
            self.file.unlink(missing_ok=True)

    # -- the server's clock ---------------------------------------------------------------
    def _clock_file(self) -> Path:
        return self.root / "clock.json"

    def _kept_offset(self) -> float:
        """Seconds the server's clock was ahead of this laptop's when it last answered
        (0 when they agreed within ``CLOCK_SLACK``, or it never answered)."""
        path = self._clock_file()
        if not path.exists():
            return 0.0
        try:
            kept = msgspec.json.decode(path.read_bytes(), type=dict[str, float])
        except msgspec.DecodeError:
            return 0.0
        return kept.get(self.remote.url, 0.0)

    def _note_clock(self) -> None:
        """Keep how far this laptop's clock is from the server's, as its last answer
        said, so that entries recorded offline carry the server's time (the head
        referee reads one clock for the whole hall), not a drifted laptop's. Written only
        when it changed: clocks that agree cost no file."""
        offset = self.remote.clock_offset
        if offset is None:
            return
        drift = offset if abs(offset) >= CLOCK_SLACK else 0.0
        kept = self._kept_offset()
        if abs(drift - kept) < 1.0:
            return
        path = self._clock_file()
        table: dict[str, float] = {}
        if path.exists():
            with contextlib.suppress(msgspec.DecodeError):
                table = msgspec.json.decode(path.read_bytes(), type=dict[str, float])
        table[self.remote.url] = round(drift, 3)
        _write_atomically(path, msgspec.json.encode(table))

    def _server_now(self) -> datetime:
        """Now on the server's clock, as far as its last answer told this laptop."""
        return datetime.now(UTC) + timedelta(seconds=self._kept_offset())

    # -- copies of the games -------------------------------------------------------------
    def _record(self, game: str) -> Path:
        return self.root / "records" / f"{_safe_name(game)}.jsonl"

    def _store(self, game: str) -> Path:
        return self.root / "games" / f"{_safe_name(game)}.db"

    def _kept_version(self, game: str) -> int | None:
        path = self._record(game)
        if not path.exists():
            return None
        with path.open("rb") as lines:
            head = lines.readline()
        try:
            return int(msgspec.json.decode(head, type=dict[str, Any])["events"])
        except (msgspec.DecodeError, KeyError, TypeError, ValueError):
            return None

    def keep(self, game: str, version: int | None) -> None:
        """Keep the game's record as the server has it now (when it moved since the copy
        kept here, or ``version`` is unknown and none is kept); quietly nothing when the
        server will not give it (a token that may not read the whole record)."""
        if self.pending(game):
            return  # the local store is ahead: it is the copy until the entries are sent
        kept = self._kept_version(game)
        if kept is not None and (version is None or kept == version):
            return
        with contextlib.suppress(RemoteError):
            if kept is not None and version is not None and version > kept:
                self._extend(game, kept, self.remote.record_after(game, kept))
            else:
                _write_atomically(self._record(game), self.remote.record_jsonl(game))

    def _extend(self, game: str, kept: int, lines: bytes) -> None:
        """Add the lines the server gained since ``kept`` to the kept record (its header's
        count and last hash with them); the whole record again when they do not follow."""
        path = self._record(game)
        old = path.read_bytes().splitlines(keepends=True)
        new = [line for line in lines.splitlines(keepends=True) if line.strip()]
        if not old or not new:
            return
        last = msgspec.json.decode(new[-1], type=dict[str, Any])
        first = msgspec.json.decode(new[0], type=dict[str, Any])
        if first.get("originator_version") != kept + 1:
            _write_atomically(path, self.remote.record_jsonl(game))
            return
        head = msgspec.json.decode(old[0], type=dict[str, Any])
        head["events"] = int(last["originator_version"])
        head["last_hash"] = str(last["hash"])
        header = json.dumps(head).encode() + b"\n"  # as the server's export writes it
        _write_atomically(path, b"".join([header, *old[1:], *new]))

    def _local(self, ref: str, why: ServerUnreachableError) -> tuple[RefereeService, str]:
        """The local store of a game (made from its kept record when there is none yet);
        ``why`` the server could not be reached, said again when no copy is kept here."""
        from service.app import open_service

        game = self._resolve(ref, why)
        path = self._store(game)
        fresh = not path.exists()
        path.parent.mkdir(parents=True, exist_ok=True)
        svc = open_service(path, create=True)
        if fresh:
            try:
                _import(svc, self._record(game))
            except BaseException:
                svc.close()
                path.unlink(missing_ok=True)
                raise
        return svc, game

    def _resolve(self, ref: str, why: ServerUnreachableError) -> str:
        """A game id from a whole id or a unique ending, among the games kept here."""
        kept = sorted(p.stem for p in (self.root / "records").glob("*.jsonl"))
        if ref in kept:
            return ref
        found = [g for g in kept if g.endswith(ref)]
        if len(found) == 1:
            return found[0]
        raise ServerUnreachableError(
            f"{why}; no copy of {ref!r} is kept on this laptop to record it offline (a game is "
            "kept once it was shown or played here while the server answered)"
            if not found
            else f"{why}; {ref!r} matches several games kept on this laptop: {', '.join(found)}"
        )

    # -- sending -------------------------------------------------------------------------
    def flush(self) -> list[Synced]:
        """Send every pending entry of this server, game by game in the order they were
        recorded, each game's entries as one batch under its first entry's key. Raises
        ``ServerUnreachableError`` when the server still cannot be reached (the outbox is
        kept as it is). A batch the server refuses (a token that may no longer write that
        game, a game it does not hold) is held in the outbox, ``held`` with the refusal,
        and the other games' batches are sent: one game's refusal does not stop the
        laptop recording the others."""
        done: list[Synced] = []
        device = ""
        tried: set[str] = set()
        while True:
            mine = [p for p in self.pending() if p.game not in tried]
            if not mine:
                return done
            device = device or _token_device(self.remote, self.device)
            game = mine[0].game
            tried.add(game)
            batch = [p for p in mine if p.game == game]
            try:
                answer = self._send(game, device, batch)
            except ServerUnreachableError:
                raise
            except RemoteError as refused:
                held = Synced(game=game, entries=len(batch), outcome="held", event=0, version=0)
                held.reason = str(refused)
                done.append(held)
                continue
            self._note_clock()
            keys = {p.key for p in batch}
            self._save([p for p in self._all() if p.key not in keys])
            self._store(game).unlink(missing_ok=True)
            self._record(game).unlink(missing_ok=True)
            self.keep(game, None)
            done.append(
                Synced(
                    game=game,
                    entries=len(batch),
                    outcome=str(answer.get("outcome", "")),
                    event=int(answer.get("event", 0)),
                    version=int(answer.get("version", 0)),
                    reason=str(answer.get("reason", "")),
                    events=_stored_as(answer),
                )
            )

    def _send(self, game: str, device: str, batch: list[Pending]) -> dict[str, Any]:
        """One game's batch to the server; an answer lost on the way back is said as what
        it means for the outbox (kept, and sent again safely), not as a new entry's."""
        try:
            return self.remote.sync(
                game,
                {
                    "device": device,
                    "base_version": batch[0].base_version,
                    "entries": [
                        {
                            "text": p.text,
                            "seat": p.seat,
                            "key": p.key,
                            "recorded_at": p.recorded_at,
                            "judged": p.judged,
                            "judged_on": p.judged_on,
                        }
                        for p in batch
                    ],
                },
                key=batch[0].key,
            )
        except ServerUnreachableError as exc:
            waiting = self.pending()
            kept = (
                f"pending entries kept in this laptop's outbox: {len(waiting)} "
                f"({len({p.game for p in waiting})} games)"
            )
            if exc.sent:
                said = (
                    str(exc).partition("; it may have been recorded")[0]
                    + f": the {len(batch)} pending entries of {game} sent may have been "
                    f"stored; {kept}; 'referee sync' sends them again (a batch sent again "
                    "is never stored twice)"
                )
            else:
                said = f"{exc}; {kept}; 'referee sync' sends them when it answers"
            lost = ServerUnreachableError(said)
            lost.sent = exc.sent
            raise lost from None

    def offline_answer(self, answer: Any, game: str) -> dict[str, Any]:
        """An answer judged on this laptop's copy, as ``--json`` gives it: the answer's
        own members, and ``offline`` (true) with the game's ``pending`` entries (not yet
        judged by the server), so a script never takes a local event number for one the
        server stored."""
        waiting = [
            {
                "text": p.text,
                "seat": p.seat,
                "judged": p.judged,
                "judged_on": p.judged_on,
                "recorded_at": p.recorded_at,
            }
            for p in self.pending(game)
        ]
        return {**msgspec.to_builtins(answer), "offline": True, "pending": waiting}

    # -- the commands --------------------------------------------------------------------
    def record(
        self, ref: str, text: str, *, seat: str | None = None, dry_run: bool = False
    ) -> tuple[EntryResult, list[Synced], bool]:
        """``act`` through the outbox: (the answer, what the outbox sent first, whether the
        entry was judged here because the server could not be reached)."""
        key = _token_hex(16)
        try:
            sent = self.flush()
        except ServerUnreachableError as exc:  # the outbox's answer lost: this entry unsent
            return self._record_here(ref, text, seat, dry_run, key, exc), [], True
        if not dry_run:  # a dry run stores nothing: nothing to send ahead
            _never_ahead(ref, sent)
        try:
            result = self.remote.record(ref, text, seat=seat, dry_run=dry_run, key=key)
        except ServerUnreachableError as exc:
            if exc.sent:
                raise  # it may have been stored: never judged twice
            return self._record_here(ref, text, seat, dry_run, key, exc), [], True
        self._note_clock()
        if not dry_run:
            self.keep(result.game_id or ref, result.version)
        return result, sent, False

    def _record_here(
        self,
        ref: str,
        text: str,
        seat: str | None,
        dry_run: bool,
        key: str,
        why: ServerUnreachableError,
    ) -> EntryResult:
        svc, game = self._local(ref, why)
        try:
            before = svc.load(game).version
            result = svc.record(game, text, actor=seat, by=self.referee, dry_run=dry_run)
            if dry_run or result.event is None:
                return result
            earlier = self.pending(game)
            judged = result.notation or text
            if not result.accepted:
                clauses = ", ".join(v.clause for v in result.violations)
                judged = f"rejected {quoted(text)} ({clauses})"
            entry = Pending(
                server=self.remote.url,
                game=game,
                text=text,
                seat=seat,
                key=key,
                base_version=earlier[0].base_version if earlier else before,
                judged_on=before,
                judged=judged,
                recorded_at=self._server_now(),
            )
            self._save([*self._all(), entry])
            return result
        finally:
            svc.close()

    def position(
        self, ref: str, *, at: int | None = None, viewer: str | None = None
    ) -> tuple[PositionView, list[Synced], bool]:
        """``show`` through the outbox: (the position, what was sent first, offline?)."""
        try:
            sent = self.flush()
            pos = self.remote.position(ref, at=at, viewer=viewer)
        except ServerUnreachableError as exc:  # a read: shown from the copy, sent or not
            svc, game = self._local(ref, exc)
            try:
                return svc.position(game, at=at, viewer=viewer), [], True
            finally:
                svc.close()
        self._note_clock()
        self.keep(pos.game_id or ref, pos.version)
        return pos, sent, False

    def legal(
        self, ref: str, *, seat: str | None = None
    ) -> tuple[LegalActions, list[Synced], bool]:
        """``legal`` through the outbox: (the entries, what was sent first, offline?)."""
        try:
            sent = self.flush()
            found = self.remote.legal(ref, seat=seat)
        except ServerUnreachableError as exc:  # a read: judged on the copy, sent or not
            svc, game = self._local(ref, exc)
            try:
                return svc.legal(game, seat=seat), [], True
            finally:
                svc.close()
        self._note_clock()
        if self._kept_version(ref) is None:
            self.keep(ref, None)
        return found, sent, False


def _never_ahead(ref: str, sent: list[Synced]) -> None:
    """Refuse an entry of a game whose entries recorded offline are held (the server
    refused their batch): sent live, it would be stored ahead of them."""
    for held in sent:
        if held.outcome == "held" and (held.game == ref or held.game.endswith(ref)):
            raise ServerRefusedError(
                f"{held.entries} entries of {held.game} recorded offline are held in this "
                f"laptop's outbox ({held.reason}); this entry was not sent, so as not to be "
                "stored ahead of them: send them with a token that may write the game "
                "('referee sync'), or ask the head referee",
                status=409,
                kind="offline-held",
            )


def _stored_as(answer: dict[str, Any]) -> list[int]:
    """The events a merged batch's entries were stored as: the server's ``events`` (which
    count those stored when an earlier send's answer was lost), else its results'."""
    found = {int(r["event"]) for r in answer.get("results", []) if r.get("event")}
    found.update(int(n) for n in answer.get("events", []))
    return sorted(found)


def _import(svc: RefereeService, record: Path) -> None:
    """A game's kept record into an empty local store, every event as the server stored it."""
    from service.errors import GameNotFoundError

    if not record.exists():
        raise GameNotFoundError(f"no copy of {record.stem} is kept on this laptop")
    from events.interchange.jsonl import read_jsonl

    rows = read_jsonl(record.read_text(encoding="utf-8").split("\n"), str(record))
    game = rows[0][1].originator_id
    svc.store.insert_rows(
        [(game, [(e.originator_version, topic, state) for _, e, topic, state in rows])]
    )

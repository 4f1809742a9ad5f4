"""The API's routes for entries recorded offline (REF-9.4, REF-9.5), over ``service.offline``.

``POST /api/games/{id}/offline`` takes a table's pending entries for one game (its
outbox, sent with an ``Idempotency-Key``): stored as if live when the game did not move,
else kept whole as a branch for the head referee's queue. ``GET .../branches`` lists a
game's branches; ``POST .../branches/{event}`` is the head referee's choice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import msgspec
from litestar import Response, get, post
from litestar.params import FromPath, FromQuery, JSONBody

from service.api import (
    Branch,
    OfflineEntryIn,
    SyncOutcome,
    branches,
    merge_offline,
    record_lines,
)
from service.api import resolve_branch as resolve
from service.errors import RefusedError, StaleVersionError
from service.results import EntryResult
from web.api import PROBLEMS, guarded
from web.guards import SeatingDep, WebDep, Writer, WriterDep, etag, may_game

__all__ = ["OFFLINE_HANDLERS"]


class OfflineBatchIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A table's pending entries for one game, in the order it recorded them, and the
    game's version (number of events) the first was judged on."""

    device: str
    base_version: int
    entries: list[OfflineEntryIn]


class KeepIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    keep: Literal["server", "table"]
    reason: str = ""


class Kept(msgspec.Struct, kw_only=True):
    branch: int
    kept: str
    results: list[EntryResult]


@post(
    "/api/games/{game_id:str}/offline",
    summary="A table's entries recorded while the server was unreachable (REF-9.4, REF-9.5)",
    responses=PROBLEMS,
    status_code=200,
    guards=[may_game("record")],
)
async def sync_offline(writer: WriterDep, data: JSONBody[OfflineBatchIn]) -> Response[SyncOutcome]:
    """200 with ``merged`` (stored as if live) or ``conflict`` (kept as a branch for the
    head referee); a retry with the same key is answered from the first. The version the
    entries were made on is the body's ``base_version`` (``If-Match``, when sent, must agree)."""
    w = writer
    if w.expected is not None and w.expected != data.base_version:
        raise RefusedError("If-Match names another version than base_version")
    answered = await _stored_live(w, data.entries)
    entries = data.entries[len(answered) :]
    base_version = answered[-1].version if answered else data.base_version
    fields = msgspec.structs.asdict(data) | {"entries": entries, "base_version": base_version}

    def work() -> tuple[int, Any, dict[str, str]]:
        if not entries:  # every entry was stored when first sent: nothing is left to merge
            last = answered[-1]
            outcome = SyncOutcome(
                game_id=w.game_id,
                outcome="merged",
                event=last.event or last.version,
                version=last.version,
            )
        else:
            outcome = merge_offline(w.svc, w.game_id, **fields, by=w.by)
        if answered and outcome.outcome == "merged":  # each entry's fate, in the order sent
            outcome = msgspec.structs.replace(outcome, results=[*answered, *outcome.results])
        return 200, outcome, {"ETag": etag(outcome.version)}

    return await w.game(work)


async def _stored_live(w: Writer, entries: list[OfflineEntryIn]) -> list[EntryResult]:
    """The batch's leading entries that the server already stored when they were first sent
    live (``POST .../entries`` under the entry's own key) though the table never had the
    answer (the network failed on the way back): their answers as a retry of each is
    answered (the key found in the game's log by the write pipeline), in order. They are
    not a second line of play: sent again, they would be a false branch (REF-9.5)."""
    found: list[EntryResult] = []
    for entry in entries:
        result = await w.web.run(
            w.svc.entry_answered, w.game_id, entry.text, entry.key, actor=entry.seat, by=w.by
        )
        if result is None:
            break
        found.append(result)
    return found


@get(
    "/api/games/{game_id:str}/branches",
    summary="Branches of a game kept as evidence (entries recorded offline, REF-9.5)",
    **guarded(may_game("queue")),
)
async def game_branches(web: WebDep, seating: SeatingDep) -> list[Branch]:
    return await web.run(branches, web.svc, seating.game_id)


@post(
    "/api/games/{game_id:str}/branches/{event:int}",
    summary="Keep one branch: the server's or the table's (head referee, REF-9.5)",
    responses=PROBLEMS,
    status_code=201,
    guards=[may_game("backup")],  # the head referee's, as a backup is
)
async def keep_branch(
    writer: WriterDep, event: FromPath[int], data: JSONBody[KeepIn]
) -> Response[Kept]:
    w = writer

    def work() -> tuple[int, Any, dict[str, str]]:
        actual = w.svc.load(w.game_id).version  # If-Match, on the writer thread, in order
        if w.expected is not None and actual != w.expected:
            raise StaleVersionError(w.game_id, w.expected, actual)
        kept = resolve(w.svc, w.game_id, event, data.keep, reason=data.reason, by=w.by)
        return 201, Kept(branch=event, kept=data.keep, results=kept), {}

    return await w.game(work)


@get(
    "/api/games/{game_id:str}/record",
    summary="The game's stored events after ?after=N as referee-jsonl lines (referees: a "
    "table's offline copy, REF-9.4)",
    responses=PROBLEMS,
    media_type="application/x-ndjson",
    guards=[may_game("export_record")],
)
async def record_after(
    web: WebDep, seating: SeatingDep, after: FromQuery[int] = 0
) -> Response[str]:
    """The lines a table's copy lacks; ``ETag`` is the game's version they reach."""
    _, version, lines = await web.run(record_lines, web.svc, seating.game_id, after)
    return Response(
        content="".join(lines),
        media_type="application/x-ndjson",
        headers={"ETag": f'"{version}"', "Cache-Control": "no-store"},
    )


_WORKER = Path(__file__).parent / "static" / "player-sw.js"


@get("/player-sw.js", include_in_schema=False, opt={"public": True})
async def player_worker() -> Response[bytes]:
    """The service worker that keeps a player's page through an outage; served from the
    root so that its scope may cover ``/events/``."""
    return Response(
        content=_WORKER.read_bytes(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


_TABLE_WORKER = Path(__file__).parent / "static" / "table-sw.js"


@get("/table-sw.js", include_in_schema=False, opt={"public": True})
async def table_worker() -> Response[bytes]:
    """The service worker that keeps a table page already opened through an outage (its
    outbox is the page's own, REF-9.4); served from the root so that its scope may cover
    ``/games/``."""
    return Response(
        content=_TABLE_WORKER.read_bytes(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


OFFLINE_HANDLERS = [
    sync_offline,
    game_branches,
    keep_branch,
    record_after,
    player_worker,
    table_worker,
]

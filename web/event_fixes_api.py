"""The API's routes for fixing an event's mistakes in place, its penalties, decklists and
draw (``/api/events/ID/...``), over ``service.event_fixes``: the same methods as
``referee event repair / undo-round / undrop / change / penalty / end / deck / draw /
rating``.

The head referee runs every write here (the guard ``may_event("run")``) but one: a player
hands in or replaces their own decklist (``POST /api/events/ID/decklist``, the service
says who may: the caller is handed to it). The draw is read by anyone who reads the event.
Status codes as for the other event routes: 201 written, 400 refused (the ``EV-`` clause,
nothing stored), 403 the role may not, 404 no such event, 409 another write came first.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Controller, Response, get, post
from litestar.params import FromPath, JSONBody
from litestar.types import ControllerRouterHandler

from service.api import DeckReceived, DrawInfo, EventInfo, PenaltyOutcome, Repaired, Undone
from web.api import PROBLEMS, guarded
from web.event_api import _created
from web.guards import Route, WebDep, Writer, WriterDep, may_event
from web.schemas import ListText, one_deck

__all__ = ["EVENT_FIX_HANDLERS"]


class RepairIn(msgspec.Struct, kw_only=True):
    """``manual`` as for pairing by hand; without it the engine re-pairs (EV-5.12)."""

    reason: str
    manual: dict[str, Any] | None = None


class ReasonIn(msgspec.Struct, kw_only=True):
    reason: str


class UndropIn(msgspec.Struct, kw_only=True):
    player: str
    reason: str


class Undropped(msgspec.Struct, kw_only=True):
    player: str


class RatingIn(msgspec.Struct, kw_only=True):
    """A player's corrected rating, 0 to 9,999 (``null``: none), until round 1 is paired
    (EV-2.11), with the reason."""

    player: str
    rating: int | None
    reason: str


class RatingSet(msgspec.Struct, kw_only=True):
    player: str
    rating: int | None


class ChangeIn(msgspec.Struct, kw_only=True):
    """The new number of Swiss rounds, the new cut (0: none), or both (EV-1.5)."""

    reason: str
    rounds: int | None = None
    cut: int | None = None


class PenaltyIn(msgspec.Struct, kw_only=True):
    """``penalty``: the head referee's choice; default the IPG's suggestion (EV-8.6)."""

    player: str
    infraction: str
    penalty: str | None = None
    reason: str = ""


class WithdrawIn(msgspec.Struct, kw_only=True):
    """``result``: the table's result without the penalty, when it counted (EV-8.7)."""

    reason: str
    result: str | None = None


class Withdrawn(msgspec.Struct, kw_only=True):
    penalty: int
    stored: list[str]


class EndIn(msgspec.Struct, kw_only=True):
    reason: str = ""
    void_open: bool = False


class Ended(msgspec.Struct, kw_only=True):
    voided: list[str]


class DeckIn(msgspec.Struct, kw_only=True):
    """An open list (``decklist``, the text) or a sealed one (``sealed``, COMMIT:SIZE)."""

    decklist: str | None = None
    sealed: str | None = None


class DeckAttached(msgspec.Struct, kw_only=True):
    player: str


class MyDeckIn(msgspec.Struct, kw_only=True):
    """The caller's own list as text: one card a line (``4 Fire Imp``), as a decklist file."""

    decklist: ListText


RUN = Route(responses=PROBLEMS, status_code=201, guards=[may_event("run")])
"""Every fix: written (201), the head referee's."""
EventId = FromPath[str]


def _said(writer: Writer, data: Any) -> dict[str, str]:
    """A fix's reason, as the body gives it, and who gives it."""
    return {"reason": data.reason, "by": writer.by}


class EventFixesController(Controller):
    """An event's fixes (the head referee's): re-pairing, undoing a round, undropping,
    settings, penalties, ending, decklists; and round 1's draw."""

    path = "/api/events"
    tags = ("events",)

    @post(
        "/{event_id:str}/repairs",
        summary="Re-pair the open round (engine, or by hand), keeping tables with a result",
        **RUN,
    )
    async def repair_round(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[RepairIn]
    ) -> Response[Repaired]:
        fix = writer.svc.event_repair_moves
        done = await writer.event(fix, event_id, data.manual, **_said(writer, data))
        return _created(done, event_id)

    @post(
        "/{event_id:str}/undo",
        summary="Undo the latest round before its first result (its games voided)",
        **RUN,
    )
    async def undo_round(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[ReasonIn]
    ) -> Response[Undone]:
        fix = writer.svc.event_undo_round
        return _created(await writer.event(fix, event_id, **_said(writer, data)), event_id)

    @post("/{event_id:str}/undrops", summary="Return a player dropped by mistake", **RUN)
    async def undrop_player(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[UndropIn]
    ) -> Response[Undropped]:
        name = await writer.event(
            writer.svc.event_undrop, event_id, data.player, **_said(writer, data)
        )
        return _created(Undropped(player=name), event_id)

    @post(
        "/{event_id:str}/ratings",
        summary="Correct a player's rating until round 1 is paired (EV-2.11)",
        **RUN,
    )
    async def correct_rating(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[RatingIn]
    ) -> Response[RatingSet]:
        fix = writer.svc.event_correct_rating
        name = await writer.event(fix, event_id, data.player, data.rating, **_said(writer, data))
        return _created(RatingSet(player=name, rating=data.rating), event_id)

    @post(
        "/{event_id:str}/settings",
        summary="Change the number of Swiss rounds or the cut while still possible",
        **RUN,
    )
    async def change_settings(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[ChangeIn]
    ) -> Response[EventInfo]:
        info = await writer.event(
            writer.svc.event_change,
            event_id,
            rounds=data.rounds,
            cut=data.cut,
            **_said(writer, data),
        )
        return _created(info, event_id)

    @post(
        "/{event_id:str}/penalties",
        summary="Give an event penalty; it reaches the match (game loss, match loss, DQ)",
        **RUN,
    )
    async def give_penalty(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[PenaltyIn]
    ) -> Response[PenaltyOutcome]:
        given = await writer.event(
            writer.svc.event_penalize,
            event_id,
            data.player,
            data.infraction,
            penalty=data.penalty,
            **_said(writer, data),
        )
        return _created(given, event_id)

    @post(
        "/{event_id:str}/penalties/{number:int}/withdrawal",
        summary="Withdraw an event penalty (head referee); its effects reversed by new facts",
        **RUN,
    )
    async def withdraw_penalty(
        self,
        writer: WriterDep,
        event_id: EventId,
        number: FromPath[int],
        data: JSONBody[WithdrawIn],
    ) -> Response[Withdrawn]:
        fix = writer.svc.event_penalty_withdraw
        stored = await writer.event(
            fix, event_id, number, result=data.result, **_said(writer, data)
        )
        return _created(Withdrawn(penalty=number, stored=stored), event_id)

    @post(
        "/{event_id:str}/end",
        summary="End the event; refused while its games are open unless void_open",
        **RUN,
    )
    async def end_event(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[EndIn]
    ) -> Response[Ended]:
        fix = writer.svc.event_end
        voided = await writer.event(fix, event_id, void_open=data.void_open, **_said(writer, data))
        return _created(Ended(voided=voided), event_id)

    @post(
        "/{event_id:str}/players/{player:str}/decklist",
        summary="Attach or replace a player's decklist until their first round is paired",
        **RUN,
    )
    async def attach_decklist(
        self, writer: WriterDep, event_id: EventId, player: FromPath[str], data: JSONBody[DeckIn]
    ) -> Response[DeckAttached]:
        refusal = "give decklist (the list's text) or sealed (COMMIT:SIZE), not both"
        deck = one_deck(data.decklist, data.sealed, refusal)
        fix = writer.svc.event_attach_deck
        name = await writer.event(fix, event_id, player, deck, by=writer.by)
        return _created(DeckAttached(player=name), event_id)

    @post(
        "/{event_id:str}/decklist",
        summary="A player hands in or replaces their own decklist until the deadline round "
        "is paired (EV-2.8); checked as the head's",
        responses=PROBLEMS,
        status_code=201,
    )
    async def my_decklist(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[MyDeckIn]
    ) -> Response[DeckReceived]:
        hand_in = writer.svc.decklist_as  # a player's token: their own list (the service)
        received = await writer.event(hand_in, writer.caller, event_id, data.decklist)
        return _created(received, event_id)

    @get(
        "/{event_id:str}/draw",
        summary="Round 1's draw: the recorded seed and each player's key",
        **guarded(may_event("read")),
    )
    async def event_draw(self, web: WebDep, event_id: FromPath[str]) -> DrawInfo:
        info: DrawInfo = await web.run(web.svc.event_draw, event_id)
        return info


EVENT_FIX_HANDLERS: list[ControllerRouterHandler] = [EventFixesController]

"""The event's desk ``/events/E/desk``: where the head referee runs the event from a page.

What the command line's ``referee event pair / register / drop / undrop / deck / correct /
penalty [withdraw] / repair / undo-round / change / start-round / end-round / length / end``
do, as plain HTML forms (no JavaScript, a phone's width): pair
the next round (after the last Swiss round that pairing makes the cut, EV-6.1) with the
players still without a decklist named beside it (EV-2.8), or by hand (the tables typed one
a line, EV-5.11); drop and undrop a player; attach a player's decklist before their
deadline (EV-2.8); give a penalty (it reaches the match as ``event_penalize`` applies it,
EV-8.6) and withdraw one from the event's list of penalties (EV-8.7); re-pair the latest
round (with the engine or by hand) or undo it, with the reason EV-5.11 and EV-5.12 ask for;
end the event (EV-1.4); register players (after round 1: a late entry, EV-2.3), correct a
reported result with its reason (EV-8.1), change the Swiss rounds or the cut while allowed
(EV-1.5), mark the round started and ended (EV-5.10), set the round length (EV-9.1). Once
the event has ended the desk is its summary (the final standings' link, the penalties, the
audit) with what the service still allows then: a correction, a penalty's withdrawal
(not a disqualification's). Players are typed by name from one ``<datalist>`` the forms share
(a 10,000-player event names each once); the service resolves the name as the command
line's does and refuses one that is no player (EV-2.1).

Each form is posted to ``/events/E/desk/do`` and goes through ``hallpages._staff_form``:
carried out once per its key (``web.formkeys``), a refusal kept with its clause and what
was typed, then a redirect to the desk showing the outcome. Each action calls the service
method the command line and the JSON API call, after the same access check (the write
pipeline's authorize stage, ``service.access.authorize_event``): the head referee may do
all of it; the scorekeeper, who enters players (``enter``: registers, drops, corrects a
result), sees those forms only; anyone else is refused the page (403).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from litestar import Request, Response, get, post
from litestar.params import FromPath, QueryParameter
from litestar.response import Redirect

from referee import games
from referee.capabilities import decks_of
from referee.kit.decks import Deck
from referee.tournament.decisions import entries_closed, pairing_over
from referee.tournament.errors import Refusal
from referee.tournament.facts import PENALTY_LEVELS
from referee.tournament.model import Entrant
from referee.tournament.penalties import INFRACTIONS
from service.access import AccessDeniedError, Principal, authorize_event
from service.api import MAX_RATING, DrawInfo, admit, need, rating_from, ratings_from_lines
from service.bounds import LIST
from service.errors import RefusedError
from service.wording import correction_consequence
from web import collector, formkeys
from web.context import Web, web_of
from web.export import render
from web.formkeys import Outcome
from web.hallpages import _admitted, _bounded, _staff_form, _table_of, _TooLong
from web.pages import _page, _who
from web.schemas import one_deck

__all__ = ["DESK_PAGES"]

AnyRequest = Request[Any, Any, Any]

REASON_LONGEST = 1000
"""A reason typed on the desk: a paragraph at most (docs/forms.md, Bounds)."""
NAME_LONGEST = 200
HAND_LONGEST = 60_000
"""A pairing typed by hand: within the 64 KB a form's body may be (``BODY_LIMIT``, as the
JSON API's), some 2,000 tables; a larger round by hand is a ``--manual`` file on the
command line."""


AUDIT_SHOWN = 500
"""The ended desk's audit shows its latest entries up to this many (an event's drops and
late entries at 10,000 players would be a page of thousands of rows); ``referee event
audit`` and ``GET /api/events/E/audit`` have them all."""


def _may(who: Principal, action: str) -> bool:
    """Whether ``who`` may make the event's writes of ``action`` (``run``, ``enter``,
    ``clock``): the write pipeline's authorize stage, asked ahead."""
    try:
        admit(who, need(action))
    except AccessDeniedError:
        return False
    return True


@get("/events/{event_id:str}/desk", include_in_schema=False)
async def desk_page(
    request: AnyRequest,
    event_id: FromPath[str],
    said_key: Annotated[str | None, QueryParameter(name="said")] = None,
    audit_asked: Annotated[str | None, QueryParameter(name="audit")] = None,
) -> Response[str] | Redirect:
    """The desk: the event's forms for whoever may use them; ``?said=KEY`` shows what the
    last one did (or its refusal with the values typed); once the event has ended,
    ``?audit=1`` shows its audit (a scan of the event's stream: 1.4 s at 10,000 players,
    so made when asked, not at each look at the ended desk)."""
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    authorize_event(who, "enter")  # the head referee, the scorekeeper: anyone else 403
    event = event_id.strip()
    board, _ = await web.run(web.svc.event_board, event, None, with_standings=False)
    info = await web.run(web.svc.event_info, event)
    state = await web.run(web.svc.event_state, event)
    missing = (  # who may still hand in a list before the next pairing (EV-2.8)
        await web.run(web.svc.event_missing_decks, event, unlocked=True) if not info.ended else []
    )
    shown = info.ended and bool(audit_asked) and _may(who, "audit")
    audit = await web.run(web.svc.event_audit_named, event) if shown else None
    entries: list[dict[str, Any]] = audit["entries"] if audit else []
    latest = entries[-AUDIT_SHOWN:]
    said = await formkeys.said(web, who, said_key)
    entrants = sorted(state.players.values(), key=lambda p: p.order)
    settings = state.settings
    deck_game = settings is not None and decks_of(games.load(settings.game)) is not None
    deadline = settings.deck_deadline if settings is not None else 1
    current = state.current_round
    ended = state.ended_rounds
    return _page(
        render(
            "event_desk.html",
            who=who,
            b=board,
            info=info,
            page="desk",
            desk_link=True,
            run=_may(who, "run"),
            enter=_may(who, "enter"),
            clock=_may(who, "clock"),
            audit=_may(who, "audit"),
            audit_shown=shown,
            round_minutes=state.round_minutes,
            # a round already ended is not started afterwards: its mark would say nothing true
            to_start=current if current and current not in state.started | ended else 0,
            to_end=current if current and current not in state.ended_rounds else 0,
            last_played=_said(pairing_over(state)),
            latest_open=bool(current) and info.open_round == current,
            entries_closed=_said(entries_closed(state) if state.settings is not None else None),
            audit_lines=[_audit_line(e) for e in latest if not _routine(e)],
            audit_routine=[_audit_line(e) for e in latest if _routine(e)],
            audit_latest=len(latest),
            audit_count=len(entries),
            names=[p.name for p in entrants],  # one datalist the player fields share
            # before round 1, the rated players in the order they seed it (EV-5.6, EV-2.11)
            seeds=None if current else _seeds(await web.run(web.svc.event_draw, event), entrants),
            unrated=sum(1 for p in entrants if p.rating is None and p.dropped_after is None),
            max_rating=f"{MAX_RATING:,}",
            dropped=sum(1 for p in entrants if p.dropped_after is not None),
            penalties=await web.run(web.svc.event_penalty_lines, event),
            deck_game=deck_game,
            deck_deadline=deadline if isinstance(deadline, int) else 1,
            infractions=list(INFRACTIONS),
            levels=PENALTY_LEVELS,
            missing_decks=missing,
            said=said,
            sent=said.form if said and not said.ok else {},
            **formkeys.key_field(),
        )
    )


def _seeds(draw: DrawInfo, entrants: list[Entrant]) -> list[tuple[str, int]]:
    """The active players with a rating in round 1's order, as the service draws it
    (``event_draw``: highest first, equal ratings by their draw keys, EV-5.6)."""
    dropped = {p.id for p in entrants if p.dropped_after is not None}
    return [
        (line.name, line.rating)
        for line in draw.order
        if line.rating is not None and line.player not in dropped
    ]


def _said(refusal: Refusal | None) -> str:
    """A refusal the desk shows in place of a form that could only be refused (the
    domain's ``pairing_over``: the last round is played; ``entries_closed``: EV-2.3), in
    the refusal's words and clause; empty while the form can be sent."""
    return f"{refusal.clause}: {refusal.reason}" if refusal is not None else ""


_BY_ITS_SLIP = re.compile(r" was decided by its slip$")


def _routine(entry: dict[str, Any]) -> bool:
    """Whether an audit entry is the bookkeeping of every result: a table's open games
    closed as void because its slip decided the match (one per table of a slip-only
    event: 33 of the 41 entries of a 16-player event walked at the desk). The desk folds
    them under one line so that the overrides, corrections and penalties the head reads
    the audit for are not lost among them; the command line and the API list all."""
    reason = entry.get("reason")
    return (
        entry.get("what") == "games voided"
        and isinstance(reason, str)
        and _BY_ITS_SLIP.search(reason) is not None
    )


def _audit_line(entry: dict[str, Any]) -> tuple[int, str, str]:
    """An audit entry as ``referee event audit`` prints it: its number, what it is, and
    the rest as ``key=value`` (a list joined; what is empty left out)."""
    rest = ", ".join(
        f"{k}={'; '.join(map(str, v)) if isinstance(v, list) else v}"
        for k, v in entry.items()
        if k not in ("event", "what") and v not in ("", None, [])
    )
    return int(entry["event"]), str(entry["what"]), rest


def _hand_pairing(text: str, pods: bool) -> dict[str, Any]:
    """The pairing typed on the desk, in the shape ``event pair --manual`` reads
    (``referee.tournament.manual``): one table a line, its players separated by `` v `` as
    the pairings print, ``bye NAME`` for a bye; each player by name as registered or by
    event id (a name holding `` v `` is given by its id). Checked by the service (EV-5.11)."""
    tables: list[list[str]] = []
    byes: list[str] = []
    for line in text.splitlines():
        written = " ".join(line.split())
        first, _, rest = written.partition(" ")
        if not written:
            continue
        if first.lower() == "bye" and rest and " v " not in rest:
            byes.append(rest)
        else:
            tables.append(written.split(" v "))
    if not tables and not byes:
        raise RefusedError("EV-5.11: write the pairing: one table a line (Ann v Ben), bye NAME")
    return {"pods" if pods else "pairs": tables, "byes": byes}


def _deck(form: dict[str, str]) -> Deck:
    """The list typed on the desk (``decklist``, one card a line) or its sealed
    registration (``sealed``, COMMIT:SIZE): one of them, as ``event deck`` takes one."""
    text = _bounded(form, "decklist", LIST)
    sealed = _bounded(form, "sealed", NAME_LONGEST)
    refusal = "EV-2.8: give the list (one card a line) or its sealed COMMIT:SIZE, one of them"
    return one_deck(text or None, sealed or None, refusal)


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _player(form: dict[str, str]) -> str:
    player = _bounded(form, "player", NAME_LONGEST)
    if not player:
        raise RefusedError("EV-2.5: name the player")
    return player


def _whole(form: dict[str, str], field: str, clause: str, what: str) -> int | None:
    """``form``'s ``field`` as a whole number, ``None`` when left empty; anything else
    refused with ``clause``."""
    raw = form.get(field, "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 6:
        raise RefusedError(f"{clause}: {what} is a whole number, not {raw!r}")
    return int(raw)


def _lines(form: dict[str, str], field: str) -> list[str]:
    """``form``'s ``field`` typed one a line (names, player ids): each line a name's
    length at most, the empty lines left out."""
    text = _bounded(form, field, HAND_LONGEST)
    found = [" ".join(line.split()) for line in text.splitlines()]
    for line in found:
        if len(line) > NAME_LONGEST:
            raise _TooLong(
                f"a line of the {field} is {len(line):,} characters; at most "
                f"{NAME_LONGEST:,} are taken; nothing was stored"
            )
    return [line for line in found if line]


def _optional_deck(form: dict[str, str]) -> Deck | None:
    """A registration's decklist (``event register --deck/--sealed``): none, or one."""
    if not form.get("decklist", "").strip() and not form.get("sealed", "").strip():
        return None
    return _deck(form)


@post("/events/{event_id:str}/desk/do", include_in_schema=False, status_code=303)
async def desk_form(request: AnyRequest, event_id: FromPath[str]) -> Redirect:
    """A desk form, carried out once per its key as the JSON API's route does it (the same
    service call and access check), then a redirect to the desk showing the outcome."""
    web = web_of(request)

    async def act(who: Principal, event: str, form: dict[str, str]) -> formkeys.Outcome:
        action = form.get("action", "").strip()
        by = who.label

        async def hand(form: dict[str, str]) -> dict[str, Any]:
            written = _bounded(form, "tables", HAND_LONGEST)
            info = await web.run(web.svc.event_info, event)
            return _hand_pairing(written, info.pods)

        if action in ("pair", "pair-hand"):
            pair = _admitted(who, web.svc.event_pair, need("run"))
            manual = await hand(form) if action == "pair-hand" else None
            reason = _bounded(form, "reason", REASON_LONGEST)
            rows = await web.run_event_write(pair, event, manual=manual, reason=reason, by=by)
            collector.settle()  # the round just paired lives (as POST /api/events/E/rounds)
            missing = await web.run(web.svc.event_missing_decks, event)
            number = (await web.run(web.svc.event_info, event)).current_round
            label = await web.run(web.svc.event_round_label, event, number)
            named = label if label == f"round {number}" else f"{label} (round {number})"
            tables = sum(1 for r in rows if not r.bye)
            how = " by hand" if manual is not None else ""
            byes = len(rows) - tables
            line = f"{named} paired{how}: {_count(tables, 'table')}, {_count(byes, 'bye')}"
            warned = "".join(f"; warning: {name} has no decklist (EV-2.8)" for name in missing)
            return formkeys.Outcome(True, line + warned, 201)
        if action == "drop":
            drop = _admitted(who, web.svc.event_drop, need("enter"))
            player, reason = _player(form), _bounded(form, "reason", REASON_LONGEST)
            row = await web.run_event_write(drop, event, player, reason=reason)
            return formkeys.Outcome(True, row.line or f"{player} dropped", 201)
        if action == "undrop":
            undrop = _admitted(who, web.svc.event_undrop, need("run"))
            player, reason = _player(form), _bounded(form, "reason", REASON_LONGEST)
            name = await web.run_event_write(undrop, event, player, reason=reason, by=by)
            return formkeys.Outcome(True, f"{name} is back in the event", 201)
        if action == "penalty":
            give = _admitted(who, web.svc.event_penalize, need("run"))
            player, reason = _player(form), _bounded(form, "reason", REASON_LONGEST)
            infraction = form.get("infraction", "").strip()
            level = form.get("penalty", "").strip() or None  # none chosen: the IPG's suggestion
            given = await web.run_event_write(
                give, event, player, infraction, penalty=level, reason=reason, by=by
            )
            return formkeys.Outcome(
                True,
                f"{given.player}: {given.penalty} (penalty {given.number}; the IPG suggests "
                f"{given.suggested}, EV-8.4); {given.effect} (EV-8.6)",
                201,
            )
        if action == "withdraw":
            withdraw = _admitted(who, web.svc.event_penalty_withdraw, need("run"))
            raw = form.get("number", "").strip()
            if not (raw.isascii() and raw.isdigit()):
                raise RefusedError(f"EV-8.7: name the penalty by its number, not {raw!r}")
            reason = _bounded(form, "reason", REASON_LONGEST)
            result = _bounded(form, "result", NAME_LONGEST) or None
            stored = await web.run_event_write(
                withdraw, event, int(raw), reason=reason, by=by, result=result
            )
            return formkeys.Outcome(True, "; ".join(stored), 201)
        if action == "deck":
            attach = _admitted(who, web.svc.event_attach_deck, need("run"))
            player, deck = _player(form), _deck(form)
            name = await web.run_event_write(attach, event, player, deck, by=by)
            return formkeys.Outcome(True, f"decklist attached for {name} ({deck.size} cards)", 201)
        if action in ("repair", "repair-hand"):
            fix = _admitted(who, web.svc.event_repair_moves, need("run"))
            manual = await hand(form) if action == "repair-hand" else None
            reason = _bounded(form, "reason", REASON_LONGEST)
            done = await web.run_event_write(fix, event, manual, reason=reason, by=by)
            moved = "".join(f"; {line}" for line in done.moved)
            how = " by hand" if manual is not None else ""
            return formkeys.Outcome(True, f"round {done.round} re-paired{how}{moved}", 201)
        if action == "undo":
            undo = _admitted(who, web.svc.event_undo_round, need("run"))
            reason = _bounded(form, "reason", REASON_LONGEST)
            undone = await web.run_event_write(undo, event, reason=reason, by=by)
            voided = f"; games closed as void: {', '.join(undone.voided)}" if undone.voided else ""
            return formkeys.Outcome(True, f"round {undone.round} undone{voided}", 201)
        if action == "end":
            end = _admitted(who, web.svc.event_end, need("run"))
            reason = _bounded(form, "reason", REASON_LONGEST)
            void_open = form.get("void_open", "") == "yes"
            closed = await web.run_event_write(
                end, event, reason=reason, void_open=void_open, by=by
            )
            voided = f"; closed as void: {', '.join(closed)}" if closed else ""
            return formkeys.Outcome(True, f"event ended{voided}", 201)
        more = _MORE.get(action)
        if more is not None:  # the entries, corrections, settings and round marks
            return await more(web, who, event, form)
        raise RefusedError(
            "the desk's forms are pair, pair-hand, drop, undrop, deck, penalty, withdraw, "
            "repair, repair-hand, undo, end, register, rating, correct, change, start-round, "
            f"end-round and length, not {action!r}"
        )

    return await _staff_form(request, event_id, "desk", act)


async def _register(web: Web, who: Principal, event: str, form: dict[str, str]) -> Outcome:
    """``event register``: players by name, one a line (after round 1: late entries)."""
    register = _admitted(who, web.svc.event_register, need("enter"))
    names, ids = _lines(form, "names"), _lines(form, "player_ids")
    ratings = ratings_from_lines(_bounded(form, "ratings", HAND_LONGEST))
    byes = _whole(form, "byes", "EV-2.4", "byes") or 0
    deck = _optional_deck(form)
    before = (await web.run(web.svc.event_info, event)).current_round
    made = await web.run_event_write(
        register,
        event,
        names,
        deck=deck,
        byes=byes,
        player_ids=ids,
        allow_similar=form.get("allow_similar", "") == "yes",
        late_as_losses=form.get("late_as_losses", "") == "yes",
        ratings=ratings,
    )
    entrants = (await web.run(web.svc.event_state, event)).players
    listed = ", ".join(
        f"{entrants[i].name} ({i}, player id {entrants[i].player_id or ''}"
        + (f", rating {entrants[i].rating})" if entrants[i].rating is not None else ")")
        for i in made
    )
    late = f"; a late entry, paired from round {before + 1} (EV-2.3)" if before else ""
    if before and form.get("late_as_losses", "") == "yes":  # what the standings now count
        missed = "round 1" if before == 1 else f"rounds 1-{before}"
        late += f", with a match loss for {missed} missed (EV-2.9)"
    return Outcome(True, f"registered {len(made)}: {listed}{late}", 201)


async def _rating(web: Web, who: Principal, event: str, form: dict[str, str]) -> Outcome:
    """``event rating``: a player's rating corrected before round 1, with the reason
    (EV-2.11)."""
    correct = _admitted(who, web.svc.event_correct_rating, need("run"))
    player = _player(form)
    rating = rating_from(_bounded(form, "rating", NAME_LONGEST), "the rating")
    reason = _bounded(form, "reason", REASON_LONGEST)
    name = await web.run_event_write(correct, event, player, rating, reason=reason, by=who.label)
    now = "no rating" if rating is None else f"rating {rating}"
    return Outcome(True, f"{name}: {now} (EV-2.11)", 201)


async def _correct(web: Web, who: Principal, event: str, form: dict[str, str]) -> Outcome:
    """``event correct``: a table's reported result put right, with the reason."""
    correct = _admitted(who, web.svc.event_correct, need("enter"))
    table = _table_of(form, "EV-8.2")
    asked = _whole(form, "round", "EV-8.2", "the round")
    result = _bounded(form, "result", NAME_LONGEST)
    reason = _bounded(form, "reason", REASON_LONGEST)
    by = who.label
    corrected = await web.run_event_write(
        correct, event, asked, f"{table}={result}", reason=reason, by=by
    )
    said = f"round {corrected} table {table} corrected to {result}: {reason}"
    info = await web.run(web.svc.event_info, event)
    return Outcome(True, said + correction_consequence(info, corrected), 201)


async def _change(web: Web, who: Principal, event: str, form: dict[str, str]) -> Outcome:
    """``event change``: the number of Swiss rounds, the cut, or both (EV-1.5)."""
    change = _admitted(who, web.svc.event_change, need("run"))
    rounds = _whole(form, "rounds", "EV-1.5", "the number of Swiss rounds")
    cut = _whole(form, "cut", "EV-1.5", "the cut")
    reason = _bounded(form, "reason", REASON_LONGEST)
    if rounds is None and cut is None:
        raise RefusedError("EV-1.5: give the new number of Swiss rounds, the cut, or both")
    changed = await web.run_event_write(
        change, event, rounds=rounds, cut=cut, reason=reason, by=who.label
    )
    top = f", top {changed.cut} cut" if changed.cut else ", no cut"
    return Outcome(True, f"{changed.rounds} Swiss rounds{top}", 201)


def _mark(what: str) -> More:
    """``event start-round`` / ``end-round`` (``what``: start, end) for the round the page
    showed (a stale page marks that round or is refused, never another)."""

    async def mark(web: Web, who: Principal, event: str, form: dict[str, str]) -> Outcome:
        write = _admitted(who, web.svc.event_round, need("run"))
        shown = _whole(form, "round", "EV-5.10", "the round")
        marked = await web.run_event_write(write, event, what, shown, by=who.label)
        return Outcome(True, f"round {marked} {what}ed", 201)

    return mark


async def _length(web: Web, who: Principal, event: str, form: dict[str, str]) -> Outcome:
    """``event length``: the round length, the round in progress too (EV-9.1)."""
    length = _admitted(who, web.svc.event_round_length, need("clock"))
    minutes = _whole(form, "minutes", "EV-9.1", "a round's length in minutes")
    if minutes is None:
        raise RefusedError("EV-9.1: give the round's length in minutes")
    reason = _bounded(form, "reason", REASON_LONGEST)
    view = await web.run_event_write(length, event, minutes, reason=reason, by=who.label)
    return Outcome(
        True, f"a round lasts {view.minutes} minutes; {view.stage}: {view.remaining}", 201
    )


More = Callable[[Web, Principal, str, dict[str, str]], Awaitable[Outcome]]
_MORE: dict[str, More] = {
    "register": _register,
    "rating": _rating,
    "correct": _correct,
    "change": _change,
    "start-round": _mark("start"),
    "end-round": _mark("end"),
    "length": _length,
}
"""The desk's forms past the first ones: what the command line's ``event register /
rating / correct / change / start-round / end-round / length`` do."""


DESK_PAGES = [desk_page, desk_form]

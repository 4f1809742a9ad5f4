"""Verifiable postings: a round's pairings or standings, carrying the signed checkpoint they
were computed at, and the check that nothing under them changed without a recorded correction.

A *posting* (``referee-posting/1``, JSON) names the event, what it shows (``pairings`` or
``standings``, and the round), the event's fact it was computed at (its number, its place in
the store and its own hash), the signed checkpoint covering that fact (``referee seal``), and
the rows exactly as ``referee event pairings|standings --json`` prints them.

``verify_posting`` answers a player who kept the posting and the event's public key:

1. *signature*: the checkpoint was signed by that key (skipped, and said, without a key);
2. *ledger*: the store, as it is now, still extends the checkpoint (nothing up to it was
   removed, moved, or re-hashed after an edit);
3. *facts*: every stored fact of the event up to the posting still matches its own hash and
   links to the one before it (an edited row is caught here even when its hash was left);
4. *figures*: the rows recomputed from those facts are exactly the posting's rows;
5. *since*: the facts recorded after the posting that change it (a result corrected with its
   reason and who, a round re-paired) are named, not flagged: a correction is a new fact,
   and the posting stays true of its moment.

The posting holds when checks 1-4 pass (1 when a key was given), and every other field it
prints holds too (*fields*, issue 31: its format, the event's name, what it shows and the
round, against the facts it was computed at; its date is the checkpoint's).

The event pages read through here too (``event_board``, ``player_line``, ``list_events``, over
the event service's reads), so the pages only lay out what the application layer answers.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from events.ledger import Checkpoint, CheckpointError, check_signature
from referee.tournament.hall import sees_hall
from service.calls import PlayerHall, game_in_play, player_hall
from service.errors import NotSealedError, RefusedError
from service.pipeline import uncollected

if TYPE_CHECKING:
    from events.integrity import Finding
    from events.store import GameStore
    from events.tournament import TournamentEvent
    from referee.tournament.model import Pairing
    from referee.tournament.state import Result, Tournament
    from service.access import Principal
    from service.eventprint import EventPrinting
    from service.tournaments import EventInfo

__all__ = [
    "FORMAT",
    "Change",
    "EventBoard",
    "EventRow",
    "PlayerIndex",
    "PlayerLine",
    "PlayerRound",
    "Posted",
    "Posting",
    "PostingCheck",
    "PostingReport",
    "Postings",
    "PublicKey",
    "Verdict",
    "by_name",
    "fingerprint",
    "list_events",
    "make_posting",
    "pairings_rows",
    "player_line",
    "player_rounds",
    "public_key_text",
    "read_posting",
    "standing_dicts",
    "standings_json",
    "standings_rows",
    "swiss_rows_of",
    "verify_posting",
]

FORMAT = "referee-posting/1"
Kind = Literal["pairings", "standings"]


class Posting(msgspec.Struct, kw_only=True):
    """A posted round's pairings or standings, and the signed checkpoint it was computed at."""

    format: str = FORMAT
    event: str
    name: str
    kind: Kind
    round: int | None
    version: int
    position: int
    fact_hash: str
    checkpoint: str
    body: list[dict[str, Any]]
    # round 1's pairings carry the event's seed, so anyone can redo the draw (EV-5.6)
    seed: int | msgspec.UnsetType = msgspec.UNSET
    # the standings now, once the playoff has begun: every player's final place and how
    # far each player of the playoff went (EV-6.7, EV-I.9), in final order (``final_rows``);
    # the Swiss rows of ``body`` stay as they were (a posting made before carries none)
    final: list[dict[str, Any]] | msgspec.UnsetType = msgspec.UNSET
    # a playoff round's pairings: its stage ("semifinal", EV-6.6), as every face names it
    stage: str | msgspec.UnsetType = msgspec.UNSET


class PostingCheck(msgspec.Struct, frozen=True, kw_only=True):
    name: str  # signature | ledger | facts | fields | figures | draw | after
    ok: bool
    detail: str
    skipped: bool = False


class Change(msgspec.Struct, frozen=True, kw_only=True):
    """A fact recorded after the posting that changes what it shows."""

    version: int
    time: str
    what: str
    reason: str = ""
    by: str = ""

    def __str__(self) -> str:
        said = f"{self.what}"
        if self.by:
            said += f" by {self.by}"
        said += f" at {self.time} (fact {self.version})"
        if self.reason:
            said += f": {self.reason}"
        return said


Verdict = Literal["current", "superseded", "altered", "other-key", "unchecked", ""]
"""The plain answer to "is this posting genuine?" (``_verdict``): *current* (it holds and
the rows are still today's), *superseded* (it holds, but the event moved on: a correction or
later results change its rows), *altered* (a check failed: what does not match is named),
*other-key* (its checkpoint was not signed by the key given), *unchecked* (it matches the
store's facts, but no key was given, so its signature was not checked)."""


class PostingReport(msgspec.Struct, kw_only=True):
    event: str
    kind: str
    round: int | None
    version: int
    checkpoint: str
    ok: bool
    checks: list[PostingCheck]
    corrections: list[Change] = []
    unchanged: bool = True
    verdict: Verdict = ""
    answer: str = ""  # the verdict in one or two sentences, what the pages and the CLI print
    newer: int | None = None
    """For a superseded posting: the fact a later posting of the same rows (at the newest
    checkpoint) is computed at, when one exists; ``None`` while what changed it is unsealed."""


class PublicKey(msgspec.Struct, frozen=True, kw_only=True):
    """A public key that seals the store, as a page publishes it: the key (64 hex digits,
    what ``--public-key`` and the verify page take) and its fingerprint (its first 16 digits
    in fours, the digits every checkpoint it signed names after ``key=``)."""

    key: str
    fingerprint: str


def fingerprint(key: str) -> str:
    """The fingerprint of a public key (hex): its first 16 digits in groups of four, the
    ``key=`` of each checkpoint it signs, short enough to read aloud or print on a sheet."""
    digits = key.strip().lower()[:16]
    return " ".join(digits[i : i + 4] for i in range(0, len(digits), 4))


def public_key_text(text: str) -> str:
    """A public key as typed or pasted (any case, spaces or a line's end around it): the
    64 hex digits of an Ed25519 key; refused, saying what a key looks like, otherwise."""
    key = "".join(text.split()).lower()
    if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
        raise RefusedError(
            "not a public key: an event's public key is 64 hex digits (0-9, a-f), as the "
            "posting page shows it and 'referee seal --new-key' printed it"
        )
    return key


# -- reading the event's stream -------------------------------------------------------------


def _stored(store: GameStore, event_id: str, upto: int | None = None) -> list[Any]:
    """The event's stored events (decoded), oldest first; refused when there are none."""
    from events.codec import decode
    from events.store import GameNotFoundError
    from events.tournament import is_tournament_event

    rows = store.rows(event_id, upto=upto)
    if not rows:
        raise GameNotFoundError(f"no event {event_id!r} in this store ('referee event' lists them)")
    events = [decode(topic, state) for _, topic, state in rows]
    if not is_tournament_event(events[0]):
        raise RefusedError(f"{event_id} is a game, not an event")
    return events


def _fold(events: Sequence[TournamentEvent], state: Tournament | None = None) -> Tournament:
    from events.tournament import fold_stored

    return fold_stored(events, state)


def _positions(store: GameStore, event_id: str) -> dict[int, int]:
    """Each stored fact's number -> its place in the store's order (the ledger's position)."""
    return store.positions(event_id)


# -- what a posting shows (the rows of ``referee event pairings|standings --json``) ----------


def pairings_rows(state: Tournament, round_number: int) -> list[dict[str, Any]]:
    """A round's tables then byes, as ``referee event pairings --json`` prints them."""
    from service.tournaments import pairing_rows

    return [msgspec.to_builtins(r) for r in pairing_rows(state, round_number) or []]


def standing_dicts(rows: Sequence[Any]) -> list[dict[str, Any]]:
    """Standings rows as ``referee event standings --json`` prints them (``dropped_after``
    only for a dropped player)."""
    out: list[dict[str, Any]] = msgspec.to_builtins(list(rows))  # one call: 10,000 rows
    for data in out:
        if data.get("dropped_after") is None:
            data.pop("dropped_after", None)
        if data.get("went") is None:
            data.pop("went", None)  # only for a player of the cut (EV-6.7)
    return out


def standings_json(rows: Sequence[Any]) -> bytes:
    """``standing_dicts(rows)`` as JSON, the same bytes, encoded from the rows themselves:
    no 10,000 dicts built to drop two empty keys from each. In JSON text a ``,"`` is never
    inside a string (a quote there is escaped), so each empty key is cut where it stands."""
    return (
        msgspec.json.encode(list(rows))
        .replace(b',"dropped_after":null', b"")
        .replace(b',"went":null', b"")
    )


def standings_rows(state: Tournament, after_round: int | None = None) -> list[dict[str, Any]]:
    """The standings (now, or after round N) from scratch, as ``standings --json`` prints them."""
    from service.tournaments import _row

    if state.settings is None:
        return []
    return standing_dicts([_row(s) for s in state.standings(after_round)])


def by_name(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pairings posting by player name: each player once, alphabetically, with the
    table and the opponents (the second of the two postings an event hangs on the wall)."""
    out: list[dict[str, Any]] = []
    for row in rows:
        for player in row["players"]:
            out.append(
                {
                    "player": player,
                    "table": row["table"],
                    "bye": row["bye"],
                    "opponents": [p for p in row["players"] if p != player],
                }
            )
    out.sort(key=lambda r: (str(r["player"]).casefold(), str(r["player"])))
    return out


def final_rows(
    state: Tournament, kind: Kind, round_number: int | None
) -> list[dict[str, Any]] | None:
    """The final order a standings posting of the moment carries once the playoff has
    begun (the cut made, or an elimination event paired): ``{"final_rank", "player",
    "went"}`` for each player, as ``standings --json`` gives them after the cut (``went``
    only for a player of the playoff, EV-6.7, EV-I.9); ``None`` for pairings, the standings
    after a round (Swiss, EV-6.5) and before the playoff."""
    from referee.tournament.model import PLAYOFF_KINDS
    from referee.tournament.playoff import final_places

    if kind != "standings" or round_number is not None or state.settings is None:
        return None
    if not any(r.kind in PLAYOFF_KINDS for r in state.rounds.values()):
        return None  # before the playoff: no standings to sort again (10,000 rows)
    out: list[dict[str, Any]] = []
    for place in final_places(state, (s.player for s in state.standings())):
        row: dict[str, Any] = {
            "final_rank": place.place,
            "player": state.players[place.player].name,
        }
        if place.went is not None:
            row["went"] = place.went
        out.append(row)
    return out or None


def _playoff_stage(state: Tournament, kind: Kind, round_number: int | None) -> str | None:
    """The stage a playoff round's pairings posting names (``final``, EV-6.6); ``None`` for
    a Swiss, pod or round-robin round and for standings."""
    from referee.tournament.playoff import round_label

    if kind != "pairings" or round_number is None or round_number not in state.rounds:
        return None
    label = round_label(state, round_number)
    return None if label == f"round {round_number}" else label


def _body(state: Tournament, kind: Kind, round_number: int | None) -> list[dict[str, Any]]:
    if kind == "pairings":
        return pairings_rows(state, round_number or state.current_round)
    return standings_rows(state, round_number)


def _name(events: Sequence[TournamentEvent], event_id: str) -> str:
    return str(getattr(events[0], "name", "") or event_id)


# -- making a posting ----------------------------------------------------------------------


def _latest_checkpoint(store: GameStore) -> Checkpoint | None:
    from service.seal import recorded_checkpoints

    found = recorded_checkpoints(store)
    return max(found, key=lambda c: c.position) if found else None


def make_posting(
    store: GameStore,
    event_id: str,
    kind: Kind,
    round_number: int | None = None,
    *,
    key: str | os.PathLike[str] | None = None,
    state_at: Callable[[int], Tournament | None] | None = None,
    rows_at: Callable[[int], list[Any] | None] | None = None,
) -> tuple[Posting, int]:
    """The posting of ``kind`` computed at the newest checkpoint the store recorded (sealed
    now with ``key`` when given), and how many of the event's facts came after it.

    ``state_at(version)``: the event already folded at that version, when the caller holds
    it (the service's kept event), else ``None``; without it the facts up to the checkpoint
    are read and folded. A posting made when nothing came after the seal (the head referee
    seals, then posts) then costs the standings, not a fold of the whole event (issue 32
    goal 3); its check (``verify_posting``) still folds the facts themselves. ``rows_at(version)``
    likewise: the standings rows now at that version (``standings --json``'s, in the Swiss
    order), as the caller keeps them, else ``None``; without them (or for the standings
    after a round) they are computed from scratch. A posting so made is checked against
    the facts like any other: its rows must be exactly those recomputed from them.

    Refused when no checkpoint covers what is asked (nothing sealed yet, or the round
    was paired after the last seal): the head referee seals, then posts."""
    if kind not in ("pairings", "standings"):
        raise RefusedError(f"a posting shows pairings or standings, not {kind!r}")
    first = _stored(store, event_id, upto=1)  # refused here for no event, or a game
    if key is not None:
        from service.seal import seal

        checkpoint: Checkpoint | None = seal(store, key)
    else:
        checkpoint = _latest_checkpoint(store)
    if checkpoint is not None and key is None:
        cached = _made.get((id(store), event_id, kind, round_number, checkpoint.text()))
        last = store.last_row(event_id)
        if cached is not None and last is not None:
            return cached, last[0] - cached.version
    if checkpoint is None:
        raise NotSealedError(event_id, f"no posting of {event_id} has been sealed yet")
    covered = store.newest_at(event_id, checkpoint.position)
    if covered is None:
        raise NotSealedError(
            event_id, f"{event_id} was created after the newest checkpoint ({checkpoint.time})"
        )
    version, position = covered
    state = state_at(version) if state_at is not None else None
    if state is None:
        events = _stored(store, event_id, upto=version)
        state = _fold(events)
        fact_hash = events[version - 1].hash
    else:
        fact_hash = store.head_hash(event_id, version)
    if kind == "pairings":
        shown = round_number or state.current_round
        if shown not in state.rounds:
            later = (
                round_number is not None
                and round_number <= _fold(_stored(store, event_id)).current_round
            )
            if later:
                raise NotSealedError(
                    event_id,
                    f"round {shown} of {event_id} was paired after the newest checkpoint "
                    f"({checkpoint.time})",
                )
            raise RefusedError(f"{event_id} has no round {shown} paired")
        round_number = shown
    elif round_number is not None and round_number not in state.rounds:
        raise RefusedError(f"{event_id} has no round {round_number} at the newest checkpoint")
    posting = Posting(
        event=event_id,
        name=_name(first, event_id),
        kind=kind,
        round=round_number,
        version=version,
        position=position,
        fact_hash=fact_hash,
        checkpoint=checkpoint.text(),
        body=_kept_body(rows_at, version, kind, round_number) or _body(state, kind, round_number),
    )
    seed = state.settings.seed if state.settings is not None else msgspec.UNSET
    if kind == "pairings" and round_number == 1 and isinstance(seed, int):
        posting.seed = seed  # EV-5.6: the draw is posted with round 1
    final = final_rows(state, kind, round_number)
    if final is not None:
        posting.final = final  # the champion first, not the Swiss leader (EV-6.7)
    stage = _playoff_stage(state, kind, round_number)
    if stage is not None:
        posting.stage = stage
    if len(_made) >= 256:
        _made.clear()
    _made[(id(store), event_id, kind, round_number, checkpoint.text())] = posting
    last = store.last_row(event_id)
    return posting, (last[0] if last is not None else version) - version


def _kept_body(
    rows_at: Callable[[int], list[Any] | None] | None,
    version: int,
    kind: Kind,
    round_number: int | None,
) -> list[dict[str, Any]] | None:
    """The standings rows now at ``version`` from ``rows_at`` (see ``make_posting``), or
    ``None`` when they must be computed (pairings, the standings after a round, no rows)."""
    if kind != "standings" or round_number is not None or rows_at is None:
        return None
    rows = rows_at(version)
    return standing_dicts(rows) if rows else None


_keys_seen: dict[tuple[int, str], PublicKey] = {}
"""Public keys already read, by store and the prefix checkpoints name (a key once recorded
is never replaced: ``seal`` keeps the first)."""

_made: dict[tuple[int, str, str, int | None, str], Posting] = {}
"""Postings already made, by store, event, what and checkpoint: a posting computed at a
checkpoint never changes (the facts under it are sealed), so the pages that show its footer
on every view fold the event once per checkpoint, not once per view."""


def read_posting(raw: bytes | str | os.PathLike[str]) -> Posting:
    """A posting from its JSON text or bytes, or from a file; refused when unreadable."""
    if isinstance(raw, os.PathLike):
        path = Path(raw)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise RefusedError(f"{path}: {exc.strerror or exc}") from None
    try:
        posting = msgspec.json.decode(raw, type=Posting)
    except msgspec.DecodeError as exc:
        raise RefusedError(f"not a posting ({FORMAT} JSON): {exc}") from None
    if posting.format != FORMAT:
        raise RefusedError(f"a posting of format {posting.format!r}; this reads {FORMAT}")
    return posting


# -- verifying a posting -------------------------------------------------------------------


def _change(event: TournamentEvent, what: str, reason: str, by: str) -> Change:
    """A change to a posting: the fact's version and time, what it changed, why and by whom."""
    when = event.timestamp.strftime("%Y-%m-%d %H:%M:%S")
    return Change(version=event.originator_version, time=when, what=what, reason=reason, by=by)


def _changes_since(events: Sequence[TournamentEvent], posting: Posting) -> list[Change]:
    """The facts after the posting that change what it shows, as recorded (EV-8.1)."""
    from events.tournament import to_fact
    from referee.tournament import facts as f

    shown = posting.round
    out: list[Change] = []
    for event in events[posting.version :]:
        fact = to_fact(event)
        match fact:
            case f.ResultCorrected(round=n, table=t, score=score, placement=placement):
                if posting.kind == "standings" and (shown is None or n <= shown):
                    result = (
                        score.text if score is not None else placement.text if placement else "?"
                    )
                    what = f"round {n} table {t} corrected to {result}"
                    out.append(_change(event, what, fact.reason, fact.by))
            case f.PairingChanged(round=rnd, reason=why, by=by):
                if posting.kind == "pairings" and rnd.number == shown:
                    out.append(_change(event, f"round {rnd.number} re-paired", why, by))
            case f.RoundUndone(round=n, reason=why, by=by):
                if posting.kind == "pairings" and n == shown:  # EV-5.13
                    out.append(_change(event, f"round {n} undone", why, by))
            case _:
                pass  # new results, links, drops: news after the posting, not changes to it
    return out


def verify_posting(
    store: GameStore, event_id: str, posting: Posting, public_key: str | None = None
) -> PostingReport:
    """Whether ``posting`` still holds against the store (see ``_verify_posting``)."""
    with uncollected():
        return _verify_posting(store, event_id, posting, public_key)


def _verify_posting(
    store: GameStore, event_id: str, posting: Posting, public_key: str | None = None
) -> PostingReport:
    """Whether ``posting`` still holds against the store (see the module's docstring).

    The store is read once up to the checkpoint (the chain, keeping the event's facts as it
    passes them), then the event's facts after it; each fact is decoded and hashed once, the
    event folded once up to the posting and, only when something was recorded since, on from
    there (issue 32 goal 3: at 10,000 players a second read and decoding of the event's
    stream cost as much as the chain)."""
    from events.integrity import check_rows
    from events.ledger import read_chain
    from events.tournament import is_tournament_event
    from service.seal import chain_report

    if posting.event != event_id:
        raise RefusedError(f"the posting is of event {posting.event}, not {event_id}")
    try:
        checkpoint = Checkpoint.parse(posting.checkpoint)
    except CheckpointError as exc:
        raise RefusedError(f"the posting's checkpoint cannot be read: {exc}") from None
    checks: list[PostingCheck] = []
    if public_key is not None:
        try:
            check_signature(checkpoint, public_key)
            checks.append(
                PostingCheck(
                    name="signature",
                    ok=True,
                    detail=f"the checkpoint was signed by key {public_key.strip()[:16]}...",
                )
            )
        except CheckpointError as exc:
            checks.append(PostingCheck(name="signature", ok=False, detail=str(exc)))
    else:
        checks.append(
            PostingCheck(
                name="signature",
                ok=True,
                skipped=True,
                detail="not checked: give --public-key (the event's public key) to check it",
            )
        )
    chain = read_chain(store, upto=checkpoint.position, keep=event_id)
    held = chain_report(checkpoint, chain)
    checks.append(PostingCheck(name="ledger", ok=held.ok, detail=held.detail))

    # the event's facts under the checkpoint (kept from the chain), then those after them
    rows = chain.rows + store.rows(event_id, after=max(chain.positions, default=0))
    if not rows:
        from events.store import GameNotFoundError

        raise GameNotFoundError(f"no event {event_id!r} in this store ('referee event' lists them)")
    report, decoded = check_rows(event_id, rows, hashed=chain.hashed)
    unread = len(rows) - len(decoded)
    # checked: the bytes (50 MB at 10,000 players in round 9) are let go, so that the fold
    # and the standings reuse their memory rather than fault in more
    del rows
    chain.rows, chain.hashed = [], {}
    upto = [x for x in report.findings if x.event is None or x.event <= posting.version]
    later = [x for x in report.findings if x.event is not None and x.event > posting.version]
    events: list[Any] = decoded
    if unread:  # a row that cannot be read: the stream check names it
        events = []
        if not upto:
            raise RefusedError(
                f"a fact of {event_id} after the posting cannot be read: "
                + "; ".join(str(x) for x in later)
            )
    if events and not is_tournament_event(events[0]):
        raise RefusedError(f"{event_id} is a game, not an event")
    placed = chain.positions.get(posting.version)
    if placed is None:  # not under the checkpoint: where it is, to say so
        placed = _positions(store, event_id).get(posting.version)
    if upto:
        checks.append(
            PostingCheck(
                name="facts",
                ok=False,
                detail="; ".join(_finding_text(x, events) for x in upto),
            )
        )
    elif len(events) < posting.version:
        checks.append(
            PostingCheck(
                name="facts",
                ok=False,
                detail=f"the posting was computed at fact {posting.version}; the event now holds "
                f"only {len(events)}",
            )
        )
    elif placed != posting.position or posting.position > checkpoint.position:
        checks.append(
            PostingCheck(
                name="facts",
                ok=False,
                detail=f"fact {posting.version} is stored at position {placed}, not "
                f"{posting.position}, or lies beyond the checkpoint: the posting does not say "
                "where it was computed",
            )
        )
    elif events[posting.version - 1].hash != posting.fact_hash:
        checks.append(
            PostingCheck(
                name="facts",
                ok=False,
                detail=f"fact {posting.version} is not the one the posting was computed at "
                "(its hash differs)",
            )
        )
    else:
        checks.append(
            PostingCheck(
                name="facts",
                ok=True,
                detail=f"the event's {posting.version} facts up to the posting are intact",
            )
        )
    facts_ok = checks[-1].ok
    at_posting: Tournament | None = None
    printed_before = False  # rows as printed before EV-I.3's blanks
    if facts_ok:
        at_posting = _fold(events[: posting.version])
        checks.append(_fields(posting, events, at_posting, checkpoint))
        recomputed = _body(at_posting, posting.kind, posting.round)
        same = recomputed == posting.body
        printed_before = not same and _printed_before_ev_i3(posting.body, recomputed, at_posting)
        final_differs = _final_differs(posting, at_posting)
        checks.append(
            PostingCheck(
                name="figures",
                ok=(same or printed_before) and not final_differs,
                detail=(
                    "recomputed from those facts, the rows are the posting's, but its final "
                    f"places are not: {final_differs}"
                    if (same or printed_before) and final_differs
                    else "recomputed from those facts, the rows are exactly the posting's"
                    if same
                    else "recomputed from those facts, the rows are the posting's as they "
                    "were printed before 29 November 2026: the floor as the figures of a "
                    "player who had played no round, where they are now left blank (EV-I.3)"
                    if printed_before
                    else "recomputed from those facts, the rows differ from the posting's: "
                    + _first_difference(posting.body, recomputed)
                ),
            )
        )
    if facts_ok and isinstance(posting.seed, int):  # EV-5.6: redo round 1's draw
        from service.draw_check import draw_check

        drawn = draw_check(events[: posting.version], posting.seed)
        if drawn is not None:
            checks.append(PostingCheck(name="draw", ok=drawn[0], detail=drawn[1]))
    ok = all(c.ok for c in checks)
    corrections = _changes_since(events, posting) if facts_ok else []
    final_now: list[dict[str, Any]] | None = None
    if at_posting is not None and len(events) == posting.version:
        now = recomputed  # nothing recorded since
        final_now = final_rows(at_posting, posting.kind, posting.round)
    else:
        state_now = (
            _fold(events[posting.version :], at_posting)
            if at_posting is not None
            else _fold(events)
            if events
            else None
        )
        now = _body(state_now, posting.kind, posting.round) if state_now is not None else []
        if state_now is not None:
            final_now = final_rows(state_now, posting.kind, posting.round)
    final_same = isinstance(posting.final, msgspec.UnsetType) or posting.final == final_now
    result = PostingReport(
        event=event_id,
        kind=posting.kind,
        round=posting.round,
        version=posting.version,
        checkpoint=posting.checkpoint,
        ok=ok,
        checks=checks,
        corrections=corrections,
        unchanged=(now == posting.body or (printed_before and now == recomputed)) and final_same,
    )
    if later:
        result.checks.append(
            PostingCheck(
                name="after",
                ok=True,
                detail="facts recorded after the posting have problems of their own ('referee "
                f"verify {event_id}'): " + "; ".join(_finding_text(x, events) for x in later),
            )
        )
    result.verdict, result.answer = _verdict(result, checkpoint, public_key)
    return result


def _verdict(
    report: PostingReport, checkpoint: Checkpoint, public_key: str | None
) -> tuple[Verdict, str]:
    """The report's checks as one plain answer (see ``Verdict``)."""
    signed_by = fingerprint(checkpoint.key)
    if public_key is not None:
        given = "".join(public_key.split()).lower()
        if not given.startswith(checkpoint.key.lower()):
            return "other-key", (
                f"Signed by another key: its checkpoint was signed by the key whose fingerprint "
                f"is {signed_by}, not by the key given ({fingerprint(given)}). Either the key "
                "given is not this event's, or the posting was not sealed by its head referee."
            )
    failed = [c for c in report.checks if not c.ok]
    if failed:
        return "altered", "Altered: " + "; ".join(f"{c.name}: {c.detail}" for c in failed) + "."
    moved = bool(report.corrections) or not report.unchanged
    if moved:
        count = len(report.corrections)
        why = (
            f"{count} correction{'s' if count != 1 else ''} recorded since change"
            f"{'s' if count == 1 else ''} it"
            if count
            else "results recorded since change its rows"
        )
        state = f"superseded: the event has moved on since it was posted ({why})"
    else:
        state = "current: nothing recorded since changes its rows"
    if report.checks[0].skipped:
        return "unchecked", (
            f"Matches this event's facts and is {state}, but its signature was not checked: "
            f"give the event's public key (fingerprint {signed_by}) to check it."
        )
    if moved:
        return "superseded", f"Genuine but {state}."
    return "current", f"Genuine and {state}."


def _fields(
    posting: Posting,
    events: Sequence[TournamentEvent],
    state: Tournament,
    checkpoint: Checkpoint,
) -> PostingCheck:
    """Every field the posting prints besides its rows (issue 31): its format, the event's
    name, what it shows and the round, each against the facts it was computed at; its date
    is the checkpoint's, which the ledger and signature checks cover."""
    wrong: list[str] = []
    if posting.format != FORMAT:
        wrong.append(f"its format is {posting.format!r}, not {FORMAT!r}")
    name = _name(events, posting.event)
    if posting.name != name:
        wrong.append(f"it names the event {posting.name!r}; the event is {name!r}")
    if posting.kind not in ("pairings", "standings"):
        wrong.append(f"it shows {posting.kind!r}, neither pairings nor standings")
    if posting.kind == "pairings" and posting.round not in state.rounds:
        wrong.append(f"round {posting.round} was not paired when it was computed")
    if (
        posting.kind == "standings"
        and posting.round is not None
        and posting.round not in state.rounds
    ):
        wrong.append(f"round {posting.round} was not paired when it was computed")
    if isinstance(posting.stage, str):  # a posting made before stages were posted has none
        stage = _playoff_stage(state, posting.kind, posting.round)
        if posting.stage != stage:
            wrong.append(f"it names the round {posting.stage!r}; the facts call it {stage!r}")
    if wrong:
        return PostingCheck(name="fields", ok=False, detail="; ".join(wrong))
    return PostingCheck(
        name="fields",
        ok=True,
        detail=f"its format, the event's name ({name}), what it shows and the round are the "
        f"event's; its date is the checkpoint's ({checkpoint.time})",
    )


def _finding_text(finding: Finding, events: Sequence[TournamentEvent]) -> str:
    """A finding of the stream check, saying what the fact it names recorded."""
    from events.tournament import summary

    text = str(finding)
    number = finding.event
    if number is not None and 0 < number <= len(events):
        with contextlib.suppress(KeyError, TypeError, ValueError):
            text += f" (it now reads: {summary(events[number - 1])})"
    return text


_FIGURES = ("mw", "omw", "gw", "ogw")


def _printed_before_ev_i3(
    posted: list[dict[str, Any]], recomputed: list[dict[str, Any]], state: Tournament
) -> bool:
    """Whether standings rows ``posted`` are ``recomputed`` as ``standings --json`` printed
    them before 29 November 2026, when a player who had played no round showed the floor
    (1/3, or 33/100) as each figure, where the rows now leave them blank (``null``, EV-I.3).
    Only the floor is taken for a blank: any other figure there is an alteration."""
    from referee.tournament.standings import floor_of, fraction_text

    if state.settings is None or len(posted) != len(recomputed):
        return False
    floor = fraction_text(floor_of(state.settings))
    for was, now in zip(posted, recomputed, strict=True):
        if was == now:
            continue
        if not isinstance(was, dict) or any(now.get(k) is not None for k in _FIGURES):
            return False
        if {**was, **{k: None for k in _FIGURES if was.get(k) == floor}} != now:
            return False
    return True


def _final_differs(posting: Posting, state: Tournament) -> str:
    """What of a posting's final places (``final``) the facts it was computed at do not
    give, or ``""``: a posting made before final places were posted carries none, and
    its rows alone are checked."""
    if isinstance(posting.final, msgspec.UnsetType):
        return ""
    found = final_rows(state, posting.kind, posting.round)
    if found is None:
        return "the facts give no final places (no playoff had begun)"
    if posting.final == found:
        return ""
    return _first_difference(posting.final, found)


def _first_difference(posted: list[dict[str, Any]], recomputed: list[dict[str, Any]]) -> str:
    for index, (a, b) in enumerate(zip(posted, recomputed, strict=False), start=1):
        if a != b:
            return f"row {index} is posted as {_row_text(a)}, the facts give {_row_text(b)}"
    return f"{len(posted)} rows posted, the facts give {len(recomputed)}"


def _row_text(row: dict[str, Any]) -> str:
    return msgspec.json.encode(row).decode()


# -- what the event pages show ------------------------------------------------------------


class Posted(msgspec.Struct, kw_only=True):
    """The checkpoint a page's posting is computed at, for its footer."""

    checkpoint: str
    version: int
    later: int
    href: str
    current: bool = True
    final_order: bool = False  # the rows are the posting's Swiss rows, listed in final order
    public_key: PublicKey | None = None  # the key that signed its checkpoint, as published
    seed: int | None = None
    """Round 1's pairings: the seed of the draw the posting carries (EV-5.6), shown on the
    sheet so that a player can redo the draw by hand, not only a file's reader."""
    rated: bool = False
    """Round 1's pairings: some players had a rating, which orders them before the draw
    does (EV-5.6, EV-2.11): the sheet says so."""


def swiss_rows_of(shown: Sequence[dict[str, Any]], body: Sequence[dict[str, Any]]) -> bool:
    """Whether standings rows ``shown`` in final order (EV-6.7) are exactly a posting's
    ``body`` (the Swiss standings, which carry no final place) once the final place and how
    far each player went are set aside and the rows put back in the posting's order."""
    if not any(row.get("final_rank") is not None for row in shown):
        return False
    order = {row.get("player"): n for n, row in enumerate(body)}
    plain = [
        {**{k: v for k, v in row.items() if k != "went"}, "final_rank": None}
        for row in sorted(shown, key=lambda r: order.get(r.get("player"), len(order)))
    ]
    return plain == list(body)


class PlayerRound(msgspec.Struct, kw_only=True):
    round: int
    table: int | None
    bye: bool
    opponents: list[str]
    result: str
    stage: str = ""  # a playoff round's name (EV-6.6); empty for a Swiss round
    so_far: str = ""
    """A match still being played: the games won so far, for this player first (``W-L-D``,
    a game loss given as a penalty included, EV-8.6); empty once ``result`` is decided."""
    missed: bool = False
    """A round a late entry missed (EV-2.3): no table, no opponent; ``result`` says whether
    it counts as a match loss (EV-2.9) or as not played (EV-I.6)."""


class EventBoard(msgspec.Struct, kw_only=True):
    """Everything an event page shows, read once from the event's stream."""

    event: str
    name: str
    game: str
    format: str
    version: int
    rounds: list[int]
    round: int | None
    after_round: int | None
    pairings: list[dict[str, Any]]
    by_name: list[dict[str, Any]]
    results: dict[int, str]
    standings: list[dict[str, Any]]
    scores: dict[int, str] = {}
    """A match still being played: its games won so far (``W-L-D`` for the first-listed
    player, as a slip reads), by table; a table with a result is in ``results`` instead."""
    players: int
    ended: bool = False
    stage: str = ""  # the shown round's name: "round 3", "semifinal" (EV-6.6)
    status: str = ""  # where the event stands: "Swiss round 3 of 5", "final (round 8)", "ended"
    labels: dict[int, str] = {}  # every paired round's name
    playoff: bool = False  # a bracket has been paired (the bracket page has something)
    pods: bool = False
    places: dict[str, list[str]] = {}  # a pod event: each player's places, round by round
    late: dict[str, str] = {}
    """A pod event's late entries: what the rounds they missed (``–`` in ``places``) count
    as, by name (a match loss each, EV-2.9, or not played, EV-I.6)."""
    placed: list[int] = []
    """The shown round's tables whose slip gives places (``reported_in_places``: pods, a
    pod event's table of two too); the others' slip is W-L-D (a pod event's playoff too)."""


def _format_words(info: EventInfo) -> str:
    """The event's shape for its pages' header: "Swiss · best of 3 · top 8 cut", "Swiss
    pods", "single elimination · best of 3" (a pod has places, not a match length)."""
    shape = {
        "swiss": "Swiss",
        "elimination": "single elimination",
        "round-robin": "round robin",
    }.get(info.format, info.format)
    if info.pods:
        return f"{shape} pods"
    words = f"{shape} · best of {info.match[2:]}" if info.match.startswith("bo") else shape
    return words + (f" · top {info.cut} cut" if info.cut else "")


_standings_seen: dict[tuple[int, str, int, int | None], list[dict[str, Any]]] = {}


def _standings_now(
    svc: EventPrinting, event_id: str, after_round: int | None
) -> list[dict[str, Any]]:
    """The standings rows (``standings --json``'s), now or after round N. Now and before the
    cut, each row is kept with the live table's line it was made from, and made again only
    for a line that is a new object (``Standings.table`` keeps every line that did not
    move): after one result at 10,000 players the page's rows cost the lines that moved,
    not 10,000 rows converted twice (issue 32 goal 4)."""
    lines = svc.event_standing_lines(event_id) if after_round is None else None
    if lines is None:
        return standing_dicts(svc.event_standings(event_id, after_round))
    from service.tournaments import _row

    kept = _lines_seen.get((id(svc), event_id))
    if kept is None:
        if len(_lines_seen) >= 16:
            _lines_seen.clear()
        kept = _lines_seen[(id(svc), event_id)] = {}
    out: list[dict[str, Any]] = []
    moved: list[int] = []
    for line in lines:
        found = kept.get(line.player)
        if found is not None and found[0] is line:
            out.append(found[1])
        else:
            moved.append(len(out))
            out.append({})
    for at, row in zip(moved, standing_dicts([_row(lines[n]) for n in moved]), strict=True):
        out[at] = row
        kept[lines[at].player] = (lines[at], row)
    return out


_lines_seen: dict[tuple[int, str], dict[str, tuple[Any, dict[str, Any]]]] = {}
"""Per service and event, each player's standings row and the live table's line it was made
from (``_standings_now``). Rows are shared by every version that shows them: never changed."""


def _round_rows(
    svc: EventPrinting, event_id: str, state: Tournament, number: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Round ``number``'s pairings rows (``event pairings --json``) and the same by name.

    A result changes neither the round's tables nor the players' names, only which games a
    table holds (a slip voids its table's open game, EV-3.9): the rows and the sorted list by
    name are kept while the round and the players are the same objects (the fold's maps are
    persistent: an unchanged part of the state is the same object in the next version), and
    each version only reads its tables' games again. At 10,000 players this was most of a
    page's cost after each result (the rows, and sorting 10,000 names)."""
    key = (id(svc), event_id, number)
    paired, players = state.rounds[number], state.players
    kept = _rounds_seen.get(key)
    if kept is None or kept[0] is not paired or kept[1] is not players:
        rows: list[dict[str, Any]] = msgspec.to_builtins(svc.event_pairings(event_id, number))
        kept = (paired, players, rows, by_name(rows))
        if len(_rounds_seen) >= 64:
            _rounds_seen.clear()
        _rounds_seen[key] = kept
        return rows, kept[3]
    tables = state.tables
    fresh = []
    for row in kept[2]:
        table = tables.get((number, row["table"])) if row["table"] is not None else None
        fresh.append({**row, "games": list(table.games) if table else []})
    return fresh, kept[3]


_rounds_seen: dict[tuple[int, str, int], tuple[Any, Any, list[dict[str, Any]], Any]] = {}


def _placed_tables(state: Tournament, number: int | None) -> list[int]:
    """Round ``number``'s tables whose slip gives each player's place (EV-7.3), as the
    decision reads them (``reported_in_places``): none outside a pod event but its tables
    of three or more."""
    from referee.tournament.decisions import reported_in_places

    rnd = state.rounds.get(number) if number is not None else None
    if rnd is None or state.settings is None:
        return []
    return [
        p.table
        for p in rnd.pairings
        if p.table is not None and reported_in_places(state.settings, rnd.kind, len(p.players))
    ]


def table_results(
    state: Tournament, number: int, tables: Iterable[int]
) -> tuple[dict[int, str], dict[int, str]]:
    """Round ``number``'s ``tables`` as the pairings show them: the result of each decided
    table in words (``2-1-0``, a pod's places), and the games won so far (``W-L-D`` for the
    first-listed player, as a slip reads) of each match still being played with a game
    recorded; a table is in one of the two at most."""
    results: dict[int, str] = {}
    scores: dict[int, str] = {}
    for table_number in tables:
        found = state.result(number, table_number)
        if found is not None:
            results[table_number] = _result_words(found, state)
            continue
        table = state.tables.get((number, table_number))
        if table is not None and table.game_results and len(table.players) == 2:
            scores[table_number] = table.games_score().text
    return results, scores


def _result_words(result: Result, state: Tournament) -> str:
    from referee.tournament.model import Placement

    if isinstance(result, Placement):  # places, not W-L-D (EV-7.3)
        from referee.tournament.playoff import ordinal

        names = state.names()
        ordered = sorted(result.places, key=lambda p: p[1])
        return ", ".join(f"{ordinal(place)} {names.get(p, p)}" for p, place in ordered)
    text: str = result.text
    return text


def player_rounds(state: Tournament, player_name: str) -> list[PlayerRound]:
    """Every round the player was paired in: table, opponents by name, the result for them."""
    who = state.find(player_name)
    if who is None:
        raise RefusedError(f"EV-2.1: no player {player_name!r} in this event")
    names = state.names()
    return _missed_rounds(state, who) + [
        _player_round(state, names, who, number, pairing)
        for number in sorted(state.rounds)
        for pairing in state.rounds[number].pairings
        if who in pairing.players
    ]


def _missed_rounds(state: Tournament, who: str) -> list[PlayerRound]:
    """The rounds a late entry missed, before their first (EV-2.3), as the standings count
    them: each a match loss when they took them (EV-2.9, ``Tournament.late_losses``), else
    not played (EV-I.6). Listed so that a record of 0-2-0 before a first match reads as
    what it is, on the player's page and in the API's history."""
    entrant = state.players[who]
    if entrant.entry_round <= 1:
        return []
    lost = entrant.late_as_losses is True
    result = "match loss: late entry (EV-2.9)" if lost else "not played: late entry (EV-I.6)"
    return [
        PlayerRound(round=n, table=None, bye=False, opponents=[], result=result, missed=True)
        for n in range(1, entrant.entry_round)
    ]


def _player_round(
    state: Tournament, names: dict[str, str], who: str, number: int, pairing: Pairing
) -> PlayerRound:
    """One round of a player's history: table, opponents by name, the result for them."""
    from referee.tournament.model import Placement, Score

    result = so_far = ""
    if pairing.bye:
        result = "bye"
    elif pairing.table is not None:
        found = state.result(number, pairing.table)
        table = state.tables.get((number, pairing.table)) if found is None else None
        if table is not None and table.game_results and len(table.players) == 2:
            score = table.games_score()  # for the first-listed player, as a slip reads
            so_far = (score if table.players[0] == who else score.flipped()).text
        if isinstance(found, Score):
            mine = found if pairing.players[0] == who else found.flipped()
            word = {0: "won", 1: "lost", None: "drew"}[mine.winner]
            result = f"{word} {mine.text}"
        elif isinstance(found, Placement):
            from referee.tournament.playoff import ordinal

            result = f"{ordinal(found.place_of(who))} of {len(pairing.players)}"
    from referee.tournament.playoff import round_label

    label = round_label(state, number)
    return PlayerRound(
        round=number,
        table=pairing.table,
        bye=pairing.bye,
        opponents=[names.get(p, p) for p in pairing.players if p != who],
        result=result,
        stage="" if label == f"round {number}" else label,
        so_far=so_far,
    )


class EventRow(msgspec.Struct, kw_only=True):
    event: str
    name: str
    game: str
    players: int
    round: int
    ended: bool = False
    status: str = ""  # where it stands, in words: "Swiss round 3 of 5", "ended"


def list_events(svc: EventPrinting) -> list[EventRow]:
    """Every event of the store, newest first."""
    rows: list[EventRow] = []
    for event_id in reversed(svc.event_ids()):
        try:
            info = svc.event_info(event_id)
        except Exception as exc:
            # (issue 31: a record stored before imports were judged may not fold)
            rows.append(
                EventRow(
                    event=event_id,
                    name=f"{event_id} (cannot be read: {type(exc).__name__})",
                    game="?",
                    players=0,
                    round=0,
                )
            )
            continue
        rows.append(
            EventRow(
                event=info.event_id,
                name=info.name or info.event_id,
                game=info.game,
                players=info.players,
                round=info.current_round,
                ended=info.ended,
                status=svc.event_stage(event_id),
            )
        )
    return rows


class OwnPenalty(msgspec.Struct, kw_only=True):
    """A penalty given to the reader (EV-8.6): its number, round, infraction and penalty,
    and whether the head referee withdrew it (EV-8.7)."""

    number: int
    round: int
    infraction: str
    penalty: str
    withdrawn: bool = False


def own_penalties(state: Tournament, who: str) -> list[OwnPenalty]:
    """The penalties given to player ``who`` (an id), in order (EV-8.6, EV-8.7)."""
    return [
        OwnPenalty(
            number=number,
            round=given.round,
            infraction=given.infraction,
            penalty=given.penalty,
            withdrawn=number in state.withdrawn_penalties,
        )
        for number, given in enumerate(state.penalties, start=1)
        if given.player == who
    ]


class PenaltyLine(msgspec.Struct, kw_only=True, frozen=True):
    """A penalty of the event as staff list it (the desk) (EV-8.6, EV-8.7): its number (what a
    withdrawal names), the player by name, the infraction and level, the round, where it
    took effect, and whether it is withdrawn."""

    number: int
    player: str
    infraction: str
    penalty: str
    round: int
    effect: str
    withdrawn: bool
    in_places: bool = False
    """Whether the table it took effect at reports places, not W-L-D (a pod, EV-7.5;
    ``reported_in_places``): the result without it is then typed as places."""


def _penalty_in_places(state: Tournament, at: tuple[int, int] | None) -> bool:
    """Whether the table ``at`` (round, table) reports each player's place (EV-7.5)."""
    from referee.tournament.decisions import reported_in_places

    rnd = state.rounds.get(at[0]) if at is not None else None
    pairing = rnd.table(at[1]) if rnd is not None and at is not None else None
    if state.settings is None or rnd is None or pairing is None:
        return False
    return reported_in_places(state.settings, rnd.kind, len(pairing.players))


def penalty_lines(state: Tournament) -> list[PenaltyLine]:
    """The event's penalties in order, each with where it took effect as the state
    records it (``applied_penalties``, ``penalty_games``): a game loss's game, a match
    loss's table (at a pod: the player placed last there, EV-I.11), or still waiting for
    the player's next game or match."""
    listed = []
    pods = state.settings is not None and state.settings.pods
    for number, given in enumerate(state.penalties, start=1):
        at = state.applied_penalties.get(number)
        where = f"round {at[0]} table {at[1]}" if at is not None else ""
        game = state.penalty_games.get(number)
        if given.penalty in ("none", "warning"):
            effect = "recorded"
        elif given.penalty == "game-loss" and game is not None:
            effect = f"game {game} lost" + (f" ({where})" if where else "")
        elif given.penalty == "game-loss":
            effect = f"{where}: waits for the next game" if where else "waits for the next game"
        else:
            # at a pod the player is placed last and the others play on (EV-I.11); a pod
            # event's playoff table is a match, lost as any other (EV-6.4)
            lost = (
                "placed last in the pod" if pods and _penalty_in_places(state, at) else "match lost"
            )
            effect = f"{where}: {lost}" if where else "no match decided"
            if given.penalty == "disqualification":
                effect += "; dropped"
        listed.append(
            PenaltyLine(
                number=number,
                player=state.players[given.player].name,
                infraction=given.infraction,
                penalty=given.penalty,
                round=given.round,
                effect=effect,
                withdrawn=number in state.withdrawn_penalties,
                in_places=_penalty_in_places(state, at),
            )
        )
    return listed


class DecklistNote(msgspec.Struct, kw_only=True, frozen=True):
    """Whether a player of a deck event has handed in their decklist (EV-2.8), for their own
    eyes: ``lock_round`` is the round whose pairing locks the lists (the event's deadline,
    or the player's first round), ``locked`` whether it has been paired."""

    received: bool
    lock_round: int
    locked: bool


class PlayerLine(msgspec.Struct, kw_only=True):
    """A player's own page: this round's table and opponents, the record, every round."""

    player: str
    table: int | None
    bye: bool
    opponents: list[str]
    result: str
    standing: dict[str, Any] | None
    history: list[PlayerRound]
    hall: PlayerHall | None = None
    so_far: str = ""
    """This round's match still being played: the games won so far, this player's first."""
    penalties: list[OwnPenalty] | None = None
    """The penalties given to the player (``own_penalties``): for their own eyes, like
    ``hall``, else ``None`` (EV-10.7)."""
    """Judge calls and result reports at the player's table (``service.calls``): for the
    player's own eyes only (``own``, EV-10.7), else ``None``."""
    decklist: DecklistNote | None = None
    """A deck event: whether the player's decklist was received, for their own eyes only
    (``EventFixes.event_decklist_note``), else ``None``."""
    game: str | None = None
    """The game the player is playing now (its id: its page is where they enter their
    moves and call a judge from the table): their table's game of the current round not
    yet ended, while the match has no result; for their own eyes, like ``hall``, else
    ``None`` (the pairings list every table's games)."""
    rank: int | None = None
    """The player's rank in the standings (``standing``'s), or ``None`` before they have
    played a round: their figures are of nothing (EV-I.3: the standings leave them blank),
    and so is a rank ordered by the floors alone (registration order, the draw), which
    would read as a place in the event. ``None`` too without a standings line."""


def _ranked(standing: dict[str, Any] | None) -> int | None:
    """``PlayerLine.rank``: the row's rank once the player has played (a figure shown)."""
    if standing is None or standing.get("mw") is None:  # no round played (EV-I.3)
        return None
    rank: int = standing["rank"]
    return rank


def _line(
    state: Tournament,
    who: str,
    current: int | None,
    history: list[PlayerRound],
    standing: dict[str, Any] | None,
    paired: list[tuple[int, Pairing]] | None = None,
    *,
    own: bool = False,
) -> PlayerLine:
    """Player ``who``'s line: their table of round ``current`` (if any), ``history`` and
    ``standing``, and, when ``own`` (the reader is that player), the calls and reports at
    their table (``paired``: their pairings, where the caller has them indexed,
    ``player_hall``). Anyone else reads the pairings and results only (EV-10.7)."""
    now = next((h for h in history if h.round == current and not h.missed), None)
    hall = player_hall(state, who, paired) if own else None
    return PlayerLine(
        player=state.players[who].name,
        table=now.table if now else None,
        bye=now.bye if now else False,
        opponents=now.opponents if now else [],
        result=now.result if now else "",
        so_far=now.so_far if now else "",
        standing=standing,
        rank=_ranked(standing),
        history=history,
        hall=hall,
        penalties=own_penalties(state, who) if own else None,
        game=game_in_play(state, hall.round, hall.table) if hall is not None else None,
    )


def player_line(
    board: EventBoard, state: Tournament, player_name: str, *, own: bool = False
) -> PlayerLine:
    """Player ``player_name``'s line, with their table's calls and reports when ``own``
    (the reader is that player: ``PlayerIndex.own``)."""
    who = state.find(player_name)
    if who is None:
        raise RefusedError(f"EV-2.1: no player {player_name!r} in this event")
    name = state.players[who].name
    history = player_rounds(state, name)
    standing = next((s for s in board.standings if s["player"] == name), None)
    return _line(state, who, board.round, history, standing, own=own)


_PlayersIndex = tuple[
    dict[str, str], dict[str, str], dict[str, str], dict[str, list[tuple[int, int, Any]]]
]
_players_seen: list[tuple[Any, Any, _PlayersIndex]] = []


def _players_index(state: Tournament) -> _PlayersIndex:
    """Names by id, ids by name, ids by house id, and each player's pairings (round, place
    in the round, pairing): what
    ``PlayerIndex`` reads from the players and the rounds alone, kept while both are the same
    objects (a result changes neither: the fold's maps are persistent), so that after each
    result at 10,000 players the index is not built again from 50,000 pairings."""
    players, rounds = state.players, state.rounds
    for kept_players, kept_rounds, kept in _players_seen:
        if kept_players is players and kept_rounds is rounds:
            return kept
    names = state.names()
    ids: dict[str, str] = {}
    house = {e.player_id: e.id for e in players.values() if e.player_id}
    for entrant in players.values():
        # a name exactly, and only a name one player has (``Tournament.find``, issue 31)
        ids[entrant.name] = "" if entrant.name in ids else entrant.id
    paired: dict[str, list[tuple[int, int, Any]]] = {}
    for number in sorted(rounds):
        for index, pairing in enumerate(rounds[number].pairings):
            for player in pairing.players:
                paired.setdefault(player, []).append((number, index, pairing))
    found = (names, ids, house, paired)
    _players_seen.append((players, rounds, found))
    del _players_seen[:-8]  # a few events' worth
    return found


class PlayerIndex:
    """An event version's players indexed once for every player's own page: ids by name,
    each player's pairings, their standings rows. ``line`` answers what ``player_line``
    does, at the cost of one player's rows instead of a pass over the whole event.

    ``memo``: explanations already worked out, kept by the caller from one version of the
    event to the next (a dict it owns; this index adds to it). An explanation is a function
    of the player, the results it reads, the people it names and the event's settings, and
    it is kept under exactly those: after one result only the players who met the two
    players of that table get a new one, and every other player's is found, not computed
    again (``explain`` was half of a player page's cost)."""

    def __init__(
        self,
        board: EventBoard,
        state: Tournament,
        memo: dict[Any, str] | None = None,
        standing: Callable[[str], Any] | None = None,
        decklist: Callable[[str], DecklistNote | None] | None = None,
    ) -> None:
        self.board = board
        self.state = state
        self.memo = memo
        self._decklist_of = decklist  # a player's own page: their decklist's note (EV-2.8)
        self.names, self._ids, self._house, self._paired = _players_index(state)
        self._standing = {row["player"]: row for row in board.standings}
        self._standing_of = standing
        self._results: dict[str, list[tuple[int, Any]]] | None = None
        self._order = {n: i for i, n in enumerate(state.rounds)}
        self._late: bool | None = None  # whether a late entry took losses (EV-2.9)

    def _results_of(self, player: str) -> list[tuple[Any, Any]]:
        """The player's final results as ``Tournament.match_results`` makes them (each keyed
        in its order: the round's place among the rounds as they are kept, then the table's
        place in the round), read from their own pairings: after each result at 10,000
        players, indexing every result of the event again for one explanation cost 30-290
        ms. (Late entries' losses are results of no pairing: ``explain`` indexes them all.)"""
        from referee.tournament.model import Placement, Score
        from referee.tournament.standings import MatchResult

        state, order = self.state, self._order
        out: list[tuple[Any, Any]] = []
        for number, index, pairing in self._paired.get(player, []):
            if state.rounds[number].kind in ("cut", "elimination"):
                continue
            key = (order[number], index)
            if pairing.bye:
                out.append((key, MatchResult(round=number, players=pairing.players, bye=True)))
                continue
            result = state.result(number, pairing.table)
            if isinstance(result, Score):
                out.append((key, MatchResult(round=number, players=pairing.players, score=result)))
            elif isinstance(result, Placement):
                out.append(
                    (key, MatchResult(round=number, players=pairing.players, placement=result))
                )
        return out

    def explain(self, player_name: str) -> str:
        """How the player's figures are computed (``Tournament.explain``, now), from their own
        results and their opponents' only: every line of it is one of those tallies."""
        from referee.tournament.standings import explain

        state = self.state
        who = self.find(player_name)
        if who is None:
            raise RefusedError(f"EV-2.1: no player {player_name!r} in this event")
        if state.settings is None:
            return state.explain(who)
        if self._late is None:
            self._late = bool(state.late_losses())
        if self._late and self._results is None:
            # late entries' losses (EV-2.9) are results of no pairing: every result, indexed
            self._results = {}
            for number, result in enumerate(state.match_results().values()):
                for player in result.players:
                    self._results.setdefault(player, []).append((number, result))
        results_of = self._results.get if self._results is not None else self._results_of
        mine = results_of(who) or []
        met = {p for _, r in mine for p in r.players} | {who}
        relevant = dict(item for p in met for item in results_of(p) or [])
        people = [state.players[p] for p in met if p in state.players]
        results = [relevant[n] for n in sorted(relevant)]
        if self.memo is None:
            return explain(who, people, results, state.settings)
        key = (who, tuple(sorted(people, key=lambda e: e.id)), tuple(results), state.settings)
        found = self.memo.get(key)
        if found is None:
            if len(self.memo) >= 50_000:
                self.memo.clear()
            found = self.memo[key] = explain(who, people, results, state.settings)
        return found

    def page(self, player_name: str, *, own: bool = False) -> tuple[PlayerLine, str]:
        """What a player's page shows: ``line`` and ``explain``, in one call."""
        return self.line(player_name, own=own), self.explain(player_name)

    def pages(self, asked: Sequence[tuple[str, bool]]) -> list[tuple[PlayerLine, str] | None]:
        """``page`` of each player asked (a name, and whether its reader is that player: its
        ``own``), ``None`` for a name that is no player of the event."""
        out: list[tuple[PlayerLine, str] | None] = []
        for name, own in asked:
            try:
                out.append(self.page(name, own=own))
            except RefusedError:
                out.append(None)
        return out

    def find(self, name: str) -> str | None:
        """The id of the player named or identified by ``name`` (as ``Tournament.find``)."""
        wanted = " ".join(name.split())
        if wanted in self.state.players:
            return wanted
        if wanted in self._house:
            return self._house[wanted]
        return self._ids.get(wanted) or None

    def holder(self, player_id: str, name: str) -> str | None:
        """``Tournament.holder`` from the index: the id of the registered player who is the
        person ``player_id``, or, failing that, who registered as ``name`` without one."""
        if player_id and player_id in self._house:
            return self._house[player_id]
        found = self.find(name) if name.strip() else None
        if found is not None and self.state.players[found].player_id:
            return None  # someone else of that name, bound to their own id
        return found

    def own(self, who: Principal, player_name: str) -> bool:
        """Whether ``who`` is the player whose page is ``player_name``: the one reader shown
        that page's calls and reports (EV-10.7). The staff read them in the queue and the
        hall's lists, each as far as their role reaches (``service.calls``); other players
        and the public read the pairings and results only."""
        if who.role != "player":
            return False
        return sees_hall(self.holder(who.player_id, who.name), self.find(player_name))

    def line(self, player_name: str, *, own: bool = False) -> PlayerLine:
        """``player_line(board, state, player_name, own=own)``, from the index."""
        who = self.find(player_name)
        if who is None:
            raise RefusedError(f"EV-2.1: no player {player_name!r} in this event")
        state, names = self.state, self.names
        history = _missed_rounds(state, who) + [
            _player_round(state, names, who, number, pairing)
            for number, _, pairing in self._paired.get(who, [])
        ]
        paired = [(n, p) for n, _, p in self._paired.get(who, [])]
        standing = self.standing(who)
        line = _line(state, who, self.board.round, history, standing, paired, own=own)
        if own and self._decklist_of is not None:  # for the player's own eyes (EV-10.7)
            line.decklist = self._decklist_of(who)
        return line

    def standing(self, who: str) -> dict[str, Any] | None:
        """The player's standings row (``who``: their id): from the board's rows, or, for a
        board read without them, from ``standing`` (given to the index: the player's line of
        the live table, ``None`` when it cannot say), else ``None``."""
        if self.board.standings or self._standing_of is None:
            return self._standing.get(self.state.players[who].name)
        line = self._standing_of(who)
        return standing_dicts([line])[0] if line is not None else None


class Postings:
    """The posting service: postings and the event pages' reads, over the event service's
    reads. ``RefereeService`` holds one, so the faces reach them through the one door,
    never the store."""

    def __init__(self, store: GameStore, events: EventPrinting) -> None:
        self.store = store
        self.events = events  # the event service, whose reads the pages show

    def event_posting(
        self,
        event_id: str,
        kind: str,
        round_number: int | None = None,
        *,
        key: str | os.PathLike[str] | None = None,
    ) -> tuple[Posting, int]:
        """``make_posting`` on this store: the posting and how many later facts it leaves out."""
        if kind not in ("pairings", "standings"):
            raise RefusedError(f"a posting shows pairings or standings, not {kind!r}")
        shown: Kind = "pairings" if kind == "pairings" else "standings"
        with uncollected():
            return make_posting(
                self.store,
                event_id,
                shown,
                round_number,
                key=key,
                state_at=self._state_at(event_id),
                rows_at=functools.partial(self.events.event_swiss_rows, event_id),
            )

    def _state_at(self, event_id: str) -> Callable[[int], Tournament | None]:
        """The event as this service keeps it folded, for a posting at ``version`` when that
        is the event's newest fact (read before and after, so a fact appended meanwhile by
        another thread is never taken for it)."""
        reads = self.events

        def state_at(version: int) -> Tournament | None:
            if reads.event_version(event_id) != version:
                return None
            state: Tournament = reads.event_state(event_id)
            return state if reads.event_version(event_id) == version else None

        return state_at

    def newest_checkpoint(self) -> str:
        """The text of the store's newest checkpoint (empty before any seal): a page that
        shows where its posting was sealed changes when the store is sealed again."""
        found = _latest_checkpoint(self.store)
        return found.text() if found is not None else ""

    def verify_event_posting(
        self, event_id: str, posting: Posting, public_key: str | None = None
    ) -> PostingReport:
        """``verify_posting`` on this store; a superseded posting is told whether a later
        posting (at the newest checkpoint) exists, or what changed it is not sealed yet."""
        report = verify_posting(self.store, event_id, posting, public_key)
        moved = report.verdict in ("superseded", "unchecked") and (
            bool(report.corrections) or not report.unchanged
        )
        if not moved:
            return report
        sealed = _latest_checkpoint(self.store)
        covered = self.store.newest_at(event_id, sealed.position) if sealed is not None else None
        newest: Posting | None = None
        if covered is not None and covered[0] > posting.version:  # else: nothing later sealed
            with contextlib.suppress(RefusedError):
                newest, _ = self.event_posting(event_id, posting.kind, posting.round)
        if newest is not None and newest.body != posting.body:
            report.newer = newest.version
            report.answer += (
                f" A later posting, computed at fact {newest.version}, shows the change."
            )
        else:
            report.answer += (
                " No later posting shows it yet: the head referee seals "
                "('referee seal --key KEY') to post it."
            )
        return report

    def public_key_of(self, checkpoint: str) -> PublicKey | None:
        """The whole public key that signed ``checkpoint`` (a checkpoint's text), as the seal
        recorded it, with its fingerprint; ``None`` when the store does not hold it (sealed
        before keys were kept) or the checkpoint cannot be read."""
        from service.seal import recorded_public_key

        try:
            prefix = Checkpoint.parse(checkpoint).key
        except CheckpointError:
            return None
        found = _keys_seen.get((id(self.store), prefix))
        if found is None:
            key = recorded_public_key(self.store, prefix)
            if key is None:
                return None
            found = _keys_seen[(id(self.store), prefix)] = PublicKey(
                key=key, fingerprint=fingerprint(key)
            )
        return found

    def event_public_key(self, event_id: str) -> PublicKey | None:
        """The event's public key: the one that signed the newest checkpoint covering it (what
        its postings are computed at), else ``None`` (nothing sealed, or no key recorded)."""
        try:
            posting, _ = self.event_posting(event_id, "standings")
        except RefusedError:
            return None
        return self.public_key_of(posting.checkpoint)

    def event_board(
        self,
        event_id: str,
        round_number: int | None = None,
        *,
        standings_after: int | None = None,
        with_standings: bool = True,
        with_pairings: bool = True,
    ) -> tuple[EventBoard, Tournament]:
        """The pages' view of an event, from the service's event reads: (``with_pairings``) the
        round's pairings (by table and by name) and its results so far, and (``with_standings``)
        the standings, now or after ``standings_after``. A page that shows neither (a player's
        own, the standings without the round's tables) pays for neither: each is a pass over
        every table or player of the event.

        Standings rows are kept per event version: every open page reads itself again when a
        result arrives, and they all share one computation of the table."""
        svc = self.events
        info = svc.event_info(event_id)
        state: Tournament = svc.event_state(event_id)
        standings: list[dict[str, Any]] = []
        if with_standings:
            key = (id(svc), info.event_id, info.version, standings_after)
            cached = _standings_seen.get(key)
            if cached is None:
                cached = _standings_now(svc, event_id, standings_after)
                if len(_standings_seen) >= 64:
                    _standings_seen.clear()
                _standings_seen[key] = cached
            standings = cached
        rounds = sorted(state.rounds)
        shown = round_number if round_number is not None else (rounds[-1] if rounds else None)
        pairings: list[dict[str, Any]] = []
        named: list[dict[str, Any]] = []
        results: dict[int, str] = {}
        scores: dict[int, str] = {}
        if shown is not None and with_pairings:
            pairings, named = _round_rows(svc, event_id, state, shown)
            results, scores = table_results(
                state, shown, [row["table"] for row in pairings if row["table"] is not None]
            )
        from referee.tournament.playoff import is_playoff, round_label

        labels = {n: round_label(state, n) for n in rounds}
        board = EventBoard(
            event=info.event_id,
            name=info.name or info.event_id,
            game=info.game,
            format=_format_words(info),
            version=info.version,
            rounds=rounds,
            round=shown,
            after_round=standings_after,
            pairings=pairings,
            by_name=named,
            results=results,
            scores=scores,
            standings=standings,
            players=info.players,
            ended=info.ended,
            stage=labels.get(shown, "") if shown is not None else "",
            status=svc.event_stage(event_id),
            labels=labels,
            playoff=any(is_playoff(r) for r in state.rounds.values()),
            pods=info.pods,
            places=svc.event_pod_places(event_id) if info.pods else {},
            late=svc.event_late_notes(event_id) if info.pods else {},
            placed=_placed_tables(state, shown),
        )
        return board, state

    def event_list(self) -> list[EventRow]:
        """Every event of the store, newest first (the events page)."""
        return list_events(self.events)

    def event_player(self, event_id: str, player: str) -> tuple[EventBoard, PlayerLine]:
        """A player's page: the event as its pages show it, and the player's line (this
        round's table and opponents, record, every round; not their table's calls and
        reports, which are for the player's own eyes, EV-10.7)."""
        board, state = self.event_board(event_id)
        return board, player_line(board, state, player)

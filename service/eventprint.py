"""Reading an event as people print and post it: the round's name (a playoff stage, not
"round 8"), the pairings sheet with each player's points and the result once in, the
playoff bracket, the log and the audit naming people, a game's place in its event and the
next game of its match.

Reads only, over the event service's own reads (``svc.event_state``, ``svc.event_info``,
``svc.event_log``, ``svc.event_audit`` of ``service.tournaments.Tournaments``):
``EventPrinting`` is part of the event service (``service.event_service``), which
``RefereeService`` holds, so every face reaches them through the one door. The pure rules
of the playoff (stage names, the bracket, how far a player went) are
``referee.tournament.playoff``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from service.errors import RefusedError
from service.tournaments import LogLine, StandingRow, Tournaments

if TYPE_CHECKING:
    from referee.tournament.model import Pairing
    from referee.tournament.state import Tournament

__all__ = [
    "BracketView",
    "EventPrinting",
    "GamePlace",
    "PairingLine",
    "PairingSeat",
    "PairingSheet",
    "named_lines",
    "pairings_csv",
    "people",
    "standings_csv",
]


def people(state: Tournament) -> dict[str, str]:
    """Each player id -> the name people know them by, with the id where two players share
    a name (``Ann (p3)``): what logs, audits and sheets print instead of bare ids."""
    counts: dict[str, int] = {}
    for entrant in state.players.values():
        key = entrant.name.casefold()
        counts[key] = counts.get(key, 0) + 1
    return {
        p: e.name if counts[e.name.casefold()] == 1 else f"{e.name} ({p})"
        for p, e in state.players.items()
    }


MISSED = "–"
"""A round a late entry missed, in a pod event's places (EV-2.3)."""

_WORD = re.compile(r"(?<![\w-])([\w-]+)(?![\w-])")
"""A whole word of an id's letters (``p3``, ``hal-9``): an id made of them is matched as one."""
_ID_LETTERS = re.compile(r"[\w-]+")


def _namer(names: dict[str, str]) -> Callable[[str], str]:
    """A text with each whole player id replaced by the player's name (``names``: id ->
    name), made once for many texts. An id of word letters and hyphens (every ``p3``) is a
    whole word of the text, found as one and looked up: a 10,000-player event's audit no
    longer compiles, and tries at each place, an alternation of 10,000 ids for each line
    (500 s for the ended desk's audit at 10,000 players). An id of other letters (none the
    service makes) keeps an alternation of its own, those ids alone, tried first."""
    if not names:
        return lambda text: text
    odd = sorted((i for i in names if not _ID_LETTERS.fullmatch(i)), key=len, reverse=True)
    alternation = "|".join(re.escape(i) for i in odd)
    pattern = re.compile(rf"(?<![\w-])({alternation})(?![\w-])|{_WORD.pattern}") if odd else _WORD

    def word(found: re.Match[str]) -> str:
        whole = found.group(0)
        return names.get(whole, whole)

    return lambda text: pattern.sub(word, text)


def named_lines(lines: list[str], state: Tournament) -> list[str]:
    """``lines`` with player ids written as people know them (``people``)."""
    named = _namer(people(state))
    return [named(line) for line in lines]


def _label(state: Tournament, number: int) -> str:
    from referee.tournament.playoff import round_label

    return round_label(state, number)


def _stage_words(state: Tournament, number: int) -> str:
    """``round 3`` for a Swiss round, ``semifinal (round 7)`` for a playoff round."""
    from referee.tournament.playoff import round_words

    return round_words(state, number)


class PairingSeat(msgspec.Struct, kw_only=True):
    """A player at a table: their name, their match points going into the round, and the
    result for them once it is in (``won 2-1-0``, ``2nd of 4``)."""

    player: str
    points: int
    result: str = ""


class PairingLine(msgspec.Struct, kw_only=True):
    table: int | None
    bye: bool
    seats: list[PairingSeat]
    result: str
    games: list[str]


class PairingSheet(msgspec.Struct, kw_only=True):
    """A round's pairings as printed: the event, the round and its name, every table."""

    event: str
    name: str
    round: int
    stage: str
    lines: list[PairingLine]


def _seat_result(state: Tournament, number: int, pairing: Pairing, who: str) -> str:
    from referee.tournament.model import Placement, Score
    from referee.tournament.playoff import ordinal

    if pairing.bye:
        return "bye"
    if pairing.table is None:
        return ""
    found = state.result(number, pairing.table)
    if isinstance(found, Score):
        mine = found if pairing.players[0] == who else found.flipped()
        return f"{ {0: 'won', 1: 'lost', None: 'drew'}[mine.winner] } {mine.text}"
    if isinstance(found, Placement):
        return f"{ordinal(found.place_of(who))} of {len(pairing.players)}"
    return ""


def place_words(state: Tournament, number: int, table: int) -> str:
    """A pod's result in places: ``1st Ann, 2nd Ben, 2nd Cal`` (EV-7.3); a match's W-L-D."""
    from referee.tournament.model import Placement
    from referee.tournament.playoff import ordinal

    found = state.result(number, table)
    if found is None:
        return ""
    if isinstance(found, Placement):
        names = people(state)
        ordered = sorted(found.places, key=lambda p: p[1])
        return ", ".join(f"{ordinal(place)} {names.get(p, p)}" for p, place in ordered)
    text: str = found.text
    return text


def pairing_sheet(svc: Tournaments, event_id: str, round_number: int | None = None) -> PairingSheet:
    state: Tournament = svc.event_state(event_id)
    info = svc.event_info(event_id)
    number = round_number if round_number is not None else state.current_round
    rnd = state.rounds.get(number)
    if rnd is None:
        from referee.tournament.errors import unpaired
        from service.tournaments import EventRefusedError

        raise EventRefusedError("EV-5.1", unpaired(number))
    points = {s.player: s.points for s in state.standings(after_round=number - 1)}
    names = people(state)
    lines: list[PairingLine] = []
    for pairing in rnd.pairings:
        table = state.tables.get((number, pairing.table)) if pairing.table is not None else None
        lines.append(
            PairingLine(
                table=pairing.table,
                bye=pairing.bye,
                seats=[
                    PairingSeat(
                        player=names[p],
                        points=points.get(p, 0),
                        result=_seat_result(state, number, pairing, p),
                    )
                    for p in pairing.players
                ],
                result=place_words(state, number, pairing.table)
                if pairing.table is not None
                else "",
                games=list(table.games) if table else [],
            )
        )
    lines.sort(key=lambda r: (r.table is None, r.table or 0))
    return PairingSheet(
        event=info.event_id,
        name=info.name or info.event_id,
        round=number,
        stage=_label(state, number),
        lines=lines,
    )


def _cell(text: str) -> str:
    """A name as a spreadsheet cell: one starting ``=``, ``+``, ``-``, ``@`` (or a tab or a
    carriage return) is a formula to a spreadsheet, so ``=HYPERLINK(...)`` registered as a
    name ran when the organizer opened the CSV; a leading ``'`` keeps it text (OWASP's
    advice for CSV exports)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def pairings_csv(sheet: PairingSheet, *, by_name: bool = False) -> str:
    """One row per player and table: round, stage, table, player, points, opponents,
    result for the player (byes: table ``bye``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "stage", "table", "player", "points", "opponents", "result"])
    rows: list[list[str | int | None]] = []
    for line in sheet.lines:
        for seat in line.seats:
            others = " / ".join(s.player for s in line.seats if s is not seat)
            table = "bye" if line.bye else line.table
            rows.append(
                [sheet.round, sheet.stage, table, seat.player, seat.points, others, seat.result]
            )
    if by_name:
        rows.sort(key=lambda r: (str(r[3]).casefold(), str(r[3])))
    for row in rows:
        row[3], row[5] = _cell(str(row[3])), _cell(str(row[5]))
    writer.writerows(rows)
    return out.getvalue()


def standings_csv(rows: Sequence[StandingRow]) -> str:
    """The standings rows as CSV: final place (after a cut) and how far, Swiss rank, player,
    points, record, exact tie-breakers, the round a dropped player left after."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "final_place",
            "went",
            "rank",
            "player",
            "points",
            "wins",
            "losses",
            "draws",
            "byes",
            "omw",
            "gw",
            "ogw",
            "mw",
            "dropped_after",
        ]
    )
    for row in rows:
        r = row.record
        writer.writerow(
            [
                row.final_rank if row.final_rank is not None else "",
                row.went or "",
                row.rank,
                _cell(row.player),
                row.points,
                r.wins,
                r.losses,
                r.draws,
                r.byes,
                row.omw or "",
                row.gw or "",
                row.ogw or "",
                row.mw or "",
                row.dropped_after if row.dropped_after is not None else "",
            ]
        )
    return out.getvalue()


class BracketSide(msgspec.Struct, kw_only=True):
    player: str
    seed: int


class BracketMatchView(msgspec.Struct, kw_only=True):
    table: int | None
    bye: bool
    players: list[BracketSide]
    result: str | None
    winner: str | None


class BracketRoundView(msgspec.Struct, kw_only=True):
    round: int
    stage: str
    matches: list[BracketMatchView]


class BracketView(msgspec.Struct, kw_only=True):
    """The playoff by rounds (names and seeds), and the champion once the final is in."""

    event: str
    name: str
    cut: int
    rounds: list[BracketRoundView]
    champion: str | None
    ended: bool


def bracket_view(svc: Tournaments, event_id: str) -> BracketView:
    from referee.tournament.playoff import bracket

    state: Tournament = svc.event_state(event_id)
    info = svc.event_info(event_id)
    names = people(state)
    seed = {p: n for n, p in enumerate(state.cut, start=1)}
    if not seed and info.format == "elimination" and state.current_round:
        # no cut: the bracket was seeded from round 1's order, by rating then registration
        # (EV-6.2); every seed printed as (0) and the text said "top 0 playoff"
        seed = {s.id: n for n, s in enumerate(state.seats(1), start=1)}
    rounds: list[BracketRoundView] = []
    champion: str | None = None
    for rnd in bracket(state):
        matches = [
            BracketMatchView(
                table=m.table,
                bye=m.bye,
                players=[BracketSide(player=names[p], seed=seed.get(p, 0)) for p in m.players],
                result=m.result,
                winner=names[m.winner] if m.winner is not None else None,
            )
            for m in rnd.matches
        ]
        rounds.append(BracketRoundView(round=rnd.number, stage=rnd.stage, matches=matches))
        if rnd.stage == "final" and matches and matches[0].winner is not None:
            champion = matches[0].winner
    return BracketView(
        event=info.event_id,
        name=info.name or info.event_id,
        cut=info.cut,
        rounds=rounds,
        champion=champion,
        ended=info.ended,
    )


class GamePlace(msgspec.Struct, kw_only=True):
    """Where a game stands in its event: the event, the round and its name, the table, the
    game's number in the match, the match's games, and its result once decided."""

    event: str
    name: str
    round: int
    stage: str
    table: int
    game: int
    games: list[str]
    result: str
    next_game: str | None
    next_first: str = ""  # who plays first in the next game (EV-I.10)


def _first_player(svc: Tournaments, game_id: str) -> str:
    """The name of the player who takes the first turn of ``game_id``: the seat its setup
    names as ``first`` where the game has that option, else the first seat."""
    try:
        created = svc.game_service.load(game_id).created
    except (LookupError, RefusedError):
        return ""
    seats: dict[str, str] = {str(p.seat): str(p.name) for p in created.players}
    first = str((created.options or {}).get("first") or "")
    if first in seats:
        return seats[first]
    return next(iter(seats.values()), "")


def game_place(svc: Tournaments, meta: dict[str, str], game_id: str) -> GamePlace | None:
    """``None`` for a game of no event (or of an event this store does not hold)."""
    event_id = meta.get("event", "")
    if not event_id:
        return None
    try:
        state: Tournament = svc.event_state(event_id)
        number, table = int(meta.get("round", "0")), int(meta.get("table", "0"))
    except (LookupError, RefusedError, ValueError):
        return None
    linked = state.tables.get((number, table))
    games = list(linked.games) if linked is not None else []
    later = games[games.index(game_id) + 1 :] if game_id in games else []
    return GamePlace(
        event=event_id,
        name=meta.get("event_name", "") or event_id,
        round=number,
        stage=_label(state, number),
        table=table,
        game=games.index(game_id) + 1 if game_id in games else int(meta.get("game", "1") or 1),
        games=games,
        result=place_words(state, number, table),
        next_game=later[0] if later else None,
        next_first=_first_player(svc, later[0]) if later else "",
    )


def log_named(svc: Tournaments, event_id: str) -> list[LogLine]:
    state: Tournament = svc.event_state(event_id)
    named = _namer(people(state))
    lines = svc.event_log(event_id)

    def stage(found: re.Match[str]) -> str:
        number = int(found.group(1))
        return _stage_words(state, number) if number in state.rounds else found.group(0)

    for line in lines:
        if line.kind == "player-registered":
            continue  # "registered: Ann (p1)" is where a name meets its id: kept as it is
        line.text = _ROUND.sub(stage, named(line.text))
    return lines


_ROUND = re.compile(r"\bround (\d+)(?: \((?:cut|elimination)\))?")


def audit_named(svc: Tournaments, event_id: str) -> dict[str, Any]:
    """The audit with people named (with their id where two share a name) and the late
    entries listed, in the order they were stored: one reading of the event's log
    (``event_audit`` lists the late entries as it goes, EV-2.3)."""
    state: Tournament = svc.event_state(event_id)
    names = people(state)
    namer = _namer(names)
    data: dict[str, Any] = svc.event_audit(event_id, late=lambda p: names.get(p.id, p.name))
    entries: list[dict[str, Any]] = []

    def stage(found: re.Match[str]) -> str:  # a playoff round by its stage (EV-6.6)
        number = int(found.group(1))
        return _stage_words(state, number) if number in state.rounds else found.group(0)

    for entry in data["entries"]:
        if entry["what"] == "late entry":  # named already, by ``names``
            entries.append(entry)
            continue
        named = {k: namer(v) if isinstance(v, str) else v for k, v in entry.items()}
        if entry.get("what") == "games voided" and isinstance(entry.get("reason"), str):
            named["reason"] = _ROUND.sub(stage, named["reason"])  # the engine's words
        number = entry.get("round")
        if isinstance(number, int) and _label(state, number) != f"round {number}":
            named["stage"] = _stage_words(state, number)
        if isinstance(entry.get("warnings"), list):
            named["warnings"] = [namer(str(w)) for w in entry["warnings"]]
        entries.append(named)
    return {**data, "entries": entries}


def stage_now(svc: Tournaments, event_id: str) -> str:
    """Where the event stands in words: ``ended``, ``Swiss round 3 of 5``, ``semifinal
    (round 7), top 8 cut``, ``not paired yet``."""
    info = svc.event_info(event_id)
    state: Tournament = svc.event_state(event_id)
    number = info.current_round
    if info.ended:
        return "ended"
    if not number:
        return "not paired yet"
    label = _label(state, number)
    if label != f"round {number}":
        return f"{label} (round {number})" + (f", top {info.cut} cut" if info.cut else "")
    if info.format == "swiss":
        return f"Swiss round {number} of {info.rounds}" + (
            f", then a top {info.cut} cut" if info.cut else ""
        )
    return f"round {number} of {info.rounds}" if info.rounds else f"round {number}"


class EventPrinting(Tournaments):
    """The event's reads as people print and post them (a part of the event service)."""

    def event_round_label(self, event_id: str, round_number: int) -> str:
        """``round 3``, or the playoff stage (``semifinal``) for a playoff round (EV-6.6)."""
        return _label(self.event_state(event_id), round_number)

    def event_stage(self, event_id: str) -> str:
        """Where the event stands, in words (``stage_now``)."""
        return stage_now(self, event_id)

    def event_pairing_sheet(self, event_id: str, round_number: int | None = None) -> PairingSheet:
        """A round's pairings as printed: points going in, results once in (``pairing_sheet``)."""
        return pairing_sheet(self, event_id, round_number)

    def event_bracket(self, event_id: str) -> BracketView:
        """The playoff bracket (refused before the cut: there is none yet)."""
        view = bracket_view(self, event_id)
        if not view.rounds:
            from service.tournaments import EventRefusedError

            raise EventRefusedError(
                "EV-6.1",
                "no playoff yet: the cut is made when the round after the last Swiss round "
                "is paired"
                if view.cut
                else "this event has no playoff (no cut)",
            )
        return view

    def event_log_named(self, event_id: str) -> list[LogLine]:
        """``event_log`` with people named instead of their ids."""
        return log_named(self, event_id)

    def event_audit_named(self, event_id: str) -> dict[str, Any]:
        """``event_audit`` with people named and the late entries listed."""
        return audit_named(self, event_id)

    def event_game_place(self, game_id: str) -> GamePlace | None:
        """The event, round, table and match of a game (``None`` for a game of no event)."""
        try:
            view = self.game_service.load(game_id)
        except (RefusedError, LookupError):
            return None
        return game_place(self, dict(view.created.meta or {}), view.game_id)

    def event_game_place_of(self, meta: dict[str, str], game_id: str) -> GamePlace | None:
        """As ``event_game_place`` for a game already loaded (its ``meta``)."""
        return game_place(self, meta, game_id)

    def event_late_notes(self, event_id: str) -> dict[str, str]:
        """What a late entry's missed rounds count as, per player name (EV-2.3): the
        standings' places show each as ``–``, and this says it in words."""
        state = self.event_state(event_id)
        names = people(state)
        notes: dict[str, str] = {}
        for p, e in state.players.items():
            missed = sum(1 for n in state.rounds if n < e.entry_round)
            if not missed:
                continue
            rounds = "round 1" if missed == 1 else f"rounds 1-{missed}"
            notes[names[p]] = (
                f"{rounds} missed as a late entry: a match loss each (EV-2.9)"
                if e.late_as_losses is True
                else f"{rounds} missed as a late entry: not played (EV-I.6)"
            )
        return notes

    def event_pod_places(self, event_id: str) -> dict[str, list[str]]:
        """A pod event's places per player name, round by round (``1st``, ``3rd``); a
        round a late entry missed is ``–`` (a match loss, EV-2.9, or not played, EV-I.6:
        ``event_late_notes`` says which), so each place stays under its round."""
        from referee.tournament.model import Placement
        from referee.tournament.playoff import ordinal

        state = self.event_state(event_id)
        names = people(state)
        paired = sorted(state.rounds)
        out: dict[str, list[str]] = {
            names[p]: [MISSED] * sum(1 for n in paired if n < e.entry_round)
            for p, e in state.players.items()
        }
        for number in sorted(state.rounds):
            for pairing in state.rounds[number].pairings:
                if pairing.bye:
                    out[names[pairing.players[0]]].append("bye")
                    continue
                assert pairing.table is not None
                found = state.result(number, pairing.table)
                if isinstance(found, Placement):
                    for p, place in found.places:
                        out[names[p]].append(ordinal(place))
        return out

"""What a whole event walked at the desk met (docs/hall.md, The desk): the outcome lines
and pages that still sent the organizer to paper or to a refusal. A late entry's missed
rounds shown where their record counts them (EV-2.3, EV-2.9, EV-I.6); a correction after
the next round was paired says that round's pairings stand and how to pair it again
(EV-8.3, EV-5.12); once the last round has its results the desk offers the end, not a
pairing, a late entry or a fix the service can only refuse (EV-6.3, EV-1.3, EV-2.3,
EV-5.12, EV-5.13); a round already ended is not offered a start mark (EV-5.10); the clock
page leads back to the desk."""

from __future__ import annotations

import html
import re

from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web.conftest import Tokens, auth, table_token
from tests.web.test_desk_page import Desk, _event


def _rows(page: str) -> list[str]:
    """The player's page's rounds table, one text line a row."""
    found = re.search(r'id="my-rounds">(.*?)</table>', page, re.S)
    assert found, page
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", found.group(1), re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", r)).split()) for r in rows[1:]]


def test_a_late_entrys_missed_rounds_are_listed_as_their_record_counts_them(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """A late entry registered during round 2 with match losses (EV-2.9) has a record of
    0-2-0 before playing: their page lists rounds 1 and 2 as those losses, not an empty
    table under the record; one without losses lists them as not played (EV-I.6). The
    round being played is still "not paired" for them, and the API's history marks the
    rows ``missed``."""
    event = _event(store)
    with open_service(store) as svc:
        svc.event_pair(event)
        svc.event_result(event, ["1=2-0-0", "2=2-1-0"])
        svc.event_pair(event)
    desk = Desk(client, tokens["head"], event)
    form, _ = desk.form("register-form")
    said = desk.said(desk.send(**form, names="Eve", late_as_losses="yes"))
    assert said.endswith(
        "paired from round 3 (EV-2.3), with a match loss for rounds 1-2 missed (EV-2.9)"
    ), said
    form, _ = desk.form("register-form")
    said = desk.said(desk.send(**form, names="Fay"))
    assert said.endswith("a late entry, paired from round 3 (EV-2.3)"), said  # no losses named

    head = auth(tokens["head"])
    eve = client.get(f"/events/{event}/players/Eve", headers=head).text
    assert _rows(eve) == [
        "1 – match loss: late entry (EV-2.9)",
        "2 – match loss: late entry (EV-2.9)",
    ]
    assert "Not paired in round 2." in eve  # the missed row is not taken for this round's table
    assert re.search(r"Record <b>0-2-0</b>", eve), eve
    fay = client.get(f"/events/{event}/players/Fay", headers=head).text
    assert _rows(fay) == [
        "1 – not played: late entry (EV-I.6)",
        "2 – not played: late entry (EV-I.6)",
    ]
    ann = client.get(f"/events/{event}/players/Ann", headers=head).text
    assert all("late entry" not in row for row in _rows(ann))  # entered on time: nothing missed
    line = client.get(f"/api/events/{event}/players/Eve", headers=head).json()
    assert [(h["round"], h["missed"], h["table"]) for h in line["history"]] == [
        (1, True, None),
        (2, True, None),
    ]
    assert line["table"] is None  # round 2 is no table of hers


def test_a_correction_after_the_next_round_was_paired_says_its_pairings_stand(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-8.3: a round-1 result corrected while round 2 is played changes the standings,
    not round 2's pairings; the desk's outcome says so, and, while round 2 is still open,
    that re-pairing it (EV-5.12) pairs it from the corrected standings. Once round 2 has
    every result the re-pairing is no longer offered (the service refuses it)."""
    event = _event(store)
    with open_service(store) as svc:
        svc.event_pair(event)
        svc.event_result(event, ["1=2-0-0", "2=2-1-0"])
        svc.event_pair(event)
        paired = svc.event_state(event).rounds[2]
    desk = Desk(client, tokens["scorekeeper"], event)
    form, _ = desk.form("correct-form")
    sent = desk.send(**form, round="1", table="1", result="0-2-0", reason="slip swapped")
    assert desk.said(sent) == (
        "good: round 1 table 1 corrected to 0-2-0: slip swapped; the standings use it; "
        "round 2, paired before it, keeps its pairings (EV-8.3); to pair round 2 again "
        "from the corrected standings, re-pair it (EV-5.12)"
    )
    with open_service(store) as svc:
        assert svc.event_state(event).rounds[2] == paired  # nothing re-paired by itself
        svc.event_result(event, ["1=2-0-0", "2=2-0-0"])
    form, _ = desk.form("correct-form")
    sent = desk.send(**form, round="1", table="2", result="1-2-0", reason="one game more")
    said = desk.said(sent)
    assert said.endswith("round 2, paired before it, keeps its pairings (EV-8.3)"), said
    form, _ = desk.form("correct-form")
    sent = desk.send(**form, table="1", result="0-2-0", reason="the latest round's own")
    assert desk.said(sent) == (  # round 2 itself: nothing paired after it
        "good: round 2 table 1 corrected to 0-2-0: the latest round's own"
    )


def test_once_the_final_is_played_the_desk_offers_the_end_not_refusals(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """After the final's result the desk named the next pairing (refused, EV-6.3), a late
    entry (refused, EV-2.3), re-pairing and undoing (refused, EV-5.12, EV-5.13) and the
    start of a round already ended: it now says the bracket is finished and leads to the
    end of the event; the standings no longer say the playoff is under way."""
    with open_service(store) as svc:
        event = svc.event_new("Cup", "prizmik", rounds=1, cut=2, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
        svc.event_pair(event)
        svc.event_result(event, ["1=2-0-0", "2=2-1-0"])
        svc.event_pair(event)  # the cut: the final
    desk = Desk(client, tokens["head"], event)
    _, page = desk.form("pair-form")
    assert 'id="desk-fix"' in page  # the final is open: it may still be re-paired
    assert 'id="desk-entries-closed"' in page  # the cut is made: no late entry (EV-2.3)
    assert 'id="register-form"' not in page
    with open_service(store) as svc:
        svc.event_result(event, ["1=2-1-0"])
        svc.event_round(event, "end")  # ended without a start mark
    _, page = desk.form("end-form")
    text = html.unescape(page)
    assert "EV-6.3: the bracket is finished: the event can end" in text
    assert "<h2>The last round is played</h2>" in page
    assert "Pair the next round" not in page
    assert 'href="#desk-end"' in page
    for gone in ("pair-form", "pair-hand-form", "repair-form", "undo-form", "start-round-form"):
        assert f'id="{gone}"' not in page, gone
    assert (
        "Standings · playoff played"
        in client.get(f"/events/{event}/standings", headers=auth(tokens["head"])).text
    )
    form, _ = desk.form("end-form")
    assert desk.said(desk.send(**form, reason="final played")) == "good: event ended"


def test_after_the_last_swiss_round_without_a_cut_the_desk_leads_to_the_end(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-1.3: the Swiss rounds played and no cut: the pairing button gives way to the
    clause and the end; before anyone registers, the rounds-and-cut form says the rounds
    follow the player count rather than "Now 0 Swiss rounds"."""
    with open_service(store) as svc:
        event = svc.event_new("Club", "prizmik", seed=5).event_id
    desk = Desk(client, tokens["head"], event)
    _, page = desk.form("change-form")
    assert "Now 0 Swiss rounds" not in page
    assert "Swiss rounds as the player count gives them" in page
    with open_service(store) as svc:
        svc.event_change(event, rounds=1, reason="one round tonight")
        svc.event_register(event, ["Ann", "Ben"])
        svc.event_pair(event)
        svc.event_result(event, ["1=2-0-0"])
    _, page = desk.form("end-form")
    assert (
        "EV-1.3: all 1 Swiss rounds have been played and there is no cut: end the event"
        in html.unescape(page)
    )
    assert 'id="pair-form"' not in page
    assert 'id="register-form"' in page  # a Swiss event without a cut still takes entries


def test_the_clock_page_leads_the_head_back_to_the_desk(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """The desk's round marks do not start the round clock: the desk links the clock page,
    and the clock page (the head's, with its buttons) links the desk back; a reader of the
    shared clock page is not sent to a desk they may not open."""
    event = _event(store)
    with open_service(store) as svc:
        svc.event_pair(event)
    _, page = Desk(client, tokens["head"], event).form("start-round-form")
    assert f'href="/events/{event}/clock" id="desk-clock"' in page
    head = client.get(f"/events/{event}/clock", headers=auth(tokens["head"])).text
    assert f'href="/events/{event}/desk" id="clock-desk"' in head
    ann = client.get(f"/events/{event}/clock", headers=auth(tokens["ann"])).text
    assert 'id="clock-desk"' not in ann


def test_the_ended_desks_audit_folds_the_bookkeeping_of_each_slip(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """A slip closes its table's open games as void, one audit entry a table: in a walked
    event of 16 they were 33 of the audit's 41 lines, around the one correction. The desk
    lists the overrides, corrections and late entries (a late entry's match losses named,
    EV-2.9) and folds those entries under one line, each still there when opened; the
    command line's audit keeps every one."""
    event = _event(store)
    with open_service(store) as svc:
        svc.event_pair(event)
        svc.event_result(event, ["1=2-0-0", "2=2-1-0"])
        svc.event_correct(event, 1, "1=0-2-0", reason="slip swapped", by="Hera")
        svc.event_register(event, ["Eve"], late_as_losses=True)
        svc.event_end(event, reason="hall closed", by="Hera")
        everything = svc.event_audit_named(event)["entries"]
    voided = [e for e in everything if e["what"] == "games voided"]
    assert len(voided) == 2  # the command line's audit: each one
    assert {"what": "late entry", "player": "Eve", "round": 2, "match_losses": 1}.items() <= {
        k: v for e in everything if e["what"] == "late entry" for k, v in e.items()
    }.items()
    page = client.get(f"/events/{event}/desk?audit=1", headers=auth(tokens["head"])).text
    listed = html.unescape(page.split('id="desk-audit-list"')[1].split("</ol>")[0])
    assert "result corrected" in listed
    assert "late entry</b>: player=Eve, round=2, match_losses=1" in listed
    assert "decided by its slip" not in listed
    folded = html.unescape(page.split('id="desk-audit-routine"')[1].split("</details>")[0])
    assert "and 2 tables whose open games were closed as void" in folded
    assert folded.count("was decided by its slip") == 2
    assert f"({len(everything)} in all)" in page  # the count is of every entry, folded too


def test_the_slips_command_line_is_the_staffs_not_a_players(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """Each slip named the command a scorekeeper types (``referee event result E 1=W-L-D``);
    a player reading the slips page, who reports from their own page and has no command
    line on the event's store, was shown it too. It is the staff's alone now."""
    event = _event(store)
    with open_service(store) as svc:
        svc.event_pair(event)
    command = f"referee event result {event} 1=W-L-D"
    for role, shown in (("scorekeeper", True), ("head", True), ("ann", False)):
        page = client.get(f"/events/{event}/slips", headers=auth(tokens[role])).text
        assert "round 1 · table 1" in html.unescape(page), role  # the slip itself is shown
        assert (command in page) == shown, role


def test_a_pairing_typed_by_hand_is_refused_naming_each_problem(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-5.11, EV-2.1: a pairing typed on the desk with a name that is no player and a
    player twice was refused with the first problem "(and 1 more)": the head put it right
    and was refused again for the other. Each problem is named at once, the text kept."""
    event = _event(store)
    desk = Desk(client, tokens["head"], event)
    form, _ = desk.form("pair-hand-form")
    typed = "Ann v Ben\nCal v Zed\nDee v Ann"
    refused = desk.send(**form, tables=typed, reason="feature match")
    said = desk.said(refused)
    assert said.startswith("bad: EV-2.1: 'Zed' is not a registered player; also EV-5.11: "), said
    assert "more)" not in said
    assert "Ann" in said.split("also EV-5.11: ")[1], said  # the player given twice, named
    kept = desk.shown(refused).split('id="pair-hand-form"')[1].split("</form>")[0]
    assert f">{typed}</textarea>" in kept


def test_a_judge_call_in_the_queue_leads_the_head_to_the_desks_penalty(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """A call answered with a penalty (EV-8.6): the queue's call offered claim, escalate and
    resolve, and the head went looking for the desk. The head's call now links the desk's
    penalty form; a table referee, who gives no event penalty, is not offered it, and
    escalates (to the head, EV-10.5), which the head is no longer offered."""
    event = _event(store)
    with open_service(store) as svc:
        svc.event_pair(event)
        svc.event_call(event, 1, by="Hera", reason="a card drawn too many")
    head = client.get("/queue", headers=auth(tokens["head"])).text
    assert f'href="/events/{event}/desk#desk-penalty" class="call-penalty"' in head
    assert "/escalate" not in head  # escalating is to the head referee: not theirs to press
    tom = client.get("/queue", headers=auth(table_token(store, event, "1"))).text
    assert "a card drawn too many" in tom  # the call is theirs to answer
    assert "call-penalty" not in tom
    assert f"/queue/calls/{event}/1/escalate" in tom


def test_the_queue_says_a_table_was_created_without_its_rule_variants(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """Each table still playing was listed with "last: created prizmik (prizmik/1) red=...,
    blue=... [setup_files=ceg, fleet_capturable=yes, ...]", a Gammasphere table with
    fourteen variants: on the head's phone, a paragraph a table. The queue says who sit;
    the variants stay on the table page and in the log."""
    event = _event(store)
    with open_service(store) as svc:
        svc.event_pair(event)
        playing = [i for i in svc.queue().info if i.tournament == event]
    assert playing
    for item in playing:
        # who sit, by name alone at an event (a game's seat is not the event's player id)
        assert re.fullmatch(r"created prizmik \(prizmik/\d+\) \w+, \w+", item.last), item
    head = client.get("/queue", headers=auth(tokens["head"])).text
    assert "setup_files=" not in head

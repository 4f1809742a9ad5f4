"""The event's desk (``/events/E/desk``, docs/hall.md): the head referee pairs, drops,
undrops, penalizes, undoes and ends the event from plain HTML forms, each carried out once
per its key and answered by a redirect to the desk showing the outcome (a refusal with its
clause and the values typed); the scorekeeper gets the drop form only, a player the 403.
EV-1.4, EV-2.5, EV-2.7, EV-5.13, EV-8.4, EV-8.6."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from referee.tournament.facts import PENALTY_LEVELS
from referee.tournament.penalties import INFRACTIONS
from service.app import open_service
from service.errors import RefusedError
from tests.web.conftest import Tokens, auth, event_kinds
from web.deskpage import _hand_pairing

SAME_SITE = {"Sec-Fetch-Site": "same-origin"}


def _event(store: str) -> str:
    """A PRIZMIK Swiss event of four players, no round paired yet."""
    with open_service(store) as svc:
        event = svc.event_new("Desk Open", "prizmik", rounds=3, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    return event


def _log(store: str, event: str) -> list[str]:
    """The event log's lines, as ``referee event log`` prints them."""
    with open_service(store) as svc:
        return [line.text for line in svc.event_log_named(event)]


@dataclass(frozen=True)
class Desk:
    """One staff member's desk for one event, as the browser sees it: the page's forms,
    a form posted, and the outcome line the redirect shows."""

    client: TestClient[Litestar]
    token: str
    event: str

    def form(self, form_id: str, path: str = "") -> tuple[dict[str, str], str]:
        """The desk's form ``form_id`` (on the desk, or on ``path``: a redirect's): the
        hidden fields it posts (its key ``idem``, its ``action``, a penalty's ``number``),
        and the page's text."""
        page = self.client.get(path or f"/events/{self.event}/desk", headers=auth(self.token))
        assert page.status_code == 200, page.text
        found = re.search(rf'<form [^>]*id="{form_id}".*?</form>', page.text, re.S)
        assert found, (form_id, page.text)
        hidden = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', found.group(0))
        assert "idem" in dict(hidden), found.group(0)
        return dict(hidden), page.text

    def send(self, **form: str) -> Any:
        """Post ``form`` (a form's hidden fields and what is typed, or a script's fields)."""
        sent = self.client.post(
            f"/events/{self.event}/desk/do",
            data=form,
            headers={**auth(self.token), **SAME_SITE},
            follow_redirects=False,
        )
        assert sent.status_code == 303, sent.text
        assert sent.headers["location"].startswith(f"/events/{self.event}/desk?said=")
        return sent

    def shown(self, sent: Any) -> str:
        """The page the redirect of ``sent`` leads to."""
        page = self.client.get(sent.headers["location"], headers=auth(self.token))
        assert page.status_code == 200, page.text
        return str(page.text)

    def said(self, sent: Any) -> str:
        """The desk's outcome line after the redirect of ``sent``."""
        page = self.shown(sent)
        found = re.search(r'<p class="(good|bad)" id="desk-said"[^>]*>(.*?)</p>', page, re.S)
        assert found, page
        return f"{found.group(1)}: {html.unescape(found.group(2))}"

    def refuses(self, form_id: str, *posts: tuple[dict[str, str], str]) -> None:
        """Post the form ``form_id`` once for each (fields, what the desk says) of ``posts``,
        each refused with those words: the first from the desk, each next as the page the
        last refusal came back to offers it again (a fresh key)."""
        back = ""
        for fields, words in posts:
            form, _ = self.form(form_id, back)
            refused = self.send(**form, **fields)
            assert self.said(refused) == words, fields
            back = refused.headers["location"]

    def refused_unseen(self, store: str, hidden: tuple[str, ...], **fields: str) -> None:
        """A staff member whose desk shows none of the ``hidden`` elements (by id) posts
        ``fields`` all the same, under their own drop form's key: refused, 403, and nothing
        is written to the event's log."""
        form, page = self.form("drop-form")
        for element in hidden:
            assert f'id="{element}"' not in page
        before = event_kinds(store, self.event)
        refused = self.send(idem=form["idem"], **fields)
        assert 'data-status="403"' in self.shown(refused)
        assert event_kinds(store, self.event) == before


@pytest.fixture
def desk(client: TestClient[Litestar], tokens: Tokens, store: str) -> Desk:
    """The head referee's desk for a new event (``_event``)."""
    return Desk(client, tokens["head"], _event(store))


def test_the_head_runs_a_round_from_the_desk_once_per_key(
    desk: Desk, client: TestClient[Litestar], store: str
) -> None:
    event, head = desk.event, desk.token
    form, page = desk.form("pair-form")
    # the choices come from the service: the players, the IPG's infractions and levels
    assert '<option value="Cal">' in page
    assert "<option>tardiness</option>" in page
    assert "<option>match-loss</option>" in page
    first = desk.send(**form)
    again = desk.send(**form)  # a reload: nothing more
    assert again.headers["location"] == first.headers["location"]
    assert event_kinds(store, event).count("round-paired") == 1
    assert desk.said(first).startswith("good: round 1 paired: 2 tables, 0 byes")

    form, _ = desk.form("drop-form")
    for _ in range(2):
        desk.send(**form, player="Dee", reason="ill")
    with open_service(store) as svc:
        dee = next(p for p in svc.event_state(event).players.values() if p.name == "Dee")
    assert dee.dropped_after == 1
    assert event_kinds(store, event).count("player-dropped") == 1

    form, page = desk.form("undrop-form")
    assert 'list="desk-players"' in page.split('id="undrop-form"')[1]
    sent = desk.send(**form, player="Dee", reason="came back")
    assert desk.said(sent) == "good: Dee is back in the event"

    form, _ = desk.form("undo-form")
    sent = desk.send(**form, reason="wrong seating")
    assert desk.said(sent).startswith("good: round 1 undone"), desk.said(sent)
    assert "round-undone" in event_kinds(store, event)
    form, _ = desk.form("pair-form")
    desk.send(**form)
    assert event_kinds(store, event).count("round-paired") == 2

    form, _ = desk.form("penalty-form")
    for _ in range(2):
        sent = desk.send(**form, player="Ann", infraction="tardiness", penalty="", reason="late")
    said = desk.said(sent)
    assert said.startswith(
        "good: Ann: game-loss (penalty 1; the IPG suggests game-loss, EV-8.4)"
    ), said
    assert "ended as a loss for Ann (EV-8.6)" in said  # it reached the match, the clause named
    with open_service(store) as svc:
        assert len(svc.event_state(event).penalties) == 1
    listed = desk.shown(sent)
    assert re.search(
        r'id="penalty-1"><td[^>]*>1</td><td[^>]*>Ann</td><td[^>]*>tardiness</td><td[^>]*>game-loss</td><td[^>]*>1</td>'
        r"<td[^>]*>game [^<]+ lost \(round 1 table \d\)</td>",
        listed,
    ), listed

    form, _ = desk.form("end-form")
    sent = desk.send(**form, reason="the hall closed")
    assert desk.said(sent) == "bad: EV-1.4: a round is still open: finish or correct it first"
    with open_service(store) as svc:
        svc.event_result(event, ["1=0-2-0", "2=2-0-0"])
    form, _ = desk.form("end-form")
    sent = desk.send(**form, reason="the hall closed", void_open="yes")
    assert desk.said(sent).startswith("good: event ended"), desk.said(sent)
    assert 'id="desk-ended"' in client.get(f"/events/{event}/desk", headers=auth(head)).text
    with open_service(store) as svc:
        assert svc.event_info(event).ended


def test_a_refusal_shows_its_clause_keeps_the_values_and_frees_the_key(
    desk: Desk, store: str
) -> None:
    event = desk.event
    form, _ = desk.form("drop-form")
    desk.send(**form, player="Dee", reason="signed out")
    form, _ = desk.form("pair-form")
    desk.send(**form)
    form, _ = desk.form("penalty-form")
    sent = desk.send(
        **form, player="Ben", infraction="napping", penalty="warning", reason="asleep at table 1"
    )
    said = desk.said(sent)
    assert said.startswith("bad: EV-8.4: unknown infraction 'napping'"), said
    shown = desk.shown(sent)
    penalty_form = shown.split('id="penalty-form"')[1].split("</form>")[0]
    assert 'value="asleep at table 1"' in penalty_form
    assert 'value="Ben"' in penalty_form  # the player typed, kept
    assert "<option selected>warning</option>" in penalty_form
    with open_service(store) as svc:
        assert not svc.event_state(event).penalties

    form, _ = desk.form("repair-form")
    refused = desk.send(**form, reason="")
    said = desk.said(refused)
    assert said.startswith("bad: EV-5.1"), said
    # the refused form's key is spent; the page it comes back to has a fresh one
    fresh, _ = desk.form("repair-form", refused.headers["location"])
    assert fresh["idem"] != form["idem"]
    with open_service(store) as svc:
        svc.event_undrop(event, "Dee", reason="Dee is here")  # the engine now pairs her
    sent = desk.send(**fresh, reason="Ann and Ben are family")
    said = desk.said(sent)
    assert said.startswith("good: round 1 re-paired; "), said
    assert "Dee: not paired -> table" in said
    assert event_kinds(store, event).count("pairing-changed") == 1, event_kinds(store, event)

    form, _ = desk.form("undo-form")
    refused = desk.send(**form, reason="")
    assert desk.said(refused) == "bad: EV-5.13: undoing a round needs a reason"
    assert "round-undone" not in event_kinds(store, event)


def test_the_scorekeeper_drops_only_and_a_player_is_refused_the_desk(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    event = _event(store)
    sam = tokens["scorekeeper"]
    sam_desk = Desk(client, sam, event)
    form, page = sam_desk.form("drop-form")
    for form_id in ("pair-form", "penalty-form", "undo-form", "end-form", "undrop-form"):
        assert f'id="{form_id}"' not in page
    sent = sam_desk.send(**form, player="Cal")
    assert sam_desk.said(sent).startswith("good:")
    # the pairing posted all the same (a script): refused by the role, nothing paired
    form, _ = sam_desk.form("drop-form")
    refused = sam_desk.send(idem=form["idem"], action="pair")
    assert 'data-status="403"' in sam_desk.shown(refused)
    assert "round-paired" not in event_kinds(store, event)
    for who in ("ann", "table1", "public"):
        assert client.get(f"/events/{event}/desk", headers=auth(tokens[who])).status_code == 403
        # the form posted all the same (a script): refused by the role, nothing dropped
        Desk(client, tokens[who], event).send(action="drop", player="Dee")
    assert event_kinds(store, event).count("player-dropped") == 1  # Sam's drop of Cal alone
    # the slips page links the desk for those who may use it
    slips = f"/events/{event}/slips"
    assert 'id="desk-link"' in client.get(slips, headers=auth(sam)).text
    assert 'id="desk-link"' not in client.get(slips, headers=auth(tokens["table1"])).text


def test_pairing_warns_of_missing_decklists_and_makes_the_cut(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-2.8: a deck game's players without a list are named on the desk and in the
    pairing's outcome, once: the walk found them named again at every later pairing, when
    their lists were long locked; EV-6.1: after the last Swiss round the same form makes the cut."""
    with open_service(store) as svc:
        event = svc.event_new("Cut Open", "gammasphere", rounds=1, cut=4, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee"])
    head = tokens["head"]
    desk = Desk(client, head, event)
    form, page = desk.form("pair-form")
    assert re.search(r'id="desk-missing-decks">[^<]*Ann, Ben, Cal, Dee<', page), page
    sent = desk.send(**form)
    said = desk.said(sent)
    assert said.startswith("good: round 1 paired: 2 tables, 0 byes"), said
    assert "warning: Cal has no decklist (EV-2.8)" in said
    with open_service(store) as svc:
        svc.event_result(event, ["1=2-0-0", "2=2-0-0"])
    form, page = desk.form("pair-form")
    assert "make the top 4 cut and pair the playoff" in page
    # the lists locked when round 1 was paired: said once, not again at every pairing
    assert 'id="desk-missing-decks"' not in page
    sent = desk.send(**form)
    said = desk.said(sent)
    assert said.startswith("good: semifinal (round 2) paired: 2 tables"), said
    assert "decklist" not in said, said
    with open_service(store) as svc:
        assert len(svc.event_info(event).cut_seeds) == 4


def test_the_head_withdraws_a_penalty_from_the_list_with_a_reason(
    desk: Desk, client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-8.7: the desk lists the event's penalties with where each took effect; a
    withdrawal needs a reason, keeps the penalty (marked withdrawn) and reverses what it
    did (here a disqualification's drop, by an undrop)."""
    event, head = desk.event, desk.token
    with open_service(store) as svc:
        svc.event_pair(event)
        svc.event_penalize(event, "Ben", "tardiness", penalty="warning", reason="late")
        svc.event_result(event, ["1=2-0-0", "2=2-0-0"])
        svc.event_penalize(event, "Cal", "cheating", penalty="disqualification", reason="marked")
    form, page = desk.form("withdraw-form-2")
    listed = page.split('id="desk-penalties"')[1].split("</table>")[0]
    assert re.search(
        r'id="penalty-1"><td[^>]*>1</td><td[^>]*>Ben</td><td[^>]*>tardiness</td><td[^>]*>warning</td>'
        r"<td[^>]*>1</td><td[^>]*>recorded</td>",
        listed,
    ), listed
    assert re.search(
        r'id="penalty-2"><td[^>]*>2</td><td[^>]*>Cal</td><td[^>]*>cheating</td>'
        r"<td[^>]*>disqualification</td><td[^>]*>1</td><td[^>]*>[^<]*dropped</td>",
        listed,
    ), listed

    refused = desk.send(**form, reason=" ")
    assert desk.said(refused) == "bad: EV-8.7: withdrawing a penalty needs a reason"
    form, _ = desk.form("withdraw-form-2", refused.headers["location"])
    sent = desk.send(**form, reason="misjudged")
    said = desk.said(sent)
    assert said == (
        "good: penalty 2 withdrawn: misjudged; undropped: Cal (penalty 2 withdrawn: misjudged)"
    )
    again = desk.send(**form, reason="misjudged")
    assert again.headers["location"] == sent.headers["location"]  # once per key
    assert event_kinds(store, event).count("penalty-withdrawn") == 1
    with open_service(store) as svc:
        state = svc.event_state(event)
        assert state.withdrawn_penalties == {2}
        assert all(p.dropped_after is None for p in state.players.values())
    page = client.get(f"/events/{event}/desk", headers=auth(head)).text
    assert re.search(r'id="penalty-2">.*?<td>withdrawn</td>', page, re.S)
    assert 'id="withdraw-form-2"' not in page
    assert 'id="withdraw-form-1"' in page

    # a match loss that decided a match: withdrawn with the table's result without it
    with open_service(store) as svc:
        svc.event_pair(event)
        svc.event_penalize(event, "Ann", "cheating", penalty="match-loss", reason="marked")
        state = svc.event_state(event)
        ann = next(p.id for p in state.players.values() if p.name == "Ann")
        table = next(t.table for t in state.tables.values() if t.round == 2 and ann in t.players)
    form, page = desk.form("withdraw-form-3")
    assert re.search(rf"<td[^>]*>round 2 table {table}: match lost</td>", page), page
    refused = desk.send(**form, reason="no")
    said = desk.said(refused)
    assert said.startswith("bad: EV-8.7: the match-loss of Ann counts in round 2 table"), said
    # asked for as the desk's field takes it, not by a command line's flag
    assert said.endswith("give the table's result without it, as W-L-D"), said
    form, _ = desk.form("withdraw-form-3", refused.headers["location"])
    sent = desk.send(**form, reason="no", result="1-1-1")
    said = desk.said(sent)
    assert said == (
        f"good: penalty 3 withdrawn: no; round 2 table {table} corrected to 1-1-1: "
        "penalty 3 withdrawn: no"
    )

    form, _ = desk.form("withdraw-form-1")
    refused = desk.send(idem=form["idem"], action="withdraw", number="7", reason="typo")
    assert desk.said(refused).startswith("bad: EV-8.7: no penalty 7: the event has 3")
    # the scorekeeper sees no penalties and is refused a withdrawal posted all the same
    Desk(client, tokens["scorekeeper"], event).refused_unseen(
        store, ("desk-penalties",), action="withdraw", number="1", reason="x"
    )


def test_players_are_typed_by_name_from_one_datalist_at_any_size(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """A large event's desk names its players once, in one datalist the player fields
    share (no select per form); a name typed that is no player is refused by the service
    with its clause (EV-2.1), the name kept in the field."""
    with open_service(store) as svc:
        event = svc.event_new("Big Open", "prizmik", rounds=9, seed=5).event_id
        svc.event_register(event, [f"Player {n:04}" for n in range(3000)])
    head = tokens["head"]
    desk = Desk(client, head, event)
    form, page = desk.form("drop-form")
    assert page.count("<datalist") == 1
    assert page.count("<option") == 3000 + len(INFRACTIONS) + 1 + len(PENALTY_LEVELS) + 1
    assert '<option value="Player 2999">' in page
    assert '<select name="player"' not in page
    assert len(page) < 200_000, len(page)  # about 30 bytes a player, once
    refused = desk.send(**form, player="Player 3000")
    assert desk.said(refused) == "bad: EV-2.1: 'Player 3000' is not a registered player"
    kept = desk.shown(refused)
    assert 'value="Player 3000"' in kept.split('id="drop-form"')[1].split("</form>")[0]
    form, _ = desk.form("drop-form")
    sent = desk.send(**form, player="Player 1234")
    assert desk.said(sent).startswith("good:")
    assert event_kinds(store, event).count("player-dropped") == 1


def test_the_head_pairs_and_re_pairs_by_hand_with_a_reason(
    desk: Desk, client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-5.11: a round paired by hand, one table a line, needs its reason and every active
    player once, and the audit names who paired it; EV-5.12: the open round re-paired by
    hand before its first result."""
    event = desk.event
    form, page = desk.form("pair-hand-form")
    refused = desk.send(**form, tables="Ann v Ben\nbye Cal\nbye Dee")
    assert desk.said(refused) == "bad: EV-5.11: a manual pairing needs a reason"
    form, page = desk.form("pair-hand-form", refused.headers["location"])
    kept = page.split('id="pair-hand-form"')[1].split("</form>")[0]
    assert ">Ann v Ben\nbye Cal\nbye Dee</textarea>" in kept
    refused = desk.send(**form, tables="Ann v Ben\nbye Cal", reason="Dee is a judge")
    assert desk.said(refused) == "bad: EV-5.11: not paired: Dee"
    form, _ = desk.form("pair-hand-form", refused.headers["location"])
    refused = desk.send(**form, tables="Ann v Ben\nCal v Dot", reason="travel")
    assert desk.said(refused) == (
        "bad: EV-2.1: 'Dot' is not a registered player; also EV-5.11: not paired: Dee"
    )
    assert "round-paired" not in event_kinds(store, event)
    form, _ = desk.form("pair-hand-form", refused.headers["location"])
    sent = desk.send(**form, tables="  Ann  v Cal \n\nbye Ben\nbye   Dee", reason="travel byes")
    assert desk.said(sent) == "good: round 1 paired by hand: 1 table, 2 byes"
    with open_service(store) as svc:
        state = svc.event_state(event)
        named = [[state.players[p].name for p in x.players] for x in state.rounds[1].pairings]
    assert named == [["Ann", "Cal"], ["Ben"], ["Dee"]]
    with open_service(store) as svc:  # the audit names who paired by hand (the walk's (c))
        [paired] = [e for e in svc.event_audit(event)["entries"] if e["what"] == "manual pairing"]
    assert (paired["reason"], paired["by"]) == ("travel byes", "Hera")

    form, _ = desk.form("repair-hand-form")
    sent = desk.send(**form, tables="Ann v Ben\nCal v Dee", reason="Ben and Dee arrived")
    said = desk.said(sent)
    assert said == (
        "good: round 1 re-paired by hand; Ann: table 1 v Cal -> table 1 v Ben; "
        "Ben: bye -> table 1 v Ann; Cal: table 1 v Ann -> table 2 v Dee; "
        "Dee: bye -> table 2 v Cal"
    )
    assert event_kinds(store, event).count("pairing-changed") == 1

    Desk(client, tokens["scorekeeper"], event).refused_unseen(
        store,
        ("pair-hand-form", "repair-hand-form"),
        action="repair-hand",
        tables="Ann v Dee\nCal v Ben",
        reason="x",
    )


def test_a_pairing_typed_by_hand_reads_as_the_manual_file_does() -> None:
    """The desk's text becomes what ``event pair --manual`` reads: tables in order, byes
    apart; a line with `` v `` is a table even when its first name is Bye; pods for a pod
    event; nothing written is refused with its clause."""
    written = " Bye Smith v Ann \n\nbye  Cal Jones\nDee v Eve v Fay\n"
    assert _hand_pairing(written, pods=False) == {
        "pairs": [["Bye Smith", "Ann"], ["Dee", "Eve", "Fay"]],
        "byes": ["Cal Jones"],
    }
    assert _hand_pairing("A v B v C", pods=True) == {"pods": [["A", "B", "C"]], "byes": []}
    with pytest.raises(RefusedError, match=r"^EV-5\.11: write the pairing"):
        _hand_pairing(" \n \n", pods=False)


def test_the_head_attaches_a_decklist_until_the_deadline(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-2.8: in a deck game the desk attaches a player's list (checked as at
    registration: a wrong size refused with the list kept), not twice the same, and not
    once round 1 is paired; a game without decks has no such form."""
    from tests.gammasphere.helpers import DECK_TEXT

    with open_service(store) as svc:
        event = svc.event_new("Deck Open", "gammasphere", rounds=1, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben"])
    head = tokens["head"]
    desk = Desk(client, head, event)
    form, page = desk.form("deck-form")
    assert "until round 1 is paired" in page
    assert re.search(r'id="desk-missing-decks">[^<]*Ann, Ben<', page)
    refused = desk.send(**form, player="Ann", decklist="7 Pylon")
    said = desk.said(refused)
    assert said.startswith("bad: EV-2.8: "), said
    form, page = desk.form("deck-form", refused.headers["location"])
    kept = page.split('id="deck-form"')[1].split("</form>")[0]
    assert ">7 Pylon</textarea>" in kept
    assert 'value="Ann"' in kept
    sent = desk.send(**form, player="Ann", decklist=DECK_TEXT)
    assert desk.said(sent) == "good: decklist attached for Ann (40 cards)"
    again = desk.send(**form, player="Ann", decklist=DECK_TEXT)
    assert again.headers["location"] == sent.headers["location"]  # once per key
    assert event_kinds(store, event).count("decklist-attached") == 1
    form, page = desk.form("deck-form")
    assert re.search(r'id="desk-missing-decks">[^<]*: Ben<', page), page
    refused = desk.send(**form, player="Ann", decklist=DECK_TEXT)
    assert desk.said(refused) == (
        "bad: EV-2.8: Ann already has this decklist: nothing changed, nothing is recorded"
    )
    form, _ = desk.form("deck-form")
    refused = desk.send(**form, player="Ben")
    assert desk.said(refused).startswith("bad: EV-2.8: give the list")

    Desk(client, tokens["scorekeeper"], event).refused_unseen(
        store, ("deck-form",), action="deck", player="Ben", decklist=DECK_TEXT
    )

    with open_service(store) as svc:
        svc.event_pair(event)
    form, _ = desk.form("deck-form")
    refused = desk.send(**form, player="Ben", decklist=DECK_TEXT)
    said = desk.said(refused)
    assert said.startswith("bad: EV-2.8: round 1 has been paired: Ben's decklist is locked"), said
    assert event_kinds(store, event).count("decklist-attached") == 1
    # a game played without decks: no such form
    assert 'id="deck-form"' not in Desk(client, head, _event(store)).form("pair-form")[1]


def _table_of(store: str, event: str, name: str, number: int = 1) -> int:
    with open_service(store) as svc:
        state = svc.event_state(event)
        found = next(p.id for p in state.players.values() if p.name == name)
        return next(
            t.table for t in state.tables.values() if t.round == number and found in t.players
        )


def test_a_late_entry_is_registered_from_the_desk_once_per_key(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-2.3: after round 1 is paired a player registered at the desk is a late entry,
    paired from the next round, with match losses for the rounds missed when chosen
    (EV-2.9); a name like another's is refused (EV-2.2) with what was typed kept; the
    scorekeeper, who enters players, registers too; a player is refused."""
    event = _event(store)
    head = tokens["head"]
    with open_service(store) as svc:
        svc.event_pair(event)
    desk = Desk(client, head, event)
    form, page = desk.form("register-form")
    assert "paired from round 2 (EV-2.3)" in page.split('id="desk-register"')[1]
    first = desk.send(**form, names=" Eve \n\n", late_as_losses="yes")
    again = desk.send(**form, names=" Eve \n\n", late_as_losses="yes")
    assert again.headers["location"] == first.headers["location"]  # a reload: nothing more
    said = desk.said(first)
    assert re.fullmatch(
        r"good: registered 1: Eve \(p5, player id [^)]+\); a late entry, paired from "
        r"round 2 \(EV-2.3\), with a match loss for round 1 missed \(EV-2.9\)",
        said,
    ), said
    assert event_kinds(store, event).count("player-registered") == 5
    with open_service(store) as svc:
        eve = next(p for p in svc.event_state(event).players.values() if p.name == "Eve")
    assert eve.entry_round == 2
    assert eve.late_as_losses is True
    assert '<option value="Eve">' in desk.shown(first)  # the datalist names her now

    form, _ = desk.form("register-form")
    refused = desk.send(**form, names="eve", byes="1")
    said = desk.said(refused)
    assert said.startswith("bad: EV-2.2: 'eve' looks like 'Eve' (p5), already in this event"), said
    kept = desk.shown(refused).split('id="register-form"')[1].split("</form>")[0]
    assert ">eve</textarea>" in kept
    assert 'value="1"' in kept
    form, _ = desk.form("register-form", refused.headers["location"])
    refused = desk.send(**form, names="Fay", byes="two")
    assert desk.said(refused) == "bad: EV-2.4: byes is a whole number, not 'two'"
    assert event_kinds(store, event).count("player-registered") == 5

    sam_desk = Desk(client, tokens["scorekeeper"], event)
    form, page = sam_desk.form("register-form")
    assert "late_as_losses" in page
    sent = sam_desk.send(**form, names="Fay\nGus")
    assert sam_desk.said(sent).startswith("good: registered 2: Fay (p6, "), sam_desk.said(sent)
    # a player posting the form all the same (a script) is refused by the role
    Desk(client, tokens["ann"], event).send(action="register", names="Hal")
    assert event_kinds(store, event).count("player-registered") == 7


def test_a_result_is_corrected_from_the_desk_with_its_reason(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-8.1: a reported result corrected with the reason (in the audit, with who); a
    table without a result is refused (EV-8.2: report it instead), the values kept; the
    scorekeeper corrects too."""
    event = _event(store)
    head = tokens["head"]
    with open_service(store) as svc:
        svc.event_pair(event)
        svc.event_result(event, ["1=2-0-0"])
    desk = Desk(client, head, event)
    form, _page = desk.form("correct-form")
    refused = desk.send(**form, table="2", result="0-2-0", reason="the slip was swapped")
    said = desk.said(refused)
    assert said == "bad: EV-8.2: round 1 table 2 has no result yet: report it instead", said
    kept = desk.shown(refused).split('id="correct-form"')[1].split("</form>")[0]
    assert 'value="2"' in kept
    assert 'value="0-2-0"' in kept
    assert 'value="the slip was swapped"' in kept
    form, _ = desk.form("correct-form", refused.headers["location"])
    refused = desk.send(**form, table="x", result="0-2-0", reason="r")
    assert desk.said(refused) == "bad: EV-8.2: name the table, not 'x'"
    form, _ = desk.form("correct-form")
    sent = desk.send(**form, table="1", result="0-2-0", reason="the slip was swapped")
    desk.send(**form, table="1", result="0-2-0", reason="the slip was swapped")
    assert desk.said(sent) == "good: round 1 table 1 corrected to 0-2-0: the slip was swapped"
    assert event_kinds(store, event).count("result-corrected") == 1
    with open_service(store) as svc:
        [entry] = [e for e in svc.event_audit(event)["entries"] if e["what"] == "result corrected"]
    assert entry["reason"] == "the slip was swapped"
    assert entry["by"] == "Hera"

    sam_desk = Desk(client, tokens["scorekeeper"], event)
    form, _ = sam_desk.form("correct-form")
    sent = sam_desk.send(**form, round="1", table="1", result="1-2-0", reason="one game more")
    assert sam_desk.said(sent) == "good: round 1 table 1 corrected to 1-2-0: one game more"
    assert event_kinds(store, event).count("result-corrected") == 2


def test_the_head_changes_the_rounds_and_the_cut_while_allowed(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-1.5: the number of Swiss rounds or the cut changed with a reason, never below the
    rounds paired; the form is the head's (the scorekeeper is refused it)."""
    event = _event(store)
    head = tokens["head"]
    desk = Desk(client, head, event)
    form, page = desk.form("change-form")
    assert "Now 3 Swiss rounds (set by the organiser), no cut" in page
    sent = desk.send(**form, rounds="4", cut="", reason="the hall is ours")
    desk.send(**form, rounds="4", cut="", reason="the hall is ours")
    assert desk.said(sent) == "good: 4 Swiss rounds, no cut"
    with open_service(store) as svc:
        assert svc.event_info(event).rounds == 4
        svc.event_pair(event)
        svc.event_result(event, ["1=2-0-0", "2=2-0-0"])
        svc.event_pair(event)
    assert event_kinds(store, event).count("settings-changed") == 1, event_kinds(store, event)
    desk.refuses(
        "change-form",
        (
            {"rounds": "1", "reason": "short day"},
            "bad: EV-1.5: 2 Swiss rounds have already been paired: the event cannot play only 1",
        ),
        (
            {"reason": "nothing"},
            "bad: EV-1.5: give the new number of Swiss rounds, the cut, or both",
        ),
    )
    form, _ = desk.form("change-form")
    sent = desk.send(**form, cut="2", reason="a final")
    assert desk.said(sent) == "good: 4 Swiss rounds, top 2 cut"
    assert event_kinds(store, event).count("settings-changed") == 2

    Desk(client, tokens["scorekeeper"], event).refused_unseen(
        store, ("change-form",), action="change", rounds="9", reason="x"
    )


def test_the_round_is_marked_started_and_ended_and_its_length_set(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """``event start-round`` / ``end-round`` on the desk: the round ends only once every
    table has its result (EV-5.10), each mark naming who made it; the round length set
    with a reason (EV-9.1), a length that changes nothing refused; both the head's."""
    event = _event(store)
    head = tokens["head"]
    desk = Desk(client, head, event)
    _, page = desk.form("length-form")
    assert 'id="desk-round"' not in page  # no round paired: nothing to mark
    with open_service(store) as svc:
        svc.event_pair(event)
    form, page = desk.form("start-round-form")
    assert "mark round 1 started" in page
    assert 'id="end-round-form"' in page
    sent = desk.send(**form)
    desk.send(**form)
    assert desk.said(sent) == "good: round 1 started"
    assert event_kinds(store, event).count("round-started") == 1
    assert "round 1 started by Hera" in _log(store, event)  # who marked it: the token's name
    form, page = desk.form("end-round-form")
    assert 'id="start-round-form"' not in page
    refused = desk.send(**form)
    assert desk.said(refused) == "bad: EV-5.10: round 1 still has tables without a result"
    assert "round-ended" not in event_kinds(store, event)
    with open_service(store) as svc:
        svc.event_result(event, ["1=2-0-0", "2=2-0-0"])
    form, _ = desk.form("end-round-form", refused.headers["location"])
    sent = desk.send(**form)
    assert desk.said(sent) == "good: round 1 ended"
    assert 'id="desk-round"' not in desk.shown(sent)  # round 1 is done with
    assert event_kinds(store, event).count("round-ended") == 1
    assert "round 1 ended by Hera" in _log(store, event)

    form, page = desk.form("length-form")
    assert "A round lasts 50 minutes" in page
    sent = desk.send(**form, minutes="55", reason="the hall closes at six")
    said = desk.said(sent)
    assert said.startswith("good: a round lasts 55 minutes"), said
    with open_service(store) as svc:
        assert svc.event_state(event).round_minutes == 55
    assert "A round lasts 55 minutes" in desk.form("length-form")[1]
    desk.refuses(
        "length-form",
        (
            {"minutes": "55", "reason": "again"},
            "bad: EV-9.1: a round already lasts 55 minutes: nothing changed, nothing is recorded",
        ),
        (
            {"minutes": "an hour"},
            "bad: EV-9.1: a round's length in minutes is a whole number, not 'an hour'",
        ),
    )

    sam_desk = Desk(client, tokens["scorekeeper"], event)
    form, page = sam_desk.form("drop-form")
    assert 'id="length-form"' not in page
    assert 'id="desk-round"' not in page
    for fields in ({"action": "length", "minutes": "40"}, {"action": "start-round"}):
        refused = sam_desk.send(idem=form["idem"], **fields)
        assert 'data-status="403"' in sam_desk.shown(refused)
        form, _ = sam_desk.form("drop-form")
    with open_service(store) as svc:
        assert svc.event_state(event).round_minutes == 55


def test_the_ended_event_desk_is_a_summary_with_what_is_still_allowed(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-1.4: once the event has ended the desk pairs, enters and drops nothing more; it
    shows the final standings' link, the penalties and the audit, and keeps what the
    service still allows: a result's correction (EV-8.1) and a penalty's withdrawal
    (EV-8.7), but not a disqualification's."""
    event = _event(store)
    head = tokens["head"]
    with open_service(store) as svc:
        svc.event_pair(event)
        svc.event_penalize(event, "Ben", "tardiness", penalty="warning", reason="late")
        svc.event_result(event, ["1=2-0-0", "2=2-0-0"])
        svc.event_penalize(event, "Cal", "cheating", penalty="disqualification", reason="marked")
        svc.event_end(event, reason="the hall closed")
    desk = Desk(client, head, event)
    form, page = desk.form("correct-form")
    assert 'id="desk-ended"' in page
    for gone in (
        "pair-form",
        "register-form",
        "drop-form",
        "penalty-form",
        "end-form",
        "change-form",
        "length-form",
        "start-round-form",
        "undo-form",
    ):
        assert f'id="{gone}"' not in page, gone
    assert "<datalist" not in page
    assert f'href="/events/{event}/standings" id="desk-final-standings"' in page
    penalties = page.split('id="desk-penalties"')[1].split("</table>")[0]
    assert 'id="withdraw-form-1"' in penalties
    assert re.search(r'id="penalty-2">.*?<td>stands \(EV-8.7\)</td>', penalties, re.S)
    assert 'id="desk-audit-list"' not in page  # the audit is read when asked
    audit_page = client.get(
        f"/events/{event}/desk?audit=1", headers=auth(head)
    ).text  # the link's page
    assert f'href="/events/{event}/desk?audit=1#desk-audit" id="desk-audit-link"' in page
    audit = html.unescape(audit_page.split('id="desk-audit"')[1].split("</section>")[0])
    assert "penalty</b>: number=1, player=Ben, round=1, infraction=tardiness" in audit
    assert re.search(r"penalty</b>: number=2, player=Cal, [^<]*reason=marked<", audit), audit
    assert "by=," not in audit  # what is not known is left out, as the command line's

    table = _table_of(store, event, "Ann")
    sent = desk.send(**form, table=str(table), result="2-1-0", reason="the slip said 2-1")
    assert desk.said(sent) == f"good: round 1 table {table} corrected to 2-1-0: the slip said 2-1"
    shown = client.get(f"/events/{event}/desk?audit=1", headers=auth(head)).text
    assert "result corrected</b>: round=1" in html.unescape(shown)
    form, _ = desk.form("withdraw-form-1")
    sent = desk.send(**form, reason="he was on time")
    assert desk.said(sent).startswith("good: penalty 1 withdrawn: he was on time"), desk.said(sent)
    # a form of the running desk posted all the same: the service's refusal, its clause
    refused = desk.send(action="register", names="Zed")
    assert desk.said(refused) == "bad: EV-1.4: the event has ended: nothing more can be entered"

    sam_desk = Desk(client, tokens["scorekeeper"], event)
    _, page = sam_desk.form("correct-form", f"/events/{event}/desk?audit=1")
    assert 'id="desk-audit-list"' in page
    assert 'id="desk-penalties"' not in page


def test_a_late_entry_in_a_deck_game_brings_their_decklist(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-2.8: a late entry registered at the desk with their event decklist (one player,
    as ``event register --deck``) is not listed as missing one; a list for two names at
    once is refused (EV-2.2), the names kept."""
    from tests.gammasphere.helpers import DECK_TEXT

    with open_service(store) as svc:
        event = svc.event_new("Deck Late", "gammasphere", rounds=2, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben"])
        svc.event_pair(event)
    desk = Desk(client, tokens["head"], event)
    form, page = desk.form("register-form")
    assert 'name="decklist"' in page.split('id="register-form"')[1].split("</form>")[0]
    refused = desk.send(**form, names="Eve\nFay", decklist=DECK_TEXT)
    assert desk.said(refused) == "bad: EV-2.2: a decklist is registered for one player at a time"
    kept = desk.shown(refused).split('id="register-form"')[1].split("</form>")[0]
    assert ">Eve\nFay</textarea>" in kept
    form, _ = desk.form("register-form", refused.headers["location"])
    sent = desk.send(**form, names="Eve", decklist=DECK_TEXT)
    assert desk.said(sent).startswith("good: registered 1: Eve (p3, "), desk.said(sent)
    with open_service(store) as svc:
        assert "Eve" not in svc.event_missing_decks(event)
        assert "Ben" in svc.event_missing_decks(event)


def test_ev_i_14_the_desk_says_the_default_rounds_come_from_round_1(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-1.3, EV-I.14: with no rounds set, the desk shows the default and where it comes
    from: the players so far, then the players of round 1 (a player who dropped before it
    does not count), unchanged by a late entry."""
    with open_service(store) as svc:
        event = svc.event_new("Desk Default", "prizmik", seed=5).event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"])
        svc.event_drop(event, "Ivy")
    desk = Desk(client, tokens["head"], event)
    _, page = desk.form("change-form")
    assert "Now 3 Swiss rounds (from the 8 players so far: fixed when round 1 is paired)" in page
    with open_service(store) as svc:
        svc.event_pair(event)
        svc.event_register(event, ["Late"])
    _, page = desk.form("change-form")
    assert "Now 3 Swiss rounds (from the 8 players of round 1), no cut" in page

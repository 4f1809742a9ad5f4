"""Issue 29, sections 1 and 5: a 16-player Gammasphere Swiss (best of 3, five rounds, top-8
cut, a late entry, one match played game by game) run through the command line, then read
on the pages in a real headless Chromium: the champion first on the standings after the cut
(EV-6.7), the stages named (EV-6.6), the event shown as ended, the player page's final
place with the Swiss record and the playoff apart; the printing of pairings, standings,
the bracket, the log and the audit."""

from __future__ import annotations

import csv
import io
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from service.app import open_service
from service.seal import create_key, seal
from tests.web.conftest import ThreadServer, Tokens, api_event, auth
from tests.web.test_event_pages import browser, cells
from tests.web.test_pages import CHROMIUM, signed_in

__all__ = ["browser"]  # the module's Chromium fixture, shared

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no browser")

runner = CliRunner()
NAMES = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]
NAMES += ["Ida", "Jon", "Kim", "Lea", "Max", "Ned", "Oli"]  # Pat enters late


def ok(db: str, *args: str) -> str:
    result = runner.invoke(app, ["--db", db, "--referee", "Hana", *args])
    assert result.exit_code == 0, f"{args}: {result.stderr}"
    return result.stdout


def as_json(db: str, *args: str) -> Any:
    return json.loads(ok(db, *args, "--json"))


def slip(table: int, number: int) -> str:
    return f"{table}={'2-1-0' if (table + number) % 2 else '0-2-0'}"


def run_event(db: str) -> dict[str, Any]:
    """The event through the command line, checking what it prints on the way."""
    made = ok(
        db, "event", "new", "Gamma Open", "--game", "gammasphere", "--rounds", "5", "--cut", "8"
    )
    assert made.startswith("Gamma Open: gammasphere swiss, bo3, top 8 cut")
    event = made.strip().splitlines()[-1]
    ok(db, "event", "register", event, *[a for n in NAMES for a in ("--player", n)])
    found: dict[str, Any] = {"event": event}

    # -- round 1, table 1 played game by game: 'referee end' names the match's next game
    rows = as_json(db, "event", "pair", event)
    ok(db, "event", "register", event, "--player", "Pat")  # a late entry (EV-2.3)
    first = next(r for r in rows if r["table"] == 1)
    game1 = first["games"][0]
    said = ok(db, "end", game1, "--resign", "p2")
    game2 = as_json(db, "event", "pairings", event)[0]["games"][1]
    assert f"next game of the match (round 1, table 1): {game2}" in said
    assert f"{first['players'][1]} plays first" in said  # the loser sits first (EV-I.10)
    said = ok(db, "end", game2, "--resign", "p1")  # the first-listed wins 2-0
    assert "is decided: 2-0-0" in said
    ok(db, "event", "result", event, *[slip(r["table"], 1) for r in rows[1:] if not r["bye"]])
    found["games"] = (game1, game2)

    # -- rounds 2 to 5, printed with the event's name, the round, points and results
    for number in range(2, 6):
        rows = as_json(db, "event", "pair", event)
        ok(db, "event", "result", event, *[slip(r["table"], number) for r in rows if not r["bye"]])
    text = ok(db, "event", "pairings", event, "--round", "2").splitlines()
    assert text[0] == "Gamma Open · round 2 · pairings by table"
    assert re.match(r"\s+1  \w+ \(3\) v \w+ \(3\)   (2-1-0|0-2-0)$", text[1]), text[1]
    posted = as_json(db, "event", "pairings", event, "--round", "2")
    assert {r["round"] for r in posted} == {2}
    by_name = ok(db, "event", "pairings", event, "--round", "2", "--by", "name").splitlines()
    listed = [line.split()[0] for line in by_name[1:]]
    assert listed == sorted([*NAMES, "Pat"])
    table = list(csv.reader(io.StringIO(ok(db, "event", "pairings", event, "--csv"))))
    assert table[0] == ["round", "stage", "table", "player", "points", "opponents", "result"]
    assert len(table) == 17
    assert {row[0] for row in table[1:]} == {"5"}
    show = ok(db, "event", "show", event)
    assert "stage: Swiss round 5 of 5, then a top 8 cut" in show

    # -- the playoff: quarterfinal (seed 8 beats seed 1), semifinal, final
    quarter = as_json(db, "event", "pair", event)
    assert {r["stage"] for r in as_json(db, "event", "pairings", event)} == {"quarterfinal"}
    show = ok(db, "event", "show", event)
    assert "stage: quarterfinal (round 6), top 8 cut" in show
    assert "of 5 Swiss" not in show
    ok(db, "event", "result", event, "1=0-2-0", "2=2-0-0", "3=2-1-0", "4=2-0-0")
    semis = as_json(db, "event", "pair", event)
    ok(db, "event", "result", event, "1=2-1-0", "2=0-2-0")
    final = as_json(db, "event", "pair", event)
    head = ok(db, "event", "pairings", event).splitlines()[0]
    assert head == "Gamma Open · final (round 8) · pairings by table"
    ok(db, "event", "result", event, "1=0-2-0")
    found["champion"], found["finalist"] = final[0]["players"][1], final[0]["players"][0]
    found["quarter"], found["semis"] = quarter, semis

    # -- the bracket, on the command line
    drawn = ok(db, "event", "bracket", event)
    for stage in ("quarterfinal (round 6)", "semifinal (round 7)", "final (round 8)"):
        assert stage in drawn
    assert f"champion: {found['champion']}" in drawn
    view = as_json(db, "event", "bracket", event)
    assert [r["stage"] for r in view["rounds"]] == ["quarterfinal", "semifinal", "final"]
    assert view["rounds"][0]["matches"][0]["players"][0]["seed"] == 1
    assert view["champion"] == found["champion"]

    # -- the end: shown everywhere
    ok(db, "event", "end", event)
    assert "stage: ended" in ok(db, "event", "show", event)
    listed_line = next(line for line in ok(db, "event", "list").splitlines() if event in line)
    assert listed_line.endswith("ended")

    # -- final standings, in final order with how far each player went (EV-6.7)
    standings = as_json(db, "event", "standings", event)
    assert [r["final_rank"] for r in standings] == list(range(1, 17))
    assert standings[0]["player"] == found["champion"]
    assert standings[0]["went"] == "champion"
    assert standings[1]["player"] == found["finalist"]
    assert [r.get("went") for r in standings[2:8]] == ["semifinalist"] * 2 + ["quarterfinalist"] * 4
    text = ok(db, "event", "standings", event).splitlines()
    assert text[0] == "Gamma Open · standings · final standings"
    assert text[2].split()[:1] == ["1"]
    assert found["champion"] in text[2]
    assert "(champion)" in text[2]
    sheet = list(csv.DictReader(io.StringIO(ok(db, "event", "standings", event, "--csv"))))
    assert sheet[0]["player"] == found["champion"]
    assert sheet[0]["final_place"] == "1"
    found["third"] = standings[2]["player"]
    found["third_rank"] = standings[2]["rank"]

    # -- the log and the audit name people, never bare ids; the audit has the late entry
    log = [
        line
        for line in ok(db, "event", "log", event).splitlines()
        if "registered:" not in line and "late entry:" not in line
    ]
    assert not [line for line in log if re.search(r"(?<![\w-])p\d+(?![\w-])", line)], log
    assert any("final (round 8) table 1 reported 0-2-0" in line for line in log)
    audit = as_json(db, "event", "audit", event)["entries"]
    late = [e for e in audit if e["what"] == "late entry"]
    assert late == [{"event": late[0]["event"], "what": "late entry", "player": "Pat", "round": 2}]
    return found


def wait_for(page: Any, url: str, selector: str, text: str) -> None:
    """Open ``url`` until ``selector`` holds ``text`` (the pages hear of writes made by
    another process within the hub's poll interval)."""
    for _ in range(50):
        page.goto(url)
        if page.locator(selector).count() and text in page.inner_text(selector):
            return
        time.sleep(0.1)
    raise AssertionError(f"{url}: {selector} never held {text!r}")


@pytest.mark.slow
def test_a_16_player_swiss_with_a_top_8_cut_on_every_face(
    browser: Any, live_server: ThreadServer, tokens: Tokens, store: str, tmp_path: Path
) -> None:
    found = run_event(store)
    event, champion = found["event"], found["champion"]
    key = tmp_path / "seal.pem"
    create_key(key)
    with open_service(store) as svc:
        seal(svc.store, key)  # the final standings, sealed: their footer says so
    base = live_server.base
    page = signed_in(browser, base, tokens["head"])

    # the standings: the champion first, the final order named, the Swiss rank beside it
    wait_for(page, f"{base}/events/{event}/standings", "#live-region h2", "Final standings")
    rows = cells(page, "#standings")
    assert rows[0][0] == "1"
    assert rows[0][2].startswith(champion)
    assert "(champion)" in rows[0][2]
    assert rows[1][2].startswith(found["finalist"])
    assert "(finalist)" in rows[1][2]
    assert [r[0] for r in rows] == [str(n) for n in range(1, 17)]
    footer = page.inner_text("#posted")  # the posting's Swiss rows, shown in final order
    assert footer.startswith("Computed at fact")
    assert "in final order" in footer
    # ended: said on the page, no live dot, no live stream
    assert page.inner_text("#ended") == "ENDED" or page.inner_text("#ended").lower() == "ended"
    assert page.locator("#live").count() == 0
    assert "ended" in page.inner_text("#event-status")

    # the stages by name: the round menu, the pairings, the bracket
    options = page.eval_on_selector_all("form.rounds option", "os => os.map(o => o.textContent)")
    assert options[-3:] == ["quarterfinal", "semifinal", "final"]
    page.goto(f"{base}/events/{event}/pairings")
    assert page.inner_text("#live-region h2") == "Final (round 8) · pairings by table"
    page.goto(f"{base}/events/{event}/pairings?round=7")
    assert page.inner_text("#live-region h2").startswith("Semifinal (round 7)")
    page.click("nav.event-nav >> text=bracket")
    stages = page.eval_on_selector_all("#bracket section", "ss => ss.map(s => s.dataset.stage)")
    assert stages == ["quarterfinal", "semifinal", "final"]
    assert page.inner_text("#champion") == f"Champion: {champion}"
    winners = page.eval_on_selector_all(
        "#bracket section[data-stage=final] .side.won a", "as => as.map(a => a.textContent)"
    )
    assert winners == [champion]

    # the events list says ended
    page.goto(f"{base}/events")
    assert "ended" in page.inner_text(f"#events tr[data-event='{event}']").lower()

    # the third-place finisher's page: final place 3, the Swiss record and the playoff apart
    third = found["third"]
    page.goto(f"{base}/events/{event}/players/{third}")
    assert "Final place 3" in page.inner_text("#my-place")
    assert "semifinalist" in page.inner_text("#my-place")
    record = page.inner_text("#my-record")
    assert record.startswith("Swiss record")
    assert f"Swiss rank {found['third_rank']}" in record
    assert len(cells(page, "#my-rounds")) == 5
    playoff = cells(page, "#my-playoff")
    assert [r[0] for r in playoff] == ["quarterfinal", "semifinal"]
    assert playoff[1][3].startswith("lost")
    # ?round= is honoured: round 2's table and opponent
    page.goto(f"{base}/events/{event}/players/{third}?round=2")
    assert page.inner_text("#my-round").startswith("Round 2:")
    round2 = cells(page, "#my-rounds")[1]
    assert page.inner_text("#my-table") == round2[1]
    assert page.inner_text("#my-opponent") == round2[2]

    # the game page names its event, round and table, linked both ways
    game1, game2 = found["games"]
    page.goto(f"{base}/events/{event}/pairings?round=1")
    page.click(f"#pairings a[href='/games/{game1}']")
    page.wait_for_url(f"{base}/games/{game1}")
    said = page.inner_text("#event-game")
    assert said.startswith("Event Gamma Open · round 1 · table 1 · game 1 of the match")
    assert page.get_attribute("#next-game", "href") == f"/games/{game2}"
    page.click("#event-game >> text=Gamma Open")
    page.wait_for_url(f"{base}/events/{event}/pairings?round=1")

    # the slips: no text runs together
    page.goto(f"{base}/events/{event}/slips?round=2")
    head = page.eval_on_selector(".slip thead", "t => t.textContent")
    assert "games wonsignature" not in head
    assert "playergames" not in head
    assert re.search(r"player\s+games won\s+signature", head)
    assert page.errors == []

    # by name, a search box that works without JavaScript
    plain = browser.new_context(java_script_enabled=False, viewport={"width": 1000, "height": 800})
    bare = plain.new_page()
    bare.goto(f"{base}/login")
    bare.fill("#token", tokens["head"])
    bare.click("#sign-in")
    bare.goto(f"{base}/events/{event}/pairings?by=name")
    bare.fill("#find-name", "a")  # not a name: the list narrows to names holding it
    bare.click("form.find button")
    narrowed = [r[0] for r in cells(bare, "#pairings")]
    assert narrowed
    assert all("a" in n.lower() for n in narrowed)
    assert len(narrowed) < 16
    bare.fill(
        "#find-name", third
    )  # a player's exact name (EV-2.2: lookups are exact): their own page
    bare.click("form.find button")
    bare.wait_for_url(re.compile(rf".*/players/{third}(\?round=\d+)?$"))
    assert "Final place 3" in bare.inner_text("#my-place")
    plain.close()

    # a 375 px phone: the standings keep OMW and GW (MTR order), drop OGW and MW, fit
    phone = signed_in(browser, base, tokens["head"], viewport={"width": 375, "height": 740})
    phone.goto(f"{base}/events/{event}/standings")
    shown = phone.eval_on_selector_all(
        "#standings thead th", "hs => hs.filter(h => h.offsetParent !== null).map(h => h.innerText)"
    )
    assert shown == ["place", "#", "player", "pts", "W-L-D", "OMW", "GW"]
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375


def test_an_elimination_events_bracket_page_is_no_top_0_playoff(
    client: Any, tokens: Tokens
) -> None:
    # with no cut the page's heading read "Top 0 playoff" and every seed "(0)"
    head = auth(tokens["head"])
    players = ["Ann", "Ben", "Cal"]
    event = api_event(client, tokens["head"], players, name="Knockout", format="elimination")
    paired = client.post(f"/api/events/{event}/rounds", json={}, headers=head)
    assert paired.status_code == 201, paired.text
    page = client.get(f"/events/{event}/bracket", headers=head)
    assert page.status_code == 200, page.text
    assert "Single elimination" in page.text
    assert "Top 0" not in page.text
    assert "(0)" not in page.text

"""The hall walk (4): a table judge's page through an outage, in the browser (REF-9.4).

The hall's server is stopped (nothing listens on its port) while the table page records;
when it is back, the page sends its outbox and the judge must see what the server judged:
a rule broken by a pending entry is shown with its clause and stays in view."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from events.schema import BranchRecorded
from referee.game.facts import ActionRejected
from service.app import open_service
from tests.web.conftest import ROOT, Tokens
from tests.web.test_offline import Hall, _page_offline, hall, referee  # noqa: F401
from tests.web.test_pages import CHROMIUM, browser, signed_in  # noqa: F401

pytestmark = [
    pytest.mark.slow,  # a server started and stopped, a browser: seconds each
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM}"),
]


def _prizmik(store: str, table: str = "1") -> str:
    code, out, err = referee(
        "--db", store, "new", "prizmik", "-p", "red=A", "-p", "blue=B", "--table", table
    )
    assert code == 0, err
    return out.strip().splitlines()[-1]


@dataclass(frozen=True)
class Walk:
    """What a walk through an outage holds: the hall's server (stopped and started by the
    test), its store, the head referee's token and the browser."""

    hall: Hall
    store: str
    token: str
    chromium: Any

    def table_pages(self, devices: int = 1) -> tuple[str, list[Any]]:
        """A PRIZMIK game at table 1 and its table page open on ``devices`` browsers,
        loaded while the hall's server answers (the server is left running)."""
        game = _prizmik(self.store)
        self.hall.start()
        return game, [self._table_page(game) for _ in range(devices)]

    def _table_page(self, game: str) -> Any:
        """The table page with its service worker blocked: the walks lose answers and refuse
        batches with ``page.route``, which Playwright cannot apply to requests that pass
        through a service worker (its documentation says to block them); the worker's own
        reload while offline is test_offline_page's."""
        page = signed_in(self.chromium, self.hall.base, self.token, service_workers="block")
        page.goto(f"{self.hall.base}/games/{game}")
        page.wait_for_selector("#entry")
        return page


@pytest.fixture
def walk(
    hall: Hall,  # noqa: F811 - test_offline's fixture
    store: str,
    tokens: Tokens,
    browser: Any,  # noqa: F811 - test_pages' fixture
    monkeypatch: pytest.MonkeyPatch,
) -> Walk:
    """The walk, run from the project's root (where the server finds its pages)."""
    monkeypatch.chdir(ROOT)
    return Walk(hall, store, tokens["head"], browser)


def test_a_pending_entry_the_server_rejects_is_shown_with_its_clause_and_kept_in_view(
    walk: Walk,
) -> None:
    """Two entries taken offline: e1>e2 (red, legal) then e2>e1 by red again, out of turn
    (PZ-1.4). Back online, both are sent in order with their keys; the server stores the
    first and keeps the second as evidence (rejected). The page must not report both as
    "judged and stored": the rejected one stays listed with its clause."""
    game, (page,) = walk.table_pages()
    walk.hall.stop()
    _page_offline(page, "e1>e2", 1)
    _page_offline(page, "e2>e1", 2)
    assert page.locator("#outbox .pending").all_inner_texts() == [
        "e1>e2 — pending, not yet judged",
        "e2>e1 — pending, not yet judged",
    ]
    walk.hall.start()  # the network returns: the page sends its outbox by itself
    page.wait_for_function(
        "document.querySelectorAll('#outbox .pending').length === 0", timeout=60_000
    )
    with open_service(walk.store) as svc:
        view = svc.load(game)
        assert [e.notation for e in view.standing] == ["e1>e2"]
        rejected = [e for e in view.events if isinstance(e, ActionRejected)]
    assert len(rejected) == 1  # the second entry: kept as evidence, not stored as a move
    clause = rejected[0].violations[0].clause
    said = page.inner_text("#result") + "\n" + page.inner_text("#outbox")
    assert "e2>e1" in said, said
    assert clause in said, said  # the clause it broke, not "judged and stored"
    assert "judged and stored" not in said, said
    assert page.locator("#outbox .rejected").count() == 1  # kept in view, marked
    page.reload()  # still there after a reload: the judge has not seen it yet
    page.wait_for_selector("#outbox .rejected")
    assert clause in page.inner_text("#outbox")
    assert page.errors == []


def test_two_devices_entering_on_one_table_offline_one_merged_one_branch_nothing_overwritten(
    walk: Walk,
) -> None:
    """The table's laptop and the head referee's tablet both record on table 1 while the
    server is down, each a different move for red. Back online, one batch is stored and
    the other is kept whole as a branch in the queue (REF-9.5): the device that lost is
    told, and neither move is overwritten."""
    game, (laptop, tablet) = walk.table_pages(devices=2)
    walk.hall.stop()
    _page_offline(laptop, "e1>e2", 1)
    _page_offline(tablet, "e1>f1", 1)
    walk.hall.start()
    for page in (laptop, tablet):
        page.wait_for_function(
            "document.querySelectorAll('#outbox .pending').length === 0", timeout=60_000
        )
    said = {laptop.inner_text("#result"), tablet.inner_text("#result")}
    said |= {laptop.inner_text("#outbox"), tablet.inner_text("#outbox")}
    assert any("judged and stored" in s or s.startswith("recorded e1>") for s in said), said
    assert any("branches disagree" in s and "REF-9.5" in s for s in said), said
    with open_service(walk.store) as svc:
        view = svc.load(game)
        stored = [e.notation for e in view.standing]
        conflicts = svc.queue().conflicts
        branches = [e for e in view.events if isinstance(e, BranchRecorded)]
    assert stored in (["e1>e2"], ["e1>f1"])
    assert [c.game_id for c in conflicts] == [game]
    assert len(branches) == 1
    kept = [e.text for e in branches[0].entries]
    assert kept == (["e1>f1"] if stored == ["e1>e2"] else ["e1>e2"])  # the other, whole
    # the branch names the browser it came from: one referee's two devices are told apart
    names = {p.evaluate("localStorage.getItem('referee-device')") for p in (laptop, tablet)}
    assert len(names) == 2
    assert branches[0].device in {f"table page {n}" for n in names}
    for page in (laptop, tablet):
        assert page.errors == []


@pytest.mark.parametrize("text", ["e1>e2", "e8>e7"])  # legal; blue out of turn (rejected)
def test_an_entry_whose_answer_was_lost_is_stored_once_and_raises_no_false_branch(
    text: str,
    walk: Walk,
) -> None:
    """The hall's Wi-Fi drops just as the judge presses Enter: the server stores e1>e2 but
    its answer never reaches the page (the connection is reset). The page cannot tell this
    from an unreachable server and keeps the entry pending; when it sends it, the server
    must see the same entry (its key), not a second line of play: the move is stored once
    and no "Branches disagree" item reaches the head referee's queue (REF-9.4, REF-9.5)."""
    game, (page,) = walk.table_pages()
    lost: list[str] = []

    def answer_lost(route: Any) -> None:
        if lost:
            route.continue_()
            return
        route.fetch()  # the server takes and stores the entry ...
        lost.append(route.request.url)
        route.abort("connectionreset")  # ... and its answer is lost on the way back

    page.route("**/api/games/*/entries", answer_lost)
    page.fill("#entry", text)
    page.press("#entry", "Enter")
    page.wait_for_function("document.querySelectorAll('#outbox li').length === 1")
    page.wait_for_function(  # sent again when the server answers: judged, no longer pending
        "document.querySelectorAll('#outbox .pending').length === 0", timeout=60_000
    )
    assert lost
    with open_service(walk.store) as svc:
        view = svc.load(game)
        rejected = [e for e in view.events if isinstance(e, ActionRejected)]
        if text == "e1>e2":
            assert [e.notation for e in view.standing] == ["e1>e2"]  # once
            assert rejected == []
        else:  # kept as evidence once, and shown with its clause (PZ-1.4)
            assert [e.text for e in rejected] == ["e8>e7"]
            assert rejected[0].violations[0].clause in page.inner_text("#outbox .rejected")
        assert svc.queue().conflicts == []  # no false branch for the head referee
        assert not [e for e in view.events if isinstance(e, BranchRecorded)]
    said = page.inner_text("#result")
    assert "branches disagree" not in said, said
    assert page.errors == []


def test_a_batch_refused_as_a_whole_is_held_with_why_until_sent_again(
    walk: Walk,
) -> None:
    """REF-9.4: the outbox's batch refused as a whole (here 403, as for a token that lost
    its right while the hall was cut off) is held in the outbox with the refusal, and not
    sent again every two seconds over the judge's messages; "send again" sends it, and the
    entries, kept all along, are judged and stored."""
    game, (page,) = walk.table_pages()
    walk.hall.stop()
    _page_offline(page, "e1>e2", 1)
    refused: list[str] = []

    def forbid(route: Any) -> None:
        refused.append(route.request.url)
        route.fulfill(
            status=403,
            content_type="application/problem+json",
            body='{"title": "Forbidden", "detail": "the token may not record here"}',
        )

    page.route("**/offline", forbid)
    walk.hall.start()
    page.wait_for_selector("#outbox-held", timeout=60_000)
    held = page.inner_text("#outbox-held")
    assert "the token may not record here" in held, held
    assert "sign in again" in held, held
    assert page.locator("#outbox .pending").count() == 1  # kept, not dropped
    sent = len(refused)
    page.unroute("**/offline")
    page.click("#send-again")
    page.wait_for_function(
        "document.querySelectorAll('#outbox .pending').length === 0", timeout=60_000
    )
    assert len(refused) == sent  # the held batch went out only when sent again
    assert page.locator("#outbox-held").count() == 0
    with open_service(walk.store) as svc:
        assert [e.notation for e in svc.load(game).standing] == ["e1>e2"]
    assert page.errors == []

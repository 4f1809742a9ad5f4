"""The verify page ``/events/E/verify`` and the published key (a walk in an organizer's shoes
found no page to check a posting, and no place to get the key the check wants): each of the
page's answers over HTTP, the key on the posting pages, the key over the API, and that the
page shows nothing the posting itself does not."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.seal import create_key, recorded_public_key, seal
from tests.events.test_postings import PLAYERS, Event
from tests.web.conftest import Tokens, auth, make_tokens
from web.app import ServeConfig, create_app


class Served:
    def __init__(self, event: Event, client: TestClient[Any], tokens: Tokens) -> None:
        self.event, self.client, self.tokens = event, client, tokens

    def headers(self) -> dict[str, str]:
        return auth(self.tokens["public"])

    def posting(self, kind: str = "standings", query: str = "?round=1") -> bytes:
        got = self.client.get(
            f"/events/{self.event.id}/postings/{kind}{query}", headers=self.headers()
        )
        assert got.status_code == 200, got.text
        return got.content

    def check(
        self, posting: bytes, key: str | None = None, *, pasted: bool = False
    ) -> tuple[int, str]:
        """The verify form sent as a browser sends it (multipart, no script): answered 303 to
        the page with ``?said=KEY`` (a reload reads the answer, never sends the posting
        again); the status and text of that page."""
        fields = {"public_key": self.event.public if key is None else key}
        if pasted:
            fields["posting"] = posting.decode()
            sent = self.client.post(
                f"/events/{self.event.id}/verify",
                data=fields,
                files={"file": ("", b"", "application/octet-stream")},
                headers=self.headers(),
                follow_redirects=False,
            )
        else:
            sent = self.client.post(
                f"/events/{self.event.id}/verify",
                data=fields,
                files={"file": ("posting.json", posting, "application/json")},
                headers=self.headers(),
                follow_redirects=False,
            )
        assert sent.status_code == 303, sent.text
        location = sent.headers["location"]
        assert location.startswith(f"/events/{self.event.id}/verify?said="), location
        shown = self.client.get(location, headers=self.headers())
        again = self.client.get(location, headers=self.headers())  # reloaded: read again
        assert again.text == shown.text
        return shown.status_code, shown.text


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    event = Event(tmp_path / "games.db", tmp_path / "seal.pem")
    with event.svc() as svc:
        seal(svc.store, event.key)
    tokens = make_tokens(str(event.db))
    with TestClient(create_app(ServeConfig(store=str(event.db)))) as client:
        yield Served(event, client, tokens)


def verdict(html: str) -> str:
    found = re.search(r'data-verdict="([^"]*)"', html)
    assert found, html
    return found.group(1)


def region(html: str) -> str:
    """The verify page's own section (the answer and the form), without the event's header."""
    start = html.index('<section class="verify"')
    return html[start : html.index("</section>", start)]


def test_seal_records_the_whole_public_key_the_checkpoints_name_by_prefix(served: Served) -> None:
    event = served.event
    with event.svc() as svc:
        assert recorded_public_key(svc.store, event.public[:16]) == event.public
        assert recorded_public_key(svc.store, "0" * 16) is None
        seal(svc.store, event.key)  # sealing again keeps the one key
        assert recorded_public_key(svc.store, event.public[:16]) == event.public


def test_the_posting_page_shows_the_key_its_fingerprint_and_how_to_check(served: Served) -> None:
    event = served.event
    page = served.client.get(f"/events/{event.id}/standings?round=1", headers=served.headers())
    assert page.status_code == 200
    footer = page.text[page.text.index('id="posted"') :]
    assert f'<code class="public-key" id="public-key">{event.public}</code>' in footer
    fingerprint = " ".join(event.public[i : i + 4] for i in range(0, 16, 4))
    assert f'<strong class="fingerprint">{fingerprint}</strong>' in footer
    assert f'href="/events/{event.id}/verify"' in footer
    assert f"referee event verify {event.id} --posting FILE --public-key {event.public}" in footer
    # the fingerprint is printed with the sheet (not .no-print); the key and how-to are on screen
    key_part = footer[footer.index('id="seal-key"') :]
    assert "fingerprint" in key_part.split('class="no-print"')[0]


def test_the_verify_page_defaults_to_the_published_key_and_needs_no_script(
    served: Served,
) -> None:
    page = served.client.get(f"/events/{served.event.id}/verify", headers=served.headers())
    assert page.status_code == 200
    assert f'name="public_key" value="{served.event.public}"' in page.text
    assert 'enctype="multipart/form-data"' in page.text
    assert "<script" not in page.text  # the form is a plain form: no script needed


def test_a_genuine_posting_is_genuine_and_current(served: Served) -> None:
    status, html = served.check(served.posting())
    assert status == 200
    assert verdict(html) == "current"
    assert "Genuine and current" in html
    status, html = served.check(served.posting("pairings", ""), pasted=True)
    assert (status, verdict(html)) == (200, "current")


def test_a_tampered_posting_is_altered_and_says_what_does_not_match(served: Served) -> None:
    posting = json.loads(served.posting())
    posting["body"][0]["points"] += 3
    status, html = served.check(json.dumps(posting).encode())
    assert status == 200
    assert verdict(html) == "altered"
    assert "Altered" in html
    assert 'data-check="figures"' in html
    assert "row 1 is posted as" in html


def test_a_superseded_posting_is_genuine_names_the_correction_and_links_the_current_one(
    served: Served,
) -> None:
    posting = served.posting()
    event = served.event
    with event.svc() as svc:
        svc.event_correct(event.id, 1, f"{event.tables[0]}=0-2-0", reason="slip reversed", by="H")
    status, html = served.check(posting)
    assert status == 200
    assert verdict(html) == "superseded"
    assert "Genuine but superseded" in html
    assert "slip reversed" in html
    assert "No later posting shows it yet" in html  # the correction is not sealed yet
    assert "postings/standings?round=1" not in region(html)
    with event.svc() as svc:
        seal(svc.store, event.key)
    status, html = served.check(posting)
    assert verdict(html) == "superseded"
    assert "A later posting, computed at fact" in html
    assert f'href="/events/{event.id}/postings/standings?round=1"' in html
    # the later posting itself is current
    assert verdict(served.check(served.posting())[1]) == "current"


def test_a_posting_checked_against_another_key_is_signed_by_another_key(
    served: Served, tmp_path: Path
) -> None:
    other = create_key(tmp_path / "other.pem")
    status, html = served.check(served.posting(), other)
    assert status == 200
    assert verdict(html) == "other-key"
    assert "Signed by another key" in html
    # and a posting sealed by another key, checked against the event's
    event = served.event
    with event.svc() as svc:
        svc.event_register(event.id, ["Zora"])  # a fact, so the new checkpoint is the newest
        seal(svc.store, tmp_path / "other.pem")
    status, html = served.check(served.posting())
    assert verdict(html) == "other-key"


def test_without_a_key_the_signature_is_said_not_checked(served: Served) -> None:
    status, html = served.check(served.posting(), "")
    assert (status, verdict(html)) == (200, "unchecked")
    assert "signature was not checked" in html


def test_what_cannot_be_read_is_refused_in_one_line_on_the_page(served: Served) -> None:
    status, html = served.check(b"not json at all")
    assert status == 200  # the page that shows the refusal, after the redirect
    assert 'id="refused"' in html
    assert "not a posting" in html
    status, html = served.check(served.posting(), "abc123")
    assert "64 hex digits" in html
    assert 'value="abc123"' in html  # what was typed is kept


def test_the_answer_shows_nothing_the_posting_does_not(served: Served) -> None:
    """After the posting, a late player joins and round 2 is paired: neither shows on the
    answer to the round-1 posting, and every player it names is one the posting names (for
    an altered copy: one the posting as published names, which the answer's "the facts
    give" row quotes)."""
    event = served.event
    posting = served.posting("pairings", "?round=1")
    with event.svc() as svc:
        svc.event_register(event.id, ["Zora"])
        svc.event_pair(event.id)
    for sent in (posting, posting.replace(b'"Ann"', b'"Ben"', 1)):
        _, html = served.check(sent)
        shown = region(html)
        assert "Zora" not in shown
        assert "round 2" not in shown
        everyone = [*PLAYERS, "Zora"]
        posted = set(re.findall(r'"(\w+)"', posting.decode())) & set(everyone)
        named = {p for p in everyone if re.search(rf"\b{p}\b", shown)}
        assert named <= posted


def test_the_api_serves_the_key_and_documents_its_format(served: Served) -> None:
    event = served.event
    got = served.client.get(f"/api/events/{event.id}/public-key", headers=served.headers())
    assert got.status_code == 200, got.text
    assert got.json()["key"] == event.public
    assert got.json()["fingerprint"].replace(" ", "") == event.public[:16]
    checked = served.client.post(
        f"/api/events/{event.id}/postings/verify",
        json={"posting": json.loads(served.posting()), "public_key": event.public.upper()},
        headers=served.headers(),
    )
    assert checked.status_code == 200, checked.text
    assert checked.json()["verdict"] == "current"
    bad = served.client.post(
        f"/api/events/{event.id}/postings/verify",
        json={"posting": json.loads(served.posting()), "public_key": "xyz"},
        headers=served.headers(),
    )
    assert bad.status_code == 400
    schema = served.client.get("/schema/openapi.json").json()
    assert "/api/events/{event_id}/public-key" in schema["paths"]
    verify = json.dumps(schema["paths"]["/api/events/{event_id}/postings/verify"])
    assert "64 hex digits" in verify
    assert "public-key" in verify


def test_the_command_prints_the_same_verdict(served: Served, tmp_path: Path) -> None:
    from tests.events.test_postings import call

    kept = tmp_path / "posting.json"
    kept.write_bytes(served.posting())
    event = served.event
    code, out, _ = call(
        event.db, "event", "verify", event.id, "--posting", str(kept), "--public-key", event.public
    )
    assert code == 0, out
    assert out.rstrip().splitlines()[-1].startswith("  verdict: current: Genuine and current")


def test_the_key_and_the_verify_page_fit_a_phone_and_check_without_script(
    tmp_path: Path,
) -> None:
    """At 375 px in Chromium with scripts off: the posting footer with the key and the verify
    page do not scroll sideways, and the form, filled in by hand, answers."""
    from tests.web.conftest import served as serving
    from tests.web.test_pages import ARGS, CHROMIUM, signed_in

    if not Path(CHROMIUM).exists():
        pytest.skip(f"no browser: {CHROMIUM} is not installed")
    sync_api = pytest.importorskip("playwright.sync_api")
    event = Event(tmp_path / "games.db", tmp_path / "seal.pem")
    with event.svc() as svc:
        seal(svc.store, event.key)
        posting, _ = svc.event_posting(event.id, "standings", 1)
    tokens = make_tokens(str(event.db))
    running = serving(str(event.db))
    server = next(running)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = signed_in(
                browser,
                server.base,
                tokens["public"],
                viewport={"width": 375, "height": 800},
                java_script_enabled=False,
            )
            wide = "document.documentElement.scrollWidth"
            page.goto(f"{server.base}/events/{event.id}/standings?round=1")
            assert page.locator("#public-key").inner_text() == event.public
            assert page.evaluate(wide) <= 375
            page.goto(f"{server.base}/events/{event.id}/verify")
            assert page.evaluate(wide) <= 375
            assert page.locator("#verify-key").input_value() == event.public
            import msgspec

            page.fill("#verify-text", msgspec.json.encode(posting).decode())
            page.click("button[type=submit]")
            assert page.locator("#verdict").get_attribute("data-verdict") == "current"
            assert page.evaluate(wide) <= 375
            browser.close()
    finally:
        next(running, None)  # the generator stops the server


def test_round_ones_sheet_shows_the_seed_its_draw_can_be_redone_from(served: Served) -> None:
    """EV-5.6: the round-1 pairings posting carries the seed of the draw, but the sheet on
    the wall did not show it: a player without the file could not redo the draw by hand.
    The sealed round-1 sheet names it and how each key is made; other sheets do not."""
    event = served.event
    with event.svc() as svc:
        settings = svc.event_state(event.id).settings
    assert settings is not None
    seed = settings.seed
    assert isinstance(seed, int)
    page = served.client.get(f"/events/{event.id}/pairings?round=1", headers=served.headers())
    footer = page.text[page.text.index('id="posted"') :]
    assert f"Round 1 was drawn from seed <b>{seed}</b> (EV-5.6)" in footer
    assert f"<code>{seed}:1:PLAYER-ID</code>" in footer
    assert json.loads(served.posting("pairings"))["seed"] == seed  # the file's, the same
    standings = served.client.get(f"/events/{event.id}/standings?round=1", headers=served.headers())
    assert 'id="posted-seed"' not in standings.text

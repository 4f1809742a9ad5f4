"""A refused sealed bid (PX-14.1, PX-14.2) in every view: its clause and its reason tell
what the bid was (too many prisms, or not above the tie), so the bidder and the referee
read them and no one else does, in any answer: the game's JSON, its log, the page, the
panel, the replay, the exports and the live stream."""

from __future__ import annotations

import json

import httpx
from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web.conftest import ThreadServer, Tokens, auth
from tests.web.test_live_and_hidden import everything, read_events

Client = TestClient[Litestar]

TO_THE_TIE = (
    *("p1: reveal Ember Spark", "p1: reveal Verdant Drop", "p1: reveal Sunset Sky"),
    *("p1: choose C M", "p1: keep Noon Blaze, discard Moonrise"),
    *("p2: choose Y Y", "p2: keep Glass Kiln, discard Eclipse"),
    *("p1: draw R R G G B", "p2: draw R R G G B", "p1: pass", "p2: pass"),
    *("p1: pass", "p2: pass", "p1: bid 1", "p2: bid 1"),
)
"""Ann (p1) and Ben (p2) tied at 1 prism in the starter-token auction (PX-14.2)."""

# what either refusal would tell another reader: its clause, its reason, the bid's text
TELLING = ("PX-14.1", "PX-14.2", "raise above it", "cannot bid", "bid 0", "bid 7", "prism and")


def tied_auction(store: str) -> str:
    with open_service(store) as svc:
        game = svc.create_game(
            "prismatic", {"p1": "Ann", "p2": "Ben"}, variants={"starter_token": "auction"}
        ).game_id
        for entry in TO_THE_TIE:
            seat, _, text = entry.partition(": ")
            assert svc.record(game, text, actor=seat).accepted, entry
    return game


def refuse_two_bids(client: Client, tokens: Tokens, game: str) -> None:
    """The referee records Ann's bids again, twice: not above the tie (PX-14.2), then more
    than she holds (PX-14.1), and reads each refusal whole."""
    for text, clause in (("bid 0", "PX-14.2"), ("bid 7", "PX-14.1")):
        answer = client.post(
            f"/api/games/{game}/entries",
            json={"text": text, "seat": "p1"},
            headers=auth(tokens["head"]),
        )
        assert answer.status_code == 422, answer.text
        assert [v["clause"] for v in answer.json()["violations"]] == [clause]


def told(text: str) -> list[str]:
    return [words for words in TELLING if words in text]


def test_px_14_1_a_refused_sealed_bid_tells_the_others_nothing_of_it(
    client: Client, tokens: Tokens, store: str
) -> None:
    game = tied_auction(store)
    refuse_two_bids(client, tokens, game)
    for reader in ("ben", "public"):
        for path, text in everything(client, tokens[reader], game).items():
            assert not told(text), f"{path} tells {reader} {told(text)}"
        # both refusals read alike to the others: the auction's section, the same words
        log = client.get(f"/api/games/{game}/log", headers=auth(tokens[reader])).json()
        refusals = [e["violations"] for e in log if e["kind"] == "rejected"]
        said = {
            "clause": "PX-14",
            "reason": "p1's sealed bid was refused; what it was stays sealed",
        }
        assert refusals == [[said], [said]], refusals
    # the head referee reading as Ben (a screen turned to him) reads what Ben reads
    for path in ("/log", "/export?format=text", "/export?format=html"):
        sep = "&" if "?" in path else "?"
        text = client.get(f"/api/games/{game}{path}{sep}as=p2", headers=auth(tokens["head"])).text
        assert not told(text), (path, told(text))
    # the bidder and the referee read both refusals whole (so this test can fail)
    for reader in ("ann", "head"):
        whole = client.get(f"/api/games/{game}/log", headers=auth(tokens[reader])).text
        assert {"PX-14.1", "PX-14.2", "raise above it", "cannot bid"} <= set(told(whole)), reader


def test_px_14_1_the_live_stream_tells_the_others_nothing_of_a_refused_bid(
    store: str, tokens: Tokens, live_server: ThreadServer
) -> None:
    game = tied_auction(store)
    for text in ("bid 0", "bid 7"):
        answer = httpx.post(
            f"{live_server.base}/api/games/{game}/entries",
            json={"text": text, "seat": "p1"},
            headers=auth(tokens["head"]),
        )
        assert answer.status_code == 422, answer.text
    url = f"{live_server.base}/api/games/{game}/events?after=0"
    for reader in ("ben", "public"):
        streamed = read_events(url, auth(tokens[reader]), len(TO_THE_TIE) + 3)
        rejected = [json.loads(m["data"]) for m in streamed if m["event"] == "rejected"]
        assert len(rejected) == 2, streamed
        assert not told(json.dumps(streamed)), (reader, told(json.dumps(streamed)))
    whole = read_events(url, auth(tokens["ann"]), len(TO_THE_TIE) + 3)
    assert {"PX-14.1", "PX-14.2"} <= set(told(json.dumps(whole)))

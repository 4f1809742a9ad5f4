"""Issue 33, section 1: tables record through an outage and sync when the server returns.

Eight tables (all five games) play through ``referee --server URL``; the server is
stopped (its port closed on loopback) and the tables go on recording, each entry judged
on the laptop's copy and kept as pending (REF-9.4). Two of the games are also written on
the server's store meanwhile (planted conflicts). When the server is back, each laptop's
``referee sync`` sends its outbox: every entry is stored exactly once or kept in a
branch, nothing is lost, the planted conflicts and only they reach the head referee's
queue (REF-9.5), and the store verifies."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from cli.main import app
from events.schema import ActionRecorded, BranchRecorded, EntriesMerged
from service.app import open_service
from tests.web.conftest import ROOT, Tokens, auth, free_port, serving, start_serve, stop_serve
from tests.web.test_pages import CHROMIUM, browser, enter, signed_in  # noqa: F401

runner = CliRunner()
CRYSTALE = ["--pool", "p1=fixtures/crystale/pools/fire.txt", "--pool",
            "p2=fixtures/crystale/pools/water.txt",
            "--tiles", "IIIIIIIIIIIIIFIWIIIIIIEIIIIII"]  # fmt: skip
GAMMA = ["--deck", "p1=fixtures/gammasphere/decks/ann.txt",
         "--deck", "p2=fixtures/gammasphere/decks/ben.txt"]  # fmt: skip
PRIZMIK: list[tuple[str, str | None]] = [
    ("e1>e2", None),
    ("e8>e7", None),
    ("e2>e3", None),
    ("e7>e6", None),
]

# table -> (the game's setup, its entries (text, seat), how many are recorded live)
TABLES: dict[int, tuple[list[str], list[tuple[str, str | None]], int]] = {
    1: (["prizmik", "-p", "red=A1", "-p", "blue=B1"], PRIZMIK, 1),
    2: (["prizmik", "-p", "red=A2", "-p", "blue=B2"], PRIZMIK, 1),  # planted conflict
    3: (["prizmik", "-p", "red=A3", "-p", "blue=B3"], PRIZMIK, 2),
    4: (["prizmik", "-p", "red=A4", "-p", "blue=B4"], PRIZMIK, 0),
    5: (
        ["prismata", "-p", "p1=Ann", "-p", "p2=Ben", "--seed", "7"],
        [("click #1", None), ("click #2", None), ("buy Engineer", None), ("end", None)],
        1,
    ),
    6: (  # planted conflict
        ["prismatic", "-p", "p1=Ann", "-p", "p2=Ben", "--goal", "5"],
        [
            ("reveal Ember Spark", None),
            ("reveal Cobalt Tear", None),
            ("reveal Noon Blaze", None),
            ("p1: choose C M", None),
            ("p2: choose Y K", None),
        ],
        3,
    ),
    7: (
        ["crystale", "-p", "p1=Ann", "-p", "p2=Ben", *CRYSTALE],
        [("first p1", "p2"), ("pull 6", "p1"), ("pull 6", "p2")],
        1,
    ),
    8: (
        ["gammasphere", "-p", "p1=Ann", "-p", "p2=Ben", *GAMMA],
        [("p1: draw 7", None), ("p2: draw 7", None), ("draw", None), ("play Gamma Trooper", None)],
        2,
    ),
}
PLANTED = {2: ("e8>f8", None), 6: ("p1: choose C M", None)}
"""What the head referee writes on the server's store while the tables are offline."""


class Hall:
    """``referee serve`` on one loopback port, stopped and started again on the same port."""

    def __init__(self, store: str, tmp: Path) -> None:
        self.store, self.port = store, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "serve.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = start_serve(self.store, self.port, out)
        if serving(self.base, self.process):
            return
        self.stop()
        raise RuntimeError(f"referee serve did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        stop_serve(self.process)
        self.process = None


@pytest.fixture
def hall(store: str, tmp_path: Path) -> Iterator[Hall]:
    server = Hall(store, tmp_path)
    yield server
    server.stop()


def referee(*args: str, laptop: Path | None = None, token: str = "") -> tuple[int, str, str]:
    env = {"REFEREE_OFFLINE_STORE": str(laptop)} if laptop else {}
    if token:
        env["REFEREE_TOKEN"] = token
    result = runner.invoke(app, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


PAGES = (4, 6)
"""The tables that record through the table page in the browser (one planted conflict
among them); the others through ``referee --server URL`` on their own laptops."""

OUTAGE_SECONDS = float(os.environ.get("REFEREE_OUTAGE_SECONDS", "0"))
"""How long the server stays unreachable: 0 (the suite) for as long as the entries take;
``REFEREE_OUTAGE_SECONDS=60`` for issue 33's minute, the entries spread over it (idle
waiting: the suite leaves it to that run, figures in RELIABILITY.md)."""


def _page(chromium: Any, base: str, token: str, game: str) -> Any:
    page = signed_in(chromium, base, token)
    page.goto(f"{base}/games/{game}")
    page.wait_for_selector("#entry")
    return page


def _page_offline(page: Any, text: str, queued: int) -> None:
    """An entry on the table page while the server cannot be reached: queued, pending."""
    page.fill("#entry", text)
    page.press("#entry", "Enter")
    page.wait_for_function(
        f"document.querySelectorAll('#outbox .pending').length === {queued}", timeout=30_000
    )


def _offline_order() -> list[tuple[int, str, str | None]]:
    """Every table's offline entries, the tables taking turns (as a hall does)."""
    queues = {t: list(entries[live:]) for t, (_, entries, live) in TABLES.items()}
    order: list[tuple[int, str, str | None]] = []
    while any(queues.values()):
        for table, left in queues.items():
            if left:
                text, seat = left.pop(0)
                order.append((table, text, seat))
    return order


@pytest.mark.slow
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM} is not installed")
def test_tables_record_through_an_outage_and_only_planted_conflicts_reach_the_queue(
    hall: Hall,
    store: str,
    tokens: Tokens,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    browser: Any,  # noqa: F811 - test_pages' browser fixture (one browser, a context a table)
) -> None:
    """Issue 33 section 3: 8 tables (all five games), 2 of them through the table page,
    record while the server is stopped (nothing listens on its port); the head referee
    writes 2 of the games meanwhile. After it returns: every entry stored exactly once or
    kept whole in a branch, 0 lost, the planted conflicts and only they in the queue
    (REF-9.5), the hall's store and every laptop's copy verify."""
    monkeypatch.chdir(ROOT)  # the fixtures' decklists and pools are named from the checkout
    games: dict[int, str] = {}
    for table, (setup, _, _) in TABLES.items():
        code, out, err = referee("--db", store, "new", *setup, "--table", str(table))
        assert code == 0, err
        games[table] = out.strip().splitlines()[-1]
    laptops = {t: tmp_path / f"laptop{t}" for t in TABLES if t not in PAGES}
    head = tokens["head"]

    hall.start()
    pages = {t: _page(browser, hall.base, head, games[t]) for t in PAGES}
    for table, (_, entries, live) in TABLES.items():
        gid = games[table]
        if table in pages:
            for text, _ in entries[:live]:
                enter(pages[table], text)
            continue
        code, _, err = referee(
            "--server", hall.base, "show", gid, laptop=laptops[table], token=head
        )
        assert code == 0, err  # the laptop keeps its copy from now on
        for text, seat in entries[:live]:
            by = ["--by", seat] if seat else []
            code, out, err = referee(
                "--server", hall.base, "act", gid, text, *by, laptop=laptops[table], token=head
            )
            assert code == 0, out + err
            assert out.startswith("recorded "), out + err

    hall.stop()  # the network fails: nothing listens on the port
    down = time.monotonic()
    order = _offline_order()
    queued = dict.fromkeys(PAGES, 0)
    for number, (table, text, seat) in enumerate(order):
        if OUTAGE_SECONDS:  # the entries spread over the outage
            time.sleep(max(0.0, down + OUTAGE_SECONDS * number / len(order) - time.monotonic()))
        if number == len(order) // 2:
            for planted, (move, _) in PLANTED.items():  # the head referee writes meanwhile
                code, out, err = referee("--db", store, "act", games[planted], move)
                assert code == 0, out + err
        if table in pages:
            queued[table] += 1
            _page_offline(pages[table], text, queued[table])
            continue
        by = ["--by", seat] if seat else []
        code, out, err = referee(
            "--server", hall.base, "act", games[table], text, *by, laptop=laptops[table], token=head
        )
        assert code == 0, out + err
        assert out.startswith("recorded offline (pending): "), out + err
    for table, laptop in laptops.items():
        _, entries, live = TABLES[table]
        code, out, _ = referee(
            "--server", hall.base, "show", games[table], laptop=laptop, token=head
        )
        assert code == 0
        assert f"pending, not yet judged by {hall.base} ({len(entries) - live}):" in out
        copy = laptop / "games" / f"{games[table]}.db"
        code, out, err = referee("--db", str(copy), "verify")  # the laptop's copy verifies
        assert code == 0, out + err
        assert "all intact" in out, out + err
    for table, page in pages.items():
        texts = page.locator("#outbox .pending").all_inner_texts()
        _, entries, live = TABLES[table]
        assert texts == [f"{text} — pending, not yet judged" for text, _ in entries[live:]]
    time.sleep(max(0.0, down + OUTAGE_SECONDS - time.monotonic()))
    outage = time.monotonic() - down

    hall.start()  # the network returns
    for table, laptop in laptops.items():
        _, entries, live = TABLES[table]
        code, out, err = referee("--server", hall.base, "sync", laptop=laptop, token=head)
        assert code == 0, err
        if table in PLANTED:
            assert "branches disagree" in out, out
            assert "REF-9.5" in out, out
        else:
            sent = len(entries) - live
            assert f"sent {sent} pending entries of {games[table]}: stored as events" in out, out
        assert not (laptop / "outbox.json").exists()
        code, out, _ = referee("--server", hall.base, "sync", laptop=laptop, token=head)
        assert out.strip() == "nothing pending"  # sent once, never twice
    for table, page in pages.items():  # the page sends its outbox when the server answers
        page.wait_for_function(
            "document.querySelectorAll('#outbox .pending').length === 0", timeout=60_000
        )
        said = page.inner_text("#result")
        if table in PLANTED:
            assert "branches disagree" in said, said
            assert "REF-9.5" in said, said
        else:
            assert "judged and stored" in said, said
        assert page.errors == []
        page.context.close()

    with open_service(store) as svc:
        for table, (_, entries, live) in TABLES.items():
            view = svc.load(games[table])
            actions = [e for e in view.events if isinstance(e, ActionRecorded)]
            merged = [e for e in view.events if isinstance(e, EntriesMerged)]
            kept = [e for e in view.events if isinstance(e, BranchRecorded)]
            offline = [text for text, _ in entries[live:]]
            device = "table page" if table in PAGES else None
            if table in PLANTED:
                assert len(actions) == live + 1
                assert not merged
                assert [[x.text for x in k.entries] for k in kept] == [offline]  # kept whole
                assert device is None or kept[0].device.startswith(
                    device + " "
                )  # and this browser's id
            else:
                assert len(actions) == len(entries)
                assert not kept
                assert [[x.text for x in m.entries] for m in merged] == [offline]
                assert all(x.recorded_at < m.timestamp for m in merged for x in m.entries)
                assert device is None or merged[0].device.startswith(device + " ")
        queue = svc.queue()
        assert sorted(i.game_id for i in queue.conflicts) == sorted(games[t] for t in PLANTED)
        assert all(i.kind == "conflict" and "branches disagree" in i.line for i in queue.conflicts)
    code, out, err = referee("--db", store, "verify")
    assert code == 0, out + err
    assert "all intact" in out, out + err
    assert outage >= OUTAGE_SECONDS

    # The head referee keeps the table's branch at table 2, the server's at table 6.
    branch2 = _branch_event(store, games[2])
    code, out, err = referee("--db", store, "branch", "keep", games[2], str(branch2), "--table")
    assert code == 0, out + err
    assert "kept the table's branch" in out, out + err
    branch6 = _branch_event(store, games[6])
    code, out, err = referee("--db", store, "branch", "keep", games[6], str(branch6), "--server")
    assert code == 0, err
    code, _, err = referee("--db", store, "branch", "keep", games[6], str(branch6), "--table")
    assert code == 2
    assert "REF-9.5" in err
    with open_service(store) as svc:
        assert svc.queue().conflicts == []
        standing = [e.notation for e in svc.load(games[2]).standing]
        assert standing == [text for text, _ in PRIZMIK]  # the table's line of play
    assert referee("--db", store, "verify")[0] == 0


@pytest.mark.slow  # a server or many CLI processes started: seconds each
def test_two_tables_through_a_short_outage_one_merged_one_in_the_queue(
    hall: Hall, store: str, tokens: Tokens, tmp_path: Path
) -> None:
    """REF-9.4 and REF-9.5 in small: the next command that reaches the server sends the
    outbox first; the game written meanwhile keeps the table's branch as evidence."""
    ids = []
    for table in ("1", "2"):
        code, out, _ = referee("--db", store, "new", "prizmik", "-p", "red=A", "-p", "blue=B",
                               "--table", table)  # fmt: skip
        ids.append(out.strip())
    quiet, moved = ids
    laptop, head = tmp_path / "laptop", tokens["head"]
    hall.start()
    for gid, text in ((quiet, "e1>e2"), (moved, "e1>e2"), (moved, "e8>e7")):
        assert referee("--server", hall.base, "act", gid, text, laptop=laptop, token=head)[0] == 0
    # The laptop's copy is the server's exact record (the second entry's lines added alone).
    exact = httpx.get(f"{hall.base}/api/games/{moved}/export?format=jsonl", headers=auth(head))
    assert (laptop / "records" / f"{moved}.jsonl").read_text() == exact.text
    hall.stop()
    for gid, text in ((quiet, "e8>e7"), (moved, "e2>e3")):
        code, out, err = referee("--server", hall.base, "act", gid, text, laptop=laptop, token=head)
        assert code == 0, out + err
        assert out.startswith(f"recorded offline (pending): {text}"), out + err
    code, out, _ = referee("--server", hall.base, "act", quiet, "e8>e1", laptop=laptop, token=head)
    assert code == 1  # judged offline by the same rules: red to act, PZ-1.4
    code, out, err = referee("--server", hall.base, "legal", quiet, laptop=laptop, token=head)
    assert code == 0
    assert "e2>e3" in out
    assert "judged offline" in err
    assert referee("--db", store, "act", moved, "e2>e3")[0] == 0  # written meanwhile
    hall.start()
    code, out, err = referee("--server", hall.base, "show", quiet, laptop=laptop, token=head)
    assert code == 0, err
    assert f"sent 2 pending entries of {quiet}: stored as events 3, 4" in err
    assert f"sent 1 pending entries of {moved}: branches disagree" in err
    assert "pending, not yet judged" not in out
    with open_service(store) as svc:
        assert [e.notation for e in svc.load(quiet).standing] == ["e1>e2", "e8>e7"]
        assert [i.game_id for i in svc.queue().conflicts] == [moved]


def _branch_event(store: str, game: str) -> int:
    with open_service(store) as svc:
        found = [
            e.originator_version for e in svc.load(game).events if isinstance(e, BranchRecorded)
        ]
    assert len(found) == 1
    return found[0]


def test_an_entry_sent_but_unanswered_is_never_recorded_offline(tmp_path: Path) -> None:
    """Only an entry that never left the laptop is judged offline: one the server may have
    stored is not recorded twice (the command says it may be recorded, exit 2)."""
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]

    def swallow() -> None:  # takes the request and closes without an answer
        conn, _ = listener.accept()
        conn.recv(65536)
        conn.close()

    thread = threading.Thread(target=swallow, daemon=True)
    thread.start()
    try:
        code, _out, err = referee(
            "--server", f"http://127.0.0.1:{port}", "act", "prizmik-abcdefgh", "e1>e2",
            laptop=tmp_path / "laptop", token="t",
        )  # fmt: skip
    finally:
        thread.join(10)
        listener.close()
    assert code == 2
    assert "it may have been recorded" in err
    assert not (tmp_path / "laptop" / "outbox.json").exists()

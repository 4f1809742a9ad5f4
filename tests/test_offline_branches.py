"""The head referee's choice over a table's offline branch (REF-9.5, REF-9.6): a branch of
entries the table's own copy rejected is no choice to make, and keeping a table's branch
keeps who recorded its entries at the table."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

from events.schema import BranchResolved
from events.store import GameStore
from service import RefereeService
from service.errors import InvalidCommandError
from service.offline import OfflineEntryIn, branches, merge_offline, resolve_branch
from service.outbox import _token_device
from service.remote import ServerRefusedError, ServerUnreachableError

AT = datetime(2026, 11, 28, 9, 12, tzinfo=UTC)


@pytest.fixture
def svc(tmp_path: Path) -> RefereeService:
    return RefereeService(GameStore(tmp_path / "hall.db"))


def moved_game(svc: RefereeService) -> str:
    """A game the server moved (event 3) after the table's base (event 2)."""
    gid = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}, meta={"table": "4"}).game_id
    svc.record(gid, "e1>e2")
    svc.record(gid, "e8>e7", by="Hera")
    return gid


def entry(text: str, key: str, judged: str) -> OfflineEntryIn:
    return OfflineEntryIn(text=text, key=key, recorded_at=AT, judged=judged, judged_on=2)


def test_ref_9_6_a_branch_of_rejected_entries_is_no_conflict(svc: RefereeService) -> None:
    """REF-9.6: every entry rejected at the table: kept as evidence, listed for information
    (not "branches disagree"), and keeping the table's side is refused."""
    gid = moved_game(svc)
    rejected = entry("e1>e9", "k1", "rejected 'e1>e9' (PZ-4.1)")
    sent = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[rejected])
    assert sent.outcome == "conflict"  # kept whole as evidence, as any branch
    (branch,) = branches(svc, gid)
    assert branch.rejected
    view = svc.queue()
    assert view.conflicts == []
    assert [i.kind for i in view.needs] == []
    (review,) = [i for i in view.info if i.kind == "rejected-offline"]
    assert review.line.endswith(
        "to review: rejected 'e1>e9' (PZ-4.1); the game is as the server has it (REF-9.6)"
    )
    with pytest.raises(InvalidCommandError) as refused:
        resolve_branch(svc, gid, branch.event, "table", by="Hera")
    assert "REF-9.6" in str(refused.value)
    assert svc.load(gid).version == sent.event  # nothing retracted
    resolve_branch(svc, gid, branch.event, "server", reason="seen", by="Hera")
    assert [i for i in svc.queue().info if i.kind == "rejected-offline"] == []


def test_ref_9_5_a_kept_table_branch_keeps_who_recorded_it(svc: RefereeService) -> None:
    """REF-9.5: keeping the table's branch records its entries as the table's (the token
    holder who sent them), and the choice as the head referee's."""
    gid = moved_game(svc)
    mixed = [entry("e8>e7", "k1", "e8>e7"), entry("e2>e3", "k2", "e2>e3")]
    sent = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=mixed, by="Tom")
    (branch,) = branches(svc, gid)
    assert not branch.rejected
    assert [i.kind for i in svc.queue().needs] == ["conflict"]
    resolve_branch(svc, gid, sent.event, "table", reason="the table was right", by="Hera")
    events = svc.load(gid).events
    resolved = events[-1]
    assert isinstance(resolved, BranchResolved)
    assert resolved.by == "Hera"
    recorded = events[-1 - len(mixed) : -1]
    assert [getattr(e, "recorded_by", None) for e in recorded] == ["Tom", "Tom"]


class _Holder:
    """A server's answer to whoami, without a server."""

    def __init__(self, token: str | None, name: str) -> None:
        self.token, self.name = token, name

    def whoami(self) -> str:
        return self.name


def test_ref_9_4_a_laptop_with_a_token_sends_as_the_token_holder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """REF-9.4: the device a batch names is the token holder's on this machine, not the
    laptop's local --referee name; without a token it stays the local one."""
    monkeypatch.delenv("REFEREE_DEVICE", raising=False)
    monkeypatch.setattr("socket.gethostname", lambda: "vm")
    assert _token_device(_Holder("t0k", "Tom"), "vm/referee") == "vm/Tom"  # type: ignore[arg-type]
    assert _token_device(_Holder(None, "Tom"), "vm/referee") == "vm/referee"  # type: ignore[arg-type]
    monkeypatch.setenv("REFEREE_DEVICE", "laptop-7")
    assert _token_device(_Holder("t0k", "Tom"), "laptop-7") == "laptop-7"  # type: ignore[arg-type]


def test_ref_9_4_entries_recorded_after_a_lost_answer_are_stored_once_not_dropped(
    svc: RefereeService,
) -> None:
    """REF-9.4: a batch stored though its answer was lost is sent again by the outbox with
    the entries the table recorded after it: the retry stores the stored ones nothing
    twice, and the later ones once (before, the replay answered for all of them and the
    outbox dropped the later ones unstored)."""
    gid = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}, meta={"table": "4"}).game_id
    svc.record(gid, "e1>e2")
    first = OfflineEntryIn(text="e8>e7", key="k1", recorded_at=AT, judged="e8>e7", judged_on=2)
    later = OfflineEntryIn(text="e2>e3", key="k2", recorded_at=AT, judged="e2>e3", judged_on=3)
    sent = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[first])
    assert (sent.outcome, sent.events) == ("merged", [3])
    again = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[first, later])
    assert (again.outcome, again.events) == ("merged", [3, 5])
    assert [e.notation for e in svc.load(gid).standing] == ["e1>e2", "e8>e7", "e2>e3"]
    version = svc.load(gid).version
    replay = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[first, later])
    assert (replay.replayed, replay.events) == (True, [3, 5])
    assert svc.load(gid).version == version  # nothing stored twice
    assert svc.queue().conflicts == []


def test_ref_9_5_entries_recorded_after_a_lost_branch_answer_keep_the_branch_whole(
    svc: RefereeService,
) -> None:
    """REF-9.5: after a branch whose answer was lost, the table's later entries continue
    its branch: kept again whole (both entries, on the same base), so keeping the table's
    side records its whole line; a retry of it stores nothing more."""
    gid = moved_game(svc)
    first = entry("e8>e7", "k1", "e8>e7")
    later = OfflineEntryIn(text="e2>e3", key="k2", recorded_at=AT, judged="e2>e3", judged_on=3)
    sent = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[first], by="Tom")
    again = merge_offline(
        svc, gid, device="hall-3/Tom", base_version=2, entries=[first, later], by="Tom"
    )
    assert again.outcome == "conflict"
    assert again.event == sent.event + 1
    assert f"on its branch of event {sent.event}" in again.reason
    whole = next(b for b in branches(svc, gid) if b.event == again.event)
    assert (whole.base_version, whole.entries) == (2, ["e8>e7", "e2>e3"])
    version = svc.load(gid).version
    replay = merge_offline(
        svc, gid, device="hall-3/Tom", base_version=2, entries=[first, later], by="Tom"
    )
    assert (replay.replayed, replay.event) == (True, again.event)
    assert svc.load(gid).version == version
    resolve_branch(svc, gid, again.event, "table", by="Hera")
    assert [e.notation for e in svc.load(gid).standing] == ["e1>e2", "e8>e7", "e2>e3"]


class _LostSync:
    """A hall server whose answer to a sync is lost on the way back (the request went
    out), and which takes no connection for anything else: a flapping link."""

    url = "http://hall:8000"
    token = None

    def __init__(self) -> None:
        self.lose = False

    def _unreachable(self, sent: bool) -> ServerUnreachableError:
        error = ServerUnreachableError(
            f"the referee server at {self.url} did not answer: timed out; it may have been "
            "recorded: look at the game before entering it again"
            if sent
            else f"cannot reach the referee server at {self.url}: Connection refused"
        )
        error.sent = sent
        return error

    def sync(self, game: str, batch: object, key: str) -> dict[str, object]:
        raise self._unreachable(self.lose)

    def record(self, *args: object, **kwargs: object) -> object:
        raise self._unreachable(False)

    position = legal = record


def test_ref_9_4_a_lost_sync_answer_leaves_the_table_recording_offline(
    svc: RefereeService, tmp_path: Path
) -> None:
    """REF-9.4: when the outbox's batch went out but its answer was lost, the next entry
    (which never left the laptop) is still recorded offline after it, and a read shows
    the copy; the sync itself says the entries stay in the outbox and may be sent again
    (before, every act and show failed "it may have been recorded" for an entry never
    sent)."""
    from service.outbox import Outbox

    gid = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}).game_id
    laptop = tmp_path / "laptop"
    (laptop / "records").mkdir(parents=True)
    (laptop / "records" / f"{gid}.jsonl").write_text("".join(svc.export([gid], "jsonl")))
    remote = _LostSync()
    box = Outbox(remote, laptop)  # type: ignore[arg-type]
    assert box.record(gid, "e1>e2")[2]  # offline: the server cannot be reached
    with pytest.raises(ServerUnreachableError) as down:
        box.flush()  # 'referee sync': says what stays pending
    assert "pending entries kept in this laptop's outbox: 1 (1 games)" in str(down.value)
    remote.lose = True
    with pytest.raises(ServerUnreachableError) as lost:
        box.flush()
    assert "kept in this laptop's outbox: 1 (1 games); 'referee sync' sends them again" in str(
        lost.value
    )
    assert "look at the game" not in str(lost.value)
    result, sent, offline = box.record(gid, "e8>e7")
    assert (result.accepted, sent, offline) == (True, [], True)
    assert [p.text for p in box.pending(gid)] == ["e1>e2", "e8>e7"]
    assert box.position(gid)[0].standing_actions == 2


class _Hall:
    """A hall server backed by a store here, whose clock is ``offset`` seconds ahead of
    this laptop's (as its answers' ``Date`` says), and which can stop answering."""

    url = "http://hall:8000"
    token = None

    def __init__(self, svc: RefereeService, offset: float = 0.0) -> None:
        self.svc, self.clock_offset, self.down = svc, offset, False
        self.refuse: set[str] = set()

    def sync(self, game: str, batch: dict[str, Any], key: str) -> dict[str, Any]:
        if game in self.refuse:
            raise ServerRefusedError(
                "the referee server refused the token: Tia referees tables 1, not table 2",
                status=403,
                kind="forbidden",
            )
        entries = [msgspec.convert(e, OfflineEntryIn) for e in batch["entries"]]
        sent = merge_offline(
            self.svc,
            game,
            device=batch["device"],
            base_version=batch["base_version"],
            entries=entries,
        )
        answer: dict[str, Any] = msgspec.to_builtins(sent)
        return answer

    def record(self, game: str, text: str, **kwargs: object) -> object:
        if self.down:
            error = ServerUnreachableError("cannot reach the referee server: refused")
            raise error
        return self.svc.record(game, text)

    def record_jsonl(self, game: str) -> bytes:
        return "".join(self.svc.export([game], "jsonl")).encode()

    def record_after(self, game: str, after: int) -> bytes:
        from service.offline import record_lines

        return "".join(record_lines(self.svc, game, after)[2]).encode()


@pytest.mark.parametrize(("offset", "stamped"), [(7200.0, 7200.0), (0.6, 0.0), (-5400.0, -5400.0)])
def test_ref_9_4_entries_recorded_offline_carry_the_servers_clock(
    svc: RefereeService, tmp_path: Path, offset: float, stamped: float
) -> None:
    """REF-9.4: a laptop whose clock drifted stamps its offline entries on the server's
    clock (as the server's last answer gave it), so the head referee reads one clock in
    the log and the queue (before, a laptop two hours fast showed entries recorded two
    hours after they were stored); clocks that agree to a second or two are left alone."""

    from service.outbox import Outbox

    gid = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}).game_id
    hall = _Hall(svc, offset)
    box = Outbox(hall, tmp_path / "laptop")  # type: ignore[arg-type]
    assert not box.record(gid, "e1>e2")[2]  # online: the server's clock is seen
    hall.down = True
    before = datetime.now(UTC)
    assert box.record(gid, "e8>e7")[2]  # offline
    (pending,) = box.pending(gid)
    drift = (pending.recorded_at - before).total_seconds() - stamped
    assert -1.0 <= drift <= 5.0, drift
    assert (tmp_path / "laptop" / "clock.json").exists() == bool(stamped)


def test_ref_9_4_json_answers_judged_offline_say_so(svc: RefereeService, tmp_path: Path) -> None:
    """``--json`` on act, show and legal judged on the laptop's copy says ``offline`` and
    lists the game's pending entries (before, the JSON was the server's answer's shape
    alone: a script read "stored": true and a local event number as the server's)."""
    import json

    from typer.testing import CliRunner

    from cli.main import app

    gid = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}).game_id
    laptop = tmp_path / "laptop"
    (laptop / "records").mkdir(parents=True)
    (laptop / "records" / f"{gid}.jsonl").write_text("".join(svc.export([gid], "jsonl")))
    env = {"REFEREE_OFFLINE_STORE": str(laptop), "REFEREE_TOKEN": ""}
    down = ["--server", "http://127.0.0.1:1"]  # nothing listens: never sent
    runner = CliRunner()
    act = runner.invoke(app, [*down, "act", gid, "e1>e2", "--json"], env=env)
    assert act.exit_code == 0, act.output
    answer = json.loads(act.stdout)
    assert (answer["offline"], answer["status"]) == (True, "recorded")
    assert [p["text"] for p in answer["pending"]] == ["e1>e2"]
    for read in (["show", gid, "--json"], ["legal", gid, "--json"]):
        done = runner.invoke(app, [*down, *read], env=env)
        assert done.exit_code == 0, done.output
        said = json.loads(done.stdout)
        assert said["offline"] is True
        assert [p["judged"] for p in said["pending"]] == ["e1>e2"]


def test_ref_9_5_a_branch_says_what_keeping_the_table_would_retract_now(
    svc: RefereeService,
) -> None:
    """REF-9.5: the table went on on the server's line after its branch was kept as
    evidence; keeping the table's branch later retracts those actions too. ``branches``
    says so while the choice is open (before, it showed only what the server held when
    the branch arrived, and the later action was retracted unannounced)."""
    gid = moved_game(svc)
    sent = merge_offline(
        svc, gid, device="hall-3/Tom", base_version=2, entries=[entry("e8>f8", "k1", "e8>f8")]
    )
    svc.record(gid, "e2>e3", by="Tom")  # on the server's line, after the branch
    (branch,) = branches(svc, gid)
    assert branch.ours == ["3: 2. blue e8>e7"]
    assert branch.retracts == ["3: 2. blue e8>e7", "5: 3. red e2>e3"]
    resolve_branch(svc, gid, sent.event, "server", by="Hera")
    assert branches(svc, gid)[0].retracts == []  # chosen: nothing more to say


def test_ref_9_4_a_refused_batch_is_held_and_the_laptop_records_its_other_games(
    svc: RefereeService, tmp_path: Path
) -> None:
    """REF-9.4: the server refuses one game's batch (the table referee's token moved to
    another table meanwhile): it is held in the outbox, said, and the laptop goes on
    recording its other games; an entry of the held game is not sent ahead of it (before,
    every act and show of every game failed with that one refusal, for good)."""
    from service.outbox import Outbox

    moved = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}).game_id
    mine = svc.create_game("prizmik", {"red": "Cy", "blue": "Di"}).game_id
    hall = _Hall(svc)
    box = Outbox(hall, tmp_path / "laptop")  # type: ignore[arg-type]
    for game in (moved, mine):
        assert not box.record(game, "e1>e2")[2]
    hall.down = True
    assert box.record(moved, "e8>e7")[2]  # offline, pending
    hall.down, hall.refuse = False, {moved}
    result, sent, offline = box.record(mine, "e8>e7")
    assert (result.accepted, offline) == (True, False)
    assert [(s.game, s.outcome) for s in sent] == [(moved, "held")]
    assert "Tia referees tables 1" in sent[0].reason
    with pytest.raises(ServerRefusedError) as refused:
        box.record(moved, "e2>e3")
    assert "held in this laptop's outbox" in str(refused.value)
    assert [p.text for p in box.pending()] == ["e8>e7"]
    assert svc.load(moved).version == 2  # nothing of it stored
    hall.refuse = set()  # a token that may write it (the head referee's) sends it
    assert [s.outcome for s in box.flush()] == ["merged"]
    assert [e.notation for e in svc.load(moved).standing] == ["e1>e2", "e8>e7"]


def test_ref_9_4_entries_recorded_offline_reach_the_hall_at_its_new_address(
    svc: RefereeService, tmp_path: Path
) -> None:
    """REF-9.4: the hall's server came back on another address (a new port after a
    crash): the laptop's pending entries are sent there (before, they were kept for the
    old address only: 'sync' said "nothing pending" and they were never sent)."""
    from service.outbox import Outbox

    gid = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}).game_id
    hall = _Hall(svc)
    box = Outbox(hall, tmp_path / "laptop")  # type: ignore[arg-type]
    assert not box.record(gid, "e1>e2")[2]
    hall.down = True
    assert box.record(gid, "e8>e7")[2]
    moved = _Hall(svc)
    moved.url = "http://hall:8001"
    again = Outbox(moved, tmp_path / "laptop")  # type: ignore[arg-type]
    assert [p.text for p in again.pending()] == ["e8>e7"]
    assert [s.outcome for s in again.flush()] == ["merged"]
    assert [e.notation for e in svc.load(gid).standing] == ["e1>e2", "e8>e7"]


def test_an_outbox_that_cannot_be_read_is_one_line_naming_it(tmp_path: Path) -> None:
    """A laptop's outbox edited by hand into something else: one line naming the file
    (it said "Object missing required field `server` - at `$[0]`"), nothing sent."""
    from referee.errors import RefusedError
    from service.outbox import Outbox

    laptop = tmp_path / "laptop"
    laptop.mkdir()
    (laptop / "outbox.json").write_text('[{"bad": 1}]')
    box = Outbox(_LostSync(), laptop)  # type: ignore[arg-type]
    with pytest.raises(RefusedError) as refused:
        box.flush()
    assert f"outbox {laptop / 'outbox.json'} cannot be read" in str(refused.value)


def test_ref_9_7_a_branch_held_whole_by_a_later_one_leaves_the_queue(
    svc: RefereeService, tmp_path: Path
) -> None:
    """REF-9.7: the whole branch kept after a lost answer supersedes the first: the queue
    holds one item for the one conflict (before: two, both "branches disagree"), whose line
    says which branch it replaces, the first says which branch supersedes it, and choosing
    it is refused naming that one. A new process's queue (from the saved fold taken before
    the second branch, and from the log alone) says the same."""
    from service.room import RoomQueue

    gid = moved_game(svc)
    merge_offline(  # a branch of another table, on the same base: not held whole, stays
        svc, gid, device="hall-5/Ida", base_version=2, entries=[entry("e8>f8", "x1", "e8>f8")]
    )
    first = entry("e8>e7", "k1", "e8>e7")
    later = OfflineEntryIn(text="e2>e3", key="k2", recorded_at=AT, judged="e2>e3", judged_on=3)
    early = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[first]).event
    store = tmp_path / "hall.db"
    saved = RoomQueue(GameStore(store))
    assert len(saved.items().conflicts) == 2  # the fold is saved with the lost answer's
    saved.close()
    again = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[first, later])
    whole = again.event
    assert f"on its branch of event {early}" in again.reason
    replaces = f"holds the entries of the branch of event {early} too (REF-9.7)"
    for queue in (RoomQueue(GameStore(store)), RoomQueue(GameStore(store), persist=False)):
        assert sorted(i.event or 0 for i in queue.items().conflicts) == [early - 1, whole]
        # the whole branch's line says which branch it replaces
        said = {i.event: i.line for i in queue.items().conflicts}
        assert replaces in said[whole], said
        assert "REF-9.7" not in said[early - 1], said
        queue.close()
    assert sorted(i.event or 0 for i in svc.queue().conflicts) == [early - 1, whole]
    found = {b.event: b for b in branches(svc, gid)}
    assert (found[early].superseded_by, found[whole].superseded_by) == (whole, None)
    assert found[early].retracts == []  # no choice of its own: nothing said it would retract
    assert found[early - 1].superseded_by is None
    with pytest.raises(InvalidCommandError) as refused:
        resolve_branch(svc, gid, early, "server", by="Hera")
    assert refused.value.clause == "REF-9.7"
    assert f"superseded by the branch of event {whole}" in str(refused.value)
    resolve_branch(svc, gid, whole, "table", by="Hera")
    assert [e.notation for e in svc.load(gid).standing] == ["e1>e2", "e8>e7", "e2>e3"]
    assert [i.event for i in svc.queue().conflicts] == [early - 1]
    with pytest.raises(InvalidCommandError, match=r"REF-9\.7.*that one was resolved"):
        resolve_branch(svc, gid, early, "table", by="Hera")


def test_ref_9_7_a_branch_chosen_before_the_later_one_arrived_stays_chosen(
    svc: RefereeService,
) -> None:
    """REF-9.7: a branch is superseded only while no choice was made on it: one kept before
    the whole branch arrived stays as it was kept, and the whole one waits on its own."""
    gid = moved_game(svc)
    first = entry("e8>e7", "k1", "e8>e7")
    sent = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[first])
    resolve_branch(svc, gid, sent.event, "server", by="Hera")
    later = OfflineEntryIn(text="e2>e3", key="k2", recorded_at=AT, judged="e2>e3", judged_on=3)
    again = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[first, later])
    found = {b.event: b for b in branches(svc, gid)}
    assert (found[sent.event].kept, found[sent.event].superseded_by) == ("server", None)
    assert [i.event for i in svc.queue().conflicts] == [again.event]


def test_ref_9_7_a_rejected_branch_held_whole_leaves_the_information_list(
    svc: RefereeService,
) -> None:
    """REF-9.7 with REF-9.6: a branch of rejected entries the table went on from is held
    whole by the later branch: one item, the later one's."""
    gid = moved_game(svc)
    rejected = entry("e1>e9", "k1", "rejected 'e1>e9' (PZ-4.1)")
    merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[rejected])
    assert [i.kind for i in svc.queue().info if i.kind == "rejected-offline"] == [
        "rejected-offline"
    ]
    later = OfflineEntryIn(text="e8>e7", key="k2", recorded_at=AT, judged="e8>e7", judged_on=2)
    again = merge_offline(svc, gid, device="hall-3/Tom", base_version=2, entries=[rejected, later])
    view = svc.queue()
    assert [i.kind for i in view.info if i.kind == "rejected-offline"] == []
    assert [i.event for i in view.conflicts] == [again.event]


def test_ref_9_1_branches_on_a_replica_say_they_are_resolved_at_the_hall(
    tmp_path: Path,
) -> None:
    """REF-9.1, REF-9.5: a replica's branch list and queue show an open branch as chosen at
    the store that writes the game, in text and in --json (before, it read "waiting for the
    head referee" as though it could be chosen there); the hall shows what it showed."""
    from typer.testing import CliRunner

    from cli.main import app
    from service.app import open_service
    from service.replication import name_store, replicate

    hall_db, cloud_db = tmp_path / "hall.db", tmp_path / "cloud.db"
    with open_service(hall_db, create=True) as hall:
        name_store(hall.store, "hall")
        gid = moved_game(hall)
        sent = merge_offline(
            hall, gid, device="hall-3/Tom", base_version=2, entries=[entry("e8>f8", "k1", "e8>f8")]
        )
        (mine,) = hall.queue().conflicts
        with open_service(cloud_db, create=True) as cloud:
            name_store(cloud.store, "cloud")
            replicate(hall.store, cloud.store)
            (theirs,) = cloud.queue().conflicts
            (branch,) = branches(cloud, gid)
        assert branches(hall, gid)[0].resolved_at == ""
    assert (mine.resolved_at, theirs.resolved_at, branch.resolved_at) == ("", "hall", "hall")
    assert "resolved at the hall" not in mine.line
    assert (
        theirs.line == f"{mine.line}; resolved at the hall: store 'hall' writes this game, "
        "this store holds a replica (REF-9.1)"
    )
    runner = CliRunner()
    text = runner.invoke(app, ["--db", str(cloud_db), "branch", "list", gid])
    assert text.exit_code == 0, text.output
    assert "resolved at the hall: store 'hall'" in text.stdout
    shown = runner.invoke(app, ["--db", str(cloud_db), "branch", "list", gid, "--json"])
    assert [b["resolved_at"] for b in msgspec.json.decode(shown.stdout)] == ["hall"]
    at_hall = runner.invoke(app, ["--db", str(hall_db), "branch", "list", gid])
    assert "waiting for the head referee (" in at_hall.stdout
    assert "resolved at the hall" not in at_hall.stdout
    queue = runner.invoke(app, ["--db", str(cloud_db), "queue"])
    assert "resolved at the hall: store 'hall'" in queue.stdout, queue.output
    assert sent.event == 4

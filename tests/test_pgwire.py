"""The one-shot commands' PostgreSQL client (``events.backends.pgwire``) and its store
(``events.backends.postgres_wire``): authentication messages against published
vectors, a stand-in server for the password methods the machine's (trust-only) server
does not use, errors as the psycopg store gives them, the fall back to psycopg, and the
command line's one-line errors. The storage suite (tests/test_storage.py) runs every
store check through it too (``postgres-wire``)."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from events.backends import pgwire
from events.store import ConcurrentWriteError, GameStore, StoreBusyError
from referee.contract import Player
from service import RefereeService
from tests.postgres import pg_url

PLAYERS = [Player("red", "Ann"), Player("blue", "Ben")]
ROOT = Path(__file__).resolve().parent.parent


# -- the messages ----------------------------------------------------------------------


def test_scram_sha_256_matches_rfc_7677() -> None:
    """RFC 7677 section 3: user "user", password "pencil"."""
    first = pgwire.scram_client_first("rOprNGfwEbeRWgbNEkqO", "user")
    assert first == "n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
    server_first = (
        "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
    )
    final, server_signature = pgwire.scram_client_final("pencil", first, server_first)
    assert final == (
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
        "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
    )
    assert base64.b64encode(server_signature) == b"6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="


def test_scram_refuses_a_server_nonce_that_does_not_extend_ours() -> None:
    with pytest.raises(pgwire.ServerError):
        pgwire.scram_client_final("pencil", "n,,n=,r=abc", "r=xyz123,s=AAAA,i=4096")


def test_md5_password_message() -> None:
    """``md5`` + md5(md5(password + user) hex + salt) hex; md5("postgrespostgres") is the
    well-known stored hash of user postgres with password postgres."""
    assert hashlib.md5(b"postgrespostgres").hexdigest() == "3175bce1d3201d16594cebf9d7eb3f9d"
    salt = b"\x01\x02\x03\x04"
    expected = hashlib.md5(b"3175bce1d3201d16594cebf9d7eb3f9d" + salt).hexdigest()
    assert pgwire.md5_password("postgres", "postgres", salt) == "md5" + expected


def test_placeholders_are_numbered() -> None:
    assert pgwire.numbered("SELECT %s, '100%%', %s") == "SELECT $1, '100%', $2"
    assert pgwire.numbered("SELECT 1") == "SELECT 1"
    with pytest.raises(ValueError):
        pgwire.numbered("SELECT %d")


# -- a stand-in server for the password methods ----------------------------------------


def _message(kind: bytes, body: bytes) -> bytes:
    return kind + struct.pack("!i", len(body) + 4) + body


def _read(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise OSError("closed")
        data += chunk
    return data


def _read_message(conn: socket.socket) -> tuple[bytes, bytes]:
    kind, length = struct.unpack("!ci", _read(conn, 5))
    return kind, _read(conn, length - 4)


class StandIn:
    """A server that answers the TLS request (``tls``), asks for a password by ``method``
    (cleartext, md5 or scram) and checks it against ``password``: ready, or refused as
    PostgreSQL refuses (28P01)."""

    def __init__(self, method: str, password: str, *, tls: bool = False) -> None:
        self.method, self.password, self.tls = method, password, tls
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        conn, _ = self.listener.accept()
        with conn, contextlib.suppress(OSError, AssertionError, ValueError, struct.error):
            # (a client that leaves early, as one that needs psycopg does, ends the talk)
            _read(conn, 8)  # the TLS request
            conn.sendall(b"S" if self.tls else b"N")
            if self.tls:
                return
            (length,) = struct.unpack("!i", _read(conn, 4))
            startup = _read(conn, length - 4)[4:].split(b"\0")
            user = dict(zip(startup[0::2], startup[1::2], strict=False))[b"user"].decode()
            ok = getattr(self, self.method)(conn, user)
            if not ok:
                fields = b'SFATAL\0C28P01\0Mpassword authentication failed for user "x"\0\0'
                conn.sendall(_message(b"E", fields))
                return
            conn.sendall(_message(b"R", struct.pack("!i", 0)))
            conn.sendall(_message(b"S", b"server_version\x0099.0\0"))
            conn.sendall(_message(b"Z", b"I"))
            _read_message(conn)  # the client's goodbye

    def cleartext(self, conn: socket.socket, user: str) -> bool:
        conn.sendall(_message(b"R", struct.pack("!i", 3)))
        _, body = _read_message(conn)
        return body == self.password.encode() + b"\0"

    def md5(self, conn: socket.socket, user: str) -> bool:
        salt = os.urandom(4)
        conn.sendall(_message(b"R", struct.pack("!i", 5) + salt))
        _, body = _read_message(conn)
        inner = hashlib.md5((self.password + user).encode()).hexdigest().encode()
        return body == b"md5" + hashlib.md5(inner + salt).hexdigest().encode() + b"\0"

    def scram(self, conn: socket.socket, user: str) -> bool:
        conn.sendall(_message(b"R", struct.pack("!i", 10) + b"SCRAM-SHA-256\0\0"))
        _, body = _read_message(conn)
        mechanism, _, rest = body.partition(b"\0")
        assert mechanism == b"SCRAM-SHA-256"
        client_first = rest[4:].decode()
        bare = client_first[3:]
        nonce = dict(p.split("=", 1) for p in bare.split(","))["r"] + "server-part"
        salt = b"0123456789abcdef"
        server_first = f"r={nonce},s={base64.b64encode(salt).decode()},i=4096"
        conn.sendall(_message(b"R", struct.pack("!i", 11) + server_first.encode()))
        _, final = _read_message(conn)
        without_proof, _, proof = final.decode().rpartition(",p=")
        salted = hashlib.pbkdf2_hmac("sha256", self.password.encode(), salt, 4096)
        client_key = hmac.digest(salted, b"Client Key", "sha256")
        auth = f"{bare},{server_first},{without_proof}".encode()
        signature = hmac.digest(hashlib.sha256(client_key).digest(), auth, "sha256")
        claimed = bytes(a ^ b for a, b in zip(base64.b64decode(proof), signature, strict=True))
        if hashlib.sha256(claimed).digest() != hashlib.sha256(client_key).digest():
            return False
        server_key = hmac.digest(salted, b"Server Key", "sha256")
        verifier = base64.b64encode(hmac.digest(server_key, auth, "sha256")).decode()
        conn.sendall(_message(b"R", struct.pack("!i", 12) + f"v={verifier}".encode()))
        return True


def _connect(port: int, password: str) -> pgwire.Connection:
    return pgwire.Connection.connect(
        host="127.0.0.1", port=port, user="ann", password=password, dbname="d", timeout=5
    )


@pytest.mark.parametrize("method", ["cleartext", "md5", "scram"])
def test_each_password_method_connects_and_a_bad_password_is_refused(method: str) -> None:
    good = StandIn(method, "s3cret")
    conn = _connect(good.port, "s3cret")
    assert conn.parameters["server_version"] == "99.0" and conn.status == "I"
    conn.close()
    bad = StandIn(method, "s3cret")
    with pytest.raises(pgwire.ServerError) as refused:
        _connect(bad.port, "wrong")
    assert refused.value.sqlstate == "28P01"


def test_what_pgwire_does_not_do_is_left_to_psycopg() -> None:
    with pytest.raises(pgwire.Unsupported):  # the server offers TLS: psycopg would use it
        _connect(StandIn("md5", "x", tls=True).port, "x")
    with pytest.raises(pgwire.Unsupported):  # a password asked for, none given (~/.pgpass)
        _connect(StandIn("md5", "x").port, "")
    with pytest.raises(pgwire.Unsupported):  # SASLprep: libpq normalizes such a password
        _connect(StandIn("scram", "café").port, "café")


def test_a_store_pgwire_cannot_reach_as_psycopg_would_opens_through_psycopg(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tls = StandIn("md5", "x", tls=True)
    store = GameStore(f"postgresql://ann:x@127.0.0.1:{tls.port}/d", one_shot=True)
    assert type(store.recorder).__name__ == "RefereePostgresRecorder"
    store.close()
    monkeypatch.setenv("PGSSLMODE", "require")  # libpq's variables: psycopg obeys them
    store = GameStore("postgresql://postgres@127.0.0.1:1/test", one_shot=True)
    assert type(store.recorder).__name__ == "RefereePostgresRecorder"
    store.close()


# -- on the machine's server -------------------------------------------------------------


@pytest.fixture
def wire_store(pg_env: dict[str, str]) -> Iterator[GameStore]:
    store = GameStore(pg_url(pg_env), one_shot=True)
    assert type(store.recorder).__name__ == "WireApplicationRecorder"
    yield store
    store.close()


def test_results_come_back_as_psycopg_gives_them(wire_store: GameStore) -> None:
    assert wire_store.backend is not None
    with wire_store.backend.cursor() as cursor:
        cursor.execute(
            "SELECT 1::bigint, %s::text, %s::bytea, NULL, true, 2.5::float8, to_regclass(%s)",
            ('a"b\\c', b"\x00\xff", "nothing.here"),
        )
        assert cursor.fetchone() == (1, 'a"b\\c', b"\x00\xff", None, True, 2.5, None)
        cursor.execute("SELECT %s::text[]", (['a"', "b\\", None],))
        assert cursor.fetchall() == [('{"a\\"","b\\\\",NULL}',)]


def test_a_fresh_store_gains_its_tables_and_a_race_is_a_concurrent_write(
    wire_store: GameStore, pg_env: dict[str, str]
) -> None:
    """The first append finds no table: the psycopg backend makes it, the append runs."""
    svc = RefereeService(wire_store)
    game = svc.create_game("prizmik", PLAYERS).game_id
    assert wire_store.backend is not None and wire_store.backend.has_table("referee_events")
    stale = svc.load(game)
    other = RefereeService(GameStore(env=pg_env))  # psycopg's store writes first
    assert other.record(game, "c1>c2").accepted
    with pytest.raises(ConcurrentWriteError):
        svc.record(game, "e1>e2", view=stale)
    assert other.load(game).version == svc.load(game).version == 2
    other.close()


def test_an_append_waits_for_the_table_lock_no_longer_than_the_bound(
    pg_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    from tests.postgres import _dsn

    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", "1")
    store = GameStore(pg_url(pg_env), one_shot=True)
    svc = RefereeService(store)
    game = svc.create_game("prizmik", PLAYERS).game_id
    table = f'"{pg_env["POSTGRES_SCHEMA"]}".referee_events'
    with psycopg.connect(_dsn()) as holder:
        holder.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
        with pytest.raises(StoreBusyError):
            svc.record(game, "e1>e2")
    assert svc.load(game).version == 1
    svc.close()


# -- the command line ---------------------------------------------------------------------

IMPORTS = """
import json, sys
sys.argv = ["referee", *sys.argv[1:]]
from cli.main import run
code = 0
try:
    run()
except SystemExit as done:
    code = done.code
print("CODE", code, file=sys.stderr)
print("LOADED " + json.dumps([m for m in ("psycopg", "psycopg_pool") if m in sys.modules]),
      file=sys.stderr)
"""


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PG", "REFEREE_"))}
    return subprocess.run(
        [sys.executable, "-c", IMPORTS, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, "PYTHONPATH": str(ROOT)},
    )


def test_act_and_show_on_postgres_load_no_driver(pg_env: dict[str, str], tmp_path: Path) -> None:
    url = pg_url(pg_env)
    svc = RefereeService(GameStore(env=pg_env))
    game = svc.create_game("prizmik", PLAYERS).game_id
    svc.close()
    for args, said, code in (
        (("act", game, "e1>e2"), "recorded e1>e2 by red", 0),
        (("act", game, "e2>e8"), "rejected 'e2>e8' (kept as evidence", 1),
        (("show", game), "blue (Ben) to act", 0),
    ):
        done = _cli(tmp_path, "--db", url, *args)
        assert said in done.stdout + done.stderr, done.stderr
        assert f"CODE {code}" in done.stderr
        assert json.loads(done.stderr.rpartition("LOADED ")[2]) == []
    view = RefereeService(GameStore(env=pg_env)).load(game)
    assert view.version == 3 and view.ply == 1


def test_act_with_no_server_or_an_unknown_role_says_so_in_one_line(
    pg_env: dict[str, str], tmp_path: Path
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    for url, said in (
        (f"postgresql://postgres@127.0.0.1:{port}/test", "Connection refused"),
        (
            pg_url({**pg_env, "POSTGRES_USER": "no_such_role_here"}),
            'role "no_such_role_here" does not exist',
        ),
    ):
        done = _cli(tmp_path, "--db", url, "act", "prizmik-x", "e1>e2")
        lines = done.stderr.rpartition("CODE 2")[0].strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: the store cannot be used: ")
        assert said in lines[0] and "Traceback" not in done.stderr

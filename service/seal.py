"""Sealing the store: signed checkpoints of the store-wide chain (see ``events.ledger``).

``seal`` signs the chain's head with a key kept outside the store and records the
checkpoint in the store too; ``verify_checkpoint`` proves the store, as it is now,
still extends a checkpoint (one published, or every one it recorded).
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import msgspec

from events.ledger import (
    ChainRead,
    Checkpoint,
    CheckpointError,
    check_signature,
    ledger_heads,
    load_private,
    new_key,
    public_hex,
    read_chain,
    sign,
)
from events.store import GameStore
from service.errors import RefusedError

__all__ = [
    "CheckpointReport",
    "chain_report",
    "create_key",
    "recorded_checkpoints",
    "recorded_public_key",
    "seal",
    "verify_checkpoint",
]

TABLE = "referee_checkpoints"
KEYS = "referee_seal_keys"
"""The public keys that sealed this store, each recorded by its first sealing: a checkpoint
names only its key's first 16 hex digits, and a player checking a posting needs the whole
key (the posting page shows it, with those 16 digits as its fingerprint)."""


class CheckpointReport(msgspec.Struct, kw_only=True):
    checkpoint: str
    ok: bool
    detail: str


def create_key(path: str | os.PathLike[str]) -> str:
    """Write a new private key (readable by its owner only) and return its public key (hex)."""
    target = Path(path)
    if target.exists():
        raise RefusedError(f"{target}: a file is already there; a seal key is never overwritten")
    pem, public = new_key()
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(pem)
    return public


def _table(store: GameStore) -> tuple[str, str]:
    """The checkpoints table's name and the placeholder, as the store's database takes them."""
    backend = store.backend
    if backend is None:
        raise RefusedError("checkpoints are kept in a store with tables (SQLite, PostgreSQL)")
    return backend.qualified(TABLE), backend.mark


def _exists(store: GameStore) -> bool:
    return store.backend is not None and store.backend.has_table(TABLE)


def _ensure_table(store: GameStore) -> tuple[str, str]:
    name, mark = _table(store)
    store.ensure_tables()  # the checkpoint sits beside the events (a new store has none yet)
    with store.plain_cursor(write=True) as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {name} (position BIGINT NOT NULL, size BIGINT NOT NULL, "
            "head TEXT NOT NULL, text TEXT NOT NULL)"
        )
    return name, mark


def key_warnings(store: GameStore, key_path: str | os.PathLike[str]) -> list[str]:
    """What is wrong with where the key is kept: inside the store's own folder (whoever can
    change the store can take the key, so checkpoints prove nothing) or readable by others."""
    out: list[str] = []
    key = Path(key_path).resolve()
    db = store.path
    if db and db != ":memory:":
        folder = Path(db).resolve().parent
        if key.is_relative_to(folder):
            out.append(
                f"{key_path} is inside the store's folder {folder}: whoever can change the store "
                "can take the key; keep it on another machine or medium"
            )
    try:
        if key.stat().st_mode & 0o077:
            out.append(f"{key_path} is readable by others than its owner (chmod 600 it)")
    except OSError:
        pass
    return out


def seal(
    store: GameStore,
    key_path: str | os.PathLike[str],
    when: datetime | None = None,
    passphrase: bytes | None = None,
) -> Checkpoint:
    """Sign the head of the store-wide chain as it is now; record the checkpoint."""
    try:
        private = load_private(Path(key_path).read_bytes(), passphrase)
    except OSError as exc:
        raise RefusedError(f"{key_path}: {exc.strerror or exc}") from None
    size = 0
    position, head = 0, "0" * 64
    # B007 on purpose: the last row's position and head are read after the loop
    for position, _, _, _, head in ledger_heads(store):  # noqa: B007
        size += 1
    if size == 0:
        raise RefusedError("the store holds no events yet; there is nothing to seal")
    checkpoint = sign(private, size, position, head, when)
    name, mark = _ensure_table(store)
    with store.plain_cursor(write=True) as cursor:
        cursor.execute(
            f"INSERT INTO {name} (position, size, head, text) VALUES ({mark}, {mark}, {mark}, "
            f"{mark})",
            (position, size, head, checkpoint.text()),
        )
    _record_public_key(store, public_hex(private))
    return checkpoint


def _record_public_key(store: GameStore, public: str) -> None:
    """Keep the whole public key that sealed (once per key): what the pages publish."""
    backend = store.backend
    if backend is None:
        return
    name, mark = backend.qualified(KEYS), backend.mark
    with store.plain_cursor(write=True) as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {name} (prefix TEXT PRIMARY KEY, key TEXT NOT NULL)"
        )
        cursor.execute(
            f"INSERT INTO {name} (prefix, key) VALUES ({mark}, {mark}) ON CONFLICT DO NOTHING",
            (public[:16], public),
        )


def recorded_public_key(store: GameStore, prefix: str) -> str | None:
    """The whole public key (hex) that sealed this store and begins with ``prefix`` (a
    checkpoint's ``key=``), as ``seal`` recorded it; ``None`` when no seal recorded one (a
    store sealed before keys were kept: the head referee publishes it by hand)."""
    backend = store.backend
    if backend is None or not backend.has_table(KEYS):
        return None
    name, mark = backend.qualified(KEYS), backend.mark
    with store.plain_cursor() as cursor:
        cursor.execute(f"SELECT key FROM {name} WHERE prefix = {mark}", (prefix.lower(),))
        row = cursor.fetchone()
    return str(row[0]) if row is not None else None


def recorded_checkpoints(store: GameStore) -> list[Checkpoint]:
    """The checkpoints this store recorded when it was sealed, oldest first."""
    try:
        if not _exists(store):
            return []
        name, _ = _table(store)
    except RefusedError:
        return []
    with store.plain_cursor() as cursor:
        cursor.execute(f"SELECT text FROM {name} ORDER BY position")
        return [Checkpoint.parse(str(row[0])) for row in cursor.fetchall()]


def verify_checkpoint(
    store: GameStore, checkpoint: Checkpoint | str, public_key: str | None = None
) -> CheckpointReport:
    """Whether the store still extends ``checkpoint``: its signature (when a public key is
    given) and the chain recomputed from today's events up to its position."""
    if isinstance(checkpoint, str):
        checkpoint = Checkpoint.parse(checkpoint)
    if public_key is not None:
        try:
            check_signature(checkpoint, public_key)
        except CheckpointError as exc:
            return CheckpointReport(checkpoint=checkpoint.text(), ok=False, detail=str(exc))
    return chain_report(checkpoint, read_chain(store, upto=checkpoint.position), public_key)


def chain_report(
    checkpoint: Checkpoint, chain: ChainRead, public_key: str | None = None
) -> CheckpointReport:
    """Whether ``chain``, read up to the checkpoint's position, is the one it sealed (its
    signature, when ``public_key`` is given, already checked)."""
    text = checkpoint.text()
    size, last, head = chain.size, chain.last, chain.head
    if size != checkpoint.size or last != checkpoint.position:
        return CheckpointReport(
            checkpoint=text,
            ok=False,
            detail=(
                f"the checkpoint covers {checkpoint.size} events up to position "
                f"{checkpoint.position}; the store now holds {size} up to {last}: events were "
                "removed or moved"
            ),
        )
    if head != checkpoint.head:
        return CheckpointReport(
            checkpoint=text,
            ok=False,
            detail=(
                "the events up to the checkpoint are not the ones sealed: one was changed, "
                "replaced or reordered (the chain's head differs)"
            ),
        )
    signed = "signature verified; " if public_key is not None else ""
    return CheckpointReport(
        checkpoint=text,
        ok=True,
        detail=f"{signed}the store extends this checkpoint ({size} events)",
    )

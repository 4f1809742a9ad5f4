"""The store-wide chain and signed checkpoints.

Each game's events are chained to each other; a per-game chain cannot see a whole
game deleted, a stream's tail cut (once the witness projection is rebuilt), or a
game re-sealed after an edit. The *ledger* chains every event of the whole store
in the order the store recorded them (notification order): entry *n* commits to
entry *n-1*, the event's game, number and hash. Its head after *n* events is one
hash that depends on every event so far.

A *checkpoint* is that head, the count and the position, signed with an Ed25519
key kept outside the store (``referee seal``): a short line a head referee can
publish or print on the result sheet. ``referee verify --checkpoint`` recomputes
the chain from the events as they are now and proves the store still extends the
checkpoint; a forger without the key can re-seal a game but not the checkpoint.
Certificate Transparency's signed tree heads are the model (a hash chain here,
not a Merkle tree: a checkpoint is proved by replaying the log up to it).
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from events.store import GameStore

__all__ = ["ChainRead", "Checkpoint", "CheckpointError", "chain", "ledger_heads", "read_chain"]

GENESIS = "0" * 64
FORMAT = "referee-checkpoint/1"
PAGE = 50_000
SCAN_PAGE = 5_000
"""Rows a page for ``read_chain``, which keeps none of a page's but its stream's: a small page
lets the next one reuse the memory of the last (pages of 50,000 rows, 25 MB of bytes each at
a 10,000-player event, were fresh memory every page: a fifth of a posting's check in page
faults)."""


class CheckpointError(ValueError):
    """A checkpoint that cannot be read or whose signature does not verify."""


def link(previous: str, game_id: str, version: int, event_hash: str) -> str:
    """The chain's next head: SHA-256 over the previous head and the event's place and hash."""
    return hashlib.sha256(f"{previous}\n{game_id}\n{version}\n{event_hash}".encode()).hexdigest()


def chain(
    entries: Iterable[tuple[int, str, int, str]], head: str = GENESIS
) -> Iterator[tuple[int, str]]:
    """(position, head after it) for each (position, game, number, hash) in store order."""
    for position, game_id, version, event_hash in entries:
        head = link(head, game_id, version, event_hash)
        yield position, head


def ledger_heads(
    store: GameStore, upto: int | None = None
) -> Iterator[tuple[int, str, int, str, str]]:
    """(position, game, number, event hash, chain head) of every event of the store, in the
    order it recorded them, recomputed from the events as they are now."""
    head = GENESIS
    for position, game_id, version, event_hash in store.event_hashes(upto=upto):
        head = link(head, game_id, version, event_hash)
        yield position, game_id, version, event_hash, head


class ChainRead(msgspec.Struct, kw_only=True):
    """The chain read once up to a position: its size, last position and head, and the rows
    of the one stream kept on the way, in the shapes their check takes them
    (``events.integrity.check_rows``), made as the chain passes them."""

    size: int
    last: int
    head: str
    rows: list[tuple[int, str, bytes]] = []
    """The kept stream's rows: (number, topic, stored bytes)."""
    hashed: dict[int, str] = {}
    """Each kept row's number -> its hash, where the own hash field found in its bytes is the
    hash the chain took for them (``events.codec.bytes_hash``): the row is as sealed."""
    positions: dict[int, int] = {}
    """Each kept row's number -> its position in the store."""


def read_chain(store: GameStore, *, upto: int | None = None, keep: str | None = None) -> ChainRead:
    """``ledger_heads`` to its end, keeping the rows of stream ``keep`` as it passes them: a
    posting's check reads the store once for both the chain and the event's facts under it
    (issue 32 goal 3), where reading the event's stream again cost a second read, decoding
    and hashing of every fact. The same heads as ``ledger_heads``, with its two calls a row
    inlined (135,000 rows of a 10,000-player event: the loop is most of a posting's check)."""
    from events.codec import OWN_HASH, TOPIC_PREFIX

    sha256 = hashlib.sha256
    own_of = OWN_HASH.decode
    prefixes = TOPIC_PREFIX
    unreadable = msgspec.DecodeError
    head = GENESIS
    size = last = 0
    rows: list[tuple[int, str, bytes]] = []
    hashed: dict[int, str] = {}
    positions: dict[int, int] = {}
    for page in store.log_pages(upto=upto, page=SCAN_PAGE):
        size += len(page)
        last = page[-1][0]
        for position, game_id, version, topic, state in page:
            try:  # ``own_hash``, inlined
                own = own_of(state).hash
            except unreadable:
                own = ""
            # ``stored_hash``, inlined: the bytes with their own hash field blanked
            event_hash = sha256(
                (prefixes.get(topic) or topic.encode() + b"\n")
                + state.replace(b'"hash":"' + own.encode() + b'"', b'"hash":""', 1)
            ).hexdigest()
            head = sha256(f"{head}\n{game_id}\n{version}\n{event_hash}".encode()).hexdigest()
            if game_id == keep:
                rows.append((version, topic, state))
                if own == event_hash:  # one string a row, not two (135,000 rows)
                    hashed[version] = own
                positions[version] = position
    return ChainRead(size=size, last=last, head=head, rows=rows, hashed=hashed, positions=positions)


class Checkpoint(msgspec.Struct, frozen=True, kw_only=True):
    """A signed statement of the store's chain: ``size`` events, the last at ``position``."""

    size: int
    position: int
    head: str
    time: str
    key: str
    signature: str = ""

    def message(self) -> bytes:
        return (
            f"{FORMAT}\nsize={self.size}\nposition={self.position}\nhead={self.head}\ntime={self.time}"
        ).encode()

    def text(self) -> str:
        """One line to publish:
        ``referee-checkpoint/1 size=.. position=.. head=.. time=.. key=.. sig=..``."""
        return (
            f"{FORMAT} size={self.size} position={self.position} head={self.head} time={self.time} "
            f"key={self.key} sig={self.signature}"
        )

    @classmethod
    def parse(cls, text: str) -> Checkpoint:
        parts = text.strip().split()
        if not parts or parts[0] != FORMAT:
            raise CheckpointError(f"a checkpoint starts with {FORMAT}")
        fields: dict[str, str] = {}
        for part in parts[1:]:
            key, sep, value = part.partition("=")
            if not sep:
                raise CheckpointError(f"cannot read {part!r} in the checkpoint")
            fields[key] = value
        try:
            return cls(
                size=int(fields["size"]),
                position=int(fields["position"]),
                head=fields["head"],
                time=fields["time"],
                key=fields["key"],
                signature=fields["sig"],
            )
        except (KeyError, ValueError) as exc:
            raise CheckpointError(f"the checkpoint lacks or garbles {exc}") from None


# -- keys and signatures (Ed25519 through the maintained ``cryptography`` library) --------


def new_key() -> tuple[bytes, str]:
    """A new private key (PEM) and its public key (hex)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return pem, public_hex(private)


def public_hex(private: Any) -> str:
    from cryptography.hazmat.primitives import serialization

    raw: bytes = private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    return raw.hex()


def is_encrypted(pem: bytes) -> bool:
    """Whether ``pem`` holds a private key encrypted with a passphrase."""
    return b"ENCRYPTED" in pem.split(b"\n", 1)[0]


def load_private(pem: bytes, passphrase: bytes | None = None) -> Any:
    """The Ed25519 private key in ``pem``, decrypted with ``passphrase`` when it is encrypted."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if not is_encrypted(pem):
        passphrase = None
    elif not passphrase:
        raise CheckpointError(
            "the key is encrypted: give its passphrase in REFEREE_KEY_PASSPHRASE or at the prompt"
        )
    try:
        key = serialization.load_pem_private_key(pem, password=passphrase)
    except (ValueError, TypeError) as exc:
        raise CheckpointError(
            f"not an Ed25519 private key in PEM, or a wrong passphrase: {exc}"
        ) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise CheckpointError("the key is not an Ed25519 key")
    return key


def sign(
    private: Any, size: int, position: int, head: str, when: datetime | None = None
) -> Checkpoint:
    public = public_hex(private)
    stamp = (when or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    unsigned = Checkpoint(size=size, position=position, head=head, time=stamp, key=public[:16])
    signature = base64.b64encode(private.sign(unsigned.message())).decode()
    return msgspec.structs.replace(unsigned, signature=signature)


def check_signature(checkpoint: Checkpoint, public: str) -> None:
    """Raise ``CheckpointError`` unless ``public`` (hex) signed ``checkpoint``."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    public = public.strip().lower()  # hex is one key whatever its case
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public))
    except ValueError as exc:
        raise CheckpointError(f"not an Ed25519 public key in hex: {exc}") from None
    if not public.startswith(checkpoint.key.lower()):
        raise CheckpointError(
            f"the checkpoint was signed with key {checkpoint.key}..., not this one"
        )
    try:
        key.verify(base64.b64decode(checkpoint.signature), checkpoint.message())
    except (InvalidSignature, ValueError):
        raise CheckpointError(
            "the checkpoint's signature does not verify: it was not made with this key, "
            "or it was changed"
        ) from None

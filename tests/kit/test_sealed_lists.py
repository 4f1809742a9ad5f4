"""Sealed lists (REF-5.2, REF-5.3): the v2 commitment separates salt from list and opens
only with a salt of 128 bits; v1 commitments kept in stores open as before."""

from __future__ import annotations

import hashlib

import msgspec
import pytest

from referee.errors import DeckError
from referee.kit.decks import (
    COMMITMENT_PREFIX,
    DeckKnowledge,
    SealedDeck,
    commitment,
    parse_decklist,
    seal,
)

LIST = parse_decklist("1 Xeno\n1 Yarrow")
SALT = "0123456789abcdef0123456789abcdef"


def test_a_new_seal_is_v2_and_opens_with_its_salt() -> None:
    """REF-5.3: a list sealed now carries the v2 form and opens with the salt it was made with."""
    sealed = seal(LIST, SALT)
    assert sealed.version == 2
    assert sealed.commitment.startswith("v2-")
    knowledge = DeckKnowledge.registered("p1", sealed)
    assert knowledge.check_open(LIST, SALT, "REF-5.3").legal
    assert not knowledge.check_open(LIST, SALT[:-1] + "0", "REF-5.3").legal


def test_v1_let_a_newline_in_the_salt_move_the_boundary_and_v2_does_not() -> None:
    """REF-5.2: under v1 the salt 's' with list {Xeno, Yarrow} and the salt 's\\n1 Xeno' with
    list {Yarrow} commit to the same bytes; v2's length-prefixed fields tell them apart."""
    other = parse_decklist("1 Yarrow")
    assert commitment(LIST, "s", version=1) == commitment(other, "s\n1 Xeno", version=1)
    assert commitment(LIST, "s" * 32) != commitment(other, "s" * 32 + "\n1 Xeno")
    assert commitment(LIST, "s") != commitment(other, "s\n1 Xeno")


def test_the_v2_commitment_is_domain_separated_and_length_prefixed() -> None:
    def field(data: bytes) -> bytes:
        return len(data).to_bytes(8, "big") + data

    expected = hashlib.sha256(
        field(b"referee-sealed-list-v2") + field(SALT.encode()) + field(LIST.canonical())
    ).hexdigest()
    assert commitment(LIST, SALT) == "v2-" + expected


def test_sealing_refuses_a_salt_under_128_bits() -> None:
    with pytest.raises(DeckError, match="at least 32 characters"):
        seal(LIST, "a" * 31)


def test_opening_a_v2_seal_refuses_a_short_salt() -> None:
    """REF-5.3: a v2 commitment opens only with a salt of 32 characters or more."""
    short = "short-salt"
    sealed = SealedDeck(commitment(LIST, short), LIST.size)
    verdict = DeckKnowledge.registered("p1", sealed).check_open(LIST, short, "REF-5.3")
    assert not verdict.legal
    assert verdict.violations[0].clause == "REF-5.3"
    assert "at least 32 characters" in verdict.violations[0].reason


def test_a_stored_v1_commitment_still_opens_with_its_short_salt() -> None:
    """Stores written before v2 keep bare 64-digit commitments: they open as before."""
    salt = "sixteen-chars-ok"
    digest = hashlib.sha256(COMMITMENT_PREFIX + salt.encode() + b"\n" + LIST.canonical())
    stored = SealedDeck(digest.hexdigest(), LIST.size)
    assert stored.version == 1
    knowledge = DeckKnowledge.registered("p1", stored)
    assert knowledge.check_open(LIST, salt, "REF-5.3").legal
    assert not knowledge.check_open(LIST, salt + "x", "REF-5.3").legal


def test_a_v1_sealed_deck_encodes_as_before_and_both_forms_parse() -> None:
    v1 = SealedDeck("a" * 64, 40)
    assert (
        msgspec.json.encode(v1) == b'{"type":"sealed","commitment":"' + b"a" * 64 + b'","size":40}'
    )
    assert SealedDeck.parse(f"{'A' * 64}:40") == v1
    v2 = seal(LIST, SALT)
    assert SealedDeck.parse(f"{v2.commitment}:{v2.size}") == v2
    assert SealedDeck.parse(str(v2)) == v2
    with pytest.raises(DeckError):
        SealedDeck.parse("v3-" + "a" * 64 + ":40")

"""Decklists: registered before play, open or sealed, and what play reveals of them.

A tournament registers each player's list before the round. Registered openly,
the list is known to the referee (and never shown to the other seats or the
public); registered *sealed*, only a salted SHA-256 commitment and the card count
are recorded, and the list is opened at a deck check or at the end, when the
commitment proves it is the list registered and every card seen in the game is
checked against it.

``DeckKnowledge`` is what the referee knows of one seat's cards during play: the
list (when open), and the cards identified so far. A card a game reports as seen
must be one of the list's cards not already accounted for.

Salts are drawn by the application layer; nothing here is random.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, TypeVar

import msgspec

from referee.errors import DeckError, quoted
from referee.kit.multiset import Multiset
from referee.verdicts import LEGAL, Verdict

__all__ = [
    "Deck",
    "DeckKnowledge",
    "Decklist",
    "SealedDeck",
    "commitment",
    "deck_digest",
    "parse_decklist",
    "salt_problem",
    "seal",
    "with_seat_knowledge",
]

COMMITMENT_PREFIX = b"referee-deck/1\n"
"""The first form (v1): prefix, salt, newline, list. A salt holding a newline could be
split from the list another way, so it is only opened, never made, now."""
SEALED_LIST_TAG = b"referee-sealed-list-v2"
"""The domain of the second form (v2): tag, salt and list, each prefixed by its length."""
V2_MARK = "v2-"
"""How a v2 commitment begins; a bare 64-digit commitment is v1 (stores from before)."""
MIN_SALT = 32
"""Characters a v2 salt needs: 128 bits as 32 hex digits, as ``seal_decklist`` draws them."""


class Decklist(msgspec.Struct, frozen=True, gc=False, tag="list"):
    """A registered list: card names and counts."""

    cards: Multiset

    @property
    def size(self) -> int:
        return self.cards.total

    def canonical(self) -> bytes:
        """One ``COUNT NAME`` line per card, sorted by name: the bytes a seal commits to."""
        return "".join(f"{count} {name}\n" for name, count in self.cards.items).encode()

    def text(self) -> str:
        return self.canonical().decode()


class SealedDeck(msgspec.Struct, frozen=True, gc=False, tag="sealed", omit_defaults=True):
    """A list registered sealed: its commitment and how many cards it holds.

    The commitment carries its form: ``v2-`` and 64 hex digits for seals made now,
    64 bare hex digits for the first form, which stored games keep (``version``).
    A list withheld from a viewer has no commitment (``""``); ``shown`` then names its
    cards the setup put in everyone's sight (a Crystale Summoner starts on the board),
    so a public record still starts from the position everyone saw."""

    commitment: str
    size: int
    shown: tuple[str, ...] = ()

    @property
    def version(self) -> int:
        """1 or 2: the form of the commitment (see ``commitment``)."""
        return 2 if self.commitment.startswith(V2_MARK) else 1

    @classmethod
    def parse(cls, text: str) -> SealedDeck:
        """Read ``COMMITMENT:SIZE``, the form ``referee deck seal`` prints."""
        commitment, _, size = text.strip().partition(":")
        digits = commitment[len(V2_MARK) :] if commitment.startswith(V2_MARK) else commitment
        if (
            len(digits) != 64
            or not size.isdigit()
            or any(c not in "0123456789abcdefABCDEF" for c in digits)
        ):
            raise DeckError(
                f"a sealed list is COMMITMENT:SIZE (v2- and 64 hex digits, a count) as "
                f"'referee deck seal' printed it, not {quoted(text)}"
            )
        return cls(commitment.lower(), int(size))

    def __str__(self) -> str:
        return f"{self.commitment}:{self.size}"


Deck = Decklist | SealedDeck


def deck_digest(deck: Deck) -> str:
    """SHA-256 of ``deck`` as its kind and its canonical form: the same for the same list (its
    cards and counts, in whatever order they were typed) or the same seal, and for no other.
    What an event compares a list attached again with (EV-2.8): its facts do not hold lists."""
    import hashlib  # as in ``commitment``: loaded only when a list is compared

    if isinstance(deck, Decklist):
        return hashlib.sha256(b"list\n" + deck.canonical()).hexdigest()
    return hashlib.sha256(b"sealed\n" + str(deck).encode()).hexdigest()


def _field(data: bytes) -> bytes:
    """``data`` after its length in 8 bytes: fields that no content can run into."""
    return len(data).to_bytes(8, "big") + data


def commitment(decklist: Decklist, salt: str, version: int = 2) -> str:
    """The commitment to ``decklist`` under ``salt``.

    v2 (made now): ``v2-`` and SHA-256 over the tag ``referee-sealed-list-v2``, the salt
    and the canonical list, each after its length, so no salt and list can be read as
    another pair. v1 (kept for stored games): SHA-256 over a prefix, the salt, a newline
    and the list."""
    import hashlib  # here: a command that never seals a list loads no digest (OpenSSL's)

    if version == 1:
        digest = hashlib.sha256(COMMITMENT_PREFIX)
        digest.update(salt.encode() + b"\n")
        digest.update(decklist.canonical())
        return digest.hexdigest()
    fields = _field(SEALED_LIST_TAG) + _field(salt.encode()) + _field(decklist.canonical())
    return V2_MARK + hashlib.sha256(fields).hexdigest()


def salt_problem(salt: str) -> str | None:
    """Why ``salt`` is too short for a v2 seal, or ``None``."""
    if len(salt) < MIN_SALT:
        return (
            f"a salt of at least {MIN_SALT} characters (128 bits as hex digits) keeps a sealed "
            f"list from being guessed; this one has {len(salt)}"
        )
    return None


def seal(decklist: Decklist, salt: str) -> SealedDeck:
    """A v2 sealed registration of ``decklist``; ``DeckError`` for a salt too short."""
    problem = salt_problem(salt)
    if problem:
        raise DeckError(problem)
    return SealedDeck(commitment(decklist, salt), decklist.size)


_LINE = re.compile(r"^(?:(\d+)[xX]?\s+(.+?)|(.+?)\s+[xX]\s*(\d+)|(.+?))$")


def parse_decklist(text: str, source: str = "decklist") -> Decklist:
    """Read a list: one card a line (``4 Fire Imp``, ``4x Fire Imp``, ``Fire Imp x4`` or
    ``Fire Imp`` for one copy), ``#`` comments; or JSON ``{"Fire Imp": 4, ...}``."""
    stripped = text.strip()
    counts: dict[str, int] = {}
    if stripped.startswith("{"):
        import json

        try:
            data: Any = json.loads(stripped)
        except (ValueError, RecursionError) as exc:
            raise DeckError(f"{source}: not a JSON object of card counts: {exc}") from None
        if not isinstance(data, dict) or not all(
            isinstance(k, str) and type(v) is int for k, v in data.items()
        ):
            raise DeckError(f"{source}: a JSON decklist maps card names to whole counts")
        pairs = list(data.items())
    else:
        pairs = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            match = _LINE.match(line)
            if match is None:  # pragma: no cover - the last alternative takes any text
                raise DeckError(f"{source}:{number}: cannot read {quoted(line)}")
            if match.group(2):
                pairs.append((match.group(2), int(match.group(1))))
            elif match.group(3):
                pairs.append((match.group(3), int(match.group(4))))
            else:
                pairs.append((match.group(5), 1))
            if pairs[-1][1] < 1:
                raise DeckError(f"{source}:{number}: a count must be at least 1")
    for name, count in pairs:
        name = " ".join(name.split())
        if not name:
            raise DeckError(f"{source}: a card needs a name")
        if count < 1:
            raise DeckError(f"{source}: {name}: a count must be at least 1")
        counts[name] = counts.get(name, 0) + count
    if not counts:
        raise DeckError(f"{source}: the list names no cards")
    return Decklist(Multiset.of(counts))


class DeckKnowledge(msgspec.Struct, frozen=True, gc=False):
    """What the referee knows of ``seat``'s registered cards during play.

    ``listed`` is the list when it is known (registered openly, or a sealed list
    once opened); ``sealed`` the commitment of a sealed registration. ``seen``
    counts the seat's cards identified outside hidden piles right now (a card
    shuffled back stops being seen); ``most_seen`` the most of each card seen at
    once, which an opened list must cover.
    """

    seat: str
    size: int
    listed: Decklist | None = None
    sealed: str | None = None
    seen: Multiset = Multiset()
    most_seen: Multiset = Multiset()

    @classmethod
    def registered(cls, seat: str, deck: Deck) -> DeckKnowledge:
        if isinstance(deck, Decklist):
            return cls(seat, deck.size, listed=deck)
        return cls(seat, deck.size, sealed=deck.commitment)

    def unaccounted(self) -> Multiset | None:
        """The list's cards not seen now, or ``None`` while the list is not known."""
        if self.listed is None:
            return None
        return self.listed.cards.minus(self.seen)

    def check_seen(self, card: str, clause: str) -> Verdict:
        """Whether ``card`` can be one of this seat's cards, given what is known."""
        if self.listed is None:
            return LEGAL
        allowed = self.listed.cards.count(card)
        # The list is for the seat and the referee: others read that it refuses the card,
        # never whether the card is missing from it or how many copies it holds.
        shown = f"{self.seat}'s registered list does not allow one more of the card named"
        if allowed == 0:
            return Verdict.illegal(
                clause,
                f"{card} is not in {self.seat}'s registered list",
                seen_by=self.seat,
                shown=shown,
            )
        if self.seen.count(card) >= allowed:
            copies = "the only copy" if allowed == 1 else f"all {allowed} copies"
            return Verdict.illegal(
                clause,
                f"{self.seat}'s registered list has {allowed} {card}; {copies} already seen",
                seen_by=self.seat,
                shown=shown,
            )
        return LEGAL

    def with_seen(self, card: str) -> DeckKnowledge:
        seen = self.seen.plus([card])
        most = self.most_seen
        if seen.count(card) > most.count(card):
            most = most.plus([card])
        return msgspec.structs.replace(self, seen=seen, most_seen=most)

    def with_unseen(self, card: str) -> DeckKnowledge:
        """A seen card went back into a hidden pile (shuffled into the deck, say)."""
        if not self.seen.count(card):
            return self
        return msgspec.structs.replace(self, seen=self.seen.minus([card]))

    def check_open(self, decklist: Decklist, salt: str, clause: str) -> Verdict:
        """Whether ``decklist`` and ``salt`` open this seat's sealed registration."""
        if self.sealed is None:
            return Verdict.illegal(
                clause, f"{self.seat}'s list was registered openly; there is nothing to open"
            )
        if self.listed is not None:
            return Verdict.illegal(clause, f"{self.seat}'s sealed list was already opened")
        version = SealedDeck(self.sealed, self.size).version
        problem = salt_problem(salt) if version == 2 else None
        if problem:
            return Verdict.illegal(clause, problem)
        if commitment(decklist, salt, version) != self.sealed:
            return Verdict.illegal(
                clause, f"this list and salt do not match the list {self.seat} sealed before play"
            )
        if decklist.size != self.size:
            return Verdict.illegal(
                clause, f"{self.seat} sealed {self.size} cards; this list has {decklist.size}"
            )
        short = decklist.cards.missing(self.most_seen)
        if short:
            return Verdict.illegal(
                clause,
                f"cards {self.seat} showed in play are not in the sealed list: {short.text()}",
            )
        return LEGAL

    def opened(self, decklist: Decklist) -> DeckKnowledge:
        return msgspec.structs.replace(self, listed=decklist)

    def view(self, viewer_may_see_list: bool) -> dict[str, Any]:
        """JSON-ready data for a view: the list only for the seat itself and the referee."""
        data: dict[str, Any] = {
            "size": self.size,
            "sealed": self.sealed is not None,
            "opened": self.sealed is not None and self.listed is not None,
            "seen": self.seen.as_dict(),
        }
        if viewer_may_see_list and self.listed is not None:
            data["list"] = self.listed.cards.as_dict()
            unaccounted = self.unaccounted()
            data["unaccounted"] = unaccounted.as_dict() if unaccounted is not None else None
        return data


class _Sided(Protocol):
    """A game state that keeps one side a seat, in seat order, each with its ``knowledge``."""

    @property
    def sides(self) -> tuple[Any, ...]: ...


SidedT = TypeVar("SidedT", bound=_Sided)


def with_seat_knowledge(state: SidedT, index: int, knowledge: DeckKnowledge) -> SidedT:
    """``state`` with the ``index``-th side's deck knowledge replaced: the contract's
    ``with_deck_knowledge`` (a list opened, a card seen) for every game that keeps its
    knowledge on its sides (Crystale, Gammasphere), which each wrote the same steps."""
    sides = list(state.sides)
    sides[index] = msgspec.structs.replace(sides[index], knowledge=knowledge)
    struct: Any = state  # a msgspec struct, as every state is; the protocol cannot say so
    changed: SidedT = msgspec.structs.replace(struct, sides=tuple(sides))
    return changed

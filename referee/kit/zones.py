"""``HiddenZone``: a pile the referee cannot look into (a hand, a deck), kept as what
is known of it.

The referee sees how many cards a player holds, and sometimes which: a card
revealed and put back, a card drawn face up. A hidden zone is therefore a count
plus the cards known to be in it; the rest are unknown. Taking a card out names
it (a card played from hand) or not (a card discarded face down); the kit keeps
the two consistent and refuses what cannot have happened (taking from an empty
zone), and the game turns a refusal into a clause-cited rejection.
"""

from __future__ import annotations

import msgspec

from referee.kit.multiset import Multiset

__all__ = ["HiddenZone", "ZoneError"]


class ZoneError(ValueError):
    """A change a hidden zone cannot take: more cards out than it holds."""


class HiddenZone(msgspec.Struct, frozen=True, gc=False):
    """A pile of ``count`` cards owned by ``owner``, of which ``known`` are identified."""

    owner: str
    count: int = 0
    known: Multiset = Multiset()

    @property
    def unknown(self) -> int:
        return self.count - self.known.total

    def put_unseen(self, n: int = 1) -> HiddenZone:
        """``n`` cards go in face down (a draw from a deck nobody saw)."""
        if n < 0:
            raise ZoneError(f"cannot put {n} cards into {self.owner}'s zone")
        return HiddenZone(self.owner, self.count + n, self.known)

    def put_known(self, card: str) -> HiddenZone:
        """A card everyone saw goes in (a revealed card returned to hand)."""
        return HiddenZone(self.owner, self.count + 1, self.known.plus([card]))

    def take_unseen(self, n: int = 1) -> HiddenZone:
        """``n`` cards leave without being shown. Any of them may have been a known
        card, so nothing stays known for certain."""
        if n < 0 or n > self.count:
            raise ZoneError(f"{self.owner} holds {self.count} cards here; {n} cannot leave")
        return HiddenZone(self.owner, self.count - n, Multiset() if n else self.known)

    def take_known(self, card: str) -> HiddenZone:
        """A named card leaves (played, revealed); it was known, or one of the unknown."""
        if self.count == 0:
            raise ZoneError(f"{self.owner} holds no cards here; {card} cannot come from it")
        if self.known.count(card):
            return HiddenZone(self.owner, self.count - 1, self.known.minus([card]))
        if self.unknown == 0:
            raise ZoneError(
                f"every card {self.owner} holds here is known ({self.known.text()}); {card} is "
                "not one"
            )
        return HiddenZone(self.owner, self.count - 1, self.known)

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

from typing import Any, TypeVar

import msgspec

from referee.kit.multiset import Multiset

__all__ = ["HiddenZone", "ZoneError", "kept_private", "private_data", "private_text"]

SideT = TypeVar("SideT", bound=msgspec.Struct)


class ZoneError(ValueError):
    """A change a hidden zone cannot take: more cards out than it holds."""


class HiddenZone(msgspec.Struct, frozen=True, gc=False):
    """A pile of ``count`` cards owned by ``owner``, of which ``known`` are identified to
    everyone; ``private`` are cards among the rest that only the owner and the referee
    identified (a card an adjustment put there out of the others' sight, REF-6.6): what
    the owner's and the referee's views show, never the others', and never counted as
    seen."""

    owner: str
    count: int = 0
    known: Multiset = Multiset()
    private: Multiset = Multiset()

    @property
    def unknown(self) -> int:
        """Cards not known to everyone (the privately identified among them)."""
        return self.count - self.known.total

    def put_unseen(self, n: int = 1) -> HiddenZone:
        """``n`` cards go in face down (a draw from a deck nobody saw)."""
        if n < 0:
            raise ZoneError(f"cannot put {n} cards into {self.owner}'s zone")
        return HiddenZone(self.owner, self.count + n, self.known, self.private)

    def put_known(self, card: str) -> HiddenZone:
        """A card everyone saw goes in (a revealed card returned to hand)."""
        return HiddenZone(self.owner, self.count + 1, self.known.plus([card]), self.private)

    def with_private(self, card: str) -> HiddenZone:
        """The zone with one of its unidentified cards identified as ``card`` to its owner
        and the referee only (a card just put in out of the others' sight, REF-6.6); as it
        was when every card in it is already identified."""
        if self.unknown - self.private.total <= 0:
            return self
        return HiddenZone(self.owner, self.count, self.known, self.private.plus([card]))

    def take_unseen(self, n: int = 1) -> HiddenZone:
        """``n`` cards leave without being shown. Any of them may have been a known
        card, so nothing stays known for certain."""
        if n < 0 or n > self.count:
            raise ZoneError(f"{self.owner} holds {self.count} cards here; {n} cannot leave")
        if not n:
            return self
        return HiddenZone(self.owner, self.count - n)

    def take_known(self, card: str) -> HiddenZone:
        """A named card leaves (played, revealed); it was known, or one of the unknown
        (one identified privately, or else one not identified at all: when none such is
        left, what was identified privately is no longer certain)."""
        if self.count == 0:
            raise ZoneError(f"{self.owner} holds no cards here; {card} cannot come from it")
        if self.known.count(card):
            return HiddenZone(self.owner, self.count - 1, self.known.minus([card]), self.private)
        if self.unknown == 0:
            raise ZoneError(
                f"every card {self.owner} holds here is known ({self.known.text()}); {card} is "
                "not one"
            )
        if self.private.count(card):
            return HiddenZone(self.owner, self.count - 1, self.known, self.private.minus([card]))
        private = self.private if self.unknown > self.private.total else Multiset()
        return HiddenZone(self.owner, self.count - 1, self.known, private)


def private_data(**zones: HiddenZone) -> dict[str, Any]:
    """The cards each of ``zones`` holds that only its owner and the referee identified
    (REF-6.6), as JSON-ready data keyed ``NAME_private``: for a view of the owner or the
    referee only, and only the zones holding such cards (an older view's keys unchanged)."""
    return {
        f"{name}_private": zone.private.as_dict() for name, zone in zones.items() if zone.private
    }


def private_text(zone: HiddenZone) -> str:
    """`` (seen by p1 and the referee only: 1 Pylon)``, or nothing: for a view of the zone's
    owner or the referee only (REF-6.6)."""
    if not zone.private:
        return ""
    return f" (seen by {zone.owner} and the referee only: {zone.private.text()})"


def kept_private(side: SideT, zone: str, card: str) -> SideT | None:
    """``side`` with ``card``, just moved unseen into its hidden ``zone``, known to its seat
    and the referee only (REF-6.6); ``None`` where ``zone`` is no hidden zone of the side."""
    pile = getattr(side, zone, None)
    if not isinstance(pile, HiddenZone):
        return None
    return msgspec.structs.replace(side, **{zone: pile.with_private(card)})

"""Pool construction (CR-3, CR-I.21): what a registered pool of 31 crystals must hold."""

from __future__ import annotations

from referee.games.crystale.catalog import Book
from referee.kit.decks import DeckKnowledge, Decklist
from referee.kit.names import spelling_hint
from referee.verdicts import LEGAL, Verdict, Violation

__all__ = ["POOL_SIZE", "check_named", "check_pool", "check_pool_size"]

POOL_SIZE = 31
MOST_COPIES = 4
MOST_SERVANTS = 10
FEWEST_SERVANTS = 3
MOST_GODS = 1


def check_pool_size(seat: str, size: int) -> Verdict:
    """CR-3.1: a pool, open or sealed, holds 31 crystals."""
    if size != POOL_SIZE:
        return Verdict.illegal(
            "CR-3.1", f"{seat}'s sealed pool has {size} crystals; it must have {POOL_SIZE}"
        )
    return LEGAL


def check_pool(book: Book, seat: str, decklist: Decklist) -> Verdict:
    """CR-3: 31 crystals of one element from the catalog, at most 4 of each, exactly one
    Summoner, 3 to 10 Servants (CR-I.21), at most one God crystal."""
    found: list[Violation] = []
    kinds = {"summoner": 0, "servant": 0, "spell": 0, "god": 0}
    elements: dict[str, int] = {}
    for name, count in decklist.cards.items:
        crystal = book.crystals.get(name)
        if crystal is None:
            near = book.find(name)
            hint = spelling_hint(name, None if near is None else near.name, book.crystals)
            found.append(Violation("CR-3.7", f"{name} is not a crystal of the catalog{hint}"))
            continue
        kinds[crystal.kind] += count
        elements[crystal.element] = elements.get(crystal.element, 0) + count
        if count > MOST_COPIES:
            found.append(Violation("CR-3.3", f"{count} copies of {name}; at most {MOST_COPIES}"))
    if decklist.size != POOL_SIZE:
        found.append(
            Violation(
                "CR-3.1",
                f"{seat}'s pool has {decklist.size} crystals; it must have {POOL_SIZE}",
            )
        )
    if len(elements) > 1:
        mix = ", ".join(f"{n} {e}" for e, n in sorted(elements.items()))
        found.append(Violation("CR-3.2", f"a pool is of one element; this one mixes {mix}"))
    if kinds["summoner"] != 1:
        found.append(
            Violation(
                "CR-3.4",
                f"a pool holds exactly 1 Summoner crystal; this one {kinds['summoner']}",
            )
        )
    if kinds["servant"] > MOST_SERVANTS:
        found.append(
            Violation("CR-3.5", f"{kinds['servant']} Servant crystals; at most {MOST_SERVANTS}")
        )
    elif kinds["servant"] < FEWEST_SERVANTS:
        found.append(
            Violation(
                "CR-I.21",
                f"{kinds['servant']} Servant crystals; an opening hand needs "
                f"{FEWEST_SERVANTS}, so a pool holds at least {FEWEST_SERVANTS}",
            )
        )
    if kinds["god"] > MOST_GODS:
        found.append(Violation("CR-3.6", f"{kinds['god']} God crystals; at most {MOST_GODS}"))
    return Verdict(tuple(found)) if found else LEGAL


def check_named(book: Book, knowledge: DeckKnowledge | None, name: str, clause: str) -> Verdict:
    """CR-12.3: whether the catalog crystal ``name`` can be one more crystal of a seat's
    registered pool, given the crystals identified from it now.

    An open pool's list says it (``DeckKnowledge.check_seen``). A sealed pool's list is
    not known, but it is a pool: whatever is seen of it at once must fit CR-3, so a
    crystal of another element than the ones seen (its Summoner's, CR-3.2), a fifth copy
    (CR-3.3), an eleventh Servant (CR-3.5) or a second God (CR-3.6) cannot come from it.
    The crystals seen are public, so the reason names them.
    """
    if knowledge is None:
        return LEGAL
    if knowledge.listed is not None:
        return knowledge.check_seen(name, clause)
    crystal = book.crystals[name]
    seen = knowledge.seen
    who = knowledge.seat
    others = sorted({book.crystals[n].element for n in seen.names()} - {crystal.element})
    if others:
        return Verdict.illegal(
            clause,
            f"{crystal.name} is a {crystal.element} crystal; {who}'s pool is of one element "
            f"and the crystals seen from it are {', '.join(others)} (CR-3.2)",
        )
    if seen.count(crystal.name) >= MOST_COPIES:
        return Verdict.illegal(
            clause,
            f"{MOST_COPIES} copies of {crystal.name} are already seen from {who}'s pool, "
            f"which holds at most {MOST_COPIES} (CR-3.3)",
        )
    limits = {"servant": (MOST_SERVANTS, "CR-3.5"), "god": (MOST_GODS, "CR-3.6")}
    if crystal.kind in limits:
        most, rule = limits[crystal.kind]
        count = sum(n for c, n in seen.items if book.crystals[c].kind == crystal.kind)
        if count >= most:
            return Verdict.illegal(
                clause,
                f"{count} {crystal.kind} crystal(s) are already seen from {who}'s pool, "
                f"which holds at most {most} ({rule}); {crystal.name} cannot be another",
            )
    return LEGAL

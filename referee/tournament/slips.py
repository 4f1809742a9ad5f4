"""Reading result slips: ``W-L-D`` for a two-player match, ``1:Ann,2:Ben,2:Cal,4:Dee`` (or the
older ``Ann>Ben=Cal>Dee``, which a shell reads as a redirection unless quoted) for a pod.

A slip is checked against the match format (EV-3.2) before anything is stored.
Limits, for a match needing ``n`` game wins (bo1: 1, bo3: 2, bo5: 3):

* each side has at most ``n`` wins, and not both ``n``;
* decisive games number at most ``2n - 1`` (a bo3 has at most three);
* drawn games number at most ``2n - 1`` too: a drawn game does not count toward
  the games a match needs, so a match may run past its nominal length, but a
  table reporting more draws than the match could hold games is a typing slip;
* a match nobody has won when time is called is valid as it stands (``1-0-0``,
  ``0-0-1``, ``2-0-1``, ``0-0-3``: EV-3.3), and ``0-0-0`` is a drawn match with
  no game played (an intentional draw, EV-3.4).

In an elimination or cut round a drawn match is refused: a playoff match needs a
winner (EV-6.4, after MTR 2.4).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from referee.errors import quoted
from referee.tournament.errors import Refusal
from referee.tournament.model import MatchFormat, Placement, Score, games_to_win

__all__ = [
    "decided",
    "is_match_slip",
    "parse_placement",
    "parse_slip",
    "placement_order",
    "validate_score",
]

# ASCII digits only (issue 31): ``\d`` would take "２" or "٢" as a 2.
_SLIP = re.compile(r"^\s*([0-9]{1,2})\s*-\s*([0-9]{1,2})(?:\s*-\s*([0-9]{1,2}))?\s*$", re.ASCII)


def is_match_slip(text: str) -> bool:
    """Whether ``text`` is written as a two-player slip ``W-L-D`` (or ``W-L``)."""
    return _SLIP.match(text) is not None


def parse_slip(text: str, match: MatchFormat, *, playoff: bool = False) -> Score:
    """Read ``W-L-D`` (``W-L`` means no drawn game) and check it fits ``match``."""
    found = _SLIP.match(text)
    if not found:
        raise Refusal(
            "EV-3.1",
            f"cannot read {quoted(text)} as a match slip: write games won by the first-listed "
            "player, by the second, and drawn games, as W-L-D (for example 2-1-0)",
        )
    wins, losses, draws = (int(g) if g else 0 for g in found.groups())
    score = Score(wins, losses, draws)
    validate_score(score, match, playoff=playoff)
    return score


def validate_score(score: Score, match: MatchFormat, *, playoff: bool = False) -> None:
    """Raise a refusal if ``score`` is impossible for ``match`` (limits in the module doc)."""
    need = games_to_win(match)
    most = 2 * need - 1
    text = score.text
    if min(score.wins, score.losses, score.draws) < 0:
        raise Refusal("EV-3.2", f"{text}: game counts cannot be negative")
    if score.wins > need or score.losses > need:
        raise Refusal("EV-3.2", f"{text}: a {match} match ends when a player wins {need} game(s)")
    if score.wins == need and score.losses == need:
        raise Refusal("EV-3.2", f"{text}: both players cannot have won a {match} match")
    if score.wins + score.losses > most:
        raise Refusal("EV-3.2", f"{text}: a {match} match has at most {most} decisive games")
    if score.draws > most:
        raise Refusal(
            "EV-3.2", f"{text}: more drawn games than a {match} match could hold ({most})"
        )
    if playoff and score.winner is None:
        raise Refusal(
            "EV-6.4",
            f"{text} is a drawn match, and a playoff match needs a winner: play on until "
            "one player has won more games",
        )


def decided(score: Score, match: MatchFormat) -> bool:
    """Whether the games alone have settled the match (one side reached the wins needed)."""
    need = games_to_win(match)
    return score.wins >= need or score.losses >= need


_PLACED = re.compile(r"^\s*(\d{1,2})\s*:\s*(.+?)\s*$")


def placement_order(text: str) -> str:
    """The safe pod slip ``1:Ann,2:Ben,2:Cal`` (EV-7.5) as the finishing order
    ``Ann>Ben=Cal``; any other text is given back as it is. Places are separated by commas,
    or by spaces when there is no comma; equal numbers share a place and only the order of
    the numbers counts (``1:Ann 3:Ben`` is ``Ann>Ben``)."""
    if ":" not in text:
        return text
    parts = [p for p in (text.split(",") if "," in text else text.split()) if p.strip()]
    placed: list[tuple[int, str]] = []
    for part in parts:
        found = _PLACED.match(part)
        if found is None:
            raise Refusal(
                "EV-7.5",
                f"cannot read {part.strip()!r}: write each player as PLACE:NAME, for "
                "example 1:Ann,2:Ben,2:Cal",
            )
        place, name = int(found.group(1)), found.group(2)
        if place < 1:
            raise Refusal("EV-7.5", f"{part.strip()!r}: places start at 1")
        placed.append((place, name))
    placed.sort(key=lambda p: p[0])
    out = placed[0][1]
    for (before, _), (place, name) in itertools.pairwise(placed):
        out += ("=" if place == before else ">") + name
    return out


def parse_placement(text: str, pod: Sequence[str], names: dict[str, str]) -> Placement:
    """Read ``1:Ann,2:Ben,2:Cal,4:Dee`` or ``Ann>Ben=Cal>Dee`` for a pod of player ids ``pod``.

    ``names`` maps each id to its display name; each token may be either, matched
    case-insensitively. Every pod player appears exactly once (EV-7.3). A token written
    exactly as an id or a name is that player, ids first (EV-2.2); only then is case set
    aside, names first: so Bob named ``P1`` is ``P1`` whatever the pod's order, even beside
    the player whose id is ``p1``.
    """
    exact = {names.get(p, p): p for p in pod} | {p: p for p in pod}
    folded = {p.casefold(): p for p in pod} | {names.get(p, p).casefold(): p for p in pod}
    text = placement_order(text)
    places: list[tuple[str, int]] = []
    seen: set[str] = set()
    for group in text.split(">"):
        place = len(places) + 1
        for token in group.split("="):
            key = token.strip().casefold()
            if not key:
                raise Refusal("EV-7.3", f"{quoted(text)}: an empty name in the placing")
            found = exact.get(token.strip()) or folded.get(key)
            if found is None:
                shown = ", ".join(names.get(p, p) for p in pod)
                raise Refusal("EV-7.3", f"{token.strip()!r} is not in this pod ({shown})")
            if found in seen:
                raise Refusal(
                    "EV-7.3", f"{quoted(token.strip())} is placed twice in {quoted(text)}"
                )
            seen.add(found)
            places.append((found, place))
    missing = [names.get(p, p) for p in pod if p not in seen]
    if missing:
        raise Refusal("EV-7.3", f"{quoted(text)} leaves out {', '.join(missing)}")
    return Placement(tuple(places))

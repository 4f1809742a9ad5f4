"""The Prismatic notation (rulebook PX-15.1): one entry per line, read and written exactly.

Canonical forms (``X`` a mote letter R G B C M Y W K P, ``NAME`` a card as the
catalog spells it, any case accepted)::

    reveal NAME                          a common card turned up (setup, refills)
    choose X Y                           the two motes chosen at setup
    keep NAME, discard NAME              the dealt cards at setup
    draw R R G K W | draw none           step 1: the motes shown
    commit R G 1 prism to palette        step 2 (to palette or an own card); several allowed
    pass                                 ends the seat's commit step or resolve turn
    create NAME[, pool Y M]              a play card (own progress or common)
    create board KEY.N[, pool Y][: ...]  a board method; ': keep A, discard B' or ': discard A'
    use NAME[: DETAIL]                   a card ability; DETAIL for an action
    take pool Y | take mote R | take prism | take 3 prisms | take text | take DETAIL
    decline                              the rest of the pending rewards
    remove NAME                          an own progress card removed (progress_removal=free)
    bid N | forgo                        the starter-token auction (house rule)
    colours p3>p1=p2                     who wears the most colours (last tie-break)

Action details: ``pull R to palette``, ``pull R to NAME``, ``pull R back``,
``pull none``; ``empty palette``, ``empty palette of p2``, ``empty NAME``;
``draw NAME to progress``, ``draw NAME to common[, discard NAME]``, ``draw none``;
``discard NAME``; ``steal NAME``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from referee.errors import ActionSyntaxError, quoted
from referee.games.prismatic import model
from referee.games.prismatic.model import (
    PALETTE,
    SEATS,
    ActionDetail,
    BoardChoice,
    PrismaticAction,
    PrismaticState,
    Remove,
    Reward,
)
from referee.games.prismatic.motes import ItemsError, colour_of, items_text, motes_text, parse_items
from referee.kit.names import UnknownNameError, canonical_names, did_you_mean

__all__ = [
    "NAME_FIELDS",
    "NOTATION_CLAUSE",
    "detail_text",
    "notation",
    "parse",
    "read_entry",
]

NOTATION_CLAUSE = "PX-15.1"
_METHOD = re.compile(r"^([a-z0-9][a-z0-9-]*)(?:\.(\d{1,3}))?$")
_VERBS = (
    "reveal, choose, keep, draw, commit, pass, create, use, take, decline, remove, bid, forgo "
    "or colours"
)


class _Bad(Exception):
    """A reason the text is not an entry; turned into ``ActionSyntaxError``."""


def _name(text: str, what: str = "a card name") -> str:
    name = " ".join(text.split())
    if not name:
        raise _Bad(f"{what} is missing")
    if any(ch in name for ch in ",:;=>#"):
        raise _Bad(f"{quoted(name)} is not a card name (names hold no , : ; = > #)")
    return name


def _motes(text: str) -> tuple[str, ...]:
    try:
        motes, _prisms = parse_items(text, allow_prisms=False)
    except ItemsError as exc:
        raise _Bad(str(exc)) from None
    return motes


def _one_mote(token: str) -> str:
    letter = colour_of(token)
    if letter is None:
        raise _Bad(f"{quoted(token)} is not a mote (R G B C M Y W K, P for prismatic)")
    return letter


def _after(part: str, word: str, wanted: str) -> str:
    """What follows ``word`` (in any case) that ``part`` starts with; ``wanted`` says what
    to write when ``part`` is not ``word`` and something more."""
    words = part.split(None, 1)
    if len(words) != 2 or words[0].lower() != word:
        raise _Bad(wanted)
    return words[1]


def _pool(part: str) -> tuple[str, ...]:
    wanted = f"expected ', pool X ...' after the creation, got {quoted(part.strip())}"
    return _motes(_after(part, "pool", wanted))


def _split(text: str, missing: str) -> tuple[list[str], str, list[str]]:
    """An entry's or action's words, the text after its verb as written, and the words
    after the verb in lower case (what every reader is given); ``missing`` when empty."""
    words = text.split()
    if not words:
        raise _Bad(missing)
    return words, text.strip()[len(words[0]) :].strip(), [w.lower() for w in words[1:]]


def _detail(text: str) -> ActionDetail:
    words, rest, low = _split(text, "an action is missing")
    reader = _DETAIL_READERS.get(words[0].lower())
    if reader is None:
        raise _Bad(
            f"{quoted(words[0])} is not an action; expected pull, empty, draw, discard or steal"
        )
    return reader(words, rest, low)


def _read_pull(words: list[str], rest: str, low: list[str]) -> ActionDetail:
    if low == ["none"]:
        return model.Pull()
    if len(low) == 2 and low[1] == "back":
        return model.Pull(_one_mote(words[1]))
    if len(low) >= 3 and low[1] == "to":
        target = " ".join(words[3:])
        return model.Pull(
            _one_mote(words[1]), "palette" if target.lower() == "palette" else _name(target)
        )
    raise _Bad("write 'pull X to palette', 'pull X to CARD', 'pull X back' or 'pull none'")


def _read_empty(words: list[str], rest: str, low: list[str]) -> ActionDetail:
    if low == ["palette"]:
        return model.Empty("palette")
    if len(low) == 3 and low[:2] == ["palette", "of"]:
        if low[2] not in SEATS:
            raise _Bad(f"{quoted(words[3])} is not a seat ({', '.join(SEATS)})")
        return model.Empty("palette", low[2])
    return model.Empty(_name(rest))


def _read_draw_card(words: list[str], rest: str, low: list[str]) -> ActionDetail:
    if low == ["none"]:
        return model.DrawCard()
    head, _, tail = rest.partition(",")
    replace = ""
    if tail:
        wanted = "after the destination write ', discard CARD' (a common card to replace)"
        replace = _name(_after(tail, "discard", wanted))
    hw = head.split()
    if len(hw) < 3 or hw[-2].lower() != "to" or hw[-1].lower() not in ("progress", "common"):
        raise _Bad("write 'draw CARD to progress' or 'draw CARD to common[, discard CARD]'")
    if hw[-1].lower() == "progress":
        if replace:
            raise _Bad("only a card drawn to the common area replaces a common card")
        return model.DrawCard(_name(" ".join(hw[:-2])), "progress")
    return model.DrawCard(_name(" ".join(hw[:-2])), "common", replace)


def _read_discard(words: list[str], rest: str, low: list[str]) -> ActionDetail:
    return model.Discard(_name(rest))


def _read_steal(words: list[str], rest: str, low: list[str]) -> ActionDetail:
    return model.Steal(_name(rest))


_DETAIL_READERS: dict[str, Callable[[list[str], str, list[str]], ActionDetail]] = {
    "pull": _read_pull,
    "empty": _read_empty,
    "draw": _read_draw_card,
    "discard": _read_discard,
    "steal": _read_steal,
}
"""The reader of an action detail by its first word."""


def _reward(text: str) -> Reward:
    words = text.split()
    low = [w.lower() for w in words]
    if not words:
        raise _Bad("'take' needs the reward taken")
    if low[0] in ("pool", "mote") and len(low) == 2:
        colour = _one_mote(words[1])
        return model.TakePool(colour) if low[0] == "pool" else model.TakeMote(colour)
    if low in (["prism"], ["prisms"]):
        return model.TakePrisms(1)
    if len(low) == 2 and low[0].isdigit() and low[1] in ("prism", "prisms"):
        count = int(low[0])
        if not 1 <= count <= 50:
            raise _Bad("a prism count is 1 to 50")
        return model.TakePrisms(count)
    if low == ["text"]:
        return model.TakeText()
    return _detail(text)


def _board(text: str) -> model.CreateBoard:
    head, colon, tail = text.partition(":")
    parts = head.split(",")
    method = parts[0].strip().lower()
    m = _METHOD.match(method)
    if not m:
        raise _Bad(
            f"{quoted(parts[0].strip())} is not a board method; write KEY.N, like red-mote.2"
        )
    ident = f"{m.group(1)}.{int(m.group(2) or 1)}"
    if m.group(2) is not None and int(m.group(2)) < 1:
        raise _Bad("methods are numbered from 1")
    pool = _pool(parts[1]) if len(parts) == 2 else ()
    if len(parts) > 2:
        raise _Bad("a board creation takes at most one ', pool ...' part")
    choice: BoardChoice | None = None
    if colon:
        words = tail.split(None, 1)
        if not words:
            raise _Bad("nothing after ':'")
        verb = words[0].lower()
        if verb == "discard" and len(words) == 2:
            choice = model.Discard(_name(words[1]))
        elif verb == "keep" and len(words) == 2:
            kept, _, dropped = words[1].partition(",")
            keep = "" if kept.strip().lower() == "none" else _name(kept)
            discard = ""
            if dropped:
                discard = _name(_after(dropped, "discard", "write ': keep CARD, discard CARD'"))
            if not keep and discard:
                raise _Bad("'keep none' discards nothing")
            choice = model.BoardDraw(keep, discard)
        else:
            raise _Bad("after ':' write 'keep CARD, discard CARD' or 'discard CARD'")
    return model.CreateBoard(ident, pool, choice)


def _colours(text: str) -> model.Colours:
    groups: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for group in text.replace(" ", "").lower().split(">"):
        seats = group.split("=")
        for seat in seats:
            if seat not in SEATS:
                raise _Bad(f"{quoted(seat)} is not a seat ({', '.join(SEATS)})")
            if seat in seen:
                raise _Bad(f"{seat} is named twice")
            seen.add(seat)
        groups.append(tuple(sorted(seats, key=SEATS.index)))
    if len(seen) < 2:
        raise _Bad("rank at least two tied players, like 'colours p3>p1'")
    return model.Colours(tuple(groups))


def _parse(text: str) -> PrismaticAction:
    words, rest, low = _split(text, "empty entry")
    verb = words[0].lower()
    bare = _BARE.get(verb)
    if bare is not None and not low:
        return bare
    reader = _READERS.get(verb)
    if reader is None:
        raise _Bad(f"unknown entry {quoted(words[0])}; expected {_VERBS}")
    return reader(words, rest, low)


_BARE: dict[str, PrismaticAction] = {
    "pass": model.Pass(),
    "decline": model.Decline(),
    "forgo": model.Forgo(),
}
"""The entries that are one word alone."""


def _read_reveal(words: list[str], rest: str, low: list[str]) -> PrismaticAction:
    return model.Reveal(_name(rest))


def _read_choose(words: list[str], rest: str, low: list[str]) -> PrismaticAction:
    motes = _motes(rest)
    if len(motes) != 2:
        raise _Bad("choose exactly two motes, like 'choose C M'")
    return model.Choose(motes)


def _read_keep(words: list[str], rest: str, low: list[str]) -> PrismaticAction:
    kept, comma, dropped = rest.partition(",")
    dw = dropped.split(None, 1)
    if not comma or len(dw) != 2 or dw[0].lower() != "discard":
        raise _Bad("write 'keep CARD, discard CARD'")
    return model.Keep(_name(kept), _name(dw[1]))


def _read_draw_motes(words: list[str], rest: str, low: list[str]) -> PrismaticAction:
    if low == ["none"]:
        return model.DrawMotes(())
    if not low:
        raise _Bad("name the motes drawn, like 'draw R R G K W', or 'draw none'")
    return model.DrawMotes(_motes(rest))


def _read_commit(words: list[str], rest: str, low: list[str]) -> PrismaticAction:
    try:
        at = low.index("to")
    except ValueError:
        raise _Bad("write 'commit ITEMS to palette' or 'commit ITEMS to CARD'") from None
    try:
        motes, prisms = parse_items(" ".join(words[1 : at + 1]))
    except ItemsError as exc:
        raise _Bad(str(exc)) from None
    if not motes and not prisms:
        raise _Bad("commit at least one mote or prism")
    target = " ".join(words[at + 2 :])
    return model.Commit(motes, prisms, "palette" if target.lower() == "palette" else _name(target))


def _read_create(words: list[str], rest: str, low: list[str]) -> PrismaticAction:
    if low and low[0] == "board":
        return _board(rest[len(words[1]) :].strip())
    if ":" in rest:
        raise _Bad("a play card's creation takes no ':' part (rewards are taken afterwards)")
    parts = rest.split(",")
    if len(parts) > 2:
        raise _Bad("write 'create CARD' or 'create CARD, pool X ...'")
    pool = _pool(parts[1]) if len(parts) == 2 else ()
    return model.Create(_name(parts[0]), pool)


def _read_use(words: list[str], rest: str, low: list[str]) -> PrismaticAction:
    head, colon, tail = rest.partition(":")
    return model.Use(_name(head), _detail(tail) if colon else None)


def _read_take(words: list[str], rest: str, low: list[str]) -> PrismaticAction:
    return model.Take(_reward(rest))


def _read_remove(words: list[str], rest: str, low: list[str]) -> PrismaticAction:
    return Remove(_name(rest))


def _read_bid(words: list[str], rest: str, low: list[str]) -> PrismaticAction:
    if len(low) != 1 or not low[0].isdigit():
        raise _Bad("write 'bid N' with a whole number of prisms")
    amount = int(low[0])
    if amount > 50:
        raise _Bad("there are only 50 prisms")
    return model.Bid(amount)


def _read_colours(words: list[str], rest: str, low: list[str]) -> PrismaticAction:
    return _colours(rest)


_READERS: dict[str, Callable[[list[str], str, list[str]], PrismaticAction]] = {
    "reveal": _read_reveal,
    "choose": _read_choose,
    "keep": _read_keep,
    "draw": _read_draw_motes,
    "commit": _read_commit,
    "create": _read_create,
    "use": _read_use,
    "take": _read_take,
    "remove": _read_remove,
    "bid": _read_bid,
    "colours": _read_colours,
    "colors": _read_colours,
}
"""The reader of each entry's first word that takes more than the word."""


def parse(text: str) -> PrismaticAction:
    """Read one entry; raise :class:`ActionSyntaxError` citing PX-15.1 when it is not one."""
    try:
        return _parse(text)
    except _Bad as exc:
        raise ActionSyntaxError(text, str(exc), NOTATION_CLAUSE) from None


def detail_text(detail: ActionDetail) -> str:
    """Canonical text of an action's details."""
    if isinstance(detail, model.Pull):
        if not detail.mote:
            return "pull none"
        return f"pull {detail.mote} " + (f"to {detail.to}" if detail.to else "back")
    if isinstance(detail, model.Empty):
        if detail.target == "palette" and detail.owner:
            return f"empty palette of {detail.owner}"
        return f"empty {detail.target}"
    if isinstance(detail, model.DrawCard):
        if not detail.card:
            return "draw none"
        text = f"draw {detail.card} to {detail.to}"
        return text + (f", discard {detail.replace}" if detail.replace else "")
    if isinstance(detail, model.Discard):
        return f"discard {detail.card}"
    return f"steal {detail.card}"


def _reward_text(reward: Reward) -> str:
    if isinstance(reward, model.TakePool):
        return f"pool {reward.colour}"
    if isinstance(reward, model.TakeMote):
        return f"mote {reward.colour}"
    if isinstance(reward, model.TakePrisms):
        return "prism" if reward.count == 1 else f"{reward.count} prisms"
    if isinstance(reward, model.TakeText):
        return "text"
    return detail_text(reward)


def _pool_text(pool: tuple[str, ...]) -> str:
    return f", pool {motes_text(pool)}" if pool else ""


def _board_text(action: model.CreateBoard) -> str:
    text = f"create board {action.method}{_pool_text(action.pool)}"
    choice = action.choice
    if isinstance(choice, model.Discard):
        text += f": discard {choice.card}"
    elif isinstance(choice, model.BoardDraw):
        text += f": keep {choice.keep or 'none'}" + (
            f", discard {choice.discard}" if choice.discard else ""
        )
    return text


_WRITERS: dict[type, Callable[[Any], str]] = {
    model.Reveal: lambda a: f"reveal {a.card}",
    model.Choose: lambda a: f"choose {motes_text(a.motes)}",
    model.Keep: lambda a: f"keep {a.keep}, discard {a.discard}",
    model.DrawMotes: lambda a: f"draw {motes_text(a.motes)}",
    model.Commit: lambda a: f"commit {items_text(a.motes, a.prisms)} to {a.target}",
    model.Pass: lambda a: "pass",
    model.Create: lambda a: f"create {a.card}{_pool_text(a.pool)}",
    model.CreateBoard: _board_text,
    model.Use: lambda a: f"use {a.card}" + (f": {detail_text(a.detail)}" if a.detail else ""),
    model.Take: lambda a: f"take {_reward_text(a.reward)}",
    model.Decline: lambda a: "decline",
    Remove: lambda a: f"remove {a.card}",
    model.Bid: lambda a: f"bid {a.amount}",
    model.Forgo: lambda a: "forgo",
    model.Colours: lambda a: "colours " + ">".join("=".join(group) for group in a.ranking),
}
"""The canonical text of each entry type."""


def notation(action: PrismaticAction) -> str:
    """The canonical text of ``action``: ``parse(notation(a)) == a``."""
    return _WRITERS[type(action)](action)


NAME_FIELDS: dict[type, tuple[str, ...]] = {
    model.Reveal: ("card",),
    model.Keep: ("keep", "discard"),
    model.Commit: ("target",),
    model.Create: ("card",),
    model.Use: ("card",),
    Remove: ("card",),
    model.Pull: ("to",),
    model.Empty: ("target",),
    model.DrawCard: ("card", "replace"),
    model.Discard: ("card",),
    model.Steal: ("card",),
    model.BoardDraw: ("keep", "discard"),
}
"""Where each kind of entry (and action detail) names a card, matched by ``read_entry``."""
NOT_NAMES = frozenset({"", PALETTE})
"""Values of those fields that name no card: none given, or the palette."""


def read_entry(state: PrismaticState, text: str) -> PrismaticAction:
    """``parse`` with card names in the catalog's spelling; a name the catalog does not
    hold is no entry (PX-15.2): refused with the closest names, nothing stored."""
    action = parse(text)
    try:
        return canonical_names(action, NAME_FIELDS, state.catalog.card_name, NOT_NAMES)
    except UnknownNameError as exc:
        hint = did_you_mean(exc.name, state.catalog.lookup.values())
        reason = f"no card is called {quoted(exc.name)} in this game's cards catalog{hint}"
        raise ActionSyntaxError(text, reason, "PX-15.2") from None

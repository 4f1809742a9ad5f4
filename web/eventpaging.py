"""The event pages in pages of rows, and their search, both working without JavaScript
(issue 32 goal 4: the standings and pairings pages of a 10,000-player event).

A page of an event posting shows at most ``PAGE_ROWS`` rows: ``?page=N`` picks which, and
``?page=all`` shows every row (what the head judge prints for the wall). Rendering 10,000 rows
of HTML takes seconds and makes a page of megabytes that a phone scrolls through to find one
name; a page of 200 rows renders in tens of milliseconds and is cached per event version like
every other page (``web.eventcache``). Links to the first, previous, next and last pages, and
a form to go to page N, are plain links and a GET form.

``?find=TEXT`` narrows a page to the rows whose player's name holds TEXT (case folded): the
search box is a GET form, so it works with JavaScript off. A search is made for its reader and
never kept (the text is theirs; kept answers would let anyone fill the cache).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Literal
from urllib.parse import urlencode

import msgspec

__all__ = [
    "FIND_MAX",
    "PAGE_ROWS",
    "PageAsked",
    "Pager",
    "clamped",
    "find_rows",
    "page_number",
    "paged",
]

PAGE_ROWS: Final = 200
"""Rows on one page (a module setting, so a test can show paging on a small event)."""

FIND_MAX: Final = 80
"""The longest search text read (a name is at most a line)."""

PageAsked = int | Literal["all"]
"""A page asked for: its number from 1, or every row."""


def page_number(text: str | None) -> PageAsked | None:
    """The page asked for by ``?page=``: a number from 1, ``"all"``, or ``None`` when there
    is no such parameter or it is not one of those (the first page is then shown)."""
    if text is None:
        return None
    text = text.strip()
    if text == "all":
        return "all"
    if text.isascii() and text.isdigit() and 0 < len(text) <= 9 and int(text) >= 1:
        return int(text)
    return None


def clamped(asked: PageAsked | None, total: int, size: int | None = None) -> PageAsked:
    """The page shown for ``asked`` among ``total`` rows: ``"all"``, or a number from 1 to the
    last page (a number past it shows the last page, and is kept as that page)."""
    if asked == "all":
        return "all"
    pages = max(1, -(-total // (size or PAGE_ROWS)))
    return min(asked or 1, pages)


class Link(msgspec.Struct, frozen=True, kw_only=True):
    label: str
    href: str
    rel: str = ""
    current: bool = False


class Pager(msgspec.Struct, kw_only=True):
    """Where a page of rows lies among all of them, and the links to the others."""

    page: PageAsked
    pages: int
    total: int
    first: int  # 1-based number of the first row shown (0 when none)
    last: int  # of the last row shown
    links: list[Link]
    all_href: str
    base_query: list[tuple[str, str]]  # the page's other query parameters, for the go-to form

    @property
    def paged(self) -> bool:
        """Whether there is more than one page (else no pager is shown)."""
        return self.pages > 1


def paged(
    rows: Sequence[Any],
    asked: PageAsked | None,
    query: Sequence[tuple[str, str]],
    size: int | None = None,
) -> tuple[Sequence[Any], Pager]:
    """The rows of page ``asked`` (clamped to the pages there are) and its pager; ``query``:
    the page's other query parameters, kept by every link."""
    size = size or PAGE_ROWS
    total = len(rows)
    pages = max(1, -(-total // size))
    page = clamped(asked, total, size)

    def href(number: PageAsked) -> str:
        return "?" + urlencode([*query, ("page", str(number))])

    if page == "all":
        shown: Sequence[Any] = rows
        first, last = (1 if total else 0), total
    else:
        start = (page - 1) * size
        shown = rows[start : start + size]
        first, last = (start + 1 if shown else 0), start + len(shown)
    links: list[Link] = []
    if pages > 1:
        at = page if isinstance(page, int) else 0
        links.append(Link(label="first", href=href(1), current=at == 1))
        if at > 1:
            links.append(Link(label="previous", href=href(at - 1), rel="prev"))
        if 0 < at < pages:
            links.append(Link(label="next", href=href(at + 1), rel="next"))
        links.append(Link(label="last", href=href(pages), current=at == pages))
    pager = Pager(
        page=page,
        pages=pages,
        total=total,
        first=first,
        last=last,
        links=links,
        all_href=href("all"),
        base_query=list(query),
    )
    return shown, pager


def find_rows(rows: Sequence[Any], find: str, names: Callable[[Any], Sequence[str]]) -> list[Any]:
    """The rows one of whose ``names`` holds ``find`` (case folded, spaces collapsed)."""
    wanted = " ".join(find.split()).casefold()
    if not wanted:
        return list(rows)
    return [row for row in rows if any(wanted in str(n).casefold() for n in names(row))]

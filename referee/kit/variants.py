"""A game's switches, one row each: ``switch(key, choices, clause, summary)``.

A switch is a variant a table chooses from a few named rulings when the game is created
(``referee.contract.VariantOption``). Every game declares its switches the same way, as a
table of rows, and every row's default is its first choice: the summaries name it ("(choice,
the default)") and the rulebook's clause says what a table may rule instead. A variant that
takes a free value (PRIZMIK's ``setup_files`` and ``quiet_limit``) has no choices and is
declared as a ``VariantOption`` itself.
"""

from __future__ import annotations

from referee.contract import VariantOption

__all__ = ["switch"]


def switch(
    key: str, choices: tuple[str, ...], clause: str, summary: str, *, absent: str = ""
) -> VariantOption:
    """The switch ``key``: one of ``choices``, the first of which is the default, ruled
    by ``clause`` (the rulebook's interpretation that names the variant) and described by
    ``summary`` (``--help``, the setup form); ``absent``, as ``VariantOption.absent``."""
    if len(choices) < 2:
        raise ValueError(
            f"switch {key} offers {len(choices)} choice(s); a switch offers two or more"
        )
    return VariantOption(
        key=key, default=choices[0], choices=choices, clause=clause, summary=summary, absent=absent
    )

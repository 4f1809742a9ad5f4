"""``referee event verify EVENT --posting FILE``, and writing postings (``pairings --posting``,
``standings --posting``): the command line of verifiable postings (``service.postings``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from cli.face import (
    EXIT_REJECTED,
    JsonOpt,
    PublicKeyOpt,
    emit_json,
    handled,
    public_key_arg,
    settings,
)

PostingOpt = Annotated[
    bool,
    typer.Option(
        "--posting",
        help="Print the verifiable posting (JSON): these rows with the signed checkpoint they "
        "were computed at (the newest 'referee seal'; with --key, sealed now). Keep it; "
        "'referee event verify EVENT --posting FILE' checks it later.",
    ),
]
KeyOpt = Annotated[
    Path | None,
    typer.Option(
        "--key",
        help="With --posting: the private key file; the store is sealed now and the posting "
        "computed at that new checkpoint.",
    ),
]


def print_posting(
    event: str, kind: Literal["pairings", "standings"], round_number: int | None, key: Path | None
) -> None:
    """Write the posting to standard output (a note on stderr when later facts are unsealed)."""
    import msgspec

    from service.errors import NotSealedError

    try:
        posting, later = settings.service().event_posting(event, kind, round_number, key=key)
    except NotSealedError as exc:  # the command line's way to seal: said here, not below
        raise NotSealedError(
            exc.event_id, f"{exc.missing}: seal the store ('referee seal --key KEY'), or give --key"
        ) from None
    typer.echo(msgspec.json.format(msgspec.json.encode(posting), indent=1).decode())
    if later:
        typer.echo(
            f"note: computed at the newest checkpoint ({posting.version} facts); {later} later "
            f"fact{'s' if later != 1 else ''} of {event} {'are' if later != 1 else 'is'} not in "
            "it: seal again (--key) to post them",
            err=True,
        )


def verify(
    event: Annotated[str, typer.Argument(help="The event's id.")],
    posting: Annotated[
        Path,
        typer.Option(
            "--posting",
            help="A posting file, as 'referee event pairings|standings EVENT --posting' wrote it "
            "or the event's pages served it.",
        ),
    ],
    public_key: PublicKeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check that no result under a posting was changed without a recorded correction.

    Checks the checkpoint's signature (given the event's --public-key; without it only the
    store's chain is checked), that the store still extends the checkpoint, that the
    event's facts up to the posting are intact, and that they give exactly the posted rows;
    then names each correction recorded since (who, when, why), which is not tampering.
    Exit 0 when the posting holds, 1 when a check fails, 2 when the file or event cannot be
    read.

    \b
    Post round 3's pairings (sealing the store now), check them later:
      referee event pairings $ev --posting --key seal.pem > r3.json
      referee event verify $ev --posting r3.json --public-key KEY_HEX_OR_FILE
    """
    with handled():
        from service.api import read_posting

        key = public_key_arg(public_key) if public_key is not None else None
        report = settings.service().verify_event_posting(event, read_posting(posting), key)
        if as_json:
            emit_json(report)
        else:
            what = f"{report.kind}" + (f" of round {report.round}" if report.round else " now")
            typer.echo(
                f"posting {'holds' if report.ok else 'BROKEN'}: {what} of {report.event}, "
                f"computed at fact {report.version}"
            )
            for check in report.checks:
                mark = "skipped" if check.skipped else "ok" if check.ok else "FAILED"
                typer.echo(f"  {check.name}: {mark}: {check.detail}")
            if report.corrections:
                count = len(report.corrections)
                typer.echo(
                    f"  since: {count} recorded correction{'s' if count != 1 else ''} "
                    f"change{'s' if count == 1 else ''} this posting (not tampering):"
                )
                for change in report.corrections:
                    typer.echo(f"    {change}")
            elif report.ok:
                typer.echo(
                    "  since: "
                    + (
                        "nothing recorded since changes it"
                        if report.unchanged
                        else "later results add to it; no correction changes it"
                    )
                )
            typer.echo(f"  verdict: {report.verdict}: {report.answer}")
        if not report.ok:
            raise typer.Exit(EXIT_REJECTED)


__all__ = ["KeyOpt", "PostingOpt", "print_posting", "verify"]

"""What a request pays to authenticate now that no answer is cached (issue 22: a revoked,
rotated or expired token must be refused on the next request, not seconds later).

    python benchmarks/bench_token_lookup.py [--calls 20000] [--postgres URL]

Side by side in the same run: a server's ``TokenStore(cache=True)`` (a kept answer, after
SQLite's ``data_version`` or PostgreSQL's LISTEN says no token changed), the row read by
primary key on every call (``cache=False``), and the 5-second cache the store had before
(every call a hit after the first, but a revoke elsewhere ignored for up to 5 s).
Median of five runs of ``--calls`` calls each, in microseconds per call. Figures go to
BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.access import Principal, TokenStore  # noqa: E402
from service.app import open_service  # noqa: E402
from service.sidedb import open_side_db  # noqa: E402
from service.stores import parse_store  # noqa: E402


def cached(tokens: TokenStore, seconds: float = 5.0) -> Callable[[str], Principal | None]:
    """The cache the store had before: an answer kept ``seconds`` per token text."""
    memo: dict[str, tuple[float, Principal | None]] = {}

    def authenticate(token: str) -> Principal | None:
        now = time.monotonic()
        hit = memo.get(token)
        if hit is not None and now - hit[0] < seconds:
            return hit[1]
        found = tokens.authenticate(token)
        memo[token] = (now, found)
        return found

    return authenticate


def per_call(fn: Callable[[str], object], token: str, calls: int) -> float:
    runs = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(calls):
            fn(token)
        runs.append((time.perf_counter() - started) / calls * 1e6)
    return statistics.median(runs)


def measure(store: str, calls: int) -> tuple[float, float, float]:
    tokens = TokenStore(open_side_db(parse_store(store)))
    server = TokenStore(open_side_db(parse_store(store)), cache=True)
    try:
        _, token = tokens.create("head", "Hera")
        assert tokens.authenticate(token) is not None
        kept = per_call(server.authenticate, token, calls)
        read = per_call(tokens.authenticate, token, calls)
        before = per_call(cached(tokens), token, calls)
        return kept, read, before
    finally:
        tokens.db.close()
        server.db.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--postgres", help="postgresql://...?schema=NAME (an existing schema)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = str(Path(folder) / "bench.db")
        open_service(store, create=True).close()
        kept, read, before = measure(store, args.calls)
        print(
            f"SQLite side DB, us per request: {kept:.1f} kept (data_version), {read:.1f} row "
            f"read every time, {before:.2f} the old 5 s cache"
        )
    if args.postgres:
        kept, read, before = measure(args.postgres, max(args.calls // 10, 1000))
        print(
            f"PostgreSQL side DB, us per request: {kept:.1f} kept (LISTEN), {read:.1f} row "
            f"read every time, {before:.2f} the old 5 s cache"
        )


if __name__ == "__main__":
    main()

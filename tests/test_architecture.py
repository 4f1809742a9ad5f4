"""The layers of docs/architecture.md hold: checked by import-linter's contracts in
pyproject.toml ([tool.importlinter]) and by a module-level search for import circles."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cli", "web", "service", "projections", "events", "referee")


def test_import_contracts_are_kept() -> None:
    """Faces over the service over projections over events over the rules; faces never
    import the event layer; no circles between a layer's modules (issue 19)."""
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.fail("lint-imports is missing: install the test extra (import-linter)")
    done = subprocess.run(
        [lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def _circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(imports):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(imports[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(imports.get(nxt, set()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    """The check below could fail: a two-module circle and a three-module one are found."""
    imports = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert sorted(_circles(imports)) == [["a", "b"], ["c", "d", "e"]]


def test_no_module_imports_itself_in_a_circle() -> None:
    """No chain of imports, deferred ones and type-only ones included, leads from a
    module back to itself anywhere in the tree."""
    graph = grimp.build_graph(*PACKAGES)
    imports = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert _circles(imports) == []


def test_every_service_module_is_public_or_protected() -> None:
    """Faces import only the service's public modules (issue 34, "small application services"):
    each module of service/ is named public (``service.api.PUBLIC_MODULES``) or protected by
    the import-linter contract that keeps the faces out of it, never both, so a new module is
    classified when it is added, not left open to the faces by omission."""
    import tomllib

    from service.api import PUBLIC_MODULES

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c["type"] == "protected"]
    protected = set(contract["protected_modules"])
    modules = {"service"} | {
        f"service.{path.stem}"
        for path in (ROOT / "service").glob("*.py")
        if path.stem != "__init__"
    }
    assert contract["allowed_importers"] == ["service"]
    assert not protected & set(PUBLIC_MODULES)
    assert modules == protected | set(PUBLIC_MODULES)


SQL = re.compile(
    r"^\s*(SELECT\s|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|UNIQUE"
    r"|TRIGGER|OR\s+REPLACE|FUNCTION)|DROP\s+(TABLE|TRIGGER|FUNCTION)|ALTER\s+TABLE|PRAGMA\s"
    r"|LOCK\s+TABLE|BEGIN(\s+IMMEDIATE)?\s*$|COMMIT\s*$|ROLLBACK\s*$|LISTEN\s|SET\s+TRANSACTION)"
)
"""The start of a SQL statement, as this tree writes them (upper-case keywords)."""

SQL_WRITTEN = {
    "events.backends": "the store's backends: where SQL is written, by rule",
    "projections.db": "the read models' one database module (their snapshot tables)",
    "projections.projector": "the catalog's, standings' and ratings' own statements, on the "
    "connection projections.db hands it (no driver)",
    "projections.event_state": "events' snapshots: to become projections.db's snapshot table "
    "with the event-state work (issue 34, item 4's report)",
    "events.replica": "the replica's guard trigger and bookkeeping tables, on the backend's cursor",
    "service.seal": "the checkpoints table, on the store's backend cursor",
    "service.access": "the tokens' side table, through the side tables' connection",
    "service.idempotency": "the idempotency keys' side table, likewise",
    "service.analysis": "'referee export --sqlite': an analysis file of its own, not the store's",
}
"""Where SQL text is written (docs/storage.md, "Where SQL is written"), each with why."""


def _sql_modules() -> dict[str, int]:
    """Every module with a SQL statement in a string (docstrings aside): how many."""
    found: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docs = {
                id(node.body[0].value)
                for node in ast.walk(tree)
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                and node.body
                and isinstance(node.body[0], ast.Expr)
            }
            count = sum(
                1
                for node in ast.walk(tree)
                if isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docs
                and SQL.match(node.value)
            )
            if count:
                name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
                found[name.removesuffix(".__init__")] = count
    return found


def test_sql_is_written_only_where_stated() -> None:
    """Issue 34 (item 4): nothing outside events/backends and the read models' database
    module writes SQL, but for the places ``SQL_WRITTEN`` names with their reason; the list
    is kept exact (a module that stopped writing SQL leaves it)."""
    found = _sql_modules()

    def stated(module: str) -> str | None:
        return next((k for k in SQL_WRITTEN if module == k or module.startswith(k + ".")), None)

    assert {m: n for m, n in found.items() if stated(m) is None} == {}
    assert {k for k in SQL_WRITTEN if not any(stated(m) == k for m in found)} == set()


def test_the_sql_finder_finds_sql() -> None:
    """The check above could fail: statements are told from words that begin like them."""
    assert SQL.match("SELECT 1")
    assert SQL.match("INSERT INTO t VALUES (?)")
    assert SQL.match("BEGIN IMMEDIATE")
    assert SQL.match(" DELETE FROM t")
    assert not SQL.match("COMMIT:SIZE from 'referee deck seal'")
    assert not SQL.match("Select one")


def test_only_projections_follows_the_log() -> None:
    """Issue 34 (item 4): a read model is caught up from the log by one mechanism
    (``projections.catchup``); outside ``events`` (which serves the pages) and
    ``projections``, nothing reads the log a page at a time to keep something of its own.
    ``service.live`` hands a live stream the notices after a point and keeps nothing."""
    readers = {}
    for package in ("cli", "web", "service"):
        for path in sorted((ROOT / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if ".log_page(" in text or ".iter_notifications(" in text:
                readers[str(path.relative_to(ROOT))] = True
    assert readers == {}

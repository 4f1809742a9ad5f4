"""The layers of docs/architecture.md hold: checked by import-linter's contracts in
pyproject.toml ([tool.importlinter]) and by a module-level search for import circles."""

from __future__ import annotations

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

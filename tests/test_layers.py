"""Imports run one way: ``bot`` over ``pipeline``, never back; the product never imports the stand-ins (their own
top-level package, ``standins``); scripts import the project as installed, never ``tests`` and never through
``sys.path`` edits."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def imports(tree: ast.AST) -> Iterator[str]:
    """Every module an ``import`` or ``from … import`` names, at any depth (function-level imports included)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)  # ``from pipeline import standins``


def touches_sys_path(tree: ast.AST) -> bool:
    """``sys.path`` read or changed, or ``path`` imported from ``sys``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name) \
                and node.value.id == "sys":
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "sys" and any(a.name == "path" for a in node.names):
            return True
    return False


def under(module: str, *packages: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def parsed(folder: str) -> list[tuple[Path, ast.AST]]:
    files = sorted((REPO / folder).rglob("*.py"))
    assert files, folder
    return [(f, ast.parse(f.read_text(encoding="utf-8"), str(f))) for f in files]


@pytest.mark.parametrize("source, bad", [
    ("from tests.bot.harness import Harness", True),
    ("import tests.fakes as fakes", True),
    ("def f():\n    from tests import conftest", True),
    ("import sys\nsys.path.insert(0, '..')", True),
    ("from sys import path\npath.append('..')", True),
    ("from standins.harness import Harness\nimport sys\nsys.exit(0)", False),
], ids=["from-tests", "import-tests", "in-a-function", "sys.path.insert", "from-sys-import-path", "clean"])
def test_the_checks_see_an_import_from_tests_and_a_sys_path_edit(source: str, bad: bool) -> None:
    tree = ast.parse(source)
    assert (any(under(m, "tests") for m in imports(tree)) or touches_sys_path(tree)) is bad


def test_scripts_import_nothing_from_tests_nor_each_other_and_leave_sys_path_alone() -> None:
    offending = [f"{f.name}: imports {m}" for f, tree in parsed("scripts") for m in imports(tree)
                 if under(m, "tests", "scripts")]
    offending += [f"{f.name}: touches sys.path" for f, tree in parsed("scripts") if touches_sys_path(tree)]
    assert not offending


def test_nothing_under_pipeline_imports_bot_stand_ins_included() -> None:
    assert not [f"{f.relative_to(REPO)}: {m}" for f, tree in parsed("pipeline") for m in imports(tree)
                if under(m, "bot")]


def test_the_product_imports_no_stand_in_and_nothing_imports_tests() -> None:
    everything = parsed("pipeline") + parsed("bot")
    offending = [f"{f.relative_to(REPO)}: {m}" for f, tree in everything for m in imports(tree)
                 if under(m, "tests", "standins")]
    offending += [f"{f.relative_to(REPO)}: {m}" for f, tree in parsed("standins") for m in imports(tree)
                  if under(m, "tests")]
    assert not offending


def test_the_stand_ins_live_in_their_own_package_not_inside_the_product() -> None:
    assert not list((REPO / "pipeline").rglob("standins")) + list((REPO / "bot").rglob("standins"))
    assert (REPO / "standins" / "__init__.py").is_file()


def module_of(path: Path) -> str:
    return ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")


def import_graph() -> dict[str, set[str]]:
    """Product module -> the product modules it imports (at any depth, under TYPE_CHECKING too); the face
    ``pipeline/__init__.py``, which only hands names on, left out."""
    files = parsed("pipeline") + parsed("bot")
    known = {module_of(f) for f, _ in files}
    graph: dict[str, set[str]] = {}
    for f, tree in files:
        if module_of(f) == "pipeline":
            continue
        named = set(imports(tree))
        graph[module_of(f)] = {m for m in named if m in known and m != "pipeline"} | \
            {m.rsplit(".", 1)[0] for m in named if m not in known and m.rsplit(".", 1)[0] in known} - {"pipeline"}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while (top := stack.pop()) != node:
                group.append(top)
            if group:
                found.append(sorted([node, *group]))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_circle_finder_sees_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_product_modules_import_each_other_in_a_circle() -> None:
    assert circles(import_graph()) == []


def test_the_registry_imports_nothing_it_serves_and_pipeline_has_at_most_twelve_top_level_modules() -> None:
    assert import_graph()["pipeline.registry"] <= {"pipeline.errors", "pipeline.parts", "pipeline.settings",
                                                    "pipeline.store.knowledge"}  # types only
    top = sorted(f.name for f in (REPO / "pipeline").glob("*.py") if f.name not in ("__init__.py", "__main__.py"))
    assert len(top) <= 12, top

"""The modules of ``plyground.kinrow`` import one another without a circle (read from the sources, not imported)."""

from __future__ import annotations

import ast
from pathlib import Path

import plyground.kinrow

PACKAGE = "plyground.kinrow"
ROOT = Path(plyground.kinrow.__file__).parent


def _modules() -> dict[str, Path]:
    return {
        PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}": path for path in sorted(ROOT.glob("*.py"))
    }


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the package that ``path`` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                if name in modules:
                    found.add(name)
                elif node.module in modules:
                    found.add(node.module)
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` (its modules in order, the first repeated at the end), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for target in sorted(graph[module]):
            found = visit(target, [*path, module])
            if found:
                return found
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module, [])
        if found:
            return found
    return None


def test_no_import_circle_in_kinrow() -> None:
    modules = _modules()
    graph = {name: _imports(path, modules) - {name} for name, path in modules.items()}
    assert {f"{PACKAGE}.mcts", f"{PACKAGE}.alphabeta"} <= graph[f"{PACKAGE}.players"]  # the scan sees lazy imports
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_scan_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None

"""The front ends' import graph: no module of ``plyground.apps`` imports, even late, one that imports it back.

The graph is read from the source with :mod:`ast`: every ``import`` and ``from ... import``
of a plyground module, at the top or inside a function (the command line imports its games
late), but not the imports under ``if TYPE_CHECKING:``, which never run.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import plyground

SOURCE = Path(plyground.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in SOURCE.rglob("*.py")}


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """The nodes of ``tree`` outside ``if TYPE_CHECKING:`` blocks."""
    nodes: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        nodes.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return nodes


def imports_of(name: str) -> set[str]:
    """The plyground modules that module ``name`` imports at run time."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {module for module in found if module in MODULES and module != name}


def cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    graph = {name: imports_of(name) for name in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_the_scan_sees_late_imports_and_skips_type_checking_ones() -> None:
    assert "plyground.apps.cli.options" in imports_of("plyground.apps.cli.g2048")
    assert "plyground.apps.saves" in imports_of("plyground.apps.cli.g2048")  # inside a command
    assert "plyground.g2048" in imports_of("plyground.apps.results")  # inside a function
    assert "plyground.g2048.autoplay" not in imports_of("plyground.apps.results")  # for the type checker only


def test_no_import_circle_goes_through_the_front_ends() -> None:
    through_apps = [cycle for cycle in cycles() if any(name.startswith("plyground.apps") for name in cycle)]
    assert through_apps == []


def test_command_modules_do_not_import_each_other() -> None:
    commands = {
        "plyground.apps.cli.g2048_learn",
        "plyground.apps.cli.g2048_runs",
        "plyground.apps.cli.g2048_solver",
        "plyground.apps.cli.kinrow",
        "plyground.apps.cli.web",
    }
    for name in commands:
        assert imports_of(name) & (commands | {"plyground.apps.cli.g2048"}) == set(), name


def test_nothing_outside_render_calls_its_private_helpers() -> None:
    for name, path in MODULES.items():
        if name != "plyground.apps.render":
            assert "render._" not in path.read_text(), name


def test_the_desktop_game_does_not_need_curses() -> None:
    script = (
        "import sys\n"
        "sys.modules['curses'] = None  # as on a Python without curses\n"
        "import plyground.apps.tk, plyground.apps.play\n"
        "print('OK')\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "OK"

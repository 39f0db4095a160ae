"""The package's shape: no import circles, imports flowing one way, no module too long to read.

The import graph is read from the source (every ``import`` and ``from ... import``, at the top
of a module, in a function, or under ``if TYPE_CHECKING:``), not from what Python happens to
load, so an import that only runs in one command counts as much as one at the top. An import
counts for the module it names (``from plyground.g2048 import Board``: the package
``plyground.g2048``), not for the packages above it that Python also runs.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "plyground"
MAX_LINES = 600


def modules_in(src: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` (a folder of ``src``) by its dotted name."""
    return {
        ".".join(path.relative_to(src).with_suffix("").parts).removesuffix(".__init__"): path
        for path in sorted((src / package).rglob("*.py"))
    }


MODULES = modules_in(SRC, "plyground")


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    line: int
    type_checking: bool  # under ``if TYPE_CHECKING:``, for the type checker only


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The module that ``name`` is or is in (a name imported from a module is in it); None outside."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str, modules: dict[str, Path] = MODULES) -> list[Import]:
    """The modules of ``modules`` that module ``name`` imports, wherever in the module the import is."""
    path = modules[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, type_checking: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, type_checking)
            return
        targets: list[str] = []
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" for alias in node.names]  # a module, or a name in ``base``
        for target in targets:
            resolved = _resolve(target, modules)
            if resolved is not None and resolved != name:
                found.append(Import(name, resolved, line, type_checking))
        for child in ast.iter_child_nodes(node):
            visit(child, type_checking)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), False)
    return found


IMPORTS = [edge for name in MODULES for edge in imports_of(name)]


def cycles(edges: list[Import]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
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

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(found)


def describe(component: list[str], edges: list[Import]) -> str:
    inside = [e for e in edges if e.source in component and e.target in component]
    lines = [
        f"  {e.source} -> {e.target} (line {e.line}{', TYPE_CHECKING' if e.type_checking else ''})"
        for e in sorted(inside, key=lambda e: (e.source, e.target, e.line))
    ]
    return " <-> ".join(component) + "\n" + "\n".join(lines)


def long_modules() -> dict[str, int]:
    """Modules over :data:`MAX_LINES` lines; kernel files (``*_kernels.py``) may be longer.

    Only Python modules are counted, so the web lab's static files (``apps/web/static``) are not.
    """
    lengths = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()}
    return {name: n for name, n in lengths.items() if n > MAX_LINES and not MODULES[name].stem.endswith("_kernels")}


def test_the_graph_is_read() -> None:
    assert len(MODULES) > 50 and len(IMPORTS) > 100
    assert ("plyground.g2048.board", "plyground.errors") in {(e.source, e.target) for e in IMPORTS}
    lazy = {e.target for e in imports_of("plyground.apps.cli.main")}
    assert "plyground.apps.cli.g2048" in lazy  # a command's module, imported inside a function


def test_every_kind_of_import_counts_and_circles_are_listed(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "import os\n"
        "if TYPE_CHECKING:\n"
        "    from pkg.b import Thing\n"
        "def f():\n"
        "    from . import c\n"
    )
    (package / "b.py").write_text("import pkg.a\n")
    (package / "c.py").write_text("from .b import Thing\n")
    modules = modules_in(tmp_path, "pkg")
    assert sorted(modules) == ["pkg", "pkg.a", "pkg.b", "pkg.c"]
    edges = [edge for name in modules for edge in imports_of(name, modules)]
    assert sorted(edges, key=lambda e: (e.source, e.target)) == [
        Import("pkg.a", "pkg.b", 4, True),
        Import("pkg.a", "pkg.c", 6, False),
        Import("pkg.b", "pkg.a", 1, False),
        Import("pkg.c", "pkg.b", 1, False),
    ]
    assert cycles(edges) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert "pkg.a -> pkg.b (line 4, TYPE_CHECKING)" in describe(["pkg.a", "pkg.b", "pkg.c"], edges)
    assert cycles([e for e in edges if e.source != "pkg.b"]) == []


def test_no_import_circles() -> None:
    found = cycles(IMPORTS)
    assert not found, "import circles:\n" + "\n".join(describe(component, IMPORTS) for component in found)


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


LAYERS = {
    # a module under the first name imports nothing from those under the others
    "plyground.core": ("plyground.g2048", "plyground.kinrow", "plyground.arena", "plyground.apps"),
    "plyground.g2048": ("plyground.kinrow", "plyground.arena", "plyground.apps"),
    "plyground.kinrow": ("plyground.g2048", "plyground.arena", "plyground.apps"),
    "plyground.arena": ("plyground.apps",),
    "plyground.errors": ("plyground.core", "plyground.g2048", "plyground.kinrow", "plyground.arena", "plyground.apps"),
    "plyground._jit": ("plyground.core", "plyground.g2048", "plyground.kinrow", "plyground.arena", "plyground.apps"),
}


def test_imports_flow_one_way() -> None:
    wrong = [
        f"{e.source} -> {e.target} (line {e.line}{', TYPE_CHECKING' if e.type_checking else ''})"
        for e in IMPORTS
        for layer, forbidden in LAYERS.items()
        if _under(e.source, layer) and any(_under(e.target, other) for other in forbidden)
    ]
    assert not wrong, "imports against the layers (apps -> g2048/kinrow -> core):\n" + "\n".join(wrong)


def test_no_module_over_600_lines() -> None:
    long = long_modules()
    assert not long, f"modules over {MAX_LINES} lines (split them where they do two jobs): {long}"


def _functions(path: Path) -> set[str]:
    """The names of the functions a module defines at its top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_one_expectimax_search_for_every_evaluator() -> None:
    """The 2048 search is written once (``_search_kernels``): an evaluator brings leaf kernels, never a search."""
    searches = sorted(
        str(path.relative_to(SRC))
        for path in (SRC / "plyground" / "g2048").rglob("*.py")
        if _functions(path) & {"_chance", "_search_move", "_search_jobs", "_leaves"}
    )
    assert searches == ["plyground/g2048/_search_kernels.py"]
    compiled = sorted(
        str(path.relative_to(SRC))
        for path in (SRC / "plyground").rglob("*.py")
        if "search_kernel(" in path.read_text(encoding="utf-8") and path.name != "_search_kernels.py"
    )
    assert compiled == [
        "plyground/g2048/_heuristic_kernels.py",
        "plyground/g2048/_ntuple_leaf_kernels.py",
        "plyground/g2048/expectimax.py",
    ]


def _top_functions(where: Path) -> list[tuple[str, ast.FunctionDef, str]]:
    """Every top-level function of the modules under ``where``: its module's path, its node and its source."""
    found = []
    for path in sorted(where.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef):
                found.append((str(path.relative_to(SRC)), node, ast.get_source_segment(text, node) or ""))
    return found


def test_one_mcts_search_and_one_vcf_solver() -> None:
    """k-in-a-row's MCTS is one template compiled per policy; the VCF solver is one kernel with a quick mode."""
    functions = _top_functions(SRC / "plyground")
    backups = [f"{path}:{node.name}" for path, node, source in functions if "wins[slot] += 0.5" in source]
    assert backups == ["plyground/kinrow/_mcts_kernels.py:_iterate"]
    solvers = [f"{path}:{node.name}" for path, node, _ in functions if node.name.startswith("_vcf")]
    assert solvers == ["plyground/kinrow/_threat_kernels.py:_vcf"]


def test_applications_never_ask_an_evaluators_type() -> None:
    """Apps use an evaluator's kind, name, explain() and JSON; only training (which makes networks) names a type."""
    asking = re.compile(r"isinstance\([^)]*\b(Heuristic|NTupleNetwork|Evaluator)\b|\btype\([^)]*evaluator")
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted((SRC / "plyground" / "apps").rglob("*.py"))
        if path.name != "g2048_learn.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if asking.search(line)
    ]
    assert not found, "\n".join(found)


def test_applications_never_ask_a_players_kind_or_type() -> None:
    """Apps make a player from the registry's name and read its report(); they never branch on which it is."""
    asking = re.compile(
        r"isinstance\([^)]*\b(Engine|MCTS|AlphaBeta|RandomPlayer|FirstLegalPlayer)\b"
        r"|\b(opponent|kind|player)\s*==\s*[\"'](engine|mcts|alphabeta|random|first_legal)[\"']"
    )
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted((SRC / "plyground" / "apps").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if asking.search(line)
    ]
    assert not found, "\n".join(found)


def test_applications_call_what_the_player_protocol_promises() -> None:
    """``stop``, ``prepare`` and ``set_memory`` are the Player protocol's: nobody looks them up with getattr."""
    looking_up = re.compile(r"getattr\([^)]*[\"'](stop|prepare|set_memory)[\"']")
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted((SRC / "plyground").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if looking_up.search(line)
    ]
    assert not found, "\n".join(found)


BENCHMARK_DEBTS: dict[str, set[str]] = {}
"""What the measuring scripts (``benchmarks/``, ``experiments/*/``, ``recipes/``) still reach that is not
plyground's public API, or the ``sys.path`` tricks they still play: debts, by script. Every one is paid, and the
list only shrinks, so it stays empty: a script that needs what the public API does not offer gets it made public
first (as the exact fit got ``ExactValues`` and ``ExactFit``)."""

MEASURING_SCRIPTS = ("benchmarks/*.py", "experiments/*/*.py", "recipes/*.py")
"""Where the measuring scripts are, from the checkout's root."""


def _private_reach(path: Path) -> set[str]:
    """The private plyground modules and names a script imports, and ``sys.path`` if it changes it."""
    text = path.read_text(encoding="utf-8")
    found = {"sys.path"} if re.search(r"sys\.path\.(insert|append)", text) else set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("plyground"):
            if any(part.startswith("_") for part in node.module.split(".")):
                found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names if alias.name.startswith("_"))
        elif isinstance(node, ast.Import):
            found.update(
                alias.name for alias in node.names
                if alias.name.startswith("plyground") and any(part.startswith("_") for part in alias.name.split("."))
            )  # fmt: skip
    return found


def _local_helpers(path: Path, scripts: set[str]) -> set[str]:
    """The modules a script imports whose name starts with ``_`` (a helper beside a benchmark, not a package's),
    and the scripts of another folder it imports (``scripts``: every measuring script's name): a script of its own
    folder is on its path when it runs, another folder's only by a trick."""
    own = {other.stem for other in path.parent.glob("*.py")}
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        modules = [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else []
        modules += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        found.update(name for name in modules if name.startswith("_") or (name in scripts and name not in own))
    return found - {"__future__"}


def test_benchmarks_reach_no_further_into_private_code() -> None:
    """No measuring script takes a new private import or ``sys.path`` trick; a debt paid is taken off the list.

    The campaigns and recipes also import no helper of ``benchmarks/`` (``_common``) and no script of another
    folder: only plyground's public API (and a script of their own folder, whose campaign shares its code).
    """
    root = SRC.parent
    paths = sorted(path for pattern in MEASURING_SCRIPTS for path in root.glob(pattern))
    assert len(paths) > 20
    reach = {path.relative_to(root).as_posix(): _private_reach(path) for path in paths}
    scripts = {path.stem for path in paths}
    for name, found in reach.items():
        if not name.startswith("benchmarks/"):
            found.update(_local_helpers(root / name, scripts))
    new = {name: sorted(found - BENCHMARK_DEBTS.get(name, set())) for name, found in reach.items()}
    assert {name: found for name, found in new.items() if found} == {}, "the scripts must use the public API"
    paid = {name: sorted(debt - reach.get(name, set())) for name, debt in BENCHMARK_DEBTS.items()}
    assert {name: debt for name, debt in paid.items() if debt} == {}, "take the paid debts off BENCHMARK_DEBTS"


def test_two_negamax_searches_and_one_transposition_table() -> None:
    """k-in-a-row's negamax searches are the engine's (k 3 to 5) and alpha-beta's (any k: the searcher of k 6 and
    more, where it beats MCTS); both, and the threat solver, keep positions in the one table of ``_table_kernels``."""
    functions = _top_functions(SRC / "plyground")
    negamax = sorted(f"{path}:{node.name}" for path, node, _ in functions if "negamax" in node.name)
    assert negamax == [
        "plyground/kinrow/_alphabeta_kernels.py:_negamax",
        "plyground/kinrow/_engine_kernels.py:_negamax",
    ]
    writes = re.compile(r'\[\s*"(key|check|value|move|depth|flag|flags|bound)"\s*\]\s*=(?!=)')
    writers = sorted(
        {path for path, _, source in functions if writes.search(source) and path.startswith("plyground/kinrow/")}
    )
    assert writers == ["plyground/kinrow/_table_kernels.py"]
    tables = sorted(
        str(path.relative_to(SRC))
        for path in (SRC / "plyground" / "kinrow").glob("*.py")
        if re.search(r"np\.dtype\(\s*\[", path.read_text(encoding="utf-8"))
    )
    assert tables == ["plyground/kinrow/_table_kernels.py"]

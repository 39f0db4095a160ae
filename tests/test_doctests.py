"""The examples in the docstrings of every module of plyground run and give what they show.

Every module is found by walking the package (a new module is checked without being listed
here), imported, and its docstring examples run. A module that cannot be imported fails; so
does a module whose source shows an example (``>>>``) that the doctest finder never ran, and
a run that finds no example anywhere.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

import plyground

PACKAGE = Path(plyground.__file__).parent
# A package that fails to import hides its modules from the walk: test_every_module_is_found says so.
_WALK = pkgutil.walk_packages(plyground.__path__, prefix="plyground.", onerror=lambda name: None)
MODULES = ["plyground", *sorted(info.name for info in _WALK)]
# The modules whose examples were run before every module's were, and those their own test files ran a second
# time before that was left to this file: each must keep some.
WITH_EXAMPLES = [
    "plyground.g2048",
    "plyground.g2048.board",
    "plyground.g2048.game",
    "plyground.g2048.heuristic",
    "plyground.g2048.expectimax",
    "plyground.g2048.autoplay",
    "plyground.g2048.tablebase.formation",
    "plyground.g2048.tablebase.solve",
    "plyground.g2048.ntuple",
    "plyground.g2048.ntuple.network",
    "plyground.g2048.ntuple.tuples",
    "plyground.g2048.ntuple.training",
    "plyground.g2048.ntuple.run",
    "plyground.g2048.ntuple.settings",
    "plyground.g2048.shards.codec",
    "plyground.kinrow.board",
    "plyground.kinrow.budget",
    "plyground.kinrow.renju",
    "plyground.kinrow.alphabeta",
    "plyground.kinrow.selfplay",
    "plyground.core.elias_fano",
    "plyground.core.splitmix",
    "plyground.core.files",
    "plyground.core.stats",
    "plyground.apps.text",
    "plyground.apps.play",
    "plyground.apps.frames",
    "plyground.apps.searcher",
    "plyground.apps.tk_board",
    "plyground.apps.aiview",
    "plyground.apps.pbrain",
    "plyground.apps.pbrain_clock",
    "plyground.apps.pbrain_player",
    "plyground.apps.report",
    "plyground.apps.cli.g2048_hint",
    "plyground.apps.cli.options",
]


def _run(module: ModuleType) -> doctest.TestResults:
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(module, module.__name__):
        runner.run(test)
    return runner.summarize(verbose=False)


def _examples_in_source(module: ModuleType) -> int:
    return sum(line.lstrip().startswith(">>>") for line in inspect.getsource(module).splitlines())


def test_every_module_is_found() -> None:
    files = {
        ".".join(("plyground", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
        for path in PACKAGE.rglob("*.py")
    }
    assert len(files) > 50 and set(MODULES) == files, sorted(set(MODULES) ^ files)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)  # a module that cannot be imported fails here
    result = _run(module)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (see above)"
    shown = _examples_in_source(module)
    assert result.attempted >= shown, f"{name} shows {shown} examples (>>>) but only {result.attempted} ran"


def test_examples_are_found_at_all() -> None:
    for name in WITH_EXAMPLES:
        assert _run(importlib.import_module(name)).attempted > 0, name
    assert sum(_examples_in_source(importlib.import_module(name)) for name in MODULES) > 50

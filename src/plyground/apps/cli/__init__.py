"""The ``plyground`` command line, built with typer.

:mod:`~plyground.apps.cli.main` holds the root app, ``--version`` and the one-line
error handling; each game has a sub-app in a module of its own (``g2048``), registered
in ``main`` with one line. A new command of a game is a new function in its module.

Start-up stays fast: these modules import only typer and the standard library at the
top. A command imports its game inside its body, after :func:`compile_kernels` (or
:func:`announce_compilation`).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import time
from pathlib import Path

__all__ = ["announce_compilation", "compile_kernels"]

KernelGroup = tuple[str, str, str]
"""A package's kernel file and what to call its kernels: ``("plyground.kinrow", "_mcts_kernels.py", "MCTS")``."""


def compile_kernels(*groups: KernelGroup) -> None:
    """Compile the kernels of ``groups`` whose cache is cold now, saying so in one line on stderr with the time taken.

    Call it at the start of a command, before its first import of a game package, with
    every kernel group the command needs: on a first run (or after the kernels changed,
    or with a new ``NUMBA_CACHE_DIR``) the line reads, once the compilation is done,
    ``Compiling plyground's k-in-a-row and MCTS kernels (first run only)... done in 3.1 s``.
    Groups already imported or cached are skipped; with nothing to compile nothing is printed.

    Raises:
        LookupError: a group names a package or kernel file that is not there (a command's
            list is wrong: skipping it would compile it later, unannounced). Only stderr is written (``pbrain`` speaks a
    protocol on stdout).
    """
    cold: list[tuple[str, str]] = []
    for package, kernels, label in groups:
        module = f"{package}.{kernels.removesuffix('.py')}"
        if module in sys.modules or any(module == name for name, _ in cold):
            continue
        path = _kernel_file(package, kernels)
        if path is None:
            raise LookupError(f"{package} has no kernel file {kernels}")
        from plyground._jit import cache_is_warm

        if not cache_is_warm(str(path)):
            cold.append((module, label))
    if not cold:
        return
    labels = list(dict.fromkeys(label for _, label in cold))  # kernel files of one label are named once
    named = labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"
    print(f"Compiling plyground's {named} kernels (first run only)...", end="", file=sys.stderr, flush=True)
    start = time.perf_counter()
    finished = False
    try:
        for module, _ in cold:
            importlib.import_module(module)  # kernels have eager signatures: importing compiles them
        finished = True
    finally:
        print(f" done in {time.perf_counter() - start:.1f} s" if finished else "", file=sys.stderr, flush=True)


def announce_compilation(package: str, label: str, *, kernels: str = "_kernels.py") -> None:
    """:func:`compile_kernels` for one group: the kernel file ``kernels`` of ``package``, called ``label``."""
    compile_kernels((package, kernels, label))


def _kernel_file(package: str, kernels: str) -> Path | None:
    """The path of the kernel file ``kernels`` of ``package``, found without importing the package."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / kernels
    return path if path.is_file() else None

"""The ``plyground`` command line, built with typer.

:mod:`~plyground.apps.cli.main` holds the root app, ``--version`` and the one-line
error handling; each game has a sub-app in a module of its own (``g2048``), registered
in ``main`` with one line. A new command of a game is a new function in its module.

Start-up stays fast: these modules import only typer and the standard library at the
top. A command imports its game inside its body, after :func:`announce_compilation`.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

__all__ = ["announce_compilation"]


def announce_compilation(package: str, label: str, *, kernels: str = "_kernels.py") -> None:
    """Say on stderr, in one line, when importing ``package`` will compile its kernels.

    Call it just before the first import of a game package (``"plyground.g2048"``);
    it looks for the package's kernel file ``kernels`` (``_kernels.py``, or one that only
    some commands use, like ``_solver_kernels.py``) without importing it, and says
    nothing when that module is already imported or its kernels are cached.
    """
    if f"{package}.{kernels.removesuffix('.py')}" in sys.modules:
        return
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return
    path = Path(next(iter(spec.submodule_search_locations))) / kernels
    if not path.is_file():
        return
    from plyground._jit import cache_is_warm

    if not cache_is_warm(str(path)):
        print(f"Compiling plyground's {label} kernels (first run only, about a minute)...", file=sys.stderr, flush=True)

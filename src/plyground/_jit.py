"""The only place where numba options are set.

Every kernel module decorates with :func:`kernel` (eager signature, for bitboard
kernels) or :func:`lazy_kernel` (types inferred on first call). Options:

* ``cache=True`` - compiled code is written next to the sources and reused, so only
  the very first run pays the compilation;
* ``nogil=True`` - kernels release the GIL, so threads can run them on every core;
* no ``fastmath`` - search values must be exact and reproducible;
* ``error_model="numpy"`` - no Python-style checks of division by zero in hot loops.

Set ``NUMBA_DISABLE_JIT=1`` to run every kernel as plain Python (slow; used by the
test-suite to cover kernel bodies).
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy"}


def kernel(signature: Any = None) -> Callable[[F], F]:
    """Decorate a kernel, compiled eagerly when ``signature`` (a string or numba signature) is given."""

    def wrap(func: F) -> F:
        import numba  # here, so that checking the cache (below) does not load numba

        if signature is None:
            return cast(F, numba.njit(**OPTIONS)(func))
        return cast(F, numba.njit(signature, **OPTIONS)(func))

    return wrap


def cache_is_warm(module_file: str) -> bool:
    """Whether compiled kernels of the module at ``module_file`` are cached on disk.

    Used by the command line to announce a first-run compilation. Does not import
    the module (and so does not trigger the compilation).
    """
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return True
    directory, name = os.path.split(module_file)
    stem = os.path.splitext(name)[0]
    candidates = [os.path.join(directory, "__pycache__")]
    cache_dir = os.environ.get("NUMBA_CACHE_DIR")
    if cache_dir:
        candidates.append(cache_dir)
    return any(glob.glob(os.path.join(d, "**", f"{stem}.*.nbi"), recursive=True) for d in candidates)

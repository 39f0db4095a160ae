"""The only place where numba options are set.

Every kernel module decorates with :func:`kernel`: ``@kernel("u8(u8)")`` compiles eagerly
for the given signature (bitboard kernels), a bare ``@kernel()`` compiles on the first call
for the argument types it meets. Options (:data:`OPTIONS`):

* ``cache=True`` - compiled code is written next to the sources and reused, so only
  the very first run pays the compilation;
* ``nogil=True`` - kernels release the GIL, so threads can run them on every core;
* no ``fastmath`` - search values must be exact and reproducible;
* ``error_model="numpy"`` - no Python-style checks of division by zero in hot loops;
* no ``parallel=True``: kernels that share work out over threads are called from several
  Python threads at once (they release the GIL) and claim their work with :func:`fetch_add`,
  so that a thread that the operating system does not run holds up no other
  (``plyground.core.crew``).

:func:`prefetch` (imported from here by kernels) asks the processor to start loading an
array element into the cache; kernels that read many scattered elements issue it as soon
as they know where, so that the loads overlap. :func:`fetch_add` adds to an array element
atomically and returns what it held: the threads running one kernel at once take their
next piece of work with it.

Set ``NUMBA_DISABLE_JIT=1`` to run every kernel as plain Python (slow; used by the
test-suite to cover kernel bodies).
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import inspect
import os
import sys
import threading
from collections.abc import Callable
from types import FunctionType
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy"}


def kernel(
    signature: Any = None, *, inline: bool = False, refcount: bool = True, compiles_in: tuple[Any, ...] = ()
) -> Callable[[F], F]:
    """Decorate a kernel, compiled eagerly when ``signature`` (a string or numba signature) is given.

    ``inline``: the kernel's body is compiled into every kernel that calls it (numba's
    ``inline="always"``), for small kernels called in hot loops, where a call's cost (each
    array argument passed as a structure) is more than the work it does.

    ``refcount=False``: the kernel keeps no count of references to its arrays (numba's
    ``_nrt=False``). numba otherwise counts a reference to every array argument when a kernel
    starts and takes it back at each return, an atomic operation a call each: 50 a node for
    a recursive search that takes 25 arrays (measured: the gomoku engine's search 1.1-1.3×
    faster without them). Only for kernels that create no array and return none: the arrays
    they are given belong to their caller, and stay alive while it runs.

    ``compiles_in``: kernels of other modules that this one compiles in, not by name (a search
    compiled for an evaluator's leaf kernels). It is cached only when each of them is in a kernel
    file of plyground (whose changes :func:`drop_stale_cache` watches); else, compiled anew in each
    process, it can never run stale code.
    """
    options = {**OPTIONS, "inline": "always"} if inline else dict(OPTIONS)
    if not refcount:
        options["_nrt"] = False
    if not all(_watched(other) for other in compiles_in):
        options["cache"] = False

    def wrap(func: F) -> F:
        import numba  # here, so that checking the cache (below) does not load numba

        module = sys.modules.get(func.__module__)
        if module is not None and getattr(module, "__file__", None):
            drop_stale_cache(module.__file__)  # type: ignore[arg-type]

        if signature is None:
            return cast(F, numba.njit(**options)(func))
        return cast(F, numba.njit(signature, **options)(func))

    return wrap


def copy_template(template: Callable[..., Any], namespace: dict[str, Any], name: str) -> Callable[..., Any]:
    """A copy of the Python function ``template`` that reads its globals from ``namespace``, named ``name``.

    How a search written once is specialised: ``namespace`` binds the names the template leaves
    open (an evaluator's leaf kernels, an MCTS policy's) and :func:`kernel` compiles the copy. The
    copy keeps the template's module and code, so numba caches it beside the template's file, and
    under its own name, apart from the copies of other bindings.
    """
    copy = FunctionType(template.__code__, namespace, name, template.__defaults__, template.__closure__)
    copy.__qualname__ = name
    copy.__module__ = template.__module__
    copy.__doc__ = template.__doc__
    return copy


def _watched(function: Any) -> bool:
    """Whether ``function`` (a kernel, or its Python function) is in a kernel file of plyground.

    Those are the files whose changes :func:`drop_stale_cache` watches.
    """
    path = os.path.abspath(inspect.getfile(getattr(function, "py_func", function)))
    return path.startswith(_PACKAGE + os.sep) and path.endswith("kernels.py")


_CHECKED: set[str] = set()
_STAMP = "kernels.sha256"


_COMPILED_IN = ("core/splitmix.py", "g2048/_tables.py", "kinrow/cell_classes.py")
"""Modules that are not kernel files but whose constants kernels compile in: part of every folder's digest."""
_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _kernel_digest(directory: str) -> tuple[list[str], str]:
    """The kernel files of a folder and a digest of their contents, of this module and of :data:`_COMPILED_IN`."""
    sources = sorted(glob.glob(os.path.join(directory, "*kernels.py")))
    digest = hashlib.sha256()
    for source in [*sources, __file__, *(os.path.join(_PACKAGE, name) for name in _COMPILED_IN)]:
        with open(source, "rb") as handle:
            digest.update(handle.read())
    return sources, digest.hexdigest()


def cache_folder(directory: str) -> str:
    """The folder where numba caches the kernels of the source folder ``directory``.

    numba's own choice, in its order: under ``NUMBA_CACHE_DIR`` when it is set (in a
    subfolder named after the source folder and a hash of its path); else the source
    folder's ``__pycache__`` when it can be written; else numba's cache folder in the
    user's home.
    """
    directory = os.path.abspath(directory)
    sub = f"{os.path.basename(directory)}_{hashlib.sha1(directory.encode()).hexdigest()}"
    cache_dir = os.environ.get("NUMBA_CACHE_DIR")
    if cache_dir:
        return os.path.join(cache_dir, sub)
    in_tree = os.path.join(directory, "__pycache__")
    if os.access(in_tree if os.path.isdir(in_tree) else directory, os.W_OK):
        return in_tree
    from numba.misc.appdirs import AppDirs  # a read-only install: rare, and numba is loaded next anyway

    home_cache: str = AppDirs(appname="numba", appauthor=False).user_cache_dir  # type: ignore[no-untyped-call]
    return os.path.join(home_cache, sub)


def _stamp_matches(folder: str, digest: str) -> bool:
    try:
        with open(os.path.join(folder, _STAMP), encoding="ascii") as handle:
            return handle.read().strip() == digest
    except OSError:
        return False


def drop_stale_cache(module_file: str) -> None:
    """Forget cached kernels of a package folder when any of its kernel files changed.

    numba checks a cached kernel against its own file only, not against the kernels of
    other files that it calls (and compiles into itself), so a change to ``_kernels.py``
    could leave ``_search_kernels.py`` running stale code. The kernel files of a folder
    are therefore treated as one: a digest of all of them (and of the modules whose
    constants they compile in, :data:`_COMPILED_IN`) is kept beside their cache (in
    :func:`cache_folder`), and when it changes, their cache files are removed before
    anything is loaded.
    """
    directory = os.path.dirname(os.path.abspath(module_file))
    if directory in _CHECKED or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    _CHECKED.add(directory)
    sources, digest = _kernel_digest(directory)
    cache = cache_folder(directory)
    if _stamp_matches(cache, digest):
        return
    stamp = os.path.join(cache, _STAMP)
    for source in sources:
        stem = os.path.splitext(os.path.basename(source))[0]
        for cached in glob.glob(os.path.join(glob.escape(cache), f"{stem}.*.nb[ic]")):
            with contextlib.suppress(OSError):
                os.remove(cached)
    try:
        os.makedirs(cache, exist_ok=True)
        temporary = f"{stamp}.{os.getpid()}"
        with open(temporary, "w", encoding="ascii") as handle:
            handle.write(digest)
        os.replace(temporary, stamp)
    except OSError:
        pass  # nowhere to write: numba cannot cache either, and compiles in every run


def cache_is_warm(module_file: str) -> bool:
    """Whether compiled kernels of the module at ``module_file`` are cached where numba will look.

    Used by the command line to announce a first-run compilation. Looks in
    :func:`cache_folder` (so under ``NUMBA_CACHE_DIR`` when it is set) for this
    module's cache index files of this Python version, and checks that the kernel files
    of the folder have not changed since (see :func:`drop_stale_cache`). Does not import
    the module (and so does not trigger the compilation).
    """
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return True
    directory, name = os.path.split(os.path.abspath(module_file))
    stem = os.path.splitext(name)[0]
    cache = cache_folder(directory)
    if not _stamp_matches(cache, _kernel_digest(directory)[1]):
        return False  # never compiled there, or the kernels changed since: they compile again
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    return bool(glob.glob(os.path.join(glob.escape(cache), f"{stem}.*.{tag}.nbi")))


def _no_prefetch(array: Any, index: int) -> None:
    """:func:`prefetch` when kernels run as plain Python: nothing to do."""


def _make_prefetch() -> Callable[..., None]:
    """The ``llvm.prefetch`` intrinsic for numba kernels: ``prefetch(array, index)``.

    ``array`` is a one-dimensional array and ``index`` a non-negative integer below its
    length (unchecked, as in any kernel; a prefetch never faults). The element is
    prefetched for reading into all cache levels. It returns nothing and changes nothing.
    """
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return _no_prefetch
    from llvmlite import ir
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def prefetch(typingctx: Any, array: Any, index: Any) -> Any:
        if not (isinstance(array, types.Array) and array.ndim == 1 and isinstance(index, types.Integer)):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            byte_pointer = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            function_type = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
            name = "llvm.prefetch.p0i8"
            function = builder.module.globals.get(name) or ir.Function(builder.module, function_type, name=name)
            address = builder.bitcast(builder.gep(data, [args[1]]), byte_pointer)
            builder.call(function, [address, i32(0), i32(3), i32(1)])  # read, keep in all caches, data
            return context.get_dummy_value()

        return types.void(array, index), codegen

    return cast(Callable[..., None], prefetch)


_FETCH_ADD_LOCK = threading.Lock()


def _python_fetch_add(array: Any, index: int, value: int) -> int:
    """:func:`fetch_add` when kernels run as plain Python: the same, under a lock."""
    with _FETCH_ADD_LOCK:
        old = int(array[index])
        array[index] = old + value
        return old


def _make_fetch_add() -> Callable[..., int]:
    """An atomic add for numba kernels: ``fetch_add(array, index, value)``.

    ``array`` is a one-dimensional int64 array, ``index`` an integer below its length and
    ``value`` an integer (unchecked, as in any kernel). Adds ``value`` to ``array[index]`` as
    one indivisible step (sequentially consistent) and returns the element's value before:
    threads that call it at once on the same element each get a different value.
    """
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return _python_fetch_add
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def fetch_add(typingctx: Any, array: Any, index: Any, value: Any) -> Any:
        if not (
            isinstance(array, types.Array)
            and array.ndim == 1
            and array.dtype == types.int64
            and isinstance(index, types.Integer)
            and isinstance(value, types.Integer)
        ):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            addend = context.cast(builder, args[2], signature.args[2], types.int64)
            return builder.atomic_rmw("add", builder.gep(data, [args[1]]), addend, "seq_cst")

        return types.int64(array, index, value), codegen

    return cast(Callable[..., int], fetch_add)


_BUILDERS: dict[str, Callable[[], Any]] = {"prefetch": _make_prefetch, "fetch_add": _make_fetch_add}


def __getattr__(name: str) -> Any:
    """``prefetch`` and ``fetch_add`` are built on first use, so that importing this module does not load numba."""
    if name in _BUILDERS:
        value = _BUILDERS[name]()
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""The kernel cache is dropped as a whole when any kernel file of a folder changes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from plyground import _jit

TAG = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"  # in numba's file names


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(_jit, "_CHECKED", set())
    (tmp_path / "_kernels.py").write_text("x = 1\n")
    (tmp_path / "_search_kernels.py").write_text("y = 2\n")
    (tmp_path / "__pycache__").mkdir()
    return tmp_path


def _cache_files(package: Path, folder: Path | None = None) -> list[str]:
    folder = folder or package / "__pycache__"
    folder.mkdir(parents=True, exist_ok=True)
    names = [f"_kernels._move-10.{TAG}.nbi", f"_kernels._move-10.{TAG}.1.nbc", f"_search_kernels._chance-5.{TAG}.nbi"]
    for name in names:
        (folder / name).write_bytes(b"compiled")
    return names


def test_unchanged_kernels_keep_their_cache(package: Path) -> None:
    _jit.drop_stale_cache(str(package / "_kernels.py"))  # first run: writes the stamp
    names = _cache_files(package)
    _jit._CHECKED.clear()
    _jit.drop_stale_cache(str(package / "_kernels.py"))
    assert all((package / "__pycache__" / name).exists() for name in names)
    assert _jit.cache_is_warm(str(package / "_kernels.py"))


def test_a_changed_kernel_file_drops_the_cache_of_all(package: Path) -> None:
    _jit.drop_stale_cache(str(package / "_kernels.py"))
    names = _cache_files(package)
    (package / "_kernels.py").write_text("x = 3\n")  # _search_kernels compiled the old one into itself
    assert not _jit.cache_is_warm(str(package / "_search_kernels.py"))
    _jit._CHECKED.clear()
    _jit.drop_stale_cache(str(package / "_search_kernels.py"))
    assert not any((package / "__pycache__" / name).exists() for name in names)
    (package / "__pycache__" / "unrelated.txt").write_text("kept")
    _jit._CHECKED.clear()
    _jit.drop_stale_cache(str(package / "_kernels.py"))
    assert (package / "__pycache__" / "unrelated.txt").exists()


def test_a_change_to_the_jit_module_drops_the_cache(package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kernels compile ``_jit``'s helpers (the prefetch intrinsic) into themselves."""
    _jit.drop_stale_cache(str(package / "_kernels.py"))
    _cache_files(package)
    assert _jit.cache_is_warm(str(package / "_kernels.py"))
    changed = package / "_jit_changed.py"
    changed.write_text(Path(_jit.__file__).read_text() + "\n# changed\n")
    monkeypatch.setattr(_jit, "__file__", str(changed))
    assert not _jit.cache_is_warm(str(package / "_kernels.py"))


def test_prefetch_compiles_into_a_kernel_and_changes_nothing() -> None:
    import numba
    import numpy as np

    from plyground._jit import prefetch

    @numba.njit
    def prefetch_then_sum(values: np.ndarray, positions: np.ndarray) -> float:
        for i in positions:
            prefetch(values, i)
        total = 0.0
        for i in positions:
            total += values[i]
        return total

    values = np.arange(1000, dtype=np.float32)
    positions = np.array([3, 999, 0, 512], dtype=np.int64)
    before = values.copy()
    assert prefetch_then_sum(values, positions) == 3 + 999 + 0 + 512
    assert np.array_equal(values, before)
    assert "llvm.prefetch" in next(iter(prefetch_then_sum.inspect_llvm().values()))


def test_prefetch_is_a_no_op_without_the_jit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    prefetch = _jit._make_prefetch()
    assert prefetch is _jit._no_prefetch
    assert prefetch([1.0, 2.0], 1) is None


def test_importing_the_jit_module_does_not_load_numba() -> None:
    code = "import sys, plyground._jit; print('numba' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


def test_the_cache_of_another_python_version_is_not_warm(package: Path) -> None:
    _jit.drop_stale_cache(str(package / "_kernels.py"))
    (package / "__pycache__" / "_kernels._move-10.py27.nbi").write_bytes(b"compiled")
    assert not _jit.cache_is_warm(str(package / "_kernels.py"))
    _cache_files(package)
    assert _jit.cache_is_warm(str(package / "_kernels.py"))


def test_with_numba_cache_dir_the_cache_is_looked_for_there_only(
    package: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _jit.drop_stale_cache(str(package / "_kernels.py"))
    _cache_files(package)  # warm in __pycache__...
    assert _jit.cache_is_warm(str(package / "_kernels.py"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    _jit._CHECKED.clear()
    folder = Path(_jit.cache_folder(str(package)))
    assert folder.parent == tmp_path / "elsewhere" and folder.name.startswith(f"{package.name}_")
    assert not _jit.cache_is_warm(str(package / "_kernels.py"))  # ...but numba looks in NUMBA_CACHE_DIR
    _jit.drop_stale_cache(str(package / "_kernels.py"))  # the stamp goes beside the cache
    assert (folder / "kernels.sha256").exists()
    assert not _jit.cache_is_warm(str(package / "_kernels.py"))
    names = _cache_files(package, folder)
    assert _jit.cache_is_warm(str(package / "_kernels.py"))
    (package / "_kernels.py").write_text("x = 3\n")  # a change drops the cache under NUMBA_CACHE_DIR too
    assert not _jit.cache_is_warm(str(package / "_search_kernels.py"))
    _jit._CHECKED.clear()
    _jit.drop_stale_cache(str(package / "_search_kernels.py"))
    assert not any((folder / name).exists() for name in names)


@pytest.mark.parametrize("cache_dir", [False, True])
def test_cache_is_warm_agrees_with_where_numba_writes(tmp_path: Path, cache_dir: bool) -> None:
    """A real kernel compiled in a fresh process: cold before, warm after, wherever numba caches it."""
    package = tmp_path / "game"
    package.mkdir()
    (package / "_kernels.py").write_text(
        textwrap.dedent(
            """
            from plyground._jit import kernel

            @kernel("i8(i8)")
            def _twice(x):
                return 2 * x
            """
        )
    )
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        from plyground._jit import cache_is_warm
        path = {str(package / "_kernels.py")!r}
        before = cache_is_warm(path)
        from game._kernels import _twice
        assert _twice(21) == 42
        print(before, cache_is_warm(path))
        """
    )
    env = {key: value for key, value in os.environ.items() if not key.startswith("NUMBA_")}
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba-cache")

    def run() -> str:
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    assert run() == "False True"  # compiled, then cached
    assert run() == "True True"
    nbi = sorted(path.parent.name for path in tmp_path.rglob("_kernels._twice-*.nbi"))
    assert nbi == ([f"game_{_sha1(package)}"] if cache_dir else ["__pycache__"])
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "another-cache")  # warm elsewhere, cold here
        assert run() == "False True"
        del env["NUMBA_CACHE_DIR"]  # nothing was ever cached in the package's __pycache__
        assert run() == "False True"


def _sha1(folder: Path) -> str:
    import hashlib

    return hashlib.sha1(str(folder).encode()).hexdigest()


def test_a_change_to_a_module_kernels_compile_in_drops_the_cache(
    package: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kernels compile in the constants of ``core/splitmix.py`` and the tables of ``g2048/_tables.py``."""
    shared = tmp_path / "constants.py"
    shared.write_text("GOLDEN = 1\n")
    monkeypatch.setattr(_jit, "_COMPILED_IN", (str(shared),))
    _jit.drop_stale_cache(str(package / "_kernels.py"))
    _cache_files(package)
    assert _jit.cache_is_warm(str(package / "_kernels.py"))
    shared.write_text("GOLDEN = 2\n")
    assert not _jit.cache_is_warm(str(package / "_kernels.py"))


def test_every_module_a_kernel_file_imports_is_in_its_digest() -> None:
    import re

    root = Path(_jit.__file__).parent
    imported = set()
    for source in root.glob("*/*kernels.py"):
        for module in re.findall(r"^from plyground\.(\w+)\.(\w+) import", source.read_text(), re.MULTILINE):
            if not module[1].endswith("kernels"):  # kernel files are in their folder's digest already
                imported.add("/".join(module) + ".py")
    assert imported == set(_jit._COMPILED_IN)
    assert all((root / name).is_file() for name in _jit._COMPILED_IN)


def test_fetch_add_gives_every_thread_a_different_value() -> None:
    """Threads that take work with ``fetch_add`` at once never take the same piece, nor skip one."""
    import threading

    import numba
    import numpy as np

    from plyground._jit import fetch_add

    @numba.njit(nogil=True)
    def take_all(counter: np.ndarray, taken: np.ndarray) -> None:
        while True:
            piece = fetch_add(counter, 0, 1)
            if piece >= taken.shape[0]:
                return
            taken[piece] += 1

    counter, taken = np.zeros(1, dtype=np.int64), np.zeros(200_000, dtype=np.int64)
    take_all(np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))  # compiled before the threads start
    threads = [threading.Thread(target=take_all, args=(counter, taken)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (taken == 1).all()  # each piece taken exactly once
    assert counter[0] == taken.shape[0] + 4  # and each thread's last look past the end counted
    assert "atomicrmw add" in next(iter(take_all.inspect_llvm().values()))


def test_fetch_add_without_the_jit(monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    fetch_add = _jit._make_fetch_add()
    counter = np.array([5, 7], dtype=np.int64)
    assert fetch_add(counter, 1, 3) == 7 and counter.tolist() == [5, 10]

"""The kernel cache is dropped as a whole when any kernel file of a folder changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from plyground import _jit


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setattr(_jit, "_CHECKED", set())
    (tmp_path / "_kernels.py").write_text("x = 1\n")
    (tmp_path / "_search_kernels.py").write_text("y = 2\n")
    (tmp_path / "__pycache__").mkdir()
    return tmp_path


def _cache_files(package: Path) -> list[str]:
    names = ["_kernels._move-10.py311.nbi", "_kernels._move-10.py311.1.nbc", "_search_kernels._chance-5.py311.nbi"]
    for name in names:
        (package / "__pycache__" / name).write_bytes(b"compiled")
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

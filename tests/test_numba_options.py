"""numba options are set in one place, ``src/plyground/_jit.py``: no other source file sets or uses them.

A kernel decorated with a bare ``numba.njit`` (or given its own ``cache=``, ``fastmath``...)
would compile with other settings than every other kernel, silently. The check reads the
source text, so it also covers modules that cannot be imported here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "plyground"
JIT = SRC / "_jit.py"

_OPTION = r"(?:cache|nogil|fastmath|error_model|parallel|boundscheck)"
NUMBA_OPTION = re.compile(
    "|".join(
        [
            rf"\b{_OPTION}\s*=",  # a keyword argument: njit(cache=True), kernel(parallel=True)
            rf"[\"']{_OPTION}[\"']\s*:",  # a dict of options: {"cache": True}
            r"\bfastmath\b|\berror_model\b|\bboundscheck\b",  # named at all
            r"@\s*(?:numba\s*\.\s*)?n?jit\b",  # a bare decorator: @njit, @jit, @numba.njit
            r"\bnumba\s*\.\s*n?jit\b",  # numba.njit(f), numba.jit
            r"\bfrom\s+numba\s+import\s+[^\n]*\bn?jit\b",  # from numba import njit
        ]
    )
)


def numba_option_uses(text: str) -> list[tuple[int, str]]:
    """The lines of ``text`` (numbered from 1) that set a numba option or compile without :mod:`plyground._jit`."""
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1) if NUMBA_OPTION.search(line)]


def test_no_numba_option_outside_the_jit_module() -> None:
    sources = sorted(SRC.rglob("*.py"))
    assert JIT in sources and len(sources) > 20, "the source tree was not found"
    found = [
        f"{path.relative_to(SRC.parents[1])}:{number}: {line}"
        for path in sources
        if path != JIT
        for number, line in numba_option_uses(path.read_text(encoding="utf-8"))
    ]
    assert not found, "numba options belong in src/plyground/_jit.py only (use its kernel decorator):\n" + "\n".join(
        found
    )


def test_the_jit_module_is_where_the_options_are() -> None:
    assert numba_option_uses(JIT.read_text(encoding="utf-8"))  # the scan sees the real options


@pytest.mark.parametrize(
    "line",
    [
        "@numba.njit(cache=True)",
        "@numba.njit",
        "@njit",
        "@jit(nopython=True)",
        "@numba.jit",
        "step = numba.njit(_step)",
        "from numba import njit, types",
        "@kernel('u8(u8)', fastmath=True)",
        "@numba.njit('void(u8[:])', nogil=True)",
        "@njit(parallel=True)",
        "@numba.njit(error_model='python')",
        "@numba.njit(boundscheck=True)",
        'OPTIONS = {"cache": False}',
    ],
)
def test_a_numba_option_or_bare_decorator_is_flagged(line: str, tmp_path: Path) -> None:
    source = tmp_path / "_kernels.py"
    source.write_text(f"import numba\n\n{line}\ndef _f(x):\n    return x\n", encoding="utf-8")
    assert numba_option_uses(source.read_text(encoding="utf-8")) == [(3, line)]


def test_kernels_through_the_jit_module_are_not_flagged() -> None:
    text = (
        "from numba import from_dtype, types\n"
        "from plyground._jit import kernel, prefetch\n"
        '@kernel("u8(u8)")\n'
        "def _f(x):\n"
        "    return x  # the JIT-compiled twin of the naive f\n"
    )
    assert numba_option_uses(text) == []
